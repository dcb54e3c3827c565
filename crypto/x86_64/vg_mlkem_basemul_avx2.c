/*
 * vg_mlkem_basemul_acc_avx2: products in the NTT domain [FIPS 203
 * Alg. 11, 12] on sixteen 16-bit lanes (eight pairs), with the sums and
 * the one Montgomery reduction of vg_mlkem_basemul_acc_c (the results are
 * equal). VPMADDWD forms both 32-bit sums of a pair: a0 b0 + (a1 b1
 * R^-1) gamma from the operands with their odd lanes replaced, and
 * a0 b1 + a1 b0 against b with its lanes swapped. CT: no branch or index
 * on coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

/* gamma of each pair in its odd lane: zetas[64 + p / 2], negated for odd
 * p, for the eight pairs of each block of sixteen coefficients. */
static const int16_t gammas[16][16] __attribute__((aligned(32))) = {
	{ 0, -1103, 0, 1103, 0, 430, 0, -430,
	  0, 555, 0, -555, 0, 843, 0, -843 },
	{ 0, -1251, 0, 1251, 0, 871, 0, -871,
	  0, 1550, 0, -1550, 0, 105, 0, -105 },
	{ 0, 422, 0, -422, 0, 587, 0, -587,
	  0, 177, 0, -177, 0, -235, 0, 235 },
	{ 0, -291, 0, 291, 0, -460, 0, 460,
	  0, 1574, 0, -1574, 0, 1653, 0, -1653 },
	{ 0, -246, 0, 246, 0, 778, 0, -778,
	  0, 1159, 0, -1159, 0, -147, 0, 147 },
	{ 0, -777, 0, 777, 0, 1483, 0, -1483,
	  0, -602, 0, 602, 0, 1119, 0, -1119 },
	{ 0, -1590, 0, 1590, 0, 644, 0, -644,
	  0, -872, 0, 872, 0, 349, 0, -349 },
	{ 0, 418, 0, -418, 0, 329, 0, -329,
	  0, -156, 0, 156, 0, -75, 0, 75 },
	{ 0, 817, 0, -817, 0, 1097, 0, -1097,
	  0, 603, 0, -603, 0, 610, 0, -610 },
	{ 0, 1322, 0, -1322, 0, -1285, 0, 1285,
	  0, -1465, 0, 1465, 0, 384, 0, -384 },
	{ 0, -1215, 0, 1215, 0, -136, 0, 136,
	  0, 1218, 0, -1218, 0, -1335, 0, 1335 },
	{ 0, -874, 0, 874, 0, 220, 0, -220,
	  0, -1187, 0, 1187, 0, -1659, 0, 1659 },
	{ 0, -1185, 0, 1185, 0, -1530, 0, 1530,
	  0, -1278, 0, 1278, 0, 794, 0, -794 },
	{ 0, -1510, 0, 1510, 0, -854, 0, 854,
	  0, -870, 0, 870, 0, 478, 0, -478 },
	{ 0, -108, 0, 108, 0, -308, 0, 308,
	  0, 996, 0, -996, 0, 991, 0, -991 },
	{ 0, 958, 0, -958, 0, -1460, 0, 1460,
	  0, 1522, 0, -1522, 0, 1628, 0, -1628 },
};

/* Montgomery reduction of eight 32-bit sums: (s - t q) >> 16 with t the
 * sign-extended low half of s q^-1, as vg_mlkem_montred. */
static inline VG_AVX2 __m256i
montred32(__m256i s)
{
	__m256i t = _mm256_mullo_epi32(s, _mm256_set1_epi32(VG_MLKEM_QINV));

	t = _mm256_srai_epi32(_mm256_slli_epi32(t, 16), 16);
	return _mm256_srai_epi32(_mm256_sub_epi32(s, _mm256_mullo_epi32(t,
	    _mm256_set1_epi32(VG_MLKEM_Q))), 16);
}

static inline __attribute__((always_inline)) VG_AVX2 void
basemul_n(int16_t c[VG_MLKEM_N], const int16_t *a, const int16_t *b,
    unsigned n)
{
	unsigned i, j;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		__m256i g = _mm256_load_si256((const __m256i *)gammas[i]);
		__m256i s0 = _mm256_setzero_si256(), s1 = s0, r0, r1;

		for (j = 0; j < n; j++) {
			__m256i x = _mm256_loadu_si256(
			    (const __m256i *)(a + 256 * j + 16 * i));
			__m256i y = _mm256_loadu_si256(
			    (const __m256i *)(b + 256 * j + 16 * i));
			__m256i u = vg_mlkem_fqmul_avx2(x, y,
			    vg_mlkem_zq_avx2(y));
			__m256i ys = _mm256_or_si256(_mm256_slli_epi32(y, 16),
			    _mm256_srli_epi32(y, 16));

			s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(
			    _mm256_blend_epi16(x, u, 0xaa),
			    _mm256_blend_epi16(y, g, 0xaa)));
			s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(x, ys));
		}
		r0 = montred32(s0);
		r1 = montred32(s1);
		_mm256_storeu_si256((__m256i *)(c + 16 * i),
		    _mm256_blend_epi16(r0, _mm256_slli_epi32(r1, 16), 0xaa));
	}
}

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_basemul_acc_avx2(int16_t c[VG_MLKEM_N], const int16_t *a,
    const int16_t *b, unsigned n)
{
	switch (n) {
	case 2:
		basemul_n(c, a, b, 2);
		break;
	case 3:
		basemul_n(c, a, b, 3);
		break;
	case 4:
		basemul_n(c, a, b, 4);
		break;
	default:
		basemul_n(c, a, b, n);
		break;
	}
}

#endif
