/*
 * Key material checks for objects made from caller templates
 * (C_CreateObject): what the attribute rules cannot see, because it
 * depends on the values: EC parameters name P-256, points are on the
 * curve, scalars in range and matching their point; RSA CRT parts come
 * together and agree with n, e and d (or are recovered from n, e and d
 * when absent); ML-DSA and ML-KEM keys have their set's sizes,
 * decode (ML-KEM: the checks of FIPS 203 §7.2, §7.3), and match their
 * seed. And CKA_PUBLIC_KEY_INFO, computed from
 * the key or checked against it, at creation and when C_SetAttributeValue
 * or C_CopyObject give a private key a new one.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/mlkem.h"
#include "token/object.h"
#include "token/token.h"

/* Longest CKA_VALUE of an EC private key: 32 bytes of scalar after as
 * many zero bytes as make 64 (no encoder needs more). */
#define VG_EC_VALUE_MAX 64

static size_t
attr_len(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	return a != NULL ? a->len : 0;
}

/* see token/token.h */
CK_RV
vg_ec_params_check(const void *p, size_t len)
{
	enum vg_der_curve curve;
	enum vg_err e;

	e = vg_der_parse_p11_ec_params(p, len, &curve);
	if (e == VG_ERR_ARG || (e == VG_OK && curve != VG_DER_CURVE_P256))
		return CKR_CURVE_NOT_SUPPORTED;
	return e == VG_OK ? CKR_OK : CKR_ATTRIBUTE_VALUE_INVALID;
}

/* CKA_EC_PARAMS must name P-256, the only curve the token has. */
static CK_RV
check_ec_params(const struct vg_object *o)
{
	const struct vg_attr *a = vg_object_attr(o, CKA_EC_PARAMS);

	if (a == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	return vg_ec_params_check(a->value, a->len);
}

/* CKA_EC_POINT: a DER OCTET STRING holding an uncompressed P-256 point
 * [PKCS#11 3.2 §6.3.3]. */
static CK_RV
check_ec_point(const struct vg_object *o)
{
	const struct vg_attr *a = vg_object_attr(o, CKA_EC_POINT);
	struct vg_der cur, str;

	if (a == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	cur.p = a->value;
	cur.len = a->len;
	if (vg_der_get_octet_string(&cur, &str) != VG_OK ||
	    !vg_der_at_end(&cur) || str.len != 65 || str.p[0] != 0x04)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	/* On the curve, coordinates below p. */
	{
		struct vg_p256_pub pub;

		if (vg_p256_pub_decode(&pub, str.p, str.len) != VG_OK)
			return CKR_ATTRIBUTE_VALUE_INVALID;
	}
	return CKR_OK;
}

/* The scalar is in [1, n-1] and, with a point beside it, matches it. */
static CK_RV
check_ec_pair(const struct vg_object *o)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *pt = vg_object_attr(o, CKA_EC_POINT);
	struct vg_p256_priv k;
	struct vg_p256_pub pub;
	CK_RV rv = CKR_OK;

	if (vg_p256_priv_decode(&k, v->value, v->len) != VG_OK)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (pt != NULL && (vg_p256_pub_decode_ec_point(&pub, pt->value,
	    pt->len) != VG_OK || vg_p256_check_pair(&k, &pub) != VG_OK))
		rv = CKR_TEMPLATE_INCONSISTENT;
	vg_p256_priv_wipe(&k);
	return rv;
}

static CK_RV
check_ec(const struct vg_object *o)
{
	CK_RV rv = check_ec_params(o);
	size_t len;

	if (rv != CKR_OK || o->cls == CKO_PUBLIC_KEY)
		return rv == CKR_OK ? check_ec_point(o) : rv;
	/* d as an unsigned big integer: zero bytes in front are allowed
	 * (a DER-minded encoder writes one before a set top bit), the value
	 * itself must fit the 32 bytes of a P-256 scalar (check_ec_pair) */
	len = attr_len(o, CKA_VALUE);
	if (len == 0 || len > VG_EC_VALUE_MAX)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	/* libp11 reads CKA_EC_POINT from the private key when present. */
	if (vg_object_attr(o, CKA_EC_POINT) != NULL) {
		rv = check_ec_point(o);
		if (rv != CKR_OK)
			return rv;
	}
	return check_ec_pair(o);
}

static struct vg_der
view(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	const struct vg_attr *a = vg_object_attr(o, t);
	struct vg_der d = { NULL, 0 };

	if (a != NULL) {
		d.p = a->value;
		d.len = a->len;
	}
	return d;
}

/* see token/token.h */
CK_RV
vg_rsa_priv_parts(const struct vg_object *o, struct vg_der_rsa_priv *in,
    struct vg_rsa_key_bytes *rec)
{
	in->n = view(o, CKA_MODULUS);
	in->e = view(o, CKA_PUBLIC_EXPONENT);
	in->d = view(o, CKA_PRIVATE_EXPONENT);
	in->p = view(o, CKA_PRIME_1);
	in->q = view(o, CKA_PRIME_2);
	in->dp = view(o, CKA_EXPONENT_1);
	in->dq = view(o, CKA_EXPONENT_2);
	in->qinv = view(o, CKA_COEFFICIENT);
	if (in->p.len != 0)
		return CKR_OK;
	/* (n, e, d) only: the CRT parts are recovered, not stored. */
	if (in->e.len == 0 || in->d.len == 0)
		return CKR_KEY_TYPE_INCONSISTENT;
	if (vg_rsa_recover_crt(rec, &in->n, &in->e, &in->d) != VG_OK)
		return CKR_TEMPLATE_INCONSISTENT;
	vg_rsa_key_bytes_view(rec, in);
	return CKR_OK;
}

/* n = pq and the exponents agree (the CRT parts recovered when only n,
 * e and d are given): what loading the key checks. */
static CK_RV
check_rsa_parts(const struct vg_object *o)
{
	struct vg_der_rsa_priv in;
	struct vg_rsa_key_bytes *rec;
	struct vg_rsa_key *k;
	struct vg_rng rng;
	CK_RV rv;

	k = vg_secmem_alloc(sizeof(*k));
	rec = vg_secmem_alloc(sizeof(*rec));
	if (k == NULL || rec == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = vg_rsa_priv_parts(o, &in, rec);
	if (rv != CKR_OK)
		goto out;
	if (vg_rng_init(&rng) != VG_OK) {
		rv = CKR_FUNCTION_FAILED;
		goto out;
	}
	if (vg_rsa_key_load(k, &in, NULL, 0, &rng) != VG_OK)
		rv = CKR_TEMPLATE_INCONSISTENT;
	vg_rng_wipe(&rng);
	vg_rsa_key_wipe(k);
out:
	vg_secmem_free(k, sizeof(*k));
	vg_secmem_free(rec, sizeof(*rec));
	return rv;
}

/* The bytes of a big integer attribute without its leading zeros. */
static const uint8_t *
bigint(const struct vg_object *o, CK_ATTRIBUTE_TYPE t, size_t *len)
{
	const struct vg_attr *a = vg_object_attr(o, t);
	const uint8_t *p = a != NULL ? a->value : NULL;
	size_t n = a != NULL ? a->len : 0;

	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	*len = n;
	return p;
}

/*
 * An RSA public key that can be used: an odd modulus, and a public
 * exponent that is odd, above 1 and below the modulus [RFC 8017 §3.1].
 * Refused where it enters (C_CreateObject), not at the first C_EncryptInit
 * or C_VerifyInit.
 */
static CK_RV
check_rsa_public(const struct vg_object *o)
{
	size_t nlen, elen;
	const uint8_t *n = bigint(o, CKA_MODULUS, &nlen);
	const uint8_t *e = bigint(o, CKA_PUBLIC_EXPONENT, &elen);

	if (nlen == 0 || !(n[nlen - 1] & 1) || elen == 0 ||
	    !(e[elen - 1] & 1) || (elen == 1 && e[0] == 1) || elen > nlen ||
	    (elen == nlen && memcmp(e, n, nlen) >= 0))
		return CKR_ATTRIBUTE_VALUE_INVALID;
	return CKR_OK;
}

static CK_RV
check_rsa(const struct vg_object *o)
{
	static const CK_ATTRIBUTE_TYPE crt[] = { CKA_PRIME_1, CKA_PRIME_2,
		CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	size_t bits = attr_len(o, CKA_MODULUS) * 8, i, have = 0;

	if (bits < 1024 || bits > 4096)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (o->cls == CKO_PUBLIC_KEY)
		return attr_len(o, CKA_PUBLIC_EXPONENT) != 0
		    ? check_rsa_public(o) : CKR_TEMPLATE_INCOMPLETE;
	if (attr_len(o, CKA_PRIVATE_EXPONENT) == 0)
		return CKR_TEMPLATE_INCOMPLETE;
	for (i = 0; i < sizeof(crt) / sizeof(crt[0]); i++)
		have += attr_len(o, crt[i]) != 0;
	/* The CRT parts come all together or not at all. */
	if (have != 0 && have != sizeof(crt) / sizeof(crt[0]))
		return CKR_TEMPLATE_INCONSISTENT;
	/* Without e the key cannot be checked (nor used: see
	 * vg_rsa_priv_parts); it is kept as given. */
	if (attr_len(o, CKA_PUBLIC_EXPONENT) != 0)
		return check_rsa_public(o) == CKR_OK ? check_rsa_parts(o)
						     : CKR_ATTRIBUTE_VALUE_INVALID;
	return CKR_OK;
}

/* An expanded secret key decodes, and matches the seed given with it.
 * pk_out, when not NULL, receives the public key the expanded key gives
 * (VG_MLDSA_MAX_PK_LEN bytes of room), and *have_pk is set to 1. */
static CK_RV
check_mldsa_parts(const struct vg_object *o, enum vg_mldsa_param set,
    uint8_t *pk_out, int *have_pk)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *seed = vg_object_attr(o, CKA_SEED);
	uint8_t *pk = malloc(vg_mldsa_pk_len(set));
	uint8_t *sk = vg_secmem_alloc(vg_mldsa_sk_len(set));
	CK_RV rv = CKR_OK;

	if (pk == NULL || sk == NULL)
		rv = CKR_HOST_MEMORY;
	else if (v != NULL && vg_mldsa_sk_to_pk(set, v->value, v->len,
	    pk) != VG_OK)
		rv = CKR_ATTRIBUTE_VALUE_INVALID;
	else if (v != NULL && seed != NULL &&
	    (vg_mldsa_keygen_internal(set, seed->value, pk, sk) != VG_OK ||
	    !vg_ct_memeq(sk, v->value, v->len)))
		rv = CKR_TEMPLATE_INCONSISTENT;
	if (rv == CKR_OK && v != NULL && pk_out != NULL) {
		memcpy(pk_out, pk, vg_mldsa_pk_len(set));
		*have_pk = 1;
	}
	free(pk);
	vg_secmem_free(sk, vg_mldsa_sk_len(set));
	return rv;
}

/* Encoded sizes of FIPS 204 keys, per parameter set 44, 65, 87. */
static const struct {
	CK_ULONG set;
	size_t pk, sk;
} mldsa_sizes[] = {
	{ CKP_ML_DSA_44, 1312, 2560 },
	{ CKP_ML_DSA_65, 1952, 4032 },
	{ CKP_ML_DSA_87, 2592, 4896 },
};

static CK_RV
check_mldsa(const struct vg_object *o, uint8_t *pk_out, int *have_pk)
{
	CK_ULONG set = vg_object_ulong(o, CKA_PARAMETER_SET, 0);
	size_t i, value = attr_len(o, CKA_VALUE), seed;

	for (i = 0; i < sizeof(mldsa_sizes) / sizeof(mldsa_sizes[0]); i++)
		if (mldsa_sizes[i].set == set)
			break;
	if (i == sizeof(mldsa_sizes) / sizeof(mldsa_sizes[0]))
		return vg_object_attr(o, CKA_PARAMETER_SET) == NULL
		    ? CKR_TEMPLATE_INCOMPLETE : CKR_ATTRIBUTE_VALUE_INVALID;
	if (o->cls == CKO_PUBLIC_KEY)
		return value == mldsa_sizes[i].pk ? CKR_OK
						  : CKR_ATTRIBUTE_VALUE_INVALID;
	seed = attr_len(o, CKA_SEED);
	if (seed == 0 && value == 0)
		return CKR_TEMPLATE_INCOMPLETE;
	if ((seed != 0 && seed != 32) ||
	    (value != 0 && value != mldsa_sizes[i].sk))
		return CKR_ATTRIBUTE_VALUE_INVALID;
	return check_mldsa_parts(o, (enum vg_mldsa_param)i, pk_out, have_pk);
}

/* The crypto layer's ML-KEM parameter set of CKA_PARAMETER_SET, or -1. */
static int
mlkem_set(const struct vg_object *o)
{
	CK_ULONG set = vg_object_ulong(o, CKA_PARAMETER_SET, 0);

	return set >= CKP_ML_KEM_512 && set <= CKP_ML_KEM_1024
	    ? (int)(VG_MLKEM_512 + (set - CKP_ML_KEM_512)) : -1;
}

/*
 * An ML-KEM key [FIPS 203 §7.2, §7.3]: a public key's ek passes the
 * modulus check; a private key has its seed d || z (64 bytes), its dk
 * (which passes the hash check), or both, and then the seed gives that
 * dk (else CKR_TEMPLATE_INCONSISTENT). pk_out as for check_mldsa_parts:
 * the ek inside the dk.
 */
static CK_RV
check_mlkem(const struct vg_object *o, uint8_t *pk_out, int *have_pk)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *seed = vg_object_attr(o, CKA_SEED);
	int set = mlkem_set(o);
	enum vg_mlkem_param p = (enum vg_mlkem_param)set;
	size_t value = attr_len(o, CKA_VALUE), slen = attr_len(o, CKA_SEED);
	size_t eklen, dklen;
	uint8_t *ek, *dk;
	CK_RV rv = CKR_OK;

	if (set < 0)
		return vg_object_attr(o, CKA_PARAMETER_SET) == NULL
		    ? CKR_TEMPLATE_INCOMPLETE : CKR_ATTRIBUTE_VALUE_INVALID;
	eklen = vg_mlkem_ek_len(p);
	dklen = vg_mlkem_dk_len(p);
	if (o->cls == CKO_PUBLIC_KEY)
		return v != NULL && vg_mlkem_check_ek(p, v->value, v->len) ==
		    VG_OK ? CKR_OK : CKR_ATTRIBUTE_VALUE_INVALID;
	if (slen == 0 && value == 0)
		return CKR_TEMPLATE_INCOMPLETE;
	if ((slen != 0 && slen != VG_MLKEM_SEED_LEN) ||
	    (value != 0 && (value != dklen ||
	    vg_mlkem_check_dk(p, v->value, v->len) != VG_OK)))
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (value == 0)
		return CKR_OK;
	if (pk_out != NULL) {
		/* dk = dk_PKE || ek || H(ek) || z: ek follows 384k bytes */
		memcpy(pk_out, (const uint8_t *)v->value + (dklen - eklen - 64),
		    eklen);
		*have_pk = 1;
	}
	if (slen == 0)
		return CKR_OK;
	ek = malloc(eklen);
	dk = vg_secmem_alloc(dklen);
	if (ek == NULL || dk == NULL)
		rv = CKR_HOST_MEMORY;
	else if (vg_mlkem_keygen_internal(p, seed->value, ek, dk) != VG_OK ||
	    !vg_ct_memeq(dk, v->value, dklen))
		rv = CKR_TEMPLATE_INCONSISTENT;
	free(ek);
	vg_secmem_free(dk, dklen);
	return rv;
}

/* Writes an SPKI for alg and key into a new buffer. */
static CK_RV
spki(const struct vg_der_algid *alg, const void *key, size_t keylen,
    uint8_t **out, size_t *outlen)
{
	if (vg_der_build_spki(NULL, outlen, alg, key, keylen) != VG_OK)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	*out = malloc(*outlen);
	if (*out == NULL)
		return CKR_HOST_MEMORY;
	if (vg_der_build_spki(*out, outlen, alg, key, keylen) != VG_OK) {
		free(*out);
		*out = NULL;
		return CKR_GENERAL_ERROR;
	}
	return CKR_OK;
}

/* The SPKI of an RSA key from n and e, which a private key holds too
 * (CKA_PUBLIC_EXPONENT is required of it, and vg_key_check has seen n, e
 * and d agree). */
static CK_RV
spki_rsa(const struct vg_object *o, uint8_t **out, size_t *outlen)
{
	static const uint8_t null_params[] = { 0x05, 0x00 };
	const struct vg_attr *a = vg_object_attr(o, CKA_MODULUS);
	const struct vg_attr *b = vg_object_attr(o, CKA_PUBLIC_EXPONENT);
	struct vg_der_algid alg;
	struct vg_der_rsa_pub pub;
	uint8_t *der = NULL;
	size_t len = 0;
	CK_RV rv = CKR_OK;

	if (a == NULL || b == NULL)
		goto out;
	pub.n.p = a->value;
	pub.n.len = a->len;
	pub.e.p = b->value;
	pub.e.len = b->len;
	if (vg_der_build_rsa_public(NULL, &len, &pub) != VG_OK) {
		rv = CKR_ATTRIBUTE_VALUE_INVALID;
		goto out;
	}
	der = malloc(len);
	if (der == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	if (vg_der_build_rsa_public(der, &len, &pub) != VG_OK) {
		rv = CKR_GENERAL_ERROR;
		goto out;
	}
	memset(&alg, 0, sizeof(alg));
	alg.oid = vg_oid_rsa_encryption;
	alg.params.p = null_params;
	alg.params.len = sizeof(null_params);
	rv = spki(&alg, der, len, out, outlen);
out:
	free(der);
	return rv;
}

/*
 * The SPKI of an EC key: its CKA_EC_POINT, which a private key may carry
 * beside its scalar (vg_key_check saw the two agree, and neither can
 * change afterwards); a private key without one has its point computed
 * from the scalar ([d]G, the fixed-base comb).
 */
static CK_RV
spki_ec(const struct vg_object *o, uint8_t **out, size_t *outlen)
{
	const struct vg_attr *a = vg_object_attr(o, CKA_EC_PARAMS);
	const struct vg_attr *v;
	struct vg_der_algid alg;
	struct vg_der cur, str;
	struct vg_p256_priv k;
	struct vg_p256_pub pub;
	uint8_t pt[VG_P256_POINT_LEN], params[16];
	size_t plen = sizeof(params);
	CK_RV rv = CKR_OK;

	memset(&str, 0, sizeof(str));
	if (a == NULL)
		goto out;
	if (o->cls == CKO_PRIVATE_KEY &&
	    vg_object_attr(o, CKA_EC_POINT) == NULL) {
		v = vg_object_attr(o, CKA_VALUE);
		if (v == NULL)
			goto out;
		if (vg_p256_priv_decode(&k, v->value, v->len) != VG_OK ||
		    vg_p256_pub_from_priv(&pub, &k) != VG_OK)
			rv = CKR_ATTRIBUTE_VALUE_INVALID;
		vg_p256_priv_wipe(&k);
		if (rv != CKR_OK)
			goto out;
		vg_p256_pub_encode(pt, &pub);
		str.p = pt;
		str.len = sizeof(pt);
	} else {
		v = vg_object_attr(o, CKA_EC_POINT);
		if (v == NULL)
			goto out;
		cur.p = v->value;
		cur.len = v->len;
		if (vg_der_get_octet_string(&cur, &str) != VG_OK) {
			rv = CKR_ATTRIBUTE_VALUE_INVALID;
			goto out;
		}
	}
	/* the OID whatever form CKA_EC_PARAMS took (X.509 has no curve
	 * names); vg_key_check saw it name P-256 */
	if (vg_der_build_ec_params(params, &plen, &vg_oid_prime256v1) !=
	    VG_OK) {
		rv = CKR_GENERAL_ERROR;
		goto out;
	}
	memset(&alg, 0, sizeof(alg));
	alg.oid = vg_oid_ec_public_key;
	alg.params.p = params;
	alg.params.len = plen;
	rv = spki(&alg, str.p, str.len, out, outlen);
out:
	return rv;
}

/*
 * The SPKI of an ML-DSA key [FIPS 204 Alg. 6]: a public key's CKA_VALUE;
 * a private key's public key: known_pk when not NULL (what vg_key_check
 * recomputed from the expanded key), else recomputed from the expanded
 * key, or else from the seed.
 */
static CK_RV
spki_mldsa(const struct vg_object *o, const uint8_t *known_pk,
    uint8_t **out, size_t *outlen)
{
	static const struct vg_der *const oids[] = { &vg_oid_ml_dsa_44,
		&vg_oid_ml_dsa_65, &vg_oid_ml_dsa_87 };
	CK_ULONG set = vg_object_ulong(o, CKA_PARAMETER_SET, 0);
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *seed = vg_object_attr(o, CKA_SEED);
	struct vg_der_algid alg;
	enum vg_mldsa_param p;
	uint8_t *pk = NULL, *sk = NULL;
	size_t pklen = 0, sklen = 0;
	CK_RV rv = CKR_OK;

	if (set < CKP_ML_DSA_44 || set > CKP_ML_DSA_87)
		goto out;
	p = (enum vg_mldsa_param)(set - CKP_ML_DSA_44);
	memset(&alg, 0, sizeof(alg));
	alg.oid = *oids[p];
	if (o->cls == CKO_PUBLIC_KEY) {
		if (v != NULL)
			rv = spki(&alg, v->value, v->len, out, outlen);
		goto out;
	}
	pklen = vg_mldsa_pk_len(p);
	if (known_pk != NULL) {
		rv = spki(&alg, known_pk, pklen, out, outlen);
		goto out;
	}
	pk = malloc(pklen);
	if (pk == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	if (v != NULL && v->len != 0) {
		if (vg_mldsa_sk_to_pk(p, v->value, v->len, pk) != VG_OK)
			rv = CKR_ATTRIBUTE_VALUE_INVALID;
	} else if (seed != NULL && seed->len == VG_MLDSA_SEED_LEN) {
		sklen = vg_mldsa_sk_len(p);
		sk = vg_secmem_alloc(sklen);
		if (sk == NULL)
			rv = CKR_HOST_MEMORY;
		else if (vg_mldsa_keygen_internal(p, seed->value, pk, sk) !=
		    VG_OK)
			rv = CKR_ATTRIBUTE_VALUE_INVALID;
	} else {
		goto out;
	}
	if (rv == CKR_OK)
		rv = spki(&alg, pk, pklen, out, outlen);
out:
	free(pk);
	if (sk != NULL)
		vg_secmem_free(sk, sklen);
	return rv;
}

/*
 * The SPKI of an ML-KEM key: a public key's ek; a private key's known_pk
 * (the ek inside its dk, from check_mlkem), else the ek of its seed.
 */
static CK_RV
spki_mlkem(const struct vg_object *o, const uint8_t *known_pk,
    uint8_t **out, size_t *outlen)
{
	static const struct vg_der *const oids[] = { &vg_oid_ml_kem_512,
		&vg_oid_ml_kem_768, &vg_oid_ml_kem_1024 };
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *seed = vg_object_attr(o, CKA_SEED);
	int set = mlkem_set(o);
	enum vg_mlkem_param p = (enum vg_mlkem_param)set;
	struct vg_der_algid alg;
	uint8_t *ek = NULL, *dk = NULL;
	size_t dklen = 0;
	CK_RV rv = CKR_OK;

	if (set < 0)
		return CKR_OK;
	memset(&alg, 0, sizeof(alg));
	alg.oid = *oids[set];
	if (o->cls == CKO_PUBLIC_KEY)
		return v != NULL ? spki(&alg, v->value, v->len, out, outlen)
				 : CKR_OK;
	if (known_pk != NULL)
		return spki(&alg, known_pk, vg_mlkem_ek_len(p), out, outlen);
	if (v != NULL && v->len == vg_mlkem_dk_len(p))
		return spki(&alg, (const uint8_t *)v->value + (v->len -
		    vg_mlkem_ek_len(p) - 64), vg_mlkem_ek_len(p), out, outlen);
	if (seed == NULL || seed->len != VG_MLKEM_SEED_LEN)
		return CKR_OK;
	dklen = vg_mlkem_dk_len(p);
	ek = malloc(vg_mlkem_ek_len(p));
	dk = vg_secmem_alloc(dklen);
	if (ek == NULL || dk == NULL)
		rv = CKR_HOST_MEMORY;
	else if (vg_mlkem_keygen_internal(p, seed->value, ek, dk) != VG_OK)
		rv = CKR_ATTRIBUTE_VALUE_INVALID;
	if (rv == CKR_OK)
		rv = spki(&alg, ek, vg_mlkem_ek_len(p), out, outlen);
	free(ek);
	vg_secmem_free(dk, dklen);
	return rv;
}

/* The SubjectPublicKeyInfo of a key, from its key material (an ML-DSA
 * private key's public key known_pk when not NULL); *out NULL when the
 * object does not hold enough of it (or is of another type). */
static CK_RV
public_key_info(const struct vg_object *o, const uint8_t *known_pk,
    uint8_t **out, size_t *outlen)
{
	CK_RV rv = CKR_OK;

	*out = NULL;
	*outlen = 0;
	if (o->key_type == CKK_RSA)
		rv = spki_rsa(o, out, outlen);
	else if (o->key_type == CKK_EC)
		rv = spki_ec(o, out, outlen);
	else if (o->key_type == CKK_ML_DSA)
		rv = spki_mldsa(o, known_pk, out, outlen);
	else if (vg_ecx_is(o->key_type))
		rv = vg_ecx_spki(o, out, outlen);
	else if (o->key_type == CKK_ML_KEM)
		rv = spki_mlkem(o, known_pk, out, outlen);
	return rv;
}

/*
 * CKA_PUBLIC_KEY_INFO against the key (known_pk as for public_key_info):
 * absent or empty, the token fills it in from the key; given, it must be
 * the same bytes, else mismatch. A key whose public key the token cannot
 * tell keeps what it has.
 */
static CK_RV
sync_public_key_info(struct vg_object *o, const uint8_t *known_pk,
    CK_RV mismatch)
{
	const struct vg_attr *given;
	uint8_t *info = NULL;
	size_t len = 0;
	CK_RV rv;

	rv = public_key_info(o, known_pk, &info, &len);
	if (rv != CKR_OK || info == NULL)
		goto out;
	given = vg_object_attr(o, CKA_PUBLIC_KEY_INFO);
	if (given != NULL && given->len != 0) {
		rv = given->len == len && memcmp(given->value, info, len) == 0
		    ? CKR_OK : mismatch;
	} else {
		/* the encoding becomes the attribute, not a copy of it */
		rv = vg_object_take_attr(o, CKA_PUBLIC_KEY_INFO, info, len);
		info = NULL;
	}
out:
	free(info);
	return rv;
}

/* vg_key_check; pk_out and have_pk as for check_mldsa_parts. */
static CK_RV
key_check(const struct vg_object *o, uint8_t *pk_out, int *have_pk)
{
	CK_RV rv = CKR_OK;

	if (o->cls != CKO_PUBLIC_KEY && o->cls != CKO_PRIVATE_KEY)
		goto out;
	switch (o->key_type) {
	case CKK_EC:
		rv = check_ec(o);
		break;
	case CKK_RSA:
		rv = check_rsa(o);
		break;
	case CKK_ML_DSA:
		rv = check_mldsa(o, pk_out, have_pk);
		break;
	case CKK_EC_EDWARDS:
	case CKK_EC_MONTGOMERY:
		rv = vg_ecx_check(o);
		break;
	case CKK_ML_KEM:
		rv = check_mlkem(o, pk_out, have_pk);
		break;
	default:
		break;
	}
out:
	return rv;
}

/* see token/token.h */
CK_RV
vg_key_complete(struct vg_object *o)
{
	/* an ML-DSA or ML-KEM private key's public key, as the check
	 * computes it */
	uint8_t pk[VG_MLDSA_MAX_PK_LEN > VG_MLKEM_MAX_EK_LEN
	    ? VG_MLDSA_MAX_PK_LEN : VG_MLKEM_MAX_EK_LEN];
	int have_pk = 0;
	CK_RV rv;

	rv = CKR_OK;
	if ((o->cls == CKO_PUBLIC_KEY || o->cls == CKO_PRIVATE_KEY) &&
	    vg_ecx_is(o->key_type))
		rv = vg_ecx_normalize(o);
	if (rv == CKR_OK)
		rv = key_check(o, pk, &have_pk);
	/*
	 * A private key's given value that does not match its key:
	 * CKR_ATTRIBUTE_VALUE_INVALID, as [PKCS#11 3.2 §4.11] says; the
	 * specification names no code for a public key's, which keeps the
	 * CKR_TEMPLATE_INCONSISTENT of a template whose values disagree.
	 */
	if (rv == CKR_OK && o->cls == CKO_PRIVATE_KEY)
		rv = sync_public_key_info(o, have_pk ? pk : NULL,
		    CKR_ATTRIBUTE_VALUE_INVALID);
	else if (rv == CKR_OK && o->cls == CKO_PUBLIC_KEY)
		rv = sync_public_key_info(o, NULL, CKR_TEMPLATE_INCONSISTENT);
	return rv;
}

/*
 * see token/token.h
 * The checks of vg_key_complete are for material a caller supplies. A
 * generated pair comes from the crypto layer whole: recomputing its
 * public key from the private one (EC [d]G; ML-DSA's and ML-KEM's key
 * generation run again from the seed) cost as much as the generation itself and can only
 * agree. PKCS#11 asks for no pairwise consistency test; FIPS 140-3 asks
 * for one of a validated module only (IG 10.3.A), and this module is not
 * one. What stays is cheap: an EC public point is decoded and checked to
 * be on the curve (a fault in the scalar multiplication shows there).
 */
CK_RV
vg_key_complete_generated(struct vg_object *o, const uint8_t *pk)
{
	CK_RV rv = CKR_OK;

	if (o->cls != CKO_PUBLIC_KEY && o->cls != CKO_PRIVATE_KEY)
		return CKR_OK;
	if (o->key_type == CKK_EC && o->cls == CKO_PUBLIC_KEY)
		rv = check_ec_point(o);
	if (rv == CKR_OK)
		rv = sync_public_key_info(o, o->cls == CKO_PRIVATE_KEY ? pk :
		    NULL, o->cls == CKO_PRIVATE_KEY ?
		    CKR_ATTRIBUTE_VALUE_INVALID : CKR_TEMPLATE_INCONSISTENT);
	return rv;
}

/* see token/token.h */
CK_RV
vg_key_check_change(struct vg_object *o, const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_RV rv = CKR_OK;

	/* Footnote 8 lets C_SetAttributeValue and C_CopyObject change a
	 * private key's CKA_PUBLIC_KEY_INFO, and §4.11 has the token verify
	 * the new value against the key: CKR_ATTRIBUTE_VALUE_INVALID. It is
	 * checked rather than made read-only so that a client that writes
	 * the right value back (or an empty one, refilled) still works. */
	if (o->cls == CKO_PRIVATE_KEY &&
	    vg_template_find(t, n, CKA_PUBLIC_KEY_INFO) != NULL)
		rv = sync_public_key_info(o, NULL, CKR_ATTRIBUTE_VALUE_INVALID);
	return rv;
}

/* see token/token.h */
CK_RV
vg_key_check(const struct vg_object *o)
{
	return key_check(o, NULL, NULL);
}
