/*
 * Entry points of the specification that this version of the token does
 * not offer. Each is present in every function table (never a NULL
 * pointer) and answers CKR_FUNCTION_NOT_SUPPORTED once the library is
 * initialised. A function moves to its group's file when it is implemented.
 */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

#define UNSUPPORTED(name, params)                                          \
	VG_EXPORT CK_RV name params                                         \
	{                                                                   \
		CK_RV rv = vg_module_check();                               \
                                                                            \
		if (rv == CKR_OK)                                           \
			rv = CKR_FUNCTION_NOT_SUPPORTED;                    \
		VG_TRACE_RV(rv);                                            \
		return rv;                                                  \
	}

#define SESSION CK_SESSION_HANDLE hSession
#define MECH CK_MECHANISM_PTR pMechanism
#define KEY CK_OBJECT_HANDLE hKey
#define IN(x) CK_BYTE_PTR x, CK_ULONG x##Len
#define OUT(x) CK_BYTE_PTR x, CK_ULONG_PTR x##Len
#define TEMPLATE CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount
#define PARAM CK_VOID_PTR pParameter, CK_ULONG ulParameterLen

/* Signing and verifying with recovery. */
UNSUPPORTED(C_SignRecoverInit, (SESSION, MECH, KEY))
UNSUPPORTED(C_SignRecover, (SESSION, IN(pData), OUT(pSignature)))
UNSUPPORTED(C_VerifyRecoverInit, (SESSION, MECH, KEY))
UNSUPPORTED(C_VerifyRecover, (SESSION, IN(pSignature), OUT(pData)))

/* Dual-function operations. */
UNSUPPORTED(C_DigestEncryptUpdate, (SESSION, IN(pPart),
    OUT(pEncryptedPart)))
UNSUPPORTED(C_DecryptDigestUpdate, (SESSION, IN(pEncryptedPart),
    OUT(pPart)))
UNSUPPORTED(C_SignEncryptUpdate, (SESSION, IN(pPart), OUT(pEncryptedPart)))
UNSUPPORTED(C_DecryptVerifyUpdate, (SESSION, IN(pEncryptedPart),
    OUT(pPart)))

/* Message-based functions (3.0). */
UNSUPPORTED(C_MessageEncryptInit, (SESSION, MECH, KEY))
UNSUPPORTED(C_EncryptMessage, (SESSION, PARAM, IN(pAssociatedData),
    IN(pPlaintext), OUT(pCiphertext)))
UNSUPPORTED(C_EncryptMessageBegin, (SESSION, PARAM, IN(pAssociatedData)))
UNSUPPORTED(C_EncryptMessageNext, (SESSION, PARAM, IN(pPlaintextPart),
    OUT(pCiphertextPart), CK_FLAGS flags))
UNSUPPORTED(C_MessageEncryptFinal, (SESSION))
UNSUPPORTED(C_MessageDecryptInit, (SESSION, MECH, KEY))
UNSUPPORTED(C_DecryptMessage, (SESSION, PARAM, IN(pAssociatedData),
    IN(pCiphertext), OUT(pPlaintext)))
UNSUPPORTED(C_DecryptMessageBegin, (SESSION, PARAM, IN(pAssociatedData)))
UNSUPPORTED(C_DecryptMessageNext, (SESSION, PARAM, IN(pCiphertextPart),
    OUT(pPlaintextPart), CK_FLAGS flags))
UNSUPPORTED(C_MessageDecryptFinal, (SESSION))
UNSUPPORTED(C_MessageSignInit, (SESSION, MECH, KEY))
UNSUPPORTED(C_SignMessage, (SESSION, PARAM, IN(pData), OUT(pSignature)))
UNSUPPORTED(C_SignMessageBegin, (SESSION, PARAM))
UNSUPPORTED(C_SignMessageNext, (SESSION, PARAM, IN(pData),
    OUT(pSignature)))
UNSUPPORTED(C_MessageSignFinal, (SESSION))
UNSUPPORTED(C_MessageVerifyInit, (SESSION, MECH, KEY))
UNSUPPORTED(C_VerifyMessage, (SESSION, PARAM, IN(pData), IN(pSignature)))
UNSUPPORTED(C_VerifyMessageBegin, (SESSION, PARAM))
UNSUPPORTED(C_VerifyMessageNext, (SESSION, PARAM, IN(pData),
    IN(pSignature)))
UNSUPPORTED(C_MessageVerifyFinal, (SESSION))

/* 3.2 additions. */
UNSUPPORTED(C_VerifySignatureInit, (SESSION, MECH, KEY, IN(pSignature)))
UNSUPPORTED(C_VerifySignature, (SESSION, IN(pData)))
UNSUPPORTED(C_VerifySignatureUpdate, (SESSION, IN(pPart)))
UNSUPPORTED(C_VerifySignatureFinal, (SESSION))
UNSUPPORTED(C_GetSessionValidationFlags, (SESSION,
    CK_SESSION_VALIDATION_FLAGS_TYPE type, CK_FLAGS_PTR pFlags))
UNSUPPORTED(C_AsyncComplete, (SESSION, CK_UTF8CHAR_PTR pFunctionName,
    CK_ASYNC_DATA_PTR pResult))
UNSUPPORTED(C_AsyncGetID, (SESSION, CK_UTF8CHAR_PTR pFunctionName,
    CK_ULONG_PTR pulID))
UNSUPPORTED(C_AsyncJoin, (SESSION, CK_UTF8CHAR_PTR pFunctionName,
    CK_ULONG ulID, IN(pData)))
UNSUPPORTED(C_WrapKeyAuthenticated, (SESSION, MECH,
    CK_OBJECT_HANDLE hWrappingKey, KEY, IN(pAssociatedData),
    OUT(pWrappedKey)))
UNSUPPORTED(C_UnwrapKeyAuthenticated, (SESSION, MECH,
    CK_OBJECT_HANDLE hUnwrappingKey, IN(pWrappedKey), TEMPLATE,
    IN(pAssociatedData), CK_OBJECT_HANDLE_PTR phKey))
