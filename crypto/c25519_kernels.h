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

struct vg_ge25519; /* crypto/c25519_int.h */

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
	/*
	 * r = [a] B for a 32-byte little-endian scalar a < 2^255: a
	 * fixed-base comb, every entry of a table row read under a mask
	 * (the portable twin: 64 signed radix-16 digits, two per row of
	 * vg_ed25519_base_table, and four doublings; the ADX comb: 52
	 * signed radix-32 digits, one per row of vg_ed25519_base_table64,
	 * no doubling). Every variant returns the same point, not the same
	 * X, Y, Z, T (tight radix-2^51 limbs, crypto/c25519_int.h).
	 */
	void (*ed25519_base)(struct vg_ge25519 *r, const uint8_t a[32]);
	/*
	 * s = the encoding of [a] B [RFC 8032 §5.1.2], or with
	 * VG_GE25519_BASE_U in flags its Montgomery u = (1 + y) / (1 - y),
	 * canonical little-endian [RFC 7748 §4.1] ([a] B must not be the
	 * identity), for a as above: the comb of ed25519_base and the
	 * inversion, which the ADX variants take on their own 4x64-bit
	 * limbs. With VG_GE25519_BASE_SHORT, a must be below 2^253, and
	 * the ADX comb adds 51 entries (its top digit is 0 there); the
	 * twin ignores it. Every variant returns the same bytes for every
	 * flags when a meets them. flags (crypto/c25519_int.h) is public.
	 */
	void (*ed25519_base_bytes)(uint8_t s[32], const uint8_t a[32],
	    unsigned flags);
	/*
	 * r = [a] A + [b] B for 32-byte scalars and a point A with loose
	 * limbs, by signed sliding windows: public data only (variable
	 * time). Every variant returns the same point; its coordinates may
	 * differ by a common factor (tight limbs).
	 */
	void (*ed25519_double)(struct vg_ge25519 *r, const uint8_t a[32],
	    const struct vg_ge25519 *A, const uint8_t b[32]);
	const char *impl;         /* mul64 ... x25519: "adx" or "c" */
	/* ed25519_base, ed25519_double: "adx+avx2" (the comb's selection
	 * with AVX2), "adx" or "c" */
	const char *ed25519_impl;
};

/* Fills *k for the given feature set (crypto/cpu.h): the ADX kernels
 * when both VG_CPU_BMI2 and VG_CPU_ADX are set (the comb's AVX2 selection
 * with VG_CPU_AVX2 too), else the portable twins. */
void vg_c25519_kernels_fill(struct vg_c25519_kernels *k, unsigned features);

/* Portable twins: crypto/c25519_kernels.c (mul64, sqr64),
 * crypto/x25519.c (the ladder), crypto/ed25519_base.c (the comb) and
 * crypto/ed25519_point.c (the double multiplication), in radix 2^51. */
void vg_fe25519_mul64_c(uint64_t r[4], const uint64_t a[4],
    const uint64_t b[4]);
void vg_fe25519_sqr64_c(uint64_t r[4], const uint64_t a[4]);
void vg_x25519_ladder_c(uint8_t out[32], const uint8_t k[32],
    const uint8_t u[32]);
void vg_ge25519_scalarmult_base_c(struct vg_ge25519 *r, const uint8_t a[32]);
void vg_ge25519_scalarmult_base_bytes_c(uint8_t s[32], const uint8_t a[32],
    unsigned flags);
void vg_ge25519_double_scalarmult_vartime_c(struct vg_ge25519 *r,
    const uint8_t a[32], const struct vg_ge25519 *A, const uint8_t b[32]);
/*
 * The selection of the ADX comb (crypto/ed25519_base.c): t = row[babs - 1]
 * for 1 <= babs <= 16, the identity (1, 1, 0) for babs = 0, over one row
 * of vg_ed25519_base_table64 (12 limbs per entry), with YpX and YmX
 * swapped when neg = 1 (neg is 0 or 1; the caller negates T2d), in
 * straight-line code on 64-bit masks. CT: every entry is read; no branch
 * or address depends on babs or neg.
 */
void vg_ed25519_select64_c(uint64_t t[12], const uint64_t row[16][12],
    uint64_t babs, uint64_t neg);

/* r = a^-1 mod p, canonical, for any a < 2^256 (0 gives 0); r may alias
 * a. Not a kernel: one portable safegcd for every kernel set
 * (crypto/c25519_inv.c). CT: nothing depends on a's value. */
void vg_fe25519_invert64(uint64_t r[4], const uint64_t a[4]);

/* r = a mod p, canonical, for any a < 2^256; r may alias a. Portable, for
 * every kernel set (crypto/c25519_field.c). CT: masked, no branch. */
void vg_fe25519_reduce64(uint64_t r[4], const uint64_t a[4]);

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
/* The Edwards point formulas on the same field: crypto/x86_64/
 * vg_ed25519_adx.c. The comb selects with masked 64-bit words (_adx) or
 * with AVX2 (_adx_avx2, which needs AVX2 as well). */
void vg_ge25519_scalarmult_base_adx(struct vg_ge25519 *r,
    const uint8_t a[32]);
void vg_ge25519_scalarmult_base_adx_avx2(struct vg_ge25519 *r,
    const uint8_t a[32]);
void vg_ge25519_scalarmult_base_bytes_adx(uint8_t s[32], const uint8_t a[32],
    unsigned flags);
void vg_ge25519_scalarmult_base_bytes_adx_avx2(uint8_t s[32],
    const uint8_t a[32], unsigned flags);
void vg_ge25519_double_scalarmult_vartime_adx(struct vg_ge25519 *r,
    const uint8_t a[32], const struct vg_ge25519 *A, const uint8_t b[32]);
/* AVX2 twin of vg_ed25519_select64_c: crypto/x86_64/
 * vg_ed25519_select64_avx2.c, each entry loaded as three 32-byte vectors
 * under a VPCMPEQQ mask. */
void vg_ed25519_select64_avx2(uint64_t t[12], const uint64_t row[16][12],
    uint64_t babs, uint64_t neg);
#endif

#endif
