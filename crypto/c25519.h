/*
 * Curve25519: X25519 key agreement [RFC 7748 §5] and Ed25519 signatures
 * [RFC 8032 §5.1] (pure Ed25519, Ed25519ctx and Ed25519ph).
 *
 * Byte strings are the encodings of the RFCs: a 32-byte X25519 scalar or
 * u-coordinate, a 32-byte Ed25519 private key (the seed, RFC 8032 §5.1.5)
 * and public key (the encoded point A), a 64-byte signature R || S.
 *
 * Results: VG_OK; VG_ERR_ARG for a NULL pointer with a length, a context
 * longer than 255 bytes, or Ed25519ctx with an empty context; VG_ERR_DECODE
 * for a public key that does not decode to a curve point (Ed25519) or an
 * X25519 result that is all zero (a low-order peer point, refused as
 * [RFC 7748 §6.1] allows); VG_ERR_AUTH for a signature that does not
 * verify (including S >= L and a non-canonical R); VG_ERR_RANDOM when the
 * DRBG fails. Nothing is allocated. On an error no result is written (the
 * output is wiped).
 *
 * Kernels: the X25519 scalar multiplication runs through the kernel table
 * (vg_kernels()->c25519, crypto/c25519_kernels.h): 4x64-bit limbs with
 * MULX/ADX where the CPU has BMI2 and ADX, radix 2^51 in portable C
 * otherwise; vg_x25519_k takes an explicit table so that tests and
 * benchmarks can compare implementations. Ed25519 runs on the portable
 * radix-2^51 code (crypto/c25519_int.h) on every CPU.
 *
 * Constant time: no branch or memory index depends on a scalar, a private
 * key, the nonce or a shared secret. What may be observed: lengths, the
 * public keys and points, the message, and the signature produced;
 * verification handles public data only.
 */
#ifndef VG_CRYPTO_C25519_H
#define VG_CRYPTO_C25519_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

struct vg_rng;

#define VG_X25519_LEN 32       /* scalar, u-coordinate, shared secret */
#define VG_ED25519_SEED_LEN 32 /* private key */
#define VG_ED25519_PK_LEN 32
#define VG_ED25519_SIG_LEN 64
#define VG_ED25519_CTX_MAX 255

/* ------------------------------------------------------------ X25519 */

/* The public u-coordinate of the private scalar sk: X25519(sk, 9).
 * Returns VG_OK or VG_ERR_ARG. */
enum vg_err vg_x25519_public(uint8_t pk[VG_X25519_LEN],
    const uint8_t sk[VG_X25519_LEN]);

/* A fresh private scalar from rng (32 random bytes; clamping happens in
 * every use) and its public key. Returns VG_OK, VG_ERR_ARG or
 * VG_ERR_RANDOM (nothing written). */
enum vg_err vg_x25519_keygen(struct vg_rng *rng, uint8_t sk[VG_X25519_LEN],
    uint8_t pk[VG_X25519_LEN]);

/* The shared secret X25519(sk, peer) [RFC 7748 §5]: the peer's
 * u-coordinate has its top bit ignored and non-canonical values reduced.
 * Returns VG_OK, VG_ERR_ARG, or VG_ERR_DECODE for an all-zero result
 * (out wiped). */
enum vg_err vg_x25519(uint8_t out[VG_X25519_LEN],
    const uint8_t sk[VG_X25519_LEN], const uint8_t peer[VG_X25519_LEN]);

/* vg_x25519 with an explicit kernel table (a sub-table filled by
 * vg_c25519_kernels_fill), for tests and benchmarks. */
struct vg_c25519_kernels;
enum vg_err vg_x25519_k(const struct vg_c25519_kernels *k,
    uint8_t out[VG_X25519_LEN], const uint8_t sk[VG_X25519_LEN],
    const uint8_t peer[VG_X25519_LEN]);

/* ------------------------------------------------------------ Ed25519 */

/* The public key of the 32-byte private key (seed). Returns VG_OK or
 * VG_ERR_ARG. */
enum vg_err vg_ed25519_public(uint8_t pk[VG_ED25519_PK_LEN],
    const uint8_t seed[VG_ED25519_SEED_LEN]);

/* A fresh private key from rng and its public key. Returns VG_OK,
 * VG_ERR_ARG or VG_ERR_RANDOM (nothing written). */
enum vg_err vg_ed25519_keygen(struct vg_rng *rng,
    uint8_t seed[VG_ED25519_SEED_LEN], uint8_t pk[VG_ED25519_PK_LEN]);

/* Which Ed25519 [RFC 8032 §5.1]: pure (no dom2 prefix), ctx (dom2 with
 * phflag 0 and a non-empty context), ph (dom2 with phflag 1; the message
 * is hashed with SHA-512 first; the context may be empty). PH_DIGEST is
 * Ed25519ph whose msg is already PH(M) = SHA-512(M), exactly 64 bytes
 * (VG_ERR_ARG otherwise), for a caller that streams M into SHA-512. */
enum vg_ed25519_variant {
	VG_ED25519_PURE,
	VG_ED25519_CTX,
	VG_ED25519_PH,
	VG_ED25519_PH_DIGEST,
};

/*
 * Signs msg with the private key seed, whose public key is pk. pk is
 * trusted, as in RFC 8032 §5.1.6: it must be the output of
 * vg_ed25519_public(seed), computed by the caller from the seed (never
 * read from a store), because two signatures of one message under two
 * different values of A reveal the secret scalar. The PKCS#11 layer
 * computes it once when it loads the key (pkcs11/mech_eddsa.c), so that
 * a signature costs one base-point multiplication. For VG_ED25519_PURE
 * ctx must be empty. sig receives 64 bytes. Returns VG_OK or VG_ERR_ARG.
 */
enum vg_err vg_ed25519_sign(enum vg_ed25519_variant v,
    const uint8_t seed[VG_ED25519_SEED_LEN],
    const uint8_t pk[VG_ED25519_PK_LEN], const void *msg, size_t mlen,
    const void *ctx, size_t ctxlen, uint8_t sig[VG_ED25519_SIG_LEN]);

/*
 * Verifies sig over msg under pk with the cofactorless equation
 * [S]B = R + [k]A, rejecting S >= L and non-canonical encodings of A and
 * R (as Wycheproof expects). Returns VG_OK, VG_ERR_AUTH (invalid),
 * VG_ERR_LENGTH (siglen != 64), VG_ERR_DECODE (pk is not a point) or
 * VG_ERR_ARG.
 */
enum vg_err vg_ed25519_verify(enum vg_ed25519_variant v,
    const uint8_t pk[VG_ED25519_PK_LEN], const void *msg, size_t mlen,
    const void *ctx, size_t ctxlen, const uint8_t *sig, size_t siglen);

/* Checks that pk decodes to a point of the curve (for imports). Returns
 * VG_OK or VG_ERR_DECODE. */
enum vg_err vg_ed25519_check_public(const uint8_t pk[VG_ED25519_PK_LEN]);

#endif
