/*
 * Shared by the helper programs of the end-to-end tests that call the
 * module's PKCS#11 3.2 function list directly (tests/e2e/kemtmpl.c,
 * pqkey.c; linked with the library): a user session on a token named by
 * its label, the one object of a class and label, and the session's end.
 */
#ifndef VG_TESTS_E2E_P11OPEN_H
#define VG_TESTS_E2E_P11OPEN_H

#include "cryptoki/pkcs11.h"

/*
 * C_GetInterface for version 3.2 into *f, C_Initialize, then a read/write
 * session *h on the token labelled token, logged in as the user with
 * pin. Returns 0, or 1 with "prog: what failed" on stderr.
 */
int e2e_open_user(const char *prog, const char *token, const char *pin,
    CK_FUNCTION_LIST_3_2 **f, CK_SESSION_HANDLE *h);

/* The one object of class cls labelled label that session h finds;
 * CK_INVALID_HANDLE when there is none, several, or a call fails. */
CK_OBJECT_HANDLE e2e_find(CK_FUNCTION_LIST_3_2 *f, CK_SESSION_HANDLE h,
    CK_OBJECT_CLASS cls, const char *label);

/* C_Logout, C_CloseSession and C_Finalize; what they return is not
 * checked (the program's result is already known). */
void e2e_close(CK_FUNCTION_LIST_3_2 *f, CK_SESSION_HANDLE h);

#endif
