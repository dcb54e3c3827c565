/*
 * The body shared by the 4-way Keccak-f[1600] kernels (vg_keccakx4_avx2,
 * vg_keccakx4_avx512vl): four permutations [FIPS 202 §3] at once, one
 * state per 64-bit lane of 25 vectors (lane i of state j is st[4 i + j]).
 * Each round computes the column parities, then the five output planes
 * one at a time: theta, rho and pi gather the five input lanes of a
 * plane, chi and iota produce it, written back into the same 25 slots
 * (the slot map below). The permutation works on the caller's array
 * itself: a working copy and its clearing cost more loads and stores than
 * the rounds' own.
 *
 * The including file defines, for __m256i operands:
 *   XOR(a, b), XOR5(a, b, c, d, e)  exclusive or of two and of five;
 *   CHI1(a, b, c)                   a ^ (~b & c);
 *   ROL(x, n), ROL8(x), ROL56(x)    rotations left (by 8 and 56 named
 *                                   apart: AVX2 does them with a byte
 *                                   shuffle).
 * CT: constant time (no data-dependent branch or index).
 */
#ifndef VG_CRYPTO_X86_64_KECCAKX4_ROUND_H
#define VG_CRYPTO_X86_64_KECCAKX4_ROUND_H

#include <immintrin.h>

#include "crypto/keccak_f1600.h"

/*
 * The slot map of the in-place round. Output plane y of a round takes its
 * five input lanes from five different planes (pi), so writing it over
 * its own slots would destroy lanes that later planes still need. Instead
 * a round reads lane i from slot R(i) and writes output lane o to slot
 * W(o), alternating (R, W) = (identity, pi) and (pi, identity). The input
 * lanes of output plane y are vg_kx4_pi[5y .. 5y + 4] (the order of lanes
 * within each plane was chosen to make the map an involution,
 * vg_kx4_pi[vg_kx4_pi[i]] = i): in an (identity, pi) round the plane
 * reads them from slots vg_kx4_pi[5y .. 5y + 4] and writes those slots;
 * in a (pi, identity) round it reads them from slots 5y .. 5y + 4 and
 * writes those. Two rounds bring every lane back to its own slot.
 */
static const unsigned char vg_kx4_pi[25] = {
	0, 12, 24, 6, 18, 16, 3, 10, 22, 9, 7, 19, 1, 13, 20,
	23, 5, 17, 4, 11, 14, 21, 8, 15, 2,
};

/* Slot maps of the in-place round: lane i read from S[R(i)], output
 * lane o written to S[W(o)]. */
#define VG_KX4_ID(i) (i)
#define VG_KX4_PI(i) (vg_kx4_pi[i])
#define VG_KX4_LD(S, R, i) _mm256_load_si256(&(S)[R(i)])
#define VG_KX4_ST(S, W, o, v) _mm256_store_si256(&(S)[W(o)], (v))

/* chi on one plane of five B lanes into output lanes o .. o + 4; x is
 * xored into the first (iota's constant, or zero) */
#define VG_KX4_CHI_IP(S, W, o, x, b0, b1, b2, b3, b4) do { \
	VG_KX4_ST(S, W, (o) + 0, XOR(CHI1(b0, b1, b2), x)); \
	VG_KX4_ST(S, W, (o) + 1, CHI1(b1, b2, b3)); \
	VG_KX4_ST(S, W, (o) + 2, CHI1(b2, b3, b4)); \
	VG_KX4_ST(S, W, (o) + 3, CHI1(b3, b4, b0)); \
	VG_KX4_ST(S, W, (o) + 4, CHI1(b4, b0, b1)); \
} while (0)

/* One round in place. B[y, 2x + 3y] = ROT(A[x, y] ^ D[x], r[x, y]); the
 * output planes are listed with the input lanes and rotations they take
 * (the same map as vg_keccakf1600_c). Every plane reads its five lanes
 * before it writes their slots. */
#define VG_KX4_ROUND_IP(S, R, W, r) do { \
	const __m256i z_ = _mm256_setzero_si256(); \
	__m256i c0, c1, c2, c3, c4, d0, d1, d2, d3, d4; \
	__m256i b0, b1, b2, b3, b4; \
	c0 = XOR5(VG_KX4_LD(S, R, 0), VG_KX4_LD(S, R, 5), \
	    VG_KX4_LD(S, R, 10), VG_KX4_LD(S, R, 15), VG_KX4_LD(S, R, 20)); \
	c1 = XOR5(VG_KX4_LD(S, R, 1), VG_KX4_LD(S, R, 6), \
	    VG_KX4_LD(S, R, 11), VG_KX4_LD(S, R, 16), VG_KX4_LD(S, R, 21)); \
	c2 = XOR5(VG_KX4_LD(S, R, 2), VG_KX4_LD(S, R, 7), \
	    VG_KX4_LD(S, R, 12), VG_KX4_LD(S, R, 17), VG_KX4_LD(S, R, 22)); \
	c3 = XOR5(VG_KX4_LD(S, R, 3), VG_KX4_LD(S, R, 8), \
	    VG_KX4_LD(S, R, 13), VG_KX4_LD(S, R, 18), VG_KX4_LD(S, R, 23)); \
	c4 = XOR5(VG_KX4_LD(S, R, 4), VG_KX4_LD(S, R, 9), \
	    VG_KX4_LD(S, R, 14), VG_KX4_LD(S, R, 19), VG_KX4_LD(S, R, 24)); \
	d0 = XOR(c4, ROL(c1, 1)); \
	d1 = XOR(c0, ROL(c2, 1)); \
	d2 = XOR(c1, ROL(c3, 1)); \
	d3 = XOR(c2, ROL(c4, 1)); \
	d4 = XOR(c3, ROL(c0, 1)); \
	b0 = XOR(VG_KX4_LD(S, R, 0), d0); \
	b1 = ROL(XOR(VG_KX4_LD(S, R, 6), d1), 44); \
	b2 = ROL(XOR(VG_KX4_LD(S, R, 12), d2), 43); \
	b3 = ROL(XOR(VG_KX4_LD(S, R, 18), d3), 21); \
	b4 = ROL(XOR(VG_KX4_LD(S, R, 24), d4), 14); \
	VG_KX4_CHI_IP(S, W, 0, _mm256_set1_epi64x((long long)vg_keccak_rc[r]), \
	    b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(VG_KX4_LD(S, R, 3), d3), 28); \
	b1 = ROL(XOR(VG_KX4_LD(S, R, 9), d4), 20); \
	b2 = ROL(XOR(VG_KX4_LD(S, R, 10), d0), 3); \
	b3 = ROL(XOR(VG_KX4_LD(S, R, 16), d1), 45); \
	b4 = ROL(XOR(VG_KX4_LD(S, R, 22), d2), 61); \
	VG_KX4_CHI_IP(S, W, 5, z_, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(VG_KX4_LD(S, R, 1), d1), 1); \
	b1 = ROL(XOR(VG_KX4_LD(S, R, 7), d2), 6); \
	b2 = ROL(XOR(VG_KX4_LD(S, R, 13), d3), 25); \
	b3 = ROL8(XOR(VG_KX4_LD(S, R, 19), d4)); \
	b4 = ROL(XOR(VG_KX4_LD(S, R, 20), d0), 18); \
	VG_KX4_CHI_IP(S, W, 10, z_, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(VG_KX4_LD(S, R, 4), d4), 27); \
	b1 = ROL(XOR(VG_KX4_LD(S, R, 5), d0), 36); \
	b2 = ROL(XOR(VG_KX4_LD(S, R, 11), d1), 10); \
	b3 = ROL(XOR(VG_KX4_LD(S, R, 17), d2), 15); \
	b4 = ROL56(XOR(VG_KX4_LD(S, R, 23), d3)); \
	VG_KX4_CHI_IP(S, W, 15, z_, b0, b1, b2, b3, b4); \
	b0 = ROL(XOR(VG_KX4_LD(S, R, 2), d2), 62); \
	b1 = ROL(XOR(VG_KX4_LD(S, R, 8), d3), 55); \
	b2 = ROL(XOR(VG_KX4_LD(S, R, 14), d4), 39); \
	b3 = ROL(XOR(VG_KX4_LD(S, R, 15), d0), 41); \
	b4 = ROL(XOR(VG_KX4_LD(S, R, 21), d1), 2); \
	VG_KX4_CHI_IP(S, W, 20, z_, b0, b1, b2, b3, b4); \
} while (0)

/* The whole permutation of st[100] (32-byte aligned), on st itself. A
 * working copy in a local array would stay in memory as well (25 lanes do
 * not fit in 16 registers), so copying in and out and clearing the copy
 * would only add work: about 9% of the AVX2 permutation's time. */
#define VG_KX4_PERMUTE_INPLACE(st) do { \
	__m256i *S_ = (__m256i *)(void *)(st); \
	unsigned r_; \
	for (r_ = 0; r_ < 24; r_ += 2) { \
		VG_KX4_ROUND_IP(S_, VG_KX4_ID, VG_KX4_PI, r_); \
		VG_KX4_ROUND_IP(S_, VG_KX4_PI, VG_KX4_ID, r_ + 1); \
	} \
} while (0)

#endif
