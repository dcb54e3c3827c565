/*
 * P-256 multiplications involving the generator G: the constant-time
 * fixed-base multiplication (key generation, ECDSA signing) and the
 * variable-time [u1]G + [u2]Q of ECDSA verification.
 *
 * Fixed base. k is recoded into 37 signed 7-bit digits (Booth recoding:
 * digit j is bits 7j .. 7j+6 plus bit 7j-1, minus 128 times bit 7j+6), so
 * k = sum_{j<37} d_j 2^(7j) with d_j in [-64, 64] and d_36 in [0, 16]. Row
 * j of vg_p256_base_table holds [i] 2^(7j) G, i = 1 .. 64, affine; the sum
 * needs no doubling: 36 mixed additions (8M + 3S) and 37 constant-time
 * selections of 64 entries. The table (37 x 64 x 64 bytes = 148 KiB) is
 * generated at build time by crypto/p256_gentable.c: it is then read-only
 * data shared by every process, costs nothing at first use and adds no
 * mutable global or lock (the alternative, computing it under pthread_once,
 * costs about 2,400 point additions and inversions in the first signature).
 * 7-bit windows are the usual choice (OpenSSL's and aws-lc's nistz256
 * tables): 6-bit ones would read fewer entries (43 x 32) but add six
 * additions; both cost about the same here.
 *
 * Why no addition is exceptional. Before digit j is added, R = [a_j]G with
 * a_j = sum_{i<j} d_i 2^(7i) = (k mod 2^(7j)) - 2^(7j) bit(k, 7j-1), so
 * |a_j| <= 2^(7j-1), and the addend is [b]G with b = d_j 2^(7j), |b| >=
 * 2^(7j) when d_j != 0. R = +-[b]G iff a_j = +-b (mod n).
 *  - j <= 35: 0 < |a_j -+ b| <= 2^(7j-1) + 2^(7j+6) < n: never.
 *  - j = 36: a + b = k is in [1, n - 1], so a = -b (mod n) is excluded;
 *    a = b (mod n) with 0 < b - a < 2^256 + 2^251 < 2n means b - a = n,
 *    so d_36 2^252 = n + a lies within 2^251 of n: d_36 = 16, and then
 *    k = a + b = 2^257 - n > n, a contradiction.
 * What remains, R = O (all digits so far zero) and a zero digit, is fixed
 * with masks as in crypto/p256_point.c.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/p256_int.h"

/*
 * Booth digit j (0 <= j <= 36) of the 256-bit k: returns |d_j| (0 .. 64)
 * and sets *neg to all-ones when d_j < 0. CT: the shifts depend on j only.
 */
static uint32_t
booth7(const uint64_t kk[4], int j, uint64_t *neg)
{
	int bit = 7 * j - 1;
	uint64_t w;
	uint32_t v, s, sm;

	if (bit < 0) {
		w = kk[0] << 1;
	} else {
		int li = bit / 64, sh = bit % 64;

		w = kk[li] >> sh;
		if (sh > 56 && li < 3)
			w |= kk[li + 1] << (64 - sh);
	}
	w &= 0xff;
	v = (uint32_t)((w >> 1) + (w & 1));
	s = vg_ct_barrier32((uint32_t)(w >> 7));
	sm = 0 - s;
	*neg = 0 - (uint64_t)s;
	return ((128 - v) & sm) | (v & ~sm);
}

/*
 * e = the entry of digit j, its y negated when the digit is negative;
 * returns all-ones for a zero digit (e is then the zero entry). e is
 * overwritten by the next selection and wiped once by the caller; t and
 * ny stay in this frame, which vg_p256_scrub clears after the operation.
 */
static uint64_t
select_base(const struct vg_p256_kernels *k, struct vg_p256_aff *e,
    const uint64_t kk[4], int j)
{
	uint64_t t[VG_P256_W7_LIMBS], ny[4], neg;
	uint32_t abs;

	_Static_assert(sizeof(*e) == sizeof(t), "an entry is x then y");
	abs = booth7(kk, j, &neg);
	k->select_w7(t, vg_p256_base_table[j], abs);
	memcpy(e, t, sizeof(*e));
	vg_p256_fe_neg(ny, e->y);
	vg_p256_cmov4(e->y, ny, neg);
	return vg_ct_zero_mask64(abs);
}

/* see crypto/p256_int.h */
void
vg_p256_base_mul(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const uint64_t d[4])
{
	static const uint64_t zero4[4] = { 0, 0, 0, 0 };
	struct vg_p256_aff e;
	struct vg_p256_jac acc, s;
	uint64_t zero, r_is_o;
	int j;

	r_is_o = select_base(k, &e, d, 0);
	vg_p256_copy4(acc.x, e.x);
	vg_p256_copy4(acc.y, e.y);
	vg_p256_copy4(acc.z, vg_p256_one);
	for (j = 1; j < VG_P256_W7_ROWS; j++) {
		zero = select_base(k, &e, d, j);
		vg_p256_point_add_affine(k, &s, &acc, &e);
		/* R = O: take the entry; zero digit: keep R */
		vg_p256_cmov4(s.x, e.x, r_is_o);
		vg_p256_cmov4(s.y, e.y, r_is_o);
		vg_p256_cmov4(s.z, vg_p256_one, r_is_o);
		vg_p256_cmov4(acc.x, s.x, ~zero);
		vg_p256_cmov4(acc.y, s.y, ~zero);
		vg_p256_cmov4(acc.z, s.z, ~zero);
		r_is_o &= zero;
	}
	/* d = 0 (a precondition violation) gives O rather than garbage */
	vg_p256_cmov4(acc.z, zero4, r_is_o);
	*r = acc;
	vg_wipe(&e, sizeof(e));
	vg_wipe(&acc, sizeof(acc));
	vg_wipe(&s, sizeof(s));
}

/* 64 bits of u < 2^256 from bit i on (0 <= i), zeros above bit 255. */
static uint64_t
bits_from(const uint64_t u[4], int i)
{
	int w = i / 64, sh = i % 64;
	uint64_t v;

	if (w > 3)
		return 0;
	v = u[w] >> sh;
	if (sh != 0 && w < 3)
		v |= u[w + 1] << (64 - sh);
	return v;
}

/*
 * see crypto/p256_int.h
 * The scalar is read, never modified: a carry c in {0, 1} stands for what
 * the digits so far took from above (u = sum of digits + 2^i (u >> i + c)).
 * A digit is nonzero at bit i exactly when bit i differs from c, so the
 * zeros between digits are skipped by counting the trailing zeros of the
 * bits from i on (their complement when c = 1), 64 at a time; at a digit
 * the w bits from i plus c are odd, and their signed residue mod 2^w is the
 * digit, with c = 1 when it is negative.
 */
int
vg_p256_wnaf_vartime(int16_t naf[VG_P256_WNAF_LEN], const uint64_t u[4],
    int w)
{
	const uint64_t wmask = ((uint64_t)1 << w) - 1;
	int i = 0, len = 0;
	uint64_t c = 0, b;

	assert(w >= 2 && w <= 15);
	memset(naf, 0, VG_P256_WNAF_LEN * sizeof(naf[0]));
	while (i < VG_P256_WNAF_LEN) {
		b = bits_from(u, i) ^ (0 - c);
		if (b == 0) {
			i += 64;
			continue;
		}
		i += __builtin_ctzll(b);
		if (i >= VG_P256_WNAF_LEN)
			break;
		b = (bits_from(u, i) & wmask) + c;      /* odd */
		c = b >> (w - 1);
		naf[i] = (int16_t)((int64_t)b - (int64_t)(c << w));
		len = i + 1;
		i += w;
	}
	return len;
}

/*
 * see crypto/p256_int.h
 * Straus' interleaving: one chain of doublings for both terms, into which
 * go the width-5 NAF digits of u2 (odd multiples of Q, computed here) and
 * the width-9 NAF digits of u1 (odd multiples of G from the build-time
 * table vg_p256_base_odd, affine). About 256 / 10 mixed additions for the
 * G term against 37 by the comb rows, and no final addition of two
 * Jacobian points. Verification inputs are public: this code branches on
 * the digits and indexes tables with them, on purpose.
 */
void
vg_p256_mul2_vartime(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const uint64_t u1[4], const uint64_t u2[4], const struct vg_p256_aff *q)
{
	uint64_t tab[8][VG_P256_W5_LIMBS], e2[VG_P256_W5_LIMBS],
	    e[VG_P256_W5_LIMBS];
	struct vg_p256_jac acc, t;
	struct vg_p256_aff a;
	int16_t naf1[VG_P256_WNAF_LEN], naf2[VG_P256_WNAF_LEN];
	int i, n1, n2;

	/* odd multiples Q, 3Q, ..., 15Q */
	vg_p256_copy4(t.x, q->x);
	vg_p256_copy4(t.y, q->y);
	vg_p256_copy4(t.z, vg_p256_one);
	vg_p256_point_entry(k, tab[0], &t);
	vg_p256_point_double(k, &acc, &t);
	vg_p256_point_entry(k, e2, &acc);
	for (i = 1; i < 8; i++) {
		vg_p256_point_add_cached(k, &t, &t, e2);
		vg_p256_point_entry(k, tab[i], &t);
	}
	n1 = vg_p256_wnaf_vartime(naf1, u1, VG_P256_G_ODD_W);
	n2 = vg_p256_wnaf_vartime(naf2, u2, 5);
	vg_p256_copy4(acc.z, (const uint64_t[4]){ 0, 0, 0, 0 });
	for (i = (n1 > n2 ? n1 : n2) - 1; i >= 0; i--) {
		int d1 = i < n1 ? naf1[i] : 0, d2 = i < n2 ? naf2[i] : 0;

		if (!vg_p256_is_zero4_mask(acc.z))
			vg_p256_point_double(k, &acc, &acc);
		if (d2 != 0) {
			memcpy(e, tab[(d2 < 0 ? -d2 : d2) / 2], sizeof(e));
			if (d2 < 0)
				vg_p256_fe_neg(e + 4, e + 4);
			vg_p256_point_add_cached_vartime(k, &acc, &acc, e);
		}
		if (d1 != 0) {
			const uint64_t *g = vg_p256_base_odd[(d1 < 0 ? -d1 :
			    d1) / 2];

			vg_p256_copy4(a.x, g);
			vg_p256_copy4(a.y, g + 4);
			if (d1 < 0)
				vg_p256_fe_neg(a.y, a.y);
			vg_p256_point_add_affine_vartime(k, &acc, &acc, &a);
		}
	}
	*r = acc;
}
