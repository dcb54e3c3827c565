/*
 * vg_mldsa_rej_eta_avx2: RejBoundedPoly's sampling loop [FIPS 204 Alg. 31,
 * 15] on eight candidates (four bytes, low nibble first) per iteration:
 * the nibbles are widened to 32-bit lanes, compared with the bound, mapped
 * to eta - (t mod 5) or eta - t without division, and the accepted lanes
 * packed to the front with vpermd. The tail is the scalar loop; the output
 * is that of vg_mldsa_rej_eta_c.
 * CT: the loop and the vpermd index depend on the acceptance mask (the
 * rejection decision, declassified for the valgrind test); the values are
 * computed without branches.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 unsigned
vg_mldsa_rej_eta_avx2(int32_t *a, unsigned len, const uint8_t *buf,
    size_t buflen, unsigned eta)
{
	const __m256i lim = _mm256_set1_epi32(eta == 2 ? 15 : 9);
	const __m256i veta = _mm256_set1_epi32((int32_t)eta);
	const __m256i lo4 = _mm256_set1_epi32(0x0f);
	const __m256i c13 = _mm256_set1_epi32(13);
	const __m256i sh = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
	uint32_t lim1 = eta == 2 ? 15 : 9;
	unsigned ctr = 0;
	size_t pos = 0;

	while (ctr + 8 <= len && pos + 4 <= buflen) {
		uint32_t w = (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) |
		    ((uint32_t)buf[pos + 2] << 16) |
		    ((uint32_t)buf[pos + 3] << 24);
		__m256i t = _mm256_and_si256(_mm256_srlv_epi32(
		    _mm256_set1_epi32((int32_t)w), sh), lo4);
		__m256i v = t;
		unsigned m;

		if (eta == 2) {
			/* t mod 5 = t - 5 floor(13 t / 64) for t < 16 */
			__m256i f = _mm256_srli_epi32(
			    _mm256_mullo_epi16(t, c13), 6);

			v = _mm256_sub_epi32(v, _mm256_add_epi32(f,
			    _mm256_slli_epi32(f, 2)));
		}
		v = _mm256_sub_epi32(veta, v);
		m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
		    _mm256_cmpgt_epi32(lim, t)));
		VG_MLDSA_DECLASSIFY(&m, sizeof(m));
		_mm256_storeu_si256((__m256i *)(a + ctr),
		    vg_mldsa_compact_avx2(v, m));
		ctr += vg_mldsa_popcount8(m);
		pos += 4;
	}
	while (ctr < len && pos < buflen) {
		uint32_t t[2], ok[2];
		unsigned h;

		t[0] = buf[pos] & 0x0f;
		t[1] = buf[pos] >> 4;
		pos++;
		for (h = 0; h < 2; h++) {
			ok[h] = (t[h] - lim1) >> 31;
			VG_MLDSA_DECLASSIFY(&ok[h], sizeof(ok[h]));
			if (ok[h] && ctr < len) {
				int32_t r = (int32_t)t[h];

				if (eta == 2)
					r -= ((205 * r) >> 10) * 5;
				a[ctr++] = (int32_t)eta - r;
			}
		}
	}
	return ctr;
}

#endif
