/*
 * AES modes on top of the kernel table: key set-up, GCM [SP 800-38D], key
 * wrap [RFC 3394] and key wrap with padding [RFC 5649]. The block cipher
 * and GHASH are only reached through vg_kernels(); nothing here indexes
 * memory or branches on secret data.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"

/* Counter blocks encrypted per kernel call in GCM. */
#define GCM_CHUNK_BLOCKS 32

static const uint8_t kw_iv[8] = {
	0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6
};
#define KWP_AIV 0xa65959a6u

static inline uint32_t
load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void
store_be32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

static inline void
store_be64(uint8_t *p, uint64_t x)
{
	store_be32(p, (uint32_t)(x >> 32));
	store_be32(p + 4, (uint32_t)x);
}

/* out = a ^ b over n bytes (out may equal a or b). */
static void
xor_bytes(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		x ^= y;
		memcpy(out + i, &x, 8);
	}
	for (; i < n; i++)
		out[i] = a[i] ^ b[i];
}

/* see crypto/aes.h */
enum vg_err
vg_aes_init(struct vg_aes_key *k, const uint8_t *key, size_t len)
{
	enum vg_err err = VG_OK;

	if (k == NULL || key == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len != 16 && len != 24 && len != 32) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	if (vg_kernels()->aes_setkey(k, key, len) != 0)
		err = VG_ERR_LENGTH;
out:
	return err;
}

/* see crypto/aes.h */
void
vg_aes_key_wipe(struct vg_aes_key *k)
{
	if (k != NULL)
		vg_wipe(k, sizeof(*k));
}

/* ------------------------------------------------------------------ GCM */

/* Hash state of one GCM operation: secrets, wiped by gcm_end. */
struct gcm {
	const struct vg_kernels *kt;
	const struct vg_aes_key *key;
	uint8_t h[16];  /* hash key E_K(0^128) */
	uint8_t j0[16]; /* pre-counter block */
	uint8_t y[16];  /* running GHASH */
	uint8_t buf[GCM_CHUNK_BLOCKS * 16]; /* counter blocks, key stream */
};

/* GHASH over len bytes, the last partial block padded with zeros. */
static void
gcm_hash(struct gcm *g, uint8_t y[16], const uint8_t *p, size_t len)
{
	size_t full = len / 16, rem = len % 16;

	if (full > 0)
		g->kt->ghash(y, g->h, p, full);
	if (rem > 0) {
		uint8_t last[16] = { 0 };

		memcpy(last, p + 16 * full, rem);
		g->kt->ghash(y, g->h, last, 1);
		vg_wipe(last, sizeof(last));
	}
}

static void
gcm_begin(struct gcm *g, const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen)
{
	g->kt = vg_kernels();
	g->key = k;
	memset(g->h, 0, 16);
	g->kt->aes_encrypt(k, g->h, g->h, 1);
	/* J0 [SP 800-38D §7.1 step 2]. */
	if (ivlen == 12) {
		memcpy(g->j0, iv, 12);
		store_be32(g->j0 + 12, 1);
	} else {
		uint8_t lens[16] = { 0 };

		memset(g->j0, 0, 16);
		gcm_hash(g, g->j0, iv, ivlen);
		store_be64(lens + 8, (uint64_t)ivlen * 8);
		g->kt->ghash(g->j0, g->h, lens, 1);
	}
	memset(g->y, 0, 16);
	gcm_hash(g, g->y, aad, aadlen);
}

/* CTR over len bytes: the counter of block i (from 0) is inc32^(ctr0 + i)
 * of J0, len a multiple of 16 except for the last call. Returns the next
 * counter value. */
static uint32_t
gcm_ctr(struct gcm *g, uint32_t ctr, const uint8_t *in, uint8_t *out,
    size_t len)
{
	while (len > 0) {
		size_t n = len < sizeof(g->buf) ? len : sizeof(g->buf);
		size_t nb = (n + 15) / 16, i;

		/* The counter is secret when J0 was hashed from a non-96-bit
		 * IV; the barrier on i stops the compiler from stepping
		 * ctr + i as the loop variable and testing it at the exit. */
		for (i = 0; i < nb; i++) {
			memcpy(g->buf + 16 * i, g->j0, 12);
			store_be32(g->buf + 16 * i + 12,
			    ctr + (uint32_t)vg_ct_barrier64(i));
		}
		ctr += (uint32_t)nb;
		g->kt->aes_encrypt(g->key, g->buf, g->buf, nb);
		xor_bytes(out, in, g->buf, n);
		in += n;
		out += n;
		len -= n;
	}
	return ctr;
}

/* Finishes the hash (lengths block) and writes the full tag
 * E_K(J0) ^ GHASH into t. */
static void
gcm_tag(struct gcm *g, size_t aadlen, size_t len, uint8_t t[16])
{
	uint8_t lens[16];

	store_be64(lens, (uint64_t)aadlen * 8);
	store_be64(lens + 8, (uint64_t)len * 8);
	g->kt->ghash(g->y, g->h, lens, 1);
	g->kt->aes_encrypt(g->key, t, g->j0, 1);
	xor_bytes(t, t, g->y, 16);
}

static void
gcm_end(struct gcm *g)
{
	vg_wipe(g, sizeof(*g));
}

static enum vg_err
gcm_check(const struct vg_aes_key *k, const uint8_t *iv, size_t ivlen,
    const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
    const uint8_t *out, const uint8_t *tag, size_t taglen)
{
	if (k == NULL || tag == NULL || (iv == NULL && ivlen > 0) ||
	    (aad == NULL && aadlen > 0) ||
	    ((in == NULL || out == NULL) && len > 0))
		return VG_ERR_ARG;
	if (ivlen == 0 || (uint64_t)ivlen >= ((uint64_t)1 << 61) ||
	    (uint64_t)aadlen >= ((uint64_t)1 << 61) ||
	    (uint64_t)len > VG_AES_GCM_MAX_LEN ||
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
	struct gcm g;
	uint8_t t[16];
	uint32_t ctr;
	size_t done = 0;
	enum vg_err err;

	err = gcm_check(k, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
	if (err != VG_OK)
		goto out;
	gcm_begin(&g, k, iv, ivlen, aad, aadlen);
	ctr = load_be32(g.j0 + 12) + 1;
	/* Encrypt a chunk, then hash it while it is still in cache. */
	while (done < len) {
		size_t n = len - done;

		if (n > sizeof(g.buf))
			n = sizeof(g.buf);
		ctr = gcm_ctr(&g, ctr, in + done, out + done, n);
		gcm_hash(&g, g.y, out + done, n);
		done += n;
	}
	gcm_tag(&g, aadlen, len, t);
	memcpy(tag, t, taglen);
	vg_wipe(t, sizeof(t));
	gcm_end(&g);
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_gcm_decrypt(const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen, const uint8_t *in,
    size_t len, uint8_t *out, const uint8_t *tag, size_t taglen)
{
	struct gcm g;
	uint8_t t[16];
	uint32_t ok;
	enum vg_err err;

	err = gcm_check(k, iv, ivlen, aad, aadlen, in, len, out, tag, taglen);
	if (err != VG_OK)
		goto out;
	gcm_begin(&g, k, iv, ivlen, aad, aadlen);
	/* Authenticate first, so that no plaintext is ever written for a
	 * forged message. */
	gcm_hash(&g, g.y, in, len);
	gcm_tag(&g, aadlen, len, t);
	ok = vg_ct_memeq(t, tag, taglen);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (ok) {
		gcm_ctr(&g, load_be32(g.j0 + 12) + 1, in, out, len);
	} else {
		if (len > 0)
			vg_wipe(out, len);
		err = VG_ERR_AUTH;
	}
	vg_wipe(t, sizeof(t));
	gcm_end(&g);
out:
	return err;
}

/* ------------------------------------------------------------- key wrap */

/*
 * W [RFC 3394 §2.2.1, SP 800-38F Alg. 1] on the n >= 2 semiblocks at r,
 * with the 8-byte register a holding the initial value on entry and the
 * integrity check value on return.
 */
static void
kw_wrap_core(const struct vg_kernels *kt, const struct vg_aes_key *k,
    uint8_t a[8], uint8_t *r, size_t n)
{
	uint8_t b[16], t[8];
	uint64_t step = 0;
	size_t i;
	unsigned j;

	for (j = 0; j < 6; j++) {
		for (i = 0; i < n; i++) {
			memcpy(b, a, 8);
			memcpy(b + 8, r + 8 * i, 8);
			kt->aes_encrypt(k, b, b, 1);
			store_be64(t, ++step);
			xor_bytes(a, b, t, 8);
			memcpy(r + 8 * i, b + 8, 8);
		}
	}
	vg_wipe(b, sizeof(b));
}

/* W^-1 [RFC 3394 §2.2.2, SP 800-38F Alg. 2], the inverse of kw_wrap_core:
 * a holds the first semiblock of the ciphertext on entry and the recovered
 * initial value on return. */
static void
kw_unwrap_core(const struct vg_kernels *kt, const struct vg_aes_key *k,
    uint8_t a[8], uint8_t *r, size_t n)
{
	uint8_t b[16], t[8];
	uint64_t step = 6 * (uint64_t)n;
	size_t i;
	unsigned j;

	for (j = 0; j < 6; j++) {
		for (i = n; i > 0; i--) {
			store_be64(t, step--);
			xor_bytes(b, a, t, 8);
			memcpy(b + 8, r + 8 * (i - 1), 8);
			kt->aes_decrypt(k, b, b, 1);
			memcpy(a, b, 8);
			memcpy(r + 8 * (i - 1), b + 8, 8);
		}
	}
	vg_wipe(b, sizeof(b));
}

/* see crypto/aes.h */
enum vg_err
vg_aes_kw_wrap(const struct vg_aes_key *k, const uint8_t *in, size_t len,
    uint8_t *out)
{
	uint8_t a[8];
	enum vg_err err = VG_OK;

	if (k == NULL || in == NULL || out == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len % 8 != 0 || len < 16 || len > SIZE_MAX - 16) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	memmove(out + 8, in, len);
	memcpy(a, kw_iv, 8);
	kw_wrap_core(vg_kernels(), k, a, out + 8, len / 8);
	memcpy(out, a, 8);
	vg_wipe(a, sizeof(a));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_kw_unwrap(const struct vg_aes_key *k, const uint8_t *in, size_t len,
    uint8_t *out)
{
	uint8_t a[8];
	enum vg_err err = VG_OK;
	uint32_t ok;

	if (k == NULL || in == NULL || out == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len % 8 != 0 || len < 24) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	memcpy(a, in, 8);
	memmove(out, in + 8, len - 8);
	kw_unwrap_core(vg_kernels(), k, a, out, len / 8 - 1);
	ok = vg_ct_memeq(a, kw_iv, 8);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (!ok) {
		vg_wipe(out, len - 8);
		err = VG_ERR_AUTH;
	}
	vg_wipe(a, sizeof(a));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_kwp_wrap(const struct vg_aes_key *k, const uint8_t *in, size_t len,
    uint8_t *out, size_t *outlen)
{
	const struct vg_kernels *kt;
	uint8_t a[8];
	size_t padded;
	enum vg_err err = VG_OK;

	if (k == NULL || in == NULL || out == NULL || outlen == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len == 0 || (uint64_t)len > VG_AES_KWP_MAX_LEN ||
	    len > SIZE_MAX - 16) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	kt = vg_kernels();
	padded = (len + 7) & ~(size_t)7;
	memmove(out + 8, in, len);
	memset(out + 8 + len, 0, padded - len);
	/* Alternative initial value [RFC 5649 §3]: A65959A6 || MLI. */
	store_be32(a, KWP_AIV);
	store_be32(a + 4, (uint32_t)len);
	if (padded == 8) {
		/* One semiblock: a single AES block [RFC 5649 §4.1]. */
		memcpy(out, a, 8);
		kt->aes_encrypt(k, out, out, 1);
	} else {
		kw_wrap_core(kt, k, a, out + 8, padded / 8);
		memcpy(out, a, 8);
	}
	*outlen = padded + 8;
	vg_wipe(a, sizeof(a));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_kwp_unwrap(const struct vg_aes_key *k, const uint8_t *in, size_t len,
    uint8_t *out, size_t *outlen)
{
	const struct vg_kernels *kt;
	uint8_t a[8];
	uint64_t n, mli, ok, pad;
	size_t i;
	enum vg_err err = VG_OK;

	if (k == NULL || in == NULL || out == NULL || outlen == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len % 8 != 0 || len < 16 ||
	    (uint64_t)len > (uint64_t)VG_AES_KWP_MAX_LEN + 15) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	kt = vg_kernels();
	n = len / 8 - 1;
	if (n == 1) {
		uint8_t b[16];

		kt->aes_decrypt(k, b, in, 1);
		memcpy(a, b, 8);
		memcpy(out, b + 8, 8);
		vg_wipe(b, sizeof(b));
	} else {
		memcpy(a, in, 8);
		memmove(out, in + 8, len - 8);
		kw_unwrap_core(kt, k, a, out, (size_t)n);
	}
	/* [RFC 5649 §3]: the AIV prefix, 8(n-1) < MLI <= 8n, and zeros after
	 * the MLI bytes; all folded into one mask, whatever the MLI. */
	mli = load_be32(a + 4);
	ok = vg_ct_eq_mask64(load_be32(a), KWP_AIV);
	ok &= vg_ct_lt_mask64(8 * (n - 1), mli);
	ok &= ~vg_ct_lt_mask64(8 * n, mli);
	pad = 0;
	for (i = 0; i < 8; i++) {
		uint64_t pos = 8 * (n - 1) + i;

		pad |= out[pos] & ~vg_ct_lt_mask64(pos, mli);
	}
	ok &= vg_ct_zero_mask64(pad);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (ok) {
		/* A valid key's length is output. */
		VG_CT_DECLASSIFY(&mli, sizeof(mli));
		*outlen = (size_t)mli;
	} else {
		vg_wipe(out, len - 8);
		*outlen = 0;
		err = VG_ERR_AUTH;
	}
	vg_wipe(a, sizeof(a));
out:
	return err;
}
