/*
 * Modular inversion by "safegcd" [Bernstein, Yang: Fast constant-time gcd
 * computation and modular inversion, TCHES 2019] for odd moduli below
 * 2^256, on signed 62-bit limbs (crypto/modinv62.c), and for odd moduli
 * of any width up to VG_BN_MAX_WORDS words. Shared by the P-256 field and
 * scalars (crypto/p256_inv.c), the Curve25519 field (crypto/c25519_inv.c)
 * and the big numbers of RSA (crypto/bn.c); not part of the crypto/ API.
 *
 * Inputs and outputs are plain integers (not Montgomery forms) in
 * little-endian 64-bit limbs (4 of them below 2^256); every input must be
 * below the modulus, and every output is fully reduced. The inverse of 0
 * is 0 (the functions of any width report it as no inverse).
 *
 * CT: vg_modinv62 and vg_modinv62_x2 run a fixed number of steps with no
 * branch or memory index on the input (only the modulus, which is public,
 * is seen), those of any width on neither input nor modulus;
 * vg_modinv62_vartime branches on its input and is for public values
 * only.
 */
#ifndef VG_CRYPTO_MODINV62_H
#define VG_CRYPTO_MODINV62_H

#include <stddef.h>
#include <stdint.h>

/*
 * An odd modulus m < 2^256 in signed-62 form: m = sum m[i] 2^(62 i) with
 * m[0 .. 3] in [0, 2^62) and m[4] the rest; m_inv62 = m^-1 mod 2^62.
 * Callers define theirs as constants (crypto/p256_inv.c,
 * crypto/c25519_inv.c).
 */
struct vg_modinv62_modulus {
	int64_t m[5];
	uint64_t m_inv62;
};

/* r = a^-1 mod m for a < m (0 gives 0); r in [0, m). r may alias a. */
void vg_modinv62(uint64_t r[4], const uint64_t a[4],
    const struct vg_modinv62_modulus *m);

/* ra = a^-1 mod ma and rb = b^-1 mod mb, the two inversions interleaved
 * step by step (about 0.8 times the time of two calls on AMD Zen 4). CT:
 * as vg_modinv62. */
void vg_modinv62_x2(uint64_t ra[4], const uint64_t a[4],
    const struct vg_modinv62_modulus *ma, uint64_t rb[4],
    const uint64_t b[4], const struct vg_modinv62_modulus *mb);

/*
 * Any odd modulus m > 1 of n words (1 <= n <= VG_BN_MAX_WORDS, the top
 * ones may be zero): r = a^-1 mod m for 0 <= a < m (n words each);
 * returns all-ones if gcd(a, m) = 1, else 0 (r is then meaningless). r
 * may alias a. The batches run for the bound of a 64 n-bit modulus, on
 * about (64 n + 2) / 62 limbs. CT: only n (m may be secret too).
 */
uint64_t vg_modinv62_n(uint64_t *r, const uint64_t *a, const uint64_t *m,
    size_t n);

/* Two of them side by side, moduli of the same n words; ok[i] as the
 * return value above. CT: only n. */
void vg_modinv62_n_x2(uint64_t *ra, const uint64_t *a, const uint64_t *ma,
    uint64_t *rb, const uint64_t *b, const uint64_t *mb, size_t n,
    uint64_t ok[2]);

/* vg_modinv62 for public a: variable-time divsteps, stopping when done
 * (about a third of the time). CT: none, public inputs only. */
void vg_modinv62_vartime(uint64_t r[4], const uint64_t a[4],
    const struct vg_modinv62_modulus *m);

#endif
