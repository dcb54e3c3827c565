/*
 * RSAES-OAEP [RFC 8017 7.1] with MGF1; the decoding is constant time and
 * every failure is one error after the same work (no Manger oracle).
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"

/* The checks shared by both directions. */
static enum vg_err
oaep_params(size_t len, enum vg_hash_alg halg, enum vg_hash_alg mgf,
    const uint8_t *label, size_t llen)
{
	if (!vg_rsa_hash_ok(halg) || !vg_rsa_hash_ok(mgf) ||
	    (label == NULL && llen != 0))
		return VG_ERR_ARG;
	if (len < 2 * vg_hash_len(halg) + 2)
		return VG_ERR_ARG;
	return VG_OK;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_oaep_encrypt(const struct vg_rsa_pub *k, enum vg_hash_alg halg,
    enum vg_hash_alg mgf, const uint8_t *label, size_t llen,
    const uint8_t *msg, size_t mlen, uint8_t *out, size_t outlen,
    struct vg_rng *rng)
{
	uint8_t em[VG_RSA_MAX_BYTES];
	size_t len = k->len, hl = vg_hash_len(halg), dblen;
	enum vg_err rv;

	assert(out != NULL && (msg != NULL || mlen == 0));
	rv = oaep_params(len, halg, mgf, label, llen);
	if (rv != VG_OK)
		return rv;
	if (rng == NULL)
		return VG_ERR_ARG;
	if (outlen != len || mlen > len - 2 * hl - 2)
		return VG_ERR_LENGTH;
	/* EM = 00 || maskedSeed || maskedDB, DB = lHash || PS || 01 || M */
	dblen = len - hl - 1;
	memset(em, 0, len);
	vg_hash(halg, label, llen, em + 1 + hl);
	em[len - mlen - 1] = 0x01;
	if (mlen > 0)
		memcpy(em + len - mlen, msg, mlen);
	rv = vg_rng_generate(rng, em + 1, hl);
	if (rv != VG_OK)
		goto out;
	vg_rsa_mgf1_xor(mgf, em + 1 + hl, dblen, em + 1, hl);
	vg_rsa_mgf1_xor(mgf, em + 1, hl, em + 1 + hl, dblen);
	rv = vg_rsa_public(k, out, em, len);
out:
	vg_wipe(em, sizeof(em));
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_oaep_decrypt(struct vg_rsa_key *k, enum vg_hash_alg halg,
    enum vg_hash_alg mgf, const uint8_t *label, size_t llen,
    const uint8_t *ct, size_t ctlen, uint8_t *out, size_t outcap,
    size_t *outlen, struct vg_rng *rng)
{
	uint8_t em[VG_RSA_MAX_BYTES], lhash[VG_HASH_MAX_LEN];
	size_t len = k->pub.len, hl = vg_hash_len(halg), dblen, i;
	uint64_t good, found = 0, one_ok = ~(uint64_t)0, idx = 0;
	enum vg_err rv;

	assert(ct != NULL && out != NULL && outlen != NULL);
	*outlen = 0;
	rv = oaep_params(len, halg, mgf, label, llen);
	if (rv != VG_OK)
		return rv;
	if (outcap < len - 2 * hl - 2)
		return VG_ERR_LENGTH;
	if (ctlen != len)
		return VG_ERR_DECODE;
	rv = vg_rsa_private(k, em, ct, len, rng);
	if (rv == VG_ERR_DECODE) /* c >= n: public */
		memset(em, 0xff, len);
	else if (rv != VG_OK)
		goto out;

	dblen = len - hl - 1;
	vg_rsa_mgf1_xor(mgf, em + 1, hl, em + 1 + hl, dblen);
	vg_rsa_mgf1_xor(mgf, em + 1 + hl, dblen, em + 1, hl);
	vg_hash(halg, label, llen, lhash);
	good = vg_ct_zero_mask64(em[0]);
	good &= (uint64_t)0 - (vg_ct_memeq(em + 1 + hl, lhash, hl) & 1);
	/* PS (zeros) then 01: the first non-zero byte must be 01 */
	for (i = 1 + 2 * hl; i < len; i++) {
		uint64_t first = ~vg_ct_zero_mask64(em[i]) & ~found;

		one_ok &= ~first | vg_ct_eq_mask64(em[i], 1);
		idx = vg_ct_select64(first, i, idx);
		found |= first;
	}
	good &= found & one_ok;
	vg_rsa_ct_extract(out, len - 2 * hl - 2, em, len, (size_t)idx + 1);
	VG_CT_DECLASSIFY(&good, sizeof(good));
	if (vg_ct_barrier64(good) != 0) { /* declassified: the result */
		VG_CT_DECLASSIFY(&idx, sizeof(idx)); /* the message length */
		*outlen = len - 1 - (size_t)idx;
		rv = VG_OK;
	} else {
		vg_wipe(out, outcap);
		rv = VG_ERR_DECODE;
	}
out:
	vg_wipe(em, sizeof(em));
	return rv;
}
