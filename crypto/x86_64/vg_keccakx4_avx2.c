/*
 * vg_keccakx4_avx2: four Keccak-f[1600] permutations [FIPS 202 §3] at
 * once, one state per 64-bit lane of 25 AVX2 registers (lane i of state j
 * is st[4 i + j], so each __m256i is one lane of the four states). Each
 * round computes the column parities, then the five output planes one at
 * a time: theta, rho and pi gather the five input lanes of a plane, chi
 * and iota produce it into a second state; two rounds per iteration swap
 * the two states back. Rotations are shift pairs, by 8 and 56 a byte
 * shuffle. The portable twin is vg_keccakx4_c.
 * CT: constant time (no data-dependent branch or index).
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"

static const uint64_t RC[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define XOR(a, b) _mm256_xor_si256((a), (b))
#define ANDN(a, b) _mm256_andnot_si256((a), (b)) /* ~a & b */
#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi64((x), (n)), \
	_mm256_srli_epi64((x), 64 - (n)))
#define ROL8(x) _mm256_shuffle_epi8((x), rot8)
#define ROL56(x) _mm256_shuffle_epi8((x), rot56)

/* chi on one plane of five B lanes into E[o .. o + 4] */
#define CHI(E, o, b0, b1, b2, b3, b4) do { \
	E[(o) + 0] = XOR(b0, ANDN(b1, b2)); \
	E[(o) + 1] = XOR(b1, ANDN(b2, b3)); \
	E[(o) + 2] = XOR(b2, ANDN(b3, b4)); \
	E[(o) + 3] = XOR(b3, ANDN(b4, b0)); \
	E[(o) + 4] = XOR(b4, ANDN(b0, b1)); \
} while (0)

/*
 * One round from A into E. B[y, 2x + 3y] = ROT(A[x, y] ^ D[x], r[x, y]);
 * the planes of E are listed with the A lanes and rotations they take
 * (the same map as vg_keccakf1600_c).
 */
#define ROUND(A, E, r) do { \
	__m256i c0, c1, c2, c3, c4, d0, d1, d2, d3, d4; \
	__m256i b0, b1, b2, b3, b4; \
	c0 = XOR(XOR(XOR(A[0], A[5]), XOR(A[10], A[15])), A[20]); \
	c1 = XOR(XOR(XOR(A[1], A[6]), XOR(A[11], A[16])), A[21]); \
	c2 = XOR(XOR(XOR(A[2], A[7]), XOR(A[12], A[17])), A[22]); \
	c3 = XOR(XOR(XOR(A[3], A[8]), XOR(A[13], A[18])), A[23]); \
	c4 = XOR(XOR(XOR(A[4], A[9]), XOR(A[14], A[19])), A[24]); \
	d0 = XOR(c4, ROL(c1, 1)); \
	d1 = XOR(c0, ROL(c2, 1)); \
	d2 = XOR(c1, ROL(c3, 1)); \
	d3 = XOR(c2, ROL(c4, 1)); \
	d4 = XOR(c3, ROL(c0, 1)); \
	b0 = XOR(A[0], d0); \
	b1 = ROL(XOR(A[6], d1), 44); \
	b2 = ROL(XOR(A[12], d2), 43); \
	b3 = ROL(XOR(A[18], d3), 21); \
	b4 = ROL(XOR(A[24], d4), 14); \
	CHI(E, 0, b0, b1, b2, b3, b4); \
	E[0] = XOR(E[0], _mm256_set1_epi64x((long long)RC[r])); \
	b0 = ROL(XOR(A[3], d3), 28); \
	b1 = ROL(XOR(A[9], d4), 20); \
	b2 = ROL(XOR(A[10], d0), 3); \
	b3 = ROL(XOR(A[16], d1), 45); \
	b4 = ROL(XOR(A[22], d2), 61); \
	CHI(E, 5, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(A[1], d1), 1); \
	b1 = ROL(XOR(A[7], d2), 6); \
	b2 = ROL(XOR(A[13], d3), 25); \
	b3 = ROL8(XOR(A[19], d4)); \
	b4 = ROL(XOR(A[20], d0), 18); \
	CHI(E, 10, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(A[4], d4), 27); \
	b1 = ROL(XOR(A[5], d0), 36); \
	b2 = ROL(XOR(A[11], d1), 10); \
	b3 = ROL(XOR(A[17], d2), 15); \
	b4 = ROL56(XOR(A[23], d3)); \
	CHI(E, 15, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(A[2], d2), 62); \
	b1 = ROL(XOR(A[8], d3), 55); \
	b2 = ROL(XOR(A[14], d4), 39); \
	b3 = ROL(XOR(A[15], d0), 41); \
	b4 = ROL(XOR(A[21], d1), 2); \
	CHI(E, 20, b0, b1, b2, b3, b4); \
} while (0)

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_keccakx4_avx2(uint64_t st[100])
{
	const __m256i rot8 = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8,
	    9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12,
	    13, 14);
	const __m256i rot56 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10,
	    11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13,
	    14, 15, 8);
	__m256i A[25], E[25];
	unsigned i, r;

	for (i = 0; i < 25; i++)
		A[i] = _mm256_loadu_si256((const __m256i *)(st + 4 * i));
	for (r = 0; r < 24; r += 2) {
		ROUND(A, E, r);
		ROUND(E, A, r + 1);
	}
	for (i = 0; i < 25; i++)
		_mm256_storeu_si256((__m256i *)(st + 4 * i), A[i]);
	/* the states may hold secret seeds: no copy stays on the stack
	 * (inline stores, kept by the barrier, cost less than a call) */
	for (i = 0; i < 25; i++)
		A[i] = E[i] = _mm256_setzero_si256();
	__asm__ __volatile__("" : : "r"(A), "r"(E) : "memory");
}

#endif
