/*
 * Inline helpers shared by the ML-DSA AVX2 kernels (crypto/x86_64/
 * vg_mldsa_*_avx2.c): Montgomery products on eight 32-bit lanes and an
 * 8x8 transpose. Every function is compiled for AVX2 through a target
 * attribute and is only reached from kernels chosen when VG_CPU_AVX2 is in
 * use. No secret-dependent branch or index anywhere.
 */
#ifndef VG_CRYPTO_MLDSA_AVX2_H
#define VG_CRYPTO_MLDSA_AVX2_H

#if defined(__x86_64__)

#include <immintrin.h>

#include "crypto/ct.h"
#include "crypto/mldsa_int.h"

/* AVX2 code may use POPCNT: crypto/cpu.c reports avx2 only with it. */
#define VG_AVX2 __attribute__((target("avx2,popcnt")))

/*
 * The odd 32-bit lanes of x in the even positions (the odd positions hold
 * copies): what _mm256_srli_epi64(x, 32) gives wherever only the low half
 * of each 64-bit lane is read (VPMULDQ's operands, the even lanes of a
 * blend). VMOVSHDUP runs on the shuffle port, leaving the two ports that
 * shift and multiply to the multiplications, which bound these kernels.
 */
static inline VG_AVX2 __m256i
vg_mldsa_hi32_avx2(__m256i x)
{
	return _mm256_castps_si256(_mm256_movehdup_ps(
	    _mm256_castsi256_ps(x)));
}

/*
 * Montgomery product a * z * 2^-32 on eight lanes, with zq = z * q^-1 mod
 * 2^32 precomputed: t = low32(a * zq), result = high32(a * z) -
 * high32(t * q), the exact value of vg_mldsa_montred((int64_t)a * z) (the
 * low halves cancel, so the 32-bit difference of the high halves has no
 * borrow). zo and zqo hold z and zq of the odd lanes in the even
 * positions (equal to z and zq for a broadcast constant).
 */
static inline VG_AVX2 __m256i
vg_mldsa_montmul_avx2(__m256i a, __m256i z, __m256i zq, __m256i zo,
    __m256i zqo, __m256i q)
{
	__m256i ao = vg_mldsa_hi32_avx2(a);
	__m256i pe = _mm256_mul_epi32(a, z);
	__m256i po = _mm256_mul_epi32(ao, zo);
	__m256i te = _mm256_mul_epi32(a, zq);
	__m256i to = _mm256_mul_epi32(ao, zqo);

	te = _mm256_mul_epi32(te, q);
	to = _mm256_mul_epi32(to, q);
	pe = _mm256_sub_epi32(pe, te);
	po = _mm256_sub_epi32(po, to);
	return _mm256_blend_epi32(vg_mldsa_hi32_avx2(pe), po, 0xaa);
}

/* Montgomery reduction of the 64-bit sums se (even lanes) and so (odd
 * lanes): high32(s - t q) with t = low32(s * q^-1). */
static inline VG_AVX2 __m256i
vg_mldsa_montred64_avx2(__m256i se, __m256i so, __m256i qinv, __m256i q)
{
	__m256i te = _mm256_mul_epu32(se, qinv);
	__m256i to = _mm256_mul_epu32(so, qinv);

	te = _mm256_mul_epi32(te, q);
	to = _mm256_mul_epi32(to, q);
	se = _mm256_sub_epi32(se, te);
	so = _mm256_sub_epi32(so, to);
	return _mm256_blend_epi32(vg_mldsa_hi32_avx2(se), so, 0xaa);
}

/* vg_mldsa_rej_idx[m] lists the set bits of m in increasing order (then
 * zeros): the vpermd indices that pack the accepted lanes of an 8-lane
 * candidate vector with acceptance mask m. Defined in
 * crypto/x86_64/vg_mldsa_rej_uniform_avx2.c. */
extern const uint8_t vg_mldsa_rej_idx[256][8];

/* Compacts the lanes of x selected by the 8-bit mask m to the front. */
static inline VG_AVX2 __m256i
vg_mldsa_compact_avx2(__m256i x, unsigned m)
{
	__m128i i8 = _mm_loadl_epi64((const __m128i *)vg_mldsa_rej_idx[m]);

	return _mm256_permutevar8x32_epi32(x, _mm256_cvtepu8_epi32(i8));
}

/* Number of set bits of an 8-bit value. */
static inline VG_AVX2 unsigned
vg_mldsa_popcount8(unsigned m)
{
	return (unsigned)__builtin_popcount(m);
}

/* Transposes the 8x8 matrix of 32-bit lanes r[0..7] in place. */
static inline VG_AVX2 void
vg_mldsa_transpose8_avx2(__m256i r[8])
{
	__m256i t[8], u[8];

	t[0] = _mm256_unpacklo_epi32(r[0], r[1]);
	t[1] = _mm256_unpackhi_epi32(r[0], r[1]);
	t[2] = _mm256_unpacklo_epi32(r[2], r[3]);
	t[3] = _mm256_unpackhi_epi32(r[2], r[3]);
	t[4] = _mm256_unpacklo_epi32(r[4], r[5]);
	t[5] = _mm256_unpackhi_epi32(r[4], r[5]);
	t[6] = _mm256_unpacklo_epi32(r[6], r[7]);
	t[7] = _mm256_unpackhi_epi32(r[6], r[7]);
	u[0] = _mm256_unpacklo_epi64(t[0], t[2]);
	u[1] = _mm256_unpackhi_epi64(t[0], t[2]);
	u[2] = _mm256_unpacklo_epi64(t[1], t[3]);
	u[3] = _mm256_unpackhi_epi64(t[1], t[3]);
	u[4] = _mm256_unpacklo_epi64(t[4], t[6]);
	u[5] = _mm256_unpackhi_epi64(t[4], t[6]);
	u[6] = _mm256_unpacklo_epi64(t[5], t[7]);
	u[7] = _mm256_unpackhi_epi64(t[5], t[7]);
	r[0] = _mm256_permute2x128_si256(u[0], u[4], 0x20);
	r[1] = _mm256_permute2x128_si256(u[1], u[5], 0x20);
	r[2] = _mm256_permute2x128_si256(u[2], u[6], 0x20);
	r[3] = _mm256_permute2x128_si256(u[3], u[7], 0x20);
	r[4] = _mm256_permute2x128_si256(u[0], u[4], 0x31);
	r[5] = _mm256_permute2x128_si256(u[1], u[5], 0x31);
	r[6] = _mm256_permute2x128_si256(u[2], u[6], 0x31);
	r[7] = _mm256_permute2x128_si256(u[3], u[7], 0x31);
}

/* a + q where a < 0: (-q, q) onto [0, q). */
static inline VG_AVX2 __m256i
vg_mldsa_caddq_avx2(__m256i a)
{
	return _mm256_add_epi32(a, _mm256_and_si256(_mm256_srai_epi32(a, 31),
	    _mm256_set1_epi32(VG_MLDSA_Q)));
}

/* HighBits of eight lanes 0 <= a < q [FIPS 204 Alg. 37], the formula of
 * crypto/mldsa_round.c with the multiplications by 1025 and 11275 = 11 *
 * 1025 as shifts and adds. */
static inline VG_AVX2 __m256i
vg_mldsa_highbits_avx2(__m256i a, int32_t gamma2)
{
	__m256i a1 = _mm256_srai_epi32(
	    _mm256_add_epi32(a, _mm256_set1_epi32(127)), 7);

	a1 = _mm256_add_epi32(_mm256_slli_epi32(a1, 10), a1); /* * 1025 */
	if (gamma2 == (VG_MLDSA_Q - 1) / 32) {
		a1 = _mm256_add_epi32(a1, _mm256_set1_epi32(1 << 21));
		a1 = _mm256_srai_epi32(a1, 22);
		a1 = _mm256_and_si256(a1, _mm256_set1_epi32(15));
	} else {
		__m256i m;

		/* * 11 */
		a1 = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(a1, 3),
		    _mm256_slli_epi32(a1, 1)), a1);
		a1 = _mm256_add_epi32(a1, _mm256_set1_epi32(1 << 23));
		a1 = _mm256_srai_epi32(a1, 24);
		m = _mm256_srai_epi32(
		    _mm256_sub_epi32(_mm256_set1_epi32(43), a1), 31);
		a1 = _mm256_xor_si256(a1, _mm256_and_si256(m, a1));
	}
	return a1;
}

/* LowBits given a and a1: a - a1 * 2 gamma2 (2 gamma2 = 2^19 - 2^9 or
 * 2^17 + 2^16 - 2^12 - 2^11), minus q above (q-1)/2. */
static inline VG_AVX2 __m256i
vg_mldsa_lowbits_avx2(__m256i a, __m256i a1, int32_t gamma2)
{
	const __m256i q = _mm256_set1_epi32(VG_MLDSA_Q);
	__m256i r0, m, p;

	if (gamma2 == (VG_MLDSA_Q - 1) / 32)
		p = _mm256_sub_epi32(_mm256_slli_epi32(a1, 19),
		    _mm256_slli_epi32(a1, 9));
	else
		p = _mm256_sub_epi32(_mm256_add_epi32(_mm256_slli_epi32(a1, 17),
		    _mm256_slli_epi32(a1, 16)), _mm256_add_epi32(
		    _mm256_slli_epi32(a1, 12), _mm256_slli_epi32(a1, 11)));
	r0 = _mm256_sub_epi32(a, p);
	m = _mm256_cmpgt_epi32(r0, _mm256_set1_epi32((VG_MLDSA_Q - 1) / 2));
	return _mm256_sub_epi32(r0, _mm256_and_si256(m, q));
}

#endif
#endif
