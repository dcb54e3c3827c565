/*
 * ML-DSA internals shared by crypto/mldsa_*.c and the AVX2 kernels:
 * parameter sets, the polynomial type, modular reductions, sampling
 * and encodings. Not an API: crypto/mldsa.h is.
 */
#ifndef VG_CRYPTO_MLDSA_INT_H
#define VG_CRYPTO_MLDSA_INT_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/ct.h"
#include "crypto/mldsa.h"
#include "crypto/mldsa_kernels.h"

#define VG_MLDSA_K_MAX 8
#define VG_MLDSA_L_MAX 7
#define VG_MLDSA_D 13
#define VG_MLDSA_QINV 58728449u /* q^-1 mod 2^32 */
#define VG_MLDSA_CTILDE_MAX 64
#define VG_MLDSA_CRH_LEN 64     /* rho', rho'', mu */
#define VG_MLDSA_T1_BYTES 320   /* one polynomial of t1, 10 bits */
#define VG_MLDSA_T0_BYTES 416   /* one polynomial of t0, 13 bits */
#define VG_MLDSA_W1_MAX_BYTES 192

/* Parameter set [FIPS 204 Table 1]. */
struct vg_mldsa_params {
	uint8_t k, l;           /* A is k x l */
	uint8_t eta;            /* 2 or 4 */
	uint8_t tau;            /* ones in the challenge */
	uint8_t omega;          /* most hints */
	uint8_t ctilde_len;     /* lambda / 4 bytes */
	uint8_t gamma1_bits;    /* gamma1 = 2^gamma1_bits */
	uint16_t beta;          /* tau * eta */
	int32_t gamma1;
	int32_t gamma2;         /* (q-1)/88 or (q-1)/32 */
	uint16_t eta_bytes;     /* one packed polynomial of s1/s2: 96 or 128 */
	uint16_t z_bytes;       /* one packed polynomial of z: 576 or 640 */
	uint16_t w1_bytes;      /* one packed polynomial of w1: 192 or 128 */
	uint16_t pk_len, sk_len, sig_len;
};

/* The parameters of p, or NULL for an unknown p. */
const struct vg_mldsa_params *vg_mldsa_params(enum vg_mldsa_param p);

struct vg_mldsa_poly {
	int32_t c[VG_MLDSA_N];
} __attribute__((aligned(32)));

/* zetas[k] = 1753^brv8(k) * 2^32 mod q, centred; zetas[0] is unused
 * [FIPS 204 Appendix B]. */
extern const int32_t vg_mldsa_zetas[VG_MLDSA_N];

/* Montgomery reduction: a * 2^-32 mod q for |a| < q * 2^31, result in
 * (-q, q); the exact representative every kernel computes. */
static inline int32_t
vg_mldsa_montred(int64_t a)
{
	int32_t t = (int32_t)((uint32_t)a * VG_MLDSA_QINV);

	return (int32_t)((a - (int64_t)t * VG_MLDSA_Q) >> 32);
}

/* a mod q in [-6283009, 6283008] for a <= 2^31 - 2^22 - 1 (the low end
 * for a near -2^31). */
static inline int32_t
vg_mldsa_reduce32(int32_t a)
{
	int32_t t = (a + (1 << 22)) >> 23;

	return a - t * VG_MLDSA_Q;
}

/* a + q if a < 0: maps (-q, q) onto [0, q). */
static inline int32_t
vg_mldsa_caddq(int32_t a)
{
	return a + ((a >> 31) & VG_MLDSA_Q);
}

/*
 * Declassification for the constant-time test (crypto/ct.h): used only on
 * values the standard allows to be public: rejection decisions, the
 * challenge c~, the public seed rho and the signature.
 */
#define VG_MLDSA_DECLASSIFY(p, n) VG_CT_DECLASSIFY((p), (n))

/* ------------------------------------------------------------ mldsa_sample.c */

/* A 4-way SHAKE state: lane i of instance j is s[4 i + j]. */
struct vg_mldsa_x4 {
	uint64_t s[100];
} __attribute__((aligned(32)));

/* Absorbs four inputs of inlen bytes (inlen < rate) and pads them
 * (SHAKE128 rate 168 or SHAKE256 rate 136). */
void vg_mldsa_x4_absorb(struct vg_mldsa_x4 *x, unsigned rate,
    const uint8_t *const in[4], size_t inlen);
/* Squeezes nblocks whole blocks from each instance into out[j]; out[j]
 * may be NULL for an instance whose output is not wanted. */
void vg_mldsa_x4_squeeze(const struct vg_mldsa_kernels *k,
    struct vg_mldsa_x4 *x, unsigned rate, uint8_t *const out[4],
    unsigned nblocks);

/* ExpandA [FIPS 204 Alg. 32]: a[r * l + s] = A[r][s], in the NTT domain. */
void vg_mldsa_expand_a(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_poly *a,
    const uint8_t rho[32]);

/* ExpandS [FIPS 204 Alg. 33]: s[0 .. l) = s1, s[l .. l + k) = s2.
 * CT: only the rejection pattern. */
void vg_mldsa_expand_s(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_poly *s,
    const uint8_t rhop[VG_MLDSA_CRH_LEN]);

/* ExpandMask [FIPS 204 Alg. 34]: y[0 .. l) from rho'' and kappa.
 * CT: constant time. */
void vg_mldsa_expand_mask(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_poly *y,
    const uint8_t rhopp[VG_MLDSA_CRH_LEN], unsigned kappa);

/* SampleInBall [FIPS 204 Alg. 29]. Variable time: c~ is public. */
void vg_mldsa_sample_in_ball(const struct vg_mldsa_params *pp,
    struct vg_mldsa_poly *c, const uint8_t *ctilde);

/* ------------------------------------------------------------ mldsa_pack.c */

/* SimpleBitPack / SimpleBitUnpack of one polynomial of t1, 10 bits
 * [FIPS 204 Alg. 16, 18]: pkEncode is rho || t1[0] || ... || t1[k-1]. */
void vg_mldsa_pack_t1(uint8_t *out, const struct vg_mldsa_poly *t1);
void vg_mldsa_unpack_t1(struct vg_mldsa_poly *t1, const uint8_t *buf);

/* skEncode [FIPS 204 Alg. 24] up to t0: rho, K, tr, then s holds s1 and
 * s2 (l + k polynomials); t0 follows, one vg_mldsa_pack_t0 per row. */
void vg_mldsa_pack_sk_head(const struct vg_mldsa_params *pp, uint8_t *sk,
    const uint8_t rho[32], const uint8_t key[32], const uint8_t tr[64],
    const struct vg_mldsa_poly *s);

/* Offset of t0 in the private key. */
#define VG_MLDSA_SK_T0_OFF(pp) \
	(128 + ((size_t)(pp)->l + (pp)->k) * (pp)->eta_bytes)

/* skDecode [FIPS 204 Alg. 25] of s1, s2 (into s) and t0. Returns all-ones
 * if every s1/s2 coefficient is in [-eta, eta], else 0.
 * CT: no branch on the key; the caller declassifies the result. */
uint32_t vg_mldsa_unpack_sk_vectors(const struct vg_mldsa_params *pp,
    struct vg_mldsa_poly *s, struct vg_mldsa_poly *t0, const uint8_t *sk);

/* t0 of one polynomial (13 bits per coefficient). */
void vg_mldsa_pack_t0(uint8_t *out, const struct vg_mldsa_poly *t0);

/* sigEncode [FIPS 204 Alg. 26] of z (l polys, |z_i| < gamma1) and the
 * hints h (k polys of 0/1, at most omega ones); c~ is already in place.
 * Variable time in h: call it on the final (declassified) signature. */
void vg_mldsa_pack_sig_zh(const struct vg_mldsa_params *pp, uint8_t *sig,
    const struct vg_mldsa_poly *z, const struct vg_mldsa_poly *h);

/* sigDecode's hint part [FIPS 204 Alg. 21]: returns 0 and fills h (k
 * polys of 0/1), or -1 for a malformed encoding (indices not strictly
 * increasing within a polynomial, counts decreasing or above omega,
 * non-zero padding). Variable time: the signature is public. */
int vg_mldsa_unpack_hints(const struct vg_mldsa_params *pp,
    struct vg_mldsa_poly *h, const uint8_t *buf);

/* ------------------------------------------------------------ mldsa_sign.c */

/* mu' = H(tr || prefix || msg): absorbs the M' header of pure ML-DSA
 * (pre-hash = 0) or HashML-DSA (1). */
void vg_mldsa_mu_absorb_prefix(struct vg_mldsa_mu *m, const uint8_t tr[64],
    uint8_t domain, const void *ctx, size_t ctxlen);

/* ------------------------------------------------------------ expanded keys */

/* The private key in signing form (crypto/mldsa.h): v holds A-hat (k * l
 * polynomials, row-major), NTT(s1) (l), NTT(s2) (k), then NTT(t0) (k). */
struct vg_mldsa_expanded {
	enum vg_mldsa_param p;
	uint8_t key[32];        /* K */
	uint8_t tr[VG_MLDSA_TR_LEN];
	struct vg_mldsa_poly v[];
};

#define VG_MLDSA_EXP_A(e, pp) ((e)->v)
#define VG_MLDSA_EXP_S(e, pp) ((e)->v + (size_t)(pp)->k * (pp)->l)
#define VG_MLDSA_EXP_T0(e, pp) \
	(VG_MLDSA_EXP_S(e, pp) + (size_t)(pp)->l + (pp)->k)
#define VG_MLDSA_EXP_POLYS(pp) \
	((size_t)(pp)->k * (pp)->l + (pp)->l + 2 * (size_t)(pp)->k)
#define VG_MLDSA_EXP_MAX_POLYS \
	(VG_MLDSA_K_MAX * VG_MLDSA_L_MAX + VG_MLDSA_L_MAX + 2 * VG_MLDSA_K_MAX)

/* The public key in verifying form: A-hat (k * l), then NTT(t1 * 2^d)
 * (k). */
struct vg_mldsa_expanded_pk {
	enum vg_mldsa_param p;
	uint8_t tr[VG_MLDSA_TR_LEN];
	struct vg_mldsa_poly v[];
};

#define VG_MLDSA_EXPK_T1(e, pp) ((e)->v + (size_t)(pp)->k * (pp)->l)
#define VG_MLDSA_EXPK_POLYS(pp) ((size_t)(pp)->k * (pp)->l + (pp)->k)
#define VG_MLDSA_EXPK_MAX_POLYS (VG_MLDSA_K_MAX * VG_MLDSA_L_MAX + VG_MLDSA_K_MAX)

/* Room on the stack for the largest expanded key of either kind. */
union vg_mldsa_exp_buf {
	struct vg_mldsa_expanded e;
	uint8_t b[sizeof(struct vg_mldsa_expanded) +
	    VG_MLDSA_EXP_MAX_POLYS * sizeof(struct vg_mldsa_poly)];
};
union vg_mldsa_expk_buf {
	struct vg_mldsa_expanded_pk e;
	uint8_t b[sizeof(struct vg_mldsa_expanded_pk) +
	    VG_MLDSA_EXPK_MAX_POLYS * sizeof(struct vg_mldsa_poly)];
};

/* The cores of Sign_internal and Verify_internal (mldsa_sign.c) on an
 * expanded key whose set is pp; sig is not checked for NULL. */
enum vg_err vg_mldsa_sign_core(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, const struct vg_mldsa_expanded *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig);
enum vg_err vg_mldsa_verify_core(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, const struct vg_mldsa_expanded_pk *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t *sig);

/* Fills A-hat and NTT(t1 * 2^d) of e (not p, not tr) from the encoded
 * public key pk of the set pp (length already checked). */
void vg_mldsa_expand_pk_polys(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_expanded_pk *e,
    const uint8_t *pk);

#endif
