/*
 * Points of edwards25519 (-x^2 + y^2 = 1 + d x^2 y^2) in extended
 * coordinates [HWCD08 §3.1, a = -1], their encoding [RFC 8032 §5.1.2-3]
 * and the variable-time double-scalar multiplication of verification (the
 * portable twin of the ADX kernel, crypto/c25519_kernels.h).
 */
#include "config.h"

#include <string.h>

#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/ct.h"

/* see crypto/c25519_int.h */
const struct vg_ge25519 vg_ed25519_base = {
	.X = { 0x62d608f25d51a, 0x412a4b4f6592a, 0x75b7171a4b31d,
	    0x1ff60527118fe, 0x216936d3cd6e5 },
	.Y = { 0x6666666666658, 0x4cccccccccccc, 0x1999999999999,
	    0x3333333333333, 0x6666666666666 },
	.Z = { 1, 0, 0, 0, 0 },
	.T = { 0x68ab3a5b7dda3, 0x00eea2a5eadbb, 0x2af8df483c27e,
	    0x332b375274732, 0x67875f0fd78b7 },
};

/* see crypto/c25519_int.h */
void
vg_ge25519_identity(struct vg_ge25519 *r)
{
	vg_fe25519_0(r->X);
	vg_fe25519_1(r->Y);
	vg_fe25519_1(r->Z);
	vg_fe25519_0(r->T);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_to_cached(struct vg_ge25519_cached *r, const struct vg_ge25519 *p)
{
	vg_fe25519_add(r->YpX, p->Y, p->X);
	vg_fe25519_sub(r->YmX, p->Y, p->X);
	vg_fe25519_copy(r->Z, p->Z);
	vg_fe25519_mul(r->T2d, p->T, vg_fe25519_d2);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_p1p1_to_p3(struct vg_ge25519 *r, const struct vg_ge25519_p1p1 *p)
{
	vg_fe25519_mul(r->X, p->X, p->T);
	vg_fe25519_mul(r->Y, p->Y, p->Z);
	vg_fe25519_mul(r->Z, p->Z, p->T);
	vg_fe25519_mul(r->T, p->X, p->Y);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_p1p1_to_p2(struct vg_ge25519 *r, const struct vg_ge25519_p1p1 *p)
{
	vg_fe25519_mul(r->X, p->X, p->T);
	vg_fe25519_mul(r->Y, p->Y, p->Z);
	vg_fe25519_mul(r->Z, p->Z, p->T);
}

/*
 * The completed sum from A = (Y1 + X1)(Y2 + X2), B = (Y1 - X1)(Y2 - X2),
 * C = T1 * 2d T2 and D = 2 Z1 Z2: X = A - B, Y = A + B, Z = D + C,
 * T = D - C (sign = 0), or with C negated (sign = 1, subtraction, the
 * caller having swapped Y2 + X2 and Y2 - X2).
 */
static void
add_finish(struct vg_ge25519_p1p1 *r, const vg_fe25519 a, const vg_fe25519 b,
    const vg_fe25519 c, const vg_fe25519 d, int sub)
{
	vg_fe25519_sub(r->X, a, b);
	vg_fe25519_add(r->Y, a, b);
	if (sub) {
		vg_fe25519_sub(r->Z, d, c);
		vg_fe25519_add(r->T, d, c);
	} else {
		vg_fe25519_add(r->Z, d, c);
		vg_fe25519_sub(r->T, d, c);
	}
}

static void
add_cached(struct vg_ge25519_p1p1 *r, const struct vg_ge25519 *p,
    const struct vg_ge25519_cached *q, int sub)
{
	vg_fe25519 a, b, c, d;

	vg_fe25519_add(a, p->Y, p->X);
	vg_fe25519_sub(b, p->Y, p->X);
	vg_fe25519_mul(a, a, sub ? q->YmX : q->YpX);
	vg_fe25519_mul(b, b, sub ? q->YpX : q->YmX);
	vg_fe25519_mul(c, p->T, q->T2d);
	vg_fe25519_mul(d, p->Z, q->Z);
	vg_fe25519_add(d, d, d);
	add_finish(r, a, b, c, d, sub);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_add(struct vg_ge25519 *r, const struct vg_ge25519 *p,
    const struct vg_ge25519_cached *q)
{
	struct vg_ge25519_p1p1 t;

	add_cached(&t, p, q, 0);
	vg_ge25519_p1p1_to_p3(r, &t);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_sub(struct vg_ge25519 *r, const struct vg_ge25519 *p,
    const struct vg_ge25519_cached *q)
{
	struct vg_ge25519_p1p1 t;

	add_cached(&t, p, q, 1);
	vg_ge25519_p1p1_to_p3(r, &t);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_madd(struct vg_ge25519_p1p1 *r, const struct vg_ge25519 *p,
    const struct vg_ge25519_niels *q)
{
	vg_fe25519 a, b, c, d;

	vg_fe25519_add(a, p->Y, p->X);
	vg_fe25519_sub(b, p->Y, p->X);
	vg_fe25519_mul(a, a, q->YpX);
	vg_fe25519_mul(b, b, q->YmX);
	vg_fe25519_mul(c, p->T, q->T2d);
	vg_fe25519_add(d, p->Z, p->Z);
	add_finish(r, a, b, c, d, 0);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_dbl(struct vg_ge25519_p1p1 *r, const struct vg_ge25519 *p)
{
	vg_fe25519 a, b, c, e;

	vg_fe25519_sqr(a, p->X);          /* X^2 */
	vg_fe25519_sqr(b, p->Y);          /* Y^2 */
	vg_fe25519_sqr(c, p->Z);
	vg_fe25519_add(c, c, c);          /* 2 Z^2 */
	vg_fe25519_add(e, p->X, p->Y);
	vg_fe25519_sqr(e, e);             /* (X + Y)^2 */
	vg_fe25519_add(r->Y, b, a);       /* Y^2 + X^2 */
	vg_fe25519_sub(r->Z, b, a);       /* Y^2 - X^2 */
	vg_fe25519_sub(r->X, e, r->Y);    /* 2XY */
	vg_fe25519_sub(r->T, c, r->Z);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_tobytes(uint8_t s[32], const struct vg_ge25519 *p)
{
	vg_fe25519 zi, x, y;

	vg_fe25519_invert(zi, p->Z);
	vg_fe25519_mul(x, p->X, zi);
	vg_fe25519_mul(y, p->Y, zi);
	vg_fe25519_tobytes(s, y);
	s[31] |= (uint8_t)(vg_fe25519_isodd(x) << 7);
	vg_wipe(zi, sizeof(zi));
	vg_wipe(x, sizeof(x));
	vg_wipe(y, sizeof(y));
}

/* see crypto/c25519_int.h */
int
vg_ge25519_frombytes(struct vg_ge25519 *r, const uint8_t s[32])
{
	vg_fe25519 u, v, v3, vxx, chk;
	uint8_t y[32];
	unsigned sign = s[31] >> 7;

	vg_fe25519_frombytes(r->Y, s);
	vg_fe25519_tobytes(y, r->Y);
	y[31] |= (uint8_t)(sign << 7);
	if (memcmp(y, s, 32) != 0)
		return -1; /* y >= p */
	vg_fe25519_1(r->Z);
	vg_fe25519_sqr(u, r->Y);
	vg_fe25519_mul(v, u, vg_fe25519_d);
	vg_fe25519_sub(u, u, r->Z);       /* u = y^2 - 1 */
	vg_fe25519_add(v, v, r->Z);       /* v = d y^2 + 1 */

	/* x = u v^3 (u v^7)^((p-5)/8) [RFC 8032 §5.1.3 step 2] */
	vg_fe25519_sqr(v3, v);
	vg_fe25519_mul(v3, v3, v);
	vg_fe25519_sqr(r->X, v3);
	vg_fe25519_mul(r->X, r->X, v);
	vg_fe25519_mul(r->X, r->X, u);
	vg_fe25519_pow22523(r->X, r->X);
	vg_fe25519_mul(r->X, r->X, v3);
	vg_fe25519_mul(r->X, r->X, u);

	vg_fe25519_sqr(vxx, r->X);
	vg_fe25519_mul(vxx, vxx, v);
	vg_fe25519_sub(chk, vxx, u);
	if (!vg_fe25519_iszero(chk)) {
		vg_fe25519_add(chk, vxx, u);
		if (!vg_fe25519_iszero(chk))
			return -1; /* not a square: no such x */
		vg_fe25519_mul(r->X, r->X, vg_fe25519_sqrtm1);
	}
	if (vg_fe25519_iszero(r->X) && sign)
		return -1;
	if (vg_fe25519_isodd(r->X) != sign)
		vg_fe25519_neg(r->X, r->X);
	vg_fe25519_mul(r->T, r->X, r->Y);
	return 0;
}

/* see crypto/c25519_int.h */
void
vg_sc25519_slide_vartime(int8_t r[256], const uint8_t a[32], int w)
{
	int i, b, k, max = (1 << (w - 1)) - 1;

	for (i = 0; i < 256; i++)
		r[i] = (int8_t)(1 & (a[i >> 3] >> (i & 7)));
	for (i = 0; i < 256; i++) {
		if (r[i] == 0)
			continue;
		for (b = 1; b <= w + 1 && i + b < 256; b++) {
			if (r[i + b] == 0)
				continue;
			if (r[i] + (r[i + b] << b) <= max) {
				r[i] = (int8_t)(r[i] + (r[i + b] << b));
				r[i + b] = 0;
			} else if (r[i] - (r[i + b] << b) >= -max) {
				r[i] = (int8_t)(r[i] - (r[i + b] << b));
				for (k = i + b; k < 256; k++) {
					if (r[k] == 0) {
						r[k] = 1;
						break;
					}
					r[k] = 0;
				}
			} else {
				break;
			}
		}
	}
}

/* The odd multiples P, 3P, ..., 15P. */
static void
odd_multiples(struct vg_ge25519_cached t[8], const struct vg_ge25519 *p)
{
	struct vg_ge25519_p1p1 d;
	struct vg_ge25519 p2, acc;
	int i;

	vg_ge25519_dbl(&d, p);
	vg_ge25519_p1p1_to_p3(&p2, &d);
	vg_ge25519_to_cached(&t[0], p);
	acc = *p;
	for (i = 1; i < 8; i++) {
		struct vg_ge25519_cached c2;

		vg_ge25519_to_cached(&c2, &p2);
		vg_ge25519_add(&acc, &acc, &c2);
		vg_ge25519_to_cached(&t[i], &acc);
	}
}

/* see crypto/c25519_kernels.h */
void
vg_ge25519_double_scalarmult_vartime_c(struct vg_ge25519 *r,
    const uint8_t a[32], const struct vg_ge25519 *A, const uint8_t b[32])
{
	int8_t as[256], bs[256];
	struct vg_ge25519_cached ta[8], tb[8];
	struct vg_ge25519_p1p1 t;
	int i;

	vg_sc25519_slide_vartime(as, a, 5);
	vg_sc25519_slide_vartime(bs, b, 5);
	odd_multiples(ta, A);
	odd_multiples(tb, &vg_ed25519_base);
	vg_ge25519_identity(r);
	for (i = 255; i >= 0 && as[i] == 0 && bs[i] == 0; i--)
		;
	for (; i >= 0; i--) {
		vg_ge25519_dbl(&t, r);
		vg_ge25519_p1p1_to_p3(r, &t);
		if (as[i] > 0)
			vg_ge25519_add(r, r, &ta[as[i] / 2]);
		else if (as[i] < 0)
			vg_ge25519_sub(r, r, &ta[-as[i] / 2]);
		if (bs[i] > 0)
			vg_ge25519_add(r, r, &tb[bs[i] / 2]);
		else if (bs[i] < 0)
			vg_ge25519_sub(r, r, &tb[-bs[i] / 2]);
	}
}
