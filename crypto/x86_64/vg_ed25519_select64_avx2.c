/*
 * The Ed25519 comb's table selection with AVX2: one row of
 * vg_ed25519_base_table64 (16 entries of 96 bytes), each entry loaded as
 * three 32-byte vectors (YpX, YmX, T2d) and ANDed with a VPCMPEQQ mask of
 * its index against the digit; the identity (1, 1, 0) enters under the
 * mask of digit 0; YpX and YmX are swapped by VPBLENDVB under the mask of
 * neg. Same contract as vg_ed25519_select64_c
 * (crypto/c25519_kernels.h); chosen with the ADX comb when the CPU has
 * AVX2 as well.
 * CT: every entry is loaded; no branch or address depends on babs or
 * neg.
 */
#include "config.h"

#include "crypto/c25519_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* see crypto/c25519_kernels.h */
__attribute__((target("avx2"))) void
vg_ed25519_select64_avx2(uint64_t t[12], const uint64_t row[16][12],
    uint64_t babs, uint64_t neg)
{
	const __m256i want = _mm256_set1_epi64x((long long)babs);
	const __m256i one = _mm256_set_epi64x(0, 0, 0, 1);
	__m256i m = _mm256_cmpeq_epi64(_mm256_setzero_si256(), want);
	__m256i a0 = _mm256_and_si256(m, one), a1 = a0;
	__m256i a2 = _mm256_setzero_si256();
	int j;

#pragma GCC unroll 16
	for (j = 0; j < 16; j++) {
		const __m256i *e = (const __m256i *)row[j];

		m = _mm256_cmpeq_epi64(_mm256_set1_epi64x(j + 1), want);
		a0 = _mm256_or_si256(a0,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 0)));
		a1 = _mm256_or_si256(a1,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 1)));
		a2 = _mm256_or_si256(a2,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 2)));
	}
	m = _mm256_set1_epi64x(-(long long)neg);
	_mm256_storeu_si256((__m256i *)t + 0, _mm256_blendv_epi8(a0, a1, m));
	_mm256_storeu_si256((__m256i *)t + 1, _mm256_blendv_epi8(a1, a0, m));
	_mm256_storeu_si256((__m256i *)t + 2, a2);
}

#endif
