/* Object management functions [PKCS#11 3.2 §5.7]. */
#include "config.h"

#include <stddef.h>

#include "pkcs11/pkcs11_int.h"

/* A template pointer may be NULL only when it is empty. */
#define TEMPLATE_BAD(t, n) ((t) == NULL && (n) != 0)

/*
 * The token calls on templates with the vendor aliases of
 * vgtoken/vgtoken.h replaced by the standard identifiers (see
 * pkcs11/vendor.c). One helper per template-taking call; op selects it.
 */
enum tmpl_op { T_CREATE, T_COPY, T_GET, T_SET, T_FIND };

static CK_RV
with_std(struct vg_session *s, enum tmpl_op op, CK_OBJECT_HANDLE h,
    CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE *c = NULL;
	CK_RV rv;

	rv = vg_tmpl_std(t, n, op != T_GET, &c);
	if (rv != CKR_OK)
		return rv;
	switch (op) {
	case T_CREATE:
		rv = vg_obj_create(s, c, n, out);
		break;
	case T_COPY:
		rv = vg_obj_copy(s, h, c, n, out);
		break;
	case T_GET:
		rv = vg_obj_get(s, h, c, n);
		break;
	case T_SET:
		rv = vg_obj_set(s, h, c, n);
		break;
	case T_FIND:
		rv = vg_obj_find_init(s, c, n);
		break;
	}
	vg_tmpl_std_end(t, n, c, op == T_GET);
	return rv;
}

VG_EXPORT CK_RV
C_CreateObject(CK_SESSION_HANDLE hSession, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulCount, CK_OBJECT_HANDLE_PTR phObject)
{
	VG_WITH_SESSION(hSession,
	    TEMPLATE_BAD(pTemplate, ulCount) || phObject == NULL
	    ? CKR_ARGUMENTS_BAD
	    : with_std(s, T_CREATE, 0, pTemplate, ulCount, phObject));
}

/* An empty template is valid: NSS servers copy a key with
 * C_CopyObject(h, NULL, 0). */
VG_EXPORT CK_RV
C_CopyObject(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount,
    CK_OBJECT_HANDLE_PTR phNewObject)
{
	VG_WITH_SESSION(hSession,
	    TEMPLATE_BAD(pTemplate, ulCount) || phNewObject == NULL
	    ? CKR_ARGUMENTS_BAD
	    : with_std(s, T_COPY, hObject, pTemplate, ulCount,
	    phNewObject));
}

VG_EXPORT CK_RV
C_DestroyObject(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject)
{
	VG_WITH_SESSION(hSession, vg_obj_destroy(s, hObject));
}

VG_EXPORT CK_RV
C_GetObjectSize(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ULONG_PTR pulSize)
{
	VG_WITH_SESSION(hSession, pulSize == NULL ? CKR_ARGUMENTS_BAD
	    : vg_obj_size(s, hObject, pulSize));
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_get_attribute_value_32(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount)
{
	VG_WITH_SESSION(hSession, TEMPLATE_BAD(pTemplate, ulCount)
	    ? CKR_ARGUMENTS_BAD
	    : with_std(s, T_GET, hObject, pTemplate, ulCount, NULL));
}

/* The older interfaces' reader: as the 3.2 one, then the values that only
 * 3.2 can name given as vendor identifiers. */
VG_EXPORT CK_RV
C_GetAttributeValue(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount)
{
	CK_RV rv = vg_get_attribute_value_32(hSession, hObject, pTemplate,
	    ulCount);

	if (pTemplate != NULL && (rv == CKR_OK ||
	    rv == CKR_ATTRIBUTE_SENSITIVE || rv == CKR_ATTRIBUTE_TYPE_INVALID ||
	    rv == CKR_BUFFER_TOO_SMALL))
		vg_tmpl_legacy_values(pTemplate, ulCount);
	return rv;
}

VG_EXPORT CK_RV
C_SetAttributeValue(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hObject,
    CK_ATTRIBUTE_PTR pTemplate, CK_ULONG ulCount)
{
	VG_WITH_SESSION(hSession, TEMPLATE_BAD(pTemplate, ulCount)
	    ? CKR_ARGUMENTS_BAD
	    : with_std(s, T_SET, hObject, pTemplate, ulCount, NULL));
}

/* A search template's values are compared, not parsed: each must still
 * be a readable buffer of its stated length. */
static int
search_values_bad(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if ((t[i].pValue == NULL && t[i].ulValueLen != 0) ||
		    t[i].ulValueLen == CK_UNAVAILABLE_INFORMATION)
			return 1;
	return 0;
}

VG_EXPORT CK_RV
C_FindObjectsInit(CK_SESSION_HANDLE hSession, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulCount)
{
	VG_WITH_SESSION(hSession, TEMPLATE_BAD(pTemplate, ulCount)
	    ? CKR_ARGUMENTS_BAD
	    : search_values_bad(pTemplate, ulCount)
	    ? CKR_ATTRIBUTE_VALUE_INVALID
	    : with_std(s, T_FIND, 0, pTemplate, ulCount, NULL));
}

VG_EXPORT CK_RV
C_FindObjects(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE_PTR phObject,
    CK_ULONG ulMaxObjectCount, CK_ULONG_PTR pulObjectCount)
{
	VG_WITH_SESSION(hSession, pulObjectCount == NULL ||
	    (phObject == NULL && ulMaxObjectCount != 0) ? CKR_ARGUMENTS_BAD
	    : vg_obj_find(s, phObject, ulMaxObjectCount, pulObjectCount));
}

VG_EXPORT CK_RV
C_FindObjectsFinal(CK_SESSION_HANDLE hSession)
{
	VG_WITH_SESSION(hSession, vg_obj_find_final(s));
}
