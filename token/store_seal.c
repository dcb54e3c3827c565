/*
 * Sealing what is not sealed yet, and the token's seal mark (the rules
 * are in token/seal.c and token/store.c's header comment). At a login
 * the objects made without one since the last (pending), or every object
 * of a token written before objects were sealed, are sealed and the mark
 * raised over them; a sealed insert of a public object raises it over
 * the new object.
 *
 * All functions expect the module lock held and run inside the caller's
 * transaction.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "token/object.h"
#include "token/token.h"

/* Writes the token's seal record for mark. */
static CK_RV
write_mark(struct vg_slot *slot, int64_t mark)
{
	uint8_t rec[VG_TOKEN_SEAL_LEN];
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	vg_seal_token(slot->seal_key, slot->rec.serial, slot->rec.id, mark,
	    rec);
	rv = vg_db_cached(&vg_mod.db, "UPDATE tokens SET seal = ? "
	    "WHERE id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_blob(st, 1, rec, sizeof(rec), SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, slot->rec.id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "sealing the token");
	vg_db_release(&vg_mod.db, st);
	if (rv == CKR_OK)
		slot->seal_mark = mark;
	return rv;
}

struct pending {
	int64_t id;
	uint8_t tag[VG_SEAL_TAG_LEN];
};

/*
 * Seals the unsealed objects of the token with a row ID above after that
 * may be sealed: pending ones, or with legacy every object that passes
 * version 1's checks (its encrypted values decrypt). Others stay
 * unsealed, and so refused once the mark is above them. *top gets the
 * highest row ID of any object (0: none).
 */
static CK_RV
seal_unsealed(struct vg_slot *slot, int64_t after, int legacy, int64_t *top)
{
	struct pending *p = NULL, *t;
	size_t np = 0, cap = 0, i;
	sqlite3_stmt *st = NULL;
	int64_t mark = slot->seal_mark;
	CK_RV rv;
	int r;

	*top = 0;
	/* Row IDs are shared by the tokens: the highest of all objects
	 * (found through the row ID, without a scan) is as good a mark. */
	rv = vg_db_cached(&vg_mod.db, "SELECT max(id) FROM objects", &st);
	if (rv != CKR_OK)
		return rv;
	if (sqlite3_step(st) == SQLITE_ROW)
		*top = sqlite3_column_int64(st, 0);
	vg_db_release(&vg_mod.db, st);
	rv = vg_db_cached(&vg_mod.db, "SELECT " VG_OBJ_COLS " FROM objects "
	    "WHERE token_id = ? AND seal IS NULL AND id > ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, slot->rec.id);
	sqlite3_bind_int64(st, 2, after);
	/* The checks below measure against the old mark. */
	slot->seal_mark = after;
	while (rv == CKR_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
		struct vg_body_item *it = NULL;
		struct vg_object *o = NULL;
		struct vg_stored s;
		size_t n = 0;

		vg_store_read_row(slot, st, &s);
		if (s.row.id > VG_HANDLE_ID_MAX ||
		    vg_body_parse(s.row.body, s.row.body_len, &it, &n) !=
		    CKR_OK || !vg_seal_unsealed_ok(slot, &s, it, n, legacy) ||
		    vg_store_decode(slot, &s, it, n, &o) != CKR_OK) {
			vg_seal_log_refused(s.row.id, "not sealed, and not as the "
			    "module writes an object it cannot seal");
			free(it);
			continue;
		}
		free(it);
		vg_object_free(o);
		if (np == cap) {
			cap = cap ? cap * 2 : 16;
			t = realloc(p, cap * sizeof(*p));
			if (t == NULL) {
				rv = CKR_HOST_MEMORY;
				break;
			}
			p = t;
		}
		p[np].id = s.row.id;
		vg_seal_object(slot->seal_key, slot->rec.serial, &s.row,
		    p[np].tag);
		np++;
	}
	vg_db_release(&vg_mod.db, st);
	st = NULL;
	slot->seal_mark = mark;
	if (rv == CKR_OK)
		rv = vg_db_cached(&vg_mod.db, "UPDATE objects SET seal = ? "
		    "WHERE id = ? AND seal IS NULL", &st);
	for (i = 0; rv == CKR_OK && i < np; i++) {
		sqlite3_reset(st);
		sqlite3_bind_blob(st, 1, p[i].tag, VG_SEAL_TAG_LEN,
		    SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, p[i].id);
		if (sqlite3_step(st) != SQLITE_DONE)
			rv = vg_db_error(&vg_mod.db, "sealing an object");
	}
	vg_db_release(&vg_mod.db, st);
	if (rv == CKR_OK && np > 0)
		VG_LOG(VG_LOG_INFO, "token %lld: %zu object(s) sealed",
		    (long long)slot->rec.id, np);
	free(p);
	return rv;
}

/* The token's current seal mark from the database (another process may
 * have raised it), or the slot's when the record is not valid. */
static CK_RV
current_mark(struct vg_slot *slot, int64_t *mark)
{
	sqlite3_stmt *st = NULL;
	int64_t m = -1;
	CK_RV rv;

	*mark = slot->seal_mark;
	rv = vg_db_cached(&vg_mod.db, "SELECT seal FROM tokens WHERE id = ?",
	    &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, slot->rec.id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const uint8_t *p = sqlite3_column_blob(st, 0);
		size_t len = (size_t)sqlite3_column_bytes(st, 0);

		if (vg_seal_token_check(slot->seal_key, slot->rec.serial,
		    slot->rec.id, p, len, &m) && m > *mark)
			*mark = m;
		else if (m < 0)
			VG_LOG(VG_LOG_ERROR, "token %lld: its seal record does "
			    "not match (database damaged or tampered with)",
			    (long long)slot->rec.id);
	}
	vg_db_release(&vg_mod.db, st);
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_store_raise_mark_intx(struct vg_slot *slot, int64_t id)
{
	int64_t cur, top;
	CK_RV rv;

	rv = current_mark(slot, &cur);
	if (rv == CKR_OK && id <= cur) {
		slot->seal_mark = cur;
		return CKR_OK;
	}
	if (rv == CKR_OK)
		rv = seal_unsealed(slot, cur, 0, &top);
	if (rv == CKR_OK)
		rv = write_mark(slot, top > id ? top : id);
	return rv;
}

/* see token/token.h */
CK_RV
vg_store_seal_login_intx(struct vg_slot *slot, int legacy_ok)
{
	const struct vg_token_rec *rec = &slot->rec;
	int64_t mark = 0, top = 0;
	int legacy = 0, tampered = 0;
	CK_RV rv;

	if (slot->seal_key == NULL) {
		slot->seal_key = vg_secmem_alloc(VG_SEAL_KEY_LEN);
		if (slot->seal_key == NULL)
			return CKR_HOST_MEMORY;
	}
	if (slot->index_key == NULL) {
		slot->index_key = vg_secmem_alloc(VG_SEAL_KEY_LEN);
		if (slot->index_key == NULL)
			return CKR_HOST_MEMORY;
	}
	rv = vg_seal_key_derive(slot->mk, slot->seal_key);
	if (rv == CKR_OK)
		rv = vg_store_index_key(slot->mk, slot->index_key);
	if (rv != CKR_OK) {
		vg_secmem_free(slot->seal_key, VG_SEAL_KEY_LEN);
		slot->seal_key = NULL;
		vg_secmem_free(slot->index_key, VG_SEAL_KEY_LEN);
		slot->index_key = NULL;
		return rv;
	}
	if (rec->seal_len == 0 && legacy_ok) {
		legacy = 1;
		VG_LOG(VG_LOG_INFO, "token %lld was written before objects "
		    "were sealed: sealing it", (long long)rec->id);
	} else if (!vg_seal_token_check(slot->seal_key, rec->serial, rec->id,
	    rec->seal, rec->seal_len, &mark)) {
		/* Missing or altered: nothing unsealed is trusted, and
		 * nothing is sealed. */
		VG_LOG(VG_LOG_ERROR, "token %lld: its seal record is %s "
		    "(database damaged or tampered with); its unsealed objects "
		    "are not used", (long long)rec->id,
		    rec->seal_len == 0 ? "missing" : "altered");
		tampered = 1;
		mark = VG_HANDLE_ID_MAX;
	}
	slot->seal_mark = mark;
	slot->seal_legacy = legacy;
	if (vg_mod.db.readonly)
		return CKR_OK;
	/* Sealing is not needed to log in: a failure (a full disk) is
	 * undone and logged, and the objects wait for the next login. */
	rv = vg_db_exec(&vg_mod.db, "SAVEPOINT seal");
	if (rv == CKR_OK)
		rv = seal_unsealed(slot, tampered ? VG_HANDLE_ID_MAX : mark,
		    legacy, &top);
	/* A new record over every object there is now (a replaced one:
	 * over those left unsealed too, so that every process refuses
	 * them). */
	/* A new record only when it says something new. */
	if (rv == CKR_OK && (tampered || legacy || top > mark))
		rv = write_mark(slot, tampered || top > mark ? top : mark);
	if (rv == CKR_OK) {
		slot->seal_legacy = 0;
		return vg_db_exec(&vg_mod.db, "RELEASE seal");
	}
	VG_LOG(VG_LOG_WARNING, "token %lld: objects not sealed at login",
	    (long long)rec->id);
	vg_db_exec(&vg_mod.db, "ROLLBACK TO seal");
	vg_db_exec(&vg_mod.db, "RELEASE seal");
	slot->seal_mark = mark;
	return rv == CKR_HOST_MEMORY ? rv : CKR_OK;
}

/* see token/token.h */
void
vg_store_seal_refresh_inlock(struct vg_slot *slot)
{
	int64_t mark;

	if (slot->seal_key == NULL)
		return;
	if (vg_seal_token_check(slot->seal_key, slot->rec.serial,
	    slot->rec.id, slot->rec.seal, slot->rec.seal_len, &mark)) {
		if (mark > slot->seal_mark)
			slot->seal_mark = mark;
		slot->seal_legacy = 0;
	}
}
