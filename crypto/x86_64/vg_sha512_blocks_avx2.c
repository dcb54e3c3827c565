/*
 * SHA-512 compression [FIPS 180-4 §6.4.2] with the message schedule in
 * AVX2 registers and the rounds in general registers with BMI2 (RORX,
 * ANDN). Same contract as vg_sha512_blocks_c (crypto/cpu.h); selected by
 * crypto/cpu.c when the CPU has AVX2 and BMI2.
 *
 * The 16 words of the schedule window sit in four vectors of four words.
 * Each group of four rounds reads W[t..t+3] + K[t..t+3] from a small
 * buffer on the stack, while the vector unit computes the next four words
 * W[t+16..t+19] from the window, so the two halves run side by side and
 * the rounds do no schedule arithmetic of their own.
 *
 * CT: straight-line code, no data-dependent branch or index. The stack
 * buffer holds schedule words (key material under HMAC): it is wiped on
 * return, and the vector registers are cleared.
 */
#include "config.h"

#include "crypto/ct.h"
#include "crypto/hash.h"
#include "crypto/x86_64/kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define BSIG0(x) (ROR64(x, 28) ^ ROR64(x, 34) ^ ROR64(x, 39))
#define BSIG1(x) (ROR64(x, 14) ^ ROR64(x, 18) ^ ROR64(x, 41))

/* One round on wk[k] = W[t] + K[t], the working variables renamed instead
 * of moved. Ch(e, f, g) = (e & f) ^ (~e & g), the second term one ANDN;
 * Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b. The sums are ordered so that
 * the terms ready first (h + W + K, then Ch) are added before S1(e), and
 * Maj before S0(a): the new e and a each wait on one rotation sum and
 * two additions. */
#define RND(a, b, c, d, e, f, g, h, k)                                    \
	do {                                                              \
		uint64_t t1_ = h + wk[k];                                 \
		t1_ += (e & f) ^ (~e & g);                                \
		t1_ += BSIG1(e);                                          \
		d += t1_;                                                 \
		t1_ += ((a ^ b) & (b ^ c)) ^ b;                           \
		h = t1_ + BSIG0(a);                                       \
	} while (0)

/* Four rounds on wk[k..k+3]. */
#define RND4(a, b, c, d, e, f, g, h, k)                                   \
	do {                                                              \
		RND(a, b, c, d, e, f, g, h, (k) + 0);                     \
		RND(h, a, b, c, d, e, f, g, (k) + 1);                     \
		RND(g, h, a, b, c, d, e, f, (k) + 2);                     \
		RND(f, g, h, a, b, c, d, e, (k) + 3);                     \
	} while (0)

#define VROR(x, n) \
	_mm256_or_si256(_mm256_srli_epi64((x), (n)), \
	    _mm256_slli_epi64((x), 64 - (n)))

/* s0(x) = ROTR^1 ^ ROTR^8 ^ SHR^7, the rotation by 8 one byte shuffle;
 * s1(x) = ROTR^19 ^ ROTR^61 ^ SHR^6 [FIPS 180-4 §4.1.3]. */
static inline __attribute__((target("avx2"), always_inline)) __m256i
ssig0(__m256i x, __m256i ror8)
{
	return _mm256_xor_si256(_mm256_xor_si256(VROR(x, 1),
	    _mm256_shuffle_epi8(x, ror8)), _mm256_srli_epi64(x, 7));
}

static inline __attribute__((target("avx2"), always_inline)) __m256i
ssig1(__m256i x)
{
	return _mm256_xor_si256(_mm256_xor_si256(VROR(x, 19), VROR(x, 61)),
	    _mm256_srli_epi64(x, 6));
}

/* x0 = W[j..j+3] becomes W[j+16..j+19], from the window W[j..j+15] in
 * x0..x3 [FIPS 180-4 §6.4.2 step 1]. W[j+18] and W[j+19] need W[j+16] and
 * W[j+17], so s1 is added in two halves. */
static inline __attribute__((target("avx2"), always_inline)) __m256i
sched(__m256i x0, __m256i x1, __m256i x2, __m256i x3, __m256i ror8)
{
	__m256i w1, w9, t, s;

	/* W[j+1..j+4] and W[j+9..j+12] */
	w1 = _mm256_alignr_epi8(_mm256_permute2x128_si256(x0, x1, 0x21), x0,
	    8);
	w9 = _mm256_alignr_epi8(_mm256_permute2x128_si256(x2, x3, 0x21), x2,
	    8);
	t = _mm256_add_epi64(_mm256_add_epi64(x0, w9), ssig0(w1, ror8));
	/* W[j+14], W[j+15] (zero above: s1(0) = 0) into the low half */
	s = ssig1(_mm256_permute2x128_si256(x3, x3, 0x81));
	t = _mm256_add_epi64(t, s);
	/* then W[j+16], W[j+17] from the low half into the high half */
	s = ssig1(_mm256_permute2x128_si256(t, t, 0x08));
	return _mm256_add_epi64(t, s);
}

/* see crypto/x86_64/kernels.h */
__attribute__((target("avx2,bmi,bmi2"))) void
vg_sha512_blocks_avx2(uint64_t st[8], const uint8_t *in, size_t nblocks)
{
	/* byte swap of each 64-bit word, and rotation right by 8 */
	const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fULL,
	    0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL,
	    0x0001020304050607ULL);
	const __m256i ror8 = _mm256_set_epi64x(0x080f0e0d0c0b0a09ULL,
	    0x0007060504030201ULL, 0x080f0e0d0c0b0a09ULL,
	    0x0007060504030201ULL);
	uint64_t wk[80] __attribute__((aligned(32)));
	size_t n;

	for (n = 0; n < nblocks; n++, in += 128) {
		uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
		__m256i x0, x1, x2, x3;
		unsigned t;

#define LOADW(x, i)                                                       \
	do {                                                              \
		(x) = _mm256_shuffle_epi8(_mm256_loadu_si256(             \
		    (const __m256i *)(in + 32 * (i))), bswap);            \
		_mm256_store_si256((__m256i *)&wk[4 * (i)],               \
		    _mm256_add_epi64((x), _mm256_load_si256(              \
			(const __m256i *)&vg_sha512_k[4 * (i)])));        \
	} while (0)
		LOADW(x0, 0);
		LOADW(x1, 1);
		LOADW(x2, 2);
		LOADW(x3, 3);
#undef LOADW

		/* rounds t..t+15 while W[t+16..t+31] are computed */
#define STEP(x0, x1, x2, x3, k)                                           \
	do {                                                              \
		(x0) = sched((x0), (x1), (x2), (x3), ror8);               \
		_mm256_store_si256((__m256i *)&wk[(k) + 16],              \
		    _mm256_add_epi64((x0), _mm256_load_si256(             \
			(const __m256i *)&vg_sha512_k[(k) + 16])));       \
	} while (0)
		for (t = 0; t < 64; t += 16) {
			STEP(x0, x1, x2, x3, t);
			RND4(a, b, c, d, e, f, g, h, t);
			STEP(x1, x2, x3, x0, t + 4);
			RND4(e, f, g, h, a, b, c, d, t + 4);
			STEP(x2, x3, x0, x1, t + 8);
			RND4(a, b, c, d, e, f, g, h, t + 8);
			STEP(x3, x0, x1, x2, t + 12);
			RND4(e, f, g, h, a, b, c, d, t + 12);
		}
#undef STEP
		RND4(a, b, c, d, e, f, g, h, 64);
		RND4(e, f, g, h, a, b, c, d, 68);
		RND4(a, b, c, d, e, f, g, h, 72);
		RND4(e, f, g, h, a, b, c, d, 76);

		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
		st[5] += f;
		st[6] += g;
		st[7] += h;
	}
	if (nblocks != 0) {
		vg_wipe(wk, sizeof(wk));
		_mm256_zeroall();
	}
}
#endif
