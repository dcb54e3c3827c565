/* Random number generation functions [PKCS#11 3.2 §5.17]. */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

VG_EXPORT CK_RV
C_SeedRandom(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pSeed,
    CK_ULONG ulSeedLen)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && pSeed == NULL && ulSeedLen != 0)
		rv = CKR_ARGUMENTS_BAD;
	/* The seed is mixed in as additional input; it never replaces the
	 * generator's own entropy. */
	if (rv == CKR_OK && ulSeedLen != 0)
		rv = vg_random_mix(pSeed, ulSeedLen);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GenerateRandom(CK_SESSION_HANDLE hSession, CK_BYTE_PTR RandomData,
    CK_ULONG ulRandomLen)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv == CKR_OK && RandomData == NULL && ulRandomLen != 0)
		rv = CKR_ARGUMENTS_BAD;
	if (rv == CKR_OK && ulRandomLen != 0)
		rv = vg_random(RandomData, ulRandomLen);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}
