/*
 * Constant-time table selection for P-256 with AVX2, 32 bytes at a time:
 * the window table of the variable-base multiplication (16 entries of 160
 * bytes) and a row of the fixed-base table (64 entries of 64 bytes). Same
 * contracts as vg_p256_select_w5_c and vg_p256_select_w7_c
 * (crypto/p256_kernels.h); selected when the CPU has AVX2.
 * CT: every entry is loaded and ANDed with a mask from VPCMPEQD of a
 * counter against the index; no branch or address depends on idx.
 */
#include "config.h"

#include "crypto/p256_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* see crypto/p256_kernels.h */
__attribute__((target("avx2"))) void
vg_p256_select_w5_avx2(uint64_t out[VG_P256_W5_LIMBS],
    const uint64_t table[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS],
    uint32_t idx)
{
	const __m256i one = _mm256_set1_epi32(1);
	const __m256i want = _mm256_set1_epi32((int)idx);
	__m256i cnt = one;
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0,
	    a4 = a0;
	int i;

	for (i = 0; i < VG_P256_W5_ENTRIES; i++) {
		const __m256i *e = (const __m256i *)table[i];
		__m256i m = _mm256_cmpeq_epi32(cnt, want);

		cnt = _mm256_add_epi32(cnt, one);
		a0 = _mm256_or_si256(a0,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 0)));
		a1 = _mm256_or_si256(a1,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 1)));
		a2 = _mm256_or_si256(a2,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 2)));
		a3 = _mm256_or_si256(a3,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 3)));
		a4 = _mm256_or_si256(a4,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 4)));
	}
	_mm256_storeu_si256((__m256i *)out + 0, a0);
	_mm256_storeu_si256((__m256i *)out + 1, a1);
	_mm256_storeu_si256((__m256i *)out + 2, a2);
	_mm256_storeu_si256((__m256i *)out + 3, a3);
	_mm256_storeu_si256((__m256i *)out + 4, a4);
}

/* see crypto/p256_kernels.h */
__attribute__((target("avx2"))) void
vg_p256_select_w7_avx2(uint64_t out[VG_P256_W7_LIMBS],
    const uint64_t table[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS],
    uint32_t idx, uint64_t flip)
{
	const __m256i one = _mm256_set1_epi32(1);
	const __m256i want = _mm256_set1_epi32((int)idx);
	__m256i cnt = one;
	__m256i a0 = _mm256_setzero_si256(), a1 = a0;
	int i;

	/* Unrolled: on Zen 3 the rolled loop (nine instructions) took 200
	 * to 250 TSC ticks per call in most runs, unrolled by 8 about 100
	 * in every run (the window-5 loop, 16 entries, gains nothing). */
#pragma GCC unroll 8
	for (i = 0; i < VG_P256_W7_ENTRIES; i++) {
		const __m256i *e = (const __m256i *)table[i];
		__m256i m = _mm256_cmpeq_epi32(cnt, want);

		cnt = _mm256_add_epi32(cnt, one);
		a0 = _mm256_or_si256(a0,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 0)));
		a1 = _mm256_or_si256(a1,
		    _mm256_and_si256(m, _mm256_loadu_si256(e + 1)));
	}
	_mm256_storeu_si256((__m256i *)out + 0, a0);
	_mm256_storeu_si256((__m256i *)out + 1,
	    _mm256_xor_si256(a1, _mm256_set1_epi64x((long long)flip)));
}

#endif
