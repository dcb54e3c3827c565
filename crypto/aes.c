/*
 * AES key set-up, key wrap [RFC 3394] and key wrap with padding
 * [RFC 5649]. The other modes are in crypto/aes_cbc.c (ECB, CBC, PKCS#7),
 * aes_ctr.c, aes_cmac.c and aes_gcm.c. The block cipher is only reached
 * through the key's kernel table; nothing here indexes memory or branches
 * on secret data.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/aes_int.h"
#include "crypto/ct.h"

static const uint8_t kw_iv[8] = {
	0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6
};
#define KWP_AIV 0xa65959a6u

/* see crypto/aes.h */
enum vg_err
vg_aes_init_k(struct vg_aes_key *k, const struct vg_kernels *kt,
    const uint8_t *key, size_t len)
{
	uint8_t h[16];
	enum vg_err err = VG_OK;

	if (k == NULL || key == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len != 16 && len != 24 && len != 32) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	if (kt == NULL)
		kt = vg_kernels();
	if (kt->aes_setkey(k, key, len) != 0) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	k->kt = kt;
	/* GCM's hash key H = E_K(0^128), expanded once per key. */
	memset(h, 0, sizeof(h));
	kt->aes_encrypt(k, h, h, 1);
	kt->ghash_init(&k->gh, h);
	vg_wipe(h, sizeof(h));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_init(struct vg_aes_key *k, const uint8_t *key, size_t len)
{
	return vg_aes_init_k(k, NULL, key, len);
}

/* see crypto/aes.h */
void
vg_aes_key_wipe(struct vg_aes_key *k)
{
	if (k != NULL)
		vg_wipe(k, sizeof(*k));
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
			vg_aes_store_be64(t, ++step);
			vg_aes_xor(a, b, t, 8);
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
			vg_aes_store_be64(t, step--);
			vg_aes_xor(b, a, t, 8);
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
	kw_wrap_core(vg_aes_kt(k), k, a, out + 8, len / 8);
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
	kw_unwrap_core(vg_aes_kt(k), k, a, out, len / 8 - 1);
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
	kt = vg_aes_kt(k);
	padded = (len + 7) & ~(size_t)7;
	memmove(out + 8, in, len);
	memset(out + 8 + len, 0, padded - len);
	/* Alternative initial value [RFC 5649 §3]: A65959A6 || MLI. */
	vg_aes_store_be32(a, KWP_AIV);
	vg_aes_store_be32(a + 4, (uint32_t)len);
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
	kt = vg_aes_kt(k);
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
	mli = vg_aes_load_be32(a + 4);
	ok = vg_ct_eq_mask64(vg_aes_load_be32(a), KWP_AIV);
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
