/*
 * Portable twins of the AES mode kernels and of keyed GHASH:
 * vg_aes_ctr32_c, vg_aes_cbc_dec_c, vg_aes_cbc_enc_c, vg_aes_cbc_mac_c,
 * vg_ghash_init_c and vg_ghash_update_c
 * (contracts in crypto/cpu.h). They run the portable block cipher
 * (crypto/aes_ct.c) and vg_ghash_c over a stack buffer of
 * VG_AES_CHUNK_BLOCKS blocks.
 *
 * CT: the block cipher and GHASH are constant time; branches and
 * addresses here depend only on nblocks. The counter is added with plain
 * arithmetic on a 32-bit word.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/aes_int.h"
#include "crypto/ct.h"

/* see crypto/cpu.h */
void
vg_aes_ctr32_c(const struct vg_aes_key *k, uint8_t *out, const uint8_t *in,
    size_t nblocks, uint8_t cb[16])
{
	uint8_t buf[16 * VG_AES_CHUNK_BLOCKS];
	uint32_t ctr = vg_aes_load_be32(cb + 12);

	while (nblocks > 0) {
		size_t n = nblocks < VG_AES_CHUNK_BLOCKS ? nblocks :
		    VG_AES_CHUNK_BLOCKS, i;

		/* the barrier keeps the compiler from turning ctr + i into
		 * the loop variable (the counter may be secret) */
		for (i = 0; i < n; i++) {
			memcpy(buf + 16 * i, cb, 12);
			vg_aes_store_be32(buf + 16 * i + 12,
			    ctr + (uint32_t)vg_ct_barrier64(i));
		}
		ctr += (uint32_t)n;
		vg_aes_encrypt_c(k, buf, buf, n);
		vg_aes_xor(out, in, buf, 16 * n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	vg_aes_store_be32(cb + 12, ctr);
	vg_wipe(buf, sizeof(buf));
}

/* see crypto/cpu.h */
void
vg_aes_cbc_dec_c(const struct vg_aes_key *k, uint8_t *out, const uint8_t *in,
    size_t nblocks, uint8_t iv[16])
{
	uint8_t buf[16 * VG_AES_CHUNK_BLOCKS], last[16];

	while (nblocks > 0) {
		size_t n = nblocks < VG_AES_CHUNK_BLOCKS ? nblocks :
		    VG_AES_CHUNK_BLOCKS;

		/* the ciphertext is read in full before out (maybe in) is
		 * written */
		memcpy(buf, in, 16 * n);
		memcpy(last, buf + 16 * (n - 1), 16);
		vg_aes_decrypt_c(k, out, buf, n);
		vg_aes_xor(out, out, iv, 16);
		vg_aes_xor(out + 16, out + 16, buf, 16 * (n - 1));
		memcpy(iv, last, 16);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	vg_wipe(buf, sizeof(buf));
}

/* see crypto/cpu.h */
void
vg_aes_cbc_enc_c(const struct vg_aes_key *k, uint8_t *out, const uint8_t *in,
    size_t nblocks, uint8_t iv[16])
{
	size_t i;

	for (i = 0; i < nblocks; i++) {
		vg_aes_xor(out + 16 * i, in + 16 * i, iv, 16);
		vg_aes_encrypt_c(k, out + 16 * i, out + 16 * i, 1);
		memcpy(iv, out + 16 * i, 16);
	}
}

/* see crypto/cpu.h */
void
vg_aes_cbc_mac_c(const struct vg_aes_key *k, uint8_t x[16],
    const uint8_t *in, size_t nblocks)
{
	size_t i;

	for (i = 0; i < nblocks; i++) {
		vg_aes_xor(x, x, in + 16 * i, 16);
		vg_aes_encrypt_c(k, x, x, 1);
	}
}

/* see crypto/cpu.h */
void
vg_ghash_init_c(struct vg_ghash_key *gk, const uint8_t h[16])
{
	memset(gk, 0, sizeof(*gk));
	memcpy(gk->h, h, 16);
}

/* see crypto/cpu.h */
void
vg_ghash_update_c(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks)
{
	vg_ghash_c(y, gk->h, in, nblocks);
}
