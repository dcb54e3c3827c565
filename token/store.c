/*
 * Token objects in the database. An object is one row of `objects`: the
 * columns searches use (class, key type, privacy, two search keys, all
 * indexed), the body with every attribute (token/seal.c) and the seal.
 * Attribute values that are secret (private and secret key material) and
 * every attribute of a private object are encrypted with AES-256-GCM
 * under the token's master key; the associated data names the token, the
 * object and the attribute type. Search keys of private objects are keyed
 * hashes, so labels and IDs of private objects are not stored in the
 * clear either.
 *
 * The seal rules, applied whenever a user or the SO is logged in (the
 * slot has its seal key):
 *  - an object written then is sealed;
 *  - a sealed object is used only if its seal matches;
 *  - an unsealed object is used only if its row ID is above the token's
 *    seal mark and it is what the module makes without a login: public,
 *    not a private or secret key, nothing encrypted, not trusted, its
 *    columns agreeing with its attributes ("pending"); a token written
 *    before objects were sealed is sealed at its first login instead,
 *    after the checks version 1 made on each value;
 *  - at a login, and at a sealed insert of a public object with nothing
 *    encrypted (one that could pass for pending), the pending objects
 *    are sealed and the mark raised over them;
 *  - without the key a sealed object cannot be changed.
 * An object that breaks a rule is left out of searches and every other
 * use gives CKR_DEVICE_ERROR; the log names it. Without a login nothing
 * can be checked (no key is available without a PIN): public objects are
 * read as stored.
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


static size_t
attr_ad(uint8_t *ad, const struct vg_slot *slot, int64_t object_id,
    CK_ATTRIBUTE_TYPE type)
{
	size_t n = sizeof(ATTR_AD_PREFIX) - 1;

	memcpy(ad, ATTR_AD_PREFIX, n);
	memcpy(ad + n, slot->rec.serial, 16);
	vg_put_be(ad + n + 16, (uint64_t)object_id, 8);
	vg_put_be(ad + n + 24, (uint64_t)type, 8);
	return n + 32;
}

/* see token/token.h */
CK_RV
vg_store_index_key(const uint8_t *mk, uint8_t *key)
{
	if (vg_hkdf(VG_HASH_SHA256, NULL, 0, mk, VG_MK_LEN, INDEX_INFO,
	    sizeof(INDEX_INFO) - 1, key, VG_SEAL_KEY_LEN) != VG_OK)
		return CKR_FUNCTION_FAILED;
	return CKR_OK;
}

/* see token/token.h */
CK_OBJECT_HANDLE
vg_store_handle(const struct vg_slot *slot, int64_t id, int private_obj)
{
	CK_OBJECT_HANDLE h = (CK_OBJECT_HANDLE)id;

	if (private_obj)
		h |= (CK_OBJECT_HANDLE)(slot->epoch & VG_EPOCH_MASK)
		    << VG_HANDLE_ID_BITS;
	return h;
}

/* A search key: the value itself for public objects, a keyed hash (HMAC
 * under a key derived from the master key) for private ones. */
struct idx {
	const uint8_t *p;
	size_t len;
	int null;
	uint8_t buf[INDEX_LEN];
};

static CK_RV
index_key(const struct vg_slot *slot, char which, const void *v, size_t len,
    uint8_t out[INDEX_LEN])
{
	uint8_t k[32], mac[VG_HASH_MAX_LEN];
	struct vg_hmac m;

	if (slot->mk == NULL)
		return CKR_USER_NOT_LOGGED_IN;
	if (slot->index_key != NULL)
		memcpy(k, slot->index_key, sizeof(k));
	else if (vg_hkdf(VG_HASH_SHA256, NULL, 0, slot->mk, VG_MK_LEN,
	    INDEX_INFO, sizeof(INDEX_INFO) - 1, k, sizeof(k)) != VG_OK)
		return CKR_FUNCTION_FAILED;
	vg_hmac_init(&m, VG_HASH_SHA256, k, sizeof(k));
	vg_hmac_update(&m, &which, 1);
	vg_hmac_update(&m, v, len);
	vg_hmac_final(&m, mac);
	memcpy(out, mac, INDEX_LEN);
	vg_wipe(k, sizeof(k));
	vg_wipe(mac, sizeof(mac));
	return CKR_OK;
}

static CK_RV
index_of(const struct vg_slot *slot, int private_obj, char which,
    const struct vg_attr *a, struct idx *x)
{
	CK_RV rv = CKR_OK;

	memset(x, 0, sizeof(*x));
	if (a == NULL) {
		x->null = 1;
	} else if (!private_obj) {
		x->p = a->value != NULL ? a->value : (const uint8_t *)"";
		x->len = a->len;
	} else {
		rv = index_key(slot, which, a->value, a->len, x->buf);
		x->p = x->buf;
		x->len = INDEX_LEN;
	}
	return rv;
}

static void
bind_idx(sqlite3_stmt *st, int col, const struct idx *x)
{
	if (x->null)
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_blob(st, col, x->p, (int)x->len,
		    SQLITE_TRANSIENT);
}

static const uint8_t *
col_blob(sqlite3_stmt *st, int col, size_t *len, int *null)
{
	const uint8_t *p = sqlite3_column_blob(st, col);

	*null = sqlite3_column_type(st, col) == SQLITE_NULL;
	*len = (size_t)sqlite3_column_bytes(st, col);
	return p;
}

/* Reads the current row of a statement selecting VG_OBJ_COLS. */
/* see token/token.h */
void
vg_store_read_row(const struct vg_slot *slot, sqlite3_stmt *st, struct vg_stored *r)
{
	int null;

	memset(r, 0, sizeof(*r));
	r->row.token_id = slot->rec.id;
	r->row.id = sqlite3_column_int64(st, 0);
	r->row.cls = (CK_OBJECT_CLASS)sqlite3_column_int64(st, 1);
	r->row.has_kt = sqlite3_column_type(st, 2) != SQLITE_NULL;
	r->row.kt = r->row.has_kt ? (CK_KEY_TYPE)sqlite3_column_int64(st, 2)
				  : CK_UNAVAILABLE_INFORMATION;
	r->row.private_obj = sqlite3_column_int(st, 3) != 0;
	r->row.label_idx = col_blob(st, 4, &r->row.label_len,
	    &r->row.label_null);
	r->row.id_idx = col_blob(st, 5, &r->row.id_len, &r->row.id_null);
	r->row.body = col_blob(st, 6, &r->row.body_len, &null);
	r->seal = col_blob(st, 7, &r->seal_len, &null);
	if (null)
		r->seal = NULL;
}

/* Decrypts one stored value into o, or reports the object as damaged: a
 * value that does not authenticate is never used. */
static CK_RV
decrypt_attr(const struct vg_slot *slot, struct vg_aes_key *key, int64_t id,
    const struct vg_body_item *a, struct vg_object *o)
{
	uint8_t ad[64], *plain;
	size_t adlen = attr_ad(ad, slot, id, a->type), plen;
	CK_RV rv = CKR_OK;

	if (a->len < NONCE_LEN + TAG_LEN) {
		vg_seal_log_refused(id, "a damaged value");
		return CKR_DEVICE_ERROR;
	}
	plen = a->len - NONCE_LEN - TAG_LEN;
	plain = malloc(plen ? plen : 1);
	if (plain == NULL)
		return CKR_HOST_MEMORY;
	if (vg_aes_gcm_decrypt(key, a->value, NONCE_LEN, ad, adlen,
	    a->value + NONCE_LEN, plen, plain, a->value + NONCE_LEN + plen,
	    TAG_LEN) != VG_OK) {
		VG_LOG(VG_LOG_ERROR, "object %lld: attribute 0x%lx does not "
		    "authenticate (database damaged or tampered with)",
		    (long long)id, (unsigned long)a->type);
		rv = CKR_DEVICE_ERROR;
	} else {
		rv = vg_object_set_attr(o, a->type, plain, plen);
	}
	vg_wipe(plain, plen);
	free(plain);
	return rv;
}

/* Builds the object of a row from its parsed body, decrypting with the
 * master key where there is one (without it, encrypted values of public
 * objects are left out). */
/* see token/token.h */
CK_RV
vg_store_decode(const struct vg_slot *slot, const struct vg_stored *r,
    const struct vg_body_item *it, size_t n, struct vg_object **out)
{
	struct vg_object *o = vg_object_new();
	struct vg_aes_key key;
	int have_key = 0;
	size_t i;
	CK_RV rv = CKR_OK;

	*out = NULL;
	if (o == NULL)
		return CKR_HOST_MEMORY;
	o->db_id = r->row.id;
	o->handle = vg_store_handle(slot, r->row.id, r->row.private_obj);
	o->cls = r->row.cls;
	o->key_type = r->row.kt;
	for (i = 0; i < n && rv == CKR_OK; i++) {
		if (!it[i].encrypted) {
			rv = vg_object_set_attr(o, it[i].type, it[i].value,
			    it[i].len);
			continue;
		}
		if (slot->mk == NULL)
			continue;
		if (!have_key) {
			if (vg_aes_init(&key, slot->mk, VG_MK_LEN) != VG_OK) {
				rv = CKR_FUNCTION_FAILED;
				break;
			}
			have_key = 1;
		}
		rv = decrypt_attr(slot, &key, r->row.id, &it[i], o);
	}
	/* The class and key type the search columns claim are the
	 * object's own (a sealed row can only disagree if it was written
	 * so; an unsealed one is checked here). */
	if (rv == CKR_OK && slot->mk != NULL &&
	    (o->cls != r->row.cls || (r->row.has_kt ? o->key_type !=
	    r->row.kt : o->key_type != CK_UNAVAILABLE_INFORMATION) ||
	    vg_object_is_private(o) != r->row.private_obj)) {
		vg_seal_log_refused(r->row.id, "its columns disagree with its "
		    "attributes");
		rv = CKR_DEVICE_ERROR;
	}
	if (have_key)
		vg_aes_key_wipe(&key);
	if (rv == CKR_OK)
		*out = o;
	else
		vg_object_free(o);
	return rv;
}

/* The checked object of a row: parses, checks the seal, decodes
 * (out NULL: checks only). */
static CK_RV
object_of(const struct vg_slot *slot, const struct vg_stored *r,
    struct vg_object **out)
{
	struct vg_body_item *it = NULL;
	size_t n = 0;
	CK_RV rv;

	rv = vg_body_parse(r->row.body, r->row.body_len, &it, &n);
	if (rv == CKR_DEVICE_ERROR)
		vg_seal_log_refused(r->row.id, "a malformed body");
	if (rv == CKR_OK)
		rv = vg_seal_check(slot, r, it, n);
	if (rv == CKR_OK && out != NULL)
		rv = vg_store_decode(slot, r, it, n, out);
	free(it);
	return rv;
}

/* The body of o: each attribute as it is stored, encrypted where it
 * must be (under AD naming the object row id). */
static CK_RV
make_body(const struct vg_slot *slot, const struct vg_object *o, int64_t id,
    int private_obj, struct vg_body *b)
{
	struct vg_aes_key key;
	uint8_t *buf = NULL;
	size_t cap = 0, i;
	int have_key = 0;
	CK_RV rv;

	rv = vg_body_start(b);
	for (i = 0; rv == CKR_OK && i < o->n; i++) {
		const struct vg_attr *a = &o->attrs[i];
		int enc = private_obj ||
		    vg_attr_is_secret(o->cls, o->key_type, a->type);
		uint8_t ad[64];
		size_t adlen, total;

		if (!enc) {
			rv = vg_body_add(b, a->type, 0, a->value, a->len);
			continue;
		}
		if (slot->mk == NULL) {
			rv = CKR_USER_NOT_LOGGED_IN;
			break;
		}
		if (!have_key) {
			if (vg_aes_init(&key, slot->mk, VG_MK_LEN) != VG_OK) {
				rv = CKR_FUNCTION_FAILED;
				break;
			}
			have_key = 1;
		}
		total = NONCE_LEN + a->len + TAG_LEN;
		if (total > cap) {
			free(buf);
			buf = malloc(total);
			cap = buf != NULL ? total : 0;
			if (buf == NULL) {
				rv = CKR_HOST_MEMORY;
				break;
			}
		}
		adlen = attr_ad(ad, slot, id, a->type);
		if (vg_rng_generate(&vg_mod.rng, buf, NONCE_LEN) != VG_OK ||
		    vg_aes_gcm_encrypt(&key, buf, NONCE_LEN, ad, adlen,
		    a->value, a->len, buf + NONCE_LEN,
		    buf + NONCE_LEN + a->len, TAG_LEN) != VG_OK) {
			rv = CKR_FUNCTION_FAILED;
			break;
		}
		rv = vg_body_add(b, a->type, 1, buf, total);
	}
	free(buf); /* ciphertext only */
	if (have_key)
		vg_aes_key_wipe(&key);
	if (rv == CKR_OK)
		vg_body_finish(b);
	return rv;
}

static CK_RV
step_done(sqlite3_stmt *st, const char *what)
{
	CK_RV rv = CKR_OK;

	if (sqlite3_step(st) != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, what);
	vg_db_release(&vg_mod.db, st);
	return rv;
}

/* Whether row id of the token is sealed (*sealed), CKR_OBJECT_HANDLE_
 * INVALID when there is no such row. */
static CK_RV
row_sealed(const struct vg_slot *slot, int64_t id, int *sealed)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;
	int r;

	rv = vg_db_cached(&vg_mod.db, "SELECT seal IS NOT NULL FROM objects "
	    "WHERE id = ? AND token_id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, slot->rec.id);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*sealed = sqlite3_column_int(st, 0);
	else
		rv = r == SQLITE_DONE ? CKR_OBJECT_HANDLE_INVALID
				      : vg_db_error(&vg_mod.db, "reading");
	vg_db_release(&vg_mod.db, st);
	return rv;
}

/* Writes the objects row of o (inserting it when o->db_id is 0): its
 * columns, body and, with the seal key, its seal. */
static CK_RV
write_object(struct vg_slot *slot, struct vg_object *o)
{
	int private_obj = vg_object_is_private(o), sealed = 0;
	struct vg_stored r;
	struct idx li, ii;
	struct vg_body b = { NULL, 0, 0, 0 };
	uint8_t tag[VG_SEAL_TAG_LEN];
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	rv = index_of(slot, private_obj, 'L', vg_object_attr(o, CKA_LABEL),
	    &li);
	if (rv == CKR_OK)
		rv = index_of(slot, private_obj, 'I', vg_object_attr(o,
		    CKA_ID), &ii);
	if (rv == CKR_OK && o->db_id == 0) {
		/* The row ID first: encrypted values are bound to it. */
		rv = vg_db_cached(&vg_mod.db, "INSERT INTO objects "
		    "(token_id, class, key_type, private, body) "
		    "VALUES (?, 0, NULL, 1, x'')", &st);
		if (rv == CKR_OK) {
			sqlite3_bind_int64(st, 1, slot->rec.id);
			rv = step_done(st, "writing an object");
		}
		if (rv == CKR_OK)
			o->db_id = sqlite3_last_insert_rowid(vg_mod.db.h);
	} else if (rv == CKR_OK && slot->seal_key == NULL) {
		rv = row_sealed(slot, o->db_id, &sealed);
		if (rv == CKR_OK && sealed)
			rv = CKR_USER_NOT_LOGGED_IN;
	}
	if (rv == CKR_OK && o->db_id > VG_HANDLE_ID_MAX)
		rv = CKR_DEVICE_MEMORY; /* 2^40 objects made */
	if (rv == CKR_OK)
		rv = make_body(slot, o, o->db_id, private_obj, &b);
	if (rv != CKR_OK)
		goto out;
	memset(&r, 0, sizeof(r));
	r.row.token_id = slot->rec.id;
	r.row.id = o->db_id;
	r.row.cls = o->cls;
	r.row.has_kt = o->key_type != CK_UNAVAILABLE_INFORMATION;
	r.row.kt = o->key_type;
	r.row.private_obj = private_obj;
	r.row.label_idx = li.p;
	r.row.label_len = li.len;
	r.row.label_null = li.null;
	r.row.id_idx = ii.p;
	r.row.id_len = ii.len;
	r.row.id_null = ii.null;
	r.row.body = b.buf;
	r.row.body_len = b.len;
	if (slot->seal_key != NULL)
		vg_seal_object(slot->seal_key, slot->rec.serial, &r.row, tag);
	rv = vg_db_cached(&vg_mod.db, "UPDATE objects SET class = ?, "
	    "key_type = ?, private = ?, label_idx = ?, id_idx = ?, body = ?, "
	    "seal = ? WHERE id = ? AND token_id = ?", &st);
	if (rv != CKR_OK)
		goto out;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)o->cls);
	if (r.row.has_kt)
		sqlite3_bind_int64(st, 2, (sqlite3_int64)o->key_type);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_int(st, 3, private_obj);
	bind_idx(st, 4, &li);
	bind_idx(st, 5, &ii);
	sqlite3_bind_blob(st, 6, b.buf, (int)b.len, SQLITE_STATIC);
	if (slot->seal_key != NULL)
		sqlite3_bind_blob(st, 7, tag, sizeof(tag), SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 7);
	sqlite3_bind_int64(st, 8, o->db_id);
	sqlite3_bind_int64(st, 9, slot->rec.id);
	rv = step_done(st, "writing an object");
	if (rv == CKR_OK && sqlite3_changes(vg_mod.db.h) == 0)
		rv = CKR_OBJECT_HANDLE_INVALID; /* deleted meanwhile */
out:
	vg_body_free(&b);
	vg_wipe(&li, sizeof(li));
	vg_wipe(&ii, sizeof(ii));
	return rv;
}

/* Whether o has a value stored encrypted even in a public object. */
static int
has_secret(const struct vg_object *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (vg_attr_is_secret(o->cls, o->key_type, o->attrs[i].type))
			return 1;
	return 0;
}

/* see token/token.h */
CK_RV
vg_store_insert_inlock(struct vg_slot *slot, struct vg_object *o)
{
	int64_t mark = slot->seal_mark;
	CK_RV rv;

	o->db_id = 0;
	rv = vg_db_begin(&vg_mod.db);
	if (rv == CKR_OK)
		rv = write_object(slot, o);
	/* The mark protects an object that would pass for one made without
	 * a login if its seal were stripped: a public one with nothing
	 * encrypted. Others are refused unsealed anyway, and need no
	 * write of the token row. */
	if (rv == CKR_OK && slot->seal_key != NULL && !slot->seal_legacy &&
	    !vg_object_is_private(o) && !has_secret(o))
		rv = vg_store_raise_mark_intx(slot, o->db_id);
	rv = vg_db_end(&vg_mod.db, rv);
	if (rv == CKR_OK) {
		o->handle = vg_store_handle(slot, o->db_id,
		    vg_object_is_private(o));
	} else {
		o->db_id = 0;
		slot->seal_mark = mark;
	}
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
	sqlite3_stmt *st = NULL;
	CK_RV rv = vg_db_begin(&vg_mod.db);

	if (rv == CKR_OK)
		rv = vg_db_cached(&vg_mod.db, "DELETE FROM objects "
		    "WHERE id = ? AND token_id = ?", &st);
	if (rv == CKR_OK) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, slot->rec.id);
		rv = step_done(st, "deleting an object");
	}
	if (rv == CKR_OK && sqlite3_changes(vg_mod.db.h) == 0)
		rv = CKR_OBJECT_HANDLE_INVALID; /* gone meanwhile */
	return vg_db_end(&vg_mod.db, rv);
}

/* vg_store_load_inlock; *refused set when the row is there and visible
 * but its checks refuse it, with its row ID and privacy column. */
static CK_RV
load_inlock(struct vg_slot *slot, CK_OBJECT_HANDLE h, struct vg_object **out,
    int *refused, int64_t *rid, int *private_obj)
{
	int64_t id = (int64_t)(h & (CK_OBJECT_HANDLE)VG_HANDLE_ID_MAX);
	sqlite3_stmt *st = NULL;
	struct vg_stored r;
	CK_RV rv;
	int res;

	*out = NULL;
	*refused = 0;
	if (id == 0 || (h >> (VG_HANDLE_ID_BITS + 22)) != 0)
		return CKR_OBJECT_HANDLE_INVALID;
	rv = vg_db_cached(&vg_mod.db, "SELECT " VG_OBJ_COLS " FROM objects "
	    "WHERE id = ? AND token_id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, slot->rec.id);
	res = sqlite3_step(st);
	if (res == SQLITE_ROW) {
		vg_store_read_row(slot, st, &r);
		/* Private objects do not exist for a session that is not
		 * logged in as the user, nor for handles from before a
		 * logout. */
		if (h != vg_store_handle(slot, id, r.row.private_obj) ||
		    (r.row.private_obj && slot->login != CKU_USER)) {
			rv = CKR_OBJECT_HANDLE_INVALID;
		} else {
			rv = object_of(slot, &r, out);
			*refused = rv == CKR_DEVICE_ERROR;
			*rid = id;
			*private_obj = r.row.private_obj;
		}
	} else {
		rv = res == SQLITE_DONE ? CKR_OBJECT_HANDLE_INVALID
					: vg_db_error(&vg_mod.db, "reading");
	}
	vg_db_release(&vg_mod.db, st);
	return rv;
}

/* see token/token.h */
CK_RV
vg_store_load_inlock(struct vg_slot *slot, CK_OBJECT_HANDLE h,
    struct vg_object **out)
{
	int64_t id;
	int refused, private_obj;

	return load_inlock(slot, h, out, &refused, &id, &private_obj);
}

/* see token/token.h */
CK_RV
vg_store_refused_inlock(struct vg_slot *slot, CK_OBJECT_HANDLE h,
    int64_t *id, int *private_obj)
{
	struct vg_object *o = NULL;
	int refused = 0;
	CK_RV rv;

	*id = 0;
	*private_obj = 0;
	if (slot->seal_key == NULL)
		return CKR_DEVICE_ERROR;
	rv = load_inlock(slot, h, &o, &refused, id, private_obj);
	vg_object_free(o);
	if (refused)
		return CKR_OK;
	return rv == CKR_OK ? CKR_GENERAL_ERROR : rv;
}

/* Appends h to a growing array. */
static CK_RV
push_handle(CK_OBJECT_HANDLE **hs, size_t *n, size_t *cap,
    CK_OBJECT_HANDLE h)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		CK_OBJECT_HANDLE *t = realloc(*hs, c * sizeof(*t));

		if (t == NULL)
			return CKR_HOST_MEMORY;
		*hs = t;
		*cap = c;
	}
	(*hs)[(*n)++] = h;
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
 * type, label, CKA_ID, privacy); each candidate's seal is checked from
 * the same row when the slot has the key, and candidates are decoded
 * and matched only when the template names other attributes.
 */
CK_RV
vg_store_find_inlock(struct vg_slot *slot, const CK_ATTRIBUTE *t,
    CK_ULONG n, CK_OBJECT_HANDLE **handles, size_t *count)
{
	const CK_ATTRIBUTE *label = NULL, *ckaid = NULL;
	int use_cls = 0, use_kt = 0, others = 0, user = slot->login == CKU_USER;
	int rows = 0;
	CK_ULONG cls = 0, kt = 0, i;
	uint8_t lpriv[INDEX_LEN], ipriv[INDEX_LEN];
	size_t cap = 0;
	sqlite3_stmt *st = NULL;
	char sql[640];
	CK_RV rv = CKR_OK;
	int r;

	*handles = NULL;
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
		rv = index_key(slot, 'L', label->pValue, label->ulValueLen,
		    lpriv);
	if (rv == CKR_OK && user && ckaid != NULL)
		rv = index_key(slot, 'I', ckaid->pValue, ckaid->ulValueLen,
		    ipriv);
	if (rv != CKR_OK)
		return rv;
	/* Whole rows when they are checked or decoded. */
	rows = slot->seal_key != NULL || others;
	snprintf(sql, sizeof(sql),
	    "SELECT %s FROM objects WHERE token_id = ?1%s%s%s%s%s "
	    "ORDER BY id", rows ? VG_OBJ_COLS : "id, private",
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
	rv = vg_db_cached(&vg_mod.db, sql, &st);
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
			sqlite3_bind_blob(st, 5, lpriv, INDEX_LEN,
			    SQLITE_TRANSIENT);
	}
	if (ckaid != NULL) {
		sqlite3_bind_blob(st, 6, ckaid->ulValueLen ? ckaid->pValue
		    : (const void *)"", (int)ckaid->ulValueLen,
		    SQLITE_TRANSIENT);
		if (user)
			sqlite3_bind_blob(st, 7, ipriv, INDEX_LEN,
			    SQLITE_TRANSIENT);
	}
	while (rv == CKR_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		int private_obj = sqlite3_column_int(st, rows ? 3 : 1) != 0;
		struct vg_object *o = NULL;
		struct vg_stored s;

		if (id <= 0 || id > VG_HANDLE_ID_MAX)
			continue;
		if (rows) {
			vg_store_read_row(slot, st, &s);
			rv = object_of(slot, &s, others ? &o : NULL);
			if (rv == CKR_DEVICE_ERROR) {
				rv = CKR_OK; /* refused, and logged */
				continue;
			}
			if (rv == CKR_OK && others && !vg_object_match(o, t,
			    n)) {
				vg_object_free(o);
				continue;
			}
			vg_object_free(o);
		}
		if (rv == CKR_OK)
			rv = push_handle(handles, count, &cap,
			    vg_store_handle(slot, id, private_obj));
	}
	if (rv == CKR_OK && r != SQLITE_DONE)
		rv = vg_db_error(&vg_mod.db, "searching objects");
	vg_db_release(&vg_mod.db, st);
	vg_wipe(lpriv, sizeof(lpriv));
	vg_wipe(ipriv, sizeof(ipriv));
	if (rv != CKR_OK) {
		free(*handles);
		*handles = NULL;
		*count = 0;
	}
	return rv;
}

