/*
 * vg_mldsa_expand_mask_avx2: BitUnpack(buf, gamma1 - 1, gamma1) [FIPS 204
 * Alg. 19] for gamma1 = 2^17 (18-bit fields) or 2^19 (20-bit fields), on
 * eight coefficients (18 or 20 bytes) per iteration: a qword permutation
 * and a byte shuffle put the three bytes holding each field into a 32-bit
 * lane, a per-lane shift and mask extract it, and gamma1 - field is
 * stored. The last group is read through a local copy so that nothing
 * beyond the 32 (bits + 1) input bytes is read. CT: constant time.
 */
#include "config.h"

#if defined(__x86_64__)

#include <string.h>

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_mldsa_expand_mask_avx2(int32_t a[VG_MLDSA_N], const uint8_t *buf,
    unsigned bits)
{
	__m256i idx, sh, mask, g;
	unsigned i, step;
	uint8_t tail[32];

	if (bits == 17) {
		idx = _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1,
		    6, 7, 8, -1, 1, 2, 3, -1, 3, 4, 5, -1, 5, 6, 7, -1, 7, 8, 9,
		    -1);
		sh = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
		step = 18;
	} else {
		idx = _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1,
		    7, 8, 9, -1, 2, 3, 4, -1, 4, 5, 6, -1, 7, 8, 9, -1, 9, 10, 11,
		    -1);
		sh = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
		step = 20;
	}
	mask = _mm256_set1_epi32((int32_t)((1u << (bits + 1)) - 1));
	g = _mm256_set1_epi32((int32_t)1 << bits);
	for (i = 0; i < VG_MLDSA_N / 8; i++) {
		const uint8_t *p = buf + step * i;
		__m256i x;

		if (i == VG_MLDSA_N / 8 - 1) {
			memset(tail, 0, sizeof(tail));
			memcpy(tail, p, step);
			p = tail;
		}
		x = _mm256_loadu_si256((const __m256i *)p);
		x = _mm256_permute4x64_epi64(x, 0x94); /* qwords 0, 1, 1, 2 */
		x = _mm256_shuffle_epi8(x, idx);
		x = _mm256_and_si256(_mm256_srlv_epi32(x, sh), mask);
		_mm256_storeu_si256((__m256i *)(a + 8 * i),
		    _mm256_sub_epi32(g, x));
	}
	vg_wipe(tail, sizeof(tail));
}

#endif
