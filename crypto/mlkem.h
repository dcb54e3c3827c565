/*
 * ML-KEM, the Module-Lattice-Based Key-Encapsulation Mechanism [FIPS 203],
 * with the parameter sets ML-KEM-512, ML-KEM-768 and ML-KEM-1024.
 *
 *   keys     KeyGen from the 64-byte seed d || z (ML-KEM.KeyGen_internal,
 *            Alg. 16), or from the DRBG (Alg. 19)
 *   encaps   Encaps_internal with the caller's 32-byte m (Alg. 17), or
 *            with m from the DRBG (Alg. 20)
 *   decaps   Decaps (Alg. 21, 18) with implicit rejection
 *
 * Byte strings are the encodings of [FIPS 203]: encapsulation key ek,
 * decapsulation key dk = dk_PKE || ek || H(ek) || z, ciphertext c, and a
 * 32-byte shared secret K. Every input of a fixed size comes with its
 * length and a wrong length is rejected.
 *
 * Results: VG_OK; VG_ERR_ARG for an unknown parameter set or a NULL
 * pointer; VG_ERR_DECODE for an ek that fails the modulus check [FIPS 203
 * §7.2] or a dk that fails the hash check [FIPS 203 §7.3], or a key of the
 * wrong length; VG_ERR_LENGTH for a ciphertext of the wrong length;
 * VG_ERR_RANDOM when the DRBG fails. Decapsulation of a well-sized but
 * wrong ciphertext is not an error: it returns VG_OK with the implicit
 * rejection key J(z || c). On an error no secret is written (the output is
 * wiped). Nothing is allocated; keys may be expanded once into memory the
 * caller provides (below) for repeated use.
 *
 * Kernels: the NTT, base multiplication, rejection sampling, CBD sampling,
 * compression and the 4-way Keccak run through the kernel table (vg_kernels()->mlkem,
 * crypto/mlkem_kernels.h); the _k variants take an explicit table so that
 * tests and benchmarks can compare implementations.
 *
 * Constant time: key generation, encapsulation and decapsulation have no
 * branch or memory index on secret data (d, z, m, s, e, the shared secret,
 * and in decapsulation whether the re-encryption matched). What may be
 * observed: the parameter set, lengths, the public seed rho, ek, c and
 * which candidates the sampling of A rejected.
 */
#ifndef VG_CRYPTO_MLKEM_H
#define VG_CRYPTO_MLKEM_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

struct vg_rng;
struct vg_mlkem_kernels;

enum vg_mlkem_param {
	VG_MLKEM_512,
	VG_MLKEM_768,
	VG_MLKEM_1024,
	VG_MLKEM_PARAM_COUNT
};

#define VG_MLKEM_SEED_LEN 64 /* d || z */
#define VG_MLKEM_M_LEN 32    /* m of Encaps_internal */
#define VG_MLKEM_SS_LEN 32   /* the shared secret K */

/* Sizes in bytes [FIPS 203 Table 3]. */
#define VG_MLKEM_512_EK_LEN 800
#define VG_MLKEM_512_DK_LEN 1632
#define VG_MLKEM_512_CT_LEN 768
#define VG_MLKEM_768_EK_LEN 1184
#define VG_MLKEM_768_DK_LEN 2400
#define VG_MLKEM_768_CT_LEN 1088
#define VG_MLKEM_1024_EK_LEN 1568
#define VG_MLKEM_1024_DK_LEN 3168
#define VG_MLKEM_1024_CT_LEN 1568
#define VG_MLKEM_MAX_EK_LEN VG_MLKEM_1024_EK_LEN
#define VG_MLKEM_MAX_DK_LEN VG_MLKEM_1024_DK_LEN
#define VG_MLKEM_MAX_CT_LEN VG_MLKEM_1024_CT_LEN

/* Encapsulation key, decapsulation key and ciphertext length of p; 0 for
 * an unknown p. */
size_t vg_mlkem_ek_len(enum vg_mlkem_param p);
size_t vg_mlkem_dk_len(enum vg_mlkem_param p);
size_t vg_mlkem_ct_len(enum vg_mlkem_param p);

/*
 * ML-KEM.KeyGen_internal [FIPS 203 Alg. 16] of the seed d || z. ek
 * receives vg_mlkem_ek_len(p) bytes, dk vg_mlkem_dk_len(p). Returns VG_OK
 * or VG_ERR_ARG (nothing written).
 */
enum vg_err vg_mlkem_keygen_internal(enum vg_mlkem_param p,
    const uint8_t seed[VG_MLKEM_SEED_LEN], uint8_t *ek, uint8_t *dk);

/* ML-KEM.KeyGen [FIPS 203 Alg. 19]: the seed from rng, written to seed_out
 * when not NULL (the compact private key, CKA_SEED) and wiped otherwise.
 * Returns VG_OK, VG_ERR_ARG or VG_ERR_RANDOM (nothing written). */
enum vg_err vg_mlkem_keygen(enum vg_mlkem_param p, struct vg_rng *rng,
    uint8_t *seed_out, uint8_t *ek, uint8_t *dk);

/* The input checks of [FIPS 203 §7.2, §7.3] on their own, for imports:
 * length and modulus check of ek; length and H(ek) check of dk. Return
 * VG_OK, VG_ERR_ARG or VG_ERR_DECODE. */
enum vg_err vg_mlkem_check_ek(enum vg_mlkem_param p, const uint8_t *ek,
    size_t eklen);
enum vg_err vg_mlkem_check_dk(enum vg_mlkem_param p, const uint8_t *dk,
    size_t dklen);

/*
 * ML-KEM.Encaps_internal [FIPS 203 Alg. 17] with the caller's m (after the
 * modulus check of ek). c receives vg_mlkem_ct_len(p) bytes, ss 32.
 * Returns VG_OK, VG_ERR_ARG or VG_ERR_DECODE.
 */
enum vg_err vg_mlkem_encaps_internal(enum vg_mlkem_param p,
    const uint8_t *ek, size_t eklen, const uint8_t m[VG_MLKEM_M_LEN],
    uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN]);

/* ML-KEM.Encaps [FIPS 203 Alg. 20]: m from rng. Returns as above, or
 * VG_ERR_RANDOM. */
enum vg_err vg_mlkem_encaps(enum vg_mlkem_param p, struct vg_rng *rng,
    const uint8_t *ek, size_t eklen, uint8_t *c,
    uint8_t ss[VG_MLKEM_SS_LEN]);

/*
 * ML-KEM.Decaps [FIPS 203 Alg. 21] after the checks of §7.3 (dk length and
 * hash; ciphertext length). ss receives the shared secret, or the implicit
 * rejection key when c does not re-encrypt (not distinguishable by timing).
 * Returns VG_OK, VG_ERR_ARG, VG_ERR_DECODE (dk) or VG_ERR_LENGTH (c).
 */
enum vg_err vg_mlkem_decaps(enum vg_mlkem_param p, const uint8_t *dk,
    size_t dklen, const uint8_t *c, size_t clen,
    uint8_t ss[VG_MLKEM_SS_LEN]);

/*
 * The same with an explicit kernel table (crypto/mlkem_kernels.h, filled
 * by vg_kernels_fill); the functions above use &vg_kernels()->mlkem. A
 * NULL table is VG_ERR_ARG.
 */
enum vg_err vg_mlkem_keygen_internal_k(const struct vg_mlkem_kernels *k,
    enum vg_mlkem_param p, const uint8_t seed[VG_MLKEM_SEED_LEN],
    uint8_t *ek, uint8_t *dk);
enum vg_err vg_mlkem_encaps_internal_k(const struct vg_mlkem_kernels *k,
    enum vg_mlkem_param p, const uint8_t *ek, size_t eklen,
    const uint8_t m[VG_MLKEM_M_LEN], uint8_t *c,
    uint8_t ss[VG_MLKEM_SS_LEN]);
enum vg_err vg_mlkem_decaps_k(const struct vg_mlkem_kernels *k,
    enum vg_mlkem_param p, const uint8_t *dk, size_t dklen,
    const uint8_t *c, size_t clen, uint8_t ss[VG_MLKEM_SS_LEN]);

/* ------------------------------------------------------------ expanded keys */

/*
 * Keys in operation form, computed once from the encoding so that a key
 * store can keep them with the loaded key and each operation does only the
 * per-message work:
 *
 *   expanded ek  the matrix A-hat (transposed, as K-PKE.Encrypt reads it,
 *                [FIPS 203 Alg. 14 lines 4-8]), t-hat decoded from ek,
 *                rho and H(ek)
 *   expanded dk  s-hat decoded from dk_PKE, z, and the expanded form of
 *                the ek that dk holds (for the re-encryption of Decaps)
 *
 * This skips ByteDecode of the key vectors, the sampling of A (k^2 calls of
 * SampleNTT) and the hash H(ek) of every Encaps and Decaps. The results are
 * byte-identical to those of the functions above for the same inputs: they
 * expand the encoded key on the stack and run the same code.
 *
 * The caller provides vg_mlkem_expanded_ek_size(p) or
 * vg_mlkem_expanded_dk_size(p) bytes, aligned to 32 (page-aligned memory
 * from a key store is; VG_ERR_ARG otherwise), and keeps them: crypto/ does
 * no allocation. An expanded dk holds the whole secret key: keep it in
 * locked memory and wipe it (vg_wipe over its size) when done. The fields
 * are private; the forms hold no pointers and are only read by Encaps and
 * Decaps, so that any number of threads may use one form at once.
 *
 * Sizes for ML-KEM-512 / 768 / 1024: expanded ek 3168 / 6240 / 10336
 * bytes, expanded dk 4256 / 7840 / 12448 bytes.
 */
struct vg_mlkem_expanded_ek;
struct vg_mlkem_expanded_dk;

/* Bytes of the expanded ek and dk of p; 0 for an unknown p. */
size_t vg_mlkem_expanded_ek_size(enum vg_mlkem_param p);
size_t vg_mlkem_expanded_dk_size(enum vg_mlkem_param p);

/*
 * Fills e (esize bytes) from the encapsulation key ek, with the checks of
 * Encaps [FIPS 203 §7.2]: length and modulus check. Returns VG_OK,
 * VG_ERR_ARG (unknown p, NULL pointer, esize too small, e not aligned to
 * 32) or VG_ERR_DECODE (e is wiped). ek is public: not constant time.
 */
enum vg_err vg_mlkem_expand_ek(enum vg_mlkem_param p, const uint8_t *ek,
    size_t eklen, struct vg_mlkem_expanded_ek *e, size_t esize);

/*
 * Fills d (dsize bytes) from the decapsulation key dk, with the checks of
 * Decaps [FIPS 203 §7.3]: length and hash check. Returns VG_OK,
 * VG_ERR_ARG (as above) or VG_ERR_DECODE (d is wiped).
 * CT: only p and whether the hash check passed are observable (the ek in
 * dk, rho and H(ek) are public).
 */
enum vg_err vg_mlkem_expand_dk(enum vg_mlkem_param p, const uint8_t *dk,
    size_t dklen, struct vg_mlkem_expanded_dk *d, size_t dsize);

/* The parameter set of an expanded key. */
enum vg_mlkem_param vg_mlkem_expanded_ek_param(
    const struct vg_mlkem_expanded_ek *e);
enum vg_mlkem_param vg_mlkem_expanded_dk_param(
    const struct vg_mlkem_expanded_dk *d);

/*
 * vg_mlkem_encaps_internal, vg_mlkem_encaps and vg_mlkem_decaps with an
 * expanded key; results as those, without VG_ERR_DECODE (the key was
 * checked when it was expanded). c receives vg_mlkem_ct_len(p) bytes.
 * CT: as those.
 */
enum vg_err vg_mlkem_encaps_internal_expanded(
    const struct vg_mlkem_expanded_ek *e, const uint8_t m[VG_MLKEM_M_LEN],
    uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN]);
enum vg_err vg_mlkem_encaps_expanded(const struct vg_mlkem_expanded_ek *e,
    struct vg_rng *rng, uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN]);
enum vg_err vg_mlkem_decaps_expanded(const struct vg_mlkem_expanded_dk *d,
    const uint8_t *c, size_t clen, uint8_t ss[VG_MLKEM_SS_LEN]);

/* The same with an explicit kernel table (NULL is VG_ERR_ARG). */
enum vg_err vg_mlkem_expand_ek_k(const struct vg_mlkem_kernels *k,
    enum vg_mlkem_param p, const uint8_t *ek, size_t eklen,
    struct vg_mlkem_expanded_ek *e, size_t esize);
enum vg_err vg_mlkem_expand_dk_k(const struct vg_mlkem_kernels *k,
    enum vg_mlkem_param p, const uint8_t *dk, size_t dklen,
    struct vg_mlkem_expanded_dk *d, size_t dsize);
enum vg_err vg_mlkem_encaps_internal_expanded_k(
    const struct vg_mlkem_kernels *k, const struct vg_mlkem_expanded_ek *e,
    const uint8_t m[VG_MLKEM_M_LEN], uint8_t *c,
    uint8_t ss[VG_MLKEM_SS_LEN]);
enum vg_err vg_mlkem_decaps_expanded_k(const struct vg_mlkem_kernels *k,
    const struct vg_mlkem_expanded_dk *d, const uint8_t *c, size_t clen,
    uint8_t ss[VG_MLKEM_SS_LEN]);

#endif
