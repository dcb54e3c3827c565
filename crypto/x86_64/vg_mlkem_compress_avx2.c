/*
 * vg_mlkem_compress_avx2: Compress_d [FIPS 203 (4.7)] of sixteen
 * coefficients at a time, without division: on 32-bit lanes,
 * t = (a << d) + (q - 1) / 2 < 2^23 and floor(t / q) = (t M) >> 35 with
 * M = ceil(2^35 / q), exact because t (M q - 2^35) < 2^23 q < 2^35
 * (VPMULUDQ on the even and the odd lanes); the same values as
 * vg_mlkem_compress_c, which tests/kernels/test_mlkem_kernels.c checks
 * for every a in [0, q) and every d. CT: no branch or index on
 * coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

#define DIV_M ((((uint64_t)1 << 35) + VG_MLKEM_Q - 1) / VG_MLKEM_Q)

static inline VG_AVX2 __m256i
compress8(__m256i x, __m128i d, __m256i mask)
{
	const __m256i m = _mm256_set1_epi64x((long long)DIV_M);
	__m256i t = _mm256_add_epi32(_mm256_sll_epi32(x, d),
	    _mm256_set1_epi32(VG_MLKEM_Q / 2));
	__m256i e = _mm256_srli_epi64(_mm256_mul_epu32(t, m), 35);
	__m256i o = _mm256_srli_epi64(_mm256_mul_epu32(
	    _mm256_srli_epi64(t, 32), m), 35);

	return _mm256_and_si256(_mm256_or_si256(e, _mm256_slli_epi64(o, 32)),
	    mask);
}

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_compress_avx2(uint16_t t[VG_MLKEM_N], const int16_t a[VG_MLKEM_N],
    unsigned d)
{
	const __m128i dv = _mm_cvtsi32_si128((int)d);
	const __m256i mask = _mm256_set1_epi32((1 << d) - 1);
	unsigned i;

	for (i = 0; i < VG_MLKEM_N; i += 16) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(a + i));
		__m256i lo = compress8(_mm256_cvtepu16_epi32(
		    _mm256_castsi256_si128(x)), dv, mask);
		__m256i hi = compress8(_mm256_cvtepu16_epi32(
		    _mm256_extracti128_si256(x, 1)), dv, mask);

		_mm256_storeu_si256((__m256i *)(t + i),
		    _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi),
		    0xd8));
	}
}

#endif
