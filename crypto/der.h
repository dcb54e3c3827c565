/*
 * DER [X.690 §10] for keys: a strict reader, a writer, and the structures
 * PKCS#11 objects and key import/export need:
 *
 *   SubjectPublicKeyInfo, AlgorithmIdentifier      [RFC 5280 §4.1.1.2, §4.1.2.7]
 *   PrivateKeyInfo / OneAsymmetricKey (PKCS #8)    [RFC 5208 §5], [RFC 5958 §2]
 *   RSAPublicKey, RSAPrivateKey (PKCS #1)          [RFC 8017 App. A.1]
 *   ECParameters, ECPrivateKey                     [RFC 5480 §2.1.1], [RFC 5915 §3]
 *   ML-DSA-PrivateKey                              [RFC 9881 §6]
 *
 * Reader. A struct vg_der is a cursor over input bytes the caller owns; the
 * get functions read one element at the cursor, check it, return its
 * contents as another cursor into the same bytes (nothing is copied or
 * allocated) and advance. On any error the cursor is left unchanged. Every
 * function is safe on arbitrary input: it never reads outside [p, p + len)
 * and all length arithmetic is checked, also with a 32-bit size_t.
 * Only DER is accepted: single-byte tags (high tag numbers, 0x1f, are
 * rejected), definite lengths in the shortest form and of at most four
 * bytes (no indefinite length 0x80, no 0x81 below 128, no leading zero
 * length bytes), lengths within the input, minimal INTEGERs, zero padding
 * bits in BIT STRINGs, minimal OID sub-identifiers, empty NULLs.
 * Malformed input gives VG_ERR_DECODE.
 *
 * Writer. Each vg_der_put_* function returns the encoded length and writes
 * the encoding to out, or only returns the length when out is NULL, so a
 * caller sizes a buffer first and writes second. They do not check room:
 * out must have the returned length. They return 0 (and write nothing) when
 * a length exceeds VG_DER_MAX_LEN. The structure builders check room:
 * they take (out, *outlen), set *outlen to the encoded length, and return
 * VG_OK (out NULL: only the size is computed), VG_ERR_LENGTH (out is too
 * short; nothing written) or VG_ERR_ARG (an input is out of range). The
 * output of a builder must not overlap its inputs.
 * Pointer arguments are non-NULL except where said otherwise (out of the
 * writers; a struct vg_der may hold p NULL with len 0).
 *
 * Key material. Parsed private keys are cursors into the caller's buffer:
 * the caller wipes that buffer, and wipes the output buffers of the
 * builders. Nothing here copies a secret onto its own stack.
 * CT for every function: the running time depends on the lengths and tags
 * of the elements (which the encoding shows) and on whether an INTEGER
 * needs a sign byte (equivalent to its byte length, also shown), never on
 * other content bytes. Exceptions, where the data is public: OIDs are
 * compared with memcmp; vg_der_get_uint32 reads its value.
 */
#ifndef VG_CRYPTO_DER_H
#define VG_CRYPTO_DER_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* Tags (identifier octets) used by keys. */
#define VG_DER_INTEGER 0x02u
#define VG_DER_BIT_STRING 0x03u
#define VG_DER_OCTET_STRING 0x04u
#define VG_DER_NULL 0x05u
#define VG_DER_OID 0x06u
#define VG_DER_PRINTABLE_STRING 0x13u
#define VG_DER_SEQUENCE 0x30u
#define VG_DER_SET 0x31u
/* Context-specific [n], constructed (EXPLICIT tagging) and primitive. */
#define VG_DER_CONTEXT(n) (0xa0u | (unsigned)(n))
#define VG_DER_CONTEXT_PRIM(n) (0x80u | (unsigned)(n))

/* Longest contents the writer encodes (the reader accepts up to 2^32 - 1,
 * limited by the input anyway). */
#define VG_DER_MAX_LEN ((size_t)0x7fffffff)

/* A cursor: len bytes at p. Also used for OIDs (their contents octets). */
struct vg_der {
	const uint8_t *p;
	size_t len;
};

/* A cursor over len bytes at p. */
static inline struct vg_der
vg_der_make(const void *p, size_t len)
{
	struct vg_der c;

	c.p = (const uint8_t *)p;
	c.len = p == NULL ? 0 : len;
	return c;
}

/* 1 if no bytes are left at the cursor, else 0. */
int vg_der_at_end(const struct vg_der *cur);

/* The tag of the next element, or -1 at the end of the input. */
int vg_der_peek_tag(const struct vg_der *cur);

/*
 * Reads one element with tag expected_tag (a single identifier octet, e.g.
 * VG_DER_SEQUENCE or VG_DER_CONTEXT(0)); *contents gets its contents
 * octets. VG_ERR_DECODE if the tag differs or the header is not DER.
 */
enum vg_err vg_der_get_tlv(struct vg_der *cur, unsigned expected_tag,
    struct vg_der *contents);

/*
 * Reads one element whatever its (single-octet) tag: *tag gets the tag,
 * *contents its contents and, if whole is not NULL, *whole the complete
 * encoding (header and contents).
 */
enum vg_err vg_der_get_any(struct vg_der *cur, unsigned *tag,
    struct vg_der *contents, struct vg_der *whole);

/* SEQUENCE: *contents gets its contents, to be read with another cursor. */
enum vg_err vg_der_get_sequence(struct vg_der *cur, struct vg_der *contents);

/*
 * INTEGER. Rejects empty and non-minimal encodings. By default (flags 0)
 * negative numbers are rejected, and *mag gets the unsigned big-endian
 * magnitude without the sign byte 0x00; zero is the single byte 0x00.
 * With VG_DER_INT_SIGNED a negative number is accepted and *mag gets its
 * raw two's-complement contents (mag->p[0] & 0x80 tells the sign);
 * non-negative numbers come back as without the flag.
 */
#define VG_DER_INT_SIGNED 1u
enum vg_err vg_der_get_integer(struct vg_der *cur, struct vg_der *mag,
    unsigned flags);

/* INTEGER that must be in 0 ... 2^32 - 1 (versions). */
enum vg_err vg_der_get_uint32(struct vg_der *cur, uint32_t *v);

enum vg_err vg_der_get_octet_string(struct vg_der *cur, struct vg_der *str);

/*
 * BIT STRING; *bits gets the contents after the unused-bits octet. With
 * unused NULL only 0 unused bits is accepted (keys, signatures). Otherwise
 * *unused gets the count (0 ... 7, and 0 for an empty string); the unused
 * bits at the end must be zero either way.
 */
enum vg_err vg_der_get_bit_string(struct vg_der *cur, struct vg_der *bits,
    unsigned *unused);

/* OBJECT IDENTIFIER; *oid gets the contents octets (non-empty, minimal
 * sub-identifiers, the last one complete). */
enum vg_err vg_der_get_oid(struct vg_der *cur, struct vg_der *oid);

/* NULL (05 00). */
enum vg_err vg_der_get_null(struct vg_der *cur);

/*
 * An OPTIONAL element with the given tag, typically an EXPLICIT [0] or [1]
 * (VG_DER_CONTEXT(n)): if the next element has that tag it is read,
 * *contents gets its contents and *present = 1; otherwise (another tag, or
 * the end) nothing is read, *contents is empty and *present = 0. A
 * malformed element with that tag is VG_ERR_DECODE.
 */
enum vg_err vg_der_get_optional(struct vg_der *cur, unsigned tag,
    struct vg_der *contents, int *present);

/* 1 if the OIDs (contents octets) are equal, else 0. */
int vg_der_oid_equal(const struct vg_der *a, const struct vg_der *b);

/* ------------------------------------------------------------- writer */

/* Tag and length octets for contents of len bytes. */
size_t vg_der_put_header(uint8_t *out, unsigned tag, size_t len);

/* A whole element: header, then the len bytes at contents (which may
 * overlap out; NULL only with len 0). */
size_t vg_der_put_tlv(uint8_t *out, unsigned tag, const void *contents,
    size_t len);

/* INTEGER from an unsigned big-endian magnitude of len bytes: leading zero
 * bytes are dropped, 0x00 is prepended when the top bit is set, and an
 * empty or all-zero magnitude encodes 0 (02 01 00). mag may overlap out. */
size_t vg_der_put_integer(uint8_t *out, const void *mag, size_t len);

/* INTEGER from a small value (versions). */
size_t vg_der_put_uint32(uint8_t *out, uint32_t v);

size_t vg_der_put_octet_string(uint8_t *out, const void *p, size_t len);

/* BIT STRING of whole bytes (0 unused bits). */
size_t vg_der_put_bit_string(uint8_t *out, const void *p, size_t len);

size_t vg_der_put_oid(uint8_t *out, const struct vg_der *oid);

size_t vg_der_put_null(uint8_t *out);

/* SEQUENCE header over contents of len bytes, which the caller writes
 * right after it. */
size_t vg_der_put_sequence(uint8_t *out, size_t len);

/* ------------------------------------------------------ structures */

/*
 * AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }
 * params is the complete encoding of the parameters (e.g. 05 00, or the
 * curve OID with its header), empty (len 0) when they are absent.
 */
struct vg_der_algid {
	struct vg_der oid;
	struct vg_der params;
};

/* Reads an AlgorithmIdentifier at the cursor. */
enum vg_err vg_der_get_algid(struct vg_der *cur, struct vg_der_algid *alg);

/*
 * SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier,
 * subjectPublicKey BIT STRING }. The input must be exactly one SPKI. *key
 * gets the key bits (0 unused bits required): an RSAPublicKey for RSA, the
 * uncompressed point for EC, the raw public key for ML-DSA.
 */
enum vg_err vg_der_parse_spki(const void *in, size_t len,
    struct vg_der_algid *alg, struct vg_der *key);
enum vg_err vg_der_build_spki(uint8_t *out, size_t *outlen,
    const struct vg_der_algid *alg, const void *key, size_t keylen);

/*
 * PrivateKeyInfo / OneAsymmetricKey ::= SEQUENCE { version INTEGER (0 or
 * 1), privateKeyAlgorithm AlgorithmIdentifier, privateKey OCTET STRING,
 * attributes [0] IMPLICIT OPTIONAL, publicKey [1] IMPLICIT BIT STRING
 * OPTIONAL (version 1 only) }. Attributes are skipped (checked to be one
 * well-formed element). pub gets the public key bits when present (else
 * empty). The input must be exactly one structure.
 * The builder writes version 0 with no attributes; pub is ignored.
 */
struct vg_der_pkcs8 {
	uint32_t version;
	struct vg_der_algid alg;
	struct vg_der key;
	struct vg_der pub;
};
enum vg_err vg_der_parse_pkcs8(const void *in, size_t len,
    struct vg_der_pkcs8 *k);
enum vg_err vg_der_build_pkcs8(uint8_t *out, size_t *outlen,
    const struct vg_der_algid *alg, const void *key, size_t keylen);

/*
 * ECParameters ::= CHOICE { namedCurve OID, implicitCurve NULL,
 * specifiedCurve SEQUENCE } (in is the complete encoding, e.g.
 * vg_der_algid.params or CKA_EC_PARAMS). A named curve gives VG_OK, *curve
 * (VG_DER_CURVE_P256 or VG_DER_CURVE_UNKNOWN) and, if oid is not NULL, the
 * OID. Explicit parameters (SEQUENCE) and implicitCurve (NULL) are
 * well-formed but unsupported: VG_ERR_ARG, distinct from VG_ERR_DECODE.
 */
enum vg_der_curve {
	VG_DER_CURVE_UNKNOWN = 0,
	VG_DER_CURVE_P256,
};
enum vg_err vg_der_parse_ec_params(const void *in, size_t len,
    enum vg_der_curve *curve, struct vg_der *oid);
/*
 * CKA_EC_PARAMS [PKCS#11 3.2 §6.3.3]: the choices of ECParameters above
 * and the curveName PrintableString that PKCS#11 adds to them. The names
 * "prime256v1", "secp256r1" and "P-256" give VG_DER_CURVE_P256, any other
 * well-formed PrintableString VG_DER_CURVE_UNKNOWN; otherwise as
 * vg_der_parse_ec_params. Not for X.509 or PKCS #8, which have no names.
 */
enum vg_err vg_der_parse_p11_ec_params(const void *in, size_t len,
    enum vg_der_curve *curve);
/* Writes namedCurve OID. */
enum vg_err vg_der_build_ec_params(uint8_t *out, size_t *outlen,
    const struct vg_der *curve_oid);

/*
 * RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }.
 * Fields are unsigned magnitudes (vg_der_get_integer); negative values are
 * VG_ERR_DECODE. The builder takes magnitudes (leading zeros allowed).
 */
struct vg_der_rsa_pub {
	struct vg_der n, e;
};
enum vg_err vg_der_parse_rsa_public(const void *in, size_t len,
    struct vg_der_rsa_pub *k);
enum vg_err vg_der_build_rsa_public(uint8_t *out, size_t *outlen,
    const struct vg_der_rsa_pub *k);

/*
 * RSAPrivateKey ::= SEQUENCE { version INTEGER, n, e, d, p, q, dp, dq,
 * qinv INTEGER, otherPrimeInfos OPTIONAL }. Only two-prime keys: version 0
 * and no otherPrimeInfos (version 1 is VG_ERR_DECODE). The builder writes
 * version 0.
 */
struct vg_der_rsa_priv {
	struct vg_der n, e, d, p, q, dp, dq, qinv;
};
enum vg_err vg_der_parse_rsa_private(const void *in, size_t len,
    struct vg_der_rsa_priv *k);
enum vg_err vg_der_build_rsa_private(uint8_t *out, size_t *outlen,
    const struct vg_der_rsa_priv *k);

/*
 * ECPrivateKey ::= SEQUENCE { version INTEGER (1), privateKey OCTET
 * STRING, parameters [0] EXPLICIT ECParameters OPTIONAL, publicKey [1]
 * EXPLICIT BIT STRING OPTIONAL }. params is the complete encoding of the
 * ECParameters (checked to be one element; interpret it with
 * vg_der_parse_ec_params), pub the point; both empty when absent. The
 * builder omits an empty params or pub.
 */
struct vg_der_ec_priv {
	struct vg_der priv;
	struct vg_der params;
	struct vg_der pub;
};
enum vg_err vg_der_parse_ec_private(const void *in, size_t len,
    struct vg_der_ec_priv *k);
enum vg_err vg_der_build_ec_private(uint8_t *out, size_t *outlen,
    const struct vg_der_ec_priv *k);

/*
 * ML-DSA-PrivateKey [RFC 9881 §6], the privateKey of an ML-DSA
 * PrivateKeyInfo (crypto/der_mldsa.c):
 *
 *   ML-DSA-PrivateKey ::= CHOICE {
 *       seed [0] IMPLICIT OCTET STRING (SIZE (32)),
 *       expandedKey OCTET STRING (SIZE (2560 | 4032 | 4896)),
 *       both SEQUENCE { seed OCTET STRING (SIZE (32)),
 *                       expandedKey OCTET STRING (SIZE (...)) } }
 *
 * The arm is the one its tag names (80, 04 or 30), never guessed from a
 * length. seed gets the seed xi and sk the expanded key (FIPS 204
 * skEncode), each empty when the arm has none; their lengths are the
 * caller's to check (they depend on the parameter set). The input must be
 * exactly one CHOICE. The builder writes the seed arm when only seed is
 * given, expandedKey when only sk, both when both (VG_ERR_ARG when
 * neither).
 * ML-KEM-PrivateKey [draft-ietf-lamps-kyber-certificates §6] is the same
 * CHOICE with a 64-byte seed d || z and the dk of FIPS 203 (1632, 2400
 * or 3168 bytes): these two functions read and write it as well.
 * CT: as the rest of this file; the seed and key octets are only copied.
 */
struct vg_der_mldsa_priv {
	struct vg_der seed;
	struct vg_der sk;
};
enum vg_err vg_der_parse_mldsa_private(const void *in, size_t len,
    struct vg_der_mldsa_priv *k);
enum vg_err vg_der_build_mldsa_private(uint8_t *out, size_t *outlen,
    const struct vg_der_mldsa_priv *k);

/* ------------------------------------------------------ OIDs (contents) */

extern const struct vg_der vg_oid_rsa_encryption;  /* 1.2.840.113549.1.1.1 */
extern const struct vg_der vg_oid_ec_public_key;   /* 1.2.840.10045.2.1 */
extern const struct vg_der vg_oid_prime256v1;      /* 1.2.840.10045.3.1.7 */
extern const struct vg_der vg_oid_ml_dsa_44;       /* 2.16.840.1.101.3.4.3.17 */
extern const struct vg_der vg_oid_ml_dsa_65;       /* 2.16.840.1.101.3.4.3.18 */
extern const struct vg_der vg_oid_ml_dsa_87;       /* 2.16.840.1.101.3.4.3.19 */
extern const struct vg_der vg_oid_ml_kem_512;      /* 2.16.840.1.101.3.4.4.1 */
extern const struct vg_der vg_oid_ml_kem_768;      /* 2.16.840.1.101.3.4.4.2 */
extern const struct vg_der vg_oid_ml_kem_1024;     /* 2.16.840.1.101.3.4.4.3 */
extern const struct vg_der vg_oid_sha1;            /* 1.3.14.3.2.26 */
extern const struct vg_der vg_oid_sha224;          /* 2.16.840.1.101.3.4.2.4 */
extern const struct vg_der vg_oid_sha256;          /* 2.16.840.1.101.3.4.2.1 */
extern const struct vg_der vg_oid_sha384;          /* 2.16.840.1.101.3.4.2.2 */
extern const struct vg_der vg_oid_sha512;          /* 2.16.840.1.101.3.4.2.3 */
extern const struct vg_der vg_oid_sha512_224;      /* 2.16.840.1.101.3.4.2.5 */
extern const struct vg_der vg_oid_sha512_256;      /* 2.16.840.1.101.3.4.2.6 */
extern const struct vg_der vg_oid_sha3_224;        /* 2.16.840.1.101.3.4.2.7 */
extern const struct vg_der vg_oid_sha3_256;        /* 2.16.840.1.101.3.4.2.8 */
extern const struct vg_der vg_oid_sha3_384;        /* 2.16.840.1.101.3.4.2.9 */
extern const struct vg_der vg_oid_sha3_512;        /* 2.16.840.1.101.3.4.2.10 */
extern const struct vg_der vg_oid_shake128;        /* 2.16.840.1.101.3.4.2.11 */
extern const struct vg_der vg_oid_shake256;        /* 2.16.840.1.101.3.4.2.12 */
extern const struct vg_der vg_oid_x25519;          /* 1.3.101.110 */
extern const struct vg_der vg_oid_x448;            /* 1.3.101.111 */
extern const struct vg_der vg_oid_ed25519;         /* 1.3.101.112 */
extern const struct vg_der vg_oid_ed448;           /* 1.3.101.113 */

/* ------------------------------------------------------ Curve25519/448 names
 * (crypto/der_ecx.c) */

enum vg_der_ecx {
	VG_DER_ECX_NONE = 0,           /* another curve, or none of these */
	VG_DER_ECX_ED25519,
	VG_DER_ECX_X25519,
	VG_DER_ECX_ED448,
	VG_DER_ECX_X448,
};
/* Which curve an AlgorithmIdentifier or namedCurve OID names: the RFC 8410
 * OIDs, and for the 25519 curves also the older GnuPG OIDs and the
 * misspelt ones OpenSC 0.22/0.23 sends; VG_DER_ECX_NONE otherwise. */
enum vg_der_ecx vg_der_ecx_of_oid(const struct vg_der *oid);
/* The RFC 8410 OID of a curve; NULL for VG_DER_ECX_NONE. */
const struct vg_der *vg_der_ecx_oid(enum vg_der_ecx which);
/*
 * CKA_EC_PARAMS of a CKK_EC_EDWARDS or CKK_EC_MONTGOMERY key [PKCS#11 3.2
 * §6.3.5]: a namedCurve OID (as vg_der_ecx_of_oid) or a curveName
 * PrintableString ("edwards25519", "curve25519", "Ed25519", "X25519" and
 * the 448 names), and the malformed "curve25519" of pkcs11-tool 0.23
 * (length byte 11 for 10 bytes, accepted as exactly those 12 bytes). VG_OK with *which (VG_DER_ECX_NONE for any other single
 * well-formed element), VG_ERR_DECODE when the input is not exactly one
 * element.
 */
enum vg_err vg_der_parse_ecx_params(const void *in, size_t len,
    enum vg_der_ecx *which);
/* Writes the RFC 8410 OID of which as CKA_EC_PARAMS; VG_ERR_ARG for
 * VG_DER_ECX_NONE, else as vg_der_build_ec_params. */
enum vg_err vg_der_build_ecx_params(uint8_t *out, size_t *outlen,
    enum vg_der_ecx which);

#endif
