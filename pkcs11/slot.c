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

/* The table a caller came through: what it can name. */
enum view { VIEW_2_40, VIEW_3_0, VIEW_3_2 };

/* Whether a caller of table v sees row m (see pkcs11/pkcs11_int.h). */
static int
shown(const struct vg_mech *m, enum view v)
{
	if (m->vflags & VG_MECH_V32)
		return v >= VIEW_3_2;
	if (m->vflags & VG_MECH_V30)
		return v >= VIEW_3_0;
	return 1;
}

static CK_RV
mechanism_list(CK_SLOT_ID slotID, CK_MECHANISM_TYPE_PTR list,
    CK_ULONG_PTR count, enum view v)
{
	size_t i, n = 0, k = 0;
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && count == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = check_slot(slotID);
	if (rv != CKR_OK)
		goto out;
	for (i = 0; i < vg_mech_count(); i++)
		n += shown(vg_mech_at(i), v);
	if (list != NULL && *count < n)
		rv = CKR_BUFFER_TOO_SMALL;
	else if (list != NULL)
		for (i = 0; i < vg_mech_count(); i++)
			if (shown(vg_mech_at(i), v))
				list[k++] = vg_mech_at(i)->type;
	*count = n;
out:
	VG_TRACE_RV(rv);
	return rv;
}

static CK_RV
mechanism_info(CK_SLOT_ID slotID, CK_MECHANISM_TYPE type,
    CK_MECHANISM_INFO_PTR info, enum view v)
{
	const struct vg_mech *m;
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && info == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = check_slot(slotID);
	if (rv != CKR_OK)
		goto out;
	m = vg_mech_find(type);
	if (m == NULL || !shown(m, v)) {
		rv = CKR_MECHANISM_INVALID;
		goto out;
	}
	info->ulMinKeySize = m->min_key;
	info->ulMaxKeySize = m->max_key;
	info->flags = m->flags;
out:
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetMechanismList(CK_SLOT_ID slotID, CK_MECHANISM_TYPE_PTR pMechanismList,
    CK_ULONG_PTR pulCount)
{
	return mechanism_list(slotID, pMechanismList, pulCount, VIEW_2_40);
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_get_mechanism_list_30(CK_SLOT_ID slot, CK_MECHANISM_TYPE_PTR list,
    CK_ULONG_PTR count)
{
	return mechanism_list(slot, list, count, VIEW_3_0);
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_get_mechanism_list_32(CK_SLOT_ID slot, CK_MECHANISM_TYPE_PTR list,
    CK_ULONG_PTR count)
{
	return mechanism_list(slot, list, count, VIEW_3_2);
}

VG_EXPORT CK_RV
C_GetMechanismInfo(CK_SLOT_ID slotID, CK_MECHANISM_TYPE type,
    CK_MECHANISM_INFO_PTR pInfo)
{
	return mechanism_info(slotID, type, pInfo, VIEW_2_40);
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_get_mechanism_info_30(CK_SLOT_ID slot, CK_MECHANISM_TYPE type,
    CK_MECHANISM_INFO_PTR info)
{
	return mechanism_info(slot, type, info, VIEW_3_0);
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_get_mechanism_info_32(CK_SLOT_ID slot, CK_MECHANISM_TYPE type,
    CK_MECHANISM_INFO_PTR info)
{
	return mechanism_info(slot, type, info, VIEW_3_2);
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
