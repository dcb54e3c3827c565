/* Logging and the names of return values. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "token/token.h"
#include "cryptoki/ckr_names.h"

enum vg_log_level vg_log_level = VG_LOG_ERROR;
static int log_to_stderr;

static const char *const level_names[] = {
	"none", "error", "warning", "info", "debug",
};

/* see token/token.h */
void
vg_log_configure(enum vg_log_level configured)
{
	const char *env = getenv("VG_LOG");
	unsigned i;

	vg_log_level = configured;
	log_to_stderr = 0;
	if (env == NULL || *env == '\0')
		return;
	for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++) {
		if (strcmp(env, level_names[i]) == 0) {
			vg_log_level = (enum vg_log_level)i;
			log_to_stderr = 1;
		}
	}
}

/* see token/token.h */
void
vg_log_msg(enum vg_log_level level, const char *fmt, ...)
{
	static const int prio[] = { LOG_ERR, LOG_ERR, LOG_WARNING, LOG_INFO,
		LOG_DEBUG };
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (log_to_stderr)
		fprintf(stderr, "vgtoken: %s: %s\n", level_names[level], buf);
	else
		syslog(LOG_USER | prio[level], "vgtoken: %s", buf);
}

/* see token/token.h */
const char *
vg_rv_name(CK_RV rv)
{
	static __thread char buf[32];
	const char *name = vg_ckr_name(rv);

	if (name != NULL)
		return name;
	snprintf(buf, sizeof(buf), "CKR_0x%lx", (unsigned long)rv);
	return buf;
}

/* see token/token.h */
CK_RV
vg_crv_from_err(enum vg_err e)
{
	switch (e) {
	case VG_OK:
		return CKR_OK;
	case VG_ERR_ARG:
		return CKR_ARGUMENTS_BAD;
	case VG_ERR_LENGTH:
		return CKR_DATA_LEN_RANGE;
	case VG_ERR_DECODE:
		return CKR_DATA_INVALID;
	case VG_ERR_AUTH:
		return CKR_SIGNATURE_INVALID;
	case VG_ERR_NOMEM:
		return CKR_HOST_MEMORY;
	case VG_ERR_RANDOM:
	case VG_ERR_INTERNAL:
		break;
	}
	return CKR_FUNCTION_FAILED;
}
