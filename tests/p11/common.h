/*
 * Shared helpers of the PKCS#11 tests in tests/p11/. These tests see the
 * module only as an application does: they dlopen() the library named by
 * the environment variable VG_MODULE and call it through the tables that
 * C_GetInterface and C_GetFunctionList return. They never link the
 * library's internals; cryptoki/pkcs11.h is used for its types only.
 *
 * Include <stdarg.h>, <stddef.h>, <stdint.h>, <setjmp.h> and <cmocka.h>
 * before this header.
 */
#ifndef VG_TESTS_P11_COMMON_H
#define VG_TESTS_P11_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "cryptoki/pkcs11.h"

/* The 3.2 table (default interface) and the 2.40 table of the loaded
 * module; NULL until p11_load() succeeds. */
extern CK_FUNCTION_LIST_3_2 *p11;
extern CK_FUNCTION_LIST *p11_240;

/* The module's exported getters, from dlsym(). */
extern CK_C_GetFunctionList p11_sym_GetFunctionList;
extern CK_C_GetInterfaceList p11_sym_GetInterfaceList;
extern CK_C_GetInterface p11_sym_GetInterface;

/*
 * dlopen()s $VG_MODULE (once per process), resolves the three getters and
 * fills p11 and p11_240. Returns 0 on success, -1 with a message printed
 * otherwise.
 */
int p11_load(void);

/*
 * Gives the program a token database of its own, so that test programs
 * running in parallel (and the user's tokens) never share one: a new
 * directory under $XDG_DATA_HOME (else $TMPDIR or /tmp), removed at exit,
 * and a configuration file in it that repeats $VGTOKEN_CONF and sets
 * data_dir there; VGTOKEN_CONF and XDG_DATA_HOME then name them. Once per
 * process, before the module's first C_Initialize. Returns 0 or -1.
 */
int p11_private_data_dir(void);

/* cmocka group setup/teardown: p11_private_data_dir() and p11_load();
 * the same and C_Initialize(NULL); C_Finalize if initialised (teardown
 * ignores CKR_CRYPTOKI_NOT_INITIALIZED so that a test may finalise on its
 * own). */
int p11_group_load(void **state);
int p11_group_init(void **state);
int p11_group_fini(void **state);

/* The first slot of C_GetSlotList (asserts there is one). */
CK_SLOT_ID p11_slot(void);

/* Opens a session on p11_slot() with CKF_SERIAL_SESSION | extra and
 * asserts success. */
CK_SESSION_HANDLE p11_open(CK_FLAGS extra);

/* A slot ID the module does not have. */
CK_SLOT_ID p11_bad_slot(void);

/* Session handles that name no session: CK_INVALID_HANDLE, a large
 * value, and a handle that was opened and closed. */
#define P11_NBAD_SESSIONS 3
void p11_bad_sessions(CK_SESSION_HANDLE out[P11_NBAD_SESSIONS]);

/* Name of a return value ("CKR_OK"), or "CKR_0x..." (a per-thread
 * buffer). */
const char *p11_rv_name(CK_RV rv);

/* Fails the test with both names when got differs from want. */
#define assert_rv(got, want)                                                \
	do {                                                                \
		CK_RV got_ = (got), want_ = (want);                         \
		if (got_ != want_)                                          \
			fail_msg("%s: got %s, want %s", #got,               \
			    p11_rv_name(got_), p11_rv_name(want_));          \
	} while (0)

/*
 * Checks a fixed-size text field as PKCS#11 defines them: no NUL byte,
 * padded with blanks. Returns 1 if good. Copies the text without its
 * padding into buf (NUL-terminated, truncated to bufsize - 1).
 */
int p11_text_ok(const CK_UTF8CHAR *field, size_t n, char *buf,
    size_t bufsize);

/* Asserts p11_text_ok() for a struct member. */
#define assert_text_field(member)                                           \
	do {                                                                \
		char buf_[sizeof(member) + 1];                              \
		if (!p11_text_ok((member), sizeof(member), buf_,            \
			sizeof(buf_)))                                      \
			fail_msg("%s is not a blank-padded text field",     \
			    #member);                                       \
	} while (0)

/*
 * A small deterministic generator for test inputs (xorshift64*), so a
 * failure can be replayed: the seed comes from VG_TEST_SEED when set,
 * else from the clock, and p11_rng_seed() prints it.
 */
struct p11_rng {
	uint64_t s;
};

/* Seeds r from VG_TEST_SEED or the clock, mixed with stream (so that
 * threads get different streams); prints the base seed once. */
void p11_rng_seed(struct p11_rng *r, uint64_t stream);
uint64_t p11_rng_next(struct p11_rng *r);
/* Uniform in [0, n); n > 0. */
size_t p11_rng_below(struct p11_rng *r, size_t n);
void p11_rng_fill(struct p11_rng *r, void *buf, size_t len);

/* Digest mechanisms the token offers, with OpenSSL's name for each. */
struct p11_digest {
	CK_MECHANISM_TYPE mech;
	const char *name;      /* for messages */
	const char *evp_name;  /* EVP_get_digestbyname() */
	size_t len;
};
extern const struct p11_digest p11_digests[];
extern const size_t p11_ndigests;

/* Computes the digest of data with OpenSSL into out (d->len bytes).
 * Returns 0, or -1 if OpenSSL failed. Thread-safe (asserts nothing). */
int p11_evp_digest(const struct p11_digest *d, const void *data,
    size_t len, unsigned char *out);

/* OpenSSL's cipher c (a key wrap: EVP_aes_256_wrap_pad() ...) with key
 * over len bytes of in into out, enc 1 to encrypt, 0 to decrypt; the
 * output length, or -1 if OpenSSL refused. */
int p11_evp_wrap(const void *c, const uint8_t *key, const uint8_t *in,
    size_t len, uint8_t *out, int enc);

/* A DER tag and length header for len (< 65536) bytes of contents into
 * out (4 bytes of room); its length. */
size_t p11_der_header(uint8_t *out, uint8_t tag, size_t len);

/* PINs of the tokens p11_fresh_token() makes. */
#define P11_SO_PIN "so-secret-1"
#define P11_USER_PIN "user-pin-1"

/*
 * A module on a database of the test's own: a new directory (mkdtemp
 * under /tmp, its path written to dir), a configuration there naming it
 * as data_dir with a fast PIN key derivation and the lines in extra (may
 * be NULL), VGTOKEN_CONF pointing at it, then C_Initialize. Returns 0, or
 * -1 with a message.
 */
int p11_fresh_module(char dir[64], const char *extra);

/* p11_fresh_module, then a token labelled label on the first slot with
 * P11_SO_PIN and P11_USER_PIN set; no session is left open. */
int p11_fresh_token(char dir[64], const char *extra, const char *label,
    CK_SLOT_ID *slot);

/* p11_fresh_token, then a read-write session on its slot logged in as
 * the user: *slot and *h. Returns 0, or -1. */
int p11_fresh_user_session(char dir[64], const char *label,
    CK_SLOT_ID *slot, CK_SESSION_HANDLE *h);

/* C_Finalize (if initialised) and removes dir. */
int p11_fresh_cleanup(const char *dir);

#endif
