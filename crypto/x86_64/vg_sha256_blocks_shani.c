/*
 * SHA-256 compression with the SHA extensions (SHA256RNDS2, SHA256MSG1,
 * SHA256MSG2) and SSE4.1. Same contract as vg_sha256_blocks_c
 * (crypto/cpu.h); selected by crypto/cpu.c when the CPU has SHA-NI.
 * CT: straight-line code, no data-dependent branch or index.
 */
#include "config.h"

#include "crypto/x86_64/kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

static const uint32_t K256[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Four rounds on message words w (W[t..t+3]) with constants K[t..t+3].
 * SHA256RNDS2 does two rounds on the low two words of its third operand. */
#define RNDS4(w, t)                                                       \
	do {                                                              \
		msg = _mm_add_epi32((w),                                  \
		    _mm_load_si128((const __m128i *)&K256[(t)]));         \
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);            \
		msg = _mm_shuffle_epi32(msg, 0x0e);                       \
		abef = _mm_sha256rnds2_epu32(abef, cdgh, msg);            \
	} while (0)

/* w0 = W[t..t+3] becomes W[t+16..t+19], from W[t..t+15] in w0..w3
 * [FIPS 180-4 §6.2.2 step 1]. */
#define SCHED(w0, w1, w2, w3)                                             \
	(w0) = _mm_sha256msg2_epu32(                                      \
	    _mm_add_epi32(_mm_sha256msg1_epu32((w0), (w1)),               \
		_mm_alignr_epi8((w3), (w2), 4)),                          \
	    (w3))

/* see crypto/x86_64/kernels.h */
__attribute__((target("sha,sse4.1"))) void
vg_sha256_blocks_shani(uint32_t st[8], const uint8_t *in, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL,
	    0x0405060700010203ULL);
	__m128i abef, cdgh, tmp, msg, w0, w1, w2, w3, abef0, cdgh0;
	unsigned t;

	/* The instructions want the state as ABEF and CDGH (A in the high
	 * lane). */
	tmp = _mm_loadu_si128((const __m128i *)&st[0]);  /* DCBA */
	cdgh = _mm_loadu_si128((const __m128i *)&st[4]); /* HGFE */
	tmp = _mm_shuffle_epi32(tmp, 0xb1);              /* CDAB */
	cdgh = _mm_shuffle_epi32(cdgh, 0x1b);            /* EFGH */
	abef = _mm_alignr_epi8(tmp, cdgh, 8);            /* ABEF */
	cdgh = _mm_blend_epi16(cdgh, tmp, 0xf0);         /* CDGH */

	for (; nblocks > 0; nblocks--, in += 64) {
		abef0 = abef;
		cdgh0 = cdgh;
		w0 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 0)), bswap);
		w1 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 16)), bswap);
		w2 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 32)), bswap);
		w3 = _mm_shuffle_epi8(
		    _mm_loadu_si128((const __m128i *)(in + 48)), bswap);
		RNDS4(w0, 0);
		RNDS4(w1, 4);
		RNDS4(w2, 8);
		RNDS4(w3, 12);
		for (t = 16; t < 64; t += 16) {
			SCHED(w0, w1, w2, w3);
			RNDS4(w0, t);
			SCHED(w1, w2, w3, w0);
			RNDS4(w1, t + 4);
			SCHED(w2, w3, w0, w1);
			RNDS4(w2, t + 8);
			SCHED(w3, w0, w1, w2);
			RNDS4(w3, t + 12);
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}

	tmp = _mm_shuffle_epi32(abef, 0x1b);             /* FEBA */
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);            /* DCHG */
	abef = _mm_blend_epi16(tmp, cdgh, 0xf0);         /* DCBA */
	cdgh = _mm_alignr_epi8(cdgh, tmp, 8);            /* HGFE */
	_mm_storeu_si128((__m128i *)&st[0], abef);
	_mm_storeu_si128((__m128i *)&st[4], cdgh);
}
#endif
