/* Key management functions [PKCS#11 3.2 §5.18]. */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

VG_EXPORT CK_RV
C_GenerateKey(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount, CK_OBJECT_HANDLE_PTR phKey)
{
	const struct vg_mech *row = NULL;
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	if (pMechanism == NULL || phKey == NULL ||
	    (pTemplate == NULL && ulCount != 0)) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	row = vg_mech_find(pMechanism->mechanism);
	if (row == NULL || !(row->flags & CKF_GENERATE))
		rv = CKR_MECHANISM_INVALID;
	else if (pMechanism->ulParameterLen != 0)
		rv = CKR_MECHANISM_PARAM_INVALID;
	else
		rv = vg_obj_generate_secret(s, row->type, row->key_type,
		    row->min_key, row->max_key, pTemplate, ulCount, phKey);
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}
