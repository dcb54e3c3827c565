/*
 * Random bits: the operating system's entropy source, HMAC_DRBG with
 * HMAC-SHA-256 [SP 800-90A Rev.1 §10.1.2], and a fork-safe generator built
 * on both.
 *
 * The DRBG has security strength 256 and no prediction resistance; its
 * whole internal state is the struct below (no allocation, no globals).
 * Nothing here locks: a struct vg_drbg or struct vg_rng shared between
 * threads must be serialised by the caller (token/ gives each thread a
 * vg_rng of its own, and holds its module lock around the module's one).
 *
 * Lengths are in bytes. Every length may be observed by timing; the DRBG
 * state and the bytes it returns are handled in constant time (the only
 * primitive is HMAC-SHA-256).
 */
#ifndef VG_CRYPTO_DRBG_H
#define VG_CRYPTO_DRBG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "crypto/err.h"
#include "crypto/hash.h"

/* Largest request of one vg_drbg_generate call [SP 800-90A Table 2:
 * max_number_of_bits_per_request is 2^19 bits]. */
#define VG_DRBG_MAX_REQUEST 65536

/* Generate calls allowed between two reseeds. SP 800-90A allows up to 2^48;
 * we reseed far more often, which costs one getrandom() per 2^16 calls. */
#define VG_DRBG_RESEED_INTERVAL ((uint64_t)1 << 16)

/* Minimum entropy input: the security strength, 256 bits. Instantiation
 * also needs a nonce of at least 128 bits; it may be given as extra entropy
 * input instead (elen + nlen >= VG_DRBG_SEED_LEN). */
#define VG_DRBG_ENTROPY_LEN 32
#define VG_DRBG_NONCE_LEN 16
#define VG_DRBG_SEED_LEN (VG_DRBG_ENTROPY_LEN + VG_DRBG_NONCE_LEN)

/* Longest entropy input, nonce, personalisation string or additional input
 * [SP 800-90A Table 2: 2^35 bits]. */
#define VG_DRBG_MAX_INPUT ((uint64_t)1 << 32)

/*
 * HMAC_DRBG state. reseed_counter is 0 while the state is not instantiated
 * (after vg_drbg_wipe, or for a zeroed struct); every function but
 * vg_drbg_instantiate then refuses it with VG_ERR_ARG. kst is HMAC-SHA-256
 * keyed with K (its two key blocks hashed), kept with K so that a request
 * does not hash them again.
 */
struct vg_drbg {
	uint8_t K[32], V[32];
	uint64_t reseed_counter;
	struct vg_hmac kst;
};

/*
 * Instantiate [SP 800-90A §10.1.2.3]: seed_material = entropy || nonce ||
 * pers. Requires elen >= VG_DRBG_ENTROPY_LEN and elen + nlen >=
 * VG_DRBG_SEED_LEN, each length <= VG_DRBG_MAX_INPUT; a pointer may be NULL
 * only with a zero length. Returns VG_OK, VG_ERR_LENGTH or VG_ERR_ARG (then
 * *d is left not instantiated).
 * CT: only elen, nlen and plen are observable.
 */
enum vg_err vg_drbg_instantiate(struct vg_drbg *d, const void *entropy,
    size_t elen, const void *nonce, size_t nlen, const void *pers,
    size_t plen);

/*
 * Reseed [SP 800-90A §10.1.2.4]: seed_material = entropy || addl, and the
 * reseed counter starts again. Requires elen >= VG_DRBG_ENTROPY_LEN and the
 * lengths <= VG_DRBG_MAX_INPUT. Returns VG_OK, VG_ERR_LENGTH or VG_ERR_ARG
 * (state unchanged).
 * CT: only elen and alen are observable.
 */
enum vg_err vg_drbg_reseed(struct vg_drbg *d, const void *entropy,
    size_t elen, const void *addl, size_t alen);

/*
 * Generate [SP 800-90A §10.1.2.5]: writes len bytes to out, with optional
 * additional input. Returns:
 *   VG_OK;
 *   VG_ERR_LENGTH  len > VG_DRBG_MAX_REQUEST or alen > VG_DRBG_MAX_INPUT;
 *   VG_ERR_RANDOM  the reseed interval is exhausted: nothing was written,
 *                  the caller reseeds (vg_drbg_reseed) and asks again;
 *   VG_ERR_ARG     not instantiated, or a NULL pointer with a length.
 * On any error out is not written and the state is unchanged.
 * CT: only len and alen are observable.
 */
enum vg_err vg_drbg_generate(struct vg_drbg *d, uint8_t *out, size_t len,
    const void *addl, size_t alen);

/* Uninstantiate: wipes the whole state. d may be NULL. */
void vg_drbg_wipe(struct vg_drbg *d);

/*
 * Fills buf with len bytes from the kernel (getrandom(2), flags 0, looping
 * over short reads and EINTR; /dev/urandom where getrandom is missing from
 * the C library or the kernel). It blocks only until the kernel's pool is
 * first initialised, which on a booted system has happened. Returns VG_OK,
 * VG_ERR_ARG (buf NULL with len > 0) or VG_ERR_RANDOM (then buf is wiped).
 * errno is preserved.
 * CT: only len is observable.
 */
enum vg_err vg_entropy(void *buf, size_t len);

/*
 * The process's fork generation: a value that stays the same in a process
 * and changes in a child created by fork() (or by any clone that copies
 * the address space), so that state recorded with it can tell that it was
 * inherited. On Linux it costs no system call (a page the kernel zeroes in
 * the child, crypto/fork.c); elsewhere, or when that page cannot be set
 * up, it is derived from getpid() at each call. Thread-safe.
 */
uint64_t vg_fork_generation(void);

/*
 * A ready-to-use generator: an HMAC_DRBG seeded from vg_entropy, reseeded
 * from it when the reseed interval is reached and when the process has
 * forked since the last call (vg_fork_generation() differs from the value
 * recorded at the last (re)seed), so parent and child never share an
 * output stream. As for struct vg_drbg, the caller serialises access.
 */
struct vg_rng {
	struct vg_drbg d;
	uint64_t fork_gen;
	int ready;
};

/*
 * Seeds r from VG_DRBG_SEED_LEN bytes of vg_entropy (entropy and nonce)
 * with a personalisation string that names the library. Returns VG_OK or
 * VG_ERR_RANDOM (then r is wiped and not ready).
 * CT: no secret-dependent branch or index.
 */
enum vg_err vg_rng_init(struct vg_rng *r);

/*
 * Writes len bytes (any length) to out, in requests of at most
 * VG_DRBG_MAX_REQUEST bytes. Returns VG_OK, VG_ERR_ARG (r not initialised,
 * or out NULL with len > 0) or VG_ERR_RANDOM (reseeding failed; out is
 * wiped).
 * CT: only len is observable.
 */
enum vg_err vg_rng_generate(struct vg_rng *r, void *out, size_t len);

/*
 * Mixes caller data into r: a reseed with fresh entropy from vg_entropy and
 * in as the additional input. The existing state is kept and updated, never
 * replaced, so mixing in known data cannot reduce the state's entropy.
 * Returns VG_OK, VG_ERR_ARG, VG_ERR_LENGTH (len > VG_DRBG_MAX_INPUT) or
 * VG_ERR_RANDOM (state unchanged).
 * CT: only len is observable.
 */
enum vg_err vg_rng_mix(struct vg_rng *r, const void *in, size_t len);

/* Wipes r (which is then not ready). r may be NULL. */
void vg_rng_wipe(struct vg_rng *r);

#endif
