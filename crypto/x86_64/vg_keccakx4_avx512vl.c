/*
 * vg_keccakx4_avx512vl: four Keccak-f[1600] permutations [FIPS 202 §3] at
 * once on 256-bit vectors, with the AVX-512VL instructions that suit
 * Keccak: vprolq rotates a lane in one instruction (AVX2 needs two
 * shifts and an OR), and vpternlogq computes the three-input XOR of theta
 * and chi's b0 ^ (~b1 & b2) in one. Same layout and contract as
 * vg_keccakx4_avx2 (lane i of state j is st[4 i + j]); no 512-bit vector
 * is used. Chosen by crypto/mldsa_kernels.c when AVX512F and AVX512VL are
 * in use; the portable twin is vg_keccakx4_c.
 * CT: constant time (no data-dependent branch or index).
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include "crypto/ct.h"
#include "crypto/mldsa_kernels.h"

#define VG_AVX512VL __attribute__((target("avx2,avx512f,avx512vl")))

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
#define XOR3(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x96)
/* a ^ (~b & c) */
#define CHI1(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0xd2)
#define ROL(x, n) _mm256_rol_epi64((x), (n))

#define CHI(E, o, b0, b1, b2, b3, b4) do { \
	E[(o) + 0] = CHI1(b0, b1, b2); \
	E[(o) + 1] = CHI1(b1, b2, b3); \
	E[(o) + 2] = CHI1(b2, b3, b4); \
	E[(o) + 3] = CHI1(b3, b4, b0); \
	E[(o) + 4] = CHI1(b4, b0, b1); \
} while (0)

/* One round from A into E: the lane map of vg_keccakx4_avx2. */
#define ROUND(A, E, r) do { \
	__m256i c0, c1, c2, c3, c4, d0, d1, d2, d3, d4; \
	__m256i b0, b1, b2, b3, b4; \
	c0 = XOR3(XOR3(A[0], A[5], A[10]), A[15], A[20]); \
	c1 = XOR3(XOR3(A[1], A[6], A[11]), A[16], A[21]); \
	c2 = XOR3(XOR3(A[2], A[7], A[12]), A[17], A[22]); \
	c3 = XOR3(XOR3(A[3], A[8], A[13]), A[18], A[23]); \
	c4 = XOR3(XOR3(A[4], A[9], A[14]), A[19], A[24]); \
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
	b3 = ROL(XOR(A[19], d4), 8); \
	b4 = ROL(XOR(A[20], d0), 18); \
	CHI(E, 10, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(A[4], d4), 27); \
	b1 = ROL(XOR(A[5], d0), 36); \
	b2 = ROL(XOR(A[11], d1), 10); \
	b3 = ROL(XOR(A[17], d2), 15); \
	b4 = ROL(XOR(A[23], d3), 56); \
	CHI(E, 15, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(A[2], d2), 62); \
	b1 = ROL(XOR(A[8], d3), 55); \
	b2 = ROL(XOR(A[14], d4), 39); \
	b3 = ROL(XOR(A[15], d0), 41); \
	b4 = ROL(XOR(A[21], d1), 2); \
	CHI(E, 20, b0, b1, b2, b3, b4); \
} while (0)

/* see crypto/mldsa_kernels.h */
VG_AVX512VL void
vg_keccakx4_avx512vl(uint64_t st[100])
{
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
