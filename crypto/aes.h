/*
 * AES and its modes.
 *
 *   AES-128, AES-192, AES-256 block cipher      [FIPS 197]
 *   GCM (authenticated encryption)              [SP 800-38D]
 *   AES key wrap (KW)                           [RFC 3394], [SP 800-38F §6.2]
 *   AES key wrap with padding (KWP)             [RFC 5649], [SP 800-38F §6.3]
 *
 * The block cipher and GHASH are reached only through the kernel table
 * (vg_kernels() in crypto/cpu.h): AES-NI and PCLMULQDQ where the CPU has
 * them, otherwise the portable constant-time twins vg_aes_*_c (bitsliced,
 * four blocks per pass) and vg_ghash_c (carry-less multiplication with
 * masked integer multiplications). No function here allocates memory or
 * keeps a table indexed by secret data.
 *
 * Preconditions: key, context and output pointers are non-NULL; data
 * pointers may be NULL only with a zero length. The mode functions check
 * this and return VG_ERR_ARG rather than crash. Unless a function says
 * otherwise, in and out are either the same buffer or do not overlap.
 *
 * Constant time: with the kernels above, the time and the memory addresses
 * touched depend on lengths (and, for GCM and unwrap, on whether
 * authentication failed) but not on keys or data. The CT line of each
 * function says what may be observed. On CPUs where integer multiplication
 * has data-dependent timing (some 32-bit and old embedded cores, not
 * x86-64), the portable GHASH would leak through timing.
 */
#ifndef VG_CRYPTO_AES_H
#define VG_CRYPTO_AES_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define VG_AES_BLOCK 16
#define VG_AES_MAX_ROUNDS 14

/* GCM limits [SP 800-38D §5.2.1.1]: at most 2^39 - 256 bits of plaintext,
 * IV and AAD shorter than 2^64 bits; tags of 4 to 16 bytes are accepted
 * (SP 800-38D recommends 12 to 16, and 4 or 8 only in protocols that bound
 * the number of forgery attempts). */
#define VG_AES_GCM_MAX_LEN ((((uint64_t)1) << 36) - 32)
#define VG_AES_GCM_MIN_TAG 4
#define VG_AES_GCM_MAX_TAG 16

/* Key wrap output overhead (the 8-byte integrity check value). KWP accepts
 * plaintexts of 1 to VG_AES_KWP_MAX_LEN bytes (the length field has 32
 * bits). */
#define VG_AES_KW_OVERHEAD 8
#define VG_AES_KWP_MAX_LEN 0xffffffffu

/*
 * An expanded AES key. The layout of the schedule depends on the kernel
 * that built it (vg_kernels()->aes_setkey), so a key must be used with the
 * kernel table that set it up; it is a process-local object, never to be
 * stored or sent. Fields are private. It holds no pointers: a struct copy
 * is a valid key, and vg_aes_key_wipe() clears it.
 */
struct vg_aes_key {
	union {
		/* vg_aes_*_aesni: Nr + 1 encryption round keys, then the
		 * Nr + 1 round keys of the equivalent inverse cipher
		 * [FIPS 197 §5.3.5], 16 bytes each, in memory order. */
		uint8_t ni[2][VG_AES_MAX_ROUNDS + 1][16];
		/* vg_aes_*_c: Nr + 1 round keys in the bitsliced layout of
		 * crypto/aes_ct.c, eight 64-bit words each. */
		uint64_t ct[(VG_AES_MAX_ROUNDS + 1) * 8];
	} sched;
	unsigned rounds; /* Nr: 10, 12 or 14 */
};

/*
 * Expands key (len 16, 24 or 32 bytes) into *k with the kernel in
 * vg_kernels(). Returns VG_OK, VG_ERR_LENGTH for another len, or VG_ERR_ARG
 * for a NULL pointer. *k holds key material: clear it with
 * vg_aes_key_wipe().
 * CT: only len is observable.
 */
enum vg_err vg_aes_init(struct vg_aes_key *k, const uint8_t *key,
    size_t len);

/* Clears *k. k may be NULL. */
void vg_aes_key_wipe(struct vg_aes_key *k);

/*
 * AES-GCM encryption [SP 800-38D §7.1]. Encrypts len bytes at in into out
 * (in == out allowed) and writes the first taglen bytes of the tag to tag.
 * ivlen >= 1 (12 is the recommended length and the fast path: J0 = IV ||
 * 0^31 || 1; other lengths are hashed with GHASH). The IV must never repeat
 * under one key.
 * Returns VG_OK; VG_ERR_LENGTH if ivlen is 0, taglen is outside 4..16, len
 * exceeds VG_AES_GCM_MAX_LEN or ivlen or aadlen reach 2^61; VG_ERR_ARG for
 * a NULL pointer with a non-zero length (tag and k must not be NULL). On
 * error nothing is written.
 * CT: only ivlen, aadlen, len and taglen are observable.
 */
enum vg_err vg_aes_gcm_encrypt(const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen, const uint8_t *in,
    size_t len, uint8_t *out, uint8_t *tag, size_t taglen);

/*
 * AES-GCM authenticated decryption [SP 800-38D §7.2]. Checks the taglen
 * bytes at tag against the ciphertext and AAD first (constant-time
 * comparison) and only then decrypts len bytes at in into out (in == out
 * allowed). Returns VG_OK; VG_ERR_AUTH if the tag does not match, and then
 * the len bytes at out are zeroed (never left with unauthenticated
 * plaintext, even transiently); VG_ERR_LENGTH and VG_ERR_ARG as for
 * vg_aes_gcm_encrypt, with nothing written.
 * CT: only ivlen, aadlen, len, taglen and whether the tag matched are
 * observable.
 */
enum vg_err vg_aes_gcm_decrypt(const struct vg_aes_key *k, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen, const uint8_t *in,
    size_t len, uint8_t *out, const uint8_t *tag, size_t taglen);

/*
 * AES key wrap [RFC 3394 §2.2.1] with the default IV A6A6A6A6A6A6A6A6.
 * len is a multiple of 8 and at least 16; out receives len + 8 bytes (out
 * may overlap in arbitrarily, e.g. out == in with room for len + 8 bytes).
 * Returns VG_OK, VG_ERR_LENGTH for another len, or VG_ERR_ARG.
 * CT: only len is observable.
 */
enum vg_err vg_aes_kw_wrap(const struct vg_aes_key *k, const uint8_t *in,
    size_t len, uint8_t *out);

/*
 * AES key unwrap [RFC 3394 §2.2.2]. len is a multiple of 8 and at least
 * 24; out receives len - 8 bytes (out may overlap in arbitrarily). Returns
 * VG_OK; VG_ERR_AUTH if the recovered IV is not A6A6A6A6A6A6A6A6, and then
 * the len - 8 bytes at out are zeroed; VG_ERR_LENGTH for another len;
 * VG_ERR_ARG.
 * CT: only len and whether the check failed are observable.
 */
enum vg_err vg_aes_kw_unwrap(const struct vg_aes_key *k, const uint8_t *in,
    size_t len, uint8_t *out);

/*
 * AES key wrap with padding [RFC 5649 §4.1]. 1 <= len <= VG_AES_KWP_MAX_LEN;
 * out receives round_up(len, 8) + 8 bytes, and that length is stored in
 * *outlen (out may overlap in arbitrarily). A padded plaintext of 8 bytes
 * is encrypted as one AES block, longer ones with the RFC 3394 process
 * under the alternative IV. Returns VG_OK, VG_ERR_LENGTH or VG_ERR_ARG.
 * CT: only len is observable.
 */
enum vg_err vg_aes_kwp_wrap(const struct vg_aes_key *k, const uint8_t *in,
    size_t len, uint8_t *out, size_t *outlen);

/*
 * AES key unwrap with padding [RFC 5649 §4.2]. len is a multiple of 8, at
 * least 16 and at most VG_AES_KWP_MAX_LEN + 15; out must have room for
 * len - 8 bytes (out may overlap in arbitrarily). On success *outlen is the
 * plaintext length (the message length indicator) and the plaintext is at
 * out. Returns VG_OK; VG_ERR_AUTH if the alternative IV, the length
 * indicator or the zero padding is wrong, and then the len - 8 bytes at out
 * are zeroed and *outlen is 0; VG_ERR_LENGTH for a bad len; VG_ERR_ARG.
 * CT: the three checks are folded into one mask without branches; only
 * len, whether unwrapping failed and, on success, *outlen are observable.
 */
enum vg_err vg_aes_kwp_unwrap(const struct vg_aes_key *k, const uint8_t *in,
    size_t len, uint8_t *out, size_t *outlen);

#endif
