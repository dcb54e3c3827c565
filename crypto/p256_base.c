/*
 * P-256 multiplications involving the generator G: the constant-time
 * fixed-base multiplication (key generation, ECDSA signing) and the
 * variable-time [u1]G + [u2]Q of ECDSA verification.
 *
 * Fixed base. k is made odd (k' = k, or n - k when k is even, the result
 * then negated at the end) and written in the regular signed recoding
 * with odd digits: E = (k' - 1) / 2 + 2^258 in base 128, e_j its 37
 * digits, and d_j = 2 e_j - 127 gives k' = 2 E - (2^259 - 1) =
 * sum_{j<37} d_j 2^(7j) with every d_j odd in [-127, 127] (d_36 in
 * [1, 15]). Row j of vg_p256_base_table holds [2i + 1] 2^(7j) G,
 * i = 0 .. 63, affine; the entry of d_j is i = (|d_j| - 1) / 2, which is
 * e_j - 64 or 63 - e_j. No digit is zero, so the sum is R = entry 0 and
 * then 36 mixed additions (8M + 3S) with 37 constant-time selections of
 * 64 entries, and nothing else: no mask for a zero digit, none for R = O.
 * The table (37 x 64 x 64 bytes = 148 KiB) is generated at build time by
 * crypto/p256_gentable.c: it is then read-only data shared by every
 * process, costs nothing at first use and adds no mutable global or lock
 * (the alternative, computing it under pthread_once, costs about 2,400
 * point additions and inversions in the first signature). 7-bit windows
 * are the usual choice (OpenSSL's and aws-lc's nistz256 tables): 6-bit
 * ones would read fewer entries (43 x 32) but add six additions; both
 * cost about the same here.
 *
 * Why no addition is exceptional. Before digit j is added, R = [a_j]G with
 * a_j = sum_{i<j} d_i 2^(7i), so 1 <= |a_j| <= 2^(7j) - 1 for j >= 1 (by
 * induction: |d_(j-1)| 2^(7j-7) >= 2^(7j-7) outweighs |a_(j-1)|, and
 * |d_i| <= 127 bounds the sum), and the addend is [b]G with
 * b = d_j 2^(7j), 2^(7j) <= |b| <= 127 2^(7j). R = +-[b]G iff a_j = +-b
 * (mod n).
 *  - j <= 35: 0 < |b| - |a_j| <= |a_j -+ b| <= 2^(7j+7) - 1 < n: never.
 *  - j = 36: a + b = k' is in [1, n - 1], so a = -b (mod n) is excluded;
 *    a = b (mod n) with 0 < b - a < 16 2^252 = 2^256 < 2n means
 *    b - a = n, so d_36 2^252 = n + a > n - 2^252 > 15 2^252 >= b:
 *    impossible.
 * And R is never O: a_j != 0 (mod n) by the same bounds.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/p256_int.h"

/*
 * Digit j (0 <= j <= 36) of the recoding above from the 5-limb E: returns
 * the entry index (|d_j| - 1) / 2 (0 .. 63) and sets *neg to all-ones when
 * d_j < 0. CT: the shifts depend on j only.
 */
static uint32_t
odd7(const uint64_t e[5], int j, uint64_t *neg)
{
	int bit = 7 * j, li = bit / 64, sh = bit % 64;
	uint64_t w = e[li] >> sh;
	uint32_t v, s;

	if (sh > 57)
		w |= e[li + 1] << (64 - sh);
	v = (uint32_t)(w & 127);
	s = vg_ct_barrier32(v >> 6);            /* d_j > 0 */
	*neg = (uint64_t)s - 1;
	/* e_j >= 64: e_j - 64 = v & 63; else 63 - e_j = ~v & 63 */
	return (v ^ (s - 1)) & 63;
}

/* A selected table entry, as the selection writes it and as the addition
 * reads it. */
union base_entry {
	uint64_t w[VG_P256_W7_LIMBS];
	struct vg_p256_aff a;
};

_Static_assert(sizeof(struct vg_p256_aff) ==
    VG_P256_W7_LIMBS * sizeof(uint64_t), "an entry is x then y");

/*
 * e = the entry of digit j, its y negated when the digit is negative: the
 * selection complements y under the mask (~y = 2^256 - 1 - y), and adding
 * p + 1 under the same mask gives 2^256 + p - y, that is p - y modulo
 * 2^256. This is the negation, fully reduced, because 0 < y < p: the
 * entries are points of the curve, and none has y = 0 (such a point would
 * have order 2, and the group's order n is odd). e is overwritten by the
 * next selection and wiped once by the caller; pp stays in this frame,
 * which the operation's VG_WIPE_STACK clears after the operation.
 */
static void
select_base(const struct vg_p256_kernels *k, union base_entry *e,
    const uint64_t ee[5], int j)
{
	uint64_t pp[4], neg;
	uint32_t idx;

	idx = odd7(ee, j, &neg);
	k->select_w7(e->w, vg_p256_base_table[j], idx + 1, neg);
	pp[0] = 0;
	pp[1] = neg & 0x100000000ULL;           /* p + 1, limb by limb */
	pp[2] = 0;
	pp[3] = neg & 0xffffffff00000001ULL;
	(void)vg_p256_add4(e->a.y, e->a.y, pp);
}

/* see crypto/p256_int.h */
void
vg_p256_base_mul(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const uint64_t d[4])
{
	static const uint64_t zero4[4] = { 0, 0, 0, 0 };
	union base_entry e;
	struct vg_p256_jac acc;
	uint64_t kk[4], ee[5], even, ny[4];
	int j;

	/* k' = d or n - d, odd; E = (k' - 1) / 2 + 2^258 */
	even = vg_ct_barrier64(d[0] & 1) - 1;
	vg_p256_sub4(kk, vg_p256_n, d);
	vg_p256_cmov4(kk, d, ~even);
	for (j = 0; j < 3; j++)
		ee[j] = (kk[j] >> 1) | (kk[j + 1] << 63);
	ee[3] = kk[3] >> 1;
	ee[4] = 4;

	select_base(k, &e, ee, 0);
	vg_p256_copy4(acc.x, e.a.x);
	vg_p256_copy4(acc.y, e.a.y);
	vg_p256_copy4(acc.z, vg_p256_one);
	for (j = 1; j < VG_P256_W7_ROWS; j++) {
		select_base(k, &e, ee, j);
		vg_p256_point_add_affine(k, &acc, &acc, &e.a);
	}
	/* [n - d]G = -[d]G */
	vg_p256_fe_neg(ny, acc.y);
	vg_p256_cmov4(acc.y, ny, even);
	/* d = 0 (a precondition violation) gives O rather than garbage */
	vg_p256_cmov4(acc.z, zero4, vg_p256_is_zero4_mask(d));
	*r = acc;
	vg_wipe(&e, sizeof(e));
	vg_wipe(&acc, sizeof(acc));
	vg_wipe(kk, sizeof(kk));
	vg_wipe(ee, sizeof(ee));
	vg_wipe(ny, sizeof(ny));
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
