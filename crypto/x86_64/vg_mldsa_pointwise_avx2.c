/*
 * vg_mldsa_pointwise_avx2, vg_mldsa_pointwise_acc_avx2: Montgomery
 * products in the NTT domain on eight lanes [FIPS 204 Alg. 45, 46]. The
 * accumulating form adds the 64-bit products of the n terms and reduces
 * once, as vg_mldsa_pointwise_acc_c does. The odd lanes of one operand
 * are shifted down, those of the other shuffled down (vg_mldsa_hi32_avx2),
 * so the two execution ports split the work. CT: no branch or index on
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
		    vg_mldsa_hi32_avx2(y));

		_mm256_storeu_si256((__m256i *)(c + i),
		    vg_mldsa_montred64_avx2(pe, po, qinv, q));
	}
}

/* The accumulating product for n terms; inlined with a constant n for
 * the vector lengths of the parameter sets, so the inner loop unrolls.
 * Sixteen coefficients per iteration: two independent sums per parity. */
static inline __attribute__((always_inline)) VG_AVX2 void
acc(int32_t c[VG_MLDSA_N], const int32_t *a, const int32_t *b, unsigned n)
{
	const __m256i q = _mm256_set1_epi32(VG_MLDSA_Q);
	const __m256i qinv = _mm256_set1_epi32((int32_t)VG_MLDSA_QINV);
	unsigned i, j;

	for (i = 0; i < VG_MLDSA_N; i += 16) {
		__m256i se0 = _mm256_setzero_si256(), so0 = se0, se1 = se0,
		    so1 = se0;

		_Pragma("GCC unroll 8")
		for (j = 0; j < n; j++) {
			const int32_t *pa = a + VG_MLDSA_N * j + i;
			const int32_t *pb = b + VG_MLDSA_N * j + i;
			__m256i x0 = _mm256_loadu_si256((const __m256i *)pa);
			__m256i y0 = _mm256_loadu_si256((const __m256i *)pb);
			__m256i x1 = _mm256_loadu_si256(
			    (const __m256i *)(pa + 8));
			__m256i y1 = _mm256_loadu_si256(
			    (const __m256i *)(pb + 8));

			se0 = _mm256_add_epi64(se0, _mm256_mul_epi32(x0, y0));
			so0 = _mm256_add_epi64(so0, _mm256_mul_epi32(
			    _mm256_srli_epi64(x0, 32), vg_mldsa_hi32_avx2(y0)));
			se1 = _mm256_add_epi64(se1, _mm256_mul_epi32(x1, y1));
			so1 = _mm256_add_epi64(so1, _mm256_mul_epi32(
			    _mm256_srli_epi64(x1, 32), vg_mldsa_hi32_avx2(y1)));
			/* keep the sums running: regrouped into a tree, they
			 * hold every product live at once and spill */
			__asm__("" : "+x"(se0), "+x"(so0), "+x"(se1),
			    "+x"(so1));
		}
		_mm256_storeu_si256((__m256i *)(c + i),
		    vg_mldsa_montred64_avx2(se0, so0, qinv, q));
		_mm256_storeu_si256((__m256i *)(c + i + 8),
		    vg_mldsa_montred64_avx2(se1, so1, qinv, q));
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
