/*
 * ML-DSA-PrivateKey [RFC 9881 §6]: the CHOICE of a seed, an expanded key
 * or both that the privateKey OCTET STRING of an ML-DSA PrivateKeyInfo
 * holds. Built on the reader and writer of crypto/der.c; see
 * crypto/der.h for the rules.
 */
#include "config.h"

#include <string.h>

#include "crypto/der.h"

/* see crypto/der.h */
enum vg_err
vg_der_parse_mldsa_private(const void *in, size_t len,
    struct vg_der_mldsa_priv *k)
{
	struct vg_der c = vg_der_make(in, len), s;
	enum vg_err rc;

	memset(k, 0, sizeof(*k));
	switch (vg_der_peek_tag(&c)) {
	case VG_DER_CONTEXT_PRIM(0):
		rc = vg_der_get_tlv(&c, VG_DER_CONTEXT_PRIM(0), &k->seed);
		break;
	case VG_DER_OCTET_STRING:
		rc = vg_der_get_octet_string(&c, &k->sk);
		break;
	case VG_DER_SEQUENCE:
		rc = vg_der_get_sequence(&c, &s);
		if (rc == VG_OK)
			rc = vg_der_get_octet_string(&s, &k->seed);
		if (rc == VG_OK)
			rc = vg_der_get_octet_string(&s, &k->sk);
		if (rc == VG_OK && !vg_der_at_end(&s))
			rc = VG_ERR_DECODE;
		break;
	default:
		rc = VG_ERR_DECODE;
		break;
	}
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	if (rc != VG_OK)
		memset(k, 0, sizeof(*k));
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_build_mldsa_private(uint8_t *out, size_t *outlen,
    const struct vg_der_mldsa_priv *k)
{
	size_t seed = 0, sk = 0, total = 0, have, w = 0;
	int both;
	enum vg_err rc = VG_OK;

	if (outlen == NULL || k == NULL ||
	    (k->seed.p == NULL && k->seed.len != 0) ||
	    (k->sk.p == NULL && k->sk.len != 0) ||
	    (k->seed.len == 0 && k->sk.len == 0))
		return VG_ERR_ARG;
	both = k->seed.len != 0 && k->sk.len != 0;
	if (k->seed.len != 0)
		seed = vg_der_put_tlv(NULL, both ? VG_DER_OCTET_STRING
		    : VG_DER_CONTEXT_PRIM(0), k->seed.p, k->seed.len);
	if (k->sk.len != 0)
		sk = vg_der_put_octet_string(NULL, k->sk.p, k->sk.len);
	if ((k->seed.len != 0 && seed == 0) || (k->sk.len != 0 && sk == 0) ||
	    seed > VG_DER_MAX_LEN - sk)
		return VG_ERR_ARG;
	total = seed + sk;
	if (both) {
		w = vg_der_put_header(NULL, VG_DER_SEQUENCE, total);
		if (w == 0 || total > VG_DER_MAX_LEN - w)
			return VG_ERR_ARG;
		total += w;
	}
	have = *outlen;
	*outlen = total;
	if (out == NULL)
		return VG_OK;
	if (have < total)
		return VG_ERR_LENGTH;
	w = both ? vg_der_put_sequence(out, seed + sk) : 0;
	if (k->seed.len != 0)
		w += vg_der_put_tlv(out + w, both ? VG_DER_OCTET_STRING
		    : VG_DER_CONTEXT_PRIM(0), k->seed.p, k->seed.len);
	if (k->sk.len != 0)
		vg_der_put_octet_string(out + w, k->sk.p, k->sk.len);
	return rc;
}
