/*
 * Kernel sub-table for Curve25519: part of struct vg_kernels (crypto/
 * cpu.h), filled once by vg_c25519_kernels_fill() from the features in
 * use. crypto/x25519.c reaches the X25519 scalar multiplication only
 * through this table; every kernel has a portable twin (suffix _c) with
 * the same contract, declared below with its x86-64 variants.
 *
 * Field elements of the kernels mul64 and sqr64 are 4 little-endian 64-bit
 * limbs, any value below 2^256 standing for itself modulo p = 2^255 - 19.
 * (The portable point and ladder code of crypto/c25519_int.h uses radix
 * 2^51 instead, which is faster without MULX.)
 *
 * CT: every kernel here runs in time independent of its operands' values
 * (straight-line code); only the kernel chosen, which depends on the CPU
 * alone, is observable.
 */
#ifndef VG_CRYPTO_C25519_KERNELS_H
#define VG_CRYPTO_C25519_KERNELS_H

#include <stdint.h>

struct vg_c25519_kernels {
	/*
	 * r = a * b (mod p) for any a, b < 2^256: the 512-bit product
	 * t = lo + 2^256 hi is folded to lo + 38 hi (a carry word c < 2^7
	 * above 256 bits), then c 38 is added, and 38 once more if that
	 * carried out of 2^256. r < 2^256, not necessarily below p; every
	 * variant returns the same limbs. r may alias a and/or b.
	 */
	void (*mul64)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
	/* r = a^2 (mod p): the contract of mul64 with b = a. */
	void (*sqr64)(uint64_t r[4], const uint64_t a[4]);
	/*
	 * out = X25519(k, u) [RFC 7748 §5]: k is clamped here, the top bit
	 * of u ignored and non-canonical u reduced; out is canonical (may be
	 * all zero: the caller checks). The Montgomery ladder with a masked
	 * swap, and the inversion by safegcd (vg_fe25519_invert64 below, or
	 * vg_fe25519_invert). Temporaries are wiped.
	 */
	void (*x25519)(uint8_t out[32], const uint8_t k[32],
	    const uint8_t u[32]);
	const char *impl;
};

/* Fills *k for the given feature set (crypto/cpu.h). */
void vg_c25519_kernels_fill(struct vg_c25519_kernels *k, unsigned features);

/* Portable twins: crypto/c25519_kernels.c (mul64, sqr64) and
 * crypto/x25519.c (the ladder, in radix 2^51). */
void vg_fe25519_mul64_c(uint64_t r[4], const uint64_t a[4],
    const uint64_t b[4]);
void vg_fe25519_sqr64_c(uint64_t r[4], const uint64_t a[4]);
void vg_x25519_ladder_c(uint8_t out[32], const uint8_t k[32],
    const uint8_t u[32]);

/* r = a^-1 mod p, canonical, for any a < 2^256 (0 gives 0); r may alias
 * a. Not a kernel: one portable safegcd for every kernel set
 * (crypto/c25519_inv.c). CT: nothing depends on a's value. */
void vg_fe25519_invert64(uint64_t r[4], const uint64_t a[4]);

#if defined(__x86_64__)
#define VG_HAVE_C25519_X86_64_KERNELS 1
/* MULX/ADCX/ADOX (BMI2 and ADX): crypto/x86_64/vg_fe25519_mul64_adx.c,
 * the field multiplication and squaring and the ladder that inlines
 * them. */
void vg_fe25519_mul64_adx(uint64_t r[4], const uint64_t a[4],
    const uint64_t b[4]);
void vg_fe25519_sqr64_adx(uint64_t r[4], const uint64_t a[4]);
void vg_x25519_ladder_adx(uint8_t out[32], const uint8_t k[32],
    const uint8_t u[32]);
#endif

#endif
