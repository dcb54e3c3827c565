/*
 * Private keys as PKCS #8 PrivateKeyInfo [PKCS#11 3.2 §6.7], the form in
 * which C_WrapKey wraps them and C_UnwrapKey takes them back:
 *
 *   RSA     rsaEncryption, NULL parameters; RSAPrivateKey with every CRT
 *           part [RFC 8017 A.1.2]
 *   EC      id-ecPublicKey, the namedCurve prime256v1; ECPrivateKey
 *           [RFC 5915 §3] without parameters (they are in the algorithm
 *           identifier, §6.7 says) and with the public point
 *   ML-DSA  id-ml-dsa-44/65/87, no parameters; ML-DSA-PrivateKey
 *           [RFC 9881 §6]: the seed when the key has one, else the
 *           expanded key
 *   ML-KEM  id-alg-ml-kem-512/768/1024, no parameters; ML-KEM-PrivateKey
 *           [draft-ietf-lamps-kyber-certificates §6], the same CHOICE
 *           of seed [0] (d || z, 64 bytes), expandedKey (dk) or both:
 *           the seed when the key has one, else dk
 *
 * Unwrapping takes any of these the other way, with an ECPrivateKey that
 * carries its curve or leaves it to the algorithm identifier, its public
 * point or none (then [d]G), and any arm of the ML-DSA and ML-KEM
 * CHOICEs (vg_key_check then sees that a seed gives the dk beside it and
 * that a dk passes the FIPS 203 hash check).
 */
#include "config.h"

#include <string.h>

#include "token/object.h"
#include "token/token.h"

/* DER of the namedCurve prime256v1, the token's one curve. */
static const uint8_t p256_params[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
	0x3d, 0x03, 0x01, 0x07 };
/* NULL, the parameters of rsaEncryption [RFC 8017 A.1]. */
static const uint8_t null_params[] = { 0x05, 0x00 };

/* The lattice keys, whose private key is a CHOICE of seed, expanded key
 * or both (vg_der_parse_mldsa_private reads either): OID, key type,
 * CKA_PARAMETER_SET and the two lengths [FIPS 204 Table 2, FIPS 203
 * Table 3], per parameter set. */
static const struct lattice_set {
	const struct vg_der *oid;
	CK_KEY_TYPE kt;
	CK_ULONG ckp;
	size_t seed_len, sk_len;
} lattice_sets[] = {
	{ &vg_oid_ml_dsa_44, CKK_ML_DSA, CKP_ML_DSA_44, VG_MLDSA_SEED_LEN,
	    2560 },
	{ &vg_oid_ml_dsa_65, CKK_ML_DSA, CKP_ML_DSA_65, VG_MLDSA_SEED_LEN,
	    4032 },
	{ &vg_oid_ml_dsa_87, CKK_ML_DSA, CKP_ML_DSA_87, VG_MLDSA_SEED_LEN,
	    4896 },
	{ &vg_oid_ml_kem_512, CKK_ML_KEM, CKP_ML_KEM_512, VG_MLKEM_SEED_LEN,
	    1632 },
	{ &vg_oid_ml_kem_768, CKK_ML_KEM, CKP_ML_KEM_768, VG_MLKEM_SEED_LEN,
	    2400 },
	{ &vg_oid_ml_kem_1024, CKK_ML_KEM, CKP_ML_KEM_1024,
	    VG_MLKEM_SEED_LEN, 3168 },
};
#define NSETS (sizeof(lattice_sets) / sizeof(lattice_sets[0]))

static struct vg_der
view(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	return a != NULL ? vg_der_make(a->value, a->len) : vg_der_make(NULL, 0);
}

/* The structure a builder writes, in secure memory: *out, *len. The
 * builder is called twice, for the size and for the bytes. */
typedef enum vg_err der_builder(uint8_t *out, size_t *len, const void *arg);

static CK_RV
build(der_builder *fn, const void *arg, uint8_t **out, size_t *len)
{
	CK_RV rv = CKR_OK;

	*out = NULL;
	*len = 0;
	if (fn(NULL, len, arg) != VG_OK) {
		rv = CKR_KEY_NOT_WRAPPABLE;
		goto out;
	}
	*out = vg_secmem_alloc(*len);
	if (*out == NULL)
		rv = CKR_HOST_MEMORY;
	else if (fn(*out, len, arg) != VG_OK)
		rv = CKR_GENERAL_ERROR;
out:
	if (rv != CKR_OK && *out != NULL) {
		vg_secmem_free(*out, *len);
		*out = NULL;
	}
	return rv;
}

static enum vg_err
build_rsa(uint8_t *out, size_t *len, const void *arg)
{
	return vg_der_build_rsa_private(out, len, arg);
}

static enum vg_err
build_ec(uint8_t *out, size_t *len, const void *arg)
{
	return vg_der_build_ec_private(out, len, arg);
}

static enum vg_err
build_lattice(uint8_t *out, size_t *len, const void *arg)
{
	return vg_der_build_mldsa_private(out, len, arg);
}

/* PrivateKeyInfo around a private key structure. */
struct p8_args {
	const struct vg_der_algid *alg;
	const uint8_t *key;
	size_t keylen;
};

static enum vg_err
build_p8(uint8_t *out, size_t *len, const void *arg)
{
	const struct p8_args *a = arg;

	return vg_der_build_pkcs8(out, len, a->alg, a->key, a->keylen);
}

/* RSAPrivateKey: the object's parts, or the CRT parts recovered from
 * n, e and d. A key without e or d cannot be written. */
static CK_RV
rsa_key(const struct vg_object *o, struct vg_der_algid *alg, uint8_t **key,
    size_t *keylen)
{
	struct vg_rsa_key_bytes *rec = vg_secmem_alloc(sizeof(*rec));
	struct vg_der_rsa_priv in;
	CK_RV rv = CKR_HOST_MEMORY;

	if (rec != NULL)
		rv = vg_rsa_priv_parts(o, &in, rec);
	if (rv == CKR_KEY_TYPE_INCONSISTENT || rv == CKR_TEMPLATE_INCONSISTENT)
		rv = CKR_KEY_NOT_WRAPPABLE;
	if (rv == CKR_OK)
		rv = build(build_rsa, &in, key, keylen);
	alg->oid = vg_oid_rsa_encryption;
	alg->params = vg_der_make(null_params, sizeof(null_params));
	vg_secmem_free(rec, sizeof(*rec));
	return rv;
}

/* ECPrivateKey: the scalar as 32 bytes, the point the object carries or
 * [d]G. */
static CK_RV
ec_key(const struct vg_object *o, struct vg_der_algid *alg, uint8_t **key,
    size_t *keylen)
{
	struct vg_der v = view(o, CKA_VALUE), params = view(o, CKA_EC_PARAMS),
	    pt = view(o, CKA_EC_POINT);
	struct vg_der_ec_priv ec;
	struct vg_p256_priv k;
	struct vg_p256_pub pub;
	uint8_t d[VG_P256_SCALAR_LEN], point[VG_P256_POINT_LEN];
	CK_RV rv = CKR_OK;

	memset(&k, 0, sizeof(k));
	if (vg_ec_params_check(params.p, params.len) != CKR_OK ||
	    vg_p256_priv_decode(&k, v.p, v.len) != VG_OK)
		rv = CKR_KEY_NOT_WRAPPABLE;
	else if (pt.len != 0 ? vg_p256_pub_decode_ec_point(&pub, pt.p,
	    pt.len) != VG_OK : vg_p256_pub_from_priv(&pub, &k) != VG_OK)
		rv = CKR_KEY_NOT_WRAPPABLE;
	if (rv == CKR_OK) {
		vg_p256_priv_encode(d, &k);
		vg_p256_pub_encode(point, &pub);
		ec.priv = vg_der_make(d, sizeof(d));
		ec.params = vg_der_make(NULL, 0);
		ec.pub = vg_der_make(point, sizeof(point));
		rv = build(build_ec, &ec, key, keylen);
	}
	alg->oid = vg_oid_ec_public_key;
	alg->params = vg_der_make(p256_params, sizeof(p256_params));
	vg_p256_priv_wipe(&k);
	vg_wipe(d, sizeof(d));
	return rv;
}

/* ML-DSA- or ML-KEM-PrivateKey: the seed when the key has one (the
 * expanded key follows from it [FIPS 204 Alg. 6, FIPS 203 Alg. 16]),
 * else the expanded key. */
static CK_RV
lattice_key(const struct vg_object *o, struct vg_der_algid *alg,
    uint8_t **key, size_t *keylen)
{
	CK_ULONG ckp = vg_object_ulong(o, CKA_PARAMETER_SET, 0);
	struct vg_der_mldsa_priv ml;
	size_t i;
	CK_RV rv = CKR_KEY_NOT_WRAPPABLE;

	ml.seed = view(o, CKA_SEED);
	ml.sk = ml.seed.len != 0 ? vg_der_make(NULL, 0) : view(o, CKA_VALUE);
	for (i = 0; i < NSETS; i++)
		if (lattice_sets[i].kt == o->key_type &&
		    lattice_sets[i].ckp == ckp)
			break;
	if (i < NSETS && (ml.seed.len == lattice_sets[i].seed_len ||
	    (ml.seed.len == 0 && ml.sk.len == lattice_sets[i].sk_len))) {
		alg->oid = *lattice_sets[i].oid;
		rv = build(build_lattice, &ml, key, keylen);
	}
	alg->params = vg_der_make(NULL, 0);
	return rv;
}

/* see token/token.h */
CK_RV
vg_key_to_pkcs8(const struct vg_object *o, uint8_t **der, size_t *len)
{
	struct vg_der_algid alg;
	struct p8_args a;
	uint8_t *key = NULL;
	size_t keylen = 0;
	CK_RV rv;

	*der = NULL;
	*len = 0;
	memset(&alg, 0, sizeof(alg));
	if (o->cls != CKO_PRIVATE_KEY)
		rv = CKR_KEY_NOT_WRAPPABLE;
	else if (o->key_type == CKK_RSA)
		rv = rsa_key(o, &alg, &key, &keylen);
	else if (o->key_type == CKK_EC)
		rv = ec_key(o, &alg, &key, &keylen);
	else if (o->key_type == CKK_ML_DSA || o->key_type == CKK_ML_KEM)
		rv = lattice_key(o, &alg, &key, &keylen);
	else if (vg_ecx_is(o->key_type))
		rv = vg_ecx_to_pkcs8(o, &alg, &key, &keylen);
	else
		rv = CKR_KEY_NOT_WRAPPABLE;
	if (rv == CKR_OK) {
		a.alg = &alg;
		a.key = key;
		a.keylen = keylen;
		rv = build(build_p8, &a, der, len);
	}
	if (key != NULL)
		vg_secmem_free(key, keylen);
	return rv;
}

/* ------------------------------------------------------------ unwrap */

/* Sets attribute t of o to the bytes of d. */
static CK_RV
set_der(struct vg_object *o, CK_ATTRIBUTE_TYPE t, const struct vg_der *d)
{
	return vg_object_set_attr(o, t, d->p, d->len);
}

static CK_RV
rsa_from(struct vg_object *o, const struct vg_der_pkcs8 *p8)
{
	static const CK_ATTRIBUTE_TYPE types[] = { CKA_MODULUS,
		CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT, CKA_PRIME_1,
		CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	struct vg_der_rsa_priv k;
	const struct vg_der *parts[8];
	size_t i;
	CK_RV rv = CKR_OK;

	/* NULL parameters, or none (some encoders leave them out) */
	if ((p8->alg.params.len != 0 &&
	    (p8->alg.params.len != sizeof(null_params) ||
	    memcmp(p8->alg.params.p, null_params, sizeof(null_params)) != 0)) ||
	    vg_der_parse_rsa_private(p8->key.p, p8->key.len, &k) != VG_OK)
		return CKR_WRAPPED_KEY_INVALID;
	parts[0] = &k.n;
	parts[1] = &k.e;
	parts[2] = &k.d;
	parts[3] = &k.p;
	parts[4] = &k.q;
	parts[5] = &k.dp;
	parts[6] = &k.dq;
	parts[7] = &k.qinv;
	for (i = 0; i < 8 && rv == CKR_OK; i++)
		rv = set_der(o, types[i], parts[i]);
	return rv;
}

static CK_RV
ec_from(struct vg_object *o, const struct vg_der_pkcs8 *p8)
{
	struct vg_der_ec_priv k;
	const struct vg_der *params, *pt;
	enum vg_der_curve curve;
	struct vg_p256_priv d;
	struct vg_p256_pub pub;
	uint8_t scalar[VG_P256_SCALAR_LEN], point[VG_P256_EC_POINT_LEN];
	enum vg_err e;
	CK_RV rv = CKR_OK;

	memset(&d, 0, sizeof(d));
	if (vg_der_parse_ec_private(p8->key.p, p8->key.len, &k) != VG_OK) {
		rv = CKR_WRAPPED_KEY_INVALID;
		goto out;
	}
	/* The curve in the algorithm identifier [§6.7]; an ECPrivateKey
	 * may name it too [RFC 5915 §3], and then the same one. */
	params = p8->alg.params.len != 0 ? &p8->alg.params : &k.params;
	if (params->len == 0 || (k.params.len != 0 &&
	    (k.params.len != params->len ||
	    memcmp(k.params.p, params->p, params->len) != 0))) {
		rv = CKR_WRAPPED_KEY_INVALID;
		goto out;
	}
	e = vg_der_parse_ec_params(params->p, params->len, &curve, NULL);
	if (e == VG_ERR_ARG || (e == VG_OK && curve != VG_DER_CURVE_P256))
		rv = CKR_CURVE_NOT_SUPPORTED;
	else if (e != VG_OK)
		rv = CKR_WRAPPED_KEY_INVALID;
	if (rv != CKR_OK)
		goto out;
	/* The scalar as the token keeps it, 32 bytes; the point beside it,
	 * from the ECPrivateKey or the OneAsymmetricKey [RFC 5958 §2], else
	 * [d]G. vg_key_check sees that a given point is d's. */
	pt = k.pub.len != 0 ? &k.pub : &p8->pub;
	if (vg_p256_priv_decode(&d, k.priv.p, k.priv.len) != VG_OK ||
	    (pt->len != 0 ? vg_p256_pub_decode(&pub, pt->p, pt->len)
			  : vg_p256_pub_from_priv(&pub, &d)) != VG_OK) {
		rv = CKR_WRAPPED_KEY_INVALID;
		goto out;
	}
	vg_p256_priv_encode(scalar, &d);
	vg_p256_pub_encode_ec_point(point, &pub);
	rv = vg_object_set_attr(o, CKA_EC_PARAMS, p256_params,
	    sizeof(p256_params));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_VALUE, scalar, sizeof(scalar));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_EC_POINT, point, sizeof(point));
out:
	vg_p256_priv_wipe(&d);
	vg_wipe(scalar, sizeof(scalar));
	return rv;
}

static CK_RV
lattice_from(struct vg_object *o, const struct vg_der_pkcs8 *p8,
    const struct lattice_set *set)
{
	struct vg_der_mldsa_priv k;
	CK_ULONG ckp = set->ckp;
	CK_RV rv;

	/* The parameters are absent [RFC 9881 §2; the ML-KEM draft §3]. */
	if (p8->alg.params.len != 0 ||
	    vg_der_parse_mldsa_private(p8->key.p, p8->key.len, &k) != VG_OK ||
	    (k.seed.len != 0 && k.seed.len != set->seed_len) ||
	    (k.sk.len != 0 && k.sk.len != set->sk_len) ||
	    (k.seed.len == 0 && k.sk.len == 0))
		return CKR_WRAPPED_KEY_INVALID;
	rv = vg_object_set_attr(o, CKA_PARAMETER_SET, &ckp, sizeof(ckp));
	if (rv == CKR_OK && k.seed.len != 0)
		rv = set_der(o, CKA_SEED, &k.seed);
	if (rv == CKR_OK && k.sk.len != 0)
		rv = set_der(o, CKA_VALUE, &k.sk);
	return rv;
}

/* see token/token.h */
CK_RV
vg_key_from_pkcs8(struct vg_object *o, const uint8_t *der, size_t len)
{
	struct vg_der_pkcs8 p8;
	size_t i;
	CK_RV rv;

	if (vg_der_parse_pkcs8(der, len, &p8) != VG_OK) {
		rv = CKR_WRAPPED_KEY_INVALID;
		goto out;
	}
	/* "its type does not match the key type specified in the template
	 * for the new key" [§6.7]: the template is at odds with the key. */
	for (i = 0; i < NSETS; i++)
		if (vg_der_oid_equal(&p8.alg.oid, lattice_sets[i].oid))
			break;
	if (o->key_type == CKK_RSA &&
	    vg_der_oid_equal(&p8.alg.oid, &vg_oid_rsa_encryption))
		rv = rsa_from(o, &p8);
	else if (o->key_type == CKK_EC &&
	    vg_der_oid_equal(&p8.alg.oid, &vg_oid_ec_public_key))
		rv = ec_from(o, &p8);
	else if (i < NSETS && o->key_type == lattice_sets[i].kt)
		rv = lattice_from(o, &p8, &lattice_sets[i]);
	else if (vg_ecx_is(o->key_type))
		rv = vg_ecx_from_pkcs8(o, &p8);
	else
		rv = CKR_TEMPLATE_INCONSISTENT;
out:
	return rv;
}
