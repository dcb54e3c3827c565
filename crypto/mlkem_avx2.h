/*
 * Inline helpers shared by the ML-KEM AVX2 kernels (crypto/x86_64/
 * vg_mlkem_*_avx2.c): Montgomery and Barrett reductions on sixteen 16-bit
 * lanes, each giving exactly the value of its scalar twin in
 * crypto/mlkem_int.h. Every function is compiled
 * for AVX2 through a target attribute and is only reached from kernels
 * chosen when VG_CPU_AVX2 is in use. No secret-dependent branch or index.
 */
#ifndef VG_CRYPTO_MLKEM_AVX2_H
#define VG_CRYPTO_MLKEM_AVX2_H

#if defined(__x86_64__)

#include <immintrin.h>

#include "crypto/mlkem_int.h"

/* AVX2 code may use POPCNT: crypto/cpu.c reports avx2 only with it. */
#define VG_AVX2 __attribute__((target("avx2,popcnt")))

/*
 * Montgomery product a * z * 2^-16 on sixteen lanes, with zq = z * q^-1
 * mod 2^16 precomputed: high16(a * z) - high16(low16(a * zq) * q), the
 * exact value of vg_mlkem_fqmul(a, z) (the low halves cancel).
 */
static inline VG_AVX2 __m256i
vg_mlkem_fqmul_avx2(__m256i a, __m256i z, __m256i zq)
{
	const __m256i q = _mm256_set1_epi16(VG_MLKEM_Q);
	__m256i hi = _mm256_mulhi_epi16(a, z);
	__m256i t = _mm256_mullo_epi16(a, zq);

	return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, q));
}

/* z * q^-1 mod 2^16 on each lane. */
static inline VG_AVX2 __m256i
vg_mlkem_zq_avx2(__m256i z)
{
	return _mm256_mullo_epi16(z, _mm256_set1_epi16(VG_MLKEM_QINV));
}

/*
 * vg_mlkem_barrett on sixteen lanes: t = round(high16(a * v) / 2^10) by
 * VPMULHRSW with 2^5, equal to (v a + 2^25) >> 26, then a - t q.
 */
static inline VG_AVX2 __m256i
vg_mlkem_barrett_avx2(__m256i a)
{
	const __m256i v = _mm256_set1_epi16(
	    ((1 << 26) + VG_MLKEM_Q / 2) / VG_MLKEM_Q);
	__m256i t = _mm256_mulhi_epi16(a, v);

	t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 5));
	return _mm256_sub_epi16(a, _mm256_mullo_epi16(t,
	    _mm256_set1_epi16(VG_MLKEM_Q)));
}

#endif

#endif
