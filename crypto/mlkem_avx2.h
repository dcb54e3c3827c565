/*
 * Inline helpers shared by the ML-KEM AVX2 kernels (crypto/x86_64/
 * vg_mlkem_*_avx2.c): Montgomery and Barrett reductions on sixteen 16-bit
 * lanes, each giving exactly the value of its scalar twin in
 * crypto/mlkem_int.h, and a 16x16 transpose. Every function is compiled
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
 * The lane zetas of the NTT layers that run on the transposed
 * polynomial (butterflies inside a block of sixteen coefficients), lane
 * b for block b: rows 0-6 the forward layers len 8, 4 (two halves) and
 * 2 (four quarters), rows 7-13 the inverse layers len 2, 4 and 8
 * (crypto/x86_64/vg_mlkem_ntt_avx2.c).
 */
extern const int16_t vg_mlkem_lane_zetas[14][16];

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

/* 8x8 transposes of 16-bit lanes inside each 128-bit half of x[0..7]. */
static inline VG_AVX2 void
vg_mlkem_tr8_avx2(__m256i x[8])
{
	__m256i a[8], b[8];
	unsigned i;

	for (i = 0; i < 4; i++) {
		a[2 * i] = _mm256_unpacklo_epi16(x[2 * i], x[2 * i + 1]);
		a[2 * i + 1] = _mm256_unpackhi_epi16(x[2 * i], x[2 * i + 1]);
	}
	for (i = 0; i < 2; i++) {
		b[4 * i] = _mm256_unpacklo_epi32(a[4 * i], a[4 * i + 2]);
		b[4 * i + 1] = _mm256_unpackhi_epi32(a[4 * i], a[4 * i + 2]);
		b[4 * i + 2] = _mm256_unpacklo_epi32(a[4 * i + 1], a[4 * i + 3]);
		b[4 * i + 3] = _mm256_unpackhi_epi32(a[4 * i + 1], a[4 * i + 3]);
	}
	for (i = 0; i < 4; i++) {
		x[2 * i] = _mm256_unpacklo_epi64(b[i], b[4 + i]);
		x[2 * i + 1] = _mm256_unpackhi_epi64(b[i], b[4 + i]);
	}
}

/* Transposes the 16x16 matrix of 16-bit lanes in r[0..15] (its own
 * inverse): afterwards lane b of r[j] is what lane j of r[b] was. */
static inline VG_AVX2 void
vg_mlkem_tr16_avx2(__m256i r[16])
{
	__m256i s[16];
	unsigned j;

	vg_mlkem_tr8_avx2(r);
	vg_mlkem_tr8_avx2(r + 8);
	for (j = 0; j < 8; j++) {
		s[j] = _mm256_permute2x128_si256(r[j], r[8 + j], 0x20);
		s[8 + j] = _mm256_permute2x128_si256(r[j], r[8 + j], 0x31);
	}
	for (j = 0; j < 16; j++)
		r[j] = s[j];
}

#endif

#endif
