/*
 * The body of Keccak-f[1600] [FIPS 202 §3], shared by the portable kernel
 * (crypto/keccak.c) and the BMI2 one (crypto/x86_64/vg_keccakf1600_bmi2.c),
 * which compiles the same code with andn and rorx enabled.
 *
 * The 25 lanes live in local variables, never in an array, so that the
 * compiler can keep them in registers: each round reads one set of 25
 * (A) and writes the other (E), and two rounds per iteration bring the
 * state back. A round computes the column parities C and D = C[x - 1] ^
 * ROT(C[x + 1], 1), then the five output planes one at a time: theta, rho
 * and pi gather five lanes B[y, 2x + 3y] = ROT(A[x, y] ^ D[x], r[x, y]),
 * chi combines them, iota goes into lane 0. Lane (x, y) is st[x + 5 y].
 *
 * Included by those two files only; everything is static.
 * CT: constant time (no branch or index on the state). What the compiler
 * spills of the lanes stays on the stack like any register content.
 */
#ifndef VG_CRYPTO_KECCAK_F1600_H
#define VG_CRYPTO_KECCAK_F1600_H

#include <stdint.h>

/* Round constants [FIPS 202 §3.2.5]. */
static const uint64_t vg_keccak_rc[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define VG_KROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/* chi on one plane: E[o + i] = b_i ^ (~b_{i+1} & b_{i+2}) */
#define VG_KCHI(E, o0, o1, o2, o3, o4) do { \
	E##o0 = b0 ^ (~b1 & b2); \
	E##o1 = b1 ^ (~b2 & b3); \
	E##o2 = b2 ^ (~b3 & b4); \
	E##o3 = b3 ^ (~b4 & b0); \
	E##o4 = b4 ^ (~b0 & b1); \
} while (0)

/* One round from the lanes A0..A24 into E0..E24 with round constant rc. */
#define VG_KROUND(A, E, rc) do { \
	uint64_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4; \
	uint64_t b0, b1, b2, b3, b4; \
	c0 = A##0 ^ A##5 ^ A##10 ^ A##15 ^ A##20; \
	c1 = A##1 ^ A##6 ^ A##11 ^ A##16 ^ A##21; \
	c2 = A##2 ^ A##7 ^ A##12 ^ A##17 ^ A##22; \
	c3 = A##3 ^ A##8 ^ A##13 ^ A##18 ^ A##23; \
	c4 = A##4 ^ A##9 ^ A##14 ^ A##19 ^ A##24; \
	d0 = c4 ^ VG_KROL(c1, 1); \
	d1 = c0 ^ VG_KROL(c2, 1); \
	d2 = c1 ^ VG_KROL(c3, 1); \
	d3 = c2 ^ VG_KROL(c4, 1); \
	d4 = c3 ^ VG_KROL(c0, 1); \
	b0 = A##0 ^ d0; \
	b1 = VG_KROL(A##6 ^ d1, 44); \
	b2 = VG_KROL(A##12 ^ d2, 43); \
	b3 = VG_KROL(A##18 ^ d3, 21); \
	b4 = VG_KROL(A##24 ^ d4, 14); \
	VG_KCHI(E, 0, 1, 2, 3, 4); \
	E##0 ^= (rc); \
	b0 = VG_KROL(A##3 ^ d3, 28); \
	b1 = VG_KROL(A##9 ^ d4, 20); \
	b2 = VG_KROL(A##10 ^ d0, 3); \
	b3 = VG_KROL(A##16 ^ d1, 45); \
	b4 = VG_KROL(A##22 ^ d2, 61); \
	VG_KCHI(E, 5, 6, 7, 8, 9); \
	b0 = VG_KROL(A##1 ^ d1, 1); \
	b1 = VG_KROL(A##7 ^ d2, 6); \
	b2 = VG_KROL(A##13 ^ d3, 25); \
	b3 = VG_KROL(A##19 ^ d4, 8); \
	b4 = VG_KROL(A##20 ^ d0, 18); \
	VG_KCHI(E, 10, 11, 12, 13, 14); \
	b0 = VG_KROL(A##4 ^ d4, 27); \
	b1 = VG_KROL(A##5 ^ d0, 36); \
	b2 = VG_KROL(A##11 ^ d1, 10); \
	b3 = VG_KROL(A##17 ^ d2, 15); \
	b4 = VG_KROL(A##23 ^ d3, 56); \
	VG_KCHI(E, 15, 16, 17, 18, 19); \
	b0 = VG_KROL(A##2 ^ d2, 62); \
	b1 = VG_KROL(A##8 ^ d3, 55); \
	b2 = VG_KROL(A##14 ^ d4, 39); \
	b3 = VG_KROL(A##15 ^ d0, 41); \
	b4 = VG_KROL(A##21 ^ d1, 2); \
	VG_KCHI(E, 20, 21, 22, 23, 24); \
} while (0)

#define VG_KLANES(A) \
	A##0, A##1, A##2, A##3, A##4, A##5, A##6, A##7, A##8, A##9, A##10, \
	A##11, A##12, A##13, A##14, A##15, A##16, A##17, A##18, A##19, \
	A##20, A##21, A##22, A##23, A##24

#define VG_KLOAD(A, st) do { \
	A##0 = st[0]; A##1 = st[1]; A##2 = st[2]; A##3 = st[3]; \
	A##4 = st[4]; A##5 = st[5]; A##6 = st[6]; A##7 = st[7]; \
	A##8 = st[8]; A##9 = st[9]; A##10 = st[10]; A##11 = st[11]; \
	A##12 = st[12]; A##13 = st[13]; A##14 = st[14]; A##15 = st[15]; \
	A##16 = st[16]; A##17 = st[17]; A##18 = st[18]; A##19 = st[19]; \
	A##20 = st[20]; A##21 = st[21]; A##22 = st[22]; A##23 = st[23]; \
	A##24 = st[24]; \
} while (0)

#define VG_KSTORE(st, A) do { \
	st[0] = A##0; st[1] = A##1; st[2] = A##2; st[3] = A##3; \
	st[4] = A##4; st[5] = A##5; st[6] = A##6; st[7] = A##7; \
	st[8] = A##8; st[9] = A##9; st[10] = A##10; st[11] = A##11; \
	st[12] = A##12; st[13] = A##13; st[14] = A##14; st[15] = A##15; \
	st[16] = A##16; st[17] = A##17; st[18] = A##18; st[19] = A##19; \
	st[20] = A##20; st[21] = A##21; st[22] = A##22; st[23] = A##23; \
	st[24] = A##24; \
} while (0)

/* The permutation, inlined into each kernel so that it is compiled with
 * that kernel's instruction set. */
static inline __attribute__((always_inline)) void
vg_keccak_f1600_body(uint64_t st[25])
{
	uint64_t VG_KLANES(A), VG_KLANES(E);
	unsigned r;

	VG_KLOAD(A, st);
	for (r = 0; r < 24; r += 2) {
		VG_KROUND(A, E, vg_keccak_rc[r]);
		VG_KROUND(E, A, vg_keccak_rc[r + 1]);
	}
	VG_KSTORE(st, A);
}

#endif
