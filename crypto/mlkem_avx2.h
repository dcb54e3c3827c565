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

/* For the helpers of the NTTs, which GCC otherwise keeps out of line
 * (their arrays of vectors then go through memory). */
#define VG_AVX2_INLINE inline __attribute__((always_inline)) VG_AVX2

/* vg_mlkem_zetas[k] * q^-1 mod 2^16 for k < 16, the zetas the NTTs
 * broadcast (crypto/x86_64/vg_mlkem_ntt_avx2.c). */
extern const int16_t vg_mlkem_zetas_qinv[16];

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

/*
 * The kernels below work on four or eight independent vectors at once,
 * written step by step across them: GCC keeps the source order of these
 * operations, and one reduction after the other left the multipliers
 * waiting on latency (measured on the NTTs).
 */

/* o[i] = vg_mlkem_fqmul_avx2(a[i], z[i], zq[i]) for i < 4. */
static VG_AVX2_INLINE void
vg_mlkem_fqmul4_avx2(__m256i o[4], const __m256i a[4], const __m256i z[4],
    const __m256i zq[4])
{
	const __m256i q = _mm256_set1_epi16(VG_MLKEM_Q);
	__m256i hi[4], lo[4];
	unsigned i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		lo[i] = _mm256_mullo_epi16(a[i], zq[i]);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		hi[i] = _mm256_mulhi_epi16(a[i], z[i]);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		lo[i] = _mm256_mulhi_epi16(lo[i], q);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		o[i] = _mm256_sub_epi16(hi[i], lo[i]);
}

/* r[i] = vg_mlkem_barrett_avx2(r[i]) for i < 8. */
static VG_AVX2_INLINE void
vg_mlkem_barrett8_avx2(__m256i r[8])
{
	const __m256i v = _mm256_set1_epi16(
	    ((1 << 26) + VG_MLKEM_Q / 2) / VG_MLKEM_Q);
	const __m256i q = _mm256_set1_epi16(VG_MLKEM_Q);
	__m256i t[8];
	unsigned i;

#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		t[i] = _mm256_mulhi_epi16(r[i], v);
#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		t[i] = _mm256_mulhrs_epi16(t[i], _mm256_set1_epi16(1 << 5));
#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		t[i] = _mm256_mullo_epi16(t[i], q);
#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		r[i] = _mm256_sub_epi16(r[i], t[i]);
}

#endif

#endif
