/*
 * vg_mldsa_decompose_avx2: Decompose [FIPS 204 Alg. 36] on eight lanes,
 * as vg_mldsa_decompose_c (HighBits by multiplication, LowBits moved below
 * (q-1)/2). CT: branches on the public gamma2 only.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_decompose_avx2(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N], int32_t gamma2)
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = vg_mldsa_caddq_avx2(
		    _mm256_loadu_si256((const __m256i *)(a + i)));
		__m256i h = vg_mldsa_highbits_avx2(x, gamma2);

		_mm256_storeu_si256((__m256i *)(a0 + i),
		    vg_mldsa_lowbits_avx2(x, h, gamma2));
		_mm256_storeu_si256((__m256i *)(a1 + i), h);
	}
}

#endif
