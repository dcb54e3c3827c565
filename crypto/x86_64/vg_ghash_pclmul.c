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
 * vg_ghash_init_pclmul and vg_ghash_update_pclmul do the same with the
 * powers H^1..H^16 computed once per key (struct vg_ghash_key), eight
 * blocks per reduction, the two middle partial products of each block
 * summed apart and folded in once.
 *
 * CT: PCLMULQDQ runs in time independent of its operands; branches depend
 * only on nblocks. H, its powers and Y stay in vector registers (the keyed
 * form reads the powers from the key).
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/x86_64/kernels.h"
#include "crypto/x86_64/vg_ghash_x86.h"

#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, x) _mm_storeu_si128((__m128i *)(void *)(p), (x))

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

/* see crypto/cpu.h */
VG_TARGET_PCLMUL
void
vg_ghash_init_pclmul(struct vg_ghash_key *gk, const uint8_t h[16])
{
	__m128i h1 = bswap128(LD(h)), p = h1;
	unsigned i;

	for (i = 0; i < 16; i++)
		gk->h[i] = h[i];
	for (i = 1; i <= VG_GHASH_POWERS; i++) {
		ST(gk->pw[VG_GHASH_POWERS - i], p);
		p = gf_mul(p, h1);
	}
}

/* *lo, *hi, *mid ^= the four partial products of a * b. */
VG_TARGET_PCLMUL
static inline void
clmul_acc3(__m128i a, __m128i b, __m128i *lo, __m128i *hi, __m128i *mid)
{
	*lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, b, 0x00));
	*hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, b, 0x11));
	*mid = _mm_xor_si128(*mid, _mm_xor_si128(
	    _mm_clmulepi64_si128(a, b, 0x01),
	    _mm_clmulepi64_si128(a, b, 0x10)));
}

/* y' = (y ^ X_0) H^n ^ X_1 H^(n-1) ^ ... ^ X_(n-1) H for 1 <= n <= 16
 * blocks, one reduction. */
VG_TARGET_PCLMUL
static inline __m128i
ghash_n(__m128i y, const struct vg_ghash_key *gk, const uint8_t *in,
    unsigned n)
{
	__m128i lo = _mm_setzero_si128(), hi = lo, mid = lo;
	const uint8_t(*pw)[16] = gk->pw + VG_GHASH_POWERS - n;
	unsigned j;

	clmul_acc3(_mm_xor_si128(y, bswap128(LD(in))), LD(pw[0]), &lo, &hi,
	    &mid);
	for (j = 1; j < n; j++)
		clmul_acc3(bswap128(LD(in + 16 * j)), LD(pw[j]), &lo, &hi,
		    &mid);
	lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
	hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
	return reduce(hi, lo);
}

/* see crypto/cpu.h */
VG_TARGET_PCLMUL
void
vg_ghash_update_pclmul(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks)
{
	__m128i yv = bswap128(LD(y));

	while (nblocks >= 8) {
		yv = ghash_n(yv, gk, in, 8);
		in += 128;
		nblocks -= 8;
	}
	if (nblocks > 0)
		yv = ghash_n(yv, gk, in, (unsigned)nblocks);
	ST(y, bswap128(yv));
}

#endif /* __x86_64__ */
