/*
 * Constant-time modular inversion by "safegcd" [Bernstein, Yang: Fast
 * constant-time gcd computation and modular inversion, TCHES 2019], in
 * the formulation of libsecp256k1's modinv64 (signed 62-bit limbs, 59
 * divsteps per batch, 10 batches = 590 divsteps, which suffice for moduli
 * below 2^256), for any odd modulus below 2^256 (crypto/modinv62.h).
 *
 * Each batch computes, from the low 62 bits of f and g only, the 2x2
 * transition matrix of 59 divsteps, in runs of 20, 20 and 19 on words that
 * pack the low bits of f or g with its row of the matrix (branch-free:
 * every step evaluates both outcomes and keeps one under a mask), then
 * applies it to the full f, g
 * and to the Bezout coefficients d, e (the latter modulo the modulus, with
 * a multiple of it added to clear the low 62 bits). At the end f = +-1 and
 * d = +-x^-1; the last batch updates d alone and reads the sign of f from
 * 64 bits. About 14 800 instructions per inversion (callgrind), for P-256
 * and modulo 2^255 - 19 alike: a fifth of a Fermat exponentiation (255
 * squarings) for P-256, modulo 2^255 - 19 0.43 times the instructions of
 * the radix-2^51 Fermat chain and 0.74 times those of the MULX/ADX one.
 * vg_modinv62_x2 runs two inversions side by side, their divsteps
 * interleaved step by step.
 * vg_modinv62_n and vg_modinv62_n_x2 take any odd modulus of up to
 * VG_BN_MAX_WORDS words (RSA's primes and moduli, vg_bn_mod_inv): the
 * same batches on as many limbs as the width needs, as many batches as
 * its bound on the divsteps asks. RSA-2048's blinding pair, an inverse
 * modulo each 1024-bit prime, took two Fermat exponentiations on the
 * IFMA pair (about 215 us on AMD Zen 5) and takes 41 batches each,
 * interleaved (under 15 us).
 * CT: the number of steps is fixed and no branch or index depends on x.
 *
 * vg_modinv62_vartime, for public inputs (ECDSA verification's s), is the
 * variable-time form of the same method (the original divstep, runs of
 * divsteps done at once, stopping when g = 0): no CT claim.
 */
#include "config.h"

#include <string.h>

#include "crypto/bn.h"
#include "crypto/ct.h"
#include "crypto/modinv62.h"

typedef __int128 vg_i128;

/* An integer sum v[i] 2^(62 i), limbs 0 .. 3 in [0, 2^62) when normalised
 * (in (-2^62, 2^62) in flight), limb 4 signed. */
struct s62 {
	int64_t v[5];
};

#define M62 ((uint64_t)-1 >> 2)

struct trans {
	int64_t u, v, q, r;
};

/*
 * Divsteps on packed words. Each of f and g travels with its row of the
 * transition matrix in one word: F = f + u 2^21 + v 2^42 and G = g + q
 * 2^21 + r 2^42, where f and g are their low bits (|f|, |g| < 2^20) and
 * the matrix starts at 2^20 times the identity. A step keeps f's row or
 * takes g's (the swap), adds +-F to G when g is odd and halves G: the
 * matrix is halved where the usual form doubles the other row, so after
 * 20 steps it is exactly that of the usual form (scaled by 2^20), and
 * every step is a linear map of the two words, exact as long as nothing
 * leaves the 64 bits. Bounds: every row has |u| + |v| <= 2^20, no entry
 * but the untouched first one of f's row reaches 2^20 in magnitude (so u
 * is in (-2^20, 2^20], q in (-2^20, 2^20)), and before the halving
 * |r +- v| < 2^21, so the words stay below 2^63 in magnitude. A step
 * loses one bit of f and g: after n steps the low 20 - n bits are
 * exact, which is why a run is 20 steps. Two words per step instead of
 * four (f, g and two packed rows) take a third of the operations out of
 * the step, which is most of the inversion's time. zeta = -(delta +
 * 1/2), as in libsecp256k1's constant-time form. Each build uses one of
 * this step and the CMOV one below, hence "unused" (clang warns of
 * unused static inline functions).
 */
static inline __attribute__((always_inline, unused)) void
divstep_c(int64_t *zeta, uint64_t *f, uint64_t *g)
{
	uint64_t c1, c2, c3, x;

	/* c1: zeta < 0; c2: g odd; c3: both (the swap case) */
	c1 = vg_ct_barrier64((uint64_t)(*zeta >> 63));
	c2 = 0 - vg_ct_barrier64(*g & 1);
	c3 = c1 & c2;
	x = (*f ^ c1) - c1;
	*f ^= (*f ^ *g) & c3;
	*g = (uint64_t)((int64_t)(*g + (x & c2)) >> 1);
	*zeta = (int64_t)(((uint64_t)*zeta ^ c3) - 1);
}

#if defined(__x86_64__)
/*
 * The same steps with CMOV on x86-64 (no CPU feature needed), a run of
 * them in one asm statement (.rept, no loop counter). Besides f, g and
 * zeta the run carries s, whose bit 63 is g's low bit, x = zeta < 0 ?
 * -f : f, and the flags of the SHL that made s (SF: g odd). A step:
 * g = g odd ? g + x : g (a CMOV on those flags, the old g kept in h);
 * one TEST of s and zeta for the swap case (zeta < 0, g odd: f = h,
 * zeta = ~zeta = -zeta - 1); g / 2; zeta - 1 by a DEC whose flags pick
 * the next x; the next s, last, so that its flags reach the next step.
 * 11 ALU operations and 4 moves, which cost none, where the step taken
 * one at a time needed 14 and its loop 2: that left a step bound by the
 * four ALUs of AMD Zen 4, and one whose zeta went through a shift, a
 * TEST, a CMOV and the DEC waited four cycles. Now the longest path is
 * two steps in seven operations (the swap, x, the sum, the pick, the
 * next s and the swap again): 0.83-0.85 of the time per step in a run
 * of 600 (medians of 101 alternating rounds, AMD Zen 4), and with two
 * chains interleaved 0.66-0.68 (3.1-3.3 TSC ticks per pair of steps).
 * The flags pass from a step's last operation to the next step's first
 * CMOV, so with two chains a block is the end of one step and the start
 * of the next of the same chain (STEP_END, then STEP_START).
 * CT: CMOV moves under a flag, never branches.
 * VG_MODINV62_PORTABLE selects divstep_c instead (its test builds this
 * file a second time with it, compares the two steps and the results).
 */
#define STEP_START(g, x, t, h) \
	"leaq (%[" g "], %[" x "]), %[" t "]\n\t" \
	"movq %[" g "], %[" h "]\n\t" \
	"cmovsq %[" t "], %[" g "]\n\t"

#define STEP_END(f, g, s, z, x, c, h) \
	"testq %[" s "], %[" z "]\n\t" \
	"movq %[" z "], %[" c "]\n\t" \
	"notq %[" c "]\n\t" \
	"cmovsq %[" h "], %[" f "]\n\t" \
	"cmovsq %[" c "], %[" z "]\n\t" \
	"movq %[" g "], %[" s "]\n\t" \
	"sarq $1, %[" g "]\n\t" \
	"movq %[" f "], %[" x "]\n\t" \
	"negq %[" x "]\n\t" \
	"decq %[" z "]\n\t" \
	"cmovnsq %[" f "], %[" x "]\n\t" \
	"shlq $62, %[" s "]\n\t"

/* x, then s and its flags, for the first step */
#define RUN_START(f, g, s, z, x) \
	"movq %[" f "], %[" x "]\n\t" \
	"negq %[" x "]\n\t" \
	"testq %[" z "], %[" z "]\n\t" \
	"cmovnsq %[" f "], %[" x "]\n\t" \
	"movq %[" g "], %[" s "]\n\t" \
	"shlq $63, %[" s "]\n\t"

/* steps_cmov_N: N steps on one chain; steps2_cmov_N: N on each of two,
 * interleaved step by step (t and c shared: renaming separates them). */
#define DEFINE_STEPS_CMOV(n) \
	static inline __attribute__((always_inline, unused)) void \
	steps_cmov_##n(int64_t *zeta, uint64_t *f, uint64_t *g) \
	{ \
		uint64_t fw = *f, gw = *g, z = (uint64_t)*zeta, s, x, t, c, h; \
\
		__asm__(RUN_START("f", "g", "s", "z", "x") \
		    STEP_START("g", "x", "t", "h") \
		    ".rept " #n " - 1\n\t" \
		    STEP_END("f", "g", "s", "z", "x", "c", "h") \
		    STEP_START("g", "x", "t", "h") \
		    ".endr\n\t" \
		    STEP_END("f", "g", "s", "z", "x", "c", "h") \
		    : [f] "+r"(fw), [g] "+r"(gw), [z] "+r"(z), \
		    [s] "=&r"(s), [x] "=&r"(x), [t] "=&r"(t), \
		    [c] "=&r"(c), [h] "=&r"(h) \
		    : \
		    : "cc"); \
		*f = fw; \
		*g = gw; \
		*zeta = (int64_t)z; \
	}

#define DEFINE_STEPS2_CMOV(n) \
	static inline __attribute__((always_inline, unused)) void \
	steps2_cmov_##n(int64_t *zeta0, uint64_t *f0, uint64_t *g0, \
	    int64_t *zeta1, uint64_t *f1, uint64_t *g1) \
	{ \
		uint64_t fa = *f0, ga = *g0, za = (uint64_t)*zeta0, sa, xa, ha; \
		uint64_t fb = *f1, gb = *g1, zb = (uint64_t)*zeta1, sb, xb, hb; \
		uint64_t t, c; \
\
		__asm__(RUN_START("fa", "ga", "sa", "za", "xa") \
		    STEP_START("ga", "xa", "t", "ha") \
		    RUN_START("fb", "gb", "sb", "zb", "xb") \
		    STEP_START("gb", "xb", "t", "hb") \
		    ".rept " #n " - 1\n\t" \
		    STEP_END("fa", "ga", "sa", "za", "xa", "c", "ha") \
		    STEP_START("ga", "xa", "t", "ha") \
		    STEP_END("fb", "gb", "sb", "zb", "xb", "c", "hb") \
		    STEP_START("gb", "xb", "t", "hb") \
		    ".endr\n\t" \
		    STEP_END("fa", "ga", "sa", "za", "xa", "c", "ha") \
		    STEP_END("fb", "gb", "sb", "zb", "xb", "c", "hb") \
		    : [fa] "+r"(fa), [ga] "+r"(ga), [za] "+r"(za), \
		    [sa] "=&r"(sa), [xa] "=&r"(xa), [ha] "=&r"(ha), \
		    [fb] "+r"(fb), [gb] "+r"(gb), [zb] "+r"(zb), \
		    [sb] "=&r"(sb), [xb] "=&r"(xb), [hb] "=&r"(hb), \
		    [t] "=&r"(t), [c] "=&r"(c) \
		    : \
		    : "cc"); \
		*f0 = fa; \
		*g0 = ga; \
		*zeta0 = (int64_t)za; \
		*f1 = fb; \
		*g1 = gb; \
		*zeta1 = (int64_t)zb; \
	}

DEFINE_STEPS_CMOV(1)
DEFINE_STEPS_CMOV(19)
DEFINE_STEPS_CMOV(20)
DEFINE_STEPS2_CMOV(19)
DEFINE_STEPS2_CMOV(20)
#endif

#if defined(__x86_64__) && !defined(VG_MODINV62_PORTABLE)
#define steps_19 steps_cmov_19
#define steps_20 steps_cmov_20
#define steps2_19 steps2_cmov_19
#define steps2_20 steps2_cmov_20
#else
#define DEFINE_STEPS_C(n) \
	static inline __attribute__((always_inline)) void \
	steps_c_##n(int64_t *zeta, uint64_t *f, uint64_t *g) \
	{ \
		int i; \
\
		for (i = 0; i < n; i++) \
			divstep_c(zeta, f, g); \
	} \
	static inline __attribute__((always_inline)) void \
	steps2_c_##n(int64_t *zeta0, uint64_t *f0, uint64_t *g0, \
	    int64_t *zeta1, uint64_t *f1, uint64_t *g1) \
	{ \
		int i; \
\
		for (i = 0; i < n; i++) { \
			divstep_c(zeta0, f0, g0); \
			divstep_c(zeta1, f1, g1); \
		} \
	}
DEFINE_STEPS_C(19)
DEFINE_STEPS_C(20)
#define steps_19 steps_c_19
#define steps_20 steps_c_20
#define steps2_19 steps2_c_19
#define steps2_20 steps2_c_20
#endif

#define F20 ((uint64_t)1 << 20)
#define LOW20 (F20 - 1)

/* The packed words for f and g (their low 20 bits) and the identity. */
static inline void
pack20(uint64_t *pf, uint64_t *pg, uint64_t f, uint64_t g)
{
	*pf = (f & LOW20) + (F20 << 21);
	*pg = (g & LOW20) + (F20 << 42);
}

/* The row (a, b) of a packed word after 20 steps: with the offsets added,
 * the low field is in [1, 2^21) and the first entry plus 2^20 - 1 in
 * [0, 2^21), so neither borrows from nor carries into the field above. */
static inline void
unpack20(uint64_t w, int64_t *a, int64_t *b)
{
	uint64_t o = w + ((uint64_t)1 << 41) - F20;

	*b = (int64_t)o >> 42;
	*a = (int64_t)((o >> 21) & ((F20 << 1) - 1)) - (int64_t)(F20 - 1);
}

/* m = n * m (2x2 products, unsigned so that no signed overflow occurs on
 * the way; the entries stay below 2^60 in magnitude). */
static inline void
compose(struct trans *m, int64_t u, int64_t v, int64_t q, int64_t r)
{
	uint64_t mu = (uint64_t)m->u, mv = (uint64_t)m->v;
	uint64_t mq = (uint64_t)m->q, mr = (uint64_t)m->r;

	m->u = (int64_t)((uint64_t)u * mu + (uint64_t)v * mq);
	m->v = (int64_t)((uint64_t)u * mv + (uint64_t)v * mr);
	m->q = (int64_t)((uint64_t)q * mu + (uint64_t)r * mq);
	m->r = (int64_t)((uint64_t)q * mv + (uint64_t)r * mr);
}

/* One chain of 59 divsteps: f, g are the low bits (at least 60 of them)
 * at the start, brought forward after each of the first two runs of 20;
 * m accumulates the runs' matrices. A packed word's row is 2^20 times the
 * rational matrix of the steps it has taken, whatever their number, so
 * the last run may take 19 steps: m is then 2^60 times the matrix of the
 * 59 steps (twice its integer form). */
struct chain {
	int64_t zeta;
	uint64_t f, g, pf, pg;
	struct trans m;
};

static inline __attribute__((always_inline)) void
chain_start(struct chain *c, int64_t zeta, uint64_t f, uint64_t g)
{
	c->zeta = zeta;
	c->f = f;
	c->g = g;
	c->m.u = c->m.r = 1;
	c->m.v = c->m.q = 0;
	pack20(&c->pf, &c->pg, f, g);
}

/* After the last run: its matrix into m. */
static inline __attribute__((always_inline)) void
chain_last(struct chain *c)
{
	int64_t u, v, q, r;

	unpack20(c->pf, &u, &v);
	unpack20(c->pg, &q, &r);
	compose(&c->m, u, v, q, r);
}

/* After another run: its matrix into m, f and g moved on by it (the low
 * 64 - 20 k bits stay exact after k runs), the next run's words packed. */
static inline __attribute__((always_inline)) void
chain_next(struct chain *c)
{
	int64_t u, v, q, r;
	uint64_t f, g;

	unpack20(c->pf, &u, &v);
	unpack20(c->pg, &q, &r);
	compose(&c->m, u, v, q, r);
	f = (uint64_t)u * c->f + (uint64_t)v * c->g;
	g = (uint64_t)q * c->f + (uint64_t)r * c->g;
	c->f = (uint64_t)((int64_t)f >> 20);
	c->g = (uint64_t)((int64_t)g >> 20);
	pack20(&c->pf, &c->pg, c->f, c->g);
}

/* The end of a chain: *t = the 59 steps' matrix scaled by 2^62 (4 m,
 * m twice the integer form, whose rows have |u| + |v| <= 2^59); returns
 * zeta. The chain lives in struct inv, wiped once at the end. */
static inline __attribute__((always_inline)) int64_t
chain_end(struct chain *c, struct trans *t)
{
	int64_t zeta = c->zeta;

	t->u = c->m.u * 4;
	t->v = c->m.v * 4;
	t->q = c->m.q * 4;
	t->r = c->m.r * 4;
	return zeta;
}

/* An inversion in progress: f, g and the Bezout coefficients d, e, the
 * divsteps' chain and the last batch's matrix. */
struct inv {
	struct s62 d, e, f, g;
	struct chain c;
	struct trans t;
	int64_t zeta;
};

/* 59 divsteps on the low bits f (odd) and g from zeta, in chain c:
 * returns the new zeta; *t gets the matrix scaled by 2^62. */
static inline __attribute__((always_inline)) int64_t
chain_59(struct chain *c, int64_t zeta, uint64_t f, uint64_t g,
    struct trans *t)
{
	chain_start(c, zeta, f, g);
	steps_20(&c->zeta, &c->pf, &c->pg);
	chain_next(c);
	steps_20(&c->zeta, &c->pf, &c->pg);
	chain_next(c);
	steps_19(&c->zeta, &c->pf, &c->pg);
	chain_last(c);
	return chain_end(c, t);
}

/* chain_59 on two independent inputs at once: each step is a chain of
 * dependent one-cycle operations that leaves most of the core idle. */
static inline __attribute__((always_inline)) void
chain_59x2(struct chain *a, int64_t *za, uint64_t fa, uint64_t ga,
    struct trans *ta, struct chain *b, int64_t *zb, uint64_t fb,
    uint64_t gb, struct trans *tb)
{
	chain_start(a, *za, fa, ga);
	chain_start(b, *zb, fb, gb);
	steps2_20(&a->zeta, &a->pf, &a->pg, &b->zeta, &b->pf, &b->pg);
	chain_next(a);
	chain_next(b);
	steps2_20(&a->zeta, &a->pf, &a->pg, &b->zeta, &b->pf, &b->pg);
	chain_next(a);
	chain_next(b);
	steps2_19(&a->zeta, &a->pf, &a->pg, &b->zeta, &b->pf, &b->pg);
	chain_last(a);
	chain_last(b);
	*za = chain_end(a, ta);
	*zb = chain_end(b, tb);
}

/* 59 divsteps on the low bits of f (odd) and g from zeta: s->zeta moves
 * on, s->t gets the matrix scaled by 2^62. */
static inline __attribute__((always_inline)) void
divsteps_59(struct inv *s)
{
	s->zeta = chain_59(&s->c, s->zeta, (uint64_t)s->f.v[0],
	    (uint64_t)s->g.v[0], &s->t);
}

/* divsteps_59 on two independent inputs at once. */
static void
divsteps_59x2(struct inv *sa, struct inv *sb)
{
	chain_59x2(&sa->c, &sa->zeta, (uint64_t)sa->f.v[0],
	    (uint64_t)sa->g.v[0], &sa->t, &sb->c, &sb->zeta,
	    (uint64_t)sb->f.v[0], (uint64_t)sb->g.v[0], &sb->t);
}

/* [d, e] = t [d, e] / 2^62 mod m; d, e in (-2m, m) in and out. Without
 * with_e only d (the last batch: e is not needed again). */
static inline __attribute__((always_inline)) void
update_de_(struct s62 *d, struct s62 *e, const struct trans *t,
    const struct vg_modinv62_modulus *mi, const int with_e)
{
	const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
	int64_t sd = d->v[4] >> 63, se = e->v[4] >> 63, md, me = 0;
	vg_i128 cd, ce = 0;
	int i;

	/* [md, me] = [u, q] if d < 0, plus [v, r] if e < 0 */
	md = (u & sd) + (v & se);
	cd = (vg_i128)u * d->v[0] + (vg_i128)v * e->v[0];
	/* choose md, me so that the low 62 bits of the sums vanish */
	md -= (int64_t)((mi->m_inv62 * (uint64_t)cd + (uint64_t)md) & M62);
	cd += (vg_i128)mi->m[0] * md;
	cd >>= 62;
	if (with_e) {
		me = (q & sd) + (r & se);
		ce = (vg_i128)q * d->v[0] + (vg_i128)r * e->v[0];
		me -= (int64_t)((mi->m_inv62 * (uint64_t)ce + (uint64_t)me) &
		    M62);
		ce += (vg_i128)mi->m[0] * me;
		ce >>= 62;
	}
	for (i = 1; i < 5; i++) {
		cd += (vg_i128)u * d->v[i] + (vg_i128)v * e->v[i];
		cd += (vg_i128)mi->m[i] * md;
		if (with_e) {
			ce += (vg_i128)q * d->v[i] + (vg_i128)r * e->v[i];
			ce += (vg_i128)mi->m[i] * me;
			e->v[i - 1] = (int64_t)((uint64_t)ce & M62);
			ce >>= 62;
		}
		d->v[i - 1] = (int64_t)((uint64_t)cd & M62);
		cd >>= 62;
	}
	d->v[4] = (int64_t)cd;
	if (with_e)
		e->v[4] = (int64_t)ce;
}

static void
update_de(struct s62 *d, struct s62 *e, const struct trans *t,
    const struct vg_modinv62_modulus *mi)
{
	update_de_(d, e, t, mi, 1);
}

static void
update_d(struct s62 *d, const struct s62 *e, const struct trans *t,
    const struct vg_modinv62_modulus *mi)
{
	update_de_(d, (struct s62 *)e, t, mi, 0);
}

/* [f, g] = t [f, g] / 2^62 (exact). */
static inline __attribute__((always_inline)) void
update_fg(struct s62 *f, struct s62 *g, const struct trans *t)
{
	const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
	vg_i128 cf, cg;
	int i;

	cf = (vg_i128)u * f->v[0] + (vg_i128)v * g->v[0];
	cg = (vg_i128)q * f->v[0] + (vg_i128)r * g->v[0];
	cf >>= 62;
	cg >>= 62;
	for (i = 1; i < 5; i++) {
		cf += (vg_i128)u * f->v[i] + (vg_i128)v * g->v[i];
		cg += (vg_i128)q * f->v[i] + (vg_i128)r * g->v[i];
		f->v[i - 1] = (int64_t)((uint64_t)cf & M62);
		g->v[i - 1] = (int64_t)((uint64_t)cg & M62);
		cf >>= 62;
		cg >>= 62;
	}
	f->v[4] = (int64_t)cf;
	g->v[4] = (int64_t)cg;
}

/* Carries limbs 0 .. 3 into [0, 2^62). */
static void
carry62(int64_t v[5])
{
	int i;

	for (i = 0; i < 4; i++) {
		v[i + 1] += v[i] >> 62;
		v[i] &= (int64_t)M62;
	}
}

/* d in (-2m, m), negated if sign < 0, brought to [0, m). */
static void
normalize(struct s62 *d, int64_t sign,
    const struct vg_modinv62_modulus *mi)
{
	int64_t add, neg;
	int i;

	add = (int64_t)vg_ct_barrier64((uint64_t)(d->v[4] >> 63));
	for (i = 0; i < 5; i++)
		d->v[i] += mi->m[i] & add;
	neg = (int64_t)vg_ct_barrier64((uint64_t)(sign >> 63));
	for (i = 0; i < 5; i++)
		d->v[i] = (d->v[i] ^ neg) - neg;
	carry62(d->v);
	add = (int64_t)vg_ct_barrier64((uint64_t)(d->v[4] >> 63));
	for (i = 0; i < 5; i++)
		d->v[i] += mi->m[i] & add;
	carry62(d->v);
}

/* Starts the inversion of a plain integer a < m. */
static void
inv_start(struct inv *s, const uint64_t a[4],
    const struct vg_modinv62_modulus *mi)
{
	memset(s, 0, sizeof(*s));
	s->e.v[0] = 1;
	memcpy(s->f.v, mi->m, sizeof(s->f.v));
	s->g.v[0] = (int64_t)(a[0] & M62);
	s->g.v[1] = (int64_t)(((a[0] >> 62) | (a[1] << 2)) & M62);
	s->g.v[2] = (int64_t)(((a[1] >> 60) | (a[2] << 4)) & M62);
	s->g.v[3] = (int64_t)(((a[2] >> 58) | (a[3] << 6)) & M62);
	s->g.v[4] = (int64_t)(a[3] >> 56);
	s->zeta = -1;
}

/*
 * The sign of f after the last batch, in bit 63: f is +-1 then, so
 * u f + v g = +-2^62 and its low 64 bits, from those of f and g, tell
 * (for a = 0, f = m and d = 0, and the sign does not matter).
 */
static int64_t
last_sign(const struct inv *s)
{
	uint64_t f = (uint64_t)s->f.v[0] | ((uint64_t)s->f.v[1] << 62);
	uint64_t g = (uint64_t)s->g.v[0] | ((uint64_t)s->g.v[1] << 62);

	return (int64_t)((uint64_t)s->t.u * f + (uint64_t)s->t.v * g);
}

/* The last batch: 59 divsteps, then d and the sign of f only (f and e
 * are not needed again). */
static int64_t
last_batch(struct inv *s, const struct vg_modinv62_modulus *mi)
{
	divsteps_59(s);
	update_d(&s->d, &s->e, &s->t, mi);
	return last_sign(s);
}

/* r = the inverse, once the batches have made g = 0, f = +-1 (its sign
 * in bit 63 of sign) and d = +-a^-1. Wipes *s. */
static void
inv_finish(uint64_t r[4], struct inv *s, int64_t sign,
    const struct vg_modinv62_modulus *mi)
{
	normalize(&s->d, sign, mi);
	r[0] = (uint64_t)s->d.v[0] | ((uint64_t)s->d.v[1] << 62);
	r[1] = ((uint64_t)s->d.v[1] >> 2) | ((uint64_t)s->d.v[2] << 60);
	r[2] = ((uint64_t)s->d.v[2] >> 4) | ((uint64_t)s->d.v[3] << 58);
	r[3] = ((uint64_t)s->d.v[3] >> 6) | ((uint64_t)s->d.v[4] << 56);
	vg_wipe(s, sizeof(*s));
}

/* see crypto/modinv62.h */
void
vg_modinv62(uint64_t r[4], const uint64_t a[4],
    const struct vg_modinv62_modulus *mi)
{
	struct inv s;
	int i;

	inv_start(&s, a, mi);
	for (i = 0; i < 9; i++) {
		divsteps_59(&s);
		update_de(&s.d, &s.e, &s.t, mi);
		update_fg(&s.f, &s.g, &s.t);
	}
	inv_finish(r, &s, last_batch(&s, mi), mi);
}

/* see crypto/modinv62.h */
void
vg_modinv62_x2(uint64_t ra[4], const uint64_t a[4],
    const struct vg_modinv62_modulus *ma, uint64_t rb[4],
    const uint64_t b[4], const struct vg_modinv62_modulus *mb)
{
	struct inv s[2];
	int64_t sign[2];
	int i;

	inv_start(&s[0], a, ma);
	inv_start(&s[1], b, mb);
	for (i = 0; i < 9; i++) {
		divsteps_59x2(&s[0], &s[1]);
		update_de(&s[0].d, &s[0].e, &s[0].t, ma);
		update_de(&s[1].d, &s[1].e, &s[1].t, mb);
		update_fg(&s[0].f, &s[0].g, &s[0].t);
		update_fg(&s[1].f, &s[1].g, &s[1].t);
	}
	divsteps_59x2(&s[0], &s[1]);
	update_d(&s[0].d, &s[0].e, &s[0].t, ma);
	update_d(&s[1].d, &s[1].e, &s[1].t, mb);
	sign[0] = last_sign(&s[0]);
	sign[1] = last_sign(&s[1]);
	inv_finish(ra, &s[0], sign[0], ma);
	inv_finish(rb, &s[1], sign[1], mb);
}

/*
 * Any width: the same batches on L signed-62 limbs (limbs 0 .. L - 2 in
 * [0, 2^62) between batches, limb L - 1 signed), L = ceil((64 n + 2) /
 * 62) for an n-word modulus, so that the top limb of any value in
 * (-2^(64 n + 1), 2^(64 n + 1)) stays below 2^61 in magnitude.
 */
#define LN_MAX ((64 * VG_BN_MAX_WORDS + 2 + 61) / 62)

struct sn {
	int64_t v[LN_MAX];
};

/* An odd modulus of n words in signed-62 form, its inverse modulo 2^62
 * and the number of batches its width needs. */
struct modn {
	struct sn m;
	uint64_t m_inv62;
	size_t L, batches;
};

struct invn {
	struct sn d, e, f, g;
	struct chain c;
	struct trans t;
	int64_t zeta;
};

/* x >= 0 (n words) into L limbs of 62 bits (x < 2^(62 L)). */
static void
to_s62n(struct sn *v, size_t L, const uint64_t *x, size_t n)
{
	size_t i;

	for (i = 0; i < L; i++) {
		size_t bit = 62 * i, w = bit / 64, s = bit % 64;
		uint64_t lo = w < n ? x[w] >> s : 0;
		uint64_t hi = s > 2 && w + 1 < n ? x[w + 1] << (64 - s) : 0;

		v->v[i] = (int64_t)((lo | hi) & M62);
	}
}

/* Limbs in [0, 2^62) (a value below 2^(64 n)) into n words. The offset
 * 64 j mod 62 is even, so two limbs cover each word. */
static void
from_s62n(uint64_t *x, size_t n, const struct sn *v, size_t L)
{
	size_t j;

	for (j = 0; j < n; j++) {
		size_t bit = 64 * j, i = bit / 62, s = bit % 62;
		uint64_t w = (uint64_t)v->v[i] >> s;

		if (i + 1 < L)
			w |= (uint64_t)v->v[i + 1] << (62 - s);
		x[j] = w;
	}
}

/*
 * [d, e] = t [d, e] / 2^62 mod m and [f, g] = t [f, g] / 2^62 (exact),
 * as update_de_ and update_fg above, on L limbs.
 */
static void
update_n(struct invn *s, const struct modn *mi)
{
	const int64_t u = s->t.u, v = s->t.v, q = s->t.q, r = s->t.r;
	const size_t L = mi->L;
	int64_t sd = s->d.v[L - 1] >> 63, se = s->e.v[L - 1] >> 63, md, me;
	vg_i128 cd, ce, cf, cg;
	size_t i;

	md = (u & sd) + (v & se);
	me = (q & sd) + (r & se);
	cd = (vg_i128)u * s->d.v[0] + (vg_i128)v * s->e.v[0];
	ce = (vg_i128)q * s->d.v[0] + (vg_i128)r * s->e.v[0];
	md -= (int64_t)((mi->m_inv62 * (uint64_t)cd + (uint64_t)md) & M62);
	me -= (int64_t)((mi->m_inv62 * (uint64_t)ce + (uint64_t)me) & M62);
	cd = (cd + (vg_i128)mi->m.v[0] * md) >> 62;
	ce = (ce + (vg_i128)mi->m.v[0] * me) >> 62;
	cf = ((vg_i128)u * s->f.v[0] + (vg_i128)v * s->g.v[0]) >> 62;
	cg = ((vg_i128)q * s->f.v[0] + (vg_i128)r * s->g.v[0]) >> 62;
	for (i = 1; i < L; i++) {
		cd += (vg_i128)u * s->d.v[i] + (vg_i128)v * s->e.v[i] +
		    (vg_i128)mi->m.v[i] * md;
		ce += (vg_i128)q * s->d.v[i] + (vg_i128)r * s->e.v[i] +
		    (vg_i128)mi->m.v[i] * me;
		cf += (vg_i128)u * s->f.v[i] + (vg_i128)v * s->g.v[i];
		cg += (vg_i128)q * s->f.v[i] + (vg_i128)r * s->g.v[i];
		s->d.v[i - 1] = (int64_t)((uint64_t)cd & M62);
		s->e.v[i - 1] = (int64_t)((uint64_t)ce & M62);
		s->f.v[i - 1] = (int64_t)((uint64_t)cf & M62);
		s->g.v[i - 1] = (int64_t)((uint64_t)cg & M62);
		cd >>= 62;
		ce >>= 62;
		cf >>= 62;
		cg >>= 62;
	}
	s->d.v[L - 1] = (int64_t)cd;
	s->e.v[L - 1] = (int64_t)ce;
	s->f.v[L - 1] = (int64_t)cf;
	s->g.v[L - 1] = (int64_t)cg;
}

/* Carries limbs 0 .. L - 2 into [0, 2^62). */
static void
carry62n(struct sn *d, size_t L)
{
	size_t i;

	for (i = 0; i + 1 < L; i++) {
		d->v[i + 1] += d->v[i] >> 62;
		d->v[i] &= (int64_t)M62;
	}
}

/*
 * Starts the inversion of a < m (n words, m odd): the modulus's form,
 * m^-1 mod 2^62 by Newton's iteration from m itself (right to 3 bits,
 * doubling each time), and the number of batches: at most
 * floor((150964 d + 99243) / 2^16) divsteps of this kind (delta starting
 * at 1/2) for 0 <= g <= f < 2^d [Wuille, "Bounds on divsteps iterations
 * in safegcd", hddivsteps], here d = 64 n, plus one batch.
 */
static void
invn_start(struct invn *s, struct modn *mi, const uint64_t *a,
    const uint64_t *m, size_t n)
{
	uint64_t x = m[0], bound = (150964 * (uint64_t)(64 * n) + 99243) >> 16;
	int i;

	memset(s, 0, sizeof(*s));
	memset(mi, 0, sizeof(*mi));
	mi->L = (64 * n + 2 + 61) / 62;
	mi->batches = (size_t)(bound + 58) / 59 + 1;
	to_s62n(&mi->m, mi->L, m, n);
	for (i = 0; i < 5; i++)
		x *= 2 - m[0] * x;
	mi->m_inv62 = x & M62;
	s->f = mi->m;
	to_s62n(&s->g, mi->L, a, n);
	s->e.v[0] = 1;
	s->zeta = -1;
}

/*
 * r = d, brought to [0, m) and negated where f = -1; returns all-ones if
 * f = +-1 (gcd(a, m) = 1), else 0. Wipes *s and *mi.
 */
static uint64_t
invn_finish(uint64_t *r, size_t n, struct invn *s, struct modn *mi)
{
	const size_t L = mi->L;
	uint64_t one, mone, add, neg;
	size_t i;

	/* f = 1: limbs 1, 0, ..., 0; f = -1: limbs 2^62 - 1 ..., then -1 */
	one = vg_ct_eq_mask64((uint64_t)s->f.v[0], 1);
	mone = vg_ct_eq_mask64((uint64_t)s->f.v[L - 1], ~(uint64_t)0);
	for (i = 1; i < L; i++)
		one &= vg_ct_zero_mask64((uint64_t)s->f.v[i]);
	for (i = 0; i + 1 < L; i++)
		mone &= vg_ct_eq_mask64((uint64_t)s->f.v[i], M62);
	/* d in (-2m, m): plus m if negative, negated if f < 0, then into
	 * [0, m) */
	add = vg_ct_barrier64((uint64_t)(s->d.v[L - 1] >> 63));
	for (i = 0; i < L; i++)
		s->d.v[i] += mi->m.v[i] & (int64_t)add;
	neg = vg_ct_barrier64((uint64_t)(s->f.v[L - 1] >> 63));
	for (i = 0; i < L; i++)
		s->d.v[i] = (s->d.v[i] ^ (int64_t)neg) - (int64_t)neg;
	carry62n(&s->d, L);
	add = vg_ct_barrier64((uint64_t)(s->d.v[L - 1] >> 63));
	for (i = 0; i < L; i++)
		s->d.v[i] += mi->m.v[i] & (int64_t)add;
	carry62n(&s->d, L);
	from_s62n(r, n, &s->d, L);
	vg_wipe(s, sizeof(*s));
	vg_wipe(mi, sizeof(*mi));
	return one | mone;
}

/* see crypto/modinv62.h */
uint64_t
vg_modinv62_n(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
	struct invn s;
	struct modn mi;
	size_t b;

	invn_start(&s, &mi, a, m, n);
	for (b = 0; b < mi.batches; b++) {
		s.zeta = chain_59(&s.c, s.zeta, (uint64_t)s.f.v[0],
		    (uint64_t)s.g.v[0], &s.t);
		update_n(&s, &mi);
	}
	return invn_finish(r, n, &s, &mi);
}

/* see crypto/modinv62.h */
void
vg_modinv62_n_x2(uint64_t *ra, const uint64_t *a, const uint64_t *ma,
    uint64_t *rb, const uint64_t *b, const uint64_t *mb, size_t n,
    uint64_t ok[2])
{
	struct invn s[2];
	struct modn mi[2];
	size_t k;

	invn_start(&s[0], &mi[0], a, ma, n);
	invn_start(&s[1], &mi[1], b, mb, n);
	for (k = 0; k < mi[0].batches; k++) {
		chain_59x2(&s[0].c, &s[0].zeta, (uint64_t)s[0].f.v[0],
		    (uint64_t)s[0].g.v[0], &s[0].t, &s[1].c, &s[1].zeta,
		    (uint64_t)s[1].f.v[0], (uint64_t)s[1].g.v[0], &s[1].t);
		update_n(&s[0], &mi[0]);
		update_n(&s[1], &mi[1]);
	}
	ok[0] = invn_finish(ra, n, &s[0], &mi[0]);
	ok[1] = invn_finish(rb, n, &s[1], &mi[1]);
}

/*
 * Variable time, for public inputs only (ECDSA verification): up to 62
 * divsteps on the low bits of f (odd) and g with eta = -delta (the
 * original divstep, delta starting at 1), several at once: a run of zeros
 * at the bottom of g is one shift, and when g is odd its next up to six
 * bits are cleared with one multiple of f (w = -g / f modulo 2^limit, the
 * inverse of f modulo 64 by one Newton step from f itself), as long as
 * eta shows that none of those steps swaps. Returns the new eta; *t gets
 * the matrix of the 62 steps, scaled by 2^62 like that of divsteps_59.
 * CT: none (branches and shifts depend on f and g).
 */
static int64_t
divsteps_62_vartime(int64_t eta, uint64_t f0, uint64_t g0, struct trans *t)
{
	uint64_t u = 1, v = 0, q = 0, r = 1, f = f0, g = g0, x, w, m;
	int i = 62, zeros, limit;

	for (;;) {
		zeros = __builtin_ctzll(g | (UINT64_MAX << i));
		g >>= zeros;
		u <<= zeros;
		v <<= zeros;
		eta -= zeros;
		i -= zeros;
		if (i == 0)
			break;
		/* g is odd now */
		if (eta < 0) {
			eta = -eta;
			x = f;
			f = g;
			g = 0 - x;
			x = u;
			u = q;
			q = 0 - x;
			x = v;
			v = r;
			r = 0 - x;
		}
		limit = (int)eta + 1 > i ? i : (int)eta + 1;
		m = (UINT64_MAX >> (64 - limit)) & 63;
		w = (g * f * (f * f - 2)) & m;
		g += f * w;
		q += u * w;
		r += v * w;
	}
	t->u = (int64_t)u;
	t->v = (int64_t)v;
	t->q = (int64_t)q;
	t->r = (int64_t)r;
	return eta;
}

/* see crypto/modinv62.h; batches of divsteps_62_vartime until g = 0
 * (at most 12 of them: 741 divsteps suffice for 256-bit inputs). */
void
vg_modinv62_vartime(uint64_t r[4], const uint64_t a[4],
    const struct vg_modinv62_modulus *mi)
{
	struct inv s;
	struct trans t;
	int i;

	/* s.zeta serves as divsteps_62_vartime's eta, also -1 at first */
	inv_start(&s, a, mi);
	for (i = 0; i < 12; i++) {
		s.zeta = divsteps_62_vartime(s.zeta, (uint64_t)s.f.v[0],
		    (uint64_t)s.g.v[0], &t);
		update_de(&s.d, &s.e, &t, mi);
		update_fg(&s.f, &s.g, &t);
		if ((s.g.v[0] | s.g.v[1] | s.g.v[2] | s.g.v[3] |
		    s.g.v[4]) == 0)
			break;
	}
	/* f = +-1 (or f = m for a = 0, with d = 0) */
	inv_finish(r, &s, s.f.v[4], mi);
	vg_wipe(&t, sizeof(t));
}

