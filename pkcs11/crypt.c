/*
 * Encryption and decryption [PKCS#11 3.2 §5.10, §5.11], on the key
 * operations' common path (pkcs11/ops.c).
 */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

/*
 * C_EncryptUpdate and C_DecryptUpdate. Ciphers that stream (a family with
 * part, such as AES) return the output that is ready, by the output
 * rules of [PKCS#11 3.2 §5.2]: out NULL asks the length and a short
 * buffer answers CKR_BUFFER_TOO_SMALL, both leaving the operation as it
 * was. The others (RSA) gather their input for the Final and report no
 * output. Any other failure ends the operation [PKCS#11 3.2 §5.10].
 */
static CK_RV
crypt_update(struct vg_session *s, enum vg_op op, CK_BYTE_PTR in,
    CK_ULONG inlen, CK_BYTE_PTR out, CK_ULONG_PTR outlen)
{
	const struct vg_mech *row;
	CK_ULONG n;
	CK_RV rv = CKR_OK;

	if (outlen == NULL) {
		if (s->op == op)
			vg_session_end_op(s);
		return CKR_ARGUMENTS_BAD;
	}
	if (s->op != op)
		return CKR_OPERATION_NOT_INITIALIZED;
	row = vg_mech_find(s->op_mech);
	if (row == NULL || row->ops == NULL || row->ops->part == NULL) {
		rv = vg_op_update(s, op, in, inlen);
		if (rv == CKR_OK)
			*outlen = 0;
		return rv;
	}
	/* The rules of vg_op_update: not after a single-part call began,
	 * and only for mechanisms that have multi-part calls. */
	if (s->op_single)
		rv = CKR_OPERATION_ACTIVE;
	else if (in == NULL && inlen != 0)
		rv = CKR_ARGUMENTS_BAD;
	else if (!(row->vflags & VG_MECH_MULTIPART))
		rv = CKR_FUNCTION_NOT_SUPPORTED;
	if (rv != CKR_OK) {
		vg_session_end_op(s);
		return rv;
	}
	s->op_multipart = 1;
	n = row->ops->part_len(s, inlen);
	if (n == CK_UNAVAILABLE_INFORMATION) {
		vg_session_end_op(s);
		return op == VG_OP_DECRYPT ? CKR_ENCRYPTED_DATA_LEN_RANGE
					   : CKR_DATA_LEN_RANGE;
	}
	if (out == NULL || *outlen < n) {
		*outlen = n;
		return out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
	}
	rv = row->ops->part(s, in, inlen, out, outlen);
	if (rv != CKR_OK)
		vg_session_end_op(s);
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
	    ulPartLen, pEncryptedPart, pulEncryptedPartLen));
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
	    pEncryptedPart, ulEncryptedPartLen, pPart, pulPartLen));
}

VG_EXPORT CK_RV
C_DecryptFinal(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pLastPart,
    CK_ULONG_PTR pulLastPartLen)
{
	VG_WITH_SESSION(hSession, vg_op_final(s, VG_OP_DECRYPT, pLastPart,
	    pulLastPartLen));
}
