/*
 * Signing and verifying [PKCS#11 3.2 §5.13, §5.14]. Both share the key
 * operations' common path (pkcs11/ops.c).
 */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

VG_EXPORT CK_RV
C_SignInit(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hKey)
{
	VG_WITH_SESSION(hSession, vg_op_init(s, VG_OP_SIGN, pMechanism, hKey));
}

VG_EXPORT CK_RV
C_Sign(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData, CK_ULONG ulDataLen,
    CK_BYTE_PTR pSignature, CK_ULONG_PTR pulSignatureLen)
{
	VG_WITH_SESSION(hSession, vg_op_single(s, VG_OP_SIGN, pData, ulDataLen,
	    pSignature, pulSignatureLen));
}

VG_EXPORT CK_RV
C_SignUpdate(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,
    CK_ULONG ulPartLen)
{
	VG_WITH_SESSION(hSession, vg_op_update(s, VG_OP_SIGN, pPart, ulPartLen));
}

VG_EXPORT CK_RV
C_SignFinal(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pSignature,
    CK_ULONG_PTR pulSignatureLen)
{
	VG_WITH_SESSION(hSession, vg_op_final(s, VG_OP_SIGN, pSignature,
	    pulSignatureLen));
}

VG_EXPORT CK_RV
C_VerifyInit(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hKey)
{
	VG_WITH_SESSION(hSession, vg_op_init(s, VG_OP_VERIFY, pMechanism, hKey));
}

VG_EXPORT CK_RV
C_Verify(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData, CK_ULONG ulDataLen,
    CK_BYTE_PTR pSignature, CK_ULONG ulSignatureLen)
{
	VG_WITH_SESSION(hSession, vg_op_verify(s, pData, ulDataLen, pSignature,
	    ulSignatureLen, 1));
}

VG_EXPORT CK_RV
C_VerifyUpdate(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,
    CK_ULONG ulPartLen)
{
	VG_WITH_SESSION(hSession, vg_op_update(s, VG_OP_VERIFY, pPart,
	    ulPartLen));
}

VG_EXPORT CK_RV
C_VerifyFinal(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pSignature,
    CK_ULONG ulSignatureLen)
{
	VG_WITH_SESSION(hSession, vg_op_verify(s, NULL, 0, pSignature,
	    ulSignatureLen, 0));
}
