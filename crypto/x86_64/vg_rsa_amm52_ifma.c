/*
 * The two CRT halves of RSA-2048, 3072 or 4096 at once with AVX-512 IFMA
 * (AVX512_IFMA + AVX512VL): the contracts of vg_rsa_amm52x2_c and
 * vg_rsa_modexp52x2_c (crypto/rsa_kernels.h) for nl = 20, 30 and 40
 * limbs, in two variants: "ifma" runs its steps in 512-bit registers
 * (below, "The steps in 512-bit registers"), "ifma256" in 256-bit ones
 * only, as described next.
 *
 * One source serves every size: the bodies below take the limb count as
 * a constant argument and are inlined into one function per size (amm_20,
 * modexp_20, ...), where every loop over registers unrolls and the
 * accumulators live in registers (up to 2 x 10 of the 32 ymm registers).
 * A number is nl limbs of 52 bits in nr = ceil(nl / 4) ymm registers, the
 * lanes from nl up zero (in m and a they stay zero, so they add nothing).
 * One AMM step per
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
 * Carries stay in each lane's top 12 bits (at most nl * 2^54 < 2^60 per
 * lane)
 * until one normalising pass: a shifted add of every lane's carry, then
 * the rare ripple of a one-bit carry through lanes equal to 2^52 - 1,
 * found from generate/propagate bit masks with one integer addition.
 * The two halves hide each other's scalar latency (issue 5, item 4).
 * The exponentiation's squarings take a dedicated squaring (sqr_body:
 * the cross products once, doubled, plus the diagonal, then the
 * reduction steps alone), with the AMM's result word for word.
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
#define VG_IFMA_FN256(name) name##_emu256
#define VG_IFMA_TARGET
#define VG_IFMA_BUILD 1
#elif defined(VG_HAVE_RSA_X86_64_KERNELS)
#include <immintrin.h>
#define VG_IFMA_FN(name) name##_ifma
#define VG_IFMA_FN256(name) name##_ifma256
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

#define NLMAX VG_RSA52_MAX_LIMBS
#define NRMAX (NLMAX / 4)
#define M52 0xfffffffffffffULL
#define INL __attribute__((always_inline)) inline

typedef unsigned __int128 u128;

void VG_IFMA_FN(vg_rsa_amm52x2)(uint64_t d[2][NLMAX],
    const uint64_t a[2][NLMAX], const uint64_t b[2][NLMAX],
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);
void VG_IFMA_FN(vg_rsa_modexp52x2)(uint64_t d[2][NLMAX],
    const uint64_t base[2][NLMAX], const uint64_t one[2][NLMAX],
    const uint64_t *const e[2], unsigned ebits, const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl);
void VG_IFMA_FN(vg_rsa_powpub52x2)(uint64_t d[2][NLMAX],
    const uint64_t a[2][NLMAX], const uint64_t *e, unsigned ebits,
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);
void VG_IFMA_FN(vg_rsa_norm52)(uint64_t *d, const uint64_t *lanes,
    size_t nl);
void VG_IFMA_FN(vg_rsa_sqr52x2)(uint64_t d[2][NLMAX],
    const uint64_t a[2][NLMAX], const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl);
void VG_IFMA_FN256(vg_rsa_amm52x2)(uint64_t d[2][NLMAX],
    const uint64_t a[2][NLMAX], const uint64_t b[2][NLMAX],
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);
void VG_IFMA_FN256(vg_rsa_modexp52x2)(uint64_t d[2][NLMAX],
    const uint64_t base[2][NLMAX], const uint64_t one[2][NLMAX],
    const uint64_t *const e[2], unsigned ebits, const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl);
void VG_IFMA_FN256(vg_rsa_powpub52x2)(uint64_t d[2][NLMAX],
    const uint64_t a[2][NLMAX], const uint64_t *e, unsigned ebits,
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);
void VG_IFMA_FN256(vg_rsa_sqr52x2)(uint64_t d[2][NLMAX],
    const uint64_t a[2][NLMAX], const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl);

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
 * Normalises the 4 nr lanes of r[0 .. nr) (each below 2^63) into 52-bit
 * limbs, the value being below 2^(208 nr) (nr <= 15).
 */
VG_IFMA_TARGET static INL void
normalise(__m256i *r, const int nr)
{
	const __m256i mask = _mm256_set1_epi64x((long long)M52);
	const __m256i zero = _mm256_setzero_si256();
	__m256i c[NRMAX], cs[NRMAX];
	uint64_t g = 0, p = 0, cin;
	int k;

#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		c[k] = _mm256_srli_epi64(r[k], 52);
		r[k] = _mm256_and_si256(r[k], mask);
	}
	/* each lane's carry moves one lane up */
	cs[0] = _mm256_alignr_epi64(c[0], zero, 3);
#pragma GCC unroll 10
	for (k = 1; k < nr; k++)
		cs[k] = _mm256_alignr_epi64(c[k], c[k - 1], 3);
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		r[k] = _mm256_add_epi64(r[k], cs[k]);
		/* generate: above 2^52 - 1; propagate: equal to it */
		g |= lanes_to_bits(_mm256_cmpgt_epi64(r[k], mask)) << (4 * k);
		p |= lanes_to_bits(_mm256_cmpeq_epi64(r[k], mask)) << (4 * k);
	}
	/* lanes that receive a carry: ((g << 1) + p) ^ p */
	cin = (((g << 1) + p) ^ p) & (((uint64_t)1 << (4 * nr)) - 1);
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		__m256i t = _mm256_and_si256(bits_to_lanes(cin >> (4 * k)), mask);

		/* + 1 - 2^52, then drop bit 52 */
		r[k] = _mm256_and_si256(_mm256_sub_epi64(r[k], t), mask);
	}
}

/* normalise() on 4 nr lanes from memory, to memory. */
VG_IFMA_TARGET static INL void
norm_mem(uint64_t *d, const uint64_t *lanes, const int nr)
{
	__m256i r[NRMAX];
	int k;

#pragma GCC unroll 10
	for (k = 0; k < nr; k++)
		r[k] = LD(lanes + 4 * k);
	normalise(r, nr);
#pragma GCC unroll 10
	for (k = 0; k < nr; k++)
		ST(d + 4 * k, r[k]);
}

/* Test hook (tests/kernels/test_rsa_amm52.c, tests/bochs): normalise() on
 * VG_RSA52_PAD(nl) raw lanes, each below 2^63, of a value below
 * 2^(52 VG_RSA52_PAD(nl)), for nl = 20, 30, 40 (nothing for others). */
VG_IFMA_TARGET void
VG_IFMA_FN(vg_rsa_norm52)(uint64_t *d, const uint64_t *lanes, size_t nl)
{
	if (nl == 20)
		norm_mem(d, lanes, 5);
	else if (nl == 30)
		norm_mem(d, lanes, 8);
	else if (nl == 40)
		norm_mem(d, lanes, 10);
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

/* One AMM step of one half on the accumulator r (nr registers). */
#define AMM_STEP(r, nr, acc, A, M, bi, y)                                   \
	do {                                                                 \
		__m256i B_ = _mm256_set1_epi64x((long long)(bi));            \
		__m256i Y_ = _mm256_set1_epi64x((long long)(y));             \
		int k_;                                                      \
		_Pragma("GCC unroll 10") for (k_ = 0; k_ < (nr); k_++) {     \
			r[k_] = _mm256_madd52lo_epu64(r[k_], LD(A + 4 * k_), B_); \
			r[k_] = _mm256_madd52lo_epu64(r[k_], LD(M + 4 * k_), Y_); \
		}                                                            \
		_Pragma("GCC unroll 10") for (k_ = 0; k_ < (nr) - 1; k_++)   \
			r[k_] = _mm256_alignr_epi64(r[k_ + 1], r[k_], 1);    \
		r[(nr) - 1] = _mm256_alignr_epi64(_mm256_setzero_si256(),    \
		    r[(nr) - 1], 1);                                         \
		acc += (uint64_t)_mm256_extract_epi64(r[0], 0);              \
		_Pragma("GCC unroll 10") for (k_ = 0; k_ < (nr); k_++) {     \
			r[k_] = _mm256_madd52hi_epu64(r[k_], LD(A + 4 * k_), B_); \
			r[k_] = _mm256_madd52hi_epu64(r[k_], LD(M + 4 * k_), Y_); \
		}                                                            \
	} while (0)

/*
 * The steps in 512-bit registers (the "ifma" kernel): the accumulator's
 * 4-lane groups as ceil(nl / 8) zmm registers, group 2k in the low half
 * of register k; for 20 limbs the third register's upper half lies above
 * the number (its lanes of a and m zero, never stored). Half the
 * instructions of the 256-bit steps for the same multiplications. The
 * 256-bit kernel is kept as "ifma256" (the wide argument below, 0).
 *
 * Their digits come from the scalar side two lanes ahead (digit_z,
 * red_digit_z): the vector's lane 1 is never read back in the step that
 * needs it but computed from lane 2 one step earlier, so a digit waits
 * for the vector only through a round trip two steps old.
 */
#define LDZ(p) _mm512_loadu_si512((const void *)(p))

/* The accumulator z (nz registers) moved down one lane. */
#define SHIFT_Z(z, nz)                                                      \
	do {                                                                 \
		int k_;                                                      \
		_Pragma("GCC unroll 10") for (k_ = 0; k_ < (nz) - 1; k_++)   \
			z[k_] = _mm512_alignr_epi64(z[k_ + 1], z[k_], 1);    \
		z[(nz) - 1] = _mm512_alignr_epi64(_mm512_setzero_si512(),    \
		    z[(nz) - 1], 1);                                         \
	} while (0)

/* AMM_STEP on z, a and m in the registers az and mz, the lowest lane's
 * value kept by the scalar side (digit_z). */
#define AMM_STEP_Z(z, nz, az, mz, bi, y)                                    \
	do {                                                                 \
		__m512i B_ = _mm512_set1_epi64((long long)(bi));             \
		__m512i Y_ = _mm512_set1_epi64((long long)(y));              \
		int j_;                                                      \
		_Pragma("GCC unroll 10") for (j_ = 0; j_ < (nz); j_++) {     \
			z[j_] = _mm512_madd52lo_epu64(z[j_], az[j_], B_);    \
			z[j_] = _mm512_madd52lo_epu64(z[j_], mz[j_], Y_);    \
		}                                                            \
		SHIFT_Z(z, nz);                                              \
		_Pragma("GCC unroll 10") for (j_ = 0; j_ < (nz); j_++) {     \
			z[j_] = _mm512_madd52hi_epu64(z[j_], az[j_], B_);    \
			z[j_] = _mm512_madd52hi_epu64(z[j_], mz[j_], Y_);    \
		}                                                            \
	} while (0)

/* RED_STEP on z, m in the registers mz. */
#define RED_STEP_Z(z, nz, mz, y)                                            \
	do {                                                                 \
		__m512i Y_ = _mm512_set1_epi64((long long)(y));              \
		int j_;                                                      \
		_Pragma("GCC unroll 10") for (j_ = 0; j_ < (nz); j_++)       \
			z[j_] = _mm512_madd52lo_epu64(z[j_], mz[j_], Y_);    \
		SHIFT_Z(z, nz);                                              \
		_Pragma("GCC unroll 10") for (j_ = 0; j_ < (nz); j_++)       \
			z[j_] = _mm512_madd52hi_epu64(z[j_], mz[j_], Y_);    \
	} while (0)

/*
 * The scalar half of one step in 512-bit registers, shared by digit_z
 * and red_digit_z. t0 is the lowest lane's true value with this step's
 * a b_i low half in (the lanes below hold nothing), ys = y 2^12 for the
 * digit y = t0 k0 mod 2^52 (from k0s = k0 2^12, so that m[j] ys gives
 * the high half of m[j] y as its upper word and the low half shifted up
 * by 12 bits in its lower one). Since t0 + lo(m[0] y) = 0 mod 2^52, the
 * lowest lane carries (t0 >> 52) + [y != 0] + hi(m[0] y) into the next,
 * [y != 0] standing for the carry of that sum's low 52 bits: the digit
 * chain is IMUL, MULX and an add. The next lane's value adds the vector's
 * lane 1 before this step (*l1, kept ahead: it is lane 2 before the step
 * before, l2 here, plus that step's products into it) and lo(m[1] y);
 * up1 is the rest this step puts in lane 1 (from a b_i) and up2 in
 * lane 2.
 */
static inline uint64_t
step_z(uint64_t *acc, uint64_t *l1, uint64_t l2, uint64_t t0,
    const uint64_t *m, uint64_t k0s, uint64_t up1, uint64_t up2)
{
	const uint64_t ys = t0 * k0s;
	const uint64_t hi = (uint64_t)(((u128)m[0] * ys) >> 64);
	const u128 p1 = (u128)m[1] * ys;

	*acc = hi + ((t0 >> 52) + (ys != 0) + *l1 + up1 +
	    ((uint64_t)p1 >> 12));
	*l1 = l2 + up2 + (uint64_t)(p1 >> 64) + ((m[2] * ys) >> 12);
	return ys >> 12;
}

/* The digit of an AMM step in 512-bit registers: lo and hi of a[j] b_i
 * from a[j] bi 2^12 as in step_z. */
static inline uint64_t
digit_z(uint64_t *acc, uint64_t *l1, uint64_t l2, const uint64_t *a,
    uint64_t bi, const uint64_t *m, uint64_t k0s)
{
	const uint64_t bs = bi << 12;
	const u128 p0 = (u128)a[0] * bs, p1 = (u128)a[1] * bs;

	return step_z(acc, l1, l2, *acc + ((uint64_t)p0 >> 12), m, k0s,
	    (uint64_t)(p0 >> 64) + ((uint64_t)p1 >> 12),
	    (uint64_t)(p1 >> 64) + ((a[2] * bs) >> 12));
}

/* The digit of a reduction step in 512-bit registers. */
static inline uint64_t
red_digit_z(uint64_t *acc, uint64_t *l1, uint64_t l2, const uint64_t *m,
    uint64_t k0s)
{
	return step_z(acc, l1, l2, *acc, m, k0s, 0, 0);
}

/* The two halves' pointers of an AMM pair: d[h] = AMM(a[h], b[h]) mod
 * m[h]. */
struct pair {
	uint64_t *d[2];
	const uint64_t *a[2], *b[2], *m[2];
};

/* d = AMM(a, b) for both halves of p, nl limbs. */
VG_IFMA_TARGET static INL void
amm_body(const struct pair *p, const uint64_t k0[2], const int nl)
{
	const int nr = (nl + 3) / 4;
	const uint64_t *a0 = p->a[0], *a1 = p->a[1];
	const uint64_t *b0 = p->b[0], *b1 = p->b[1];
	const uint64_t *m0 = p->m[0], *m1 = p->m[1];
	__m256i r0[NRMAX], r1[NRMAX];
	uint64_t acc0 = 0, acc1 = 0;
	int i, k;

#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		r0[k] = _mm256_setzero_si256();
		r1[k] = _mm256_setzero_si256();
	}
#pragma GCC unroll 2
	for (i = 0; i < nl; i++) {
		uint64_t bi0 = b0[i], bi1 = b1[i];
		uint64_t y0 = digit(&acc0, a0[0], bi0, m0[0], k0[0]);
		uint64_t y1 = digit(&acc1, a1[0], bi1, m1[0], k0[1]);

		AMM_STEP(r0, nr, acc0, a0, m0, bi0, y0);
		AMM_STEP(r1, nr, acc1, a1, m1, bi1, y1);
	}
	/* the scalar holds the true lowest lane */
	r0[0] = _mm256_blend_epi32(r0[0],
	    _mm256_set1_epi64x((long long)acc0), 3);
	r1[0] = _mm256_blend_epi32(r1[0],
	    _mm256_set1_epi64x((long long)acc1), 3);
	normalise(r0, nr);
	normalise(r1, nr);
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		ST(p->d[0] + 4 * k, r0[k]);
		ST(p->d[1] + 4 * k, r1[k]);
	}
}

/*
 * Lanes o .. o + 7 of a number held in registers (zz[1 + j]: its lanes
 * 8j .. 8j + 7; zz[0] zero), for a constant o >= -8; the switch gives
 * VALIGNQ the literal shift it needs.
 */
VG_IFMA_TARGET static INL __m512i
win(const __m512i *zz, const int o)
{
	const int q = (o + 8) / 8;

	switch ((o + 8) % 8) {
	case 1: return _mm512_alignr_epi64(zz[q + 1], zz[q], 1);
	case 2: return _mm512_alignr_epi64(zz[q + 1], zz[q], 2);
	case 3: return _mm512_alignr_epi64(zz[q + 1], zz[q], 3);
	case 4: return _mm512_alignr_epi64(zz[q + 1], zz[q], 4);
	case 5: return _mm512_alignr_epi64(zz[q + 1], zz[q], 5);
	case 6: return _mm512_alignr_epi64(zz[q + 1], zz[q], 6);
	case 7: return _mm512_alignr_epi64(zz[q + 1], zz[q], 7);
	default: return zz[q];
	}
}

/* The rows of sqr_product unrolled: clang, which cannot unroll them before
 * the loop around them, leaves them rolled (its build serves the fuzzers,
 * not speed), where win() takes its shift by the switch. */
#if defined(__clang__)
#define ROWS_UNROLL
#else
#define ROWS_UNROLL _Pragma("GCC unroll 40")
#endif

/*
 * The square of one half, t = a^2 in 2 np raw lanes (t + 8 k holds lanes
 * 8k .. 8k + 7, the positions 52 (8k + l)), each lane below
 * 2 nl 2^52 + 2^52 < 2^59, in 512-bit registers for every size. a: np
 * limbs, those from nl up zero.
 *
 * Output-stationary: register k sums the low halves of a[i] a[j] with
 * i + j = 8k + l and the high halves of those with i + j = 8k + l - 1,
 * over the pairs i < j only (broadcast a[i] times the eight a[j] of lanes
 * l); the sum is doubled and the diagonal a[i]^2 added (its low half at
 * lane 2i, its high half at lane 2i + 1). Each pair is taken from one
 * side: registers below the middle broadcast the smaller index (rows
 * i < 4k have j > i in every lane; rows 4k .. 4k + 3 meet the diagonal
 * and their lanes with j <= i are masked off; rows whose lanes all lie
 * past nl are skipped), registers whose positions lie above nl the
 * larger one when that takes fewer rows (rows 4k + 4 .. nl - 1 have
 * j < i in every lane, rows 4k .. 4k + 3 are masked with the
 * complements, and no lane reads past a's top limb, only zeros below
 * limb 0): 77 instead of 93 products for 20 limbs.
 *
 * The eight-lane windows of a come from registers by VALIGNQ, a read
 * once by 256-bit loads, the width its producer stored it with: an
 * unaligned 512-bit load across two stores still in flight cannot take
 * their data and waits until they reach the cache, which a padded copy
 * of a read by such loads did at the start of every squaring. The two
 * changes took the exponentiation to 0.93x its time for 20, 30 and 40
 * limbs (AMD Zen 5, doc/kernels.md).
 */
VG_IFMA_TARGET static INL void
sqr_product(uint64_t *t, const uint64_t *a, const int nl)
{
	__m512i zz[NLMAX / 8 + 5];
	const int np = 4 * ((nl + 3) / 4);
	const __m512i zero = _mm512_setzero_si512();
	/* lanes of the low and high halves kept in rows 4k + 0 .. 3 */
	const __m512i lm[4] = {
		_mm512_set_epi64(-1, -1, -1, -1, -1, -1, -1, 0),
		_mm512_set_epi64(-1, -1, -1, -1, -1, 0, 0, 0),
		_mm512_set_epi64(-1, -1, -1, 0, 0, 0, 0, 0),
		_mm512_set_epi64(-1, 0, 0, 0, 0, 0, 0, 0),
	};
	const __m512i hm[3] = {
		_mm512_set_epi64(-1, -1, -1, -1, -1, -1, 0, 0),
		_mm512_set_epi64(-1, -1, -1, -1, 0, 0, 0, 0),
		_mm512_set_epi64(-1, -1, 0, 0, 0, 0, 0, 0),
	};
	const __m512i dup[2] = {
		_mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0),
		_mm512_set_epi64(7, 7, 6, 6, 5, 5, 4, 4),
	};
	int k, i;

	/* a in registers; zz[0] and those past np zero */
#pragma GCC unroll 12
	for (k = 0; k < NLMAX / 8 + 5; k++) {
		if (k >= 1 && 8 * (k - 1) < np)
			zz[k] = 8 * (k - 1) + 4 < np ?
			    _mm512_inserti64x4(_mm512_castsi256_si512(
			    LD(a + 8 * (k - 1))), LD(a + 8 * (k - 1) + 4), 1) :
			    _mm512_inserti64x4(zero, LD(a + 8 * (k - 1)), 0);
		else
			zz[k] = zero;
	}

#pragma GCC unroll 20
	for (k = 0; k < np / 4; k++) {
		/* rows of the smaller index: ilo .. 4k + 3 (the row 8k - nl
		 * has its low halves past nl); of the larger: 4k .. iend - 1,
		 * where the windows start no lower than -4 */
		const int ilo = 8 * k - nl > 0 ? 8 * k - nl : 0;
		const int iend = 8 * k + 8 < nl ? 8 * k + 8 : nl;
		const int nsmall = (4 * k + 4 < nl ? 4 * k + 4 : nl) - ilo;
		const int send = 4 * k < nl ? 4 * k : nl;
		const int large = nl - 1 <= 8 * k + 3 && iend - 4 * k < nsmall;
		__m512i lo = zero, hi = zero, x, d;

		if (!large) {
			ROWS_UNROLL
			for (i = ilo; i < send; i++) {
				const __m512i ai =
				    _mm512_set1_epi64((long long)a[i]);

				if (i != 8 * k - nl)
					lo = _mm512_madd52lo_epu64(lo,
					    win(zz, 8 * k - i), ai);
				hi = _mm512_madd52hi_epu64(hi,
				    win(zz, 8 * k - 1 - i), ai);
			}
		} else {
			ROWS_UNROLL
			for (i = 4 * k + 4; i < iend; i++) {
				const __m512i ai =
				    _mm512_set1_epi64((long long)a[i]);

				lo = _mm512_madd52lo_epu64(lo,
				    win(zz, 8 * k - i), ai);
				hi = _mm512_madd52hi_epu64(hi,
				    win(zz, 8 * k - 1 - i), ai);
			}
		}
		/* the rows meeting the diagonal, 4k .. 4k + 3: with the smaller
		 * index the lanes whose j is above i, with the larger those
		 * below (the complements of the same masks) */
#pragma GCC unroll 4
		for (i = 0; i < 4; i++) {
			const __m512i ai =
			    _mm512_set1_epi64((long long)a[4 * k + i]);
			const __m512i wl = win(zz, 4 * k - i);
			const __m512i wh = win(zz, 4 * k - 1 - i);

			if (4 * k + i >= nl)
				break;
			if (!large)
				lo = _mm512_madd52lo_epu64(lo,
				    _mm512_and_si512(wl, lm[i]), ai);
			else if (i > 0)
				lo = _mm512_madd52lo_epu64(lo,
				    _mm512_andnot_si512(hm[i - 1], wl), ai);
			if (large)
				hi = _mm512_madd52hi_epu64(hi,
				    _mm512_andnot_si512(lm[i], wh), ai);
			else if (i < 3)
				hi = _mm512_madd52hi_epu64(hi,
				    _mm512_and_si512(wh, hm[i]), ai);
		}
		lo = _mm512_add_epi64(lo, hi);
		lo = _mm512_add_epi64(lo, lo);
		/* the diagonal: a[4k + l]^2 at lanes 2l and 2l + 1 (zero past
		 * nl) */
		x = _mm512_permutexvar_epi64(dup[k % 2], zz[1 + k / 2]);
		d = _mm512_mask_blend_epi64(0xaa,
		    _mm512_madd52lo_epu64(zero, x, x),
		    _mm512_madd52hi_epu64(zero, x, x));
		_mm512_storeu_si512((void *)(t + 8 * k), _mm512_add_epi64(lo, d));
	}
}

/*
 * sqr_product in 256-bit registers only (the "ifma256" variant), the
 * layout the same: t = a^2 in 2 np raw lanes (t + 4 k holds lanes
 * 4k .. 4k + 3, the positions 52 (4k + l)), each lane below
 * 2 nl 2^52 + 2^52 < 2^59. apad is a copy of a with 4 zero limbs before
 * it and at least 4 after the nl limbs, so that the loads below read
 * zeros outside a.
 *
 * Output-stationary: register k sums the low halves of a[i] a[j] with
 * i + j = 4k + l and the high halves of those with i + j = 4k + l - 1,
 * over the pairs i < j only (broadcast a[i] times the four a[j] of lanes
 * l, one unaligned load); the sum is doubled and the diagonal a[i]^2
 * added (its low half at lane 2i, its high half at lane 2i + 1). Only the
 * last two rows of a register (i = 2k, 2k + 1) meet the diagonal, where
 * lanes with j <= i are masked off; rows with no j below nl are skipped.
 */
VG_IFMA_TARGET static INL void
sqr_product_y(uint64_t *t, const uint64_t *apad, const int nl)
{
	const uint64_t *a = apad + 4;
	const int np = 4 * ((nl + 3) / 4);
	const __m256i zero = _mm256_setzero_si256();
	/* lanes 1-3, 2-3 and 3 */
	const __m256i m1 = _mm256_set_epi64x(-1, -1, -1, 0);
	const __m256i m2 = _mm256_set_epi64x(-1, -1, 0, 0);
	const __m256i m3 = _mm256_set_epi64x(-1, 0, 0, 0);
	int k, i;

#pragma GCC unroll 20
	for (k = 0; k < np / 2; k++) {
		const int ilo = 4 * k - nl > 0 ? 4 * k - nl : 0;
		const int iend = 2 * k < nl ? 2 * k : nl;
		__m256i lo = zero, hi = zero, x, d;

#pragma GCC unroll 40
		for (i = ilo; i < iend; i++) {
			const __m256i ai = _mm256_set1_epi64x((long long)a[i]);

			lo = _mm256_madd52lo_epu64(lo, LD(a + 4 * k - i), ai);
			hi = _mm256_madd52hi_epu64(hi, LD(a + 4 * k - 1 - i),
			    ai);
		}
		if (2 * k < nl) {
			const __m256i ai =
			    _mm256_set1_epi64x((long long)a[2 * k]);

			lo = _mm256_madd52lo_epu64(lo,
			    _mm256_and_si256(LD(a + 2 * k), m1), ai);
			hi = _mm256_madd52hi_epu64(hi,
			    _mm256_and_si256(LD(a + 2 * k - 1), m2), ai);
		}
		if (2 * k + 1 < nl) {
			const __m256i ai =
			    _mm256_set1_epi64x((long long)a[2 * k + 1]);

			lo = _mm256_madd52lo_epu64(lo,
			    _mm256_and_si256(LD(a + 2 * k - 1), m3), ai);
		}
		lo = _mm256_add_epi64(lo, hi);
		lo = _mm256_add_epi64(lo, lo);
		/* the diagonal: a[2k]^2 at lanes 0 and 1, a[2k + 1]^2 at 2
		 * and 3 (zero past nl) */
		x = _mm256_permute4x64_epi64(
		    _mm256_castsi128_si256(_mm_loadu_si128(
			(const __m128i *)(const void *)(a + 2 * k))), 0x50);
		d = _mm256_blend_epi32(_mm256_madd52lo_epu64(zero, x, x),
		    _mm256_madd52hi_epu64(zero, x, x), 0xcc);
		ST(t + 4 * k, _mm256_add_epi64(lo, d));
	}
}

/* One reduction step of one half on the accumulator r (nr registers),
 * the lowest lane's value kept by the scalar side (red_digit). */
#define RED_STEP(r, nr, M, y)                                               \
	do {                                                                 \
		__m256i Y_ = _mm256_set1_epi64x((long long)(y));             \
		int k_;                                                      \
		_Pragma("GCC unroll 10") for (k_ = 0; k_ < (nr); k_++)       \
			r[k_] = _mm256_madd52lo_epu64(r[k_], LD(M + 4 * k_), Y_); \
		_Pragma("GCC unroll 10") for (k_ = 0; k_ < (nr) - 1; k_++)   \
			r[k_] = _mm256_alignr_epi64(r[k_ + 1], r[k_], 1);    \
		r[(nr) - 1] = _mm256_alignr_epi64(_mm256_setzero_si256(),    \
		    r[(nr) - 1], 1);                                         \
		_Pragma("GCC unroll 10") for (k_ = 0; k_ < (nr); k_++)       \
			r[k_] = _mm256_madd52hi_epu64(r[k_], LD(M + 4 * k_), Y_); \
	} while (0)

/*
 * The scalar half of one reduction step: the digit y of the lowest lane
 * (value *acc), and *acc becomes the value of the next lane once the
 * step is done: the carry of the lowest lane, plus that lane's value
 * before the step (l1, lane 1, read before the vector side runs) and the
 * low half of m[1] y that the step adds to it. So the next digit waits
 * on scalar work only, never on a vector round trip (the high halves the
 * step adds to that lane land one lane up in the vector, where the
 * carry already has them).
 */
static inline uint64_t
red_digit(uint64_t *acc, uint64_t l1, uint64_t m0, uint64_t m1, uint64_t k0)
{
	uint64_t y = (*acc * k0) & M52;
	u128 s = (u128)m0 * y + *acc;

	*acc = (uint64_t)(s >> 52) + l1 + ((m1 * y) & M52);
	return y;
}

/* r += the lanes of t from position nl up (t: 2 np lanes), after the nl
 * reduction steps (lane j of r at position nl + j). */
VG_IFMA_TARGET static INL void
add_upper(__m256i *r, const uint64_t *t, const int nl)
{
	const int nr = (nl + 3) / 4, np = 4 * nr;
	int k;

	/* positions nl .. np - 1 were in r from the start */
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		if (np == nl)
			r[k] = _mm256_add_epi64(r[k], LD(t + np + 4 * k));
		else
			r[k] = _mm256_add_epi64(r[k], _mm256_alignr_epi64(
			    LD(t + np + 4 * k),
			    k == 0 ? _mm256_setzero_si256() :
			    LD(t + np + 4 * k - 4), 2));
	}
}

/*
 * d = AMM(a, a) for both halves of p (p->b unused), nl limbs, in 256-bit
 * registers only (the "ifma256" kernel; sqr_body_z is the 512-bit one):
 * the square (sqr_product_y), then nl Montgomery reduction steps as in
 * amm_body with only the y m products, then the upper half of the square
 * added and one normalising pass. The same result as amm_body on (a, a), word for
 * word: both are (a^2 + y m) / R' with the same y.
 * Lane bound for normalise: a lane of the square is below 2^59 + 2^52,
 * the reduction adds at most 2 nl products below 2^52 (80 2^52 < 2^59),
 * and the upper half another 2^59 + 2^52: below 2^61.
 */
VG_IFMA_TARGET static INL void
sqr_body(const struct pair *p, const uint64_t k0[2], const int nl)
{
	const int nr = (nl + 3) / 4, np = 4 * nr;
	uint64_t ap[2][NLMAX + 12] __attribute__((aligned(32)));
	uint64_t t[2][2 * NLMAX] __attribute__((aligned(32)));
	const uint64_t *m0 = p->m[0], *m1 = p->m[1];
	__m256i r0[NRMAX], r1[NRMAX];
	uint64_t acc0, acc1;
	int i, k, h;

	for (h = 0; h < 2; h++) {
		ST(ap[h], _mm256_setzero_si256());
#pragma GCC unroll 10
		for (k = 0; k < nr; k++)
			ST(ap[h] + 4 + 4 * k, LD(p->a[h] + 4 * k));
		ST(ap[h] + 4 + np, _mm256_setzero_si256());
		ST(ap[h] + 8 + np, _mm256_setzero_si256());
		sqr_product_y(t[h], ap[h], nl);
	}
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		r0[k] = LD(t[0] + 4 * k);
		r1[k] = LD(t[1] + 4 * k);
	}
	acc0 = t[0][0];
	acc1 = t[1][0];
#pragma GCC unroll 2
	for (i = 0; i < nl; i++) {
		uint64_t l0 = (uint64_t)_mm256_extract_epi64(r0[0], 1);
		uint64_t l1 = (uint64_t)_mm256_extract_epi64(r1[0], 1);
		uint64_t y0 = red_digit(&acc0, l0, m0[0], m0[1], k0[0]);
		uint64_t y1 = red_digit(&acc1, l1, m1[0], m1[1], k0[1]);

		RED_STEP(r0, nr, m0, y0);
		RED_STEP(r1, nr, m1, y1);
	}
	r0[0] = _mm256_blend_epi32(r0[0],
	    _mm256_set1_epi64x((long long)acc0), 3);
	r1[0] = _mm256_blend_epi32(r1[0],
	    _mm256_set1_epi64x((long long)acc1), 3);
	add_upper(r0, t[0], nl);
	add_upper(r1, t[1], nl);
	normalise(r0, nr);
	normalise(r1, nr);
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		ST(p->d[0] + 4 * k, r0[k]);
		ST(p->d[1] + 4 * k, r1[k]);
	}
}

/* normalise() on nz 512-bit registers (nz <= 5). */
VG_IFMA_TARGET static INL void
normalise_z(__m512i *z, const int nz)
{
	const __m512i mask = _mm512_set1_epi64((long long)M52);
	const __m512i zero = _mm512_setzero_si512();
	__m512i c[NRMAX / 2];
	uint64_t g = 0, p = 0, cin;
	int k;

#pragma GCC unroll 10
	for (k = 0; k < nz; k++) {
		c[k] = _mm512_srli_epi64(z[k], 52);
		z[k] = _mm512_and_si512(z[k], mask);
	}
	/* each lane's carry moves one lane up */
#pragma GCC unroll 10
	for (k = 0; k < nz; k++) {
		z[k] = _mm512_add_epi64(z[k], _mm512_alignr_epi64(c[k],
		    k == 0 ? zero : c[k - 1], 7));
		/* generate: above 2^52 - 1; propagate: equal to it */
		g |= (uint64_t)_mm512_cmpgt_epi64_mask(z[k], mask) << (8 * k);
		p |= (uint64_t)_mm512_cmpeq_epi64_mask(z[k], mask) << (8 * k);
	}
	/* lanes that receive a carry: ((g << 1) + p) ^ p */
	cin = ((g << 1) + p) ^ p;
#pragma GCC unroll 10
	for (k = 0; k < nz; k++)
		/* + 1 - 2^52, then drop bit 52 */
		z[k] = _mm512_and_si512(_mm512_mask_sub_epi64(z[k],
		    (uint8_t)(cin >> (8 * k)), z[k], mask), mask);
}

/* Lane 2 of z. */
VG_IFMA_TARGET static INL uint64_t
lane2(__m512i z)
{
	return (uint64_t)_mm256_extract_epi64(_mm512_castsi512_si256(z), 2);
}

/* The scalar's value of the lowest lane into z[0]. */
VG_IFMA_TARGET static INL void
lowest_z(__m512i *z, uint64_t acc)
{
	z[0] = _mm512_mask_blend_epi64(1, z[0],
	    _mm512_set1_epi64((long long)acc));
}

/* normalise_z, and the result to d (np limbs, a multiple of 4: the top
 * register's upper half not stored where np is 8k + 4). */
VG_IFMA_TARGET static INL void
store_z(uint64_t *d, __m512i *z, const int nz, const int np)
{
	int k;

	normalise_z(z, nz);
#pragma GCC unroll 10
	for (k = 0; k < nz; k++) {
		if (8 * k + 4 < np)
			_mm512_storeu_si512((void *)(d + 8 * k), z[k]);
		else
			ST(d + 8 * k, _mm512_castsi512_si256(z[k]));
	}
}

/* Register k (lanes 8k .. 8k + 7) of x, np limbs (a multiple of 4): for
 * np = 8k + 4 its upper half zero, read no further. */
VG_IFMA_TARGET static INL __m512i
ldz_pad(const uint64_t *x, const int k, const int np)
{
	if (8 * k + 4 < np)
		return LDZ(x + 8 * k);
	return _mm512_inserti64x4(_mm512_setzero_si512(), LD(x + 8 * k), 0);
}

/* amm_body with the accumulators in 512-bit registers, for every size. */
VG_IFMA_TARGET static INL void
amm_body_z(const struct pair *p, const uint64_t k0[2], const int nl)
{
	const int nz = (nl + 7) / 8, np = 4 * ((nl + 3) / 4);
	const uint64_t *a0 = p->a[0], *a1 = p->a[1];
	const uint64_t *b0 = p->b[0], *b1 = p->b[1];
	const uint64_t *m0 = p->m[0], *m1 = p->m[1];
	__m512i z0[NRMAX / 2], z1[NRMAX / 2], az0[NRMAX / 2], az1[NRMAX / 2];
	__m512i mz0[NRMAX / 2], mz1[NRMAX / 2];
	uint64_t acc0 = 0, acc1 = 0, l10 = 0, l11 = 0;
	int i, k;

#pragma GCC unroll 10
	for (k = 0; k < nz; k++) {
		z0[k] = _mm512_setzero_si512();
		z1[k] = _mm512_setzero_si512();
		az0[k] = ldz_pad(a0, k, np);
		az1[k] = ldz_pad(a1, k, np);
		mz0[k] = ldz_pad(m0, k, np);
		mz1[k] = ldz_pad(m1, k, np);
	}
#pragma GCC unroll 2
	for (i = 0; i < nl; i++) {
		uint64_t bi0 = b0[i], bi1 = b1[i];
		uint64_t y0 = digit_z(&acc0, &l10, lane2(z0[0]), a0, bi0, m0,
		    k0[0] << 12);
		uint64_t y1 = digit_z(&acc1, &l11, lane2(z1[0]), a1, bi1, m1,
		    k0[1] << 12);

		AMM_STEP_Z(z0, nz, az0, mz0, bi0, y0);
		AMM_STEP_Z(z1, nz, az1, mz1, bi1, y1);
	}
	lowest_z(z0, acc0);
	lowest_z(z1, acc1);
	store_z(p->d[0], z0, nz, np);
	store_z(p->d[1], z1, nz, np);
}

/* add_upper on nz 512-bit registers, t: 2 np raw lanes (np a multiple
 * of 4); lane j of z at position nl + j. */
VG_IFMA_TARGET static INL void
add_upper_z(__m512i *z, const uint64_t *t, const int nl)
{
	const int nz = (nl + 7) / 8, np = 4 * ((nl + 3) / 4);
	int k;

	/* positions nl .. 8 nz - 1 were in z from the start: none for 40
	 * limbs, two for 30, four for 20 (the shifts constants, as VALIGNQ
	 * needs) */
	if (8 * nz == nl)
		z[0] = _mm512_add_epi64(z[0], LDZ(t + nl));
	else if (8 * nz - nl == 2)
		z[0] = _mm512_add_epi64(z[0], _mm512_alignr_epi64(
		    LDZ(t + 8 * nz), _mm512_setzero_si512(), 6));
	else
		z[0] = _mm512_add_epi64(z[0], _mm512_alignr_epi64(
		    LDZ(t + 8 * nz), _mm512_setzero_si512(), 4));
#pragma GCC unroll 10
	for (k = 1; k < nz; k++)
		z[k] = _mm512_add_epi64(z[k], ldz_pad(t + nl, k, 2 * np - nl));
}

/* sqr_body with the accumulators in 512-bit registers (nz of them: for
 * 20 limbs the third has four lanes above the number, zero in m and
 * never stored). */
VG_IFMA_TARGET static INL void
sqr_body_z(const struct pair *p, const uint64_t k0[2], const int nl)
{
	const int nz = (nl + 7) / 8, np = 4 * ((nl + 3) / 4);
	uint64_t t[2][2 * NLMAX] __attribute__((aligned(64)));
	const uint64_t *m0 = p->m[0], *m1 = p->m[1];
	__m512i z0[NRMAX / 2], z1[NRMAX / 2], mz0[NRMAX / 2], mz1[NRMAX / 2];
	uint64_t acc0, acc1, l10, l11;
	int i, k;

	sqr_product(t[0], p->a[0], nl);
	sqr_product(t[1], p->a[1], nl);
#pragma GCC unroll 10
	for (k = 0; k < nz; k++) {
		z0[k] = LDZ(t[0] + 8 * k);
		z1[k] = LDZ(t[1] + 8 * k);
		mz0[k] = ldz_pad(m0, k, np);
		mz1[k] = ldz_pad(m1, k, np);
	}
	acc0 = t[0][0];
	acc1 = t[1][0];
	l10 = t[0][1];
	l11 = t[1][1];
#pragma GCC unroll 2
	for (i = 0; i < nl; i++) {
		uint64_t y0 = red_digit_z(&acc0, &l10, lane2(z0[0]), m0,
		    k0[0] << 12);
		uint64_t y1 = red_digit_z(&acc1, &l11, lane2(z1[0]), m1,
		    k0[1] << 12);

		RED_STEP_Z(z0, nz, mz0, y0);
		RED_STEP_Z(z1, nz, mz1, y1);
	}
	lowest_z(z0, acc0);
	lowest_z(z1, acc1);
	add_upper_z(z0, t[0], nl);
	add_upper_z(z1, t[1], nl);
	store_z(p->d[0], z0, nz, np);
	store_z(p->d[1], z1, nz, np);
}

/* out[h] = the entry w_h of half h of table (32 entries of two numbers,
 * entry i of half h at table + (2 i + h) np), reading all of it; in
 * 512-bit loads when wide. */
VG_IFMA_TARGET static INL void
select2(uint64_t *out0, uint64_t *out1, const uint64_t *table, uint64_t w0,
    uint64_t w1, const int nr, const int wide)
{
	const __m256i W0 = _mm256_set1_epi64x((long long)w0);
	const __m256i W1 = _mm256_set1_epi64x((long long)w1);
	__m256i s0[NRMAX], s1[NRMAX];
	int i, k;

#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		s0[k] = _mm256_setzero_si256();
		s1[k] = _mm256_setzero_si256();
	}
	if (wide) {
		/* the same in 512-bit registers: the two halves of an entry
		 * are adjacent, nr registers together (for an odd nr the
		 * middle one holds the top of half 0 and the bottom of
		 * half 1) */
		__m512i z[NRMAX];

#pragma GCC unroll 10
		for (k = 0; k < nr; k++)
			z[k] = _mm512_setzero_si512();
		for (i = 0; i < 32; i++) {
			const __m256i I = _mm256_set1_epi64x(i);
			const __m256i q0 = _mm256_cmpeq_epi64(I, W0);
			const __m256i q1 = _mm256_cmpeq_epi64(I, W1);
			const __m512i qz[3] = {
				_mm512_broadcast_i64x4(q0),
				_mm512_inserti64x4(_mm512_castsi256_si512(q0),
				    q1, 1),
				_mm512_broadcast_i64x4(q1),
			};
			const uint64_t *te = table + 2 * i * 4 * nr;

#pragma GCC unroll 10
			for (k = 0; k < nr; k++)
				z[k] = _mm512_ternarylogic_epi64(z[k],
				    LDZ(te + 8 * k),
				    qz[2 * k + 1 < nr ? 0 : 2 * k + 1 > nr ?
				    2 : 1], 0xf8);
		}
#pragma GCC unroll 10
		for (k = 0; k < 2 * nr; k++) {
			const __m256i v = k % 2 ?
			    _mm512_extracti64x4_epi64(z[k / 2], 1) :
			    _mm512_castsi512_si256(z[k / 2]);

			if (k < nr)
				ST(out0 + 4 * k, v);
			else
				ST(out1 + 4 * (k - nr), v);
		}
		return;
	}
	for (i = 0; i < 32; i++) {
		const __m256i I = _mm256_set1_epi64x(i);
		const __m256i q0 = _mm256_cmpeq_epi64(I, W0);
		const __m256i q1 = _mm256_cmpeq_epi64(I, W1);
		const uint64_t *t0 = table + 2 * i * 4 * nr;
		const uint64_t *t1 = t0 + 4 * nr;

#pragma GCC unroll 10
		for (k = 0; k < nr; k++) {
			s0[k] = _mm256_or_si256(s0[k],
			    _mm256_and_si256(LD(t0 + 4 * k), q0));
			s1[k] = _mm256_or_si256(s1[k],
			    _mm256_and_si256(LD(t1 + 4 * k), q1));
		}
	}
#pragma GCC unroll 10
	for (k = 0; k < nr; k++) {
		ST(out0 + 4 * k, s0[k]);
		ST(out1 + 4 * k, s1[k]);
	}
}

/* d = s, n limbs (a multiple of 4), through ymm registers. */
VG_IFMA_TARGET static INL void
copy(uint64_t *d, const uint64_t *s, const int n)
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < n / 4; k++)
		ST(d + 4 * k, LD(s + 4 * k));
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

typedef void amm_fn(const struct pair *p, const uint64_t k0[2]);

/* The dual exponentiation for nl limbs with amm and sqr, the AMM pair
 * and the squaring of that size and variant (wide for select2). */
VG_IFMA_TARGET static INL void
modexp_body(uint64_t d[2][NLMAX], const uint64_t base[2][NLMAX],
    const uint64_t one[2][NLMAX], const uint64_t *const e[2],
    unsigned ebits, const uint64_t m[2][NLMAX], const uint64_t k0[2],
    const int nl, amm_fn *amm, amm_fn *sqr, const int wide)
{
	const int np = 4 * ((nl + 3) / 4);
	/* entry i of half h at table + (2 i + h) np */
	uint64_t table[32 * 2 * NLMAX] __attribute__((aligned(32)));
	uint64_t acc[2][NLMAX] __attribute__((aligned(32)));
	uint64_t t[2][NLMAX] __attribute__((aligned(32)));
	struct pair p;
	unsigned nwin, top, w, i;
	int h;

	if (ebits == 0) {
		copy(d[0], one[0], np);
		copy(d[1], one[1], np);
		return;
	}
	for (h = 0; h < 2; h++) {
		copy(table + h * np, one[h], np);
		copy(table + (2 + h) * np, base[h], np);
		p.b[h] = base[h];
		p.m[h] = m[h];
	}
	/* even entries by squaring: entry 2i = entry i squared */
	for (i = 2; i < 32; i++) {
		for (h = 0; h < 2; h++) {
			p.d[h] = table + (2 * i + h) * np;
			p.a[h] = table + (2 * (i % 2 ? i - 1 : i / 2) + h) * np;
		}
		if (i % 2)
			amm(&p, k0);
		else
			sqr(&p, k0);
	}

	nwin = (ebits + 4) / 5;
	top = ebits - 5 * (nwin - 1);
	select2(acc[0], acc[1], table, window(e[0], 5 * (nwin - 1), top),
	    window(e[1], 5 * (nwin - 1), top), np / 4, wide);
	for (h = 0; h < 2; h++) {
		p.d[h] = acc[h];
		p.a[h] = acc[h];
	}
	for (w = nwin - 1; w-- > 0;) {
		for (h = 0; h < 2; h++)
			p.b[h] = acc[h];
		for (i = 0; i < 5; i++)
			sqr(&p, k0);
		select2(t[0], t[1], table, window(e[0], 5 * w, 5),
		    window(e[1], 5 * w, 5), np / 4, wide);
		for (h = 0; h < 2; h++)
			p.b[h] = t[h];
		amm(&p, k0);
	}
	copy(d[0], acc[0], np);
	copy(d[1], acc[1], np);
	vg_wipe(table, 64 * np * sizeof(uint64_t));
	vg_wipe(acc, sizeof(acc));
	vg_wipe(t, sizeof(t));
}

/* vg_rsa_powpub52x2 on the functions of one size (nl limbs); a's copy x
 * lets d alias a. */
VG_IFMA_TARGET static void
powpub(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX], const uint64_t *e,
    unsigned ebits, const uint64_t m[2][NLMAX], const uint64_t k0[2],
    const int nl, amm_fn *amm, amm_fn *sqr)
{
	const int np = 4 * ((nl + 3) / 4);
	uint64_t x[2][NLMAX] __attribute__((aligned(32)));
	struct pair p;
	unsigned i = ebits - 1;
	int h;

	for (h = 0; h < 2; h++) {
		copy(x[h], a[h], np);
		copy(d[h], x[h], np);
		p.d[h] = d[h];
		p.a[h] = d[h];
		p.b[h] = x[h];
		p.m[h] = m[h];
	}
	while (i-- > 0) {
		sqr(&p, k0);
		if ((e[i / 64] >> (i % 64)) & 1) /* e is public */
			amm(&p, k0);
	}
	vg_wipe(x, sizeof(x));
}

/* How much stack below its frame each entry point clears after its last
 * call (VG_WIPE_STACK, crypto/ct.h). The AMM pair, the squaring
 * and the exponentiation (noinline) leave limbs of the numbers they worked
 * on in their frames, which are secret in an RSA private operation: the
 * pair and the squaring up to 3 KiB each natively (6 KiB with ASan), the
 * exponentiation 22 KiB (24 KiB) above them; in the SIMDe build, whose
 * 512-bit registers are structures in memory, the exponentiation's
 * reached 258 KiB below its caller's frame with ASan. With room to
 * spare: one clearing per exponentiation (48 KiB, about 0.2% of an
 * RSA-2048 private operation) instead of a wipe in every squaring, which
 * would cost several per cent of its time. */
#ifdef VG_RSA_IFMA_EMU
#define SCRUB_AMM_LEN (384 * 1024)
#define SCRUB_EXP_LEN (512 * 1024)
#else
#define SCRUB_AMM_LEN (8 * 1024)
#define SCRUB_EXP_LEN (48 * 1024)
#endif

/*
 * One AMM pair, one squaring and one dual exponentiation per size and
 * variant: amm_20 ... (512-bit registers where nr is even, and the square
 * product in them for every size) and amm256_20 ... (256-bit registers
 * only, the "ifma256" kernels that the table takes when a VG_CPU_FEATURES
 * mask leaves out avx512f).
 */
#define VG_AMM52_SIZE(nl)                                                   \
	VG_IFMA_TARGET __attribute__((noinline)) static void                \
	amm_##nl(const struct pair *p, const uint64_t k0[2])                \
	{                                                                    \
		amm_body_z(p, k0, nl);                                       \
	}                                                                    \
	VG_IFMA_TARGET __attribute__((noinline)) static void                \
	sqr_##nl(const struct pair *p, const uint64_t k0[2])                \
	{                                                                    \
		sqr_body_z(p, k0, nl);                                       \
	}                                                                    \
	VG_IFMA_TARGET __attribute__((noinline)) static void                \
	modexp_##nl(uint64_t d[2][NLMAX], const uint64_t base[2][NLMAX],     \
	    const uint64_t one[2][NLMAX], const uint64_t *const e[2],       \
	    unsigned ebits, const uint64_t m[2][NLMAX],                      \
	    const uint64_t k0[2])                                            \
	{                                                                    \
		modexp_body(d, base, one, e, ebits, m, k0, nl, amm_##nl,       \
		    sqr_##nl, 1);                                            \
	}                                                                    \
	VG_IFMA_TARGET __attribute__((noinline)) static void                \
	amm256_##nl(const struct pair *p, const uint64_t k0[2])             \
	{                                                                    \
		amm_body(p, k0, nl);                                         \
	}                                                                    \
	VG_IFMA_TARGET __attribute__((noinline)) static void                \
	sqr256_##nl(const struct pair *p, const uint64_t k0[2])             \
	{                                                                    \
		sqr_body(p, k0, nl);                                      \
	}                                                                    \
	VG_IFMA_TARGET __attribute__((noinline)) static void                \
	modexp256_##nl(uint64_t d[2][NLMAX], const uint64_t base[2][NLMAX],  \
	    const uint64_t one[2][NLMAX], const uint64_t *const e[2],       \
	    unsigned ebits, const uint64_t m[2][NLMAX],                      \
	    const uint64_t k0[2])                                            \
	{                                                                    \
		modexp_body(d, base, one, e, ebits, m, k0, nl,               \
		    amm256_##nl, sqr256_##nl, 0);                            \
	}

VG_AMM52_SIZE(20)
VG_AMM52_SIZE(30)
VG_AMM52_SIZE(40)

/* The entry points of one variant (PFX empty or 256, FN VG_IFMA_FN or
 * VG_IFMA_FN256); nl other than 20, 30, 40 does nothing. */
#define VG_AMM52_ENTRIES(PFX, FN)                                           \
	VG_IFMA_TARGET void                                                  \
	FN(vg_rsa_amm52x2)(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX], \
	    const uint64_t b[2][NLMAX], const uint64_t m[2][NLMAX],          \
	    const uint64_t k0[2], size_t nl)                                 \
	{                                                                    \
		const struct pair p = {                                      \
			{ d[0], d[1] }, { a[0], a[1] }, { b[0], b[1] },      \
			{ m[0], m[1] },                                      \
		};                                                           \
                                                                             \
		if (nl == 20)                                                \
			amm##PFX##_20(&p, k0);                               \
		else if (nl == 30)                                           \
			amm##PFX##_30(&p, k0);                               \
		else if (nl == 40)                                           \
			amm##PFX##_40(&p, k0);                               \
		VG_WIPE_STACK(SCRUB_AMM_LEN);                                \
	}                                                                    \
	VG_IFMA_TARGET void                                                  \
	FN(vg_rsa_modexp52x2)(uint64_t d[2][NLMAX],                          \
	    const uint64_t base[2][NLMAX], const uint64_t one[2][NLMAX],     \
	    const uint64_t *const e[2], unsigned ebits,                      \
	    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl)     \
	{                                                                    \
		if (nl == 20)                                                \
			modexp##PFX##_20(d, base, one, e, ebits, m, k0);     \
		else if (nl == 30)                                           \
			modexp##PFX##_30(d, base, one, e, ebits, m, k0);     \
		else if (nl == 40)                                           \
			modexp##PFX##_40(d, base, one, e, ebits, m, k0);     \
		VG_WIPE_STACK(SCRUB_EXP_LEN);                                \
	}                                                                    \
	VG_IFMA_TARGET void                                                  \
	FN(vg_rsa_powpub52x2)(uint64_t d[2][NLMAX],                          \
	    const uint64_t a[2][NLMAX], const uint64_t *e, unsigned ebits,   \
	    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl)     \
	{                                                                    \
		if (nl == 20)                                                \
			powpub(d, a, e, ebits, m, k0, 20, amm##PFX##_20,     \
			    sqr##PFX##_20);                                  \
		else if (nl == 30)                                           \
			powpub(d, a, e, ebits, m, k0, 30, amm##PFX##_30,     \
			    sqr##PFX##_30);                                  \
		else if (nl == 40)                                           \
			powpub(d, a, e, ebits, m, k0, 40, amm##PFX##_40,     \
			    sqr##PFX##_40);                                  \
		VG_WIPE_STACK(SCRUB_AMM_LEN);                                \
	}                                                                    \
	/* Test hook (tests/kernels/test_rsa_amm52.c): the squaring of the  \
	 * exponentiation alone, d = AMM(a, a) for both halves (a < 2m). */ \
	VG_IFMA_TARGET void                                                  \
	FN(vg_rsa_sqr52x2)(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX], \
	    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl)     \
	{                                                                    \
		const struct pair p = {                                      \
			{ d[0], d[1] }, { a[0], a[1] }, { a[0], a[1] },      \
			{ m[0], m[1] },                                      \
		};                                                           \
                                                                             \
		if (nl == 20)                                                \
			sqr##PFX##_20(&p, k0);                               \
		else if (nl == 30)                                           \
			sqr##PFX##_30(&p, k0);                               \
		else if (nl == 40)                                           \
			sqr##PFX##_40(&p, k0);                               \
		VG_WIPE_STACK(SCRUB_AMM_LEN);                                \
	}

/* see crypto/rsa_kernels.h */
VG_AMM52_ENTRIES(, VG_IFMA_FN)
VG_AMM52_ENTRIES(256, VG_IFMA_FN256)

#endif
