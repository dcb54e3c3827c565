/*
 * vgtoken-util: the administration tool. It calls the PKCS#11 entry points
 * compiled into it (libvgp11), so it reaches exactly the tokens the module
 * sees with the same configuration ($VGTOKEN_CONF, else the system file).
 *
 * Conventions: a command returns its exit status (0 done, 1 failed, 2
 * usage error); every failure prints one line on stderr that starts with
 * "vgtoken-util: ". PINs are never printed or logged: they are copied out
 * of argv (which is then overwritten) or read from the terminal without
 * echo, kept in locked memory and wiped after use.
 */
#ifndef VG_UTIL_H
#define VG_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/der.h"
#include "cryptoki/pkcs11.h"

/* Exit statuses. */
#define VG_UTIL_OK 0
#define VG_UTIL_FAIL 1
#define VG_UTIL_USAGE 2

/* Longest PIN accepted on the command line or at the prompt. */
#define VG_UTIL_PIN_MAX 1024
/* Longest CKA_ID (bytes) given with --id or read from a token. */
#define VG_UTIL_ID_MAX 255

/* A PIN and whether it was given (on the command line). */
struct vg_util_pin {
	char *v;                       /* vg_secmem, NUL-terminated, or NULL */
	size_t len;
};

/* The parsed command line. Strings point into argv (PINs excepted). */
struct vg_util_opts {
	const char *label;             /* --label: token or object label */
	const char *token;             /* --token: token label or serial */
	const char *id_hex;            /* --id */
	const char *file;              /* --import, --backup, --restore FILE */
	const char *keytype;           /* --keygen TYPE, --key-type */
	const char *output;            /* -o FILE */
	const char *cls;               /* --class */
	int so;                        /* --so */
	int json;                      /* --json */
	int all;                       /* --all */
	int extractable;               /* --extractable */
	struct vg_util_pin pin, so_pin, old_pin, new_pin;
	const char *passphrase_file;   /* --passphrase-file */
	struct vg_util_pin passphrase; /* of an encrypted key file, once
	                                  read */
};

/* ------------------------------------------------------- util/p11.c */

/* "vgtoken-util: " + the message + newline on stderr. */
void vg_util_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "vgtoken-util: what: explanation (CKR_NAME)". Returns VG_UTIL_FAIL. */
int vg_util_err_rv(const char *what, CK_RV rv);

/* C_Initialize, and a clear message when the database cannot be opened.
 * Returns 0 or -1 (message printed). */
int vg_util_p11_init(void);
void vg_util_p11_fini(void);

/* The slot of the initialised token whose label (or else serial number)
 * is name. Returns 0 or -1 (message printed: none, or several). */
int vg_util_find_token(const char *name, CK_SLOT_ID *slot);

/* Opens a session (rw: read/write) on slot, the slot of the token named
 * token, and, with pin non-NULL, logs in as who. Returns 0 or -1
 * (message printed, nothing left open). */
int vg_util_open(const char *token, CK_SLOT_ID slot, int rw,
    CK_USER_TYPE who, const struct vg_util_pin *pin, CK_SESSION_HANDLE *h);

/* As vg_util_err_rv for a failed login or PIN change by who on token:
 * a locked user PIN comes with the way to unlock it. Returns
 * VG_UTIL_FAIL. */
int vg_util_err_login(const char *what, CK_RV rv, CK_USER_TYPE who,
    const char *token);

/* Copies a PIN out of argv into locked memory and overwrites the argv
 * string. Returns 0 or -1 (too long; message printed). */
int vg_util_pin_from_arg(struct vg_util_pin *pin, char *arg,
    const char *option);

/* Makes sure *pin holds a PIN: if none was given, asks on the terminal
 * (/dev/tty) without echo, twice when confirm is set. option names the
 * command-line option for the message when there is no terminal.
 * Returns 0 or -1 (message printed). */
int vg_util_pin_need(struct vg_util_pin *pin, const char *what,
    const char *option, int confirm);

/* Makes sure o->passphrase holds the passphrase of the encrypted file
 * path: the first line of --passphrase-file, else asked for on the
 * terminal without echo. Never from the command line: it would show in
 * the process list and the shell's history. Returns 0 or -1 (message
 * printed). */
int vg_util_passphrase(struct vg_util_opts *o, const char *path);

/* Wipes and frees a PIN. */
void vg_util_pin_free(struct vg_util_pin *pin);

/* Length of a space-padded PKCS#11 field without its padding. */
size_t vg_util_trimmed(const CK_UTF8CHAR *p, size_t n);

/* Hex of n bytes into out (2n + 1 bytes). */
void vg_util_hex(char *out, const uint8_t *p, size_t n);

/* Parses --id: hex digits, optionally with ':' between bytes. Returns the
 * length (1 ... max) or 0 (message printed). */
size_t vg_util_parse_id(const char *hex, uint8_t *out, size_t max);

/* Reads an attribute of any length into a malloc'd buffer (*len bytes,
 * NUL-terminated for convenience). Returns CKR_OK or the error. */
/* C_GetAttributeValue as a PKCS#11 3.2 client sees it (the tool knows
 * ML-DSA's standard identifiers; the exported function answers as the
 * older interfaces do). */
CK_RV vg_util_get_attrs(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o,
    CK_ATTRIBUTE_PTR t, CK_ULONG n);
CK_RV vg_util_get_attr(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o,
    CK_ATTRIBUTE_TYPE type, uint8_t **value, CK_ULONG *len);

/* Finds the objects that match a template: *out malloc'd, *n of them.
 * Returns CKR_OK or the error. */
CK_RV vg_util_find(CK_SESSION_HANDLE h, CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE **out, CK_ULONG *count);

/* --------------------------------------------------- util/progress.c */

/* Shows "what... |" with a turning bar on stderr, from a short while
 * after the call on, until vg_util_progress_stop(); only when stderr is a
 * terminal. Around a PKCS#11 call that may take seconds. */
void vg_util_progress_start(const char *what);

/* Stops and erases the spinner, if one runs. */
void vg_util_progress_stop(void);

/* 1 if no object of class cls on the session's token has the CKA_ID id;
 * else 0 and a message: "the token has a <what> with ID <hex> already".
 * --import and --keygen refuse an ID in use, since a second key with it
 * makes the ID useless for finding either. */
int vg_util_id_free(CK_SESSION_HANDLE s, CK_OBJECT_CLASS cls,
    const uint8_t *id, size_t id_len, const char *what);

/* ------------------------------------------------- util/token_cmds.c */

int vg_util_init_token(struct vg_util_opts *o);
int vg_util_show_slots(struct vg_util_opts *o);
int vg_util_delete_token(struct vg_util_opts *o);
int vg_util_set_pin(struct vg_util_opts *o);
int vg_util_init_pin(struct vg_util_opts *o);

/* ------------------------------------------------ util/object_cmds.c */

int vg_util_list_objects(struct vg_util_opts *o);
int vg_util_delete_object(struct vg_util_opts *o);

/* ------------------------------------------------------- util/json.c */

/* Prints len bytes at s on stdout as a JSON string: quoted, with quotes,
 * backslashes and control characters escaped, and any byte that is not
 * part of well-formed UTF-8 written as the code point of its value, so
 * that the output is valid JSON whatever the bytes. */
void vg_util_json_str(const void *s, size_t len);

/* ---------------------------------------------------- util/keyfile.c */

/* What a key or certificate file holds, decoded. */
enum vg_util_item_kind {
	VG_UTIL_RSA_KEY,
	VG_UTIL_EC_KEY,
	VG_UTIL_CERT,
	VG_UTIL_ED25519_KEY,           /* ec_d: the private key, ec_point: */
	VG_UTIL_X25519_KEY,            /* the public key, 32 bytes each */
	VG_UTIL_MLDSA_KEY,             /* lat_* below */
	VG_UTIL_MLKEM_KEY,
};

#define VG_UTIL_ID_LEN 20              /* SHA-1 of the public key */

struct vg_util_item {
	enum vg_util_item_kind kind;
	uint8_t *der;                  /* the decoded DER (wiped on free) */
	size_t der_len;
	/* RSA: unsigned big-endian magnitudes, pointers into der. */
	const uint8_t *rsa[8];         /* n e d p q dp dq qinv */
	size_t rsa_len[8];
	/* EC P-256: the scalar (left-padded) and 04 || x || y. */
	uint8_t ec_d[32];
	uint8_t ec_point[65];
	/* ML-DSA and ML-KEM: the parameter set (its name, and its
	 * CKA_PARAMETER_SET), the seed when the file has one (xi, 32
	 * bytes, or d || z, 64; else lat_seed_len 0), the expanded key
	 * (from the file or the seed) and the public key. lat_sk and
	 * lat_pk are malloc'd; lat_sk and lat_seed are wiped on free. */
	const char *lat_name;          /* "ML-DSA-65" */
	CK_ULONG lat_set;
	uint8_t lat_seed[64];
	size_t lat_seed_len;
	uint8_t *lat_sk, *lat_pk;
	size_t lat_sk_len, lat_pk_len;
	/* Certificate: the whole of der. */
	uint8_t id[VG_UTIL_ID_LEN];    /* the default CKA_ID */
};

/* Reads a PEM, DER or PKCS#12 file with at most one private key and at
 * most one certificate (from PKCS#12: the one that goes with the key);
 * an encrypted key or PKCS#12 file is decrypted with o's passphrase.
 * Returns the number of items (1 or 2) in items[], or -1 (message
 * printed). */
int vg_util_read_items(const char *path, struct vg_util_opts *o,
    struct vg_util_item items[2]);

/* Wipes and frees what an item holds. */
void vg_util_item_free(struct vg_util_item *it);

/* The subjectPublicKeyInfo inside a DER certificate (a cursor into it).
 * Returns 0 or -1 (not a certificate). */
int vg_util_cert_spki(const uint8_t *der, size_t len, const uint8_t **spki,
    size_t *spki_len);

/* -------------------------------------------------------- util/pbe.c */

/* What an algorithm OID is to the decryption code. */
enum {
	VG_UTIL_ALG_NONE,              /* not known */
	VG_UTIL_ALG_PBES2,
	VG_UTIL_ALG_PBKDF2,
	VG_UTIL_ALG_PBMAC1,
	VG_UTIL_ALG_PRF,               /* hmacWithSHA*: param = the hash */
	VG_UTIL_ALG_CIPHER,            /* AES-CBC: param = key bytes */
	VG_UTIL_ALG_DIGEST,            /* SHA-*: param = the hash */
	VG_UTIL_ALG_LEGACY,            /* known, refused */
};

/* The kind of the algorithm oid, with its name and parameter;
 * VG_UTIL_ALG_NONE (and nothing set) when the tool does not know it. */
int vg_util_alg(const struct vg_der *oid, const char **name, int *param);

/* The dotted form of an OID (its contents octets), truncated to len. */
void vg_util_oid_text(const struct vg_der *oid, char *out, size_t len);

/* "path: <what> with <algorithm>, which this tool does not decrypt: ..."
 * and the openssl command that converts the file: a PKCS#12 re-export
 * when p12 is set, else a PKCS#8 re-encryption. */
void vg_util_err_alg(const char *path, const char *what,
    const struct vg_der *oid, int p12);

/* PBKDF2-params [RFC 8018 A.2], as read from a file. */
struct vg_util_pbkdf2 {
	struct vg_der salt;            /* into the caller's buffer */
	uint32_t iterations;
	uint32_t key_len;              /* 0: not given */
	int hash;                      /* enum vg_hash_alg of the PRF */
};

/* Reads PBKDF2-params (the complete encoding in params). Returns 0, or
 * -1 with a message (malformed, a PRF that is not HMAC-SHA-1/2, more
 * iterations than the tool runs). */
int vg_util_pbkdf2_params(const char *path, const struct vg_der *params,
    struct vg_util_pbkdf2 *k);

/* Decrypts ct (ct_len bytes) under the password-based scheme alg with
 * the passphrase pw: PBES2, PBKDF2 and AES-CBC. what says what is
 * encrypted, for messages ("the key is encrypted"); p12 picks the
 * conversion advice for a refused scheme (vg_util_err_alg). Returns 0
 * with the plaintext in *pt (malloc'd: wipe and free it) and *pt_len;
 * -2, no message, when the padding is wrong (a wrong passphrase or a
 * damaged file); -1 with a message otherwise. */
int vg_util_pbe_decrypt(const char *path, const char *what, int p12,
    const struct vg_der_algid *alg, const uint8_t *ct, size_t ct_len,
    const struct vg_util_pin *pw, uint8_t **pt, size_t *pt_len);

/* ----------------------------------------------------- util/pkcs12.c */

/* 1 if der looks like a PFX (version 3 and a data ContentInfo): the
 * caller then reads it with vg_util_pkcs12_read. */
int vg_util_pkcs12_is(const uint8_t *der, size_t len);

/* Receives each key (an unencrypted PrivateKeyInfo, in a buffer wiped
 * after the call) and each X.509 certificate of a PKCS#12 file. Returns
 * 0, or -1 (message printed) to stop. */
typedef int vg_util_bag_fn(void *ctx, int is_key, const uint8_t *der,
    size_t len);

/* Reads a PFX [RFC 7292]: checks its MAC (HMAC with the PKCS#12 key
 * derivation, or PBMAC1), decrypts its PBES2-encrypted parts, and hands
 * every key and certificate to fn. The passphrase is asked for (o's
 * --passphrase-file or the terminal) only when needed. Returns 0, or -1
 * (message printed). */
int vg_util_pkcs12_read(const char *path, const uint8_t *der, size_t len,
    struct vg_util_opts *o, vg_util_bag_fn *fn, void *ctx);

/* ------------------------------------------------ util/import.c, export.c */

int vg_util_import(struct vg_util_opts *o);
/* --import FILE --key-type aes|generic (util/secret.c). */
int vg_util_import_secret(struct vg_util_opts *o);
int vg_util_export_pubkey(struct vg_util_opts *o);

/* ----------------------------------------------------- util/bkfile.c */

/* The backup file (doc/backup.md): a header of VG_BK_HDR_LEN bytes in
 * clear (magic "VGTOKBAK", version, algorithm numbers, PBKDF2 iteration
 * count, 32-byte salt, 12-byte GCM IV, body length: all big-endian),
 * the body under AES-256-GCM with the header as associated data, and
 * the tag. */
#define VG_BK_HDR_LEN 64
#define VG_BK_TAG_LEN 16
#define VG_BK_VERSION 2            /* written; 1 and 2 are read */
#define VG_BK_VERSION_TEMPLATES 2  /* the first that holds templates */
#define VG_BK_KDF_PBKDF2_SHA256 1
#define VG_BK_AEAD_AES256_GCM 1
#define VG_BK_WRAP_KWP 1
/* PBKDF2-HMAC-SHA-256 iterations a backup is written with (OWASP's
 * 2023 figure), and the range a restore accepts. */
#define VG_BK_ITERATIONS 600000u
#define VG_BK_ITER_MIN 10000u
#define VG_BK_ITER_MAX 100000000u
/* Attributes per object, and the longest wrapped key, in a backup. */
#define VG_BK_MAX_ATTRS 48
#define VG_BK_WRAPPED_MAX 16384u
/* Entries of a template (CKA_WRAP_TEMPLATE ...), and the longest value
 * of one entry. */
#define VG_BK_TMPL_MAX 32
#define VG_BK_TMPL_VALUE_MAX 4096u
/* The largest backup file read. */
#define VG_BK_FILE_MAX (256u << 20)

/* A growing buffer; its memory is wiped when it grows or is freed. oom
 * is set (and nothing more is added) when memory runs out. */
struct vg_bk_buf {
	uint8_t *p;
	size_t len, cap;
	int oom;
};
void vg_bk_put(struct vg_bk_buf *b, const void *p, size_t n);
/* v as a big-endian integer of bytes (1 ... 8) bytes. */
void vg_bk_put_u(struct vg_bk_buf *b, uint64_t v, size_t bytes);
void vg_bk_buf_free(struct vg_bk_buf *b);

/* Where a body is malformed, for the message that refuses it: the first
 * fault's reason (empty while none), the object as far as it was read
 * (vg_bk_describe: class, key type, CKA_ID in hex, label; never a
 * value; empty when not even its class was read), and the attribute and template entry at fault (positions from
 * 1, 0 for none; a type only once its 4 bytes were read). */
struct vg_bk_fault {
	char why[96];
	char obj[160];
	CK_ULONG attr_no, entry_no;
	CK_ATTRIBUTE_TYPE attr_type, entry_type;
	int attr_typed, entry_typed;
};
/* "attribute 3 (0x4000062b), entry 2 (0x11): why" into out. */
void vg_bk_fault_text(const struct vg_bk_fault *f, char *out, size_t cap);

/* A reader over a decrypted body of format version: bad is set, and
 * every later read fails, once a read would pass the end. fault, when
 * not NULL, gets where vg_bk_obj_get found the body malformed. */
struct vg_bk_rd {
	const uint8_t *p;
	size_t len, off;
	int bad;
	unsigned version;
	struct vg_bk_fault *fault;
};
/* n bytes, or NULL. */
const uint8_t *vg_bk_get(struct vg_bk_rd *r, size_t n);
/* A big-endian integer of bytes bytes (0 once bad). */
uint64_t vg_bk_get_u(struct vg_bk_rd *r, size_t bytes);

/* How an attribute is stored: bytes; a CK_BBOOL (1 byte); a CK_ULONG
 * (8 bytes); an array of CK_MECHANISM_TYPE (8 bytes each); an array of
 * attributes, a template (version 2 on; its entries stored as the
 * attributes of an object are, none of them a template). In memory a
 * template is a CK_ATTRIBUTE array whose values are malloc'd one by
 * one. */
enum { VG_BK_BYTES, VG_BK_BOOL, VG_BK_ULONG, VG_BK_MECHS, VG_BK_ATTRS };
/* Object classes, as bits; VG_BK_TMPL marks the attributes that may
 * stand inside a template. */
enum {
	VG_BK_DATA = 1, VG_BK_CERT = 2, VG_BK_PUB = 4, VG_BK_PRIV = 8,
	VG_BK_SECRET = 16, VG_BK_TMPL = 32,
};
struct vg_bk_attr_def {
	CK_ATTRIBUTE_TYPE type;
	uint8_t kind;
	uint8_t classes;               /* VG_BK_* bits that have it */
};
/* The attributes a backup keeps, CKA_CLASS first, then those that are
 * kept only inside templates (classes VG_BK_TMPL alone). */
extern const struct vg_bk_attr_def vg_bk_attrs[];
extern const size_t vg_bk_nattrs;
/* The row of type, or NULL. */
const struct vg_bk_attr_def *vg_bk_attr_def(CK_ATTRIBUTE_TYPE type);
/* VG_BK_* of a class, 0 for the classes a backup does not keep. */
unsigned vg_bk_class_bit(CK_OBJECT_CLASS cls);

/* One object of a backup: its attributes in native form (each pValue
 * malloc'd), and for a private or secret key the wrapped value. */
struct vg_bk_obj {
	CK_ATTRIBUTE a[VG_BK_MAX_ATTRS];
	CK_ULONG n;
	uint8_t *blob;
	size_t blob_len;
};
void vg_bk_obj_free(struct vg_bk_obj *o);
/* The attribute type of o, or NULL. */
const CK_ATTRIBUTE *vg_bk_find(const struct vg_bk_obj *o,
    CK_ATTRIBUTE_TYPE type);
/* "private-key rsa id=.. label=\"..\"" into out. */
void vg_bk_describe(const struct vg_bk_obj *o, char *out, size_t cap);
/* Appends o to a body; reads the next object (0), or -1 when the body
 * is malformed (o is then empty, and r->fault says where): r->version 1
 * has no templates. */
void vg_bk_obj_put(struct vg_bk_buf *b, const struct vg_bk_obj *o);
int vg_bk_obj_get(struct vg_bk_rd *r, struct vg_bk_obj *o);

/* The two keys derived from the passphrase. */
struct vg_bk_keys {
	uint8_t file[32];              /* AES-256-GCM over the body */
	uint8_t wrap[32];              /* AES-KWP on the token */
};
/* PBKDF2-HMAC-SHA-256 over the header's salt and iterations, then
 * HKDF-Expand-SHA-256 with two labels. Returns 0 or -1 (message). */
int vg_bk_derive(const struct vg_util_pin *pw, const uint8_t *hdr,
    struct vg_bk_keys *k);
/* Writes the header into hdr (VG_BK_HDR_LEN bytes). */
void vg_bk_header(uint8_t *hdr, uint32_t iterations, const uint8_t salt[32],
    const uint8_t iv[12], size_t body_len);
/* Checks the header of a file of len bytes read from path: 0, or -1
 * with a message. */
int vg_bk_check_header(const char *path, const uint8_t *file, size_t len);
/* Encrypts the body_len bytes after the header of file in place and
 * appends the tag. Returns 0 or -1. */
int vg_bk_seal(const struct vg_bk_keys *k, uint8_t *file, size_t body_len);
/* Checks the tag of a file of len bytes (header checked) and decrypts
 * its body into body. Returns 0, or -1 (wrong passphrase or changed
 * file; body then zeroed). */
int vg_bk_unseal(const struct vg_bk_keys *k, const uint8_t *file, size_t len,
    uint8_t *body);

/* Makes sure o->passphrase holds the passphrase of a backup: from
 * --passphrase-file, else asked for on the terminal (twice with
 * confirm). Returns 0 or -1 (message printed). */
int vg_util_backup_passphrase(struct vg_util_opts *o, int confirm);

/* Creates the session key that wraps (backup) and unwraps (restore)
 * every key of a backup: AES-256 with value key, a session object,
 * sensitive and not extractable, for CKA_WRAP and CKA_UNWRAP only.
 * Returns C_CreateObject's CK_RV. */
CK_RV vg_util_bk_session_key(CK_SESSION_HANDLE s, const uint8_t key[32],
    CK_OBJECT_HANDLE *h);

/* --backup FILE and --restore FILE (util/backup.c, util/restore.c). */
int vg_util_backup(struct vg_util_opts *o);
int vg_util_restore(struct vg_util_opts *o);

/* ----------------------------------------------------- util/keygen.c */

int vg_util_keygen(struct vg_util_opts *o);

#endif
