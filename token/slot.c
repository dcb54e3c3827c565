/*
 * Slots and the information they report. Slot and token information is
 * complete and space-padded, because clients pick tokens by label,
 * manufacturer, model and serial number.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "token/token.h"

#define VG_MANUFACTURER "vgtoken"
#define VG_MODEL "soft token"
#define VG_VERSION_MAJOR 0
#define VG_VERSION_MINOR 1

/* see token/token.h */
struct vg_slot *
vg_slot_find_inlock(CK_SLOT_ID id)
{
	size_t i;

	for (i = 0; i < vg_mod.nslots; i++)
		if (vg_mod.slots[i].id == id)
			return &vg_mod.slots[i];
	return NULL;
}

/* see token/token.h */
CK_RV
vg_slot_list(CK_BBOOL token_present, CK_SLOT_ID_PTR list,
    CK_ULONG_PTR count)
{
	size_t i;
	CK_RV rv;

	(void)token_present; /* every slot holds a token */
	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	if (list != NULL && *count < vg_mod.nslots)
		rv = CKR_BUFFER_TOO_SMALL;
	else if (list != NULL)
		for (i = 0; i < vg_mod.nslots; i++)
			list[i] = vg_mod.slots[i].id;
	*count = vg_mod.nslots;
	vg_module_unlock();
	return rv;
}

/* see token/token.h */
CK_RV
vg_slot_info(CK_SLOT_ID id, CK_SLOT_INFO *info)
{
	struct vg_slot *slot;
	char desc[64];
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	slot = vg_slot_find_inlock(id);
	if (slot == NULL) {
		rv = CKR_SLOT_ID_INVALID;
		goto out;
	}
	memset(info, 0, sizeof(*info));
	snprintf(desc, sizeof(desc), "vgtoken slot %lu", (unsigned long)id);
	vg_pad(info->slotDescription, sizeof(info->slotDescription), desc);
	vg_pad(info->manufacturerID, sizeof(info->manufacturerID),
	    VG_MANUFACTURER);
	info->flags = CKF_TOKEN_PRESENT;
	info->hardwareVersion.major = VG_VERSION_MAJOR;
	info->hardwareVersion.minor = VG_VERSION_MINOR;
	info->firmwareVersion.major = VG_VERSION_MAJOR;
	info->firmwareVersion.minor = VG_VERSION_MINOR;
out:
	vg_module_unlock();
	return rv;
}

/* see token/token.h */
CK_RV
vg_token_info(CK_SLOT_ID id, CK_TOKEN_INFO *info)
{
	struct vg_slot *slot;
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	slot = vg_slot_find_inlock(id);
	if (slot == NULL) {
		rv = CKR_SLOT_ID_INVALID;
		goto out;
	}
	memset(info, 0, sizeof(*info));
	memcpy(info->label, slot->label, sizeof(info->label));
	vg_pad(info->manufacturerID, sizeof(info->manufacturerID),
	    VG_MANUFACTURER);
	vg_pad(info->model, sizeof(info->model), VG_MODEL);
	memcpy(info->serialNumber, slot->serial, sizeof(info->serialNumber));
	info->flags = CKF_RNG | CKF_LOGIN_REQUIRED;
	if (slot->token_initialized)
		info->flags |= CKF_TOKEN_INITIALIZED;
	info->ulMaxSessionCount = CK_EFFECTIVELY_INFINITE;
	info->ulSessionCount = slot->sessions;
	info->ulMaxRwSessionCount = CK_EFFECTIVELY_INFINITE;
	info->ulRwSessionCount = slot->rw_sessions;
	info->ulMaxPinLen = vg_mod.config.pin_max_len;
	info->ulMinPinLen = vg_mod.config.pin_min_len;
	info->ulTotalPublicMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulFreePublicMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulTotalPrivateMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulFreePrivateMemory = CK_UNAVAILABLE_INFORMATION;
	info->hardwareVersion.major = VG_VERSION_MAJOR;
	info->hardwareVersion.minor = VG_VERSION_MINOR;
	info->firmwareVersion.major = VG_VERSION_MAJOR;
	info->firmwareVersion.minor = VG_VERSION_MINOR;
	/* No clock on the token: utcTime is not meaningful. */
	vg_pad(info->utcTime, sizeof(info->utcTime), "");
out:
	vg_module_unlock();
	return rv;
}
