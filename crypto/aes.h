/*
 * AES and its modes.
 *
 *   AES-128, AES-192, AES-256 block cipher      [FIPS 197]
 *   ECB, CBC, CTR                               [SP 800-38A]
 *   PKCS#7 padding (CKM_AES_CBC_PAD)            [RFC 5652 §6.3]
 *   CMAC                                        [SP 800-38B], [RFC 4493]
 *   GCM (authenticated encryption)              [SP 800-38D]
 *   AES key wrap (KW)                           [RFC 3394], [SP 800-38F §6.2]
 *   AES key wrap with padding (KWP)             [RFC 5649], [SP 800-38F §6.3]
 *
 * The block cipher and GHASH are reached only through a kernel table
 * (crypto/cpu.h): the one the key was set up with (vg_aes_init uses
 * vg_kernels(): AES-NI and PCLMULQDQ where the CPU has them, otherwise the
 * portable constant-time twins vg_aes_*_c, bitsliced, four blocks per
 * pass, and vg_ghash_c, carry-less multiplication with masked integer
 * multiplications). Where a mode allows it (ECB, CBC decryption, CTR, GCM)
 * the data goes to the kernels several blocks per call; CBC encryption,
 * CMAC and key wrap are serial by definition and go one block per call.
 * No function here allocates memory or keeps a table indexed by secret
 * data.
 *
 * One-shot and multi-part. Each mode has a one-shot function, and ECB,
 * CBC (with or without padding), CTR, CMAC and GCM encryption also have a
 * streaming context (init, any number of updates, final) for PKCS#11's
 * multi-part calls. A context holds a copy of the key schedule, so the
 * key may be wiped once the context is set up; it holds no pointer except
 * the key's kernel table, so a struct copy clones a running operation (to
 * learn an exact output length by finishing the copy, say). A context
 * holds secrets: final (or verify) wipes it, and one abandoned before that
 * must be cleared with its vg_aes_*_wipe function. An error of an update
 * writes no output and leaves the context as it was; final wipes the
 * context whatever the outcome, except for the argument errors its
 * comment names.
 *
 * GCM decryption has no streaming form, on purpose: plaintext must not be
 * released before the tag is checked [SP 800-38D §7.2], and the tag comes
 * last. A PKCS#11 layer gathers the ciphertext of C_DecryptUpdate calls
 * (returning no output) and calls vg_aes_gcm_decrypt once, in
 * C_DecryptFinal.
 *
 * Preconditions: key, context and output pointers are non-NULL; data
 * pointers may be NULL only with a zero length. The mode functions check
 * this and return VG_ERR_ARG rather than crash. Unless a function says
 * otherwise, in and out are either the same buffer or do not overlap.
 *
 * Errors: VG_ERR_ARG (a NULL pointer, a counter width outside 1..128),
 * VG_ERR_LENGTH (a length the mode does not take, or, for CTR, more data
 * than the counter has values left), VG_ERR_DECODE (bad CBC padding; a
 * PKCS#11 layer reports CKR_ENCRYPTED_DATA_INVALID), VG_ERR_AUTH (a GCM
 * tag, a CMAC or an unwrap check that fails).
 *
 * Constant time: with the kernels above, the time and the memory addresses
 * touched depend on lengths (and, for GCM, CMAC verification, unwrap and
 * unpadding, on whether the check failed) but not on keys or data. IVs and
 * counter blocks are public. The CT line of each function says what may be
 * observed. On CPUs where integer multiplication has data-dependent timing
 * (some 32-bit and old embedded cores, not x86-64), the portable GHASH
 * would leak through timing.
 */
#ifndef VG_CRYPTO_AES_H
#define VG_CRYPTO_AES_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

struct vg_kernels;

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
 * GCM's hash key, expanded by the kernel table's ghash_init: H in GCM's
 * byte order, and for the x86-64 kernels H^16 .. H^1 (pw[j] = H^(16-j)) as
 * byte-reversed 128-bit values, so that n blocks hashed at once are
 * multiplied by pw[16-n .. 15]. Fields are private.
 */
#define VG_GHASH_POWERS 16
struct vg_ghash_key {
	uint8_t h[16];
	uint8_t pw[VG_GHASH_POWERS][16];
};

/*
 * An expanded AES key. The layout of the schedule depends on the kernel
 * that built it, so the key remembers its kernel table and every mode runs
 * it with that table; it is a process-local object, never to be stored or
 * sent. Fields are private. Its only pointer is to the kernel table, which
 * lives as long as the process: a struct copy is a valid key, and
 * vg_aes_key_wipe() clears it.
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
	const struct vg_kernels *kt; /* the table that built sched */
	/* GCM's hash key E_K(0^128), expanded by vg_aes_init_k with the
	 * same table (unset when kt is NULL). */
	struct vg_ghash_key gh;
};

/*
 * Expands key (len 16, 24 or 32 bytes) into *k with the kernel in
 * vg_kernels(), and GCM's hash key with it (E_K(0) and its powers, so
 * that GCM calls do no per-call set-up). Returns VG_OK, VG_ERR_LENGTH for another len, or VG_ERR_ARG
 * for a NULL pointer. *k holds key material: clear it with
 * vg_aes_key_wipe().
 * CT: only len is observable.
 */
enum vg_err vg_aes_init(struct vg_aes_key *k, const uint8_t *key,
    size_t len);

/*
 * As vg_aes_init, with the kernel table kt (a table filled by
 * vg_kernels_fill() for a subset of the CPU's features, which must outlive
 * *k) instead of vg_kernels(): for tests and benchmarks that run every
 * kernel set in one process. kt NULL means vg_kernels().
 * CT: only len is observable.
 */
enum vg_err vg_aes_init_k(struct vg_aes_key *k, const struct vg_kernels *kt,
    const uint8_t *key, size_t len);

/* Clears *k. k may be NULL. */
void vg_aes_key_wipe(struct vg_aes_key *k);

/* ------------------------------------------------------------ ECB, CBC */

/*
 * AES-ECB [SP 800-38A §6.1] (CKM_AES_ECB): encrypts or decrypts the len
 * bytes at in into out (in == out allowed), len a multiple of 16, 0
 * included. Returns VG_OK, VG_ERR_LENGTH for another len or VG_ERR_ARG;
 * on error nothing is written.
 * CT: only len is observable.
 */
enum vg_err vg_aes_ecb_encrypt(const struct vg_aes_key *k, const uint8_t *in,
    size_t len, uint8_t *out);
enum vg_err vg_aes_ecb_decrypt(const struct vg_aes_key *k, const uint8_t *in,
    size_t len, uint8_t *out);

/*
 * AES-CBC [SP 800-38A §6.2] (CKM_AES_CBC) with the 16-byte IV iv and no
 * padding: as the ECB functions, len a multiple of 16 (0 included), in ==
 * out allowed. The IV must be unpredictable for every message under one
 * key [SP 800-38A App. C]. For CKM_AES_CBC_PAD, pad with vg_aes_pkcs7_pad
 * and check with vg_aes_pkcs7_unpad, or use the streaming context with
 * VG_AES_PAD, which does both.
 * CT: only len is observable.
 */
enum vg_err vg_aes_cbc_encrypt(const struct vg_aes_key *k,
    const uint8_t iv[16], const uint8_t *in, size_t len, uint8_t *out);
enum vg_err vg_aes_cbc_decrypt(const struct vg_aes_key *k,
    const uint8_t iv[16], const uint8_t *in, size_t len, uint8_t *out);

/*
 * PKCS#7 padding for 16-byte blocks [RFC 5652 §6.3]: appends n = 16 -
 * len % 16 bytes (1 to 16) of value n to the len bytes at buf, which has
 * room for cap bytes, and sets *padded = len + n. Returns VG_OK,
 * VG_ERR_LENGTH if cap < len + n (nothing written) or VG_ERR_ARG.
 * CT: only len is observable (the padding depends on nothing else).
 */
enum vg_err vg_aes_pkcs7_pad(uint8_t *buf, size_t len, size_t cap,
    size_t *padded);

/*
 * Checks the PKCS#7 padding of the len bytes at buf (a decrypted message,
 * len a non-zero multiple of 16): the last byte n must be 1..16 and the
 * last n bytes must all be n. Returns VG_OK with *msglen = len - n;
 * VG_ERR_DECODE for any bad padding, the same error whatever is wrong,
 * with *msglen = 0; VG_ERR_LENGTH for a len of 0 or not a multiple of 16;
 * VG_ERR_ARG. buf is not changed: on failure the caller wipes the
 * plaintext it holds.
 * CT: the last 16 bytes are all read and checked with masks whatever n
 * is; only len, whether the padding was valid and, when it was, *msglen
 * (the length of the message, which is output) are observable. Which
 * byte was wrong, and n of a bad padding, are not. (Whether the padding
 * was valid is itself an oracle for whoever can submit ciphertexts: that
 * is CBC_PAD's nature, and why CBC needs a MAC or GCM beside it.)
 */
enum vg_err vg_aes_pkcs7_unpad(const uint8_t *buf, size_t len,
    size_t *msglen);

/* Flags of vg_aes_cbc_init and vg_aes_ecb_init. */
#define VG_AES_DECRYPT 1u /* decrypt (without it: encrypt) */
#define VG_AES_PAD 2u     /* PKCS#7 padding (CKM_AES_CBC_PAD) */

/*
 * Multi-part ECB or CBC, with or without PKCS#7 padding. Fields are
 * private. Input may come in pieces of any length: the context carries a
 * partial block, and when decrypting with padding it also holds the last
 * full block back until final, where the padding is checked.
 */
struct vg_aes_cbc {
	struct vg_aes_key key;
	uint8_t iv[16];  /* chaining value (the previous ciphertext block) */
	uint8_t buf[16]; /* input carried to the next call */
	uint8_t buflen;  /* bytes in buf: 0..15, or 1..16 with holdback */
	uint8_t flags;   /* VG_AES_DECRYPT, VG_AES_PAD */
	uint8_t cbc;     /* 1 CBC, 0 ECB */
};

/*
 * Starts a CBC (iv: 16 bytes) or ECB operation with a copy of the key k;
 * flags: VG_AES_DECRYPT and/or VG_AES_PAD. Returns VG_OK or VG_ERR_ARG
 * (NULL pointer, unknown flag).
 * CT: only the flags are observable.
 */
enum vg_err vg_aes_cbc_init(struct vg_aes_cbc *c, const struct vg_aes_key *k,
    const uint8_t iv[16], unsigned flags);
enum vg_err vg_aes_ecb_init(struct vg_aes_cbc *c, const struct vg_aes_key *k,
    unsigned flags);

/* The number of bytes vg_aes_cbc_update(c, ., len, ...) writes: a multiple
 * of 16 between len - 16 and len + 15, which depends only on len and the
 * lengths passed so far. For len <= SIZE_MAX - 32. */
size_t vg_aes_cbc_update_len(const struct vg_aes_cbc *c, size_t len);

/*
 * Processes len bytes at in and writes the vg_aes_cbc_update_len(c, len)
 * bytes that are ready to out, and that count to *outlen. out may be the
 * same address as in (the output may then run up to 15 bytes past the
 * input's end, as the count says) but must not overlap it otherwise.
 * Returns VG_OK; VG_ERR_LENGTH if len > SIZE_MAX - 32; VG_ERR_ARG.
 * CT: only the lengths are observable.
 */
enum vg_err vg_aes_cbc_update(struct vg_aes_cbc *c, const uint8_t *in,
    size_t len, uint8_t *out, size_t *outlen);

/* The most bytes vg_aes_cbc_final can write: 16 when encrypting with
 * padding, 15 when decrypting with padding (the exact count is known only
 * after the padding is checked), 0 without padding. */
size_t vg_aes_cbc_final_len(const struct vg_aes_cbc *c);

/*
 * Ends the operation and writes the last bytes to out (room for
 * vg_aes_cbc_final_len(c) bytes), their count to *outlen: the padding
 * block when encrypting with padding, the message bytes of the last block
 * when decrypting with padding, nothing otherwise. Returns VG_OK;
 * VG_ERR_LENGTH if the total input does not fit the mode (without padding
 * not a multiple of 16; decrypting with padding not a non-zero multiple
 * of 16); VG_ERR_DECODE for a bad padding (nothing written, *outlen = 0);
 * VG_ERR_ARG. Wipes *c unless the result is VG_ERR_ARG.
 * CT: as vg_aes_pkcs7_unpad for the padding check; otherwise only the
 * lengths are observable.
 */
enum vg_err vg_aes_cbc_final(struct vg_aes_cbc *c, uint8_t *out,
    size_t *outlen);

/* Clears *c (an operation abandoned before final). c may be NULL. */
void vg_aes_cbc_wipe(struct vg_aes_cbc *c);

/* ----------------------------------------------------------------- CTR */

/*
 * AES-CTR [SP 800-38A §6.5] as CK_AES_CTR_PARAMS defines it
 * [PKCS#11 3.2, CK_AES_CTR_PARAMS]: the counter is the low-order bits bits (1..128)
 * of the 16-byte counter block cb, a big-endian integer, incremented by
 * one for each block (a final partial block takes one value too); the
 * other bits of cb never change. The counter must not wrap: a message of
 * n blocks needs n <= 2^bits - c, where c is the counter's starting value
 * in cb, and a longer one is refused before anything is written. The same
 * function encrypts and decrypts; in == out allowed.
 * Returns VG_OK; VG_ERR_LENGTH for a message the counter cannot cover;
 * VG_ERR_ARG for bits outside 1..128 (a PKCS#11 layer reports
 * CKR_MECHANISM_PARAM_INVALID) or a NULL pointer.
 * CT: only len, bits and the counter block (public, like an IV) are
 * observable.
 */
enum vg_err vg_aes_ctr(const struct vg_aes_key *k, const uint8_t cb[16],
    unsigned bits, const uint8_t *in, size_t len, uint8_t *out);

/* Multi-part CTR. Fields are private. */
struct vg_aes_ctr {
	struct vg_aes_key key;
	uint64_t hi, lo;  /* the next counter block, big-endian halves */
	uint64_t left;    /* counter values left; saturates at 2^64 - 1 */
	uint8_t ks[16];   /* key stream of the last block */
	uint8_t kspos;    /* bytes of ks used: 16 when none is left */
	uint8_t bits;     /* counter width */
};

/*
 * Starts a CTR operation with a copy of the key, the counter block cb and
 * the counter width bits (1..128). Returns VG_OK or VG_ERR_ARG (bits out
 * of range, NULL pointer).
 * CT: only bits and cb (public) are observable.
 */
enum vg_err vg_aes_ctr_init(struct vg_aes_ctr *c, const struct vg_aes_key *k,
    const uint8_t cb[16], unsigned bits);

/*
 * Encrypts or decrypts the next len bytes (any length: the key stream of
 * a partial block carries over to the next call); writes len bytes to out
 * (in == out allowed). The wrap check counts every block of the
 * operation, across calls: a call whose data would need a counter value
 * past 2^bits - 1 returns VG_ERR_LENGTH, writes nothing and leaves *c as
 * it was. (The count saturates at 2^64 - 1 values left, which no
 * sequence of calls can use up.) Returns VG_OK, VG_ERR_LENGTH or
 * VG_ERR_ARG. There is no final: vg_aes_ctr_wipe ends the operation.
 * CT: as vg_aes_ctr.
 */
enum vg_err vg_aes_ctr_update(struct vg_aes_ctr *c, const uint8_t *in,
    size_t len, uint8_t *out);

/* Clears *c. c may be NULL. */
void vg_aes_ctr_wipe(struct vg_aes_ctr *c);

/* ---------------------------------------------------------------- CMAC */

#define VG_AES_CMAC_MAX 16 /* the full MAC; shorter ones are truncated */

/*
 * One-shot AES-CMAC [SP 800-38B §6.2]: writes the first maclen (1..16)
 * bytes of the MAC of the len bytes at data to mac (CKM_AES_CMAC takes
 * 16, CKM_AES_CMAC_GENERAL the length of its parameter). Returns VG_OK,
 * VG_ERR_LENGTH for another maclen, or VG_ERR_ARG.
 * CT: only len and maclen are observable.
 */
enum vg_err vg_aes_cmac(const struct vg_aes_key *k, const uint8_t *data,
    size_t len, uint8_t *mac, size_t maclen);

/* Multi-part CMAC. Fields are private. */
struct vg_aes_cmac {
	struct vg_aes_key key;
	uint8_t k1[16], k2[16]; /* subkeys [SP 800-38B §6.1] */
	uint8_t x[16];          /* CBC-MAC chaining value */
	uint8_t buf[16];        /* the last block, held back until final */
	uint8_t buflen;         /* 0..16 */
};

/* Starts a MAC with a copy of the key and its subkeys. Returns VG_OK or
 * VG_ERR_ARG. CT: nothing about the key is observable. */
enum vg_err vg_aes_cmac_init(struct vg_aes_cmac *m, const struct vg_aes_key *k);

/* Absorbs len bytes (any number of calls, any lengths). Returns VG_OK or
 * VG_ERR_ARG. CT: only len is observable. */
enum vg_err vg_aes_cmac_update(struct vg_aes_cmac *m, const uint8_t *data,
    size_t len);

/*
 * Writes the first maclen (1..16) bytes of the MAC to mac and wipes *m.
 * Returns VG_OK, VG_ERR_LENGTH for another maclen or VG_ERR_ARG (then *m
 * is left as it was).
 * CT: only the data length and maclen are observable.
 */
enum vg_err vg_aes_cmac_final(struct vg_aes_cmac *m, uint8_t *mac,
    size_t maclen);

/*
 * Finishes the MAC and compares its first maclen (1..16) bytes with the
 * maclen bytes at mac (C_VerifyFinal): VG_OK when equal, VG_ERR_AUTH when
 * not; then wipes *m and the computed MAC. VG_ERR_LENGTH for another
 * maclen and VG_ERR_ARG leave *m as it was.
 * CT: only the data length, maclen and the verdict are observable (not
 * where the MACs differ).
 */
enum vg_err vg_aes_cmac_verify(struct vg_aes_cmac *m, const uint8_t *mac,
    size_t maclen);

/* Clears *m. m may be NULL. */
void vg_aes_cmac_wipe(struct vg_aes_cmac *m);

/* ----------------------------------------------------------------- GCM */

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

/* Multi-part GCM encryption. Fields are private. */
struct vg_aes_gcm {
	struct vg_aes_key key;
	uint8_t h[16];    /* hash key E_K(0^128) */
	uint8_t j0[16];   /* pre-counter block */
	uint8_t y[16];    /* running GHASH */
	uint8_t ks[16];   /* key stream of the current partial block */
	uint8_t part[16]; /* its ciphertext, hashed once the block is full */
	uint64_t aadlen;
	uint64_t len;     /* plaintext bytes so far */
	uint32_t ctr;     /* the next counter value (inc32 of J0) */
};

/*
 * Starts a GCM encryption with a copy of the key, the IV and the whole
 * AAD (CK_GCM_PARAMS gives both at C_EncryptInit). Limits as for
 * vg_aes_gcm_encrypt. Returns VG_OK, VG_ERR_LENGTH (ivlen 0, ivlen or
 * aadlen too long) or VG_ERR_ARG.
 * CT: only ivlen and aadlen are observable.
 */
enum vg_err vg_aes_gcm_encrypt_init(struct vg_aes_gcm *g,
    const struct vg_aes_key *k, const uint8_t *iv, size_t ivlen,
    const uint8_t *aad, size_t aadlen);

/*
 * Encrypts the next len bytes (any length) into out, len bytes (in == out
 * allowed). Returns VG_OK; VG_ERR_LENGTH, with nothing written, if the
 * total would pass VG_AES_GCM_MAX_LEN; VG_ERR_ARG.
 * CT: only the lengths are observable.
 */
enum vg_err vg_aes_gcm_encrypt_update(struct vg_aes_gcm *g, const uint8_t *in,
    size_t len, uint8_t *out);

/*
 * Writes the first taglen (4..16) bytes of the tag and wipes *g. Returns
 * VG_OK, or VG_ERR_LENGTH for another taglen / VG_ERR_ARG (then *g is
 * left as it was).
 * CT: only the lengths are observable.
 */
enum vg_err vg_aes_gcm_encrypt_final(struct vg_aes_gcm *g, uint8_t *tag,
    size_t taglen);

/* Clears *g. g may be NULL. (There is no streaming decryption: see the
 * top of this file.) */
void vg_aes_gcm_wipe(struct vg_aes_gcm *g);

/* ------------------------------------------------------------ key wrap */

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
