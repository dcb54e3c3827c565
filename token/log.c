/* Logging and the names of return values. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "token/token.h"

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

#define RV(x) { x, #x }
static const struct {
	CK_RV rv;
	const char *name;
} rv_names[] = {
	RV(CKR_OK), RV(CKR_CANCEL), RV(CKR_HOST_MEMORY),
	RV(CKR_SLOT_ID_INVALID), RV(CKR_GENERAL_ERROR),
	RV(CKR_FUNCTION_FAILED), RV(CKR_ARGUMENTS_BAD), RV(CKR_NO_EVENT),
	RV(CKR_NEED_TO_CREATE_THREADS), RV(CKR_CANT_LOCK),
	RV(CKR_ATTRIBUTE_READ_ONLY), RV(CKR_ATTRIBUTE_SENSITIVE),
	RV(CKR_ATTRIBUTE_TYPE_INVALID), RV(CKR_ATTRIBUTE_VALUE_INVALID),
	RV(CKR_ACTION_PROHIBITED), RV(CKR_DATA_INVALID),
	RV(CKR_DATA_LEN_RANGE), RV(CKR_DEVICE_ERROR), RV(CKR_DEVICE_MEMORY),
	RV(CKR_DEVICE_REMOVED), RV(CKR_ENCRYPTED_DATA_INVALID),
	RV(CKR_ENCRYPTED_DATA_LEN_RANGE), RV(CKR_FUNCTION_CANCELED),
	RV(CKR_FUNCTION_NOT_PARALLEL), RV(CKR_FUNCTION_NOT_SUPPORTED),
	RV(CKR_KEY_HANDLE_INVALID), RV(CKR_KEY_SIZE_RANGE),
	RV(CKR_KEY_TYPE_INCONSISTENT), RV(CKR_MECHANISM_INVALID),
	RV(CKR_MECHANISM_PARAM_INVALID), RV(CKR_OBJECT_HANDLE_INVALID),
	RV(CKR_OPERATION_ACTIVE), RV(CKR_OPERATION_NOT_INITIALIZED),
	RV(CKR_PIN_INCORRECT), RV(CKR_PIN_INVALID), RV(CKR_PIN_LEN_RANGE),
	RV(CKR_PIN_EXPIRED), RV(CKR_PIN_LOCKED), RV(CKR_SESSION_CLOSED),
	RV(CKR_SESSION_COUNT), RV(CKR_SESSION_HANDLE_INVALID),
	RV(CKR_SESSION_PARALLEL_NOT_SUPPORTED), RV(CKR_SESSION_READ_ONLY),
	RV(CKR_SESSION_EXISTS), RV(CKR_SESSION_READ_ONLY_EXISTS),
	RV(CKR_SESSION_READ_WRITE_SO_EXISTS), RV(CKR_SIGNATURE_INVALID),
	RV(CKR_SIGNATURE_LEN_RANGE), RV(CKR_TEMPLATE_INCOMPLETE),
	RV(CKR_TEMPLATE_INCONSISTENT), RV(CKR_TOKEN_NOT_PRESENT),
	RV(CKR_TOKEN_NOT_RECOGNIZED), RV(CKR_TOKEN_WRITE_PROTECTED),
	RV(CKR_USER_ALREADY_LOGGED_IN), RV(CKR_USER_NOT_LOGGED_IN),
	RV(CKR_USER_PIN_NOT_INITIALIZED), RV(CKR_USER_TYPE_INVALID),
	RV(CKR_USER_ANOTHER_ALREADY_LOGGED_IN),
	RV(CKR_USER_TOO_MANY_TYPES), RV(CKR_BUFFER_TOO_SMALL),
	RV(CKR_SAVED_STATE_INVALID), RV(CKR_STATE_UNSAVEABLE),
	RV(CKR_CRYPTOKI_NOT_INITIALIZED),
	RV(CKR_CRYPTOKI_ALREADY_INITIALIZED), RV(CKR_MUTEX_BAD),
	RV(CKR_MUTEX_NOT_LOCKED), RV(CKR_OPERATION_CANCEL_FAILED),
};
#undef RV

/* see token/token.h */
const char *
vg_rv_name(CK_RV rv)
{
	static __thread char buf[32];
	size_t i;

	for (i = 0; i < sizeof(rv_names) / sizeof(rv_names[0]); i++)
		if (rv_names[i].rv == rv)
			return rv_names[i].name;
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
