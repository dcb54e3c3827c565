/*
 * GHASH with PCLMULQDQ: vg_ghash_pclmul (contract in crypto/cpu.h, twin in
 * crypto/ghash.c, whose header comment explains the bit-reflected
 * representation and the reduction used here in the same way). Called only
 * when vg_kernels() found PCLMULQDQ.
 *
 * Blocks are byte-reversed into 128-bit integers (PSHUFB), multiplied with
 * four PCLMULQDQ each, and reduced by shifts. Four blocks at a time are
 * aggregated: Y' = (Y ^ X1) H^4 ^ X2 H^3 ^ X3 H^2 ^ X4 H, with the
 * unreduced products summed and one reduction per four blocks; the powers
 * of H are computed per call when at least four blocks are given.
 *
 * CT: PCLMULQDQ runs in time independent of its operands; branches depend
 * only on nblocks. H, its powers and Y stay in vector registers.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/x86_64/kernels.h"

#define VG_TARGET_PCLMUL __attribute__((target("pclmul,sse4.1")))
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, x) _mm_storeu_si128((__m128i *)(void *)(p), (x))

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

VG_TARGET_PCLMUL
static inline __m128i
gf_mul(__m128i a, __m128i b)
{
	__m128i hi = _mm_setzero_si128(), lo = _mm_setzero_si128();

	clmul_acc(a, b, &hi, &lo);
	return reduce(hi, lo);
}

/* see crypto/cpu.h */
VG_TARGET_PCLMUL
void
vg_ghash_pclmul(uint8_t y[16], const uint8_t h[16], const uint8_t *in,
    size_t nblocks)
{
	__m128i yv = bswap128(LD(y)), h1 = bswap128(LD(h));

	if (nblocks >= 4) {
		__m128i h2 = gf_mul(h1, h1);
		__m128i h3 = gf_mul(h2, h1);
		__m128i h4 = gf_mul(h3, h1);

		while (nblocks >= 4) {
			__m128i hi = _mm_setzero_si128();
			__m128i lo = _mm_setzero_si128();
			__m128i x0 = _mm_xor_si128(yv, bswap128(LD(in)));

			clmul_acc(x0, h4, &hi, &lo);
			clmul_acc(bswap128(LD(in + 16)), h3, &hi, &lo);
			clmul_acc(bswap128(LD(in + 32)), h2, &hi, &lo);
			clmul_acc(bswap128(LD(in + 48)), h1, &hi, &lo);
			yv = reduce(hi, lo);
			in += 64;
			nblocks -= 4;
		}
	}
	while (nblocks > 0) {
		yv = gf_mul(_mm_xor_si128(yv, bswap128(LD(in))), h1);
		in += 16;
		nblocks--;
	}
	ST(y, bswap128(yv));
}

#endif /* __x86_64__ */
