/*
 * GF(2^255 - 19) in radix 2^51 with 64x64->128-bit products (portable C).
 * See crypto/c25519_int.h for the limb bounds of each function.
 */
#include "config.h"

#include <string.h>

#include "crypto/c25519_int.h"
#include "crypto/ct.h"

typedef unsigned __int128 u128;

#define M51 ((uint64_t)0x7ffffffffffff)

/* see crypto/c25519_int.h */
const vg_fe25519 vg_fe25519_d = { 0x34dca135978a3, 0x1a8283b156ebd,
	0x5e7a26001c029, 0x739c663a03cbb, 0x52036cee2b6ff };
/* see crypto/c25519_int.h */
const vg_fe25519 vg_fe25519_d2 = { 0x69b9426b2f159, 0x35050762add7a,
	0x3cf44c0038052, 0x6738cc7407977, 0x2406d9dc56dff };
/* see crypto/c25519_int.h */
const vg_fe25519 vg_fe25519_sqrtm1 = { 0x61b274a0ea0b0, 0xd5a5fc8f189d,
	0x7ef5e9cbd0c60, 0x78595a6804c9e, 0x2b8324804fc1d };

/* see crypto/c25519_int.h */
void
vg_fe25519_0(vg_fe25519 h)
{
	h[0] = h[1] = h[2] = h[3] = h[4] = 0;
}

/* see crypto/c25519_int.h */
void
vg_fe25519_1(vg_fe25519 h)
{
	h[0] = 1;
	h[1] = h[2] = h[3] = h[4] = 0;
}

/* see crypto/c25519_int.h */
void
vg_fe25519_copy(vg_fe25519 h, const vg_fe25519 f)
{
	memmove(h, f, sizeof(vg_fe25519));
}

/* see crypto/c25519_int.h */
void
vg_fe25519_add(vg_fe25519 h, const vg_fe25519 f, const vg_fe25519 g)
{
	int i;

	for (i = 0; i < 5; i++)
		h[i] = f[i] + g[i];
}

/* One carry pass: limbs < 2^64 in, tight out. */
static inline void
carry(vg_fe25519 h)
{
	uint64_t c;

	c = h[0] >> 51; h[0] &= M51; h[1] += c;
	c = h[1] >> 51; h[1] &= M51; h[2] += c;
	c = h[2] >> 51; h[2] &= M51; h[3] += c;
	c = h[3] >> 51; h[3] &= M51; h[4] += c;
	c = h[4] >> 51; h[4] &= M51; h[0] += 19 * c;
	c = h[0] >> 51; h[0] &= M51; h[1] += c;
}

/* see crypto/c25519_int.h */
void
vg_fe25519_sub(vg_fe25519 h, const vg_fe25519 f, const vg_fe25519 g)
{
	/* 4p limb by limb, so that no limb goes negative for g < 2^53. */
	h[0] = f[0] + 0x1fffffffffffb4 - g[0];
	h[1] = f[1] + 0x1ffffffffffffc - g[1];
	h[2] = f[2] + 0x1ffffffffffffc - g[2];
	h[3] = f[3] + 0x1ffffffffffffc - g[3];
	h[4] = f[4] + 0x1ffffffffffffc - g[4];
	carry(h);
}

/* see crypto/c25519_int.h */
void
vg_fe25519_neg(vg_fe25519 h, const vg_fe25519 f)
{
	vg_fe25519 z;

	vg_fe25519_0(z);
	vg_fe25519_sub(h, z, f);
}

/* Carries five 128-bit column sums into a tight element. */
static inline void
reduce128(vg_fe25519 h, u128 r0, u128 r1, u128 r2, u128 r3, u128 r4)
{
	uint64_t c;

	r1 += (uint64_t)(r0 >> 51);
	r2 += (uint64_t)(r1 >> 51);
	r3 += (uint64_t)(r2 >> 51);
	r4 += (uint64_t)(r3 >> 51);
	c = (uint64_t)(r4 >> 51);
	h[0] = ((uint64_t)r0 & M51) + 19 * c;
	h[1] = (uint64_t)r1 & M51;
	h[2] = (uint64_t)r2 & M51;
	h[3] = (uint64_t)r3 & M51;
	h[4] = (uint64_t)r4 & M51;
	h[1] += h[0] >> 51;
	h[0] &= M51;
}

/* see crypto/c25519_int.h */
void
vg_fe25519_mul(vg_fe25519 h, const vg_fe25519 f, const vg_fe25519 g)
{
	uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
	uint64_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4];
	uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3;
	uint64_t g4_19 = 19 * g4;
	u128 r0, r1, r2, r3, r4;

	r0 = (u128)f0 * g0 + (u128)f1 * g4_19 + (u128)f2 * g3_19 +
	    (u128)f3 * g2_19 + (u128)f4 * g1_19;
	r1 = (u128)f0 * g1 + (u128)f1 * g0 + (u128)f2 * g4_19 +
	    (u128)f3 * g3_19 + (u128)f4 * g2_19;
	r2 = (u128)f0 * g2 + (u128)f1 * g1 + (u128)f2 * g0 +
	    (u128)f3 * g4_19 + (u128)f4 * g3_19;
	r3 = (u128)f0 * g3 + (u128)f1 * g2 + (u128)f2 * g1 +
	    (u128)f3 * g0 + (u128)f4 * g4_19;
	r4 = (u128)f0 * g4 + (u128)f1 * g3 + (u128)f2 * g2 +
	    (u128)f3 * g1 + (u128)f4 * g0;
	reduce128(h, r0, r1, r2, r3, r4);
}

/* see crypto/c25519_int.h */
void
vg_fe25519_sqr(vg_fe25519 h, const vg_fe25519 f)
{
	uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
	uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
	uint64_t f1_38 = 38 * f1, f2_38 = 38 * f2, f3_38 = 38 * f3;
	uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
	u128 r0, r1, r2, r3, r4;

	r0 = (u128)f0 * f0 + (u128)f1_38 * f4 + (u128)f2_38 * f3;
	r1 = (u128)f0_2 * f1 + (u128)f2_38 * f4 + (u128)f3_19 * f3;
	r2 = (u128)f0_2 * f2 + (u128)f1 * f1 + (u128)f3_38 * f4;
	r3 = (u128)f0_2 * f3 + (u128)f1_2 * f2 + (u128)f4_19 * f4;
	r4 = (u128)f0_2 * f4 + (u128)f1_2 * f3 + (u128)f2 * f2;
	reduce128(h, r0, r1, r2, r3, r4);
}

/* see crypto/c25519_int.h */
void
vg_fe25519_mul_small(vg_fe25519 h, const vg_fe25519 f, uint32_t c)
{
	reduce128(h, (u128)f[0] * c, (u128)f[1] * c, (u128)f[2] * c,
	    (u128)f[3] * c, (u128)f[4] * c);
}

static void
sqr_n(vg_fe25519 h, const vg_fe25519 f, unsigned n)
{
	vg_fe25519_sqr(h, f);
	while (--n > 0)
		vg_fe25519_sqr(h, h);
}

/* t = f^(2^250 - 1), and f^11 in z11 (the common head of both chains). */
static void
pow_2_250_1(vg_fe25519 t, vg_fe25519 z11, const vg_fe25519 f)
{
	vg_fe25519 z2, z9, a, b;

	vg_fe25519_sqr(z2, f);            /* 2 */
	sqr_n(a, z2, 2);                  /* 8 */
	vg_fe25519_mul(z9, a, f);         /* 9 */
	vg_fe25519_mul(z11, z9, z2);      /* 11 */
	vg_fe25519_sqr(a, z11);           /* 22 */
	vg_fe25519_mul(a, a, z9);         /* 2^5 - 1 */
	sqr_n(b, a, 5);
	vg_fe25519_mul(a, b, a);          /* 2^10 - 1 */
	sqr_n(b, a, 10);
	vg_fe25519_mul(b, b, a);          /* 2^20 - 1 */
	sqr_n(t, b, 20);
	vg_fe25519_mul(t, t, b);          /* 2^40 - 1 */
	sqr_n(t, t, 10);
	vg_fe25519_mul(a, t, a);          /* 2^50 - 1 */
	sqr_n(b, a, 50);
	vg_fe25519_mul(b, b, a);          /* 2^100 - 1 */
	sqr_n(t, b, 100);
	vg_fe25519_mul(t, t, b);          /* 2^200 - 1 */
	sqr_n(t, t, 50);
	vg_fe25519_mul(t, t, a);          /* 2^250 - 1 */
	vg_wipe(z2, sizeof(z2));
	vg_wipe(z9, sizeof(z9));
	vg_wipe(a, sizeof(a));
	vg_wipe(b, sizeof(b));
}

/* see crypto/c25519_int.h */
void
vg_fe25519_invert(vg_fe25519 h, const vg_fe25519 f)
{
	vg_fe25519 t, z11;

	pow_2_250_1(t, z11, f);
	sqr_n(t, t, 5);                   /* 2^255 - 2^5 */
	vg_fe25519_mul(h, t, z11);        /* 2^255 - 21 = p - 2 */
	vg_wipe(t, sizeof(t));
	vg_wipe(z11, sizeof(z11));
}

/* see crypto/c25519_int.h */
void
vg_fe25519_pow22523(vg_fe25519 h, const vg_fe25519 f)
{
	vg_fe25519 t, z11;

	pow_2_250_1(t, z11, f);
	sqr_n(t, t, 2);                   /* 2^252 - 4 */
	vg_fe25519_mul(h, t, f);          /* 2^252 - 3 = (p - 5) / 8 */
	vg_wipe(t, sizeof(t));
	vg_wipe(z11, sizeof(z11));
}

/* see crypto/c25519_int.h */
void
vg_fe25519_cswap(vg_fe25519 f, vg_fe25519 g, uint64_t b)
{
	uint64_t m = 0 - vg_ct_barrier64(b), x;
	int i;

	for (i = 0; i < 5; i++) {
		x = m & (f[i] ^ g[i]);
		f[i] ^= x;
		g[i] ^= x;
	}
}

/* see crypto/c25519_int.h */
void
vg_fe25519_cmov(vg_fe25519 h, const vg_fe25519 g, uint64_t b)
{
	uint64_t m = 0 - vg_ct_barrier64(b);
	int i;

	for (i = 0; i < 5; i++)
		h[i] ^= m & (h[i] ^ g[i]);
}

static uint64_t
load64(const uint8_t *s)
{
	uint64_t r = 0;
	int i;

	for (i = 7; i >= 0; i--)
		r = (r << 8) | s[i];
	return r;
}

/* see crypto/c25519_int.h */
void
vg_fe25519_frombytes(vg_fe25519 h, const uint8_t s[32])
{
	uint64_t w0 = load64(s), w1 = load64(s + 8), w2 = load64(s + 16);
	uint64_t w3 = load64(s + 24);

	h[0] = w0 & M51;
	h[1] = ((w0 >> 51) | (w1 << 13)) & M51;
	h[2] = ((w1 >> 38) | (w2 << 26)) & M51;
	h[3] = ((w2 >> 25) | (w3 << 39)) & M51;
	h[4] = (w3 >> 12) & M51;
}

/* see crypto/c25519_int.h */
void
vg_fe25519_tobytes(uint8_t s[32], const vg_fe25519 f)
{
	vg_fe25519 h;
	uint64_t q, w[4];
	int i;

	vg_fe25519_copy(h, f);
	carry(h);
	carry(h); /* now h < 2^255 + small, limbs < 2^51 */
	/* q = 1 iff h >= p: the carry out of h + 19. */
	q = (h[0] + 19) >> 51;
	q = (h[1] + q) >> 51;
	q = (h[2] + q) >> 51;
	q = (h[3] + q) >> 51;
	q = (h[4] + q) >> 51;
	h[0] += 19 * q;
	h[1] += h[0] >> 51; h[0] &= M51;
	h[2] += h[1] >> 51; h[1] &= M51;
	h[3] += h[2] >> 51; h[2] &= M51;
	h[4] += h[3] >> 51; h[3] &= M51;
	h[4] &= M51;
	w[0] = h[0] | (h[1] << 51);
	w[1] = (h[1] >> 13) | (h[2] << 38);
	w[2] = (h[2] >> 26) | (h[3] << 25);
	w[3] = (h[3] >> 39) | (h[4] << 12);
	for (i = 0; i < 32; i++)
		s[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
	vg_wipe(h, sizeof(h));
	vg_wipe(w, sizeof(w));
}

/* see crypto/c25519_int.h */
uint64_t
vg_fe25519_isodd(const vg_fe25519 f)
{
	uint8_t s[32];
	uint64_t r;

	vg_fe25519_tobytes(s, f);
	r = s[0] & 1;
	vg_wipe(s, sizeof(s));
	return r;
}

/* see crypto/c25519_int.h */
uint64_t
vg_fe25519_iszero(const vg_fe25519 f)
{
	uint8_t s[32];
	uint64_t d = 0;
	int i;

	vg_fe25519_tobytes(s, f);
	for (i = 0; i < 32; i++)
		d |= s[i];
	vg_wipe(s, sizeof(s));
	return 1 & vg_ct_zero_mask64(d);
}
