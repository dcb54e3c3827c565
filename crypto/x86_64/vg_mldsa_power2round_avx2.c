/*
 * vg_mldsa_power2round_avx2: Power2Round [FIPS 204 Alg. 35] on eight
 * lanes, as vg_mldsa_power2round_c. CT: constant time.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_power2round_avx2(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N])
{
	const __m256i r = _mm256_set1_epi32((1 << (VG_MLDSA_D - 1)) - 1);
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = vg_mldsa_caddq_avx2(
		    _mm256_loadu_si256((const __m256i *)(a + i)));
		__m256i t = _mm256_srai_epi32(_mm256_add_epi32(x, r),
		    VG_MLDSA_D);

		_mm256_storeu_si256((__m256i *)(a0 + i), _mm256_sub_epi32(x,
		    _mm256_slli_epi32(t, VG_MLDSA_D)));
		_mm256_storeu_si256((__m256i *)(a1 + i), t);
	}
}

#endif
