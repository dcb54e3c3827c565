/*
 * Key derivation from secret keys (C_DeriveKey):
 *
 *   CKM_AES_ECB_ENCRYPT_DATA, CKM_AES_CBC_ENCRYPT_DATA
 *       the new key is the first bytes of the AES-ECB (or AES-CBC with the
 *       given IV) encryption of the parameter data under the base AES key
 *       [PKCS#11 3.2 §6.13, key derivation by data encryption]. The data
 *       is a non-empty multiple of 16 bytes; CKA_VALUE_LEN (default: the
 *       data length) may not exceed it. Only the blocks that make the
 *       key are encrypted: the first bytes of ECB and CBC depend on the
 *       first blocks only.
 *   CKM_HKDF_DERIVE, CKM_HKDF_DATA
 *       HKDF [RFC 5869] from a CKK_HKDF or generic secret base key, with
 *       CK_HKDF_PARAMS [PKCS#11 3.2 §6.62]: extract, expand or both, the
 *       PRF hash any digest of the mechanism table, the salt none, bytes
 *       or such a key (which needs CKA_DERIVE too, since the output is
 *       a MAC under it). _DERIVE makes a secret key, _DATA a CKO_DATA
 *       object whose CKA_VALUE is the output (its length from
 *       CKA_VALUE_LEN in the template, which the data object does not
 *       keep).
 *
 * A derived key is never CKA_LOCAL; its CKA_ALWAYS_SENSITIVE and
 * CKA_NEVER_EXTRACTABLE follow the base key [PKCS#11 3.2 §4.14 and each
 * mechanism's rules]. The key type is the template's CKA_KEY_TYPE, a
 * generic secret when it names none.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/* Largest derived secret key (as C_GenerateKey makes them). */
#define KEY_MAX 512

/* ------------------------------------------------------ key loaders */

struct raw_key {
	size_t len;
	uint8_t v[];
};

static void
raw_free(void *p)
{
	struct raw_key *k = p;

	if (k != NULL)
		vg_secmem_free(k, sizeof(*k) + k->len);
}

/* The value of an HKDF or generic secret key (HKDF's input key
 * material or salt). */
static CK_RV
raw_load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	struct raw_key *k;

	if (o->cls != CKO_SECRET_KEY || v == NULL ||
	    (o->key_type != CKK_GENERIC_SECRET && o->key_type != CKK_HKDF))
		return CKR_KEY_TYPE_INCONSISTENT;
	k = vg_secmem_alloc(sizeof(*k) + v->len);
	if (k == NULL)
		return CKR_HOST_MEMORY;
	k->len = v->len;
	memcpy(k->v, v->value, v->len);
	key->impl = k;
	key->impl_free = raw_free;
	key->bits = v->len;
	return CKR_OK;
}

static void
aes_free(void *p)
{
	struct vg_aes_key *k = p;

	if (k != NULL) {
		vg_aes_key_wipe(k);
		vg_secmem_free(k, sizeof(*k));
	}
}

/* An AES key's schedule; key->bits counts bytes, as the table's sizes. */
static CK_RV
aes_load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	struct vg_aes_key *k;

	if (o->cls != CKO_SECRET_KEY || o->key_type != CKK_AES || v == NULL)
		return CKR_KEY_TYPE_INCONSISTENT;
	k = vg_secmem_alloc(sizeof(*k));
	if (k == NULL)
		return CKR_HOST_MEMORY;
	if (vg_aes_init(k, v->value, v->len) != VG_OK) {
		aes_free(k);
		return CKR_KEY_TYPE_INCONSISTENT;
	}
	key->impl = k;
	key->impl_free = aes_free;
	key->bits = v->len;
	return CKR_OK;
}

/* ------------------------------------------------------ common part */

/* The base key h, loaded with loader, when it may derive with mechanism
 * m: CKA_DERIVE (else CKR_KEY_FUNCTION_NOT_PERMITTED) and
 * CKA_ALLOWED_MECHANISMS (else CKR_MECHANISM_INVALID). */
static CK_RV
base_key(struct vg_session *s, CK_OBJECT_HANDLE h, vg_key_loader *loader,
    CK_MECHANISM_TYPE m, struct vg_key **out)
{
	CK_RV rv = vg_key_get(s, h, loader, out);

	if (rv != CKR_OK)
		return rv;
	if (!((*out)->use & VG_USE_DERIVE))
		rv = CKR_KEY_FUNCTION_NOT_PERMITTED;
	else if (!vg_key_allows(*out, m))
		rv = CKR_MECHANISM_INVALID;
	if (rv != CKR_OK) {
		vg_key_put(*out);
		*out = NULL;
	}
	return rv;
}

/* The entry of type a in t, or NULL. */
static const CK_ATTRIBUTE *
tmpl_find(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE a)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if (t[i].type == a)
			return &t[i];
	return NULL;
}

/* The new secret key's object from the template; a generic secret when
 * the template names no key type. */
static CK_RV
new_secret(const CK_MECHANISM *m, const CK_ATTRIBUTE *t, CK_ULONG n,
    struct vg_object **o)
{
	CK_KEY_TYPE hint = tmpl_find(t, n, CKA_KEY_TYPE) != NULL
	    ? CK_UNAVAILABLE_INFORMATION : CKK_GENERIC_SECRET;

	return vg_object_from_template(VG_OBJ_DERIVE, CKO_SECRET_KEY, hint,
	    m->mechanism, t, n, o);
}

/*
 * The length of the new key o: CKA_VALUE_LEN, else dflt (0: none, then
 * CKR_TEMPLATE_INCOMPLETE). A length the key type cannot have (0, over
 * KEY_MAX, AES not 16/24/32): CKR_KEY_SIZE_RANGE; longer than the
 * mechanism can make (most): CKR_TEMPLATE_INCONSISTENT.
 */
static CK_RV
key_len(const struct vg_object *o, CK_ULONG dflt, CK_ULONG most,
    CK_ULONG *len)
{
	*len = vg_object_ulong(o, CKA_VALUE_LEN, dflt);
	if (vg_object_attr(o, CKA_VALUE_LEN) == NULL && dflt == 0)
		return CKR_TEMPLATE_INCOMPLETE;
	if (*len == 0 || *len > KEY_MAX || (o->key_type == CKK_AES &&
	    *len != 16 && *len != 24 && *len != 32))
		return CKR_KEY_SIZE_RANGE;
	if (*len > most)
		return CKR_TEMPLATE_INCONSISTENT;
	return CKR_OK;
}

/* Gives the new key o its value and history and adds it; takes o. */
static CK_RV
add_secret(struct vg_session *s, struct vg_object *o,
    const struct vg_key *base, const uint8_t *value, CK_ULONG len,
    CK_OBJECT_HANDLE *out)
{
	CK_RV rv = vg_object_set_attr(o, CKA_VALUE, value, len);

	if (rv == CKR_OK && vg_object_attr(o, CKA_VALUE_LEN) == NULL)
		rv = vg_object_set_attr(o, CKA_VALUE_LEN, &len, sizeof(len));
	if (rv == CKR_OK)
		rv = vg_object_derived_from(o, base->always_sensitive,
		    base->never_extractable);
	if (rv == CKR_OK)
		rv = vg_object_complete(o);
	if (rv == CKR_OK)
		return vg_obj_add(s, o, out);
	vg_object_free(o);
	return rv;
}

/* ------------------------------------------- AES-ECB/CBC encrypt data */

static CK_RV
aes_data_derive(struct vg_session *s, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE hbase, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out)
{
	const uint8_t *iv = NULL, *data;
	struct vg_object *o = NULL;
	struct vg_key *k = NULL;
	uint8_t value[KEY_MAX + VG_AES_BLOCK];
	CK_ULONG datalen, len = 0;
	size_t nb;
	enum vg_err e;
	CK_RV rv;

	if (m->mechanism == CKM_AES_CBC_ENCRYPT_DATA) {
		const CK_AES_CBC_ENCRYPT_DATA_PARAMS *p = m->pParameter;

		if (p == NULL || m->ulParameterLen != sizeof(*p))
			return CKR_MECHANISM_PARAM_INVALID;
		iv = p->iv;
		data = p->pData;
		datalen = p->length;
	} else {
		const CK_KEY_DERIVATION_STRING_DATA *p = m->pParameter;

		if (p == NULL || m->ulParameterLen != sizeof(*p))
			return CKR_MECHANISM_PARAM_INVALID;
		data = p->pData;
		datalen = p->ulLen;
	}
	if (data == NULL || datalen == 0 || datalen % VG_AES_BLOCK != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	rv = base_key(s, hbase, aes_load, m->mechanism, &k);
	if (rv == CKR_OK)
		rv = new_secret(m, t, n, &o);
	if (rv == CKR_OK)
		rv = key_len(o, datalen, datalen, &len);
	if (rv != CKR_OK)
		goto out;
	/* only the blocks that hold the key's bytes */
	nb = ((size_t)len + VG_AES_BLOCK - 1) / VG_AES_BLOCK * VG_AES_BLOCK;
	if (iv != NULL)
		e = vg_aes_cbc_encrypt(k->impl, iv, data, nb, value);
	else
		e = vg_aes_ecb_encrypt(k->impl, data, nb, value);
	if (e != VG_OK) {
		rv = CKR_FUNCTION_FAILED;
		goto out;
	}
	rv = add_secret(s, o, k, value, len, out);
	o = NULL; /* taken */
out:
	vg_wipe(value, sizeof(value));
	vg_object_free(o);
	vg_key_put(k);
	return rv;
}

const struct vg_mech_ops vg_aes_derive_ops = {
	.derive = aes_data_derive,
};

/* ------------------------------------------------------------- HKDF */

/* The checked parameters of an HKDF derivation. */
struct hkdf_req {
	enum vg_hash_alg alg;
	int extract, expand;
	const uint8_t *salt;    /* bytes, or the salt key's value */
	size_t saltlen;
	const uint8_t *info;
	size_t infolen;
	struct vg_key *salt_key; /* a reference held for salt */
};

/* The hash of prfHashMechanism: any digest of the mechanism table. */
static int
prf_hash(CK_MECHANISM_TYPE prf)
{
	const struct vg_mech *row = vg_mech_find(prf);

	if (row == NULL || !(row->flags & CKF_DIGEST) || row->hash < 0)
		return -1;
	return row->hash;
}

/*
 * Checks CK_HKDF_PARAMS into r: CKR_MECHANISM_PARAM_INVALID for a short
 * or NULL parameter, neither extract nor expand, a boolean not
 * CK_TRUE/CK_FALSE, an unknown hash, a salt type not exactly one of
 * the three, a salt of bytes with no bytes, a NULL pointer with a length,
 * or a salt key that is not an HKDF or generic secret key the session
 * sees and that may derive. The salt is read only for extract, the info only for
 * expand. Release r->salt_key with vg_key_put.
 */
static CK_RV
hkdf_params(struct vg_session *s, const CK_MECHANISM *m,
    struct hkdf_req *r)
{
	const CK_HKDF_PARAMS *p = m->pParameter;
	int h;

	memset(r, 0, sizeof(*r));
	if (p == NULL || m->ulParameterLen != sizeof(*p) ||
	    p->bExtract > CK_TRUE || p->bExpand > CK_TRUE ||
	    (!p->bExtract && !p->bExpand) ||
	    (h = prf_hash(p->prfHashMechanism)) < 0)
		return CKR_MECHANISM_PARAM_INVALID;
	r->alg = (enum vg_hash_alg)h;
	r->extract = p->bExtract == CK_TRUE;
	r->expand = p->bExpand == CK_TRUE;
	if (r->expand) {
		if (p->pInfo == NULL && p->ulInfoLen != 0)
			return CKR_MECHANISM_PARAM_INVALID;
		r->info = p->pInfo;
		r->infolen = p->ulInfoLen;
	}
	if (!r->extract)
		return CKR_OK;
	switch (p->ulSaltType) {
	case CKF_HKDF_SALT_NULL:
		return CKR_OK;
	case CKF_HKDF_SALT_DATA:
		if (p->pSalt == NULL || p->ulSaltLen == 0)
			return CKR_MECHANISM_PARAM_INVALID;
		r->salt = p->pSalt;
		r->saltlen = p->ulSaltLen;
		return CKR_OK;
	case CKF_HKDF_SALT_KEY:
		if (base_key(s, p->hSaltKey, raw_load, m->mechanism,
		    &r->salt_key) != CKR_OK)
			return CKR_MECHANISM_PARAM_INVALID;
		r->salt = ((const struct raw_key *)r->salt_key->impl)->v;
		r->saltlen = ((const struct raw_key *)r->salt_key->impl)->len;
		return CKR_OK;
	default:
		return CKR_MECHANISM_PARAM_INVALID;
	}
}

/* Runs HKDF for r on the input key ikm into out (outlen bytes, at most
 * 255 hash lengths; exactly one when only extracting). */
static CK_RV
hkdf_run(const struct hkdf_req *r, const struct raw_key *ikm, uint8_t *out,
    size_t outlen)
{
	uint8_t prk[VG_HASH_MAX_LEN];
	enum vg_err e = VG_OK;

	if (r->extract && r->expand)
		e = vg_hkdf(r->alg, r->salt, r->saltlen, ikm->v, ikm->len,
		    r->info, r->infolen, out, outlen);
	else if (r->extract) {
		vg_hkdf_extract(r->alg, r->salt, r->saltlen, ikm->v, ikm->len,
		    prk);
		memcpy(out, prk, outlen);
	} else
		e = vg_hkdf_expand(r->alg, ikm->v, ikm->len, r->info,
		    r->infolen, out, outlen);
	vg_wipe(prk, sizeof(prk));
	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}

/*
 * The output length of r: extract only gives one hash length (a
 * CKA_VALUE_LEN that differs: CKR_TEMPLATE_INCONSISTENT); expand takes
 * the template's length, at most 255 hash lengths
 * (CKR_TEMPLATE_INCONSISTENT). An expand-only PRK shorter than the hash
 * [RFC 5869 §2.3]: CKR_KEY_SIZE_RANGE.
 */
static CK_RV
hkdf_len_ok(const struct hkdf_req *r, const struct raw_key *ikm,
    CK_ULONG len)
{
	size_t hl = vg_hash_len(r->alg);

	if (!r->extract && ikm->len < hl)
		return CKR_KEY_SIZE_RANGE;
	if ((!r->expand && len != hl) || len > 255 * hl)
		return CKR_TEMPLATE_INCONSISTENT;
	return CKR_OK;
}

/* CKM_HKDF_DATA: a data object holding len bytes of output, made from
 * the caller's template without CKA_VALUE_LEN. */
static CK_RV
hkdf_data(struct vg_session *s, const struct hkdf_req *r,
    const struct raw_key *ikm, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out)
{
	const CK_ATTRIBUTE *vl = tmpl_find(t, n, CKA_VALUE_LEN);
	CK_ATTRIBUTE *dt = NULL;
	struct vg_object *o = NULL;
	uint8_t *value = NULL;
	CK_ULONG len, i, dn = 0;
	CK_RV rv;

	if (vl == NULL && r->expand)
		return CKR_TEMPLATE_INCOMPLETE;
	if (vl != NULL && (vl->pValue == NULL ||
	    vl->ulValueLen != sizeof(CK_ULONG)))
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (tmpl_find(t, n, CKA_VALUE) != NULL)
		return CKR_ATTRIBUTE_READ_ONLY;
	len = vg_hash_len(r->alg);
	if (vl != NULL) /* the caller's buffer may not be aligned */
		memcpy(&len, vl->pValue, sizeof(len));
	if (len == 0)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	rv = hkdf_len_ok(r, ikm, len);
	if (rv != CKR_OK)
		return rv;
	value = malloc(len);
	dt = calloc(n + 1, sizeof(*dt));
	if (value == NULL || dt == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (t[i].type != CKA_VALUE_LEN)
			dt[dn++] = t[i];
	dt[dn].type = CKA_VALUE;
	dt[dn].pValue = value;
	dt[dn++].ulValueLen = len;
	rv = hkdf_run(r, ikm, value, len);
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_CREATE, CKO_DATA,
		    CK_UNAVAILABLE_INFORMATION, CKM_HKDF_DATA, dt, dn, &o);
	if (rv == CKR_OK) {
		rv = vg_obj_add(s, o, out);
		o = NULL; /* taken */
	}
out:
	if (value != NULL) {
		vg_wipe(value, len);
		free(value);
	}
	free(dt);
	vg_object_free(o);
	return rv;
}

static CK_RV
hkdf_derive(struct vg_session *s, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE hbase, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out)
{
	struct vg_object *o = NULL;
	struct vg_key *k = NULL;
	struct hkdf_req r;
	uint8_t value[KEY_MAX];
	CK_ULONG len = 0;
	CK_RV rv;

	rv = hkdf_params(s, m, &r);
	if (rv == CKR_OK)
		rv = base_key(s, hbase, raw_load, m->mechanism, &k);
	if (rv != CKR_OK)
		goto out;
	if (m->mechanism == CKM_HKDF_DATA) {
		rv = hkdf_data(s, &r, k->impl, t, n, out);
		goto out;
	}
	rv = new_secret(m, t, n, &o);
	if (rv == CKR_OK)
		rv = key_len(o, r.expand ? 0 : vg_hash_len(r.alg), KEY_MAX,
		    &len);
	if (rv == CKR_OK)
		rv = hkdf_len_ok(&r, k->impl, len);
	if (rv == CKR_OK)
		rv = hkdf_run(&r, k->impl, value, len);
	if (rv == CKR_OK) {
		rv = add_secret(s, o, k, value, len, out);
		o = NULL; /* taken */
	}
out:
	vg_wipe(value, sizeof(value));
	vg_object_free(o);
	vg_key_put(r.salt_key);
	vg_key_put(k);
	return rv;
}

const struct vg_mech_ops vg_hkdf_ops = {
	.derive = hkdf_derive,
};
