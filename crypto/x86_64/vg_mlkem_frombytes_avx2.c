/*
 * vg_mlkem_frombytes_avx2: ByteDecode_12 [FIPS 203 Alg. 6] with the
 * modulus check of §7.2, sixteen coefficients (24 bytes) per step. VPERMD
 * spreads the 24 bytes as 12 per 128-bit half, VPSHUFB gives each 32-bit
 * lane its 3 bytes (a_2j + 2^12 a_2j+1), and a mask and a shift put the
 * two 12-bit values in the halves of the lane. A value >= q is reduced
 * by one subtraction of q (values are < 2^12 < 2q) and clears the result
 * mask. Loads stay inside the 384 input bytes: the last step loads bytes
 * 352 .. 383 and picks their top 24. The same results as
 * vg_mlkem_frombytes_c (tests/kernels/test_mlkem_kernels.c).
 * CT: no branch or index on the input; the result mask is computed
 * without a branch.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mlkem_avx2.h"

/* see crypto/mlkem_kernels.h */
VG_AVX2 uint32_t
vg_mlkem_frombytes_avx2(int16_t a[VG_MLKEM_N],
    const uint8_t in[VG_MLKEM_POLY_BYTES])
{
	const __m256i perm = _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
	const __m256i perm_last = _mm256_setr_epi32(2, 3, 4, 0, 5, 6, 7, 0);
	const __m256i shuf = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6,
	    7, 8, -1, 9, 10, 11, -1, 0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1,
	    9, 10, 11, -1);
	const __m256i lo12 = _mm256_set1_epi32(0xfff);
	const __m256i hi12 = _mm256_set1_epi32(0xfff0000);
	const __m256i q = _mm256_set1_epi16(VG_MLKEM_Q);
	__m256i ok = _mm256_set1_epi16(-1);
	uint32_t bad;
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 16; i++) {
		__m256i x, lt;

		if (i + 1 < VG_MLKEM_N / 16) {
			x = _mm256_loadu_si256(
			    (const __m256i *)(in + 24 * i));
			x = _mm256_permutevar8x32_epi32(x, perm);
		} else {
			x = _mm256_loadu_si256(
			    (const __m256i *)(in + 24 * i - 8));
			x = _mm256_permutevar8x32_epi32(x, perm_last);
		}
		x = _mm256_shuffle_epi8(x, shuf);
		x = _mm256_or_si256(_mm256_and_si256(x, lo12),
		    _mm256_and_si256(_mm256_slli_epi32(x, 4), hi12));
		/* all-ones where x < q */
		lt = _mm256_cmpgt_epi16(q, x);
		ok = _mm256_and_si256(ok, lt);
		x = _mm256_sub_epi16(x, _mm256_andnot_si256(lt, q));
		_mm256_storeu_si256((__m256i *)(a + 16 * i), x);
	}
	/* 0 if every lane passed, else 1 */
	bad = (uint32_t)_mm256_movemask_epi8(ok) ^ 0xffffffffu;
	bad = (uint32_t)(((uint64_t)bad + 0xffffffffu) >> 32);
	return bad - 1u;
}

#endif
