/*
 * ML-DSA's rounding functions [FIPS 204 §7.4, Alg. 35-40] and the
 * infinity-norm check: the portable twins of the kernels in
 * crypto/mldsa_kernels.h. All of them are branch-free in the coefficients;
 * they branch only on gamma2, a public parameter.
 */
#include "config.h"

#include "crypto/mldsa_int.h"

#define GAMMA2_32 ((VG_MLDSA_Q - 1) / 32)

/*
 * HighBits of 0 <= a < q [FIPS 204 Alg. 37], by multiplication instead of
 * division: ceil(a / 128) times an approximation of 128 / (2 gamma2),
 * rounded; for gamma2 = (q-1)/88 the value 44 (the wrap-around at q - 1)
 * becomes 0.
 */
static inline int32_t
highbits(int32_t a, int32_t gamma2)
{
	int32_t a1 = (a + 127) >> 7;

	if (gamma2 == GAMMA2_32) {
		a1 = (a1 * 1025 + (1 << 21)) >> 22;
		a1 &= 15;
	} else {
		a1 = (a1 * 11275 + (1 << 23)) >> 24;
		a1 ^= ((43 - a1) >> 31) & a1;
	}
	return a1;
}

/* Decompose [FIPS 204 Alg. 36] of a mod q for -q < a < q: a0 = a - a1 *
 * 2 gamma2, moved from ((q-1)/2, q) to (-q/2, 0) (the case r - r0 = q - 1
 * of the standard). */
static inline int32_t
decompose(int32_t *a0, int32_t a, int32_t gamma2)
{
	int32_t a1;

	a = vg_mldsa_caddq(a);
	a1 = highbits(a, gamma2);
	int32_t r0 = a - a1 * 2 * gamma2;

	r0 -= (((VG_MLDSA_Q - 1) / 2 - r0) >> 31) & VG_MLDSA_Q;
	*a0 = r0;
	return a1;
}

/* see crypto/mldsa_kernels.h */
void
vg_mldsa_power2round_c(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N])
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i++) {
		int32_t x = vg_mldsa_caddq(a[i]);
		int32_t t = (x + (1 << (VG_MLDSA_D - 1)) - 1) >> VG_MLDSA_D;

		a0[i] = x - (t << VG_MLDSA_D);
		a1[i] = t;
	}
}

/* see crypto/mldsa_kernels.h */
void
vg_mldsa_decompose_c(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N], int32_t gamma2)
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i++)
		a1[i] = decompose(&a0[i], a[i], gamma2);
}

/*
 * see crypto/mldsa_kernels.h
 * With the hint set, r1 moves up by one when r0 > 0 and down by one
 * otherwise, modulo m = 16 or 44 [FIPS 204 Alg. 40].
 */
void
vg_mldsa_use_hint_c(int32_t b[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t h[VG_MLDSA_N], int32_t gamma2)
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i++) {
		int32_t a0, a1, up, d;

		a1 = decompose(&a0, a[i], gamma2);
		up = (-a0) >> 31;               /* -1 if a0 > 0, else 0 */
		d = (-1 - 2 * up) & (0 - h[i]); /* +1, -1 or 0 */
		a1 += d;
		if (gamma2 == GAMMA2_32) {
			a1 &= 15;
		} else {
			a1 += (a1 >> 31) & 44;
			a1 -= ((43 - a1) >> 31) & 44;
		}
		b[i] = a1;
	}
}

/*
 * see crypto/mldsa_kernels.h
 * (bound - 1) - a and (bound - 1) + a fit in 32 bits and one of them is
 * negative exactly when |a| >= bound; their OR accumulates the sign bits.
 */
uint32_t
vg_mldsa_chknorm_c(const int32_t a[VG_MLDSA_N], int32_t bound)
{
	uint32_t acc = 0, b;
	unsigned i;

	if (bound > VG_MLDSA_Q)
		bound = VG_MLDSA_Q;
	b = (uint32_t)bound - 1;
	for (i = 0; i < VG_MLDSA_N; i++)
		acc |= (b - (uint32_t)a[i]) | (b + (uint32_t)a[i]);
	return acc >> 31;
}

/*
 * see crypto/mldsa_kernels.h
 * HighBits of r and of (r + z) mod q; their XOR is below 64, so
 * ((r1 ^ r1') + 63) >> 6 is the hint bit.
 */
unsigned
vg_mldsa_make_hint_c(int32_t h[VG_MLDSA_N], const int32_t z[VG_MLDSA_N],
    const int32_t r[VG_MLDSA_N], int32_t gamma2)
{
	unsigned i, n = 0;

	for (i = 0; i < VG_MLDSA_N; i++) {
		int32_t v = r[i] + z[i], bit;

		v += (v >> 31) & VG_MLDSA_Q;
		v -= ((VG_MLDSA_Q - 1 - v) >> 31) & VG_MLDSA_Q;
		bit = ((highbits(r[i], gamma2) ^ highbits(v, gamma2)) + 63) >> 6;
		h[i] = bit;
		n += (unsigned)bit;
	}
	return n;
}

/* see crypto/mldsa_kernels.h */
void
vg_mldsa_reduce_sum_c(int32_t c[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t b[VG_MLDSA_N], int32_t s)
{
	unsigned i;

	if (s == 0)
		for (i = 0; i < VG_MLDSA_N; i++)
			c[i] = vg_mldsa_reduce32(a[i]);
	else if (s > 0)
		for (i = 0; i < VG_MLDSA_N; i++)
			c[i] = vg_mldsa_reduce32(a[i] + b[i]);
	else
		for (i = 0; i < VG_MLDSA_N; i++)
			c[i] = vg_mldsa_reduce32(a[i] - b[i]);
}

/* see crypto/mldsa_kernels.h */
void
vg_mldsa_hint_input_c(int32_t r[VG_MLDSA_N], int32_t u[VG_MLDSA_N],
    const int32_t w1[VG_MLDSA_N], int32_t gamma2)
{
	int32_t g = 2 * gamma2;
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i++) {
		int32_t v = w1[i] * g + r[i] + u[i];

		r[i] = vg_mldsa_caddq(vg_mldsa_reduce32(v));
		u[i] = -u[i];
	}
}
