/*
 * RSA-2048's two CRT halves at once with AVX-512 IFMA on 256-bit registers
 * (AVX512_IFMA + AVX512VL; no 512-bit vector is used): the contracts of
 * vg_rsa_amm52x2_c and vg_rsa_modexp52x2_c (crypto/rsa_kernels.h).
 *
 * A number is 20 limbs of 52 bits in five ymm registers. One AMM step per
 * limb b[i] of b (for each half, the two halves interleaved):
 *   - the reduction digit y = (acc * k0) mod 2^52 comes from a scalar copy
 *     acc of the lowest lane (MULX and IMUL), so the vector side never
 *     waits for an extract before it can start;
 *   - VPMADD52LUQ adds the low halves of a[j] * b[i] and m[j] * y to every
 *     lane; the lowest lane is now 0 mod 2^52 and the accumulator moves
 *     down one lane (VALIGNQ), the scalar taking the new lowest lane and
 *     the carry of the old one;
 *   - VPMADD52HUQ adds the high halves, which belong one lane up, that is
 *     to the lane where they now are.
 * Carries stay in each lane's top 12 bits (at most 20 * 2^54 per lane)
 * until one normalising pass: a shifted add of every lane's carry, then
 * the rare ripple of a one-bit carry through lanes equal to 2^52 - 1,
 * found from generate/propagate bit masks with one integer addition.
 * The two halves hide each other's scalar latency (issue 5, item 4).
 *
 * The same source is compiled a second time by vg_rsa_amm52_emu.c with
 * SIMDe and portable madd52/alignr definitions (VG_RSA_IFMA_EMU), so that
 * the tests run its logic on CPUs without IFMA.
 * CT: no branch or memory index depends on the numbers; the exponent's
 * windows select table entries with full masked reads.
 */
#include "config.h"

#include "crypto/ct.h"
#include "crypto/rsa_kernels.h"

#if defined(VG_RSA_IFMA_EMU)
/* the including file has set up the intrinsics */
#define VG_IFMA_FN(name) name##_emu
#define VG_IFMA_TARGET
#define VG_IFMA_BUILD 1
#elif defined(VG_HAVE_RSA_X86_64_KERNELS)
#include <immintrin.h>
#define VG_IFMA_FN(name) name##_ifma
#if defined(__clang__)
/* clang prefers 256-bit vectors for these targets already */
#define VG_IFMA_TARGET                                                  \
	__attribute__((target("avx2,avx512f,avx512vl,avx512ifma")))
#else
#define VG_IFMA_TARGET                                                  \
	__attribute__((target("avx2,avx512f,avx512vl,avx512ifma,"        \
			      "prefer-vector-width=256")))
#endif
#define VG_IFMA_BUILD 1
#endif

#ifdef VG_IFMA_BUILD

#define NL VG_RSA52_LIMBS
#define M52 0xfffffffffffffULL

typedef unsigned __int128 u128;

void VG_IFMA_FN(vg_rsa_amm52x2)(uint64_t d[2][NL], const uint64_t a[2][NL],
    const uint64_t b[2][NL], const uint64_t m[2][NL], const uint64_t k0[2]);
void VG_IFMA_FN(vg_rsa_modexp52x2)(uint64_t d[2][NL],
    const uint64_t base[2][NL], const uint64_t one[2][NL],
    const uint64_t *const e[2], unsigned ebits, const uint64_t m[2][NL],
    const uint64_t k0[2]);
void VG_IFMA_FN(vg_rsa_norm52)(uint64_t d[NL], const uint64_t lanes[NL]);

#define LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define ST(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

/* Lane masks (all-ones per set bit) of a 4-bit value. */
VG_IFMA_TARGET static inline __m256i
bits_to_lanes(uint64_t bits)
{
	const __m256i sel = _mm256_set_epi64x(8, 4, 2, 1);
	__m256i v = _mm256_and_si256(_mm256_set1_epi64x((long long)bits), sel);

	return _mm256_cmpeq_epi64(v, sel);
}

/* 4-bit mask of the lanes of v that are all-ones. */
VG_IFMA_TARGET static inline uint64_t
lanes_to_bits(__m256i v)
{
	return (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(v));
}

/*
 * Normalises the 20 lanes of r[0..4] (each below 2^63) into 52-bit limbs,
 * the value being below 2^1040.
 */
VG_IFMA_TARGET static inline void
normalise(__m256i r[5])
{
	const __m256i mask = _mm256_set1_epi64x((long long)M52);
	const __m256i zero = _mm256_setzero_si256();
	__m256i c[5], cs[5];
	uint64_t g = 0, p = 0, cin;
	int k;

#pragma GCC unroll 5
	for (k = 0; k < 5; k++) {
		c[k] = _mm256_srli_epi64(r[k], 52);
		r[k] = _mm256_and_si256(r[k], mask);
	}
	/* each lane's carry moves one lane up */
	cs[0] = _mm256_alignr_epi64(c[0], zero, 3);
#pragma GCC unroll 5
	for (k = 1; k < 5; k++)
		cs[k] = _mm256_alignr_epi64(c[k], c[k - 1], 3);
#pragma GCC unroll 5
	for (k = 0; k < 5; k++) {
		r[k] = _mm256_add_epi64(r[k], cs[k]);
		/* generate: above 2^52 - 1; propagate: equal to it */
		g |= lanes_to_bits(_mm256_cmpgt_epi64(r[k], mask)) << (4 * k);
		p |= lanes_to_bits(_mm256_cmpeq_epi64(r[k], mask)) << (4 * k);
	}
	/* lanes that receive a carry: ((g << 1) + p) ^ p */
	cin = (((g << 1) + p) ^ p) & 0xfffff;
#pragma GCC unroll 5
	for (k = 0; k < 5; k++) {
		__m256i t = _mm256_and_si256(bits_to_lanes(cin >> (4 * k)), mask);

		/* + 1 - 2^52, then drop bit 52 */
		r[k] = _mm256_and_si256(_mm256_sub_epi64(r[k], t), mask);
	}
}

/* Test hook (tests/kernels/test_rsa_kernels.c): normalise() on 20 raw
 * lanes, each below 2^63, of a value below 2^1040. */
VG_IFMA_TARGET void
VG_IFMA_FN(vg_rsa_norm52)(uint64_t d[NL], const uint64_t lanes[NL])
{
	__m256i r[5];
	int k;

#pragma GCC unroll 5
	for (k = 0; k < 5; k++)
		r[k] = LD(lanes + 4 * k);
	normalise(r);
#pragma GCC unroll 5
	for (k = 0; k < 5; k++)
		ST(d + 4 * k, r[k]);
}

/* The scalar half of one AMM step: the digit y and the carry of lane 0. */
static inline uint64_t
digit(uint64_t *acc, uint64_t a0, uint64_t bi, uint64_t m0, uint64_t k0)
{
	u128 s = (u128)a0 * bi + *acc;
	uint64_t y = ((uint64_t)s * k0) & M52;

	s += (u128)m0 * y;
	*acc = (uint64_t)(s >> 52);
	return y;
}

/* One AMM step of one half on the accumulator r (20 lanes). */
#define AMM_STEP(r, acc, A, M, bi, y)                                       \
	do {                                                                 \
		__m256i B_ = _mm256_set1_epi64x((long long)(bi));            \
		__m256i Y_ = _mm256_set1_epi64x((long long)(y));             \
		int k_;                                                      \
		_Pragma("GCC unroll 5") for (k_ = 0; k_ < 5; k_++) {                                 \
			r[k_] = _mm256_madd52lo_epu64(r[k_], LD(A + 4 * k_), B_); \
			r[k_] = _mm256_madd52lo_epu64(r[k_], LD(M + 4 * k_), Y_); \
		}                                                            \
		_Pragma("GCC unroll 4") for (k_ = 0; k_ < 4; k_++)                                   \
			r[k_] = _mm256_alignr_epi64(r[k_ + 1], r[k_], 1);    \
		r[4] = _mm256_alignr_epi64(_mm256_setzero_si256(), r[4], 1); \
		acc += (uint64_t)_mm256_extract_epi64(r[0], 0);              \
		_Pragma("GCC unroll 5") for (k_ = 0; k_ < 5; k_++) {                                 \
			r[k_] = _mm256_madd52hi_epu64(r[k_], LD(A + 4 * k_), B_); \
			r[k_] = _mm256_madd52hi_epu64(r[k_], LD(M + 4 * k_), Y_); \
		}                                                            \
	} while (0)

/* see crypto/rsa_kernels.h */
VG_IFMA_TARGET __attribute__((noinline)) void
VG_IFMA_FN(vg_rsa_amm52x2)(uint64_t d[2][NL], const uint64_t a[2][NL],
    const uint64_t b[2][NL], const uint64_t m[2][NL], const uint64_t k0[2])
{
	__m256i r0[5], r1[5];
	uint64_t acc0 = 0, acc1 = 0;
	int i, k;

#pragma GCC unroll 5
	for (k = 0; k < 5; k++) {
		r0[k] = _mm256_setzero_si256();
		r1[k] = _mm256_setzero_si256();
	}
#pragma GCC unroll 2
	for (i = 0; i < NL; i++) {
		uint64_t b0 = b[0][i], b1 = b[1][i];
		uint64_t y0 = digit(&acc0, a[0][0], b0, m[0][0], k0[0]);
		uint64_t y1 = digit(&acc1, a[1][0], b1, m[1][0], k0[1]);

		AMM_STEP(r0, acc0, a[0], m[0], b0, y0);
		AMM_STEP(r1, acc1, a[1], m[1], b1, y1);
	}
	/* the scalar holds the true lowest lane */
	r0[0] = _mm256_blend_epi32(r0[0],
	    _mm256_set1_epi64x((long long)acc0), 3);
	r1[0] = _mm256_blend_epi32(r1[0],
	    _mm256_set1_epi64x((long long)acc1), 3);
	normalise(r0);
	normalise(r1);
#pragma GCC unroll 5
	for (k = 0; k < 5; k++) {
		ST(d[0] + 4 * k, r0[k]);
		ST(d[1] + 4 * k, r1[k]);
	}
}

/* out[k] = table[w_k][k] for both halves, reading all 32 entries. */
VG_IFMA_TARGET static void
select2(uint64_t out[2][NL], const uint64_t (*table)[2][NL], uint64_t w0,
    uint64_t w1)
{
	__m256i s0[5], s1[5];
	const __m256i W0 = _mm256_set1_epi64x((long long)w0);
	const __m256i W1 = _mm256_set1_epi64x((long long)w1);
	int i, k;

#pragma GCC unroll 5
	for (k = 0; k < 5; k++) {
		s0[k] = _mm256_setzero_si256();
		s1[k] = _mm256_setzero_si256();
	}
	for (i = 0; i < 32; i++) {
		const __m256i I = _mm256_set1_epi64x(i);
		const __m256i m0 = _mm256_cmpeq_epi64(I, W0);
		const __m256i m1 = _mm256_cmpeq_epi64(I, W1);

#pragma GCC unroll 5
		for (k = 0; k < 5; k++) {
			s0[k] = _mm256_or_si256(s0[k],
			    _mm256_and_si256(LD(table[i][0] + 4 * k), m0));
			s1[k] = _mm256_or_si256(s1[k],
			    _mm256_and_si256(LD(table[i][1] + 4 * k), m1));
		}
	}
#pragma GCC unroll 5
	for (k = 0; k < 5; k++) {
		ST(out[0] + 4 * k, s0[k]);
		ST(out[1] + 4 * k, s1[k]);
	}
}

/* d = s for a pair of numbers, through ymm registers. */
VG_IFMA_TARGET static inline void
copy2(uint64_t d[2][NL], const uint64_t s[2][NL])
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < 10; k++)
		ST(&d[0][0] + 4 * k, LD(&s[0][0] + 4 * k));
}

/* Bits [pos, pos + len) of e (len <= 5; positions are public). */
static inline uint64_t
window(const uint64_t *e, unsigned pos, unsigned len)
{
	uint64_t v = e[pos / 64] >> (pos % 64);

	if (pos % 64 + len > 64)
		v |= e[pos / 64 + 1] << (64 - pos % 64);
	return v & (((uint64_t)1 << len) - 1);
}

/* see crypto/rsa_kernels.h */
VG_IFMA_TARGET void
VG_IFMA_FN(vg_rsa_modexp52x2)(uint64_t d[2][NL], const uint64_t base[2][NL],
    const uint64_t one[2][NL], const uint64_t *const e[2], unsigned ebits,
    const uint64_t m[2][NL], const uint64_t k0[2])
{
	uint64_t table[32][2][NL] __attribute__((aligned(32)));
	uint64_t acc[2][NL] __attribute__((aligned(32)));
	uint64_t t[2][NL] __attribute__((aligned(32)));
	unsigned nwin, top, w, i;

	if (ebits == 0) {
		copy2(d, one);
		return;
	}
	copy2(table[0], one);
	copy2(table[1], base);
	for (i = 2; i < 32; i++)
		VG_IFMA_FN(vg_rsa_amm52x2)(table[i],
		    (const uint64_t(*)[NL])table[i - 1], base, m, k0);

	nwin = (ebits + 4) / 5;
	top = ebits - 5 * (nwin - 1);
	select2(acc, (const uint64_t(*)[2][NL])table,
	    window(e[0], 5 * (nwin - 1), top), window(e[1], 5 * (nwin - 1), top));
	for (w = nwin - 1; w-- > 0;) {
		for (i = 0; i < 5; i++)
			VG_IFMA_FN(vg_rsa_amm52x2)(acc,
			    (const uint64_t(*)[NL])acc,
			    (const uint64_t(*)[NL])acc, m, k0);
		select2(t, (const uint64_t(*)[2][NL])table,
		    window(e[0], 5 * w, 5), window(e[1], 5 * w, 5));
		VG_IFMA_FN(vg_rsa_amm52x2)(acc, (const uint64_t(*)[NL])acc,
		    (const uint64_t(*)[NL])t, m, k0);
	}
	copy2(d, (const uint64_t(*)[NL])acc);
	vg_wipe(table, sizeof(table));
	vg_wipe(acc, sizeof(acc));
	vg_wipe(t, sizeof(t));
}

#endif
