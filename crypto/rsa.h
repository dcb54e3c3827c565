/*
 * RSA [RFC 8017]: keys, the raw operations, PKCS#1 v1.5 and PSS signatures,
 * PKCS#1 v1.5 and OAEP encryption, and key generation [FIPS 186-5 A.1.3,
 * B.3.3]. Moduli of 512 ... 4096 bits (the pkcs11/ layer applies its own
 * policy on top), two-prime CRT keys only.
 *
 * Keys are plain structs the caller owns (no allocation; a private key is
 * about 12 KiB, and the private operation uses up to about 30 KiB of
 * stack). A loaded key holds every precomputed value (Montgomery constants
 * of n, p and q, the constants of the IFMA kernel, the blinding pair), so
 * an operation does no set-up.
 *
 * Threads: the private operation updates the key's blinding pair, so calls
 * on one struct vg_rsa_key must be serialised by the caller; copies made
 * by vg_rsa_key_copy run side by side (token/ gives each thread one).
 * Public keys are read-only after loading.
 *
 * Errors: VG_ERR_ARG (a NULL pointer with a length, unsupported hash or
 * parameter), VG_ERR_LENGTH (a buffer or input length out of range),
 * VG_ERR_DECODE (malformed key, input not below n, any decryption failure),
 * VG_ERR_AUTH (a signature that does not verify), VG_ERR_RANDOM,
 * VG_ERR_INTERNAL (the fault check failed: the private result did not
 * match under the public exponent; nothing is output).
 *
 * Constant time: the private operation, the decryption padding checks and
 * key generation run in time independent of secrets (d, p, q, dp, dq,
 * qinv, the blinded base, the plaintext). Each function states what may
 * be observed.
 */
#ifndef VG_CRYPTO_RSA_H
#define VG_CRYPTO_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/bn.h"
#include "crypto/der.h"
#include "crypto/drbg.h"
#include "crypto/err.h"
#include "crypto/hash.h"

#define VG_RSA_MIN_BITS 512
#define VG_RSA_MAX_BITS 4096
#define VG_RSA_MAX_BYTES (VG_RSA_MAX_BITS / 8)

/* A public key. Fields are private. */
struct vg_rsa_pub {
	struct vg_bn_mont n;
	uint64_t e[VG_BN_MAX_WORDS];
	unsigned ebits;   /* bit length of e */
	size_t len;       /* bytes of the modulus: the size of every block */
	/* RSA-2048's public operation on the IFMA pair where the kernels
	 * have it: n in radix 2^52 in both halves (the second half's work
	 * is thrown away; the pair still takes about half the 64-bit
	 * kernels' time), R'^2 mod n (R' = 2^(52 nl52)), -n^-1 mod 2^64.
	 * amm52x2 NULL: the 64-bit kernels. */
	vg_rsa_amm52x2_fn *amm52x2;
	vg_rsa_powpub52x2_fn *powpub52x2;
	size_t nl52;
	uint64_t k052[2];
	uint64_t m52[2][VG_RSA52_MAX_LIMBS];
	uint64_t g52[2][VG_RSA52_MAX_LIMBS];
};

/* The constants of the radix-2^52 (IFMA) path, both CRT halves. */
struct vg_rsa52_consts {
	uint64_t m[2][VG_RSA52_MAX_LIMBS];   /* p, q */
	uint64_t one[2][VG_RSA52_MAX_LIMBS]; /* R' mod p, q (R' = 2^(52 nl)) */
	uint64_t g[2][VG_RSA52_MAX_LIMBS];   /* R'^2 R^(K-1) mod p, q */
	uint64_t k0[2];
	size_t nl;                           /* limbs: 20, 30 or 40 */
};

/* One prime of a CRT key. Fields are private. */
struct vg_rsa_half {
	struct vg_bn_mont mont;          /* the prime and its constants */
	uint64_t g[VG_BN_MAX_WORDS];     /* 2^(64w(K+1)) mod p */
	uint64_t dexp[VG_BN_MAX_WORDS];  /* d mod (p - 1) */
	unsigned kw;                     /* K * w: words an import takes */
};

/* A private key (with its public half). Fields are private. */
struct vg_rsa_key {
	struct vg_rsa_pub pub;
	struct vg_rsa_half p, q;
	uint64_t qinv[VG_BN_MAX_WORDS];     /* q^-1 mod p */
	uint64_t blind_a[VG_BN_MAX_WORDS];  /* r^e R mod n */
	uint64_t blind_b[VG_BN_MAX_WORDS];  /* r^-1 R mod n */
	/* With use52, the pair per prime in the AMM domain instead: r^e R'
	 * and r^-1 R' mod p, q (blind_a is then not made, blind_b is left
	 * as set up) */
	uint64_t blind52_a[2][VG_RSA52_MAX_LIMBS];
	uint64_t blind52_b[2][VG_RSA52_MAX_LIMBS];
	uint64_t g_n[VG_BN_MAX_WORDS];      /* 2^(64w * 3) mod n */
	struct vg_rsa52_consts c52;
	struct vg_rsa_kernels kern;
	int use52;                          /* the IFMA pair runs the halves */
	unsigned flags;
};

/* Flags of vg_rsa_key_load. */
#define VG_RSA_EXP_BLIND 1u /* blind the CRT exponents on each operation */

/*
 * Loads a public key from the big-endian magnitudes n and e (leading zero
 * bytes allowed). n: odd, VG_RSA_MIN_BITS ... VG_RSA_MAX_BITS bits;
 * e: odd, 3 <= e < n. Returns VG_OK, VG_ERR_LENGTH (n's size) or
 * VG_ERR_DECODE (even n, bad e). CT: public data only.
 */
enum vg_err vg_rsa_pub_load(struct vg_rsa_pub *k, const uint8_t *n,
    size_t nlen, const uint8_t *e, size_t elen);

/*
 * Loads a private key from its eight big-endian components (the fields of
 * a PKCS#1 RSAPrivateKey [RFC 8017 A.1.2], as vg_der_parse_rsa_private
 * returns them, or CKA_* attribute values) and checks them: n = p q,
 * e dp = 1 mod (p - 1), e dq = 1 mod (q - 1), q qinv = 1 mod p, qinv < p,
 * and when d is given (len > 0) d = dp mod (p - 1), d = dq mod (q - 1),
 * d < n. Precomputes the Montgomery constants, the IFMA constants when
 * that kernel runs (halves of RSA-2048, 3072 or 4096 size, as the kernel
 * table chooses) and a blinding pair from rng.
 * kern: the kernels to use (NULL: the process-wide table); flags:
 * VG_RSA_EXP_BLIND or 0.
 * Returns VG_OK, VG_ERR_ARG (rng NULL), VG_ERR_LENGTH (a size out of
 * range), VG_ERR_DECODE (inconsistent components) or VG_ERR_RANDOM; on
 * error *k is wiped.
 * CT: only the bit lengths of n, e, p and q and whether the key is
 * consistent (declassified once, at the end) may be observed.
 */
enum vg_err vg_rsa_key_load(struct vg_rsa_key *k,
    const struct vg_der_rsa_priv *in, const struct vg_rsa_kernels *kern,
    unsigned flags, struct vg_rng *rng);

/*
 * dst = a copy of the loaded private key src with a blinding pair of its
 * own, fresh from rng: so that private operations on one key can run in
 * several threads at once, each on its own copy (a key's pair changes
 * with every operation). src is only read. Returns VG_OK or
 * VG_ERR_RANDOM (then *dst is wiped).
 * CT: as the blinding set-up of vg_rsa_key_load.
 */
enum vg_err vg_rsa_key_copy(struct vg_rsa_key *dst,
    const struct vg_rsa_key *src, struct vg_rng *rng);

/* Makes k's public operation use the kernels kern (NULL: the process-wide
 * table); for tests and benchmarks that compare kernels. */
void vg_rsa_pub_set_kernels(struct vg_rsa_pub *k,
    const struct vg_rsa_kernels *kern);

/* Wipes a key (public or private). k may be NULL. */
void vg_rsa_key_wipe(struct vg_rsa_key *k);
void vg_rsa_pub_wipe(struct vg_rsa_pub *k);

/* The public half of a private key. */
const struct vg_rsa_pub *vg_rsa_key_pub(const struct vg_rsa_key *k);

/*
 * RSAEP / RSAVP1 [RFC 8017 5.1.1, 5.2.2]: out = in^e mod n. in and out
 * are len = k->len bytes (out may equal in). VG_ERR_LENGTH for another
 * length, VG_ERR_DECODE when in >= n (out is then zeroed).
 * CT: public data only (variable time in e).
 */
enum vg_err vg_rsa_public(const struct vg_rsa_pub *k, uint8_t *out,
    const uint8_t *in, size_t len);

/*
 * RSADP / RSASP1 [RFC 8017 5.1.2, 5.2.1] by CRT: out = in^d mod n.
 * in and out are len = modulus bytes (out may equal in). The base is
 * blinded with the key's pair (then refreshed by squaring); with
 * VG_RSA_EXP_BLIND the exponents get a random multiple of p - 1 and
 * q - 1 from rng (rng may be NULL otherwise); Garner recombination; the
 * result is checked with the public exponent before it is released.
 * Returns VG_OK, VG_ERR_LENGTH (len is not the modulus length; out is
 * not touched), VG_ERR_ARG (rng needed; out not touched), VG_ERR_DECODE
 * (in >= n), VG_ERR_RANDOM, VG_ERR_INTERNAL (fault detected); on the last
 * three out (len bytes) is zeroed.
 * CT: whether in < n (in is public) and the outcome of the fault check;
 * nothing about d, p, q or the blinded values.
 */
enum vg_err vg_rsa_private(struct vg_rsa_key *k, uint8_t *out,
    const uint8_t *in, size_t len, struct vg_rng *rng);

/* ---------------------------------------------------------- signatures */

/*
 * EMSA-PKCS1-v1_5 signatures [RFC 8017 8.2, 9.2]. With alg a SHA-1/SHA-2
 * vg_hash_alg, hash is that digest (vg_hash_len(alg) bytes) and the
 * DigestInfo is added; with alg = VG_HASH_COUNT, hash is the complete T
 * (a DigestInfo built by the caller, as for CKM_RSA_PKCS), at most
 * len - 11 bytes. sig is k's modulus length (siglen must equal it).
 * Verification re-encodes and compares (no parsing): VG_OK or
 * VG_ERR_AUTH. CT (sign): public data only besides the private
 * operation. Verification works on public data.
 */
enum vg_err vg_rsa_pkcs1_sign(struct vg_rsa_key *k, enum vg_hash_alg alg,
    const uint8_t *hash, size_t hlen, uint8_t *sig, size_t siglen,
    struct vg_rng *rng);
enum vg_err vg_rsa_pkcs1_verify(const struct vg_rsa_pub *k,
    enum vg_hash_alg alg, const uint8_t *hash, size_t hlen,
    const uint8_t *sig, size_t siglen);

/*
 * EMSA-PSS [RFC 8017 8.1, 9.1] with MGF1: mhash is the message digest
 * under halg (vg_hash_len(halg) bytes), mgf the MGF1 hash, slen the salt
 * length (any length that fits: emLen >= hLen + slen + 2). Salts come
 * from rng. Algorithms: SHA-1, SHA-2 and SHA-3. Verification returns
 * VG_OK or VG_ERR_AUTH (also for a salt length that does not fit).
 * CT (sign): the private operation's; the salt is public (it can be
 * recovered from the signature). Verification works on public data.
 */
enum vg_err vg_rsa_pss_sign(struct vg_rsa_key *k, enum vg_hash_alg halg,
    enum vg_hash_alg mgf, size_t slen, const uint8_t *mhash, size_t hlen,
    uint8_t *sig, size_t siglen, struct vg_rng *rng);
enum vg_err vg_rsa_pss_verify(const struct vg_rsa_pub *k,
    enum vg_hash_alg halg, enum vg_hash_alg mgf, size_t slen,
    const uint8_t *mhash, size_t hlen, const uint8_t *sig, size_t siglen);

/* ---------------------------------------------------------- encryption */

/*
 * RSAES-PKCS1-v1_5 [RFC 8017 7.2]: msg of at most len - 11 bytes; out is
 * the modulus length. Decryption: out has room for outcap bytes, which
 * must be at least len - 11 (VG_ERR_LENGTH otherwise, checked first);
 * *outlen gets the message length. Every failure (ciphertext not below
 * n, bad padding) is VG_ERR_DECODE after the same work, with out wiped
 * (no Bleichenbacher oracle; implicit rejection is not used).
 * CT (encrypt): mlen, and which random draws for PS were zero (those are
 * drawn again). CT (decrypt): ctlen and outcap; success or failure and
 * the message length are only revealed by the return value and *outlen.
 */
enum vg_err vg_rsa_pkcs1_encrypt(const struct vg_rsa_pub *k,
    const uint8_t *msg, size_t mlen, uint8_t *out, size_t outlen,
    struct vg_rng *rng);
enum vg_err vg_rsa_pkcs1_decrypt(struct vg_rsa_key *k, const uint8_t *ct,
    size_t ctlen, uint8_t *out, size_t outcap, size_t *outlen,
    struct vg_rng *rng);

/*
 * RSAES-OAEP [RFC 8017 7.1] with hash halg (SHA-1, SHA-2, SHA-3) for
 * the label and MGF1-mgf; label may be NULL with llen 0. msg at most
 * len - 2 hLen - 2 bytes. VG_ERR_ARG when the modulus is shorter than
 * 2 hLen + 2 bytes. Decryption as vg_rsa_pkcs1_decrypt, out with room for
 * at least len - 2 hLen - 2 bytes; every failure is VG_ERR_DECODE after
 * the same work (no Manger oracle).
 * CT (encrypt): the message and seed are handled without branches on
 * them; only mlen and llen are observable. CT (decrypt): as PKCS#1.
 */
enum vg_err vg_rsa_oaep_encrypt(const struct vg_rsa_pub *k,
    enum vg_hash_alg halg, enum vg_hash_alg mgf, const uint8_t *label,
    size_t llen, const uint8_t *msg, size_t mlen, uint8_t *out,
    size_t outlen, struct vg_rng *rng);
enum vg_err vg_rsa_oaep_decrypt(struct vg_rsa_key *k, enum vg_hash_alg halg,
    enum vg_hash_alg mgf, const uint8_t *label, size_t llen,
    const uint8_t *ct, size_t ctlen, uint8_t *out, size_t outcap,
    size_t *outlen, struct vg_rng *rng);

/* MGF1 [RFC 8017 B.2.1]: out ^= MGF1-alg(seed)[0 .. len). CT: lengths. */
void vg_rsa_mgf1_xor(enum vg_hash_alg alg, uint8_t *out, size_t len,
    const uint8_t *seed, size_t slen);

/* ---------------------------------------------------------- key pairs */

/* A generated key: big-endian components of fixed sizes (n, d: bits / 8
 * bytes; p, q, dp, dq, qinv: bits / 16 bytes; e: minimal). Secret: the
 * caller wipes it (vg_wipe). */
struct vg_rsa_key_bytes {
	uint8_t n[VG_RSA_MAX_BYTES], e[8], d[VG_RSA_MAX_BYTES];
	uint8_t p[VG_RSA_MAX_BYTES / 2], q[VG_RSA_MAX_BYTES / 2];
	uint8_t dp[VG_RSA_MAX_BYTES / 2], dq[VG_RSA_MAX_BYTES / 2];
	uint8_t qinv[VG_RSA_MAX_BYTES / 2];
	size_t nlen, elen, plen; /* d: nlen; q, dp, dq, qinv: plen */
};

/* The components of b as vg_rsa_key_load takes them. */
void vg_rsa_key_bytes_view(const struct vg_rsa_key_bytes *b,
    struct vg_der_rsa_priv *v);

/*
 * The CRT components of a key given only as (n, e, d) [NIST SP 800-56B
 * Rev. 2, Appendix C.2]: factors n from e d - 1 (trying fixed small
 * bases) and fills *out with the eight components, p > q, so that
 * vg_rsa_key_load (after vg_rsa_key_bytes_view) can check and load them.
 * e: 2 to 64 bits; n: VG_RSA_MIN_BITS to VG_RSA_MAX_BITS.
 * Returns VG_OK, VG_ERR_LENGTH (sizes) or VG_ERR_DECODE (d does not match
 * n and e, or n has no such factorisation); *out is wiped on error.
 * CT: the sizes of n, e, p and q, which base found the factors and
 * whether the key is consistent; the work is otherwise fixed by n's size
 * (a few thousand modular squarings: milliseconds, once per loaded key).
 */
enum vg_err vg_rsa_recover_crt(struct vg_rsa_key_bytes *out,
    const struct vg_der *n, const struct vg_der *e, const struct vg_der *d);

/*
 * Key generation [FIPS 186-5 A.1.3 with B.3.3 probable primes]: bits is
 * 2048, 3072 or 4096 (any multiple of 128 from 1024 to 4096 is accepted;
 * sizes below 2048 are for tests), e odd with 2^16 < e < 2^64 (65537
 * normally). p and q have bits / 2 bits and the top two bits set (so
 * p, q >= sqrt(2) 2^(bits/2 - 1)), gcd(p - 1, e) = gcd(q - 1, e) = 1,
 * pass trial division by the odd primes below 2^11 and Miller-Rabin with
 * the rounds of [FIPS 186-5 Table B.1] (5 for 2048, 4 for 3072 and 4096)
 * on random bases; |p - q| > 2^(bits/2 - 100); d = e^-1 mod lcm(p - 1,
 * q - 1) > 2^(bits/2); p > q. Randomness from rng.
 * Returns VG_OK, VG_ERR_ARG (bits or e unsupported, rng NULL) or
 * VG_ERR_RANDOM; *out is wiped on error.
 * CT: the candidates rejected (which are discarded) and the number of
 * them may be observed; nothing about the primes kept.
 */
enum vg_err vg_rsa_keygen(struct vg_rsa_key_bytes *out, unsigned bits,
    uint64_t e, struct vg_rng *rng);

#endif
