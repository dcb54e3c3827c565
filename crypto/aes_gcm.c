/*
 * AES-GCM [SP 800-38D]: one-shot encryption and decryption, and
 * multi-part encryption. Counter blocks go to the AES kernel
 * VG_AES_CHUNK_BLOCKS at a time and each chunk is hashed while it is still
 * in cache; GHASH goes to its kernel as many blocks as there are.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/aes_int.h"
#include "crypto/ct.h"

/* GHASH over len bytes into y, the last partial block padded with zeros. */
static void
gcm_hash(const struct vg_kernels *kt, const uint8_t h[16], uint8_t y[16],
    const uint8_t *p, size_t len)
{
	size_t full = len / 16, rem = len % 16;

	if (full > 0)
		kt->ghash(y, h, p, full);
	if (rem > 0) {
		uint8_t last[16] = { 0 };

		memcpy(last, p + 16 * full, rem);
		kt->ghash(y, h, last, 1);
		vg_wipe(last, sizeof(last));
	}
}

/* Sets up g: a copy of the key, H, J0 [SP 800-38D §7.1 steps 1-2], the
 * hash of the AAD, and the first counter value inc32(J0). */
static void
gcm_begin(struct vg_aes_gcm *g, const struct vg_aes_key *k,
    const uint8_t *iv, size_t ivlen, const uint8_t *aad, size_t aadlen)
{
	const struct vg_kernels *kt = vg_aes_kt(k);

	memset(g, 0, sizeof(*g));
	g->key = *k;
	kt->aes_encrypt(&g->key, g->h, g->h, 1);
	if (ivlen == 12) {
		memcpy(g->j0, iv, 12);
		vg_aes_store_be32(g->j0 + 12, 1);
	} else {
		uint8_t lens[16] = { 0 };

		gcm_hash(kt, g->h, g->j0, iv, ivlen);
		vg_aes_store_be64(lens + 8, (uint64_t)ivlen * 8);
		kt->ghash(g->j0, g->h, lens, 1);
	}
	gcm_hash(kt, g->h, g->y, aad, aadlen);
	g->aadlen = aadlen;
	g->ctr = vg_aes_load_be32(g->j0 + 12) + 1;
}

/* CTR over len bytes from the counter g->ctr on (the last block may be
 * partial), advancing g->ctr by the blocks used. */
static void
gcm_ctr(struct vg_aes_gcm *g, const uint8_t *in, uint8_t *out, size_t len)
{
	const struct vg_kernels *kt = vg_aes_kt(&g->key);
	uint8_t buf[VG_AES_CHUNK_BLOCKS * 16];

	while (len > 0) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);
		size_t nb = (n + 15) / 16, i;

		/* The counter is secret when J0 was hashed from a non-96-bit
		 * IV; the barrier on i stops the compiler from stepping
		 * ctr + i as the loop variable and testing it at the exit. */
		for (i = 0; i < nb; i++) {
			memcpy(buf + 16 * i, g->j0, 12);
			vg_aes_store_be32(buf + 16 * i + 12,
			    g->ctr + (uint32_t)vg_ct_barrier64(i));
		}
		g->ctr += (uint32_t)nb;
		kt->aes_encrypt(&g->key, buf, buf, nb);
		vg_aes_xor(out, in, buf, n);
		in += n;
		out += n;
		len -= n;
	}
	vg_wipe(buf, sizeof(buf));
}

/* Encrypts len bytes and hashes the ciphertext; a partial block at either
 * end goes through g->ks and g->part. No limits are checked here. */
static void
gcm_update(struct vg_aes_gcm *g, const uint8_t *in, size_t len, uint8_t *out)
{
	const struct vg_kernels *kt = vg_aes_kt(&g->key);
	size_t pos = (size_t)(g->len % 16), full;

	g->len += len;
	if (pos != 0) {
		size_t n = 16 - pos < len ? 16 - pos : len;

		vg_aes_xor(out, in, g->ks + pos, n);
		memcpy(g->part + pos, out, n);
		if (pos + n == 16)
			kt->ghash(g->y, g->h, g->part, 1);
		in += n;
		out += n;
		len -= n;
	}
	/* Whole blocks: a chunk encrypted, then hashed while in cache. */
	full = len - len % 16;
	while (full > 0) {
		size_t n = full < 16 * VG_AES_CHUNK_BLOCKS ? full :
		    16 * VG_AES_CHUNK_BLOCKS;

		gcm_ctr(g, in, out, n);
		kt->ghash(g->y, g->h, out, n / 16);
		in += n;
		out += n;
		len -= n;
		full -= n;
	}
	if (len > 0) {
		/* A partial block: keep its key stream for the next call. */
		memcpy(g->ks, g->j0, 12);
		vg_aes_store_be32(g->ks + 12, g->ctr);
		g->ctr++;
		kt->aes_encrypt(&g->key, g->ks, g->ks, 1);
		vg_aes_xor(out, in, g->ks, len);
		memcpy(g->part, out, len);
	}
}

/* Hashes the partial block an update left pending, if any. */
static void
gcm_flush(struct vg_aes_gcm *g)
{
	size_t pos = (size_t)(g->len % 16);

	if (pos != 0) {
		memset(g->part + pos, 0, 16 - pos);
		vg_aes_kt(&g->key)->ghash(g->y, g->h, g->part, 1);
	}
}

/* Hashes the lengths block, every byte of ciphertext being hashed, and
 * writes the full tag E_K(J0) ^ GHASH into t. */
static void
gcm_tag(struct vg_aes_gcm *g, uint8_t t[16])
{
	const struct vg_kernels *kt = vg_aes_kt(&g->key);
	uint8_t lens[16];

	vg_aes_store_be64(lens, g->aadlen * 8);
	vg_aes_store_be64(lens + 8, g->len * 8);
	kt->ghash(g->y, g->h, lens, 1);
	kt->aes_encrypt(&g->key, t, g->j0, 1);
	vg_aes_xor(t, t, g->y, 16);
}

/* The checks of an operation's start: pointers, IV and AAD lengths. */
static enum vg_err
gcm_check_init(const void *g, const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen)
{
	if (g == NULL || k == NULL || (iv == NULL && ivlen > 0) ||
	    (aad == NULL && aadlen > 0))
		return VG_ERR_ARG;
	if (ivlen == 0 || (uint64_t)ivlen >= ((uint64_t)1 << 61) ||
	    (uint64_t)aadlen >= ((uint64_t)1 << 61))
		return VG_ERR_LENGTH;
	return VG_OK;
}

/* The checks of a one-shot call beyond gcm_check_init. */
static enum vg_err
gcm_check_data(const uint8_t *in, size_t len, const uint8_t *out,
    const uint8_t *tag, size_t taglen)
{
	if (tag == NULL || ((in == NULL || out == NULL) && len > 0))
		return VG_ERR_ARG;
	if ((uint64_t)len > VG_AES_GCM_MAX_LEN ||
	    taglen < VG_AES_GCM_MIN_TAG || taglen > VG_AES_GCM_MAX_TAG)
		return VG_ERR_LENGTH;
	return VG_OK;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_gcm_encrypt(const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen, const uint8_t *in,
    size_t len, uint8_t *out, uint8_t *tag, size_t taglen)
{
	struct vg_aes_gcm g;
	uint8_t t[16];
	enum vg_err err;

	err = gcm_check_init(&g, k, iv, ivlen, aad, aadlen);
	if (err == VG_OK)
		err = gcm_check_data(in, len, out, tag, taglen);
	if (err != VG_OK)
		goto out;
	gcm_begin(&g, k, iv, ivlen, aad, aadlen);
	gcm_update(&g, in, len, out);
	gcm_flush(&g);
	gcm_tag(&g, t);
	memcpy(tag, t, taglen);
	vg_wipe(t, sizeof(t));
	vg_wipe(&g, sizeof(g));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_gcm_decrypt(const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen, const uint8_t *in,
    size_t len, uint8_t *out, const uint8_t *tag, size_t taglen)
{
	struct vg_aes_gcm g;
	uint8_t t[16];
	uint32_t ok;
	enum vg_err err;

	err = gcm_check_init(&g, k, iv, ivlen, aad, aadlen);
	if (err == VG_OK)
		err = gcm_check_data(in, len, out, tag, taglen);
	if (err != VG_OK)
		goto out;
	gcm_begin(&g, k, iv, ivlen, aad, aadlen);
	/* Authenticate first, so that no plaintext is ever written for a
	 * forged message. */
	gcm_hash(vg_aes_kt(k), g.h, g.y, in, len);
	g.len = len;
	gcm_tag(&g, t);
	ok = vg_ct_memeq(t, tag, taglen);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (ok) {
		gcm_ctr(&g, in, out, len);
	} else {
		if (len > 0)
			vg_wipe(out, len);
		err = VG_ERR_AUTH;
	}
	vg_wipe(t, sizeof(t));
	vg_wipe(&g, sizeof(g));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_gcm_encrypt_init(struct vg_aes_gcm *g, const struct vg_aes_key *k,
    const uint8_t *iv, size_t ivlen, const uint8_t *aad, size_t aadlen)
{
	enum vg_err err;

	err = gcm_check_init(g, k, iv, ivlen, aad, aadlen);
	if (err == VG_OK)
		gcm_begin(g, k, iv, ivlen, aad, aadlen);
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_gcm_encrypt_update(struct vg_aes_gcm *g, const uint8_t *in,
    size_t len, uint8_t *out)
{
	enum vg_err err = VG_OK;

	if (g == NULL || ((in == NULL || out == NULL) && len > 0))
		err = VG_ERR_ARG;
	else if ((uint64_t)len > VG_AES_GCM_MAX_LEN - g->len)
		err = VG_ERR_LENGTH;
	else if (len > 0)
		gcm_update(g, in, len, out);
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_gcm_encrypt_final(struct vg_aes_gcm *g, uint8_t *tag, size_t taglen)
{
	uint8_t t[16];
	enum vg_err err = VG_OK;

	if (g == NULL || tag == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (taglen < VG_AES_GCM_MIN_TAG || taglen > VG_AES_GCM_MAX_TAG) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	gcm_flush(g);
	gcm_tag(g, t);
	memcpy(tag, t, taglen);
	vg_wipe(t, sizeof(t));
	vg_wipe(g, sizeof(*g));
out:
	return err;
}

/* see crypto/aes.h */
void
vg_aes_gcm_wipe(struct vg_aes_gcm *g)
{
	if (g != NULL)
		vg_wipe(g, sizeof(*g));
}
