/*
 * The function tables and the interface functions [PKCS#11 3.2 §5.3].
 * Every member of every table points at a function; those the token does
 * not offer return CKR_FUNCTION_NOT_SUPPORTED.
 */
#include "config.h"

#include <string.h>

#include "pkcs11/pkcs11_int.h"

/* The functions of the 2.40 table but the three whose answers depend on
 * the interface (pkcs11/pkcs11_int.h: what only 3.2 defines). */
#define FUNCS_COMMON                                                       \
	.C_Initialize = C_Initialize, .C_Finalize = C_Finalize,             \
	.C_GetInfo = C_GetInfo, .C_GetFunctionList = C_GetFunctionList,     \
	.C_GetSlotList = C_GetSlotList, .C_GetSlotInfo = C_GetSlotInfo,     \
	.C_GetTokenInfo = C_GetTokenInfo, .C_InitToken = C_InitToken, .C_InitPIN = C_InitPIN,                 \
	.C_SetPIN = C_SetPIN, .C_OpenSession = C_OpenSession,               \
	.C_CloseSession = C_CloseSession,                                   \
	.C_CloseAllSessions = C_CloseAllSessions,                           \
	.C_GetSessionInfo = C_GetSessionInfo,                               \
	.C_GetOperationState = C_GetOperationState,                         \
	.C_SetOperationState = C_SetOperationState, .C_Login = C_Login,     \
	.C_Logout = C_Logout, .C_CreateObject = C_CreateObject,             \
	.C_CopyObject = C_CopyObject, .C_DestroyObject = C_DestroyObject,   \
	.C_GetObjectSize = C_GetObjectSize,                                 \
	.C_SetAttributeValue = C_SetAttributeValue,                         \
	.C_FindObjectsInit = C_FindObjectsInit,                             \
	.C_FindObjects = C_FindObjects,                                     \
	.C_FindObjectsFinal = C_FindObjectsFinal,                           \
	.C_EncryptInit = C_EncryptInit, .C_Encrypt = C_Encrypt,             \
	.C_EncryptUpdate = C_EncryptUpdate,                                 \
	.C_EncryptFinal = C_EncryptFinal, .C_DecryptInit = C_DecryptInit,   \
	.C_Decrypt = C_Decrypt, .C_DecryptUpdate = C_DecryptUpdate,         \
	.C_DecryptFinal = C_DecryptFinal, .C_DigestInit = C_DigestInit,     \
	.C_Digest = C_Digest, .C_DigestUpdate = C_DigestUpdate,             \
	.C_DigestKey = C_DigestKey, .C_DigestFinal = C_DigestFinal,         \
	.C_SignInit = C_SignInit, .C_Sign = C_Sign,                         \
	.C_SignUpdate = C_SignUpdate, .C_SignFinal = C_SignFinal,           \
	.C_SignRecoverInit = C_SignRecoverInit,                             \
	.C_SignRecover = C_SignRecover, .C_VerifyInit = C_VerifyInit,       \
	.C_Verify = C_Verify, .C_VerifyUpdate = C_VerifyUpdate,             \
	.C_VerifyFinal = C_VerifyFinal,                                     \
	.C_VerifyRecoverInit = C_VerifyRecoverInit,                         \
	.C_VerifyRecover = C_VerifyRecover,                                 \
	.C_DigestEncryptUpdate = C_DigestEncryptUpdate,                     \
	.C_DecryptDigestUpdate = C_DecryptDigestUpdate,                     \
	.C_SignEncryptUpdate = C_SignEncryptUpdate,                         \
	.C_DecryptVerifyUpdate = C_DecryptVerifyUpdate,                     \
	.C_GenerateKey = C_GenerateKey,                                     \
	.C_GenerateKeyPair = C_GenerateKeyPair, .C_WrapKey = C_WrapKey,     \
	.C_UnwrapKey = C_UnwrapKey, .C_DeriveKey = C_DeriveKey,             \
	.C_SeedRandom = C_SeedRandom,                                       \
	.C_GenerateRandom = C_GenerateRandom,                               \
	.C_GetFunctionStatus = C_GetFunctionStatus,                         \
	.C_CancelFunction = C_CancelFunction,                               \
	.C_WaitForSlotEvent = C_WaitForSlotEvent

/* What callers of the older interfaces see. */
#define FUNCS_OLDER_VIEW                                                   \
	.C_GetMechanismList = C_GetMechanismList,                           \
	.C_GetMechanismInfo = C_GetMechanismInfo,                           \
	.C_GetAttributeValue = C_GetAttributeValue

#define FUNCS_2_40 FUNCS_COMMON, FUNCS_OLDER_VIEW

#define FUNCS_3_0_ONLY                                                     \
	.C_GetInterfaceList = C_GetInterfaceList,                           \
	.C_GetInterface = C_GetInterface, .C_LoginUser = C_LoginUser,       \
	.C_SessionCancel = C_SessionCancel,                                 \
	.C_MessageEncryptInit = C_MessageEncryptInit,                       \
	.C_EncryptMessage = C_EncryptMessage,                               \
	.C_EncryptMessageBegin = C_EncryptMessageBegin,                     \
	.C_EncryptMessageNext = C_EncryptMessageNext,                       \
	.C_MessageEncryptFinal = C_MessageEncryptFinal,                     \
	.C_MessageDecryptInit = C_MessageDecryptInit,                       \
	.C_DecryptMessage = C_DecryptMessage,                               \
	.C_DecryptMessageBegin = C_DecryptMessageBegin,                     \
	.C_DecryptMessageNext = C_DecryptMessageNext,                       \
	.C_MessageDecryptFinal = C_MessageDecryptFinal,                     \
	.C_MessageSignInit = C_MessageSignInit,                             \
	.C_SignMessage = C_SignMessage,                                     \
	.C_SignMessageBegin = C_SignMessageBegin,                           \
	.C_SignMessageNext = C_SignMessageNext,                             \
	.C_MessageSignFinal = C_MessageSignFinal,                           \
	.C_MessageVerifyInit = C_MessageVerifyInit,                         \
	.C_VerifyMessage = C_VerifyMessage,                                 \
	.C_VerifyMessageBegin = C_VerifyMessageBegin,                       \
	.C_VerifyMessageNext = C_VerifyMessageNext,                         \
	.C_MessageVerifyFinal = C_MessageVerifyFinal

#define FUNCS_3_0                                                          \
	FUNCS_COMMON, FUNCS_3_0_ONLY,                                       \
	.C_GetMechanismList = vg_get_mechanism_list_30,                     \
	.C_GetMechanismInfo = vg_get_mechanism_info_30,                     \
	.C_GetAttributeValue = C_GetAttributeValue

#define FUNCS_3_2                                                          \
	FUNCS_COMMON, FUNCS_3_0_ONLY,                                       \
	.C_GetMechanismList = vg_get_mechanism_list_32,                     \
	.C_GetMechanismInfo = vg_get_mechanism_info_32,                     \
	.C_GetAttributeValue = vg_get_attribute_value_32,                   \
	.C_EncapsulateKey = C_EncapsulateKey,                               \
	.C_DecapsulateKey = C_DecapsulateKey,                               \
	.C_VerifySignatureInit = C_VerifySignatureInit,                     \
	.C_VerifySignature = C_VerifySignature,                             \
	.C_VerifySignatureUpdate = C_VerifySignatureUpdate,                 \
	.C_VerifySignatureFinal = C_VerifySignatureFinal,                   \
	.C_GetSessionValidationFlags = C_GetSessionValidationFlags,         \
	.C_AsyncComplete = C_AsyncComplete, .C_AsyncGetID = C_AsyncGetID,   \
	.C_AsyncJoin = C_AsyncJoin,                                         \
	.C_WrapKeyAuthenticated = C_WrapKeyAuthenticated,                   \
	.C_UnwrapKeyAuthenticated = C_UnwrapKeyAuthenticated

static CK_FUNCTION_LIST functions_2_40 = {
	.version = { 2, 40 },
	FUNCS_2_40,
};

static CK_FUNCTION_LIST_3_0 functions_3_0 = {
	.version = { 3, 0 },
	FUNCS_3_0,
};

static CK_FUNCTION_LIST_3_2 functions_3_2 = {
	.version = { 3, 2 },
	FUNCS_3_2,
};

#define INTERFACE_NAME "PKCS 11"

/* Newest first: the first entry is the default interface. */
static CK_INTERFACE interfaces[] = {
	{ (CK_UTF8CHAR_PTR)INTERFACE_NAME, &functions_3_2, 0 },
	{ (CK_UTF8CHAR_PTR)INTERFACE_NAME, &functions_3_0, 0 },
	{ (CK_UTF8CHAR_PTR)INTERFACE_NAME, &functions_2_40, 0 },
};
#define NINTERFACES (sizeof(interfaces) / sizeof(interfaces[0]))

/* All three tables begin with their CK_VERSION. */
static const CK_VERSION *
interface_version(const CK_INTERFACE *i)
{
	return (const CK_VERSION *)i->pFunctionList;
}

VG_EXPORT CK_RV
C_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR ppFunctionList)
{
	CK_RV rv = CKR_OK;

	if (ppFunctionList == NULL)
		rv = CKR_ARGUMENTS_BAD;
	else
		*ppFunctionList = &functions_2_40;
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetInterfaceList(CK_INTERFACE_PTR pInterfacesList, CK_ULONG_PTR pulCount)
{
	CK_RV rv = CKR_OK;

	if (pulCount == NULL) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	if (pInterfacesList != NULL && *pulCount < NINTERFACES)
		rv = CKR_BUFFER_TOO_SMALL;
	else if (pInterfacesList != NULL)
		memcpy(pInterfacesList, interfaces, sizeof(interfaces));
	*pulCount = NINTERFACES;
out:
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetInterface(CK_UTF8CHAR_PTR pInterfaceName, CK_VERSION_PTR pVersion,
    CK_INTERFACE_PTR_PTR ppInterface, CK_FLAGS flags)
{
	CK_RV rv = CKR_ARGUMENTS_BAD; /* also: no such interface */
	size_t i;

	if (ppInterface == NULL)
		goto out;
	for (i = 0; i < NINTERFACES; i++) {
		const CK_VERSION *v = interface_version(&interfaces[i]);

		if (pInterfaceName != NULL &&
		    strcmp((const char *)pInterfaceName, INTERFACE_NAME) != 0)
			continue;
		if (pVersion != NULL && (pVersion->major != v->major ||
		    pVersion->minor != v->minor))
			continue;
		if ((interfaces[i].flags & flags) != flags)
			continue;
		*ppInterface = &interfaces[i];
		rv = CKR_OK;
		break;
	}
out:
	VG_TRACE_RV(rv);
	return rv;
}
