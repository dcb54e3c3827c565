/*
 * vg_mlkem_invntt_avx2: the inverse NTT times R [FIPS 203 Alg. 10] on
 * sixteen 16-bit lanes, with the butterflies and reductions of
 * vg_mlkem_invntt_c (the results are equal). Layers len = 2, 4 and 8
 * run on the 16x16 transpose with one zeta per lane, then len = 16 ...
 * 128 pair whole vectors. CT: no branch or index on coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

/* R^2 / 128 mod q */
#define INV_F 1441

static inline VG_AVX2 void
butterfly(__m256i *x, __m256i *y, __m256i z, __m256i zq)
{
	__m256i t = *x;

	*x = vg_mlkem_barrett_avx2(_mm256_add_epi16(t, *y));
	*y = vg_mlkem_fqmul_avx2(_mm256_sub_epi16(*y, t), z, zq);
}

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_invntt_avx2(int16_t a[VG_MLKEM_N])
{
	__m256i r[16], f, fq;
	unsigned len, start, j, k = 15, h;

	for (j = 0; j < 16; j++)
		r[j] = vg_mlkem_barrett_avx2(
		    _mm256_loadu_si256((const __m256i *)(a + 16 * j)));
	vg_mlkem_tr16_avx2(r);
	for (h = 0; h < 4; h++) {
		__m256i z = _mm256_loadu_si256(
		    (const __m256i *)vg_mlkem_lane_zetas[7 + h]);
		__m256i zq = vg_mlkem_zq_avx2(z);

		for (j = 4 * h; j < 4 * h + 2; j++)
			butterfly(&r[j], &r[j + 2], z, zq);
	}
	for (h = 0; h < 2; h++) {
		__m256i z = _mm256_loadu_si256(
		    (const __m256i *)vg_mlkem_lane_zetas[11 + h]);
		__m256i zq = vg_mlkem_zq_avx2(z);

		for (j = 8 * h; j < 8 * h + 4; j++)
			butterfly(&r[j], &r[j + 4], z, zq);
	}
	{
		__m256i z = _mm256_loadu_si256(
		    (const __m256i *)vg_mlkem_lane_zetas[13]);
		__m256i zq = vg_mlkem_zq_avx2(z);

		for (j = 0; j < 8; j++)
			butterfly(&r[j], &r[j + 8], z, zq);
	}
	vg_mlkem_tr16_avx2(r);
	/* len = 16 ... 128: l vectors apart */
	for (len = 1; len <= 8; len <<= 1) {
		for (start = 0; start < 16; start += 2 * len) {
			__m256i z = _mm256_set1_epi16(vg_mlkem_zetas[k--]);
			__m256i zq = vg_mlkem_zq_avx2(z);

			for (j = start; j < start + len; j++)
				butterfly(&r[j], &r[j + len], z, zq);
		}
	}
	f = _mm256_set1_epi16(INV_F);
	fq = vg_mlkem_zq_avx2(f);
	for (j = 0; j < 16; j++)
		_mm256_storeu_si256((__m256i *)(a + 16 * j),
		    vg_mlkem_fqmul_avx2(r[j], f, fq));
}

#endif
