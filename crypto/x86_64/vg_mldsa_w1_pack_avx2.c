/*
 * vg_mldsa_w1_pack_avx2: w1Encode of one polynomial [FIPS 204 Alg. 28].
 * The coefficients are narrowed to 16 bits (vpackusdw), adjacent fields
 * merged by multiply-add (vpmaddubsw for 4 bits, vpmaddwd for 6 bits),
 * and the bytes put in order by a cross-lane qword permutation and an
 * in-lane byte shuffle. CT: constant time.
 */
#include "config.h"

#if defined(__x86_64__)

#include <string.h>

#include "crypto/mldsa_avx2.h"

static inline VG_AVX2 __m256i
load(const int32_t *a)
{
	return _mm256_loadu_si256((const __m256i *)a);
}

/* 4 bits per coefficient: 64 coefficients -> 32 bytes. */
static VG_AVX2 void
pack4(uint8_t *out, const int32_t *a)
{
	const __m256i mul = _mm256_set1_epi16(1 | (16 << 8));
	const __m256i idx = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5,
	    12, 13, 6, 7, 14, 15, 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7,
	    14, 15);
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 64) {
		__m256i f0 = _mm256_packus_epi32(load(a + i), load(a + i + 8));
		__m256i f1 = _mm256_packus_epi32(load(a + i + 16),
		    load(a + i + 24));
		__m256i f2 = _mm256_packus_epi32(load(a + i + 32),
		    load(a + i + 40));
		__m256i f3 = _mm256_packus_epi32(load(a + i + 48),
		    load(a + i + 56));

		f0 = _mm256_packus_epi16(f0, f1);
		f1 = _mm256_packus_epi16(f2, f3);
		/* byte pairs (c_2k, c_2k+1) -> c_2k | c_2k+1 << 4 */
		f0 = _mm256_maddubs_epi16(f0, mul);
		f1 = _mm256_maddubs_epi16(f1, mul);
		f0 = _mm256_packus_epi16(f0, f1);
		f0 = _mm256_permute4x64_epi64(f0, 0xd8);
		f0 = _mm256_shuffle_epi8(f0, idx);
		_mm256_storeu_si256((__m256i *)(out + i / 2), f0);
	}
}

/* 6 bits per coefficient: 16 coefficients -> 12 bytes. */
static VG_AVX2 void
pack6(uint8_t *out, const int32_t *a)
{
	const __m256i mul = _mm256_set1_epi32(1 | (64 << 16));
	const __m256i idx = _mm256_setr_epi8(0, 1, 2, 8, 9, 10, -1, -1, -1, -1,
	    -1, -1, -1, -1, -1, -1, 0, 1, 2, 8, 9, 10, -1, -1, -1, -1, -1, -1,
	    -1, -1, -1, -1);
	uint8_t buf[32];
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i += 16) {
		__m256i f = _mm256_packus_epi32(load(a + i), load(a + i + 8));

		/* 16-bit pairs -> 12-bit fields in 32-bit lanes, then two
		 * of them -> 24 bits at the bottom of each 64-bit lane */
		f = _mm256_madd_epi16(f, mul);
		f = _mm256_or_si256(f, _mm256_srli_epi64(f, 20));
		f = _mm256_permute4x64_epi64(f, 0xd8);
		f = _mm256_shuffle_epi8(f, idx);
		_mm256_storeu_si256((__m256i *)buf, f);
		memcpy(out + 3 * (i / 4), buf, 6);
		memcpy(out + 3 * (i / 4) + 6, buf + 16, 6);
	}
}

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_w1_pack_avx2(uint8_t *out, const int32_t a[VG_MLDSA_N],
    int32_t gamma2)
{
	if (gamma2 == (VG_MLDSA_Q - 1) / 32)
		pack4(out, a);
	else
		pack6(out, a);
}

#endif
