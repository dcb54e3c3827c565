/*
 * Encryption and decryption [PKCS#11 3.2 §5.10, §5.11], on the key
 * operations' common path (pkcs11/ops.c).
 */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

/* Multi-part encryption and decryption: no offered mechanism produces
 * output before the final part, so each Update gathers its input and
 * reports no output. */
static CK_RV
crypt_update(struct vg_session *s, enum vg_op op, CK_BYTE_PTR in,
    CK_ULONG inlen, CK_ULONG_PTR outlen)
{
	CK_RV rv;

	/* An Update that fails ends the operation [PKCS#11 3.2 §5.10]. */
	if (outlen == NULL) {
		if (s->op == op)
			vg_session_end_op(s);
		return CKR_ARGUMENTS_BAD;
	}
	rv = vg_op_update(s, op, in, inlen);
	if (rv == CKR_OK)
		*outlen = 0;
	return rv;
}

VG_EXPORT CK_RV
C_EncryptInit(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hKey)
{
	VG_WITH_SESSION(hSession, vg_op_init(s, VG_OP_ENCRYPT, pMechanism, hKey));
}

VG_EXPORT CK_RV
C_Encrypt(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData, CK_ULONG ulDataLen,
    CK_BYTE_PTR pEncryptedData, CK_ULONG_PTR pulEncryptedDataLen)
{
	VG_WITH_SESSION(hSession, vg_op_single(s, VG_OP_ENCRYPT, pData, ulDataLen,
	    pEncryptedData, pulEncryptedDataLen));
}

VG_EXPORT CK_RV
C_EncryptUpdate(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,
    CK_ULONG ulPartLen, CK_BYTE_PTR pEncryptedPart,
    CK_ULONG_PTR pulEncryptedPartLen)
{
	VG_WITH_SESSION(hSession, crypt_update(s, VG_OP_ENCRYPT, pPart,
	    ulPartLen, pulEncryptedPartLen));
}

VG_EXPORT CK_RV
C_EncryptFinal(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pLastEncryptedPart,
    CK_ULONG_PTR pulLastEncryptedPartLen)
{
	VG_WITH_SESSION(hSession, vg_op_final(s, VG_OP_ENCRYPT,
	    pLastEncryptedPart, pulLastEncryptedPartLen));
}

VG_EXPORT CK_RV
C_DecryptInit(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hKey)
{
	VG_WITH_SESSION(hSession, vg_op_init(s, VG_OP_DECRYPT, pMechanism, hKey));
}

VG_EXPORT CK_RV
C_Decrypt(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pEncryptedData,
    CK_ULONG ulEncryptedDataLen, CK_BYTE_PTR pData, CK_ULONG_PTR pulDataLen)
{
	VG_WITH_SESSION(hSession, vg_op_single(s, VG_OP_DECRYPT, pEncryptedData,
	    ulEncryptedDataLen, pData, pulDataLen));
}

VG_EXPORT CK_RV
C_DecryptUpdate(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pEncryptedPart,
    CK_ULONG ulEncryptedPartLen, CK_BYTE_PTR pPart, CK_ULONG_PTR pulPartLen)
{
	VG_WITH_SESSION(hSession, crypt_update(s, VG_OP_DECRYPT,
	    pEncryptedPart, ulEncryptedPartLen, pulPartLen));
}

VG_EXPORT CK_RV
C_DecryptFinal(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pLastPart,
    CK_ULONG_PTR pulLastPartLen)
{
	VG_WITH_SESSION(hSession, vg_op_final(s, VG_OP_DECRYPT, pLastPart,
	    pulLastPartLen));
}
