/*
 * Scalars modulo L = 2^252 + 27742317777372353535851937790883648493, the
 * order of the Ed25519 base point: Montgomery arithmetic with R = 2^256 on
 * 4 64-bit limbs. L is sparse (its limbs are L0, L1, 0 and 2^60), so one
 * reduction step costs two products and a shift; a 512-bit hash is brought
 * below 2^256 by one reduction of all eight limbs, then to x mod L by one
 * Montgomery multiplication by R^2 (or to x R mod L by R^3, the form that
 * signing's k * a takes directly). Constant time: the same operations for
 * every value; the callers' scratch is one struct, wiped once.
 */
#include "config.h"

#include "crypto/bytes.h"
#include "crypto/c25519_int.h"
#include "crypto/ct.h"

typedef unsigned __int128 u128;

static const uint64_t L[4] = { 0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0,
	0x1000000000000000 };
static const uint64_t R2[4] = { 0xa40611e3449c0f01, 0xd00e1ba768859347,
	0xceec73d217f5be65, 0x0399411b7c309a3d };
static const uint64_t R3[4] = { 0x2a9e49687b83a2db, 0x278324e6aef7f3ec,
	0x8065dc6c04ec5b65, 0x0e530b773599cec7 };
static const uint64_t N0 = 0xd2b51da312547e1b; /* -1/L mod 2^64 */

/* The scratch of one top-level call. */
struct sc_scratch {
	uint64_t t[9]; /* a double-width value and its carry word */
	uint64_t x[4], y[4], z[4];
};

/* r = a - L if that does not borrow, else a (a < 2^256 + top * 2^256).
 * The borrow of each limb from its sign bits: x - y - b borrows when y
 * exceeds x, or when they are equal in the top bit and the difference has
 * it set. */
static void
cond_sub_l(uint64_t r[4], const uint64_t a[4], uint64_t top)
{
	uint64_t t[4], borrow = 0, keep;
	int i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		uint64_t x = a[i], y = L[i], d = x - y - borrow;

		t[i] = d;
		borrow = ((~x & y) | (~(x ^ y) & d)) >> 63;
	}
	/* keep a when a - L borrowed past the top limb */
	keep = 0 - (vg_ct_barrier64(borrow & (top ^ 1)));
#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		r[i] = vg_ct_select64(keep, a[i], t[i]);
}

/* a + b, the carry out in *c. */
static inline uint64_t
add_co(uint64_t a, uint64_t b, uint64_t *c)
{
	u128 s = (u128)a + b;

	*c = (uint64_t)(s >> 64);
	return (uint64_t)s;
}

/* r = t / 2^256 mod L, partially reduced: with q = t + m L (m < 2^256 the
 * multiple of L that clears the low four limbs), r = q / 2^256 after one
 * conditional subtraction of L, so r < 2^256, and r < L when t < 2^256 L.
 * t has 8 limbs (t[8] is overwritten: the carry); t < 2^512. The carry out
 * of the top limb a step touches waits in hi for the next step. */
static void
redc(uint64_t r[4], uint64_t t[9])
{
	uint64_t hi = 0;
	int i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		uint64_t m = t[i] * N0, c;
		u128 acc;

		/* t += m L 2^(64 i): m L0 at limb i (clearing it), m L1 at
		 * i + 1, m 2^60 at i + 3; each carry is at most 1 and joins
		 * a term with free high (m >> 4) or low (m << 60) bits */
		acc = (u128)m * L[0] + t[i];
		c = (uint64_t)(acc >> 64);
		acc = (u128)m * L[1] + t[i + 1] + c;
		t[i + 1] = (uint64_t)acc;
		t[i + 2] = add_co(t[i + 2], (uint64_t)(acc >> 64), &c);
		t[i + 3] = add_co(t[i + 3], (m << 60) + c, &c);
		t[i + 4] = add_co(t[i + 4], (m >> 4) + c + hi, &hi);
	}
	t[8] = hi;
	/* q / 2^256 < 2^256 + L: one subtraction brings it below 2^256 */
	cond_sub_l(r, t + 4, hi);
}

/* t = a b, 8 limbs. */
static void
mul256(uint64_t t[9], const uint64_t a[4], const uint64_t b[4])
{
	int i, j;

	for (i = 0; i < 8; i++)
		t[i] = 0;
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		uint64_t c = 0;

#pragma GCC unroll 4
		for (j = 0; j < 4; j++) {
			u128 acc = (u128)a[j] * b[i] + t[i + j] + c;

			t[i + j] = (uint64_t)acc;
			c = (uint64_t)(acc >> 64);
		}
		t[i + 4] = c;
	}
}

/* r = a b / 2^256 mod L for a < 2^256 and b < L: r < L. */
static void
montmul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
    uint64_t t[9])
{
	mul256(t, a, b);
	redc(r, t); /* t < 2^256 L: already below L */
}

static void
load(uint64_t *r, const uint8_t *s, int nlimbs)
{
	int i;

	for (i = 0; i < nlimbs; i++)
		r[i] = vg_load_le64(s + 8 * i);
}

static void
store(uint8_t *s, const uint64_t a[4])
{
	int i;

	for (i = 0; i < 4; i++)
		vg_store_le64(s + 8 * i, a[i]);
}

/* r = (a + b) mod L for a, b < L. */
static void
add_mod(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
    uint64_t t[4])
{
	uint64_t c = 0;
	int i;

	for (i = 0; i < 4; i++) {
		u128 s = (u128)a[i] + b[i] + c;

		t[i] = (uint64_t)s;
		c = (uint64_t)(s >> 64);
	}
	cond_sub_l(r, t, c);
}

/* r = in rr / 2^256 mod L for the 64-byte in: rr = R^2 gives in mod L,
 * rr = R^3 gives in 2^256 mod L (Montgomery form). */
static void
reduce64(uint64_t r[4], const uint8_t in[64], const uint64_t rr[4],
    struct sc_scratch *w)
{
	load(w->t, in, 8);
	redc(w->x, w->t);             /* in / R, below 2^256 */
	montmul(r, w->x, rr, w->t);   /* in R^-1 rr R^-1 */
}

/* see crypto/c25519_int.h */
void
vg_sc25519_reduce64(uint8_t out[32], const uint8_t in[64])
{
	struct sc_scratch w;

	reduce64(w.y, in, R2, &w);
	store(out, w.y);
	vg_wipe(&w, sizeof(w));
}

/* see crypto/c25519_int.h */
void
vg_sc25519_muladd64(uint8_t s[32], const uint8_t r[32], const uint8_t h[64],
    const uint8_t a[32])
{
	struct sc_scratch w;

	reduce64(w.z, h, R3, &w);     /* k R, k = h mod L */
	load(w.y, a, 4);
	montmul(w.z, w.y, w.z, w.t);  /* k a */
	load(w.x, r, 4);
	add_mod(w.z, w.z, w.x, w.y);
	store(s, w.z);
	vg_wipe(&w, sizeof(w));
}

/* see crypto/c25519_int.h */
uint64_t
vg_sc25519_is_canonical(const uint8_t s[32])
{
	uint64_t a[4], borrow = 0;
	int i;

	load(a, s, 4);
	for (i = 0; i < 4; i++) {
		u128 d = (u128)a[i] - L[i] - borrow;

		borrow = (uint64_t)(d >> 64) & 1;
	}
	return borrow; /* s - L < 0 */
}
