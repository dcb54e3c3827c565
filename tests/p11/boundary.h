/*
 * The boundary test (tests/p11/test_boundary.c): every C_ function called
 * with one argument broken at a time, as listed in the table
 * tests/p11/boundary_rows.h. This header holds the generic call (struct
 * call: one field per kind of argument), the names of the arguments and
 * of the ways to break them, and the list of the 104 entry points with
 * the fields each one takes.
 */
#ifndef VG_TESTS_P11_BOUNDARY_H
#define VG_TESTS_P11_BOUNDARY_H

#include "cryptoki/pkcs11.h"

#define CALL_ATTRS 4

/* The arguments of any C_ function, by kind. Each entry point takes the
 * fields it needs (see FNS below); a row breaks one of them. */
struct call {
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE obj;          /* object, key, base or wrapping key */
	CK_OBJECT_HANDLE obj2;         /* key to wrap, second key */
	CK_MECHANISM mech;
	CK_MECHANISM_PTR pmech;
	CK_ULONG user;                 /* user type, validation flags type */
	CK_FLAGS flags;
	CK_BYTE_PTR in;                /* data, part, PIN, seed, old PIN */
	CK_ULONG inlen;
	CK_BYTE_PTR in2;               /* signature, new PIN, label, name */
	CK_ULONG in2len;
	CK_BYTE_PTR out;               /* output buffer or array */
	CK_ULONG outlen;               /* its length: *poutlen, or by value */
	CK_ULONG_PTR poutlen;
	CK_ATTRIBUTE_PTR tmpl;
	CK_ULONG count;
	CK_ATTRIBUTE_PTR tmpl2;
	CK_ULONG count2;
	CK_OBJECT_HANDLE_PTR ph, ph2;
	CK_VOID_PTR info;              /* CK_INFO, CK_SLOT_INFO, ... */
	CK_VOID_PTR reserved;
	CK_VOID_PTR param;             /* message-based parameter */
	CK_ULONG paramlen;
	CK_UTF8CHAR_PTR name;
	CK_VERSION_PTR version;
	CK_INTERFACE_PTR_PTR ppiface;
	CK_FUNCTION_LIST_PTR_PTR pplist;
	CK_C_INITIALIZE_ARGS_PTR init;

	/* What a correct call writes: the exact output length (or count),
	 * CK_UNAVAILABLE_INFORMATION when not checked. */
	CK_ULONG need;
	int attr_out;                  /* the output is attrs[0]'s value */
	CK_BYTE_PTR heap;              /* the output buffer, exactly sized */

	/* Storage the fields point into. */
	CK_ATTRIBUTE attrs[CALL_ATTRS], attrs2[CALL_ATTRS];
	CK_OBJECT_HANDLE hout, hout2, hfound[8];
	CK_ULONG ulout;
	union {
		CK_INFO info;
		CK_SLOT_INFO slot;
		CK_TOKEN_INFO token;
		CK_SESSION_INFO session;
		CK_MECHANISM_INFO mech;
		CK_ASYNC_DATA async;
		CK_SLOT_ID id;
		CK_FLAGS flags;
	} infobuf;
	CK_INTERFACE_PTR iface;
	CK_FUNCTION_LIST_PTR list;
	CK_VERSION ver;
	CK_C_INITIALIZE_ARGS initargs;
	CK_BYTE scratch[64];           /* small values templates point at */
};

/* The argument a row breaks. */
enum arg {
	A_NONE,                        /* the correct call */
	A_SLOT, A_SESSION, A_OBJECT, A_OBJECT2,
	A_MECH, A_MECHTYPE, A_PARAM, A_PARAMLEN,
	A_USER, A_FLAGS,
	A_IN, A_INLEN, A_IN2, A_IN2LEN,
	A_OUT, A_OUTLEN, A_POUTLEN,
	A_TMPL, A_COUNT, A_TMPL2, A_COUNT2,
	A_ATTRTYPE, A_ATTRVAL, A_ATTRLEN, /* the template's first entry */
	A_PH, A_PH2, A_INFO, A_RESERVED,
	A_MPARAM, A_MPARAMLEN,         /* message-based parameter */
	A_NAME, A_VERSION, A_PPIFACE, A_PPLIST,
};

/* How it is broken. Lengths are changed from the correct call's value;
 * handles get values that name nothing. */
enum how {
	H_NONE,
	H_NULL,                        /* a NULL pointer */
	H_BOGUS,                       /* a non-NULL pointer where NULL is due */
	H_ZERO,                        /* 0; CK_INVALID_HANDLE */
	H_ONE,
	H_SHORT,                       /* one less than the correct value */
	H_LONG,                        /* one more */
	H_UNAVAIL,                     /* CK_UNAVAILABLE_INFORMATION */
	H_HUGE,                        /* 2^40 */
	H_STALE,                       /* a closed session, a destroyed
	                                  object, a slot that is not there */
	H_BAD,                         /* each of ZERO, STALE, HUGE, UNAVAIL */
	H_DATAOBJ,                     /* a data object (not a key) */
	H_PUBKEY,                      /* the fixture's public key */
	H_PRIVKEY,                     /* the fixture's private key */
	H_VALUE,                       /* the row's value */
};

/* What the function does to an operation of its session, for the check
 * that follows each row: does the operation survive the broken call? */
enum stage { ST_NONE, ST_INIT, ST_SINGLE, ST_UPDATE, ST_FINAL, ST_VERIFY };

enum op { OP_NONE, OP_SIGN, OP_VERIFY, OP_ENCRYPT, OP_DECRYPT, OP_DIGEST };

/*
 * Every entry point of the 3.2 function list: name, the operation it
 * belongs to, its stage, and its arguments taken from a struct call *c.
 */
#define FNS(X)                                                              \
	X(C_Initialize, OP_NONE, ST_NONE, (c->init))                        \
	X(C_Finalize, OP_NONE, ST_NONE, (c->reserved))                      \
	X(C_GetInfo, OP_NONE, ST_NONE, ((CK_INFO_PTR)c->info))              \
	X(C_GetFunctionList, OP_NONE, ST_NONE, (c->pplist))                 \
	X(C_GetSlotList, OP_NONE, ST_NONE, ((CK_BBOOL)c->flags,             \
	    (CK_SLOT_ID_PTR)(void *)c->out, c->poutlen))                    \
	X(C_GetSlotInfo, OP_NONE, ST_NONE, (c->slot,                        \
	    (CK_SLOT_INFO_PTR)c->info))                                     \
	X(C_GetTokenInfo, OP_NONE, ST_NONE, (c->slot,                       \
	    (CK_TOKEN_INFO_PTR)c->info))                                    \
	X(C_GetMechanismList, OP_NONE, ST_NONE, (c->slot,                   \
	    (CK_MECHANISM_TYPE_PTR)(void *)c->out, c->poutlen))             \
	X(C_GetMechanismInfo, OP_NONE, ST_NONE, (c->slot,                   \
	    c->mech.mechanism, (CK_MECHANISM_INFO_PTR)c->info))             \
	X(C_InitToken, OP_NONE, ST_NONE, (c->slot, c->in, c->inlen,         \
	    c->in2))                                                        \
	X(C_InitPIN, OP_NONE, ST_NONE, (c->h, c->in, c->inlen))             \
	X(C_SetPIN, OP_NONE, ST_NONE, (c->h, c->in, c->inlen, c->in2,       \
	    c->in2len))                                                     \
	X(C_OpenSession, OP_NONE, ST_NONE, (c->slot, c->flags, NULL, NULL,  \
	    c->ph))                                                         \
	X(C_CloseSession, OP_NONE, ST_NONE, (c->h))                         \
	X(C_CloseAllSessions, OP_NONE, ST_NONE, (c->slot))                  \
	X(C_GetSessionInfo, OP_NONE, ST_NONE, (c->h,                        \
	    (CK_SESSION_INFO_PTR)c->info))                                  \
	X(C_GetOperationState, OP_NONE, ST_NONE, (c->h, c->out,             \
	    c->poutlen))                                                    \
	X(C_SetOperationState, OP_NONE, ST_NONE, (c->h, c->in, c->inlen,    \
	    c->obj, c->obj2))                                               \
	X(C_Login, OP_NONE, ST_NONE, (c->h, c->user, c->in, c->inlen))      \
	X(C_Logout, OP_NONE, ST_NONE, (c->h))                               \
	X(C_CreateObject, OP_NONE, ST_NONE, (c->h, c->tmpl, c->count,       \
	    c->ph))                                                         \
	X(C_CopyObject, OP_NONE, ST_NONE, (c->h, c->obj, c->tmpl,           \
	    c->count, c->ph))                                               \
	X(C_DestroyObject, OP_NONE, ST_NONE, (c->h, c->obj))                \
	X(C_GetObjectSize, OP_NONE, ST_NONE, (c->h, c->obj, c->poutlen))    \
	X(C_GetAttributeValue, OP_NONE, ST_NONE, (c->h, c->obj, c->tmpl,    \
	    c->count))                                                      \
	X(C_SetAttributeValue, OP_NONE, ST_NONE, (c->h, c->obj, c->tmpl,    \
	    c->count))                                                      \
	X(C_FindObjectsInit, OP_NONE, ST_NONE, (c->h, c->tmpl, c->count))   \
	X(C_FindObjects, OP_NONE, ST_NONE, (c->h, c->ph, c->count,          \
	    c->poutlen))                                                    \
	X(C_FindObjectsFinal, OP_NONE, ST_NONE, (c->h))                     \
	X(C_EncryptInit, OP_ENCRYPT, ST_INIT, (c->h, c->pmech, c->obj))     \
	X(C_Encrypt, OP_ENCRYPT, ST_SINGLE, (c->h, c->in, c->inlen, c->out, \
	    c->poutlen))                                                    \
	X(C_EncryptUpdate, OP_ENCRYPT, ST_UPDATE, (c->h, c->in, c->inlen,   \
	    c->out, c->poutlen))                                            \
	X(C_EncryptFinal, OP_ENCRYPT, ST_FINAL, (c->h, c->out, c->poutlen)) \
	X(C_DecryptInit, OP_DECRYPT, ST_INIT, (c->h, c->pmech, c->obj))     \
	X(C_Decrypt, OP_DECRYPT, ST_SINGLE, (c->h, c->in, c->inlen, c->out, \
	    c->poutlen))                                                    \
	X(C_DecryptUpdate, OP_DECRYPT, ST_UPDATE, (c->h, c->in, c->inlen,   \
	    c->out, c->poutlen))                                            \
	X(C_DecryptFinal, OP_DECRYPT, ST_FINAL, (c->h, c->out, c->poutlen)) \
	X(C_DigestInit, OP_DIGEST, ST_INIT, (c->h, c->pmech))               \
	X(C_Digest, OP_DIGEST, ST_SINGLE, (c->h, c->in, c->inlen, c->out,   \
	    c->poutlen))                                                    \
	X(C_DigestUpdate, OP_DIGEST, ST_UPDATE, (c->h, c->in, c->inlen))    \
	X(C_DigestKey, OP_DIGEST, ST_UPDATE, (c->h, c->obj))                \
	X(C_DigestFinal, OP_DIGEST, ST_FINAL, (c->h, c->out, c->poutlen))   \
	X(C_SignInit, OP_SIGN, ST_INIT, (c->h, c->pmech, c->obj))           \
	X(C_Sign, OP_SIGN, ST_SINGLE, (c->h, c->in, c->inlen, c->out,       \
	    c->poutlen))                                                    \
	X(C_SignUpdate, OP_SIGN, ST_UPDATE, (c->h, c->in, c->inlen))        \
	X(C_SignFinal, OP_SIGN, ST_FINAL, (c->h, c->out, c->poutlen))       \
	X(C_SignRecoverInit, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj))    \
	X(C_SignRecover, OP_NONE, ST_NONE, (c->h, c->in, c->inlen, c->out,  \
	    c->poutlen))                                                    \
	X(C_VerifyInit, OP_VERIFY, ST_INIT, (c->h, c->pmech, c->obj))       \
	X(C_Verify, OP_VERIFY, ST_VERIFY, (c->h, c->in, c->inlen, c->in2,   \
	    c->in2len))                                                     \
	X(C_VerifyUpdate, OP_VERIFY, ST_UPDATE, (c->h, c->in, c->inlen))    \
	X(C_VerifyFinal, OP_VERIFY, ST_VERIFY, (c->h, c->in2, c->in2len))   \
	X(C_VerifyRecoverInit, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj))  \
	X(C_VerifyRecover, OP_NONE, ST_NONE, (c->h, c->in2, c->in2len,      \
	    c->out, c->poutlen))                                            \
	X(C_DigestEncryptUpdate, OP_NONE, ST_NONE, (c->h, c->in, c->inlen,  \
	    c->out, c->poutlen))                                            \
	X(C_DecryptDigestUpdate, OP_NONE, ST_NONE, (c->h, c->in, c->inlen,  \
	    c->out, c->poutlen))                                            \
	X(C_SignEncryptUpdate, OP_NONE, ST_NONE, (c->h, c->in, c->inlen,    \
	    c->out, c->poutlen))                                            \
	X(C_DecryptVerifyUpdate, OP_NONE, ST_NONE, (c->h, c->in, c->inlen,  \
	    c->out, c->poutlen))                                            \
	X(C_GenerateKey, OP_NONE, ST_NONE, (c->h, c->pmech, c->tmpl,        \
	    c->count, c->ph))                                               \
	X(C_GenerateKeyPair, OP_NONE, ST_NONE, (c->h, c->pmech, c->tmpl,    \
	    c->count, c->tmpl2, c->count2, c->ph, c->ph2))                  \
	X(C_WrapKey, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj, c->obj2,    \
	    c->out, c->poutlen))                                            \
	X(C_UnwrapKey, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj, c->in,    \
	    c->inlen, c->tmpl, c->count, c->ph))                            \
	X(C_DeriveKey, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj, c->tmpl,  \
	    c->count, c->ph))                                               \
	X(C_SeedRandom, OP_NONE, ST_NONE, (c->h, c->in, c->inlen))          \
	X(C_GenerateRandom, OP_NONE, ST_NONE, (c->h, c->out, c->outlen))    \
	X(C_GetFunctionStatus, OP_NONE, ST_NONE, (c->h))                    \
	X(C_CancelFunction, OP_NONE, ST_NONE, (c->h))                       \
	X(C_WaitForSlotEvent, OP_NONE, ST_NONE, (c->flags,                  \
	    (CK_SLOT_ID_PTR)c->info, c->reserved))                          \
	X(C_GetInterfaceList, OP_NONE, ST_NONE,                             \
	    ((CK_INTERFACE_PTR)(void *)c->out, c->poutlen))                 \
	X(C_GetInterface, OP_NONE, ST_NONE, (c->name, c->version,           \
	    c->ppiface, c->flags))                                          \
	X(C_LoginUser, OP_NONE, ST_NONE, (c->h, c->user, c->in, c->inlen,   \
	    c->in2, c->in2len))                                             \
	X(C_SessionCancel, OP_NONE, ST_NONE, (c->h, c->flags))              \
	X(C_MessageEncryptInit, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj)) \
	X(C_EncryptMessage, OP_NONE, ST_NONE, (c->h, c->param, c->paramlen, \
	    c->in2, c->in2len, c->in, c->inlen, c->out, c->poutlen))        \
	X(C_EncryptMessageBegin, OP_NONE, ST_NONE, (c->h, c->param,         \
	    c->paramlen, c->in2, c->in2len))                                \
	X(C_EncryptMessageNext, OP_NONE, ST_NONE, (c->h, c->param,          \
	    c->paramlen, c->in, c->inlen, c->out, c->poutlen, c->flags))    \
	X(C_MessageEncryptFinal, OP_NONE, ST_NONE, (c->h))                  \
	X(C_MessageDecryptInit, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj)) \
	X(C_DecryptMessage, OP_NONE, ST_NONE, (c->h, c->param, c->paramlen, \
	    c->in2, c->in2len, c->in, c->inlen, c->out, c->poutlen))        \
	X(C_DecryptMessageBegin, OP_NONE, ST_NONE, (c->h, c->param,         \
	    c->paramlen, c->in2, c->in2len))                                \
	X(C_DecryptMessageNext, OP_NONE, ST_NONE, (c->h, c->param,          \
	    c->paramlen, c->in, c->inlen, c->out, c->poutlen, c->flags))    \
	X(C_MessageDecryptFinal, OP_NONE, ST_NONE, (c->h))                  \
	X(C_MessageSignInit, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj))    \
	X(C_SignMessage, OP_NONE, ST_NONE, (c->h, c->param, c->paramlen,    \
	    c->in, c->inlen, c->out, c->poutlen))                           \
	X(C_SignMessageBegin, OP_NONE, ST_NONE, (c->h, c->param,            \
	    c->paramlen))                                                   \
	X(C_SignMessageNext, OP_NONE, ST_NONE, (c->h, c->param,             \
	    c->paramlen, c->in, c->inlen, c->out, c->poutlen))              \
	X(C_MessageSignFinal, OP_NONE, ST_NONE, (c->h))                     \
	X(C_MessageVerifyInit, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj))  \
	X(C_VerifyMessage, OP_NONE, ST_NONE, (c->h, c->param, c->paramlen,  \
	    c->in, c->inlen, c->in2, c->in2len))                            \
	X(C_VerifyMessageBegin, OP_NONE, ST_NONE, (c->h, c->param,          \
	    c->paramlen))                                                   \
	X(C_VerifyMessageNext, OP_NONE, ST_NONE, (c->h, c->param,           \
	    c->paramlen, c->in, c->inlen, c->in2, c->in2len))               \
	X(C_MessageVerifyFinal, OP_NONE, ST_NONE, (c->h))                   \
	X(C_EncapsulateKey, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj,      \
	    c->tmpl, c->count, c->out, c->poutlen, c->ph))                  \
	X(C_DecapsulateKey, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj,      \
	    c->tmpl, c->count, c->in, c->inlen, c->ph))                     \
	X(C_VerifySignatureInit, OP_NONE, ST_NONE, (c->h, c->pmech, c->obj, \
	    c->in2, c->in2len))                                             \
	X(C_VerifySignature, OP_NONE, ST_NONE, (c->h, c->in, c->inlen))     \
	X(C_VerifySignatureUpdate, OP_NONE, ST_NONE, (c->h, c->in,          \
	    c->inlen))                                                      \
	X(C_VerifySignatureFinal, OP_NONE, ST_NONE, (c->h))                 \
	X(C_GetSessionValidationFlags, OP_NONE, ST_NONE, (c->h, c->user,    \
	    (CK_FLAGS_PTR)c->info))                                         \
	X(C_AsyncComplete, OP_NONE, ST_NONE, (c->h, c->name,                \
	    (CK_ASYNC_DATA_PTR)c->info))                                    \
	X(C_AsyncGetID, OP_NONE, ST_NONE, (c->h, c->name, c->poutlen))      \
	X(C_AsyncJoin, OP_NONE, ST_NONE, (c->h, c->name, c->outlen, c->in,  \
	    c->inlen))                                                      \
	X(C_WrapKeyAuthenticated, OP_NONE, ST_NONE, (c->h, c->pmech,        \
	    c->obj, c->obj2, c->in2, c->in2len, c->out, c->poutlen))        \
	X(C_UnwrapKeyAuthenticated, OP_NONE, ST_NONE, (c->h, c->pmech,      \
	    c->obj, c->in, c->inlen, c->tmpl, c->count, c->in2, c->in2len,  \
	    c->ph))

#define FN_ENUM_(name, op, st, args) F_##name,
enum fn { FNS(FN_ENUM_) F_COUNT };
#undef FN_ENUM_

/* Fixtures: the state a row's session is put in, and for the key
 * operations the mechanism and keys. */
enum fx {
	FX_NONE,                       /* a R/W session, the user logged in */
	FX_PUBLIC,                     /* nobody logged in */
	FX_SO,                         /* the SO logged in */
	FX_EMPTY,                      /* the slot without a token */
	FX_RSA,                        /* CKM_RSA_PKCS */
	FX_OAEP,                       /* CKM_RSA_PKCS_OAEP, SHA-256 */
	FX_PSS,                        /* CKM_SHA256_RSA_PKCS_PSS */
	FX_ECDSA,                      /* CKM_ECDSA */
	FX_ECDSA256,                   /* CKM_ECDSA_SHA256 */
	FX_MLDSA,                      /* CKM_ML_DSA, ML-DSA-44 */
	FX_EDDSA,                      /* CKM_EDDSA, Ed25519ctx ("ctx") */
	FX_X25519,                     /* CKM_ECDH1_DERIVE, an X25519 key */
	FX_HMAC,                       /* CKM_SHA256_HMAC */
	FX_SHA256,                     /* CKM_SHA256 */
	FX_ECDH,                       /* CKM_ECDH1_DERIVE */
	FX_KW,                         /* CKM_AES_KEY_WRAP, an AES-256 key */
	FX_CBCPAD,                     /* CKM_AES_CBC_PAD, an AES-256 key */
	FX_GCM,                        /* CKM_AES_GCM, 96-bit IV, 128-bit tag */
	FX_CMAC,                       /* CKM_AES_CMAC */
	FX_MLKEM,                      /* CKM_ML_KEM, ML-KEM-512 */
	FX_FIND,                       /* C_FindObjectsInit done */
	FX_COUNT
};

struct row {
	enum fn fn;
	enum fx fx;
	enum arg arg;
	enum how how;
	CK_ULONG value;                /* for H_VALUE */
	CK_RV want;
	int line;                      /* in boundary_rows.h */
};

/* ------------------------------------------ tests/p11/boundary_prep.c */

#define BND_PATTERN 0xa5               /* fills output buffers */
#define SIG_MAX 2420                   /* ML-DSA-44 */

/* Each entry point: its name, a caller, its operation and stage. */
struct fninfo {
	const char *name;
	CK_RV (*call)(struct call *c);
	enum op op;
	enum stage stage;
};
extern const struct fninfo bnd_fns[F_COUNT];

/* A fixture's mechanism and keys, and what it makes of the input. */
struct fixture {
	CK_MECHANISM mech;
	CK_OBJECT_HANDLE priv, pub;    /* wrapping: pub wraps, priv unwraps */
	CK_ULONG siglen, ctlen;        /* 0: the mechanism does not */
	CK_ULONG wraplen;              /* the secret key wrapped; 0: does
	                                  not wrap */
	int parts;                     /* Update makes output: the lengths
	                                  below, for the input's DATA_LEN
	                                  bytes (ciphertext's ctlen when
	                                  decrypting) */
	CK_ULONG enc_part, enc_final, dec_part, dec_final;
	CK_BYTE sig[SIG_MAX + 64], ct[512], wrapped[512];
};
extern struct fixture bnd_fx[FX_COUNT];

/* Handles that name nothing, a data object, and pointers for H_BOGUS. */
extern CK_SESSION_HANDLE bnd_stale_session;
extern CK_OBJECT_HANDLE bnd_stale_object, bnd_data_object;
extern CK_BYTE bnd_bogus[64];
extern CK_VERSION bnd_bogus_version;

/* cmocka group setup (a token, a session holding the user's login) and
 * teardown. */
int bnd_group_setup(void **state);
int bnd_group_teardown(void **state);
/* Makes the keys of the fixtures and their signatures and ciphertexts. */
void bnd_setup_fixtures(void);
/* Puts the application in the fixture's login state. */
void bnd_login_as(enum fx f);
/* Fills c with the correct call of r's function in r's fixture, in a new
 * session of its own (c->h), with the fixture's operation started. */
void bnd_prep(const struct row *r, struct call *c);

#endif
