/*
 * Internals of Curve25519 (crypto/c25519.h): the field GF(2^255 - 19), the
 * points of the twisted Edwards curve edwards25519 [RFC 8032 §5.1] and the
 * scalars modulo its group order L. Shared by crypto/c25519_field.c,
 * crypto/x25519.c, crypto/ed25519_*.c and the table generator; not part
 * of the crypto/ API.
 *
 * Field elements are 5 unsigned limbs in radix 2^51, a = sum a[i] 2^(51 i),
 * not necessarily reduced. Each function states the limb bounds it accepts
 * ("loose": < 2^54) and returns ("tight": < 2^51 + 2^15). Scalars are 4
 * little-endian 64-bit limbs.
 *
 * CT: every function here runs in time independent of the values of its
 * operands, except those whose name ends in _vartime, which handle public
 * data only.
 */
#ifndef VG_CRYPTO_C25519_INT_H
#define VG_CRYPTO_C25519_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/ct.h"

typedef uint64_t vg_fe25519[5];

/* ------------------------------------------------------------ field */

/* Constants (tight, canonical): d = -121665/121666, 2d, sqrt(-1). */
extern const vg_fe25519 vg_fe25519_d;
extern const vg_fe25519 vg_fe25519_d2;
extern const vg_fe25519 vg_fe25519_sqrtm1;

/*
 * The arithmetic of the hot loops, inline (the code in this section is
 * all there is of it):
 *  add: h = f + g without carries: inputs tight, output < 2^52 + 2^16.
 *  sub: h = f - g: f loose, g < 2^53; output tight.  neg: h = -f, f < 2^53.
 *  mul, sqr, mul_small (by a constant c < 2^20): inputs loose, output
 *    tight; h may alias the inputs.
 *  cswap: swaps f and g if b = 1; cmov: h = g if b = 1 (b is 0 or 1).
 */
#define VG_FE25519_M51 ((uint64_t)0x7ffffffffffff)
typedef unsigned __int128 vg_u128;

static inline void
vg_fe25519_0(vg_fe25519 h)
{
	h[0] = h[1] = h[2] = h[3] = h[4] = 0;
}

static inline void
vg_fe25519_1(vg_fe25519 h)
{
	h[0] = 1;
	h[1] = h[2] = h[3] = h[4] = 0;
}

static inline void
vg_fe25519_copy(vg_fe25519 h, const vg_fe25519 f)
{
	memmove(h, f, sizeof(vg_fe25519));
}

static inline void
vg_fe25519_add(vg_fe25519 h, const vg_fe25519 f, const vg_fe25519 g)
{
	int i;

	for (i = 0; i < 5; i++)
		h[i] = f[i] + g[i];
}

/* One carry pass: limbs < 2^64 in, tight out. */
static inline void
vg_fe25519_carry(vg_fe25519 h)
{
	uint64_t c;

	c = h[0] >> 51; h[0] &= VG_FE25519_M51; h[1] += c;
	c = h[1] >> 51; h[1] &= VG_FE25519_M51; h[2] += c;
	c = h[2] >> 51; h[2] &= VG_FE25519_M51; h[3] += c;
	c = h[3] >> 51; h[3] &= VG_FE25519_M51; h[4] += c;
	c = h[4] >> 51; h[4] &= VG_FE25519_M51; h[0] += 19 * c;
	c = h[0] >> 51; h[0] &= VG_FE25519_M51; h[1] += c;
}

static inline void
vg_fe25519_sub(vg_fe25519 h, const vg_fe25519 f, const vg_fe25519 g)
{
	/* 4p limb by limb, so that no limb goes negative for g < 2^53. */
	h[0] = f[0] + 0x1fffffffffffb4 - g[0];
	h[1] = f[1] + 0x1ffffffffffffc - g[1];
	h[2] = f[2] + 0x1ffffffffffffc - g[2];
	h[3] = f[3] + 0x1ffffffffffffc - g[3];
	h[4] = f[4] + 0x1ffffffffffffc - g[4];
	vg_fe25519_carry(h);
}

static inline void
vg_fe25519_neg(vg_fe25519 h, const vg_fe25519 f)
{
	vg_fe25519 z;

	vg_fe25519_0(z);
	vg_fe25519_sub(h, z, f);
}

/* Carries five 128-bit column sums into a tight element. */
static inline void
vg_fe25519_reduce128(vg_fe25519 h, vg_u128 r0, vg_u128 r1, vg_u128 r2,
    vg_u128 r3, vg_u128 r4)
{
	uint64_t c;

	r1 += (uint64_t)(r0 >> 51);
	r2 += (uint64_t)(r1 >> 51);
	r3 += (uint64_t)(r2 >> 51);
	r4 += (uint64_t)(r3 >> 51);
	c = (uint64_t)(r4 >> 51);
	h[0] = ((uint64_t)r0 & VG_FE25519_M51) + 19 * c;
	h[1] = (uint64_t)r1 & VG_FE25519_M51;
	h[2] = (uint64_t)r2 & VG_FE25519_M51;
	h[3] = (uint64_t)r3 & VG_FE25519_M51;
	h[4] = (uint64_t)r4 & VG_FE25519_M51;
	h[1] += h[0] >> 51;
	h[0] &= VG_FE25519_M51;
}

static inline void
vg_fe25519_mul(vg_fe25519 h, const vg_fe25519 f, const vg_fe25519 g)
{
	uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
	uint64_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4];
	uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3;
	uint64_t g4_19 = 19 * g4;
	vg_u128 r0, r1, r2, r3, r4;

	r0 = (vg_u128)f0 * g0 + (vg_u128)f1 * g4_19 + (vg_u128)f2 * g3_19 +
	    (vg_u128)f3 * g2_19 + (vg_u128)f4 * g1_19;
	r1 = (vg_u128)f0 * g1 + (vg_u128)f1 * g0 + (vg_u128)f2 * g4_19 +
	    (vg_u128)f3 * g3_19 + (vg_u128)f4 * g2_19;
	r2 = (vg_u128)f0 * g2 + (vg_u128)f1 * g1 + (vg_u128)f2 * g0 +
	    (vg_u128)f3 * g4_19 + (vg_u128)f4 * g3_19;
	r3 = (vg_u128)f0 * g3 + (vg_u128)f1 * g2 + (vg_u128)f2 * g1 +
	    (vg_u128)f3 * g0 + (vg_u128)f4 * g4_19;
	r4 = (vg_u128)f0 * g4 + (vg_u128)f1 * g3 + (vg_u128)f2 * g2 +
	    (vg_u128)f3 * g1 + (vg_u128)f4 * g0;
	vg_fe25519_reduce128(h, r0, r1, r2, r3, r4);
}

static inline void
vg_fe25519_sqr(vg_fe25519 h, const vg_fe25519 f)
{
	uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
	uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
	uint64_t f1_38 = 38 * f1, f2_38 = 38 * f2, f3_38 = 38 * f3;
	uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
	vg_u128 r0, r1, r2, r3, r4;

	r0 = (vg_u128)f0 * f0 + (vg_u128)f1_38 * f4 + (vg_u128)f2_38 * f3;
	r1 = (vg_u128)f0_2 * f1 + (vg_u128)f2_38 * f4 + (vg_u128)f3_19 * f3;
	r2 = (vg_u128)f0_2 * f2 + (vg_u128)f1 * f1 + (vg_u128)f3_38 * f4;
	r3 = (vg_u128)f0_2 * f3 + (vg_u128)f1_2 * f2 + (vg_u128)f4_19 * f4;
	r4 = (vg_u128)f0_2 * f4 + (vg_u128)f1_2 * f3 + (vg_u128)f2 * f2;
	vg_fe25519_reduce128(h, r0, r1, r2, r3, r4);
}

static inline void
vg_fe25519_mul_small(vg_fe25519 h, const vg_fe25519 f, uint32_t c)
{
	vg_fe25519_reduce128(h, (vg_u128)f[0] * c, (vg_u128)f[1] * c,
	    (vg_u128)f[2] * c, (vg_u128)f[3] * c, (vg_u128)f[4] * c);
}

static inline void
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

static inline void
vg_fe25519_cmov(vg_fe25519 h, const vg_fe25519 g, uint64_t b)
{
	uint64_t m = 0 - vg_ct_barrier64(b);
	int i;

	for (i = 0; i < 5; i++)
		h[i] ^= m & (h[i] ^ g[i]);
}

/* h = 1/f (0 for f = 0), canonical, for a loose f: safegcd
 * (crypto/c25519_inv.c); h may alias f. */
void vg_fe25519_invert(vg_fe25519 h, const vg_fe25519 f);
/* h = f^((p-5)/8). */
void vg_fe25519_pow22523(vg_fe25519 h, const vg_fe25519 f);
/* Swaps f and g if b = 1 (b is 0 or 1); h = g if b = 1. */
void vg_fe25519_cswap(vg_fe25519 f, vg_fe25519 g, uint64_t b);
void vg_fe25519_cmov(vg_fe25519 h, const vg_fe25519 g, uint64_t b);
/* 32 bytes, little endian; bit 255 is ignored, values >= p are accepted
 * (and reduced by the arithmetic). */
void vg_fe25519_frombytes(vg_fe25519 h, const uint8_t s[32]);
/* The canonical encoding (fully reduced) of a loose f. */
void vg_fe25519_tobytes(uint8_t s[32], const vg_fe25519 f);
/* To and from 4 little-endian 64-bit limbs (the form of the kernels,
 * crypto/c25519_kernels.h): w = f mod p, canonical, for a loose f; h = w
 * for any w < 2^256 (not reduced: limbs 0 .. 3 < 2^51, limb 4 < 2^52). */
void vg_fe25519_to64(uint64_t w[4], const vg_fe25519 f);
void vg_fe25519_from64(vg_fe25519 h, const uint64_t w[4]);
/* 1 if f mod p is odd ("negative" in RFC 8032), else 0. */
uint64_t vg_fe25519_isodd(const vg_fe25519 f);
/* 1 if f mod p is 0, else 0. */
uint64_t vg_fe25519_iszero(const vg_fe25519 f);

/* ------------------------------------------------------------ points */

/* Extended coordinates [HWCD08]: x = X/Z, y = Y/Z, T = XY/Z. */
struct vg_ge25519 {
	vg_fe25519 X, Y, Z, T;
};

/* A "completed" point (X:Z, Y:T) from the addition formulas. */
struct vg_ge25519_p1p1 {
	vg_fe25519 X, Y, Z, T;
};

/* A point prepared for addition: (Y+X, Y-X, Z, 2dT) in projective
 * coordinates; the fixed-base table holds affine ones (Z = 1, not
 * stored). */
struct vg_ge25519_cached {
	vg_fe25519 YpX, YmX, Z, T2d;
};

struct vg_ge25519_niels {
	vg_fe25519 YpX, YmX, T2d;
};

/* The fixed-base table: row i holds [j] 16^(2i) B for j = 1..8, affine,
 * tight limbs. Generated by crypto/ed25519_gentable.c. */
#define VG_ED25519_TABLE_ROWS 32
#define VG_ED25519_TABLE_COLS 8
extern const struct vg_ge25519_niels
    vg_ed25519_base_table[VG_ED25519_TABLE_ROWS][VG_ED25519_TABLE_COLS];

/* The table of the ADX comb (crypto/x86_64/vg_ed25519_adx.c), in
 * 4x64-bit limbs, a row per signed radix-32 digit: row i holds
 * [j] 32^i B for j = 1..16, each entry YpX, YmX, T2d as 12 canonical
 * limbs, least significant first (78 KiB). And the odd multiples [1] B,
 * [3] B, ..., [127] B in that form, for the variable-time double
 * multiplication. */
#define VG_ED25519_DIGITS32 52
#define VG_ED25519_TABLE64_ROWS VG_ED25519_DIGITS32
#define VG_ED25519_TABLE64_COLS 16
#define VG_ED25519_NIELS64 12
#define VG_ED25519_ODD64 64
extern const uint64_t vg_ed25519_base_table64[VG_ED25519_TABLE64_ROWS]
    [VG_ED25519_TABLE64_COLS][VG_ED25519_NIELS64];
extern const uint64_t vg_ed25519_base_odd64[VG_ED25519_ODD64]
    [VG_ED25519_NIELS64];

extern const struct vg_ge25519 vg_ed25519_base; /* B [RFC 8032 §5.1] */

void vg_ge25519_identity(struct vg_ge25519 *r);
void vg_ge25519_to_cached(struct vg_ge25519_cached *r,
    const struct vg_ge25519 *p);
/* r = p + q, r = p - q (q cached or affine niels), r = 2p. Complete
 * formulas: valid for every pair of points, the identity included. */
void vg_ge25519_add(struct vg_ge25519 *r, const struct vg_ge25519 *p,
    const struct vg_ge25519_cached *q);
void vg_ge25519_sub(struct vg_ge25519 *r, const struct vg_ge25519 *p,
    const struct vg_ge25519_cached *q);
void vg_ge25519_madd(struct vg_ge25519_p1p1 *r, const struct vg_ge25519 *p,
    const struct vg_ge25519_niels *q);
void vg_ge25519_dbl(struct vg_ge25519_p1p1 *r, const struct vg_ge25519 *p);
/* From completed to extended coordinates (4M), or to X, Y, Z only (3M:
 * enough before a doubling; T is left stale). */
void vg_ge25519_p1p1_to_p3(struct vg_ge25519 *r,
    const struct vg_ge25519_p1p1 *p);
void vg_ge25519_p1p1_to_p2(struct vg_ge25519 *r,
    const struct vg_ge25519_p1p1 *p);
/* The encoding [RFC 8032 §5.1.2]. */
void vg_ge25519_tobytes(uint8_t s[32], const struct vg_ge25519 *p);
/* Decodes s [RFC 8032 §5.1.3], refusing y >= p and x = 0 with the sign
 * bit set. Returns 0 and r = the point, or -1. Variable time: s is a
 * public key (verification, imports). */
int vg_ge25519_frombytes(struct vg_ge25519 *r, const uint8_t s[32]);

/* r = [a] B for a 32-byte little-endian scalar a < 2^255, by the kernel
 * of the table (crypto/c25519_kernels.h); r has tight limbs. CT: the
 * table is read in full under masks; nothing depends on a. */
void vg_ge25519_scalarmult_base(struct vg_ge25519 *r, const uint8_t a[32]);
/*
 * s = the encoding of [a] B, or with VG_GE25519_BASE_U in flags its
 * Montgomery u-coordinate (for X25519 public keys; [a] B not the
 * identity), by the kernel of the table (crypto/c25519_kernels.h). With
 * VG_GE25519_BASE_SHORT the caller promises a < 2^253 (a signing nonce
 * r < L): the ADX comb then skips the row of its top digit, which is 0
 * for such a (vg_sc25519_recode32); for a larger a the result is wrong,
 * and not checked here (the check would branch on the secret). flags is
 * public, a constant of each caller. CT: as vg_ge25519_scalarmult_base.
 */
#define VG_GE25519_BASE_U 1u
#define VG_GE25519_BASE_SHORT 2u
void vg_ge25519_scalarmult_base_bytes(uint8_t s[32], const uint8_t a[32],
    unsigned flags);
/* r = [a] A + [b] B for 32-byte scalars (public data only), by the kernel
 * of the table; r has tight limbs. */
void vg_ge25519_double_scalarmult_vartime(struct vg_ge25519 *r,
    const uint8_t a[32], const struct vg_ge25519 *A, const uint8_t b[32]);

/* ------------------------------------------------------------ scalars */

/* out = in mod L for a 64-byte little-endian in (a SHA-512 digest).
 * CT: branch-free, no secret index. */
void vg_sc25519_reduce64(uint8_t out[32], const uint8_t in[64]);
/* s = (r + (h mod L) * a) mod L for a 64-byte little-endian h (the digest
 * that gives k in signing), r < L and a < 2^256: the reduction of h and
 * the product in one pass, k never leaving Montgomery form. CT: as
 * above. */
void vg_sc25519_muladd64(uint8_t s[32], const uint8_t r[32],
    const uint8_t h[64], const uint8_t a[32]);
/* 1 if s < L, else 0. */
uint64_t vg_sc25519_is_canonical(const uint8_t s[32]);
/* The 64 signed radix-16 digits e[i] in [-8, 8] of a < 2^255, sum e[i]
 * 16^i = a, for the fixed-base comb. CT: branch-free. */
void vg_sc25519_recode16(int8_t e[64], const uint8_t a[32]);
/* The 52 signed radix-32 digits e[i] of a < 2^255, sum e[i] 32^i = a:
 * e[0 .. 50] in [-16, 15], e[51] in {0, 1}, for the ADX comb; e[51] = 0
 * for a < 2^253 (crypto/ed25519_base.c says why). CT: branch-free. */
void vg_sc25519_recode32(int8_t e[VG_ED25519_DIGITS32], const uint8_t a[32]);
/* Signed sliding-window digits of a 256-bit scalar for a window of w bits
 * (2 <= w <= 8): r[i] is 0 or odd with |r[i]| < 2^(w-1), sum r[i] 2^i =
 * a. Variable time: public scalars only. */
void vg_sc25519_slide_vartime(int8_t r[256], const uint8_t a[32], int w);

#endif
