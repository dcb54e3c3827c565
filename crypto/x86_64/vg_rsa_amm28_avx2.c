/*
 * The two CRT halves of RSA-2048 at once with AVX2 in radix 2^28: the
 * contracts of vg_rsa_amm28x2_c and vg_rsa_modexp28x2_c
 * (crypto/rsa_kernels.h) for an even limb count nl, 4 <= nl <= 40 (the
 * kernel table gives it nl = 38, the 1024-bit halves).
 *
 * Why 28 bits: VPMULUDQ multiplies the low 32 bits of each 64-bit lane,
 * four products per instruction and two instructions per cycle on the
 * cores this was measured on, against one 64 x 64-bit MULX per cycle or
 * less; with 28-bit limbs a lane can add up 2 nl products of 2^56 (and
 * doubled ones of 2^57 in the square) without overflow, so carries wait
 * until the end of each multiplication.
 *
 * Layout: register k of a number holds limbs 2k and 2k + 1 of half 0 in
 * its low 128 bits and the same limbs of half 1 in its high 128 bits, so
 * that every shuffle stays inside a 128-bit lane and both halves run in
 * the same instructions. np = nl / 2 + 1 registers (the last one zero in
 * every operand); "shifted" copies hold limbs 2k - 1 and 2k.
 *
 * AMM, operand scanning two limbs of b at a time (b[2s], b[2s + 1]): the
 * accumulator pair 0 gets a[0] b[2s], its digit y0 = (acc k0) mod 2^28
 * (low lane), y0 m; the low column's carry moves up one lane, the
 * digit y1 of the high lane follows, and y1 m (shifted); then every pair
 * k >= 1 adds a[k] b[2s] + a'[k] b[2s + 1] + m[k] y0 + m'[k] y1 (a', m'
 * the shifted copies) and moves down one register, which divides by
 * 2^56. After nl / 2 steps two carry passes leave every limb below
 * 2^28 + 2^8 (inputs of the next multiplication may be that large: the
 * products stay below 2^56.01); only the results leaving the kernel are
 * carried in full.
 *
 * The square uses each product a[i] a[j], i < j, once, doubled: for b
 * limb i only limbs j >= i of a, from a doubled copy where j > i, which
 * saves a quarter of the multiplications.
 *
 * The exponentiation's table holds each entry packed, two limbs per 64-bit
 * lane (every limb is below 2^29), so that the masked read of all 32
 * entries per window loads half as much.
 *
 * The result is the same number as the twin's (the AMM value depends on
 * the operands' values only), in normalised limbs. The multiplications
 * leave their scratch on the stack; each exported function ends with
 * vg_bn_stack_wipe() (crypto/bn.h), which overwrites it.
 * CT: no branch or memory index depends on the numbers (loops run on nl
 * and the public exponent width); table entries are selected by masks
 * over full reads.
 */
#include "config.h"

#include "crypto/bn.h"
#include "crypto/ct.h"
#include "crypto/rsa_kernels.h"

#if defined(VG_HAVE_RSA_X86_64_KERNELS)
#include <assert.h>
#include <immintrin.h>

#define NLMAX VG_RSA52_MAX_LIMBS
#define NPMAX (NLMAX / 2 + 1)
#define M28 0xfffffffULL
#define TGT __attribute__((target("avx2")))
#define INL __attribute__((always_inline)) inline

typedef __m256i V;

#define MUL _mm256_mul_epu32
#define ADD _mm256_add_epi64
/* per 128-bit lane: both lanes = the low one (LO) or the high one (HI) */
#define BLO(x) _mm256_shuffle_epi32((x), 0x44)
#define BHI(x) _mm256_shuffle_epi32((x), 0xee)

/* The per-call constants: m and its shifted copy, k0 in both halves. */
struct ctx {
	V m[NPMAX], ms[NPMAX];
	V k0, mask;
	size_t nl, np;
};

/* r[k] = x's limbs 2k, 2k + 1 of both halves; zero from nl / 2 up. */
static TGT void
to_pairs(V *r, const uint64_t x[2][NLMAX], size_t nl)
{
	size_t k;

	for (k = 0; k < nl / 2; k++)
		r[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(
		    _mm_loadu_si128((const __m128i *)(const void *)
		    (x[0] + 2 * k))), _mm_loadu_si128((const __m128i *)
		    (const void *)(x[1] + 2 * k)), 1);
	r[nl / 2] = _mm256_setzero_si256();
}

/* s[k] = limbs 2k - 1, 2k of r (s[0] = 0, limb 0). */
static TGT INL void
shifted(V *s, const V *r, size_t np)
{
	size_t k;

	s[0] = _mm256_slli_si256(r[0], 8);
	for (k = 1; k < np; k++)
		s[k] = _mm256_alignr_epi8(r[k], r[k - 1], 8);
}

/* Every limb becomes (limb mod 2^28) + (carry of the limb below), twice:
 * from below 2^63 to below 2^28 + 2^8. */
static TGT INL void
carry2(V *r, size_t np, V mask)
{
	size_t k;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (k = np - 1; k > 0; k--)
			r[k] = ADD(_mm256_and_si256(r[k], mask),
			    _mm256_srli_epi64(_mm256_alignr_epi8(r[k],
			    r[k - 1], 8), 28));
		r[0] = ADD(_mm256_and_si256(r[0], mask),
		    _mm256_srli_epi64(_mm256_slli_si256(r[0], 8), 28));
	}
}

/* d = r with every carry taken through (limbs below 2^28, zeros from nl
 * to NLMAX); r's value is below 2^(28 nl). */
static void
from_pairs(uint64_t d[2][NLMAX], const V *r, size_t nl)
{
	const uint64_t *w = (const uint64_t *)(const void *)r;
	uint64_t c0 = 0, c1 = 0;
	size_t i;

	for (i = 0; i < nl; i++) {
		uint64_t v0 = w[(i / 2) * 4 + (i & 1)] + c0;
		uint64_t v1 = w[(i / 2) * 4 + 2 + (i & 1)] + c1;

		d[0][i] = v0 & M28;
		d[1][i] = v1 & M28;
		c0 = v0 >> 28;
		c1 = v1 >> 28;
	}
	for (; i < NLMAX; i++) {
		d[0][i] = 0;
		d[1][i] = 0;
	}
}

static TGT void
ctx_init(struct ctx *c, const uint64_t m[2][NLMAX], const uint64_t k0[2],
    size_t nl)
{
	c->nl = nl;
	c->np = nl / 2 + 1;
	to_pairs(c->m, m, nl);
	shifted(c->ms, c->m, c->np);
	c->k0 = _mm256_set_epi64x((long long)(k0[1] & M28),
	    (long long)(k0[1] & M28), (long long)(k0[0] & M28),
	    (long long)(k0[0] & M28));
	c->mask = _mm256_set1_epi64x((long long)M28);
}

/*
 * The digits of one step from the accumulator's pair 0 (t, with the
 * step's products of a already added to its low lane and A1 the shifted
 * a-term of its high lane): y0 from the low lanes, y1 from the high ones
 * (both broadcast in their half); c = the carry out of the pair, in the
 * low lanes.
 */
#define DIGITS(t, A1B1, c, Y0, Y1)                                          \
	do {                                                                \
		Y0 = BLO(_mm256_and_si256(MUL(t, c_->k0), c_->mask));       \
		t = ADD(t, ADD(MUL(c_->m[0], Y0), (A1B1)));                 \
		t = ADD(t, _mm256_slli_si256(_mm256_srli_epi64(t, 28), 8)); \
		Y1 = BHI(_mm256_and_si256(MUL(t, c_->k0), c_->mask));       \
		t = ADD(t, MUL(c_->ms[0], Y1));                             \
		c = _mm256_srli_si256(_mm256_srli_epi64(t, 28), 8);         \
	} while (0)

/*
 * d = AMM(a, b) in pairs, limbs below 2^28 + 2^8; d may alias a or b.
 * Each step's digits are worked out as soon as the previous step has
 * given pair 0 its value (before that step's other pairs), so that the
 * digits' chain of dependent instructions runs beside the independent
 * work on the other pairs. Not inlined: its scratch must lie below the
 * caller's frame, where the stack wipe reaches.
 */
static TGT __attribute__((noinline)) void
amm_mul(V *d, const V *a, const V *b, const struct ctx *c_)
{
	V acc[NPMAX], as[NPMAX], B0, B1, Y0, Y1, c, t;
	const size_t np = c_->np;
	size_t s, k;

	shifted(as, a, np);
	for (k = 0; k < np; k++)
		acc[k] = _mm256_setzero_si256();
	B0 = BLO(b[0]);
	B1 = BHI(b[0]);
	t = MUL(a[0], B0);
	DIGITS(t, MUL(as[0], B1), c, Y0, Y1);
	for (s = 0; s + 1 < np; s++) {
		const V b0 = B0, b1 = B1, y0 = Y0, y1 = Y1;
		/* the next step's pair 0, then its digits */
		const V n0 = ADD(ADD(ADD(acc[1], c), MUL(a[1], b0)),
		    ADD(ADD(MUL(as[1], b1), MUL(c_->m[1], y0)),
		    MUL(c_->ms[1], y1)));

		if (s + 2 < np) {
			B0 = BLO(b[s + 1]);
			B1 = BHI(b[s + 1]);
			t = ADD(n0, MUL(a[0], B0));
			DIGITS(t, MUL(as[0], B1), c, Y0, Y1);
		}
		for (k = 2; k < np; k++)
			acc[k - 1] = ADD(ADD(acc[k], MUL(a[k], b0)),
			    ADD(ADD(MUL(as[k], b1), MUL(c_->m[k], y0)),
			    MUL(c_->ms[k], y1)));
		acc[np - 1] = _mm256_setzero_si256();
		acc[0] = n0;
	}
	carry2(acc, np, c_->mask);
	for (k = 0; k < np; k++)
		d[k] = acc[k];
}

/* d = AMM(a, a) in pairs, as amm_mul; d may alias a. (Working out the
 * digits ahead, as amm_mul does, made it slower here.) */
static TGT __attribute__((noinline)) void
amm_sqr(V *d, const V *a, const struct ctx *c_)
{
	V acc[NPMAX], as[NPMAX], a2[NPMAX], a2s[NPMAX];
	const size_t np = c_->np;
	size_t s, k;

	for (k = 0; k < NPMAX; k++) {
		a2[k] = k < np ? ADD(a[k], a[k]) : _mm256_setzero_si256();
		acc[k] = _mm256_setzero_si256();
	}
	shifted(as, a, np);
	shifted(a2s, a2, np);
	for (s = 0; s + 1 < np; s++) {
		V B0 = BLO(a[s]), B1 = BHI(a[s]), Y0, Y1, c, t = acc[0];
		/* for b limb i, limbs j >= i of a: j = i once, j > i doubled */
		V S0 = _mm256_blend_epi32(a[s], a2[s], 0xcc);
		V S1 = _mm256_blend_epi32(as[s + 1], a2s[s + 1], 0xcc);

		if (s == 0)
			t = ADD(t, MUL(S0, B0));
		DIGITS(t, _mm256_setzero_si256(), c, Y0, Y1);
		for (k = 1; k < s; k++)
			acc[k - 1] = ADD(acc[k], ADD(MUL(c_->m[k], Y0),
			    MUL(c_->ms[k], Y1)));
		if (s > 0)
			acc[s - 1] = ADD(ADD(acc[s], MUL(S0, B0)),
			    ADD(MUL(c_->m[s], Y0), MUL(c_->ms[s], Y1)));
		k = s + 1;
		acc[k - 1] = ADD(ADD(acc[k], MUL(a2[k], B0)),
		    ADD(ADD(MUL(S1, B1), MUL(c_->m[k], Y0)),
		    MUL(c_->ms[k], Y1)));
		for (k = s + 2; k < np; k++)
			acc[k - 1] = ADD(ADD(acc[k], MUL(a2[k], B0)),
			    ADD(ADD(MUL(a2s[k], B1), MUL(c_->m[k], Y0)),
			    MUL(c_->ms[k], Y1)));
		acc[np - 1] = _mm256_setzero_si256();
		acc[0] = ADD(acc[0], c);
	}
	carry2(acc, np, c_->mask);
	for (k = 0; k < np; k++)
		d[k] = acc[k];
}

/* see crypto/rsa_kernels.h */
TGT void
vg_rsa_amm28x2_avx2(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX],
    const uint64_t b[2][NLMAX], const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl)
{
	struct ctx c;
	V x[NPMAX], y[NPMAX];

	assert(nl >= 4 && nl <= NLMAX && nl % 2 == 0);
	ctx_init(&c, m, k0, nl);
	to_pairs(x, a, nl);
	to_pairs(y, b, nl);
	amm_mul(x, x, y, &c);
	from_pairs(d, x, nl);
	vg_wipe(x, sizeof(x));
	vg_wipe(y, sizeof(y));
	vg_bn_stack_wipe();
}

/* Bits [pos, pos + len) of e (len <= 5; positions are public). */
static uint64_t
window(const uint64_t *e, unsigned pos, unsigned len)
{
	uint64_t v = e[pos / 64] >> (pos % 64);

	if (pos % 64 + len > 64)
		v |= e[pos / 64 + 1] << (64 - pos % 64);
	return v & (((uint64_t)1 << len) - 1);
}

/* Packed entries: register j holds pair registers 2j and 2j + 1, each
 * lane's two limbs as 32-bit halves (limbs below 2^32); rows padded with
 * zeros to a multiple of four registers. */
#define NQMAX ((((NPMAX + 1) / 2) + 3) & ~3)

static TGT void
pack(V *q, const V *r, size_t np)
{
	size_t j;

	for (j = 0; j < np / 2; j++)
		q[j] = _mm256_blend_epi32(_mm256_shuffle_epi32(r[2 * j], 0x08),
		    _mm256_shuffle_epi32(r[2 * j + 1], 0x80), 0xcc);
	if (np % 2 != 0) {
		q[j] = _mm256_shuffle_epi32(r[2 * j], 0x08);
		j++;
	}
	for (; j < NQMAX; j++)
		q[j] = _mm256_setzero_si256();
}

/* d (np pair registers) = entry idx of table (half 0: the low lanes'
 * index, half 1: the high ones'), every entry read in full, four packed
 * registers at a time. */
static TGT void
select_entry(V *d, const V (*table)[NQMAX], V idx, size_t np)
{
	const size_t nq = (np + 1) / 2;
	const V one = _mm256_set1_epi64x(1), z = _mm256_setzero_si256();
	V q[NQMAX];
	size_t i, j, u;

	for (j = 0; j < nq; j += 4) {
		V a0 = z, a1 = z, a2 = z, a3 = z, cur = z;

		for (i = 0; i < 32; i++) {
			V want = _mm256_cmpeq_epi64(cur, idx);

			a0 = _mm256_or_si256(a0,
			    _mm256_and_si256(table[i][j], want));
			a1 = _mm256_or_si256(a1,
			    _mm256_and_si256(table[i][j + 1], want));
			a2 = _mm256_or_si256(a2,
			    _mm256_and_si256(table[i][j + 2], want));
			a3 = _mm256_or_si256(a3,
			    _mm256_and_si256(table[i][j + 3], want));
			cur = ADD(cur, one);
		}
		q[j] = a0;
		q[j + 1] = a1;
		q[j + 2] = a2;
		q[j + 3] = a3;
	}
	for (u = 0; u < np; u++)
		d[u] = u % 2 == 0 ? _mm256_unpacklo_epi32(q[u / 2], z) :
		    _mm256_unpackhi_epi32(q[u / 2], z);
	vg_wipe(q, sizeof(q));
}

static TGT V
index_of(const uint64_t *const e[2], unsigned pos, unsigned len)
{
	uint64_t i0 = window(e[0], pos, len), i1 = window(e[1], pos, len);

	return _mm256_set_epi64x((long long)i1, (long long)i1,
	    (long long)i0, (long long)i0);
}

/* see crypto/rsa_kernels.h */
TGT void
vg_rsa_modexp28x2_avx2(uint64_t d[2][NLMAX], const uint64_t base[2][NLMAX],
    const uint64_t one[2][NLMAX], const uint64_t *const e[2],
    unsigned ebits, const uint64_t m[2][NLMAX], const uint64_t k0[2],
    size_t nl)
{
	V table[32][NQMAX], acc[NPMAX], t[NPMAX];
	struct ctx c;
	unsigned nwin, top, w, i;
	size_t np = nl / 2 + 1;

	assert(ebits <= VG_RSA52_MAX_EBITS);
	assert(nl >= 4 && nl <= NLMAX && nl % 2 == 0);
	if (ebits == 0) {
		for (i = 0; i < 2; i++) {
			size_t j;

			for (j = 0; j < NLMAX; j++)
				d[i][j] = j < nl ? one[i][j] : 0;
		}
		return;
	}
	ctx_init(&c, m, k0, nl);
	to_pairs(acc, one, nl);
	pack(table[0], acc, np);
	to_pairs(t, base, nl);
	pack(table[1], t, np);
	vg_bn_copy((uint64_t *)(void *)acc, (const uint64_t *)(const void *)t,
	    4 * np);
	for (i = 2; i < 32; i++) {
		amm_mul(acc, acc, t, &c);
		pack(table[i], acc, np);
	}
	nwin = (ebits + 4) / 5;
	top = ebits - 5 * (nwin - 1);
	select_entry(acc, (const V(*)[NQMAX])table,
	    index_of(e, 5 * (nwin - 1), top), np);
	for (w = nwin - 1; w-- > 0;) {
		for (i = 0; i < 5; i++)
			amm_sqr(acc, acc, &c);
		select_entry(t, (const V(*)[NQMAX])table,
		    index_of(e, 5 * w, 5), np);
		amm_mul(acc, acc, t, &c);
	}
	from_pairs(d, acc, nl);
	vg_wipe(table, sizeof(table));
	vg_wipe(acc, sizeof(acc));
	vg_wipe(t, sizeof(t));
	vg_bn_stack_wipe();
}
#endif
