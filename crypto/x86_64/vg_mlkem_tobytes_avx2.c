/*
 * vg_mlkem_tobytes_avx2: ByteEncode_12 [FIPS 203 Alg. 5] of a polynomial
 * with coefficients in [0, q), sixteen coefficients (24 bytes) per step.
 * VPMADDWD by (1, 2^12) joins each pair into the low 24 bits of a 32-bit
 * lane, VPSHUFB drops the top byte of each lane (12 bytes per 128-bit
 * half), and VPERMD closes the gap between the halves. Each 32-byte store
 * overlaps the next step's first 8 bytes; the last step stores exactly
 * 24 bytes. The same bytes as vg_mlkem_tobytes_c
 * (tests/kernels/test_mlkem_kernels.c). CT: no branch or index on
 * coefficients.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

/* see crypto/mlkem_kernels.h */
VG_AVX2 void
vg_mlkem_tobytes_avx2(uint8_t out[VG_MLKEM_POLY_BYTES],
    const int16_t a[VG_MLKEM_N])
{
	const __m256i mul = _mm256_set1_epi32(1 | (1 << 28));
	const __m256i shuf = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10,
	    12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13,
	    14, -1, -1, -1, -1);
	const __m256i perm = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(a + 16 * i));

		/* a_2j + 2^12 a_2j+1 in 32-bit lane j (< 2^24) */
		x = _mm256_madd_epi16(x, mul);
		x = _mm256_shuffle_epi8(x, shuf);
		x = _mm256_permutevar8x32_epi32(x, perm);
		if (i + 1 < VG_MLKEM_N / 16) {
			_mm256_storeu_si256((__m256i *)(out + 24 * i), x);
		} else {
			_mm_storeu_si128((__m128i *)(out + 24 * i),
			    _mm256_castsi256_si128(x));
			_mm_storel_epi64((__m128i *)(out + 24 * i + 16),
			    _mm256_extracti128_si256(x, 1));
		}
	}
}

#endif
