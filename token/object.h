/*
 * token/: the in-memory object model and the attribute rules of the
 * specification, independent of storage.
 *
 * An object is a sorted list of attributes (type, bytes). The rules that say
 * which attributes an object of a given class and key type has, which are
 * required, defaulted, read-only, modifiable, sensitive or token-computed,
 * live as data in ONE table (token/attrs.c, built from the attribute tables
 * and footnotes of [PKCS#11 3.2 §4.2 Table "Common footnotes"]). The
 * functions here interpret that table for each operation:
 *
 *   C_CreateObject, C_GenerateKey(Pair), C_DeriveKey, C_UnwrapKey
 *                                          vg_object_from_template
 *   C_SetAttributeValue                    vg_object_apply_set
 *   C_CopyObject                           vg_object_copy
 *   C_GetAttributeValue                    vg_object_get_attrs
 *   C_FindObjects                          vg_object_match
 *
 * Supported classes: CKO_DATA; CKO_CERTIFICATE with CKC_X_509;
 * CKO_PUBLIC_KEY / CKO_PRIVATE_KEY with CKK_RSA, CKK_EC, CKK_ML_DSA;
 * CKO_SECRET_KEY with CKK_GENERIC_SECRET, CKK_HKDF, CKK_AES; CKO_TRUST and
 * NSS's CKO_NSS_TRUST (cryptoki/nss.h).
 *
 * Not done here (the caller's job): login state and object visibility,
 * read-only sessions, CKA_UNIQUE_ID values (the store assigns them), and
 * key-material consistency (RSA CRT values, EC point on the curve, ML-DSA
 * seed vs. value, a private key's CKA_PUBLIC_KEY_INFO vs. its key).
 *
 * Values are stored as the caller gave them: CK_BBOOL as one byte, CK_ULONG
 * (and CK_OBJECT_CLASS, CK_KEY_TYPE, CK_MECHANISM_TYPE ...) in host order,
 * CK_DATE as 8 ASCII digits or empty. Attribute-array attributes
 * (CKA_WRAP_TEMPLATE, CKA_UNWRAP_TEMPLATE, CKA_DERIVE_TEMPLATE) are stored
 * as their vg_attrs_encode() serialisation, so an object holds no pointers
 * into caller memory [PKCS#11 3.2 §4.9.3].
 *
 * Thread safety: none; the caller serialises access to an object.
 * Memory: every value is wiped (vg_wipe) before it is freed.
 */
#ifndef VG_TOKEN_OBJECT_H
#define VG_TOKEN_OBJECT_H

#include <stddef.h>
#include <stdint.h>

#include "cryptoki/pkcs11.h"

/* ------------------------------------------------------------ objects */

/* One attribute; value malloc'd, NULL iff len is 0. */
struct vg_attr {
	CK_ATTRIBUTE_TYPE type;
	CK_ULONG len;
	void *value;
};

struct vg_object {
	CK_OBJECT_HANDLE handle;
	int64_t db_id;                  /* 0 for session objects */
	CK_SESSION_HANDLE session;      /* owning session of a session
	                                 * object, 0 for token objects */
	CK_SLOT_ID slot_id;             /* slot of a session object */
	int keyed;                      /* a session object in the store
	                                 * whose keys the key cache may hold
	                                 * (token/sobj.c); not cloned */
	CK_OBJECT_CLASS cls;            /* mirrors CKA_CLASS (UNAVAILABLE
	                                 * while the object has none) */
	CK_KEY_TYPE key_type;           /* mirrors CKA_KEY_TYPE;
	                                 * CK_UNAVAILABLE_INFORMATION for
	                                 * non-keys */
	size_t n, cap;
	struct vg_attr *attrs;          /* sorted by type, unique */
	void *cache;                    /* decoded key material owned by
	                                 * upper layers */
	void (*cache_free)(void *);     /* called on cache when the object is
	                                 * freed; may be NULL */
};

/* An empty object (cls and key_type CK_UNAVAILABLE_INFORMATION), or NULL
 * when out of memory. */
struct vg_object *vg_object_new(void);

/* Wipes every value, calls cache_free(cache), frees. NULL is accepted. */
void vg_object_free(struct vg_object *o);

/* Deep copy of handle, db_id, session, cls, key_type and the attributes;
 * the copy has no cache. NULL when out of memory. */
struct vg_object *vg_object_clone(const struct vg_object *o);

/* The attribute of type t, or NULL. Valid until the object changes. */
const struct vg_attr *vg_object_attr(const struct vg_object *o,
    CK_ATTRIBUTE_TYPE t);

/*
 * Copies len bytes at v into the attribute t, replacing (and wiping) any
 * previous value. v may be NULL only when len is 0. Setting CKA_CLASS or
 * CKA_KEY_TYPE with a CK_ULONG-sized value updates cls / key_type. No rule
 * is checked: this is the raw setter for the layers that build objects
 * (mechanism output, the store). Returns CKR_OK or CKR_HOST_MEMORY (then
 * the object is unchanged).
 */
CK_RV vg_object_set_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    const void *v, CK_ULONG len);

/*
 * As vg_object_set_attr, but the len (> 0) bytes of the new value are
 * left uninitialised for the caller to write through *buf before anything
 * reads the attribute; *buf stays valid until the attribute or the
 * object changes. For key material made straight into the object rather
 * than made elsewhere, copied and wiped. Not for CKA_CLASS or
 * CKA_KEY_TYPE. Returns CKR_OK, or CKR_HOST_MEMORY (*buf NULL, the
 * object unchanged).
 */
CK_RV vg_object_alloc_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    CK_ULONG len, uint8_t **buf);

/*
 * As vg_object_set_attr, but value (len > 0 bytes from malloc) becomes
 * the attribute itself instead of being copied: the object owns it from
 * the call on, and on CKR_HOST_MEMORY it has been wiped and freed. Not for
 * CKA_CLASS or CKA_KEY_TYPE.
 */
CK_RV vg_object_take_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    void *value, CK_ULONG len);

/* Removes (and wipes) the attribute t if present. */
void vg_object_del_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t);

/* The CK_BBOOL attribute t, or dflt when absent or not one byte. */
CK_BBOOL vg_object_bool(const struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    CK_BBOOL dflt);

/* The CK_ULONG attribute t, or dflt when absent or not CK_ULONG-sized. */
CK_ULONG vg_object_ulong(const struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    CK_ULONG dflt);

/*
 * Serialisation of an attribute list, for the database. The format is
 * stable and versioned, independent of the host's CK_ULONG size and byte
 * order:
 *
 *   "VGA" 0x01                      magic and version
 *   u32 count                       big-endian
 *   count x { u64 type, u32 len, len bytes }     big-endian, types
 *                                   strictly increasing
 *
 * CK_ULONG-valued attributes are written as 8 big-endian bytes and
 * mechanism arrays as 8 big-endian bytes per element; everything else as
 * it is. a must be sorted by type with unique types (as in struct
 * vg_object); n may be 0. *out is malloc'd and may hold secret values: the
 * caller wipes it (vg_wipe) before freeing it.
 * Returns CKR_OK, CKR_HOST_MEMORY, or CKR_GENERAL_ERROR when a is not
 * sorted and unique or a CK_ULONG-valued attribute has the wrong length.
 */
CK_RV vg_attrs_encode(const struct vg_attr *a, size_t n, uint8_t **out,
    size_t *outlen);

/* n bytes (at most 8) of v big-endian at p, and back: the byte order of
 * everything the store writes. */
void vg_put_be(uint8_t *p, uint64_t v, unsigned n);
uint64_t vg_get_be(const uint8_t *p, unsigned n);

/*
 * Parses a serialisation made by vg_attrs_encode and merges its attributes
 * into o (each replaces an attribute of the same type; cls and key_type
 * follow CKA_CLASS and CKA_KEY_TYPE). Safe on arbitrary bytes: any
 * malformation (bad magic or version, truncation, trailing bytes, types not
 * strictly increasing, a CK_BBOOL, CK_ULONG, date or mechanism array of the
 * wrong length, an attribute array that does not itself parse) gives
 * CKR_DEVICE_ERROR. All or nothing: on any error o is unchanged.
 * Returns CKR_OK, CKR_DEVICE_ERROR or CKR_HOST_MEMORY.
 */
CK_RV vg_attrs_decode(const uint8_t *in, size_t len, struct vg_object *o);

/* ------------------------------------------------------------ rules */

/* Kind of an attribute's value. */
enum vg_attr_kind {
	VG_K_BYTES = 0, /* byte array, big integer, RFC2279 string */
	VG_K_BOOL,      /* CK_BBOOL: one byte, CK_FALSE or CK_TRUE */
	VG_K_ULONG,     /* CK_ULONG and its aliases */
	VG_K_DATE,      /* CK_DATE ("YYYYMMDD") or empty */
	VG_K_MECHS,     /* array of CK_MECHANISM_TYPE */
	VG_K_ATTRS,     /* array of CK_ATTRIBUTE (CKF_ARRAY_ATTRIBUTE) */
};

/*
 * Rule flags. The numbers are the footnotes of [PKCS#11 3.2 §4.2, table
 * "Common footnotes for object attribute tables"].
 */
#define VG_A_REQ_CREATE   0x0001u /* 1: required by C_CreateObject */
#define VG_A_NO_CREATE    0x0002u /* 2: not given to C_CreateObject */
#define VG_A_REQ_GEN      0x0004u /* 3: required by C_GenerateKey(Pair) */
#define VG_A_NO_GEN       0x0008u /* 4: not given to C_GenerateKey(Pair)
                                   * (nor C_DeriveKey: the mechanism
                                   * contributes it) */
#define VG_A_REQ_UNWRAP   0x0010u /* 5: required by C_UnwrapKey */
#define VG_A_NO_UNWRAP    0x0020u /* 6: not given to C_UnwrapKey */
#define VG_A_SENSITIVE    0x0040u /* 7: hidden when CKA_SENSITIVE is true
                                   * or CKA_EXTRACTABLE false */
#define VG_A_MODIFY       0x0080u /* 8: C_SetAttributeValue, C_CopyObject */
#define VG_A_SO_TRUE      0x0100u /* 10: only the SO may set CK_TRUE */
#define VG_A_ONLY_TRUE    0x0200u /* 11: may change only FALSE -> TRUE */
#define VG_A_ONLY_FALSE   0x0400u /* 12: may change only TRUE -> FALSE */
#define VG_A_COPY         0x0800u /* changeable in C_CopyObject only
                                   * [§4.1.3] */
#define VG_A_COMPUTED     0x1000u /* computed by the token when absent */
#define VG_A_CLEARABLE    0x2000u /* C_SetAttributeValue may set it to
                                   * empty (secret key CKA_CHECK_VALUE,
                                   * [§4.12]) */
#define VG_A_REQ_ANY      0x4000u /* C_CreateObject needs at least one of
                                   * the attributes so flagged (ML-DSA
                                   * private CKA_SEED / CKA_VALUE) */
/* Set by the token only: read-only at every operation (2, 4, 6). */
#define VG_A_TOKEN (VG_A_NO_CREATE | VG_A_NO_GEN | VG_A_NO_UNWRAP)

/* Value checks beyond the kind (token/attrs.c). */
enum vg_attr_check {
	VG_C_NONE = 0,
	VG_C_BIGINT,    /* non-empty */
	VG_C_DER,       /* exactly one DER element */
	VG_C_AES_LEN,   /* a key of 16, 24 or 32 bytes (value or length) */
	VG_C_CERT_CAT,  /* CK_CERTIFICATE_CATEGORY_* */
	VG_C_MIDP,      /* CK_SECURITY_DOMAIN_* */
	VG_C_PARAM_SET, /* CKP_ML_DSA_44/65/87 */
	VG_C_POSITIVE,  /* a CK_ULONG > 0 */
	VG_C_SHA1_LEN,  /* 20 bytes */
	VG_C_MD5_LEN,   /* 16 bytes */
	VG_C_NSS_TRUST, /* a CKT_NSS_* value (cryptoki/nss.h) */
	VG_C_TRUST,     /* a CKT_TRUST_* value (3.2 trust objects) */
	VG_C_HASH_MECH, /* a digest mechanism vg_attr_hash_len knows */
};

/* Default of an attribute absent from the template. */
enum vg_attr_dflt {
	VG_D_NONE = 0,  /* none: absent unless given or computed */
	VG_D_FALSE,
	VG_D_TRUE,
	VG_D_EMPTY,     /* empty value */
	VG_D_ULONG,     /* the CK_ULONG dval */
	VG_D_UNWRAP_TRUE, /* FALSE, but TRUE for unwrapped keys
	                   * [§5.19.4 C_UnwrapKey: CKA_EXTRACTABLE] */
};

/* One row of the rule table: attribute type in the scopes it applies to. */
struct vg_attr_rule {
	uint32_t scope;         /* VG_S_* bits (token/attrs.c) */
	CK_ATTRIBUTE_TYPE type;
	uint8_t kind;           /* enum vg_attr_kind */
	uint8_t check;          /* enum vg_attr_check */
	uint8_t dflt;           /* enum vg_attr_dflt */
	uint16_t flags;         /* VG_A_* */
	CK_ULONG dval;          /* for VG_D_ULONG */
};

/*
 * The rule for attribute t on objects of class cls and subtype sub (the key
 * type for keys, the certificate type for certificates, ignored for data
 * objects), or NULL when such objects do not have that attribute or the
 * class is not supported.
 */
const struct vg_attr_rule *vg_attr_rule_find(CK_OBJECT_CLASS cls,
    CK_ULONG sub, CK_ATTRIBUTE_TYPE t);

/* The rule for t on object o (class, key or certificate type from o). */
const struct vg_attr_rule *vg_object_rule(const struct vg_object *o,
    CK_ATTRIBUTE_TYPE t);

/* Kind of the value of attribute type t (VG_K_BYTES for unknown types).
 * Independent of the class: the specification gives each type one data
 * type. */
enum vg_attr_kind vg_attr_kind(CK_ATTRIBUTE_TYPE t);

/*
 * 1 if attribute t of a (cls, kt) object must be encrypted at rest: every
 * attribute that can be sensitive (footnote 7): the private parts of
 * private keys, CKA_SEED, and CKA_VALUE of secret keys. For a private or
 * secret key of a type not in the table every attribute counts as secret.
 */
int vg_attr_is_secret(CK_OBJECT_CLASS cls, CK_KEY_TYPE kt,
    CK_ATTRIBUTE_TYPE t);

/* 1 if CKA_PRIVATE is true (absent: true for private and secret keys,
 * false for other classes). */
int vg_object_is_private(const struct vg_object *o);

/* 1 if C_GetAttributeValue must not reveal attribute t of o: t can be
 * sensitive and o has CKA_SENSITIVE true or CKA_EXTRACTABLE false (absent
 * counts as sensitive / not extractable). */
int vg_object_attr_hidden(const struct vg_object *o, CK_ATTRIBUTE_TYPE t);

/* ------------------------------------------------------------ operations */

enum vg_obj_op {
	VG_OBJ_CREATE,
	VG_OBJ_GENERATE,
	VG_OBJ_DERIVE,
	VG_OBJ_UNWRAP,
	VG_OBJ_COPY,
};

/* Flags of the _ex variants. */
#define VG_OBJ_F_SO 0x1u /* the caller is the SO: CKA_TRUSTED may be set
                          * to CK_TRUE (footnote 10) */

/*
 * Builds a new object from a caller template for op (VG_OBJ_CREATE,
 * _GENERATE, _DERIVE or _UNWRAP) [PKCS#11 3.2 §4.1.1]:
 *
 *  - The class is CKA_CLASS of the template, or cls_hint when not
 *    CK_UNAVAILABLE_INFORMATION (a template value that differs from the
 *    hint: CKR_TEMPLATE_INCONSISTENT [§5.19.1, §5.19.2]); the key type
 *    (keys) likewise from CKA_KEY_TYPE or kt_hint; the certificate type
 *    from CKA_CERTIFICATE_TYPE. None: CKR_TEMPLATE_INCOMPLETE; a class or
 *    type not supported: CKR_ATTRIBUTE_VALUE_INVALID. GENERATE makes
 *    public, private and secret keys, DERIVE and UNWRAP private and secret
 *    keys; another class for these: CKR_TEMPLATE_INCONSISTENT.
 *  - Every template entry is checked in order: a type the object does not
 *    have: CKR_ATTRIBUTE_TYPE_INVALID; a malformed value (a CK_BBOOL not
 *    one byte or not 0/1, a CK_ULONG of the wrong length, a bad date, a
 *    NULL pValue with a length, an AES key not 16/24/32 bytes ...):
 *    CKR_ATTRIBUTE_VALUE_INVALID; an attribute the op may not set (token-
 *    computed ones such as CKA_LOCAL or CKA_UNIQUE_ID, footnotes 2/4/6, the
 *    key material a generating mechanism contributes, CKA_TRUSTED true
 *    unless VG_OBJ_F_SO): CKR_ATTRIBUTE_READ_ONLY; the same type twice with
 *    different values: CKR_TEMPLATE_INCONSISTENT (twice with the same
 *    value is taken once); an attribute-array value containing another
 *    attribute array: CKR_TEMPLATE_INCONSISTENT (no recursion, §4.9.3).
 *  - Then missing required attributes (footnotes 1, 3, 5):
 *    CKR_TEMPLATE_INCOMPLETE; defaults are filled; the token-set ones are
 *    set: CKA_LOCAL (true only for GENERATE), CKA_KEY_GEN_MECHANISM (mech
 *    for GENERATE, else CK_UNAVAILABLE_INFORMATION), and for private and
 *    secret keys CKA_ALWAYS_SENSITIVE = CKA_SENSITIVE and
 *    CKA_NEVER_EXTRACTABLE = !CKA_EXTRACTABLE for GENERATE and DERIVE, both
 *    false for CREATE and UNWRAP [§5.7.1, §5.19.4]. For DERIVE call
 *    vg_object_derived_from() afterwards to apply the base key.
 *  - Cross-attribute rules: CKA_ALWAYS_AUTHENTICATE true needs CKA_PRIVATE
 *    true [§4.11]: CKR_TEMPLATE_INCONSISTENT.
 *  - CREATE only: vg_object_complete() runs (computed attributes, X.509
 *    fields from CKA_VALUE). For the other ops the caller adds the key
 *    material the mechanism produces with vg_object_set_attr() and then
 *    calls vg_object_complete().
 *
 * mech is the generating mechanism (GENERATE) and is otherwise ignored.
 * CKA_UNIQUE_ID is not set: the store assigns it. On CKR_OK *out is a new
 * object (handle, db_id and session 0); on error *out is NULL.
 */
CK_RV vg_object_from_template(enum vg_obj_op op, CK_OBJECT_CLASS cls_hint,
    CK_KEY_TYPE kt_hint, CK_MECHANISM_TYPE mech, const CK_ATTRIBUTE *t,
    CK_ULONG n, struct vg_object **out);
CK_RV vg_object_from_template_ex(enum vg_obj_op op, CK_OBJECT_CLASS cls_hint,
    CK_KEY_TYPE kt_hint, CK_MECHANISM_TYPE mech, unsigned flags,
    const CK_ATTRIBUTE *t, CK_ULONG n, struct vg_object **out);

/*
 * Computes what follows from an object's values and checks it is whole:
 * secret keys: CKA_VALUE_LEN (from CKA_VALUE; a given one that differs:
 * CKR_TEMPLATE_INCONSISTENT) and CKA_CHECK_VALUE (generic secret: SHA-1
 * [§6.8.2]; AES: ECB of a zero block [§6.10.2]; a non-empty given value
 * that differs: CKR_ATTRIBUTE_VALUE_INVALID; an empty given value stays
 * empty [§4.12]); RSA public keys: CKA_MODULUS_BITS; X.509 certificates:
 * CKA_SUBJECT, CKA_ISSUER, CKA_SERIAL_NUMBER, CKA_START_DATE,
 * CKA_END_DATE, CKA_PUBLIC_KEY_INFO and CKA_CHECK_VALUE from CKA_VALUE
 * when absent or empty (a CKA_CHECK_VALUE given non-empty must match;
 * malformed certificate: CKR_ATTRIBUTE_VALUE_INVALID). Then every
 * attribute required at creation must be present: CKR_TEMPLATE_INCOMPLETE.
 * Called by vg_object_from_template for CREATE; call it after adding the
 * key material for the other ops. Returns CKR_OK, the errors above or
 * CKR_HOST_MEMORY.
 */
CK_RV vg_object_complete(struct vg_object *o);

/*
 * For C_DeriveKey: if the base key has CKA_ALWAYS_SENSITIVE false
 * (base_always_sensitive 0; a key without the attribute counts as false),
 * so has the derived key; the same for CKA_NEVER_EXTRACTABLE [§6.3.15 and
 * every key derivation mechanism]. Call after
 * vg_object_from_template(VG_OBJ_DERIVE, ...).
 */
CK_RV vg_object_derived_from(struct vg_object *o, int base_always_sensitive,
    int base_never_extractable);

/*
 * C_SetAttributeValue [§4.1.2, §5.7.6]. The whole template is validated
 * first and applied all or nothing. CKA_MODIFIABLE false, or a trusted
 * certificate (§4.7): CKR_ACTION_PROHIBITED. A type the object does not
 * have: CKR_ATTRIBUTE_TYPE_INVALID; a malformed value:
 * CKR_ATTRIBUTE_VALUE_INVALID; an attribute that is not modifiable, or a
 * one-way change in the wrong direction (CKA_SENSITIVE and
 * CKA_WRAP_WITH_TRUSTED only FALSE -> TRUE; CKA_EXTRACTABLE and
 * CKA_COPYABLE only TRUE -> FALSE): CKR_ATTRIBUTE_READ_ONLY; the same type
 * twice with different values, or a result that breaks a cross-attribute
 * rule: CKR_TEMPLATE_INCONSISTENT. CKA_ALWAYS_SENSITIVE and
 * CKA_NEVER_EXTRACTABLE keep their values. The cache is kept (no key
 * material is modifiable). A private key's CKA_PUBLIC_KEY_INFO is
 * modifiable (footnote 8): the caller must check it against the key
 * [§4.11] before calling.
 */
CK_RV vg_object_apply_set(struct vg_object *o, const CK_ATTRIBUTE *t,
    CK_ULONG n);
CK_RV vg_object_apply_set_ex(struct vg_object *o, unsigned flags,
    const CK_ATTRIBUTE *t, CK_ULONG n);

/*
 * C_CopyObject [§4.1.3, §5.7.2]: CKA_COPYABLE false, or CKA_TRUSTED true
 * without VG_OBJ_F_SO (only the SO makes trusted objects, footnote 10):
 * CKR_ACTION_PROHIBITED. Otherwise a clone of src (no cache; handle, db_id
 * and session 0; CKA_UNIQUE_ID removed for the store to assign a new one)
 * with the template applied under the set rules, where CKA_TOKEN,
 * CKA_PRIVATE, CKA_MODIFIABLE and CKA_DESTROYABLE may also change and the
 * source's CKA_MODIFIABLE does not matter. CKA_LOCAL,
 * CKA_KEY_GEN_MECHANISM, CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE
 * are copied unchanged. An empty template (t NULL, n 0) is valid. On error
 * *out is NULL. vg_object_copy is vg_object_copy_ex with flags 0.
 */
CK_RV vg_object_copy(const struct vg_object *src, const CK_ATTRIBUTE *t,
    CK_ULONG n, struct vg_object **out);
CK_RV vg_object_copy_ex(const struct vg_object *src, unsigned flags,
    const CK_ATTRIBUTE *t, CK_ULONG n, struct vg_object **out);

/*
 * C_GetAttributeValue [§5.7.5]: for each entry in order: a hidden
 * attribute (vg_object_attr_hidden): ulValueLen =
 * CK_UNAVAILABLE_INFORMATION, CKR_ATTRIBUTE_SENSITIVE; an attribute the
 * object does not have: CK_UNAVAILABLE_INFORMATION,
 * CKR_ATTRIBUTE_TYPE_INVALID; pValue NULL: ulValueLen = the length;
 * enough room: the value is copied and ulValueLen set; too little room:
 * CK_UNAVAILABLE_INFORMATION, CKR_BUFFER_TOO_SMALL. Every entry is
 * processed. Attribute arrays (CKA_WRAP_TEMPLATE, CKA_UNWRAP_TEMPLATE,
 * CKA_DERIVE_TEMPLATE) follow §5.7.5 and §4.9.3: with pValue NULL the
 * length is count * sizeof(CK_ATTRIBUTE); otherwise ulValueLen must hold
 * every element (else CKR_BUFFER_TOO_SMALL), inner types are written, and
 * each inner entry is filled by the same rules (pValue NULL: length;
 * too small: CK_UNAVAILABLE_INFORMATION and CKR_BUFFER_TOO_SMALL). When the
 * inner types the caller wrote name the stored attributes (any order, or
 * fewer of them, §4.9.3) entries are filled by type, otherwise in stored
 * order. CKA_ALLOWED_MECHANISMS is a plain array of CK_MECHANISM_TYPE.
 * Returns CKR_OK, or of the per-entry errors CKR_ATTRIBUTE_SENSITIVE
 * before CKR_ATTRIBUTE_TYPE_INVALID before CKR_BUFFER_TOO_SMALL, or
 * CKR_HOST_MEMORY.
 */
CK_RV vg_object_get_attrs(const struct vg_object *o, CK_ATTRIBUTE *t,
    CK_ULONG n);

/*
 * C_FindObjects matching [§5.7.7]: 1 if every template attribute is
 * present in o with the same length and bytes (attribute arrays compared as
 * sets of attributes), else 0. n 0 matches every object. A hidden
 * attribute (vg_object_attr_hidden) never matches, so a search cannot
 * probe a sensitive value.
 */
int vg_object_match(const struct vg_object *o, const CK_ATTRIBUTE *t,
    CK_ULONG n);

/* ------------------------------------------------------------ helpers */

/* The last entry of type type in t, or NULL. */
const CK_ATTRIBUTE *vg_template_find(const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_ATTRIBUTE_TYPE type);

/*
 * The attribute array attribute t of o (CKA_WRAP_TEMPLATE, ...) as a new
 * object holding the inner attributes (empty when o has none). For wrap
 * template matching and unwrap/derive template merging. Returns CKR_OK,
 * CKR_HOST_MEMORY or CKR_DEVICE_ERROR (stored value malformed).
 */
CK_RV vg_object_nested(const struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    struct vg_object **out);

/*
 * *t gets a malloc'd CK_ATTRIBUTE array describing o's attributes (pValue
 * points into o: valid while o is unchanged) and *n the count: a template
 * for vg_object_match or vg_object_from_template, e.g. from a
 * vg_object_nested() result. Attribute arrays are left out (their stored
 * form is not a CK_ATTRIBUTE array). Returns CKR_OK or CKR_HOST_MEMORY.
 * Free *t with free() (it may be NULL when *n is 0).
 */
CK_RV vg_object_as_template(const struct vg_object *o, CK_ATTRIBUTE **t,
    CK_ULONG *n);

/*
 * The template of a key made under another key's attribute template:
 * CKA_DERIVE_TEMPLATE of a C_DeriveKey base key [PKCS#11 3.2 §5.18.5],
 * CKA_UNWRAP_TEMPLATE of a C_UnwrapKey unwrapping key [§5.18.4], whose
 * attributes "will be added to" those of the new key. *out gets the
 * attributes of nested (a vg_object_nested() result) followed by the n
 * entries of t, pointing into nested and t (valid while both are
 * unchanged), and *nout their count. vg_object_from_template takes them
 * as one template: an attribute the caller leaves out has the nested
 * template's value, a caller's entry with the same value is taken once,
 * and one with another value is "an attribute conflict":
 * CKR_TEMPLATE_INCONSISTENT, no object made. Returns CKR_OK or
 * CKR_HOST_MEMORY. Free *out with free() (NULL when *nout is 0).
 */
CK_RV vg_template_under(const struct vg_object *nested,
    const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE **out, CK_ULONG *nout);

/* The output length of digest mechanism m (CKM_SHA_1, CKM_SHA224 ...
 * CKM_SHA512, CKM_SHA3_224 ... CKM_SHA3_512), 0 for any other. */
size_t vg_attr_hash_len(CK_MECHANISM_TYPE m);

/* ------------------------------------------------- rule-table internals */

/* Shared by token/attrs*.c; not for other layers. */

/* The scope bits of objects of class cls and subtype sub (as for
 * vg_attr_rule_find), 0 when not supported. */
uint32_t vg_attr_scopes(CK_OBJECT_CLASS cls, CK_ULONG sub);
/* The scope bits of o (0: class or type not supported). */
uint32_t vg_object_scopes(const struct vg_object *o);
/* The rule for t in scopes, or NULL. */
const struct vg_attr_rule *vg_attr_rule_in(uint32_t scopes,
    CK_ATTRIBUTE_TYPE t);
/* The whole table, *n rows. */
const struct vg_attr_rule *vg_attr_rules(size_t *n);
/*
 * Checks a caller's value for rule r: CKR_OK, CKR_ATTRIBUTE_VALUE_INVALID,
 * or CKR_TEMPLATE_INCONSISTENT (an attribute array inside an attribute
 * array, or one holding a type twice with different values).
 */
CK_RV vg_attr_check_value(const struct vg_attr_rule *r, const CK_ATTRIBUTE *a);
/*
 * The stored form of a caller's attribute-array value (kind VG_K_ATTRS):
 * its vg_attrs_encode serialisation, malloc'd. Checks the inner entries
 * as vg_attr_check_value does. Returns CKR_OK, CKR_HOST_MEMORY or the
 * errors of vg_attr_check_value.
 */
CK_RV vg_attr_nested_encode(const CK_ATTRIBUTE *a, uint8_t **out,
    size_t *outlen);
/* The value of a caller's attribute in stored form: for attribute arrays
 * a malloc'd serialisation in *buf (free with free()), else pValue;
 * *v and *len describe it. */
CK_RV vg_attr_stored_form(const CK_ATTRIBUTE *a, uint8_t **buf,
    const void **v, CK_ULONG *len);
/* Sets rule r's default on o for op (nothing for VG_D_NONE). CKR_OK or
 * CKR_HOST_MEMORY. */
CK_RV vg_attr_apply_default(struct vg_object *o, const struct vg_attr_rule *r,
    enum vg_obj_op op);
/* Cross-attribute rules every object keeps (CKA_ALWAYS_AUTHENTICATE needs
 * CKA_PRIVATE; a certificate with a URL has the key hashes; a trust
 * object's CKA_HASH_OF_CERTIFICATE has its algorithm's length):
 * CKR_OK or CKR_TEMPLATE_INCONSISTENT. */
CK_RV vg_object_check_consistency(const struct vg_object *o);

#endif
