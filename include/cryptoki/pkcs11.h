/*
 * cryptoki/pkcs11.h - vgtoken's own Cryptoki (PKCS #11) interface header.
 *
 * Covers PKCS #11 v3.2 together with everything it carries over from v2.40
 * and v3.0/v3.1: basic and structured types, manifest constants, mechanism
 * parameter structures, the prototypes of every C_ entry point, a CK_C_xxx
 * pointer type for each, and the three function tables (CK_FUNCTION_LIST,
 * CK_FUNCTION_LIST_3_0, CK_FUNCTION_LIST_3_2).
 *
 * Written for vgtoken from the OASIS specification text; it is not derived
 * from any other project's header.  Numeric values are the ones the
 * specification assigns and are checked by tests/unit/pkcs11/header_abi.
 *
 * ABI: the Linux/ELF conventions shared by p11-kit, OpenSC and NSS, namely
 * CK_ULONG is unsigned long, CK_BYTE is unsigned char, structures use the
 * compiler's natural alignment (no packing pragmas), pointers are plain
 * data pointers.  [PKCS#11 3.2 §2]
 *
 * The header is self-contained and compiles as C89, C99, C11 and C++.
 */
#ifndef VG_PKCS11_H
#define VG_PKCS11_H

#include <stddef.h> /* NULL, for NULL_PTR */

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Specification version this header describes.
 * ====================================================================== */

#define CRYPTOKI_VERSION_MAJOR     3
#define CRYPTOKI_VERSION_MINOR     2
#define CRYPTOKI_VERSION_AMENDMENT 0

/* ======================================================================
 * Platform directives.  [PKCS#11 3.2 §2]
 *
 * On the platforms vgtoken targets these collapse to plain C: no calling
 * convention keywords, no import/export decoration (symbol visibility is
 * controlled by the build and a linker version script), no packing.
 * ====================================================================== */

#define CK_PTR *
#define CK_DECLARE_FUNCTION(returnType, name) returnType name
#define CK_DEFINE_FUNCTION(returnType, name) returnType name
#define CK_DECLARE_FUNCTION_POINTER(returnType, name) returnType (*name)
#define CK_CALLBACK_FUNCTION(returnType, name) returnType (*name)

#ifndef NULL_PTR
#define NULL_PTR NULL
#endif

/* ======================================================================
 * Basic scalar types.  [PKCS#11 3.2 §3]
 * ====================================================================== */

typedef unsigned char CK_BYTE;     /* an unsigned 8-bit value */
typedef CK_BYTE       CK_CHAR;     /* an unsigned 8-bit character */
typedef CK_BYTE       CK_UTF8CHAR; /* one octet of a UTF-8 string */
typedef CK_BYTE       CK_BBOOL;    /* CK_TRUE or CK_FALSE */
typedef unsigned long CK_ULONG;    /* at least 32 bits; 64 on LP64 */
typedef long          CK_LONG;     /* at least 32 bits; 64 on LP64 */
typedef CK_ULONG      CK_FLAGS;    /* a bit mask of CKF_ values */

#define CK_FALSE 0
#define CK_TRUE  1

typedef CK_BYTE     CK_PTR CK_BYTE_PTR;
typedef CK_CHAR     CK_PTR CK_CHAR_PTR;
typedef CK_UTF8CHAR CK_PTR CK_UTF8CHAR_PTR;
typedef CK_ULONG    CK_PTR CK_ULONG_PTR;
typedef CK_FLAGS    CK_PTR CK_FLAGS_PTR;
typedef void        CK_PTR CK_VOID_PTR;
typedef CK_VOID_PTR CK_PTR CK_VOID_PTR_PTR;

/* A ULONG-sized field whose value the token cannot or will not give. */
#define CK_UNAVAILABLE_INFORMATION (~0UL)
/* A session/PIN/memory limit that is, in practice, unlimited. */
#define CK_EFFECTIVELY_INFINITE 0UL

/* No object, session or other handle ever has this value. */
#define CK_INVALID_HANDLE 0UL

/* ======================================================================
 * General information.  [PKCS#11 3.2 §3.1]
 * ====================================================================== */

typedef struct CK_VERSION {
        CK_BYTE major; /* incompatible interface changes */
        CK_BYTE minor; /* compatible changes */
} CK_VERSION;
typedef CK_VERSION CK_PTR CK_VERSION_PTR;

typedef struct CK_INFO {
        CK_VERSION  cryptokiVersion;        /* interface version */
        CK_UTF8CHAR manufacturerID[32];     /* blank padded, no NUL */
        CK_FLAGS    flags;                  /* must be zero */
        CK_UTF8CHAR libraryDescription[32]; /* blank padded, no NUL */
        CK_VERSION  libraryVersion;
} CK_INFO;
typedef CK_INFO CK_PTR CK_INFO_PTR;

/* Events a library reports through a CK_NOTIFY callback. */
typedef CK_ULONG CK_NOTIFICATION;
#define CKN_SURRENDER   0UL
#define CKN_OTP_CHANGED 1UL

/* ======================================================================
 * Slots and tokens.  [PKCS#11 3.2 §3.2]
 * ====================================================================== */

typedef CK_ULONG CK_SLOT_ID;
typedef CK_SLOT_ID CK_PTR CK_SLOT_ID_PTR;

typedef struct CK_SLOT_INFO {
        CK_UTF8CHAR slotDescription[64]; /* blank padded, no NUL */
        CK_UTF8CHAR manufacturerID[32];  /* blank padded, no NUL */
        CK_FLAGS    flags;               /* CKF_TOKEN_PRESENT etc. */
        CK_VERSION  hardwareVersion;
        CK_VERSION  firmwareVersion;
} CK_SLOT_INFO;
typedef CK_SLOT_INFO CK_PTR CK_SLOT_INFO_PTR;

/* CK_SLOT_INFO.flags */
#define CKF_TOKEN_PRESENT    0x00000001UL /* a token is in the slot */
#define CKF_REMOVABLE_DEVICE 0x00000002UL /* the token can be removed */
#define CKF_HW_SLOT          0x00000004UL /* a hardware slot */

typedef struct CK_TOKEN_INFO {
        CK_UTF8CHAR label[32];          /* blank padded, no NUL */
        CK_UTF8CHAR manufacturerID[32]; /* blank padded, no NUL */
        CK_UTF8CHAR model[16];          /* blank padded, no NUL */
        CK_CHAR     serialNumber[16];   /* blank padded, no NUL */
        CK_FLAGS    flags;              /* CKF_RNG etc. */
        CK_ULONG    ulMaxSessionCount;
        CK_ULONG    ulSessionCount;
        CK_ULONG    ulMaxRwSessionCount;
        CK_ULONG    ulRwSessionCount;
        CK_ULONG    ulMaxPinLen;
        CK_ULONG    ulMinPinLen;
        CK_ULONG    ulTotalPublicMemory;
        CK_ULONG    ulFreePublicMemory;
        CK_ULONG    ulTotalPrivateMemory;
        CK_ULONG    ulFreePrivateMemory;
        CK_VERSION  hardwareVersion;
        CK_VERSION  firmwareVersion;
        CK_CHAR     utcTime[16];        /* YYYYMMDDhhmmss00 */
} CK_TOKEN_INFO;
typedef CK_TOKEN_INFO CK_PTR CK_TOKEN_INFO_PTR;

/* CK_TOKEN_INFO.flags */
#define CKF_RNG                           0x00000001UL
#define CKF_WRITE_PROTECTED               0x00000002UL
#define CKF_LOGIN_REQUIRED                0x00000004UL
#define CKF_USER_PIN_INITIALIZED          0x00000008UL
#define CKF_RESTORE_KEY_NOT_NEEDED        0x00000020UL
#define CKF_CLOCK_ON_TOKEN                0x00000040UL
#define CKF_PROTECTED_AUTHENTICATION_PATH 0x00000100UL
#define CKF_DUAL_CRYPTO_OPERATIONS        0x00000200UL
#define CKF_TOKEN_INITIALIZED             0x00000400UL
#define CKF_SECONDARY_AUTHENTICATION      0x00000800UL
#define CKF_USER_PIN_COUNT_LOW            0x00010000UL
#define CKF_USER_PIN_FINAL_TRY            0x00020000UL
#define CKF_USER_PIN_LOCKED               0x00040000UL
#define CKF_USER_PIN_TO_BE_CHANGED        0x00080000UL
#define CKF_SO_PIN_COUNT_LOW              0x00100000UL
#define CKF_SO_PIN_FINAL_TRY              0x00200000UL
#define CKF_SO_PIN_LOCKED                 0x00400000UL
#define CKF_SO_PIN_TO_BE_CHANGED          0x00800000UL
#define CKF_ERROR_STATE                   0x01000000UL /* 3.0 */
#define CKF_SEED_RANDOM_REQUIRED          0x02000000UL /* 3.2 */
#define CKF_ASYNC_SESSION_SUPPORTED       0x04000000UL /* 3.2 */

/* ======================================================================
 * Sessions.  [PKCS#11 3.2 §3.3]
 * ====================================================================== */

typedef CK_ULONG CK_SESSION_HANDLE;
typedef CK_SESSION_HANDLE CK_PTR CK_SESSION_HANDLE_PTR;

/* Who is logging in. */
typedef CK_ULONG CK_USER_TYPE;
#define CKU_SO               0UL
#define CKU_USER             1UL
#define CKU_CONTEXT_SPECIFIC 2UL

/* Session state as reported by C_GetSessionInfo. */
typedef CK_ULONG CK_STATE;
#define CKS_RO_PUBLIC_SESSION 0UL
#define CKS_RO_USER_FUNCTIONS 1UL
#define CKS_RW_PUBLIC_SESSION 2UL
#define CKS_RW_USER_FUNCTIONS 3UL
#define CKS_RW_SO_FUNCTIONS   4UL

typedef struct CK_SESSION_INFO {
        CK_SLOT_ID slotID;
        CK_STATE   state;
        CK_FLAGS   flags;         /* CKF_RW_SESSION etc. */
        CK_ULONG   ulDeviceError; /* device-specific error code */
} CK_SESSION_INFO;
typedef CK_SESSION_INFO CK_PTR CK_SESSION_INFO_PTR;

/* CK_SESSION_INFO.flags, and the flags argument of C_OpenSession */
#define CKF_RW_SESSION     0x00000002UL /* read/write, not read-only */
#define CKF_SERIAL_SESSION 0x00000004UL /* must always be set */
#define CKF_ASYNC_SESSION  0x00000008UL /* 3.2: asynchronous session */

/* ======================================================================
 * Objects and attributes.  [PKCS#11 3.2 §3.4]
 * ====================================================================== */

typedef CK_ULONG CK_OBJECT_HANDLE;
typedef CK_OBJECT_HANDLE CK_PTR CK_OBJECT_HANDLE_PTR;

/* Object classes, the value of CKA_CLASS. */
typedef CK_ULONG CK_OBJECT_CLASS;
typedef CK_OBJECT_CLASS CK_PTR CK_OBJECT_CLASS_PTR;
#define CKO_DATA              0x00000000UL
#define CKO_CERTIFICATE       0x00000001UL
#define CKO_PUBLIC_KEY        0x00000002UL
#define CKO_PRIVATE_KEY       0x00000003UL
#define CKO_SECRET_KEY        0x00000004UL
#define CKO_HW_FEATURE        0x00000005UL
#define CKO_DOMAIN_PARAMETERS 0x00000006UL
#define CKO_MECHANISM         0x00000007UL
#define CKO_OTP_KEY           0x00000008UL
#define CKO_PROFILE           0x00000009UL /* 3.0 */
#define CKO_VALIDATION        0x0000000aUL /* 3.2 */
#define CKO_TRUST             0x0000000bUL /* 3.2 */
#define CKO_VENDOR_DEFINED    0x80000000UL

/* Profile identifiers, the value of CKA_PROFILE_ID.  [PKCS#11 3.2 §3.4] */
typedef CK_ULONG CK_PROFILE_ID;
typedef CK_PROFILE_ID CK_PTR CK_PROFILE_ID_PTR;
#define CKP_INVALID_ID                0x00000000UL
#define CKP_BASELINE_PROVIDER         0x00000001UL
#define CKP_EXTENDED_PROVIDER         0x00000002UL
#define CKP_AUTHENTICATION_TOKEN      0x00000003UL
#define CKP_PUBLIC_CERTIFICATES_TOKEN 0x00000004UL
#define CKP_COMPLETE_PROVIDER         0x00000005UL /* 3.1 */
#define CKP_HKDF_TLS_TOKEN            0x00000006UL /* 3.1 */
#define CKP_VENDOR_DEFINED            0x80000000UL

/* Hardware feature types, the value of CKA_HW_FEATURE_TYPE. */
typedef CK_ULONG CK_HW_FEATURE_TYPE;
#define CKH_MONOTONIC_COUNTER 0x00000001UL
#define CKH_CLOCK             0x00000002UL
#define CKH_USER_INTERFACE    0x00000003UL
#define CKH_VENDOR_DEFINED    0x80000000UL

/* Key types, the value of CKA_KEY_TYPE. */
typedef CK_ULONG CK_KEY_TYPE;
#define CKK_RSA              0x00000000UL
#define CKK_DSA              0x00000001UL
#define CKK_DH               0x00000002UL
#define CKK_EC               0x00000003UL
#define CKK_X9_42_DH         0x00000004UL
#define CKK_KEA              0x00000005UL
#define CKK_GENERIC_SECRET   0x00000010UL
#define CKK_RC2              0x00000011UL
#define CKK_RC4              0x00000012UL
#define CKK_DES              0x00000013UL
#define CKK_DES2             0x00000014UL
#define CKK_DES3             0x00000015UL
#define CKK_CAST             0x00000016UL
#define CKK_CAST3            0x00000017UL
#define CKK_CAST128          0x00000018UL
#define CKK_RC5              0x00000019UL
#define CKK_IDEA             0x0000001aUL
#define CKK_SKIPJACK         0x0000001bUL
#define CKK_BATON            0x0000001cUL
#define CKK_JUNIPER          0x0000001dUL
#define CKK_CDMF             0x0000001eUL
#define CKK_AES              0x0000001fUL
#define CKK_BLOWFISH         0x00000020UL
#define CKK_TWOFISH          0x00000021UL
#define CKK_SECURID          0x00000022UL
#define CKK_HOTP             0x00000023UL
#define CKK_ACTI             0x00000024UL
#define CKK_CAMELLIA         0x00000025UL
#define CKK_ARIA             0x00000026UL
#define CKK_MD5_HMAC         0x00000027UL
#define CKK_SHA_1_HMAC       0x00000028UL
#define CKK_RIPEMD128_HMAC   0x00000029UL
#define CKK_RIPEMD160_HMAC   0x0000002aUL
#define CKK_SHA256_HMAC      0x0000002bUL
#define CKK_SHA384_HMAC      0x0000002cUL
#define CKK_SHA512_HMAC      0x0000002dUL
#define CKK_SHA224_HMAC      0x0000002eUL
#define CKK_SEED             0x0000002fUL
#define CKK_GOSTR3410        0x00000030UL
#define CKK_GOSTR3411        0x00000031UL
#define CKK_GOST28147        0x00000032UL
#define CKK_CHACHA20         0x00000033UL /* 3.0 */
#define CKK_POLY1305         0x00000034UL /* 3.0 */
#define CKK_AES_XTS          0x00000035UL /* 3.0 */
#define CKK_SHA3_224_HMAC    0x00000036UL /* 3.0 */
#define CKK_SHA3_256_HMAC    0x00000037UL /* 3.0 */
#define CKK_SHA3_384_HMAC    0x00000038UL /* 3.0 */
#define CKK_SHA3_512_HMAC    0x00000039UL /* 3.0 */
#define CKK_BLAKE2B_160_HMAC 0x0000003aUL /* 3.0 */
#define CKK_BLAKE2B_256_HMAC 0x0000003bUL /* 3.0 */
#define CKK_BLAKE2B_384_HMAC 0x0000003cUL /* 3.0 */
#define CKK_BLAKE2B_512_HMAC 0x0000003dUL /* 3.0 */
#define CKK_SALSA20          0x0000003eUL /* 3.0 */
#define CKK_X2RATCHET        0x0000003fUL /* 3.0 */
#define CKK_EC_EDWARDS       0x00000040UL /* 3.0: Ed25519, Ed448 */
#define CKK_EC_MONTGOMERY    0x00000041UL /* 3.0: X25519, X448 */
#define CKK_HKDF             0x00000042UL /* 3.0 */
#define CKK_SHA512_224_HMAC  0x00000043UL /* 3.0 */
#define CKK_SHA512_256_HMAC  0x00000044UL /* 3.0 */
#define CKK_SHA512_T_HMAC    0x00000045UL /* 3.0 */
#define CKK_HSS              0x00000046UL /* 3.1 */
#define CKK_XMSS             0x00000047UL /* 3.2 */
#define CKK_XMSSMT           0x00000048UL /* 3.2 */
#define CKK_ML_KEM           0x00000049UL /* 3.2: FIPS 203 */
#define CKK_ML_DSA           0x0000004aUL /* 3.2: FIPS 204 */
#define CKK_SLH_DSA          0x0000004bUL /* 3.2: FIPS 205 */
#define CKK_VENDOR_DEFINED   0x80000000UL
/* Older spellings kept for client source compatibility. */
#define CKK_ECDSA            CKK_EC
#define CKK_CAST5            CKK_CAST128

/* Certificate types, the value of CKA_CERTIFICATE_TYPE. */
typedef CK_ULONG CK_CERTIFICATE_TYPE;
#define CKC_X_509           0x00000000UL
#define CKC_X_509_ATTR_CERT 0x00000001UL
#define CKC_WTLS            0x00000002UL
#define CKC_VENDOR_DEFINED  0x80000000UL

/* Certificate categories, the value of CKA_CERTIFICATE_CATEGORY. */
typedef CK_ULONG CK_CERTIFICATE_CATEGORY;
#define CK_CERTIFICATE_CATEGORY_UNSPECIFIED  0UL
#define CK_CERTIFICATE_CATEGORY_TOKEN_USER   1UL
#define CK_CERTIFICATE_CATEGORY_AUTHORITY    2UL
#define CK_CERTIFICATE_CATEGORY_OTHER_ENTITY 3UL

/* Java MIDP security domains, the value of CKA_JAVA_MIDP_SECURITY_DOMAIN. */
typedef CK_ULONG CK_JAVA_MIDP_SECURITY_DOMAIN;
#define CK_SECURITY_DOMAIN_UNSPECIFIED  0UL
#define CK_SECURITY_DOMAIN_MANUFACTURER 1UL
#define CK_SECURITY_DOMAIN_OPERATOR     2UL
#define CK_SECURITY_DOMAIN_THIRD_PARTY  3UL

/* Attribute types.  An attribute whose value is itself an array of
 * CK_ATTRIBUTE (or of mechanism types) carries CKF_ARRAY_ATTRIBUTE. */
typedef CK_ULONG CK_ATTRIBUTE_TYPE;
typedef CK_ATTRIBUTE_TYPE CK_PTR CK_ATTRIBUTE_TYPE_PTR;

#define CKF_ARRAY_ATTRIBUTE 0x40000000UL

/* -- common, storage, data object and certificate attributes -- */
#define CKA_CLASS                      0x00000000UL
#define CKA_TOKEN                      0x00000001UL
#define CKA_PRIVATE                    0x00000002UL
#define CKA_LABEL                      0x00000003UL
#define CKA_UNIQUE_ID                  0x00000004UL /* 3.0 */
#define CKA_APPLICATION                0x00000010UL
#define CKA_VALUE                      0x00000011UL
#define CKA_OBJECT_ID                  0x00000012UL
#define CKA_CERTIFICATE_TYPE           0x00000080UL
#define CKA_ISSUER                     0x00000081UL
#define CKA_SERIAL_NUMBER              0x00000082UL
#define CKA_AC_ISSUER                  0x00000083UL
#define CKA_OWNER                      0x00000084UL
#define CKA_ATTR_TYPES                 0x00000085UL
#define CKA_TRUSTED                    0x00000086UL
#define CKA_CERTIFICATE_CATEGORY       0x00000087UL
#define CKA_JAVA_MIDP_SECURITY_DOMAIN  0x00000088UL
#define CKA_URL                        0x00000089UL
#define CKA_HASH_OF_SUBJECT_PUBLIC_KEY 0x0000008aUL
#define CKA_HASH_OF_ISSUER_PUBLIC_KEY  0x0000008bUL
#define CKA_NAME_HASH_ALGORITHM        0x0000008cUL
#define CKA_CHECK_VALUE                0x00000090UL

/* -- key attributes -- */
#define CKA_KEY_TYPE                   0x00000100UL
#define CKA_SUBJECT                    0x00000101UL
#define CKA_ID                         0x00000102UL
#define CKA_SENSITIVE                  0x00000103UL
#define CKA_ENCRYPT                    0x00000104UL
#define CKA_DECRYPT                    0x00000105UL
#define CKA_WRAP                       0x00000106UL
#define CKA_UNWRAP                     0x00000107UL
#define CKA_SIGN                       0x00000108UL
#define CKA_SIGN_RECOVER               0x00000109UL
#define CKA_VERIFY                     0x0000010aUL
#define CKA_VERIFY_RECOVER             0x0000010bUL
#define CKA_DERIVE                     0x0000010cUL
#define CKA_START_DATE                 0x00000110UL
#define CKA_END_DATE                   0x00000111UL

/* -- RSA, DSA/DH and generic key material -- */
#define CKA_MODULUS                    0x00000120UL
#define CKA_MODULUS_BITS               0x00000121UL
#define CKA_PUBLIC_EXPONENT            0x00000122UL
#define CKA_PRIVATE_EXPONENT           0x00000123UL
#define CKA_PRIME_1                    0x00000124UL
#define CKA_PRIME_2                    0x00000125UL
#define CKA_EXPONENT_1                 0x00000126UL
#define CKA_EXPONENT_2                 0x00000127UL
#define CKA_COEFFICIENT                0x00000128UL
#define CKA_PUBLIC_KEY_INFO            0x00000129UL
#define CKA_PRIME                      0x00000130UL
#define CKA_SUBPRIME                   0x00000131UL
#define CKA_BASE                       0x00000132UL
#define CKA_PRIME_BITS                 0x00000133UL
#define CKA_SUBPRIME_BITS              0x00000134UL
#define CKA_SUB_PRIME_BITS             CKA_SUBPRIME_BITS
#define CKA_VALUE_BITS                 0x00000160UL
#define CKA_VALUE_LEN                  0x00000161UL

/* -- key lifecycle and protection -- */
#define CKA_EXTRACTABLE                0x00000162UL
#define CKA_LOCAL                      0x00000163UL
#define CKA_NEVER_EXTRACTABLE          0x00000164UL
#define CKA_ALWAYS_SENSITIVE           0x00000165UL
#define CKA_KEY_GEN_MECHANISM          0x00000166UL
#define CKA_MODIFIABLE                 0x00000170UL
#define CKA_COPYABLE                   0x00000171UL
#define CKA_DESTROYABLE                0x00000172UL

/* -- elliptic curves (Weierstrass, Edwards, Montgomery) -- */
#define CKA_EC_PARAMS                  0x00000180UL
#define CKA_EC_POINT                   0x00000181UL
#define CKA_ECDSA_PARAMS               CKA_EC_PARAMS /* older name */

/* -- authentication and wrapping policy -- */
#define CKA_SECONDARY_AUTH             0x00000200UL /* deprecated */
#define CKA_AUTH_PIN_FLAGS             0x00000201UL /* deprecated */
#define CKA_ALWAYS_AUTHENTICATE        0x00000202UL
#define CKA_WRAP_WITH_TRUSTED          0x00000210UL
#define CKA_WRAP_TEMPLATE              (CKF_ARRAY_ATTRIBUTE | 0x00000211UL)
#define CKA_UNWRAP_TEMPLATE            (CKF_ARRAY_ATTRIBUTE | 0x00000212UL)
#define CKA_DERIVE_TEMPLATE            (CKF_ARRAY_ATTRIBUTE | 0x00000213UL)

/* -- one-time-password keys -- */
#define CKA_OTP_FORMAT                 0x00000220UL
#define CKA_OTP_LENGTH                 0x00000221UL
#define CKA_OTP_TIME_INTERVAL          0x00000222UL
#define CKA_OTP_USER_FRIENDLY_MODE     0x00000223UL
#define CKA_OTP_CHALLENGE_REQUIREMENT  0x00000224UL
#define CKA_OTP_TIME_REQUIREMENT       0x00000225UL
#define CKA_OTP_COUNTER_REQUIREMENT    0x00000226UL
#define CKA_OTP_PIN_REQUIREMENT        0x00000227UL
#define CKA_OTP_USER_IDENTIFIER        0x0000022aUL
#define CKA_OTP_SERVICE_IDENTIFIER     0x0000022bUL
#define CKA_OTP_SERVICE_LOGO           0x0000022cUL
#define CKA_OTP_SERVICE_LOGO_TYPE      0x0000022dUL
#define CKA_OTP_COUNTER                0x0000022eUL
#define CKA_OTP_TIME                   0x0000022fUL

/* -- GOST -- */
#define CKA_GOSTR3410_PARAMS           0x00000250UL
#define CKA_GOSTR3411_PARAMS           0x00000251UL
#define CKA_GOST28147_PARAMS           0x00000252UL

/* -- hardware features -- */
#define CKA_HW_FEATURE_TYPE            0x00000300UL
#define CKA_RESET_ON_INIT              0x00000301UL
#define CKA_HAS_RESET                  0x00000302UL
#define CKA_PIXEL_X                    0x00000400UL
#define CKA_PIXEL_Y                    0x00000401UL
#define CKA_RESOLUTION                 0x00000402UL
#define CKA_CHAR_ROWS                  0x00000403UL
#define CKA_CHAR_COLUMNS               0x00000404UL
#define CKA_COLOR                      0x00000405UL
#define CKA_BITS_PER_PIXEL             0x00000406UL
#define CKA_CHAR_SETS                  0x00000480UL
#define CKA_ENCODING_METHODS           0x00000481UL
#define CKA_MIME_TYPES                 0x00000482UL

/* -- mechanism objects and CMS -- */
#define CKA_MECHANISM_TYPE             0x00000500UL
#define CKA_REQUIRED_CMS_ATTRIBUTES    0x00000501UL
#define CKA_DEFAULT_CMS_ATTRIBUTES     0x00000502UL
#define CKA_SUPPORTED_CMS_ATTRIBUTES   0x00000503UL
#define CKA_ALLOWED_MECHANISMS         (CKF_ARRAY_ATTRIBUTE | 0x00000600UL)

/* -- profile objects (3.0) -- */
#define CKA_PROFILE_ID                 0x00000601UL

/* -- double ratchet state (3.0) -- */
#define CKA_X2RATCHET_BAG              0x00000602UL
#define CKA_X2RATCHET_BAGSIZE          0x00000603UL
#define CKA_X2RATCHET_BOBS1STMSG       0x00000604UL
#define CKA_X2RATCHET_CKR              0x00000605UL
#define CKA_X2RATCHET_CKS              0x00000606UL
#define CKA_X2RATCHET_DHP              0x00000607UL
#define CKA_X2RATCHET_DHR              0x00000608UL
#define CKA_X2RATCHET_DHS              0x00000609UL
#define CKA_X2RATCHET_HKR              0x0000060aUL
#define CKA_X2RATCHET_HKS              0x0000060bUL
#define CKA_X2RATCHET_ISALICE          0x0000060cUL
#define CKA_X2RATCHET_NHKR             0x0000060dUL
#define CKA_X2RATCHET_NHKS             0x0000060eUL
#define CKA_X2RATCHET_NR               0x0000060fUL
#define CKA_X2RATCHET_NS               0x00000610UL
#define CKA_X2RATCHET_PNS              0x00000611UL
#define CKA_X2RATCHET_RK               0x00000612UL

/* -- HSS/LMS stateful signatures (3.1) -- */
#define CKA_HSS_LEVELS                 0x00000617UL
#define CKA_HSS_LMS_TYPE               0x00000618UL
#define CKA_HSS_LMOTS_TYPE             0x00000619UL
#define CKA_HSS_LMS_TYPES              0x0000061aUL
#define CKA_HSS_LMOTS_TYPES            0x0000061bUL
#define CKA_HSS_KEYS_REMAINING         0x0000061cUL

/* -- post-quantum parameter sets (3.2): CKP_ML_DSA_44 etc. -- */
#define CKA_PARAMETER_SET              0x0000061dUL

/* -- validation objects (3.2) -- */
#define CKA_OBJECT_VALIDATION_FLAGS    0x0000061eUL
#define CKA_VALIDATION_TYPE            0x0000061fUL
#define CKA_VALIDATION_VERSION         0x00000620UL
#define CKA_VALIDATION_LEVEL           0x00000621UL
#define CKA_VALIDATION_MODULE_ID       0x00000622UL
#define CKA_VALIDATION_FLAG            0x00000623UL
#define CKA_VALIDATION_AUTHORITY_TYPE  0x00000624UL
#define CKA_VALIDATION_COUNTRY         0x00000625UL
#define CKA_VALIDATION_CERTIFICATE_IDENTIFIER 0x00000626UL
#define CKA_VALIDATION_CERTIFICATE_URI 0x00000627UL
#define CKA_VALIDATION_VENDOR_URI      0x00000628UL
#define CKA_VALIDATION_PROFILE         0x00000629UL

/* -- key encapsulation (3.2).  The TEMPLATE pair holds CK_ATTRIBUTE
 *    arrays; the OASIS TC's errata (oasis-tcs/pkcs11 PR #77) adds the
 *    CKF_ARRAY_ATTRIBUTE bit that the first 3.2 header omitted. -- */
#define CKA_ENCAPSULATE_TEMPLATE       (CKF_ARRAY_ATTRIBUTE | 0x0000062aUL)
#define CKA_DECAPSULATE_TEMPLATE       (CKF_ARRAY_ATTRIBUTE | 0x0000062bUL)

/* -- trust objects (3.2): values are CKT_ -- */
#define CKA_TRUST_SERVER_AUTH          0x0000062cUL
#define CKA_TRUST_CLIENT_AUTH          0x0000062dUL
#define CKA_TRUST_CODE_SIGNING         0x0000062eUL
#define CKA_TRUST_EMAIL_PROTECTION     0x0000062fUL
#define CKA_TRUST_IPSEC_IKE            0x00000630UL
#define CKA_TRUST_TIME_STAMPING        0x00000631UL
#define CKA_TRUST_OCSP_SIGNING         0x00000632UL
#define CKA_ENCAPSULATE                0x00000633UL
#define CKA_DECAPSULATE                0x00000634UL
#define CKA_HASH_OF_CERTIFICATE        0x00000635UL
#define CKA_PUBLIC_CRC64_VALUE         0x00000636UL
#define CKA_SEED                       0x00000637UL /* private-key seed */

#define CKA_VENDOR_DEFINED             0x80000000UL

/* One attribute in a template. */
typedef struct CK_ATTRIBUTE {
        CK_ATTRIBUTE_TYPE type;
        CK_VOID_PTR       pValue;
        CK_ULONG          ulValueLen; /* in bytes */
} CK_ATTRIBUTE;
typedef CK_ATTRIBUTE CK_PTR CK_ATTRIBUTE_PTR;

/* A calendar date in ASCII digits, as used by CKA_START_DATE. */
typedef struct CK_DATE {
        CK_CHAR year[4];  /* "1900" .. "9999" */
        CK_CHAR month[2]; /* "01" .. "12" */
        CK_CHAR day[2];   /* "01" .. "31" */
} CK_DATE;
typedef CK_DATE CK_PTR CK_DATE_PTR;

/* ======================================================================
 * Mechanism types.  [PKCS#11 3.2 §3.5, §6]
 *
 * Listed in numeric order; each block names the families it holds.
 * Mechanisms the specification has moved to its "historical" document
 * (RC2, RC4, single DES, CAST, IDEA, SKIPJACK, BATON, JUNIPER, MD2, MD5,
 * RIPE-MD, KEA, ...) keep their values here so that old clients build.
 * ====================================================================== */

typedef CK_ULONG CK_MECHANISM_TYPE;
typedef CK_MECHANISM_TYPE CK_PTR CK_MECHANISM_TYPE_PTR;

/* 0x0000 - 0x000e: RSA */
#define CKM_RSA_PKCS_KEY_PAIR_GEN      0x00000000UL
#define CKM_RSA_PKCS                   0x00000001UL
#define CKM_RSA_9796                   0x00000002UL
#define CKM_RSA_X_509                  0x00000003UL
#define CKM_MD2_RSA_PKCS               0x00000004UL
#define CKM_MD5_RSA_PKCS               0x00000005UL
#define CKM_SHA1_RSA_PKCS              0x00000006UL
#define CKM_RIPEMD128_RSA_PKCS         0x00000007UL
#define CKM_RIPEMD160_RSA_PKCS         0x00000008UL
#define CKM_RSA_PKCS_OAEP              0x00000009UL
#define CKM_RSA_X9_31_KEY_PAIR_GEN     0x0000000aUL
#define CKM_RSA_X9_31                  0x0000000bUL
#define CKM_SHA1_RSA_X9_31             0x0000000cUL
#define CKM_RSA_PKCS_PSS               0x0000000dUL
#define CKM_SHA1_RSA_PKCS_PSS          0x0000000eUL

/* 0x000f - 0x003f: DSA, DH, X9.42 DH, and the 3.2 post-quantum
 * algorithms, which were given the free code points in this range. */
#define CKM_ML_KEM_KEY_PAIR_GEN        0x0000000fUL /* 3.2 */
#define CKM_DSA_KEY_PAIR_GEN           0x00000010UL
#define CKM_DSA                        0x00000011UL
#define CKM_DSA_SHA1                   0x00000012UL
#define CKM_DSA_SHA224                 0x00000013UL
#define CKM_DSA_SHA256                 0x00000014UL
#define CKM_DSA_SHA384                 0x00000015UL
#define CKM_DSA_SHA512                 0x00000016UL
#define CKM_ML_KEM                     0x00000017UL /* 3.2 */
#define CKM_DSA_SHA3_224               0x00000018UL
#define CKM_DSA_SHA3_256               0x00000019UL
#define CKM_DSA_SHA3_384               0x0000001aUL
#define CKM_DSA_SHA3_512               0x0000001bUL
#define CKM_ML_DSA_KEY_PAIR_GEN        0x0000001cUL /* 3.2 */
#define CKM_ML_DSA                     0x0000001dUL /* 3.2 */
#define CKM_HASH_ML_DSA                0x0000001fUL /* 3.2 */
#define CKM_DH_PKCS_KEY_PAIR_GEN       0x00000020UL
#define CKM_DH_PKCS_DERIVE             0x00000021UL
#define CKM_HASH_ML_DSA_SHA224         0x00000023UL /* 3.2 */
#define CKM_HASH_ML_DSA_SHA256         0x00000024UL /* 3.2 */
#define CKM_HASH_ML_DSA_SHA384         0x00000025UL /* 3.2 */
#define CKM_HASH_ML_DSA_SHA512         0x00000026UL /* 3.2 */
#define CKM_HASH_ML_DSA_SHA3_224       0x00000027UL /* 3.2 */
#define CKM_HASH_ML_DSA_SHA3_256       0x00000028UL /* 3.2 */
#define CKM_HASH_ML_DSA_SHA3_384       0x00000029UL /* 3.2 */
#define CKM_HASH_ML_DSA_SHA3_512       0x0000002aUL /* 3.2 */
#define CKM_HASH_ML_DSA_SHAKE128       0x0000002bUL /* 3.2 */
#define CKM_HASH_ML_DSA_SHAKE256       0x0000002cUL /* 3.2 */
#define CKM_SLH_DSA_KEY_PAIR_GEN       0x0000002dUL /* 3.2 */
#define CKM_SLH_DSA                    0x0000002eUL /* 3.2 */
#define CKM_X9_42_DH_KEY_PAIR_GEN      0x00000030UL
#define CKM_X9_42_DH_DERIVE            0x00000031UL
#define CKM_X9_42_DH_HYBRID_DERIVE     0x00000032UL
#define CKM_X9_42_MQV_DERIVE           0x00000033UL
#define CKM_HASH_SLH_DSA               0x00000034UL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA224        0x00000036UL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA256        0x00000037UL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA384        0x00000038UL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA512        0x00000039UL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA3_224      0x0000003aUL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA3_256      0x0000003bUL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA3_384      0x0000003cUL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHA3_512      0x0000003dUL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHAKE128      0x0000003eUL /* 3.2 */
#define CKM_HASH_SLH_DSA_SHAKE256      0x0000003fUL /* 3.2 */

/* 0x0040 - 0x0067: RSA with SHA-2/SHA-3, SHA-512/t, TLS 1.2 EMS */
#define CKM_SHA256_RSA_PKCS            0x00000040UL
#define CKM_SHA384_RSA_PKCS            0x00000041UL
#define CKM_SHA512_RSA_PKCS            0x00000042UL
#define CKM_SHA256_RSA_PKCS_PSS        0x00000043UL
#define CKM_SHA384_RSA_PKCS_PSS        0x00000044UL
#define CKM_SHA512_RSA_PKCS_PSS        0x00000045UL
#define CKM_SHA224_RSA_PKCS            0x00000046UL
#define CKM_SHA224_RSA_PKCS_PSS        0x00000047UL
#define CKM_SHA512_224                 0x00000048UL
#define CKM_SHA512_224_HMAC            0x00000049UL
#define CKM_SHA512_224_HMAC_GENERAL    0x0000004aUL
#define CKM_SHA512_224_KEY_DERIVATION  0x0000004bUL
#define CKM_SHA512_256                 0x0000004cUL
#define CKM_SHA512_256_HMAC            0x0000004dUL
#define CKM_SHA512_256_HMAC_GENERAL    0x0000004eUL
#define CKM_SHA512_256_KEY_DERIVATION  0x0000004fUL
#define CKM_SHA512_T                   0x00000050UL
#define CKM_SHA512_T_HMAC              0x00000051UL
#define CKM_SHA512_T_HMAC_GENERAL      0x00000052UL
#define CKM_SHA512_T_KEY_DERIVATION    0x00000053UL
#define CKM_TLS12_EXTENDED_MASTER_KEY_DERIVE    0x00000056UL /* 3.2 */
#define CKM_TLS12_EXTENDED_MASTER_KEY_DERIVE_DH 0x00000057UL /* 3.2 */
#define CKM_SHA3_256_RSA_PKCS          0x00000060UL
#define CKM_SHA3_384_RSA_PKCS          0x00000061UL
#define CKM_SHA3_512_RSA_PKCS          0x00000062UL
#define CKM_SHA3_256_RSA_PKCS_PSS      0x00000063UL
#define CKM_SHA3_384_RSA_PKCS_PSS      0x00000064UL
#define CKM_SHA3_512_RSA_PKCS_PSS      0x00000065UL
#define CKM_SHA3_224_RSA_PKCS          0x00000066UL
#define CKM_SHA3_224_RSA_PKCS_PSS      0x00000067UL

/* 0x0100 - 0x0153: RC2, RC4, DES, DES3, CDMF */
#define CKM_RC2_KEY_GEN                0x00000100UL
#define CKM_RC2_ECB                    0x00000101UL
#define CKM_RC2_CBC                    0x00000102UL
#define CKM_RC2_MAC                    0x00000103UL
#define CKM_RC2_MAC_GENERAL            0x00000104UL
#define CKM_RC2_CBC_PAD                0x00000105UL
#define CKM_RC4_KEY_GEN                0x00000110UL
#define CKM_RC4                        0x00000111UL
#define CKM_DES_KEY_GEN                0x00000120UL
#define CKM_DES_ECB                    0x00000121UL
#define CKM_DES_CBC                    0x00000122UL
#define CKM_DES_MAC                    0x00000123UL
#define CKM_DES_MAC_GENERAL            0x00000124UL
#define CKM_DES_CBC_PAD                0x00000125UL
#define CKM_DES2_KEY_GEN               0x00000130UL
#define CKM_DES3_KEY_GEN               0x00000131UL
#define CKM_DES3_ECB                   0x00000132UL
#define CKM_DES3_CBC                   0x00000133UL
#define CKM_DES3_MAC                   0x00000134UL
#define CKM_DES3_MAC_GENERAL           0x00000135UL
#define CKM_DES3_CBC_PAD               0x00000136UL
#define CKM_DES3_CMAC_GENERAL          0x00000137UL
#define CKM_DES3_CMAC                  0x00000138UL
#define CKM_CDMF_KEY_GEN               0x00000140UL
#define CKM_CDMF_ECB                   0x00000141UL
#define CKM_CDMF_CBC                   0x00000142UL
#define CKM_CDMF_MAC                   0x00000143UL
#define CKM_CDMF_MAC_GENERAL           0x00000144UL
#define CKM_CDMF_CBC_PAD               0x00000145UL
#define CKM_DES_OFB64                  0x00000150UL
#define CKM_DES_OFB8                   0x00000151UL
#define CKM_DES_CFB64                  0x00000152UL
#define CKM_DES_CFB8                   0x00000153UL

/* 0x0200 - 0x02d3: message digests and HMAC, SecurID/HOTP/ACTI OTP */
#define CKM_MD2                        0x00000200UL
#define CKM_MD2_HMAC                   0x00000201UL
#define CKM_MD2_HMAC_GENERAL           0x00000202UL
#define CKM_MD5                        0x00000210UL
#define CKM_MD5_HMAC                   0x00000211UL
#define CKM_MD5_HMAC_GENERAL           0x00000212UL
#define CKM_SHA_1                      0x00000220UL
#define CKM_SHA_1_HMAC                 0x00000221UL
#define CKM_SHA_1_HMAC_GENERAL         0x00000222UL
#define CKM_RIPEMD128                  0x00000230UL
#define CKM_RIPEMD128_HMAC             0x00000231UL
#define CKM_RIPEMD128_HMAC_GENERAL     0x00000232UL
#define CKM_RIPEMD160                  0x00000240UL
#define CKM_RIPEMD160_HMAC             0x00000241UL
#define CKM_RIPEMD160_HMAC_GENERAL     0x00000242UL
#define CKM_SHA256                     0x00000250UL
#define CKM_SHA256_HMAC                0x00000251UL
#define CKM_SHA256_HMAC_GENERAL        0x00000252UL
#define CKM_SHA224                     0x00000255UL
#define CKM_SHA224_HMAC                0x00000256UL
#define CKM_SHA224_HMAC_GENERAL        0x00000257UL
#define CKM_SHA384                     0x00000260UL
#define CKM_SHA384_HMAC                0x00000261UL
#define CKM_SHA384_HMAC_GENERAL        0x00000262UL
#define CKM_SHA512                     0x00000270UL
#define CKM_SHA512_HMAC                0x00000271UL
#define CKM_SHA512_HMAC_GENERAL        0x00000272UL
#define CKM_SECURID_KEY_GEN            0x00000280UL
#define CKM_SECURID                    0x00000282UL
#define CKM_HOTP_KEY_GEN               0x00000290UL
#define CKM_HOTP                       0x00000291UL
#define CKM_ACTI                       0x000002a0UL
#define CKM_ACTI_KEY_GEN               0x000002a1UL
#define CKM_SHA3_256                   0x000002b0UL
#define CKM_SHA3_256_HMAC              0x000002b1UL
#define CKM_SHA3_256_HMAC_GENERAL      0x000002b2UL
#define CKM_SHA3_256_KEY_GEN           0x000002b3UL
#define CKM_SHA3_224                   0x000002b5UL
#define CKM_SHA3_224_HMAC              0x000002b6UL
#define CKM_SHA3_224_HMAC_GENERAL      0x000002b7UL
#define CKM_SHA3_224_KEY_GEN           0x000002b8UL
#define CKM_SHA3_384                   0x000002c0UL
#define CKM_SHA3_384_HMAC              0x000002c1UL
#define CKM_SHA3_384_HMAC_GENERAL      0x000002c2UL
#define CKM_SHA3_384_KEY_GEN           0x000002c3UL
#define CKM_SHA3_512                   0x000002d0UL
#define CKM_SHA3_512_HMAC              0x000002d1UL
#define CKM_SHA3_512_HMAC_GENERAL      0x000002d2UL
#define CKM_SHA3_512_KEY_GEN           0x000002d3UL

/* 0x0300 - 0x0345: CAST, CAST3, CAST-128, RC5, IDEA */
#define CKM_CAST_KEY_GEN               0x00000300UL
#define CKM_CAST_ECB                   0x00000301UL
#define CKM_CAST_CBC                   0x00000302UL
#define CKM_CAST_MAC                   0x00000303UL
#define CKM_CAST_MAC_GENERAL           0x00000304UL
#define CKM_CAST_CBC_PAD               0x00000305UL
#define CKM_CAST3_KEY_GEN              0x00000310UL
#define CKM_CAST3_ECB                  0x00000311UL
#define CKM_CAST3_CBC                  0x00000312UL
#define CKM_CAST3_MAC                  0x00000313UL
#define CKM_CAST3_MAC_GENERAL          0x00000314UL
#define CKM_CAST3_CBC_PAD              0x00000315UL
#define CKM_CAST128_KEY_GEN            0x00000320UL
#define CKM_CAST128_ECB                0x00000321UL
#define CKM_CAST128_CBC                0x00000322UL
#define CKM_CAST128_MAC                0x00000323UL
#define CKM_CAST128_MAC_GENERAL        0x00000324UL
#define CKM_CAST128_CBC_PAD            0x00000325UL
#define CKM_CAST5_KEY_GEN              CKM_CAST128_KEY_GEN
#define CKM_CAST5_ECB                  CKM_CAST128_ECB
#define CKM_CAST5_CBC                  CKM_CAST128_CBC
#define CKM_CAST5_MAC                  CKM_CAST128_MAC
#define CKM_CAST5_MAC_GENERAL          CKM_CAST128_MAC_GENERAL
#define CKM_CAST5_CBC_PAD              CKM_CAST128_CBC_PAD
#define CKM_RC5_KEY_GEN                0x00000330UL
#define CKM_RC5_ECB                    0x00000331UL
#define CKM_RC5_CBC                    0x00000332UL
#define CKM_RC5_MAC                    0x00000333UL
#define CKM_RC5_MAC_GENERAL            0x00000334UL
#define CKM_RC5_CBC_PAD                0x00000335UL
#define CKM_IDEA_KEY_GEN               0x00000340UL
#define CKM_IDEA_ECB                   0x00000341UL
#define CKM_IDEA_CBC                   0x00000342UL
#define CKM_IDEA_MAC                   0x00000343UL
#define CKM_IDEA_MAC_GENERAL           0x00000344UL
#define CKM_IDEA_CBC_PAD               0x00000345UL

/* 0x0350 - 0x039c: generic secrets, simple derivations, SSL 3.0/TLS 1.0,
 * hash-based key derivation */
#define CKM_GENERIC_SECRET_KEY_GEN     0x00000350UL
#define CKM_CONCATENATE_BASE_AND_KEY   0x00000360UL
#define CKM_CONCATENATE_BASE_AND_DATA  0x00000362UL
#define CKM_CONCATENATE_DATA_AND_BASE  0x00000363UL
#define CKM_XOR_BASE_AND_DATA          0x00000364UL
#define CKM_EXTRACT_KEY_FROM_KEY       0x00000365UL
#define CKM_SSL3_PRE_MASTER_KEY_GEN    0x00000370UL
#define CKM_SSL3_MASTER_KEY_DERIVE     0x00000371UL
#define CKM_SSL3_KEY_AND_MAC_DERIVE    0x00000372UL
#define CKM_SSL3_MASTER_KEY_DERIVE_DH  0x00000373UL
#define CKM_TLS_PRE_MASTER_KEY_GEN     0x00000374UL
#define CKM_TLS_MASTER_KEY_DERIVE      0x00000375UL
#define CKM_TLS_KEY_AND_MAC_DERIVE     0x00000376UL
#define CKM_TLS_MASTER_KEY_DERIVE_DH   0x00000377UL
#define CKM_TLS_PRF                    0x00000378UL
#define CKM_SSL3_MD5_MAC               0x00000380UL
#define CKM_SSL3_SHA1_MAC              0x00000381UL
#define CKM_MD5_KEY_DERIVATION         0x00000390UL
#define CKM_MD2_KEY_DERIVATION         0x00000391UL
#define CKM_SHA1_KEY_DERIVATION        0x00000392UL
#define CKM_SHA256_KEY_DERIVATION      0x00000393UL
#define CKM_SHA384_KEY_DERIVATION      0x00000394UL
#define CKM_SHA512_KEY_DERIVATION      0x00000395UL
#define CKM_SHA224_KEY_DERIVATION      0x00000396UL
#define CKM_SHA3_256_KEY_DERIVATION    0x00000397UL
#define CKM_SHA3_224_KEY_DERIVATION    0x00000398UL
#define CKM_SHA3_384_KEY_DERIVATION    0x00000399UL
#define CKM_SHA3_512_KEY_DERIVATION    0x0000039aUL
#define CKM_SHAKE_128_KEY_DERIVATION   0x0000039bUL
#define CKM_SHAKE_256_KEY_DERIVATION   0x0000039cUL
/* the 3.0 text also spells the SHA-3 ones ..._KEY_DERIVE */
#define CKM_SHA3_256_KEY_DERIVE        CKM_SHA3_256_KEY_DERIVATION
#define CKM_SHA3_224_KEY_DERIVE        CKM_SHA3_224_KEY_DERIVATION
#define CKM_SHA3_384_KEY_DERIVE        CKM_SHA3_384_KEY_DERIVATION
#define CKM_SHA3_512_KEY_DERIVE        CKM_SHA3_512_KEY_DERIVATION
#define CKM_SHAKE_128_KEY_DERIVE       CKM_SHAKE_128_KEY_DERIVATION
#define CKM_SHAKE_256_KEY_DERIVE       CKM_SHAKE_256_KEY_DERIVATION

/* 0x03a0 - 0x03e5: password-based encryption, SP 800-108 KDFs,
 * PKCS #5 PBKDF2, WTLS, TLS 1.0 MAC, TLS 1.2 */
#define CKM_PBE_MD2_DES_CBC            0x000003a0UL
#define CKM_PBE_MD5_DES_CBC            0x000003a1UL
#define CKM_PBE_MD5_CAST_CBC           0x000003a2UL
#define CKM_PBE_MD5_CAST3_CBC          0x000003a3UL
#define CKM_PBE_MD5_CAST128_CBC        0x000003a4UL
#define CKM_PBE_MD5_CAST5_CBC          CKM_PBE_MD5_CAST128_CBC
#define CKM_PBE_SHA1_CAST128_CBC       0x000003a5UL
#define CKM_PBE_SHA1_CAST5_CBC         CKM_PBE_SHA1_CAST128_CBC
#define CKM_PBE_SHA1_RC4_128           0x000003a6UL
#define CKM_PBE_SHA1_RC4_40            0x000003a7UL
#define CKM_PBE_SHA1_DES3_EDE_CBC      0x000003a8UL
#define CKM_PBE_SHA1_DES2_EDE_CBC      0x000003a9UL
#define CKM_PBE_SHA1_RC2_128_CBC       0x000003aaUL
#define CKM_PBE_SHA1_RC2_40_CBC        0x000003abUL
#define CKM_SP800_108_COUNTER_KDF         0x000003acUL /* 3.0 */
#define CKM_SP800_108_FEEDBACK_KDF        0x000003adUL /* 3.0 */
#define CKM_SP800_108_DOUBLE_PIPELINE_KDF 0x000003aeUL /* 3.0 */
#define CKM_PKCS5_PBKD2                0x000003b0UL
#define CKM_PBA_SHA1_WITH_SHA1_HMAC    0x000003c0UL
#define CKM_WTLS_PRE_MASTER_KEY_GEN        0x000003d0UL
#define CKM_WTLS_MASTER_KEY_DERIVE         0x000003d1UL
#define CKM_WTLS_MASTER_KEY_DERIVE_DH_ECC  0x000003d2UL
#define CKM_WTLS_PRF                       0x000003d3UL
#define CKM_WTLS_SERVER_KEY_AND_MAC_DERIVE 0x000003d4UL
#define CKM_WTLS_CLIENT_KEY_AND_MAC_DERIVE 0x000003d5UL
#define CKM_TLS10_MAC_SERVER           0x000003d6UL
#define CKM_TLS10_MAC_CLIENT           0x000003d7UL
#define CKM_TLS12_MAC                  0x000003d8UL
#define CKM_TLS12_KDF                  0x000003d9UL
#define CKM_TLS12_MASTER_KEY_DERIVE    0x000003e0UL
#define CKM_TLS12_KEY_AND_MAC_DERIVE   0x000003e1UL
#define CKM_TLS12_MASTER_KEY_DERIVE_DH 0x000003e2UL
#define CKM_TLS12_KEY_SAFE_DERIVE      0x000003e3UL
#define CKM_TLS_MAC                    0x000003e4UL
#define CKM_TLS_KDF                    0x000003e5UL

/* 0x0400 - 0x0657: LYNKS and SET wrapping, CMS, CT-KIP, Camellia, ARIA,
 * SEED */
#define CKM_KEY_WRAP_LYNKS             0x00000400UL
#define CKM_KEY_WRAP_SET_OAEP          0x00000401UL
#define CKM_CMS_SIG                    0x00000500UL
#define CKM_KIP_DERIVE                 0x00000510UL
#define CKM_KIP_WRAP                   0x00000511UL
#define CKM_KIP_MAC                    0x00000512UL
#define CKM_CAMELLIA_KEY_GEN           0x00000550UL
#define CKM_CAMELLIA_ECB               0x00000551UL
#define CKM_CAMELLIA_CBC               0x00000552UL
#define CKM_CAMELLIA_MAC               0x00000553UL
#define CKM_CAMELLIA_MAC_GENERAL       0x00000554UL
#define CKM_CAMELLIA_CBC_PAD           0x00000555UL
#define CKM_CAMELLIA_ECB_ENCRYPT_DATA  0x00000556UL
#define CKM_CAMELLIA_CBC_ENCRYPT_DATA  0x00000557UL
#define CKM_CAMELLIA_CTR               0x00000558UL
#define CKM_ARIA_KEY_GEN               0x00000560UL
#define CKM_ARIA_ECB                   0x00000561UL
#define CKM_ARIA_CBC                   0x00000562UL
#define CKM_ARIA_MAC                   0x00000563UL
#define CKM_ARIA_MAC_GENERAL           0x00000564UL
#define CKM_ARIA_CBC_PAD               0x00000565UL
#define CKM_ARIA_ECB_ENCRYPT_DATA      0x00000566UL
#define CKM_ARIA_CBC_ENCRYPT_DATA      0x00000567UL
#define CKM_SEED_KEY_GEN               0x00000650UL
#define CKM_SEED_ECB                   0x00000651UL
#define CKM_SEED_CBC                   0x00000652UL
#define CKM_SEED_MAC                   0x00000653UL
#define CKM_SEED_MAC_GENERAL           0x00000654UL
#define CKM_SEED_CBC_PAD               0x00000655UL
#define CKM_SEED_ECB_ENCRYPT_DATA      0x00000656UL
#define CKM_SEED_CBC_ENCRYPT_DATA      0x00000657UL

/* 0x1000 - 0x1036: Fortezza family (SKIPJACK, KEA, BATON) */
#define CKM_SKIPJACK_KEY_GEN           0x00001000UL
#define CKM_SKIPJACK_ECB64             0x00001001UL
#define CKM_SKIPJACK_CBC64             0x00001002UL
#define CKM_SKIPJACK_OFB64             0x00001003UL
#define CKM_SKIPJACK_CFB64             0x00001004UL
#define CKM_SKIPJACK_CFB32             0x00001005UL
#define CKM_SKIPJACK_CFB16             0x00001006UL
#define CKM_SKIPJACK_CFB8              0x00001007UL
#define CKM_SKIPJACK_WRAP              0x00001008UL
#define CKM_SKIPJACK_PRIVATE_WRAP      0x00001009UL
#define CKM_SKIPJACK_RELAYX            0x0000100aUL
#define CKM_KEA_KEY_PAIR_GEN           0x00001010UL
#define CKM_KEA_KEY_DERIVE             0x00001011UL
#define CKM_KEA_DERIVE                 0x00001012UL
#define CKM_FORTEZZA_TIMESTAMP         0x00001020UL
#define CKM_BATON_KEY_GEN              0x00001030UL
#define CKM_BATON_ECB128               0x00001031UL
#define CKM_BATON_ECB96                0x00001032UL
#define CKM_BATON_CBC128               0x00001033UL
#define CKM_BATON_COUNTER              0x00001034UL
#define CKM_BATON_SHUFFLE              0x00001035UL
#define CKM_BATON_WRAP                 0x00001036UL

/* 0x1040 - 0x1057: elliptic curves, EdDSA, RSA-AES key wrap */
#define CKM_EC_KEY_PAIR_GEN            0x00001040UL
#define CKM_ECDSA_KEY_PAIR_GEN         CKM_EC_KEY_PAIR_GEN /* older name */
#define CKM_ECDSA                      0x00001041UL
#define CKM_ECDSA_SHA1                 0x00001042UL
#define CKM_ECDSA_SHA224               0x00001043UL
#define CKM_ECDSA_SHA256               0x00001044UL
#define CKM_ECDSA_SHA384               0x00001045UL
#define CKM_ECDSA_SHA512               0x00001046UL
#define CKM_ECDSA_SHA3_224             0x00001047UL
#define CKM_ECDSA_SHA3_256             0x00001048UL
#define CKM_ECDSA_SHA3_384             0x00001049UL
#define CKM_ECDSA_SHA3_512             0x0000104aUL
#define CKM_ECDH1_DERIVE               0x00001050UL
#define CKM_ECDH1_COFACTOR_DERIVE      0x00001051UL
#define CKM_ECMQV_DERIVE               0x00001052UL
#define CKM_ECDH_AES_KEY_WRAP          0x00001053UL
#define CKM_RSA_AES_KEY_WRAP           0x00001054UL
#define CKM_EC_EDWARDS_KEY_PAIR_GEN    0x00001055UL
#define CKM_EC_MONTGOMERY_KEY_PAIR_GEN 0x00001056UL
#define CKM_EDDSA                      0x00001057UL

/* 0x1060 - 0x1105: JUNIPER, FASTHASH, AES, Blowfish, Twofish,
 * key derivation by data encryption */
#define CKM_JUNIPER_KEY_GEN            0x00001060UL
#define CKM_JUNIPER_ECB128             0x00001061UL
#define CKM_JUNIPER_CBC128             0x00001062UL
#define CKM_JUNIPER_COUNTER            0x00001063UL
#define CKM_JUNIPER_SHUFFLE            0x00001064UL
#define CKM_JUNIPER_WRAP               0x00001065UL
#define CKM_FASTHASH                   0x00001070UL
#define CKM_AES_XTS                    0x00001071UL
#define CKM_AES_XTS_KEY_GEN            0x00001072UL
#define CKM_AES_KEY_GEN                0x00001080UL
#define CKM_AES_ECB                    0x00001081UL
#define CKM_AES_CBC                    0x00001082UL
#define CKM_AES_MAC                    0x00001083UL
#define CKM_AES_MAC_GENERAL            0x00001084UL
#define CKM_AES_CBC_PAD                0x00001085UL
#define CKM_AES_CTR                    0x00001086UL
#define CKM_AES_GCM                    0x00001087UL
#define CKM_AES_CCM                    0x00001088UL
#define CKM_AES_CTS                    0x00001089UL
#define CKM_AES_CMAC                   0x0000108aUL
#define CKM_AES_CMAC_GENERAL           0x0000108bUL
#define CKM_AES_XCBC_MAC               0x0000108cUL
#define CKM_AES_XCBC_MAC_96            0x0000108dUL
#define CKM_AES_GMAC                   0x0000108eUL
#define CKM_BLOWFISH_KEY_GEN           0x00001090UL
#define CKM_BLOWFISH_CBC               0x00001091UL
#define CKM_TWOFISH_KEY_GEN            0x00001092UL
#define CKM_TWOFISH_CBC                0x00001093UL
#define CKM_BLOWFISH_CBC_PAD           0x00001094UL
#define CKM_TWOFISH_CBC_PAD            0x00001095UL
#define CKM_DES_ECB_ENCRYPT_DATA       0x00001100UL
#define CKM_DES_CBC_ENCRYPT_DATA       0x00001101UL
#define CKM_DES3_ECB_ENCRYPT_DATA      0x00001102UL
#define CKM_DES3_CBC_ENCRYPT_DATA      0x00001103UL
#define CKM_AES_ECB_ENCRYPT_DATA       0x00001104UL
#define CKM_AES_CBC_ENCRYPT_DATA       0x00001105UL

/* 0x1200 - 0x1228: GOST, ChaCha20, Poly1305 */
#define CKM_GOSTR3410_KEY_PAIR_GEN     0x00001200UL
#define CKM_GOSTR3410                  0x00001201UL
#define CKM_GOSTR3410_WITH_GOSTR3411   0x00001202UL
#define CKM_GOSTR3410_KEY_WRAP         0x00001203UL
#define CKM_GOSTR3410_DERIVE           0x00001204UL
#define CKM_GOSTR3411                  0x00001210UL
#define CKM_GOSTR3411_HMAC             0x00001211UL
#define CKM_GOST28147_KEY_GEN          0x00001220UL
#define CKM_GOST28147_ECB              0x00001221UL
#define CKM_GOST28147                  0x00001222UL
#define CKM_GOST28147_MAC              0x00001223UL
#define CKM_GOST28147_KEY_WRAP         0x00001224UL
#define CKM_CHACHA20_KEY_GEN           0x00001225UL
#define CKM_CHACHA20                   0x00001226UL
#define CKM_POLY1305_KEY_GEN           0x00001227UL
#define CKM_POLY1305                   0x00001228UL

/* 0x140b: EC key generation with extra random bits (3.0) */
#define CKM_EC_KEY_PAIR_GEN_W_EXTRA_BITS 0x0000140bUL

/* 0x2000 - 0x2005: domain parameter generation */
#define CKM_DSA_PARAMETER_GEN               0x00002000UL
#define CKM_DH_PKCS_PARAMETER_GEN           0x00002001UL
#define CKM_X9_42_DH_PARAMETER_GEN          0x00002002UL
#define CKM_DSA_PROBABILISTIC_PARAMETER_GEN 0x00002003UL
#define CKM_DSA_PROBABLISTIC_PARAMETER_GEN  CKM_DSA_PROBABILISTIC_PARAMETER_GEN
#define CKM_DSA_SHAWE_TAYLOR_PARAMETER_GEN  0x00002004UL
#define CKM_DSA_FIPS_G_GEN                  0x00002005UL

/* 0x2104 - 0x210c: AES feedback modes and key wrap */
#define CKM_AES_OFB                    0x00002104UL
#define CKM_AES_CFB64                  0x00002105UL
#define CKM_AES_CFB8                   0x00002106UL
#define CKM_AES_CFB128                 0x00002107UL
#define CKM_AES_CFB1                   0x00002108UL
#define CKM_AES_KEY_WRAP               0x00002109UL /* RFC 3394 */
#define CKM_AES_KEY_WRAP_PAD           0x0000210aUL /* deprecated */
#define CKM_AES_KEY_WRAP_KWP           0x0000210bUL /* RFC 5649 */
#define CKM_AES_KEY_WRAP_PKCS7         0x0000210cUL

/* 0x4001 - 0x400b: TPM 1.1 RSA, HMAC key generation, the null mechanism */
#define CKM_RSA_PKCS_TPM_1_1           0x00004001UL
#define CKM_RSA_PKCS_OAEP_TPM_1_1      0x00004002UL
#define CKM_SHA_1_KEY_GEN              0x00004003UL
#define CKM_SHA224_KEY_GEN             0x00004004UL
#define CKM_SHA256_KEY_GEN             0x00004005UL
#define CKM_SHA384_KEY_GEN             0x00004006UL
#define CKM_SHA512_KEY_GEN             0x00004007UL
#define CKM_SHA512_224_KEY_GEN         0x00004008UL
#define CKM_SHA512_256_KEY_GEN         0x00004009UL
#define CKM_SHA512_T_KEY_GEN           0x0000400aUL
#define CKM_NULL                       0x0000400bUL

/* 0x400c - 0x403a: BLAKE2b, Salsa20, AEAD stream ciphers, Signal
 * protocol (X3DH, double ratchet, XEdDSA), HKDF, IKE, HSS, XMSS */
#define CKM_BLAKE2B_160                0x0000400cUL
#define CKM_BLAKE2B_160_HMAC           0x0000400dUL
#define CKM_BLAKE2B_160_HMAC_GENERAL   0x0000400eUL
#define CKM_BLAKE2B_160_KEY_DERIVE     0x0000400fUL
#define CKM_BLAKE2B_160_KEY_GEN        0x00004010UL
#define CKM_BLAKE2B_256                0x00004011UL
#define CKM_BLAKE2B_256_HMAC           0x00004012UL
#define CKM_BLAKE2B_256_HMAC_GENERAL   0x00004013UL
#define CKM_BLAKE2B_256_KEY_DERIVE     0x00004014UL
#define CKM_BLAKE2B_256_KEY_GEN        0x00004015UL
#define CKM_BLAKE2B_384                0x00004016UL
#define CKM_BLAKE2B_384_HMAC           0x00004017UL
#define CKM_BLAKE2B_384_HMAC_GENERAL   0x00004018UL
#define CKM_BLAKE2B_384_KEY_DERIVE     0x00004019UL
#define CKM_BLAKE2B_384_KEY_GEN        0x0000401aUL
#define CKM_BLAKE2B_512                0x0000401bUL
#define CKM_BLAKE2B_512_HMAC           0x0000401cUL
#define CKM_BLAKE2B_512_HMAC_GENERAL   0x0000401dUL
#define CKM_BLAKE2B_512_KEY_DERIVE     0x0000401eUL
#define CKM_BLAKE2B_512_KEY_GEN        0x0000401fUL
#define CKM_SALSA20                    0x00004020UL
#define CKM_CHACHA20_POLY1305          0x00004021UL
#define CKM_SALSA20_POLY1305           0x00004022UL
#define CKM_X3DH_INITIALIZE            0x00004023UL
#define CKM_X3DH_RESPOND               0x00004024UL
#define CKM_X2RATCHET_INITIALIZE       0x00004025UL
#define CKM_X2RATCHET_RESPOND          0x00004026UL
#define CKM_X2RATCHET_ENCRYPT          0x00004027UL
#define CKM_X2RATCHET_DECRYPT          0x00004028UL
#define CKM_XEDDSA                     0x00004029UL
#define CKM_HKDF_DERIVE                0x0000402aUL
#define CKM_HKDF_DATA                  0x0000402bUL
#define CKM_HKDF_KEY_GEN               0x0000402cUL
#define CKM_SALSA20_KEY_GEN            0x0000402dUL
#define CKM_IKE2_PRF_PLUS_DERIVE       0x0000402eUL
#define CKM_IKE_PRF_DERIVE             0x0000402fUL
#define CKM_IKE1_PRF_DERIVE            0x00004030UL
#define CKM_IKE1_EXTENDED_DERIVE       0x00004031UL
#define CKM_HSS_KEY_PAIR_GEN           0x00004032UL /* 3.1 */
#define CKM_HSS                        0x00004033UL /* 3.1 */
#define CKM_XMSS_KEY_PAIR_GEN          0x00004034UL /* 3.2 */
#define CKM_XMSSMT_KEY_PAIR_GEN        0x00004035UL /* 3.2 */
#define CKM_XMSS                       0x00004036UL /* 3.2 */
#define CKM_XMSSMT                     0x00004037UL /* 3.2 */
#define CKM_ECDH_X_AES_KEY_WRAP        0x00004038UL /* 3.2 */
#define CKM_ECDH_COF_AES_KEY_WRAP      0x00004039UL /* 3.2 */
#define CKM_PUB_KEY_FROM_PRIV_KEY      0x0000403aUL /* 3.2 */

#define CKM_VENDOR_DEFINED             0x80000000UL

/* A mechanism together with its parameter block. */
typedef struct CK_MECHANISM {
        CK_MECHANISM_TYPE mechanism;
        CK_VOID_PTR       pParameter;   /* one of the *_PARAMS below */
        CK_ULONG          ulParameterLen; /* in bytes */
} CK_MECHANISM;
typedef CK_MECHANISM CK_PTR CK_MECHANISM_PTR;

/* What a token can do with a mechanism, from C_GetMechanismInfo. */
typedef struct CK_MECHANISM_INFO {
        CK_ULONG ulMinKeySize; /* bits or bytes, per mechanism */
        CK_ULONG ulMaxKeySize;
        CK_FLAGS flags;        /* CKF_HW, CKF_SIGN etc. */
} CK_MECHANISM_INFO;
typedef CK_MECHANISM_INFO CK_PTR CK_MECHANISM_INFO_PTR;

/* CK_MECHANISM_INFO.flags */
#define CKF_HW                0x00000001UL /* performed by the device */
#define CKF_MESSAGE_ENCRYPT   0x00000002UL /* 3.0 */
#define CKF_MESSAGE_DECRYPT   0x00000004UL /* 3.0 */
#define CKF_MESSAGE_SIGN      0x00000008UL /* 3.0 */
#define CKF_MESSAGE_VERIFY    0x00000010UL /* 3.0 */
#define CKF_MULTI_MESSAGE     0x00000020UL /* 3.0 */
#define CKF_MULTI_MESSGE      CKF_MULTI_MESSAGE /* 3.0 header misspelling */
#define CKF_FIND_OBJECTS      0x00000040UL /* 3.0 */
#define CKF_ENCRYPT           0x00000100UL
#define CKF_DECRYPT           0x00000200UL
#define CKF_DIGEST            0x00000400UL
#define CKF_SIGN              0x00000800UL
#define CKF_SIGN_RECOVER      0x00001000UL
#define CKF_VERIFY            0x00002000UL
#define CKF_VERIFY_RECOVER    0x00004000UL
#define CKF_GENERATE          0x00008000UL
#define CKF_GENERATE_KEY_PAIR 0x00010000UL
#define CKF_WRAP              0x00020000UL
#define CKF_UNWRAP            0x00040000UL
#define CKF_DERIVE            0x00080000UL
#define CKF_EC_F_P            0x00100000UL
#define CKF_EC_F_2M           0x00200000UL
#define CKF_EC_ECPARAMETERS   0x00400000UL
#define CKF_EC_OID            0x00800000UL
#define CKF_EC_NAMEDCURVE     CKF_EC_OID /* 2.40 name */
#define CKF_EC_UNCOMPRESS     0x01000000UL
#define CKF_EC_COMPRESS       0x02000000UL
#define CKF_EC_CURVENAME      0x04000000UL
#define CKF_ENCAPSULATE       0x10000000UL /* 3.2 */
#define CKF_DECAPSULATE       0x20000000UL /* 3.2 */
#define CKF_EXTENSION         0x80000000UL /* must be zero */

/* ======================================================================
 * Return values.  [PKCS#11 3.2 §3.6, §5.1]
 * ====================================================================== */

typedef CK_ULONG CK_RV;

/* universal and general-purpose */
#define CKR_OK                               0x00000000UL
#define CKR_CANCEL                           0x00000001UL
#define CKR_HOST_MEMORY                      0x00000002UL
#define CKR_SLOT_ID_INVALID                  0x00000003UL
#define CKR_GENERAL_ERROR                    0x00000005UL
#define CKR_FUNCTION_FAILED                  0x00000006UL
#define CKR_ARGUMENTS_BAD                    0x00000007UL
#define CKR_NO_EVENT                         0x00000008UL
#define CKR_NEED_TO_CREATE_THREADS           0x00000009UL
#define CKR_CANT_LOCK                        0x0000000aUL
/* attributes */
#define CKR_ATTRIBUTE_READ_ONLY              0x00000010UL
#define CKR_ATTRIBUTE_SENSITIVE              0x00000011UL
#define CKR_ATTRIBUTE_TYPE_INVALID           0x00000012UL
#define CKR_ATTRIBUTE_VALUE_INVALID          0x00000013UL
#define CKR_ACTION_PROHIBITED                0x0000001bUL
/* data and device */
#define CKR_DATA_INVALID                     0x00000020UL
#define CKR_DATA_LEN_RANGE                   0x00000021UL
#define CKR_DEVICE_ERROR                     0x00000030UL
#define CKR_DEVICE_MEMORY                    0x00000031UL
#define CKR_DEVICE_REMOVED                   0x00000032UL
#define CKR_ENCRYPTED_DATA_INVALID           0x00000040UL
#define CKR_ENCRYPTED_DATA_LEN_RANGE         0x00000041UL
#define CKR_AEAD_DECRYPT_FAILED              0x00000042UL /* 3.0 */
#define CKR_FUNCTION_CANCELED                0x00000050UL
#define CKR_FUNCTION_NOT_PARALLEL            0x00000051UL
#define CKR_FUNCTION_NOT_SUPPORTED           0x00000054UL
/* keys and mechanisms */
#define CKR_KEY_HANDLE_INVALID               0x00000060UL
#define CKR_KEY_SIZE_RANGE                   0x00000062UL
#define CKR_KEY_TYPE_INCONSISTENT            0x00000063UL
#define CKR_KEY_NOT_NEEDED                   0x00000064UL
#define CKR_KEY_CHANGED                      0x00000065UL
#define CKR_KEY_NEEDED                       0x00000066UL
#define CKR_KEY_INDIGESTIBLE                 0x00000067UL
#define CKR_KEY_FUNCTION_NOT_PERMITTED       0x00000068UL
#define CKR_KEY_NOT_WRAPPABLE                0x00000069UL
#define CKR_KEY_UNEXTRACTABLE                0x0000006aUL
#define CKR_MECHANISM_INVALID                0x00000070UL
#define CKR_MECHANISM_PARAM_INVALID          0x00000071UL
#define CKR_OBJECT_HANDLE_INVALID            0x00000082UL
#define CKR_OPERATION_ACTIVE                 0x00000090UL
#define CKR_OPERATION_NOT_INITIALIZED        0x00000091UL
/* PINs and sessions */
#define CKR_PIN_INCORRECT                    0x000000a0UL
#define CKR_PIN_INVALID                      0x000000a1UL
#define CKR_PIN_LEN_RANGE                    0x000000a2UL
#define CKR_PIN_EXPIRED                      0x000000a3UL
#define CKR_PIN_LOCKED                       0x000000a4UL
#define CKR_SESSION_CLOSED                   0x000000b0UL
#define CKR_SESSION_COUNT                    0x000000b1UL
#define CKR_SESSION_HANDLE_INVALID           0x000000b3UL
#define CKR_SESSION_PARALLEL_NOT_SUPPORTED   0x000000b4UL
#define CKR_SESSION_READ_ONLY                0x000000b5UL
#define CKR_SESSION_EXISTS                   0x000000b6UL
#define CKR_SESSION_READ_ONLY_EXISTS         0x000000b7UL
#define CKR_SESSION_READ_WRITE_SO_EXISTS     0x000000b8UL
#define CKR_SIGNATURE_INVALID                0x000000c0UL
#define CKR_SIGNATURE_LEN_RANGE              0x000000c1UL
#define CKR_TEMPLATE_INCOMPLETE              0x000000d0UL
#define CKR_TEMPLATE_INCONSISTENT            0x000000d1UL
#define CKR_TOKEN_NOT_PRESENT                0x000000e0UL
#define CKR_TOKEN_NOT_RECOGNIZED             0x000000e1UL
#define CKR_TOKEN_WRITE_PROTECTED            0x000000e2UL
#define CKR_UNWRAPPING_KEY_HANDLE_INVALID    0x000000f0UL
#define CKR_UNWRAPPING_KEY_SIZE_RANGE        0x000000f1UL
#define CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT 0x000000f2UL
#define CKR_USER_ALREADY_LOGGED_IN           0x00000100UL
#define CKR_USER_NOT_LOGGED_IN               0x00000101UL
#define CKR_USER_PIN_NOT_INITIALIZED         0x00000102UL
#define CKR_USER_TYPE_INVALID                0x00000103UL
#define CKR_USER_ANOTHER_ALREADY_LOGGED_IN   0x00000104UL
#define CKR_USER_TOO_MANY_TYPES              0x00000105UL
#define CKR_WRAPPED_KEY_INVALID              0x00000110UL
#define CKR_WRAPPED_KEY_LEN_RANGE            0x00000112UL
#define CKR_WRAPPING_KEY_HANDLE_INVALID      0x00000113UL
#define CKR_WRAPPING_KEY_SIZE_RANGE          0x00000114UL
#define CKR_WRAPPING_KEY_TYPE_INCONSISTENT   0x00000115UL
#define CKR_RANDOM_SEED_NOT_SUPPORTED        0x00000120UL
#define CKR_RANDOM_NO_RNG                    0x00000121UL
#define CKR_DOMAIN_PARAMS_INVALID            0x00000130UL
#define CKR_CURVE_NOT_SUPPORTED              0x00000140UL
#define CKR_BUFFER_TOO_SMALL                 0x00000150UL
#define CKR_SAVED_STATE_INVALID              0x00000160UL
#define CKR_INFORMATION_SENSITIVE            0x00000170UL
#define CKR_STATE_UNSAVEABLE                 0x00000180UL
#define CKR_CRYPTOKI_NOT_INITIALIZED         0x00000190UL
#define CKR_CRYPTOKI_ALREADY_INITIALIZED     0x00000191UL
#define CKR_MUTEX_BAD                        0x000001a0UL
#define CKR_MUTEX_NOT_LOCKED                 0x000001a1UL
#define CKR_NEW_PIN_MODE                     0x000001b0UL
#define CKR_NEXT_OTP                         0x000001b1UL
#define CKR_EXCEEDED_MAX_ITERATIONS          0x000001b5UL
#define CKR_FIPS_SELF_TEST_FAILED            0x000001b6UL
#define CKR_LIBRARY_LOAD_FAILED              0x000001b7UL
#define CKR_PIN_TOO_WEAK                     0x000001b8UL
#define CKR_PUBLIC_KEY_INVALID               0x000001b9UL
#define CKR_FUNCTION_REJECTED                0x00000200UL
#define CKR_TOKEN_RESOURCE_EXCEEDED          0x00000201UL /* 3.0 */
#define CKR_OPERATION_CANCEL_FAILED          0x00000202UL /* 3.0 */
#define CKR_KEY_EXHAUSTED                    0x00000203UL /* 3.1 */
#define CKR_PENDING                          0x00000204UL /* 3.2 */
#define CKR_SESSION_ASYNC_NOT_SUPPORTED      0x00000205UL /* 3.2 */
#define CKR_SEED_RANDOM_REQUIRED             0x00000206UL /* 3.2 */
#define CKR_OPERATION_NOT_VALIDATED          0x00000207UL /* 3.2 */
#define CKR_TOKEN_NOT_INITIALIZED            0x00000208UL /* 3.2 */
#define CKR_PARAMETER_SET_NOT_SUPPORTED      0x00000209UL /* 3.2 */
#define CKR_VENDOR_DEFINED                   0x80000000UL

/* ======================================================================
 * Callbacks, locking and initialisation.  [PKCS#11 3.2 §3.6, §3.7]
 * ====================================================================== */

/* Session notification callback passed to C_OpenSession. */
typedef CK_CALLBACK_FUNCTION(CK_RV, CK_NOTIFY)(
        CK_SESSION_HANDLE hSession, CK_NOTIFICATION event,
        CK_VOID_PTR pApplication);

/* Application-supplied mutex primitives (CK_C_INITIALIZE_ARGS). */
typedef CK_CALLBACK_FUNCTION(CK_RV, CK_CREATEMUTEX)(CK_VOID_PTR_PTR ppMutex);
typedef CK_CALLBACK_FUNCTION(CK_RV, CK_DESTROYMUTEX)(CK_VOID_PTR pMutex);
typedef CK_CALLBACK_FUNCTION(CK_RV, CK_LOCKMUTEX)(CK_VOID_PTR pMutex);
typedef CK_CALLBACK_FUNCTION(CK_RV, CK_UNLOCKMUTEX)(CK_VOID_PTR pMutex);

/* The optional argument of C_Initialize. */
typedef struct CK_C_INITIALIZE_ARGS {
        CK_CREATEMUTEX  CreateMutex;
        CK_DESTROYMUTEX DestroyMutex;
        CK_LOCKMUTEX    LockMutex;
        CK_UNLOCKMUTEX  UnlockMutex;
        CK_FLAGS        flags;     /* CKF_OS_LOCKING_OK etc. */
        CK_VOID_PTR     pReserved; /* must be NULL_PTR */
} CK_C_INITIALIZE_ARGS;
typedef CK_C_INITIALIZE_ARGS CK_PTR CK_C_INITIALIZE_ARGS_PTR;

/* CK_C_INITIALIZE_ARGS.flags */
#define CKF_LIBRARY_CANT_CREATE_OS_THREADS 0x00000001UL
#define CKF_OS_LOCKING_OK                  0x00000002UL

/* C_WaitForSlotEvent flags */
#define CKF_DONT_BLOCK 0x00000001UL

/* C_EncryptMessageNext / C_DecryptMessageNext flags (3.0) */
#define CKF_END_OF_MESSAGE 0x00000001UL

/* ======================================================================
 * Interfaces and function tables.  [PKCS#11 3.2 §3.6]
 *
 * The tables themselves are defined after the function prototypes.
 * ====================================================================== */

typedef struct CK_FUNCTION_LIST CK_FUNCTION_LIST;
typedef CK_FUNCTION_LIST CK_PTR CK_FUNCTION_LIST_PTR;
typedef CK_FUNCTION_LIST_PTR CK_PTR CK_FUNCTION_LIST_PTR_PTR;

typedef struct CK_FUNCTION_LIST_3_0 CK_FUNCTION_LIST_3_0;
typedef CK_FUNCTION_LIST_3_0 CK_PTR CK_FUNCTION_LIST_3_0_PTR;
typedef CK_FUNCTION_LIST_3_0_PTR CK_PTR CK_FUNCTION_LIST_3_0_PTR_PTR;

typedef struct CK_FUNCTION_LIST_3_2 CK_FUNCTION_LIST_3_2;
typedef CK_FUNCTION_LIST_3_2 CK_PTR CK_FUNCTION_LIST_3_2_PTR;
typedef CK_FUNCTION_LIST_3_2_PTR CK_PTR CK_FUNCTION_LIST_3_2_PTR_PTR;

/* One entry of C_GetInterfaceList: a name ("PKCS 11" for the standard
 * tables), a pointer to a table whose first member is a CK_VERSION, and
 * CKF_INTERFACE_ flags.  pInterfaceName was CK_CHAR * before 3.2; both are
 * pointers to unsigned char. */
typedef struct CK_INTERFACE {
        CK_UTF8CHAR_PTR pInterfaceName;
        CK_VOID_PTR     pFunctionList;
        CK_FLAGS        flags;
} CK_INTERFACE;
typedef CK_INTERFACE CK_PTR CK_INTERFACE_PTR;
typedef CK_INTERFACE_PTR CK_PTR CK_INTERFACE_PTR_PTR;

#define CKF_INTERFACE_FORK_SAFE 0x00000001UL

/* ======================================================================
 * Asynchronous operation, validation and trust types (3.2).
 * [PKCS#11 3.2 §3.6, §4]
 * ====================================================================== */

/* Result of an asynchronous operation, from C_AsyncComplete. */
typedef struct CK_ASYNC_DATA {
        CK_ULONG         ulVersion; /* 0 in this version */
        CK_BYTE_PTR      pValue;    /* the caller's original buffer */
        CK_ULONG         ulValue;   /* length of the result */
        CK_OBJECT_HANDLE hObject;
        CK_OBJECT_HANDLE hAdditionalObject;
} CK_ASYNC_DATA;
typedef CK_ASYNC_DATA CK_PTR CK_ASYNC_DATA_PTR;

/* Which flag set C_GetSessionValidationFlags reads. */
typedef CK_ULONG CK_SESSION_VALIDATION_FLAGS_TYPE;
#define CKS_LAST_VALIDATION_OK 0x00000001UL

/* Value of CKA_VALIDATION_TYPE. */
typedef CK_ULONG CK_VALIDATION_TYPE;
typedef CK_VALIDATION_TYPE CK_PTR CK_VALIDATION_TYPE_PTR;
#define CKV_TYPE_UNSPECIFIED 0x00000000UL
#define CKV_TYPE_SOFTWARE    0x00000001UL
#define CKV_TYPE_HARDWARE    0x00000002UL
#define CKV_TYPE_FIRMWARE    0x00000003UL
#define CKV_TYPE_HYBRID      0x00000004UL

/* Value of CKA_VALIDATION_AUTHORITY_TYPE. */
typedef CK_ULONG CK_VALIDATION_AUTHORITY_TYPE;
typedef CK_VALIDATION_AUTHORITY_TYPE CK_PTR CK_VALIDATION_AUTHORITY_TYPE_PTR;
#define CKV_AUTHORITY_TYPE_UNSPECIFIED     0x00000000UL
#define CKV_AUTHORITY_TYPE_NIST_CMVP       0x00000001UL
#define CKV_AUTHORITY_TYPE_COMMON_CRITERIA 0x00000002UL

/* Value of the CKA_TRUST_* attributes of a CKO_TRUST object. */
typedef CK_ULONG CK_TRUST;
#define CKT_TRUST_UNKNOWN           0x00000000UL
#define CKT_TRUSTED                 0x00000001UL
#define CKT_TRUST_ANCHOR            0x00000002UL
#define CKT_NOT_TRUSTED             0x00000003UL
#define CKT_TRUST_MUST_VERIFY_TRUST 0x00000004UL

/* ======================================================================
 * Mechanism parameters: RSA.  [PKCS#11 3.2 §6, RSA]
 * ====================================================================== */

/* Mask generation function for OAEP and PSS. */
typedef CK_ULONG CK_RSA_PKCS_MGF_TYPE;
typedef CK_RSA_PKCS_MGF_TYPE CK_PTR CK_RSA_PKCS_MGF_TYPE_PTR;
#define CKG_MGF1_SHA1     0x00000001UL
#define CKG_MGF1_SHA256   0x00000002UL
#define CKG_MGF1_SHA384   0x00000003UL
#define CKG_MGF1_SHA512   0x00000004UL
#define CKG_MGF1_SHA224   0x00000005UL
#define CKG_MGF1_SHA3_224 0x00000006UL
#define CKG_MGF1_SHA3_256 0x00000007UL
#define CKG_MGF1_SHA3_384 0x00000008UL
#define CKG_MGF1_SHA3_512 0x00000009UL

/* Where the OAEP encoding parameter (label) comes from. */
typedef CK_ULONG CK_RSA_PKCS_OAEP_SOURCE_TYPE;
typedef CK_RSA_PKCS_OAEP_SOURCE_TYPE CK_PTR CK_RSA_PKCS_OAEP_SOURCE_TYPE_PTR;
#define CKZ_DATA_SPECIFIED 0x00000001UL

/* CKM_RSA_PKCS_OAEP */
typedef struct CK_RSA_PKCS_OAEP_PARAMS {
        CK_MECHANISM_TYPE            hashAlg;
        CK_RSA_PKCS_MGF_TYPE         mgf;
        CK_RSA_PKCS_OAEP_SOURCE_TYPE source;
        CK_VOID_PTR                  pSourceData; /* the label */
        CK_ULONG                     ulSourceDataLen;
} CK_RSA_PKCS_OAEP_PARAMS;
typedef CK_RSA_PKCS_OAEP_PARAMS CK_PTR CK_RSA_PKCS_OAEP_PARAMS_PTR;

/* CKM_RSA_PKCS_PSS and the CKM_<hash>_RSA_PKCS_PSS family */
typedef struct CK_RSA_PKCS_PSS_PARAMS {
        CK_MECHANISM_TYPE    hashAlg;
        CK_RSA_PKCS_MGF_TYPE mgf;
        CK_ULONG             sLen; /* salt length in bytes */
} CK_RSA_PKCS_PSS_PARAMS;
typedef CK_RSA_PKCS_PSS_PARAMS CK_PTR CK_RSA_PKCS_PSS_PARAMS_PTR;

/* CKM_RSA_AES_KEY_WRAP */
typedef struct CK_RSA_AES_KEY_WRAP_PARAMS {
        CK_ULONG                    ulAESKeyBits;
        CK_RSA_PKCS_OAEP_PARAMS_PTR pOAEPParams;
} CK_RSA_AES_KEY_WRAP_PARAMS;
typedef CK_RSA_AES_KEY_WRAP_PARAMS CK_PTR CK_RSA_AES_KEY_WRAP_PARAMS_PTR;

/* ======================================================================
 * Mechanism parameters: DSA and domain parameters.  [PKCS#11 3.2 §6, DSA]
 * ====================================================================== */

/* CKM_DSA_PROBABILISTIC_PARAMETER_GEN, ..._SHAWE_TAYLOR_..., _FIPS_G_GEN */
typedef struct CK_DSA_PARAMETER_GEN_PARAM {
        CK_MECHANISM_TYPE hash;
        CK_BYTE_PTR       pSeed;
        CK_ULONG          ulSeedLen;
        CK_ULONG          ulIndex;
} CK_DSA_PARAMETER_GEN_PARAM;
typedef CK_DSA_PARAMETER_GEN_PARAM CK_PTR CK_DSA_PARAMETER_GEN_PARAM_PTR;

/* ======================================================================
 * Mechanism parameters: elliptic curves and Diffie-Hellman.
 * [PKCS#11 3.2 §6, Elliptic Curves; Diffie-Hellman]
 * ====================================================================== */

/* Key derivation function applied to a (EC)DH shared secret. */
typedef CK_ULONG CK_EC_KDF_TYPE;
typedef CK_EC_KDF_TYPE CK_PTR CK_EC_KDF_TYPE_PTR;
#define CKD_NULL                 0x00000001UL
#define CKD_SHA1_KDF             0x00000002UL
#define CKD_SHA1_KDF_ASN1        0x00000003UL /* X9.42 */
#define CKD_SHA1_KDF_CONCATENATE 0x00000004UL /* X9.42 */
#define CKD_SHA224_KDF           0x00000005UL
#define CKD_SHA256_KDF           0x00000006UL
#define CKD_SHA384_KDF           0x00000007UL
#define CKD_SHA512_KDF           0x00000008UL
#define CKD_CPDIVERSIFY_KDF      0x00000009UL
#define CKD_SHA3_224_KDF         0x0000000aUL
#define CKD_SHA3_256_KDF         0x0000000bUL
#define CKD_SHA3_384_KDF         0x0000000cUL
#define CKD_SHA3_512_KDF         0x0000000dUL
#define CKD_SHA1_KDF_SP800       0x0000000eUL
#define CKD_SHA224_KDF_SP800     0x0000000fUL
#define CKD_SHA256_KDF_SP800     0x00000010UL
#define CKD_SHA384_KDF_SP800     0x00000011UL
#define CKD_SHA512_KDF_SP800     0x00000012UL
#define CKD_SHA3_224_KDF_SP800   0x00000013UL
#define CKD_SHA3_256_KDF_SP800   0x00000014UL
#define CKD_SHA3_384_KDF_SP800   0x00000015UL
#define CKD_SHA3_512_KDF_SP800   0x00000016UL
#define CKD_BLAKE2B_160_KDF      0x00000017UL
#define CKD_BLAKE2B_256_KDF      0x00000018UL
#define CKD_BLAKE2B_384_KDF      0x00000019UL
#define CKD_BLAKE2B_512_KDF      0x0000001aUL

/* CKM_ECDH1_DERIVE, CKM_ECDH1_COFACTOR_DERIVE */
typedef struct CK_ECDH1_DERIVE_PARAMS {
        CK_EC_KDF_TYPE kdf;
        CK_ULONG       ulSharedDataLen;
        CK_BYTE_PTR    pSharedData;
        CK_ULONG       ulPublicDataLen; /* the peer's public value */
        CK_BYTE_PTR    pPublicData;
} CK_ECDH1_DERIVE_PARAMS;
typedef CK_ECDH1_DERIVE_PARAMS CK_PTR CK_ECDH1_DERIVE_PARAMS_PTR;

/* Two-key ECDH (ECMQV-style exchanges with a second key pair) */
typedef struct CK_ECDH2_DERIVE_PARAMS {
        CK_EC_KDF_TYPE   kdf;
        CK_ULONG         ulSharedDataLen;
        CK_BYTE_PTR      pSharedData;
        CK_ULONG         ulPublicDataLen;
        CK_BYTE_PTR      pPublicData;
        CK_ULONG         ulPrivateDataLen;
        CK_OBJECT_HANDLE hPrivateData;
        CK_ULONG         ulPublicDataLen2;
        CK_BYTE_PTR      pPublicData2;
} CK_ECDH2_DERIVE_PARAMS;
typedef CK_ECDH2_DERIVE_PARAMS CK_PTR CK_ECDH2_DERIVE_PARAMS_PTR;

/* CKM_ECMQV_DERIVE */
typedef struct CK_ECMQV_DERIVE_PARAMS {
        CK_EC_KDF_TYPE   kdf;
        CK_ULONG         ulSharedDataLen;
        CK_BYTE_PTR      pSharedData;
        CK_ULONG         ulPublicDataLen;
        CK_BYTE_PTR      pPublicData;
        CK_ULONG         ulPrivateDataLen;
        CK_OBJECT_HANDLE hPrivateData;
        CK_ULONG         ulPublicDataLen2;
        CK_BYTE_PTR      pPublicData2;
        CK_OBJECT_HANDLE publicKey;
} CK_ECMQV_DERIVE_PARAMS;
typedef CK_ECMQV_DERIVE_PARAMS CK_PTR CK_ECMQV_DERIVE_PARAMS_PTR;

/* CKM_ECDH_AES_KEY_WRAP (and the 3.2 ECDH_X / ECDH_COF variants) */
typedef struct CK_ECDH_AES_KEY_WRAP_PARAMS {
        CK_ULONG       ulAESKeyBits;
        CK_EC_KDF_TYPE kdf;
        CK_ULONG       ulSharedDataLen;
        CK_BYTE_PTR    pSharedData;
} CK_ECDH_AES_KEY_WRAP_PARAMS;
typedef CK_ECDH_AES_KEY_WRAP_PARAMS CK_PTR CK_ECDH_AES_KEY_WRAP_PARAMS_PTR;

/* X9.42 Diffie-Hellman */
typedef CK_ULONG CK_X9_42_DH_KDF_TYPE;
typedef CK_X9_42_DH_KDF_TYPE CK_PTR CK_X9_42_DH_KDF_TYPE_PTR;

typedef struct CK_X9_42_DH1_DERIVE_PARAMS {
        CK_X9_42_DH_KDF_TYPE kdf;
        CK_ULONG             ulOtherInfoLen;
        CK_BYTE_PTR          pOtherInfo;
        CK_ULONG             ulPublicDataLen;
        CK_BYTE_PTR          pPublicData;
} CK_X9_42_DH1_DERIVE_PARAMS;
typedef CK_X9_42_DH1_DERIVE_PARAMS CK_PTR CK_X9_42_DH1_DERIVE_PARAMS_PTR;

typedef struct CK_X9_42_DH2_DERIVE_PARAMS {
        CK_X9_42_DH_KDF_TYPE kdf;
        CK_ULONG             ulOtherInfoLen;
        CK_BYTE_PTR          pOtherInfo;
        CK_ULONG             ulPublicDataLen;
        CK_BYTE_PTR          pPublicData;
        CK_ULONG             ulPrivateDataLen;
        CK_OBJECT_HANDLE     hPrivateData;
        CK_ULONG             ulPublicDataLen2;
        CK_BYTE_PTR          pPublicData2;
} CK_X9_42_DH2_DERIVE_PARAMS;
typedef CK_X9_42_DH2_DERIVE_PARAMS CK_PTR CK_X9_42_DH2_DERIVE_PARAMS_PTR;

typedef struct CK_X9_42_MQV_DERIVE_PARAMS {
        CK_X9_42_DH_KDF_TYPE kdf;
        CK_ULONG             ulOtherInfoLen;
        CK_BYTE_PTR          pOtherInfo;
        CK_ULONG             ulPublicDataLen;
        CK_BYTE_PTR          pPublicData;
        CK_ULONG             ulPrivateDataLen;
        CK_OBJECT_HANDLE     hPrivateData;
        CK_ULONG             ulPublicDataLen2;
        CK_BYTE_PTR          pPublicData2;
        CK_OBJECT_HANDLE     publicKey;
} CK_X9_42_MQV_DERIVE_PARAMS;
typedef CK_X9_42_MQV_DERIVE_PARAMS CK_PTR CK_X9_42_MQV_DERIVE_PARAMS_PTR;

/* CKM_EDDSA (Ed25519ph/ctx, Ed448, Ed448ph) */
typedef struct CK_EDDSA_PARAMS {
        CK_BBOOL    phFlag; /* CK_TRUE: pre-hashed variant */
        CK_ULONG    ulContextDataLen;
        CK_BYTE_PTR pContextData;
} CK_EDDSA_PARAMS;
typedef CK_EDDSA_PARAMS CK_PTR CK_EDDSA_PARAMS_PTR;

/* CKM_XEDDSA */
typedef CK_ULONG CK_XEDDSA_HASH_TYPE;
typedef CK_XEDDSA_HASH_TYPE CK_PTR CK_XEDDSA_HASH_TYPE_PTR;

typedef struct CK_XEDDSA_PARAMS {
        CK_XEDDSA_HASH_TYPE hash;
} CK_XEDDSA_PARAMS;
typedef CK_XEDDSA_PARAMS CK_PTR CK_XEDDSA_PARAMS_PTR;

/* Extended triple Diffie-Hellman (Signal X3DH).  The field names are the
 * specification's, handle-typed "p" prefixes included. */
typedef CK_ULONG CK_X3DH_KDF_TYPE;
typedef CK_X3DH_KDF_TYPE CK_PTR CK_X3DH_KDF_TYPE_PTR;

typedef struct CK_X3DH_INITIATE_PARAMS {
        CK_X3DH_KDF_TYPE kdf;
        CK_OBJECT_HANDLE pPeer_identity;
        CK_OBJECT_HANDLE pPeer_prekey;
        CK_BYTE_PTR      pPrekey_signature;
        CK_BYTE_PTR      pOnetime_key;
        CK_OBJECT_HANDLE pOwn_identity;
        CK_OBJECT_HANDLE pOwn_ephemeral;
} CK_X3DH_INITIATE_PARAMS;
typedef CK_X3DH_INITIATE_PARAMS CK_PTR CK_X3DH_INITIATE_PARAMS_PTR;

typedef struct CK_X3DH_RESPOND_PARAMS {
        CK_X3DH_KDF_TYPE kdf;
        CK_BYTE_PTR      pIdentity_id;
        CK_BYTE_PTR      pPrekey_id;
        CK_BYTE_PTR      pOnetime_id;
        CK_OBJECT_HANDLE pInitiator_identity;
        CK_BYTE_PTR      pInitiator_ephemeral;
} CK_X3DH_RESPOND_PARAMS;
typedef CK_X3DH_RESPOND_PARAMS CK_PTR CK_X3DH_RESPOND_PARAMS_PTR;

/* Double ratchet (Signal) */
typedef CK_ULONG CK_X2RATCHET_KDF_TYPE;
typedef CK_X2RATCHET_KDF_TYPE CK_PTR CK_X2RATCHET_KDF_TYPE_PTR;

typedef struct CK_X2RATCHET_INITIALIZE_PARAMS {
        CK_BYTE_PTR           sk;
        CK_OBJECT_HANDLE      peer_public_prekey;
        CK_OBJECT_HANDLE      peer_public_identity;
        CK_OBJECT_HANDLE      own_public_identity;
        CK_BBOOL              bEncryptedHeader;
        CK_ULONG              eCurve;
        CK_MECHANISM_TYPE     aeadMechanism;
        CK_X2RATCHET_KDF_TYPE kdfMechanism;
} CK_X2RATCHET_INITIALIZE_PARAMS;
typedef CK_X2RATCHET_INITIALIZE_PARAMS CK_PTR
        CK_X2RATCHET_INITIALIZE_PARAMS_PTR;

typedef struct CK_X2RATCHET_RESPOND_PARAMS {
        CK_BYTE_PTR           sk;
        CK_OBJECT_HANDLE      own_prekey;
        CK_OBJECT_HANDLE      initiator_identity;
        CK_OBJECT_HANDLE      own_public_identity;
        CK_BBOOL              bEncryptedHeader;
        CK_ULONG              eCurve;
        CK_MECHANISM_TYPE     aeadMechanism;
        CK_X2RATCHET_KDF_TYPE kdfMechanism;
} CK_X2RATCHET_RESPOND_PARAMS;
typedef CK_X2RATCHET_RESPOND_PARAMS CK_PTR CK_X2RATCHET_RESPOND_PARAMS_PTR;

/* ======================================================================
 * Mechanism parameters: block and stream ciphers, AEAD.
 * [PKCS#11 3.2 §6, AES; Additional AES mechanisms; ChaCha20; Salsa20]
 * ====================================================================== */

/* Output length of the CKM_<cipher>_MAC_GENERAL mechanisms, in bytes. */
typedef CK_ULONG CK_MAC_GENERAL_PARAMS;
typedef CK_MAC_GENERAL_PARAMS CK_PTR CK_MAC_GENERAL_PARAMS_PTR;

/* CKM_AES_CTR: counter block and how many of its low bits count. */
typedef struct CK_AES_CTR_PARAMS {
        CK_ULONG ulCounterBits;
        CK_BYTE  cb[16];
} CK_AES_CTR_PARAMS;
typedef CK_AES_CTR_PARAMS CK_PTR CK_AES_CTR_PARAMS_PTR;

/* CKM_CAMELLIA_CTR */
typedef struct CK_CAMELLIA_CTR_PARAMS {
        CK_ULONG ulCounterBits;
        CK_BYTE  cb[16];
} CK_CAMELLIA_CTR_PARAMS;
typedef CK_CAMELLIA_CTR_PARAMS CK_PTR CK_CAMELLIA_CTR_PARAMS_PTR;

/* CKM_AES_GCM for C_EncryptInit/C_DecryptInit.  This is the 2.40 errata
 * and 3.0 layout, with ulIvBits between ulIvLen and pAAD. */
typedef struct CK_GCM_PARAMS {
        CK_BYTE_PTR pIv;
        CK_ULONG    ulIvLen;  /* bytes */
        CK_ULONG    ulIvBits; /* bits; usually ulIvLen * 8 */
        CK_BYTE_PTR pAAD;
        CK_ULONG    ulAADLen;
        CK_ULONG    ulTagBits;
} CK_GCM_PARAMS;
typedef CK_GCM_PARAMS CK_PTR CK_GCM_PARAMS_PTR;

/* The 2.40 name for the same structure. */
typedef CK_GCM_PARAMS CK_AES_GCM_PARAMS;
typedef CK_AES_GCM_PARAMS CK_PTR CK_AES_GCM_PARAMS_PTR;

/* How a message-based AEAD operation obtains its IV or nonce. */
typedef CK_ULONG CK_GENERATOR_FUNCTION;
#define CKG_NO_GENERATE        0x00000000UL
#define CKG_GENERATE           0x00000001UL
#define CKG_GENERATE_COUNTER   0x00000002UL
#define CKG_GENERATE_RANDOM    0x00000003UL
#define CKG_GENERATE_COUNTER_XOR 0x00000004UL

/* CKM_AES_GCM for the message-based functions (3.0) */
typedef struct CK_GCM_MESSAGE_PARAMS {
        CK_BYTE_PTR           pIv;
        CK_ULONG              ulIvLen;
        CK_ULONG              ulIvFixedBits;
        CK_GENERATOR_FUNCTION ivGenerator;
        CK_BYTE_PTR           pTag;
        CK_ULONG              ulTagBits;
} CK_GCM_MESSAGE_PARAMS;
typedef CK_GCM_MESSAGE_PARAMS CK_PTR CK_GCM_MESSAGE_PARAMS_PTR;

/* CKM_AES_GCM for C_WrapKeyAuthenticated/C_UnwrapKeyAuthenticated (3.2) */
typedef struct CK_GCM_WRAP_PARAMS {
        CK_BYTE_PTR           pIv;
        CK_ULONG              ulIvLen;
        CK_ULONG              ulIvFixedBits;
        CK_GENERATOR_FUNCTION ivGenerator;
        CK_BYTE_PTR           pAAD;
        CK_ULONG              ulAADLen;
        CK_ULONG              ulTagBits;
} CK_GCM_WRAP_PARAMS;
typedef CK_GCM_WRAP_PARAMS CK_PTR CK_GCM_WRAP_PARAMS_PTR;

/* CKM_AES_CCM for C_EncryptInit/C_DecryptInit */
typedef struct CK_CCM_PARAMS {
        CK_ULONG    ulDataLen; /* length of the whole message */
        CK_BYTE_PTR pNonce;
        CK_ULONG    ulNonceLen;
        CK_BYTE_PTR pAAD;
        CK_ULONG    ulAADLen;
        CK_ULONG    ulMACLen;  /* bytes */
} CK_CCM_PARAMS;
typedef CK_CCM_PARAMS CK_PTR CK_CCM_PARAMS_PTR;

/* The 2.40 name for the same structure. */
typedef CK_CCM_PARAMS CK_AES_CCM_PARAMS;
typedef CK_AES_CCM_PARAMS CK_PTR CK_AES_CCM_PARAMS_PTR;

/* CKM_AES_CCM for the message-based functions (3.0) */
typedef struct CK_CCM_MESSAGE_PARAMS {
        CK_ULONG              ulDataLen;
        CK_BYTE_PTR           pNonce;
        CK_ULONG              ulNonceLen;
        CK_ULONG              ulNonceFixedBits;
        CK_GENERATOR_FUNCTION nonceGenerator;
        CK_BYTE_PTR           pMAC;
        CK_ULONG              ulMACLen;
} CK_CCM_MESSAGE_PARAMS;
typedef CK_CCM_MESSAGE_PARAMS CK_PTR CK_CCM_MESSAGE_PARAMS_PTR;

/* CKM_AES_CCM for the authenticated key wrapping functions (3.2) */
typedef struct CK_CCM_WRAP_PARAMS {
        CK_ULONG              ulDataLen; /* length of the wrapped key data */
        CK_BYTE_PTR           pNonce;
        CK_ULONG              ulNonceLen;
        CK_ULONG              ulNonceFixedBits;
        CK_GENERATOR_FUNCTION nonceGenerator;
        CK_BYTE_PTR           pAAD;
        CK_ULONG              ulAADLen;
        CK_ULONG              ulMACLen;
} CK_CCM_WRAP_PARAMS;
typedef CK_CCM_WRAP_PARAMS CK_PTR CK_CCM_WRAP_PARAMS_PTR;

/* CKM_CHACHA20 */
typedef struct CK_CHACHA20_PARAMS {
        CK_BYTE_PTR pBlockCounter;
        CK_ULONG    blockCounterBits;
        CK_BYTE_PTR pNonce;
        CK_ULONG    ulNonceBits;
} CK_CHACHA20_PARAMS;
typedef CK_CHACHA20_PARAMS CK_PTR CK_CHACHA20_PARAMS_PTR;

/* CKM_SALSA20 */
typedef struct CK_SALSA20_PARAMS {
        CK_BYTE_PTR pBlockCounter;
        CK_BYTE_PTR pNonce;
        CK_ULONG    ulNonceBits;
} CK_SALSA20_PARAMS;
typedef CK_SALSA20_PARAMS CK_PTR CK_SALSA20_PARAMS_PTR;

/* CKM_CHACHA20_POLY1305, CKM_SALSA20_POLY1305: one-shot form */
typedef struct CK_SALSA20_CHACHA20_POLY1305_PARAMS {
        CK_BYTE_PTR pNonce;
        CK_ULONG    ulNonceLen;
        CK_BYTE_PTR pAAD;
        CK_ULONG    ulAADLen;
} CK_SALSA20_CHACHA20_POLY1305_PARAMS;
typedef CK_SALSA20_CHACHA20_POLY1305_PARAMS CK_PTR
        CK_SALSA20_CHACHA20_POLY1305_PARAMS_PTR;

/* ... and the message-based form */
typedef struct CK_SALSA20_CHACHA20_POLY1305_MSG_PARAMS {
        CK_BYTE_PTR pNonce;
        CK_ULONG    ulNonceLen;
        CK_BYTE_PTR pTag;
} CK_SALSA20_CHACHA20_POLY1305_MSG_PARAMS;
typedef CK_SALSA20_CHACHA20_POLY1305_MSG_PARAMS CK_PTR
        CK_SALSA20_CHACHA20_POLY1305_MSG_PARAMS_PTR;

/* ======================================================================
 * Mechanism parameters: key derivation.
 * [PKCS#11 3.2 §6, Key derivation by data encryption; Miscellaneous
 * simple key derivation; PKCS #5; HKDF; SP 800-108; IKE]
 * ====================================================================== */

/* CKM_CONCATENATE_BASE_AND_DATA, CKM_XOR_BASE_AND_DATA, CKM_*_ECB_ENCRYPT_DATA
 * and other derivations that take a plain byte string. */
typedef struct CK_KEY_DERIVATION_STRING_DATA {
        CK_BYTE_PTR pData;
        CK_ULONG    ulLen;
} CK_KEY_DERIVATION_STRING_DATA;
typedef CK_KEY_DERIVATION_STRING_DATA CK_PTR CK_KEY_DERIVATION_STRING_DATA_PTR;

/* CKM_EXTRACT_KEY_FROM_KEY: index of the first bit to extract. */
typedef CK_ULONG CK_EXTRACT_PARAMS;
typedef CK_EXTRACT_PARAMS CK_PTR CK_EXTRACT_PARAMS_PTR;

/* CKM_<cipher>_CBC_ENCRYPT_DATA: IV plus the data to encrypt. */
typedef struct CK_DES_CBC_ENCRYPT_DATA_PARAMS {
        CK_BYTE     iv[8];
        CK_BYTE_PTR pData;
        CK_ULONG    length;
} CK_DES_CBC_ENCRYPT_DATA_PARAMS;
typedef CK_DES_CBC_ENCRYPT_DATA_PARAMS CK_PTR
        CK_DES_CBC_ENCRYPT_DATA_PARAMS_PTR;

typedef struct CK_AES_CBC_ENCRYPT_DATA_PARAMS {
        CK_BYTE     iv[16];
        CK_BYTE_PTR pData;
        CK_ULONG    length;
} CK_AES_CBC_ENCRYPT_DATA_PARAMS;
typedef CK_AES_CBC_ENCRYPT_DATA_PARAMS CK_PTR
        CK_AES_CBC_ENCRYPT_DATA_PARAMS_PTR;

typedef struct CK_CAMELLIA_CBC_ENCRYPT_DATA_PARAMS {
        CK_BYTE     iv[16];
        CK_BYTE_PTR pData;
        CK_ULONG    length;
} CK_CAMELLIA_CBC_ENCRYPT_DATA_PARAMS;
typedef CK_CAMELLIA_CBC_ENCRYPT_DATA_PARAMS CK_PTR
        CK_CAMELLIA_CBC_ENCRYPT_DATA_PARAMS_PTR;

typedef struct CK_ARIA_CBC_ENCRYPT_DATA_PARAMS {
        CK_BYTE     iv[16];
        CK_BYTE_PTR pData;
        CK_ULONG    length;
} CK_ARIA_CBC_ENCRYPT_DATA_PARAMS;
typedef CK_ARIA_CBC_ENCRYPT_DATA_PARAMS CK_PTR
        CK_ARIA_CBC_ENCRYPT_DATA_PARAMS_PTR;

typedef struct CK_SEED_CBC_ENCRYPT_DATA_PARAMS {
        CK_BYTE     iv[16];
        CK_BYTE_PTR pData;
        CK_ULONG    length;
} CK_SEED_CBC_ENCRYPT_DATA_PARAMS;
typedef CK_SEED_CBC_ENCRYPT_DATA_PARAMS CK_PTR
        CK_SEED_CBC_ENCRYPT_DATA_PARAMS_PTR;

/* CKM_PBE_* (PKCS #5 v1.5 and PKCS #12 password-based encryption) */
typedef struct CK_PBE_PARAMS {
        CK_BYTE_PTR     pInitVector;
        CK_UTF8CHAR_PTR pPassword;
        CK_ULONG        ulPasswordLen;
        CK_BYTE_PTR     pSalt;
        CK_ULONG        ulSaltLen;
        CK_ULONG        ulIteration;
} CK_PBE_PARAMS;
typedef CK_PBE_PARAMS CK_PTR CK_PBE_PARAMS_PTR;

/* CKM_PKCS5_PBKD2: salt source and pseudo-random function. */
typedef CK_ULONG CK_PKCS5_PBKDF2_SALT_SOURCE_TYPE;
typedef CK_PKCS5_PBKDF2_SALT_SOURCE_TYPE CK_PTR
        CK_PKCS5_PBKDF2_SALT_SOURCE_TYPE_PTR;
#define CKZ_SALT_SPECIFIED 0x00000001UL

typedef CK_ULONG CK_PKCS5_PBKD2_PSEUDO_RANDOM_FUNCTION_TYPE;
typedef CK_PKCS5_PBKD2_PSEUDO_RANDOM_FUNCTION_TYPE CK_PTR
        CK_PKCS5_PBKD2_PSEUDO_RANDOM_FUNCTION_TYPE_PTR;
#define CKP_PKCS5_PBKD2_HMAC_SHA1       0x00000001UL
#define CKP_PKCS5_PBKD2_HMAC_GOSTR3411  0x00000002UL
#define CKP_PKCS5_PBKD2_HMAC_SHA224     0x00000003UL
#define CKP_PKCS5_PBKD2_HMAC_SHA256     0x00000004UL
#define CKP_PKCS5_PBKD2_HMAC_SHA384     0x00000005UL
#define CKP_PKCS5_PBKD2_HMAC_SHA512     0x00000006UL
#define CKP_PKCS5_PBKD2_HMAC_SHA512_224 0x00000007UL
#define CKP_PKCS5_PBKD2_HMAC_SHA512_256 0x00000008UL

/* The original 2.20 structure: note ulPasswordLen is a pointer. */
typedef struct CK_PKCS5_PBKD2_PARAMS {
        CK_PKCS5_PBKDF2_SALT_SOURCE_TYPE           saltSource;
        CK_VOID_PTR                                pSaltSourceData;
        CK_ULONG                                   ulSaltSourceDataLen;
        CK_ULONG                                   iterations;
        CK_PKCS5_PBKD2_PSEUDO_RANDOM_FUNCTION_TYPE prf;
        CK_VOID_PTR                                pPrfData;
        CK_ULONG                                   ulPrfDataLen;
        CK_UTF8CHAR_PTR                            pPassword;
        CK_ULONG_PTR                               ulPasswordLen;
} CK_PKCS5_PBKD2_PARAMS;
typedef CK_PKCS5_PBKD2_PARAMS CK_PTR CK_PKCS5_PBKD2_PARAMS_PTR;

/* The corrected 2.40 errata structure, with ulPasswordLen by value. */
typedef struct CK_PKCS5_PBKD2_PARAMS2 {
        CK_PKCS5_PBKDF2_SALT_SOURCE_TYPE           saltSource;
        CK_VOID_PTR                                pSaltSourceData;
        CK_ULONG                                   ulSaltSourceDataLen;
        CK_ULONG                                   iterations;
        CK_PKCS5_PBKD2_PSEUDO_RANDOM_FUNCTION_TYPE prf;
        CK_VOID_PTR                                pPrfData;
        CK_ULONG                                   ulPrfDataLen;
        CK_UTF8CHAR_PTR                            pPassword;
        CK_ULONG                                   ulPasswordLen;
} CK_PKCS5_PBKD2_PARAMS2;
typedef CK_PKCS5_PBKD2_PARAMS2 CK_PTR CK_PKCS5_PBKD2_PARAMS2_PTR;

/* CKM_HKDF_DERIVE, CKM_HKDF_DATA (3.0) */
typedef struct CK_HKDF_PARAMS {
        CK_BBOOL          bExtract;
        CK_BBOOL          bExpand;
        CK_MECHANISM_TYPE prfHashMechanism;
        CK_ULONG          ulSaltType; /* one CKF_HKDF_SALT_ value */
        CK_BYTE_PTR       pSalt;
        CK_ULONG          ulSaltLen;
        CK_OBJECT_HANDLE  hSaltKey;
        CK_BYTE_PTR       pInfo;
        CK_ULONG          ulInfoLen;
} CK_HKDF_PARAMS;
typedef CK_HKDF_PARAMS CK_PTR CK_HKDF_PARAMS_PTR;

#define CKF_HKDF_SALT_NULL 0x00000001UL
#define CKF_HKDF_SALT_DATA 0x00000002UL
#define CKF_HKDF_SALT_KEY  0x00000004UL

/* NIST SP 800-108 KDFs (3.0): the PRF, and the pieces of the input. */
typedef CK_MECHANISM_TYPE CK_SP800_108_PRF_TYPE;

typedef CK_ULONG CK_PRF_DATA_TYPE;
#define CK_SP800_108_ITERATION_VARIABLE 0x00000001UL
#define CK_SP800_108_OPTIONAL_COUNTER   0x00000002UL
#define CK_SP800_108_COUNTER            CK_SP800_108_OPTIONAL_COUNTER
#define CK_SP800_108_DKM_LENGTH         0x00000003UL
#define CK_SP800_108_BYTE_ARRAY         0x00000004UL
#define CK_SP800_108_KEY_HANDLE         0x00000005UL /* 3.2 */

typedef struct CK_PRF_DATA_PARAM {
        CK_PRF_DATA_TYPE type;
        CK_VOID_PTR      pValue;
        CK_ULONG         ulValueLen;
} CK_PRF_DATA_PARAM;
typedef CK_PRF_DATA_PARAM CK_PTR CK_PRF_DATA_PARAM_PTR;

typedef struct CK_SP800_108_COUNTER_FORMAT {
        CK_BBOOL bLittleEndian;
        CK_ULONG ulWidthInBits;
} CK_SP800_108_COUNTER_FORMAT;
typedef CK_SP800_108_COUNTER_FORMAT CK_PTR CK_SP800_108_COUNTER_FORMAT_PTR;

typedef CK_ULONG CK_SP800_108_DKM_LENGTH_METHOD;
#define CK_SP800_108_DKM_LENGTH_SUM_OF_KEYS     0x00000001UL
#define CK_SP800_108_DKM_LENGTH_SUM_OF_SEGMENTS 0x00000002UL

typedef struct CK_SP800_108_DKM_LENGTH_FORMAT {
        CK_SP800_108_DKM_LENGTH_METHOD dkmLengthMethod;
        CK_BBOOL                       bLittleEndian;
        CK_ULONG                       ulWidthInBits;
} CK_SP800_108_DKM_LENGTH_FORMAT;
typedef CK_SP800_108_DKM_LENGTH_FORMAT CK_PTR
        CK_SP800_108_DKM_LENGTH_FORMAT_PTR;

/* An extra key to derive from the same KDF output. */
typedef struct CK_DERIVED_KEY {
        CK_ATTRIBUTE_PTR     pTemplate;
        CK_ULONG             ulAttributeCount;
        CK_OBJECT_HANDLE_PTR phKey;
} CK_DERIVED_KEY;
typedef CK_DERIVED_KEY CK_PTR CK_DERIVED_KEY_PTR;

/* CKM_SP800_108_COUNTER_KDF, CKM_SP800_108_DOUBLE_PIPELINE_KDF */
typedef struct CK_SP800_108_KDF_PARAMS {
        CK_SP800_108_PRF_TYPE prfType;
        CK_ULONG              ulNumberOfDataParams;
        CK_PRF_DATA_PARAM_PTR pDataParams;
        CK_ULONG              ulAdditionalDerivedKeys;
        CK_DERIVED_KEY_PTR    pAdditionalDerivedKeys;
} CK_SP800_108_KDF_PARAMS;
typedef CK_SP800_108_KDF_PARAMS CK_PTR CK_SP800_108_KDF_PARAMS_PTR;

/* CKM_SP800_108_FEEDBACK_KDF */
typedef struct CK_SP800_108_FEEDBACK_KDF_PARAMS {
        CK_SP800_108_PRF_TYPE prfType;
        CK_ULONG              ulNumberOfDataParams;
        CK_PRF_DATA_PARAM_PTR pDataParams;
        CK_ULONG              ulIVLen;
        CK_BYTE_PTR           pIV;
        CK_ULONG              ulAdditionalDerivedKeys;
        CK_DERIVED_KEY_PTR    pAdditionalDerivedKeys;
} CK_SP800_108_FEEDBACK_KDF_PARAMS;
typedef CK_SP800_108_FEEDBACK_KDF_PARAMS CK_PTR
        CK_SP800_108_FEEDBACK_KDF_PARAMS_PTR;

/* IKE key derivation (3.0) */
typedef struct CK_IKE2_PRF_PLUS_DERIVE_PARAMS {
        CK_MECHANISM_TYPE prfMechanism;
        CK_BBOOL          bHasSeedKey;
        CK_OBJECT_HANDLE  hSeedKey;
        CK_BYTE_PTR       pSeedData;
        CK_ULONG          ulSeedDataLen;
} CK_IKE2_PRF_PLUS_DERIVE_PARAMS;
typedef CK_IKE2_PRF_PLUS_DERIVE_PARAMS CK_PTR
        CK_IKE2_PRF_PLUS_DERIVE_PARAMS_PTR;

typedef struct CK_IKE_PRF_DERIVE_PARAMS {
        CK_MECHANISM_TYPE prfMechanism;
        CK_BBOOL          bDataAsKey;
        CK_BBOOL          bRekey;
        CK_BYTE_PTR       pNi;
        CK_ULONG          ulNiLen;
        CK_BYTE_PTR       pNr;
        CK_ULONG          ulNrLen;
        CK_OBJECT_HANDLE  hNewKey;
} CK_IKE_PRF_DERIVE_PARAMS;
typedef CK_IKE_PRF_DERIVE_PARAMS CK_PTR CK_IKE_PRF_DERIVE_PARAMS_PTR;

typedef struct CK_IKE1_PRF_DERIVE_PARAMS {
        CK_MECHANISM_TYPE prfMechanism;
        CK_BBOOL          bHasPrevKey;
        CK_OBJECT_HANDLE  hKeygxy;
        CK_OBJECT_HANDLE  hPrevKey;
        CK_BYTE_PTR       pCKYi;
        CK_ULONG          ulCKYiLen;
        CK_BYTE_PTR       pCKYr;
        CK_ULONG          ulCKYrLen;
        CK_BYTE           keyNumber;
} CK_IKE1_PRF_DERIVE_PARAMS;
typedef CK_IKE1_PRF_DERIVE_PARAMS CK_PTR CK_IKE1_PRF_DERIVE_PARAMS_PTR;

typedef struct CK_IKE1_EXTENDED_DERIVE_PARAMS {
        CK_MECHANISM_TYPE prfMechanism;
        CK_BBOOL          bHasKeygxy;
        CK_OBJECT_HANDLE  hKeygxy;
        CK_BYTE_PTR       pExtraData;
        CK_ULONG          ulExtraDataLen;
} CK_IKE1_EXTENDED_DERIVE_PARAMS;
typedef CK_IKE1_EXTENDED_DERIVE_PARAMS CK_PTR
        CK_IKE1_EXTENDED_DERIVE_PARAMS_PTR;

/* ======================================================================
 * Mechanism parameters: SSL 3.0, TLS and WTLS.
 * [PKCS#11 3.2 §6, SSL; TLS 1.2; WTLS]
 * ====================================================================== */

typedef struct CK_SSL3_RANDOM_DATA {
        CK_BYTE_PTR pClientRandom;
        CK_ULONG    ulClientRandomLen;
        CK_BYTE_PTR pServerRandom;
        CK_ULONG    ulServerRandomLen;
} CK_SSL3_RANDOM_DATA;

typedef struct CK_SSL3_MASTER_KEY_DERIVE_PARAMS {
        CK_SSL3_RANDOM_DATA RandomInfo;
        CK_VERSION_PTR      pVersion; /* receives the client version */
} CK_SSL3_MASTER_KEY_DERIVE_PARAMS;
typedef CK_SSL3_MASTER_KEY_DERIVE_PARAMS CK_PTR
        CK_SSL3_MASTER_KEY_DERIVE_PARAMS_PTR;

/* Handles and IVs returned by the key-and-MAC derivations. */
typedef struct CK_SSL3_KEY_MAT_OUT {
        CK_OBJECT_HANDLE hClientMacSecret;
        CK_OBJECT_HANDLE hServerMacSecret;
        CK_OBJECT_HANDLE hClientKey;
        CK_OBJECT_HANDLE hServerKey;
        CK_BYTE_PTR      pIVClient;
        CK_BYTE_PTR      pIVServer;
} CK_SSL3_KEY_MAT_OUT;
typedef CK_SSL3_KEY_MAT_OUT CK_PTR CK_SSL3_KEY_MAT_OUT_PTR;

typedef struct CK_SSL3_KEY_MAT_PARAMS {
        CK_ULONG                ulMacSizeInBits;
        CK_ULONG                ulKeySizeInBits;
        CK_ULONG                ulIVSizeInBits;
        CK_BBOOL                bIsExport;
        CK_SSL3_RANDOM_DATA     RandomInfo;
        CK_SSL3_KEY_MAT_OUT_PTR pReturnedKeyMaterial;
} CK_SSL3_KEY_MAT_PARAMS;
typedef CK_SSL3_KEY_MAT_PARAMS CK_PTR CK_SSL3_KEY_MAT_PARAMS_PTR;

/* CKM_TLS_PRF */
typedef struct CK_TLS_PRF_PARAMS {
        CK_BYTE_PTR  pSeed;
        CK_ULONG     ulSeedLen;
        CK_BYTE_PTR  pLabel;
        CK_ULONG     ulLabelLen;
        CK_BYTE_PTR  pOutput;
        CK_ULONG_PTR pulOutputLen;
} CK_TLS_PRF_PARAMS;
typedef CK_TLS_PRF_PARAMS CK_PTR CK_TLS_PRF_PARAMS_PTR;

/* CKM_TLS12_MASTER_KEY_DERIVE, CKM_TLS12_MASTER_KEY_DERIVE_DH */
typedef struct CK_TLS12_MASTER_KEY_DERIVE_PARAMS {
        CK_SSL3_RANDOM_DATA RandomInfo;
        CK_VERSION_PTR      pVersion;
        CK_MECHANISM_TYPE   prfHashMechanism;
} CK_TLS12_MASTER_KEY_DERIVE_PARAMS;
typedef CK_TLS12_MASTER_KEY_DERIVE_PARAMS CK_PTR
        CK_TLS12_MASTER_KEY_DERIVE_PARAMS_PTR;

/* CKM_TLS12_KEY_AND_MAC_DERIVE */
typedef struct CK_TLS12_KEY_MAT_PARAMS {
        CK_ULONG                ulMacSizeInBits;
        CK_ULONG                ulKeySizeInBits;
        CK_ULONG                ulIVSizeInBits;
        CK_BBOOL                bIsExport;
        CK_SSL3_RANDOM_DATA     RandomInfo;
        CK_SSL3_KEY_MAT_OUT_PTR pReturnedKeyMaterial;
        CK_MECHANISM_TYPE       prfHashMechanism;
} CK_TLS12_KEY_MAT_PARAMS;
typedef CK_TLS12_KEY_MAT_PARAMS CK_PTR CK_TLS12_KEY_MAT_PARAMS_PTR;

/* CKM_TLS12_KDF, CKM_TLS_KDF */
typedef struct CK_TLS_KDF_PARAMS {
        CK_MECHANISM_TYPE   prfMechanism;
        CK_BYTE_PTR         pLabel;
        CK_ULONG            ulLabelLength;
        CK_SSL3_RANDOM_DATA RandomInfo;
        CK_BYTE_PTR         pContextData;
        CK_ULONG            ulContextDataLength;
} CK_TLS_KDF_PARAMS;
typedef CK_TLS_KDF_PARAMS CK_PTR CK_TLS_KDF_PARAMS_PTR;

/* CKM_TLS12_MAC, CKM_TLS_MAC */
typedef struct CK_TLS_MAC_PARAMS {
        CK_MECHANISM_TYPE prfHashMechanism;
        CK_ULONG          ulMacLength;
        CK_ULONG          ulServerOrClient; /* 1 server, 2 client */
} CK_TLS_MAC_PARAMS;
typedef CK_TLS_MAC_PARAMS CK_PTR CK_TLS_MAC_PARAMS_PTR;

/* CKM_TLS12_EXTENDED_MASTER_KEY_DERIVE[_DH] (3.2, RFC 7627) */
typedef struct CK_TLS12_EXTENDED_MASTER_KEY_DERIVE_PARAMS {
        CK_MECHANISM_TYPE prfHashMechanism;
        CK_BYTE_PTR       pSessionHash;
        CK_ULONG          ulSessionHashLen;
        CK_VERSION_PTR    pVersion;
} CK_TLS12_EXTENDED_MASTER_KEY_DERIVE_PARAMS;
typedef CK_TLS12_EXTENDED_MASTER_KEY_DERIVE_PARAMS CK_PTR
        CK_TLS12_EXTENDED_MASTER_KEY_DERIVE_PARAMS_PTR;

typedef struct CK_WTLS_RANDOM_DATA {
        CK_BYTE_PTR pClientRandom;
        CK_ULONG    ulClientRandomLen;
        CK_BYTE_PTR pServerRandom;
        CK_ULONG    ulServerRandomLen;
} CK_WTLS_RANDOM_DATA;
typedef CK_WTLS_RANDOM_DATA CK_PTR CK_WTLS_RANDOM_DATA_PTR;

typedef struct CK_WTLS_MASTER_KEY_DERIVE_PARAMS {
        CK_MECHANISM_TYPE   DigestMechanism;
        CK_WTLS_RANDOM_DATA RandomInfo;
        CK_BYTE_PTR         pVersion;
} CK_WTLS_MASTER_KEY_DERIVE_PARAMS;
typedef CK_WTLS_MASTER_KEY_DERIVE_PARAMS CK_PTR
        CK_WTLS_MASTER_KEY_DERIVE_PARAMS_PTR;

typedef struct CK_WTLS_PRF_PARAMS {
        CK_MECHANISM_TYPE DigestMechanism;
        CK_BYTE_PTR       pSeed;
        CK_ULONG          ulSeedLen;
        CK_BYTE_PTR       pLabel;
        CK_ULONG          ulLabelLen;
        CK_BYTE_PTR       pOutput;
        CK_ULONG_PTR      pulOutputLen;
} CK_WTLS_PRF_PARAMS;
typedef CK_WTLS_PRF_PARAMS CK_PTR CK_WTLS_PRF_PARAMS_PTR;

typedef struct CK_WTLS_KEY_MAT_OUT {
        CK_OBJECT_HANDLE hMacSecret;
        CK_OBJECT_HANDLE hKey;
        CK_BYTE_PTR      pIV;
} CK_WTLS_KEY_MAT_OUT;
typedef CK_WTLS_KEY_MAT_OUT CK_PTR CK_WTLS_KEY_MAT_OUT_PTR;

typedef struct CK_WTLS_KEY_MAT_PARAMS {
        CK_MECHANISM_TYPE       DigestMechanism;
        CK_ULONG                ulMacSizeInBits;
        CK_ULONG                ulKeySizeInBits;
        CK_ULONG                ulIVSizeInBits;
        CK_ULONG                ulSequenceNumber;
        CK_BBOOL                bIsExport;
        CK_WTLS_RANDOM_DATA     RandomInfo;
        CK_WTLS_KEY_MAT_OUT_PTR pReturnedKeyMaterial;
} CK_WTLS_KEY_MAT_PARAMS;
typedef CK_WTLS_KEY_MAT_PARAMS CK_PTR CK_WTLS_KEY_MAT_PARAMS_PTR;

/* ======================================================================
 * Mechanism parameters: one-time passwords and CT-KIP.
 * [PKCS#11 3.2 §6, OTP; CT-KIP]
 * ====================================================================== */

/* Parameter identifiers inside CK_OTP_PARAMS. */
typedef CK_ULONG CK_OTP_PARAM_TYPE;
typedef CK_OTP_PARAM_TYPE CK_PARAM_TYPE; /* the 2.20 name */
#define CK_OTP_VALUE         0UL
#define CK_OTP_PIN           1UL
#define CK_OTP_CHALLENGE     2UL
#define CK_OTP_TIME          3UL
#define CK_OTP_COUNTER       4UL
#define CK_OTP_FLAGS         5UL
#define CK_OTP_OUTPUT_LENGTH 6UL
#define CK_OTP_OUTPUT_FORMAT 7UL

/* Values of CK_OTP_FLAGS */
#define CKF_NEXT_OTP          0x00000001UL
#define CKF_EXCLUDE_TIME      0x00000002UL
#define CKF_EXCLUDE_COUNTER   0x00000004UL
#define CKF_EXCLUDE_CHALLENGE 0x00000008UL
#define CKF_EXCLUDE_PIN       0x00000010UL
#define CKF_USER_FRIENDLY_OTP 0x00000020UL

/* Values of CKA_OTP_FORMAT */
#define CK_OTP_FORMAT_DECIMAL      0UL
#define CK_OTP_FORMAT_HEXADECIMAL  1UL
#define CK_OTP_FORMAT_ALPHANUMERIC 2UL
#define CK_OTP_FORMAT_BINARY       3UL

/* Values of the CKA_OTP_*_REQUIREMENT attributes */
#define CK_OTP_PARAM_IGNORED   0UL
#define CK_OTP_PARAM_OPTIONAL  1UL
#define CK_OTP_PARAM_MANDATORY 2UL

typedef struct CK_OTP_PARAM {
        CK_OTP_PARAM_TYPE type;
        CK_VOID_PTR       pValue;
        CK_ULONG          ulValueLen;
} CK_OTP_PARAM;
typedef CK_OTP_PARAM CK_PTR CK_OTP_PARAM_PTR;

typedef struct CK_OTP_PARAMS {
        CK_OTP_PARAM_PTR pParams;
        CK_ULONG         ulCount;
} CK_OTP_PARAMS;
typedef CK_OTP_PARAMS CK_PTR CK_OTP_PARAMS_PTR;

typedef struct CK_OTP_SIGNATURE_INFO {
        CK_OTP_PARAM_PTR pParams;
        CK_ULONG         ulCount;
} CK_OTP_SIGNATURE_INFO;
typedef CK_OTP_SIGNATURE_INFO CK_PTR CK_OTP_SIGNATURE_INFO_PTR;

/* CKM_KIP_DERIVE, CKM_KIP_WRAP, CKM_KIP_MAC */
typedef struct CK_KIP_PARAMS {
        CK_MECHANISM_PTR pMechanism;
        CK_OBJECT_HANDLE hKey;
        CK_BYTE_PTR      pSeed;
        CK_ULONG         ulSeedLen;
} CK_KIP_PARAMS;
typedef CK_KIP_PARAMS CK_PTR CK_KIP_PARAMS_PTR;

/* ======================================================================
 * Mechanism parameters: CMS and GOST.  [PKCS#11 3.2 §6, CMS; GOST]
 * ====================================================================== */

/* CKM_CMS_SIG */
typedef struct CK_CMS_SIG_PARAMS {
        CK_OBJECT_HANDLE certificateHandle;
        CK_MECHANISM_PTR pSigningMechanism;
        CK_MECHANISM_PTR pDigestMechanism;
        CK_UTF8CHAR_PTR  pContentType;
        CK_BYTE_PTR      pRequestedAttributes;
        CK_ULONG         ulRequestedAttributesLen;
        CK_BYTE_PTR      pRequiredAttributes;
        CK_ULONG         ulRequiredAttributesLen;
} CK_CMS_SIG_PARAMS;
typedef CK_CMS_SIG_PARAMS CK_PTR CK_CMS_SIG_PARAMS_PTR;

/* CKM_GOSTR3410_DERIVE */
typedef struct CK_GOSTR3410_DERIVE_PARAMS {
        CK_EC_KDF_TYPE kdf;
        CK_BYTE_PTR    pPublicData;
        CK_ULONG       ulPublicDataLen;
        CK_BYTE_PTR    pUKM;
        CK_ULONG       ulUKMLen;
} CK_GOSTR3410_DERIVE_PARAMS;
typedef CK_GOSTR3410_DERIVE_PARAMS CK_PTR CK_GOSTR3410_DERIVE_PARAMS_PTR;

/* CKM_GOSTR3410_KEY_WRAP */
typedef struct CK_GOSTR3410_KEY_WRAP_PARAMS {
        CK_BYTE_PTR      pWrapOID;
        CK_ULONG         ulWrapOIDLen;
        CK_BYTE_PTR      pUKM;
        CK_ULONG         ulUKMLen;
        CK_OBJECT_HANDLE hKey;
} CK_GOSTR3410_KEY_WRAP_PARAMS;
typedef CK_GOSTR3410_KEY_WRAP_PARAMS CK_PTR CK_GOSTR3410_KEY_WRAP_PARAMS_PTR;

/* ======================================================================
 * Stateful hash-based signatures: HSS/LMS (3.1), XMSS/XMSS^MT (3.2).
 * [PKCS#11 3.2 §6, HSS; XMSS]
 * ====================================================================== */

typedef CK_ULONG CK_HSS_LEVELS;  /* value of CKA_HSS_LEVELS */
typedef CK_ULONG CK_LMS_TYPE;    /* RFC 8554 LMS type code */
typedef CK_ULONG CK_LMOTS_TYPE;  /* RFC 8554 LM-OTS type code */

typedef CK_ULONG CK_XMSS_PARAMETER_SET_TYPE;   /* RFC 8391 OID value */
typedef CK_ULONG CK_XMSSMT_PARAMETER_SET_TYPE; /* RFC 8391 OID value */

/* ======================================================================
 * Post-quantum signatures and KEM (3.2): ML-DSA, SLH-DSA, ML-KEM.
 * [PKCS#11 3.2 §6, ML-DSA; SLH-DSA; ML-KEM]
 * ====================================================================== */

/* Whether signing may, must, or must not add fresh randomness. */
typedef CK_ULONG CK_HEDGE_TYPE;
#define CKH_HEDGE_PREFERRED        0x00000000UL
#define CKH_HEDGE_REQUIRED         0x00000001UL
#define CKH_DETERMINISTIC_REQUIRED 0x00000002UL

/* Optional parameter of CKM_ML_DSA and CKM_SLH_DSA (and of the
 * CKM_HASH_ML_DSA_<hash> / CKM_HASH_SLH_DSA_<hash> mechanisms, whose hash
 * is fixed by the mechanism).  ulContextLen is at most 255 (FIPS 204/205). */
typedef struct CK_SIGN_ADDITIONAL_CONTEXT {
        CK_HEDGE_TYPE hedgeVariant;
        CK_BYTE_PTR   pContext;
        CK_ULONG      ulContextLen;
} CK_SIGN_ADDITIONAL_CONTEXT;
typedef CK_SIGN_ADDITIONAL_CONTEXT CK_PTR CK_SIGN_ADDITIONAL_CONTEXT_PTR;

/* Parameter of CKM_HASH_ML_DSA and CKM_HASH_SLH_DSA: as above plus the
 * pre-hash function (a CKM_ digest mechanism such as CKM_SHA256). */
typedef struct CK_HASH_SIGN_ADDITIONAL_CONTEXT {
        CK_HEDGE_TYPE     hedgeVariant;
        CK_BYTE_PTR       pContext;
        CK_ULONG          ulContextLen;
        CK_MECHANISM_TYPE hash;
} CK_HASH_SIGN_ADDITIONAL_CONTEXT;
typedef CK_HASH_SIGN_ADDITIONAL_CONTEXT CK_PTR
        CK_HASH_SIGN_ADDITIONAL_CONTEXT_PTR;

/* CKA_PARAMETER_SET of CKK_ML_DSA keys (FIPS 204 Table 1) */
typedef CK_ULONG CK_ML_DSA_PARAMETER_SET_TYPE;
#define CKP_ML_DSA_44 0x00000001UL
#define CKP_ML_DSA_65 0x00000002UL
#define CKP_ML_DSA_87 0x00000003UL

/* CKA_PARAMETER_SET of CKK_SLH_DSA keys (FIPS 205 Table 2) */
typedef CK_ULONG CK_SLH_DSA_PARAMETER_SET_TYPE;
#define CKP_SLH_DSA_SHA2_128S  0x00000001UL
#define CKP_SLH_DSA_SHAKE_128S 0x00000002UL
#define CKP_SLH_DSA_SHA2_128F  0x00000003UL
#define CKP_SLH_DSA_SHAKE_128F 0x00000004UL
#define CKP_SLH_DSA_SHA2_192S  0x00000005UL
#define CKP_SLH_DSA_SHAKE_192S 0x00000006UL
#define CKP_SLH_DSA_SHA2_192F  0x00000007UL
#define CKP_SLH_DSA_SHAKE_192F 0x00000008UL
#define CKP_SLH_DSA_SHA2_256S  0x00000009UL
#define CKP_SLH_DSA_SHAKE_256S 0x0000000aUL
#define CKP_SLH_DSA_SHA2_256F  0x0000000bUL
#define CKP_SLH_DSA_SHAKE_256F 0x0000000cUL

/* CKA_PARAMETER_SET of CKK_ML_KEM keys (FIPS 203 Table 2) */
typedef CK_ULONG CK_ML_KEM_PARAMETER_SET_TYPE;
#define CKP_ML_KEM_512  0x00000001UL
#define CKP_ML_KEM_768  0x00000002UL
#define CKP_ML_KEM_1024 0x00000003UL

/* ======================================================================
 * Mechanism parameters for historical algorithms (RC2, RC5, SKIPJACK,
 * KEA, SET).  Kept so that the type names stay available; vgtoken
 * implements none of them.
 * ====================================================================== */

typedef CK_ULONG CK_RC2_PARAMS; /* effective bits */
typedef CK_RC2_PARAMS CK_PTR CK_RC2_PARAMS_PTR;

typedef struct CK_RC2_CBC_PARAMS {
        CK_ULONG ulEffectiveBits;
        CK_BYTE  iv[8];
} CK_RC2_CBC_PARAMS;
typedef CK_RC2_CBC_PARAMS CK_PTR CK_RC2_CBC_PARAMS_PTR;

typedef struct CK_RC2_MAC_GENERAL_PARAMS {
        CK_ULONG ulEffectiveBits;
        CK_ULONG ulMacLength;
} CK_RC2_MAC_GENERAL_PARAMS;
typedef CK_RC2_MAC_GENERAL_PARAMS CK_PTR CK_RC2_MAC_GENERAL_PARAMS_PTR;

typedef struct CK_RC5_PARAMS {
        CK_ULONG ulWordsize;
        CK_ULONG ulRounds;
} CK_RC5_PARAMS;
typedef CK_RC5_PARAMS CK_PTR CK_RC5_PARAMS_PTR;

typedef struct CK_RC5_CBC_PARAMS {
        CK_ULONG    ulWordsize;
        CK_ULONG    ulRounds;
        CK_BYTE_PTR pIv;
        CK_ULONG    ulIvLen;
} CK_RC5_CBC_PARAMS;
typedef CK_RC5_CBC_PARAMS CK_PTR CK_RC5_CBC_PARAMS_PTR;

typedef struct CK_RC5_MAC_GENERAL_PARAMS {
        CK_ULONG ulWordsize;
        CK_ULONG ulRounds;
        CK_ULONG ulMacLength;
} CK_RC5_MAC_GENERAL_PARAMS;
typedef CK_RC5_MAC_GENERAL_PARAMS CK_PTR CK_RC5_MAC_GENERAL_PARAMS_PTR;

typedef struct CK_SKIPJACK_PRIVATE_WRAP_PARAMS {
        CK_ULONG    ulPasswordLen;
        CK_BYTE_PTR pPassword;
        CK_ULONG    ulPublicDataLen;
        CK_BYTE_PTR pPublicData;
        CK_ULONG    ulPAndGLen;
        CK_ULONG    ulQLen;
        CK_ULONG    ulRandomLen;
        CK_BYTE_PTR pRandomA;
        CK_BYTE_PTR pPrimeP;
        CK_BYTE_PTR pBaseG;
        CK_BYTE_PTR pSubprimeQ;
} CK_SKIPJACK_PRIVATE_WRAP_PARAMS;
typedef CK_SKIPJACK_PRIVATE_WRAP_PARAMS CK_PTR
        CK_SKIPJACK_PRIVATE_WRAP_PARAMS_PTR;

typedef struct CK_SKIPJACK_RELAYX_PARAMS {
        CK_ULONG    ulOldWrappedXLen;
        CK_BYTE_PTR pOldWrappedX;
        CK_ULONG    ulOldPasswordLen;
        CK_BYTE_PTR pOldPassword;
        CK_ULONG    ulOldPublicDataLen;
        CK_BYTE_PTR pOldPublicData;
        CK_ULONG    ulOldRandomLen;
        CK_BYTE_PTR pOldRandomA;
        CK_ULONG    ulNewPasswordLen;
        CK_BYTE_PTR pNewPassword;
        CK_ULONG    ulNewPublicDataLen;
        CK_BYTE_PTR pNewPublicData;
        CK_ULONG    ulNewRandomLen;
        CK_BYTE_PTR pNewRandomA;
} CK_SKIPJACK_RELAYX_PARAMS;
typedef CK_SKIPJACK_RELAYX_PARAMS CK_PTR CK_SKIPJACK_RELAYX_PARAMS_PTR;

typedef struct CK_KEA_DERIVE_PARAMS {
        CK_BBOOL    isSender;
        CK_ULONG    ulRandomLen;
        CK_BYTE_PTR pRandomA;
        CK_BYTE_PTR pRandomB;
        CK_ULONG    ulPublicDataLen;
        CK_BYTE_PTR pPublicData;
} CK_KEA_DERIVE_PARAMS;
typedef CK_KEA_DERIVE_PARAMS CK_PTR CK_KEA_DERIVE_PARAMS_PTR;

typedef struct CK_KEY_WRAP_SET_OAEP_PARAMS {
        CK_BYTE     bBC; /* block contents byte */
        CK_BYTE_PTR pX;  /* extra data */
        CK_ULONG    ulXLen;
} CK_KEY_WRAP_SET_OAEP_PARAMS;
typedef CK_KEY_WRAP_SET_OAEP_PARAMS CK_PTR CK_KEY_WRAP_SET_OAEP_PARAMS_PTR;

/* ======================================================================
 * Entry points.  [PKCS#11 3.2 §5]
 *
 * Every C_ function is listed exactly once below, as
 *     F(name, (parameter list))
 * in the order its pointer occupies in the function tables.  The lists
 * then generate (1) the prototypes, (2) the CK_C_<name> pointer types
 * and (3) the members of CK_FUNCTION_LIST, CK_FUNCTION_LIST_3_0 and
 * CK_FUNCTION_LIST_3_2, so those can never drift apart.  A module may use
 * the same lists to fill its own tables.
 * ====================================================================== */

/* PKCS #11 v2.40: the 68 entries of CK_FUNCTION_LIST. */
#define VG_CK_FUNCTIONS_2_40(F)                                               \
        /* general purpose [§5.4] */                                          \
        F(C_Initialize, (CK_VOID_PTR pInitArgs))                              \
        F(C_Finalize, (CK_VOID_PTR pReserved))                                \
        F(C_GetInfo, (CK_INFO_PTR pInfo))                                     \
        F(C_GetFunctionList, (CK_FUNCTION_LIST_PTR_PTR ppFunctionList))       \
        /* slot and token management [§5.5] */                               \
        F(C_GetSlotList, (CK_BBOOL tokenPresent, CK_SLOT_ID_PTR pSlotList,    \
                          CK_ULONG_PTR pulCount))                             \
        F(C_GetSlotInfo, (CK_SLOT_ID slotID, CK_SLOT_INFO_PTR pInfo))         \
        F(C_GetTokenInfo, (CK_SLOT_ID slotID, CK_TOKEN_INFO_PTR pInfo))       \
        F(C_GetMechanismList, (CK_SLOT_ID slotID,                             \
                               CK_MECHANISM_TYPE_PTR pMechanismList,          \
                               CK_ULONG_PTR pulCount))                        \
        F(C_GetMechanismInfo, (CK_SLOT_ID slotID, CK_MECHANISM_TYPE type,     \
                               CK_MECHANISM_INFO_PTR pInfo))                  \
        F(C_InitToken, (CK_SLOT_ID slotID, CK_UTF8CHAR_PTR pPin,              \
                        CK_ULONG ulPinLen, CK_UTF8CHAR_PTR pLabel))           \
        F(C_InitPIN, (CK_SESSION_HANDLE hSession, CK_UTF8CHAR_PTR pPin,       \
                      CK_ULONG ulPinLen))                                     \
        F(C_SetPIN, (CK_SESSION_HANDLE hSession, CK_UTF8CHAR_PTR pOldPin,     \
                     CK_ULONG ulOldLen, CK_UTF8CHAR_PTR pNewPin,              \
                     CK_ULONG ulNewLen))                                      \
        /* session management [§5.6] */                                       \
        F(C_OpenSession, (CK_SLOT_ID slotID, CK_FLAGS flags,                  \
                          CK_VOID_PTR pApplication, CK_NOTIFY Notify,         \
                          CK_SESSION_HANDLE_PTR phSession))                   \
        F(C_CloseSession, (CK_SESSION_HANDLE hSession))                       \
        F(C_CloseAllSessions, (CK_SLOT_ID slotID))                            \
        F(C_GetSessionInfo, (CK_SESSION_HANDLE hSession,                      \
                             CK_SESSION_INFO_PTR pInfo))                      \
        F(C_GetOperationState, (CK_SESSION_HANDLE hSession,                   \
                                CK_BYTE_PTR pOperationState,                  \
                                CK_ULONG_PTR pulOperationStateLen))           \
        F(C_SetOperationState, (CK_SESSION_HANDLE hSession,                   \
                                CK_BYTE_PTR pOperationState,                  \
                                CK_ULONG ulOperationStateLen,                 \
                                CK_OBJECT_HANDLE hEncryptionKey,              \
                                CK_OBJECT_HANDLE hAuthenticationKey))         \
        F(C_Login, (CK_SESSION_HANDLE hSession, CK_USER_TYPE userType,        \
                    CK_UTF8CHAR_PTR pPin, CK_ULONG ulPinLen))                 \
        F(C_Logout, (CK_SESSION_HANDLE hSession))                             \
        /* object management [§5.7] */                                        \
        F(C_CreateObject, (CK_SESSION_HANDLE hSession,                        \
                           CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount,      \
                           CK_OBJECT_HANDLE_PTR phObject))                    \
        F(C_CopyObject, (CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject, \
                         CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount,        \
                         CK_OBJECT_HANDLE_PTR phNewObject))                   \
        F(C_DestroyObject, (CK_SESSION_HANDLE hSession,                       \
                            CK_OBJECT_HANDLE hObject))                        \
        F(C_GetObjectSize, (CK_SESSION_HANDLE hSession,                       \
                            CK_OBJECT_HANDLE hObject, CK_ULONG_PTR pulSize))  \
        F(C_GetAttributeValue, (CK_SESSION_HANDLE hSession,                   \
                                CK_OBJECT_HANDLE hObject,                     \
                                CK_ATTRIBUTE_PTR pTemplate,                   \
                                CK_ULONG ulCount))                            \
        F(C_SetAttributeValue, (CK_SESSION_HANDLE hSession,                   \
                                CK_OBJECT_HANDLE hObject,                     \
                                CK_ATTRIBUTE_PTR pTemplate,                   \
                                CK_ULONG ulCount))                            \
        F(C_FindObjectsInit, (CK_SESSION_HANDLE hSession,                     \
                              CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount))  \
        F(C_FindObjects, (CK_SESSION_HANDLE hSession,                         \
                          CK_OBJECT_HANDLE_PTR phObject,                      \
                          CK_ULONG ulMaxObjectCount,                          \
                          CK_ULONG_PTR pulObjectCount))                       \
        F(C_FindObjectsFinal, (CK_SESSION_HANDLE hSession))                   \
        /* encryption [§5.8] */                                               \
        F(C_EncryptInit, (CK_SESSION_HANDLE hSession,                         \
                          CK_MECHANISM_PTR pMechanism, CK_OBJECT_HANDLE hKey)) \
        F(C_Encrypt, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData,          \
                      CK_ULONG ulDataLen, CK_BYTE_PTR pEncryptedData,         \
                      CK_ULONG_PTR pulEncryptedDataLen))                      \
        F(C_EncryptUpdate, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,    \
                            CK_ULONG ulPartLen, CK_BYTE_PTR pEncryptedPart,   \
                            CK_ULONG_PTR pulEncryptedPartLen))                \
        F(C_EncryptFinal, (CK_SESSION_HANDLE hSession,                        \
                           CK_BYTE_PTR pLastEncryptedPart,                    \
                           CK_ULONG_PTR pulLastEncryptedPartLen))             \
        /* decryption [§5.10] */                                              \
        F(C_DecryptInit, (CK_SESSION_HANDLE hSession,                         \
                          CK_MECHANISM_PTR pMechanism, CK_OBJECT_HANDLE hKey)) \
        F(C_Decrypt, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pEncryptedData, \
                      CK_ULONG ulEncryptedDataLen, CK_BYTE_PTR pData,         \
                      CK_ULONG_PTR pulDataLen))                               \
        F(C_DecryptUpdate, (CK_SESSION_HANDLE hSession,                       \
                            CK_BYTE_PTR pEncryptedPart,                       \
                            CK_ULONG ulEncryptedPartLen, CK_BYTE_PTR pPart,   \
                            CK_ULONG_PTR pulPartLen))                         \
        F(C_DecryptFinal, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pLastPart, \
                           CK_ULONG_PTR pulLastPartLen))                      \
        /* message digesting [§5.12] */                                       \
        F(C_DigestInit, (CK_SESSION_HANDLE hSession,                          \
                         CK_MECHANISM_PTR pMechanism))                        \
        F(C_Digest, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData,           \
                     CK_ULONG ulDataLen, CK_BYTE_PTR pDigest,                 \
                     CK_ULONG_PTR pulDigestLen))                              \
        F(C_DigestUpdate, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,     \
                           CK_ULONG ulPartLen))                               \
        F(C_DigestKey, (CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hKey))   \
        F(C_DigestFinal, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pDigest,    \
                          CK_ULONG_PTR pulDigestLen))                         \
        /* signing and MACing [§5.13] */                                      \
        F(C_SignInit, (CK_SESSION_HANDLE hSession,                            \
                       CK_MECHANISM_PTR pMechanism, CK_OBJECT_HANDLE hKey))   \
        F(C_Sign, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData,             \
                   CK_ULONG ulDataLen, CK_BYTE_PTR pSignature,                \
                   CK_ULONG_PTR pulSignatureLen))                             \
        F(C_SignUpdate, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,       \
                         CK_ULONG ulPartLen))                                 \
        F(C_SignFinal, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pSignature,   \
                        CK_ULONG_PTR pulSignatureLen))                        \
        F(C_SignRecoverInit, (CK_SESSION_HANDLE hSession,                     \
                              CK_MECHANISM_PTR pMechanism,                    \
                              CK_OBJECT_HANDLE hKey))                         \
        F(C_SignRecover, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData,      \
                          CK_ULONG ulDataLen, CK_BYTE_PTR pSignature,         \
                          CK_ULONG_PTR pulSignatureLen))                      \
        /* verifying signatures and MACs [§5.15] */                           \
        F(C_VerifyInit, (CK_SESSION_HANDLE hSession,                          \
                         CK_MECHANISM_PTR pMechanism, CK_OBJECT_HANDLE hKey)) \
        F(C_Verify, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData,           \
                     CK_ULONG ulDataLen, CK_BYTE_PTR pSignature,              \
                     CK_ULONG ulSignatureLen))                                \
        F(C_VerifyUpdate, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,     \
                           CK_ULONG ulPartLen))                               \
        F(C_VerifyFinal, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pSignature, \
                          CK_ULONG ulSignatureLen))                           \
        F(C_VerifyRecoverInit, (CK_SESSION_HANDLE hSession,                   \
                                CK_MECHANISM_PTR pMechanism,                  \
                                CK_OBJECT_HANDLE hKey))                       \
        F(C_VerifyRecover, (CK_SESSION_HANDLE hSession,                       \
                            CK_BYTE_PTR pSignature, CK_ULONG ulSignatureLen,  \
                            CK_BYTE_PTR pData, CK_ULONG_PTR pulDataLen))      \
        /* dual-function cryptographic operations [§5.17] */                 \
        F(C_DigestEncryptUpdate, (CK_SESSION_HANDLE hSession,                 \
                                  CK_BYTE_PTR pPart, CK_ULONG ulPartLen,      \
                                  CK_BYTE_PTR pEncryptedPart,                 \
                                  CK_ULONG_PTR pulEncryptedPartLen))          \
        F(C_DecryptDigestUpdate, (CK_SESSION_HANDLE hSession,                 \
                                  CK_BYTE_PTR pEncryptedPart,                 \
                                  CK_ULONG ulEncryptedPartLen,                \
                                  CK_BYTE_PTR pPart, CK_ULONG_PTR pulPartLen)) \
        F(C_SignEncryptUpdate, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart, \
                                CK_ULONG ulPartLen,                           \
                                CK_BYTE_PTR pEncryptedPart,                   \
                                CK_ULONG_PTR pulEncryptedPartLen))            \
        F(C_DecryptVerifyUpdate, (CK_SESSION_HANDLE hSession,                 \
                                  CK_BYTE_PTR pEncryptedPart,                 \
                                  CK_ULONG ulEncryptedPartLen,                \
                                  CK_BYTE_PTR pPart, CK_ULONG_PTR pulPartLen)) \
        /* key management [§5.18] */                                         \
        F(C_GenerateKey, (CK_SESSION_HANDLE hSession,                         \
                          CK_MECHANISM_PTR pMechanism,                        \
                          CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount,       \
                          CK_OBJECT_HANDLE_PTR phKey))                        \
        F(C_GenerateKeyPair, (CK_SESSION_HANDLE hSession,                     \
                              CK_MECHANISM_PTR pMechanism,                    \
                              CK_ATTRIBUTE_PTR pPublicKeyTemplate,            \
                              CK_ULONG ulPublicKeyAttributeCount,             \
                              CK_ATTRIBUTE_PTR pPrivateKeyTemplate,           \
                              CK_ULONG ulPrivateKeyAttributeCount,            \
                              CK_OBJECT_HANDLE_PTR phPublicKey,               \
                              CK_OBJECT_HANDLE_PTR phPrivateKey))             \
        F(C_WrapKey, (CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism, \
                      CK_OBJECT_HANDLE hWrappingKey, CK_OBJECT_HANDLE hKey,   \
                      CK_BYTE_PTR pWrappedKey, CK_ULONG_PTR pulWrappedKeyLen)) \
        F(C_UnwrapKey, (CK_SESSION_HANDLE hSession,                           \
                        CK_MECHANISM_PTR pMechanism,                          \
                        CK_OBJECT_HANDLE hUnwrappingKey,                      \
                        CK_BYTE_PTR pWrappedKey, CK_ULONG ulWrappedKeyLen,    \
                        CK_ATTRIBUTE_PTR pTemplate,                           \
                        CK_ULONG ulAttributeCount,                            \
                        CK_OBJECT_HANDLE_PTR phKey))                          \
        F(C_DeriveKey, (CK_SESSION_HANDLE hSession,                           \
                        CK_MECHANISM_PTR pMechanism,                          \
                        CK_OBJECT_HANDLE hBaseKey,                            \
                        CK_ATTRIBUTE_PTR pTemplate,                           \
                        CK_ULONG ulAttributeCount,                            \
                        CK_OBJECT_HANDLE_PTR phKey))                          \
        /* random numbers [§5.19] */                                          \
        F(C_SeedRandom, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pSeed,       \
                         CK_ULONG ulSeedLen))                                 \
        F(C_GenerateRandom, (CK_SESSION_HANDLE hSession,                      \
                             CK_BYTE_PTR RandomData, CK_ULONG ulRandomLen))   \
        /* legacy parallel function management [§5.20] */                    \
        F(C_GetFunctionStatus, (CK_SESSION_HANDLE hSession))                  \
        F(C_CancelFunction, (CK_SESSION_HANDLE hSession))                     \
        /* slot events [§5.5] */                                              \
        F(C_WaitForSlotEvent, (CK_FLAGS flags, CK_SLOT_ID_PTR pSlot,          \
                               CK_VOID_PTR pReserved))

/* PKCS #11 v3.0: the 24 entries CK_FUNCTION_LIST_3_0 appends. */
#define VG_CK_FUNCTIONS_3_0(F)                                                \
        /* interfaces [§5.4] */                                               \
        F(C_GetInterfaceList, (CK_INTERFACE_PTR pInterfacesList,              \
                               CK_ULONG_PTR pulCount))                        \
        F(C_GetInterface, (CK_UTF8CHAR_PTR pInterfaceName,                    \
                           CK_VERSION_PTR pVersion,                           \
                           CK_INTERFACE_PTR_PTR ppInterface, CK_FLAGS flags)) \
        /* sessions [§5.6] */                                                 \
        F(C_LoginUser, (CK_SESSION_HANDLE hSession, CK_USER_TYPE userType,    \
                        CK_UTF8CHAR_PTR pPin, CK_ULONG ulPinLen,              \
                        CK_UTF8CHAR_PTR pUsername, CK_ULONG ulUsernameLen))   \
        F(C_SessionCancel, (CK_SESSION_HANDLE hSession, CK_FLAGS flags))      \
        /* message-based encryption [§5.9] */                                 \
        F(C_MessageEncryptInit, (CK_SESSION_HANDLE hSession,                  \
                                 CK_MECHANISM_PTR pMechanism,                 \
                                 CK_OBJECT_HANDLE hKey))                      \
        F(C_EncryptMessage, (CK_SESSION_HANDLE hSession,                      \
                             CK_VOID_PTR pParameter, CK_ULONG ulParameterLen, \
                             CK_BYTE_PTR pAssociatedData,                     \
                             CK_ULONG ulAssociatedDataLen,                    \
                             CK_BYTE_PTR pPlaintext, CK_ULONG ulPlaintextLen, \
                             CK_BYTE_PTR pCiphertext,                         \
                             CK_ULONG_PTR pulCiphertextLen))                  \
        F(C_EncryptMessageBegin, (CK_SESSION_HANDLE hSession,                 \
                                  CK_VOID_PTR pParameter,                     \
                                  CK_ULONG ulParameterLen,                    \
                                  CK_BYTE_PTR pAssociatedData,                \
                                  CK_ULONG ulAssociatedDataLen))              \
        F(C_EncryptMessageNext, (CK_SESSION_HANDLE hSession,                  \
                                 CK_VOID_PTR pParameter,                      \
                                 CK_ULONG ulParameterLen,                     \
                                 CK_BYTE_PTR pPlaintextPart,                  \
                                 CK_ULONG ulPlaintextPartLen,                 \
                                 CK_BYTE_PTR pCiphertextPart,                 \
                                 CK_ULONG_PTR pulCiphertextPartLen,           \
                                 CK_FLAGS flags))                             \
        F(C_MessageEncryptFinal, (CK_SESSION_HANDLE hSession))                \
        /* message-based decryption [§5.11] */                                \
        F(C_MessageDecryptInit, (CK_SESSION_HANDLE hSession,                  \
                                 CK_MECHANISM_PTR pMechanism,                 \
                                 CK_OBJECT_HANDLE hKey))                      \
        F(C_DecryptMessage, (CK_SESSION_HANDLE hSession,                      \
                             CK_VOID_PTR pParameter, CK_ULONG ulParameterLen, \
                             CK_BYTE_PTR pAssociatedData,                     \
                             CK_ULONG ulAssociatedDataLen,                    \
                             CK_BYTE_PTR pCiphertext,                         \
                             CK_ULONG ulCiphertextLen,                        \
                             CK_BYTE_PTR pPlaintext,                          \
                             CK_ULONG_PTR pulPlaintextLen))                   \
        F(C_DecryptMessageBegin, (CK_SESSION_HANDLE hSession,                 \
                                  CK_VOID_PTR pParameter,                     \
                                  CK_ULONG ulParameterLen,                    \
                                  CK_BYTE_PTR pAssociatedData,                \
                                  CK_ULONG ulAssociatedDataLen))              \
        F(C_DecryptMessageNext, (CK_SESSION_HANDLE hSession,                  \
                                 CK_VOID_PTR pParameter,                      \
                                 CK_ULONG ulParameterLen,                     \
                                 CK_BYTE_PTR pCiphertextPart,                 \
                                 CK_ULONG ulCiphertextPartLen,                \
                                 CK_BYTE_PTR pPlaintextPart,                  \
                                 CK_ULONG_PTR pulPlaintextPartLen,            \
                                 CK_FLAGS flags))                             \
        F(C_MessageDecryptFinal, (CK_SESSION_HANDLE hSession))                \
        /* message-based signing and MACing [§5.14] */                        \
        F(C_MessageSignInit, (CK_SESSION_HANDLE hSession,                     \
                              CK_MECHANISM_PTR pMechanism,                    \
                              CK_OBJECT_HANDLE hKey))                         \
        F(C_SignMessage, (CK_SESSION_HANDLE hSession, CK_VOID_PTR pParameter, \
                          CK_ULONG ulParameterLen, CK_BYTE_PTR pData,         \
                          CK_ULONG ulDataLen, CK_BYTE_PTR pSignature,         \
                          CK_ULONG_PTR pulSignatureLen))                      \
        F(C_SignMessageBegin, (CK_SESSION_HANDLE hSession,                    \
                               CK_VOID_PTR pParameter,                        \
                               CK_ULONG ulParameterLen))                      \
        F(C_SignMessageNext, (CK_SESSION_HANDLE hSession,                     \
                              CK_VOID_PTR pParameter, CK_ULONG ulParameterLen, \
                              CK_BYTE_PTR pData, CK_ULONG ulDataLen,          \
                              CK_BYTE_PTR pSignature,                         \
                              CK_ULONG_PTR pulSignatureLen))                  \
        F(C_MessageSignFinal, (CK_SESSION_HANDLE hSession))                   \
        /* message-based verification [§5.16] */                              \
        F(C_MessageVerifyInit, (CK_SESSION_HANDLE hSession,                   \
                                CK_MECHANISM_PTR pMechanism,                  \
                                CK_OBJECT_HANDLE hKey))                       \
        F(C_VerifyMessage, (CK_SESSION_HANDLE hSession,                       \
                            CK_VOID_PTR pParameter, CK_ULONG ulParameterLen,  \
                            CK_BYTE_PTR pData, CK_ULONG ulDataLen,            \
                            CK_BYTE_PTR pSignature, CK_ULONG ulSignatureLen)) \
        F(C_VerifyMessageBegin, (CK_SESSION_HANDLE hSession,                  \
                                 CK_VOID_PTR pParameter,                      \
                                 CK_ULONG ulParameterLen))                    \
        F(C_VerifyMessageNext, (CK_SESSION_HANDLE hSession,                   \
                                CK_VOID_PTR pParameter,                       \
                                CK_ULONG ulParameterLen, CK_BYTE_PTR pData,   \
                                CK_ULONG ulDataLen, CK_BYTE_PTR pSignature,   \
                                CK_ULONG ulSignatureLen))                     \
        F(C_MessageVerifyFinal, (CK_SESSION_HANDLE hSession))

/* PKCS #11 v3.2: the 12 entries CK_FUNCTION_LIST_3_2 appends.  The order
 * is that of the published v3.2 header, which puts the two authenticated
 * wrapping functions last. */
#define VG_CK_FUNCTIONS_3_2(F)                                                \
        /* key encapsulation [§5.18] */                                       \
        F(C_EncapsulateKey, (CK_SESSION_HANDLE hSession,                      \
                             CK_MECHANISM_PTR pMechanism,                     \
                             CK_OBJECT_HANDLE hPublicKey,                     \
                             CK_ATTRIBUTE_PTR pTemplate,                      \
                             CK_ULONG ulAttributeCount,                       \
                             CK_BYTE_PTR pCiphertext,                         \
                             CK_ULONG_PTR pulCiphertextLen,                   \
                             CK_OBJECT_HANDLE_PTR phKey))                     \
        F(C_DecapsulateKey, (CK_SESSION_HANDLE hSession,                      \
                             CK_MECHANISM_PTR pMechanism,                     \
                             CK_OBJECT_HANDLE hPrivateKey,                    \
                             CK_ATTRIBUTE_PTR pTemplate,                      \
                             CK_ULONG ulAttributeCount,                       \
                             CK_BYTE_PTR pCiphertext,                         \
                             CK_ULONG ulCiphertextLen,                        \
                             CK_OBJECT_HANDLE_PTR phKey))                     \
        /* verification with the signature given up front [§5.15] */         \
        F(C_VerifySignatureInit, (CK_SESSION_HANDLE hSession,                 \
                                  CK_MECHANISM_PTR pMechanism,                \
                                  CK_OBJECT_HANDLE hKey,                      \
                                  CK_BYTE_PTR pSignature,                     \
                                  CK_ULONG ulSignatureLen))                   \
        F(C_VerifySignature, (CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData,  \
                              CK_ULONG ulDataLen))                            \
        F(C_VerifySignatureUpdate, (CK_SESSION_HANDLE hSession,               \
                                    CK_BYTE_PTR pPart, CK_ULONG ulPartLen))   \
        F(C_VerifySignatureFinal, (CK_SESSION_HANDLE hSession))               \
        /* validation state [§5.6] */                                         \
        F(C_GetSessionValidationFlags,                                        \
          (CK_SESSION_HANDLE hSession,                                        \
           CK_SESSION_VALIDATION_FLAGS_TYPE type, CK_FLAGS_PTR pFlags))       \
        /* asynchronous operation [§5.21] */                                  \
        F(C_AsyncComplete, (CK_SESSION_HANDLE hSession,                       \
                            CK_UTF8CHAR_PTR pFunctionName,                    \
                            CK_ASYNC_DATA_PTR pResult))                       \
        F(C_AsyncGetID, (CK_SESSION_HANDLE hSession,                          \
                         CK_UTF8CHAR_PTR pFunctionName, CK_ULONG_PTR pulID))  \
        F(C_AsyncJoin, (CK_SESSION_HANDLE hSession,                           \
                        CK_UTF8CHAR_PTR pFunctionName, CK_ULONG ulID,         \
                        CK_BYTE_PTR pData, CK_ULONG ulData))                  \
        /* authenticated key wrapping [§5.18] */                              \
        F(C_WrapKeyAuthenticated, (CK_SESSION_HANDLE hSession,                \
                                   CK_MECHANISM_PTR pMechanism,               \
                                   CK_OBJECT_HANDLE hWrappingKey,             \
                                   CK_OBJECT_HANDLE hKey,                     \
                                   CK_BYTE_PTR pAssociatedData,               \
                                   CK_ULONG ulAssociatedDataLen,              \
                                   CK_BYTE_PTR pWrappedKey,                   \
                                   CK_ULONG_PTR pulWrappedKeyLen))            \
        F(C_UnwrapKeyAuthenticated, (CK_SESSION_HANDLE hSession,              \
                                     CK_MECHANISM_PTR pMechanism,             \
                                     CK_OBJECT_HANDLE hUnwrappingKey,         \
                                     CK_BYTE_PTR pWrappedKey,                 \
                                     CK_ULONG ulWrappedKeyLen,                \
                                     CK_ATTRIBUTE_PTR pTemplate,              \
                                     CK_ULONG ulAttributeCount,               \
                                     CK_BYTE_PTR pAssociatedData,             \
                                     CK_ULONG ulAssociatedDataLen,            \
                                     CK_OBJECT_HANDLE_PTR phKey))

/* (1) Prototypes: extern CK_RV C_Initialize(CK_VOID_PTR pInitArgs); ... */
#define VG_CK_PROTOTYPE_(name, args) \
        extern CK_DECLARE_FUNCTION(CK_RV, name) args;
VG_CK_FUNCTIONS_2_40(VG_CK_PROTOTYPE_)
VG_CK_FUNCTIONS_3_0(VG_CK_PROTOTYPE_)
VG_CK_FUNCTIONS_3_2(VG_CK_PROTOTYPE_)
#undef VG_CK_PROTOTYPE_

/* (2) Pointer types: typedef CK_RV (*CK_C_Initialize)(CK_VOID_PTR); ... */
#define VG_CK_POINTER_TYPE_(name, args) \
        typedef CK_DECLARE_FUNCTION_POINTER(CK_RV, CK_##name) args;
VG_CK_FUNCTIONS_2_40(VG_CK_POINTER_TYPE_)
VG_CK_FUNCTIONS_3_0(VG_CK_POINTER_TYPE_)
VG_CK_FUNCTIONS_3_2(VG_CK_POINTER_TYPE_)
#undef VG_CK_POINTER_TYPE_

/* (3) Function tables.  Each starts with the CK_VERSION of the interface it
 * implements, followed by the pointers in list order; a 3.x table is the
 * previous table with the newer entries appended, so a pointer to it is
 * usable as a pointer to the older one. */
#define VG_CK_TABLE_MEMBER_(name, args) CK_##name name;

struct CK_FUNCTION_LIST {
        CK_VERSION version; /* 2.40 */
        VG_CK_FUNCTIONS_2_40(VG_CK_TABLE_MEMBER_)
};

struct CK_FUNCTION_LIST_3_0 {
        CK_VERSION version; /* 3.0 or 3.1 */
        VG_CK_FUNCTIONS_2_40(VG_CK_TABLE_MEMBER_)
        VG_CK_FUNCTIONS_3_0(VG_CK_TABLE_MEMBER_)
};

struct CK_FUNCTION_LIST_3_2 {
        CK_VERSION version; /* 3.2 */
        VG_CK_FUNCTIONS_2_40(VG_CK_TABLE_MEMBER_)
        VG_CK_FUNCTIONS_3_0(VG_CK_TABLE_MEMBER_)
        VG_CK_FUNCTIONS_3_2(VG_CK_TABLE_MEMBER_)
};

#undef VG_CK_TABLE_MEMBER_

#ifdef __cplusplus
}
#endif

#endif /* VG_PKCS11_H */
