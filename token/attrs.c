/*
 * The attribute rules of PKCS#11 3.2, as data: one table of (scope,
 * attribute) rows, and the checks of single values. The operations that
 * interpret the table are in token/attrs_ops.c (create, set, copy),
 * token/attrs_get.c (get, match) and token/attrs_fill.c (computed
 * attributes).
 *
 * Sections cited are those of the PKCS#11 3.2 specification (OASIS
 * pkcs11-spec v3.2; numbering of its markdown source). Footnote numbers are
 * those of §4.2, table "Common footnotes for object attribute tables", as
 * mapped to VG_A_* in token/object.h.
 */
#include "config.h"

#include <string.h>

#include "crypto/der.h"
#include "cryptoki/nss.h"
#include "token/object.h"

/* Scopes: a row applies to an object when their scope bits intersect. */
#define S_STORAGE    0x00001u /* every storage object, §4.5 */
#define S_DATA       0x00002u /* §4.6 */
#define S_CERT       0x00004u /* every certificate, §4.7 */
#define S_X509       0x00008u /* §4.7.3 */
#define S_KEY        0x00010u /* every key, §4.9 */
#define S_PUB        0x00020u /* §4.10 */
#define S_PRIV       0x00040u /* §4.11 */
#define S_SECRET     0x00080u /* §4.12 */
#define S_RSA_PUB    0x00100u /* §6.1.2 */
#define S_RSA_PRIV   0x00200u /* §6.1.3 */
#define S_EC_PUB     0x00400u /* §6.3.3 */
#define S_EC_PRIV    0x00800u /* §6.3.4 */
#define S_MLDSA_PUB  0x01000u /* §6.56.2 */
#define S_MLDSA_PRIV 0x02000u /* §6.56.3 */
#define S_GENERIC    0x04000u /* §6.8.2 */
#define S_AES        0x08000u /* §6.10.2 */
#define S_NSS_TRUST  0x10000u /* NSS trust objects (cryptoki/nss.h) */
#define S_TRUST      0x20000u /* 3.2 trust objects (CKO_TRUST) */
#define S_MLKEM_PUB  0x40000u /* §6.x ML-KEM public keys */
#define S_MLKEM_PRIV 0x80000u /* §6.x ML-KEM private keys */

/* The supported classes and their scopes. */
static const struct {
	CK_OBJECT_CLASS cls;
	CK_ULONG sub; /* key type, certificate type; ignored for data
	               * and trust objects */
	uint32_t scopes;
} classes[] = {
	{ CKO_DATA, 0, S_STORAGE | S_DATA },
	{ CKO_CERTIFICATE, CKC_X_509, S_STORAGE | S_CERT | S_X509 },
	{ CKO_PUBLIC_KEY, CKK_RSA, S_STORAGE | S_KEY | S_PUB | S_RSA_PUB },
	{ CKO_PUBLIC_KEY, CKK_EC, S_STORAGE | S_KEY | S_PUB | S_EC_PUB },
	/* Ed25519 and X25519 keys have the attributes of EC keys
	 * [PKCS#11 3.2 §6.3.5 - §6.3.8] (token/keys_ecx.c). */
	{ CKO_PUBLIC_KEY, CKK_EC_EDWARDS, S_STORAGE | S_KEY | S_PUB | S_EC_PUB },
	{ CKO_PUBLIC_KEY, CKK_EC_MONTGOMERY,
	    S_STORAGE | S_KEY | S_PUB | S_EC_PUB },
	{ CKO_PUBLIC_KEY, CKK_ML_DSA,
	    S_STORAGE | S_KEY | S_PUB | S_MLDSA_PUB },
	{ CKO_PRIVATE_KEY, CKK_RSA,
	    S_STORAGE | S_KEY | S_PRIV | S_RSA_PRIV },
	{ CKO_PRIVATE_KEY, CKK_EC, S_STORAGE | S_KEY | S_PRIV | S_EC_PRIV },
	{ CKO_PRIVATE_KEY, CKK_EC_EDWARDS,
	    S_STORAGE | S_KEY | S_PRIV | S_EC_PRIV },
	{ CKO_PRIVATE_KEY, CKK_EC_MONTGOMERY,
	    S_STORAGE | S_KEY | S_PRIV | S_EC_PRIV },
	{ CKO_PRIVATE_KEY, CKK_ML_DSA,
	    S_STORAGE | S_KEY | S_PRIV | S_MLDSA_PRIV },
	{ CKO_PUBLIC_KEY, CKK_ML_KEM, S_STORAGE | S_KEY | S_PUB | S_MLKEM_PUB },
	{ CKO_PRIVATE_KEY, CKK_ML_KEM,
	    S_STORAGE | S_KEY | S_PRIV | S_MLKEM_PRIV },
	{ CKO_SECRET_KEY, CKK_GENERIC_SECRET,
	    S_STORAGE | S_KEY | S_SECRET | S_GENERIC },
	/* HKDF keys [PKCS#11 3.2 §6.62] hold bytes as generic secrets do */
	{ CKO_SECRET_KEY, CKK_HKDF, S_STORAGE | S_KEY | S_SECRET | S_GENERIC },
	{ CKO_SECRET_KEY, CKK_AES, S_STORAGE | S_KEY | S_SECRET | S_AES },
	{ CKO_NSS_TRUST, 0, S_STORAGE | S_NSS_TRUST },
	{ CKO_TRUST, 0, S_STORAGE | S_TRUST },
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

/* Short names for the table. */
#define Y VG_K_BYTES
#define B VG_K_BOOL
#define U VG_K_ULONG
#define D VG_K_DATE
#define M VG_K_MECHS
#define A VG_K_ATTRS

#define REQ VG_A_REQ_CREATE
#define NOC VG_A_NO_CREATE
#define RQG VG_A_REQ_GEN
#define NOG VG_A_NO_GEN
#define RQU VG_A_REQ_UNWRAP
#define NOU VG_A_NO_UNWRAP
#define SEN VG_A_SENSITIVE
#define MOD VG_A_MODIFY
#define SOT VG_A_SO_TRUE
#define O_T VG_A_ONLY_TRUE
#define O_F VG_A_ONLY_FALSE
#define CPY VG_A_COPY
#define CMP VG_A_COMPUTED
#define CLR VG_A_CLEARABLE
#define ANY VG_A_REQ_ANY
#define TOK VG_A_TOKEN

/* Key material a mechanism contributes: not in a generate, derive or
 * unwrap template (footnotes 4, 6). */
#define MAT (NOG | NOU)

/* Usage flags (footnote 9: defaults are token-specific): true where the
 * key type has mechanisms for the operation, false where it has none. */
#define U_ENC_T (S_RSA_PUB | S_AES)
#define U_ENC_F (S_EC_PUB | S_MLDSA_PUB | S_MLKEM_PUB | S_GENERIC)
#define U_DEC_T (S_RSA_PRIV | S_AES)
#define U_DEC_F (S_EC_PRIV | S_MLDSA_PRIV | S_MLKEM_PRIV | S_GENERIC)
#define U_REC_PUB_F (S_EC_PUB | S_MLDSA_PUB | S_MLKEM_PUB)
#define U_REC_PRIV_F (S_EC_PRIV | S_MLDSA_PRIV | S_MLKEM_PRIV)

/*
 * THE table. Columns: scope, type, kind, value check, default, flags
 * (footnotes), default CK_ULONG. A type appears at most once per class.
 */
static const struct vg_attr_rule rules[] = {
	/* §4.2 Common attributes: CKA_CLASS (1), CKA_UNIQUE_ID (2, 4, 6:
	 * generated by the token, CKR_ATTRIBUTE_READ_ONLY if given). */
	{ S_STORAGE, CKA_CLASS, U, 0, VG_D_NONE, REQ, 0 },
	{ S_STORAGE, CKA_UNIQUE_ID, Y, 0, VG_D_NONE, TOK, 0 },
	/* §4.5 Storage objects. Only CKA_LABEL is modifiable; CKA_TOKEN,
	 * CKA_PRIVATE, CKA_MODIFIABLE, CKA_DESTROYABLE change in
	 * C_CopyObject (§4.1.3). CKA_PRIVATE is token-specific: private
	 * and secret keys are private by default. CKA_COPYABLE "can't be set
	 * to TRUE once it is set to FALSE". */
	{ S_STORAGE, CKA_TOKEN, B, 0, VG_D_FALSE, CPY, 0 },
	{ S_DATA | S_CERT | S_PUB | S_NSS_TRUST | S_TRUST, CKA_PRIVATE, B, 0,
	    VG_D_FALSE, CPY, 0 },
	{ S_PRIV | S_SECRET, CKA_PRIVATE, B, 0, VG_D_TRUE, CPY, 0 },
	{ S_STORAGE, CKA_MODIFIABLE, B, 0, VG_D_TRUE, CPY, 0 },
	{ S_STORAGE, CKA_LABEL, Y, 0, VG_D_EMPTY, MOD, 0 },
	{ S_STORAGE, CKA_COPYABLE, B, 0, VG_D_TRUE, MOD | O_F, 0 },
	{ S_STORAGE, CKA_DESTROYABLE, B, 0, VG_D_TRUE, CPY, 0 },

	/* §4.6 Data objects: every attribute defaults to empty, and each
	 * may be changed (footnote 8 on all three in the data object
	 * table). */
	{ S_DATA, CKA_APPLICATION, Y, 0, VG_D_EMPTY, MOD, 0 },
	{ S_DATA, CKA_OBJECT_ID, Y, 0, VG_D_EMPTY, MOD, 0 },
	{ S_DATA, CKA_VALUE, Y, 0, VG_D_EMPTY, MOD, 0 },

	/* §4.7 Common certificate attributes. CKA_TRUSTED (10) only the SO
	 * sets true; CKA_CHECK_VALUE is the first three bytes of SHA-1 of
	 * CKA_VALUE; the dates and CKA_PUBLIC_KEY_INFO we fill from the
	 * certificate when omitted (token/attrs_fill.c). */
	{ S_CERT, CKA_CERTIFICATE_TYPE, U, 0, VG_D_NONE, REQ, 0 },
	{ S_CERT, CKA_TRUSTED, B, 0, VG_D_FALSE, SOT, 0 },
	{ S_CERT, CKA_CERTIFICATE_CATEGORY, U, VG_C_CERT_CAT, VG_D_ULONG, 0,
	    CK_CERTIFICATE_CATEGORY_UNSPECIFIED },
	{ S_CERT, CKA_CHECK_VALUE, Y, 0, VG_D_NONE, CMP, 0 },
	{ S_CERT, CKA_START_DATE, D, 0, VG_D_EMPTY, CMP, 0 },
	{ S_CERT, CKA_END_DATE, D, 0, VG_D_EMPTY, CMP, 0 },
	{ S_CERT, CKA_PUBLIC_KEY_INFO, Y, 0, VG_D_EMPTY, CMP, 0 },
	/* §4.7.3 X.509 certificates: only CKA_ID, CKA_ISSUER and
	 * CKA_SERIAL_NUMBER are modifiable. CKA_SUBJECT is required, and
	 * taken from CKA_VALUE when omitted. CKA_NAME_HASH_ALGORITHM
	 * "defaults to SHA-1". */
	{ S_X509, CKA_SUBJECT, Y, 0, VG_D_NONE, REQ | CMP, 0 },
	{ S_X509, CKA_ID, Y, 0, VG_D_EMPTY, MOD, 0 },
	{ S_X509, CKA_ISSUER, Y, 0, VG_D_EMPTY, MOD | CMP, 0 },
	{ S_X509, CKA_SERIAL_NUMBER, Y, 0, VG_D_EMPTY, MOD | CMP, 0 },
	{ S_X509, CKA_VALUE, Y, 0, VG_D_NONE, REQ, 0 },
	{ S_X509, CKA_URL, Y, 0, VG_D_EMPTY, 0, 0 },
	{ S_X509, CKA_HASH_OF_SUBJECT_PUBLIC_KEY, Y, 0, VG_D_EMPTY, 0, 0 },
	{ S_X509, CKA_HASH_OF_ISSUER_PUBLIC_KEY, Y, 0, VG_D_EMPTY, 0, 0 },
	{ S_X509, CKA_JAVA_MIDP_SECURITY_DOMAIN, U, VG_C_MIDP, VG_D_ULONG, 0,
	    CK_SECURITY_DOMAIN_UNSPECIFIED },
	{ S_X509, CKA_NAME_HASH_ALGORITHM, U, 0, VG_D_ULONG, 0, CKM_SHA_1 },

	/* §4.9 Common key attributes. CKA_KEY_TYPE (1, 5); CKA_LOCAL and
	 * CKA_KEY_GEN_MECHANISM (2, 4, 6) are set by the token. */
	{ S_KEY, CKA_KEY_TYPE, U, 0, VG_D_NONE, REQ | RQU, 0 },
	{ S_KEY, CKA_ID, Y, 0, VG_D_EMPTY, MOD, 0 },
	{ S_KEY, CKA_START_DATE, D, 0, VG_D_EMPTY, MOD, 0 },
	{ S_KEY, CKA_END_DATE, D, 0, VG_D_EMPTY, MOD, 0 },
	{ S_KEY, CKA_DERIVE, B, 0, VG_D_FALSE, MOD, 0 },
	{ S_KEY, CKA_LOCAL, B, 0, VG_D_NONE, TOK, 0 },
	{ S_KEY, CKA_KEY_GEN_MECHANISM, U, 0, VG_D_NONE, TOK, 0 },
	{ S_KEY, CKA_ALLOWED_MECHANISMS, M, 0, VG_D_EMPTY, 0, 0 },

	/* Usage flags (8) of §4.10 public, §4.11 private, §4.12 secret
	 * keys. */
	{ U_ENC_T, CKA_ENCRYPT, B, 0, VG_D_TRUE, MOD, 0 },
	{ U_ENC_F, CKA_ENCRYPT, B, 0, VG_D_FALSE, MOD, 0 },
	{ U_DEC_T, CKA_DECRYPT, B, 0, VG_D_TRUE, MOD, 0 },
	{ U_DEC_F, CKA_DECRYPT, B, 0, VG_D_FALSE, MOD, 0 },
	{ U_ENC_T, CKA_WRAP, B, 0, VG_D_TRUE, MOD, 0 },
	{ U_ENC_F, CKA_WRAP, B, 0, VG_D_FALSE, MOD, 0 },
	{ U_DEC_T, CKA_UNWRAP, B, 0, VG_D_TRUE, MOD, 0 },
	{ U_DEC_F, CKA_UNWRAP, B, 0, VG_D_FALSE, MOD, 0 },
	{ S_PUB | S_SECRET, CKA_VERIFY, B, 0, VG_D_TRUE, MOD, 0 },
	{ S_PRIV | S_SECRET, CKA_SIGN, B, 0, VG_D_TRUE, MOD, 0 },
	{ S_RSA_PUB, CKA_VERIFY_RECOVER, B, 0, VG_D_TRUE, MOD, 0 },
	{ U_REC_PUB_F, CKA_VERIFY_RECOVER, B, 0, VG_D_FALSE, MOD, 0 },
	{ S_RSA_PRIV, CKA_SIGN_RECOVER, B, 0, VG_D_TRUE, MOD, 0 },
	{ U_REC_PRIV_F, CKA_SIGN_RECOVER, B, 0, VG_D_FALSE, MOD, 0 },

	/* §4.10 Public keys. CKA_PUBLIC_KEY_INFO "MAY be empty"; the upper
	 * layer fills it from the key. */
	{ S_PUB | S_PRIV, CKA_SUBJECT, Y, 0, VG_D_EMPTY, MOD, 0 },
	{ S_PUB | S_SECRET, CKA_TRUSTED, B, 0, VG_D_FALSE, SOT, 0 },
	{ S_PUB | S_SECRET, CKA_WRAP_TEMPLATE, A, 0, VG_D_EMPTY, 0, 0 },
	{ S_PUB, CKA_PUBLIC_KEY_INFO, Y, 0, VG_D_EMPTY, 0, 0 },

	/* §4.11 Private and §4.12 secret keys. CKA_SENSITIVE (8, 11):
	 * token-specific default for private keys (true), false for secret
	 * keys; CKA_EXTRACTABLE (8, 12): token-specific, false, but true for
	 * unwrapped keys (§5.19.4); CKA_ALWAYS_SENSITIVE and
	 * CKA_NEVER_EXTRACTABLE (2, 4, 6) set by the token;
	 * CKA_WRAP_WITH_TRUSTED (11). */
	{ S_PRIV, CKA_SENSITIVE, B, 0, VG_D_TRUE, MOD | O_T, 0 },
	{ S_SECRET, CKA_SENSITIVE, B, 0, VG_D_FALSE, MOD | O_T, 0 },
	{ S_PRIV | S_SECRET, CKA_EXTRACTABLE, B, 0, VG_D_UNWRAP_TRUE,
	    MOD | O_F, 0 },
	{ S_PRIV | S_SECRET, CKA_ALWAYS_SENSITIVE, B, 0, VG_D_NONE, TOK, 0 },
	{ S_PRIV | S_SECRET, CKA_NEVER_EXTRACTABLE, B, 0, VG_D_NONE, TOK, 0 },
	{ S_PRIV | S_SECRET, CKA_WRAP_WITH_TRUSTED, B, 0, VG_D_FALSE,
	    MOD | O_T, 0 },
	{ S_PRIV | S_SECRET, CKA_UNWRAP_TEMPLATE, A, 0, VG_D_EMPTY, 0, 0 },
	{ S_PRIV | S_SECRET, CKA_DERIVE_TEMPLATE, A, 0, VG_D_EMPTY, 0, 0 },
	/* "may only be set to CK_TRUE when CKA_PRIVATE is also CK_TRUE"
	 * (checked in token/attrs_ops.c). */
	{ S_PRIV, CKA_ALWAYS_AUTHENTICATE, B, 0, VG_D_FALSE, 0, 0 },
	/* (8): if given, the token MUST check it against the key: the
	 * upper layer's job. */
	{ S_PRIV, CKA_PUBLIC_KEY_INFO, Y, 0, VG_D_EMPTY, MOD, 0 },
	/* §4.12: optional, "always supplied" when supported; an empty
	 * template value prevents it and C_SetAttributeValue may destroy it
	 * by supplying no value. */
	{ S_SECRET, CKA_CHECK_VALUE, Y, 0, VG_D_NONE, CMP | CLR, 0 },

	/* §6.1.2 RSA public keys. CKA_MODULUS_BITS (2, 3): computed from
	 * the modulus on C_CreateObject. */
	{ S_RSA_PUB, CKA_MODULUS, Y, VG_C_BIGINT, VG_D_NONE, REQ | NOG, 0 },
	{ S_RSA_PUB, CKA_MODULUS_BITS, U, VG_C_POSITIVE, VG_D_NONE,
	    NOC | RQG | CMP, 0 },
	{ S_RSA_PUB, CKA_PUBLIC_EXPONENT, Y, VG_C_BIGINT, VG_D_NONE, REQ, 0 },
	/* §6.1.3 RSA private keys (the CRT values are optional at create;
	 * consistency is checked by the upper layer). */
	{ S_RSA_PRIV, CKA_MODULUS, Y, VG_C_BIGINT, VG_D_NONE, REQ | MAT, 0 },
	{ S_RSA_PRIV, CKA_PUBLIC_EXPONENT, Y, VG_C_BIGINT, VG_D_NONE,
	    REQ | MAT, 0 },
	{ S_RSA_PRIV, CKA_PRIVATE_EXPONENT, Y, VG_C_BIGINT, VG_D_NONE,
	    REQ | MAT | SEN, 0 },
	{ S_RSA_PRIV, CKA_PRIME_1, Y, VG_C_BIGINT, VG_D_NONE, MAT | SEN, 0 },
	{ S_RSA_PRIV, CKA_PRIME_2, Y, VG_C_BIGINT, VG_D_NONE, MAT | SEN, 0 },
	{ S_RSA_PRIV, CKA_EXPONENT_1, Y, VG_C_BIGINT, VG_D_NONE, MAT | SEN,
	    0 },
	{ S_RSA_PRIV, CKA_EXPONENT_2, Y, VG_C_BIGINT, VG_D_NONE, MAT | SEN,
	    0 },
	{ S_RSA_PRIV, CKA_COEFFICIENT, Y, VG_C_BIGINT, VG_D_NONE, MAT | SEN,
	    0 },

	/* §6.3.3 / §6.3.4 EC keys. CKA_EC_PARAMS of the pair is given in
	 * the public key template (3); the private key gets it from the
	 * mechanism (4). CKA_EC_POINT on a private key is an extension
	 * (public, optional) for clients that look for it there first
	 * (libp11); the upper layer checks it against CKA_VALUE. */
	{ S_EC_PUB, CKA_EC_PARAMS, Y, VG_C_DER, VG_D_NONE, REQ | RQG, 0 },
	{ S_EC_PUB, CKA_EC_POINT, Y, VG_C_BIGINT, VG_D_NONE, REQ | NOG, 0 },
	{ S_EC_PRIV, CKA_EC_PARAMS, Y, VG_C_DER, VG_D_NONE, REQ | MAT, 0 },
	{ S_EC_PRIV, CKA_VALUE, Y, VG_C_BIGINT, VG_D_NONE, REQ | MAT | SEN,
	    0 },
	{ S_EC_PRIV, CKA_EC_POINT, Y, VG_C_BIGINT, VG_D_NONE, MAT, 0 },

	/* §6.56.2 / §6.56.3 ML-DSA keys: "at least one of CKA_SEED and
	 * CKA_VALUE must be specified on C_CreateObject". */
	{ S_MLDSA_PUB, CKA_PARAMETER_SET, U, VG_C_PARAM_SET, VG_D_NONE,
	    REQ | RQG, 0 },
	{ S_MLDSA_PUB, CKA_VALUE, Y, VG_C_BIGINT, VG_D_NONE, REQ | NOG, 0 },
	{ S_MLDSA_PRIV, CKA_PARAMETER_SET, U, VG_C_PARAM_SET, VG_D_NONE,
	    REQ | MAT, 0 },
	{ S_MLDSA_PRIV, CKA_SEED, Y, VG_C_BIGINT, VG_D_NONE, ANY | MAT | SEN,
	    0 },
	{ S_MLDSA_PRIV, CKA_VALUE, Y, VG_C_BIGINT, VG_D_NONE,
	    ANY | MAT | SEN, 0 },

	/* ML-KEM keys [PKCS#11 3.2, ML-KEM]: as ML-DSA's (a private key by
	 * its seed d || z, its dk, or both, which must agree); the usage
	 * flags and templates of key encapsulation [§4.10, §4.11] are
	 * offered on the key type that has an encapsulation mechanism. */
	{ S_MLKEM_PUB, CKA_PARAMETER_SET, U, VG_C_PARAM_SET, VG_D_NONE,
	    REQ | RQG, 0 },
	{ S_MLKEM_PUB, CKA_VALUE, Y, VG_C_BIGINT, VG_D_NONE, REQ | NOG, 0 },
	{ S_MLKEM_PUB, CKA_ENCAPSULATE, B, 0, VG_D_TRUE, MOD, 0 },
	{ S_MLKEM_PUB, CKA_ENCAPSULATE_TEMPLATE, A, 0, VG_D_EMPTY, 0, 0 },
	{ S_MLKEM_PRIV, CKA_PARAMETER_SET, U, VG_C_PARAM_SET, VG_D_NONE,
	    REQ | MAT, 0 },
	{ S_MLKEM_PRIV, CKA_SEED, Y, VG_C_BIGINT, VG_D_NONE, ANY | MAT | SEN,
	    0 },
	{ S_MLKEM_PRIV, CKA_VALUE, Y, VG_C_BIGINT, VG_D_NONE,
	    ANY | MAT | SEN, 0 },
	{ S_MLKEM_PRIV, CKA_DECAPSULATE, B, 0, VG_D_TRUE, MOD, 0 },
	{ S_MLKEM_PRIV, CKA_DECAPSULATE_TEMPLATE, A, 0, VG_D_EMPTY, 0, 0 },

	/* §6.8.2 generic secret and §6.10.2 AES keys. CKA_VALUE_LEN (2, 3):
	 * computed from the value on C_CreateObject. */
	{ S_GENERIC, CKA_VALUE, Y, VG_C_BIGINT, VG_D_NONE, REQ | MAT | SEN,
	    0 },
	{ S_GENERIC, CKA_VALUE_LEN, U, VG_C_POSITIVE, VG_D_NONE,
	    NOC | RQG | CMP, 0 },
	{ S_AES, CKA_VALUE, Y, VG_C_AES_LEN, VG_D_NONE, REQ | MAT | SEN, 0 },
	{ S_AES, CKA_VALUE_LEN, U, VG_C_AES_LEN, VG_D_NONE, NOC | RQG | CMP,
	    0 },

	/* NSS trust objects (cryptoki/nss.h), as NSS's certutil and Firefox
	 * write them beside a certificate: the certificate by issuer and
	 * serial number (what NSS searches by) and by its SHA-1 hash (what
	 * NSS compares), the MD5 hash optional; one CK_TRUST per usage and
	 * purpose, unknown when not given; all of them modifiable, since
	 * certutil -M and the certificate manager rewrite the trust in
	 * place. */
	{ S_NSS_TRUST, CKA_ISSUER, Y, VG_C_BIGINT, VG_D_NONE, REQ, 0 },
	{ S_NSS_TRUST, CKA_SERIAL_NUMBER, Y, VG_C_BIGINT, VG_D_NONE, REQ, 0 },
	{ S_NSS_TRUST, CKA_NSS_CERT_SHA1_HASH, Y, VG_C_SHA1_LEN, VG_D_NONE, REQ,
	    0 },
	{ S_NSS_TRUST, CKA_NSS_CERT_MD5_HASH, Y, VG_C_MD5_LEN, VG_D_NONE, 0, 0 },
#define NSS_TRUST_ROW(a) \
	{ S_NSS_TRUST, a, U, VG_C_NSS_TRUST, VG_D_ULONG, MOD, \
	    CKT_NSS_TRUST_UNKNOWN }
	NSS_TRUST_ROW(CKA_NSS_TRUST_DIGITAL_SIGNATURE),
	NSS_TRUST_ROW(CKA_NSS_TRUST_NON_REPUDIATION),
	NSS_TRUST_ROW(CKA_NSS_TRUST_KEY_ENCIPHERMENT),
	NSS_TRUST_ROW(CKA_NSS_TRUST_DATA_ENCIPHERMENT),
	NSS_TRUST_ROW(CKA_NSS_TRUST_KEY_AGREEMENT),
	NSS_TRUST_ROW(CKA_NSS_TRUST_KEY_CERT_SIGN),
	NSS_TRUST_ROW(CKA_NSS_TRUST_CRL_SIGN),
	NSS_TRUST_ROW(CKA_NSS_TRUST_SERVER_AUTH),
	NSS_TRUST_ROW(CKA_NSS_TRUST_CLIENT_AUTH),
	NSS_TRUST_ROW(CKA_NSS_TRUST_CODE_SIGNING),
	NSS_TRUST_ROW(CKA_NSS_TRUST_EMAIL_PROTECTION),
	NSS_TRUST_ROW(CKA_NSS_TRUST_IPSEC_END_SYSTEM),
	NSS_TRUST_ROW(CKA_NSS_TRUST_IPSEC_TUNNEL),
	NSS_TRUST_ROW(CKA_NSS_TRUST_IPSEC_USER),
	NSS_TRUST_ROW(CKA_NSS_TRUST_TIME_STAMPING),
#undef NSS_TRUST_ROW
	{ S_NSS_TRUST, CKA_NSS_TRUST_STEP_UP_APPROVED, B, 0, VG_D_FALSE, MOD, 0 },

	/* PKCS#11 3.2 trust objects, the standard form of the above, which
	 * NSS from 3.1xx writes to tokens of version 3.2: the certificate
	 * by issuer, serial number and its hash under
	 * CKA_NAME_HASH_ALGORITHM (SHA-1 when not given, as for
	 * certificates); one CK_TRUST (CKT_TRUST_UNKNOWN ...
	 * CKT_TRUST_MUST_VERIFY_TRUST) per purpose, modifiable. */
	{ S_TRUST, CKA_ISSUER, Y, VG_C_BIGINT, VG_D_NONE, REQ, 0 },
	{ S_TRUST, CKA_SERIAL_NUMBER, Y, VG_C_BIGINT, VG_D_NONE, REQ, 0 },
	{ S_TRUST, CKA_HASH_OF_CERTIFICATE, Y, VG_C_BIGINT, VG_D_NONE, REQ,
	    0 },
	{ S_TRUST, CKA_NAME_HASH_ALGORITHM, U, VG_C_HASH_MECH, VG_D_ULONG, 0,
	    CKM_SHA_1 },
#define TRUST_ROW(a) \
	{ S_TRUST, a, U, VG_C_TRUST, VG_D_ULONG, MOD, CKT_TRUST_UNKNOWN }
	TRUST_ROW(CKA_TRUST_SERVER_AUTH),
	TRUST_ROW(CKA_TRUST_CLIENT_AUTH),
	TRUST_ROW(CKA_TRUST_CODE_SIGNING),
	TRUST_ROW(CKA_TRUST_EMAIL_PROTECTION),
	TRUST_ROW(CKA_TRUST_IPSEC_IKE),
	TRUST_ROW(CKA_TRUST_TIME_STAMPING),
	TRUST_ROW(CKA_TRUST_OCSP_SIGNING),
#undef TRUST_ROW
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* see token/object.h */
const struct vg_attr_rule *
vg_attr_rules(size_t *n)
{
	*n = NRULES;
	return rules;
}

/* see token/object.h */
uint32_t
vg_attr_scopes(CK_OBJECT_CLASS cls, CK_ULONG sub)
{
	size_t i;

	for (i = 0; i < NCLASSES; i++)
		if (classes[i].cls == cls &&
		    (cls == CKO_DATA || cls == CKO_NSS_TRUST ||
			cls == CKO_TRUST || classes[i].sub == sub))
			return classes[i].scopes;
	return 0;
}

/* see token/object.h */
uint32_t
vg_object_scopes(const struct vg_object *o)
{
	CK_ULONG sub = o->key_type;

	if (o->cls == CKO_CERTIFICATE)
		sub = vg_object_ulong(o, CKA_CERTIFICATE_TYPE,
		    CK_UNAVAILABLE_INFORMATION);
	return vg_attr_scopes(o->cls, sub);
}

/* see token/object.h */
const struct vg_attr_rule *
vg_attr_rule_in(uint32_t scopes, CK_ATTRIBUTE_TYPE t)
{
	size_t i;

	for (i = 0; i < NRULES; i++)
		if (rules[i].type == t && (rules[i].scope & scopes) != 0)
			return &rules[i];
	return NULL;
}

/* see token/object.h */
const struct vg_attr_rule *
vg_attr_rule_find(CK_OBJECT_CLASS cls, CK_ULONG sub, CK_ATTRIBUTE_TYPE t)
{
	return vg_attr_rule_in(vg_attr_scopes(cls, sub), t);
}

/* see token/object.h */
const struct vg_attr_rule *
vg_object_rule(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	return vg_attr_rule_in(vg_object_scopes(o), t);
}

/* see token/object.h */
enum vg_attr_kind
vg_attr_kind(CK_ATTRIBUTE_TYPE t)
{
	size_t i;

	for (i = 0; i < NRULES; i++)
		if (rules[i].type == t)
			return (enum vg_attr_kind)rules[i].kind;
	return VG_K_BYTES;
}

static int
is_secret_class(CK_OBJECT_CLASS cls)
{
	return cls == CKO_PRIVATE_KEY || cls == CKO_SECRET_KEY;
}

/* see token/object.h */
int
vg_attr_is_secret(CK_OBJECT_CLASS cls, CK_KEY_TYPE kt, CK_ATTRIBUTE_TYPE t)
{
	uint32_t scopes = vg_attr_scopes(cls, kt);
	const struct vg_attr_rule *r;

	if (scopes == 0)
		return is_secret_class(cls);
	r = vg_attr_rule_in(scopes, t);
	return r != NULL && (r->flags & VG_A_SENSITIVE) != 0;
}

/* see token/object.h */
int
vg_object_is_private(const struct vg_object *o)
{
	return vg_object_bool(o, CKA_PRIVATE,
	    is_secret_class(o->cls) ? CK_TRUE : CK_FALSE) == CK_TRUE;
}

/* see token/object.h */
int
vg_object_attr_hidden(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	uint32_t scopes = vg_object_scopes(o);
	const struct vg_attr_rule *r;
	int sensitive;

	if (scopes == 0) {
		sensitive = is_secret_class(o->cls) && t != CKA_CLASS &&
		    t != CKA_KEY_TYPE;
	} else {
		r = vg_attr_rule_in(scopes, t);
		sensitive = r != NULL && (r->flags & VG_A_SENSITIVE) != 0;
	}
	if (!sensitive)
		return 0;
	return vg_object_bool(o, CKA_SENSITIVE, CK_TRUE) == CK_TRUE ||
	    vg_object_bool(o, CKA_EXTRACTABLE, CK_FALSE) == CK_FALSE;
}

/* see token/object.h */
const CK_ATTRIBUTE *
vg_template_find(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE type)
{
	CK_ULONG i;

	for (i = 0; t != NULL && i < n; i++)
		if (t[i].type == type)
			return &t[i];
	return NULL;
}

/* ------------------------------------------------------------ values */

static int
digits(const uint8_t *p, size_t n, unsigned *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		*v = *v * 10 + (unsigned)(p[i] - '0');
	}
	return 1;
}

/* CK_DATE [§3.3]: year "1900" to "9999", month "01" to "12", day "01" to
 * "31" as ASCII digits; empty is the "empty date" default. */
static int
date_valid(const CK_ATTRIBUTE *a)
{
	const uint8_t *p = a->pValue;
	unsigned y, m, d;

	if (a->ulValueLen == 0)
		return 1;
	if (a->ulValueLen != sizeof(CK_DATE))
		return 0;
	return digits(p, 4, &y) && digits(p + 4, 2, &m) &&
	    digits(p + 6, 2, &d) && y >= 1900 && m >= 1 && m <= 12 &&
	    d >= 1 && d <= 31;
}

/* Checks the kind of a value: CKR_OK or CKR_ATTRIBUTE_VALUE_INVALID; for
 * attribute arrays also the inner entries (CKR_TEMPLATE_INCONSISTENT for
 * recursion). */
static CK_RV
check_kind(enum vg_attr_kind kind, const CK_ATTRIBUTE *a, int inner)
{
	CK_ULONG i, n;

	if (a->ulValueLen > 0 && a->pValue == NULL)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	if (a->ulValueLen == CK_UNAVAILABLE_INFORMATION)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	switch (kind) {
	case VG_K_BOOL:
		if (a->ulValueLen != sizeof(CK_BBOOL) ||
		    *(const CK_BBOOL *)a->pValue > CK_TRUE)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		break;
	case VG_K_ULONG:
		if (a->ulValueLen != sizeof(CK_ULONG))
			return CKR_ATTRIBUTE_VALUE_INVALID;
		break;
	case VG_K_DATE:
		if (!date_valid(a))
			return CKR_ATTRIBUTE_VALUE_INVALID;
		break;
	case VG_K_MECHS:
		if (a->ulValueLen % sizeof(CK_MECHANISM_TYPE) != 0)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		break;
	case VG_K_ATTRS:
		/* §4.9.3: implementations can deny recursion with
		 * CKR_TEMPLATE_INCONSISTENT. */
		if (inner)
			return CKR_TEMPLATE_INCONSISTENT;
		if (a->ulValueLen % sizeof(CK_ATTRIBUTE) != 0)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		n = a->ulValueLen / sizeof(CK_ATTRIBUTE);
		for (i = 0; i < n; i++) {
			const CK_ATTRIBUTE *e = (const CK_ATTRIBUTE *)a->pValue
			    + i;
			enum vg_attr_kind k = vg_attr_kind(e->type);
			CK_RV rv;

			if ((e->type & CKF_ARRAY_ATTRIBUTE) != 0 &&
			    k != VG_K_MECHS)
				return CKR_TEMPLATE_INCONSISTENT;
			rv = check_kind(k, e, 1);
			if (rv != CKR_OK)
				return rv;
		}
		break;
	default:
		break;
	}
	return CKR_OK;
}

static int
ulong_in(const CK_ATTRIBUTE *a, CK_ULONG lo, CK_ULONG hi)
{
	CK_ULONG v;

	memcpy(&v, a->pValue, sizeof(v));
	return v >= lo && v <= hi;
}

/* see token/object.h */
CK_RV
vg_attr_check_value(const struct vg_attr_rule *r, const CK_ATTRIBUTE *a)
{
	struct vg_der cur, contents;
	unsigned tag;
	CK_ULONG v;
	CK_RV rv;

	rv = check_kind((enum vg_attr_kind)r->kind, a, 0);
	if (rv != CKR_OK)
		return rv;
	switch (r->check) {
	case VG_C_BIGINT:
		return a->ulValueLen > 0 ? CKR_OK : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_DER:
		cur = vg_der_make(a->pValue, a->ulValueLen);
		if (vg_der_get_any(&cur, &tag, &contents, NULL) != VG_OK ||
		    !vg_der_at_end(&cur))
			return CKR_ATTRIBUTE_VALUE_INVALID;
		return CKR_OK;
	case VG_C_AES_LEN:
		v = a->ulValueLen;
		if (r->kind == VG_K_ULONG)
			memcpy(&v, a->pValue, sizeof(v));
		return v == 16 || v == 24 || v == 32 ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_CERT_CAT:
		return ulong_in(a, CK_CERTIFICATE_CATEGORY_UNSPECIFIED,
		    CK_CERTIFICATE_CATEGORY_OTHER_ENTITY) ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_MIDP:
		return ulong_in(a, CK_SECURITY_DOMAIN_UNSPECIFIED,
		    CK_SECURITY_DOMAIN_THIRD_PARTY) ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_PARAM_SET:
		return ulong_in(a, CKP_ML_DSA_44, CKP_ML_DSA_87) ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_POSITIVE:
		return ulong_in(a, 1, CK_UNAVAILABLE_INFORMATION - 1) ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_SHA1_LEN:
		return a->ulValueLen == 20 ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_MD5_LEN:
		return a->ulValueLen == 16 ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_NSS_TRUST:
		memcpy(&v, a->pValue, sizeof(v));
		return v == CKT_NSS_TRUSTED || v == CKT_NSS_TRUSTED_DELEGATOR ||
		    v == CKT_NSS_MUST_VERIFY_TRUST ||
		    v == CKT_NSS_TRUST_UNKNOWN || v == CKT_NSS_NOT_TRUSTED ||
		    v == CKT_NSS_VALID_DELEGATOR ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_TRUST:
		return ulong_in(a, CKT_TRUST_UNKNOWN,
		    CKT_TRUST_MUST_VERIFY_TRUST) ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	case VG_C_HASH_MECH:
		memcpy(&v, a->pValue, sizeof(v));
		return vg_attr_hash_len(v) != 0 ? CKR_OK
		    : CKR_ATTRIBUTE_VALUE_INVALID;
	default:
		return CKR_OK;
	}
}

/* see token/object.h */
CK_RV
vg_attr_nested_encode(const CK_ATTRIBUTE *a, uint8_t **out, size_t *outlen)
{
	struct vg_object *tmp;
	CK_ULONG i, n;
	CK_RV rv;

	*out = NULL;
	*outlen = 0;
	rv = check_kind(VG_K_ATTRS, a, 0);
	if (rv != CKR_OK)
		return rv;
	tmp = vg_object_new();
	if (tmp == NULL)
		return CKR_HOST_MEMORY;
	n = a->ulValueLen / sizeof(CK_ATTRIBUTE);
	for (i = 0; i < n && rv == CKR_OK; i++) {
		const CK_ATTRIBUTE *e = (const CK_ATTRIBUTE *)a->pValue + i;
		const struct vg_attr *old = vg_object_attr(tmp, e->type);

		if (old == NULL)
			rv = vg_object_set_attr(tmp, e->type, e->pValue,
			    e->ulValueLen);
		else if (old->len != e->ulValueLen ||
		    (old->len > 0 &&
			memcmp(old->value, e->pValue, old->len) != 0))
			rv = CKR_TEMPLATE_INCONSISTENT;
	}
	/* An empty array is stored as an empty value, like the default. */
	if (rv == CKR_OK && tmp->n > 0)
		rv = vg_attrs_encode(tmp->attrs, tmp->n, out, outlen);
	vg_object_free(tmp);
	return rv;
}

/* see token/object.h */
CK_RV
vg_attr_stored_form(const CK_ATTRIBUTE *a, uint8_t **buf, const void **v,
    CK_ULONG *len)
{
	size_t blen;
	CK_RV rv;

	*buf = NULL;
	*v = a->pValue;
	*len = a->ulValueLen;
	if (vg_attr_kind(a->type) != VG_K_ATTRS)
		return CKR_OK;
	rv = vg_attr_nested_encode(a, buf, &blen);
	if (rv == CKR_OK) {
		*v = *buf;
		*len = blen;
	}
	return rv;
}

/* see token/object.h */
CK_RV
vg_attr_apply_default(struct vg_object *o, const struct vg_attr_rule *r,
    enum vg_obj_op op)
{
	CK_BBOOL b;

	switch (r->dflt) {
	case VG_D_FALSE:
	case VG_D_TRUE:
	case VG_D_UNWRAP_TRUE:
		b = r->dflt == VG_D_TRUE ||
		    (r->dflt == VG_D_UNWRAP_TRUE && op == VG_OBJ_UNWRAP);
		return vg_object_set_attr(o, r->type, &b, sizeof(b));
	case VG_D_EMPTY:
		return vg_object_set_attr(o, r->type, NULL, 0);
	case VG_D_ULONG:
		return vg_object_set_attr(o, r->type, &r->dval,
		    sizeof(r->dval));
	default:
		return CKR_OK;
	}
}

/* see token/object.h */
size_t
vg_attr_hash_len(CK_MECHANISM_TYPE m)
{
	switch (m) {
	case CKM_SHA_1:
		return 20;
	case CKM_SHA224:
	case CKM_SHA3_224:
		return 28;
	case CKM_SHA256:
	case CKM_SHA3_256:
		return 32;
	case CKM_SHA384:
	case CKM_SHA3_384:
		return 48;
	case CKM_SHA512:
	case CKM_SHA3_512:
		return 64;
	default:
		return 0;
	}
}

static int
empty(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	return a == NULL || a->len == 0;
}

/* see token/object.h */
CK_RV
vg_object_check_consistency(const struct vg_object *o)
{
	/* §4.11: CKA_ALWAYS_AUTHENTICATE "may only be set to CK_TRUE when
	 * CKA_PRIVATE is also CK_TRUE". */
	if (vg_object_bool(o, CKA_ALWAYS_AUTHENTICATE, CK_FALSE) &&
	    !vg_object_is_private(o))
		return CKR_TEMPLATE_INCONSISTENT;
	/* §4.7.3 footnote 4: the key hashes "can only be empty if CKA_URL is
	 * empty". */
	if (o->cls == CKO_CERTIFICATE && !empty(o, CKA_URL) &&
	    (empty(o, CKA_HASH_OF_SUBJECT_PUBLIC_KEY) ||
		empty(o, CKA_HASH_OF_ISSUER_PUBLIC_KEY)))
		return CKR_TEMPLATE_INCONSISTENT;
	/* A trust object's certificate hash has the length of its
	 * algorithm's output. */
	if (o->cls == CKO_TRUST && vg_object_attr(o, CKA_HASH_OF_CERTIFICATE)
	    != NULL && vg_object_attr(o, CKA_HASH_OF_CERTIFICATE)->len !=
	    vg_attr_hash_len(vg_object_ulong(o, CKA_NAME_HASH_ALGORITHM,
		CKM_SHA_1)))
		return CKR_TEMPLATE_INCONSISTENT;
	return CKR_OK;
}
