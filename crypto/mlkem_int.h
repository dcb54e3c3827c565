/*
 * ML-KEM internals shared by crypto/mlkem_*.c and the AVX2 kernels:
 * parameter sets, the polynomial type, modular reductions, sampling and
 * encodings. Not an API: crypto/mlkem.h is.
 */
#ifndef VG_CRYPTO_MLKEM_INT_H
#define VG_CRYPTO_MLKEM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/ct.h"
#include "crypto/mlkem.h"
#include "crypto/mlkem_kernels.h"

#define VG_MLKEM_K_MAX 4
#define VG_MLKEM_QINV (-3327)    /* q^-1 mod 2^16, centred */
#define VG_MLKEM_SYM_BYTES 32

/* Parameter set [FIPS 203 Table 2]. */
struct vg_mlkem_params {
	uint8_t k;
	uint8_t eta1, eta2;
	uint8_t du, dv;
	uint16_t ek_len, dk_len, ct_len;
};

/* The parameters of p, or NULL for an unknown p. */
const struct vg_mlkem_params *vg_mlkem_params(enum vg_mlkem_param p);

struct vg_mlkem_poly {
	int16_t c[VG_MLKEM_N];
} __attribute__((aligned(32)));

/* zetas[i] = 17^brv7(i) * 2^16 mod q, centred [FIPS 203 Appendix A]. */
extern const int16_t vg_mlkem_zetas[128];

/* Montgomery reduction: a * 2^-16 mod q for |a| < q * 2^15, result in
 * (-q, q). */
static inline int16_t
vg_mlkem_montred(int32_t a)
{
	/* the low 16 bits of a * q^-1, computed unsigned (uint16_t operands
	 * would be promoted to int and the product could overflow) */
	int16_t t = (int16_t)(uint16_t)((uint32_t)a * VG_MLKEM_QINV);

	return (int16_t)((a - (int32_t)t * VG_MLKEM_Q) >> 16);
}

static inline int16_t
vg_mlkem_fqmul(int16_t a, int16_t b)
{
	return vg_mlkem_montred((int32_t)a * b);
}

/* Barrett reduction: a mod q in [-(q-1)/2, (q-1)/2] for any int16 a. */
static inline int16_t
vg_mlkem_barrett(int16_t a)
{
	const int32_t v = ((1 << 26) + VG_MLKEM_Q / 2) / VG_MLKEM_Q;
	int16_t t = (int16_t)((v * a + (1 << 25)) >> 26);

	return (int16_t)(a - t * VG_MLKEM_Q);
}

/* a mod q in [0, q) for |a| < 2^15 - q (not necessarily; any int16). */
static inline int16_t
vg_mlkem_freeze(int16_t a)
{
	int16_t r = vg_mlkem_barrett(a);

	return (int16_t)(r + ((r >> 15) & VG_MLKEM_Q));
}

/* Declassification for the constant-time test (crypto/ct.h): used only on
 * values the standard allows to be public (the rejection decisions of
 * SampleNTT, the result of an input check). */
#define VG_MLKEM_DECLASSIFY(p, n) VG_CT_DECLASSIFY((p), (n))

/* ---------------------------------------------------------- expanded keys */

/*
 * The expanded ek (crypto/mlkem.h): v[i * k + j] = A-hat[j][i] (the
 * transposed matrix, as vg_mlkem_gen_matrix(.., 1) writes it) for
 * i, j < k, then t-hat in v[k * k .. k * k + k).
 */
struct vg_mlkem_expanded_ek {
	enum vg_mlkem_param p;
	uint8_t rho[32];
	uint8_t h[32];          /* H(ek) */
	struct vg_mlkem_poly v[];
};

#define VG_MLKEM_EXPEK_A(e) ((e)->v)
#define VG_MLKEM_EXPEK_T(e, k) ((e)->v + (size_t)(k) * (k))
#define VG_MLKEM_EXPEK_POLYS(k) ((size_t)(k) * (k) + (k))

/* The expanded dk: s-hat in v[0 .. k), then the expanded ek of the ek
 * that dk holds, from v + k on (32-byte aligned). */
struct vg_mlkem_expanded_dk {
	enum vg_mlkem_param p;
	uint8_t z[32];
	struct vg_mlkem_poly v[];
};

#define VG_MLKEM_EXPDK_S(d) ((d)->v)
#define VG_MLKEM_EXPDK_EK(d, k) \
	((struct vg_mlkem_expanded_ek *)(void *)((d)->v + (k)))

/* Room on the stack for the largest expanded key of either kind. */
union vg_mlkem_exp_buf {
	struct vg_mlkem_expanded_dk d;
	struct vg_mlkem_expanded_ek e;
	uint8_t b[sizeof(struct vg_mlkem_expanded_dk) +
	    sizeof(struct vg_mlkem_expanded_ek) +
	    (VG_MLKEM_EXPEK_POLYS(VG_MLKEM_K_MAX) + VG_MLKEM_K_MAX) *
	    sizeof(struct vg_mlkem_poly)];
};

/* ------------------------------------------------------------ mlkem_api.c */

/*
 * The expanded ek of the ek bytes (length checked by the caller) into e:
 * t-hat with the modulus check, rho, A-hat, and h = H(ek), computed here
 * when hek is NULL and copied from hek otherwise. Returns all-ones if the
 * modulus check passed (e is filled in any case).
 */
uint32_t vg_mlkem_expand_ek_core(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t *ek, const uint8_t *hek,
    struct vg_mlkem_expanded_ek *e);

/* The expanded dk of dk (length and hash checked by the caller, which
 * gives H(ek) in hek) into d. CT: constant time in dk_PKE and z. */
void vg_mlkem_expand_dk_core(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t *dk, const uint8_t hek[32],
    struct vg_mlkem_expanded_dk *d);

/* Encaps_internal [FIPS 203 Alg. 17] with e: c and ss. CT: as
 * vg_mlkem_encaps_internal. */
void vg_mlkem_encaps_core(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_expanded_ek *e, const uint8_t m[32], uint8_t *c,
    uint8_t ss[32]);

/* Decaps_internal [FIPS 203 Alg. 18] with d of the ciphertext c (of the
 * set's length), given kbar = J(z || c), which it overwrites. CT: as
 * vg_mlkem_decaps. */
void vg_mlkem_decaps_core(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_expanded_dk *d, const uint8_t *c, uint8_t kbar[32],
    uint8_t ss[32]);

/* ------------------------------------------------------------ mlkem_poly.c */

/* ByteEncode_12 and ByteDecode_12 are kernels (tobytes, frombytes in
 * crypto/mlkem_kernels.h). */

/* ByteEncode_d(Compress_d(a)) for d in {1, 4, 5, 10, 11} [FIPS 203 §4.2.1,
 * Alg. 5]: 32 d bytes; a in [0, q). CT: no division, no branch. */
void vg_mlkem_poly_compress(const struct vg_mlkem_kernels *kk, uint8_t *out,
    const struct vg_mlkem_poly *a, unsigned d);
/* Decompress_d(ByteDecode_d(in)) is a kernel (decompress in
 * crypto/mlkem_kernels.h). */

/* a = a + b (no reduction), a = a - b. */
void vg_mlkem_poly_add(struct vg_mlkem_poly *a, const struct vg_mlkem_poly *b);
void vg_mlkem_poly_sub(struct vg_mlkem_poly *a, const struct vg_mlkem_poly *b);
/* Every coefficient into [0, q) (any int16 input). */
void vg_mlkem_poly_freeze(struct vg_mlkem_poly *a);
/* Every coefficient times R^2 * R^-1 = R mod q, output in (-q, q). */
void vg_mlkem_poly_tomont(struct vg_mlkem_poly *a);

/* ---------------------------------------------------------- mlkem_sample.c */

/* A[i][j] = SampleNTT(rho || j || i) [FIPS 203 Alg. 13 lines 3-7], in
 * a[i * k + j]; with transposed set, a[i * k + j] = A[j][i].
 * Variable time in the rejections only (rho is public). */
void vg_mlkem_gen_matrix(const struct vg_mlkem_kernels *kk,
    struct vg_mlkem_poly *a, unsigned k, const uint8_t rho[32],
    int transposed);

/* n polynomials p[i] = SamplePolyCBD_eta(PRF_eta(s, nonce0 + i)) [FIPS 203
 * §4.1 (4.3), Alg. 8] with eta = eta1 for i < n1 and 2 after, four at a
 * time on the 4-way SHAKE256. CT: constant time. */
void vg_mlkem_sample_cbd(const struct vg_mlkem_kernels *kk,
    struct vg_mlkem_poly *p, unsigned n, const uint8_t s[32],
    uint8_t nonce0, unsigned eta1, unsigned n1);

/*
 * Four hashes of rate 136 at once on the 4-way Keccak, 32 bytes of
 * output each: lane j absorbs in[j] (len[j] bytes, any length) with the
 * domain byte ds[j] (0x06 for SHA3-256, 0x1f for SHAKE256), and its
 * first 32 output bytes go to out[j]. Unused lanes may repeat a used
 * one. CT: only the lengths are observable.
 */
void vg_mlkem_x4_hash32(const struct vg_mlkem_kernels *kk,
    uint8_t *const out[4], const uint8_t *const in[4], const size_t len[4],
    const uint8_t ds[4]);

#endif
