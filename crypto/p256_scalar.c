/*
 * Arithmetic modulo the P-256 group order
 * n = ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551
 * in Montgomery form (2^256), for ECDSA: the portable multiplication twin,
 * conversions, reduction and range checks (the inversion is in
 * crypto/p256_inv.c).
 */
#include "config.h"

#include "crypto/p256_int.h"

const uint64_t vg_p256_n[4] = {
	0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL,
	0xffffffffffffffffULL, 0xffffffff00000000ULL,
};
const uint64_t vg_p256_n_rr[4] = {
	0x83244c95be79eea2ULL, 0x4699799c49bd6fa6ULL,
	0x2845b2392b6bec59ULL, 0x66e12d94f3d95620ULL,
};
const uint64_t vg_p256_n_one[4] = {
	0x0c46353d039cdaafULL, 0x4319055258e8617bULL,
	0x0000000000000000ULL, 0x00000000ffffffffULL,
};

/* -n^-1 mod 2^64 */
#define N0 0xccd1c8aaee00bc4fULL

/* see crypto/p256_kernels.h */
void
vg_p256_ord_mul_c(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	vg_p256_montmul_generic(r, a, b, vg_p256_n, N0);
}

/* see crypto/p256_int.h */
void
vg_p256_ord_to_mont(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4])
{
	k->ord_mul(r, a, vg_p256_n_rr);
}

/* see crypto/p256_int.h */
void
vg_p256_ord_from_mont(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4])
{
	static const uint64_t one[4] = { 1, 0, 0, 0 };

	k->ord_mul(r, a, one);
}

/* see crypto/p256_int.h */
void
vg_p256_ord_reduce(uint64_t r[4], const uint64_t a[4])
{
	uint64_t t[4], lt;

	/* a < 2^256 < 2n: one conditional subtraction */
	lt = 0 - vg_ct_barrier64(vg_p256_sub4(t, a, vg_p256_n));
	vg_p256_cmov4(t, a, lt);
	vg_p256_copy4(r, t);
	vg_wipe(t, sizeof(t));
}

/* see crypto/p256_int.h */
uint64_t
vg_p256_ord_valid_mask(const uint64_t a[4])
{
	return vg_p256_lt4_mask(a, vg_p256_n) & ~vg_p256_is_zero4_mask(a);
}
