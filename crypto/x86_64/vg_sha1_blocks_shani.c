/*
 * SHA-1 compression with the SHA extensions (SHA1RNDS4, SHA1NEXTE,
 * SHA1MSG1, SHA1MSG2) and SSE4.1. Same contract as vg_sha1_blocks_c
 * (crypto/cpu.h); selected by crypto/cpu.c when the CPU has SHA-NI.
 * CT: straight-line code, no data-dependent branch or index.
 */
#include "config.h"

#include "crypto/x86_64/kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

/*
 * Rounds 4g..4g+3 on message words w (W[4g..4g+3], W[4g] in the high
 * lane), with round function fn (0..3 for rounds 0-19, ..., 60-79).
 * e_prev holds A of four rounds ago; SHA1NEXTE turns it into E and adds it
 * to the first word. The first group adds E directly (see below).
 */
#define RNDS4(w, fn)                                                      \
	do {                                                              \
		e = _mm_sha1nexte_epu32(eprev, (w));                      \
		eprev = abcd;                                             \
		abcd = _mm_sha1rnds4_epu32(abcd, e, (fn));                \
	} while (0)

/* w0 = W[t..t+3] becomes W[t+16..t+19], from W[t..t+15] in w0..w3
 * [FIPS 180-4 §6.1.2 step 1]. */
#define SCHED(w0, w1, w2, w3)                                             \
	(w0) = _mm_sha1msg2_epu32(                                        \
	    _mm_xor_si128(_mm_sha1msg1_epu32((w0), (w1)), (w2)), (w3))

/* see crypto/x86_64/kernels.h */
__attribute__((target("sha,sse4.1"))) void
vg_sha1_blocks_shani(uint32_t st[5], const uint8_t *in, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0001020304050607ULL,
	    0x08090a0b0c0d0e0fULL);
	__m128i abcd, e0, e, eprev, abcd0, w0, w1, w2, w3;

	/* A in the high lane; E in the high lane of its own register. */
	abcd = _mm_shuffle_epi32(
	    _mm_loadu_si128((const __m128i *)st), 0x1b);
	e0 = _mm_set_epi32((int)st[4], 0, 0, 0);

	for (; nblocks > 0; nblocks--, in += 64) {
		abcd0 = abcd;
		w0 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 0)), bswap);
		w1 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 16)), bswap);
		w2 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 32)), bswap);
		w3 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 48)), bswap);

		/* rounds 0-3: E + W[0..3] */
		e = _mm_add_epi32(e0, w0);
		eprev = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, e, 0);
		RNDS4(w1, 0);
		RNDS4(w2, 0);
		RNDS4(w3, 0);
		SCHED(w0, w1, w2, w3);
		RNDS4(w0, 0); /* rounds 16-19 */
		SCHED(w1, w2, w3, w0);
		RNDS4(w1, 1);
		SCHED(w2, w3, w0, w1);
		RNDS4(w2, 1);
		SCHED(w3, w0, w1, w2);
		RNDS4(w3, 1);
		SCHED(w0, w1, w2, w3);
		RNDS4(w0, 1);
		SCHED(w1, w2, w3, w0);
		RNDS4(w1, 1); /* rounds 36-39 */
		SCHED(w2, w3, w0, w1);
		RNDS4(w2, 2);
		SCHED(w3, w0, w1, w2);
		RNDS4(w3, 2);
		SCHED(w0, w1, w2, w3);
		RNDS4(w0, 2);
		SCHED(w1, w2, w3, w0);
		RNDS4(w1, 2);
		SCHED(w2, w3, w0, w1);
		RNDS4(w2, 2); /* rounds 56-59 */
		SCHED(w3, w0, w1, w2);
		RNDS4(w3, 3);
		SCHED(w0, w1, w2, w3);
		RNDS4(w0, 3);
		SCHED(w1, w2, w3, w0);
		RNDS4(w1, 3);
		SCHED(w2, w3, w0, w1);
		RNDS4(w2, 3);
		SCHED(w3, w0, w1, w2);
		RNDS4(w3, 3); /* rounds 76-79 */

		/* E' = ROTL30(A of round 76) + E, A..D' = A..D + A..D */
		e0 = _mm_sha1nexte_epu32(eprev, e0);
		abcd = _mm_add_epi32(abcd, abcd0);
	}

	_mm_storeu_si128((__m128i *)st, _mm_shuffle_epi32(abcd, 0x1b));
	st[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}
#endif
