/*
 * AES-GCM [SP 800-38D]: one-shot encryption and decryption, and
 * multi-part encryption, on the key's table: counter mode through the
 * aes_ctr32 kernel and GHASH through ghash_update with the hash key that
 * vg_aes_init_k expanded (powers of H precomputed), GCM_CHUNK blocks at a
 * time so that the hash reads each chunk while it is in cache. The
 * one-shot calls copy neither the key nor any table.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/aes_int.h"
#include "crypto/ct.h"

/* The key k with its table and hash key: k itself when vg_aes_init_k
 * made it, otherwise a copy in *tmp completed for the global table (a
 * schedule filled by a kernel directly). Returns the key to use. */
static const struct vg_aes_key *
gcm_key(const struct vg_aes_key *k, struct vg_aes_key *tmp)
{
	uint8_t h[16] = { 0 };

	if (k->kt != NULL)
		return k;
	*tmp = *k;
	tmp->kt = vg_kernels();
	tmp->kt->aes_encrypt(tmp, h, h, 1);
	tmp->kt->ghash_init(&tmp->gh, h);
	vg_wipe(h, sizeof(h));
	return tmp;
}

/* GHASH over len bytes into y, the last partial block padded with zeros. */
static void
gcm_hash(const struct vg_aes_key *k, uint8_t y[16], const uint8_t *p,
    size_t len)
{
	const struct vg_kernels *kt = k->kt;
	size_t full = len / 16, rem = len % 16;

	if (full > 0)
		kt->ghash_update(y, &k->gh, p, full);
	if (rem > 0) {
		uint8_t last[16] = { 0 };

		memcpy(last, p + 16 * full, rem);
		kt->ghash_update(y, &k->gh, last, 1);
		vg_wipe(last, sizeof(last));
	}
}

/* J0 [SP 800-38D §7.1 step 2] into j0, the first counter block inc32(J0)
 * into cb, and the hash of the AAD into y. */
static void
gcm_start(const struct vg_aes_key *k, const uint8_t *iv, size_t ivlen,
    const uint8_t *aad, size_t aadlen, uint8_t j0[16], uint8_t cb[16],
    uint8_t y[16])
{
	memset(y, 0, 16);
	if (ivlen == 12) {
		memcpy(j0, iv, 12);
		vg_aes_store_be32(j0 + 12, 1);
	} else {
		uint8_t lens[16] = { 0 };

		memset(j0, 0, 16);
		gcm_hash(k, j0, iv, ivlen);
		vg_aes_store_be64(lens + 8, (uint64_t)ivlen * 8);
		k->kt->ghash_update(j0, &k->gh, lens, 1);
	}
	memcpy(cb, j0, 16);
	vg_aes_store_be32(cb + 12, vg_aes_load_be32(j0 + 12) + 1);
	gcm_hash(k, y, aad, aadlen);
}

/* Encrypts (hash_out) or decrypts whole blocks with the counter block cb,
 * hashing the ciphertext into y chunk by chunk while it is in cache. */
#define GCM_CHUNK 256
static void
gcm_blocks(const struct vg_aes_key *k, uint8_t cb[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t nblocks, int hash_out)
{
	const struct vg_kernels *kt = k->kt;

	if (hash_out && kt->aes_gcm_enc != NULL) {
		if (nblocks > 0)
			kt->aes_gcm_enc(k, out, in, nblocks, cb, y);
		return;
	}
	while (nblocks > 0) {
		size_t n = nblocks < GCM_CHUNK ? nblocks : GCM_CHUNK;

		if (!hash_out)
			kt->ghash_update(y, &k->gh, in, n);
		kt->aes_ctr32(k, out, in, n, cb);
		if (hash_out)
			kt->ghash_update(y, &k->gh, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

/* The tag E_K(J0) ^ GHASH(... || lens) into t. */
static void
gcm_tag(const struct vg_aes_key *k, const uint8_t j0[16], uint8_t y[16],
    uint64_t aadlen, uint64_t len, uint8_t t[16])
{
	uint8_t lens[16];

	vg_aes_store_be64(lens, aadlen * 8);
	vg_aes_store_be64(lens + 8, len * 8);
	k->kt->ghash_update(y, &k->gh, lens, 1);
	k->kt->aes_encrypt(k, t, j0, 1);
	vg_aes_xor(t, t, y, 16);
}

/* Sets up the multi-part state g. */
static void
gcm_begin(struct vg_aes_gcm *g, const struct vg_aes_key *k,
    const uint8_t *iv, size_t ivlen, const uint8_t *aad, size_t aadlen)
{
	uint8_t cb[16];

	memset(g, 0, sizeof(*g));
	if (k->kt != NULL)
		g->key = *k;
	else
		gcm_key(k, &g->key);
	memcpy(g->h, g->key.gh.h, 16);
	gcm_start(&g->key, iv, ivlen, aad, aadlen, g->j0, cb, g->y);
	g->aadlen = aadlen;
	g->ctr = vg_aes_load_be32(cb + 12);
}

/* Encrypts len bytes and hashes the ciphertext; a partial block at either
 * end goes through g->ks and g->part. No limits are checked here. */
static void
gcm_update(struct vg_aes_gcm *g, const uint8_t *in, size_t len, uint8_t *out)
{
	const struct vg_aes_key *k = &g->key;
	size_t pos = (size_t)(g->len % 16), full;
	uint8_t cb[16];

	g->len += len;
	if (pos != 0) {
		size_t n = 16 - pos < len ? 16 - pos : len;

		vg_aes_xor(out, in, g->ks + pos, n);
		memcpy(g->part + pos, out, n);
		if (pos + n == 16)
			k->kt->ghash_update(g->y, &k->gh, g->part, 1);
		in += n;
		out += n;
		len -= n;
	}
	memcpy(cb, g->j0, 12);
	vg_aes_store_be32(cb + 12, g->ctr);
	full = len / 16;
	gcm_blocks(k, cb, g->y, in, out, full, 1);
	in += 16 * full;
	out += 16 * full;
	len -= 16 * full;
	if (len > 0) {
		/* A partial block: keep its key stream for the next call. */
		memset(g->ks, 0, 16);
		k->kt->aes_ctr32(k, g->ks, g->ks, 1, cb);
		vg_aes_xor(out, in, g->ks, len);
		memcpy(g->part, out, len);
	}
	g->ctr = vg_aes_load_be32(cb + 12);
}

/* Hashes the partial block an update left pending, if any. */
static void
gcm_flush(struct vg_aes_gcm *g)
{
	size_t pos = (size_t)(g->len % 16);

	if (pos != 0) {
		memset(g->part + pos, 0, 16 - pos);
		g->key.kt->ghash_update(g->y, &g->key.gh, g->part, 1);
	}
}

/* The last partial block (rem < 16 bytes) of a one-shot call: encrypted
 * or decrypted with the counter block cb, its ciphertext hashed into y
 * when hash_out (decryption hashes the ciphertext before). */
static void
gcm_last(const struct vg_aes_key *k, uint8_t cb[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t rem, int hash_out)
{
	uint8_t b[16] = { 0 };

	memcpy(b, in, rem);
	k->kt->aes_ctr32(k, b, b, 1, cb);
	memcpy(out, b, rem);
	if (hash_out) {
		memset(b + rem, 0, 16 - rem);
		k->kt->ghash_update(y, &k->gh, b, 1);
	}
	vg_wipe(b, sizeof(b));
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
	struct vg_aes_key tmp;
	uint8_t j0[16], cb[16], y[16], t[16];
	enum vg_err err;

	err = gcm_check_init(k, k, iv, ivlen, aad, aadlen);
	if (err == VG_OK)
		err = gcm_check_data(in, len, out, tag, taglen);
	if (err != VG_OK)
		goto out;
	k = gcm_key(k, &tmp);
	gcm_start(k, iv, ivlen, aad, aadlen, j0, cb, y);
	gcm_blocks(k, cb, y, in, out, len / 16, 1);
	if (len % 16 != 0)
		gcm_last(k, cb, y, in + len - len % 16, out + len - len % 16,
		    len % 16, 1);
	gcm_tag(k, j0, y, aadlen, len, t);
	memcpy(tag, t, taglen);
	vg_wipe(t, sizeof(t));
	vg_wipe(y, sizeof(y));
	vg_wipe(j0, sizeof(j0));
	vg_wipe(cb, sizeof(cb));
	if (k == &tmp)
		vg_wipe(&tmp, sizeof(tmp));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_gcm_decrypt(const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen, const uint8_t *in,
    size_t len, uint8_t *out, const uint8_t *tag, size_t taglen)
{
	struct vg_aes_key tmp;
	uint8_t j0[16], cb[16], y[16], t[16];
	uint32_t ok;
	enum vg_err err;

	err = gcm_check_init(k, k, iv, ivlen, aad, aadlen);
	if (err == VG_OK)
		err = gcm_check_data(in, len, out, tag, taglen);
	if (err != VG_OK)
		goto out;
	k = gcm_key(k, &tmp);
	gcm_start(k, iv, ivlen, aad, aadlen, j0, cb, y);
	/* Authenticate first, so that no plaintext is ever written for a
	 * forged message. */
	gcm_hash(k, y, in, len);
	gcm_tag(k, j0, y, aadlen, len, t);
	ok = vg_ct_memeq(t, tag, taglen);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (ok) {
		k->kt->aes_ctr32(k, out, in, len / 16, cb);
		if (len % 16 != 0)
			gcm_last(k, cb, y, in + len - len % 16,
			    out + len - len % 16, len % 16, 0);
	} else {
		if (len > 0)
			vg_wipe(out, len);
		err = VG_ERR_AUTH;
	}
	vg_wipe(t, sizeof(t));
	vg_wipe(y, sizeof(y));
	vg_wipe(j0, sizeof(j0));
	vg_wipe(cb, sizeof(cb));
	if (k == &tmp)
		vg_wipe(&tmp, sizeof(tmp));
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
	gcm_tag(&g->key, g->j0, g->y, g->aadlen, g->len, t);
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
