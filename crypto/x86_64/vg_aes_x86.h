/*
 * Macros shared by the AES kernels that keep eight blocks (or eight
 * registers of blocks) in flight: unaligned 128-bit loads and stores, and
 * one round applied to the eight registers b0..b7 that the caller
 * declares. Macros only, so each kernel keeps its own target attribute.
 */
#ifndef VG_CRYPTO_X86_64_VG_AES_X86_H
#define VG_CRYPTO_X86_64_VG_AES_X86_H

#include <immintrin.h>

#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, x) _mm_storeu_si128((__m128i *)(void *)(p), (x))

/* b0..b7 = op(bi, rk): one of AESENC, AESDEC, VAESENC, ... */
#define ROUND8(op, rk)                                                       \
	do {                                                                 \
		b0 = op(b0, rk);                                             \
		b1 = op(b1, rk);                                             \
		b2 = op(b2, rk);                                             \
		b3 = op(b3, rk);                                             \
		b4 = op(b4, rk);                                             \
		b5 = op(b5, rk);                                             \
		b6 = op(b6, rk);                                             \
		b7 = op(b7, rk);                                             \
	} while (0)

#endif
