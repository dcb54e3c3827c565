/*
 * GF(2^128) helpers shared by the GHASH kernels (vg_ghash_pclmul.c,
 * vg_ghash_vpclmul512.c): the byte reversal and the reduction of a
 * 256-bit carry-less product in the bit-reflected representation that
 * crypto/ghash.c explains. Static inline, with the PCLMULQDQ target; the
 * callers' targets include it.
 */
#ifndef VG_CRYPTO_X86_64_VG_GHASH_X86_H
#define VG_CRYPTO_X86_64_VG_GHASH_X86_H

#include <immintrin.h>
#include <wmmintrin.h>

#define VG_TARGET_PCLMUL __attribute__((target("pclmul,sse4.1")))

/* Block bytes to a 128-bit integer read big-endian, and back. */
VG_TARGET_PCLMUL
static inline __m128i
bswap128(__m128i x)
{
	const __m128i rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	    11, 12, 13, 14, 15);

	return _mm_shuffle_epi8(x, rev);
}

/* *hi:*lo ^= a * b (carry-less, 255 bits). */
VG_TARGET_PCLMUL
static inline void
clmul_acc(__m128i a, __m128i b, __m128i *hi, __m128i *lo)
{
	__m128i p00 = _mm_clmulepi64_si128(a, b, 0x00);
	__m128i p11 = _mm_clmulepi64_si128(a, b, 0x11);
	__m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
	    _mm_clmulepi64_si128(a, b, 0x10));

	*lo = _mm_xor_si128(*lo, _mm_xor_si128(p00, _mm_slli_si128(mid, 8)));
	*hi = _mm_xor_si128(*hi, _mm_xor_si128(p11, _mm_srli_si128(mid, 8)));
}

/*
 * Reduces the reflected product hi:lo (qwords z3 z2 : z1 z0): shift the 256
 * bits left by one, then fold z0 into z2:z1 and z1 into z3:z2 with
 * x^128 = 1 + x + x^2 + x^7 (multiplying by x^s is a right shift by s).
 */
VG_TARGET_PCLMUL
static inline __m128i
reduce(__m128i hi, __m128i lo)
{
	__m128i clo = _mm_srli_epi64(lo, 63), chi = _mm_srli_epi64(hi, 63);
	__m128i l, r;

	hi = _mm_or_si128(_mm_slli_epi64(hi, 1),
	    _mm_or_si128(_mm_slli_si128(chi, 8), _mm_srli_si128(clo, 8)));
	lo = _mm_or_si128(_mm_slli_epi64(lo, 1), _mm_slli_si128(clo, 8));

	/* The bits of z0 that land in z1. */
	l = _mm_xor_si128(_mm_slli_epi64(lo, 63),
	    _mm_xor_si128(_mm_slli_epi64(lo, 62), _mm_slli_epi64(lo, 57)));
	lo = _mm_xor_si128(lo, _mm_slli_si128(l, 8));
	/* z0 into z2 and z1 into z3 (right shifts, lane by lane), then the
	 * bits of the updated z1 that land in z2. */
	l = _mm_xor_si128(_mm_slli_epi64(lo, 63),
	    _mm_xor_si128(_mm_slli_epi64(lo, 62), _mm_slli_epi64(lo, 57)));
	r = _mm_xor_si128(_mm_srli_epi64(lo, 1),
	    _mm_xor_si128(_mm_srli_epi64(lo, 2), _mm_srli_epi64(lo, 7)));
	return _mm_xor_si128(_mm_xor_si128(hi, lo),
	    _mm_xor_si128(r, _mm_srli_si128(l, 8)));
}

#endif
