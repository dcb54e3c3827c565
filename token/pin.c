/*
 * Tokens, PINs and login. Each token has a random 256-bit master key that
 * encrypts its sensitive attributes. The master key is stored only wrapped
 * (AES-256-GCM) under keys derived from the SO PIN and the user PIN with
 * PBKDF2-HMAC-SHA-256; a PIN is right exactly when the wrap opens, so PINs
 * are never stored and the comparison is the tag check, in constant time.
 * Changing a PIN re-wraps the master key only.
 *
 * Every change is one database transaction that re-reads the token row
 * first, so retry counters stay right when several processes log in.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "token/object.h"
#include "token/token.h"

#define MK_AD_V1 "vgtoken master key v1"
#define MK_AD_V2 "vgtoken master key v2"
#define WRAP_V2 2
/* The highest iteration count the configuration allows: a stored count
 * above it would only make a login hang. */
#define PBKDF2_MAX 100000000ul

/* Random bytes from the module's generator; the module lock is held. */
static CK_RV
random_inlock(void *out, size_t len)
{
	if (vg_rng_generate(&vg_mod.rng, out, len) != VG_OK) {
		VG_LOG(VG_LOG_ERROR, "random generator failed");
		return CKR_FUNCTION_FAILED;
	}
	return CKR_OK;
}

/* The wrap binds the key to its token and to the role of the PIN, and a
 * version 2 wrap to its header (format and iteration count). */
static size_t
mk_ad(uint8_t *ad, const char serial[16], CK_USER_TYPE who,
    const uint8_t *hdr)
{
	const char *prefix = hdr != NULL ? MK_AD_V2 : MK_AD_V1;
	size_t n = strlen(prefix);

	memcpy(ad, prefix, n);
	memcpy(ad + n, serial, 16);
	ad[n + 16] = who == CKU_SO ? 'S' : 'U';
	n += 17;
	if (hdr != NULL) {
		memcpy(ad + n, hdr, VG_WRAP_HDR_LEN);
		n += VG_WRAP_HDR_LEN;
	}
	return n;
}

/* Derives the PIN's key-wrapping key into an AES key schedule.
 * CT: only the PIN length and the iteration count are observable. */
static CK_RV
pin_key(const uint8_t *pin, size_t len, const uint8_t salt[VG_SALT_LEN],
    unsigned long iterations, struct vg_aes_key *kek)
{
	uint8_t k[32];
	CK_RV rv = CKR_OK;

	if (vg_pbkdf2_hmac(VG_HASH_SHA256, pin, len, salt, VG_SALT_LEN,
	    (uint32_t)iterations, k, sizeof(k)) != VG_OK ||
	    vg_aes_init(kek, k, sizeof(k)) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_wipe(k, sizeof(k));
	return rv;
}

/* Wraps mk under a fresh salt for the PIN, in the current format with
 * the configured iteration count. */
static CK_RV
wrap_mk(const uint8_t *mk, const uint8_t *pin, size_t len,
    const char serial[16], CK_USER_TYPE who, uint8_t salt[VG_SALT_LEN],
    uint8_t wrap[VG_WRAP_LEN])
{
	unsigned long iterations = vg_mod.config.pbkdf2_iterations;
	uint8_t *n = wrap + VG_WRAP_HDR_LEN, ad[80];
	struct vg_aes_key kek;
	size_t adlen;
	CK_RV rv;

	wrap[0] = WRAP_V2;
	vg_put_be(wrap + 1, iterations, 4);
	adlen = mk_ad(ad, serial, who, wrap);
	rv = random_inlock(salt, VG_SALT_LEN);
	if (rv == CKR_OK)
		rv = random_inlock(n, 12);
	if (rv == CKR_OK)
		rv = pin_key(pin, len, salt, iterations, &kek);
	if (rv == CKR_OK && vg_aes_gcm_encrypt(&kek, n, 12, ad, adlen, mk,
	    VG_MK_LEN, n + 12, n + 12 + VG_MK_LEN, 16) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_aes_key_wipe(&kek);
	return rv;
}

/* The iteration count of who's wrap (version 1: the tokens row's), or 0
 * when the wrap is missing or malformed. */
static unsigned long
wrap_iterations(const struct vg_token_rec *r, CK_USER_TYPE who)
{
	const uint8_t *w = who == CKU_SO ? r->so_wrap : r->user_wrap;
	size_t len = who == CKU_SO ? r->so_wrap_len : r->user_wrap_len;

	if (len == VG_WRAP_V1_LEN)
		return r->iterations;
	if (len == VG_WRAP_LEN && w[0] == WRAP_V2)
		return (unsigned long)vg_get_be(w + 1, 4);
	return 0;
}

/* Whether who's wrap is of version 1 (or absent). */
static int
wrap_is_v1(const struct vg_token_rec *r, CK_USER_TYPE who)
{
	size_t len = who == CKU_SO ? r->so_wrap_len : r->user_wrap_len;

	return len != VG_WRAP_LEN;
}

/*
 * Whether who's wrap can be tried: present, well-formed, and with an
 * iteration count the configuration could have set. A count outside
 * that range was not written by the module (a version 2 count is also
 * authenticated by the wrap, but only after the derivation has run):
 * refused before the derivation and before the attempt is counted.
 */
static CK_RV
wrap_usable(const struct vg_token_rec *r, CK_USER_TYPE who)
{
	unsigned long it = wrap_iterations(r, who);

	if (it >= VG_PBKDF2_MIN && it <= PBKDF2_MAX)
		return CKR_OK;
	VG_LOG(VG_LOG_ERROR, "token %lld: the %s PIN's key derivation "
	    "parameters are missing or out of range (database damaged or "
	    "tampered with)", (long long)r->id, who == CKU_SO ? "SO" : "user");
	return CKR_DEVICE_ERROR;
}

/* Opens who's wrap with the PIN into mk. CKR_PIN_INCORRECT when it does
 * not open. CT: the tag comparison is constant time; only lengths, the
 * iteration count and the verdict are observable. */
static CK_RV
unwrap_mk(const uint8_t *pin, size_t len, const struct vg_token_rec *r,
    CK_USER_TYPE who, uint8_t *mk)
{
	const uint8_t *w = who == CKU_SO ? r->so_wrap : r->user_wrap;
	const uint8_t *hdr = wrap_is_v1(r, who) ? NULL : w;
	const uint8_t *n = hdr != NULL ? w + VG_WRAP_HDR_LEN : w;
	struct vg_aes_key kek;
	uint8_t ad[80];
	size_t adlen = mk_ad(ad, r->serial, who, hdr);
	enum vg_err e;
	CK_RV rv;

	rv = pin_key(pin, len, who == CKU_SO ? r->so_salt : r->user_salt,
	    wrap_iterations(r, who), &kek);
	if (rv != CKR_OK)
		return rv;
	e = vg_aes_gcm_decrypt(&kek, n, 12, ad, adlen, n + 12, VG_MK_LEN, mk,
	    n + 12 + VG_MK_LEN, 16);
	vg_aes_key_wipe(&kek);
	if (e == VG_ERR_AUTH)
		return CKR_PIN_INCORRECT;
	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}

static int
pin_len_ok(size_t len)
{
	return len >= vg_mod.config.pin_min_len &&
	    len <= vg_mod.config.pin_max_len;
}

static CK_RV
update_fails(int64_t id, CK_USER_TYPE who, unsigned long fails)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	rv = vg_db_prepare(&vg_mod.db, who == CKU_SO
	    ? "UPDATE tokens SET so_fails = ? WHERE id = ?"
	    : "UPDATE tokens SET user_fails = ? WHERE id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)fails);
	sqlite3_bind_int64(st, 2, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "updating the PIN counter");
	sqlite3_finalize(st);
	return rv;
}

/* Stores a new wrap of the master key for who, resets its counter, and
 * sets the flags given. */
static CK_RV
store_wrap(int64_t id, CK_USER_TYPE who, const uint8_t *salt,
    const uint8_t *wrap, CK_FLAGS flags)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	rv = vg_db_prepare(&vg_mod.db, who == CKU_SO
	    ? "UPDATE tokens SET so_salt = ?, so_wrap = ?, so_fails = 0, "
	      "flags = ? WHERE id = ?"
	    : "UPDATE tokens SET user_salt = ?, user_wrap = ?, "
	      "user_fails = 0, flags = ? WHERE id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_blob(st, 1, salt, VG_SALT_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(st, 2, wrap, VG_WRAP_LEN, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)flags);
	sqlite3_bind_int64(st, 4, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "storing a PIN");
	sqlite3_finalize(st);
	return rv;
}

/*
 * Checks pin for who against the current token row, inside the caller's
 * transaction: refuses a locked PIN, counts a wrong one (the count is
 * committed even though the call fails), resets the count on success.
 * On CKR_OK mk holds the master key. r is refreshed from the database.
 *
 * The attempt is counted, and committed, before the key derivation runs:
 * a process killed during the derivation (or one that cannot record the
 * attempt) has still spent a try, so guesses cannot be made for free by
 * killing the process before a wrong PIN is written down. The caller's
 * transaction is committed there and a new one begun; every caller calls
 * this first in its transaction.
 */
static CK_RV
check_pin_intx(struct vg_slot *slot, CK_USER_TYPE who, const uint8_t *pin,
    size_t len, uint8_t *mk, int *commit)
{
	struct vg_token_rec *r = &slot->rec;
	unsigned long retries = who == CKU_SO ? vg_mod.config.so_pin_retries
					      : vg_mod.config.user_pin_retries;
	unsigned long *fails = who == CKU_SO ? &r->so_fails : &r->user_fails;
	CK_RV rv;

	*commit = 0;
	rv = vg_token_rec_load(r->id, r);
	if (rv != CKR_OK)
		return rv;
	if (*fails >= retries)
		return CKR_PIN_LOCKED;
	rv = wrap_usable(r, who);
	if (rv != CKR_OK)
		return rv;
	/* A read-only database keeps no count: its file can be read, so
	 * its PINs can be guessed offline anyway. */
	rv = vg_mod.db.readonly ? CKR_OK
				: update_fails(r->id, who, *fails + 1);
	if (rv == CKR_OK && !vg_mod.db.readonly) {
		(*fails)++;
		rv = vg_db_end(&vg_mod.db, CKR_OK);
		if (rv == CKR_OK)
			rv = vg_db_begin(&vg_mod.db);
	}
	if (rv != CKR_OK) {
		VG_LOG(VG_LOG_ERROR, "cannot count a %s PIN attempt; refused",
		    who == CKU_SO ? "SO" : "user");
		return rv;
	}
	rv = pin_len_ok(len) ? unwrap_mk(pin, len, r, who, mk)
			     : CKR_PIN_INCORRECT;
	if (rv == CKR_PIN_INCORRECT) {
		/* Already counted. */
		*commit = 1;
		VG_LOG(VG_LOG_INFO, "wrong %s PIN for token %lld (%lu of %lu)",
		    who == CKU_SO ? "SO" : "user", (long long)r->id, *fails,
		    retries);
	} else if (rv == CKR_OK && !vg_mod.db.readonly) {
		*fails = 0;
		rv = update_fails(r->id, who, 0);
	}
	if (rv == CKR_OK)
		*commit = 1;
	return rv;
}

/* Ends a transaction that may have to commit a failed attempt's count. */
static CK_RV
end_tx(CK_RV rv, int commit)
{
	CK_RV crv;

	if (rv == CKR_OK || !commit)
		return vg_db_end(&vg_mod.db, rv);
	crv = vg_db_end(&vg_mod.db, CKR_OK);
	return crv != CKR_OK ? crv : rv;
}

static CK_RV
insert_token(int64_t id, const struct vg_token_rec *r)
{
	sqlite3_stmt *st = NULL;
	char serial[17];
	CK_RV rv;

	memcpy(serial, r->serial, 16);
	serial[16] = '\0';
	rv = vg_db_prepare(&vg_mod.db,
	    "INSERT OR REPLACE INTO tokens (id, label, serial, flags, "
	    "iterations, so_salt, so_wrap, user_salt, user_wrap, so_fails, "
	    "user_fails, seal) VALUES (?, ?, ?, 0, ?, ?, ?, NULL, NULL, 0, 0, "
	    "?)", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_blob(st, 2, r->label, 32, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, serial, 16, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)r->iterations);
	sqlite3_bind_blob(st, 5, r->so_salt, VG_SALT_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, r->so_wrap, VG_WRAP_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, r->seal, VG_TOKEN_SEAL_LEN, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "creating a token");
	sqlite3_finalize(st);
	return rv;
}

static CK_RV
delete_objects(int64_t token_id)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	rv = vg_db_prepare(&vg_mod.db,
	    "DELETE FROM objects WHERE token_id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, token_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "deleting objects");
	sqlite3_finalize(st);
	return rv;
}

/* A fresh token record: label, new serial, new master key wrapped under
 * the SO PIN, and a seal record (no object yet). */
static CK_RV
new_token_rec(struct vg_token_rec *r, int64_t id, const char label[32],
    const uint8_t *so_pin, size_t so_len)
{
	uint8_t mk[VG_MK_LEN], sn[8], key[VG_SEAL_KEY_LEN];
	char serial[17];
	CK_RV rv;

	memset(r, 0, sizeof(*r));
	r->id = id;
	memcpy(r->label, label, 32);
	r->iterations = vg_mod.config.pbkdf2_iterations;
	rv = random_inlock(sn, sizeof(sn));
	if (rv == CKR_OK)
		rv = random_inlock(mk, sizeof(mk));
	if (rv != CKR_OK)
		return rv;
	snprintf(serial, sizeof(serial), "%02x%02x%02x%02x%02x%02x%02x%02x",
	    sn[0], sn[1], sn[2], sn[3], sn[4], sn[5], sn[6], sn[7]);
	memcpy(r->serial, serial, 16);
	rv = wrap_mk(mk, so_pin, so_len, r->serial, CKU_SO, r->so_salt,
	    r->so_wrap);
	r->so_wrap_len = VG_WRAP_LEN;
	if (rv == CKR_OK)
		rv = vg_seal_key_derive(mk, key);
	if (rv == CKR_OK) {
		vg_seal_token(key, r->serial, id, 0, r->seal);
		r->seal_len = VG_TOKEN_SEAL_LEN;
	}
	vg_wipe(key, sizeof(key));
	vg_wipe(mk, sizeof(mk));
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_init(CK_SLOT_ID id, const uint8_t *so_pin, size_t so_len,
    const char label[32])
{
	struct vg_token_rec rec;
	struct vg_slot *slot;
	uint8_t mk[VG_MK_LEN];
	int commit = 0;
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	rv = vg_slots_refresh_inlock();
	if (rv != CKR_OK)
		goto out;
	slot = vg_slot_find_inlock(id);
	if (slot == NULL) {
		rv = CKR_SLOT_ID_INVALID;
		goto out;
	}
	if (!vg_mod.db_ok) {
		rv = CKR_DEVICE_ERROR;
		goto out;
	}
	if (slot->sessions != 0) {
		rv = CKR_SESSION_EXISTS;
		goto out;
	}
	if (!slot->initialized && !pin_len_ok(so_len)) {
		rv = CKR_PIN_LEN_RANGE;
		goto out;
	}
	rv = vg_db_begin(&vg_mod.db);
	if (rv != CKR_OK)
		goto out;
	if (slot->initialized) {
		/* Re-initialisation: the SO PIN must be right; the token
		 * keeps its slot and gets a new master key and serial. */
		rv = check_pin_intx(slot, CKU_SO, so_pin, so_len, mk, &commit);
		vg_wipe(mk, sizeof(mk));
		if (rv == CKR_OK)
			rv = delete_objects(slot->rec.id);
	} else if (vg_token_next_id() != (int64_t)slot->id) {
		VG_LOG(VG_LOG_ERROR, "slot %lu was taken by another process",
		    (unsigned long)id);
		rv = CKR_FUNCTION_FAILED;
	}
	if (rv == CKR_OK)
		rv = new_token_rec(&rec, (int64_t)slot->id, label, so_pin,
		    so_len);
	if (rv == CKR_OK)
		rv = insert_token(rec.id, &rec);
	rv = end_tx(rv, commit);
	if (rv == CKR_OK) {
		vg_slot_logout_inlock(slot);
		slot->initialized = 1;
		slot->rec.id = rec.id;
	}
	vg_wipe(&rec, sizeof(rec));
	vg_slots_reload_inlock();
out:
	vg_module_unlock();
	return rv;
}

/*
 * After a login opened the master key (slot->mk), inside its
 * transaction: a wrap of version 1, or with fewer iterations than the
 * configuration asks for now, is made again under the same PIN (one more
 * key derivation, once); then the objects are sealed (token/store_seal.c).
 * A token from before sealing is one with no wrap of version 2: the
 * other role's is looked at before this one is upgraded.
 */
static CK_RV
login_upgrade_intx(struct vg_slot *slot, CK_USER_TYPE who,
    const uint8_t *pin, size_t len)
{
	const struct vg_token_rec *r = &slot->rec;
	CK_USER_TYPE other = who == CKU_SO ? CKU_USER : CKU_SO;
	int legacy_ok = wrap_is_v1(r, who) && wrap_is_v1(r, other);
	uint8_t salt[VG_SALT_LEN], wrap[VG_WRAP_LEN];
	CK_RV rv = CKR_OK;

	if (!vg_mod.db.readonly && (wrap_is_v1(r, who) ||
	    wrap_iterations(r, who) < vg_mod.config.pbkdf2_iterations)) {
		rv = wrap_mk(slot->mk, pin, len, r->serial, who, salt, wrap);
		if (rv == CKR_OK)
			rv = store_wrap(r->id, who, salt, wrap, r->flags);
		if (rv == CKR_OK)
			VG_LOG(VG_LOG_INFO, "token %lld: %s PIN wrap upgraded",
			    (long long)r->id, who == CKU_SO ? "SO" : "user");
		/* Not needed to log in: tried again at the next. */
		else if (rv != CKR_HOST_MEMORY)
			rv = CKR_OK;
	}
	if (rv == CKR_OK)
		rv = vg_store_seal_login_intx(slot, legacy_ok);
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_login(struct vg_session *s, CK_USER_TYPE who, const uint8_t *pin,
    size_t len)
{
	struct vg_slot *slot = s->slot;
	uint8_t *mk = NULL;
	int commit = 0;
	CK_RV rv;

	vg_mutex_lock(&vg_mod.lock);
	if (!slot->listed) {
		rv = CKR_DEVICE_REMOVED;
		goto out;
	}
	if (who != CKU_SO && who != CKU_USER) {
		rv = CKR_USER_TYPE_INVALID;
		goto out;
	}
	if (!slot->initialized) {
		rv = who == CKU_USER ? CKR_USER_PIN_NOT_INITIALIZED
				     : CKR_TOKEN_NOT_RECOGNIZED;
		goto out;
	}
	if (slot->login != VG_NOT_LOGGED_IN) {
		rv = slot->login == (long)who
		    ? CKR_USER_ALREADY_LOGGED_IN
		    : CKR_USER_ANOTHER_ALREADY_LOGGED_IN;
		goto out;
	}
	if (who == CKU_SO && slot->sessions != slot->rw_sessions) {
		rv = CKR_SESSION_READ_ONLY_EXISTS;
		goto out;
	}
	if (who == CKU_USER &&
	    !(slot->rec.flags & CKF_USER_PIN_INITIALIZED)) {
		rv = CKR_USER_PIN_NOT_INITIALIZED;
		goto out;
	}
	mk = vg_secmem_alloc(VG_MK_LEN);
	if (mk == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = vg_db_begin(&vg_mod.db);
	if (rv != CKR_OK)
		goto out;
	rv = check_pin_intx(slot, who, pin, len, mk, &commit);
	if (rv == CKR_OK) {
		slot->mk = mk;
		mk = NULL;
		rv = login_upgrade_intx(slot, who, pin, len);
	}
	rv = end_tx(rv, commit);
	if (rv == CKR_OK) {
		__atomic_store_n(&slot->login, (long)who, __ATOMIC_RELEASE);
	} else if (slot->mk != NULL) {
		vg_slot_drop_keys(slot);
	}
	vg_slots_reload_inlock();
out:
	vg_secmem_free(mk, VG_MK_LEN);
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_logout(struct vg_session *s)
{
	CK_RV rv = CKR_OK;

	vg_mutex_lock(&vg_mod.lock);
	if (s->slot->login == VG_NOT_LOGGED_IN)
		rv = CKR_USER_NOT_LOGGED_IN;
	else {
		vg_slot_logout_inlock(s->slot);
		vg_sessions_keys_tidy_inlock();
	}
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_init_pin(struct vg_session *s, const uint8_t *pin, size_t len)
{
	struct vg_slot *slot = s->slot;
	uint8_t salt[VG_SALT_LEN], wrap[VG_WRAP_LEN];
	CK_RV rv;

	vg_mutex_lock(&vg_mod.lock);
	if (!slot->listed) {
		rv = CKR_DEVICE_REMOVED;
		goto out;
	}
	if (slot->login != CKU_SO) {
		rv = CKR_USER_NOT_LOGGED_IN;
		goto out;
	}
	if (!pin_len_ok(len)) {
		rv = CKR_PIN_LEN_RANGE;
		goto out;
	}
	rv = vg_db_begin(&vg_mod.db);
	if (rv == CKR_OK)
		rv = wrap_mk(slot->mk, pin, len, slot->rec.serial, CKU_USER,
		    salt, wrap);
	/* Setting the user PIN also clears its lockout. */
	if (rv == CKR_OK)
		rv = store_wrap(slot->rec.id, CKU_USER, salt, wrap,
		    (slot->rec.flags | CKF_USER_PIN_INITIALIZED) &
		    ~(CK_FLAGS)CKF_USER_PIN_TO_BE_CHANGED);
	rv = vg_db_end(&vg_mod.db, rv);
	vg_slots_reload_inlock();
out:
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_set_pin(struct vg_session *s, const uint8_t *old_pin,
    size_t old_len, const uint8_t *new_pin, size_t new_len)
{
	struct vg_slot *slot = s->slot;
	uint8_t salt[VG_SALT_LEN], wrap[VG_WRAP_LEN], *mk = NULL;
	CK_USER_TYPE who;
	int commit = 0;
	CK_RV rv;

	vg_mutex_lock(&vg_mod.lock);
	who = slot->login == CKU_SO ? CKU_SO : CKU_USER;
	if (!slot->listed) {
		rv = CKR_DEVICE_REMOVED;
		goto out;
	}
	if (!(s->flags & CKF_RW_SESSION)) {
		rv = CKR_SESSION_READ_ONLY;
		goto out;
	}
	if (!slot->initialized || (who == CKU_USER &&
	    !(slot->rec.flags & CKF_USER_PIN_INITIALIZED))) {
		rv = CKR_USER_PIN_NOT_INITIALIZED;
		goto out;
	}
	if (!pin_len_ok(new_len)) {
		rv = CKR_PIN_LEN_RANGE;
		goto out;
	}
	mk = vg_secmem_alloc(VG_MK_LEN);
	if (mk == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = vg_db_begin(&vg_mod.db);
	if (rv != CKR_OK)
		goto out;
	rv = check_pin_intx(slot, who, old_pin, old_len, mk, &commit);
	if (rv == CKR_OK)
		rv = wrap_mk(mk, new_pin, new_len, slot->rec.serial, who,
		    salt, wrap);
	if (rv == CKR_OK)
		rv = store_wrap(slot->rec.id, who, salt, wrap,
		    who == CKU_USER ? slot->rec.flags &
		    ~(CK_FLAGS)CKF_USER_PIN_TO_BE_CHANGED : slot->rec.flags);
	rv = end_tx(rv, commit);
	vg_slots_reload_inlock();
out:
	vg_secmem_free(mk, VG_MK_LEN);
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_check_user_pin(struct vg_session *s, const uint8_t *pin, size_t len)
{
	struct vg_slot *slot = s->slot;
	uint8_t *mk = NULL;
	int commit = 0;
	CK_RV rv;

	vg_mutex_lock(&vg_mod.lock);
	if (slot->login != CKU_USER) {
		rv = CKR_USER_NOT_LOGGED_IN;
		goto out;
	}
	mk = vg_secmem_alloc(VG_MK_LEN);
	if (mk == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = vg_db_begin(&vg_mod.db);
	if (rv == CKR_OK) {
		rv = check_pin_intx(slot, CKU_USER, pin, len, mk, &commit);
		rv = end_tx(rv, commit);
	}
	vg_slots_reload_inlock();
out:
	vg_secmem_free(mk, VG_MK_LEN);
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}
