/*
 * vg_mldsa_reduce_sum_avx2: c = (a + s b) mod q, eight coefficients at a
 * time, by the reduction of vg_mldsa_reduce32: t = (x + 2^22) >> 23,
 * x - t q (the product t q by shift-and-subtract: q = 2^23 - 2^13 + 1).
 * The portable twin is vg_mldsa_reduce_sum_c.
 * CT: no branch or index on coefficients (only on the public s).
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

static inline VG_AVX2 __m256i
reduce32(__m256i x)
{
	const __m256i h = _mm256_set1_epi32(1 << 22);
	__m256i t = _mm256_srai_epi32(_mm256_add_epi32(x, h), 23);
	__m256i tq = _mm256_add_epi32(_mm256_sub_epi32(
	    _mm256_slli_epi32(t, 23), _mm256_slli_epi32(t, 13)), t);

	return _mm256_sub_epi32(x, tq);
}

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_reduce_sum_avx2(int32_t c[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t b[VG_MLDSA_N], int32_t s)
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(a + i));

		if (s > 0)
			x = _mm256_add_epi32(x, _mm256_loadu_si256(
			    (const __m256i *)(b + i)));
		else if (s < 0)
			x = _mm256_sub_epi32(x, _mm256_loadu_si256(
			    (const __m256i *)(b + i)));
		_mm256_storeu_si256((__m256i *)(c + i), reduce32(x));
	}
}

#endif
