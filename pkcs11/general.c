/* General-purpose functions [PKCS#11 3.2 §5.4]. */
#include "config.h"

#include <string.h>

#include "pkcs11/pkcs11_int.h"

VG_EXPORT CK_RV
C_Initialize(CK_VOID_PTR pInitArgs)
{
	const CK_C_INITIALIZE_ARGS *a = pInitArgs;
	CK_RV rv;

	if (a != NULL) {
		int n = (a->CreateMutex != NULL) + (a->DestroyMutex != NULL) +
		    (a->LockMutex != NULL) + (a->UnlockMutex != NULL);

		/* All four callbacks or none; pReserved must be NULL.
		 * CKF_LIBRARY_CANT_CREATE_OS_THREADS needs nothing: the
		 * library never creates threads. */
		if ((n != 0 && n != 4) || a->pReserved != NULL) {
			rv = CKR_ARGUMENTS_BAD;
			goto out;
		}
	}
	rv = vg_module_initialize(a);
out:
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_Finalize(CK_VOID_PTR pReserved)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pReserved != NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK)
		rv = vg_module_finalize();
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GetInfo(CK_INFO_PTR pInfo)
{
	CK_RV rv;

	rv = vg_module_check();
	if (rv == CKR_OK && pInfo == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK) {
		memset(pInfo, 0, sizeof(*pInfo));
		pInfo->cryptokiVersion.major = CRYPTOKI_VERSION_MAJOR;
		pInfo->cryptokiVersion.minor = CRYPTOKI_VERSION_MINOR;
		vg_pad(pInfo->manufacturerID, sizeof(pInfo->manufacturerID),
		    "vgtoken");
		vg_pad(pInfo->libraryDescription,
		    sizeof(pInfo->libraryDescription),
		    "vgtoken PKCS#11 soft token");
		pInfo->libraryVersion.major = 0;
		pInfo->libraryVersion.minor = 1;
	}
	VG_TRACE_RV(rv);
	return rv;
}

/* Parallel functions are legacy [PKCS#11 3.2 §5.18]. */
VG_EXPORT CK_RV
C_GetFunctionStatus(CK_SESSION_HANDLE hSession)
{
	CK_RV rv = vg_module_check();

	if (rv == CKR_OK)
		rv = CKR_FUNCTION_NOT_PARALLEL;
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_CancelFunction(CK_SESSION_HANDLE hSession)
{
	CK_RV rv = vg_module_check();

	if (rv == CKR_OK)
		rv = CKR_FUNCTION_NOT_PARALLEL;
	VG_TRACE_RV(rv);
	return rv;
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_output(const void *src, CK_ULONG len, CK_BYTE_PTR out,
    CK_ULONG_PTR outlen)
{
	CK_RV rv = CKR_OK;

	if (out != NULL && *outlen < len)
		rv = CKR_BUFFER_TOO_SMALL;
	else if (out != NULL)
		memcpy(out, src, len);
	*outlen = len;
	return rv;
}
