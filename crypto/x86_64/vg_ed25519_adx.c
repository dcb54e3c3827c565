/*
 * The Edwards point formulas of crypto/ed25519_point.c on the MULX/ADX
 * field of crypto/x86_64/vg_fe25519_adx.h (4 64-bit limbs, any value
 * below 2^256), and the two multiplications Ed25519 spends its time in:
 * the kernels vg_ge25519_scalarmult_base_adx, _adx_avx2,
 * vg_ge25519_scalarmult_base_bytes_adx, _adx_avx2 and
 * vg_ge25519_double_scalarmult_vartime_adx, with the contracts of their
 * portable twins (crypto/c25519_kernels.h). Points enter and leave in the
 * radix-2^51 form of crypto/c25519_int.h; the _bytes kernels, which key
 * generation and signing call, leave no point: they invert and encode on
 * the 4x64-bit limbs (vg_fe25519_invert64, two multiplications, a
 * canonical reduction), or take X25519's u there.
 *
 * The comb takes 52 signed radix-32 digits (vg_sc25519_recode32) and one
 * table row per digit (vg_ed25519_base_table64, row i holding
 * [j] 32^i B for j = 1..16 in 4x64-bit limbs), so it adds 52 entries
 * (51 for signing's r < 2^253, whose top digit is 0) and doubles never,
 * where the twin adds 64 entries from 32 rows around four doublings; the
 * first entry becomes the start point by two multiplications instead of
 * an addition to the identity; its steps run on looser products (below
 * 2^255 + 2^11) and one-pass additions and subtractions. Its X, Y, Z, T
 * are those of the same point as the twin's, not the same coordinates.
 * The double multiplication takes
 * [b] B from vg_ed25519_base_odd64, 64 precomputed affine odd multiples
 * (8-bit windows: about 28 additions of B instead of 43, and no run-time
 * table for B), and keeps a doubling in (X, Y, Z) unless an addition
 * follows; [a] A keeps the 5-bit windows of the twin.
 * CT: the comb is straight-line code whose table reads all go through
 * the masked selection, and whose negation of a selected entry is a mask;
 * the double multiplication handles public data only and branches on its
 * digits.
 */
#include "config.h"

#include <string.h>

#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/ct.h"

#if defined(__x86_64__)

#include "crypto/x86_64/vg_fe25519_adx.h"

#define INLINE static inline __attribute__((always_inline))

typedef unsigned __int128 u128;
typedef uint64_t fe64[4];

/* Extended (X, Y, Z, T), completed, cached (Y + X, Y - X, Z, 2dT) and
 * affine niels (Y + X, Y - X, 2dT) points, as in crypto/c25519_int.h. */
struct ge64 {
	fe64 X, Y, Z, T;
};

struct p1p1_64 {
	fe64 X, Y, Z, T;
};

struct cached64 {
	fe64 YpX, YmX, Z, T2d;
};

struct niels64 {
	fe64 YpX, YmX, T2d;
};

_Static_assert(sizeof(struct niels64) == VG_ED25519_NIELS64 * 8,
    "a niels entry is 12 packed limbs");

/*
 * Looser operations for the comb, as the X25519 ladder's
 * (crypto/x86_64/vg_fe25519_mul64_adx.c): a product split at bit 255
 * (the bits from 255 up times 19, bit 255 moved into the carry word by
 * BTR and ADC) ends below 2^255 + 2^11, "loose"; then a sum with one
 * loose operand, or a difference whose subtrahend is loose or below p,
 * needs one carry pass instead of two. Every result is below 2^256.
 */

/* r = a b, loose, for any a, b < 2^256. */
INLINE void
lmul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__(MUL_PROD FOLD38
		"btrq $63, %%r11\n\t"
		"adcq %%r12, %%r12\n\t"
		"imulq $19, %%r12, %%r12\n\t"
		"addq %%r12, %%r8\n\t"
		"adcq %%rax, %%r9\n\t"
		"adcq %%rax, %%r10\n\t"
		"adcq %%rax, %%r11\n\t"
		"movq %%r8, 0(%[r])\n\t"
		"movq %%r9, 8(%[r])\n\t"
		"movq %%r10, 16(%[r])\n\t"
		"movq %%r11, 24(%[r])\n\t"
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS);
}

/* r = a + b for a < 2^256 and loose b (or a + b < 2^257 - 38): a carry
 * out of 2^256 leaves less than 2^256 - 38, and 38 is added to that in
 * the same pass. */
INLINE void
ladd(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__(FE64_ADD_PASS FE64_STORE
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS_ADD);
}

/* r = a - b for a < 2^256 and b loose or below p (b <= 2^256 - 38): on
 * a borrow the difference is at least 2^256 - b >= 38 in the register,
 * and 38 is taken from it in the same pass. */
INLINE void
lsub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__(FE64_SUB_PASS FE64_STORE
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS_ADD);
}

/* r = f as 4x64-bit limbs, from loose radix-2^51 limbs (one carry pass
 * first makes the value < 2^256). */
static void
from51(fe64 r, const vg_fe25519 f)
{
	vg_fe25519 h;
	u128 acc;

	vg_fe25519_copy(h, f);
	vg_fe25519_carry(h);
	acc = (u128)h[0] + ((u128)h[1] << 51);
	r[0] = (uint64_t)acc;
	acc >>= 64;
	acc += (u128)h[2] << 38;
	r[1] = (uint64_t)acc;
	acc >>= 64;
	acc += (u128)h[3] << 25;
	r[2] = (uint64_t)acc;
	acc >>= 64;
	acc += (u128)h[4] << 12;
	r[3] = (uint64_t)acc;
	vg_wipe(h, sizeof(h));
}

/* h = a in tight radix-2^51 limbs: bit 255 is folded in as 19. */
static void
to51(vg_fe25519 h, const fe64 a)
{
	h[0] = (a[0] & VG_FE25519_M51) + 19 * (a[3] >> 63);
	h[1] = ((a[0] >> 51) | (a[1] << 13)) & VG_FE25519_M51;
	h[2] = ((a[1] >> 38) | (a[2] << 26)) & VG_FE25519_M51;
	h[3] = ((a[2] >> 25) | (a[3] << 39)) & VG_FE25519_M51;
	h[4] = (a[3] >> 12) & VG_FE25519_M51;
}

static void
to51_point(struct vg_ge25519 *r, const struct ge64 *p)
{
	to51(r->X, p->X);
	to51(r->Y, p->Y);
	to51(r->Z, p->Z);
	to51(r->T, p->T);
}

INLINE void
identity(struct ge64 *r)
{
	memset(r, 0, sizeof(*r));
	r->Y[0] = 1;
	r->Z[0] = 1;
}

INLINE void
p1p1_to_p3(struct ge64 *r, const struct p1p1_64 *p)
{
	vg_fe64_mul(r->X, p->X, p->T);
	vg_fe64_mul(r->Y, p->Y, p->Z);
	vg_fe64_mul(r->Z, p->Z, p->T);
	vg_fe64_mul(r->T, p->X, p->Y);
}

INLINE void
p1p1_to_p2(struct ge64 *r, const struct p1p1_64 *p)
{
	vg_fe64_mul(r->X, p->X, p->T);
	vg_fe64_mul(r->Y, p->Y, p->Z);
	vg_fe64_mul(r->Z, p->Z, p->T);
}

/* r = 2p from X, Y, Z (vg_ge25519_dbl). */
INLINE void
dbl(struct p1p1_64 *r, const struct ge64 *p)
{
	fe64 a, b, c, e;

	vg_fe64_sqr(a, p->X);
	vg_fe64_sqr(b, p->Y);
	vg_fe64_sqr(c, p->Z);
	vg_fe64_add(c, c, c);
	vg_fe64_add(e, p->X, p->Y);
	vg_fe64_sqr(e, e);
	vg_fe64_add(r->Y, b, a);
	vg_fe64_sub(r->Z, b, a);
	vg_fe64_sub(r->X, e, r->Y);
	vg_fe64_sub(r->T, c, r->Z);
}

/* The completed sum from a, b, c = T1 2d T2 and d = 2 Z1 Z2, or the
 * difference (sub = 1: c negated, the caller having swapped the
 * roles of Y2 + X2 and Y2 - X2); sub is public. */
INLINE void
add_finish(struct p1p1_64 *r, const fe64 a, const fe64 b, const fe64 c,
    const fe64 d, int sub)
{
	vg_fe64_sub(r->X, a, b);
	vg_fe64_add(r->Y, a, b);
	if (sub) {
		vg_fe64_sub(r->Z, d, c);
		vg_fe64_add(r->T, d, c);
	} else {
		vg_fe64_add(r->Z, d, c);
		vg_fe64_sub(r->T, d, c);
	}
}

/* r = p + q or p - q for an affine q (vg_ge25519_madd). */
INLINE void
madd(struct p1p1_64 *r, const struct ge64 *p, const struct niels64 *q,
    int sub)
{
	fe64 a, b, c, d;

	vg_fe64_add(a, p->Y, p->X);
	vg_fe64_sub(b, p->Y, p->X);
	vg_fe64_mul(a, a, sub ? q->YmX : q->YpX);
	vg_fe64_mul(b, b, sub ? q->YpX : q->YmX);
	vg_fe64_mul(c, p->T, q->T2d);
	vg_fe64_add(d, p->Z, p->Z);
	add_finish(r, a, b, c, d, sub);
}

/* r = p + q or p - q for a projective q (vg_ge25519_add, _sub). */
INLINE void
add_cached(struct p1p1_64 *r, const struct ge64 *p,
    const struct cached64 *q, int sub)
{
	fe64 a, b, c, d;

	vg_fe64_add(a, p->Y, p->X);
	vg_fe64_sub(b, p->Y, p->X);
	vg_fe64_mul(a, a, sub ? q->YmX : q->YpX);
	vg_fe64_mul(b, b, sub ? q->YpX : q->YmX);
	vg_fe64_mul(c, p->T, q->T2d);
	vg_fe64_mul(d, p->Z, q->Z);
	vg_fe64_add(d, d, d);
	add_finish(r, a, b, c, d, sub);
}

INLINE void
to_cached(struct cached64 *r, const struct ge64 *p, const fe64 d2)
{
	vg_fe64_add(r->YpX, p->Y, p->X);
	vg_fe64_sub(r->YmX, p->Y, p->X);
	memcpy(r->Z, p->Z, sizeof(r->Z));
	vg_fe64_mul(r->T2d, p->T, d2);
}

/*
 * t = [b] (row of vg_ed25519_base_table64), b in [-16, 16]: the entry of
 * |b| by the masked selection, which also swaps Y + X and Y - X for
 * b < 0, then -2dT = 2p - 2dT (2dT < p, so no borrow leaves 2^256) under
 * the mask of the sign; mt is scratch (the caller wipes it once).
 */
INLINE void
select_niels(struct niels64 *t, fe64 mt, int row, int8_t b, int avx2)
{
	uint64_t neg = vg_ct_barrier64((uint64_t)(uint8_t)b >> 7);
	uint64_t babs = (uint64_t)(int64_t)b, m;
	int w;

	babs = (babs ^ (0 - neg)) + neg; /* |b| */
	if (avx2)
		vg_ed25519_select64_avx2((uint64_t *)t,
		    vg_ed25519_base_table64[row], babs, neg);
	else
		vg_ed25519_select64_c((uint64_t *)t,
		    vg_ed25519_base_table64[row], babs, neg);
	m = 0 - neg;
	/* 2p = 2^256 - 38: limbs -38, -1, -1, -1 (MOV leaves the borrow) */
	__asm__("movq $-38, %0\n\t"
		"subq %4, %0\n\t"
		"movq $-1, %1\n\t"
		"sbbq %5, %1\n\t"
		"movq $-1, %2\n\t"
		"sbbq %6, %2\n\t"
		"movq $-1, %3\n\t"
		"sbbq %7, %3\n\t"
	    : "=&r"(mt[0]), "=&r"(mt[1]), "=&r"(mt[2]), "=&r"(mt[3])
	    : "m"(t->T2d[0]), "m"(t->T2d[1]), "m"(t->T2d[2]), "m"(t->T2d[3])
	    : "cc");
	for (w = 0; w < 4; w++)
		t->T2d[w] ^= m & (t->T2d[w] ^ mt[w]);
}

/*
 * r = t for an affine (Y + X, Y - X, 2dT) entry (canonical limbs): with
 * u = 2x and v = 2y, X = 2u, Y = 2v, Z = 4, T = uv (the point (x, y)
 * scaled by 4); two multiplications where an addition to the identity
 * takes seven. X, Z and T are loose, as the comb's step needs; X = 2u
 * is a product for that (u < 2p, so u + u could end in
 * [2^256 - 38, 2^256)). The identity entry (1, 1, 0) gives (0, 4, 4, 0).
 * s is scratch.
 */
INLINE void
niels_to_p3(struct ge64 *r, const struct niels64 *t, struct p1p1_64 *s)
{
	static const fe64 two = { 2, 0, 0, 0 };

	lsub(s->X, t->YpX, t->YmX);
	ladd(s->Y, t->YpX, t->YmX);
	lmul(r->T, s->X, s->Y);
	lmul(r->X, s->X, two);
	ladd(r->Y, s->Y, s->Y);
	memset(r->Z, 0, sizeof(r->Z));
	r->Z[0] = 4;
}

/* The comb's step, r + t for a p3 r with loose X, Z, T (any Y) and a
 * canonical or negated (-2dT = 2p - 2dT) table entry: madd and
 * p1p1_to_p3 on the loose operations (each subtrahend, each second
 * addend is a product), leaving r loose again. */
INLINE void
lmadd(struct p1p1_64 *r, const struct ge64 *p, const struct niels64 *q)
{
	fe64 a, b, c, d;

	ladd(a, p->Y, p->X);
	lsub(b, p->Y, p->X);
	lmul(a, a, q->YpX);
	lmul(b, b, q->YmX);
	lmul(c, p->T, q->T2d);
	ladd(d, p->Z, p->Z);
	lsub(r->X, a, b);
	ladd(r->Y, a, b);
	ladd(r->Z, d, c);
	lsub(r->T, d, c);
}

INLINE void
lp1p1_to_p3(struct ge64 *r, const struct p1p1_64 *p)
{
	lmul(r->X, p->X, p->T);
	lmul(r->Y, p->Y, p->Z);
	lmul(r->Z, p->Z, p->T);
	lmul(r->T, p->X, p->Y);
}

/* The secrets of a comb, wiped once. */
struct comb_state {
	int8_t e[VG_ED25519_DIGITS32];
	struct ge64 r;
	struct niels64 t;
	struct p1p1_64 s;
	fe64 mt, zi, x, y;
};

/* [a] B = sum of e[i] 32^i B over the first n digits (n =
 * VG_ED25519_DIGITS32, or one less for a < 2^253, whose top digit is 0:
 * vg_sc25519_recode32), one row of the table per digit, left in c->s as
 * the completed sum of the last addition; n and avx2 (the selection)
 * are constants in each caller, never derived from the digits. */
INLINE void
comb(struct comb_state *c, const uint8_t a[32], int n, int avx2)
{
	int i;

	vg_sc25519_recode32(c->e, a);
	select_niels(&c->t, c->mt, 0, c->e[0], avx2);
	niels_to_p3(&c->r, &c->t, &c->s);
	for (i = 1; i < n; i++) {
		select_niels(&c->t, c->mt, i, c->e[i], avx2);
		lmadd(&c->s, &c->r, &c->t);
		if (i < n - 1)
			lp1p1_to_p3(&c->r, &c->s);
	}
}

INLINE void
comb_point(struct vg_ge25519 *out, const uint8_t a[32], int avx2)
{
	struct comb_state c;

	comb(&c, a, VG_ED25519_DIGITS32, avx2);
	p1p1_to_p3(&c.r, &c.s);
	to51_point(out, &c.r);
	vg_wipe(&c, sizeof(c));
}

/* f = f mod p, canonical, for f < 2^256 (vg_fe25519_reduce64 inline,
 * without its calls and wipes): bit 255 folded in as 19 twice, then
 * f + 19 taken under the mask of its bit 255. u is scratch. */
INLINE void
canonical(fe64 f, fe64 u)
{
	u128 acc;
	uint64_t m;
	int i, k;

	for (k = 0; k < 2; k++) {
		acc = (u128)19 * (f[3] >> 63);
		f[3] &= 0x7fffffffffffffffULL;
		for (i = 0; i < 4; i++) {
			acc += f[i];
			f[i] = (uint64_t)acc;
			acc >>= 64;
		}
	}
	acc = 19;
	for (i = 0; i < 4; i++) {
		acc += f[i];
		u[i] = (uint64_t)acc;
		acc >>= 64;
	}
	m = 0 - vg_ct_barrier64(u[3] >> 63);
	u[3] &= 0x7fffffffffffffffULL;
	for (i = 0; i < 4; i++)
		f[i] ^= m & (f[i] ^ u[i]);
}

/* out = the little-endian bytes of a canonical f. */
INLINE void
store(uint8_t out[32], const fe64 f)
{
	int i;

	for (i = 0; i < 32; i++)
		out[i] = (uint8_t)(f[i / 8] >> (8 * (i % 8)));
}

/*
 * The encoding of [a] B or its u = (1 + y) / (1 - y) (VG_GE25519_BASE_U),
 * over 51 digits for VG_GE25519_BASE_SHORT (flags are public), from the
 * completed sum (X : Z, Y : T) of the last addition: the encoding from
 * X, Y, Z (three multiplications) by one inversion and two
 * multiplications; u = (T + Y) / (T - Y) with no multiplication before
 * the inversion.
 */
INLINE void
comb_bytes(uint8_t out[32], const uint8_t a[32], unsigned flags, int avx2)
{
	struct comb_state c;

	/* n a constant in each of two copies of the loop (5.5 KiB): with
	 * n a variable the loop grew, and the short form saved a third of
	 * a row's instructions */
	if (flags & VG_GE25519_BASE_SHORT)
		comb(&c, a, VG_ED25519_DIGITS32 - 1, avx2);
	else
		comb(&c, a, VG_ED25519_DIGITS32, avx2);
	if (flags & VG_GE25519_BASE_U) {
		vg_fe64_add(c.x, c.s.T, c.s.Y);
		vg_fe64_sub(c.y, c.s.T, c.s.Y);
		vg_fe25519_invert64(c.zi, c.y);
		vg_fe64_mul(c.x, c.x, c.zi);
		canonical(c.x, c.mt);
		store(out, c.x);
	} else {
		p1p1_to_p2(&c.r, &c.s);
		vg_fe25519_invert64(c.zi, c.r.Z);
		vg_fe64_mul(c.x, c.r.X, c.zi);
		vg_fe64_mul(c.y, c.r.Y, c.zi);
		canonical(c.x, c.mt);
		canonical(c.y, c.mt);
		store(out, c.y);
		out[31] |= (uint8_t)((c.x[0] & 1) << 7);
	}
	vg_wipe(&c, sizeof(c));
}

/* see crypto/c25519_kernels.h */
void
vg_ge25519_scalarmult_base_adx(struct vg_ge25519 *r, const uint8_t a[32])
{
	comb_point(r, a, 0);
}

/* see crypto/c25519_kernels.h */
void
vg_ge25519_scalarmult_base_adx_avx2(struct vg_ge25519 *r,
    const uint8_t a[32])
{
	comb_point(r, a, 1);
}

/* see crypto/c25519_kernels.h */
void
vg_ge25519_scalarmult_base_bytes_adx(uint8_t s[32], const uint8_t a[32],
    unsigned flags)
{
	comb_bytes(s, a, flags, 0);
}

/* see crypto/c25519_kernels.h */
void
vg_ge25519_scalarmult_base_bytes_adx_avx2(uint8_t s[32],
    const uint8_t a[32], unsigned flags)
{
	comb_bytes(s, a, flags, 1);
}

/* see crypto/c25519_kernels.h */
void
vg_ge25519_double_scalarmult_vartime_adx(struct vg_ge25519 *out,
    const uint8_t a[32], const struct vg_ge25519 *A, const uint8_t b[32])
{
	int8_t as[256], bs[256];
	struct cached64 ta[8], c2;
	struct ge64 p, p2, r;
	struct p1p1_64 t;
	fe64 d2;
	int i, d;

	vg_sc25519_slide_vartime(as, a, 5);
	vg_sc25519_slide_vartime(bs, b, 8);
	from51(d2, vg_fe25519_d2);

	/* A, 3A, ..., 15A */
	from51(p.X, A->X);
	from51(p.Y, A->Y);
	from51(p.Z, A->Z);
	from51(p.T, A->T);
	dbl(&t, &p);
	p1p1_to_p3(&p2, &t);
	to_cached(&c2, &p2, d2);
	to_cached(&ta[0], &p, d2);
	for (i = 1; i < 8; i++) {
		add_cached(&t, &p, &c2, 0);
		p1p1_to_p3(&p, &t);
		to_cached(&ta[i], &p, d2);
	}

	identity(&r);
	for (i = 255; i >= 0 && as[i] == 0 && bs[i] == 0; i--)
		;
	for (; i >= 0; i--) {
		dbl(&t, &r);
		d = as[i];
		if (d != 0) {
			p1p1_to_p3(&r, &t);
			add_cached(&t, &r, &ta[(d < 0 ? -d : d) / 2], d < 0);
		}
		d = bs[i];
		if (d != 0) {
			p1p1_to_p3(&r, &t);
			madd(&t, &r, (const struct niels64 *)
			    vg_ed25519_base_odd64[(d < 0 ? -d : d) / 2], d < 0);
		}
		if (i > 0)
			p1p1_to_p2(&r, &t);
		else
			p1p1_to_p3(&r, &t);
	}
	to51_point(out, &r);
}

#endif
