/*
 * vg_mldsa_chknorm_avx2: the infinity-norm check of crypto/mldsa_kernels.h
 * on eight coefficients at a time. The bound is clamped to q first (a
 * branch on the public bound only); then (bound - 1) - a and
 * (bound - 1) + a both fit in 32 bits and one of them is negative exactly
 * when |a| >= bound. Their OR is accumulated, the sign bits are spread
 * (vpsrad 31) and vpmovmskb gives the result; no branch on data.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 uint32_t
vg_mldsa_chknorm_avx2(const int32_t a[VG_MLDSA_N], int32_t bound)
{
	__m256i b, acc = _mm256_setzero_si256();
	uint32_t m;
	unsigned i;

	if (bound > VG_MLDSA_Q)
		bound = VG_MLDSA_Q;
	b = _mm256_set1_epi32(bound - 1);
	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(a + i));

		acc = _mm256_or_si256(acc, _mm256_or_si256(
		    _mm256_sub_epi32(b, x), _mm256_add_epi32(b, x)));
	}
	acc = _mm256_srai_epi32(acc, 31);
	m = (uint32_t)_mm256_movemask_epi8(acc);
	/* 1 if m != 0, without a branch */
	return (uint32_t)(((uint64_t)m + 0xffffffffu) >> 32);
}

#endif
