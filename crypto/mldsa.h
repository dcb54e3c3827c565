/*
 * ML-DSA, the Module-Lattice-Based Digital Signature Algorithm [FIPS 204],
 * with the parameter sets ML-DSA-44, ML-DSA-65 and ML-DSA-87.
 *
 *   keys       KeyGen from a 32-byte seed xi (KeyGen_internal, Alg. 6),
 *              or from the DRBG (Alg. 1); expanded private keys are
 *              decoded with the range checks of the standard
 *   pure       Sign / Verify of a message with a context string of at most
 *              255 bytes (Alg. 2, 3)
 *   pre-hash   HashML-DSA (Alg. 4, 5) over SHA-224/256/384/512,
 *              SHA-512/224, SHA-512/256, SHA3-224/256/384/512, SHAKE128 (32-byte output) and
 *              SHAKE256 (64-byte output), with the OIDs of [FIPS 204 §5.4]
 *   external mu  Sign_internal / Verify_internal given the 64-byte
 *              mu = H(tr || M') (Alg. 7, 8), and a streaming builder of mu
 *              for multi-part signing
 *
 * Signing takes the 32-byte rnd from the caller: fresh random bytes for the
 * hedged variant (the default of the standard), 32 zero bytes for the
 * deterministic one [FIPS 204 §3.4].
 *
 * Byte strings are the encodings of [FIPS 204 §7.2]: public key
 * pkEncode(rho, t1), private key skEncode(rho, K, tr, s1, s2, t0) (the
 * "expanded" form), signature sigEncode(c~, z, h). Every input of a fixed
 * size comes with its length and a wrong length is rejected.
 *
 * Results: VG_OK; VG_ERR_ARG for an unknown parameter set or pre-hash, a
 * context longer than 255 bytes, or a NULL pointer with a length;
 * VG_ERR_DECODE for a key of the wrong length or with out-of-range
 * coefficients; VG_ERR_LENGTH for a signature or digest of the wrong
 * length; VG_ERR_AUTH for a signature that does not verify (including
 * malformed hints and norm violations); VG_ERR_RANDOM when the DRBG fails.
 * Output buffers have the documented size; nothing is allocated. On an
 * error no signature is written (sig is wiped).
 *
 * Kernels: the NTT, sampling, rounding, norm and hint computations and the
 * 4-way Keccak run through the kernel table (vg_kernels()->mldsa, crypto/
 * mldsa_kernels.h); the _k variants take an explicit table so that tests
 * and benchmarks can compare implementations.
 *
 * Stack (no heap): signing ML-DSA-87 uses about 120 KiB (the expanded
 * matrix A alone is 56 KiB), key generation about 90 KiB, verification
 * about 90 KiB (the workspaces are sized for ML-DSA-87 whatever the set);
 * with an expanded key (below) signing needs about 40 KiB and
 * verification about 20 KiB.
 *
 * Constant time: key generation and signing have no branch or memory index
 * on secret data (xi, rho', K, s1, s2, t0, the mask y, rnd). What may be
 * observed: the parameter set and all lengths; the public seed rho and the
 * public key; the outcome of each rejection-sampling step (which candidate
 * coefficients of s1/s2 were rejected, which check made an iteration of
 * the signing loop restart, and the number of iterations); the challenge
 * c~ of every iteration (a random-oracle output, [FIPS 204 §3.6.3]); and
 * the final signature. Verification handles public data only.
 */
#ifndef VG_CRYPTO_MLDSA_H
#define VG_CRYPTO_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/hash.h"

struct vg_mldsa_kernels;
struct vg_rng;

enum vg_mldsa_param {
	VG_MLDSA_44,
	VG_MLDSA_65,
	VG_MLDSA_87,
	VG_MLDSA_PARAM_COUNT
};

#define VG_MLDSA_SEED_LEN 32 /* xi */
#define VG_MLDSA_RND_LEN 32  /* rnd of Sign_internal */
#define VG_MLDSA_TR_LEN 64   /* tr = H(pk) */
#define VG_MLDSA_MU_LEN 64   /* mu = H(tr || M') */
#define VG_MLDSA_CTX_MAX 255 /* longest context string */

/* Sizes in bytes [FIPS 204 Table 2]. */
#define VG_MLDSA_44_PK_LEN 1312
#define VG_MLDSA_44_SK_LEN 2560
#define VG_MLDSA_44_SIG_LEN 2420
#define VG_MLDSA_65_PK_LEN 1952
#define VG_MLDSA_65_SK_LEN 4032
#define VG_MLDSA_65_SIG_LEN 3309
#define VG_MLDSA_87_PK_LEN 2592
#define VG_MLDSA_87_SK_LEN 4896
#define VG_MLDSA_87_SIG_LEN 4627
#define VG_MLDSA_MAX_PK_LEN VG_MLDSA_87_PK_LEN
#define VG_MLDSA_MAX_SK_LEN VG_MLDSA_87_SK_LEN
#define VG_MLDSA_MAX_SIG_LEN VG_MLDSA_87_SIG_LEN

/* Public key, private key and signature length of p; 0 for an unknown p. */
size_t vg_mldsa_pk_len(enum vg_mldsa_param p);
size_t vg_mldsa_sk_len(enum vg_mldsa_param p);
size_t vg_mldsa_sig_len(enum vg_mldsa_param p);

/* ------------------------------------------------------------ keys */

/*
 * ML-DSA.KeyGen_internal [FIPS 204 Alg. 6]: the key pair of the 32-byte
 * seed xi. pk receives vg_mldsa_pk_len(p) bytes, sk vg_mldsa_sk_len(p).
 * Returns VG_OK or VG_ERR_ARG (unknown p; nothing written).
 * CT: only p and the public key are observable (and which candidate
 * coefficients of s1 and s2 were rejected).
 */
enum vg_err vg_mldsa_keygen_internal(enum vg_mldsa_param p,
    const uint8_t xi[VG_MLDSA_SEED_LEN], uint8_t *pk, uint8_t *sk);

/*
 * ML-DSA.KeyGen [FIPS 204 Alg. 1]: draws xi from rng, then as
 * vg_mldsa_keygen_internal. The seed is written to xi_out when it is not
 * NULL (the compact form of the private key, CKA_SEED); it is wiped
 * otherwise. Returns VG_OK, VG_ERR_ARG or VG_ERR_RANDOM (nothing written).
 * CT: as vg_mldsa_keygen_internal.
 */
enum vg_err vg_mldsa_keygen(enum vg_mldsa_param p, struct vg_rng *rng,
    uint8_t *xi_out, uint8_t *pk, uint8_t *sk);

/*
 * Checks an expanded private key and recomputes its public key: decodes sk
 * (length, and s1, s2 coefficients in [-eta, eta]), computes t = A*s1 + s2,
 * and requires that t0 and tr = H(pk) match what sk holds. pk receives
 * vg_mldsa_pk_len(p) bytes (may be NULL to check only). Returns VG_OK,
 * VG_ERR_ARG or VG_ERR_DECODE (malformed or inconsistent key).
 * CT: only p and whether the key is valid are observable.
 */
enum vg_err vg_mldsa_sk_to_pk(enum vg_mldsa_param p, const uint8_t *sk,
    size_t sklen, uint8_t *pk);

/* tr = H(pk, 64), the public-key hash bound into mu. Returns VG_OK,
 * VG_ERR_ARG or VG_ERR_DECODE (wrong pklen). */
enum vg_err vg_mldsa_tr_from_pk(enum vg_mldsa_param p, const uint8_t *pk,
    size_t pklen, uint8_t tr[VG_MLDSA_TR_LEN]);

/* ------------------------------------------------------------ pure ML-DSA */

/*
 * ML-DSA.Sign [FIPS 204 Alg. 2] of msg with the context ctx (ctxlen <=
 * 255), using rnd (32 random bytes for hedged signing, 32 zero bytes for
 * deterministic signing). sig receives vg_mldsa_sig_len(p) bytes.
 * Returns VG_OK, VG_ERR_ARG or VG_ERR_DECODE (malformed sk).
 * CT: see the top of this file.
 */
enum vg_err vg_mldsa_sign(enum vg_mldsa_param p, const uint8_t *sk,
    size_t sklen, const void *msg, size_t mlen, const void *ctx,
    size_t ctxlen, const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig);

/*
 * ML-DSA.Verify [FIPS 204 Alg. 3]. Returns VG_OK for a valid signature,
 * VG_ERR_AUTH for an invalid one, VG_ERR_LENGTH when siglen is wrong,
 * VG_ERR_DECODE when pklen is wrong, VG_ERR_ARG.
 */
enum vg_err vg_mldsa_verify(enum vg_mldsa_param p, const uint8_t *pk,
    size_t pklen, const void *msg, size_t mlen, const void *ctx,
    size_t ctxlen, const uint8_t *sig, size_t siglen);

/* ------------------------------------------------------------ HashML-DSA */

/* Pre-hash functions of HashML-DSA. */
enum vg_mldsa_ph {
	VG_MLDSA_PH_SHA224,
	VG_MLDSA_PH_SHA256,
	VG_MLDSA_PH_SHA384,
	VG_MLDSA_PH_SHA512,
	VG_MLDSA_PH_SHA3_224,
	VG_MLDSA_PH_SHA3_256,
	VG_MLDSA_PH_SHA3_384,
	VG_MLDSA_PH_SHA3_512,
	VG_MLDSA_PH_SHA512_224,
	VG_MLDSA_PH_SHA512_256,
	VG_MLDSA_PH_SHAKE128, /* 256-bit output; the XOFs stay last */
	VG_MLDSA_PH_SHAKE256, /* 512-bit output */
	VG_MLDSA_PH_COUNT
};

/* Digest length of ph in bytes (28 ... 64); 0 for an unknown ph. */
size_t vg_mldsa_ph_len(enum vg_mldsa_ph ph);

/* DER encoding of the OID of ph (11 bytes: 06 09 2.16.840.1.101.3.4.2.x),
 * as it is placed in M' [FIPS 204 Alg. 4]; NULL for an unknown ph. */
const uint8_t *vg_mldsa_ph_oid(enum vg_mldsa_ph ph);
#define VG_MLDSA_OID_LEN 11

/* A running pre-hash (multi-part HashML-DSA). Fields are private; a struct
 * copy clones it. It may hold message data only; vg_wipe it if abandoned. */
struct vg_mldsa_prehash {
	enum vg_mldsa_ph ph;
	union {
		struct vg_hash h;
		struct vg_shake x;
	} u;
};

/* Starts PH; returns VG_OK or VG_ERR_ARG (unknown ph). */
enum vg_err vg_mldsa_prehash_init(struct vg_mldsa_prehash *c,
    enum vg_mldsa_ph ph);
void vg_mldsa_prehash_update(struct vg_mldsa_prehash *c, const void *data,
    size_t len);
/* Writes vg_mldsa_ph_len(ph) bytes and wipes *c. */
void vg_mldsa_prehash_final(struct vg_mldsa_prehash *c, uint8_t *out);

/*
 * HashML-DSA.Sign [FIPS 204 Alg. 4] given the digest PH(M) (dlen must be
 * vg_mldsa_ph_len(ph), else VG_ERR_LENGTH). Otherwise as vg_mldsa_sign.
 */
enum vg_err vg_mldsa_sign_hash(enum vg_mldsa_param p, const uint8_t *sk,
    size_t sklen, enum vg_mldsa_ph ph, const uint8_t *digest, size_t dlen,
    const void *ctx, size_t ctxlen, const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig);

/* HashML-DSA.Verify [FIPS 204 Alg. 5] given the digest PH(M); results as
 * vg_mldsa_verify (a digest of the wrong length is VG_ERR_LENGTH). */
enum vg_err vg_mldsa_verify_hash(enum vg_mldsa_param p, const uint8_t *pk,
    size_t pklen, enum vg_mldsa_ph ph, const uint8_t *digest, size_t dlen,
    const void *ctx, size_t ctxlen, const uint8_t *sig, size_t siglen);

/* ------------------------------------------------------------ external mu */

/*
 * mu = H(tr || M', 64), streamed. For pure ML-DSA M' = 0 || ctxlen || ctx
 * || M: vg_mldsa_mu_init, then the message in any number of updates, then
 * vg_mldsa_mu_final. For HashML-DSA M' = 1 || ctxlen || ctx || OID ||
 * PH(M): vg_mldsa_mu_init_hash absorbs all of it, then vg_mldsa_mu_final.
 * init returns VG_OK, or VG_ERR_ARG (ctxlen > 255, unknown ph) or
 * VG_ERR_LENGTH (dlen != vg_mldsa_ph_len(ph)), leaving *m wiped.
 * final writes 64 bytes and wipes *m. A struct copy clones a running mu.
 * CT: only the lengths are observable.
 */
struct vg_mldsa_mu {
	struct vg_shake x;
};

enum vg_err vg_mldsa_mu_init(struct vg_mldsa_mu *m,
    const uint8_t tr[VG_MLDSA_TR_LEN], const void *ctx, size_t ctxlen);
enum vg_err vg_mldsa_mu_init_hash(struct vg_mldsa_mu *m,
    const uint8_t tr[VG_MLDSA_TR_LEN], enum vg_mldsa_ph ph,
    const uint8_t *digest, size_t dlen, const void *ctx, size_t ctxlen);
void vg_mldsa_mu_update(struct vg_mldsa_mu *m, const void *msg, size_t len);
void vg_mldsa_mu_final(struct vg_mldsa_mu *m, uint8_t mu[VG_MLDSA_MU_LEN]);

/*
 * ML-DSA.Sign_internal [FIPS 204 Alg. 7] with an externally computed mu
 * (tr must be the one of this key: the caller takes it from sk bytes
 * 64..127 or from vg_mldsa_tr_from_pk). Returns as vg_mldsa_sign.
 */
enum vg_err vg_mldsa_sign_mu(enum vg_mldsa_param p, const uint8_t *sk,
    size_t sklen, const uint8_t mu[VG_MLDSA_MU_LEN],
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig);

/* ML-DSA.Verify_internal [FIPS 204 Alg. 8] given mu; results as
 * vg_mldsa_verify. */
enum vg_err vg_mldsa_verify_mu(enum vg_mldsa_param p, const uint8_t *pk,
    size_t pklen, const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t *sig,
    size_t siglen);

/* ------------------------------------------------------------ expanded keys */

/*
 * A private key in signing form: the matrix A-hat = ExpandA(rho), NTT(s1),
 * NTT(s2), NTT(t0), K, tr and the parameter set, computed once from the
 * encoded key so that each signature skips ExpandA (about 40% of signing),
 * skDecode and the forward NTTs of the key. Signatures are byte-identical
 * to those of vg_mldsa_sign and friends for the same inputs and rnd.
 *
 * The caller provides vg_mldsa_expanded_size(p) bytes, aligned to 32
 * (page-aligned memory from a key store is), and keeps them: crypto/ does
 * no allocation. The form holds the whole secret key: keep it in locked
 * memory and wipe it (vg_wipe over the size) when done. The fields are
 * private. The form is read only by signing, so that any number of
 * threads may sign with one expanded key at once.
 *
 * Sizes for ML-DSA-44 / 65 / 87: about 28 / 47 / 79 KiB.
 */
struct vg_mldsa_expanded;

/* Bytes of the expanded private key of p; 0 for an unknown p. */
size_t vg_mldsa_expanded_size(enum vg_mldsa_param p);

/*
 * Fills e (esize bytes) from the encoded private key sk, with the checks
 * of vg_mldsa_sign (length, s1/s2 coefficients in [-eta, eta]). Returns
 * VG_OK, VG_ERR_ARG (unknown p, NULL pointer, esize too small) or
 * VG_ERR_DECODE (malformed sk; e is wiped).
 * CT: only p and whether the key is well formed are observable (rho is
 * public).
 */
enum vg_err vg_mldsa_expand_sk(enum vg_mldsa_param p, const uint8_t *sk,
    size_t sklen, struct vg_mldsa_expanded *e, size_t esize);

/* The parameter set of e, and tr = H(pk) for building an external mu. */
enum vg_mldsa_param vg_mldsa_expanded_param(const struct vg_mldsa_expanded *e);
const uint8_t *vg_mldsa_expanded_tr(const struct vg_mldsa_expanded *e);

/* vg_mldsa_sign, vg_mldsa_sign_hash and vg_mldsa_sign_mu with an expanded
 * key; results as those (no VG_ERR_DECODE: the key was checked). sig
 * receives vg_mldsa_sig_len(p) bytes. CT: as vg_mldsa_sign. */
enum vg_err vg_mldsa_sign_expanded(const struct vg_mldsa_expanded *e,
    const void *msg, size_t mlen, const void *ctx, size_t ctxlen,
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig);
enum vg_err vg_mldsa_sign_hash_expanded(const struct vg_mldsa_expanded *e,
    enum vg_mldsa_ph ph, const uint8_t *digest, size_t dlen,
    const void *ctx, size_t ctxlen, const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig);
enum vg_err vg_mldsa_sign_mu_expanded(const struct vg_mldsa_expanded *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig);

/*
 * A public key in verifying form: A-hat, NTT(t1 * 2^d) and tr = H(pk), so
 * that each verification skips ExpandA, the t1 NTTs and hashing pk. As
 * the private form: vg_mldsa_expanded_pk_size(p) bytes aligned to 32 from
 * the caller, fields private, read-only once filled (about 24 / 41 / 64
 * KiB). Public data: no need to lock or wipe it.
 */
struct vg_mldsa_expanded_pk;

size_t vg_mldsa_expanded_pk_size(enum vg_mldsa_param p);

/* Fills e from the encoded public key pk. Returns VG_OK, VG_ERR_ARG or
 * VG_ERR_DECODE (wrong pklen). */
enum vg_err vg_mldsa_expand_pk(enum vg_mldsa_param p, const uint8_t *pk,
    size_t pklen, struct vg_mldsa_expanded_pk *e, size_t esize);

enum vg_mldsa_param vg_mldsa_expanded_pk_param(
    const struct vg_mldsa_expanded_pk *e);

/* vg_mldsa_verify, vg_mldsa_verify_hash and vg_mldsa_verify_mu with an
 * expanded public key; results as those. */
enum vg_err vg_mldsa_verify_expanded(const struct vg_mldsa_expanded_pk *e,
    const void *msg, size_t mlen, const void *ctx, size_t ctxlen,
    const uint8_t *sig, size_t siglen);
enum vg_err vg_mldsa_verify_hash_expanded(
    const struct vg_mldsa_expanded_pk *e, enum vg_mldsa_ph ph,
    const uint8_t *digest, size_t dlen, const void *ctx, size_t ctxlen,
    const uint8_t *sig, size_t siglen);
enum vg_err vg_mldsa_verify_mu_expanded(const struct vg_mldsa_expanded_pk *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t *sig, size_t siglen);

/* ------------------------------------------------------------ explicit kernels */

/* The internal algorithms on an explicit kernel table k (from
 * vg_kernels_fill); the functions above use &vg_kernels()->mldsa. */
enum vg_err vg_mldsa_keygen_internal_k(const struct vg_mldsa_kernels *k,
    enum vg_mldsa_param p, const uint8_t xi[VG_MLDSA_SEED_LEN], uint8_t *pk,
    uint8_t *sk);
enum vg_err vg_mldsa_sign_mu_k(const struct vg_mldsa_kernels *k,
    enum vg_mldsa_param p, const uint8_t *sk, size_t sklen,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig);
enum vg_err vg_mldsa_verify_mu_k(const struct vg_mldsa_kernels *k,
    enum vg_mldsa_param p, const uint8_t *pk, size_t pklen,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t *sig, size_t siglen);
enum vg_err vg_mldsa_sk_to_pk_k(const struct vg_mldsa_kernels *k,
    enum vg_mldsa_param p, const uint8_t *sk, size_t sklen, uint8_t *pk);
enum vg_err vg_mldsa_sign_mu_expanded_k(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_expanded *e, const uint8_t mu[VG_MLDSA_MU_LEN],
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig);
enum vg_err vg_mldsa_verify_mu_expanded_k(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_expanded_pk *e, const uint8_t mu[VG_MLDSA_MU_LEN],
    const uint8_t *sig, size_t siglen);
enum vg_err vg_mldsa_expand_sk_k(const struct vg_mldsa_kernels *k,
    enum vg_mldsa_param p, const uint8_t *sk, size_t sklen,
    struct vg_mldsa_expanded *e, size_t esize);
enum vg_err vg_mldsa_expand_pk_k(const struct vg_mldsa_kernels *k,
    enum vg_mldsa_param p, const uint8_t *pk, size_t pklen,
    struct vg_mldsa_expanded_pk *e, size_t esize);

#endif
