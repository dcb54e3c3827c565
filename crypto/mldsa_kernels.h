/*
 * Kernel sub-table for ML-DSA [FIPS 204]: the NTT and its inverse,
 * pointwise products, rejection sampling, mask expansion, the rounding
 * functions, the norm check, MakeHint/UseHint and its inputs, the
 * reductions of the signer's sums, w1 packing and the 4-way
 * Keccak-f[1600]. Part of struct vg_kernels (crypto/cpu.h), filled once by
 * vg_mldsa_kernels_fill() from the features in use.
 *
 * Every kernel has a portable twin (suffix _c) with the same contract and
 * bit-identical results; the AVX2 variants (suffix _avx2, crypto/x86_64/
 * vg_mldsa_<op>_avx2.c and vg_keccakx4_avx2.c) are chosen when VG_CPU_AVX2
 * is in use, and vg_keccakx4_avx512vl when AVX512F and AVX512VL are also
 * in use. tests/kernels/test_mldsa_kernels.c compares each pair.
 *
 * Polynomials are int32_t[256] (q = 8380417); no alignment is required.
 * "NTT domain" is the standard bit-reversed order of [FIPS 204 Alg. 41],
 * the same for every implementation, so that the matrix A can be sampled
 * directly in it. Montgomery arithmetic uses R = 2^32.
 *
 * CT: every kernel runs in time independent of the coefficient values and
 * has no branch or memory index on them, except rej_uniform and rej_eta,
 * whose control flow and table index depend on which candidates are
 * accepted (the rejection decision; the accepted values stay secret).
 */
#ifndef VG_CRYPTO_MLDSA_KERNELS_H
#define VG_CRYPTO_MLDSA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define VG_MLDSA_N 256
#define VG_MLDSA_Q 8380417

struct vg_mldsa_kernels {
	/* name of the variant chosen: "avx2", "avx2+avx512vl" (the 4-way
	 * Keccak with AVX-512VL) or "c" */
	const char *impl;

	/* Forward NTT in place [FIPS 204 Alg. 41]; the result is in
	 * Montgomery-reduced form (no factor R): NTT(a) itself.
	 * Input |a_i| < 2^31 - 8q; output |b_i| < max |a_j| + 8q. */
	void (*ntt)(int32_t a[VG_MLDSA_N]);

	/* Inverse NTT in place, times R [FIPS 204 Alg. 42]: returns
	 * NTT^-1(a) * 2^32 mod q. Input |a_i| <= q; output |b_i| < q. */
	void (*invntt)(int32_t a[VG_MLDSA_N]);

	/* c = a o b * R^-1 (Montgomery product, coefficient-wise); c may
	 * alias a or b. Requires |a_i * b_i| < q * 2^31; output |c_i| < q. */
	void (*pointwise)(int32_t c[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
	    const int32_t b[VG_MLDSA_N]);

	/* c = sum_{j < n} a_j o b_j * R^-1 with one Montgomery reduction of
	 * the 64-bit sum; a_j = a + 256 j, b_j = b + 256 j, 1 <= n <= 8.
	 * Requires sum |a_j,i * b_j,i| < 2^62; output |c_i| < q/2 + sum/2^32.
	 * c must not alias a or b. */
	void (*pointwise_acc)(int32_t c[VG_MLDSA_N], const int32_t *a,
	    const int32_t *b, unsigned n);

	/* RejNTTPoly's inner loop [FIPS 204 Alg. 30, 14]: reads buf in 3-byte
	 * groups (23-bit little-endian), appends those < q to a, stops when
	 * len coefficients are written or fewer than 3 bytes remain. Returns
	 * the number n written. Reads only buf[0 .. buflen); a[n .. len) may
	 * be overwritten with scratch values, nothing beyond a[len). */
	unsigned (*rej_uniform)(int32_t *a, unsigned len, const uint8_t *buf,
	    size_t buflen);

	/* RejBoundedPoly's inner loop [FIPS 204 Alg. 31, 15] for eta 2 or 4:
	 * each byte gives two candidates (low nibble first), accepted when
	 * < 15 (eta 2) or < 9 (eta 4) and written as eta - (t mod 5) or
	 * eta - t. Stops when len are written or buf is exhausted; returns
	 * the number n written; a[n .. len) may hold scratch values. */
	unsigned (*rej_eta)(int32_t *a, unsigned len, const uint8_t *buf,
	    size_t buflen, unsigned eta);

	/* BitUnpack(buf, gamma1 - 1, gamma1) [FIPS 204 Alg. 19], for
	 * gamma1 = 2^bits, bits 17 or 19: reads 32 * (bits + 1) bytes.
	 * ExpandMask's output and the decoding of z. */
	void (*expand_mask)(int32_t a[VG_MLDSA_N], const uint8_t *buf,
	    unsigned bits);

	/* Power2Round [FIPS 204 Alg. 35] with d = 13: a = a1 * 2^13 + a0,
	 * a0 in (-2^12, 2^12], of a mod q. Input -q < a_i < q (a negative
	 * a_i is taken as a_i + q). */
	void (*power2round)(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
	    const int32_t a[VG_MLDSA_N]);

	/* Decompose [FIPS 204 Alg. 36] for gamma2 = (q-1)/88 or (q-1)/32:
	 * a1 = HighBits(a), a0 = LowBits(a) of a mod q. Input -q < a_i < q
	 * (the inverse NTT's output range). */
	void (*decompose)(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
	    const int32_t a[VG_MLDSA_N], int32_t gamma2);

	/* b = UseHint(h, a mod q) [FIPS 204 Alg. 40]: h_i in {0, 1},
	 * -q < a_i < q. b may alias a. */
	void (*use_hint)(int32_t b[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
	    const int32_t h[VG_MLDSA_N], int32_t gamma2);

	/* Infinity-norm check: 1 if some |a_i| >= bound, else 0. Requires
	 * 0 <= bound and |a_i| < 2^31 - q; a bound above q is clamped to q
	 * (a branch on the public bound only). */
	uint32_t (*chknorm)(const int32_t a[VG_MLDSA_N], int32_t bound);

	/* h_i = MakeHint(z_i, r_i) [FIPS 204 Alg. 39]: 1 if HighBits(r_i) !=
	 * HighBits((r_i + z_i) mod q), else 0. Requires 0 <= r_i < q and
	 * |z_i| < q. Returns the number of ones. */
	unsigned (*make_hint)(int32_t h[VG_MLDSA_N], const int32_t z[VG_MLDSA_N],
	    const int32_t r[VG_MLDSA_N], int32_t gamma2);

	/* w1Encode of one polynomial [FIPS 204 Alg. 28]: 6 bits per
	 * coefficient (192 bytes) for gamma2 = (q-1)/88, 4 bits (128 bytes)
	 * for (q-1)/32. Input 0 <= a_i < (q-1)/(2 gamma2). */
	void (*w1_pack)(uint8_t *out, const int32_t a[VG_MLDSA_N],
	    int32_t gamma2);

	/* c = (a + s b) mod q in [-6283009, 6283008] (Barrett-like
	 * reduction, vg_mldsa_reduce32) for s = 1 or -1; s = 0 reduces a
	 * alone (b unused, may be NULL). c may alias a or b. Requires
	 * |a_i + s b_i| <= 2^31 - 2^22 - 1. The signer's z = y + c s1,
	 * r0 = w0 - c s2 and c t0. */
	void (*reduce_sum)(int32_t c[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
	    const int32_t b[VG_MLDSA_N], int32_t s);

	/* MakeHint's arguments [FIPS 204 Alg. 7 line 26]: from r0 (in r),
	 * c t0 (in u) and w1, r = (w1 * 2 gamma2 + r + u) mod q in [0, q)
	 * and u = -u. Requires 0 <= w1_i <= (q - 1) / (2 gamma2) and
	 * |r_i|, |u_i| < q. */
	void (*hint_input)(int32_t r[VG_MLDSA_N], int32_t u[VG_MLDSA_N],
	    const int32_t w1[VG_MLDSA_N], int32_t gamma2);

	/* Four Keccak-f[1600] permutations at once [FIPS 202 §3]: lane i of
	 * state j is st[4 * i + j] (host order). st is 32-byte aligned
	 * (struct vg_mldsa_x4 is): the vector kernels load its lanes as
	 * aligned vectors. */
	void (*keccakx4)(uint64_t st[100]);
};

/* Fills *k for the given VG_CPU_* feature set. */
void vg_mldsa_kernels_fill(struct vg_mldsa_kernels *k, unsigned features);

/* Portable twins. */
void vg_mldsa_ntt_c(int32_t a[VG_MLDSA_N]);
void vg_mldsa_invntt_c(int32_t a[VG_MLDSA_N]);
void vg_mldsa_pointwise_c(int32_t c[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t b[VG_MLDSA_N]);
void vg_mldsa_pointwise_acc_c(int32_t c[VG_MLDSA_N], const int32_t *a,
    const int32_t *b, unsigned n);
unsigned vg_mldsa_rej_uniform_c(int32_t *a, unsigned len, const uint8_t *buf,
    size_t buflen);
unsigned vg_mldsa_rej_eta_c(int32_t *a, unsigned len, const uint8_t *buf,
    size_t buflen, unsigned eta);
void vg_mldsa_expand_mask_c(int32_t a[VG_MLDSA_N], const uint8_t *buf,
    unsigned bits);
void vg_mldsa_power2round_c(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N]);
void vg_mldsa_decompose_c(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N], int32_t gamma2);
void vg_mldsa_use_hint_c(int32_t b[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t h[VG_MLDSA_N], int32_t gamma2);
uint32_t vg_mldsa_chknorm_c(const int32_t a[VG_MLDSA_N], int32_t bound);
unsigned vg_mldsa_make_hint_c(int32_t h[VG_MLDSA_N],
    const int32_t z[VG_MLDSA_N], const int32_t r[VG_MLDSA_N], int32_t gamma2);
void vg_mldsa_w1_pack_c(uint8_t *out, const int32_t a[VG_MLDSA_N],
    int32_t gamma2);
void vg_mldsa_reduce_sum_c(int32_t c[VG_MLDSA_N], const int32_t a[VG_MLDSA_N],
    const int32_t b[VG_MLDSA_N], int32_t s);
void vg_mldsa_hint_input_c(int32_t r[VG_MLDSA_N], int32_t u[VG_MLDSA_N],
    const int32_t w1[VG_MLDSA_N], int32_t gamma2);
void vg_keccakx4_c(uint64_t st[100]);

/*
 * AVX2 variants (x86-64 only; each compiled with a target attribute and
 * called only when VG_CPU_AVX2 is in use). They belong with the other ISA
 * kernels in crypto/x86_64/kernels.h.
 */
#if defined(__x86_64__)
void vg_mldsa_ntt_avx2(int32_t a[VG_MLDSA_N]);
void vg_mldsa_invntt_avx2(int32_t a[VG_MLDSA_N]);
void vg_mldsa_pointwise_avx2(int32_t c[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N], const int32_t b[VG_MLDSA_N]);
void vg_mldsa_pointwise_acc_avx2(int32_t c[VG_MLDSA_N], const int32_t *a,
    const int32_t *b, unsigned n);
unsigned vg_mldsa_rej_uniform_avx2(int32_t *a, unsigned len,
    const uint8_t *buf, size_t buflen);
unsigned vg_mldsa_rej_eta_avx2(int32_t *a, unsigned len, const uint8_t *buf,
    size_t buflen, unsigned eta);
void vg_mldsa_expand_mask_avx2(int32_t a[VG_MLDSA_N], const uint8_t *buf,
    unsigned bits);
void vg_mldsa_power2round_avx2(int32_t a1[VG_MLDSA_N],
    int32_t a0[VG_MLDSA_N], const int32_t a[VG_MLDSA_N]);
void vg_mldsa_decompose_avx2(int32_t a1[VG_MLDSA_N], int32_t a0[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N], int32_t gamma2);
void vg_mldsa_use_hint_avx2(int32_t b[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N], const int32_t h[VG_MLDSA_N],
    int32_t gamma2);
uint32_t vg_mldsa_chknorm_avx2(const int32_t a[VG_MLDSA_N], int32_t bound);
unsigned vg_mldsa_make_hint_avx2(int32_t h[VG_MLDSA_N],
    const int32_t z[VG_MLDSA_N], const int32_t r[VG_MLDSA_N], int32_t gamma2);
void vg_mldsa_w1_pack_avx2(uint8_t *out, const int32_t a[VG_MLDSA_N],
    int32_t gamma2);
void vg_mldsa_reduce_sum_avx2(int32_t c[VG_MLDSA_N],
    const int32_t a[VG_MLDSA_N], const int32_t b[VG_MLDSA_N], int32_t s);
void vg_mldsa_hint_input_avx2(int32_t r[VG_MLDSA_N], int32_t u[VG_MLDSA_N],
    const int32_t w1[VG_MLDSA_N], int32_t gamma2);
void vg_keccakx4_avx2(uint64_t st[100]);
/* AVX512F + AVX512VL on 256-bit vectors (vprolq, vpternlogq). */
void vg_keccakx4_avx512vl(uint64_t st[100]);
#endif

#endif
