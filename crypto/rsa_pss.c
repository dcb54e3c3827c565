/*
 * EMSA-PSS signatures [RFC 8017 8.1, 9.1] and MGF1 [RFC 8017 B.2.1].
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"

/* see crypto/rsa.h */
void
vg_rsa_mgf1_xor(enum vg_hash_alg alg, uint8_t *out, size_t len,
    const uint8_t *seed, size_t slen)
{
	uint8_t h[VG_HASH_MAX_LEN], c[4];
	size_t hl = vg_hash_len(alg), off, i;
	uint32_t counter = 0;
	struct vg_hash x;

	for (off = 0; off < len; off += hl, counter++) {
		c[0] = (uint8_t)(counter >> 24);
		c[1] = (uint8_t)(counter >> 16);
		c[2] = (uint8_t)(counter >> 8);
		c[3] = (uint8_t)counter;
		vg_hash_init(&x, alg);
		vg_hash_update(&x, seed, slen);
		vg_hash_update(&x, c, sizeof(c));
		vg_hash_final(&x, h);
		for (i = 0; i < hl && off + i < len; i++)
			out[off + i] ^= h[i];
	}
	vg_wipe(h, sizeof(h));
}

/* H = Hash(00 x 8 || mHash || salt) */
static void
pss_hash(enum vg_hash_alg alg, uint8_t *h, const uint8_t *mhash,
    size_t hlen, const uint8_t *salt, size_t slen)
{
	static const uint8_t zeros[8];
	struct vg_hash x;

	vg_hash_init(&x, alg);
	vg_hash_update(&x, zeros, sizeof(zeros));
	vg_hash_update(&x, mhash, hlen);
	vg_hash_update(&x, salt, slen);
	vg_hash_final(&x, h);
}

/* Checks the algorithms and lengths shared by sign and verify; sets
 * *emlen and *embits. */
static enum vg_err
pss_params(const struct vg_rsa_pub *k, enum vg_hash_alg halg,
    enum vg_hash_alg mgf, size_t slen, size_t hlen, size_t *emlen,
    unsigned *embits)
{
	if (!vg_rsa_hash_ok(halg) || !vg_rsa_hash_ok(mgf) ||
	    hlen != vg_hash_len(halg))
		return VG_ERR_ARG;
	*embits = k->n.bits - 1;
	*emlen = (*embits + 7) / 8;
	if (slen > *emlen || *emlen < hlen + slen + 2)
		return VG_ERR_LENGTH;
	return VG_OK;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_pss_sign(struct vg_rsa_key *k, enum vg_hash_alg halg,
    enum vg_hash_alg mgf, size_t slen, const uint8_t *mhash, size_t hlen,
    uint8_t *sig, size_t siglen, struct vg_rng *rng)
{
	uint8_t em[VG_RSA_MAX_BYTES], salt[VG_RSA_MAX_BYTES];
	size_t len = k->pub.len, emlen, dblen, off;
	unsigned embits;
	enum vg_err rv;

	assert(sig != NULL && mhash != NULL);
	if (siglen != len)
		return VG_ERR_LENGTH;
	rv = pss_params(&k->pub, halg, mgf, slen, hlen, &emlen, &embits);
	if (rv != VG_OK)
		return rv;
	if (rng == NULL)
		return VG_ERR_ARG;
	rv = vg_rng_generate(rng, salt, slen);
	if (rv != VG_OK)
		goto out;
	VG_CT_DECLASSIFY(salt, slen); /* public: recoverable from the signature */
	/* EM (emlen bytes, at the end of the len-byte block) =
	 * maskedDB || H || bc, DB = PS || 01 || salt */
	off = len - emlen;
	dblen = emlen - hlen - 1;
	memset(em, 0, len);
	em[off + dblen - slen - 1] = 0x01;
	memcpy(em + off + dblen - slen, salt, slen);
	pss_hash(halg, em + off + dblen, mhash, hlen, salt, slen);
	vg_rsa_mgf1_xor(mgf, em + off, dblen, em + off + dblen, hlen);
	em[off] &= (uint8_t)(0xff >> (8 * emlen - embits));
	em[len - 1] = 0xbc;
	rv = vg_rsa_private(k, sig, em, len, rng);
	VG_CT_DECLASSIFY(sig, siglen); /* a signature is public */
out:
	vg_wipe(em, sizeof(em));
	vg_wipe(salt, sizeof(salt));
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_pss_verify(const struct vg_rsa_pub *k, enum vg_hash_alg halg,
    enum vg_hash_alg mgf, size_t slen, const uint8_t *mhash, size_t hlen,
    const uint8_t *sig, size_t siglen)
{
	uint8_t em[VG_RSA_MAX_BYTES], h[VG_HASH_MAX_LEN];
	size_t len = k->len, emlen, dblen, off, i;
	unsigned embits;
	uint8_t top;
	enum vg_err rv;

	assert(sig != NULL && mhash != NULL);
	rv = pss_params(k, halg, mgf, slen, hlen, &emlen, &embits);
	if (rv == VG_ERR_LENGTH)
		return VG_ERR_AUTH; /* "inconsistent" */
	if (rv != VG_OK)
		return rv;
	if (siglen != len || vg_rsa_public(k, em, sig, len) != VG_OK)
		return VG_ERR_AUTH;
	off = len - emlen;
	dblen = emlen - hlen - 1;
	top = (uint8_t)(0xff << (8 - (8 * emlen - embits)));
	if ((off > 0 && em[0] != 0) || em[len - 1] != 0xbc ||
	    (8 * emlen > embits && (em[off] & top) != 0))
		return VG_ERR_AUTH;
	vg_rsa_mgf1_xor(mgf, em + off, dblen, em + off + dblen, hlen);
	em[off] &= (uint8_t)~top;
	for (i = 0; i < dblen - slen - 1; i++)
		if (em[off + i] != 0)
			return VG_ERR_AUTH;
	if (em[off + dblen - slen - 1] != 0x01)
		return VG_ERR_AUTH;
	pss_hash(halg, h, mhash, hlen, em + off + dblen - slen, slen);
	if (memcmp(h, em + off + dblen, hlen) != 0)
		return VG_ERR_AUTH;
	return VG_OK;
}
