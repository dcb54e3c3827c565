/*
 * tests/unit/pkcs11/header_abi_ref.c - reference half of the header ABI test.
 *
 * This file has two roles.
 *
 * 1. Compiled on its own (the normal case) it includes p11-kit's
 *    <p11-kit/pkcs11.h>, an independent, widely deployed PKCS #11 header,
 *    and exports tables of what that header says: sizeof and offsetof for
 *    the structures both headers define, the offset of every member of the
 *    v2.40 CK_FUNCTION_LIST, and the value of every constant p11-kit
 *    defines under its standard name.
 *
 * 2. Included by header_abi.c with VG_ABI_LISTS_ONLY defined, it supplies
 *    only the lists below, so that header_abi.c builds the same tables,
 *    entry for entry, from vgtoken's cryptoki/pkcs11.h.  The two translation
 *    units must stay separate: the two headers cannot be included together.
 */
#ifndef VG_HEADER_ABI_LISTS
#define VG_HEADER_ABI_LISTS

#include <stddef.h>

/* One measured fact: a constant's value, a size, or an offset. */
struct vg_abi_entry {
        const char   *name;
        unsigned long value;
};

/*
 * Structure layouts.  S(type) records sizeof(type); M(type, member)
 * records offsetof(type, member).  Only structures p11-kit also defines
 * can be listed; everything else is checked by header_abi.c directly.
 */
#define VG_ABI_STRUCTS(S, M)                                                  \
        S(CK_VERSION) M(CK_VERSION, major) M(CK_VERSION, minor)               \
        S(CK_INFO) M(CK_INFO, cryptokiVersion) M(CK_INFO, manufacturerID)     \
        M(CK_INFO, flags) M(CK_INFO, libraryDescription)                      \
        M(CK_INFO, libraryVersion)                                            \
        S(CK_SLOT_INFO) M(CK_SLOT_INFO, slotDescription)                      \
        M(CK_SLOT_INFO, manufacturerID) M(CK_SLOT_INFO, flags)                \
        M(CK_SLOT_INFO, hardwareVersion) M(CK_SLOT_INFO, firmwareVersion)     \
        S(CK_TOKEN_INFO) M(CK_TOKEN_INFO, label)                              \
        M(CK_TOKEN_INFO, manufacturerID) M(CK_TOKEN_INFO, model)              \
        M(CK_TOKEN_INFO, serialNumber) M(CK_TOKEN_INFO, flags)                \
        M(CK_TOKEN_INFO, ulMaxSessionCount) M(CK_TOKEN_INFO, ulSessionCount)  \
        M(CK_TOKEN_INFO, ulMaxRwSessionCount)                                 \
        M(CK_TOKEN_INFO, ulRwSessionCount) M(CK_TOKEN_INFO, ulMaxPinLen)      \
        M(CK_TOKEN_INFO, ulMinPinLen) M(CK_TOKEN_INFO, ulTotalPublicMemory)   \
        M(CK_TOKEN_INFO, ulFreePublicMemory)                                  \
        M(CK_TOKEN_INFO, ulTotalPrivateMemory)                                \
        M(CK_TOKEN_INFO, ulFreePrivateMemory)                                 \
        M(CK_TOKEN_INFO, hardwareVersion) M(CK_TOKEN_INFO, firmwareVersion)   \
        M(CK_TOKEN_INFO, utcTime)                                             \
        S(CK_SESSION_INFO) M(CK_SESSION_INFO, slotID)                         \
        M(CK_SESSION_INFO, state) M(CK_SESSION_INFO, flags)                   \
        M(CK_SESSION_INFO, ulDeviceError)                                     \
        S(CK_ATTRIBUTE) M(CK_ATTRIBUTE, type) M(CK_ATTRIBUTE, pValue)         \
        M(CK_ATTRIBUTE, ulValueLen)                                           \
        S(CK_DATE) M(CK_DATE, year) M(CK_DATE, month) M(CK_DATE, day)         \
        S(CK_MECHANISM) M(CK_MECHANISM, mechanism)                            \
        M(CK_MECHANISM, pParameter) M(CK_MECHANISM, ulParameterLen)           \
        S(CK_MECHANISM_INFO) M(CK_MECHANISM_INFO, ulMinKeySize)               \
        M(CK_MECHANISM_INFO, ulMaxKeySize) M(CK_MECHANISM_INFO, flags)        \
        S(CK_C_INITIALIZE_ARGS) M(CK_C_INITIALIZE_ARGS, CreateMutex)          \
        M(CK_C_INITIALIZE_ARGS, DestroyMutex)                                 \
        M(CK_C_INITIALIZE_ARGS, LockMutex)                                    \
        M(CK_C_INITIALIZE_ARGS, UnlockMutex) M(CK_C_INITIALIZE_ARGS, flags)   \
        M(CK_C_INITIALIZE_ARGS, pReserved)                                    \
        S(CK_RSA_PKCS_PSS_PARAMS) M(CK_RSA_PKCS_PSS_PARAMS, hashAlg)          \
        M(CK_RSA_PKCS_PSS_PARAMS, mgf) M(CK_RSA_PKCS_PSS_PARAMS, sLen)        \
        S(CK_RSA_PKCS_OAEP_PARAMS) M(CK_RSA_PKCS_OAEP_PARAMS, hashAlg)        \
        M(CK_RSA_PKCS_OAEP_PARAMS, mgf) M(CK_RSA_PKCS_OAEP_PARAMS, source)    \
        M(CK_RSA_PKCS_OAEP_PARAMS, pSourceData)                               \
        M(CK_RSA_PKCS_OAEP_PARAMS, ulSourceDataLen)                           \
        S(CK_AES_CTR_PARAMS) M(CK_AES_CTR_PARAMS, ulCounterBits)              \
        M(CK_AES_CTR_PARAMS, cb)                                              \
        S(CK_GCM_PARAMS) M(CK_GCM_PARAMS, pIv) M(CK_GCM_PARAMS, ulIvLen)      \
        M(CK_GCM_PARAMS, ulIvBits) M(CK_GCM_PARAMS, pAAD)                     \
        M(CK_GCM_PARAMS, ulAADLen) M(CK_GCM_PARAMS, ulTagBits)                \
        S(CK_ECDH1_DERIVE_PARAMS) M(CK_ECDH1_DERIVE_PARAMS, kdf)              \
        M(CK_ECDH1_DERIVE_PARAMS, ulSharedDataLen)                            \
        M(CK_ECDH1_DERIVE_PARAMS, pSharedData)                                \
        M(CK_ECDH1_DERIVE_PARAMS, ulPublicDataLen)                            \
        M(CK_ECDH1_DERIVE_PARAMS, pPublicData)                                \
        S(CK_KEY_DERIVATION_STRING_DATA)                                      \
        M(CK_KEY_DERIVATION_STRING_DATA, pData)                               \
        M(CK_KEY_DERIVATION_STRING_DATA, ulLen)                               \
        S(CK_DES_CBC_ENCRYPT_DATA_PARAMS)                                     \
        M(CK_DES_CBC_ENCRYPT_DATA_PARAMS, iv)                                 \
        M(CK_DES_CBC_ENCRYPT_DATA_PARAMS, pData)                              \
        M(CK_DES_CBC_ENCRYPT_DATA_PARAMS, length)                             \
        S(CK_AES_CBC_ENCRYPT_DATA_PARAMS)                                     \
        M(CK_AES_CBC_ENCRYPT_DATA_PARAMS, iv)                                 \
        M(CK_AES_CBC_ENCRYPT_DATA_PARAMS, pData)                              \
        M(CK_AES_CBC_ENCRYPT_DATA_PARAMS, length)                             \
        S(CK_OTP_PARAM) M(CK_OTP_PARAM, type) M(CK_OTP_PARAM, pValue)         \
        M(CK_OTP_PARAM, ulValueLen)                                           \
        S(CK_OTP_PARAMS) M(CK_OTP_PARAMS, pParams) M(CK_OTP_PARAMS, ulCount)  \
        S(CK_OTP_SIGNATURE_INFO) M(CK_OTP_SIGNATURE_INFO, pParams)            \
        M(CK_OTP_SIGNATURE_INFO, ulCount)                                     \
        /* scalar and pointer types */                                        \
        S(CK_BYTE) S(CK_CHAR) S(CK_UTF8CHAR) S(CK_BBOOL) S(CK_ULONG)          \
        S(CK_LONG) S(CK_FLAGS) S(CK_SLOT_ID) S(CK_SESSION_HANDLE)             \
        S(CK_OBJECT_HANDLE) S(CK_OBJECT_CLASS) S(CK_KEY_TYPE)                 \
        S(CK_ATTRIBUTE_TYPE) S(CK_MECHANISM_TYPE) S(CK_RV) S(CK_NOTIFY)       \
        S(CK_VOID_PTR) S(CK_FUNCTION_LIST_PTR)

/*
 * The v2.40 function table, member by member, in specification order.
 * F(member) records offsetof(CK_FUNCTION_LIST, member).
 */
#define VG_ABI_FUNCTION_LIST_2_40(F)                                          \
        F(version)                                                            \
        F(C_Initialize) F(C_Finalize) F(C_GetInfo) F(C_GetFunctionList)       \
        F(C_GetSlotList) F(C_GetSlotInfo) F(C_GetTokenInfo)                   \
        F(C_GetMechanismList) F(C_GetMechanismInfo) F(C_InitToken)            \
        F(C_InitPIN) F(C_SetPIN) F(C_OpenSession) F(C_CloseSession)           \
        F(C_CloseAllSessions) F(C_GetSessionInfo) F(C_GetOperationState)      \
        F(C_SetOperationState) F(C_Login) F(C_Logout) F(C_CreateObject)       \
        F(C_CopyObject) F(C_DestroyObject) F(C_GetObjectSize)                 \
        F(C_GetAttributeValue) F(C_SetAttributeValue) F(C_FindObjectsInit)    \
        F(C_FindObjects) F(C_FindObjectsFinal) F(C_EncryptInit) F(C_Encrypt)  \
        F(C_EncryptUpdate) F(C_EncryptFinal) F(C_DecryptInit) F(C_Decrypt)    \
        F(C_DecryptUpdate) F(C_DecryptFinal) F(C_DigestInit) F(C_Digest)      \
        F(C_DigestUpdate) F(C_DigestKey) F(C_DigestFinal) F(C_SignInit)       \
        F(C_Sign) F(C_SignUpdate) F(C_SignFinal) F(C_SignRecoverInit)         \
        F(C_SignRecover) F(C_VerifyInit) F(C_Verify) F(C_VerifyUpdate)        \
        F(C_VerifyFinal) F(C_VerifyRecoverInit) F(C_VerifyRecover)            \
        F(C_DigestEncryptUpdate) F(C_DecryptDigestUpdate)                     \
        F(C_SignEncryptUpdate) F(C_DecryptVerifyUpdate) F(C_GenerateKey)      \
        F(C_GenerateKeyPair) F(C_WrapKey) F(C_UnwrapKey) F(C_DeriveKey)       \
        F(C_SeedRandom) F(C_GenerateRandom) F(C_GetFunctionStatus)            \
        F(C_CancelFunction) F(C_WaitForSlotEvent)

/*
 * Constants: every name p11-kit defines that the specification also
 * defines.  X(name) records the value of name.
 */
#define VG_ABI_CONSTANTS(X)                                                   \
        /* CKA_ */ \
        X(CKA_AC_ISSUER) X(CKA_ALLOWED_MECHANISMS)                           \
        X(CKA_ALWAYS_AUTHENTICATE) X(CKA_ALWAYS_SENSITIVE)                   \
        X(CKA_APPLICATION) X(CKA_ATTR_TYPES) X(CKA_AUTH_PIN_FLAGS)           \
        X(CKA_BASE) X(CKA_BITS_PER_PIXEL) X(CKA_CERTIFICATE_CATEGORY)        \
        X(CKA_CERTIFICATE_TYPE) X(CKA_CHAR_COLUMNS) X(CKA_CHAR_ROWS)         \
        X(CKA_CHAR_SETS) X(CKA_CHECK_VALUE) X(CKA_CLASS) X(CKA_COEFFICIENT)  \
        X(CKA_COLOR) X(CKA_COPYABLE) X(CKA_DECRYPT)                          \
        X(CKA_DEFAULT_CMS_ATTRIBUTES) X(CKA_DERIVE) X(CKA_DERIVE_TEMPLATE)   \
        X(CKA_DESTROYABLE) X(CKA_ECDSA_PARAMS) X(CKA_EC_PARAMS)              \
        X(CKA_EC_POINT) X(CKA_ENCODING_METHODS) X(CKA_ENCRYPT)               \
        X(CKA_END_DATE) X(CKA_EXPONENT_1) X(CKA_EXPONENT_2)                  \
        X(CKA_EXTRACTABLE) X(CKA_GOST28147_PARAMS) X(CKA_GOSTR3410_PARAMS)   \
        X(CKA_GOSTR3411_PARAMS) X(CKA_HASH_OF_ISSUER_PUBLIC_KEY)             \
        X(CKA_HASH_OF_SUBJECT_PUBLIC_KEY) X(CKA_HAS_RESET)                   \
        X(CKA_HW_FEATURE_TYPE) X(CKA_ID) X(CKA_ISSUER)                       \
        X(CKA_JAVA_MIDP_SECURITY_DOMAIN) X(CKA_KEY_GEN_MECHANISM)            \
        X(CKA_KEY_TYPE) X(CKA_LABEL) X(CKA_LOCAL) X(CKA_MECHANISM_TYPE)      \
        X(CKA_MIME_TYPES) X(CKA_MODIFIABLE) X(CKA_MODULUS)                   \
        X(CKA_MODULUS_BITS) X(CKA_NAME_HASH_ALGORITHM)                       \
        X(CKA_NEVER_EXTRACTABLE) X(CKA_OBJECT_ID)                            \
        X(CKA_OTP_CHALLENGE_REQUIREMENT) X(CKA_OTP_COUNTER)                  \
        X(CKA_OTP_COUNTER_REQUIREMENT) X(CKA_OTP_FORMAT) X(CKA_OTP_LENGTH)   \
        X(CKA_OTP_PIN_REQUIREMENT) X(CKA_OTP_SERVICE_IDENTIFIER)             \
        X(CKA_OTP_SERVICE_LOGO) X(CKA_OTP_SERVICE_LOGO_TYPE) X(CKA_OTP_TIME) \
        X(CKA_OTP_TIME_INTERVAL) X(CKA_OTP_TIME_REQUIREMENT)                 \
        X(CKA_OTP_USER_FRIENDLY_MODE) X(CKA_OTP_USER_IDENTIFIER)             \
        X(CKA_OWNER) X(CKA_PIXEL_X) X(CKA_PIXEL_Y) X(CKA_PRIME)              \
        X(CKA_PRIME_1) X(CKA_PRIME_2) X(CKA_PRIME_BITS) X(CKA_PRIVATE)       \
        X(CKA_PRIVATE_EXPONENT) X(CKA_PUBLIC_EXPONENT)                       \
        X(CKA_PUBLIC_KEY_INFO) X(CKA_REQUIRED_CMS_ATTRIBUTES)                \
        X(CKA_RESET_ON_INIT) X(CKA_RESOLUTION) X(CKA_SECONDARY_AUTH)         \
        X(CKA_SENSITIVE) X(CKA_SERIAL_NUMBER) X(CKA_SIGN)                    \
        X(CKA_SIGN_RECOVER) X(CKA_START_DATE) X(CKA_SUBJECT) X(CKA_SUBPRIME) \
        X(CKA_SUB_PRIME_BITS) X(CKA_SUPPORTED_CMS_ATTRIBUTES) X(CKA_TOKEN)   \
        X(CKA_TRUSTED) X(CKA_UNWRAP) X(CKA_UNWRAP_TEMPLATE) X(CKA_URL)       \
        X(CKA_VALUE) X(CKA_VALUE_BITS) X(CKA_VALUE_LEN)                      \
        X(CKA_VENDOR_DEFINED) X(CKA_VERIFY) X(CKA_VERIFY_RECOVER)            \
        X(CKA_WRAP) X(CKA_WRAP_TEMPLATE) X(CKA_WRAP_WITH_TRUSTED)            \
        /* CKC_ */ \
        X(CKC_VENDOR_DEFINED) X(CKC_WTLS) X(CKC_X_509)                       \
        X(CKC_X_509_ATTR_CERT)                                               \
        /* CKD_ */ \
        X(CKD_CPDIVERSIFY_KDF) X(CKD_NULL) X(CKD_SHA1_KDF)                   \
        X(CKD_SHA1_KDF_ASN1) X(CKD_SHA1_KDF_CONCATENATE) X(CKD_SHA224_KDF)   \
        X(CKD_SHA256_KDF) X(CKD_SHA384_KDF) X(CKD_SHA512_KDF)                \
        /* CKF_ */ \
        X(CKF_ARRAY_ATTRIBUTE) X(CKF_CLOCK_ON_TOKEN) X(CKF_DECRYPT)          \
        X(CKF_DERIVE) X(CKF_DIGEST) X(CKF_DONT_BLOCK)                        \
        X(CKF_DUAL_CRYPTO_OPERATIONS) X(CKF_EC_COMPRESS) X(CKF_EC_F_P)       \
        X(CKF_EC_NAMEDCURVE) X(CKF_EC_UNCOMPRESS) X(CKF_ENCRYPT)             \
        X(CKF_EXCLUDE_CHALLENGE) X(CKF_EXCLUDE_COUNTER) X(CKF_EXCLUDE_PIN)   \
        X(CKF_EXCLUDE_TIME) X(CKF_EXTENSION) X(CKF_GENERATE)                 \
        X(CKF_GENERATE_KEY_PAIR) X(CKF_HW) X(CKF_HW_SLOT)                    \
        X(CKF_LIBRARY_CANT_CREATE_OS_THREADS) X(CKF_LOGIN_REQUIRED)          \
        X(CKF_NEXT_OTP) X(CKF_OS_LOCKING_OK)                                 \
        X(CKF_PROTECTED_AUTHENTICATION_PATH) X(CKF_REMOVABLE_DEVICE)         \
        X(CKF_RESTORE_KEY_NOT_NEEDED) X(CKF_RNG) X(CKF_RW_SESSION)           \
        X(CKF_SECONDARY_AUTHENTICATION) X(CKF_SERIAL_SESSION) X(CKF_SIGN)    \
        X(CKF_SIGN_RECOVER) X(CKF_SO_PIN_COUNT_LOW) X(CKF_SO_PIN_FINAL_TRY)  \
        X(CKF_SO_PIN_LOCKED) X(CKF_SO_PIN_TO_BE_CHANGED)                     \
        X(CKF_TOKEN_INITIALIZED) X(CKF_TOKEN_PRESENT) X(CKF_UNWRAP)          \
        X(CKF_USER_FRIENDLY_OTP) X(CKF_USER_PIN_COUNT_LOW)                   \
        X(CKF_USER_PIN_FINAL_TRY) X(CKF_USER_PIN_INITIALIZED)                \
        X(CKF_USER_PIN_LOCKED) X(CKF_USER_PIN_TO_BE_CHANGED) X(CKF_VERIFY)   \
        X(CKF_VERIFY_RECOVER) X(CKF_WRAP) X(CKF_WRITE_PROTECTED)             \
        /* CKG_ */ \
        X(CKG_MGF1_SHA1) X(CKG_MGF1_SHA224) X(CKG_MGF1_SHA256)               \
        X(CKG_MGF1_SHA384) X(CKG_MGF1_SHA512)                                \
        /* CKH_ */ \
        X(CKH_CLOCK) X(CKH_MONOTONIC_COUNTER) X(CKH_USER_INTERFACE)          \
        X(CKH_VENDOR_DEFINED)                                                \
        /* CKK_ */ \
        X(CKK_ACTI) X(CKK_AES) X(CKK_ARIA) X(CKK_BATON) X(CKK_BLOWFISH)      \
        X(CKK_CAMELLIA) X(CKK_CAST) X(CKK_CAST128) X(CKK_CAST3) X(CKK_CDMF)  \
        X(CKK_DES) X(CKK_DES2) X(CKK_DES3) X(CKK_DH) X(CKK_DSA) X(CKK_EC)    \
        X(CKK_ECDSA) X(CKK_EC_EDWARDS) X(CKK_GENERIC_SECRET)                 \
        X(CKK_GOST28147) X(CKK_GOSTR3410) X(CKK_GOSTR3411) X(CKK_HOTP)       \
        X(CKK_IDEA) X(CKK_JUNIPER) X(CKK_KEA) X(CKK_MD5_HMAC) X(CKK_RC2)     \
        X(CKK_RC4) X(CKK_RC5) X(CKK_RIPEMD128_HMAC) X(CKK_RIPEMD160_HMAC)    \
        X(CKK_RSA) X(CKK_SECURID) X(CKK_SEED) X(CKK_SHA224_HMAC)             \
        X(CKK_SHA256_HMAC) X(CKK_SHA384_HMAC) X(CKK_SHA512_HMAC)             \
        X(CKK_SHA_1_HMAC) X(CKK_SKIPJACK) X(CKK_TWOFISH)                     \
        X(CKK_VENDOR_DEFINED) X(CKK_X9_42_DH)                                \
        /* CKM_ */ \
        X(CKM_ACTI) X(CKM_ACTI_KEY_GEN) X(CKM_AES_CBC)                       \
        X(CKM_AES_CBC_ENCRYPT_DATA) X(CKM_AES_CBC_PAD) X(CKM_AES_CCM)        \
        X(CKM_AES_CFB1) X(CKM_AES_CFB128) X(CKM_AES_CFB64) X(CKM_AES_CFB8)   \
        X(CKM_AES_CMAC) X(CKM_AES_CMAC_GENERAL) X(CKM_AES_CTR)               \
        X(CKM_AES_CTS) X(CKM_AES_ECB) X(CKM_AES_ECB_ENCRYPT_DATA)            \
        X(CKM_AES_GCM) X(CKM_AES_GMAC) X(CKM_AES_KEY_GEN)                    \
        X(CKM_AES_KEY_WRAP) X(CKM_AES_KEY_WRAP_PAD) X(CKM_AES_MAC)           \
        X(CKM_AES_MAC_GENERAL) X(CKM_AES_OFB) X(CKM_AES_XCBC_MAC)            \
        X(CKM_AES_XCBC_MAC_96) X(CKM_ARIA_CBC) X(CKM_ARIA_CBC_ENCRYPT_DATA)  \
        X(CKM_ARIA_CBC_PAD) X(CKM_ARIA_ECB) X(CKM_ARIA_ECB_ENCRYPT_DATA)     \
        X(CKM_ARIA_KEY_GEN) X(CKM_ARIA_MAC) X(CKM_ARIA_MAC_GENERAL)          \
        X(CKM_BATON_CBC128) X(CKM_BATON_COUNTER) X(CKM_BATON_ECB128)         \
        X(CKM_BATON_ECB96) X(CKM_BATON_KEY_GEN) X(CKM_BATON_SHUFFLE)         \
        X(CKM_BATON_WRAP) X(CKM_BLOWFISH_CBC) X(CKM_BLOWFISH_CBC_PAD)        \
        X(CKM_BLOWFISH_KEY_GEN) X(CKM_CAMELLIA_CBC)                          \
        X(CKM_CAMELLIA_CBC_ENCRYPT_DATA) X(CKM_CAMELLIA_CBC_PAD)             \
        X(CKM_CAMELLIA_CTR) X(CKM_CAMELLIA_ECB)                              \
        X(CKM_CAMELLIA_ECB_ENCRYPT_DATA) X(CKM_CAMELLIA_KEY_GEN)             \
        X(CKM_CAMELLIA_MAC) X(CKM_CAMELLIA_MAC_GENERAL) X(CKM_CAST128_CBC)   \
        X(CKM_CAST128_CBC_PAD) X(CKM_CAST128_ECB) X(CKM_CAST128_KEY_GEN)     \
        X(CKM_CAST128_MAC) X(CKM_CAST128_MAC_GENERAL) X(CKM_CAST3_CBC)       \
        X(CKM_CAST3_CBC_PAD) X(CKM_CAST3_ECB) X(CKM_CAST3_KEY_GEN)           \
        X(CKM_CAST3_MAC) X(CKM_CAST3_MAC_GENERAL) X(CKM_CAST5_CBC)           \
        X(CKM_CAST5_CBC_PAD) X(CKM_CAST5_ECB) X(CKM_CAST5_KEY_GEN)           \
        X(CKM_CAST5_MAC) X(CKM_CAST5_MAC_GENERAL) X(CKM_CAST_CBC)            \
        X(CKM_CAST_CBC_PAD) X(CKM_CAST_ECB) X(CKM_CAST_KEY_GEN)              \
        X(CKM_CAST_MAC) X(CKM_CAST_MAC_GENERAL) X(CKM_CDMF_CBC)              \
        X(CKM_CDMF_CBC_PAD) X(CKM_CDMF_ECB) X(CKM_CDMF_KEY_GEN)              \
        X(CKM_CDMF_MAC) X(CKM_CDMF_MAC_GENERAL) X(CKM_CMS_SIG)               \
        X(CKM_CONCATENATE_BASE_AND_DATA) X(CKM_CONCATENATE_BASE_AND_KEY)     \
        X(CKM_CONCATENATE_DATA_AND_BASE) X(CKM_DES2_KEY_GEN) X(CKM_DES3_CBC) \
        X(CKM_DES3_CBC_ENCRYPT_DATA) X(CKM_DES3_CBC_PAD) X(CKM_DES3_CMAC)    \
        X(CKM_DES3_CMAC_GENERAL) X(CKM_DES3_ECB)                             \
        X(CKM_DES3_ECB_ENCRYPT_DATA) X(CKM_DES3_KEY_GEN) X(CKM_DES3_MAC)     \
        X(CKM_DES3_MAC_GENERAL) X(CKM_DES_CBC) X(CKM_DES_CBC_ENCRYPT_DATA)   \
        X(CKM_DES_CBC_PAD) X(CKM_DES_CFB64) X(CKM_DES_CFB8) X(CKM_DES_ECB)   \
        X(CKM_DES_ECB_ENCRYPT_DATA) X(CKM_DES_KEY_GEN) X(CKM_DES_MAC)        \
        X(CKM_DES_MAC_GENERAL) X(CKM_DES_OFB64) X(CKM_DES_OFB8)              \
        X(CKM_DH_PKCS_DERIVE) X(CKM_DH_PKCS_KEY_PAIR_GEN)                    \
        X(CKM_DH_PKCS_PARAMETER_GEN) X(CKM_DSA) X(CKM_DSA_KEY_PAIR_GEN)      \
        X(CKM_DSA_PARAMETER_GEN) X(CKM_DSA_PROBABLISTIC_PARAMETER_GEN)       \
        X(CKM_DSA_SHA1) X(CKM_DSA_SHA224) X(CKM_DSA_SHA256)                  \
        X(CKM_DSA_SHA384) X(CKM_DSA_SHA512)                                  \
        X(CKM_DSA_SHAWE_TAYLOR_PARAMETER_GEN) X(CKM_ECDH1_COFACTOR_DERIVE)   \
        X(CKM_ECDH1_DERIVE) X(CKM_ECDH_AES_KEY_WRAP) X(CKM_ECDSA)            \
        X(CKM_ECDSA_KEY_PAIR_GEN) X(CKM_ECDSA_SHA1) X(CKM_ECDSA_SHA224)      \
        X(CKM_ECDSA_SHA256) X(CKM_ECDSA_SHA384) X(CKM_ECDSA_SHA512)          \
        X(CKM_ECMQV_DERIVE) X(CKM_EC_EDWARDS_KEY_PAIR_GEN)                   \
        X(CKM_EC_KEY_PAIR_GEN) X(CKM_EDDSA) X(CKM_EXTRACT_KEY_FROM_KEY)      \
        X(CKM_FASTHASH) X(CKM_FORTEZZA_TIMESTAMP)                            \
        X(CKM_GENERIC_SECRET_KEY_GEN) X(CKM_GOST28147) X(CKM_GOST28147_ECB)  \
        X(CKM_GOST28147_KEY_GEN) X(CKM_GOST28147_KEY_WRAP)                   \
        X(CKM_GOST28147_MAC) X(CKM_GOSTR3410) X(CKM_GOSTR3410_DERIVE)        \
        X(CKM_GOSTR3410_KEY_PAIR_GEN) X(CKM_GOSTR3410_KEY_WRAP)              \
        X(CKM_GOSTR3410_WITH_GOSTR3411) X(CKM_GOSTR3411)                     \
        X(CKM_GOSTR3411_HMAC) X(CKM_HOTP) X(CKM_HOTP_KEY_GEN)                \
        X(CKM_IDEA_CBC) X(CKM_IDEA_CBC_PAD) X(CKM_IDEA_ECB)                  \
        X(CKM_IDEA_KEY_GEN) X(CKM_IDEA_MAC) X(CKM_IDEA_MAC_GENERAL)          \
        X(CKM_JUNIPER_CBC128) X(CKM_JUNIPER_COUNTER) X(CKM_JUNIPER_ECB128)   \
        X(CKM_JUNIPER_KEY_GEN) X(CKM_JUNIPER_SHUFFLE) X(CKM_JUNIPER_WRAP)    \
        X(CKM_KEA_KEY_DERIVE) X(CKM_KEA_KEY_PAIR_GEN) X(CKM_KEY_WRAP_LYNKS)  \
        X(CKM_KEY_WRAP_SET_OAEP) X(CKM_KIP_DERIVE) X(CKM_KIP_MAC)            \
        X(CKM_KIP_WRAP) X(CKM_MD2) X(CKM_MD2_HMAC) X(CKM_MD2_HMAC_GENERAL)   \
        X(CKM_MD2_KEY_DERIVATION) X(CKM_MD2_RSA_PKCS) X(CKM_MD5)             \
        X(CKM_MD5_HMAC) X(CKM_MD5_HMAC_GENERAL) X(CKM_MD5_KEY_DERIVATION)    \
        X(CKM_MD5_RSA_PKCS) X(CKM_PBA_SHA1_WITH_SHA1_HMAC)                   \
        X(CKM_PBE_MD2_DES_CBC) X(CKM_PBE_MD5_CAST128_CBC)                    \
        X(CKM_PBE_MD5_CAST3_CBC) X(CKM_PBE_MD5_CAST5_CBC)                    \
        X(CKM_PBE_MD5_CAST_CBC) X(CKM_PBE_MD5_DES_CBC)                       \
        X(CKM_PBE_SHA1_CAST128_CBC) X(CKM_PBE_SHA1_CAST5_CBC)                \
        X(CKM_PBE_SHA1_DES2_EDE_CBC) X(CKM_PBE_SHA1_DES3_EDE_CBC)            \
        X(CKM_PBE_SHA1_RC2_128_CBC) X(CKM_PBE_SHA1_RC2_40_CBC)               \
        X(CKM_PBE_SHA1_RC4_128) X(CKM_PBE_SHA1_RC4_40) X(CKM_PKCS5_PBKD2)    \
        X(CKM_RC2_CBC) X(CKM_RC2_CBC_PAD) X(CKM_RC2_ECB) X(CKM_RC2_KEY_GEN)  \
        X(CKM_RC2_MAC) X(CKM_RC2_MAC_GENERAL) X(CKM_RC4) X(CKM_RC4_KEY_GEN)  \
        X(CKM_RC5_CBC) X(CKM_RC5_CBC_PAD) X(CKM_RC5_ECB) X(CKM_RC5_KEY_GEN)  \
        X(CKM_RC5_MAC) X(CKM_RC5_MAC_GENERAL) X(CKM_RIPEMD128)               \
        X(CKM_RIPEMD128_HMAC) X(CKM_RIPEMD128_HMAC_GENERAL)                  \
        X(CKM_RIPEMD128_RSA_PKCS) X(CKM_RIPEMD160) X(CKM_RIPEMD160_HMAC)     \
        X(CKM_RIPEMD160_HMAC_GENERAL) X(CKM_RIPEMD160_RSA_PKCS)              \
        X(CKM_RSA_9796) X(CKM_RSA_AES_KEY_WRAP) X(CKM_RSA_PKCS)              \
        X(CKM_RSA_PKCS_KEY_PAIR_GEN) X(CKM_RSA_PKCS_OAEP)                    \
        X(CKM_RSA_PKCS_OAEP_TPM_1_1) X(CKM_RSA_PKCS_PSS)                     \
        X(CKM_RSA_PKCS_TPM_1_1) X(CKM_RSA_X9_31)                             \
        X(CKM_RSA_X9_31_KEY_PAIR_GEN) X(CKM_RSA_X_509) X(CKM_SECURID)        \
        X(CKM_SECURID_KEY_GEN) X(CKM_SEED_CBC) X(CKM_SEED_CBC_ENCRYPT_DATA)  \
        X(CKM_SEED_CBC_PAD) X(CKM_SEED_ECB) X(CKM_SEED_ECB_ENCRYPT_DATA)     \
        X(CKM_SEED_KEY_GEN) X(CKM_SEED_MAC) X(CKM_SEED_MAC_GENERAL)          \
        X(CKM_SHA1_KEY_DERIVATION) X(CKM_SHA1_RSA_PKCS)                      \
        X(CKM_SHA1_RSA_PKCS_PSS) X(CKM_SHA1_RSA_X9_31) X(CKM_SHA224)         \
        X(CKM_SHA224_HMAC) X(CKM_SHA224_HMAC_GENERAL)                        \
        X(CKM_SHA224_KEY_DERIVATION) X(CKM_SHA224_RSA_PKCS)                  \
        X(CKM_SHA224_RSA_PKCS_PSS) X(CKM_SHA256) X(CKM_SHA256_HMAC)          \
        X(CKM_SHA256_HMAC_GENERAL) X(CKM_SHA256_KEY_DERIVATION)              \
        X(CKM_SHA256_RSA_PKCS) X(CKM_SHA256_RSA_PKCS_PSS) X(CKM_SHA384)      \
        X(CKM_SHA384_HMAC) X(CKM_SHA384_HMAC_GENERAL)                        \
        X(CKM_SHA384_KEY_DERIVATION) X(CKM_SHA384_RSA_PKCS)                  \
        X(CKM_SHA384_RSA_PKCS_PSS) X(CKM_SHA512) X(CKM_SHA512_224)           \
        X(CKM_SHA512_224_HMAC) X(CKM_SHA512_224_HMAC_GENERAL)                \
        X(CKM_SHA512_224_KEY_DERIVATION) X(CKM_SHA512_256)                   \
        X(CKM_SHA512_256_HMAC) X(CKM_SHA512_256_HMAC_GENERAL)                \
        X(CKM_SHA512_256_KEY_DERIVATION) X(CKM_SHA512_HMAC)                  \
        X(CKM_SHA512_HMAC_GENERAL) X(CKM_SHA512_KEY_DERIVATION)              \
        X(CKM_SHA512_RSA_PKCS) X(CKM_SHA512_RSA_PKCS_PSS) X(CKM_SHA512_T)    \
        X(CKM_SHA512_T_HMAC) X(CKM_SHA512_T_HMAC_GENERAL)                    \
        X(CKM_SHA512_T_KEY_DERIVATION) X(CKM_SHA_1) X(CKM_SHA_1_HMAC)        \
        X(CKM_SHA_1_HMAC_GENERAL) X(CKM_SKIPJACK_CBC64)                      \
        X(CKM_SKIPJACK_CFB16) X(CKM_SKIPJACK_CFB32) X(CKM_SKIPJACK_CFB64)    \
        X(CKM_SKIPJACK_CFB8) X(CKM_SKIPJACK_ECB64) X(CKM_SKIPJACK_KEY_GEN)   \
        X(CKM_SKIPJACK_OFB64) X(CKM_SKIPJACK_PRIVATE_WRAP)                   \
        X(CKM_SKIPJACK_RELAYX) X(CKM_SKIPJACK_WRAP)                          \
        X(CKM_SSL3_KEY_AND_MAC_DERIVE) X(CKM_SSL3_MASTER_KEY_DERIVE)         \
        X(CKM_SSL3_MASTER_KEY_DERIVE_DH) X(CKM_SSL3_MD5_MAC)                 \
        X(CKM_SSL3_PRE_MASTER_KEY_GEN) X(CKM_SSL3_SHA1_MAC)                  \
        X(CKM_TLS10_MAC_CLIENT) X(CKM_TLS10_MAC_SERVER) X(CKM_TLS12_KDF)     \
        X(CKM_TLS12_KEY_AND_MAC_DERIVE) X(CKM_TLS12_KEY_SAFE_DERIVE)         \
        X(CKM_TLS12_MAC) X(CKM_TLS12_MASTER_KEY_DERIVE)                      \
        X(CKM_TLS12_MASTER_KEY_DERIVE_DH) X(CKM_TLS_KDF)                     \
        X(CKM_TLS_KEY_AND_MAC_DERIVE) X(CKM_TLS_MAC)                         \
        X(CKM_TLS_MASTER_KEY_DERIVE) X(CKM_TLS_MASTER_KEY_DERIVE_DH)         \
        X(CKM_TLS_PRE_MASTER_KEY_GEN) X(CKM_TLS_PRF) X(CKM_TWOFISH_CBC)      \
        X(CKM_TWOFISH_CBC_PAD) X(CKM_TWOFISH_KEY_GEN) X(CKM_VENDOR_DEFINED)  \
        X(CKM_WTLS_CLIENT_KEY_AND_MAC_DERIVE) X(CKM_WTLS_MASTER_KEY_DERIVE)  \
        X(CKM_WTLS_MASTER_KEY_DERIVE_DH_ECC) X(CKM_WTLS_PRE_MASTER_KEY_GEN)  \
        X(CKM_WTLS_PRF) X(CKM_WTLS_SERVER_KEY_AND_MAC_DERIVE)                \
        X(CKM_X9_42_DH_DERIVE) X(CKM_X9_42_DH_HYBRID_DERIVE)                 \
        X(CKM_X9_42_DH_KEY_PAIR_GEN) X(CKM_X9_42_DH_PARAMETER_GEN)           \
        X(CKM_X9_42_MQV_DERIVE) X(CKM_XOR_BASE_AND_DATA)                     \
        /* CKN_ */ \
        X(CKN_OTP_CHANGED) X(CKN_SURRENDER)                                  \
        /* CKO_ */ \
        X(CKO_CERTIFICATE) X(CKO_DATA) X(CKO_DOMAIN_PARAMETERS)              \
        X(CKO_HW_FEATURE) X(CKO_MECHANISM) X(CKO_OTP_KEY) X(CKO_PRIVATE_KEY) \
        X(CKO_PUBLIC_KEY) X(CKO_SECRET_KEY) X(CKO_VENDOR_DEFINED)            \
        /* CKR_ */ \
        X(CKR_ACTION_PROHIBITED) X(CKR_ARGUMENTS_BAD)                        \
        X(CKR_ATTRIBUTE_READ_ONLY) X(CKR_ATTRIBUTE_SENSITIVE)                \
        X(CKR_ATTRIBUTE_TYPE_INVALID) X(CKR_ATTRIBUTE_VALUE_INVALID)         \
        X(CKR_BUFFER_TOO_SMALL) X(CKR_CANCEL) X(CKR_CANT_LOCK)               \
        X(CKR_CRYPTOKI_ALREADY_INITIALIZED) X(CKR_CRYPTOKI_NOT_INITIALIZED)  \
        X(CKR_CURVE_NOT_SUPPORTED) X(CKR_DATA_INVALID) X(CKR_DATA_LEN_RANGE) \
        X(CKR_DEVICE_ERROR) X(CKR_DEVICE_MEMORY) X(CKR_DEVICE_REMOVED)       \
        X(CKR_DOMAIN_PARAMS_INVALID) X(CKR_ENCRYPTED_DATA_INVALID)           \
        X(CKR_ENCRYPTED_DATA_LEN_RANGE) X(CKR_EXCEEDED_MAX_ITERATIONS)       \
        X(CKR_FIPS_SELF_TEST_FAILED) X(CKR_FUNCTION_CANCELED)                \
        X(CKR_FUNCTION_FAILED) X(CKR_FUNCTION_NOT_PARALLEL)                  \
        X(CKR_FUNCTION_NOT_SUPPORTED) X(CKR_FUNCTION_REJECTED)               \
        X(CKR_GENERAL_ERROR) X(CKR_HOST_MEMORY) X(CKR_INFORMATION_SENSITIVE) \
        X(CKR_KEY_CHANGED) X(CKR_KEY_FUNCTION_NOT_PERMITTED)                 \
        X(CKR_KEY_HANDLE_INVALID) X(CKR_KEY_INDIGESTIBLE) X(CKR_KEY_NEEDED)  \
        X(CKR_KEY_NOT_NEEDED) X(CKR_KEY_NOT_WRAPPABLE) X(CKR_KEY_SIZE_RANGE) \
        X(CKR_KEY_TYPE_INCONSISTENT) X(CKR_KEY_UNEXTRACTABLE)                \
        X(CKR_LIBRARY_LOAD_FAILED) X(CKR_MECHANISM_INVALID)                  \
        X(CKR_MECHANISM_PARAM_INVALID) X(CKR_MUTEX_BAD)                      \
        X(CKR_MUTEX_NOT_LOCKED) X(CKR_NEED_TO_CREATE_THREADS)                \
        X(CKR_NEW_PIN_MODE) X(CKR_NEXT_OTP) X(CKR_NO_EVENT)                  \
        X(CKR_OBJECT_HANDLE_INVALID) X(CKR_OK) X(CKR_OPERATION_ACTIVE)       \
        X(CKR_OPERATION_NOT_INITIALIZED) X(CKR_PIN_EXPIRED)                  \
        X(CKR_PIN_INCORRECT) X(CKR_PIN_INVALID) X(CKR_PIN_LEN_RANGE)         \
        X(CKR_PIN_LOCKED) X(CKR_PIN_TOO_WEAK) X(CKR_PUBLIC_KEY_INVALID)      \
        X(CKR_RANDOM_NO_RNG) X(CKR_RANDOM_SEED_NOT_SUPPORTED)                \
        X(CKR_SAVED_STATE_INVALID) X(CKR_SESSION_CLOSED)                     \
        X(CKR_SESSION_COUNT) X(CKR_SESSION_EXISTS)                           \
        X(CKR_SESSION_HANDLE_INVALID) X(CKR_SESSION_PARALLEL_NOT_SUPPORTED)  \
        X(CKR_SESSION_READ_ONLY) X(CKR_SESSION_READ_ONLY_EXISTS)             \
        X(CKR_SESSION_READ_WRITE_SO_EXISTS) X(CKR_SIGNATURE_INVALID)         \
        X(CKR_SIGNATURE_LEN_RANGE) X(CKR_SLOT_ID_INVALID)                    \
        X(CKR_STATE_UNSAVEABLE) X(CKR_TEMPLATE_INCOMPLETE)                   \
        X(CKR_TEMPLATE_INCONSISTENT) X(CKR_TOKEN_NOT_PRESENT)                \
        X(CKR_TOKEN_NOT_RECOGNIZED) X(CKR_TOKEN_WRITE_PROTECTED)             \
        X(CKR_UNWRAPPING_KEY_HANDLE_INVALID)                                 \
        X(CKR_UNWRAPPING_KEY_SIZE_RANGE)                                     \
        X(CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT)                              \
        X(CKR_USER_ALREADY_LOGGED_IN) X(CKR_USER_ANOTHER_ALREADY_LOGGED_IN)  \
        X(CKR_USER_NOT_LOGGED_IN) X(CKR_USER_PIN_NOT_INITIALIZED)            \
        X(CKR_USER_TOO_MANY_TYPES) X(CKR_USER_TYPE_INVALID)                  \
        X(CKR_VENDOR_DEFINED) X(CKR_WRAPPED_KEY_INVALID)                     \
        X(CKR_WRAPPED_KEY_LEN_RANGE) X(CKR_WRAPPING_KEY_HANDLE_INVALID)      \
        X(CKR_WRAPPING_KEY_SIZE_RANGE) X(CKR_WRAPPING_KEY_TYPE_INCONSISTENT) \
        /* CKS_ */ \
        X(CKS_RO_PUBLIC_SESSION) X(CKS_RO_USER_FUNCTIONS)                    \
        X(CKS_RW_PUBLIC_SESSION) X(CKS_RW_SO_FUNCTIONS)                      \
        X(CKS_RW_USER_FUNCTIONS)                                             \
        /* CKU_ */ \
        X(CKU_CONTEXT_SPECIFIC) X(CKU_SO) X(CKU_USER)                        \
        /* CKZ_ */ \
        X(CKZ_DATA_SPECIFIED)                                                \
        /* CK_ */ \
        X(CK_EFFECTIVELY_INFINITE) X(CK_INVALID_HANDLE) X(CK_OTP_CHALLENGE)  \
        X(CK_OTP_COUNTER) X(CK_OTP_FLAGS) X(CK_OTP_FORMAT_ALPHANUMERIC)      \
        X(CK_OTP_FORMAT_BINARY) X(CK_OTP_FORMAT_DECIMAL)                     \
        X(CK_OTP_FORMAT_HEXADECIMAL) X(CK_OTP_OUTPUT_LENGTH)                 \
        X(CK_OTP_PARAM_IGNORED) X(CK_OTP_PARAM_MANDATORY)                    \
        X(CK_OTP_PARAM_OPTIONAL) X(CK_OTP_PIN) X(CK_OTP_TIME)                \
        X(CK_OTP_VALUE) X(CK_UNAVAILABLE_INFORMATION)                        \
        /* end */

#endif /* VG_HEADER_ABI_LISTS */

#ifndef VG_ABI_LISTS_ONLY

#include <p11-kit/pkcs11.h>

#define VG_ABI_SIZE_(type) {"sizeof(" #type ")", (unsigned long)sizeof(type)},
#define VG_ABI_OFFSET_(type, member)                                          \
        {"offsetof(" #type ", " #member ")",                                  \
         (unsigned long)offsetof(type, member)},
#define VG_ABI_FL_(member)                                                    \
        {"offsetof(CK_FUNCTION_LIST, " #member ")",                           \
         (unsigned long)offsetof(CK_FUNCTION_LIST, member)},
#define VG_ABI_VALUE_(name) {#name, (unsigned long)(name)},

/* The tables header_abi.c compares against; see header_abi.c. */
extern const struct vg_abi_entry vg_abi_ref_layout[];
extern const size_t vg_abi_ref_layout_count;
extern const struct vg_abi_entry vg_abi_ref_function_list[];
extern const size_t vg_abi_ref_function_list_count;
extern const struct vg_abi_entry vg_abi_ref_constants[];
extern const size_t vg_abi_ref_constants_count;

const struct vg_abi_entry vg_abi_ref_layout[] = {
        VG_ABI_STRUCTS(VG_ABI_SIZE_, VG_ABI_OFFSET_)
};
const size_t vg_abi_ref_layout_count =
        sizeof(vg_abi_ref_layout) / sizeof(vg_abi_ref_layout[0]);

const struct vg_abi_entry vg_abi_ref_function_list[] = {
        VG_ABI_FUNCTION_LIST_2_40(VG_ABI_FL_)
};
const size_t vg_abi_ref_function_list_count =
        sizeof(vg_abi_ref_function_list) / sizeof(vg_abi_ref_function_list[0]);

const struct vg_abi_entry vg_abi_ref_constants[] = {
        VG_ABI_CONSTANTS(VG_ABI_VALUE_)
};
const size_t vg_abi_ref_constants_count =
        sizeof(vg_abi_ref_constants) / sizeof(vg_abi_ref_constants[0]);

#endif /* !VG_ABI_LISTS_ONLY */
