/*
 * AES internals shared by crypto/aes*.c (not for other layers; the
 * family's API is crypto/aes.h): byte order, XOR, and the kernel table a
 * key runs with.
 */
#ifndef VG_CRYPTO_AES_INT_H
#define VG_CRYPTO_AES_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/aes.h"
#include "crypto/cpu.h"

/* Blocks handed to a kernel per call where the mode allows several (ECB,
 * CBC decryption, CTR, GCM), through a stack buffer of this many blocks. */
#define VG_AES_CHUNK_BLOCKS 32

/* The kernel table of key k: the one that set it up (vg_aes_init_k), or
 * the process-wide table for a key whose schedule was filled by a kernel
 * directly. */
static inline const struct vg_kernels *
vg_aes_kt(const struct vg_aes_key *k)
{
	return k->kt != NULL ? k->kt : vg_kernels();
}

static inline uint32_t
vg_aes_load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void
vg_aes_store_be32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

static inline uint64_t
vg_aes_load_be64(const uint8_t *p)
{
	return ((uint64_t)vg_aes_load_be32(p) << 32) |
	    (uint64_t)vg_aes_load_be32(p + 4);
}

static inline void
vg_aes_store_be64(uint8_t *p, uint64_t x)
{
	vg_aes_store_be32(p, (uint32_t)(x >> 32));
	vg_aes_store_be32(p + 4, (uint32_t)x);
}

/* out = a ^ b over n bytes (out may equal a or b). CT: only n. */
static inline void
vg_aes_xor(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
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

#endif
