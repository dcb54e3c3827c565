/*
 * P-256 field arithmetic modulo p = 2^256 - 2^224 + 2^192 + 2^96 - 1 in
 * Montgomery form: the constants, the portable multiplication kernels and
 * the square root by a fixed addition chain (the inversion is in
 * crypto/p256_inv.c).
 * Multiplications go through the kernel table passed in (k->mul, k->sqr).
 */
#include "config.h"

#include "crypto/p256_int.h"

const uint64_t vg_p256_p[4] = {
	0xffffffffffffffffULL, 0x00000000ffffffffULL,
	0x0000000000000000ULL, 0xffffffff00000001ULL,
};
const uint64_t vg_p256_one[4] = {
	0x0000000000000001ULL, 0xffffffff00000000ULL,
	0xffffffffffffffffULL, 0x00000000fffffffeULL,
};
const uint64_t vg_p256_rr[4] = {
	0x0000000000000003ULL, 0xfffffffbffffffffULL,
	0xfffffffffffffffeULL, 0x00000004fffffffdULL,
};
const uint64_t vg_p256_b[4] = {
	0xd89cdf6229c4bddfULL, 0xacf005cd78843090ULL,
	0xe5a220abf7212ed6ULL, 0xdc30061d04874834ULL,
};
const uint64_t vg_p256_gx[4] = {
	0x79e730d418a9143cULL, 0x75ba95fc5fedb601ULL,
	0x79fb732b77622510ULL, 0x18905f76a53755c6ULL,
};
const uint64_t vg_p256_gy[4] = {
	0xddf25357ce95560aULL, 0x8b4ab8e4ba19e45cULL,
	0xd2e88688dd21f325ULL, 0x8571ff1825885d85ULL,
};

/* see crypto/p256_kernels.h */
void
vg_p256_mul_c(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	/* -p^-1 mod 2^64 = 1 */
	vg_p256_montmul_generic(r, a, b, vg_p256_p, 1);
}

/* see crypto/p256_kernels.h */
void
vg_p256_sqr_c(uint64_t r[4], const uint64_t a[4])
{
	vg_p256_montmul_generic(r, a, a, vg_p256_p, 1);
}

/* see crypto/p256_kernels.h */
void
vg_p256_sqr_n_c(uint64_t r[4], const uint64_t a[4], unsigned n)
{
	vg_p256_montmul_generic(r, a, a, vg_p256_p, 1);
	while (--n > 0)
		vg_p256_montmul_generic(r, r, r, vg_p256_p, 1);
}

/* see crypto/p256_int.h */
void
vg_p256_from_be(uint64_t r[4], const uint8_t in[32])
{
	int i, j;

	for (i = 0; i < 4; i++) {
		uint64_t w = 0;

		for (j = 0; j < 8; j++)
			w = (w << 8) | in[(3 - i) * 8 + j];
		r[i] = w;
	}
}

/* see crypto/p256_int.h */
void
vg_p256_to_be(uint8_t out[32], const uint64_t a[4])
{
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 8; j++)
			out[(3 - i) * 8 + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

/* see crypto/p256_int.h */
void
vg_p256_fe_half(uint64_t r[4], const uint64_t a[4])
{
	uint64_t t[4], pm[4], odd, c;

	/* a odd: (a + p) / 2, computed on 257 bits; else a / 2 */
	odd = 0 - (a[0] & 1);
	pm[0] = vg_p256_p[0] & odd;
	pm[1] = vg_p256_p[1] & odd;
	pm[2] = vg_p256_p[2] & odd;
	pm[3] = vg_p256_p[3] & odd;
	c = vg_p256_add4(t, a, pm);
	r[0] = (t[0] >> 1) | (t[1] << 63);
	r[1] = (t[1] >> 1) | (t[2] << 63);
	r[2] = (t[2] >> 1) | (t[3] << 63);
	r[3] = (t[3] >> 1) | (c << 63);
}

/* r = a^(2^n) */
static void
sqr_n(const struct vg_p256_kernels *k, uint64_t r[4], const uint64_t a[4],
    unsigned n)
{
	k->sqr_n(r, a, n);
}

/* x32 = a^(2^32 - 1), with x2 = a^3 and x30 = a^(2^30 - 1) on the way. */
static void
pow_x32(const struct vg_p256_kernels *k, uint64_t x32[4], uint64_t x2[4],
    uint64_t x30[4], const uint64_t a[4])
{
	uint64_t x3[4], x6[4], x12[4], x15[4], t[4];

	k->sqr(x2, a);
	k->mul(x2, x2, a);          /* 2^2 - 1 */
	k->sqr(x3, x2);
	k->mul(x3, x3, a);          /* 2^3 - 1 */
	sqr_n(k, t, x3, 3);
	k->mul(x6, t, x3);          /* 2^6 - 1 */
	sqr_n(k, t, x6, 6);
	k->mul(x12, t, x6);         /* 2^12 - 1 */
	sqr_n(k, t, x12, 3);
	k->mul(x15, t, x3);         /* 2^15 - 1 */
	sqr_n(k, t, x15, 15);
	k->mul(x30, t, x15);        /* 2^30 - 1 */
	sqr_n(k, t, x30, 2);
	k->mul(x32, t, x2);         /* 2^32 - 1 */
	vg_wipe(x3, sizeof(x3));
	vg_wipe(x6, sizeof(x6));
	vg_wipe(x12, sizeof(x12));
	vg_wipe(x15, sizeof(x15));
	vg_wipe(t, sizeof(t));
}

/*
 * see crypto/p256_int.h
 * (p + 1) / 4 = 2^254 - 2^222 + 2^190 + 2^94: 32 ones (bits 253..222),
 * a one at bit 190 and at bit 94.
 */
uint64_t
vg_p256_fe_sqrt(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4])
{
	uint64_t x2[4], x30[4], x32[4], t[4], ok;

	pow_x32(k, x32, x2, x30, a);
	sqr_n(k, t, x32, 32);
	k->mul(t, t, a);
	sqr_n(k, t, t, 96);
	k->mul(t, t, a);
	sqr_n(k, r, t, 94);
	k->sqr(t, r);
	ok = vg_p256_eq4_mask(t, a);
	vg_wipe(x2, sizeof(x2));
	vg_wipe(x30, sizeof(x30));
	vg_wipe(x32, sizeof(x32));
	vg_wipe(t, sizeof(t));
	return ok;
}

/* see crypto/p256_int.h */
uint64_t
vg_p256_fe_from_bytes(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint8_t in[32])
{
	uint64_t a[4], ok;

	vg_p256_from_be(a, in);
	ok = vg_p256_lt4_mask(a, vg_p256_p);
	k->mul(r, a, vg_p256_rr);
	vg_wipe(a, sizeof(a));
	return ok;
}

/* see crypto/p256_int.h */
void
vg_p256_fe_to_bytes(const struct vg_p256_kernels *k, uint8_t out[32],
    const uint64_t a[4])
{
	static const uint64_t one[4] = { 1, 0, 0, 0 };
	uint64_t t[4];

	k->mul(t, a, one);
	vg_p256_to_be(out, t);
	vg_wipe(t, sizeof(t));
}

/* see crypto/p256_int.h */
void
vg_p256_curve_rhs(const struct vg_p256_kernels *k, uint64_t rhs[4],
    const uint64_t x[4])
{
	uint64_t t[4], x3[4];

	k->sqr(t, x);
	k->mul(t, t, x);                /* x^3 */
	vg_p256_fe_add(x3, x, x);
	vg_p256_fe_add(x3, x3, x);      /* 3x */
	vg_p256_fe_sub(t, t, x3);
	vg_p256_fe_add(rhs, t, vg_p256_b);
	vg_wipe(t, sizeof(t));
	vg_wipe(x3, sizeof(x3));
}
