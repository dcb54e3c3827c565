/*
 * PKCS#1 v1.5 [RFC 8017 7.2, 8.2, 9.2]: signatures with the DigestInfo of
 * SHA-1, SHA-2 and SHA-3 (or a caller's T), and encryption with a
 * constant-time decryption; the constant-time extraction shared with OAEP.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"

/* DigestInfo ::= SEQUENCE { AlgorithmIdentifier { oid, NULL }, OCTET
 * STRING digest }: the DER bytes before the digest [RFC 8017 9.2 note 1,
 * and the SHA-3 OIDs of RFC 8702 / NIST CSOR]. Every vg_hash_alg has a
 * row: a missing one would sign a bare hash. */
static const struct {
	uint8_t len;
	uint8_t b[19];
} digest_info[VG_HASH_COUNT] = {
	[VG_HASH_SHA1] = { 15, { 0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b,
	    0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14 } },
#define SHA2_DI(total, last, hl)                                           \
	{ 19, { 0x30, total, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, \
	    0x65, 0x03, 0x04, 0x02, last, 0x05, 0x00, 0x04, hl } }
	[VG_HASH_SHA224] = SHA2_DI(0x2d, 0x04, 0x1c),
	[VG_HASH_SHA256] = SHA2_DI(0x31, 0x01, 0x20),
	[VG_HASH_SHA384] = SHA2_DI(0x41, 0x02, 0x30),
	[VG_HASH_SHA512] = SHA2_DI(0x51, 0x03, 0x40),
	[VG_HASH_SHA3_224] = SHA2_DI(0x2d, 0x07, 0x1c),
	[VG_HASH_SHA3_256] = SHA2_DI(0x31, 0x08, 0x20),
	[VG_HASH_SHA3_384] = SHA2_DI(0x41, 0x09, 0x30),
	[VG_HASH_SHA3_512] = SHA2_DI(0x51, 0x0a, 0x40),
	[VG_HASH_SHA512_224] = SHA2_DI(0x2d, 0x05, 0x1c),
	[VG_HASH_SHA512_256] = SHA2_DI(0x31, 0x06, 0x20),
#undef SHA2_DI
};

/* see crypto/rsa_int.h */
int
vg_rsa_hash_ok(enum vg_hash_alg alg)
{
	return (unsigned)alg < VG_HASH_COUNT;
}

/* see crypto/rsa_int.h */
void
vg_rsa_ct_extract(uint8_t *out, size_t outcap, const uint8_t *buf,
    size_t len, size_t off)
{
	uint8_t t[VG_RSA_MAX_BYTES];
	size_t s, i, b;

	assert(len <= sizeof(t) && outcap <= len);
	memcpy(t, buf, len);
	for (b = 0, s = 1; s < len; b++, s <<= 1) {
		uint8_t mask = (uint8_t)(0 - ((off >> b) & 1));

		for (i = 0; i < len; i++) {
			uint8_t v = i + s < len ? t[i + s] : 0;

			t[i] ^= mask & (t[i] ^ v);
		}
	}
	/* off == len shifts everything out */
	{
		uint8_t all = (uint8_t)vg_ct_eq_mask64(off, len);

		for (i = 0; i < outcap; i++)
			out[i] = t[i] & (uint8_t)~all;
	}
	vg_wipe(t, sizeof(t));
}

/* EM = 00 01 FF .. FF 00 T (k bytes). */
static enum vg_err
emsa_pkcs1(uint8_t *em, size_t k, enum vg_hash_alg alg, const uint8_t *hash,
    size_t hlen)
{
	size_t tlen, pre = 0;

	if (alg != VG_HASH_COUNT) {
		if (!vg_rsa_hash_ok(alg) || hlen != vg_hash_len(alg))
			return VG_ERR_ARG;
		pre = digest_info[alg].len;
	}
	tlen = pre + hlen;
	if (tlen + 11 > k)
		return VG_ERR_LENGTH;
	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, k - tlen - 3);
	em[k - tlen - 1] = 0x00;
	if (pre > 0)
		memcpy(em + k - tlen, digest_info[alg].b, pre);
	if (hlen > 0)
		memcpy(em + k - hlen, hash, hlen);
	return VG_OK;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_pkcs1_sign(struct vg_rsa_key *k, enum vg_hash_alg alg,
    const uint8_t *hash, size_t hlen, uint8_t *sig, size_t siglen,
    struct vg_rng *rng)
{
	uint8_t em[VG_RSA_MAX_BYTES];
	size_t len = k->pub.len;
	enum vg_err rv;

	assert(sig != NULL && (hash != NULL || hlen == 0));
	if (siglen != len)
		return VG_ERR_LENGTH;
	rv = emsa_pkcs1(em, len, alg, hash, hlen);
	if (rv == VG_OK)
		rv = vg_rsa_private(k, sig, em, len, rng);
	VG_CT_DECLASSIFY(sig, siglen); /* a signature is public */
	vg_wipe(em, sizeof(em));
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_pkcs1_verify(const struct vg_rsa_pub *k, enum vg_hash_alg alg,
    const uint8_t *hash, size_t hlen, const uint8_t *sig, size_t siglen)
{
	uint8_t em[VG_RSA_MAX_BYTES], m[VG_RSA_MAX_BYTES];
	size_t len = k->len;
	enum vg_err rv;

	assert(sig != NULL && (hash != NULL || hlen == 0));
	rv = emsa_pkcs1(em, len, alg, hash, hlen);
	if (rv != VG_OK)
		return rv;
	if (siglen != len || vg_rsa_public(k, m, sig, len) != VG_OK ||
	    memcmp(m, em, len) != 0)
		return VG_ERR_AUTH;
	return VG_OK;
}

/* Nonzero random bytes. */
static enum vg_err
nonzero_random(uint8_t *p, size_t n, struct vg_rng *rng)
{
	size_t i;
	enum vg_err rv;

	rv = vg_rng_generate(rng, p, n);
	for (i = 0; rv == VG_OK && i < n; i++) {
		for (;;) {
			/* declassified: whether a draw is zero; a zero draw
			 * is discarded, a kept byte's value stays secret */
			uint32_t z = vg_ct_zero_mask32(p[i]);

			VG_CT_DECLASSIFY(&z, sizeof(z));
			if (z == 0 || rv != VG_OK)
				break;
			rv = vg_rng_generate(rng, p + i, 1);
		}
	}
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_pkcs1_encrypt(const struct vg_rsa_pub *k, const uint8_t *msg,
    size_t mlen, uint8_t *out, size_t outlen, struct vg_rng *rng)
{
	uint8_t em[VG_RSA_MAX_BYTES];
	size_t len = k->len;
	enum vg_err rv;

	assert(out != NULL && (msg != NULL || mlen == 0));
	if (rng == NULL)
		return VG_ERR_ARG;
	if (outlen != len || mlen + 11 > len)
		return VG_ERR_LENGTH;
	em[0] = 0x00;
	em[1] = 0x02;
	rv = nonzero_random(em + 2, len - mlen - 3, rng);
	if (rv != VG_OK)
		goto out;
	em[len - mlen - 1] = 0x00;
	if (mlen > 0)
		memcpy(em + len - mlen, msg, mlen);
	rv = vg_rsa_public(k, out, em, len);
out:
	vg_wipe(em, sizeof(em));
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_pkcs1_decrypt(struct vg_rsa_key *k, const uint8_t *ct, size_t ctlen,
    uint8_t *out, size_t outcap, size_t *outlen, struct vg_rng *rng)
{
	uint8_t em[VG_RSA_MAX_BYTES];
	size_t len = k->pub.len, i;
	uint64_t good, found = 0, idx = 0;
	enum vg_err rv;

	assert(ct != NULL && out != NULL && outlen != NULL);
	*outlen = 0;
	if (outcap < len - 11)
		return VG_ERR_LENGTH;
	if (ctlen != len)
		return VG_ERR_DECODE;
	rv = vg_rsa_private(k, em, ct, len, rng);
	if (rv == VG_ERR_DECODE) /* c >= n: public */
		memset(em, 0xff, len);
	else if (rv != VG_OK)
		goto out;

	/* 00 02 PS (at least 8 non-zero bytes) 00 M */
	good = vg_ct_zero_mask64(em[0]) & vg_ct_eq_mask64(em[1], 2);
	for (i = 2; i < len; i++) {
		uint64_t z = vg_ct_zero_mask64(em[i]) & ~found;

		idx = vg_ct_select64(z, i, idx);
		found |= z;
	}
	good &= found & ~vg_ct_lt_mask64(idx, 10);
	vg_rsa_ct_extract(out, len - 11, em, len, (size_t)idx + 1);
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
