/*
 * Slots. Every initialised token has its own slot whose ID is the token's
 * row ID in the database, so it stays the same across processes and
 * restarts; one more slot, whose ID is the next row ID the database will
 * hand out, holds an uninitialised token for C_InitToken. Tokens created
 * or deleted by another process appear or disappear when the database
 * reports a change (PRAGMA data_version), checked at each slot query.
 *
 * Slot structures are never freed before C_Finalize: sessions point at
 * them, and a slot whose token went away is only unlisted.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token/token.h"

#define VG_MANUFACTURER "vgtoken"
#define VG_MODEL "soft token"
#define VG_VERSION_MAJOR 0
#define VG_VERSION_MINOR 1

/* see token/token.h */
struct vg_slot *
vg_slot_find_inlock(CK_SLOT_ID id)
{
	size_t i;

	for (i = 0; i < vg_mod.nslots; i++)
		if (vg_mod.slots[i]->listed && vg_mod.slots[i]->id == id)
			return vg_mod.slots[i];
	return NULL;
}

static struct vg_slot *
new_slot(CK_SLOT_ID id)
{
	struct vg_slot **t, *slot;

	t = realloc(vg_mod.slots, (vg_mod.nslots + 1) * sizeof(*t));
	if (t == NULL)
		return NULL;
	vg_mod.slots = t;
	slot = calloc(1, sizeof(*slot));
	if (slot == NULL)
		return NULL;
	slot->id = id;
	slot->listed = 1;
	slot->login = VG_NOT_LOGGED_IN;
	vg_mod.slots[vg_mod.nslots++] = slot;
	return slot;
}

/* see token/token.h */
void
vg_slot_logout_inlock(struct vg_slot *slot)
{
	long was = slot->login;

	if (was != VG_NOT_LOGGED_IN)
		vg_keys_retire_inlock();
	/* Cleared first: a session object made without the module lock
	 * after this is made without the login (token/sobj.c). */
	__atomic_store_n(&slot->login, VG_NOT_LOGGED_IN, __ATOMIC_RELEASE);
	/* Handles to private objects become invalid, even after the next
	 * login, and private session objects are destroyed [PKCS#11 3.2
	 * §5.6 C_Logout]. Only the user sees them: until the user's first
	 * logout in a process its handles are the row IDs, as in any other
	 * process. */
	if (was == CKU_USER) {
		slot->epoch = (slot->epoch + 1) & VG_EPOCH_MASK;
		vg_obj_logout_inlock(slot);
	}
	vg_slot_drop_keys(slot);
}

/* see token/token.h */
void
vg_slot_drop_keys(struct vg_slot *slot)
{
	vg_secmem_free(slot->seal_key, VG_SEAL_KEY_LEN);
	slot->seal_key = NULL;
	vg_secmem_free(slot->index_key, VG_SEAL_KEY_LEN);
	slot->index_key = NULL;
	vg_secmem_free(slot->mk, VG_MK_LEN);
	slot->mk = NULL;
}

static void
copy_blob(sqlite3_stmt *st, int col, uint8_t *dst, size_t n)
{
	const void *p = sqlite3_column_blob(st, col);

	memset(dst, 0, n);
	if (p != NULL && (size_t)sqlite3_column_bytes(st, col) == n)
		memcpy(dst, p, n);
}

/* A blob of min to max bytes into dst; its length, 0 when it has
 * another. */
static size_t
copy_var(sqlite3_stmt *st, int col, uint8_t *dst, size_t min, size_t max)
{
	const void *p = sqlite3_column_blob(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);

	memset(dst, 0, max);
	if (p == NULL || n < min || n > max)
		return 0;
	memcpy(dst, p, n);
	return n;
}

/* Reads one row of the tokens table (columns as in load_tokens). */
static void
read_rec(sqlite3_stmt *st, struct vg_token_rec *r)
{
	const void *label = sqlite3_column_blob(st, 1);
	const unsigned char *serial = sqlite3_column_text(st, 2);

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	vg_pad(r->label, sizeof(r->label), "");
	if (label != NULL && sqlite3_column_bytes(st, 1) == 32)
		memcpy(r->label, label, 32);
	vg_pad(r->serial, sizeof(r->serial),
	    serial != NULL ? (const char *)serial : "");
	r->flags = (CK_FLAGS)sqlite3_column_int64(st, 3);
	r->iterations = (unsigned long)sqlite3_column_int64(st, 4);
	r->so_fails = (unsigned long)sqlite3_column_int64(st, 5);
	r->user_fails = (unsigned long)sqlite3_column_int64(st, 6);
	copy_blob(st, 7, r->so_salt, VG_SALT_LEN);
	r->so_wrap_len = copy_var(st, 8, r->so_wrap, VG_WRAP_V1_LEN,
	    VG_WRAP_LEN);
	copy_blob(st, 9, r->user_salt, VG_SALT_LEN);
	r->user_wrap_len = copy_var(st, 10, r->user_wrap, VG_WRAP_V1_LEN,
	    VG_WRAP_LEN);
	r->seal_len = copy_var(st, 11, r->seal, VG_TOKEN_SEAL_LEN,
	    VG_TOKEN_SEAL_LEN);
}

static struct vg_slot *
find_token_slot(int64_t token_id)
{
	size_t i;

	for (i = 0; i < vg_mod.nslots; i++)
		if (vg_mod.slots[i]->initialized &&
		    (int64_t)vg_mod.slots[i]->rec.id == token_id)
			return vg_mod.slots[i];
	return NULL;
}

/* see token/token.h */
int64_t
vg_token_next_id(void)
{
	sqlite3_stmt *st = NULL;
	int64_t seq = 0;

	if (sqlite3_prepare_v2(vg_mod.db.h,
	    "SELECT seq FROM sqlite_sequence WHERE name = 'tokens'", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		seq = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return seq + 1;
}

/* Makes sure exactly one listed slot without a token exists, with ID
 * next_id. */
static CK_RV
ensure_empty_slot(int64_t next_id)
{
	size_t i;

	vg_mod.next_token_id = next_id;
	for (i = 0; i < vg_mod.nslots; i++) {
		struct vg_slot *slot = vg_mod.slots[i];

		if (!slot->listed || slot->initialized)
			continue;
		if ((int64_t)slot->id == next_id)
			return CKR_OK;
		/* Another process took this ID for a token: retire it. */
		__atomic_store_n(&slot->listed, 0, __ATOMIC_RELEASE);
	}
	return new_slot((CK_SLOT_ID)next_id) != NULL ? CKR_OK
						     : CKR_HOST_MEMORY;
}

#define TOKEN_COLUMNS                                                     \
	"SELECT id, label, serial, flags, iterations, so_fails, "          \
	"user_fails, so_salt, so_wrap, user_salt, user_wrap, seal FROM tokens "

/* see token/token.h */
CK_RV
vg_token_rec_load(int64_t id, struct vg_token_rec *r)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;
	int res;

	rv = vg_db_prepare(&vg_mod.db, TOKEN_COLUMNS "WHERE id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	res = sqlite3_step(st);
	if (res == SQLITE_ROW)
		read_rec(st, r);
	else if (res == SQLITE_DONE)
		rv = CKR_DEVICE_REMOVED; /* deleted by another process */
	else
		rv = vg_db_error(&vg_mod.db, "reading a token");
	sqlite3_finalize(st);
	return rv;
}

/* Unlists the slots whose token load_tokens did not see. listed only
 * ever goes from 1 to 0 here, never through 0 for a token still there:
 * session objects are reached without the module lock (token/sobj.c). */
static void
unlist_unseen(void)
{
	size_t i;

	for (i = 0; i < vg_mod.nslots; i++)
		if (vg_mod.slots[i]->initialized && !vg_mod.slots[i]->seen)
			__atomic_store_n(&vg_mod.slots[i]->listed, 0,
			    __ATOMIC_RELEASE);
}

static CK_RV
load_tokens(void)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	CK_RV rv;
	int r;

	for (i = 0; i < vg_mod.nslots; i++)
		vg_mod.slots[i]->seen = 0;
	rv = vg_db_prepare(&vg_mod.db, TOKEN_COLUMNS "ORDER BY id", &st);
	if (rv != CKR_OK) {
		unlist_unseen();
		return rv;
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct vg_token_rec rec;
		struct vg_slot *slot;

		read_rec(st, &rec);
		slot = find_token_slot(rec.id);
		if (slot == NULL) {
			slot = new_slot((CK_SLOT_ID)rec.id);
			if (slot == NULL) {
				rv = CKR_HOST_MEMORY;
				break;
			}
			slot->initialized = 1;
		} else if (memcmp(slot->rec.serial, rec.serial, 16) != 0) {
			/* Re-initialised (a new serial and master key):
			 * our login is void. A changed PIN is not: it
			 * wraps the same master key. */
			vg_slot_logout_inlock(slot);
		}
		slot->rec = rec;
		slot->seen = 1;
		__atomic_store_n(&slot->listed, 1, __ATOMIC_RELEASE);
		vg_store_seal_refresh_inlock(slot);
		vg_wipe(&rec, sizeof(rec));
	}
	if (rv == CKR_OK && r != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "reading tokens");
	sqlite3_finalize(st);
	unlist_unseen();
	/* Tokens deleted elsewhere: forget their logins. */
	for (i = 0; i < vg_mod.nslots; i++)
		if (vg_mod.slots[i]->initialized && !vg_mod.slots[i]->listed)
			vg_slot_logout_inlock(vg_mod.slots[i]);
	if (rv == CKR_OK)
		rv = ensure_empty_slot(vg_token_next_id());
	return rv;
}

/* see token/token.h */
CK_RV
vg_slots_refresh_inlock(void)
{
	if (!vg_mod.db_ok) {
		/* No database: one slot whose token cannot be initialised. */
		if (vg_mod.nslots == 0 && new_slot(1) == NULL)
			return CKR_HOST_MEMORY;
		return CKR_OK;
	}
	if (!vg_db_changed(&vg_mod.db) && vg_mod.nslots > 0)
		return CKR_OK;
	/* Keys decoded before the change may be stale. */
	vg_keys_retire_inlock();
	return load_tokens();
}

/* see token/token.h */
CK_RV
vg_slots_reload_inlock(void)
{
	vg_mod.db.data_version = -1;
	return vg_slots_refresh_inlock();
}

/* Locks the module, refreshes the slots and finds one. */
static CK_RV
lock_slot(CK_SLOT_ID id, struct vg_slot **out)
{
	CK_RV rv = vg_module_lock();

	if (rv != CKR_OK)
		return rv;
	rv = vg_slots_refresh_inlock();
	*out = rv == CKR_OK ? vg_slot_find_inlock(id) : NULL;
	if (rv == CKR_OK && *out == NULL)
		rv = CKR_SLOT_ID_INVALID;
	if (rv != CKR_OK)
		vg_module_unlock();
	return rv;
}

/* see token/token.h */
CK_RV
vg_slot_list(CK_BBOOL token_present, CK_SLOT_ID_PTR list,
    CK_ULONG_PTR count)
{
	CK_ULONG n = 0;
	size_t i;
	CK_RV rv;

	(void)token_present; /* every slot holds a token */
	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	rv = vg_slots_refresh_inlock();
	if (rv != CKR_OK)
		goto out;
	for (i = 0; i < vg_mod.nslots; i++)
		n += vg_mod.slots[i]->listed != 0;
	if (list != NULL && *count < n) {
		rv = CKR_BUFFER_TOO_SMALL;
	} else if (list != NULL) {
		CK_ULONG j = 0;

		/* Initialised tokens first, by ID; the empty slot last. */
		for (i = 0; i < vg_mod.nslots; i++)
			if (vg_mod.slots[i]->listed &&
			    vg_mod.slots[i]->initialized)
				list[j++] = vg_mod.slots[i]->id;
		for (i = 0; i < vg_mod.nslots; i++)
			if (vg_mod.slots[i]->listed &&
			    !vg_mod.slots[i]->initialized)
				list[j++] = vg_mod.slots[i]->id;
	}
	*count = n;
out:
	vg_module_unlock();
	return rv;
}

/* see token/token.h */
CK_RV
vg_slot_info(CK_SLOT_ID id, CK_SLOT_INFO *info)
{
	struct vg_slot *slot;
	char desc[64];
	CK_RV rv;

	rv = lock_slot(id, &slot);
	if (rv != CKR_OK)
		return rv;
	memset(info, 0, sizeof(*info));
	snprintf(desc, sizeof(desc), "vgtoken slot %lu", (unsigned long)id);
	vg_pad(info->slotDescription, sizeof(info->slotDescription), desc);
	vg_pad(info->manufacturerID, sizeof(info->manufacturerID),
	    VG_MANUFACTURER);
	info->flags = CKF_TOKEN_PRESENT;
	info->hardwareVersion.major = VG_VERSION_MAJOR;
	info->hardwareVersion.minor = VG_VERSION_MINOR;
	info->firmwareVersion.major = VG_VERSION_MAJOR;
	info->firmwareVersion.minor = VG_VERSION_MINOR;
	vg_module_unlock();
	return CKR_OK;
}

/* PIN counter flags: count low after a failure, final try when one is
 * left, locked when none is. */
static CK_FLAGS
pin_flags(unsigned long fails, unsigned long retries, CK_FLAGS low,
    CK_FLAGS final, CK_FLAGS locked)
{
	if (fails >= retries)
		return locked;
	if (fails + 1 == retries)
		return final | low;
	return fails > 0 ? low : 0;
}

/* see token/token.h */
CK_RV
vg_token_info(CK_SLOT_ID id, CK_TOKEN_INFO *info)
{
	const struct vg_config *c = &vg_mod.config;
	struct vg_slot *slot;
	CK_RV rv;

	rv = lock_slot(id, &slot);
	if (rv != CKR_OK)
		return rv;
	memset(info, 0, sizeof(*info));
	vg_pad(info->label, sizeof(info->label), "");
	vg_pad(info->serialNumber, sizeof(info->serialNumber), "");
	vg_pad(info->manufacturerID, sizeof(info->manufacturerID),
	    VG_MANUFACTURER);
	vg_pad(info->model, sizeof(info->model), VG_MODEL);
	info->flags = CKF_RNG | CKF_LOGIN_REQUIRED;
	if (vg_mod.db.readonly)
		info->flags |= CKF_WRITE_PROTECTED;
	if (slot->initialized) {
		const struct vg_token_rec *r = &slot->rec;

		memcpy(info->label, r->label, sizeof(info->label));
		memcpy(info->serialNumber, r->serial,
		    sizeof(info->serialNumber));
		info->flags |= CKF_TOKEN_INITIALIZED;
		info->flags |= r->flags & (CKF_USER_PIN_INITIALIZED |
		    CKF_USER_PIN_TO_BE_CHANGED);
		info->flags |= pin_flags(r->so_fails, c->so_pin_retries,
		    CKF_SO_PIN_COUNT_LOW, CKF_SO_PIN_FINAL_TRY,
		    CKF_SO_PIN_LOCKED);
		if (r->flags & CKF_USER_PIN_INITIALIZED)
			info->flags |= pin_flags(r->user_fails,
			    c->user_pin_retries, CKF_USER_PIN_COUNT_LOW,
			    CKF_USER_PIN_FINAL_TRY, CKF_USER_PIN_LOCKED);
	}
	info->ulMaxSessionCount = CK_EFFECTIVELY_INFINITE;
	info->ulSessionCount = slot->sessions;
	info->ulMaxRwSessionCount = CK_EFFECTIVELY_INFINITE;
	info->ulRwSessionCount = slot->rw_sessions;
	info->ulMaxPinLen = c->pin_max_len;
	info->ulMinPinLen = c->pin_min_len;
	info->ulTotalPublicMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulFreePublicMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulTotalPrivateMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulFreePrivateMemory = CK_UNAVAILABLE_INFORMATION;
	info->hardwareVersion.major = VG_VERSION_MAJOR;
	info->hardwareVersion.minor = VG_VERSION_MINOR;
	info->firmwareVersion.major = VG_VERSION_MAJOR;
	info->firmwareVersion.minor = VG_VERSION_MINOR;
	/* No clock on the token: utcTime is not meaningful. */
	vg_pad(info->utcTime, sizeof(info->utcTime), "");
	vg_module_unlock();
	return CKR_OK;
}
