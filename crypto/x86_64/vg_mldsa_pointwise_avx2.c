/*
 * vg_mldsa_pointwise_avx2, vg_mldsa_pointwise_acc_avx2: Montgomery
 * products in the NTT domain on eight lanes [FIPS 204 Alg. 45, 46]. The
 * accumulating form adds the 64-bit products of the n terms and reduces
 * once, as vg_mldsa_pointwise_acc_c does. CT: no branch or index on
 * coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_pointwise_avx2(int32_t c[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t b[VG_MLDSA_N])
{
	const __m256i q = _mm256_set1_epi32(VG_MLDSA_Q);
	const __m256i qinv = _mm256_set1_epi32((int32_t)VG_MLDSA_QINV);
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(a + i));
		__m256i y = _mm256_loadu_si256((const __m256i *)(b + i));
		__m256i pe = _mm256_mul_epi32(x, y);
		__m256i po = _mm256_mul_epi32(_mm256_srli_epi64(x, 32),
		    _mm256_srli_epi64(y, 32));

		_mm256_storeu_si256((__m256i *)(c + i),
		    vg_mldsa_montred64_avx2(pe, po, qinv, q));
	}
}

/* The accumulating product for n terms; inlined with a constant n for
 * the vector lengths of the parameter sets, so the inner loop unrolls. */
static inline __attribute__((always_inline)) VG_AVX2 void
acc(int32_t c[VG_MLDSA_N], const int32_t *a, const int32_t *b, unsigned n)
{
	const __m256i q = _mm256_set1_epi32(VG_MLDSA_Q);
	const __m256i qinv = _mm256_set1_epi32((int32_t)VG_MLDSA_QINV);
	unsigned i, j;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i se = _mm256_setzero_si256(), so = se;

		for (j = 0; j < n; j++) {
			__m256i x = _mm256_loadu_si256(
			    (const __m256i *)(a + VG_MLDSA_N * j + i));
			__m256i y = _mm256_loadu_si256(
			    (const __m256i *)(b + VG_MLDSA_N * j + i));

			se = _mm256_add_epi64(se, _mm256_mul_epi32(x, y));
			so = _mm256_add_epi64(so, _mm256_mul_epi32(
			    _mm256_srli_epi64(x, 32), _mm256_srli_epi64(y, 32)));
		}
		_mm256_storeu_si256((__m256i *)(c + i),
		    vg_mldsa_montred64_avx2(se, so, qinv, q));
	}
}

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_pointwise_acc_avx2(int32_t c[VG_MLDSA_N], const int32_t *a,
    const int32_t *b, unsigned n)
{
	switch (n) {
	case 4:
		acc(c, a, b, 4);
		break;
	case 5:
		acc(c, a, b, 5);
		break;
	case 7:
		acc(c, a, b, 7);
		break;
	default:
		acc(c, a, b, n);
		break;
	}
}

#endif
