/*
 * Key material checks for objects made from caller templates
 * (C_CreateObject): what the attribute rules cannot see, because it
 * depends on the values. The structure is checked here; the arithmetic
 * consistency of RSA parts and the curve membership of EC points are
 * checked by the crypto layer of each algorithm.
 */
#include "config.h"

#include <string.h>

#include "token/object.h"
#include "token/token.h"

static size_t
attr_len(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	return a != NULL ? a->len : 0;
}

/* CKA_EC_PARAMS must name P-256, the only curve the token has. */
static CK_RV
check_ec_params(const struct vg_object *o)
{
	const struct vg_attr *a = vg_object_attr(o, CKA_EC_PARAMS);
	enum vg_der_curve curve;
	enum vg_err e;

	if (a == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	e = vg_der_parse_ec_params(a->value, a->len, &curve, NULL);
	if (e == VG_ERR_ARG || (e == VG_OK && curve != VG_DER_CURVE_P256))
		return CKR_CURVE_NOT_SUPPORTED;
	return e == VG_OK ? CKR_OK : CKR_ATTRIBUTE_VALUE_INVALID;
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
	return CKR_OK;
}

static CK_RV
check_ec(const struct vg_object *o)
{
	CK_RV rv = check_ec_params(o);
	size_t len;

	if (rv != CKR_OK || o->cls == CKO_PUBLIC_KEY)
		return rv == CKR_OK ? check_ec_point(o) : rv;
	len = attr_len(o, CKA_VALUE);
	if (len == 0 || len > 32)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	/* libp11 reads CKA_EC_POINT from the private key when present. */
	if (vg_object_attr(o, CKA_EC_POINT) != NULL)
		return check_ec_point(o);
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
		    ? CKR_OK : CKR_TEMPLATE_INCOMPLETE;
	if (attr_len(o, CKA_PRIVATE_EXPONENT) == 0)
		return CKR_TEMPLATE_INCOMPLETE;
	for (i = 0; i < sizeof(crt) / sizeof(crt[0]); i++)
		have += attr_len(o, crt[i]) != 0;
	/* The CRT parts come all together or not at all. */
	if (have != 0 && have != sizeof(crt) / sizeof(crt[0]))
		return CKR_TEMPLATE_INCONSISTENT;
	return CKR_OK;
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
check_mldsa(const struct vg_object *o)
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
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_key_check(const struct vg_object *o)
{
	if (o->cls != CKO_PUBLIC_KEY && o->cls != CKO_PRIVATE_KEY)
		return CKR_OK;
	switch (o->key_type) {
	case CKK_EC:
		return check_ec(o);
	case CKK_RSA:
		return check_rsa(o);
	case CKK_ML_DSA:
		return check_mldsa(o);
	default:
		return CKR_OK;
	}
}
