/* see p11open.h */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tests/e2e/p11open.h"

int
e2e_open_user(const char *prog, const char *token, const char *pin,
    CK_FUNCTION_LIST_3_2 **f, CK_SESSION_HANDLE *h)
{
	CK_VERSION v = { 3, 2 };
	CK_INTERFACE_PTR i;
	CK_SLOT_ID slots[64];
	CK_ULONG n = 64, k;
	CK_TOKEN_INFO ti;
	CK_RV rv;
	size_t tl = strlen(token);

	if (C_GetInterface(NULL, &v, &i, 0) != CKR_OK) {
		fprintf(stderr, "%s: no PKCS#11 3.2 interface\n", prog);
		return 1;
	}
	*f = i->pFunctionList;
	rv = (*f)->C_Initialize(NULL);
	if (rv == CKR_OK)
		rv = (*f)->C_GetSlotList(CK_TRUE, slots, &n);
	if (rv != CKR_OK) {
		fprintf(stderr, "%s: C_Initialize / C_GetSlotList: 0x%lx\n",
		    prog, (unsigned long)rv);
		return 1;
	}
	for (k = 0; k < n; k++) {
		if ((*f)->C_GetTokenInfo(slots[k], &ti) != CKR_OK ||
		    tl > sizeof(ti.label) || memcmp(ti.label, token, tl) != 0 ||
		    (tl < sizeof(ti.label) && ti.label[tl] != ' '))
			continue;
		rv = (*f)->C_OpenSession(slots[k],
		    CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, h);
		if (rv == CKR_OK)
			rv = (*f)->C_Login(*h, CKU_USER, (CK_UTF8CHAR_PTR)pin,
			    strlen(pin));
		if (rv == CKR_OK)
			return 0;
		fprintf(stderr, "%s: C_OpenSession / C_Login: 0x%lx\n", prog,
		    (unsigned long)rv);
		return 1;
	}
	fprintf(stderr, "%s: no such token\n", prog);
	return 1;
}

CK_OBJECT_HANDLE
e2e_find(CK_FUNCTION_LIST_3_2 *f, CK_SESSION_HANDLE h, CK_OBJECT_CLASS cls,
    const char *label)
{
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_LABEL, (void *)(uintptr_t)label, strlen(label) } };
	CK_OBJECT_HANDLE o[2];
	CK_ULONG n = 0;

	if (f->C_FindObjectsInit(h, t, 2) != CKR_OK ||
	    f->C_FindObjects(h, o, 2, &n) != CKR_OK ||
	    f->C_FindObjectsFinal(h) != CKR_OK || n != 1)
		return CK_INVALID_HANDLE;
	return o[0];
}

void
e2e_close(CK_FUNCTION_LIST_3_2 *f, CK_SESSION_HANDLE h)
{
	f->C_Logout(h);
	f->C_CloseSession(h);
	f->C_Finalize(NULL);
}
