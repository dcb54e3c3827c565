/*
 * Administration that PKCS#11 has no function for, used by vgtoken-util:
 * deleting a token. The caller proves its authority the PKCS#11 way, by
 * logging in as the SO (C_Login checks the PIN and counts failures).
 */
#include "config.h"

#include "token/token.h"

static CK_RV
delete_rows(const char *sql, int64_t id)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	rv = vg_db_prepare(&vg_mod.db, sql, &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "deleting a token");
	sqlite3_finalize(st);
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_delete(struct vg_session *s)
{
	struct vg_slot *slot = s->slot;
	CK_RV rv;

	vg_mutex_lock(&vg_mod.lock);
	if (!slot->listed) {
		rv = CKR_DEVICE_REMOVED;
		goto out;
	}
	if (!slot->initialized) {
		rv = CKR_TOKEN_NOT_RECOGNIZED;
		goto out;
	}
	if (slot->login != CKU_SO) {
		rv = CKR_USER_NOT_LOGGED_IN;
		goto out;
	}
	if (!(s->flags & CKF_RW_SESSION)) {
		rv = CKR_SESSION_READ_ONLY;
		goto out;
	}
	if (slot->sessions != 1) {
		rv = CKR_SESSION_EXISTS;
		goto out;
	}
	rv = vg_db_begin(&vg_mod.db);
	if (rv != CKR_OK)
		goto out;
	/* Attributes go with their objects (ON DELETE CASCADE). */
	rv = delete_rows("DELETE FROM objects WHERE token_id = ?",
	    slot->rec.id);
	if (rv == CKR_OK)
		rv = delete_rows("DELETE FROM tokens WHERE id = ?",
		    slot->rec.id);
	/* Nothing deleted: another process deleted it meanwhile. */
	if (rv == CKR_OK && sqlite3_changes(vg_mod.db.h) == 0)
		rv = CKR_DEVICE_REMOVED;
	rv = vg_db_end(&vg_mod.db, rv);
	if (rv == CKR_OK) {
		VG_LOG(VG_LOG_INFO, "token %lld deleted",
		    (long long)slot->rec.id);
		vg_slot_logout_inlock(slot);
	}
	/* Our own commit does not change data_version: reload, which
	 * unlists the slot. */
	vg_slots_reload_inlock();
out:
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}
