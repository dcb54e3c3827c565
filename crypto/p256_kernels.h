/*
 * Kernel sub-table for P-256 (field arithmetic and point selection): part of
 * struct vg_kernels (crypto/cpu.h), filled once by vg_p256_kernels_fill()
 * from the features in use. crypto/p256*.c reach the kernels only through
 * this table; every kernel has a portable twin (suffix _c) with the same
 * contract, declared below with its x86-64 variants.
 *
 * Field elements are 4 little-endian 64-bit limbs (a[0] least significant)
 * in Montgomery form: x is held as x * 2^256 mod p, with
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1. Scalars modulo the group order n
 * use the same layout, in Montgomery form modulo n.
 *
 * CT: every kernel here runs in time independent of its operands' values
 * (straight-line code; selections read every table entry under a mask); only
 * the kernel chosen, which depends on the CPU alone, is observable.
 */
#ifndef VG_CRYPTO_P256_KERNELS_H
#define VG_CRYPTO_P256_KERNELS_H

#include <stdint.h>

struct vg_p256_jac;
struct vg_p256_aff;

/* Entries of the variable-base window table ([1..16]P, (X, Y, Z, Z^2, Z^3)
 * in Jacobian coordinates, 20 limbs each) and of one row of the fixed-base
 * table ([1..64] 2^(7j) G, affine (x, y), 8 limbs each). */
#define VG_P256_W5_ENTRIES 16
#define VG_P256_W5_LIMBS 20
#define VG_P256_W7_ENTRIES 64
#define VG_P256_W7_LIMBS 8

struct vg_p256_kernels {
	/*
	 * Montgomery multiplication modulo p: r = a * b * 2^-256 mod p.
	 * For a, b < 2^256 with a * b < p * 2^256 (in particular when one of
	 * them is < p) the result is fully reduced, r < p. For any a, b <
	 * 2^256 r < 2^256 and r = a * b * 2^-256 (mod p); every variant
	 * returns the same limbs. r may alias a and/or b.
	 */
	void (*mul)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
	/* r = a^2 * 2^-256 mod p: the contract of mul with b = a. */
	void (*sqr)(uint64_t r[4], const uint64_t a[4]);
	/* n >= 1 squarings in a row: r = sqr(sqr(... sqr(a))); for the
	 * square root. r may alias a. */
	void (*sqr_n)(uint64_t r[4], const uint64_t a[4], unsigned n);
	/*
	 * Montgomery multiplication modulo n (the group order): r = a * b *
	 * 2^-256 mod n, with the same range rules as mul (n in place of p).
	 */
	void (*ord_mul)(uint64_t r[4], const uint64_t a[4],
	    const uint64_t b[4]);
	/*
	 * Point formulas (crypto/p256_int.h has the point structs), with
	 * the field multiplication of the same variant inlined:
	 *  point_double: r = 2a (a = -3 formulas, 4M + 4S); a = O (Z = 0)
	 *    gives Z = 0.
	 *  point_add_cached: r = a + t for t = (X, Y, Z, Z^2, Z^3)
	 *    (11M + 3S); point_add_affine: r = a + b for affine b (8M + 3S).
	 *    Not complete: wrong for a = O, t or b = O, and a = +-t or b;
	 *    callers exclude or mask these cases (crypto/p256_point.c).
	 * r may alias a. Coordinates in and out are fully reduced.
	 * Temporaries are left on the stack: the operations of
	 * crypto/p256.h clear the stack below them when they return
	 * (VG_P256_SCRUB_LEN in crypto/p256_int.h).
	 */
	void (*point_double)(struct vg_p256_jac *r,
	    const struct vg_p256_jac *a);
	void (*point_add_cached)(struct vg_p256_jac *r,
	    const struct vg_p256_jac *a, const uint64_t t[20]);
	void (*point_add_affine)(struct vg_p256_jac *r,
	    const struct vg_p256_jac *a, const struct vg_p256_aff *b);
	/*
	 * out = table[idx - 1] for 1 <= idx <= 16, and all zeros for idx 0
	 * (or any idx above 16). Every entry is read in full and kept under a
	 * mask, so neither timing nor the addresses touched depend on idx.
	 * No alignment is required.
	 */
	void (*select_w5)(uint64_t out[VG_P256_W5_LIMBS],
	    const uint64_t table[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS],
	    uint32_t idx);
	/*
	 * The same over the 64 affine entries (x, y) of a fixed-base table
	 * row: out = table[idx - 1] for 1 <= idx <= 64, zeros for idx 0,
	 * and then flip XORed into each limb of its y (out[4 .. 7]). With
	 * flip all ones that is ~y = 2^256 - 1 - y, from which the caller
	 * gets p - y by one addition of p + 1 (crypto/p256_base.c): the
	 * conditional negation of a digit's point costs the selection one
	 * vector operation instead of a scalar pass over a copy of y.
	 */
	void (*select_w7)(uint64_t out[VG_P256_W7_LIMBS],
	    const uint64_t table[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS],
	    uint32_t idx, uint64_t flip);

	const char *impl;        /* mul ... point_add_affine: "adx" or "c" */
	/* select_w5, select_w7: "avx512" (select_w7 with AVX-512F,
	 * select_w5 with AVX2), "avx2" or "c" */
	const char *select_impl;
};

/* Fills *k for the given VG_CPU_* feature set: the ADX kernels when both
 * VG_CPU_BMI2 and VG_CPU_ADX are set, the AVX2 selections with
 * VG_CPU_AVX2 (and the AVX-512 select_w7 when VG_CPU_AVX512F is set too),
 * else the portable twins. */
void vg_p256_kernels_fill(struct vg_p256_kernels *k, unsigned features);

/* Portable twins (crypto/p256_field.c, p256_scalar.c, p256_point.c). The
 * selections move 16 bytes at a time (GCC/Clang vector types). */
void vg_p256_mul_c(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void vg_p256_sqr_c(uint64_t r[4], const uint64_t a[4]);
void vg_p256_sqr_n_c(uint64_t r[4], const uint64_t a[4], unsigned n);
void vg_p256_ord_mul_c(uint64_t r[4], const uint64_t a[4],
    const uint64_t b[4]);
void vg_p256_point_double_c(struct vg_p256_jac *r,
    const struct vg_p256_jac *a);
void vg_p256_point_add_cached_c(struct vg_p256_jac *r,
    const struct vg_p256_jac *a, const uint64_t t[20]);
void vg_p256_point_add_affine_c(struct vg_p256_jac *r,
    const struct vg_p256_jac *a, const struct vg_p256_aff *b);
void vg_p256_select_w5_c(uint64_t out[VG_P256_W5_LIMBS],
    const uint64_t table[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS],
    uint32_t idx);
void vg_p256_select_w7_c(uint64_t out[VG_P256_W7_LIMBS],
    const uint64_t table[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS],
    uint32_t idx, uint64_t flip);

#if defined(__x86_64__)
#define VG_HAVE_P256_X86_64_KERNELS 1
/* MULX/ADCX/ADOX (BMI2 and ADX): crypto/x86_64/vg_p256_field_adx.c
 * (the field and the point formulas on it) and vg_p256_ord_adx.c (the
 * arithmetic modulo n). */
void vg_p256_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void vg_p256_sqr_adx(uint64_t r[4], const uint64_t a[4]);
void vg_p256_sqr_n_adx(uint64_t r[4], const uint64_t a[4], unsigned n);
void vg_p256_ord_mul_adx(uint64_t r[4], const uint64_t a[4],
    const uint64_t b[4]);
/* The point formulas with the MULX/ADX multiplication inlined:
 * crypto/x86_64/vg_p256_point_adx.c. */
void vg_p256_point_double_adx(struct vg_p256_jac *r,
    const struct vg_p256_jac *a);
void vg_p256_point_add_cached_adx(struct vg_p256_jac *r,
    const struct vg_p256_jac *a, const uint64_t t[20]);
void vg_p256_point_add_affine_adx(struct vg_p256_jac *r,
    const struct vg_p256_jac *a, const struct vg_p256_aff *b);
/* AVX2, 32 bytes at a time: crypto/x86_64/vg_p256_select_avx2.c. */
void vg_p256_select_w5_avx2(uint64_t out[VG_P256_W5_LIMBS],
    const uint64_t table[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS],
    uint32_t idx);
void vg_p256_select_w7_avx2(uint64_t out[VG_P256_W7_LIMBS],
    const uint64_t table[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS],
    uint32_t idx, uint64_t flip);
/* AVX-512F, one 64-byte entry at a time:
 * crypto/x86_64/vg_p256_select_avx512.c. */
void vg_p256_select_w7_avx512(uint64_t out[VG_P256_W7_LIMBS],
    const uint64_t table[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS],
    uint32_t idx, uint64_t flip);
#endif

#endif
