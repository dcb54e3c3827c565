/*
 * pkcs11/: the ABI. Every pointer, length, handle and flag from the caller
 * is checked here before token/ sees it.
 */
#ifndef VG_PKCS11_INT_H
#define VG_PKCS11_INT_H

#include "pkcs11/pkcs11.h"
#include "token/token.h"

/* Marks the C_* entry points that the library exports (the rest of the
 * library is built with -fvisibility=hidden; pkcs11/vgtoken.map agrees). */
#define VG_EXPORT __attribute__((visibility("default")))

/* One row of the mechanism table: what C_GetMechanismInfo reports and which
 * crypto/ operation runs the mechanism. */
struct vg_mech {
	CK_MECHANISM_TYPE type;
	CK_ULONG min_key, max_key;
	CK_FLAGS flags;
	int hash;                  /* enum vg_hash_alg for digests, else -1 */
};

/* The table row for a mechanism, or NULL if the token does not offer it. */
const struct vg_mech *vg_mech_find(CK_MECHANISM_TYPE type);

/* Number of rows and row i, in the order C_GetMechanismList reports. */
size_t vg_mech_count(void);
const struct vg_mech *vg_mech_at(size_t i);

/* Writes a variable-length result the way PKCS#11 asks [PKCS#11 3.2 §5.2]:
 * out NULL: report the length (CKR_OK); *outlen too small:
 * CKR_BUFFER_TOO_SMALL and the length; else copy and set the length. */
CK_RV vg_output(const void *src, CK_ULONG len, CK_BYTE_PTR out,
    CK_ULONG_PTR outlen);

#endif
