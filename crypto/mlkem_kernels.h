/*
 * Kernel sub-table for ML-KEM [FIPS 203]: the NTT and its inverse, the
 * multiplication in the NTT domain, rejection sampling of the matrix A,
 * the centred binomial distribution, compression and decompression,
 * ByteEncode_d of compressed values,
 * ByteEncode_12 and ByteDecode_12, and the 4-way Keccak-f[1600]. Part of struct vg_kernels (crypto/cpu.h),
 * filled once by vg_mlkem_kernels_fill() from the features in use.
 *
 * Every kernel has a portable twin (suffix _c) with the same contract; the
 * AVX2 variants (suffix _avx2, crypto/x86_64/vg_mlkem_<op>_avx2.c) are
 * chosen when VG_CPU_AVX2 is in use. Results of the arithmetic kernels
 * are specified modulo q with a bound, not as exact representatives, so a
 * vector kernel may reduce at other points than its twin;
 * tests/kernels/test_mlkem_kernels.c compares each pair modulo q (and
 * rej_uniform exactly).
 *
 * Polynomials are int16_t[256] (q = 3329); no alignment is required.
 * "NTT domain" is the order of [FIPS 203 Alg. 9]: pairs (a_2i, a_2i+1)
 * modulo X^2 - zeta^(2 brv7(i) + 1). Montgomery arithmetic uses
 * R = 2^16.
 *
 * CT: every kernel runs in time independent of the coefficient values and
 * has no branch or memory index on them, except rej_uniform, whose control
 * flow depends on which candidates are accepted (it runs on the public
 * matrix A only).
 */
#ifndef VG_CRYPTO_MLKEM_KERNELS_H
#define VG_CRYPTO_MLKEM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define VG_MLKEM_N 256
#define VG_MLKEM_Q 3329
#define VG_MLKEM_POLY_BYTES 384  /* ByteEncode_12 of one polynomial */

struct vg_mlkem_kernels {
	/* name of the variant chosen: "avx2", "avx2+avx512vl" (the 4-way
	 * Keccak with AVX-512VL) or "c" */
	const char *impl;

	/* Forward NTT in place [FIPS 203 Alg. 9]. Input |a_i| < q (any
	 * representative); output b_i = NTT(a)_i mod q with |b_i| < q. */
	void (*ntt)(int16_t a[VG_MLKEM_N]);

	/* Inverse NTT in place, times R [FIPS 203 Alg. 10]: output
	 * b = NTT^-1(a) * 2^16 mod q with |b_i| < q. Input |a_i| < 2^12
	 * (basemul_acc's output qualifies; the AVX2 variant reduces once,
	 * in the middle, and relies on it). */
	void (*invntt)(int16_t a[VG_MLKEM_N]);

	/* c = sum_{j < n} a_j x b_j * R^-1 [FIPS 203 Alg. 11, 12], with
	 * a_j = a + 256 j, b_j = b + 256 j, 1 <= n <= 4. Requires |a_i| < q,
	 * |b_i| < q (either may be the larger); output |c_i| < q. c must not
	 * alias a or b. */
	void (*basemul_acc)(int16_t c[VG_MLKEM_N], const int16_t *a,
	    const int16_t *b, unsigned n);

	/* SampleNTT's inner loop [FIPS 203 Alg. 7]: reads buf in 3-byte
	 * groups, each giving two 12-bit candidates (low first), appends
	 * those < q to a, stops when len coefficients are written or fewer
	 * than 3 bytes remain. Returns the number n written. Reads only
	 * buf[0 .. buflen); a[n .. len) may be overwritten with scratch
	 * values, nothing beyond a[len). */
	unsigned (*rej_uniform)(int16_t *a, unsigned len, const uint8_t *buf,
	    size_t buflen);

	/* Compress_d [FIPS 203 (4.7)] of every coefficient, without
	 * division: t_i = round(2^d a_i / q) mod 2^d for d in {1, 4, 5, 10,
	 * 11}; requires 0 <= a_i < q. */
	void (*compress)(uint16_t t[VG_MLKEM_N], const int16_t a[VG_MLKEM_N],
	    unsigned d);

	/* ByteEncode_d [FIPS 203 Alg. 5] of t (each t_i < 2^d) for d in
	 * {1, 4, 5, 10, 11}: writes exactly 32 d bytes. */
	void (*pack)(uint8_t *out, const uint16_t t[VG_MLKEM_N], unsigned d);

	/* SamplePolyCBD_eta [FIPS 203 Alg. 8] of 64 eta bytes, eta 2 or 3:
	 * a_i in [-eta, eta]. Reads exactly 64 eta bytes. */
	void (*cbd)(int16_t a[VG_MLKEM_N], const uint8_t *buf, unsigned eta);

	/* Four Keccak-f[1600] permutations at once [FIPS 202 §3]: lane i of
	 * state j is st[4 * i + j] (host order); st is 32-byte aligned. The
	 * same kernels as ML-DSA's (crypto/mldsa_kernels.h). */
	void (*keccakx4)(uint64_t st[100]);

	/* ByteEncode_12 [FIPS 203 Alg. 5]: 384 bytes from coefficients in
	 * [0, q). */
	void (*tobytes)(uint8_t out[VG_MLKEM_POLY_BYTES],
	    const int16_t a[VG_MLKEM_N]);

	/* ByteDecode_12 [FIPS 203 Alg. 6], each 12-bit value reduced mod q
	 * into [0, q). Returns all-ones if every value was < q (the modulus
	 * check of §7.2), else 0. */
	uint32_t (*frombytes)(int16_t a[VG_MLKEM_N],
	    const uint8_t in[VG_MLKEM_POLY_BYTES]);

	/* Decompress_d(ByteDecode_d(in)) [FIPS 203 (4.8), Alg. 6] for d in
	 * {1, 4, 5, 10, 11}: reads exactly 32 d bytes; output in [0, q). */
	void (*decompress)(int16_t a[VG_MLKEM_N], const uint8_t *in,
	    unsigned d);
};

/* Fills *k for the given VG_CPU_* feature set. */
void vg_mlkem_kernels_fill(struct vg_mlkem_kernels *k, unsigned features);

/* Portable twins. */
void vg_mlkem_ntt_c(int16_t a[VG_MLKEM_N]);
void vg_mlkem_invntt_c(int16_t a[VG_MLKEM_N]);
void vg_mlkem_basemul_acc_c(int16_t c[VG_MLKEM_N], const int16_t *a,
    const int16_t *b, unsigned n);
unsigned vg_mlkem_rej_uniform_c(int16_t *a, unsigned len, const uint8_t *buf,
    size_t buflen);
void vg_mlkem_cbd_c(int16_t a[VG_MLKEM_N], const uint8_t *buf, unsigned eta);
void vg_mlkem_compress_c(uint16_t t[VG_MLKEM_N], const int16_t a[VG_MLKEM_N],
    unsigned d);
void vg_mlkem_pack_c(uint8_t *out, const uint16_t t[VG_MLKEM_N], unsigned d);
void vg_mlkem_tobytes_c(uint8_t out[VG_MLKEM_POLY_BYTES],
    const int16_t a[VG_MLKEM_N]);
uint32_t vg_mlkem_frombytes_c(int16_t a[VG_MLKEM_N],
    const uint8_t in[VG_MLKEM_POLY_BYTES]);
void vg_mlkem_decompress_c(int16_t a[VG_MLKEM_N], const uint8_t *in,
    unsigned d);

/*
 * AVX2 variants (x86-64 only; each compiled with a target attribute and
 * called only when VG_CPU_AVX2 is in use).
 */
#if defined(__x86_64__)
void vg_mlkem_ntt_avx2(int16_t a[VG_MLKEM_N]);
void vg_mlkem_invntt_avx2(int16_t a[VG_MLKEM_N]);
void vg_mlkem_basemul_acc_avx2(int16_t c[VG_MLKEM_N], const int16_t *a,
    const int16_t *b, unsigned n);
unsigned vg_mlkem_rej_uniform_avx2(int16_t *a, unsigned len,
    const uint8_t *buf, size_t buflen);
void vg_mlkem_cbd_avx2(int16_t a[VG_MLKEM_N], const uint8_t *buf,
    unsigned eta);
void vg_mlkem_compress_avx2(uint16_t t[VG_MLKEM_N],
    const int16_t a[VG_MLKEM_N], unsigned d);
void vg_mlkem_pack_avx2(uint8_t *out, const uint16_t t[VG_MLKEM_N],
    unsigned d);
void vg_mlkem_tobytes_avx2(uint8_t out[VG_MLKEM_POLY_BYTES],
    const int16_t a[VG_MLKEM_N]);
uint32_t vg_mlkem_frombytes_avx2(int16_t a[VG_MLKEM_N],
    const uint8_t in[VG_MLKEM_POLY_BYTES]);
void vg_mlkem_decompress_avx2(int16_t a[VG_MLKEM_N], const uint8_t *in,
    unsigned d);
#endif

#endif
