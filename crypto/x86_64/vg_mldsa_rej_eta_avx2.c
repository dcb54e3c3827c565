/*
 * vg_mldsa_rej_eta_avx2: RejBoundedPoly's sampling loop [FIPS 204 Alg. 31,
 * 15] on 32 candidates (sixteen bytes, low nibble first) per iteration
 * while 32 more fit, then on eight: for 32, the nibbles are spread to
 * bytes, compared with the bound as bytes, and mapped to eta - (t mod 5)
 * or eta - t by a byte shuffle from a 16-entry table; each group of eight
 * is widened to 32-bit lanes and its accepted lanes packed to the front
 * with vpermd. The tail is the scalar loop; the output is that of
 * vg_mldsa_rej_eta_c.
 * CT: the loop and the vpermd index depend on the acceptance mask (the
 * rejection decision, declassified for the valgrind test); the values are
 * computed without branches or table reads from memory (the shuffle's
 * table is a register).
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* Eight candidates from the four bytes w: the coefficient values (v)
 * and the acceptance mask (bit i for lane i). */
static inline VG_AVX2 __m256i
eight(uint32_t w, unsigned eta, __m256i lim, __m256i veta, unsigned *m)
{
	const __m256i lo4 = _mm256_set1_epi32(0x0f);
	const __m256i c13 = _mm256_set1_epi32(13);
	const __m256i sh = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
	__m256i t = _mm256_and_si256(_mm256_srlv_epi32(
	    _mm256_set1_epi32((int32_t)w), sh), lo4);
	__m256i v = t;

	if (eta == 2) {
		/* t mod 5 = t - 5 floor(13 t / 64) for t < 16 */
		__m256i f = _mm256_srli_epi32(_mm256_mullo_epi16(t, c13), 6);

		v = _mm256_sub_epi32(v, _mm256_add_epi32(f,
		    _mm256_slli_epi32(f, 2)));
	}
	*m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
	    _mm256_cmpgt_epi32(lim, t)));
	return _mm256_sub_epi32(veta, v);
}

static inline uint32_t
load32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
	    ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* see crypto/mldsa_kernels.h */
VG_AVX2 unsigned
vg_mldsa_rej_eta_avx2(int32_t *a, unsigned len, const uint8_t *buf,
    size_t buflen, unsigned eta)
{
	const __m256i lim = _mm256_set1_epi32(eta == 2 ? 15 : 9);
	const __m256i veta = _mm256_set1_epi32((int32_t)eta);
	uint32_t lim1 = eta == 2 ? 15 : 9;
	unsigned ctr = 0;
	size_t pos = 0;

	/* 32 candidates per iteration, one declassification of their
	 * acceptance mask */
	if (ctr + 32 <= len && pos + 16 <= buflen) {
		const __m128i lo4 = _mm_set1_epi8(0x0f);
		/* eta - (t mod 5) for eta = 2, eta - t for eta = 4; the
		 * entries of rejected nibbles are never kept */
		const __m256i tab = eta == 2 ?
		    _mm256_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0,
		    -1, -2, 0, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2,
		    0) :
		    _mm256_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0,
		    0, 0, 0, 4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0);
		const __m256i blim = _mm256_set1_epi8((char)lim1);

		do {
			__m128i x = _mm_loadu_si128((const __m128i *)(buf +
			    pos));
			__m128i l = _mm_and_si128(x, lo4);
			__m128i h = _mm_and_si128(_mm_srli_epi16(x, 4), lo4);
			__m256i t = _mm256_set_m128i(_mm_unpackhi_epi8(l, h),
			    _mm_unpacklo_epi8(l, h));
			__m256i v = _mm256_shuffle_epi8(tab, t);
			__m128i v0 = _mm256_castsi256_si128(v);
			__m128i v1 = _mm256_extracti128_si256(v, 1);
			uint32_t all = (uint32_t)_mm256_movemask_epi8(
			    _mm256_cmpgt_epi8(blim, t));
			unsigned m;

			VG_MLDSA_DECLASSIFY(&all, sizeof(all));
			m = all & 0xff;
			_mm256_storeu_si256((__m256i *)(a + ctr),
			    vg_mldsa_compact_avx2(_mm256_cvtepi8_epi32(v0), m));
			ctr += vg_mldsa_popcount8(m);
			m = (all >> 8) & 0xff;
			_mm256_storeu_si256((__m256i *)(a + ctr),
			    vg_mldsa_compact_avx2(_mm256_cvtepi8_epi32(
			    _mm_unpackhi_epi64(v0, v0)), m));
			ctr += vg_mldsa_popcount8(m);
			m = (all >> 16) & 0xff;
			_mm256_storeu_si256((__m256i *)(a + ctr),
			    vg_mldsa_compact_avx2(_mm256_cvtepi8_epi32(v1), m));
			ctr += vg_mldsa_popcount8(m);
			m = all >> 24;
			_mm256_storeu_si256((__m256i *)(a + ctr),
			    vg_mldsa_compact_avx2(_mm256_cvtepi8_epi32(
			    _mm_unpackhi_epi64(v1, v1)), m));
			ctr += vg_mldsa_popcount8(m);
			pos += 16;
		} while (ctr + 32 <= len && pos + 16 <= buflen);
	}
	while (ctr + 8 <= len && pos + 4 <= buflen) {
		unsigned m;
		__m256i v = eight(load32(buf + pos), eta, lim, veta, &m);

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
