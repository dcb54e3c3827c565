/*
 * vgtoken-util: reaching tokens through the PKCS#11 functions linked into
 * the tool, error messages, and PINs (from argv or the terminal).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "token/token.h"
#include "util/util.h"

/* see util/util.h */
void
vg_util_err(const char *fmt, ...)
{
	va_list ap;

	vg_util_progress_stop();
	fflush(stdout);
	fputs("vgtoken-util: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A sentence for the results a user meets. */
static const char *
rv_text(CK_RV rv)
{
	switch (rv) {
	case CKR_PIN_INCORRECT:
		return "wrong PIN";
	case CKR_PIN_LOCKED:
		return "the PIN is locked after too many wrong tries";
	case CKR_PIN_LEN_RANGE:
		return "the PIN is too short or too long for the configured "
		       "policy (pin_min_length, pin_max_length)";
	case CKR_USER_PIN_NOT_INITIALIZED:
		return "the token has no user PIN yet";
	case CKR_SESSION_EXISTS:
		return "the token is in use by another session";
	case CKR_DEVICE_REMOVED:
		return "the token was deleted meanwhile";
	case CKR_DEVICE_ERROR:
		return "the token database failed (run with VG_LOG=error for "
		       "details)";
	case CKR_TEMPLATE_INCONSISTENT:
	case CKR_TEMPLATE_INCOMPLETE:
	case CKR_ATTRIBUTE_VALUE_INVALID:
		return "the token refused the object";
	case CKR_CURVE_NOT_SUPPORTED:
		return "the curve is not supported";
	case CKR_USER_NOT_LOGGED_IN:
		return "not logged in";
	case CKR_HOST_MEMORY:
		return "out of memory";
	default:
		return "failed";
	}
}

/* see util/util.h */
int
vg_util_err_rv(const char *what, CK_RV rv)
{
	vg_util_err("%s: %s (%s)", what, rv_text(rv), vg_rv_name(rv));
	return VG_UTIL_FAIL;
}

/* see util/util.h */
int
vg_util_p11_init(void)
{
	CK_RV rv = C_Initialize(NULL);

	if (rv != CKR_OK) {
		vg_util_err_rv("cannot initialise the token library", rv);
		return -1;
	}
	if (!vg_mod.db_ok) {
		vg_util_err("cannot open the token database in %s (run with "
		    "VG_LOG=error for details)", vg_mod.config.data_dir);
		C_Finalize(NULL);
		return -1;
	}
	return 0;
}

/* see util/util.h */
void
vg_util_p11_fini(void)
{
	C_Finalize(NULL);
}

/* see util/util.h */
size_t
vg_util_trimmed(const CK_UTF8CHAR *p, size_t n)
{
	while (n > 0 && p[n - 1] == ' ')
		n--;
	return n;
}

static int
field_is(const CK_UTF8CHAR *p, size_t n, const char *s)
{
	size_t t = vg_util_trimmed(p, n);

	return t == strlen(s) && memcmp(p, s, t) == 0;
}

/* The slot list (malloc'd). */
static CK_RV
slot_list(CK_SLOT_ID **slots, CK_ULONG *n)
{
	CK_RV rv;

	*slots = NULL;
	for (;;) {
		rv = C_GetSlotList(CK_TRUE, NULL, n);
		if (rv != CKR_OK)
			return rv;
		free(*slots);
		*slots = calloc(*n + 1, sizeof(**slots));
		if (*slots == NULL)
			return CKR_HOST_MEMORY;
		rv = C_GetSlotList(CK_TRUE, *slots, n);
		if (rv != CKR_BUFFER_TOO_SMALL)
			return rv;
	}
}

/* see util/util.h */
int
vg_util_find_token(const char *name, CK_SLOT_ID *slot)
{
	CK_SLOT_ID *slots = NULL;
	CK_ULONG n = 0, i;
	int by_label = 0, by_serial = 0, pass;
	CK_RV rv;

	rv = slot_list(&slots, &n);
	if (rv != CKR_OK) {
		free(slots);
		vg_util_err_rv("cannot list the slots", rv);
		return -1;
	}
	/* Labels first; serial numbers when no label matches. */
	for (pass = 0; pass < 2 && by_label == 0; pass++) {
		for (i = 0; i < n; i++) {
			CK_TOKEN_INFO ti;

			if (C_GetTokenInfo(slots[i], &ti) != CKR_OK ||
			    !(ti.flags & CKF_TOKEN_INITIALIZED))
				continue;
			if (pass == 0 && field_is(ti.label, sizeof(ti.label),
			    name)) {
				by_label++;
				*slot = slots[i];
			} else if (pass == 1 && field_is(ti.serialNumber,
			    sizeof(ti.serialNumber), name)) {
				by_serial++;
				*slot = slots[i];
			}
		}
	}
	free(slots);
	if (by_label > 1) {
		vg_util_err("%d tokens are labelled '%s': name one by its "
		    "serial number (see --show-slots)", by_label, name);
		return -1;
	}
	if (by_label == 0 && by_serial == 0) {
		vg_util_err("no token labelled '%s' (see --show-slots)", name);
		return -1;
	}
	return 0;
}

/* see util/util.h */
int
vg_util_err_login(const char *what, CK_RV rv, CK_USER_TYPE who,
    const char *token)
{
	/* A locked user PIN has a way out, which the message names: the
	 * SO's C_InitPIN sets a new one and clears the counter. */
	if (rv == CKR_PIN_LOCKED && who == CKU_USER)
		vg_util_err("%s: the user PIN is locked; the SO can set a new "
		    "one with vgtoken-util --init-pin --token %s (%s)", what,
		    token, vg_rv_name(rv));
	else if (rv == CKR_PIN_LOCKED)
		vg_util_err("%s: the SO PIN is locked after too many wrong "
		    "tries (%s)", what, vg_rv_name(rv));
	else
		vg_util_err_rv(what, rv);
	return VG_UTIL_FAIL;
}

/* see util/util.h */
int
vg_util_open(const char *token, CK_SLOT_ID slot, int rw, CK_USER_TYPE who,
    const struct vg_util_pin *pin, CK_SESSION_HANDLE *h)
{
	CK_RV rv;
	int rc = 0;

	rv = C_OpenSession(slot, CKF_SERIAL_SESSION | (rw ? CKF_RW_SESSION : 0),
	    NULL, NULL, h);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot open a session", rv);
		rc = -1;
	} else if (pin != NULL && pin->v != NULL) {
		vg_util_progress_start("logging in");
		rv = C_Login(*h, who, (CK_UTF8CHAR_PTR)pin->v,
		    (CK_ULONG)pin->len);
		vg_util_progress_stop();
		if (rv != CKR_OK) {
			C_CloseSession(*h);
			vg_util_err_login(who == CKU_SO ? "SO login failed"
			    : "login failed", rv, who, token);
			rc = -1;
		}
	}
	return rc;
}

/* ---------------------------------------------------------------- PINs */

static int
pin_alloc(struct vg_util_pin *pin)
{
	vg_util_pin_free(pin);
	pin->v = vg_secmem_alloc(VG_UTIL_PIN_MAX + 2);
	if (pin->v == NULL) {
		vg_util_err("out of memory");
		return -1;
	}
	return 0;
}

/* see util/util.h */
void
vg_util_pin_free(struct vg_util_pin *pin)
{
	vg_secmem_free(pin->v, VG_UTIL_PIN_MAX + 2);
	pin->v = NULL;
	pin->len = 0;
}

/* see util/util.h */
int
vg_util_pin_from_arg(struct vg_util_pin *pin, char *arg, const char *option)
{
	size_t len = strlen(arg);

	if (len > VG_UTIL_PIN_MAX) {
		vg_util_err("%s: the PIN is longer than %d characters", option,
		    VG_UTIL_PIN_MAX);
		return -1;
	}
	if (pin_alloc(pin) != 0)
		return -1;
	memcpy(pin->v, arg, len + 1);
	pin->len = len;
	/* Out of sight of ps(1) from now on. */
	memset(arg, 'x', len);
	return 0;
}

/* The terminal while echo is off, for the signal handler. */
static int tty_fd = -1;
static struct termios tty_saved;

static void
restore_tty(int sig)
{
	tcsetattr(tty_fd, TCSANOW, &tty_saved);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Reads one line from the terminal into pin without echo. */
static int
read_line(int fd, const char *prompt, struct vg_util_pin *pin)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
		SIGTSTP };
	struct sigaction sa, old[sizeof(sigs) / sizeof(sigs[0])];
	struct termios t;
	size_t i, n = 0;
	int echo_off = 0, rc = 0;
	char c;

	/* Echo goes off before the prompt shows, so that nothing typed
	 * after the prompt is echoed. */
	if (tcgetattr(fd, &tty_saved) == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = restore_tty;
		tty_fd = fd;
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, &old[i]);
		t = tty_saved;
		t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		t.c_lflag |= ICANON;
		/* TCSANOW keeps what was typed ahead. */
		echo_off = tcsetattr(fd, TCSANOW, &t) == 0;
	}
	if (write(fd, prompt, strlen(prompt)) < 0)
		rc = -1;
	while (rc == 0) {
		ssize_t r = read(fd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = n == 0 ? -1 : 0; /* end of input */
			break;
		}
		if (c == '\n' || c == '\r')
			break;
		if (n < VG_UTIL_PIN_MAX)
			pin->v[n] = c;
		n++;
	}
	vg_wipe(&c, sizeof(c));
	if (echo_off)
		tcsetattr(fd, TCSANOW, &tty_saved);
	if (tty_fd >= 0) {
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &old[i], NULL);
		tty_fd = -1;
	}
	if (write(fd, "\n", 1) < 0)
		rc = -1;
	if (n > VG_UTIL_PIN_MAX) {
		vg_util_err("the PIN is longer than %d characters",
		    VG_UTIL_PIN_MAX);
		n = 0;
		rc = -2;
	}
	pin->v[n < VG_UTIL_PIN_MAX ? n : VG_UTIL_PIN_MAX] = '\0';
	pin->len = n;
	return rc;
}

/* see util/util.h */
int
vg_util_pin_need(struct vg_util_pin *pin, const char *what,
    const char *option, int confirm)
{
	struct vg_util_pin again = { NULL, 0 };
	char prompt[96];
	int fd, rc;

	if (pin->v != NULL)
		return 0;
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		vg_util_err("the %s is needed and there is no terminal to ask "
		    "for it: give %s", what, option);
		return -1;
	}
	snprintf(prompt, sizeof(prompt), "%s: ", what);
	prompt[0] = (char)(prompt[0] >= 'a' && prompt[0] <= 'z'
	    ? prompt[0] - 'a' + 'A' : prompt[0]);
	rc = pin_alloc(pin);
	if (rc == 0)
		rc = read_line(fd, prompt, pin);
	if (rc == 0 && confirm) {
		snprintf(prompt, sizeof(prompt), "Repeat the %s: ", what);
		rc = pin_alloc(&again);
		if (rc == 0)
			rc = read_line(fd, prompt, &again);
		if (rc == 0 && (again.len != pin->len ||
		    memcmp(again.v, pin->v, pin->len) != 0)) {
			vg_util_err("the two %ss differ", what);
			rc = -2;
		}
		vg_util_pin_free(&again);
	}
	close(fd);
	if (rc == -1)
		vg_util_err("no %s read from the terminal", what);
	if (rc != 0)
		vg_util_pin_free(pin);
	return rc == 0 ? 0 : -1;
}

/* Reads the first line of a passphrase file into pin. */
static int
pass_from_file(struct vg_util_pin *pin, const char *file)
{
	char c;
	size_t n = 0;
	ssize_t r;
	int fd, rc = -1, done = 0;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		vg_util_err("cannot read the passphrase file %s: %s", file,
		    strerror(errno));
		goto out;
	}
	if (pin_alloc(pin) != 0)
		goto out;
	while (!done && n <= VG_UTIL_PIN_MAX) {
		r = read(fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			vg_util_err("cannot read the passphrase file %s: %s",
			    file, strerror(errno));
			goto out;
		}
		done = r == 0 || c == '\n';
		if (!done)
			pin->v[n++] = c;
	}
	if (n > VG_UTIL_PIN_MAX) {
		vg_util_err("the passphrase in %s is longer than %d characters",
		    file, VG_UTIL_PIN_MAX);
		goto out;
	}
	/* A file written on Windows ends its line with CR LF. */
	if (n > 0 && pin->v[n - 1] == '\r')
		n--;
	pin->v[n] = '\0';
	pin->len = n;
	rc = 0;
out:
	vg_wipe(&c, sizeof(c));
	if (fd >= 0)
		close(fd);
	if (rc != 0)
		vg_util_pin_free(pin);
	return rc;
}

/* see util/util.h */
int
vg_util_passphrase(struct vg_util_opts *o, const char *path)
{
	char what[96];
	int rc = 0;

	if (o->passphrase.v != NULL)
		goto out;
	if (o->passphrase_file != NULL) {
		rc = pass_from_file(&o->passphrase, o->passphrase_file);
		goto out;
	}
	snprintf(what, sizeof(what), "passphrase of %s", path);
	rc = vg_util_pin_need(&o->passphrase, what, "--passphrase-file", 0);
out:
	return rc;
}

/* see util/util.h */
int
vg_util_backup_passphrase(struct vg_util_opts *o, int confirm)
{
	if (o->passphrase.v != NULL)
		return 0;
	if (o->passphrase_file != NULL)
		return pass_from_file(&o->passphrase, o->passphrase_file);
	return vg_util_pin_need(&o->passphrase, "backup passphrase",
	    "--passphrase-file", confirm);
}

/* ---------------------------------------------------------------- misc */

/* see util/util.h */
void
vg_util_hex(char *out, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* see util/util.h */
size_t
vg_util_parse_id(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;
	const char *p = hex;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	while (*p != '\0') {
		int hi = hex_digit(p[0]), lo = hi >= 0 ? hex_digit(p[1]) : -1;

		if (hi < 0 || lo < 0) {
			vg_util_err("--id: '%s' is not hex bytes (e.g. 0a1b2c)",
			    hex);
			return 0;
		}
		if (n == max) {
			vg_util_err("--id: longer than %zu bytes", max);
			return 0;
		}
		out[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
		if (*p == ':' && p[1] != '\0')
			p++;
	}
	if (n == 0)
		vg_util_err("--id: empty");
	return n;
}

/* see util/util.h */
CK_RV
vg_util_get_attrs(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_PTR t,
    CK_ULONG n)
{
	static CK_FUNCTION_LIST_3_2 *f;
	CK_VERSION v = { 3, 2 };
	CK_INTERFACE_PTR i;

	if (f == NULL) {
		if (C_GetInterface(NULL, &v, &i, 0) != CKR_OK)
			return CKR_GENERAL_ERROR;
		f = i->pFunctionList;
	}
	return f->C_GetAttributeValue(h, o, t, n);
}

/* see util/util.h */
CK_RV
vg_util_get_attr(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o,
    CK_ATTRIBUTE_TYPE type, uint8_t **value, CK_ULONG *len)
{
	CK_ATTRIBUTE a = { type, NULL, 0 };
	CK_RV rv;

	*value = NULL;
	*len = 0;
	rv = vg_util_get_attrs(h, o, &a, 1);
	if (rv != CKR_OK)
		return rv;
	if (a.ulValueLen == CK_UNAVAILABLE_INFORMATION)
		return CKR_ATTRIBUTE_TYPE_INVALID;
	a.pValue = malloc(a.ulValueLen + 1);
	if (a.pValue == NULL)
		return CKR_HOST_MEMORY;
	rv = vg_util_get_attrs(h, o, &a, 1);
	if (rv != CKR_OK) {
		free(a.pValue);
		return rv;
	}
	((uint8_t *)a.pValue)[a.ulValueLen] = 0;
	*value = a.pValue;
	*len = a.ulValueLen;
	return CKR_OK;
}

/* see util/util.h */
CK_RV
vg_util_find(CK_SESSION_HANDLE h, CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE **out, CK_ULONG *count)
{
	CK_OBJECT_HANDLE *all = NULL, *grown;
	CK_ULONG got = 0, cap = 0, k;
	CK_RV rv;

	*out = NULL;
	*count = 0;
	rv = C_FindObjectsInit(h, t, n);
	if (rv != CKR_OK)
		return rv;
	do {
		if (got + 64 > cap) {
			cap = cap * 2 + 64;
			grown = realloc(all, cap * sizeof(*all));
			if (grown == NULL) {
				rv = CKR_HOST_MEMORY;
				break;
			}
			all = grown;
		}
		rv = C_FindObjects(h, all + got, 64, &k);
		got += rv == CKR_OK ? k : 0;
	} while (rv == CKR_OK && k == 64);
	C_FindObjectsFinal(h);
	if (rv != CKR_OK) {
		free(all);
		return rv;
	}
	*out = all;
	*count = got;
	return CKR_OK;
}

/* see util/util.h */
int
vg_util_id_free(CK_SESSION_HANDLE s, CK_OBJECT_CLASS cls, const uint8_t *id,
    size_t id_len, const char *what)
{
	CK_ATTRIBUTE t[2] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_ID, (void *)(uintptr_t)id, (CK_ULONG)id_len },
	};
	CK_OBJECT_HANDLE *found = NULL;
	CK_ULONG n = 0;
	char hex[2 * VG_UTIL_ID_MAX + 1];
	int free_id = 0;
	CK_RV rv;

	rv = vg_util_find(s, t, 2, &found, &n);
	free(found);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot search the token", rv);
	} else if (n != 0) {
		vg_util_hex(hex, id, id_len);
		vg_util_err("the token has a %s with ID %s already: delete it "
		    "or give another --id", what, hex);
	} else {
		free_id = 1;
	}
	return free_id;
}
