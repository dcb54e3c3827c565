/*
 * GF(2^255 - 19) in radix 2^51 with 64x64->128-bit products (portable C).
 * See crypto/c25519_int.h for the limb bounds of each function.
 */
#include "config.h"

#include <string.h>

#include "crypto/bytes.h"
#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/ct.h"

/* see crypto/c25519_int.h */
const vg_fe25519 vg_fe25519_d = { 0x34dca135978a3, 0x1a8283b156ebd,
	0x5e7a26001c029, 0x739c663a03cbb, 0x52036cee2b6ff };
/* see crypto/c25519_int.h */
const vg_fe25519 vg_fe25519_d2 = { 0x69b9426b2f159, 0x35050762add7a,
	0x3cf44c0038052, 0x6738cc7407977, 0x2406d9dc56dff };
/* see crypto/c25519_int.h */
const vg_fe25519 vg_fe25519_sqrtm1 = { 0x61b274a0ea0b0, 0xd5a5fc8f189d,
	0x7ef5e9cbd0c60, 0x78595a6804c9e, 0x2b8324804fc1d };

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
vg_fe25519_frombytes(vg_fe25519 h, const uint8_t s[32])
{
	uint64_t w0 = vg_load_le64(s), w1 = vg_load_le64(s + 8);
	uint64_t w2 = vg_load_le64(s + 16), w3 = vg_load_le64(s + 24);

	h[0] = w0 & VG_FE25519_M51;
	h[1] = ((w0 >> 51) | (w1 << 13)) & VG_FE25519_M51;
	h[2] = ((w1 >> 38) | (w2 << 26)) & VG_FE25519_M51;
	h[3] = ((w2 >> 25) | (w3 << 39)) & VG_FE25519_M51;
	h[4] = (w3 >> 12) & VG_FE25519_M51;
}

/* see crypto/c25519_kernels.h: bit 255 is worth 19, folded twice (the
 * second fold only when the first carried into bit 255 again), then p
 * subtracted when r + 19 reaches 2^255. */
void
vg_fe25519_reduce64(uint64_t r[4], const uint64_t a[4])
{
	unsigned __int128 acc;
	uint64_t t[4], u[4], m;
	int i, k;

	for (i = 0; i < 4; i++)
		t[i] = a[i];
	for (k = 0; k < 2; k++) {
		acc = 19 * (t[3] >> 63);
		t[3] &= 0x7fffffffffffffffULL;
		for (i = 0; i < 4; i++) {
			acc += t[i];
			t[i] = (uint64_t)acc;
			acc >>= 64;
		}
	}
	acc = 19;
	for (i = 0; i < 4; i++) {
		acc += t[i];
		u[i] = (uint64_t)acc;
		acc >>= 64;
	}
	m = 0 - vg_ct_barrier64(u[3] >> 63);
	u[3] &= 0x7fffffffffffffffULL;
	for (i = 0; i < 4; i++)
		r[i] = vg_ct_select64(m, u[i], t[i]);
	vg_wipe(t, sizeof(t));
	vg_wipe(u, sizeof(u));
}

/* see crypto/c25519_int.h */
void
vg_fe25519_to64(uint64_t w[4], const vg_fe25519 f)
{
	vg_fe25519 h;
	uint64_t q;

	vg_fe25519_copy(h, f);
	vg_fe25519_carry(h);
	vg_fe25519_carry(h); /* now h < 2^255 + small, limbs < 2^51 */
	/* q = 1 iff h >= p: the carry out of h + 19. */
	q = (h[0] + 19) >> 51;
	q = (h[1] + q) >> 51;
	q = (h[2] + q) >> 51;
	q = (h[3] + q) >> 51;
	q = (h[4] + q) >> 51;
	h[0] += 19 * q;
	h[1] += h[0] >> 51; h[0] &= VG_FE25519_M51;
	h[2] += h[1] >> 51; h[1] &= VG_FE25519_M51;
	h[3] += h[2] >> 51; h[2] &= VG_FE25519_M51;
	h[4] += h[3] >> 51; h[3] &= VG_FE25519_M51;
	h[4] &= VG_FE25519_M51;
	w[0] = h[0] | (h[1] << 51);
	w[1] = (h[1] >> 13) | (h[2] << 38);
	w[2] = (h[2] >> 26) | (h[3] << 25);
	w[3] = (h[3] >> 39) | (h[4] << 12);
	vg_wipe(h, sizeof(h));
}

/* see crypto/c25519_int.h */
void
vg_fe25519_from64(vg_fe25519 h, const uint64_t w[4])
{
	h[0] = w[0] & VG_FE25519_M51;
	h[1] = ((w[0] >> 51) | (w[1] << 13)) & VG_FE25519_M51;
	h[2] = ((w[1] >> 38) | (w[2] << 26)) & VG_FE25519_M51;
	h[3] = ((w[2] >> 25) | (w[3] << 39)) & VG_FE25519_M51;
	h[4] = w[3] >> 12;
}

/* see crypto/c25519_int.h */
void
vg_fe25519_tobytes(uint8_t s[32], const vg_fe25519 f)
{
	uint64_t w[4];
	int i;

	vg_fe25519_to64(w, f);
	for (i = 0; i < 32; i++)
		s[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
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
