/*
 * vg_mlkem_invntt_avx2: the inverse NTT times R [FIPS 203 Alg. 10] on
 * sixteen 16-bit lanes, with lazy reduction; the result is congruent to
 * vg_mlkem_invntt_c's, not always the same representative.
 *
 * Layout: as in vg_mlkem_ntt_avx2, in reverse. Layers len = 2, 4 and 8
 * run on pairs of blocks of sixteen coefficients shuffled together (the
 * quarters, halves and 128-bit halves of each block brought into
 * opposite vectors) with one zeta per lane; layers len = 16 ... 128 pair
 * whole vectors under a broadcast zeta. Each half of the polynomial
 * (eight vectors) runs every layer but len = 128 in one pass.
 *
 * Bounds (Gentleman-Sande butterfly x' = x + y, y' = fqmul(y - x, z)):
 * fqmul of any |a| < 2^15 by a centred zeta (|z| <= 1664) is below
 * 2^15 * 1664 / 2^16 + q / 2 < q, so every y' is below q and a layer at
 * most doubles the largest |x|, and a difference is below twice the
 * bound too. The input is below 2^12 (the contract in
 * crypto/mlkem_kernels.h): after len = 2, 4, 8 every value is below
 * 8 * 4095 = 32760 < 2^15; one Barrett reduction per coefficient brings
 * it to at most (q - 1) / 2 = 1664; after len = 16 ... 128 every value
 * is at most 16 * 1664 = 26624 < 2^15. The scaling by R^2 / 128 is a
 * final fqmul (output below q); for the differences of len = 128 it is
 * folded into the zeta (zeta * 1441 * R^-1 mod q = 1397), so that they
 * take one fqmul instead of two. 16 Barrett reductions in all, against
 * 128 + 16 when every sum is reduced.
 * CT: no branch or index on coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

/*
 * Per pair p of blocks (2p, 2p + 1): the zetas of the inverse layers
 * len 2, 4, 8 in the lane order of the shuffled pair (vg_mlkem_zetas
 * 127 - 8p - 4h - g for block 2p + h, quarter g; 63 - 4p - 2h - g for
 * half g; 31 - 2p - h), each followed by its zeta * q^-1 mod 2^16.
 */
static const int16_t inv_pair_zetas[8][6][16] __attribute__((aligned(32))) = {
	{
		{ 1628, 1628, 1522, 1522, -1460, -1460, 958, 958,
		  991, 991, 996, 996, -308, -308, -108, -108 },
		{ 23132, 23132, -17422, -17422, 7756, 7756, 23998, 23998,
		  -20257, -20257, 28644, 28644, -23860, -23860, 31636, 31636 },
		{ -1275, -1275, -1275, -1275, 677, 677, 677, 677,
		  -1065, -1065, -1065, -1065, 448, 448, 448, 448 },
		{ -17915, -17915, -17915, -17915, -24155, -24155, -24155, -24155,
		  4311, 4311, 4311, 4311, 16832, 16832, 16832, 16832 },
		{ -1571, -1571, -1571, -1571, -1571, -1571, -1571, -1571,
		  -205, -205, -205, -205, -205, -205, -205, -205 },
		{ -16163, -16163, -16163, -16163, -16163, -16163, -16163, -16163,
		  26675, 26675, 26675, 26675, 26675, 26675, 26675, 26675 },
	},
	{
		{ 478, 478, -870, -870, -854, -854, -1510, -1510,
		  794, 794, -1278, -1278, -1530, -1530, -1185, -1185 },
		{ -17442, -17442, 10906, 10906, 23210, 23210, -22502, -22502,
		  -20198, -20198, -7934, -7934, -21498, -21498, 10335, 10335 },
		{ -725, -725, -725, -725, -1508, -1508, -1508, -1508,
		  961, 961, 961, 961, -398, -398, -398, -398 },
		{ -12757, -12757, -12757, -12757, -29156, -29156, -29156, -29156,
		  14017, 14017, 14017, 14017, 13426, 13426, 13426, 13426 },
		{ 411, 411, 411, 411, 411, 411, 411, 411,
		  -1542, -1542, -1542, -1542, -1542, -1542, -1542, -1542 },
		{ 8859, 8859, 8859, 8859, 8859, 8859, 8859, 8859,
		  18426, 18426, 18426, 18426, 18426, 18426, 18426, 18426 },
	},
	{
		{ -1659, -1659, -1187, -1187, 220, 220, -874, -874,
		  -1335, -1335, 1218, 1218, -136, -136, -1215, -1215 },
		{ 14469, 14469, 16989, 16989, -11044, -11044, 24214, 24214,
		  -14903, -14903, 10946, 10946, -6280, -6280, -20927, -20927 },
		{ -951, -951, -951, -951, -247, -247, -247, -247,
		  -1421, -1421, -1421, -1421, 107, 107, 107, 107 },
		{ 18249, 18249, 18249, 18249, -30199, -30199, -30199, -30199,
		  9075, 9075, 9075, 9075, -28309, -28309, -28309, -28309 },
		{ 608, 608, 608, 608, 608, 608, 608, 608,
		  732, 732, 732, 732, 732, 732, 732, 732 },
		{ 8800, 8800, 8800, 8800, 8800, 8800, 8800, 8800,
		  -10532, -10532, -10532, -10532, -10532, -10532, -10532, -10532 },
	},
	{
		{ 384, 384, -1465, -1465, -1285, -1285, 1322, 1322,
		  610, 610, 603, 603, 1097, 1097, 817, 817 },
		{ -32384, -32384, 24391, 24391, 15355, 15355, -7382, -7382,
		  2146, 2146, 25435, 25435, 20297, 20297, -31183, -31183 },
		{ 830, 830, 830, 830, -271, -271, -271, -271,
		  -90, -90, -90, -90, -853, -853, -853, -853 },
		{ -8898, -8898, -8898, -8898, -15887, -15887, -15887, -15887,
		  -28250, -28250, -28250, -28250, 19883, 19883, 19883, 19883 },
		{ 1017, 1017, 1017, 1017, 1017, 1017, 1017, 1017,
		  -681, -681, -681, -681, -681, -681, -681, -681 },
		{ 24313, 24313, 24313, 24313, 24313, 24313, 24313, 24313,
		  -28073, -28073, -28073, -28073, -28073, -28073, -28073, -28073 },
	},
	{
		{ -75, -75, -156, -156, 329, 329, 418, 418,
		  349, 349, -872, -872, 644, 644, -1590, -1590 },
		{ -12619, -12619, -5276, -5276, 19529, 19529, -14430, -14430,
		  18525, 18525, 17560, 17560, 20100, 20100, -18486, -18486 },
		{ 1469, 1469, 1469, 1469, 126, 126, 126, 126,
		  -1162, -1162, -1162, -1162, -1618, -1618, -1618, -1618 },
		{ 27837, 27837, 27837, 27837, -25986, -25986, -25986, -25986,
		  -650, -650, -650, -650, 9134, 9134, 9134, 9134 },
		{ -130, -130, -130, -130, -130, -130, -130, -130,
		  -1602, -1602, -1602, -1602, -1602, -1602, -1602, -1602 },
		{ -26242, -26242, -26242, -26242, -26242, -26242, -26242, -26242,
		  21438, 21438, 21438, 21438, 21438, 21438, 21438, 21438 },
	},
	{
		{ 1119, 1119, -602, -602, 1483, 1483, -777, -777,
		  -147, -147, 1159, 1159, 778, 778, -246, -246 },
		{ 12639, 12639, -28762, -28762, -18741, -18741, 29175, 29175,
		  30317, 30317, 10631, 10631, -32502, -32502, 32010, 32010 },
		{ -666, -666, -666, -666, -320, -320, -320, -320,
		  -8, -8, -8, -8, 516, 516, 516, 516 },
		{ -12442, -12442, -12442, -12442, 16064, 16064, 16064, 16064,
		  26616, 26616, 26616, 26616, -12796, -12796, -12796, -12796 },
		{ 1458, 1458, 1458, 1458, 1458, 1458, 1458, 1458,
		  -829, -829, -829, -829, -829, -829, -829, -829 },
		{ -1102, -1102, -1102, -1102, -1102, -1102, -1102, -1102,
		  5571, 5571, 5571, 5571, 5571, 5571, 5571, 5571 },
	},
	{
		{ 1653, 1653, 1574, 1574, -460, -460, -291, -291,
		  -235, -235, 177, 177, 587, 587, 422, 422 },
		{ 5493, 5493, 6182, 6182, 23092, 23092, -14883, -14883,
		  -4587, -4587, 945, 945, 13131, 13131, -27738, -27738 },
		{ -1544, -1544, -1544, -1544, -282, -282, -282, -282,
		  1491, 1491, 1491, 1491, -1293, -1293, -1293, -1293 },
		{ 25080, 25080, 25080, 25080, 20710, 20710, 20710, 20710,
		  20179, 20179, 20179, 20179, -23565, -23565, -23565, -23565 },
		{ 383, 383, 383, 383, 383, 383, 383, 383,
		  264, 264, 264, 264, 264, 264, 264, 264 },
		{ -29057, -29057, -29057, -29057, -29057, -29057, -29057, -29057,
		  -26360, -26360, -26360, -26360, -26360, -26360, -26360, -26360 },
	},
	{
		{ 105, 105, 1550, 1550, 871, 871, -1251, -1251,
		  843, 843, 555, 555, 430, 430, -1103, -1103 },
		{ -21655, -21655, 20494, 20494, -14233, -14233, -32227, -32227,
		  13387, 13387, -11477, -11477, 11182, 11182, -335, -335 },
		{ 1015, 1015, 1015, 1015, -552, -552, -552, -552,
		  652, 652, 652, 652, 1223, 1223, 1223, 1223 },
		{ 30967, 30967, 30967, 30967, 1496, 1496, 1496, 1496,
		  -6516, -6516, -6516, -6516, -5689, -5689, -5689, -5689 },
		{ -1325, -1325, -1325, -1325, -1325, -1325, -1325, -1325,
		  573, 573, 573, 573, 573, 573, 573, 573 },
		{ 17363, 17363, 17363, 17363, 17363, 17363, 17363, 17363,
		  -5827, -5827, -5827, -5827, -5827, -5827, -5827, -5827 },
	},
};

/* R^2 / 128 mod q, and vg_mlkem_zetas[1] * (R^2 / 128) * R^-1 mod q. */
#define INV_F 1441
#define INV_F_QINV (-10079)
#define Z1_F 1397
#define Z1_F_QINV 5237

/* Four independent Gentleman-Sande butterflies x[i], y[i] under z[i]
 * (zq[i] = z[i] q^-1 mod 2^16), interleaved. */
static VG_AVX2_INLINE void
bf4(__m256i *x[4], __m256i *y[4], const __m256i z[4], const __m256i zq[4])
{
	__m256i d[4], t[4];
	unsigned i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		d[i] = _mm256_sub_epi16(*y[i], *x[i]);
		*x[i] = _mm256_add_epi16(*x[i], *y[i]);
	}
	vg_mlkem_fqmul4_avx2(t, d, z, zq);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		*y[i] = t[i];
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
		    (const __m256i *)inv_pair_zetas[4 * h + i][row]);
		zq[i] = _mm256_load_si256(
		    (const __m256i *)inv_pair_zetas[4 * h + i][row + 1]);
	}
	bf4(px, py, z, zq);
}

/* Four butterflies r[i0 + s i] (s = 1 or 2 for i in pairs), r[...] +
 * len under broadcast zetas k[i]. */
static VG_AVX2_INLINE void
bf4r(__m256i r[8], const unsigned xi[4], unsigned len, const unsigned k[4])
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
 * The layers len = 2, 4, 8 inside the blocks 8h ... 8h + 7 in r[0 .. 7],
 * pair i = (r[2i], r[2i + 1]) by the shuffles of vg_mlkem_ntt_avx2's
 * in-block layers (each step its own inverse). Each step runs on the
 * four pairs before the next, so that four independent chains are in
 * flight (one pair at a time left the multipliers waiting on latency).
 */
static VG_AVX2_INLINE void
inblock4(__m256i r[8], unsigned h)
{
	__m256i x[4], y[4], u, v;
	unsigned i;

#pragma GCC unroll 8
	for (i = 0; i < 4; i++) {
		/* x = a0-7 | b0-7, y = a8-15 | b8-15 */
		x[i] = _mm256_permute2x128_si256(r[2 * i], r[2 * i + 1], 0x20);
		y[i] = _mm256_permute2x128_si256(r[2 * i], r[2 * i + 1], 0x31);
	}
#pragma GCC unroll 8
	for (i = 0; i < 4; i++) {
		/* u = a0-3 a8-11 | b0-3 b8-11, v = a4-7 a12-15 | b4-7 b12-15 */
		u = _mm256_unpacklo_epi64(x[i], y[i]);
		v = _mm256_unpackhi_epi64(x[i], y[i]);
		/* x = the pairs 0-1, 4-5, 8-9, 12-13 of each block, y = 2-3,
		 * ... */
		x[i] = _mm256_blend_epi32(u, _mm256_slli_epi64(v, 32), 0xaa);
		y[i] = _mm256_blend_epi32(_mm256_srli_epi64(u, 32), v, 0xaa);
	}
	bf4z(x, y, h, 0);
#pragma GCC unroll 8
	for (i = 0; i < 4; i++) {
		u = _mm256_blend_epi32(x[i], _mm256_slli_epi64(y[i], 32), 0xaa);
		v = _mm256_blend_epi32(_mm256_srli_epi64(x[i], 32), y[i], 0xaa);
		x[i] = u;
		y[i] = v;
	}
	bf4z(x, y, h, 2);
#pragma GCC unroll 8
	for (i = 0; i < 4; i++) {
		u = _mm256_unpacklo_epi64(x[i], y[i]);
		v = _mm256_unpackhi_epi64(x[i], y[i]);
		x[i] = u;
		y[i] = v;
	}
	bf4z(x, y, h, 4);
#pragma GCC unroll 8
	for (i = 0; i < 4; i++) {
		r[2 * i] = _mm256_permute2x128_si256(x[i], y[i], 0x20);
		r[2 * i + 1] = _mm256_permute2x128_si256(x[i], y[i], 0x31);
	}
}

/* Half h of the polynomial (vectors 8h ... 8h + 7): the in-block
 * layers, the Barrett reduction and len = 16, 32, 64. */
static VG_AVX2_INLINE void
half(__m256i *v, unsigned h)
{
	__m256i r[8];
	unsigned i;

#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		r[i] = _mm256_loadu_si256(v + 8 * h + i);
	inblock4(r, h);
	vg_mlkem_barrett8_avx2(r);
	/* len = 16: blocks (8h + 2i, 8h + 2i + 1) */
	{
		const unsigned xi[4] = { 0, 2, 4, 6 };
		const unsigned k[4] = { 15 - 4 * h, 14 - 4 * h,
		    13 - 4 * h, 12 - 4 * h };

		bf4r(r, xi, 1, k);
	}
	/* len = 32 */
	{
		const unsigned xi[4] = { 0, 1, 4, 5 };
		const unsigned k[4] = { 7 - 2 * h, 7 - 2 * h,
		    6 - 2 * h, 6 - 2 * h };

		bf4r(r, xi, 2, k);
	}
	/* len = 64 */
	{
		const unsigned xi[4] = { 0, 1, 2, 3 };
		const unsigned k[4] = { 3 - h, 3 - h, 3 - h, 3 - h };

		bf4r(r, xi, 4, k);
	}
#pragma GCC unroll 8
	for (i = 0; i < 8; i++)
		_mm256_storeu_si256(v + 8 * h + i, r[i]);
}

/* see crypto/mlkem_kernels.h
 * Each half takes the in-block layers, the Barrett reduction and
 * len = 16, 32, 64; then the pairs (j, j + 8) take len = 128 and the
 * scaling. */
VG_AVX2 void
vg_mlkem_invntt_avx2(int16_t a[VG_MLKEM_N])
{
	__m256i *v = (__m256i *)a;
	const __m256i f = _mm256_set1_epi16(INV_F);
	const __m256i fq = _mm256_set1_epi16(INV_F_QINV);
	const __m256i zf = _mm256_set1_epi16(Z1_F);
	const __m256i zfq = _mm256_set1_epi16(Z1_F_QINV);
	unsigned i, h;

	half(v, 0);
	half(v, 1);
	/* len = 128 with the scaling folded in, four pairs at a time */
#pragma GCC unroll 2
	for (h = 0; h < 2; h++) {
		__m256i x[4], y[4], f4[4], fq4[4], zf4[4], zfq4[4];

#pragma GCC unroll 4
		for (i = 0; i < 4; i++) {
			__m256i t = _mm256_loadu_si256(v + 4 * h + i);

			y[i] = _mm256_loadu_si256(v + 4 * h + i + 8);
			x[i] = _mm256_add_epi16(t, y[i]);
			y[i] = _mm256_sub_epi16(y[i], t);
			f4[i] = f;
			fq4[i] = fq;
			zf4[i] = zf;
			zfq4[i] = zfq;
		}
		vg_mlkem_fqmul4_avx2(x, x, f4, fq4);
		vg_mlkem_fqmul4_avx2(y, y, zf4, zfq4);
#pragma GCC unroll 4
		for (i = 0; i < 4; i++) {
			_mm256_storeu_si256(v + 4 * h + i, x[i]);
			_mm256_storeu_si256(v + 4 * h + i + 8, y[i]);
		}
	}
}

#endif
