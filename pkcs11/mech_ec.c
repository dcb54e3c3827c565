/*
 * EC on P-256 [PKCS#11 3.2 §6.3]: ECDSA sign and verify (raw and
 * hash-then-sign), key pair generation, and ECDH key derivation with the
 * null and the ANSI X9.63 SHA KDFs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/* DER of the namedCurve prime256v1, the only curve the token has. */
static const uint8_t p256_params[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
	0x3d, 0x03, 0x01, 0x07 };

struct ec_key {
	int is_private;
	struct vg_p256_priv priv;
	struct vg_p256_pub pub;
};

static void
key_free(void *p)
{
	struct ec_key *k = p;

	if (k == NULL)
		return;
	vg_p256_priv_wipe(&k->priv);
	vg_secmem_free(k, sizeof(*k));
}

static CK_RV
load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *params = vg_object_attr(o, CKA_EC_PARAMS);
	const struct vg_attr *v;
	struct ec_key *k;
	CK_RV rv = CKR_OK;

	if (o->key_type != CKK_EC || params == NULL ||
	    vg_ec_params_check(params->value, params->len) != CKR_OK)
		return CKR_KEY_TYPE_INCONSISTENT;
	k = vg_secmem_alloc(sizeof(*k));
	if (k == NULL)
		return CKR_HOST_MEMORY;
	if (o->cls == CKO_PRIVATE_KEY) {
		v = vg_object_attr(o, CKA_VALUE);
		k->is_private = 1;
		if (v == NULL ||
		    vg_p256_priv_decode(&k->priv, v->value, v->len) != VG_OK)
			rv = CKR_KEY_TYPE_INCONSISTENT;
	} else {
		v = vg_object_attr(o, CKA_EC_POINT);
		if (v == NULL || vg_p256_pub_decode_ec_point(&k->pub, v->value,
		    v->len) != VG_OK)
			rv = CKR_KEY_TYPE_INCONSISTENT;
	}
	if (rv != CKR_OK) {
		key_free(k);
		return rv;
	}
	key->impl = k;
	key->impl_free = key_free;
	key->bits = 256;
	return CKR_OK;
}

static CK_ULONG
out_len(const struct vg_session *s, CK_ULONG inlen)
{
	(void)s;
	(void)inlen;
	return VG_P256_SIG_LEN;
}

/* Signs the hash (CKM_ECDSA: the caller's input is the hash). The nonce
 * is RFC 6979's, hedged with 32 fresh bytes from the DRBG. */
static CK_RV
run(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	const struct ec_key *k = s->op_key->impl;
	uint8_t rnd[32];
	CK_RV rv;

	if (len == 0)
		return CKR_DATA_LEN_RANGE;
	rv = vg_random(rnd, sizeof(rnd));
	if (rv == CKR_OK && vg_p256_ecdsa_sign(out, &k->priv, in, len,
	    VG_HASH_SHA256, rnd) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_wipe(rnd, sizeof(rnd));
	if (rv == CKR_OK)
		*outlen = VG_P256_SIG_LEN;
	return rv;
}

static CK_RV
verify(struct vg_session *s, const uint8_t *in, size_t len,
    const uint8_t *sig, size_t siglen)
{
	const struct ec_key *k = s->op_key->impl;

	if (siglen != VG_P256_SIG_LEN)
		return CKR_SIGNATURE_LEN_RANGE;
	if (len == 0)
		return CKR_DATA_LEN_RANGE;
	return vg_p256_ecdsa_verify(&k->pub, in, len, sig) == VG_OK
	    ? CKR_OK : CKR_SIGNATURE_INVALID;
}

const struct vg_mech_ops vg_ecdsa_ops = {
	.load = load,
	.out_len = out_len,
	.run = run,
	.verify = verify,
};

static CK_RV ec_generate_pair(struct vg_session *s, const CK_MECHANISM *m,
    const CK_ATTRIBUTE *pubt, CK_ULONG npub, const CK_ATTRIBUTE *privt,
    CK_ULONG npriv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv);
static CK_RV ec_derive(struct vg_session *s, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE hbase, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out);

const struct vg_mech_ops vg_ec_keygen_ops = {
	.generate_pair = ec_generate_pair,
};

const struct vg_mech_ops vg_ecdh_ops = {
	.derive = ec_derive,
};

/* ------------------------------------------------------ key generation */

/* Does the public template name P-256? */
static CK_RV
check_params(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	const CK_ATTRIBUTE *a = vg_template_find(t, n, CKA_EC_PARAMS);

	if (a == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	if (a->pValue == NULL)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	return vg_ec_params_check(a->pValue, a->ulValueLen);
}

static CK_RV
ec_generate_pair(struct vg_session *s, const CK_MECHANISM *m,
    const CK_ATTRIBUTE *pubt, CK_ULONG npub, const CK_ATTRIBUTE *privt,
    CK_ULONG npriv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv)
{
	struct vg_object *pub = NULL, *priv = NULL;
	struct vg_p256_priv d;
	struct vg_p256_pub q;
	uint8_t value[VG_P256_SCALAR_LEN], point[VG_P256_EC_POINT_LEN];
	struct vg_rng *rng;
	CK_RV rv;

	if (m->ulParameterLen != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	rv = check_params(pubt, npub);
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PUBLIC_KEY,
		    CKK_EC, m->mechanism, pubt, npub, &pub);
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PRIVATE_KEY,
		    CKK_EC, m->mechanism, privt, npriv, &priv);
	if (rv != CKR_OK)
		goto out;
	/* The thread's DRBG: no lock shared by all threads (see
	 * vg_rng_thread for why it suits key generation). */
	rng = vg_rng_thread();
	if (rng == NULL || vg_p256_keygen_rng(&d, &q, rng) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	if (rv != CKR_OK)
		goto out;
	vg_p256_priv_encode(value, &d);
	vg_p256_pub_encode_ec_point(point, &q);
	/* The private key carries the parameters and, for libp11, which
	 * looks there first, the point. */
	rv = vg_object_set_attr(pub, CKA_EC_POINT, point, sizeof(point));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(priv, CKA_EC_PARAMS, p256_params,
		    sizeof(p256_params));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(priv, CKA_EC_POINT, point,
		    sizeof(point));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(priv, CKA_VALUE, value, sizeof(value));
	if (rv == CKR_OK)
		rv = vg_object_complete(pub);
	if (rv == CKR_OK)
		rv = vg_object_complete(priv);
	if (rv == CKR_OK)
		rv = vg_key_complete_generated(pub, NULL);
	if (rv == CKR_OK)
		rv = vg_key_complete_generated(priv, NULL);
	if (rv == CKR_OK) {
		rv = vg_obj_add_pair(s, pub, priv, hpub, hpriv);
		pub = priv = NULL; /* taken */
	}
out:
	vg_p256_priv_wipe(&d);
	vg_wipe(value, sizeof(value));
	vg_object_free(pub);
	vg_object_free(priv);
	return rv;
}

/* ------------------------------------------------------ derivation */

static int
kdf_hash(CK_EC_KDF_TYPE kdf)
{
	switch (kdf) {
	case CKD_SHA1_KDF:
		return VG_HASH_SHA1;
	case CKD_SHA224_KDF:
		return VG_HASH_SHA224;
	case CKD_SHA256_KDF:
		return VG_HASH_SHA256;
	case CKD_SHA384_KDF:
		return VG_HASH_SHA384;
	case CKD_SHA512_KDF:
		return VG_HASH_SHA512;
	default:
		return -1;
	}
}

/* CKM_ECDH1_DERIVE takes P-256 keys and X25519 keys
 * (pkcs11/mech_eddsa.c). */
static CK_RV
derive_load(const struct vg_object *o, struct vg_key *key)
{
	return o->key_type == CKK_EC_MONTGOMERY ? vg_ecx_key_load(o, key)
						: load(o, key);
}

static CK_RV
ec_derive(struct vg_session *s, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE hbase, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out)
{
	const CK_ECDH1_DERIVE_PARAMS *p = m->pParameter;
	struct vg_object *o = NULL;
	struct vg_key *k = NULL;
	struct vg_p256_pub peer;
	uint8_t z[VG_P256_SHARED_LEN], value[512], u[VG_ECX_LEN];
	CK_KEY_TYPE kt;
	CK_ULONG len;
	int hash, is_p256, is_x25519;
	CK_RV rv;

	if (p == NULL || m->ulParameterLen != sizeof(*p))
		return CKR_MECHANISM_PARAM_INVALID;
	hash = kdf_hash(p->kdf);
	if ((p->kdf != CKD_NULL && hash < 0) ||
	    (p->kdf == CKD_NULL && p->ulSharedDataLen != 0) ||
	    (p->pSharedData == NULL && p->ulSharedDataLen != 0) ||
	    p->pPublicData == NULL)
		return CKR_MECHANISM_PARAM_INVALID;
	/* The peer's point, raw (what pkcs11-tool sends) or DER-wrapped:
	 * a P-256 point, or an X25519 u-coordinate (32 bytes). */
	is_p256 = vg_p256_pub_decode(&peer, p->pPublicData,
	    p->ulPublicDataLen) == VG_OK ||
	    vg_p256_pub_decode_ec_point(&peer, p->pPublicData,
	    p->ulPublicDataLen) == VG_OK;
	is_x25519 = vg_x25519_peer(p->pPublicData, p->ulPublicDataLen, u) ==
	    0;
	if (!is_p256 && !is_x25519)
		return CKR_MECHANISM_PARAM_INVALID;
	rv = vg_key_get(s, hbase, derive_load, &k);
	if (rv != CKR_OK)
		return rv;
	/* X25519 has no cofactor variant: its scalars are multiples of
	 * the cofactor already [RFC 7748 §5]. */
	if (k->cls != CKO_PRIVATE_KEY || (k->type != CKK_EC &&
	    (k->type != CKK_EC_MONTGOMERY ||
	    m->mechanism != CKM_ECDH1_DERIVE)))
		rv = CKR_KEY_TYPE_INCONSISTENT;
	else if (!(k->use & VG_USE_DERIVE))
		rv = CKR_KEY_FUNCTION_NOT_PERMITTED;
	else if (!vg_key_allows(k, m->mechanism))
		rv = CKR_MECHANISM_INVALID;
	else if (k->type == CKK_EC ? !is_p256 : !is_x25519)
		rv = CKR_MECHANISM_PARAM_INVALID;
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_DERIVE, CKO_SECRET_KEY,
		    CK_UNAVAILABLE_INFORMATION, m->mechanism, t, n, &o);
	if (rv != CKR_OK)
		goto out;
	kt = o->key_type;
	len = vg_object_ulong(o, CKA_VALUE_LEN,
	    kt == CKK_AES ? 32 : (p->kdf == CKD_NULL ? sizeof(z) : 32));
	if (len == 0 || len > sizeof(value) ||
	    (p->kdf == CKD_NULL && len > sizeof(z)) ||
	    (kt == CKK_AES && len != 16 && len != 24 && len != 32)) {
		rv = CKR_KEY_SIZE_RANGE;
		goto out;
	}
	if (k->type == CKK_EC_MONTGOMERY)
		rv = vg_x25519_shared(k, u, z);
	else if (vg_p256_ecdh(z, &((const struct ec_key *)k->impl)->priv,
	    &peer) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	if (rv != CKR_OK)
		goto out;
	if (p->kdf == CKD_NULL)
		/* The leftmost bytes of the x-coordinate (of the
		 * u-coordinate for X25519) [PKCS#11 3.2 §6.3.16]. */
		memcpy(value, z, len);
	else
		vg_x963_kdf((enum vg_hash_alg)hash, z, sizeof(z), p->pSharedData,
		    p->ulSharedDataLen, value, len);
	rv = vg_object_set_attr(o, CKA_VALUE, value, len);
	if (rv == CKR_OK && vg_object_attr(o, CKA_VALUE_LEN) == NULL)
		rv = vg_object_set_attr(o, CKA_VALUE_LEN, &len, sizeof(len));
	/* The derived key inherits the base key's sensitivity history. */
	if (rv == CKR_OK)
		rv = vg_object_derived_from(o, k->always_sensitive,
		    k->never_extractable);
	if (rv == CKR_OK)
		rv = vg_object_complete(o);
	if (rv == CKR_OK) {
		rv = vg_obj_add(s, o, out);
		o = NULL; /* taken */
	}
out:
	vg_wipe(z, sizeof(z));
	vg_wipe(value, sizeof(value));
	vg_wipe(u, sizeof(u));
	vg_object_free(o);
	vg_key_release(s, k);
	return rv;
}
