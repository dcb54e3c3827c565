/*
 * pkcs11/: the ABI. Every pointer, length, handle and flag from the caller
 * is checked here before token/ sees it.
 */
#ifndef VG_PKCS11_INT_H
#define VG_PKCS11_INT_H

#include "cryptoki/pkcs11.h"
#include "token/token.h"

/* Marks the C_* entry points that the library exports (the rest of the
 * library is built with -fvisibility=hidden; pkcs11/vgtoken.map agrees). */
#define VG_EXPORT __attribute__((visibility("default")))

struct vg_mech;
struct vg_wrap_ops;

/*
 * A mechanism family's part of the key operations (pkcs11/ops.c calls
 * these; pkcs11/mech_*.c define them). run does the single step that
 * makes the output (sign, encrypt, decrypt) into out, which has room for
 * out_len() bytes, and sets *outlen to the exact length.
 */
struct vg_mech_ops {
	vg_key_loader *load;
	/* Checks the mechanism parameters, sets up s->op_state; NULL if
	 * the mechanism takes none. */
	CK_RV (*init)(struct vg_session *s, const struct vg_mech *row,
	    const CK_MECHANISM *m);
	/* Upper bound (exact for signatures) of the output length. */
	CK_ULONG (*out_len)(const struct vg_session *s, CK_ULONG inlen);
	/* Streaming families take each part; NULL otherwise. */
	CK_RV (*update)(struct vg_session *s, const uint8_t *in, size_t len);
	CK_RV (*run)(struct vg_session *s, const uint8_t *in, size_t len,
	    uint8_t *out, CK_ULONG *outlen);
	/* CKR_OK, CKR_SIGNATURE_INVALID or CKR_SIGNATURE_LEN_RANGE. */
	CK_RV (*verify)(struct vg_session *s, const uint8_t *in, size_t len,
	    const uint8_t *sig, size_t siglen);
	/* C_GenerateKeyPair and C_DeriveKey for the mechanism; templates
	 * and handles are checked pointers. */
	CK_RV (*generate_pair)(struct vg_session *s, const CK_MECHANISM *m,
	    const CK_ATTRIBUTE *pubt, CK_ULONG npub,
	    const CK_ATTRIBUTE *privt, CK_ULONG npriv,
	    CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv);
	CK_RV (*derive)(struct vg_session *s, const CK_MECHANISM *m,
	    CK_OBJECT_HANDLE hbase, const CK_ATTRIBUTE *t, CK_ULONG n,
	    CK_OBJECT_HANDLE *out);
	/* C_WrapKey and C_UnwrapKey; NULL for families that do not wrap. */
	const struct vg_wrap_ops *wrap;
	/* Ciphers whose C_EncryptUpdate / C_DecryptUpdate make output
	 * (pkcs11/crypt.c): part_len is the exact output of an Update of
	 * len bytes (CK_UNAVAILABLE_INFORMATION: a length the mechanism
	 * never takes, answered with CKR_DATA_LEN_RANGE or
	 * CKR_ENCRYPTED_DATA_LEN_RANGE), part runs it into out (room for
	 * part_len bytes) and sets *outlen; an error leaves the family's
	 * state unusable (the caller ends the operation). NULL: Update
	 * gathers the input and makes no output (pkcs11/ops.c). run then
	 * finishes the operation on a copy of the state, so a short
	 * buffer can be retried. */
	CK_ULONG (*part_len)(const struct vg_session *s, CK_ULONG len);
	CK_RV (*part)(struct vg_session *s, const uint8_t *in, size_t len,
	    uint8_t *out, CK_ULONG *outlen);
	/* Key encapsulation (pkcs11/kem.c) with a key made by load:
	 * kem_ct_len is the exact ciphertext length; encapsulate writes
	 * that many bytes to ct and the shared secret to ss; decapsulate
	 * takes a ciphertext of exactly that length. Each sets *sslen
	 * (at most VG_KEM_SS_MAX) and wipes ss on an error. */
	CK_ULONG (*kem_ct_len)(const struct vg_key *k);
	CK_RV (*encapsulate)(const struct vg_key *k, uint8_t *ct, uint8_t *ss,
	    size_t *sslen);
	CK_RV (*decapsulate)(const struct vg_key *k, const uint8_t *ct,
	    size_t ctlen, uint8_t *ss, size_t *sslen);
};

/* The longest shared secret of a key encapsulation mechanism, and the
 * longest ciphertext. */
#define VG_KEM_SS_MAX 32
#define VG_KEM_CT_MAX 1568

/*
 * A family's part of key wrapping (pkcs11/wrap.c calls these with the
 * wrapping key k loaded by the family's loader and checked: class, type,
 * usage, allowed mechanisms, size). The key to be wrapped arrives as
 * bytes: a secret key's value, or a private key's PKCS #8 encoding.
 */
struct vg_wrap_ops {
	/* The mechanism parameter: CKR_OK, CKR_MECHANISM_PARAM_INVALID or
	 * CKR_HOST_MEMORY. The functions below see only checked ones. */
	CK_RV (*params)(const struct vg_mech *row, const CK_MECHANISM *m);
	/* The exact length of len bytes wrapped, in *out; CKR_KEY_SIZE_RANGE
	 * when they cannot be wrapped with this key and mechanism. */
	CK_RV (*wrapped_len)(const struct vg_mech *row, const CK_MECHANISM *m,
	    const struct vg_key *k, size_t len, CK_ULONG *out);
	/* Wraps the len bytes at in into out (wrapped_len bytes of room). */
	CK_RV (*wrap)(const struct vg_mech *row, const CK_MECHANISM *m,
	    struct vg_key *k, const uint8_t *in, size_t len, uint8_t *out);
	/* Unwraps len bytes into out, which has room for len bytes, and sets
	 * *outlen. CKR_WRAPPED_KEY_LEN_RANGE for a length the mechanism
	 * never makes; CKR_WRAPPED_KEY_INVALID, with out wiped, when the
	 * integrity check or the padding fails: one result in constant time,
	 * whatever went wrong. */
	CK_RV (*unwrap)(const struct vg_mech *row, const CK_MECHANISM *m,
	    struct vg_key *k, const uint8_t *in, size_t len, uint8_t *out,
	    size_t *outlen);
};

/* Internal mechanism flags. */
#define VG_MECH_MULTIPART 1u       /* Update calls are allowed */
#define VG_MECH_PSS 2u             /* RSA PSS: takes CK_RSA_PKCS_PSS_PARAMS */
#define VG_MECH_GIVEN_HASH 4u      /* HashML-DSA on a digest the caller
                                      names in the parameters */
#define VG_MECH_V32 8u             /* a number only PKCS#11 3.2 defines:
                                      hidden from older interfaces */
#define VG_MECH_WRAP_PRIVATE 16u   /* wraps private keys too, as PKCS #8
                                      [PKCS#11 3.2 §6.7] */
#define VG_MECH_V30 32u            /* a number PKCS#11 3.0 added: hidden
                                      from the 2.40 table */

/* One row of the mechanism table: what C_GetMechanismInfo reports and which
 * crypto/ operation runs the mechanism. */
struct vg_mech {
	CK_MECHANISM_TYPE type;
	CK_ULONG min_key, max_key;
	CK_FLAGS flags;
	int hash;                  /* enum vg_hash_alg: the digest, or the
	                              input hash of hash-then-sign; else -1 */
	unsigned vflags;           /* VG_MECH_* */
	CK_KEY_TYPE key_type;      /* the key it needs */
	const struct vg_mech_ops *ops; /* key operations; NULL for digests */
};

/* Families of key mechanisms. */
extern const struct vg_mech_ops vg_hmac_ops;
extern const struct vg_mech_ops vg_ecdsa_ops;
extern const struct vg_mech_ops vg_ec_keygen_ops;
extern const struct vg_mech_ops vg_ecdh_ops;
/* Curve25519 (pkcs11/mech_eddsa.c): CKM_EDDSA, and the key pair
 * generation of CKK_EC_EDWARDS and CKK_EC_MONTGOMERY keys. */
extern const struct vg_mech_ops vg_eddsa_ops;
extern const struct vg_mech_ops vg_ecx_keygen_ops;
/* The loader of both key types: the private key (private keys) and the
 * public key, key->bits 256. */
CK_RV vg_ecx_key_load(const struct vg_object *o, struct vg_key *key);
/* For CKM_ECDH1_DERIVE (pkcs11/mech_ec.c) with an X25519 key: the peer's
 * u-coordinate from 32 raw bytes or their DER OCTET STRING (0, else -1);
 * the shared secret of loaded private key k (vg_ecx_key_load) and u into
 * z: CKR_OK, CKR_MECHANISM_PARAM_INVALID when it is all zero (a peer
 * point of small order [RFC 7748 §6.1]). */
int vg_x25519_peer(const void *p, size_t len, uint8_t u[VG_ECX_LEN]);
CK_RV vg_x25519_shared(const struct vg_key *k, const uint8_t u[VG_ECX_LEN],
    uint8_t z[VG_ECX_LEN]);
extern const struct vg_mech_ops vg_rsa_ops;
extern const struct vg_mech_ops vg_rsa_keygen_ops;
extern const struct vg_mech_ops vg_mldsa_ops;
extern const struct vg_mech_ops vg_mldsa_xof_ops;
extern const struct vg_mech_ops vg_mldsa_keygen_ops;
extern const struct vg_mech_ops vg_mlkem_ops;
extern const struct vg_mech_ops vg_mlkem_keygen_ops;
/*
 * The key pair generation both lattice families share
 * (pkcs11/mech_mldsa.c): vg_lattice_pair_start refuses a mechanism
 * parameter, makes the two objects of key type kt from the templates and
 * reads the public template's CKA_PARAMETER_SET into *ckp (the family
 * checks it); vg_lattice_pair_finish gives the public key its value and
 * the private key its value (unless in_place: the family made them in
 * the objects' CKA_VALUE), seed and parameter set, fills in their
 * CKA_PUBLIC_KEY_INFO (vg_key_complete_generated) and adds both to session s, setting *pub and *priv to
 * NULL once taken (on an error the caller still frees them).
 */
struct vg_lattice_pair {
	CK_ULONG ckp;
	const uint8_t *pk, *sk, *seed;
	size_t pklen, sklen, seedlen;
	int in_place; /* pk and sk are the objects' CKA_VALUE already */
};
CK_RV vg_lattice_pair_start(const CK_MECHANISM *m, CK_KEY_TYPE kt,
    CK_MECHANISM_TYPE gen, const CK_ATTRIBUTE *pubt, CK_ULONG npub,
    const CK_ATTRIBUTE *privt, CK_ULONG npriv, struct vg_object **pub,
    struct vg_object **priv, CK_ULONG *ckp);
CK_RV vg_lattice_pair_finish(struct vg_session *s, struct vg_object **pub,
    struct vg_object **priv, const struct vg_lattice_pair *p,
    CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv);
extern const struct vg_mech_ops vg_aes_wrap_ops;
extern const struct vg_mech_ops vg_aes_ops;      /* ECB CBC CTR GCM */
extern const struct vg_mech_ops vg_aes_cmac_ops;
/* CKM_AES_ECB and CKM_AES_CBC_PAD as wrapping mechanisms
 * (pkcs11/mech_keywrap.c), part of vg_aes_ops. */
extern const struct vg_wrap_ops vg_aes_cipher_wrap;
/* The loader of every AES family: the key schedule (struct vg_aes_key)
 * in secure memory; key->bits counts bytes. */
CK_RV vg_aes_key_load(const struct vg_object *o, struct vg_key *key);
extern const struct vg_mech_ops vg_aes_derive_ops;
extern const struct vg_mech_ops vg_hkdf_ops;

/*
 * The key operations [PKCS#11 3.2 §5.9-5.15], shared by sign, verify,
 * encrypt and decrypt (the session is acquired by the caller):
 * vg_op_init checks mechanism, key class, type, usage, allowed mechanisms
 * and size; vg_op_single is C_Sign/C_Encrypt/C_Decrypt; vg_op_update and
 * vg_op_final the multi-part calls; vg_op_verify is C_Verify (single
 * nonzero) or C_VerifyFinal. Output lengths follow [PKCS#11 3.2 §5.2].
 */
CK_RV vg_op_init(struct vg_session *s, enum vg_op op, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE hkey);
CK_RV vg_op_single(struct vg_session *s, enum vg_op op, CK_BYTE_PTR in,
    CK_ULONG inlen, CK_BYTE_PTR out, CK_ULONG_PTR outlen);
CK_RV vg_op_update(struct vg_session *s, enum vg_op op, CK_BYTE_PTR in,
    CK_ULONG inlen);
CK_RV vg_op_final(struct vg_session *s, enum vg_op op, CK_BYTE_PTR out,
    CK_ULONG_PTR outlen);
CK_RV vg_op_verify(struct vg_session *s, CK_BYTE_PTR in, CK_ULONG inlen,
    CK_BYTE_PTR sig, CK_ULONG siglen, int single);

/*
 * Whether key k may run mechanism row: its class one of cls, its type the
 * row's (else CKR_KEY_TYPE_INCONSISTENT), the usage bits use
 * (CKR_KEY_FUNCTION_NOT_PERMITTED), CKA_ALLOWED_MECHANISMS naming the
 * mechanism or its vendor twin (CKR_MECHANISM_INVALID), and a size in
 * the row's range (CKR_KEY_SIZE_RANGE). The key checks of vg_op_init and
 * of key wrapping.
 */
CK_RV vg_key_fits(const struct vg_key *k, const struct vg_mech *row,
    const CK_OBJECT_CLASS cls[2], unsigned use);

/* The table row for a mechanism, or NULL if the token does not offer it. */
const struct vg_mech *vg_mech_find(CK_MECHANISM_TYPE type);

/* Number of rows and row i, in the order C_GetMechanismList reports. */
size_t vg_mech_count(void);
const struct vg_mech *vg_mech_at(size_t i);

/*
 * What a caller sees depends on the interface it came through: callers of
 * C_GetFunctionList and of the 2.40 and 3.0 interfaces were built against
 * headers that cannot name what only 3.2 defines (PyKCS11 1.5 fails on
 * the mechanism list), so their tables list and describe no mechanism,
 * and read back no key type or mechanism value, that only 3.2 defines:
 * their ML-DSA is the vendor identifiers of vgtoken/vgtoken.h. The 3.2
 * table shows both. The operations accept either number from any table.
 * The exported C_GetMechanismList, C_GetMechanismInfo and
 * C_GetAttributeValue are the older interfaces' (a caller that resolves
 * them by name predates C_GetInterface); these are the 3.2 table's.
 */
CK_RV vg_get_mechanism_list_32(CK_SLOT_ID slot, CK_MECHANISM_TYPE_PTR list,
    CK_ULONG_PTR count);
CK_RV vg_get_mechanism_info_32(CK_SLOT_ID slot, CK_MECHANISM_TYPE type,
    CK_MECHANISM_INFO_PTR info);
/* The 3.0 table's: as the 2.40 table's (the exported ones), and the
 * mechanisms 3.0 added (VG_MECH_V30: EdDSA, the Edwards and Montgomery
 * key pairs, ECDSA with SHA-3, HKDF), which 2.40 cannot name. */
CK_RV vg_get_mechanism_list_30(CK_SLOT_ID slot, CK_MECHANISM_TYPE_PTR list,
    CK_ULONG_PTR count);
CK_RV vg_get_mechanism_info_30(CK_SLOT_ID slot, CK_MECHANISM_TYPE type,
    CK_MECHANISM_INFO_PTR info);
CK_RV vg_get_attribute_value_32(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o,
    CK_ATTRIBUTE_PTR t, CK_ULONG n);
/* For an older interface's reader: the values of the n entries of t that
 * C_GetAttributeValue filled, with the key type and mechanisms only 3.2
 * defines turned into their vendor twins (pkcs11/vendor.c). */
void vg_tmpl_legacy_values(CK_ATTRIBUTE *t, CK_ULONG n);

/*
 * The body of an entry point that works in one session: acquires it, runs
 * call with the session as `s`, releases it, traces and returns the
 * result.
 */
#define VG_WITH_SESSION(h, call)                                           \
	do {                                                                \
		struct vg_session *s_ = NULL;                               \
		CK_RV rv_ = vg_session_acquire((h), &s_);                   \
                                                                            \
		if (rv_ == CKR_OK) {                                        \
			struct vg_session *s = s_;                          \
			(void)s;                                            \
			rv_ = (call);                                       \
		}                                                           \
		vg_session_release(s_);                                     \
		VG_TRACE_RV(rv_);                                           \
		return rv_;                                                 \
	} while (0)

/*
 * Vendor aliases (pkcs11/vendor.c): *out is t itself when t names none of
 * CKA_VG_PARAMETER_SET, CKA_VG_SEED (nor, with values set, a CKA_KEY_TYPE
 * of CKK_VG_ML_DSA), else a malloc'd copy of the n entries with the
 * standard identifiers in their place (pValue pointers shared, except the
 * key type's). vg_tmpl_std_end frees the copy, first copying each
 * ulValueLen back to t when output is set (C_GetAttributeValue; an input
 * template is never written); c == t or NULL does nothing.
 * Returns CKR_OK or CKR_HOST_MEMORY.
 */
CK_RV vg_tmpl_std(const CK_ATTRIBUTE *t, CK_ULONG n, int values,
    CK_ATTRIBUTE **out);
/* The vendor mechanism of vgtoken/vgtoken.h for a standard one and the
 * other way round; m itself when it has no twin. */
CK_MECHANISM_TYPE vg_mech_twin(CK_MECHANISM_TYPE m);
void vg_tmpl_std_end(CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE *c,
    int output);

/* Writes a variable-length result the way PKCS#11 asks [PKCS#11 3.2 §5.2]:
 * out NULL: report the length (CKR_OK); *outlen too small:
 * CKR_BUFFER_TOO_SMALL and the length; else copy and set the length. */
CK_RV vg_output(const void *src, CK_ULONG len, CK_BYTE_PTR out,
    CK_ULONG_PTR outlen);

#endif
