/*
 * Curve25519 keys in the object model: CKK_EC_EDWARDS (Ed25519) and
 * CKK_EC_MONTGOMERY (X25519) [PKCS#11 3.2 §6.3.5 - §6.3.8]. They share
 * the attributes of EC keys (token/attrs.c): CKA_EC_PARAMS names the
 * curve, CKA_EC_POINT is the 32-byte public key as a DER OCTET STRING
 * (a raw 32-byte value given at creation is stored in that form), a
 * private key's CKA_VALUE is its 32-byte private key [RFC 7748 §5,
 * RFC 8032 §5.1.5]. Ed448 and X448 are recognised and refused.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/c25519.h"
#include "token/object.h"
#include "token/token.h"

/* see token/token.h */
int
vg_ecx_is(CK_KEY_TYPE kt)
{
	return kt == CKK_EC_EDWARDS || kt == CKK_EC_MONTGOMERY;
}

static enum vg_der_ecx
curve_of(CK_KEY_TYPE kt)
{
	return kt == CKK_EC_EDWARDS ? VG_DER_ECX_ED25519 : VG_DER_ECX_X25519;
}

/* see token/token.h */
CK_RV
vg_ecx_params_check(CK_KEY_TYPE kt, const void *p, size_t len)
{
	enum vg_der_ecx which;

	if (p == NULL || len == 0 ||
	    vg_der_parse_ecx_params(p, len, &which) != VG_OK)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	return which == curve_of(kt) ? CKR_OK : CKR_CURVE_NOT_SUPPORTED;
}

/* see token/token.h */
int
vg_ecx_point_decode(const void *p, size_t len, uint8_t pk[VG_ECX_LEN])
{
	struct vg_der cur = vg_der_make(p, len), str;

	if (len == VG_ECX_LEN) {
		memcpy(pk, p, VG_ECX_LEN);
		return 0;
	}
	if (vg_der_get_octet_string(&cur, &str) != VG_OK ||
	    !vg_der_at_end(&cur) || str.len != VG_ECX_LEN)
		return -1;
	memcpy(pk, str.p, VG_ECX_LEN);
	return 0;
}

/* see token/token.h */
void
vg_ecx_point_encode(uint8_t out[VG_ECX_EC_POINT_LEN],
    const uint8_t pk[VG_ECX_LEN])
{
	out[0] = VG_DER_OCTET_STRING;
	out[1] = VG_ECX_LEN;
	memcpy(out + 2, pk, VG_ECX_LEN);
}

/* see token/token.h */
CK_RV
vg_ecx_public(CK_KEY_TYPE kt, const uint8_t sk[VG_ECX_LEN],
    uint8_t pk[VG_ECX_LEN])
{
	enum vg_err e = kt == CKK_EC_EDWARDS ? vg_ed25519_public(pk, sk)
					     : vg_x25519_public(pk, sk);

	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}

/* The public key of o: its CKA_EC_POINT, or computed from CKA_VALUE. */
static CK_RV
public_of(const struct vg_object *o, uint8_t pk[VG_ECX_LEN])
{
	const struct vg_attr *pt = vg_object_attr(o, CKA_EC_POINT);
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);

	if (pt != NULL)
		return vg_ecx_point_decode(pt->value, pt->len, pk) == 0
		    ? CKR_OK : CKR_ATTRIBUTE_VALUE_INVALID;
	if (o->cls != CKO_PRIVATE_KEY || v == NULL || v->len != VG_ECX_LEN)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	return vg_ecx_public(o->key_type, v->value, pk);
}

/* see token/token.h */
CK_RV
vg_ecx_check(const struct vg_object *o)
{
	const struct vg_attr *params = vg_object_attr(o, CKA_EC_PARAMS);
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *pt = vg_object_attr(o, CKA_EC_POINT);
	uint8_t pk[VG_ECX_LEN], mine[VG_ECX_LEN];
	CK_RV rv;

	if (params == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	rv = vg_ecx_params_check(o->key_type, params->value, params->len);
	if (rv != CKR_OK)
		return rv;
	if (pt == NULL && o->cls == CKO_PUBLIC_KEY)
		return CKR_TEMPLATE_INCOMPLETE;
	if (pt != NULL) {
		if (vg_ecx_point_decode(pt->value, pt->len, pk) != 0 ||
		    (o->key_type == CKK_EC_EDWARDS &&
		    vg_ed25519_check_public(pk) != VG_OK))
			return CKR_ATTRIBUTE_VALUE_INVALID;
	}
	if (o->cls != CKO_PRIVATE_KEY)
		return CKR_OK;
	if (v == NULL || v->len != VG_ECX_LEN)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (pt == NULL)
		return CKR_OK;
	/* A point given beside the private key must be its own. */
	rv = vg_ecx_public(o->key_type, v->value, mine);
	if (rv == CKR_OK && memcmp(mine, pk, VG_ECX_LEN) != 0)
		rv = CKR_TEMPLATE_INCONSISTENT;
	return rv;
}

/* see token/token.h */
CK_RV
vg_ecx_normalize(struct vg_object *o)
{
	const struct vg_attr *pt = vg_object_attr(o, CKA_EC_POINT);
	uint8_t der[VG_ECX_EC_POINT_LEN];

	if (pt == NULL || pt->len != VG_ECX_LEN)
		return CKR_OK;
	vg_ecx_point_encode(der, pt->value);
	return vg_object_set_attr(o, CKA_EC_POINT, der, sizeof(der));
}

/* see token/token.h */
CK_RV
vg_ecx_spki(const struct vg_object *o, uint8_t **out, size_t *outlen)
{
	struct vg_der_algid alg;
	uint8_t pk[VG_ECX_LEN];
	CK_RV rv;

	*out = NULL;
	*outlen = 0;
	if (vg_object_attr(o, CKA_EC_POINT) == NULL &&
	    vg_object_attr(o, CKA_VALUE) == NULL)
		return CKR_OK;
	rv = public_of(o, pk);
	if (rv != CKR_OK)
		return rv;
	memset(&alg, 0, sizeof(alg));
	alg.oid = *vg_der_ecx_oid(curve_of(o->key_type));
	if (vg_der_build_spki(NULL, outlen, &alg, pk, sizeof(pk)) != VG_OK)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	*out = malloc(*outlen);
	if (*out == NULL)
		return CKR_HOST_MEMORY;
	if (vg_der_build_spki(*out, outlen, &alg, pk, sizeof(pk)) != VG_OK) {
		free(*out);
		*out = NULL;
		return CKR_GENERAL_ERROR;
	}
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_ecx_to_pkcs8(const struct vg_object *o, struct vg_der_algid *alg,
    uint8_t **key, size_t *keylen)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	uint8_t *k;

	if (v == NULL || v->len != VG_ECX_LEN)
		return CKR_KEY_NOT_WRAPPABLE;
	/* CurvePrivateKey ::= OCTET STRING [RFC 8410 §7] */
	k = vg_secmem_alloc(2 + VG_ECX_LEN);
	if (k == NULL)
		return CKR_HOST_MEMORY;
	vg_ecx_point_encode(k, v->value);
	*key = k;
	*keylen = 2 + VG_ECX_LEN;
	memset(alg, 0, sizeof(*alg));
	alg->oid = *vg_der_ecx_oid(curve_of(o->key_type));
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_ecx_from_pkcs8(struct vg_object *o, const struct vg_der_pkcs8 *p8)
{
	struct vg_der cur = vg_der_make(p8->key.p, p8->key.len), str;
	enum vg_der_ecx which = vg_der_ecx_of_oid(&p8->alg.oid);
	uint8_t params[16], pk[VG_ECX_LEN], pt[VG_ECX_EC_POINT_LEN];
	size_t plen = sizeof(params);
	CK_RV rv;

	if (which != curve_of(o->key_type))
		return which == VG_DER_ECX_ED448 || which == VG_DER_ECX_X448
		    ? CKR_CURVE_NOT_SUPPORTED : CKR_TEMPLATE_INCONSISTENT;
	/* The parameters are absent [RFC 8410 §3]. */
	if (p8->alg.params.len != 0 ||
	    vg_der_get_octet_string(&cur, &str) != VG_OK ||
	    !vg_der_at_end(&cur) || str.len != VG_ECX_LEN ||
	    (p8->pub.len != 0 && p8->pub.len != VG_ECX_LEN))
		return CKR_WRAPPED_KEY_INVALID;
	if (vg_der_build_ecx_params(params, &plen, which) != VG_OK)
		return CKR_GENERAL_ERROR;
	rv = vg_ecx_public(o->key_type, str.p, pk);
	/* A public key in a OneAsymmetricKey [RFC 8410 §7] is the key's. */
	if (rv == CKR_OK && p8->pub.len != 0 &&
	    memcmp(p8->pub.p, pk, VG_ECX_LEN) != 0)
		rv = CKR_WRAPPED_KEY_INVALID;
	vg_ecx_point_encode(pt, pk);
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_EC_PARAMS, params, plen);
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_VALUE, str.p, str.len);
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_EC_POINT, pt, sizeof(pt));
	return rv;
}
