/*
 * Hash functions, the SHAKE extendable-output functions, HMAC and the
 * hash-based key derivation functions.
 *
 *   SHA-1, SHA-224, SHA-256, SHA-384, SHA-512      [FIPS 180-4]
 *   SHA-512/224, SHA-512/256                       [FIPS 180-4 §5.3.6]
 *   SHA3-224/256/384/512, SHAKE128, SHAKE256       [FIPS 202]
 *   HMAC                                           [RFC 2104], [FIPS 198-1]
 *   PBKDF2                                         [RFC 8018 §5.2]
 *   HKDF                                           [RFC 5869]
 *
 * The compression functions and the Keccak permutation are reached only
 * through the kernel table (vg_kernels() in crypto/cpu.h), so SHA-NI is used
 * where the CPU has it. No function here allocates memory; every context is
 * a plain struct the caller owns, and a plain struct copy (a = b) clones a
 * running computation.
 *
 * Preconditions (asserted in debug builds; the pkcs11/ layer checks caller
 * input before it gets here): context and output pointers are non-NULL and
 * data/key pointers may be NULL only with a zero length. An alg outside
 * enum vg_hash_alg is tolerated in release builds: lengths report 0, the
 * context does nothing and writes no output, and the KDFs return VG_ERR_ARG.
 *
 * Constant time: hashing is constant time in the data (no table lookups or
 * branches on data bytes, in the portable code and in SHA-NI); only lengths
 * and the algorithm are observable. The HMAC and KDF lines below say what
 * may leak about keys.
 */
#ifndef VG_CRYPTO_HASH_H
#define VG_CRYPTO_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

enum vg_hash_alg {
	VG_HASH_SHA1,
	VG_HASH_SHA224,
	VG_HASH_SHA256,
	VG_HASH_SHA384,
	VG_HASH_SHA512,
	VG_HASH_SHA3_224,
	VG_HASH_SHA3_256,
	VG_HASH_SHA3_384,
	VG_HASH_SHA3_512,
	/* SHA-512 with its own initial values, truncated [FIPS 180-4
	 * §5.3.6, §6.7]: everything that takes a vg_hash_alg (HMAC, HKDF,
	 * PBKDF2) works with them as with the others. */
	VG_HASH_SHA512_224,
	VG_HASH_SHA512_256,
	VG_HASH_COUNT
};

/* Largest digest (SHA-512, SHA3-512) and largest block (the SHA3-224
 * rate), in bytes. */
#define VG_HASH_MAX_LEN 64
#define VG_HASH_MAX_BLOCK 144

/*
 * The Keccak sponge [FIPS 202 §4] shared by SHA-3 and SHAKE (and by ML-DSA).
 * Lanes are held as integers (a[x + 5*y]); bytes are XORed in and read out
 * little-endian, whatever the host byte order. Fields are private.
 */
struct vg_sponge {
	uint64_t a[25];
	uint32_t rate;      /* bytes per block: 200 - capacity/8 */
	uint32_t pos;       /* byte position in the current block */
	uint8_t dsbyte;     /* domain bits with the first pad bit */
	uint8_t squeezing;  /* 0 while absorbing, 1 after finalisation */
};

/* Merkle-Damgård state of SHA-1 and SHA-2. Fields are private. */
struct vg_hash_md {
	union {
		uint32_t w32[8];
		uint64_t w64[8];
	} st;
	uint64_t count;     /* bytes absorbed; the buffer holds count % block */
	uint8_t buf[128];
};

/*
 * A running hash. The definition is visible so callers can embed it; its
 * fields are private. It holds no pointers, so `struct vg_hash b = a;`
 * clones a running hash (used for HMAC and PBKDF2 precomputation).
 */
struct vg_hash {
	enum vg_hash_alg alg;
	union {
		struct vg_hash_md md;
		struct vg_sponge sp;
	} u;
};

/* Digest length in bytes (20 ... 64), or 0 for an invalid alg. */
size_t vg_hash_len(enum vg_hash_alg alg);

/* Input block length in bytes: 64 for SHA-1/224/256, 128 for SHA-384/512
 * and SHA-512/t, the sponge rate for SHA-3 (144, 136, 104, 72). This is the HMAC block
 * size [FIPS 198-1]. 0 for an invalid alg. */
size_t vg_hash_block_len(enum vg_hash_alg alg);

/* Starts a hash. Any previous content of *h is overwritten. */
void vg_hash_init(struct vg_hash *h, enum vg_hash_alg alg);

/* Absorbs len bytes. Any number of calls, of any lengths. */
void vg_hash_update(struct vg_hash *h, const void *data, size_t len);

/* Writes vg_hash_len(alg) bytes to out, then wipes *h (vg_hash_init is
 * needed before it can be used again). */
void vg_hash_final(struct vg_hash *h, uint8_t *out);

/* One-shot: out = H(data). out has room for vg_hash_len(alg) bytes. */
void vg_hash(enum vg_hash_alg alg, const void *data, size_t len,
    uint8_t *out);

/*
 * SHAKE128 and SHAKE256 [FIPS 202 §6.2]: init, absorb any number of times,
 * finalize once, then squeeze any number of times; the concatenation of
 * the squeezed outputs does not depend on how the output was split.
 * Squeezing a state that is still absorbing finalizes it first; absorbing
 * after finalisation is a precondition violation and is ignored.
 * The state may hold secret input (ML-DSA seeds): vg_shake_wipe() it.
 * CT: only the lengths are observable.
 */
struct vg_shake {
	struct vg_sponge sp;
};

void vg_shake128_init(struct vg_shake *x);
void vg_shake256_init(struct vg_shake *x);
void vg_shake_absorb(struct vg_shake *x, const void *data, size_t len);
void vg_shake_finalize(struct vg_shake *x);
void vg_shake_squeeze(struct vg_shake *x, uint8_t *out, size_t len);
void vg_shake_wipe(struct vg_shake *x);

/* One-shot SHAKE: out = the first outlen bytes of SHAKE(in). The internal
 * state is wiped before return. */
void vg_shake128(uint8_t *out, size_t outlen, const void *in, size_t inlen);
void vg_shake256(uint8_t *out, size_t outlen, const void *in, size_t inlen);

/*
 * HMAC [RFC 2104] over any vg_hash_alg (for SHA-3 the block size is the
 * sponge rate, as in [FIPS 202 §7] and OpenSSL). Keys longer than
 * the block are hashed first; any key length, including 0, is accepted.
 * init computes the inner and outer padded states once; a struct copy of
 * an initialised vg_hmac clones it (PBKDF2 and HKDF rely on this).
 * The context holds key-derived state: it is wiped by vg_hmac_final, and a
 * context abandoned before final must be wiped with vg_wipe by its owner.
 * CT: only keylen, the data length and alg are observable; no branch or
 * memory index depends on key or data bytes.
 */
struct vg_hmac {
	struct vg_hash inner;   /* H((K ^ ipad) || ...) */
	struct vg_hash outer;   /* H((K ^ opad)), waiting for the inner hash */
};

void vg_hmac_init(struct vg_hmac *m, enum vg_hash_alg alg, const void *key,
    size_t keylen);
void vg_hmac_update(struct vg_hmac *m, const void *data, size_t len);

/* Writes vg_hash_len(alg) bytes to out, then wipes *m. */
void vg_hmac_final(struct vg_hmac *m, uint8_t *out);

/*
 * Finishes m and compares the MAC with tag (taglen bytes, at most
 * vg_hash_len of m's hash): VG_OK when they are equal, VG_ERR_AUTH when
 * not. Wipes *m and the computed MAC.
 * CT: only taglen and the verdict are observable.
 */
enum vg_err vg_hmac_verify(struct vg_hmac *m, const void *tag,
    size_t taglen);

/* One-shot HMAC; all intermediate state is wiped before return. */
void vg_hmac(enum vg_hash_alg alg, const void *key, size_t keylen,
    const void *data, size_t len, uint8_t *out);

/*
 * PBKDF2 with HMAC-alg as the PRF [RFC 8018 §5.2]: derives outlen bytes
 * from the password pw and the salt.
 * Returns VG_OK; VG_ERR_ARG for an invalid alg or iterations == 0;
 * VG_ERR_LENGTH if outlen > (2^32 - 1) * vg_hash_len(alg). outlen == 0 is
 * allowed and writes nothing. On error nothing is written to out.
 * The HMAC key is processed once; each iteration clones the precomputed
 * inner and outer states (two compressions per iteration for SHA-1/SHA-2).
 * All key material and intermediate values are wiped on every exit.
 * CT: only pwlen, saltlen, iterations, outlen and alg are observable.
 */
enum vg_err vg_pbkdf2_hmac(enum vg_hash_alg alg, const void *pw, size_t pwlen,
    const void *salt, size_t saltlen, uint32_t iterations, uint8_t *out,
    size_t outlen);

/*
 * HKDF-Extract [RFC 5869 §2.2]: prk = HMAC-alg(salt, ikm), vg_hash_len(alg)
 * bytes. An empty salt (saltlen 0, salt may be NULL) is the RFC's "string
 * of HashLen zeros" (HMAC pads keys with zeros, so the two are the same).
 * Nothing is written for an invalid alg.
 * CT: only saltlen, ikmlen and alg are observable.
 */
void vg_hkdf_extract(enum vg_hash_alg alg, const void *salt, size_t saltlen,
    const void *ikm, size_t ikmlen, uint8_t *prk);

/*
 * HKDF-Expand [RFC 5869 §2.3]: outlen bytes from the pseudorandom key prk
 * (normally vg_hash_len(alg) bytes from vg_hkdf_extract; other lengths are
 * used as the HMAC key as they are) and the context info.
 * Returns VG_OK; VG_ERR_ARG for an invalid alg; VG_ERR_LENGTH if
 * outlen > 255 * vg_hash_len(alg) (nothing written then). Intermediate
 * values are wiped. CT: only prklen, infolen, outlen and alg are observable.
 */
enum vg_err vg_hkdf_expand(enum vg_hash_alg alg, const uint8_t *prk,
    size_t prklen, const void *info, size_t infolen, uint8_t *out,
    size_t outlen);

/* HKDF [RFC 5869 §2]: Extract then Expand; the PRK is wiped. Returns and
 * CT as vg_hkdf_expand. */
enum vg_err vg_hkdf(enum vg_hash_alg alg, const void *salt, size_t saltlen,
    const void *ikm, size_t ikmlen, const void *info, size_t infolen,
    uint8_t *out, size_t outlen);

/*
 * ANSI X9.63 KDF [SEC1 3.6.1] (ECDH's CKD_SHA*_KDF): out (outlen bytes)
 * = Hash(Z || counter || info) for counter = 1, 2, ... (32-bit big
 * endian), concatenated and truncated. CT: only the lengths.
 */
void vg_x963_kdf(enum vg_hash_alg alg, const uint8_t *z, size_t zlen,
    const uint8_t *info, size_t infolen, uint8_t *out, size_t outlen);

/* ------------------------------------------------------------------------
 * Building blocks for other crypto/ families (ML-DSA uses the sponge
 * directly, e.g. for SHAKE with several absorbs of the same seed).
 */

/* Keccak-f[1600] through the kernel table (vg_kernels()->keccakf1600). */
void vg_keccakf1600(uint64_t st[25]);

/* Starts a sponge with the given rate (bytes, a multiple of 8, at most
 * 168) and domain byte (0x06 for SHA-3, 0x1f for SHAKE: the domain bits
 * followed by the first bit of pad10*1). */
void vg_sponge_init(struct vg_sponge *s, unsigned rate, uint8_t dsbyte);
void vg_sponge_absorb(struct vg_sponge *s, const void *data, size_t len);
void vg_sponge_finalize(struct vg_sponge *s);
void vg_sponge_squeeze(struct vg_sponge *s, uint8_t *out, size_t len);

/* Initial hash values [FIPS 180-4 §5.3], defined in the family files and
 * used by crypto/hash.c. */
extern const uint32_t vg_sha1_iv[5];
extern const uint32_t vg_sha224_iv[8];
extern const uint32_t vg_sha256_iv[8];
extern const uint64_t vg_sha384_iv[8];
extern const uint64_t vg_sha512_iv[8];
extern const uint64_t vg_sha512_224_iv[8];
extern const uint64_t vg_sha512_256_iv[8];

/* SHA-384/512 round constants [FIPS 180-4 §4.2.3], defined in
 * crypto/sha512.c, 32-byte aligned: the portable compression function and
 * the AVX2 kernel share them. */
extern const uint64_t vg_sha512_k[80];

#endif
