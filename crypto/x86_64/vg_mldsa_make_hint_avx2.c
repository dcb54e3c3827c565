/*
 * vg_mldsa_make_hint_avx2: MakeHint [FIPS 204 Alg. 39] on eight
 * coefficients per iteration: r1 = HighBits(r) and r1' = HighBits((r + z)
 * mod q) from the HighBits formula, the hint is ((r1 ^ r1') + 63) >> 6
 * (the XOR is below 64). Eight hints are stored per iteration and counted
 * from the vpmovmskb byte mask of their negation (a nibble per lane, summed
 * by shift-and-add), accumulating the hint count. CT: no branch on data.
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

/* see crypto/mldsa_kernels.h */
VG_AVX2 unsigned
vg_mldsa_make_hint_avx2(int32_t h[VG_MLDSA_N], const int32_t z[VG_MLDSA_N],
    const int32_t r[VG_MLDSA_N], int32_t gamma2)
{
	const __m256i q = _mm256_set1_epi32(VG_MLDSA_Q);
	const __m256i qm1 = _mm256_set1_epi32(VG_MLDSA_Q - 1);
	const __m256i c63 = _mm256_set1_epi32(63);
	const __m256i zero = _mm256_setzero_si256();
	unsigned i, n = 0;

	for (i = 0; i < VG_MLDSA_N; i += 8) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(r + i));
		__m256i v = _mm256_add_epi32(x,
		    _mm256_loadu_si256((const __m256i *)(z + i)));
		__m256i b;
		uint32_t m;

		v = _mm256_add_epi32(v, _mm256_and_si256(
		    _mm256_srai_epi32(v, 31), q));
		v = _mm256_sub_epi32(v, _mm256_and_si256(
		    _mm256_cmpgt_epi32(v, qm1), q));
		b = _mm256_xor_si256(vg_mldsa_highbits_avx2(x, gamma2),
		    vg_mldsa_highbits_avx2(v, gamma2));
		b = _mm256_srli_epi32(_mm256_add_epi32(b, c63), 6);
		_mm256_storeu_si256((__m256i *)(h + i), b);
		m = (uint32_t)_mm256_movemask_epi8(_mm256_sub_epi32(zero, b));
		m &= 0x11111111u;
		m += m >> 4;
		m += m >> 8;
		m += m >> 16;
		n += m & 0xf;
	}
	return n;
}

#endif
