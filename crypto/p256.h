/*
 * The elliptic curve P-256 (secp256r1, prime256v1) [FIPS 186-5 §6],
 * [SP 800-186 §3.2.1.3]: key generation, ECDH [SP 800-56A §5.7.1.2] and
 * ECDSA [FIPS 186-5 §6.4] with RFC 6979 nonces, hedged with caller
 * randomness [RFC 6979 §3.6].
 *
 * Keys are decoded once into the structs below and used many times: a
 * struct vg_p256_priv holds a scalar already checked to be in [1, n - 1], a
 * struct vg_p256_pub a point already checked to be on the curve, so signing
 * and deriving do no parsing and no validation of their own. Both are plain
 * data (no pointers, no allocation; copy them with =). A private key is
 * secret: wipe it with vg_p256_priv_wipe when done.
 *
 * The arithmetic runs on the kernels chosen for this CPU (crypto/cpu.h:
 * MULX/ADX field multiplication, AVX2 table selection, else the portable
 * twins, and VG_CPU_FEATURES=none forces the latter); results do not depend
 * on the choice. Nothing here allocates memory or keeps state.
 *
 * Preconditions (asserted in debug builds; pkcs11/ checks caller input):
 * pointers are non-NULL except where said otherwise; a byte pointer may be
 * NULL with a zero length.
 *
 * Constant time: each function says what may leak. "Public" outcomes (a key
 * rejected, a signature invalid) are returned and therefore observable;
 * nothing else about a private scalar, a nonce or the intermediate points
 * of a secret multiplication drives a branch or a memory index.
 */
#ifndef VG_CRYPTO_P256_H
#define VG_CRYPTO_P256_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/hash.h"

struct vg_rng;

#define VG_P256_SCALAR_LEN 32        /* private key, r, s, x-coordinate */
#define VG_P256_POINT_LEN 65         /* SEC1 uncompressed: 04 || x || y */
#define VG_P256_POINT_COMPRESSED_LEN 33 /* 02 / 03 || x */
#define VG_P256_EC_POINT_LEN 67      /* DER OCTET STRING of the above */
#define VG_P256_SIG_LEN 64           /* r || s, the PKCS#11 CKM_ECDSA form */
#define VG_P256_SIG_DER_MAX 72       /* longest DER ECDSA-Sig-Value */
#define VG_P256_SHARED_LEN 32        /* ECDH output: the x-coordinate */

/* A private scalar d, 1 <= d <= n - 1 (little-endian limbs). Private. */
struct vg_p256_priv {
	uint64_t d[4];
};

/* A public point on the curve, not infinity (affine, Montgomery form).
 * Private fields. */
struct vg_p256_pub {
	uint64_t x[4], y[4];
};

/*
 * Source of random bytes for key generation: fills out with len bytes and
 * returns VG_OK, or an error that is passed on. ctx is the caller's.
 */
typedef enum vg_err (*vg_p256_random_fn)(void *ctx, uint8_t *out,
    size_t len);

/* ------------------------------------------------------------ private */

/*
 * Decodes and validates a private scalar: a big-endian integer of len
 * bytes (leading zero bytes allowed, so 33-byte two's-complement forms and
 * short forms are accepted) that must be in [1, n - 1] [SEC1 §3.2.1].
 * Returns VG_OK; VG_ERR_LENGTH for len 0; VG_ERR_ARG for 0, n or more
 * (then *k is wiped).
 * CT: only len and whether the scalar is valid are observable.
 */
enum vg_err vg_p256_priv_decode(struct vg_p256_priv *k, const uint8_t *in,
    size_t len);

/* Writes the scalar as 32 big-endian bytes. CT: constant time. */
void vg_p256_priv_encode(uint8_t out[VG_P256_SCALAR_LEN],
    const struct vg_p256_priv *k);

/* Wipes *k (k may be NULL). */
void vg_p256_priv_wipe(struct vg_p256_priv *k);

/*
 * Key pair generation [FIPS 186-5 §A.2.2, rejection sampling]: draws 32
 * bytes from rnd until they encode a scalar in [1, n - 1] (a draw is
 * rejected with probability below 2^-32; after 64 rejections the source is
 * deemed broken: VG_ERR_RANDOM), then pub = [d]G by the fixed-base comb.
 * pub may be NULL. Returns VG_OK, the error of rnd, VG_ERR_RANDOM or
 * VG_ERR_INTERNAL (self-check failed); on error *k is wiped.
 * CT: only the number of rejected draws is observable.
 */
enum vg_err vg_p256_keygen(struct vg_p256_priv *k, struct vg_p256_pub *pub,
    vg_p256_random_fn rnd, void *ctx);

/* vg_p256_keygen drawing from a seeded generator (crypto/drbg.h). */
enum vg_err vg_p256_keygen_rng(struct vg_p256_priv *k,
    struct vg_p256_pub *pub, struct vg_rng *rng);

/*
 * pub = [d]G (fixed-base comb, constant time). Returns VG_OK, VG_ERR_ARG
 * for a scalar outside [1, n - 1] (a struct not filled by this API), or
 * VG_ERR_INTERNAL (self-check failed).
 * CT: only the validity of *k is observable.
 */
enum vg_err vg_p256_pub_from_priv(struct vg_p256_pub *pub,
    const struct vg_p256_priv *k);

/*
 * Checks that pub = [d]G, for keys imported as a pair. Returns VG_OK or
 * VG_ERR_ARG. CT: only the outcome is observable.
 */
enum vg_err vg_p256_check_pair(const struct vg_p256_priv *k,
    const struct vg_p256_pub *pub);

/* ------------------------------------------------------------- public */

/*
 * Decodes and validates a SEC1 point [SEC1 §2.3.4, §3.2.2.1]: 65 bytes
 * 04 || x || y, or 33 bytes 02 / 03 || x (the square root is computed).
 * Rejected, with VG_ERR_DECODE: any other length or prefix (including the
 * encoding of infinity, 00, and the hybrid forms 06 / 07), a coordinate
 * >= p, a point not on the curve, an x with no square root. Since the
 * cofactor is 1 a point on the curve other than infinity has order n.
 * CT: none needed (public data).
 */
enum vg_err vg_p256_pub_decode(struct vg_p256_pub *pub, const uint8_t *in,
    size_t len);

/*
 * As vg_p256_pub_decode, but also accepts the point wrapped in a DER
 * OCTET STRING, the form of CKA_EC_POINT [PKCS#11 3.2 §6.3.3]: 67 bytes
 * 04 41 04 x y, or 35 bytes 04 21 02/03 x. The raw and wrapped forms
 * cannot be confused: no valid raw point has the length of a wrapped one,
 * and the 65-byte raw form is taken as raw.
 * CT: none needed (public data).
 */
enum vg_err vg_p256_pub_decode_ec_point(struct vg_p256_pub *pub,
    const uint8_t *in, size_t len);

/* Writes 04 || x || y. */
void vg_p256_pub_encode(uint8_t out[VG_P256_POINT_LEN],
    const struct vg_p256_pub *pub);

/* Writes 02 || x or 03 || x (the parity of y). */
void vg_p256_pub_encode_compressed(uint8_t out[VG_P256_POINT_COMPRESSED_LEN],
    const struct vg_p256_pub *pub);

/* Writes the DER OCTET STRING 04 41 04 || x || y (CKA_EC_POINT). */
void vg_p256_pub_encode_ec_point(uint8_t out[VG_P256_EC_POINT_LEN],
    const struct vg_p256_pub *pub);

/* ---------------------------------------------------------------- ECDH */

/*
 * ECDH [SP 800-56A §5.7.1.2]: shared = the x-coordinate of [d]Q, 32 bytes
 * big-endian. peer comes from vg_p256_pub_decode*, which validated it
 * (full public-key validation; with cofactor 1 the cofactor variant,
 * CKM_ECDH1_COFACTOR_DERIVE, gives the same result). Multiplication by
 * 5-bit signed windows in Jacobian coordinates (crypto/p256_point.c).
 * Returns VG_OK; VG_ERR_ARG for an invalid scalar; VG_ERR_INTERNAL if the
 * result is infinity or off the curve (impossible for valid inputs: a
 * fault); shared is wiped on error.
 * CT: constant time in d and in the peer point; only the outcome is
 * observable.
 */
enum vg_err vg_p256_ecdh(uint8_t shared[VG_P256_SHARED_LEN],
    const struct vg_p256_priv *k, const struct vg_p256_pub *peer);

/* --------------------------------------------------------------- ECDSA */

/*
 * ECDSA signature [FIPS 186-5 §6.4.1] of the hash h (hlen bytes, any
 * length: the leftmost 256 bits are used, a shorter h as the integer it
 * encodes [FIPS 186-5 §6.4.1 step 4, bits2int]). sig = r || s, 64 bytes.
 * The nonce comes from HMAC_DRBG [RFC 6979 §3.2] with HMAC-nonce_hash
 * (normally the hash that produced h; any vg_hash_alg works) over the
 * private key and h; with rnd non-NULL, its 32 bytes are the additional
 * data k' of [RFC 6979 §3.6]: the signature is then randomised, yet a
 * broken random source still gives a safe (deterministic) nonce. With rnd
 * NULL the signature is that of RFC 6979 (known answers).
 * Returns VG_OK; VG_ERR_ARG for an invalid nonce_hash or key;
 * VG_ERR_INTERNAL if no nonce was found in 64 rounds (probability below
 * 2^-2000). sig is written only on success.
 * CT: only hlen, nonce_hash, whether rnd is NULL, and the number of
 * rejected nonce candidates (probability 2^-32 each) are observable.
 */
enum vg_err vg_p256_ecdsa_sign(uint8_t sig[VG_P256_SIG_LEN],
    const struct vg_p256_priv *k, const uint8_t *h, size_t hlen,
    enum vg_hash_alg nonce_hash, const uint8_t *rnd);

/*
 * ECDSA verification [FIPS 186-5 §6.4.2] of sig = r || s over the hash h
 * (truncated as for signing). Returns VG_OK for a valid signature, else
 * VG_ERR_AUTH (including r or s outside [1, n - 1]).
 * CT: none (public data); [u1]G + [u2]Q in variable time.
 */
enum vg_err vg_p256_ecdsa_verify(const struct vg_p256_pub *pub,
    const uint8_t *h, size_t hlen, const uint8_t sig[VG_P256_SIG_LEN]);

/*
 * r || s to the DER ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }
 * [RFC 3279 §2.2.3] (minimal INTEGERs; at most VG_P256_SIG_DER_MAX bytes).
 * *outlen is the room at out on entry and the encoded length on return;
 * out NULL only computes it. Returns VG_OK or VG_ERR_LENGTH (nothing
 * written). CT: the length shows the byte lengths of r and s.
 */
enum vg_err vg_p256_ecdsa_sig_to_der(uint8_t *out, size_t *outlen,
    const uint8_t sig[VG_P256_SIG_LEN]);

/*
 * DER ECDSA-Sig-Value to r || s. Strict DER (crypto/der.h): exactly one
 * SEQUENCE of two non-negative minimal INTEGERs and nothing after it;
 * integers of more than 32 bytes (>= 2^256) give VG_ERR_DECODE. Values
 * of 0 or >= n are passed on (verification rejects them).
 * Returns VG_OK or VG_ERR_DECODE (sig not written). CT: none (public).
 */
enum vg_err vg_p256_ecdsa_sig_from_der(uint8_t sig[VG_P256_SIG_LEN],
    const uint8_t *in, size_t len);

#endif
