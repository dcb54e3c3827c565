/* Random number generation functions [PKCS#11 3.2 §5.17]. */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

/* The seed is mixed in as additional input; it never replaces the
 * generator's own entropy. */
VG_EXPORT CK_RV
C_SeedRandom(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pSeed,
    CK_ULONG ulSeedLen)
{
	VG_WITH_SESSION(hSession, pSeed == NULL && ulSeedLen != 0
	    ? CKR_ARGUMENTS_BAD
	    : ulSeedLen == 0 ? CKR_OK : vg_random_mix(pSeed, ulSeedLen));
}

VG_EXPORT CK_RV
C_GenerateRandom(CK_SESSION_HANDLE hSession, CK_BYTE_PTR RandomData,
    CK_ULONG ulRandomLen)
{
	VG_WITH_SESSION(hSession, RandomData == NULL && ulRandomLen != 0
	    ? CKR_ARGUMENTS_BAD
	    : ulRandomLen == 0 ? CKR_OK : vg_random(RandomData, ulRandomLen));
}
