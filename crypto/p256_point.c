/*
 * P-256 point arithmetic in Jacobian coordinates and the variable-base
 * scalar multiplication used by ECDH.
 *
 * Method of vg_p256_point_mul ([d]P, 1 <= d <= n - 1, P on the curve):
 *
 *  Digits. d' = d + 16 * sum_{j<52} 32^j is written in base 32,
 *    d' = sum c_j 32^j with 0 <= c_j <= 31 (d' < 2^260), and
 *    delta_j = c_j - 16 in [-16, 15] gives d = sum_{j<52} delta_j 32^j.
 *    The recoding is one addition of a constant: no carries to propagate
 *    by hand and nothing that depends on d but the digit values.
 *  Table. [1..16]P, each entry (X, Y, Z, Z^2, Z^3): [2]P by a doubling,
 *    [m+1]P = [m]P + P by a mixed addition; the entries are written at
 *    addresses given by the loop counter.
 *  Windows. R = the entry of delta_51 (O when delta_51 = 0); then for
 *    j = 50 ... 0: five doublings in place; the entry of |delta_j| is read
 *    in constant time (every entry loaded and kept under a mask, 32 bytes at
 *    a time with AVX2, 16 otherwise) and its Y negated under a mask when
 *    delta_j < 0; S = R + entry by the 11M + 3S addition that uses the
 *    entry's cached Z^2 and Z^3; two masks fix the special cases: R takes
 *    the entry while R = O, and keeps its value for a zero digit.
 *  Output. R stays Jacobian; the caller converts to affine once.
 *
 * Why no addition is exceptional. P-256's group has prime order n, so
 * every point but O has order n, and [a]P = [b]P iff a = b (mod n). Let
 * e_j = sum_{i>j} delta_i 32^(i-j-1) be the value of the digits above j, so
 * that R = [32 e_j]P before digit j is added and d = 32^(j+1) e_j + L_j with
 * L_j = sum_{i<=j} delta_i 32^i, |L_j| <= 16 (32^(j+1) - 1) / 31.
 * Since d >= 1 this gives e_j >= 0, and e_j <= d / 32^(j+1) + 16/31 < n.
 * The addition R + [delta_j]P with R != O (e_j >= 1) and delta_j != 0 is
 * exceptional iff 32 e_j = +-delta_j (mod n).
 *  - j >= 1: 32 <= 32 e_j <= d / 32 + 17 < n / 32 + 17, so
 *    32 e_j -+ delta_j lies in [16, n / 32 + 33]: never 0 nor n.
 *  - j = 0: d = 32 e_0 + delta_0 exactly. 32 e_0 = -delta_0 (mod n) means
 *    d = 0 (mod n), excluded. 32 e_0 = delta_0 (mod n) means d = 2 delta_0
 *    (mod n) with d in [1, n - 1] and 2 delta_0 in [-32, 30]: either
 *    d = 2 delta_0 > 0, but then 32 e_0 = delta_0 in [1, 15], impossible;
 *    or d = n - 2a with a = -delta_0 in [1, 16]. The recoding fixes
 *    delta_0 = ((d + 16) mod 32) - 16, and n = 17 (mod 32) gives
 *    (d + 16) mod 32 = 33 - 2a, so delta_0 = 17 - 2a, which equals -a only
 *    for a = 17. So this never happens either.
 *  - Table: [m]P + P for 2 <= m <= 15 would need m = +-1 (mod n).
 * R = O happens only while every digit so far was zero (then e_j = 0, and
 * 32 e + delta != 0 for e >= 1), which the first mask handles; doubling O
 * gives Z = 0 again. tests/unit/crypto/test_p256.c checks the edge scalars
 * of this argument (d = n - 2a, n - j, digits all -16 or all 15, ...).
 */
#include "config.h"

#include <string.h>

#include "crypto/p256_int.h"

/* The portable field operations the formulas below inline. */
static inline void
fmul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	vg_p256_montmul_generic(r, a, b, vg_p256_p, 1);
}

static inline void
fsqr(uint64_t r[4], const uint64_t a[4])
{
	vg_p256_montmul_generic(r, a, a, vg_p256_p, 1);
}

#define fadd vg_p256_fe_add
#define fsub vg_p256_fe_sub
#define fhalf vg_p256_fe_half

/* see crypto/p256_kernels.h */
void
vg_p256_point_double_c(struct vg_p256_jac *r, const struct vg_p256_jac *a)
{
	uint64_t s[4], m[4], zz[4], t[4], y4[4];

	/* S = 4XY^2, M = 3(X - Z^2)(X + Z^2), X3 = M^2 - 2S,
	 * Y3 = M(S - X3) - 8Y^4, Z3 = 2YZ; a->z and a->y are last read
	 * before r->z is written, a->x before r->x: r may alias a */
	fadd(s, a->y, a->y);
	fsqr(zz, a->z);
	fsqr(s, s);                     /* 4Y^2 */
	fmul(t, a->z, a->y);
	fadd(r->z, t, t);               /* 2YZ */
	fadd(m, a->x, zz);
	fsub(zz, a->x, zz);
	fsqr(y4, s);
	fhalf(y4, y4);                  /* 8Y^4 */
	fmul(m, m, zz);
	fadd(t, m, m);
	fadd(m, t, m);                  /* 3(X^2 - Z^4) */
	fmul(s, s, a->x);               /* 4XY^2 */
	fadd(t, s, s);
	fsqr(r->x, m);
	fsub(r->x, r->x, t);
	fsub(s, s, r->x);
	fmul(s, s, m);
	fsub(r->y, s, y4);
}

/* see crypto/p256_kernels.h */
void
vg_p256_point_add_cached_c(struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const uint64_t t[VG_P256_W5_LIMBS])
{
	uint64_t z1z1[4], u1[4], u2[4], s1[4], s2[4], h[4], rr[4], hh[4],
	    hhh[4], v[4];

	/* U1 = X1 Z2^2, U2 = X2 Z1^2, S1 = Y1 Z2^3, S2 = Y2 Z1^3,
	 * H = U2 - U1, R = S2 - S1, X3 = R^2 - H^3 - 2 U1 H^2,
	 * Y3 = R (U1 H^2 - X3) - S1 H^3, Z3 = Z1 Z2 H */
	fsqr(z1z1, a->z);
	fmul(u1, a->x, t + 12);
	fmul(u2, t, z1z1);
	fmul(s1, a->y, t + 16);
	fmul(s2, a->z, z1z1);
	fmul(s2, s2, t + 4);
	fsub(h, u2, u1);
	fsub(rr, s2, s1);
	fmul(r->z, a->z, t + 8);        /* last read of a */
	fmul(r->z, r->z, h);
	fsqr(hh, h);
	fmul(hhh, h, hh);
	fmul(v, u1, hh);
	fsqr(r->x, rr);
	fsub(r->x, r->x, hhh);
	fsub(r->x, r->x, v);
	fsub(r->x, r->x, v);
	fsub(v, v, r->x);
	fmul(v, v, rr);
	fmul(s1, s1, hhh);
	fsub(r->y, v, s1);
}

/* see crypto/p256_kernels.h */
void
vg_p256_point_add_affine_c(struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const struct vg_p256_aff *b)
{
	uint64_t z1z1[4], u2[4], s2[4], h[4], rr[4], hh[4], hhh[4], v[4],
	    y1[4];

	/* the formulas above with Z2 = 1 */
	fsqr(z1z1, a->z);
	fmul(u2, b->x, z1z1);
	fmul(s2, a->z, z1z1);
	fmul(s2, s2, b->y);
	fsub(h, u2, a->x);
	fsub(rr, s2, a->y);
	vg_p256_copy4(y1, a->y);
	fsqr(hh, h);
	fmul(hhh, h, hh);
	fmul(v, a->x, hh);
	fmul(r->z, a->z, h);            /* last read of a */
	fsqr(r->x, rr);
	fsub(r->x, r->x, hhh);
	fsub(r->x, r->x, v);
	fsub(r->x, r->x, v);
	fsub(v, v, r->x);
	fmul(v, v, rr);
	fmul(y1, y1, hhh);
	fsub(r->y, v, y1);
}

#undef fadd
#undef fsub
#undef fhalf

/* see crypto/p256_int.h */
uint64_t
vg_p256_point_to_affine(const struct vg_p256_kernels *k,
    struct vg_p256_aff *r, const struct vg_p256_jac *a)
{
	uint64_t zi[4], zi2[4], ok;

	ok = ~vg_p256_is_zero4_mask(a->z);
	vg_p256_fe_inv(k, zi, a->z);    /* 0 for O */
	k->sqr(zi2, zi);
	k->mul(zi, zi, zi2);
	k->mul(r->x, a->x, zi2);
	k->mul(r->y, a->y, zi);
	vg_wipe(zi, sizeof(zi));
	vg_wipe(zi2, sizeof(zi2));
	return ok;
}

/* see crypto/p256_int.h */
uint64_t
vg_p256_point_on_curve(const struct vg_p256_kernels *k,
    const struct vg_p256_aff *a)
{
	uint64_t lhs[4], rhs[4];

	k->sqr(lhs, a->y);
	vg_p256_curve_rhs(k, rhs, a->x);
	return vg_p256_eq4_mask(lhs, rhs);
}

typedef uint64_t vg_p256_v2 __attribute__((vector_size(16)));

/*
 * Copies entry idx - 1 of a table of n entries of limbs words (limbs
 * even, at most VG_P256_W5_LIMBS) into out, reading every entry under a
 * mask; idx 0 gives zeros. CT: only n and limbs are observable.
 */
static void
select_c(uint64_t *out, const uint64_t *table, size_t n, size_t limbs,
    uint32_t idx)
{
	vg_p256_v2 acc[VG_P256_W5_LIMBS / 2], x;
	size_t i, j;

	memset(acc, 0, sizeof(acc));
	for (i = 0; i < n; i++) {
		uint64_t m = vg_ct_eq_mask64((uint64_t)i + 1, idx);
		vg_p256_v2 vm = { m, m };

		for (j = 0; j < limbs / 2; j++) {
			memcpy(&x, &table[i * limbs + 2 * j], sizeof(x));
			acc[j] |= x & vm;
		}
	}
	memcpy(out, acc, limbs * sizeof(uint64_t));
}

_Static_assert(VG_P256_W7_LIMBS <= VG_P256_W5_LIMBS,
    "select_c's accumulator holds the widest entry");

/* see crypto/p256_kernels.h */
void
vg_p256_select_w5_c(uint64_t out[VG_P256_W5_LIMBS],
    const uint64_t table[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS],
    uint32_t idx)
{
	select_c(out, &table[0][0], VG_P256_W5_ENTRIES, VG_P256_W5_LIMBS, idx);
}

/* see crypto/p256_kernels.h */
void
vg_p256_select_w7_c(uint64_t out[VG_P256_W7_LIMBS],
    const uint64_t table[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS],
    uint32_t idx, uint64_t flip)
{
	int i;

	select_c(out, &table[0][0], VG_P256_W7_ENTRIES, VG_P256_W7_LIMBS, idx);
	for (i = 4; i < VG_P256_W7_LIMBS; i++)
		out[i] ^= flip;
}

/* Fills entry e with (X, Y, Z, Z^2, Z^3) of a. */
static void
table_entry(const struct vg_p256_kernels *k, uint64_t e[VG_P256_W5_LIMBS],
    const struct vg_p256_jac *a)
{
	vg_p256_copy4(e, a->x);
	vg_p256_copy4(e + 4, a->y);
	vg_p256_copy4(e + 8, a->z);
	k->sqr(e + 12, a->z);
	k->mul(e + 16, e + 12, a->z);
}

/* 5-bit digit j of d' (bits 5j ... 5j + 4 of the 5-limb d'). */
static uint32_t
digit5(const uint64_t dd[5], int j)
{
	int bit = 5 * j, w = bit / 64, sh = bit % 64;
	uint64_t v = dd[w] >> sh;

	if (sh > 59)
		v |= dd[w + 1] << (64 - sh);
	return (uint32_t)(v & 31);
}

/* Entry of the digit c - 16 (c in 0 ... 31) into e, negated if c < 16;
 * returns all-ones if the digit is zero. */
static uint64_t
select_digit(const struct vg_p256_kernels *k, uint64_t e[VG_P256_W5_LIMBS],
    const uint64_t table[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS], uint32_t c)
{
	uint32_t pos = vg_ct_barrier32((c >> 4) & 1); /* digit >= 0 */
	uint32_t pmask = 0 - pos;
	uint32_t abs = ((c - 16) & pmask) | ((16 - c) & ~pmask);
	uint64_t ny[4], neg = (uint64_t)pos - 1;

	k->select_w5(e, table, abs);
	vg_p256_fe_neg(ny, e + 4);
	vg_p256_cmov4(e + 4, ny, neg);
	vg_wipe(ny, sizeof(ny));
	return vg_ct_zero_mask64(abs);
}

/* see crypto/p256_int.h */
void
vg_p256_point_mul(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const struct vg_p256_aff *p, const uint64_t d[4])
{
	/* 16 sum_{j<52} 32^j: bit 4 of every 5-bit group, 260 bits */
	static const uint64_t rec[5] = {
		0x0842108421084210ULL, 0x1084210842108421ULL,
		0x2108421084210842ULL, 0x4210842108421084ULL,
		0x0000000000000008ULL,
	};
	uint64_t table[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS]
	    __attribute__((aligned(32)));
	uint64_t e[VG_P256_W5_LIMBS] __attribute__((aligned(32)));
	uint64_t dd[5], zero, r_is_o;
	struct vg_p256_jac acc, s;
	int i, j;

	/* table[i] = [i + 1]P */
	vg_p256_copy4(acc.x, p->x);
	vg_p256_copy4(acc.y, p->y);
	vg_p256_copy4(acc.z, vg_p256_one);
	table_entry(k, table[0], &acc);
	vg_p256_point_double(k, &acc, &acc);
	table_entry(k, table[1], &acc);
	for (i = 2; i < VG_P256_W5_ENTRIES; i++) {
		vg_p256_point_add_affine(k, &acc, &acc, p);
		table_entry(k, table[i], &acc);
	}

	/* d' = d + 16 sum 32^j */
	{
		vg_p256_u128 c = 0;

		for (i = 0; i < 4; i++) {
			c += (vg_p256_u128)d[i] + rec[i];
			dd[i] = (uint64_t)c;
			c >>= 64;
		}
		dd[4] = rec[4] + (uint64_t)c;
	}

	/* top digit: R = its entry, or O */
	r_is_o = select_digit(k, e, table, digit5(dd, 51));
	vg_p256_copy4(acc.x, e);
	vg_p256_copy4(acc.y, e + 4);
	vg_p256_copy4(acc.z, e + 8);
	for (j = 50; j >= 0; j--) {
		for (i = 0; i < 5; i++)
			vg_p256_point_double(k, &acc, &acc);
		zero = select_digit(k, e, table, digit5(dd, j));
		vg_p256_point_add_cached(k, &s, &acc, e);
		/* R = O: take the entry; zero digit: keep R */
		vg_p256_cmov4(s.x, e, r_is_o);
		vg_p256_cmov4(s.y, e + 4, r_is_o);
		vg_p256_cmov4(s.z, e + 8, r_is_o);
		vg_p256_cmov4(acc.x, s.x, ~zero);
		vg_p256_cmov4(acc.y, s.y, ~zero);
		vg_p256_cmov4(acc.z, s.z, ~zero);
		r_is_o &= zero;
	}
	*r = acc;
	vg_wipe(table, sizeof(table));
	vg_wipe(e, sizeof(e));
	vg_wipe(dd, sizeof(dd));
	vg_wipe(&acc, sizeof(acc));
	vg_wipe(&s, sizeof(s));
}

/* 1 if the Jacobian point a (not O) equals the entry t = (X, Y, Z, Z^2,
 * Z^3), else 0. */
static int
equal_entry_vartime(const struct vg_p256_kernels *k,
    const struct vg_p256_jac *a, const uint64_t t[VG_P256_W5_LIMBS])
{
	uint64_t za[4], t1[4], t2[4];

	k->sqr(za, a->z);
	k->mul(t1, a->x, t + 12);
	k->mul(t2, t, za);
	if (!vg_p256_eq4_mask(t1, t2))
		return 0;
	k->mul(za, za, a->z);
	k->mul(t1, a->y, t + 16);
	k->mul(t2, t + 4, za);
	return vg_p256_eq4_mask(t1, t2) != 0;
}

/* see crypto/p256_int.h */
void
vg_p256_point_add_cached_vartime(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const uint64_t t[VG_P256_W5_LIMBS])
{
	struct vg_p256_jac s;

	if (vg_p256_is_zero4_mask(a->z)) {
		vg_p256_copy4(r->x, t);
		vg_p256_copy4(r->y, t + 4);
		vg_p256_copy4(r->z, t + 8);
		return;
	}
	vg_p256_point_add_cached(k, &s, a, t);
	if (vg_p256_is_zero4_mask(s.z) && equal_entry_vartime(k, a, t))
		vg_p256_point_double(k, &s, a);
	*r = s;
}

/* see crypto/p256_int.h */
void
vg_p256_point_add_affine_vartime(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const struct vg_p256_aff *b)
{
	uint64_t t[VG_P256_W5_LIMBS];
	struct vg_p256_jac s;

	vg_p256_copy4(t, b->x);
	vg_p256_copy4(t + 4, b->y);
	vg_p256_copy4(t + 8, vg_p256_one);
	vg_p256_copy4(t + 12, vg_p256_one);
	vg_p256_copy4(t + 16, vg_p256_one);
	if (vg_p256_is_zero4_mask(a->z)) {
		vg_p256_copy4(r->x, t);
		vg_p256_copy4(r->y, t + 4);
		vg_p256_copy4(r->z, t + 8);
		return;
	}
	vg_p256_point_add_affine(k, &s, a, b);
	if (vg_p256_is_zero4_mask(s.z) && equal_entry_vartime(k, a, t))
		vg_p256_point_double(k, &s, a);
	*r = s;
}

/* see crypto/p256_int.h */
void
vg_p256_point_add_vartime(const struct vg_p256_kernels *k,
    struct vg_p256_jac *r, const struct vg_p256_jac *a,
    const struct vg_p256_jac *b)
{
	uint64_t e[VG_P256_W5_LIMBS];

	if (vg_p256_is_zero4_mask(b->z)) {
		*r = *a;
		return;
	}
	table_entry(k, e, b);
	vg_p256_point_add_cached_vartime(k, r, a, e);
}

/* see crypto/p256_int.h */
void
vg_p256_point_entry(const struct vg_p256_kernels *k,
    uint64_t e[VG_P256_W5_LIMBS], const struct vg_p256_jac *a)
{
	table_entry(k, e, a);
}
