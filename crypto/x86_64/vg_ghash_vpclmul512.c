/*
 * GHASH with VPCLMULQDQ on 512-bit registers: vg_ghash_update_vpclmul512
 * (contract in crypto/cpu.h, twin vg_ghash_update_c), on keys made by
 * vg_ghash_init_pclmul. Sixteen blocks per reduction, four per register:
 * block j of n (n <= 16) is multiplied by H^(n-j), so the powers are the
 * slice pw[16-n .. 15] of the key, loaded four at a time beside the data.
 * A last group of fewer than sixteen blocks uses masked loads (zeros in
 * the unused lanes, whose products vanish). The four lanes' partial
 * products are summed, then reduced once as in vg_ghash_pclmul.c.
 *
 * CT: VPCLMULQDQ runs in time independent of its operands; masks, branches
 * and addresses depend only on nblocks.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/x86_64/kernels.h"
#include "crypto/x86_64/vg_ghash_x86.h"

#define VG_TARGET_VPCLMUL512 \
	__attribute__((target("pclmul,sse4.1,avx2,vpclmulqdq,avx512f,avx512bw")))

/* The lowest 16 * n bytes of a register (1 <= n <= 4). */
static inline __mmask64
lanes(unsigned n)
{
	return n >= 4 ? ~(__mmask64)0 : (((__mmask64)1 << (16 * n)) - 1);
}

/* lo, hi, mid ^= the four partial products of d * h, lane by lane. */
#define MUL4(d, h)                                                           \
	do {                                                                 \
		lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(d, h, 0x00)); \
		hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(d, h, 0x11)); \
		mid = _mm512_xor_si512(mid, _mm512_xor_si512(                \
		    _mm512_clmulepi64_epi128(d, h, 0x01),                    \
		    _mm512_clmulepi64_epi128(d, h, 0x10)));                  \
	} while (0)

/* The sum of the four lanes' products lo, hi, mid, reduced. */
VG_TARGET_VPCLMUL512
static inline __attribute__((always_inline)) __m128i
fold(__m512i lo, __m512i hi, __m512i mid)
{
	__m256i l2, h2;
	__m128i l1, h1;

	lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
	hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8));
	l2 = _mm256_xor_si256(_mm512_castsi512_si256(lo),
	    _mm512_extracti64x4_epi64(lo, 1));
	h2 = _mm256_xor_si256(_mm512_castsi512_si256(hi),
	    _mm512_extracti64x4_epi64(hi, 1));
	l1 = _mm_xor_si128(_mm256_castsi256_si128(l2),
	    _mm256_extracti128_si256(l2, 1));
	h1 = _mm_xor_si128(_mm256_castsi256_si128(h2),
	    _mm256_extracti128_si256(h2, 1));
	return reduce(h1, l1);
}

/* One group of 1 <= n < 16 blocks into y, one reduction. */
VG_TARGET_VPCLMUL512
static __m128i
group(__m128i y, const struct vg_ghash_key *gk, const uint8_t *in,
    unsigned n)
{
	const __m512i rev = _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3,
	    4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
	const uint8_t *pw = gk->pw[VG_GHASH_POWERS - n];
	__m512i lo = _mm512_setzero_si512(), hi = lo, mid = lo;
	unsigned m;

	for (m = 0; 4 * m < n; m++) {
		__mmask64 msk = lanes(n - 4 * m);
		__m512i d = _mm512_shuffle_epi8(
		    _mm512_maskz_loadu_epi8(msk, in + 64 * m), rev);
		__m512i h = _mm512_maskz_loadu_epi8(msk, pw + 64 * m);

		if (m == 0)
			d = _mm512_xor_si512(d, _mm512_inserti32x4(
			    _mm512_setzero_si512(), y, 0));
		MUL4(d, h);
	}
	return fold(lo, hi, mid);
}

/* see crypto/cpu.h */
VG_TARGET_VPCLMUL512
void
vg_ghash_update_vpclmul512(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks)
{
	__m128i yv = bswap128(_mm_loadu_si128((const __m128i *)(const void *)y));

	if (nblocks >= 16) {
		const __m512i rev = _mm512_broadcast_i32x4(_mm_set_epi8(0, 1,
		    2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
		const __m512i h0 = _mm512_loadu_si512(gk->pw[0]);
		const __m512i h1 = _mm512_loadu_si512(gk->pw[4]);
		const __m512i h2 = _mm512_loadu_si512(gk->pw[8]);
		const __m512i h3 = _mm512_loadu_si512(gk->pw[12]);

		do {
			__m512i d0, d1, d2, d3, lo, hi, mid;

			d0 = _mm512_shuffle_epi8(_mm512_loadu_si512(in), rev);
			d1 = _mm512_shuffle_epi8(_mm512_loadu_si512(in + 64),
			    rev);
			d2 = _mm512_shuffle_epi8(_mm512_loadu_si512(in + 128),
			    rev);
			d3 = _mm512_shuffle_epi8(_mm512_loadu_si512(in + 192),
			    rev);
			d0 = _mm512_xor_si512(d0, _mm512_inserti32x4(
			    _mm512_setzero_si512(), yv, 0));
			lo = _mm512_clmulepi64_epi128(d3, h3, 0x00);
			hi = _mm512_clmulepi64_epi128(d3, h3, 0x11);
			mid = _mm512_xor_si512(
			    _mm512_clmulepi64_epi128(d3, h3, 0x01),
			    _mm512_clmulepi64_epi128(d3, h3, 0x10));
			MUL4(d2, h2);
			MUL4(d1, h1);
			MUL4(d0, h0);
			yv = fold(lo, hi, mid);
			in += 256;
			nblocks -= 16;
		} while (nblocks >= 16);
	}
	if (nblocks > 0)
		yv = group(yv, gk, in, (unsigned)nblocks);
	_mm_storeu_si128((__m128i *)(void *)y, bswap128(yv));
}

#endif /* __x86_64__ */
