/*
 * Little-endian 64-bit words to and from bytes, for the code that reads
 * and writes byte strings a word at a time (Keccak's state, the ML-KEM
 * and ML-DSA encodings, Curve25519 field elements and scalars). One
 * unaligned load or store on little-endian hosts, bytes and shifts
 * elsewhere.
 * CT: no branch or index depends on the bytes.
 */
#ifndef VG_CRYPTO_BYTES_H
#define VG_CRYPTO_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint64_t
vg_load_le64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
#else
	return (uint64_t)p[0] | ((uint64_t)p[1] << 8) |
	    ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
	    ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
	    ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
#endif
}

static inline void
vg_store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
#else
	unsigned i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
#endif
}

#endif
