/*
 * Constant-time selection from a row of the P-256 fixed-base table with
 * AVX-512F, one 64-byte entry per load: same contract as
 * vg_p256_select_w7_c (crypto/p256_kernels.h); selected when the CPU has
 * AVX-512F (and AVX2, for the window-table selection beside it). Reading
 * the 4 KiB row is most of a selection's cost, and whole-entry loads halve
 * the loads and logic operations of the AVX2 version.
 * CT: every entry is loaded in full and merged into an accumulator under
 * an opmask from a compare of a counter with the index (a data operation,
 * not a branch: the same loads and operations run for every idx); no
 * branch or address depends on idx.
 */
#include "config.h"

#include "crypto/p256_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* see crypto/p256_kernels.h */
__attribute__((target("avx512f"))) void
vg_p256_select_w7_avx512(uint64_t out[VG_P256_W7_LIMBS],
    const uint64_t table[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS],
    uint32_t idx, uint64_t flip)
{
	const __m512i two = _mm512_set1_epi64(2);
	const __m512i want = _mm512_set1_epi64((long long)idx);
	/* flip in the four lanes of y */
	const __m512i yflip = _mm512_maskz_set1_epi64(0xf0, (long long)flip);
	__m512i c0 = _mm512_set1_epi64(1), c1 = _mm512_set1_epi64(2);
	__m512i a0 = _mm512_setzero_si512(), a1 = a0;
	int i;

	/* two accumulators, so that consecutive merges do not wait on each
	 * other */
	for (i = 0; i < VG_P256_W7_ENTRIES; i += 2) {
		__mmask8 m0 = _mm512_cmpeq_epi64_mask(c0, want);
		__mmask8 m1 = _mm512_cmpeq_epi64_mask(c1, want);

		c0 = _mm512_add_epi64(c0, two);
		c1 = _mm512_add_epi64(c1, two);
		a0 = _mm512_mask_or_epi64(a0, m0, a0,
		    _mm512_loadu_si512((const void *)table[i]));
		a1 = _mm512_mask_or_epi64(a1, m1, a1,
		    _mm512_loadu_si512((const void *)table[i + 1]));
	}
	_mm512_storeu_si512((void *)out,
	    _mm512_xor_si512(_mm512_or_si512(a0, a1), yflip));
}

#endif
