/*
 * AES-CTR [SP 800-38A §6.5] with the counter of CK_AES_CTR_PARAMS: the
 * low-order bits of the counter block, incremented modulo 2^bits, the
 * rest fixed; a request that would wrap the counter is refused before
 * anything is written. Counter blocks go to the kernel
 * VG_AES_CHUNK_BLOCKS at a time.
 *
 * The counter block is an IV (public): the wrap check branches on it.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/aes_int.h"
#include "crypto/ct.h"

/* The counter's bits in the high and low halves of the block. */
static void
ctr_masks(unsigned bits, uint64_t *mhi, uint64_t *mlo)
{
	if (bits >= 64) {
		*mlo = ~(uint64_t)0;
		*mhi = bits == 128 ? ~(uint64_t)0 :
		    (((uint64_t)1 << (bits - 64)) - 1);
	} else {
		*mlo = ((uint64_t)1 << bits) - 1;
		*mhi = 0;
	}
}

/* Adds one to the counter bits of (hi, lo), leaving the other bits. */
static void
ctr_inc(uint64_t *hi, uint64_t *lo, uint64_t mhi, uint64_t mlo)
{
	/* carry out of the low half's counter bits when they are all
	 * ones (only matters when the counter reaches into hi) */
	uint64_t carry = vg_ct_zero_mask64(~(*lo | ~mlo)) & 1;

	*lo = (*lo & ~mlo) | ((*lo + 1) & mlo);
	*hi = (*hi & ~mhi) | ((*hi + carry) & mhi);
}

/* The number of counter values from (hi, lo) to the last one, 2^bits - 1,
 * both included: 2^bits - c, saturated at 2^64 - 1. */
static uint64_t
ctr_left(uint64_t hi, uint64_t lo, unsigned bits)
{
	uint64_t mhi, mlo, room = ~(uint64_t)0;

	ctr_masks(bits, &mhi, &mlo);
	/* unless the counter bits in hi are all ones, at least 2^64 values
	 * are left; otherwise room = the increments left */
	if ((hi & mhi) == mhi)
		room = mlo - (lo & mlo);
	return room == ~(uint64_t)0 ? room : room + 1;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_ctr_init(struct vg_aes_ctr *c, const struct vg_aes_key *k,
    const uint8_t cb[16], unsigned bits)
{
	enum vg_err err = VG_OK;

	if (c == NULL || k == NULL || cb == NULL || bits < 1 || bits > 128) {
		err = VG_ERR_ARG;
		goto out;
	}
	memset(c, 0, sizeof(*c));
	c->key = *k;
	c->hi = vg_aes_load_be64(cb);
	c->lo = vg_aes_load_be64(cb + 8);
	c->bits = (uint8_t)bits;
	c->left = ctr_left(c->hi, c->lo, bits);
	c->kspos = 16;
out:
	return err;
}

/* Writes nb >= 1 key stream blocks to ks and steps the counter. */
static void
ctr_stream(struct vg_aes_ctr *c, uint8_t *ks, size_t nb)
{
	uint64_t mhi, mlo;
	size_t i;

	ctr_masks(c->bits, &mhi, &mlo);
	for (i = 0; i < nb; i++) {
		vg_aes_store_be64(ks + 16 * i, c->hi);
		vg_aes_store_be64(ks + 16 * i + 8, c->lo);
		ctr_inc(&c->hi, &c->lo, mhi, mlo);
	}
	c->left -= nb;
	vg_aes_kt(&c->key)->aes_encrypt(&c->key, ks, ks, nb);
}

/* Adds n to the counter bits of (hi, lo), modulo 2^bits. */
static void
ctr_add(struct vg_aes_ctr *c, uint64_t n)
{
	uint64_t mhi, mlo, lo = c->lo + n;

	ctr_masks(c->bits, &mhi, &mlo);
	if (mlo == ~(uint64_t)0 && lo < c->lo)
		c->hi = (c->hi & ~mhi) | ((c->hi + 1) & mhi);
	c->lo = (c->lo & ~mlo) | (lo & mlo);
}

/*
 * nb >= 1 whole blocks of in XORed with the key stream into out. With a
 * counter of 32 bits or more the kernel's inc32 is the increment as long
 * as the low 32 bits do not wrap: runs end there and the carry is added
 * here. Narrower counters make their blocks in C, a chunk at a time.
 */
static void
ctr_blocks(struct vg_aes_ctr *c, const uint8_t *in, uint8_t *out, size_t nb,
    uint8_t *buf)
{
	const struct vg_kernels *kt = vg_aes_kt(&c->key);

	while (nb > 0) {
		size_t n = nb;

		if (c->bits >= 32) {
			uint8_t cb[16];
			uint64_t room = ((uint64_t)1 << 32) -
			    (c->lo & 0xffffffffu);

			if ((uint64_t)n > room)
				n = (size_t)room;
			vg_aes_store_be64(cb, c->hi);
			vg_aes_store_be64(cb + 8, c->lo);
			kt->aes_ctr32(&c->key, out, in, n, cb);
			ctr_add(c, n);
			c->left -= n;
		} else {
			if (n > VG_AES_CHUNK_BLOCKS)
				n = VG_AES_CHUNK_BLOCKS;
			ctr_stream(c, buf, n);
			vg_aes_xor(out, in, buf, 16 * n);
		}
		in += 16 * n;
		out += 16 * n;
		nb -= n;
	}
}

/* see crypto/aes.h */
enum vg_err
vg_aes_ctr_update(struct vg_aes_ctr *c, const uint8_t *in, size_t len,
    uint8_t *out)
{
	uint8_t buf[16 * VG_AES_CHUNK_BLOCKS];
	size_t have, n;
	enum vg_err err = VG_OK;

	if (c == NULL || ((in == NULL || out == NULL) && len > 0)) {
		err = VG_ERR_ARG;
		goto out;
	}
	/* The wrap check, before anything is written: the key stream
	 * left over from a partial block, then one counter value per
	 * block begun. */
	have = 16 - (size_t)c->kspos;
	if (len > have && (len - have - 1) / 16 + 1 > c->left) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	n = len < have ? len : have;
	vg_aes_xor(out, in, c->ks + c->kspos, n);
	c->kspos = (uint8_t)(c->kspos + n);
	in += n;
	out += n;
	len -= n;
	if (len >= 16) {
		n = len - len % 16;
		ctr_blocks(c, in, out, n / 16, buf);
		in += n;
		out += n;
		len -= n;
	}
	if (len > 0) {
		ctr_stream(c, c->ks, 1);
		vg_aes_xor(out, in, c->ks, len);
		c->kspos = (uint8_t)len;
	}
	vg_wipe(buf, sizeof(buf));
out:
	return err;
}

/* see crypto/aes.h */
void
vg_aes_ctr_wipe(struct vg_aes_ctr *c)
{
	if (c != NULL)
		vg_wipe(c, sizeof(*c));
}

/* see crypto/aes.h */
enum vg_err
vg_aes_ctr(const struct vg_aes_key *k, const uint8_t cb[16], unsigned bits,
    const uint8_t *in, size_t len, uint8_t *out)
{
	struct vg_aes_ctr c;
	enum vg_err err;

	err = vg_aes_ctr_init(&c, k, cb, bits);
	if (err == VG_OK)
		err = vg_aes_ctr_update(&c, in, len, out);
	vg_wipe(&c, sizeof(c));
	return err;
}
