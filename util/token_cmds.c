/*
 * vgtoken-util: the token commands (create, show, list, delete, PINs).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token/token.h"
#include "util/util.h"

/* A space-padded field as a C string (trailing spaces dropped). */
static void
field_str(char *out, const CK_UTF8CHAR *p, size_t n)
{
	while (n > 0 && p[n - 1] == ' ')
		n--;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* All slots, initialised first (malloc'd). */
static int
all_slots(CK_SLOT_ID **slots, CK_ULONG *n)
{
	CK_RV rv;

	*slots = NULL;
	rv = C_GetSlotList(CK_FALSE, NULL, n);
	if (rv == CKR_OK) {
		*slots = calloc(*n + 1, sizeof(**slots));
		rv = *slots != NULL ? C_GetSlotList(CK_FALSE, *slots, n)
				    : CKR_HOST_MEMORY;
	}
	if (rv != CKR_OK) {
		free(*slots);
		*slots = NULL;
		vg_util_err_rv("cannot list the slots", rv);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- init-token */

/* Checks the PIN length against the token's policy before anything is
 * changed, so that a bad user PIN does not leave a half-made token. */
static int
pin_len_ok(const CK_TOKEN_INFO *ti, const struct vg_util_pin *pin,
    const char *what)
{
	if (pin->len >= ti->ulMinPinLen && pin->len <= ti->ulMaxPinLen)
		return 1;
	vg_util_err("the %s must have %lu to %lu characters", what,
	    (unsigned long)ti->ulMinPinLen, (unsigned long)ti->ulMaxPinLen);
	return 0;
}

static int
init_token(struct vg_util_opts *o)
{
	CK_SLOT_ID *slots = NULL, free_slot = 0;
	CK_SESSION_HANDLE h;
	CK_TOKEN_INFO ti, free_ti;
	CK_ULONG n = 0, i;
	int have_free = 0;
	char label[32], name[33], serial[17];
	CK_RV rv;

	if (all_slots(&slots, &n) != 0)
		return VG_UTIL_FAIL;
	for (i = 0; i < n; i++) {
		if (C_GetTokenInfo(slots[i], &ti) != CKR_OK)
			continue;
		if (!(ti.flags & CKF_TOKEN_INITIALIZED)) {
			free_slot = slots[i];
			free_ti = ti;
			have_free = 1;
			continue;
		}
		field_str(name, ti.label, sizeof(ti.label));
		if (strcmp(name, o->label) == 0) {
			free(slots);
			vg_util_err("a token labelled '%s' exists already",
			    o->label);
			return VG_UTIL_FAIL;
		}
	}
	free(slots);
	if (!have_free) {
		vg_util_err("no free slot for a new token");
		return VG_UTIL_FAIL;
	}
	if (vg_util_pin_need(&o->so_pin, "SO PIN", "--so-pin", 1) != 0 ||
	    vg_util_pin_need(&o->pin, "user PIN", "--pin", 1) != 0)
		return VG_UTIL_FAIL;
	if (!pin_len_ok(&free_ti, &o->so_pin, "SO PIN") ||
	    !pin_len_ok(&free_ti, &o->pin, "user PIN"))
		return VG_UTIL_FAIL;
	vg_pad(label, sizeof(label), o->label);
	vg_util_progress_start("creating the token");
	rv = C_InitToken(free_slot, (CK_UTF8CHAR_PTR)o->so_pin.v,
	    (CK_ULONG)o->so_pin.len, (CK_UTF8CHAR_PTR)label);
	vg_util_progress_stop();
	if (rv != CKR_OK)
		return vg_util_err_rv("cannot create the token", rv);
	/* The new token keeps the slot: set its user PIN as the SO. */
	if (vg_util_open(o->label, free_slot, 1, CKU_SO, &o->so_pin, &h) != 0) {
		vg_util_err("token '%s' was created without a user PIN",
		    o->label);
		return VG_UTIL_FAIL;
	}
	vg_util_progress_start("setting the user PIN");
	rv = C_InitPIN(h, (CK_UTF8CHAR_PTR)o->pin.v, (CK_ULONG)o->pin.len);
	vg_util_progress_stop();
	C_Logout(h);
	C_CloseSession(h);
	if (rv != CKR_OK) {
		vg_util_err_rv("token created, but setting the user PIN "
		    "failed", rv);
		return VG_UTIL_FAIL;
	}
	if (C_GetTokenInfo(free_slot, &ti) != CKR_OK)
		memset(ti.serialNumber, ' ', sizeof(ti.serialNumber));
	field_str(serial, ti.serialNumber, sizeof(ti.serialNumber));
	printf("token '%s' created in slot %lu, serial %s\n", o->label,
	    (unsigned long)free_slot, serial);
	return VG_UTIL_OK;
}

/* see util/util.h */
int
vg_util_init_token(struct vg_util_opts *o)
{
	size_t len = strlen(o->label);
	int rc;

	if (len == 0 || len > 32) {
		vg_util_err("--label: a token label has 1 to 32 bytes");
		return VG_UTIL_USAGE;
	}
	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	rc = init_token(o);
	vg_util_p11_fini();
	return rc;
}

/* ---------------------------------------------------------- show-slots */

static const struct {
	CK_FLAGS flag;
	const char *name;
} token_flags[] = {
	{ CKF_RNG, "RNG" },
	{ CKF_WRITE_PROTECTED, "WRITE_PROTECTED" },
	{ CKF_LOGIN_REQUIRED, "LOGIN_REQUIRED" },
	{ CKF_USER_PIN_INITIALIZED, "USER_PIN_INITIALIZED" },
	{ CKF_TOKEN_INITIALIZED, "TOKEN_INITIALIZED" },
	{ CKF_USER_PIN_COUNT_LOW, "USER_PIN_COUNT_LOW" },
	{ CKF_USER_PIN_FINAL_TRY, "USER_PIN_FINAL_TRY" },
	{ CKF_USER_PIN_LOCKED, "USER_PIN_LOCKED" },
	{ CKF_USER_PIN_TO_BE_CHANGED, "USER_PIN_TO_BE_CHANGED" },
	{ CKF_SO_PIN_COUNT_LOW, "SO_PIN_COUNT_LOW" },
	{ CKF_SO_PIN_FINAL_TRY, "SO_PIN_FINAL_TRY" },
	{ CKF_SO_PIN_LOCKED, "SO_PIN_LOCKED" },
	{ CKF_SO_PIN_TO_BE_CHANGED, "SO_PIN_TO_BE_CHANGED" },
};

/* The state of a PIN counter in words. */
static const char *
pin_state(CK_FLAGS f, CK_FLAGS low, CK_FLAGS final, CK_FLAGS locked)
{
	if (f & locked)
		return "locked";
	if (f & final)
		return "one try left";
	if (f & low)
		return "wrong tries counted";
	return "ok";
}

/* The state of the user PIN in words; with hint, how to unlock it. */
static const char *
user_pin_state(CK_FLAGS f, int hint)
{
	if (!(f & CKF_USER_PIN_INITIALIZED))
		return "not set";
	if (hint && (f & CKF_USER_PIN_LOCKED))
		return "locked (the SO can set a new one: --init-pin)";
	return pin_state(f, CKF_USER_PIN_COUNT_LOW, CKF_USER_PIN_FINAL_TRY,
	    CKF_USER_PIN_LOCKED);
}

static void
show_slot(CK_SLOT_ID id, const CK_TOKEN_INFO *ti)
{
	char label[33], serial[17];
	size_t i;

	if (!(ti->flags & CKF_TOKEN_INITIALIZED)) {
		printf("slot %lu: no token (--init-token creates one here)\n",
		    (unsigned long)id);
		return;
	}
	field_str(label, ti->label, sizeof(ti->label));
	field_str(serial, ti->serialNumber, sizeof(ti->serialNumber));
	printf("slot %lu: token '%s'\n", (unsigned long)id, label);
	printf("  serial:   %s\n", serial);
	printf("  flags:   ");
	for (i = 0; i < sizeof(token_flags) / sizeof(token_flags[0]); i++)
		if (ti->flags & token_flags[i].flag)
			printf(" %s", token_flags[i].name);
	printf("\n");
	printf("  user PIN: %s\n", user_pin_state(ti->flags, 1));
	printf("  SO PIN:   %s\n", pin_state(ti->flags, CKF_SO_PIN_COUNT_LOW,
	    CKF_SO_PIN_FINAL_TRY, CKF_SO_PIN_LOCKED));
	printf("  PIN length: %lu to %lu\n", (unsigned long)ti->ulMinPinLen,
	    (unsigned long)ti->ulMaxPinLen);
}

static const char *
json_bool(CK_FLAGS f, CK_FLAGS bit)
{
	return (f & bit) ? "true" : "false";
}

/* A PIN as JSON: its state and the four flags PKCS#11 reports of it. */
static void
json_pin(const char *state, CK_FLAGS f, CK_FLAGS low, CK_FLAGS final,
    CK_FLAGS locked, CK_FLAGS change)
{
	printf("{\"state\": \"%s\", \"count_low\": %s, \"final_try\": %s, "
	    "\"locked\": %s, \"to_be_changed\": %s}", state,
	    json_bool(f, low), json_bool(f, final), json_bool(f, locked),
	    json_bool(f, change));
}

static void
show_slot_json(CK_SLOT_ID id, const CK_TOKEN_INFO *ti)
{
	size_t i, n = 0;

	printf("{\"slot\": %lu, \"token\": ", (unsigned long)id);
	if (!(ti->flags & CKF_TOKEN_INITIALIZED)) {
		printf("null}");
		return;
	}
	printf("{\"label\": ");
	vg_util_json_str(ti->label, vg_util_trimmed(ti->label,
	    sizeof(ti->label)));
	printf(", \"serial\": ");
	vg_util_json_str(ti->serialNumber, vg_util_trimmed(ti->serialNumber,
	    sizeof(ti->serialNumber)));
	printf(", \"flags\": [");
	for (i = 0; i < sizeof(token_flags) / sizeof(token_flags[0]); i++)
		if (ti->flags & token_flags[i].flag)
			printf("%s\"%s\"", n++ ? ", " : "", token_flags[i].name);
	printf("],\n    \"user_pin\": ");
	json_pin(user_pin_state(ti->flags, 0), ti->flags,
	    CKF_USER_PIN_COUNT_LOW, CKF_USER_PIN_FINAL_TRY,
	    CKF_USER_PIN_LOCKED, CKF_USER_PIN_TO_BE_CHANGED);
	printf(",\n    \"so_pin\": ");
	json_pin(pin_state(ti->flags, CKF_SO_PIN_COUNT_LOW,
	    CKF_SO_PIN_FINAL_TRY, CKF_SO_PIN_LOCKED), ti->flags,
	    CKF_SO_PIN_COUNT_LOW, CKF_SO_PIN_FINAL_TRY, CKF_SO_PIN_LOCKED,
	    CKF_SO_PIN_TO_BE_CHANGED);
	printf(",\n    \"pin_min_length\": %lu, \"pin_max_length\": %lu}}",
	    (unsigned long)ti->ulMinPinLen, (unsigned long)ti->ulMaxPinLen);
}

/* see util/util.h */
int
vg_util_show_slots(struct vg_util_opts *o)
{
	CK_SLOT_ID *slots = NULL;
	CK_TOKEN_INFO *info = NULL;
	CK_ULONG n = 0, i;
	int rc = VG_UTIL_FAIL;
	CK_RV rv = CKR_OK;

	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	if (all_slots(&slots, &n) != 0)
		goto out;
	/* All read before anything is printed, so that a failure leaves
	 * no half-written JSON. */
	info = calloc(n + 1, sizeof(*info));
	if (info == NULL)
		rv = CKR_HOST_MEMORY;
	for (i = 0; rv == CKR_OK && i < n; i++)
		rv = C_GetTokenInfo(slots[i], &info[i]);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot read a token", rv);
		goto out;
	}
	if (o->json)
		printf("{\"slots\": [");
	for (i = 0; i < n; i++) {
		if (o->json) {
			printf("%s\n  ", i == 0 ? "" : ",");
			show_slot_json(slots[i], &info[i]);
		} else {
			show_slot(slots[i], &info[i]);
		}
	}
	if (o->json)
		printf("%s]}\n", n > 0 ? "\n" : "");
	rc = VG_UTIL_OK;
out:
	free(info);
	free(slots);
	vg_util_p11_fini();
	return rc;
}

/* -------------------------------------------------------- delete-token */

/* see util/util.h */
int
vg_util_delete_token(struct vg_util_opts *o)
{
	struct vg_session *s = NULL;
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	int rc = VG_UTIL_FAIL;
	CK_RV rv;

	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_pin_need(&o->so_pin, "SO PIN", "--so-pin", 0) != 0 ||
	    vg_util_open(o->token, slot, 1, CKU_SO, &o->so_pin, &h) != 0)
		goto out;
	/* Not a PKCS#11 function: the token layer does it for the SO. */
	rv = vg_session_acquire(h, &s);
	if (rv == CKR_OK)
		rv = vg_token_delete(s);
	vg_session_release(s);
	C_CloseSession(h);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot delete the token", rv);
		goto out;
	}
	printf("token '%s' deleted\n", o->token);
	rc = VG_UTIL_OK;
out:
	vg_util_p11_fini();
	return rc;
}

/* ------------------------------------------------------------- set-pin */

/* The current PIN of --set-pin: --pin (as every other command names the
 * PIN it logs in with), or its alias --old-pin, or for the SO --so-pin.
 * NULL and a message when more than one is given. */
static struct vg_util_pin *
current_pin(struct vg_util_opts *o)
{
	struct vg_util_pin *given[3] = { &o->pin, &o->old_pin, &o->so_pin };
	struct vg_util_pin *cur = NULL;
	size_t i, n = 0;

	for (i = 0; i < 3; i++) {
		if (given[i]->v != NULL) {
			cur = given[i];
			n++;
		}
	}
	if (n > 1) {
		vg_util_err("--set-pin: give the current PIN once (--pin, or "
		    "its alias --old-pin%s)", o->so ? ", or --so-pin" : "");
		cur = NULL;
	} else if (cur == NULL) {
		cur = &o->pin;
	}
	return cur;
}

/* see util/util.h */
int
vg_util_set_pin(struct vg_util_opts *o)
{
	CK_USER_TYPE who = o->so ? CKU_SO : CKU_USER;
	const char *role = o->so ? "SO PIN" : "user PIN";
	struct vg_util_pin *cur;
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	char what[32];
	int rc = VG_UTIL_FAIL;
	CK_RV rv;

	if (!o->so && o->so_pin.v != NULL) {
		vg_util_err("--set-pin takes --so-pin only with --so");
		return VG_UTIL_USAGE;
	}
	cur = current_pin(o);
	if (cur == NULL)
		return VG_UTIL_USAGE;
	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	if (vg_util_find_token(o->token, &slot) != 0)
		goto out;
	snprintf(what, sizeof(what), "current %s", role);
	if (vg_util_pin_need(cur, what, "--pin", 0) != 0)
		goto out;
	snprintf(what, sizeof(what), "new %s", role);
	if (vg_util_pin_need(&o->new_pin, what, "--new-pin", 1) != 0)
		goto out;
	/* The SO changes its PIN logged in; the user's PIN is changed
	 * without a login, the old PIN proving who asks. */
	if (vg_util_open(o->token, slot, 1, who, o->so ? cur : NULL, &h) != 0)
		goto out;
	vg_util_progress_start("changing the PIN");
	rv = C_SetPIN(h, (CK_UTF8CHAR_PTR)cur->v, (CK_ULONG)cur->len,
	    (CK_UTF8CHAR_PTR)o->new_pin.v, (CK_ULONG)o->new_pin.len);
	vg_util_progress_stop();
	C_CloseSession(h);
	if (rv != CKR_OK) {
		vg_util_err_login(o->so ? "cannot change the SO PIN"
		    : "cannot change the user PIN", rv, who, o->token);
		goto out;
	}
	printf("%s of token '%s' changed\n", role, o->token);
	rc = VG_UTIL_OK;
out:
	vg_util_p11_fini();
	return rc;
}

/* ------------------------------------------------------------ init-pin */

/* The SO sets a new user PIN: the way out of a locked (or forgotten) user
 * PIN, since C_InitPIN also clears the count of wrong tries. */
static int
init_pin(struct vg_util_opts *o)
{
	CK_SESSION_HANDLE h;
	CK_TOKEN_INFO ti;
	CK_SLOT_ID slot;
	int rc = VG_UTIL_FAIL, was_locked;
	CK_RV rv;

	if (vg_util_find_token(o->token, &slot) != 0)
		goto out;
	rv = C_GetTokenInfo(slot, &ti);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot read the token", rv);
		goto out;
	}
	was_locked = (ti.flags & CKF_USER_PIN_LOCKED) != 0;
	if (vg_util_pin_need(&o->so_pin, "SO PIN", "--so-pin", 0) != 0 ||
	    vg_util_pin_need(&o->new_pin, "new user PIN", "--new-pin", 1) !=
	    0 || !pin_len_ok(&ti, &o->new_pin, "new user PIN") ||
	    vg_util_open(o->token, slot, 1, CKU_SO, &o->so_pin, &h) != 0)
		goto out;
	vg_util_progress_start("setting the user PIN");
	rv = C_InitPIN(h, (CK_UTF8CHAR_PTR)o->new_pin.v,
	    (CK_ULONG)o->new_pin.len);
	vg_util_progress_stop();
	C_Logout(h);
	C_CloseSession(h);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot set the user PIN", rv);
		goto out;
	}
	printf("user PIN of token '%s' set by the SO%s\n", o->token,
	    was_locked ? "; it is no longer locked" : "");
	rc = VG_UTIL_OK;
out:
	return rc;
}

/* see util/util.h */
int
vg_util_init_pin(struct vg_util_opts *o)
{
	int rc = VG_UTIL_FAIL;

	if (vg_util_p11_init() == 0) {
		rc = init_pin(o);
		vg_util_p11_fini();
	}
	return rc;
}
