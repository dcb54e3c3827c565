/*
 * vg_mlkem_decompress_avx2: Decompress_d(ByteDecode_d(in)) [FIPS 203
 * (4.8), Alg. 6] for d in {1, 4, 5, 10, 11}, sixteen coefficients per
 * step. Each field is first brought to t << (15 - d) in a 16-bit lane;
 * then VPMULHRSW by q gives (t q 2^(15-d) + 2^14) >> 15 =
 * (t q + 2^(d-1)) >> d, the rounding of the definition.
 *   d = 1: the step's 16 bits broadcast, each lane tests its own bit.
 *   d = 4, 5: VPSHUFB gives lane j the two bytes holding field j, a
 *     VPMULLW by 2^(16 - s - d) (s the field's bit offset in the first
 *     byte) lifts the field to the top of the lane, a mask drops what is
 *     below.
 *   d = 10, 11: fields may span three bytes, so eight 32-bit lanes take
 *     four bytes each, VPSRLVD aligns them, and two such vectors are
 *     packed to sixteen 16-bit lanes.
 * Reads exactly 32 d bytes: a last step whose vector load would pass the
 * end goes through a small buffer (wiped). The same values as
 * vg_mlkem_decompress_c (tests/kernels/test_mlkem_kernels.c).
 * CT: branches on the public d only; no index on the input.
 */
#include "config.h"

#if defined(__x86_64__)

#include <string.h>

#include "crypto/ct.h"
#include "crypto/mlkem_avx2.h"

static inline VG_AVX2 __m256i
finish(__m256i t)
{
	return _mm256_mulhrs_epi16(t, _mm256_set1_epi16(VG_MLKEM_Q));
}

static VG_AVX2 void
d1(int16_t a[VG_MLKEM_N], const uint8_t *in)
{
	const __m256i bits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128,
	    256, 512, 1024, 2048, 4096, 8192, 16384, -32768);
	const __m256i half = _mm256_set1_epi16((VG_MLKEM_Q + 1) / 2);
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		int16_t w = (int16_t)(uint16_t)(in[2 * i] | (in[2 * i + 1] << 8));
		__m256i x = _mm256_and_si256(_mm256_set1_epi16(w), bits);

		x = _mm256_cmpeq_epi16(x, bits);
		_mm256_storeu_si256((__m256i *)(a + 16 * i),
		    _mm256_and_si256(x, half));
	}
}

/* d = 4 or 5; shuf and mul as described above. */
static inline __attribute__((always_inline)) VG_AVX2 void
d45(int16_t a[VG_MLKEM_N], const uint8_t *in, unsigned d, __m256i shuf,
    __m256i mul)
{
	const __m256i mask = _mm256_set1_epi16(
	    (int16_t)(((1u << d) - 1) << (16 - d)));
	uint8_t tmp[16];
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		__m128i v;
		__m256i x;

		if (d == 4) {
			v = _mm_loadl_epi64((const __m128i *)(in + 8 * i));
		} else if (i + 1 < VG_MLKEM_N / 16) {
			v = _mm_loadu_si128((const __m128i *)(in + 10 * i));
		} else {
			memset(tmp, 0, sizeof(tmp));
			memcpy(tmp, in + 10 * i, 10);
			v = _mm_loadu_si128((const __m128i *)tmp);
		}
		x = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(v), shuf);
		x = _mm256_and_si256(_mm256_mullo_epi16(x, mul), mask);
		x = _mm256_srli_epi16(x, 1);
		_mm256_storeu_si256((__m256i *)(a + 16 * i), finish(x));
	}
	if (d == 5)
		vg_wipe(tmp, sizeof(tmp));
}

/* Eight d-bit fields (d = 10 or 11) from the d bytes at p (16 readable),
 * one per 32-bit lane. */
static inline __attribute__((always_inline)) VG_AVX2 __m256i
fields8(const uint8_t *p, __m256i shuf, __m256i sh, __m256i mask)
{
	__m256i x = _mm256_broadcastsi128_si256(
	    _mm_loadu_si128((const __m128i *)p));

	x = _mm256_srlv_epi32(_mm256_shuffle_epi8(x, shuf), sh);
	return _mm256_and_si256(x, mask);
}

static inline __attribute__((always_inline)) VG_AVX2 void
d1011(int16_t a[VG_MLKEM_N], const uint8_t *in, unsigned d, __m256i shuf,
    __m256i sh)
{
	const __m256i mask = _mm256_set1_epi32((1 << d) - 1);
	const __m128i up = _mm_cvtsi32_si128((int)(15 - d));
	uint8_t tmp[16];
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		const uint8_t *p = in + 2 * d * i;
		__m256i lo, hi, x;

		lo = fields8(p, shuf, sh, mask);
		if (i + 1 < VG_MLKEM_N / 16) {
			hi = fields8(p + d, shuf, sh, mask);
		} else {
			memset(tmp, 0, sizeof(tmp));
			memcpy(tmp, p + d, d);
			hi = fields8(tmp, shuf, sh, mask);
		}
		x = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi),
		    0xd8);
		x = _mm256_sll_epi16(x, up);
		_mm256_storeu_si256((__m256i *)(a + 16 * i), finish(x));
	}
	vg_wipe(tmp, sizeof(tmp));
}

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_decompress_avx2(int16_t a[VG_MLKEM_N], const uint8_t *in,
    unsigned d)
{
	switch (d) {
	case 1:
		d1(a, in);
		break;
	case 4:
		d45(a, in, 4,
		    _mm256_setr_epi8(0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 2, 3, 3,
		    4, 3, 4, 4, 5, 4, 5, 5, 6, 5, 6, 6, 7, 6, 7, 7, 8, 7, 8),
		    _mm256_setr_epi16(4096, 256, 4096, 256, 4096, 256, 4096,
		    256, 4096, 256, 4096, 256, 4096, 256, 4096, 256));
		break;
	case 5:
		d45(a, in, 5,
		    _mm256_setr_epi8(0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4, 3,
		    4, 4, 5, 5, 6, 5, 6, 6, 7, 6, 7, 7, 8, 8, 9, 8, 9, 9,
		    10),
		    _mm256_setr_epi16(2048, 64, 512, 16, 128, 1024, 32, 256,
		    2048, 64, 512, 16, 128, 1024, 32, 256));
		break;
	case 10:
		d1011(a, in, 10,
		    _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3,
		    4, 5, 6, 5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10, 8, 9, 10,
		    11),
		    _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
		break;
	default:
		d1011(a, in, 11,
		    _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 4,
		    5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9, 8, 9, 10, 11, 9, 10, 11,
		    12),
		    _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
		break;
	}
}

#endif
