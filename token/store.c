/*
 * Token objects in the database. An object is a row of `objects` (class,
 * key type, privacy and two search keys, all indexed) and one row of
 * `attributes` per attribute. Attribute values that are secret (private
 * and secret key material) and every attribute of a private object are
 * encrypted with AES-256-GCM under the token's master key; the associated
 * data names the token, the object and the attribute type, so a
 * ciphertext moved to another row does not decrypt. Search keys of private
 * objects are keyed hashes, so labels and IDs of private objects are not
 * stored in the clear either.
 *
 * All functions expect the module lock held and run inside the caller's
 * transaction where they change anything.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token/object.h"
#include "token/token.h"

#define ATTR_AD_PREFIX "vgtoken attribute v1"
#define INDEX_INFO "vgtoken search index v1"
#define NONCE_LEN 12
#define TAG_LEN 16
#define INDEX_LEN 16

static void
be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

static size_t
attr_ad(uint8_t *ad, const struct vg_slot *slot, int64_t object_id,
    CK_ATTRIBUTE_TYPE type)
{
	size_t n = sizeof(ATTR_AD_PREFIX) - 1;

	memcpy(ad, ATTR_AD_PREFIX, n);
	memcpy(ad + n, slot->rec.serial, 16);
	be64(ad + n + 16, (uint64_t)object_id);
	be64(ad + n + 24, (uint64_t)type);
	return n + 32;
}

/* The search key of a label or CKA_ID: the value itself for public
 * objects, a keyed hash (HMAC under a key derived from the master key)
 * for private ones. */
static CK_RV
index_key(const struct vg_slot *slot, int private_obj, char which,
    const void *v, size_t len, uint8_t *out, size_t *outlen)
{
	uint8_t k[32], mac[VG_HASH_MAX_LEN];
	struct vg_hmac m;

	if (!private_obj) {
		if (len > 0)
			memcpy(out, v, len);
		*outlen = len;
		return CKR_OK;
	}
	if (slot->mk == NULL)
		return CKR_USER_NOT_LOGGED_IN;
	if (vg_hkdf(VG_HASH_SHA256, NULL, 0, slot->mk, VG_MK_LEN, INDEX_INFO,
	    sizeof(INDEX_INFO) - 1, k, sizeof(k)) != VG_OK)
		return CKR_FUNCTION_FAILED;
	vg_hmac_init(&m, VG_HASH_SHA256, k, sizeof(k));
	vg_hmac_update(&m, &which, 1);
	vg_hmac_update(&m, v, len);
	vg_hmac_final(&m, mac);
	memcpy(out, mac, INDEX_LEN);
	*outlen = INDEX_LEN;
	vg_wipe(k, sizeof(k));
	vg_wipe(mac, sizeof(mac));
	return CKR_OK;
}

static CK_RV
bind_index(sqlite3_stmt *st, int col, const struct vg_slot *slot,
    int private_obj, char which, const struct vg_attr *a)
{
	uint8_t buf[256];
	size_t len;
	CK_RV rv;

	if (a == NULL) {
		sqlite3_bind_null(st, col);
		return CKR_OK;
	}
	if (!private_obj) {
		sqlite3_bind_blob(st, col, a->value != NULL ? a->value : "",
		    (int)a->len, SQLITE_TRANSIENT);
		return CKR_OK;
	}
	rv = index_key(slot, 1, which, a->value, a->len, buf, &len);
	if (rv == CKR_OK)
		sqlite3_bind_blob(st, col, buf, (int)len, SQLITE_TRANSIENT);
	return rv;
}

/* Writes every attribute of o (already in `objects` as o->db_id). */
static CK_RV
write_attrs(const struct vg_slot *slot, const struct vg_object *o,
    int private_obj)
{
	sqlite3_stmt *st = NULL;
	struct vg_aes_key key;
	uint8_t *buf = NULL;
	int have_key = 0;
	size_t i;
	CK_RV rv;

	rv = vg_db_prepare(&vg_mod.db, "INSERT OR REPLACE INTO attributes "
	    "(object_id, type, encrypted, value) VALUES (?, ?, ?, ?)", &st);
	for (i = 0; rv == CKR_OK && i < o->n; i++) {
		const struct vg_attr *a = &o->attrs[i];
		int enc = private_obj ||
		    vg_attr_is_secret(o->cls, o->key_type, a->type);

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, o->db_id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)a->type);
		sqlite3_bind_int(st, 3, enc);
		if (!enc) {
			sqlite3_bind_blob(st, 4, a->value ? a->value : "",
			    (int)a->len, SQLITE_STATIC);
		} else {
			uint8_t ad[64];
			size_t adlen = attr_ad(ad, slot, o->db_id, a->type);
			size_t total = NONCE_LEN + a->len + TAG_LEN;

			if (slot->mk == NULL) {
				rv = CKR_USER_NOT_LOGGED_IN;
				break;
			}
			if (!have_key) {
				if (vg_aes_init(&key, slot->mk, VG_MK_LEN) !=
				    VG_OK) {
					rv = CKR_FUNCTION_FAILED;
					break;
				}
				have_key = 1;
			}
			free(buf);
			buf = malloc(total);
			if (buf == NULL) {
				rv = CKR_HOST_MEMORY;
				break;
			}
			if (vg_rng_generate(&vg_mod.rng, buf, NONCE_LEN) !=
			    VG_OK || vg_aes_gcm_encrypt(&key, buf, NONCE_LEN,
			    ad, adlen, a->value, a->len, buf + NONCE_LEN,
			    buf + NONCE_LEN + a->len, TAG_LEN) != VG_OK) {
				rv = CKR_FUNCTION_FAILED;
				break;
			}
			sqlite3_bind_blob(st, 4, buf, (int)total,
			    SQLITE_STATIC);
		}
		if (sqlite3_step(st) != SQLITE_DONE)
			rv = vg_db_error(&vg_mod.db, "writing an attribute");
	}
	sqlite3_finalize(st);
	free(buf);
	if (have_key)
		vg_aes_key_wipe(&key);
	return rv;
}

static CK_RV
exec_id(const char *sql, int64_t id)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	rv = vg_db_prepare(&vg_mod.db, sql, &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "updating objects");
	sqlite3_finalize(st);
	return rv;
}

/* Writes the objects row (insert when o->db_id is 0) and all attributes. */
static CK_RV
write_object(const struct vg_slot *slot, struct vg_object *o)
{
	int private_obj = vg_object_is_private(o);
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	rv = vg_db_prepare(&vg_mod.db, o->db_id == 0
	    ? "INSERT INTO objects (token_id, class, key_type, private, "
	      "label_idx, id_idx, id) VALUES (?, ?, ?, ?, ?, ?, NULL)"
	    : "UPDATE objects SET token_id = ?, class = ?, key_type = ?, "
	      "private = ?, label_idx = ?, id_idx = ? WHERE id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, slot->rec.id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)o->cls);
	if (o->key_type == CK_UNAVAILABLE_INFORMATION)
		sqlite3_bind_null(st, 3);
	else
		sqlite3_bind_int64(st, 3, (sqlite3_int64)o->key_type);
	sqlite3_bind_int(st, 4, private_obj);
	rv = bind_index(st, 5, slot, private_obj, 'L',
	    vg_object_attr(o, CKA_LABEL));
	if (rv == CKR_OK)
		rv = bind_index(st, 6, slot, private_obj, 'I',
		    vg_object_attr(o, CKA_ID));
	if (rv == CKR_OK && o->db_id != 0)
		sqlite3_bind_int64(st, 7, o->db_id);
	if (rv == CKR_OK && sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "writing an object");
	sqlite3_finalize(st);
	if (rv == CKR_OK && o->db_id == 0)
		o->db_id = sqlite3_last_insert_rowid(vg_mod.db.h);
	else if (rv == CKR_OK)
		rv = exec_id("DELETE FROM attributes WHERE object_id = ?",
		    o->db_id);
	if (rv == CKR_OK)
		rv = write_attrs(slot, o, private_obj);
	return rv;
}

/* see token/token.h */
CK_RV
vg_store_insert_inlock(struct vg_slot *slot, struct vg_object *o)
{
	CK_RV rv;

	o->db_id = 0;
	rv = vg_db_begin(&vg_mod.db);
	if (rv == CKR_OK)
		rv = write_object(slot, o);
	rv = vg_db_end(&vg_mod.db, rv);
	if (rv == CKR_OK)
		o->handle = (CK_OBJECT_HANDLE)o->db_id;
	else
		o->db_id = 0;
	return rv;
}

/* see token/token.h */
CK_RV
vg_store_update_inlock(struct vg_slot *slot, struct vg_object *o)
{
	CK_RV rv = vg_db_begin(&vg_mod.db);

	if (rv == CKR_OK)
		rv = write_object(slot, o);
	return vg_db_end(&vg_mod.db, rv);
}

/* see token/token.h */
CK_RV
vg_store_delete_inlock(struct vg_slot *slot, int64_t id)
{
	CK_RV rv = vg_db_begin(&vg_mod.db);

	(void)slot;
	if (rv == CKR_OK)
		rv = exec_id("DELETE FROM objects WHERE id = ?", id);
	if (rv == CKR_OK && sqlite3_changes(vg_mod.db.h) == 0)
		rv = CKR_OBJECT_HANDLE_INVALID; /* gone meanwhile */
	return vg_db_end(&vg_mod.db, rv);
}

/* Decrypts one stored value into a, or reports the database as damaged:
 * a value that does not authenticate is never used. */
static CK_RV
decrypt_attr(const struct vg_slot *slot, struct vg_aes_key *key,
    int64_t id, CK_ATTRIBUTE_TYPE type, const uint8_t *in, size_t len,
    struct vg_object *o)
{
	uint8_t ad[64], *plain;
	size_t adlen = attr_ad(ad, slot, id, type), plen;
	CK_RV rv = CKR_OK;

	if (len < NONCE_LEN + TAG_LEN) {
		VG_LOG(VG_LOG_ERROR, "object %lld: damaged attribute 0x%lx",
		    (long long)id, (unsigned long)type);
		return CKR_DEVICE_ERROR;
	}
	plen = len - NONCE_LEN - TAG_LEN;
	plain = malloc(plen ? plen : 1);
	if (plain == NULL)
		return CKR_HOST_MEMORY;
	if (vg_aes_gcm_decrypt(key, in, NONCE_LEN, ad, adlen, in + NONCE_LEN,
	    plen, plain, in + NONCE_LEN + plen, TAG_LEN) != VG_OK) {
		VG_LOG(VG_LOG_ERROR, "object %lld: attribute 0x%lx does not "
		    "authenticate (database damaged or tampered with)",
		    (long long)id, (unsigned long)type);
		rv = CKR_DEVICE_ERROR;
	} else {
		rv = vg_object_set_attr(o, type, plain, plen);
	}
	vg_wipe(plain, plen);
	free(plain);
	return rv;
}

/* see token/token.h */
CK_RV
vg_store_load_inlock(struct vg_slot *slot, int64_t id,
    struct vg_object **out)
{
	sqlite3_stmt *st = NULL;
	struct vg_object *o = NULL;
	struct vg_aes_key key;
	int have_key = 0, private_obj = 0, r;
	CK_RV rv;

	*out = NULL;
	rv = vg_db_prepare(&vg_mod.db, "SELECT class, key_type, private "
	    "FROM objects WHERE id = ? AND token_id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, slot->rec.id);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		o = vg_object_new();
		if (o == NULL) {
			rv = CKR_HOST_MEMORY;
		} else {
			o->db_id = id;
			o->handle = (CK_OBJECT_HANDLE)id;
			o->cls = (CK_OBJECT_CLASS)sqlite3_column_int64(st, 0);
			o->key_type = sqlite3_column_type(st, 1) == SQLITE_NULL
			    ? CK_UNAVAILABLE_INFORMATION
			    : (CK_KEY_TYPE)sqlite3_column_int64(st, 1);
			private_obj = sqlite3_column_int(st, 2);
		}
	} else {
		rv = r == SQLITE_DONE ? CKR_OBJECT_HANDLE_INVALID
				      : vg_db_error(&vg_mod.db, "reading");
	}
	sqlite3_finalize(st);
	/* Private objects do not exist for a session that is not logged
	 * in as the user. */
	if (rv == CKR_OK && private_obj && slot->login != CKU_USER)
		rv = CKR_OBJECT_HANDLE_INVALID;
	if (rv == CKR_OK)
		rv = vg_db_prepare(&vg_mod.db, "SELECT type, encrypted, value "
		    "FROM attributes WHERE object_id = ?", &st);
	if (rv != CKR_OK)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	while (rv == CKR_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
		CK_ATTRIBUTE_TYPE type = (CK_ATTRIBUTE_TYPE)
		    sqlite3_column_int64(st, 0);
		const uint8_t *v = sqlite3_column_blob(st, 2);
		size_t len = (size_t)sqlite3_column_bytes(st, 2);

		if (!sqlite3_column_int(st, 1)) {
			rv = vg_object_set_attr(o, type, v, len);
			continue;
		}
		if (slot->mk == NULL) {
			/* Secret parts of public objects (none today)
			 * need the key: leave them out. */
			continue;
		}
		if (!have_key) {
			if (vg_aes_init(&key, slot->mk, VG_MK_LEN) != VG_OK) {
				rv = CKR_FUNCTION_FAILED;
				break;
			}
			have_key = 1;
		}
		rv = decrypt_attr(slot, &key, id, type, v, len, o);
	}
	if (rv == CKR_OK && r != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "reading attributes");
	sqlite3_finalize(st);
out:
	if (have_key)
		vg_aes_key_wipe(&key);
	if (rv == CKR_OK)
		*out = o;
	else
		vg_object_free(o);
	return rv;
}

/* Appends id to a growing array. */
static CK_RV
push_id(int64_t **ids, size_t *n, size_t *cap, int64_t id)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		int64_t *t = realloc(*ids, c * sizeof(*t));

		if (t == NULL)
			return CKR_HOST_MEMORY;
		*ids = t;
		*cap = c;
	}
	(*ids)[(*n)++] = id;
	return CKR_OK;
}

/* Value of a CK_ULONG template entry, or -1 if it is malformed. */
static int
ulong_of(const CK_ATTRIBUTE *a, CK_ULONG *v)
{
	if (a->pValue == NULL || a->ulValueLen != sizeof(CK_ULONG))
		return -1;
	memcpy(v, a->pValue, sizeof(*v));
	return 0;
}

/*
 * see token/token.h. The SQL narrows by the indexed columns (class, key
 * type, label, CKA_ID, privacy); candidates are then loaded and matched
 * only when the template names other attributes.
 */
CK_RV
vg_store_find_inlock(struct vg_slot *slot, const CK_ATTRIBUTE *t,
    CK_ULONG n, int64_t **ids, size_t *count)
{
	const CK_ATTRIBUTE *label = NULL, *ckaid = NULL;
	int use_cls = 0, use_kt = 0, others = 0, user = slot->login == CKU_USER;
	CK_ULONG cls = 0, kt = 0, i;
	uint8_t lpriv[INDEX_LEN], ipriv[INDEX_LEN];
	size_t lplen = 0, iplen = 0, cap = 0;
	sqlite3_stmt *st = NULL;
	char sql[640];
	CK_RV rv = CKR_OK;
	int r;

	*ids = NULL;
	*count = 0;
	for (i = 0; i < n; i++) {
		switch (t[i].type) {
		case CKA_CLASS:
			if (ulong_of(&t[i], &cls) != 0)
				return CKR_OK; /* matches nothing */
			use_cls = 1;
			break;
		case CKA_KEY_TYPE:
			if (ulong_of(&t[i], &kt) != 0)
				return CKR_OK;
			use_kt = 1;
			break;
		case CKA_LABEL:
			label = &t[i];
			break;
		case CKA_ID:
			ckaid = &t[i];
			break;
		case CKA_TOKEN:
			if (t[i].ulValueLen != 1 || t[i].pValue == NULL ||
			    *(CK_BBOOL *)t[i].pValue != CK_TRUE)
				return CKR_OK; /* session objects only */
			break;
		default:
			others = 1;
		}
	}
	if ((label != NULL && label->pValue == NULL && label->ulValueLen) ||
	    (ckaid != NULL && ckaid->pValue == NULL && ckaid->ulValueLen))
		return CKR_OK;
	if (user && label != NULL)
		rv = index_key(slot, 1, 'L', label->pValue, label->ulValueLen,
		    lpriv, &lplen);
	if (rv == CKR_OK && user && ckaid != NULL)
		rv = index_key(slot, 1, 'I', ckaid->pValue, ckaid->ulValueLen,
		    ipriv, &iplen);
	if (rv != CKR_OK)
		return rv;
	snprintf(sql, sizeof(sql),
	    "SELECT id FROM objects WHERE token_id = ?1%s%s%s%s%s "
	    "ORDER BY id",
	    user ? "" : " AND private = 0",
	    use_cls ? " AND class = ?2" : "",
	    use_kt ? " AND key_type = ?3" : "",
	    /* The IN term lets SQLite use the index; the OR term keeps
	     * each search key to its kind of object. */
	    label == NULL ? "" : user
	    ? " AND label_idx IN (?4, ?5) AND ((private = 0 AND "
	      "label_idx = ?4) OR (private = 1 AND label_idx = ?5))"
	    : " AND label_idx = ?4",
	    ckaid == NULL ? "" : user
	    ? " AND id_idx IN (?6, ?7) AND ((private = 0 AND id_idx = ?6) "
	      "OR (private = 1 AND id_idx = ?7))"
	    : " AND id_idx = ?6");
	rv = vg_db_prepare(&vg_mod.db, sql, &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, slot->rec.id);
	if (use_cls)
		sqlite3_bind_int64(st, 2, (sqlite3_int64)cls);
	if (use_kt)
		sqlite3_bind_int64(st, 3, (sqlite3_int64)kt);
	if (label != NULL) {
		sqlite3_bind_blob(st, 4, label->ulValueLen ? label->pValue
		    : (const void *)"", (int)label->ulValueLen,
		    SQLITE_TRANSIENT);
		if (user)
			sqlite3_bind_blob(st, 5, lpriv, (int)lplen,
			    SQLITE_TRANSIENT);
	}
	if (ckaid != NULL) {
		sqlite3_bind_blob(st, 6, ckaid->ulValueLen ? ckaid->pValue
		    : (const void *)"", (int)ckaid->ulValueLen,
		    SQLITE_TRANSIENT);
		if (user)
			sqlite3_bind_blob(st, 7, ipriv, (int)iplen,
			    SQLITE_TRANSIENT);
	}
	while (rv == CKR_OK && (r = sqlite3_step(st)) == SQLITE_ROW)
		rv = push_id(ids, count, &cap, sqlite3_column_int64(st, 0));
	if (rv == CKR_OK && r != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "searching objects");
	sqlite3_finalize(st);

	/* Attributes without a column: load and compare. */
	if (rv == CKR_OK && others) {
		size_t k, kept = 0;

		for (k = 0; rv == CKR_OK && k < *count; k++) {
			struct vg_object *o;

			rv = vg_store_load_inlock(slot, (*ids)[k], &o);
			if (rv == CKR_OBJECT_HANDLE_INVALID) {
				rv = CKR_OK; /* deleted meanwhile */
				continue;
			}
			if (rv == CKR_OK && vg_object_match(o, t, n))
				(*ids)[kept++] = (*ids)[k];
			vg_object_free(o);
		}
		*count = kept;
	}
	vg_wipe(lpriv, sizeof(lpriv));
	vg_wipe(ipriv, sizeof(ipriv));
	if (rv != CKR_OK) {
		free(*ids);
		*ids = NULL;
		*count = 0;
	}
	return rv;
}
