/*
 * Hash-based key derivation: PBKDF2 [RFC 8018 §5.2], HKDF [RFC 5869] and
 * the ANSI X9.63 KDF [SEC1 §3.6.1]. PBKDF2 and HKDF key HMAC once and
 * clone the keyed state (struct copy) for every PRF call, so the password
 * or PRK is never processed again.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/hash.h"

/*
 * see crypto/hash.h
 * Per iteration: clone the keyed HMAC, absorb U (hlen bytes), finish; that
 * is one inner and one outer compression for SHA-1/SHA-2, since the pads
 * were absorbed at init.
 */
enum vg_err
vg_pbkdf2_hmac(enum vg_hash_alg alg, const void *pw, size_t pwlen,
    const void *salt, size_t saltlen, uint32_t iterations, uint8_t *out,
    size_t outlen)
{
	struct vg_hmac key, m;
	uint8_t u[VG_HASH_MAX_LEN], t[VG_HASH_MAX_LEN], ctr[4];
	size_t hl = vg_hash_len(alg), rem, n, j;
	uint32_t blk, it;
	enum vg_err err = VG_OK;

	assert(pw != NULL || pwlen == 0);
	assert(salt != NULL || saltlen == 0);
	assert(out != NULL || outlen == 0);
	if (hl == 0 || iterations == 0) {
		err = VG_ERR_ARG;
		goto out;
	}
	/* dkLen <= (2^32 - 1) * hLen [RFC 8018 §5.2 step 1] */
	if ((uint64_t)outlen > (uint64_t)0xffffffffu * hl) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	if (outlen == 0)
		goto out;

	vg_hmac_init(&key, alg, pw, pwlen);
	for (blk = 1, rem = outlen; rem > 0; blk++, rem -= n, out += n) {
		n = rem < hl ? rem : hl;
		ctr[0] = (uint8_t)(blk >> 24);
		ctr[1] = (uint8_t)(blk >> 16);
		ctr[2] = (uint8_t)(blk >> 8);
		ctr[3] = (uint8_t)blk;
		m = key;
		vg_hmac_update(&m, salt, saltlen);
		vg_hmac_update(&m, ctr, sizeof(ctr));
		vg_hmac_final(&m, u);
		memcpy(t, u, hl);
		for (it = 1; it < iterations; it++) {
			m = key;
			vg_hmac_update(&m, u, hl);
			vg_hmac_final(&m, u);
			for (j = 0; j < hl; j++)
				t[j] ^= u[j];
		}
		memcpy(out, t, n);
	}
	vg_wipe(&key, sizeof(key));
	vg_wipe(u, sizeof(u));
	vg_wipe(t, sizeof(t));
out:
	return err;
}

/* see crypto/hash.h */
void
vg_hkdf_extract(enum vg_hash_alg alg, const void *salt, size_t saltlen,
    const void *ikm, size_t ikmlen, uint8_t *prk)
{
	/* An empty salt is HMAC's all-zero key of block length, the same
	 * key as HashLen zero bytes [RFC 5869 §2.2]. */
	vg_hmac(alg, salt, saltlen, ikm, ikmlen, prk);
}

/* see crypto/hash.h */
enum vg_err
vg_hkdf_expand(enum vg_hash_alg alg, const uint8_t *prk, size_t prklen,
    const void *info, size_t infolen, uint8_t *out, size_t outlen)
{
	struct vg_hmac key, m;
	uint8_t t[VG_HASH_MAX_LEN];
	size_t hl = vg_hash_len(alg), rem, n;
	uint8_t i;
	enum vg_err err = VG_OK;

	assert(prk != NULL || prklen == 0);
	assert(info != NULL || infolen == 0);
	assert(out != NULL || outlen == 0);
	if (hl == 0) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (outlen > 255 * hl) { /* [RFC 5869 §2.3] */
		err = VG_ERR_LENGTH;
		goto out;
	}
	if (outlen == 0)
		goto out;

	/* T(i) = HMAC(PRK, T(i-1) | info | i), T(0) empty */
	vg_hmac_init(&key, alg, prk, prklen);
	for (i = 1, rem = outlen; rem > 0; i++, rem -= n, out += n) {
		n = rem < hl ? rem : hl;
		m = key;
		if (i > 1)
			vg_hmac_update(&m, t, hl);
		vg_hmac_update(&m, info, infolen);
		vg_hmac_update(&m, &i, 1);
		vg_hmac_final(&m, t);
		memcpy(out, t, n);
	}
	vg_wipe(&key, sizeof(key));
	vg_wipe(t, sizeof(t));
out:
	return err;
}

/* see crypto/hash.h */
enum vg_err
vg_hkdf(enum vg_hash_alg alg, const void *salt, size_t saltlen,
    const void *ikm, size_t ikmlen, const void *info, size_t infolen,
    uint8_t *out, size_t outlen)
{
	uint8_t prk[VG_HASH_MAX_LEN];
	size_t hl = vg_hash_len(alg);
	enum vg_err err;

	if (hl == 0) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (outlen > 255 * hl) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	vg_hkdf_extract(alg, salt, saltlen, ikm, ikmlen, prk);
	err = vg_hkdf_expand(alg, prk, hl, info, infolen, out, outlen);
	vg_wipe(prk, sizeof(prk));
out:
	return err;
}

/* see crypto/hash.h */
void
vg_x963_kdf(enum vg_hash_alg alg, const uint8_t *z, size_t zlen,
    const uint8_t *info, size_t infolen, uint8_t *out, size_t outlen)
{
	uint8_t block[VG_HASH_MAX_LEN], ctr[4];
	size_t hlen = vg_hash_len(alg), n;
	uint32_t i;
	struct vg_hash h;

	for (i = 1; outlen > 0; i++) {
		ctr[0] = (uint8_t)(i >> 24);
		ctr[1] = (uint8_t)(i >> 16);
		ctr[2] = (uint8_t)(i >> 8);
		ctr[3] = (uint8_t)i;
		vg_hash_init(&h, alg);
		vg_hash_update(&h, z, zlen);
		vg_hash_update(&h, ctr, sizeof(ctr));
		vg_hash_update(&h, info, infolen);
		vg_hash_final(&h, block);
		n = outlen < hlen ? outlen : hlen;
		memcpy(out, block, n);
		out += n;
		outlen -= n;
	}
	vg_wipe(block, sizeof(block));
}
