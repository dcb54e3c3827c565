/*
 * vg_mldsa_hint_input_avx2: MakeHint's arguments from r0, c t0 and w1,
 * eight coefficients at a time: r = caddq(reduce32(w1 * 2 gamma2 + r +
 * u)), u = -u (see vg_mldsa_hint_input_c). The reduction is that of
 * vg_mldsa_reduce32 with t q by shift-and-subtract.
 * CT: no branch or index on coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_hint_input_avx2(int32_t r[VG_MLDSA_N], int32_t u[VG_MLDSA_N],
    const int32_t w1[VG_MLDSA_N], int32_t gamma2)
{
	const __m256i g = _mm256_set1_epi32(2 * gamma2);
	const __m256i h = _mm256_set1_epi32(1 << 22);
	const __m256i q = _mm256_set1_epi32(VG_MLDSA_Q);
	const __m256i zero = _mm256_setzero_si256();
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(w1 + i));
		__m256i y = _mm256_loadu_si256((const __m256i *)(u + i));
		__m256i t, tq;

		x = _mm256_mullo_epi32(x, g);
		x = _mm256_add_epi32(x, _mm256_loadu_si256(
		    (const __m256i *)(r + i)));
		x = _mm256_add_epi32(x, y);
		t = _mm256_srai_epi32(_mm256_add_epi32(x, h), 23);
		tq = _mm256_add_epi32(_mm256_sub_epi32(
		    _mm256_slli_epi32(t, 23), _mm256_slli_epi32(t, 13)), t);
		x = _mm256_sub_epi32(x, tq);
		x = _mm256_add_epi32(x, _mm256_and_si256(
		    _mm256_srai_epi32(x, 31), q));
		_mm256_storeu_si256((__m256i *)(r + i), x);
		_mm256_storeu_si256((__m256i *)(u + i),
		    _mm256_sub_epi32(zero, y));
	}
}

#endif
