/*
 * vg_mlkem_cbd_avx2: SamplePolyCBD_2 [FIPS 203 Alg. 8] on 32 bytes (64
 * coefficients) at a time. In each byte the pairs of bits are summed
 * (x & 0x55 plus (x >> 1) & 0x55), and each nibble becomes a - b + 3 in
 * [0, 6] (a its low, b its high two-bit sum); the nibbles are spread to
 * 16-bit lanes in order and 3 is taken off.
 * SamplePolyCBD_3 (ML-KEM-512's eta1) takes 12 bytes (sixteen 6-bit
 * fields) per step: VPSHUFB gives 16-bit lane j the two bytes holding
 * field j, VPMULLW by 2^(10 - s) and a logical shift by 10 isolate it (s
 * its bit offset), the bits of each half are counted with the mask 0x9
 * (a in bits 0-1, b in bits 3-4) and a - b is formed. The last step's
 * 16-byte load would pass the 192 bytes, so it reads a copy (wiped).
 * CT: no branch or index on the input (the branch is on the public eta).
 */
#include "config.h"

#if defined(__x86_64__)

#include <string.h>

#include "crypto/ct.h"
#include "crypto/mlkem_avx2.h"

static VG_AVX2 void
cbd3(int16_t a[VG_MLKEM_N], const uint8_t *buf)
{
	const __m256i shuf = _mm256_setr_epi8(0, 1, 0, 1, 1, 2, 2, 3, 3, 4,
	    3, 4, 4, 5, 5, 6, 6, 7, 6, 7, 7, 8, 8, 9, 9, 10, 9, 10, 10, 11,
	    11, 12);
	const __m256i mul = _mm256_setr_epi16(1024, 16, 64, 256, 1024, 16,
	    64, 256, 1024, 16, 64, 256, 1024, 16, 64, 256);
	const __m256i m9 = _mm256_set1_epi16(9);
	const __m256i m7 = _mm256_set1_epi16(7);
	uint8_t tmp[16];
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		__m128i v;
		__m256i x, c;

		if (i + 1 < VG_MLKEM_N / 16) {
			v = _mm_loadu_si128((const __m128i *)(buf + 12 * i));
		} else {
			memset(tmp, 0, sizeof(tmp));
			memcpy(tmp, buf + 12 * i, 12);
			v = _mm_loadu_si128((const __m128i *)tmp);
		}
		x = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(v), shuf);
		x = _mm256_srli_epi16(_mm256_mullo_epi16(x, mul), 10);
		c = _mm256_add_epi16(_mm256_and_si256(x, m9), _mm256_add_epi16(
		    _mm256_and_si256(_mm256_srli_epi16(x, 1), m9),
		    _mm256_and_si256(_mm256_srli_epi16(x, 2), m9)));
		c = _mm256_sub_epi16(_mm256_and_si256(c, m7),
		    _mm256_srli_epi16(c, 3));
		_mm256_storeu_si256((__m256i *)(a + 16 * i), c);
	}
	vg_wipe(tmp, sizeof(tmp));
}

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_cbd_avx2(int16_t a[VG_MLKEM_N], const uint8_t *buf, unsigned eta)
{
	const __m256i m55 = _mm256_set1_epi8(0x55);
	const __m256i m33 = _mm256_set1_epi8(0x33);
	const __m256i m0f = _mm256_set1_epi8(0x0f);
	const __m256i three = _mm256_set1_epi16(3);
	unsigned i;

	if (eta != 2) {
		cbd3(a, buf);
		return;
	}
	for (i = 0; i < 4; i++) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(buf + 32 * i));
		__m256i s = _mm256_add_epi8(_mm256_and_si256(x, m55),
		    _mm256_and_si256(_mm256_srli_epi16(x, 1), m55));
		__m256i d = _mm256_sub_epi8(_mm256_add_epi8(
		    _mm256_and_si256(s, m33), m33),
		    _mm256_and_si256(_mm256_srli_epi16(s, 2), m33));
		__m256i lo = _mm256_and_si256(d, m0f);
		__m256i hi = _mm256_and_si256(_mm256_srli_epi16(d, 4), m0f);
		/* bytes 0-7 | 16-23, and 8-15 | 24-31, with their nibbles
		 * in coefficient order */
		__m256i l = _mm256_unpacklo_epi8(lo, hi);
		__m256i h = _mm256_unpackhi_epi8(lo, hi);
		int16_t *o = a + 64 * i;

		_mm256_storeu_si256((__m256i *)o, _mm256_sub_epi16(
		    _mm256_cvtepu8_epi16(_mm256_castsi256_si128(l)), three));
		_mm256_storeu_si256((__m256i *)(o + 16), _mm256_sub_epi16(
		    _mm256_cvtepu8_epi16(_mm256_castsi256_si128(h)), three));
		_mm256_storeu_si256((__m256i *)(o + 32), _mm256_sub_epi16(
		    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(l, 1)), three));
		_mm256_storeu_si256((__m256i *)(o + 48), _mm256_sub_epi16(
		    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(h, 1)), three));
	}
}

#endif
