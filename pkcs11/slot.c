/* Slot and token management functions [PKCS#11 3.2 §5.5]. */
#include "config.h"

#include <string.h>

#include "pkcs11/pkcs11_int.h"

VG_EXPORT CK_RV
C_GetSlotList(CK_BBOOL tokenPresent, CK_SLOT_ID_PTR pSlotList,
    CK_ULONG_PTR pulCount)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pulCount == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_slot_list(tokenPresent, pSlotList, pulCount);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetSlotInfo(CK_SLOT_ID slotID, CK_SLOT_INFO_PTR pInfo)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pInfo == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_slot_info(slotID, pInfo);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetTokenInfo(CK_SLOT_ID slotID, CK_TOKEN_INFO_PTR pInfo)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pInfo == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_token_info(slotID, pInfo);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_WaitForSlotEvent(CK_FLAGS flags, CK_SLOT_ID_PTR pSlot,
    CK_VOID_PTR pReserved)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv != CKR_OK)
		goto out;
	if (pSlot == NULL || pReserved != NULL ||
	    (flags & ~(CK_FLAGS)CKF_DONT_BLOCK) != 0)
		rv = CKR_ARGUMENTS_BAD;
	else if (flags & CKF_DONT_BLOCK)
		rv = CKR_NO_EVENT; /* slots never change while loaded */
	else
		rv = CKR_FUNCTION_NOT_SUPPORTED; /* blocking waits */
out:
	VG_TRACE_RV(rv);
	return rv;
}

/* Checks the slot ID under the module lock. */
static CK_RV
check_slot(CK_SLOT_ID id)
{
	CK_RV rv = vg_module_lock();

	if (rv != CKR_OK)
		return rv;
	if (vg_slot_find_inlock(id) == NULL)
		rv = CKR_SLOT_ID_INVALID;
	vg_module_unlock();
	return rv;
}

VG_EXPORT CK_RV
C_GetMechanismList(CK_SLOT_ID slotID, CK_MECHANISM_TYPE_PTR pMechanismList,
    CK_ULONG_PTR pulCount)
{
	size_t i, n = vg_mech_count();
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pulCount == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = check_slot(slotID);
	if (rv != CKR_OK)
		goto out;
	if (pMechanismList != NULL && *pulCount < n)
		rv = CKR_BUFFER_TOO_SMALL;
	else if (pMechanismList != NULL)
		for (i = 0; i < n; i++)
			pMechanismList[i] = vg_mech_at(i)->type;
	*pulCount = n;
out:
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetMechanismInfo(CK_SLOT_ID slotID, CK_MECHANISM_TYPE type,
    CK_MECHANISM_INFO_PTR pInfo)
{
	const struct vg_mech *m;
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pInfo == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = check_slot(slotID);
	if (rv != CKR_OK)
		goto out;
	m = vg_mech_find(type);
	if (m == NULL) {
		rv = CKR_MECHANISM_INVALID;
		goto out;
	}
	pInfo->ulMinKeySize = m->min_key;
	pInfo->ulMaxKeySize = m->max_key;
	pInfo->flags = m->flags;
out:
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_InitToken(CK_SLOT_ID slotID, CK_UTF8CHAR_PTR pPin, CK_ULONG ulPinLen,
    CK_UTF8CHAR_PTR pLabel)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv != CKR_OK)
		goto out;
	/* No protected authentication path: the PIN comes in the call. */
	if (pPin == NULL || pLabel == NULL)
		rv = CKR_ARGUMENTS_BAD;
	else
		rv = vg_token_init(slotID, pPin, ulPinLen,
		    (const char *)pLabel);
out:
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_InitPIN(CK_SESSION_HANDLE hSession, CK_UTF8CHAR_PTR pPin,
    CK_ULONG ulPinLen)
{
	VG_WITH_SESSION(hSession, pPin == NULL ? CKR_ARGUMENTS_BAD
	    : vg_token_init_pin(s, pPin, ulPinLen));
}

VG_EXPORT CK_RV
C_SetPIN(CK_SESSION_HANDLE hSession, CK_UTF8CHAR_PTR pOldPin,
    CK_ULONG ulOldLen, CK_UTF8CHAR_PTR pNewPin, CK_ULONG ulNewLen)
{
	VG_WITH_SESSION(hSession, pOldPin == NULL || pNewPin == NULL
	    ? CKR_ARGUMENTS_BAD
	    : vg_token_set_pin(s, pOldPin, ulOldLen, pNewPin, ulNewLen));
}
