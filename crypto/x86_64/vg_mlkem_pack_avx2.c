/*
 * vg_mlkem_pack_avx2: ByteEncode_d [FIPS 203 Alg. 5] of compressed
 * values for d = 1, 4 and 10 (the others go to vg_mlkem_pack_c), the
 * same bytes as the twin (tests/kernels/test_mlkem_kernels.c).
 * d = 10: VPMADDWD by (1, 2^10) joins pairs into 20-bit lanes, a variable
 * shift and a 64-bit shift join those into 40 bits per 64-bit lane,
 * VPSHUFB keeps ten bytes per 128-bit half; the halves are stored ten
 * bytes apart (each store overwriting the previous one's slack) into a
 * buffer with room for the last overhang, then copied out.
 * d = 4: VPMADDWD by (1, 2^4) makes one byte per pair, two saturating
 * packs and VPERMD restore the order. d = 1: the bits are moved to the
 * top of each byte and gathered by VPMOVMSKB.
 * CT: no branch or index on the values (the branches are on d).
 */
#include "config.h"

#if defined(__x86_64__)

#include <string.h>

#include "crypto/mlkem_avx2.h"
#include "crypto/ct.h"

static VG_AVX2_INLINE void
pack10(uint8_t out[320], const uint16_t t[VG_MLKEM_N])
{
	const __m256i mul = _mm256_set1_epi32(1 | (1 << 26));
	const __m256i sh = _mm256_setr_epi32(12, 0, 12, 0, 12, 0, 12, 0);
	const __m256i shuf = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11,
	    12, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1,
	    -1, -1, -1, -1, -1);
	uint8_t buf[320 + 6];
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(t + 16 * i));

		/* t_2j + 2^10 t_2j+1 in 32-bit lane j (< 2^20) */
		x = _mm256_madd_epi16(x, mul);
		/* 40 bits per 64-bit lane: the even lane from bit 12 down to
		 * bit 0, the odd one from bit 32 down to bit 20 */
		x = _mm256_sllv_epi32(x, sh);
		x = _mm256_srli_epi64(x, 12);
		x = _mm256_shuffle_epi8(x, shuf);
		_mm_storeu_si128((__m128i *)(buf + 20 * i),
		    _mm256_castsi256_si128(x));
		_mm_storeu_si128((__m128i *)(buf + 20 * i + 10),
		    _mm256_extracti128_si256(x, 1));
	}
	memcpy(out, buf, 320);
	vg_wipe(buf, sizeof(buf));
}

static VG_AVX2_INLINE void
pack4(uint8_t out[128], const uint16_t t[VG_MLKEM_N])
{
	const __m256i mul = _mm256_set1_epi32(1 | (1 << 20));
	const __m256i perm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
	unsigned i, j;

	for (i = 0; i < VG_MLKEM_N / 64; i++) {
		__m256i m[4], p0, p1;

		for (j = 0; j < 4; j++)
			/* t_2k + 2^4 t_2k+1 in 32-bit lane k (< 2^8) */
			m[j] = _mm256_madd_epi16(_mm256_loadu_si256(
			    (const __m256i *)(t + 64 * i + 16 * j)), mul);
		p0 = _mm256_packus_epi32(m[0], m[1]);
		p1 = _mm256_packus_epi32(m[2], m[3]);
		p0 = _mm256_packus_epi16(p0, p1);
		p0 = _mm256_permutevar8x32_epi32(p0, perm);
		_mm256_storeu_si256((__m256i *)(out + 32 * i), p0);
	}
}

static VG_AVX2_INLINE void
pack1(uint8_t out[32], const uint16_t t[VG_MLKEM_N])
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 32; i++) {
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(t + 32 * i));
		__m256i x1 = _mm256_loadu_si256(
		    (const __m256i *)(t + 32 * i + 16));
		uint32_t m;

		x0 = _mm256_packs_epi16(x0, x1);
		x0 = _mm256_permute4x64_epi64(x0, 0xd8);
		m = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(x0, 7));
		out[4 * i] = (uint8_t)m;
		out[4 * i + 1] = (uint8_t)(m >> 8);
		out[4 * i + 2] = (uint8_t)(m >> 16);
		out[4 * i + 3] = (uint8_t)(m >> 24);
	}
}

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_pack_avx2(uint8_t *out, const uint16_t t[VG_MLKEM_N], unsigned d)
{
	switch (d) {
	case 1:
		pack1(out, t);
		break;
	case 4:
		pack4(out, t);
		break;
	case 10:
		pack10(out, t);
		break;
	default:
		vg_mlkem_pack_c(out, t, d);
		break;
	}
}

#endif
