/*
 * vg_mldsa_use_hint_avx2: UseHint [FIPS 204 Alg. 40] on eight lanes, as
 * vg_mldsa_use_hint_c: r1 moves by +1 (r0 > 0) or -1 where the hint is
 * set, modulo 16 or 44. CT: branches on the public gamma2 only.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_use_hint_avx2(int32_t b[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t h[VG_MLDSA_N], int32_t gamma2)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i one = _mm256_set1_epi32(1);
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = vg_mldsa_caddq_avx2(
		    _mm256_loadu_si256((const __m256i *)(a + i)));
		__m256i hh = _mm256_loadu_si256((const __m256i *)(h + i));
		__m256i a1 = vg_mldsa_highbits_avx2(x, gamma2);
		__m256i a0 = vg_mldsa_lowbits_avx2(x, a1, gamma2);
		/* d = +1 if a0 > 0 else -1, kept only where h = 1 */
		__m256i d = _mm256_or_si256(_mm256_cmpgt_epi32(one, a0), one);

		d = _mm256_and_si256(d, _mm256_sub_epi32(zero, hh));
		a1 = _mm256_add_epi32(a1, d);
		if (gamma2 == (VG_MLDSA_Q - 1) / 32) {
			a1 = _mm256_and_si256(a1, _mm256_set1_epi32(15));
		} else {
			const __m256i m44 = _mm256_set1_epi32(44);

			a1 = _mm256_add_epi32(a1, _mm256_and_si256(
			    _mm256_srai_epi32(a1, 31), m44));
			a1 = _mm256_sub_epi32(a1, _mm256_and_si256(
			    _mm256_cmpgt_epi32(a1, _mm256_set1_epi32(43)), m44));
		}
		_mm256_storeu_si256((__m256i *)(b + i), a1);
	}
}

#endif
