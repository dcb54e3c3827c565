/*
 * Inversion modulo the P-256 prime p and the group order n by safegcd
 * (crypto/modinv62.c): about 4x fewer instructions than the Fermat
 * exponentiation (255 squarings) it replaces in vg_p256_fe_inv and
 * vg_p256_ord_inv. The inputs are Montgomery forms, x 2^256: the plain
 * inverse of that is x^-1 2^-256, and one Montgomery product with
 * 2^768 brings it to x^-1 2^256. vg_p256_fe_ord_inv runs an inversion
 * modulo p and one modulo n side by side.
 * CT: as crypto/modinv62.h (vg_p256_ord_inv_vartime: none).
 */
#include "config.h"

#include "crypto/modinv62.h"
#include "crypto/p256_int.h"

/* p and n in signed-62 form and their inverses modulo 2^62 */
static const struct vg_modinv62_modulus p_info = {
	{ 0x3fffffffffffffffLL, 0x3ffffffffLL, 0, 0x3fffffc000000040LL,
	    0xff },
	0x3fffffffffffffffULL,
};

static const struct vg_modinv62_modulus n_info = {
	{ 0x33b9cac2fc632551LL, 0x339beab69c5e7a13LL, 0x3ffffffffffffffbLL,
	    0x3fffffc00000003fLL, 0xff },
	0x332e375511ff43b1ULL,
};

/* 2^768 mod p and mod n */
static const uint64_t p_r3[4] = {
	0xfffffffd0000000aULL, 0xffffffedfffffff7ULL,
	0x00000005fffffffcULL, 0x0000001800000001ULL,
};
static const uint64_t n_r3[4] = {
	0xac8ebec90b65a624ULL, 0x111f28ae0c0555c9ULL,
	0x2543b9246ba5e93fULL, 0x503a54e76407be65ULL,
};

/* see crypto/p256_int.h */
void
vg_p256_fe_inv(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4])
{
	uint64_t t[4];

	vg_modinv62(t, a, &p_info);
	k->mul(r, t, p_r3);
	vg_wipe(t, sizeof(t));
}

/* see crypto/p256_int.h */
void
vg_p256_ord_inv(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4])
{
	uint64_t t[4];

	vg_modinv62(t, a, &n_info);
	k->ord_mul(r, t, n_r3);
	vg_wipe(t, sizeof(t));
}

/* see crypto/p256_int.h */
void
vg_p256_fe_ord_inv(const struct vg_p256_kernels *k, uint64_t fr[4],
    const uint64_t fa[4], uint64_t nr[4], const uint64_t na[4])
{
	uint64_t t[4], u[4];

	vg_modinv62_x2(t, fa, &p_info, u, na, &n_info);
	k->mul(fr, t, p_r3);
	k->ord_mul(nr, u, n_r3);
	vg_wipe(t, sizeof(t));
	vg_wipe(u, sizeof(u));
}

/* see crypto/p256_int.h */
void
vg_p256_ord_inv_vartime(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4])
{
	uint64_t t[4];

	vg_modinv62_vartime(t, a, &n_info);
	k->ord_mul(r, t, n_r3);
}
