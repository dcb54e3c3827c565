/*
 * The stored form of a token object and its seal.
 *
 * The database file is not trusted: whoever can write it (another local
 * account, a synced or restored home directory) could otherwise add,
 * drop or replace attributes, or store in the clear what should be
 * encrypted. So a token object is stored as one row whose body holds
 * every attribute (type, whether it is encrypted, the stored bytes), and
 * the row is authenticated as a whole by its seal: an HMAC-SHA-256, under
 * a key derived from the token's master key, over the token's identity
 * (serial, row ID), the object's row ID, its indexed columns (class, key
 * type, privacy, the two search keys) and the body. Any row added,
 * removed, replaced, moved from another object or token, or turned from
 * encrypted to plain then fails its seal.
 *
 * A token's seal record, authenticated the same way, holds its seal
 * mark: every object of the token whose row ID is at most the mark must
 * be sealed, so a seal cannot be stripped from an object to pass it off
 * as a public object made without a login (those cannot be sealed: the
 * key needs a PIN). token/store.c applies these rules.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/ct.h"
#include "token/object.h"
#include "token/token.h"

#define SEAL_INFO "vgtoken seal key v2"
#define OBJECT_DOMAIN "vgtoken object seal v2"
#define TOKEN_DOMAIN "vgtoken token seal v2"
#define BODY_HDR_LEN 8 /* magic and version, u32 count */
#define ITEM_HDR_LEN 13 /* u64 type, u8 flags, u32 length */
#define TOKEN_SEAL_VERSION 2

/* see token/token.h */
CK_RV
vg_body_start(struct vg_body *b)
{
	memset(b, 0, sizeof(*b));
	b->cap = 256;
	b->buf = malloc(b->cap);
	if (b->buf == NULL)
		return CKR_HOST_MEMORY;
	memcpy(b->buf, VG_BODY_MAGIC, 4);
	b->len = BODY_HDR_LEN;
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_body_add(struct vg_body *b, CK_ATTRIBUTE_TYPE type, int encrypted,
    const void *v, size_t len)
{
	uint8_t *t;
	size_t need;

	if (len > 0xffffffffu || b->count == 0xffffffffu ||
	    len > SIZE_MAX - ITEM_HDR_LEN - b->len)
		return CKR_GENERAL_ERROR;
	need = b->len + ITEM_HDR_LEN + len;
	if (need > b->cap) {
		size_t cap = b->cap * 2 > need ? b->cap * 2 : need;

		/* The body may hold secrets in the clear only while it is
		 * built; it is wiped, never realloc'ed in place. */
		t = malloc(cap);
		if (t == NULL)
			return CKR_HOST_MEMORY;
		memcpy(t, b->buf, b->len);
		vg_wipe(b->buf, b->cap);
		free(b->buf);
		b->buf = t;
		b->cap = cap;
	}
	vg_put_be(b->buf + b->len, (uint64_t)type, 8);
	b->buf[b->len + 8] = encrypted ? 1 : 0;
	vg_put_be(b->buf + b->len + 9, (uint32_t)len, 4);
	if (len > 0)
		memcpy(b->buf + b->len + ITEM_HDR_LEN, v, len);
	b->len = need;
	b->count++;
	return CKR_OK;
}

/* see token/token.h */
void
vg_body_finish(struct vg_body *b)
{
	vg_put_be(b->buf + 4, (uint32_t)b->count, 4);
}

/* see token/token.h */
void
vg_body_free(struct vg_body *b)
{
	if (b->buf != NULL)
		vg_wipe(b->buf, b->cap);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

/* see token/token.h */
CK_RV
vg_body_parse(const uint8_t *body, size_t len, struct vg_body_item **items,
    size_t *n)
{
	struct vg_body_item *it = NULL;
	size_t count, i, pos = BODY_HDR_LEN;
	uint64_t prev = 0;
	CK_RV rv = CKR_OK;

	*items = NULL;
	*n = 0;
	if (body == NULL || len < BODY_HDR_LEN ||
	    memcmp(body, VG_BODY_MAGIC, 4) != 0)
		return CKR_DEVICE_ERROR;
	count = (uint32_t)vg_get_be(body + 4, 4);
	/* Each item takes at least its header: a count that cannot fit is
	 * refused before anything is allocated. */
	if (count > (len - BODY_HDR_LEN) / ITEM_HDR_LEN)
		return CKR_DEVICE_ERROR;
	it = calloc(count ? count : 1, sizeof(*it));
	if (it == NULL)
		return CKR_HOST_MEMORY;
	for (i = 0; i < count && rv == CKR_OK; i++) {
		uint64_t type;
		uint32_t vlen;

		if (len - pos < ITEM_HDR_LEN) {
			rv = CKR_DEVICE_ERROR;
			break;
		}
		type = vg_get_be(body + pos, 8);
		vlen = (uint32_t)vg_get_be(body + pos + 9, 4);
		/* Types strictly increasing, flags 0 or 1: one encoding
		 * for each object. */
		if ((i > 0 && type <= prev) || body[pos + 8] > 1 ||
		    vlen > len - pos - ITEM_HDR_LEN ||
		    type != (uint64_t)(CK_ATTRIBUTE_TYPE)type) {
			rv = CKR_DEVICE_ERROR;
			break;
		}
		it[i].type = (CK_ATTRIBUTE_TYPE)type;
		it[i].encrypted = body[pos + 8];
		it[i].value = body + pos + ITEM_HDR_LEN;
		it[i].len = vlen;
		prev = type;
		pos += ITEM_HDR_LEN + vlen;
	}
	if (rv == CKR_OK && pos != len)
		rv = CKR_DEVICE_ERROR; /* trailing bytes */
	if (rv != CKR_OK) {
		free(it);
		return rv;
	}
	*items = it;
	*n = count;
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_seal_key_derive(const uint8_t *mk, uint8_t *key)
{
	if (vg_hkdf(VG_HASH_SHA256, NULL, 0, mk, VG_MK_LEN, SEAL_INFO,
	    sizeof(SEAL_INFO) - 1, key, VG_SEAL_KEY_LEN) != VG_OK)
		return CKR_FUNCTION_FAILED;
	return CKR_OK;
}

/* A column that may be NULL: a length of all ones stands for NULL, so
 * that NULL and empty differ. */
static void
absorb_col(struct vg_hmac *m, const uint8_t *v, size_t len, int null)
{
	uint8_t l[4];

	vg_put_be(l, null ? 0xffffffffu : (uint32_t)len, 4);
	vg_hmac_update(m, l, 4);
	if (!null && len > 0)
		vg_hmac_update(m, v, len);
}

/* The seal's input: every field fixed-size or length-prefixed, the body
 * (self-delimiting) last, so that no two rows give the same input. */
static void
object_mac(struct vg_hmac *m, const uint8_t *key, const char serial[16],
    const struct vg_seal_row *r)
{
	uint8_t b[8 * 5 + 2];

	vg_hmac_init(m, VG_HASH_SHA256, key, VG_SEAL_KEY_LEN);
	vg_hmac_update(m, OBJECT_DOMAIN, sizeof(OBJECT_DOMAIN));
	vg_hmac_update(m, serial, 16);
	vg_put_be(b, (uint64_t)r->token_id, 8);
	vg_put_be(b + 8, (uint64_t)r->id, 8);
	vg_put_be(b + 16, (uint64_t)r->cls, 8);
	b[24] = r->has_kt ? 1 : 0;
	vg_put_be(b + 25, r->has_kt ? (uint64_t)r->kt : 0, 8);
	b[33] = r->private_obj ? 1 : 0;
	vg_hmac_update(m, b, 34);
	absorb_col(m, r->label_idx, r->label_len, r->label_null);
	absorb_col(m, r->id_idx, r->id_len, r->id_null);
	vg_hmac_update(m, r->body, r->body_len);
}

/* see token/token.h */
void
vg_seal_object(const uint8_t *key, const char serial[16],
    const struct vg_seal_row *r, uint8_t tag[VG_SEAL_TAG_LEN])
{
	struct vg_hmac m;

	object_mac(&m, key, serial, r);
	vg_hmac_final(&m, tag);
}

/* see token/token.h */
int
vg_seal_object_check(const uint8_t *key, const char serial[16],
    const struct vg_seal_row *r, const void *tag, size_t taglen)
{
	struct vg_hmac m;

	if (tag == NULL || taglen != VG_SEAL_TAG_LEN)
		return 0;
	object_mac(&m, key, serial, r);
	return vg_hmac_verify(&m, tag, taglen) == VG_OK;
}

static void
token_mac(const uint8_t *key, const char serial[16], int64_t token_id,
    const uint8_t head[9], uint8_t tag[VG_SEAL_TAG_LEN])
{
	struct vg_hmac m;
	uint8_t id[8];

	vg_put_be(id, (uint64_t)token_id, 8);
	vg_hmac_init(&m, VG_HASH_SHA256, key, VG_SEAL_KEY_LEN);
	vg_hmac_update(&m, TOKEN_DOMAIN, sizeof(TOKEN_DOMAIN));
	vg_hmac_update(&m, serial, 16);
	vg_hmac_update(&m, id, 8);
	vg_hmac_update(&m, head, 9);
	vg_hmac_final(&m, tag);
}

/* see token/token.h */
void
vg_seal_token(const uint8_t *key, const char serial[16], int64_t token_id,
    int64_t mark, uint8_t out[VG_TOKEN_SEAL_LEN])
{
	out[0] = TOKEN_SEAL_VERSION;
	vg_put_be(out + 1, (uint64_t)mark, 8);
	token_mac(key, serial, token_id, out, out + 9);
}

/* see token/token.h */
int
vg_seal_token_check(const uint8_t *key, const char serial[16],
    int64_t token_id, const uint8_t *rec, size_t len, int64_t *mark)
{
	uint8_t tag[VG_SEAL_TAG_LEN];
	uint32_t ok;

	if (rec == NULL || len != VG_TOKEN_SEAL_LEN ||
	    rec[0] != TOKEN_SEAL_VERSION)
		return 0;
	token_mac(key, serial, token_id, rec, tag);
	ok = vg_ct_memeq(tag, rec + 9, VG_SEAL_TAG_LEN);
	vg_wipe(tag, sizeof(tag));
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (!ok)
		return 0;
	*mark = (int64_t)vg_get_be(rec + 1, 8);
	return *mark >= 0;
}

/* see token/token.h */
void
vg_seal_log_refused(int64_t id, const char *why)
{
	VG_LOG(VG_LOG_ERROR, "object %lld: %s (database damaged or tampered "
	    "with); it is not used", (long long)id, why);
}

static const struct vg_body_item *
item_of(const struct vg_body_item *it, size_t n, CK_ATTRIBUTE_TYPE t)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (it[i].type == t)
			return &it[i];
	return NULL;
}

/* A plain CK_ULONG attribute equal to v, or absent when v is
 * unavailable. */
static int
ulong_agrees(const struct vg_body_item *a, int have, CK_ULONG v)
{
	CK_ULONG x;

	if (!have)
		return a == NULL;
	if (a == NULL || a->encrypted || a->len != sizeof(x))
		return 0;
	memcpy(&x, a->value, sizeof(x));
	return x == v;
}

/* A plain attribute equal to a public object's search key column. */
static int
idx_agrees(const struct vg_body_item *a, const uint8_t *col, size_t len,
    int null)
{
	if (a == NULL)
		return null;
	return !null && !a->encrypted && a->len == len &&
	    (len == 0 || memcmp(a->value, col, len) == 0);
}

/*
 * May an unsealed object be used? Pending objects: what the module makes
 * without a login, in full agreement with their columns, so that one
 * cannot be passed off as something a login would have been needed for.
 * Objects of a token from before sealing (legacy): the checks version 1
 * made, on which values must be encrypted (the values themselves must
 * also decrypt: see decode).
 */
int
vg_seal_unsealed_ok(const struct vg_slot *slot, const struct vg_stored *r,
    const struct vg_body_item *it, size_t n, int legacy)
{
	const struct vg_seal_row *w = &r->row;
	const struct vg_body_item *a;
	size_t i;

	if (legacy) {
		for (i = 0; i < n; i++)
			if (!it[i].encrypted && (w->private_obj ||
			    vg_attr_is_secret(w->cls, w->kt, it[i].type)))
				return 0;
		return 1;
	}
	if (w->id <= slot->seal_mark || w->private_obj ||
	    w->cls == CKO_PRIVATE_KEY || w->cls == CKO_SECRET_KEY)
		return 0;
	for (i = 0; i < n; i++)
		if (it[i].encrypted)
			return 0;
	a = item_of(it, n, CKA_PRIVATE);
	if (a != NULL && (a->len != 1 || a->value[0] != CK_FALSE))
		return 0;
	a = item_of(it, n, CKA_TRUSTED);
	if (a != NULL && (a->len != 1 || a->value[0] != CK_FALSE))
		return 0;
	return ulong_agrees(item_of(it, n, CKA_CLASS), 1, w->cls) &&
	    ulong_agrees(item_of(it, n, CKA_KEY_TYPE), w->has_kt, w->kt) &&
	    idx_agrees(item_of(it, n, CKA_LABEL), w->label_idx, w->label_len,
		w->label_null) &&
	    idx_agrees(item_of(it, n, CKA_ID), w->id_idx, w->id_len,
		w->id_null);
}

/* With the seal key: CKR_OK if the row may be used, else
 * CKR_DEVICE_ERROR (logged). Without it: CKR_OK. */
CK_RV
vg_seal_check(const struct vg_slot *slot, const struct vg_stored *r,
    const struct vg_body_item *it, size_t n)
{
	if (slot->seal_key == NULL)
		return CKR_OK;
	if (r->seal != NULL) {
		if (vg_seal_object_check(slot->seal_key, slot->rec.serial,
		    &r->row, r->seal, r->seal_len))
			return CKR_OK;
		vg_seal_log_refused(r->row.id, "the seal does not match");
		return CKR_DEVICE_ERROR;
	}
	if (vg_seal_unsealed_ok(slot, r, it, n, slot->seal_legacy))
		return CKR_OK;
	vg_seal_log_refused(r->row.id, "not sealed");
	return CKR_DEVICE_ERROR;
}
