/* Object management functions [PKCS#11 3.2 §5.7]. */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

/* A template pointer may be NULL only when it is empty. */
static int
template_ok(CK_ATTRIBUTE_PTR t, CK_ULONG n)
{
	return t != NULL || n == 0;
}

VG_EXPORT CK_RV
C_CreateObject(CK_SESSION_HANDLE hSession, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulCount, CK_OBJECT_HANDLE_PTR phObject)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && (!template_ok(pTemplate, ulCount) ||
	    phObject == NULL))
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_obj_create(s, pTemplate, ulCount, phObject);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

/* An empty template is valid: NSS servers copy a key with
 * C_CopyObject(h, NULL, 0). */
VG_EXPORT CK_RV
C_CopyObject(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount,
    CK_OBJECT_HANDLE_PTR phNewObject)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && (!template_ok(pTemplate, ulCount) ||
	    phNewObject == NULL))
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_obj_copy(s, hObject, pTemplate, ulCount, phNewObject);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_DestroyObject(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK)
		rv = vg_obj_destroy(s, hObject);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetObjectSize(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ULONG_PTR pulSize)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && pulSize == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_obj_size(s, hObject, pulSize);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetAttributeValue(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && !template_ok(pTemplate, ulCount))
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_obj_get(s, hObject, pTemplate, ulCount);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_SetAttributeValue(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && !template_ok(pTemplate, ulCount))
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_obj_set(s, hObject, pTemplate, ulCount);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_FindObjectsInit(CK_SESSION_HANDLE hSession, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulCount)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && !template_ok(pTemplate, ulCount))
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_obj_find_init(s, pTemplate, ulCount);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_FindObjects(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE_PTR phObject,
    CK_ULONG ulMaxObjectCount, CK_ULONG_PTR pulObjectCount)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && (pulObjectCount == NULL ||
	    (phObject == NULL && ulMaxObjectCount != 0)))
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_obj_find(s, phObject, ulMaxObjectCount,
		    pulObjectCount);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_FindObjectsFinal(CK_SESSION_HANDLE hSession)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK)
		rv = vg_obj_find_final(s);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}
