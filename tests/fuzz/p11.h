/*
 * Helpers of the fuzz targets that drive the PKCS#11 entry points
 * (template, mech, calls). The pkcs11/ layer is linked into the target
 * (like vgtoken-util), so libFuzzer sees its coverage, and reached only
 * through the 3.2 function table of C_GetInterface, as an application
 * reaches the module. Set-up failures are not findings: they print a
 * message and exit(1).
 */
#ifndef VG_TESTS_FUZZ_P11_H
#define VG_TESTS_FUZZ_P11_H

#include <stddef.h>
#include <stdint.h>

#include "cryptoki/pkcs11.h"
#include "tests/fuzz/fuzz.h"

#define VG_FZ_SO_PIN "fuzz-so-pin"
#define VG_FZ_USER_PIN "fuzz-user-pin"

extern CK_FUNCTION_LIST_3_2 *vg_fz_p11;

/*
 * Once per process: a new directory under $TMPDIR (else /tmp), removed at
 * exit, holding a configuration (data_dir there, the cheapest PIN key
 * derivation the module allows, no logging, no fsync) that VGTOKEN_CONF
 * then names; and vg_fz_p11. Does not call C_Initialize.
 */
void vg_fz_p11_setup(void);

/* Aborts (a finding) when rv is not a return value the specification
 * defines; returns rv. */
CK_RV vg_fz_rv(CK_RV rv, const char *fn);

/* Exits with a message when rv is not CKR_OK (set-up steps). */
void vg_fz_need(CK_RV rv, const char *what);

/* With the module initialised: a token labelled "fuzz" on the free slot,
 * SO PIN and user PIN set, no session left open. Returns its slot. */
CK_SLOT_ID vg_fz_p11_token(void);

/* A R/W session on slot, logged in as the user. */
CK_SESSION_HANDLE vg_fz_p11_user_session(CK_SLOT_ID slot);

/* Keys made by vg_fz_p11_keys (0: not made). */
struct vg_fz_keys {
	CK_OBJECT_HANDLE rsa_pub, rsa_priv;
	CK_OBJECT_HANDLE ec_pub, ec_priv;
	CK_OBJECT_HANDLE mldsa_pub, mldsa_priv;
	CK_OBJECT_HANDLE mlkem_pub, mlkem_priv;   /* ML-KEM-512 */
	CK_OBJECT_HANDLE hmac, aes;
	CK_OBJECT_HANDLE ed_pub, ed_priv;   /* Ed25519 */
	CK_OBJECT_HANDLE x_pub, x_priv;     /* X25519 */
	uint8_t ec_point[67];   /* CKA_EC_POINT of ec_pub (DER) */
};

/* A peer public key for X25519 derivations (RFC 7748 §6.1, Bob's). */
extern const uint8_t vg_fz_x25519_peer[32];

/* Generates the keys with every usage allowed, as session objects of s
 * (token objects when token is set); RSA-2048 only when with_rsa. */
void vg_fz_p11_keys(CK_SESSION_HANDLE s, int with_rsa, int token,
    struct vg_fz_keys *k);

/*
 * Decodes a template of up to max entries: attribute types mostly from
 * the module's rule table, values mostly well formed for their kind
 * (CK_BBOOL, CK_ULONG, date, mechanism list, nested attribute array up to
 * depth 1, bytes) and sometimes of any length or a NULL pointer with a
 * length. Every value lies in an allocation of exactly its length.
 * Returns the count; *t is NULL when it is 0.
 */
CK_ULONG vg_fz_template(struct vg_fz_pool *pool, struct vg_fz_in *in,
    CK_ULONG max, int depth, CK_ATTRIBUTE **t);

/* A mechanism type: mostly one of the module's, sometimes any value. */
CK_MECHANISM_TYPE vg_fz_mech_type(struct vg_fz_in *in);

/* Reads every attribute the rule table knows from object h (lengths,
 * then values into buffers of those lengths) and checks that the two
 * calls agree. */
void vg_fz_p11_read_object(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE h);

/*
 * The "mech" target's key encapsulation (tests/fuzz/mech_kem.c):
 * C_EncapsulateKey with key (or the ML-KEM public key of k) and a
 * template from the input, its ciphertext by the length convention
 * (sometimes a short buffer first); a key it makes must decapsulate with
 * k's private key and the same template to the same value; then msg is
 * decapsulated as a ciphertext, which must succeed when it has the
 * ciphertext's length and the template was good. Failures are findings.
 */
void vg_fz_mech_kem(struct vg_fz_pool *pool, struct vg_fz_in *in,
    CK_SESSION_HANDLE s, CK_MECHANISM *m, CK_OBJECT_HANDLE key,
    const struct vg_fz_keys *k, const uint8_t *msg, size_t len);

/* Copies the regular files of the data directory to a snapshot
 * directory, and back (replacing whatever is there). The module must not
 * be initialised. */
void vg_fz_p11_snapshot(void);
void vg_fz_p11_restore(void);

#endif
