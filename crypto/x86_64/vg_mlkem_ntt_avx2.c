/*
 * vg_mlkem_ntt_avx2: the forward NTT [FIPS 203 Alg. 9] on sixteen 16-bit
 * lanes, with the butterflies and reductions of vg_mlkem_ntt_c (the
 * results are equal). Layers len = 128 ... 16 pair whole vectors
 * (sixteen consecutive coefficients each) under one zeta; for len = 8, 4
 * and 2 the polynomial is transposed as a 16x16 matrix, so that the
 * butterflies inside each block of sixteen become butterflies between
 * vectors with one zeta per lane (vg_mlkem_lane_zetas), and transposed
 * back. CT: no branch or index on coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

/* see crypto/mlkem_avx2.h */
const int16_t vg_mlkem_lane_zetas[14][16] = {
	/* len 8 */
	{ 573, -1325, 264, 383, -829, 1458, -1602, -130,
	  -681, 1017, 732, 608, -1542, 411, -205, -1571 },
	/* len 4, h 0 */
	{ 1223, -552, -1293, -282, 516, -320, -1618, 126,
	  -853, -271, 107, -247, -398, -1508, 448, 677 },
	/* len 4, h 1 */
	{ 652, 1015, 1491, -1544, -8, -666, -1162, 1469,
	  -90, 830, -1421, -951, 961, -725, -1065, -1275 },
	/* len 2, h 0 */
	{ -1103, -1251, 422, -291, -246, -777, -1590, 418,
	  817, 1322, -1215, -874, -1185, -1510, -108, 958 },
	/* len 2, h 1 */
	{ 430, 871, 587, -460, 778, 1483, 644, 329,
	  1097, -1285, -136, 220, -1530, -854, -308, -1460 },
	/* len 2, h 2 */
	{ 555, 1550, 177, 1574, 1159, -602, -872, -156,
	  603, -1465, 1218, -1187, -1278, -870, 996, 1522 },
	/* len 2, h 3 */
	{ 843, 105, -235, 1653, -147, 1119, 349, -75,
	  610, 384, -1335, -1659, 794, 478, 991, 1628 },
	/* inverse len 2, h 0 */
	{ 1628, 991, 478, 794, -1659, -1335, 384, 610,
	  -75, 349, 1119, -147, 1653, -235, 105, 843 },
	/* inverse len 2, h 1 */
	{ 1522, 996, -870, -1278, -1187, 1218, -1465, 603,
	  -156, -872, -602, 1159, 1574, 177, 1550, 555 },
	/* inverse len 2, h 2 */
	{ -1460, -308, -854, -1530, 220, -136, -1285, 1097,
	  329, 644, 1483, 778, -460, 587, 871, 430 },
	/* inverse len 2, h 3 */
	{ 958, -108, -1510, -1185, -874, -1215, 1322, 817,
	  418, -1590, -777, -246, -291, 422, -1251, -1103 },
	/* inverse len 4, h 0 */
	{ -1275, -1065, -725, 961, -951, -1421, 830, -90,
	  1469, -1162, -666, -8, -1544, 1491, 1015, 652 },
	/* inverse len 4, h 1 */
	{ 677, 448, -1508, -398, -247, 107, -271, -853,
	  126, -1618, -320, 516, -282, -1293, -552, 1223 },
	/* inverse len 8 */
	{ -1571, -205, 411, -1542, 608, 732, 1017, -681,
	  -130, -1602, 1458, -829, 383, 264, -1325, 573 },
};

static inline VG_AVX2 void
butterfly(__m256i *x, __m256i *y, __m256i z, __m256i zq)
{
	__m256i t = vg_mlkem_fqmul_avx2(*y, z, zq);

	*y = _mm256_sub_epi16(*x, t);
	*x = _mm256_add_epi16(*x, t);
}

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_ntt_avx2(int16_t a[VG_MLKEM_N])
{
	__m256i r[16];
	unsigned len, start, j, k = 1, h;

	for (j = 0; j < 16; j++)
		r[j] = _mm256_loadu_si256((const __m256i *)(a + 16 * j));
	/* len = 128 ... 16: l vectors apart */
	for (len = 8; len >= 1; len >>= 1) {
		for (start = 0; start < 16; start += 2 * len) {
			__m256i z = _mm256_set1_epi16(vg_mlkem_zetas[k++]);
			__m256i zq = vg_mlkem_zq_avx2(z);

			for (j = start; j < start + len; j++)
				butterfly(&r[j], &r[j + len], z, zq);
		}
	}
	/* len = 8, 4, 2 inside each block, on the transpose */
	vg_mlkem_tr16_avx2(r);
	{
		__m256i z = _mm256_loadu_si256(
		    (const __m256i *)vg_mlkem_lane_zetas[0]);
		__m256i zq = vg_mlkem_zq_avx2(z);

		for (j = 0; j < 8; j++)
			butterfly(&r[j], &r[j + 8], z, zq);
	}
	for (h = 0; h < 2; h++) {
		__m256i z = _mm256_loadu_si256(
		    (const __m256i *)vg_mlkem_lane_zetas[1 + h]);
		__m256i zq = vg_mlkem_zq_avx2(z);

		for (j = 8 * h; j < 8 * h + 4; j++)
			butterfly(&r[j], &r[j + 4], z, zq);
	}
	for (h = 0; h < 4; h++) {
		__m256i z = _mm256_loadu_si256(
		    (const __m256i *)vg_mlkem_lane_zetas[3 + h]);
		__m256i zq = vg_mlkem_zq_avx2(z);

		for (j = 4 * h; j < 4 * h + 2; j++)
			butterfly(&r[j], &r[j + 2], z, zq);
	}
	vg_mlkem_tr16_avx2(r);
	for (j = 0; j < 16; j++)
		_mm256_storeu_si256((__m256i *)(a + 16 * j),
		    vg_mlkem_barrett_avx2(r[j]));
}

#endif
