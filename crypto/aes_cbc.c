/*
 * AES-ECB and AES-CBC [SP 800-38A §6.1, §6.2], one-shot and multi-part,
 * and PKCS#7 padding [RFC 5652 §6.3] with a constant-time check.
 *
 * Every mode hands all its blocks to one kernel call: ECB to the block
 * kernels, CBC to aes_cbc_dec (parallel) and aes_cbc_enc (serial, the
 * chaining value kept in a register).
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/aes_int.h"
#include "crypto/ct.h"

#define CHUNK (16 * VG_AES_CHUNK_BLOCKS)

/*
 * Runs nb blocks from in to out: ECB (iv NULL) or CBC with the chaining
 * value iv, which is updated. in == out is allowed.
 */
static void
blocks_run(const struct vg_aes_key *k, uint8_t *iv, int decrypt,
    const uint8_t *in, uint8_t *out, size_t nb)
{
	const struct vg_kernels *kt = vg_aes_kt(k);

	if (nb == 0) {
		/* nothing to do */
	} else if (iv == NULL) {
		if (decrypt)
			kt->aes_decrypt(k, out, in, nb);
		else
			kt->aes_encrypt(k, out, in, nb);
	} else if (decrypt) {
		kt->aes_cbc_dec(k, out, in, nb, iv);
	} else {
		kt->aes_cbc_enc(k, out, in, nb, iv);
	}
}

/* One-shot ECB (iv NULL) or CBC over len bytes, in == out allowed. */
static enum vg_err
oneshot(const struct vg_aes_key *k, const uint8_t *iv0, int cbc, int decrypt,
    const uint8_t *in, size_t len, uint8_t *out)
{
	uint8_t iv[16];
	enum vg_err err = VG_OK;

	if (k == NULL || (cbc && iv0 == NULL) ||
	    ((in == NULL || out == NULL) && len > 0)) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len % 16 != 0) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	if (cbc)
		memcpy(iv, iv0, 16);
	blocks_run(k, cbc ? iv : NULL, decrypt, in, out, len / 16);
out:
	vg_wipe(iv, sizeof(iv));
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_ecb_encrypt(const struct vg_aes_key *k, const uint8_t *in, size_t len,
    uint8_t *out)
{
	return oneshot(k, NULL, 0, 0, in, len, out);
}

/* see crypto/aes.h */
enum vg_err
vg_aes_ecb_decrypt(const struct vg_aes_key *k, const uint8_t *in, size_t len,
    uint8_t *out)
{
	return oneshot(k, NULL, 0, 1, in, len, out);
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cbc_encrypt(const struct vg_aes_key *k, const uint8_t iv[16],
    const uint8_t *in, size_t len, uint8_t *out)
{
	return oneshot(k, iv, 1, 0, in, len, out);
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cbc_decrypt(const struct vg_aes_key *k, const uint8_t iv[16],
    const uint8_t *in, size_t len, uint8_t *out)
{
	return oneshot(k, iv, 1, 1, in, len, out);
}

/* ------------------------------------------------------------- PKCS#7 */

/* see crypto/aes.h */
enum vg_err
vg_aes_pkcs7_pad(uint8_t *buf, size_t len, size_t cap, size_t *padded)
{
	size_t n = 16 - len % 16;
	enum vg_err err = VG_OK;

	if (padded == NULL || (buf == NULL && cap > 0)) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (cap < len || cap - len < n) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	memset(buf + len, (int)n, n);
	*padded = len + n;
out:
	return err;
}

/*
 * The padding check of the 16-byte block b (the last of a message):
 * returns all-ones when the last byte n is 1..16 and the last n bytes
 * equal n, and writes n to *n. Every byte is read and compared under a
 * mask, whatever n is.
 */
static uint64_t
pad_ok(const uint8_t b[16], uint64_t *n)
{
	uint64_t p = b[15], ok, bad = 0;
	unsigned i;

	ok = ~vg_ct_zero_mask64(p) & vg_ct_lt_mask64(p, 17);
	for (i = 0; i < 16; i++) {
		/* byte i lies in the padding when 16 - i <= p; the barrier
		 * keeps the compiler from folding p into the loop's index
		 * (it did: the address of b[i] came out as a sum with p) */
		uint64_t in_pad =
		    ~vg_ct_lt_mask64(p, 16 - vg_ct_barrier64(i));

		bad |= in_pad & (uint64_t)(b[i] ^ (uint8_t)p);
	}
	ok &= vg_ct_zero_mask64(bad);
	*n = p;
	return ok;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_pkcs7_unpad(const uint8_t *buf, size_t len, size_t *msglen)
{
	uint64_t ok, n;
	enum vg_err err = VG_OK;

	if (buf == NULL || msglen == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	*msglen = 0;
	if (len == 0 || len % 16 != 0) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	ok = pad_ok(buf + len - 16, &n);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (ok) {
		/* so is the message length that is output */
		VG_CT_DECLASSIFY(&n, sizeof(n));
		*msglen = len - (size_t)n;
	} else {
		err = VG_ERR_DECODE;
	}
out:
	return err;
}

/* --------------------------------------------------------- multi-part */

/* Whether the context holds the last full block back (decrypting with
 * padding). */
static int
holds_back(const struct vg_aes_cbc *c)
{
	return (c->flags & (VG_AES_DECRYPT | VG_AES_PAD)) ==
	    (VG_AES_DECRYPT | VG_AES_PAD);
}

static enum vg_err
start(struct vg_aes_cbc *c, const struct vg_aes_key *k, const uint8_t *iv,
    int cbc, unsigned flags)
{
	enum vg_err err = VG_OK;

	if (c == NULL || k == NULL || (cbc && iv == NULL) ||
	    (flags & ~(VG_AES_DECRYPT | VG_AES_PAD)) != 0) {
		err = VG_ERR_ARG;
		goto out;
	}
	memset(c, 0, sizeof(*c));
	c->key = *k;
	if (cbc)
		memcpy(c->iv, iv, 16);
	c->flags = (uint8_t)flags;
	c->cbc = (uint8_t)cbc;
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cbc_init(struct vg_aes_cbc *c, const struct vg_aes_key *k,
    const uint8_t iv[16], unsigned flags)
{
	return start(c, k, iv, 1, flags);
}

/* see crypto/aes.h */
enum vg_err
vg_aes_ecb_init(struct vg_aes_cbc *c, const struct vg_aes_key *k,
    unsigned flags)
{
	return start(c, k, NULL, 0, flags);
}

/* Blocks an update of len bytes completes and writes out. */
static size_t
blocks_out(const struct vg_aes_cbc *c, size_t len)
{
	size_t r = len % 16 + c->buflen;
	size_t nb = len / 16 + r / 16;

	if (holds_back(c) && r % 16 == 0 && nb > 0)
		nb--;
	return nb;
}

/* see crypto/aes.h */
size_t
vg_aes_cbc_update_len(const struct vg_aes_cbc *c, size_t len)
{
	return c != NULL ? 16 * blocks_out(c, len) : 0;
}

/*
 * The input of the blocks written goes through buf: the carried bytes,
 * then new input. Before a chunk is written to out, the input bytes it
 * would overwrite when out == in and that are not used yet are moved into
 * the carry, so that the same address works for both.
 */
/* see crypto/aes.h */
enum vg_err
vg_aes_cbc_update(struct vg_aes_cbc *c, const uint8_t *in, size_t len,
    uint8_t *out, size_t *outlen)
{
	uint8_t buf[CHUNK];
	size_t total, done = 0, p = 0;
	enum vg_err err = VG_OK;

	if (c == NULL || outlen == NULL ||
	    ((in == NULL || out == NULL) && len > 0)) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len > SIZE_MAX - 32) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	total = 16 * blocks_out(c, len);
	while (done < total) {
		size_t n = total - done < CHUNK ? total - done : CHUNK;
		size_t b = c->buflen, need = n - b, end;

		memcpy(buf, c->buf, b);
		memcpy(buf + b, in + p, need);
		p += need;
		end = done + n < len ? done + n : len;
		c->buflen = (uint8_t)(end > p ? end - p : 0);
		memcpy(c->buf, in + p, c->buflen);
		p += c->buflen;
		blocks_run(&c->key, c->cbc ? c->iv : NULL,
		    c->flags & VG_AES_DECRYPT, buf, out + done, n / 16);
		done += n;
	}
	memcpy(c->buf + c->buflen, in + p, len - p);
	c->buflen = (uint8_t)(c->buflen + (len - p));
	*outlen = total;
	vg_wipe(buf, sizeof(buf));
out:
	return err;
}

/* see crypto/aes.h */
size_t
vg_aes_cbc_final_len(const struct vg_aes_cbc *c)
{
	size_t n = 0;

	if (c != NULL && (c->flags & VG_AES_PAD))
		n = holds_back(c) ? 15 : 16;
	return n;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cbc_final(struct vg_aes_cbc *c, uint8_t *out, size_t *outlen)
{
	uint8_t b[16];
	uint64_t ok, n;
	enum vg_err err = VG_OK;

	if (c == NULL || outlen == NULL ||
	    (out == NULL && vg_aes_cbc_final_len(c) > 0)) {
		err = VG_ERR_ARG;
		goto out;
	}
	*outlen = 0;
	if (!(c->flags & VG_AES_PAD)) {
		if (c->buflen != 0)
			err = VG_ERR_LENGTH;
	} else if (!holds_back(c)) {
		size_t padded;

		memcpy(b, c->buf, c->buflen);
		(void)vg_aes_pkcs7_pad(b, c->buflen, 16, &padded);
		blocks_run(&c->key, c->cbc ? c->iv : NULL, 0, b, out, 1);
		*outlen = 16;
	} else if (c->buflen != 16) {
		err = VG_ERR_LENGTH;
	} else {
		blocks_run(&c->key, c->cbc ? c->iv : NULL, 1, c->buf, b, 1);
		ok = pad_ok(b, &n);
		VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
		if (ok) {
			VG_CT_DECLASSIFY(&n, sizeof(n)); /* the length too */
			memcpy(out, b, 16 - (size_t)n);
			*outlen = 16 - (size_t)n;
		} else {
			err = VG_ERR_DECODE;
		}
	}
	vg_wipe(b, sizeof(b));
	vg_wipe(c, sizeof(*c));
out:
	return err;
}

/* see crypto/aes.h */
void
vg_aes_cbc_wipe(struct vg_aes_cbc *c)
{
	if (c != NULL)
		vg_wipe(c, sizeof(*c));
}
