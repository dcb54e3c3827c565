/*
 * GHASH with VPCLMULQDQ on 256-bit registers (AVX2 machines without
 * AVX-512): vg_ghash_update_vpclmul256 (contract in crypto/cpu.h, twin
 * vg_ghash_update_c), on keys made by vg_ghash_init_pclmul. Eight blocks
 * per reduction, two per register, multiplied by H^8..H^1 (pw[8..15] of
 * the key); fewer than eight left over go to vg_ghash_update_pclmul.
 *
 * CT: VPCLMULQDQ runs in time independent of its operands; branches and
 * addresses depend only on nblocks.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/x86_64/kernels.h"
#include "crypto/x86_64/vg_ghash_x86.h"

#define VG_TARGET_VPCLMUL256 \
	__attribute__((target("pclmul,sse4.1,avx,avx2,vpclmulqdq")))
#define LD2(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))

/* lo, hi, mid ^= the four partial products of d * h, lane by lane. */
#define MUL2(d, h)                                                           \
	do {                                                                 \
		lo = _mm256_xor_si256(lo, _mm256_clmulepi64_epi128(d, h, 0x00)); \
		hi = _mm256_xor_si256(hi, _mm256_clmulepi64_epi128(d, h, 0x11)); \
		mid = _mm256_xor_si256(mid, _mm256_xor_si256(                \
		    _mm256_clmulepi64_epi128(d, h, 0x01),                    \
		    _mm256_clmulepi64_epi128(d, h, 0x10)));                  \
	} while (0)

/* see crypto/cpu.h */
VG_TARGET_VPCLMUL256
void
vg_ghash_update_vpclmul256(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks)
{
	const __m256i rev = _mm256_broadcastsi128_si256(_mm_set_epi8(0, 1, 2,
	    3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
	__m128i yv;

	if (nblocks < 8) {
		vg_ghash_update_pclmul(y, gk, in, nblocks);
		return;
	}
	yv = bswap128(_mm_loadu_si128((const __m128i *)(const void *)y));
	{
		const __m256i h0 = LD2(gk->pw[8]), h1 = LD2(gk->pw[10]);
		const __m256i h2 = LD2(gk->pw[12]), h3 = LD2(gk->pw[14]);

		while (nblocks >= 8) {
			__m256i d0, d1, d2, d3, lo, hi, mid;
			__m128i l1, h1x;

			d0 = _mm256_shuffle_epi8(LD2(in), rev);
			d1 = _mm256_shuffle_epi8(LD2(in + 32), rev);
			d2 = _mm256_shuffle_epi8(LD2(in + 64), rev);
			d3 = _mm256_shuffle_epi8(LD2(in + 96), rev);
			d0 = _mm256_xor_si256(d0, _mm256_inserti128_si256(
			    _mm256_setzero_si256(), yv, 0));
			lo = _mm256_clmulepi64_epi128(d3, h3, 0x00);
			hi = _mm256_clmulepi64_epi128(d3, h3, 0x11);
			mid = _mm256_xor_si256(
			    _mm256_clmulepi64_epi128(d3, h3, 0x01),
			    _mm256_clmulepi64_epi128(d3, h3, 0x10));
			MUL2(d2, h2);
			MUL2(d1, h1);
			MUL2(d0, h0);
			lo = _mm256_xor_si256(lo, _mm256_slli_si256(mid, 8));
			hi = _mm256_xor_si256(hi, _mm256_srli_si256(mid, 8));
			l1 = _mm_xor_si128(_mm256_castsi256_si128(lo),
			    _mm256_extracti128_si256(lo, 1));
			h1x = _mm_xor_si128(_mm256_castsi256_si128(hi),
			    _mm256_extracti128_si256(hi, 1));
			yv = reduce(h1x, l1);
			in += 128;
			nblocks -= 8;
		}
	}
	_mm_storeu_si128((__m128i *)(void *)y, bswap128(yv));
	if (nblocks > 0)
		vg_ghash_update_pclmul(y, gk, in, nblocks);
}

#endif /* __x86_64__ */
