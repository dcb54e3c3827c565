/*
 * vg_mlkem_ntt_avx2: the forward NTT [FIPS 203 Alg. 9] on sixteen 16-bit
 * lanes, with the butterflies and reductions of vg_mlkem_ntt_c (the
 * results are equal). Layers len = 128 ... 16 pair whole vectors
 * (sixteen consecutive coefficients each) under one zeta; for len = 8, 4
 * and 2 two blocks of sixteen are shuffled together (128-bit halves,
 * 64-bit and 32-bit groups) so that each butterfly pairs two vectors with
 * one zeta per lane, and shuffled back; the working set is four vectors,
 * which stays in registers (a whole-polynomial 16x16 transpose spilled
 * and cost more shuffles). vg_mlkem_invntt_avx2 runs the same shuffles
 * in reverse.
 * CT: no branch or index on coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

/* Per pair p of blocks (2p, 2p + 1): the zetas of the in-block layers
 * len 8, 4, 2 in the lane order of the shuffled pair, each followed by
 * its zeta * q^-1 mod 2^16 (generated from vg_mlkem_zetas). */
static const int16_t pair_zetas[8][6][16] __attribute__((aligned(32))) = {
	{
		{ 573, 573, 573, 573, 573, 573, 573, 573,
		  -1325, -1325, -1325, -1325, -1325, -1325, -1325, -1325 },
		{ -5827, -5827, -5827, -5827, -5827, -5827, -5827, -5827,
		  17363, 17363, 17363, 17363, 17363, 17363, 17363, 17363 },
		{ 1223, 1223, 1223, 1223, 652, 652, 652, 652,
		  -552, -552, -552, -552, 1015, 1015, 1015, 1015 },
		{ -5689, -5689, -5689, -5689, -6516, -6516, -6516, -6516,
		  1496, 1496, 1496, 1496, 30967, 30967, 30967, 30967 },
		{ -1103, -1103, 430, 430, 555, 555, 843, 843,
		  -1251, -1251, 871, 871, 1550, 1550, 105, 105 },
		{ -335, -335, 11182, 11182, -11477, -11477, 13387, 13387,
		  -32227, -32227, -14233, -14233, 20494, 20494, -21655, -21655 },
	},
	{
		{ 264, 264, 264, 264, 264, 264, 264, 264,
		  383, 383, 383, 383, 383, 383, 383, 383 },
		{ -26360, -26360, -26360, -26360, -26360, -26360, -26360, -26360,
		  -29057, -29057, -29057, -29057, -29057, -29057, -29057, -29057 },
		{ -1293, -1293, -1293, -1293, 1491, 1491, 1491, 1491,
		  -282, -282, -282, -282, -1544, -1544, -1544, -1544 },
		{ -23565, -23565, -23565, -23565, 20179, 20179, 20179, 20179,
		  20710, 20710, 20710, 20710, 25080, 25080, 25080, 25080 },
		{ 422, 422, 587, 587, 177, 177, -235, -235,
		  -291, -291, -460, -460, 1574, 1574, 1653, 1653 },
		{ -27738, -27738, 13131, 13131, 945, 945, -4587, -4587,
		  -14883, -14883, 23092, 23092, 6182, 6182, 5493, 5493 },
	},
	{
		{ -829, -829, -829, -829, -829, -829, -829, -829,
		  1458, 1458, 1458, 1458, 1458, 1458, 1458, 1458 },
		{ 5571, 5571, 5571, 5571, 5571, 5571, 5571, 5571,
		  -1102, -1102, -1102, -1102, -1102, -1102, -1102, -1102 },
		{ 516, 516, 516, 516, -8, -8, -8, -8,
		  -320, -320, -320, -320, -666, -666, -666, -666 },
		{ -12796, -12796, -12796, -12796, 26616, 26616, 26616, 26616,
		  16064, 16064, 16064, 16064, -12442, -12442, -12442, -12442 },
		{ -246, -246, 778, 778, 1159, 1159, -147, -147,
		  -777, -777, 1483, 1483, -602, -602, 1119, 1119 },
		{ 32010, 32010, -32502, -32502, 10631, 10631, 30317, 30317,
		  29175, 29175, -18741, -18741, -28762, -28762, 12639, 12639 },
	},
	{
		{ -1602, -1602, -1602, -1602, -1602, -1602, -1602, -1602,
		  -130, -130, -130, -130, -130, -130, -130, -130 },
		{ 21438, 21438, 21438, 21438, 21438, 21438, 21438, 21438,
		  -26242, -26242, -26242, -26242, -26242, -26242, -26242, -26242 },
		{ -1618, -1618, -1618, -1618, -1162, -1162, -1162, -1162,
		  126, 126, 126, 126, 1469, 1469, 1469, 1469 },
		{ 9134, 9134, 9134, 9134, -650, -650, -650, -650,
		  -25986, -25986, -25986, -25986, 27837, 27837, 27837, 27837 },
		{ -1590, -1590, 644, 644, -872, -872, 349, 349,
		  418, 418, 329, 329, -156, -156, -75, -75 },
		{ -18486, -18486, 20100, 20100, 17560, 17560, 18525, 18525,
		  -14430, -14430, 19529, 19529, -5276, -5276, -12619, -12619 },
	},
	{
		{ -681, -681, -681, -681, -681, -681, -681, -681,
		  1017, 1017, 1017, 1017, 1017, 1017, 1017, 1017 },
		{ -28073, -28073, -28073, -28073, -28073, -28073, -28073, -28073,
		  24313, 24313, 24313, 24313, 24313, 24313, 24313, 24313 },
		{ -853, -853, -853, -853, -90, -90, -90, -90,
		  -271, -271, -271, -271, 830, 830, 830, 830 },
		{ 19883, 19883, 19883, 19883, -28250, -28250, -28250, -28250,
		  -15887, -15887, -15887, -15887, -8898, -8898, -8898, -8898 },
		{ 817, 817, 1097, 1097, 603, 603, 610, 610,
		  1322, 1322, -1285, -1285, -1465, -1465, 384, 384 },
		{ -31183, -31183, 20297, 20297, 25435, 25435, 2146, 2146,
		  -7382, -7382, 15355, 15355, 24391, 24391, -32384, -32384 },
	},
	{
		{ 732, 732, 732, 732, 732, 732, 732, 732,
		  608, 608, 608, 608, 608, 608, 608, 608 },
		{ -10532, -10532, -10532, -10532, -10532, -10532, -10532, -10532,
		  8800, 8800, 8800, 8800, 8800, 8800, 8800, 8800 },
		{ 107, 107, 107, 107, -1421, -1421, -1421, -1421,
		  -247, -247, -247, -247, -951, -951, -951, -951 },
		{ -28309, -28309, -28309, -28309, 9075, 9075, 9075, 9075,
		  -30199, -30199, -30199, -30199, 18249, 18249, 18249, 18249 },
		{ -1215, -1215, -136, -136, 1218, 1218, -1335, -1335,
		  -874, -874, 220, 220, -1187, -1187, -1659, -1659 },
		{ -20927, -20927, -6280, -6280, 10946, 10946, -14903, -14903,
		  24214, 24214, -11044, -11044, 16989, 16989, 14469, 14469 },
	},
	{
		{ -1542, -1542, -1542, -1542, -1542, -1542, -1542, -1542,
		  411, 411, 411, 411, 411, 411, 411, 411 },
		{ 18426, 18426, 18426, 18426, 18426, 18426, 18426, 18426,
		  8859, 8859, 8859, 8859, 8859, 8859, 8859, 8859 },
		{ -398, -398, -398, -398, 961, 961, 961, 961,
		  -1508, -1508, -1508, -1508, -725, -725, -725, -725 },
		{ 13426, 13426, 13426, 13426, 14017, 14017, 14017, 14017,
		  -29156, -29156, -29156, -29156, -12757, -12757, -12757, -12757 },
		{ -1185, -1185, -1530, -1530, -1278, -1278, 794, 794,
		  -1510, -1510, -854, -854, -870, -870, 478, 478 },
		{ 10335, 10335, -21498, -21498, -7934, -7934, -20198, -20198,
		  -22502, -22502, 23210, 23210, 10906, 10906, -17442, -17442 },
	},
	{
		{ -205, -205, -205, -205, -205, -205, -205, -205,
		  -1571, -1571, -1571, -1571, -1571, -1571, -1571, -1571 },
		{ 26675, 26675, 26675, 26675, 26675, 26675, 26675, 26675,
		  -16163, -16163, -16163, -16163, -16163, -16163, -16163, -16163 },
		{ 448, 448, 448, 448, -1065, -1065, -1065, -1065,
		  677, 677, 677, 677, -1275, -1275, -1275, -1275 },
		{ 16832, 16832, 16832, 16832, 4311, 4311, 4311, 4311,
		  -24155, -24155, -24155, -24155, -17915, -17915, -17915, -17915 },
		{ -108, -108, -308, -308, 996, 996, 991, 991,
		  958, 958, -1460, -1460, 1522, 1522, 1628, 1628 },
		{ 31636, 31636, -23860, -23860, 28644, 28644, -20257, -20257,
		  23998, 23998, 7756, 7756, -17422, -17422, 23132, 23132 },
	},
};

/* see crypto/mlkem_avx2.h */
const int16_t vg_mlkem_zetas_qinv[16] = {
	-20, 31498, 14745, 787, 13525, -12402, 28191, -16694,
	-20907, 27758, -3799, -15690, 10690, 1358, -11202, 31164,
};

/* Four independent Cooley-Tukey butterflies x[i], y[i] under z[i]
 * (zq[i] = z[i] q^-1 mod 2^16), interleaved. */
static VG_AVX2_INLINE void
bf4(__m256i *x[4], __m256i *y[4], const __m256i z[4], const __m256i zq[4])
{
	__m256i a[4], t[4];
	unsigned i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		a[i] = *y[i];
	vg_mlkem_fqmul4_avx2(t, a, z, zq);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		*y[i] = _mm256_sub_epi16(*x[i], t[i]);
		*x[i] = _mm256_add_epi16(*x[i], t[i]);
	}
}

/* bf4 on x[i], y[i] with the lane zetas of row 'row' of pair 4h + i. */
static VG_AVX2_INLINE void
bf4z(__m256i x[4], __m256i y[4], unsigned h, unsigned row)
{
	__m256i *px[4], *py[4], z[4], zq[4];
	unsigned i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		px[i] = &x[i];
		py[i] = &y[i];
		z[i] = _mm256_load_si256(
		    (const __m256i *)pair_zetas[4 * h + i][row]);
		zq[i] = _mm256_load_si256(
		    (const __m256i *)pair_zetas[4 * h + i][row + 1]);
	}
	bf4(px, py, z, zq);
}

/* Four butterflies r[xi[i]], r[xi[i] + len] under the broadcast zetas
 * k[i] of vg_mlkem_zetas. */
static VG_AVX2_INLINE void
bf4r(__m256i *r, const unsigned xi[4], unsigned len, const unsigned k[4])
{
	__m256i *px[4], *py[4], z[4], zq[4];
	unsigned i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		px[i] = &r[xi[i]];
		py[i] = &r[xi[i] + len];
		z[i] = _mm256_set1_epi16(vg_mlkem_zetas[k[i]]);
		zq[i] = _mm256_set1_epi16(vg_mlkem_zetas_qinv[k[i]]);
	}
	bf4(px, py, z, zq);
}

/*
 * The layers len = 8, 4, 2 inside the blocks 8h ... 8h + 7 in r[0 .. 7],
 * pair i = (r[2i], r[2i + 1]) (pair 4h + i of the polynomial): the
 * halves, quarters and eighths of each block are brought into opposite
 * vectors by shuffles that are undone afterwards, each step across the
 * four pairs before the next.
 */
static VG_AVX2_INLINE void
inblock4(__m256i r[8], unsigned h)
{
	__m256i x[4], y[4], u, v;
	unsigned i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		/* x = a0-7 | b0-7, y = a8-15 | b8-15 */
		x[i] = _mm256_permute2x128_si256(r[2 * i], r[2 * i + 1], 0x20);
		y[i] = _mm256_permute2x128_si256(r[2 * i], r[2 * i + 1], 0x31);
	}
	bf4z(x, y, h, 0);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		/* u = a0-3 a8-11 | b0-3 b8-11, v = a4-7 a12-15 | b4-7 b12-15 */
		u = _mm256_unpacklo_epi64(x[i], y[i]);
		v = _mm256_unpackhi_epi64(x[i], y[i]);
		x[i] = u;
		y[i] = v;
	}
	bf4z(x, y, h, 2);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		/* x = the pairs 0-1, 4-5, 8-9, 12-13 of each block, y = 2-3,
		 * ... */
		u = _mm256_blend_epi32(x[i], _mm256_slli_epi64(y[i], 32), 0xaa);
		v = _mm256_blend_epi32(_mm256_srli_epi64(x[i], 32), y[i], 0xaa);
		x[i] = u;
		y[i] = v;
	}
	bf4z(x, y, h, 4);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		/* back to natural order */
		u = _mm256_blend_epi32(x[i], _mm256_slli_epi64(y[i], 32), 0xaa);
		v = _mm256_blend_epi32(_mm256_srli_epi64(x[i], 32), y[i], 0xaa);
		x[i] = _mm256_unpacklo_epi64(u, v);
		y[i] = _mm256_unpackhi_epi64(u, v);
		r[2 * i] = _mm256_permute2x128_si256(x[i], y[i], 0x20);
		r[2 * i + 1] = _mm256_permute2x128_si256(x[i], y[i], 0x31);
	}
}

/* Half h of the polynomial (vectors 8h ... 8h + 7): len = 64, 32, 16
 * and the in-block layers, then the reduction. */
static VG_AVX2_INLINE void
half(__m256i *v, unsigned h)
{
	const unsigned x64[4] = { 0, 1, 2, 3 };
	const unsigned k64[4] = { 2 + h, 2 + h, 2 + h, 2 + h };
	const unsigned x32[4] = { 0, 1, 4, 5 };
	const unsigned k32[4] = { 4 + 2 * h, 4 + 2 * h, 5 + 2 * h, 5 + 2 * h };
	const unsigned x16[4] = { 0, 2, 4, 6 };
	const unsigned k16[4] = { 8 + 4 * h, 9 + 4 * h, 10 + 4 * h, 11 + 4 * h };
	__m256i r[8];
	unsigned i;

#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		r[i] = _mm256_loadu_si256(v + 8 * h + i);
	bf4r(r, x64, 4, k64);
	bf4r(r, x32, 2, k32);
	bf4r(r, x16, 1, k16);
	inblock4(r, h);
	vg_mlkem_barrett8_avx2(r);
#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		_mm256_storeu_si256(v + 8 * h + i, r[i]);
}

/* see crypto/mlkem_kernels.h
 * First len = 128 on the pairs (j, j + 8), four at a time; then each
 * half takes the other layers. */
VG_AVX2 void
vg_mlkem_ntt_avx2(int16_t a[VG_MLKEM_N])
{
	__m256i *v = (__m256i *)a;
	const unsigned xi[4] = { 0, 1, 2, 3 };
	const unsigned k[4] = { 1, 1, 1, 1 };
	__m256i r[8];
	unsigned i, h;

#pragma GCC unroll 2
	for (h = 0; h < 2; h++) {
#pragma GCC unroll 4
		for (i = 0; i < 4; i++) {
			r[i] = _mm256_loadu_si256(v + 4 * h + i);
			r[i + 4] = _mm256_loadu_si256(v + 4 * h + i + 8);
		}
		bf4r(r, xi, 4, k);
#pragma GCC unroll 4
		for (i = 0; i < 4; i++) {
			_mm256_storeu_si256(v + 4 * h + i, r[i]);
			_mm256_storeu_si256(v + 4 * h + i + 8, r[i + 4]);
		}
	}
	half(v, 0);
	half(v, 1);
}

#endif
