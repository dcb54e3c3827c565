/*
 * X25519 [RFC 7748 §5]: the Montgomery ladder on the u-coordinate with a
 * constant-time conditional swap.
 */
#include "config.h"

#include <string.h>

#include "crypto/c25519.h"
#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/drbg.h"

/* see crypto/c25519_kernels.h */
void
vg_x25519_ladder_c(uint8_t out[32], const uint8_t k[32], const uint8_t u[32])
{
	uint8_t e[32];
	vg_fe25519 x1, x2, z2, x3, z3, a, aa, b, bb, c, d, da, cb, ee;
	uint64_t swap = 0, bit;
	int t;

	memcpy(e, k, 32);
	e[0] &= 248;
	e[31] &= 127;
	e[31] |= 64;
	vg_fe25519_frombytes(x1, u);
	vg_fe25519_1(x2);
	vg_fe25519_0(z2);
	vg_fe25519_copy(x3, x1);
	vg_fe25519_1(z3);
	for (t = 254; t >= 0; t--) {
		bit = (uint64_t)(e[t >> 3] >> (t & 7)) & 1;
		swap ^= bit;
		vg_fe25519_cswap(x2, x3, swap);
		vg_fe25519_cswap(z2, z3, swap);
		swap = bit;

		vg_fe25519_add(a, x2, z2);
		vg_fe25519_sqr(aa, a);
		vg_fe25519_sub(b, x2, z2);
		vg_fe25519_sqr(bb, b);
		vg_fe25519_sub(ee, aa, bb);
		vg_fe25519_add(c, x3, z3);
		vg_fe25519_sub(d, x3, z3);
		vg_fe25519_mul(da, d, a);
		vg_fe25519_mul(cb, c, b);
		vg_fe25519_add(x3, da, cb);
		vg_fe25519_sqr(x3, x3);
		vg_fe25519_sub(z3, da, cb);
		vg_fe25519_sqr(z3, z3);
		vg_fe25519_mul(z3, z3, x1);
		vg_fe25519_mul(x2, aa, bb);
		vg_fe25519_mul_small(z2, ee, 121665);
		vg_fe25519_add(z2, z2, aa);
		vg_fe25519_mul(z2, z2, ee);
	}
	vg_fe25519_cswap(x2, x3, swap);
	vg_fe25519_cswap(z2, z3, swap);
	vg_fe25519_invert(z2, z2);
	vg_fe25519_mul(x2, x2, z2);
	vg_fe25519_tobytes(out, x2);

	vg_wipe(e, sizeof(e));
	vg_wipe(x1, sizeof(x1));
	vg_wipe(x2, sizeof(x2));
	vg_wipe(z2, sizeof(z2));
	vg_wipe(x3, sizeof(x3));
	vg_wipe(z3, sizeof(z3));
	vg_wipe(a, sizeof(a));
	vg_wipe(aa, sizeof(aa));
	vg_wipe(b, sizeof(b));
	vg_wipe(bb, sizeof(bb));
	vg_wipe(c, sizeof(c));
	vg_wipe(d, sizeof(d));
	vg_wipe(da, sizeof(da));
	vg_wipe(cb, sizeof(cb));
	vg_wipe(ee, sizeof(ee));
	vg_wipe(&swap, sizeof(swap));
}

/*
 * X25519(k, 9) through the fixed-base comb of Ed25519: u = 9 is the image
 * of the Ed25519 base point B under the birational map u = (1 + y) / (1 - y)
 * [RFC 7748 §4.1], so [k] B in extended coordinates gives
 * u = (Z + Y) / (Z - Y) (vg_ge25519_scalarmult_base_bytes, which the ADX
 * kernels compute on their own limbs). The clamped k is a nonzero multiple of 8 below
 * 2^255, so [k] B is never the identity (Z - Y = 0 would need 8 L | k,
 * and 8 L > 2^255) and its top byte is below 128, as the comb requires.
 * About a third of the ladder's cost (doc/kernels.md).
 */
static void
x25519_base(uint8_t pk[VG_X25519_LEN], const uint8_t sk[VG_X25519_LEN])
{
	uint8_t e[32];

	memcpy(e, sk, 32);
	e[0] &= 248;
	e[31] &= 127;
	e[31] |= 64;
	vg_ge25519_scalarmult_base_bytes(pk, e, VG_GE25519_BASE_U);
	vg_wipe(e, sizeof(e));
}

/* see crypto/c25519.h */
enum vg_err
vg_x25519_public(uint8_t pk[VG_X25519_LEN], const uint8_t sk[VG_X25519_LEN])
{
	if (pk == NULL || sk == NULL)
		return VG_ERR_ARG;
	x25519_base(pk, sk);
	return VG_OK;
}

/* see crypto/c25519.h */
enum vg_err
vg_x25519_keygen(struct vg_rng *rng, uint8_t sk[VG_X25519_LEN],
    uint8_t pk[VG_X25519_LEN])
{
	uint8_t k[VG_X25519_LEN];
	enum vg_err rv;

	if (rng == NULL || sk == NULL || pk == NULL)
		return VG_ERR_ARG;
	rv = vg_rng_generate(rng, k, sizeof(k));
	if (rv == VG_OK) {
		x25519_base(pk, k);
		memcpy(sk, k, sizeof(k));
	} else {
		rv = VG_ERR_RANDOM;
	}
	vg_wipe(k, sizeof(k));
	return rv;
}

/* see crypto/c25519.h */
enum vg_err
vg_x25519(uint8_t out[VG_X25519_LEN], const uint8_t sk[VG_X25519_LEN],
    const uint8_t peer[VG_X25519_LEN])
{
	return vg_x25519_k(&vg_kernels()->c25519, out, sk, peer);
}

/* see crypto/c25519.h */
enum vg_err
vg_x25519_k(const struct vg_c25519_kernels *k, uint8_t out[VG_X25519_LEN],
    const uint8_t sk[VG_X25519_LEN], const uint8_t peer[VG_X25519_LEN])
{
	uint8_t r[VG_X25519_LEN];
	uint64_t d = 0;
	enum vg_err rv = VG_OK;
	int i;

	if (k == NULL || out == NULL || sk == NULL || peer == NULL)
		return VG_ERR_ARG;
	k->x25519(r, sk, peer);
	for (i = 0; i < VG_X25519_LEN; i++)
		d |= r[i];
	/* Only the verdict "all zero" (a low-order peer point) is
	 * revealed. */
	d = vg_ct_nonzero64(d);
	VG_CT_DECLASSIFY(&d, sizeof(d));
	if (d)
		memcpy(out, r, sizeof(r));
	else {
		vg_wipe(out, VG_X25519_LEN);
		rv = VG_ERR_DECODE;
	}
	vg_wipe(r, sizeof(r));
	return rv;
}
