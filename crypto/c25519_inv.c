/*
 * Inversion modulo p = 2^255 - 19 by safegcd (crypto/modinv62.c), in
 * place of the Fermat exponentiation x^(p-2) (254 squarings and 11
 * multiplications) that X25519 and Ed25519 ran at the end of every scalar
 * multiplication: vg_fe25519_invert64 on 4 64-bit limbs (the ADX ladder)
 * and vg_fe25519_invert on radix 2^51 (the portable code). Both reduce
 * their input to [0, p) first, as safegcd needs, and return the canonical
 * inverse; 0 gives 0, as Fermat did (X25519 relies on it for low-order
 * points, which end in Z = 0 and an all-zero output).
 * CT: as crypto/modinv62.h; the reductions are masked.
 */
#include "config.h"

#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/ct.h"
#include "crypto/modinv62.h"

/* p in signed-62 form: 2^248 - 19 in limbs 0 .. 3 (2^62 - 19, then
 * 2^62 - 1 three times) and 127 above; p = -19 modulo 2^62, and
 * 0x39435e50d79435e5 times -19 is 1 modulo 2^62. */
static const struct vg_modinv62_modulus p25519 = {
	{ 0x3fffffffffffffedLL, 0x3fffffffffffffffLL, 0x3fffffffffffffffLL,
	    0x3fffffffffffffffLL, 0x7f },
	0x39435e50d79435e5ULL,
};

/* see crypto/c25519_kernels.h */
void
vg_fe25519_invert64(uint64_t r[4], const uint64_t a[4])
{
	uint64_t t[4];

	vg_fe25519_reduce64(t, a);
	vg_modinv62(r, t, &p25519);
	vg_wipe(t, sizeof(t));
}

/* see crypto/c25519_int.h */
void
vg_fe25519_invert(vg_fe25519 h, const vg_fe25519 f)
{
	uint64_t t[4];

	vg_fe25519_to64(t, f);
	vg_modinv62(t, t, &p25519);
	vg_fe25519_from64(h, t);
	vg_wipe(t, sizeof(t));
}
