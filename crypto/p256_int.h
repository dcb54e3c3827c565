/*
 * P-256 internals shared by crypto/p256*.c (not for other layers; the
 * family's API is crypto/p256.h).
 *
 * Representation. A field element ("fe") is uint64_t[4], little-endian
 * limbs, in Montgomery form x * 2^256 mod p and fully reduced (< p) unless
 * said otherwise. A scalar modulo n is uint64_t[4] as well; functions say
 * whether they take plain integers or the Montgomery form modulo n. Points
 * are Jacobian (X, Y, Z) standing for (X / Z^2, Y / Z^3), or affine (x, y).
 * The point at infinity O never appears in an affine point; in Jacobian
 * form it is any (X, Y, 0), and the secret-path routines track it with a
 * mask instead of testing Z.
 *
 * Kernels are passed explicitly (const struct vg_p256_kernels *k): the
 * public functions fetch the table once per operation (vg_kernels()) and the
 * build-time table generator passes the portable twins.
 *
 * CT: everything here is constant time in the values of its operands (no
 * branch or memory index on them) except the functions whose name ends in
 * _vartime, which are for public data only (verification).
 */
#ifndef VG_CRYPTO_P256_INT_H
#define VG_CRYPTO_P256_INT_H

#include <stddef.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "crypto/ct.h"
#include "crypto/p256.h"
#include "crypto/p256_kernels.h"

#ifndef __SIZEOF_INT128__
#error "crypto/p256 needs a compiler with unsigned __int128 (64-bit GCC or Clang)"
#endif
typedef unsigned __int128 vg_p256_u128;

/* ------------------------------------------------------------ constants */

extern const uint64_t vg_p256_p[4];      /* p */
extern const uint64_t vg_p256_one[4];    /* 1 in Montgomery form: 2^256 mod p */
extern const uint64_t vg_p256_rr[4];     /* 2^512 mod p */
extern const uint64_t vg_p256_b[4];      /* curve b, Montgomery form */
extern const uint64_t vg_p256_gx[4];     /* generator G, Montgomery form */
extern const uint64_t vg_p256_gy[4];
extern const uint64_t vg_p256_n[4];      /* group order n */
extern const uint64_t vg_p256_n_rr[4];   /* 2^512 mod n */
extern const uint64_t vg_p256_n_one[4];  /* 2^256 mod n */

/*
 * Declassification: a mask derived from secrets whose value is a public
 * outcome (a key rejected, a nonce candidate discarded, a fault detected)
 * passes through vg_p256_public() before it is branched on. Normally the
 * identity; under the constant-time check (valgrind memcheck with the
 * secrets marked undefined, crypto/ct.h) it tells memcheck that the value
 * is defined from here on.
 */
static inline uint64_t
vg_p256_public(uint64_t v)
{
	VG_CT_DECLASSIFY(&v, sizeof(v));
	return v;
}

/*
 * The stack below its frame that each operation of crypto/p256.h handling
 * a secret clears (VG_WIPE_STACK, crypto/ct.h) after its last call and
 * before it returns: the kernels and helpers it called left their
 * temporaries there (the point formulas keep intermediate values of a
 * secret multiplication, and wiping them once per operation instead of
 * once per formula saves about a tenth of the time). Its deepest call
 * chain (vg_p256_point_mul with its 2.5 KiB table, then a kernel) uses
 * well under this.
 */
#define VG_P256_SCRUB_LEN 8192

/* ---------------------------------------------------- 256-bit integers */

/*
 * r = a + b; returns the carry (0 or 1). r may alias a or b. On x86-64
 * with the carry intrinsics (one ADD and three ADC; the 128-bit form
 * below compiles to about three times the instructions, and these sit in
 * every loop that selects, negates or compares points).
 */
static inline uint64_t
vg_p256_add4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
#if defined(__x86_64__)
	unsigned long long r0, r1, r2, r3;
	unsigned char c;

	c = _addcarry_u64(0, a[0], b[0], &r0);
	c = _addcarry_u64(c, a[1], b[1], &r1);
	c = _addcarry_u64(c, a[2], b[2], &r2);
	c = _addcarry_u64(c, a[3], b[3], &r3);
	r[0] = r0;
	r[1] = r1;
	r[2] = r2;
	r[3] = r3;
	return c;
#else
	vg_p256_u128 t = (vg_p256_u128)a[0] + b[0];
	uint64_t r0, r1, r2;

	r0 = (uint64_t)t;
	t = (t >> 64) + a[1] + b[1];
	r1 = (uint64_t)t;
	t = (t >> 64) + a[2] + b[2];
	r2 = (uint64_t)t;
	t = (t >> 64) + a[3] + b[3];
	r[0] = r0;
	r[1] = r1;
	r[2] = r2;
	r[3] = (uint64_t)t;
	return (uint64_t)(t >> 64);
#endif
}

/* r = a - b mod 2^256; returns the borrow (0 or 1). r may alias a or b. */
static inline uint64_t
vg_p256_sub4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
#if defined(__x86_64__)
	unsigned long long r0, r1, r2, r3;
	unsigned char c;

	c = _subborrow_u64(0, a[0], b[0], &r0);
	c = _subborrow_u64(c, a[1], b[1], &r1);
	c = _subborrow_u64(c, a[2], b[2], &r2);
	c = _subborrow_u64(c, a[3], b[3], &r3);
	r[0] = r0;
	r[1] = r1;
	r[2] = r2;
	r[3] = r3;
	return c;
#else
	vg_p256_u128 t = (vg_p256_u128)a[0] - b[0];
	uint64_t r0, r1, r2;

	r0 = (uint64_t)t;
	t = (vg_p256_u128)a[1] - b[1] - (uint64_t)((t >> 64) & 1);
	r1 = (uint64_t)t;
	t = (vg_p256_u128)a[2] - b[2] - (uint64_t)((t >> 64) & 1);
	r2 = (uint64_t)t;
	t = (vg_p256_u128)a[3] - b[3] - (uint64_t)((t >> 64) & 1);
	r[0] = r0;
	r[1] = r1;
	r[2] = r2;
	r[3] = (uint64_t)t;
	return (uint64_t)((t >> 64) & 1);
#endif
}

/* All-ones if a < b (as 256-bit integers), else 0. */
static inline uint64_t
vg_p256_lt4_mask(const uint64_t a[4], const uint64_t b[4])
{
	uint64_t t[4];

	return 0 - vg_ct_barrier64(vg_p256_sub4(t, a, b));
}

/* All-ones if a == 0, else 0. */
static inline uint64_t
vg_p256_is_zero4_mask(const uint64_t a[4])
{
	return vg_ct_zero_mask64(a[0] | a[1] | a[2] | a[3]);
}

/* All-ones if a == b, else 0. */
static inline uint64_t
vg_p256_eq4_mask(const uint64_t a[4], const uint64_t b[4])
{
	return vg_ct_zero_mask64((a[0] ^ b[0]) | (a[1] ^ b[1]) |
	    (a[2] ^ b[2]) | (a[3] ^ b[3]));
}

/* r = mask ? a : r. */
static inline void
vg_p256_cmov4(uint64_t r[4], const uint64_t a[4], uint64_t mask)
{
	r[0] = vg_ct_select64(mask, a[0], r[0]);
	r[1] = vg_ct_select64(mask, a[1], r[1]);
	r[2] = vg_ct_select64(mask, a[2], r[2]);
	r[3] = vg_ct_select64(mask, a[3], r[3]);
}

static inline void
vg_p256_copy4(uint64_t r[4], const uint64_t a[4])
{
	r[0] = a[0];
	r[1] = a[1];
	r[2] = a[2];
	r[3] = a[3];
}

/* 32 big-endian bytes <-> limbs (plain integers, no reduction). */
void vg_p256_from_be(uint64_t r[4], const uint8_t in[32]);
void vg_p256_to_be(uint8_t out[32], const uint64_t a[4]);

/*
 * Montgomery multiplication modulo an odd 256-bit m with m0 = -m^-1 mod
 * 2^64 (CIOS, one word of b per round): r = a * b * 2^-256 mod m, fully
 * reduced when a * b < m * 2^256, else < 2^256 and congruent. The portable
 * twins of the field and order kernels are this with p and with n.
 * r may alias a or b.
 */
static inline void
vg_p256_montmul_generic(uint64_t r[4], const uint64_t a[4],
    const uint64_t b[4], const uint64_t m[4], uint64_t m0)
{
	uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5, q, s[4], bw;
	vg_p256_u128 c;
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t bi = b[i];

		c = (vg_p256_u128)a[0] * bi + t0;
		t0 = (uint64_t)c;
		c = (vg_p256_u128)a[1] * bi + t1 + (uint64_t)(c >> 64);
		t1 = (uint64_t)c;
		c = (vg_p256_u128)a[2] * bi + t2 + (uint64_t)(c >> 64);
		t2 = (uint64_t)c;
		c = (vg_p256_u128)a[3] * bi + t3 + (uint64_t)(c >> 64);
		t3 = (uint64_t)c;
		c = (vg_p256_u128)t4 + (uint64_t)(c >> 64);
		t4 = (uint64_t)c;
		t5 = (uint64_t)(c >> 64);

		q = t0 * m0;
		c = (vg_p256_u128)q * m[0] + t0;
		c = (vg_p256_u128)q * m[1] + t1 + (uint64_t)(c >> 64);
		t0 = (uint64_t)c;
		c = (vg_p256_u128)q * m[2] + t2 + (uint64_t)(c >> 64);
		t1 = (uint64_t)c;
		c = (vg_p256_u128)q * m[3] + t3 + (uint64_t)(c >> 64);
		t2 = (uint64_t)c;
		c = (vg_p256_u128)t4 + (uint64_t)(c >> 64);
		t3 = (uint64_t)c;
		t4 = t5 + (uint64_t)(c >> 64);
	}
	/* t4:t3..t0 < 2^256 + m: subtract m unless that borrows */
	r[0] = t0;
	r[1] = t1;
	r[2] = t2;
	r[3] = t3;
	bw = vg_p256_sub4(s, r, m);
	bw = 0 - vg_ct_barrier64(bw & (t4 ^ 1));
	r[0] = vg_ct_select64(bw, t0, s[0]);
	r[1] = vg_ct_select64(bw, t1, s[1]);
	r[2] = vg_ct_select64(bw, t2, s[2]);
	r[3] = vg_ct_select64(bw, t3, s[3]);
}

/* ------------------------------------------------------ modular helpers */

/*
 * r = a + b mod m and r = a - b mod m for a, b < m (any odd 256-bit m:
 * p or n). r may alias a or b.
 */
static inline void
vg_p256_modadd(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
    const uint64_t m[4])
{
	uint64_t t[4], s[4], c, bw;

	c = vg_p256_add4(t, a, b);
	bw = vg_p256_sub4(s, t, m);
	/* keep t when the 257-bit sum is below m: no carry and a borrow */
	bw = 0 - vg_ct_barrier64(bw & (c ^ 1));
	vg_p256_copy4(r, s);
	vg_p256_cmov4(r, t, bw);
}

static inline void
vg_p256_modsub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
    const uint64_t m[4])
{
	uint64_t t[4], mm[4], bw;

	bw = 0 - vg_ct_barrier64(vg_p256_sub4(t, a, b));
	mm[0] = m[0] & bw;
	mm[1] = m[1] & bw;
	mm[2] = m[2] & bw;
	mm[3] = m[3] & bw;
	vg_p256_add4(r, t, mm);
}

/* Field add, subtract, negate (all mod p, inputs and outputs < p). */
static inline void
vg_p256_fe_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	vg_p256_modadd(r, a, b, vg_p256_p);
}

static inline void
vg_p256_fe_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	vg_p256_modsub(r, a, b, vg_p256_p);
}

static inline void
vg_p256_fe_neg(uint64_t r[4], const uint64_t a[4])
{
	static const uint64_t zero[4] = { 0, 0, 0, 0 };

	vg_p256_modsub(r, zero, a, vg_p256_p);
}

/* r = a / 2 mod p. */
void vg_p256_fe_half(uint64_t r[4], const uint64_t a[4]);

/*
 * r = a^-1 mod p, Montgomery form in and out; the inverse of 0 is 0.
 * Constant-time safegcd (crypto/p256_inv.c).
 */
void vg_p256_fe_inv(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);

/*
 * r = a square root of a mod p (a^((p+1)/4)), Montgomery form. Returns
 * all-ones if a is a square (then r^2 = a), else 0 (r is then garbage).
 */
uint64_t vg_p256_fe_sqrt(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);

/* r = the Montgomery form of the big-endian integer in; returns all-ones if
 * that integer is < p (else r is garbage). */
uint64_t vg_p256_fe_from_bytes(const struct vg_p256_kernels *k,
    uint64_t r[4], const uint8_t in[32]);

/* out = big-endian bytes of the element a (Montgomery form in). */
void vg_p256_fe_to_bytes(const struct vg_p256_kernels *k, uint8_t out[32],
    const uint64_t a[4]);

/* rhs = x^3 - 3x + b (Montgomery form). */
void vg_p256_curve_rhs(const struct vg_p256_kernels *k, uint64_t rhs[4],
    const uint64_t x[4]);

/* ------------------------------------------------------------- scalars */

/* Montgomery form modulo n: r = a * 2^256 mod n for a < 2^256 (any). */
void vg_p256_ord_to_mont(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);
/* r = a * 2^-256 mod n (Montgomery form to plain, r < n). */
void vg_p256_ord_from_mont(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);
/* r = a^-1 mod n, Montgomery form in and out; the inverse of 0 is 0.
 * Constant-time safegcd (crypto/p256_inv.c). */
void vg_p256_ord_inv(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);
/* fr = fa^-1 mod p and nr = na^-1 mod n (Montgomery forms, as
 * vg_p256_fe_inv and vg_p256_ord_inv) in one call: the two inversions run
 * interleaved, in about 0.75 times the time of the two calls (ECDSA
 * signing needs both). CT: as vg_p256_fe_inv. */
void vg_p256_fe_ord_inv(const struct vg_p256_kernels *k, uint64_t fr[4],
    const uint64_t fa[4], uint64_t nr[4], const uint64_t na[4]);
/* vg_p256_ord_inv for public a (ECDSA verification): variable-time
 * safegcd, about a third of the time. CT: none, public inputs only. */
void vg_p256_ord_inv_vartime(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);
/* r = a mod n for a < 2^256 (one conditional subtraction); r may alias
 * a. */
void vg_p256_ord_reduce(uint64_t r[4], const uint64_t a[4]);
/* All-ones if 1 <= a <= n - 1, else 0. */
uint64_t vg_p256_ord_valid_mask(const uint64_t a[4]);

/* --------------------------------------------------------------- points */

struct vg_p256_jac {
	uint64_t x[4], y[4], z[4];
};

struct vg_p256_aff {
	uint64_t x[4], y[4];
};

/* The point formulas of the kernel table (contracts in
 * crypto/p256_kernels.h). */
static inline void
vg_p256_point_double(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const struct vg_p256_jac *a)
{
	k->point_double(r, a);
}

static inline void
vg_p256_point_add_cached(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const uint64_t t[VG_P256_W5_LIMBS])
{
	k->point_add_cached(r, a, t);
}

static inline void
vg_p256_point_add_affine(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const struct vg_p256_aff *b)
{
	k->point_add_affine(r, a, b);
}

/* Affine form of a; returns all-ones if a != O (Z != 0), else 0 (r is then
 * zeros). Costs one inversion. */
uint64_t vg_p256_point_to_affine(const struct vg_p256_kernels *k,
    struct vg_p256_aff *r, const struct vg_p256_jac *a);

/* All-ones if (x, y) is on the curve, else 0. */
uint64_t vg_p256_point_on_curve(const struct vg_p256_kernels *k,
    const struct vg_p256_aff *a);

/*
 * r = [d]P for a plain integer 1 <= d <= n - 1 (caller checked) and an
 * affine point P on the curve: 5-bit signed windows, see p256_point.c for
 * the method and the proof that no addition is exceptional.
 * CT: constant time in d and P.
 */
void vg_p256_point_mul(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const struct vg_p256_aff *p, const uint64_t d[4]);

/* e = (X, Y, Z, Z^2, Z^3) of a, the form vg_p256_point_add_cached takes. */
void vg_p256_point_entry(const struct vg_p256_kernels *k,
    uint64_t e[VG_P256_W5_LIMBS], const struct vg_p256_jac *a);

/*
 * Complete additions for public data: r = a + b with a Jacobian (O when
 * Z = 0) and b Jacobian, a table entry (never O) or affine. O, a = b and
 * a = -b are handled by branching. r may alias a.
 * CT: none, public inputs only.
 */
void vg_p256_point_add_vartime(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const struct vg_p256_jac *b);
void vg_p256_point_add_cached_vartime(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const uint64_t t[VG_P256_W5_LIMBS]);
void vg_p256_point_add_affine_vartime(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const struct vg_p256_aff *b);

/* ------------------------------------------------------------ fixed base */

/* The fixed-base table: row j holds the odd multiples [2i + 1] 2^(7j) G,
 * i = 0 .. 63, affine, Montgomery form. Generated at build time
 * (crypto/p256_gentable.c). */
#define VG_P256_W7_ROWS 37
extern const uint64_t
    vg_p256_base_table[VG_P256_W7_ROWS][VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS];

/* The odd multiples [2i + 1] G, i = 0 .. 127, affine, Montgomery form, for
 * the width-9 NAF of u1 in verification. Generated with the table above. */
#define VG_P256_G_ODD_W 9
#define VG_P256_G_ODD_ENTRIES (1 << (VG_P256_G_ODD_W - 2))
extern const uint64_t
    vg_p256_base_odd[VG_P256_G_ODD_ENTRIES][VG_P256_W7_LIMBS];

/* r = [d]G for a plain integer 1 <= d <= n - 1 (caller checked).
 * CT: constant time in d. */
void vg_p256_base_mul(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const uint64_t d[4]);

/* Width-w NAF of u < 2^256 (2 <= w <= 15): u = sum naf[i] 2^i, every
 * nonzero digit odd in [-(2^(w-1) - 1), 2^(w-1) - 1] and followed by at
 * least w - 1 zero digits. Every entry is written (zeros above the top
 * digit); returns the number of digits up to the top nonzero one (0 for
 * u = 0). The cost grows with the number of nonzero digits, not with the
 * bit length. CT: none, public u only. */
#define VG_P256_WNAF_LEN 257
int vg_p256_wnaf_vartime(int16_t naf[VG_P256_WNAF_LEN], const uint64_t u[4],
    int w);

/* r = [u1]G + [u2]Q for plain integers u1, u2 < n and a point Q on the
 * curve. r may be O (Z = 0). CT: none, public inputs only. */
void vg_p256_mul2_vartime(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const uint64_t u1[4], const uint64_t u2[4],
    const struct vg_p256_aff *q);

/* ---------------------------------------------- explicit kernel table */

/*
 * The functions of crypto/p256.h on a given kernel sub-table instead of
 * the process-wide one (vg_kernels()->p256), so that tests and benchmarks
 * can run every variant in one process (vg_kernels_fill). Same contracts.
 */
enum vg_err vg_p256_pub_from_priv_k(const struct vg_p256_kernels *k,
    struct vg_p256_pub *pub, const struct vg_p256_priv *priv);
enum vg_err vg_p256_pub_decode_k(const struct vg_p256_kernels *k,
    struct vg_p256_pub *pub, const uint8_t *in, size_t len);
enum vg_err vg_p256_pub_decode_ec_point_k(const struct vg_p256_kernels *k,
    struct vg_p256_pub *pub, const uint8_t *in, size_t len);
enum vg_err vg_p256_ecdh_k(const struct vg_p256_kernels *k,
    uint8_t shared[VG_P256_SHARED_LEN], const struct vg_p256_priv *priv,
    const struct vg_p256_pub *peer);
enum vg_err vg_p256_ecdsa_sign_k(const struct vg_p256_kernels *k,
    uint8_t sig[VG_P256_SIG_LEN], const struct vg_p256_priv *priv,
    const uint8_t *h, size_t hlen, enum vg_hash_alg nonce_hash,
    const uint8_t *rnd);
enum vg_err vg_p256_ecdsa_verify_k(const struct vg_p256_kernels *k,
    const struct vg_p256_pub *pub, const uint8_t *h, size_t hlen,
    const uint8_t sig[VG_P256_SIG_LEN]);

#endif
