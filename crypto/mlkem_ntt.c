/*
 * ML-KEM's number-theoretic transform [FIPS 203 §4.3, Alg. 9, 10] and the
 * multiplication in the NTT domain (Alg. 11, 12): the portable twins of
 * the kernels in crypto/mlkem_kernels.h, and the rejection sampling twin.
 * Montgomery arithmetic with R = 2^16.
 */
#include "config.h"

#include "crypto/mlkem_int.h"

/* see crypto/mlkem_int.h */
const int16_t vg_mlkem_zetas[128] = {
	-1044, -758, -359, -1517, 1493, 1422, 287, 202,
	-171, 622, 1577, 182, 962, -1202, -1474, 1468,
	573, -1325, 264, 383, -829, 1458, -1602, -130,
	-681, 1017, 732, 608, -1542, 411, -205, -1571,
	1223, 652, -552, 1015, -1293, 1491, -282, -1544,
	516, -8, -320, -666, -1618, -1162, 126, 1469,
	-853, -90, -271, 830, 107, -1421, -247, -951,
	-398, 961, -1508, -725, 448, -1065, 677, -1275,
	-1103, 430, 555, 843, -1251, 871, 1550, 105,
	422, 587, 177, -235, -291, -460, 1574, 1653,
	-246, 778, 1159, -147, -777, 1483, -602, 1119,
	-1590, 644, -872, 349, 418, 329, -156, -75,
	817, 1097, 603, 610, 1322, -1285, -1465, 384,
	-1215, -136, 1218, -1335, -874, 220, -1187, -1659,
	-1185, -1530, -1278, 794, -1510, -854, -870, 478,
	-108, -308, 996, 991, 958, -1460, 1522, 1628,
};

/* R^2 / 128 mod q: the inverse transform's scaling by 1/128, times R. */
#define INV_F 1441

/*
 * see crypto/mlkem_kernels.h
 * Cooley-Tukey butterflies, layers len = 128 ... 2 without reduction
 * between layers (each adds less than q to the bound: below 8q < 2^15),
 * then a Barrett reduction. CT: no branch or index on coefficients.
 */
void
vg_mlkem_ntt_c(int16_t a[VG_MLKEM_N])
{
	unsigned len, start, j, k = 1;

	for (len = 128; len >= 2; len >>= 1) {
		for (start = 0; start < VG_MLKEM_N; start += 2 * len) {
			int16_t zeta = vg_mlkem_zetas[k++];

			for (j = start; j < start + len; j++) {
				int16_t t = vg_mlkem_fqmul(zeta, a[j + len]);

				a[j + len] = (int16_t)(a[j] - t);
				a[j] = (int16_t)(a[j] + t);
			}
		}
	}
	for (j = 0; j < VG_MLKEM_N; j++)
		a[j] = vg_mlkem_barrett(a[j]);
}

/*
 * see crypto/mlkem_kernels.h
 * Gentleman-Sande butterflies, layers len = 2 ... 128; sums are
 * Barrett-reduced, differences multiplied by zeta (Montgomery), so every
 * value stays below 2q; the last step multiplies by R^2 / 128.
 * CT: no branch or index on coefficients.
 */
void
vg_mlkem_invntt_c(int16_t a[VG_MLKEM_N])
{
	unsigned len, start, j, k = 127;

	for (j = 0; j < VG_MLKEM_N; j++)
		a[j] = vg_mlkem_barrett(a[j]);
	for (len = 2; len <= 128; len <<= 1) {
		for (start = 0; start < VG_MLKEM_N; start += 2 * len) {
			int16_t zeta = vg_mlkem_zetas[k--];

			for (j = start; j < start + len; j++) {
				int16_t t = a[j];

				a[j] = vg_mlkem_barrett((int16_t)(t + a[j + len]));
				a[j + len] = vg_mlkem_fqmul(zeta,
				    (int16_t)(a[j + len] - t));
			}
		}
	}
	for (j = 0; j < VG_MLKEM_N; j++)
		a[j] = vg_mlkem_fqmul(a[j], INV_F);
}

/*
 * see crypto/mlkem_kernels.h
 * Per pair: c0 = sum a0 b0 + (a1 b1 R^-1) gamma, c1 = sum a0 b1 + a1 b0,
 * each sum reduced once (below 4 * 2q^2 < q 2^15).
 * CT: no branch or index on coefficients.
 */
void
vg_mlkem_basemul_acc_c(int16_t c[VG_MLKEM_N], const int16_t *a,
    const int16_t *b, unsigned n)
{
	unsigned i, j;

	for (i = 0; i < VG_MLKEM_N / 2; i++) {
		int16_t zeta = vg_mlkem_zetas[64 + i / 2];
		int32_t s0 = 0, s1 = 0;

		if (i & 1)
			zeta = (int16_t)-zeta;
		for (j = 0; j < n; j++) {
			const int16_t *x = a + 256 * j + 2 * i;
			const int16_t *y = b + 256 * j + 2 * i;

			s0 += (int32_t)x[0] * y[0] +
			    (int32_t)vg_mlkem_fqmul(x[1], y[1]) * zeta;
			s1 += (int32_t)x[0] * y[1] + (int32_t)x[1] * y[0];
		}
		c[2 * i] = vg_mlkem_montred(s0);
		c[2 * i + 1] = vg_mlkem_montred(s1);
	}
}

/*
 * see crypto/mlkem_kernels.h
 * Variable time in the acceptance of each candidate; used on public data
 * (the matrix A) only.
 */
unsigned
vg_mlkem_rej_uniform_c(int16_t *a, unsigned len, const uint8_t *buf,
    size_t buflen)
{
	unsigned ctr = 0;
	size_t pos = 0;

	while (ctr < len && pos + 3 <= buflen) {
		uint16_t d1 = (uint16_t)(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
		uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));

		pos += 3;
		if (d1 < VG_MLKEM_Q)
			a[ctr++] = (int16_t)d1;
		if (d2 < VG_MLKEM_Q && ctr < len)
			a[ctr++] = (int16_t)d2;
	}
	return ctr;
}
