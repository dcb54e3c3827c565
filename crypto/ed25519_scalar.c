/*
 * Scalars modulo L = 2^252 + 27742317777372353535851937790883648493, the
 * order of the Ed25519 base point: Montgomery multiplication with R = 2^256
 * on 4 64-bit limbs, which also reduces 512-bit hashes. Constant time.
 */
#include "config.h"

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
static const uint64_t ONE[4] = { 1, 0, 0, 0 };

/* r = a - L if that does not borrow, else a (a < 2^256 + top * 2^256). */
static void
cond_sub_l(uint64_t r[4], const uint64_t a[4], uint64_t top)
{
	uint64_t t[4], borrow = 0, keep;
	int i;

	for (i = 0; i < 4; i++) {
		u128 d = (u128)a[i] - L[i] - borrow;

		t[i] = (uint64_t)d;
		borrow = (uint64_t)(d >> 64) & 1;
	}
	/* keep a when a - L borrowed past the top limb */
	keep = 0 - (vg_ct_barrier64(borrow & (top ^ 1)));
	for (i = 0; i < 4; i++)
		r[i] = vg_ct_select64(keep, a[i], t[i]);
}

/* r = a b / 2^256 mod L for a b < L 2^256: r < L. */
static void
montmul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	uint64_t t[6] = { 0 }, m, c;
	int i, j;

	for (i = 0; i < 4; i++) {
		u128 acc;

		c = 0;
		for (j = 0; j < 4; j++) {
			acc = (u128)a[j] * b[i] + t[j] + c;
			t[j] = (uint64_t)acc;
			c = (uint64_t)(acc >> 64);
		}
		acc = (u128)t[4] + c;
		t[4] = (uint64_t)acc;
		t[5] = (uint64_t)(acc >> 64);

		m = t[0] * N0;
		acc = (u128)m * L[0] + t[0];
		c = (uint64_t)(acc >> 64);
		for (j = 1; j < 4; j++) {
			acc = (u128)m * L[j] + t[j] + c;
			t[j - 1] = (uint64_t)acc;
			c = (uint64_t)(acc >> 64);
		}
		acc = (u128)t[4] + c;
		t[3] = (uint64_t)acc;
		t[4] = t[5] + (uint64_t)(acc >> 64);
	}
	cond_sub_l(r, t, t[4]);
	vg_wipe(t, sizeof(t));
}

static void
load(uint64_t r[4], const uint8_t *s)
{
	int i, j;

	for (i = 0; i < 4; i++) {
		r[i] = 0;
		for (j = 7; j >= 0; j--)
			r[i] = (r[i] << 8) | s[8 * i + j];
	}
}

static void
store(uint8_t *s, const uint64_t a[4])
{
	int i;

	for (i = 0; i < 32; i++)
		s[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
}

/* r = (a + b) mod L for a, b < L. */
static void
add_mod(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	uint64_t t[4], c = 0;
	int i;

	for (i = 0; i < 4; i++) {
		u128 s = (u128)a[i] + b[i] + c;

		t[i] = (uint64_t)s;
		c = (uint64_t)(s >> 64);
	}
	cond_sub_l(r, t, c);
	vg_wipe(t, sizeof(t));
}

/* see crypto/c25519_int.h */
void
vg_sc25519_reduce64(uint8_t out[32], const uint8_t in[64])
{
	uint64_t lo[4], hi[4], a[4], b[4];

	load(lo, in);
	load(hi, in + 32);
	montmul(a, lo, R2);  /* lo R */
	montmul(b, hi, R3);  /* hi R^2 */
	add_mod(a, a, b);    /* (lo + hi 2^256) R */
	montmul(a, a, ONE);
	store(out, a);
	vg_wipe(lo, sizeof(lo));
	vg_wipe(hi, sizeof(hi));
	vg_wipe(a, sizeof(a));
	vg_wipe(b, sizeof(b));
}

/* see crypto/c25519_int.h */
void
vg_sc25519_muladd(uint8_t s[32], const uint8_t r[32], const uint8_t k[32],
    const uint8_t a[32])
{
	uint64_t rr[4], kk[4], aa[4], t[4];

	load(rr, r);
	load(kk, k);
	load(aa, a);
	montmul(t, kk, aa);  /* k a / R */
	montmul(t, t, R2);   /* k a */
	add_mod(t, t, rr);
	store(s, t);
	vg_wipe(rr, sizeof(rr));
	vg_wipe(kk, sizeof(kk));
	vg_wipe(aa, sizeof(aa));
	vg_wipe(t, sizeof(t));
}

/* see crypto/c25519_int.h */
uint64_t
vg_sc25519_is_canonical(const uint8_t s[32])
{
	uint64_t a[4], borrow = 0;
	int i;

	load(a, s);
	for (i = 0; i < 4; i++) {
		u128 d = (u128)a[i] - L[i] - borrow;

		borrow = (uint64_t)(d >> 64) & 1;
	}
	return borrow; /* s - L < 0 */
}
