/* Session management functions [PKCS#11 3.2 §5.6]. */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

VG_EXPORT CK_RV
C_OpenSession(CK_SLOT_ID slotID, CK_FLAGS flags, CK_VOID_PTR pApplication,
    CK_NOTIFY Notify, CK_SESSION_HANDLE_PTR phSession)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv != CKR_OK)
		goto out;
	if (phSession == NULL)
		rv = CKR_ARGUMENTS_BAD;
	else if (!(flags & CKF_SERIAL_SESSION))
		rv = CKR_SESSION_PARALLEL_NOT_SUPPORTED;
	else
		rv = vg_session_open(slotID, flags, pApplication, Notify,
		    phSession);
out:
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_CloseSession(CK_SESSION_HANDLE hSession)
{
	CK_RV rv = vg_session_close(hSession);

	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_CloseAllSessions(CK_SLOT_ID slotID)
{
	CK_RV rv = vg_session_close_all(slotID);

	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetSessionInfo(CK_SESSION_HANDLE hSession, CK_SESSION_INFO_PTR pInfo)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pInfo == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_session_info(hSession, pInfo);
	VG_TRACE_RV(rv);
	return rv;
}

/* Operation flags C_SessionCancel understands, mapped to our operations. */
static int
cancels(CK_FLAGS flags, enum vg_op op)
{
	switch (op) {
	case VG_OP_DIGEST:
		return (flags & CKF_DIGEST) != 0;
	case VG_OP_SIGN:
		return (flags & CKF_SIGN) != 0;
	case VG_OP_VERIFY:
		return (flags & CKF_VERIFY) != 0;
	case VG_OP_ENCRYPT:
		return (flags & CKF_ENCRYPT) != 0;
	case VG_OP_DECRYPT:
		return (flags & CKF_DECRYPT) != 0;
	case VG_OP_NONE:
		break;
	}
	return 0;
}

static CK_RV
session_cancel(struct vg_session *s, CK_FLAGS flags)
{
	if (cancels(flags, s->op))
		vg_session_end_op(s);
	return CKR_OK;
}

VG_EXPORT CK_RV
C_SessionCancel(CK_SESSION_HANDLE hSession, CK_FLAGS flags)
{
	VG_WITH_SESSION(hSession, session_cancel(s, flags));
}

/* Saving operation state is optional [PKCS#11 3.2 §5.6]; vgtoken does
 * not offer it, so both functions answer CKR_FUNCTION_NOT_SUPPORTED for
 * a valid session. */
VG_EXPORT CK_RV
C_GetOperationState(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pOperationState,
    CK_ULONG_PTR pulOperationStateLen)
{
	VG_WITH_SESSION(hSession, CKR_FUNCTION_NOT_SUPPORTED);
}

VG_EXPORT CK_RV
C_SetOperationState(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pOperationState,
    CK_ULONG ulOperationStateLen, CK_OBJECT_HANDLE hEncryptionKey,
    CK_OBJECT_HANDLE hAuthenticationKey)
{
	VG_WITH_SESSION(hSession, CKR_FUNCTION_NOT_SUPPORTED);
}

VG_EXPORT CK_RV
C_Login(CK_SESSION_HANDLE hSession, CK_USER_TYPE userType,
    CK_UTF8CHAR_PTR pPin, CK_ULONG ulPinLen)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && pPin == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv != CKR_OK)
		goto out;
	if (userType != CKU_CONTEXT_SPECIFIC) {
		rv = vg_token_login(s, userType, pPin, ulPinLen);
	} else if (!s->op_need_auth) {
		/* Only an operation whose key has CKA_ALWAYS_AUTHENTICATE
		 * asks for this login. */
		rv = CKR_OPERATION_NOT_INITIALIZED;
	} else {
		rv = vg_token_check_user_pin(s, pPin, ulPinLen);
		if (rv == CKR_OK)
			s->op_authed = 1;
	}
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

/* vgtoken has no named users: the user name is checked for a valid
 * pointer and otherwise ignored [PKCS#11 3.2 §5.6 C_LoginUser]. */
VG_EXPORT CK_RV
C_LoginUser(CK_SESSION_HANDLE hSession, CK_USER_TYPE userType,
    CK_UTF8CHAR_PTR pPin, CK_ULONG ulPinLen, CK_UTF8CHAR_PTR pUsername,
    CK_ULONG ulUsernameLen)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pUsername == NULL && ulUsernameLen != 0)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = C_Login(hSession, userType, pPin, ulPinLen);
	return rv;
}

VG_EXPORT CK_RV
C_Logout(CK_SESSION_HANDLE hSession)
{
	VG_WITH_SESSION(hSession, vg_token_logout(s));
}
