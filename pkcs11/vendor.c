/*
 * Vendor aliases at the boundary (include/vgtoken/vgtoken.h): a client
 * built against headers older than PKCS#11 3.2 may name the ML-DSA key
 * type and attributes with vgtoken's vendor values. Templates are
 * normalised on the way in, so the token stores and compares only the
 * standard identifiers:
 *   CKA_VG_PARAMETER_SET -> CKA_PARAMETER_SET
 *   CKA_VG_SEED          -> CKA_SEED
 *   CKA_KEY_TYPE value CKK_VG_ML_DSA -> CKK_ML_DSA (input templates only)
 *   CKA_KEY_TYPE value CKK_VG_ML_KEM -> CKK_ML_KEM (likewise)
 * An object made with either set is then found and read with either: a
 * C_GetAttributeValue entry of a vendor type is answered from its
 * standard twin; CKA_KEY_TYPE reads back as CKK_ML_DSA through the 3.2
 * interface and as CKK_VG_ML_DSA through the older ones, and so do
 * CKA_KEY_GEN_MECHANISM and CKA_ALLOWED_MECHANISMS with the mechanisms
 * (see pkcs11/pkcs11_int.h). A key's
 * CKA_ALLOWED_MECHANISMS naming one of a vendor mechanism and its standard
 * twin allows both (vg_mech_twin).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "vgtoken/vgtoken.h"

static const CK_KEY_TYPE std_mldsa = CKK_ML_DSA;
static const CK_KEY_TYPE std_mlkem = CKK_ML_KEM;

/* The standard attribute type for t (t itself when it is no alias). */
static CK_ATTRIBUTE_TYPE
std_type(CK_ATTRIBUTE_TYPE t)
{
	switch (t) {
	case CKA_VG_PARAMETER_SET:
		return CKA_PARAMETER_SET;
	case CKA_VG_SEED:
		return CKA_SEED;
	default:
		return t;
	}
}

/* The standard key type for a CKA_KEY_TYPE entry holding a vendor one
 * (CKK_VG_ML_DSA, CKK_VG_ML_KEM), else NULL. */
static const CK_KEY_TYPE *
vendor_key_type(const CK_ATTRIBUTE *a)
{
	CK_KEY_TYPE kt;

	if (a->type != CKA_KEY_TYPE || a->pValue == NULL ||
	    a->ulValueLen != sizeof(kt))
		return NULL;
	memcpy(&kt, a->pValue, sizeof(kt));
	return kt == CKK_VG_ML_DSA ? &std_mldsa
	    : kt == CKK_VG_ML_KEM ? &std_mlkem : NULL;
}

/* see pkcs11/pkcs11_int.h */
CK_MECHANISM_TYPE
vg_mech_twin(CK_MECHANISM_TYPE m)
{
	static const CK_MECHANISM_TYPE pairs[][2] = {
		{ CKM_VG_ML_DSA_KEY_PAIR_GEN, CKM_ML_DSA_KEY_PAIR_GEN },
		{ CKM_VG_ML_DSA, CKM_ML_DSA },
		{ CKM_VG_HASH_ML_DSA, CKM_HASH_ML_DSA },
		{ CKM_VG_ML_KEM_KEY_PAIR_GEN, CKM_ML_KEM_KEY_PAIR_GEN },
		{ CKM_VG_ML_KEM, CKM_ML_KEM },
	};
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (pairs[i][0] == m)
			return pairs[i][1];
		if (pairs[i][1] == m)
			return pairs[i][0];
	}
	return m;
}

/* The vendor twin of a value only 3.2 defines, in place: a key type, or
 * a mechanism (one ULONG of a mechanism value or array). */
static void
legacy_ulongs(CK_ATTRIBUTE *a)
{
	CK_ULONG v, i, n;

	if (a->pValue == NULL || a->ulValueLen == CK_UNAVAILABLE_INFORMATION ||
	    a->ulValueLen % sizeof(v) != 0)
		return;
	n = a->ulValueLen / sizeof(v);
	for (i = 0; i < n; i++) {
		const struct vg_mech *m;

		memcpy(&v, (uint8_t *)a->pValue + i * sizeof(v), sizeof(v));
		m = a->type == CKA_KEY_TYPE ? NULL : vg_mech_find(v);
		if (a->type == CKA_KEY_TYPE && v == CKK_ML_DSA)
			v = CKK_VG_ML_DSA;
		else if (a->type == CKA_KEY_TYPE && v == CKK_ML_KEM)
			v = CKK_VG_ML_KEM;
		else if (m != NULL && (m->vflags & VG_MECH_V32))
			v = vg_mech_twin(v);
		memcpy((uint8_t *)a->pValue + i * sizeof(v), &v, sizeof(v));
	}
}

/* see pkcs11/pkcs11_int.h */
void
vg_tmpl_legacy_values(CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if (t[i].type == CKA_KEY_TYPE ||
		    t[i].type == CKA_KEY_GEN_MECHANISM ||
		    t[i].type == CKA_ALLOWED_MECHANISMS)
			legacy_ulongs(&t[i]);
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_tmpl_std(const CK_ATTRIBUTE *t, CK_ULONG n, int values, CK_ATTRIBUTE **out)
{
	CK_ATTRIBUTE *c;
	CK_ULONG i;
	int alias = 0;

	*out = (CK_ATTRIBUTE *)t;
	for (i = 0; i < n && !alias; i++)
		alias = std_type(t[i].type) != t[i].type ||
		    (values && vendor_key_type(&t[i]) != NULL);
	if (!alias)
		return CKR_OK;
	c = malloc(n * sizeof(*c));
	if (c == NULL)
		return CKR_HOST_MEMORY;
	for (i = 0; i < n; i++) {
		c[i] = t[i];
		c[i].type = std_type(t[i].type);
		if (values && vendor_key_type(&t[i]) != NULL)
			c[i].pValue = (CK_VOID_PTR)vendor_key_type(&t[i]);
	}
	*out = c;
	return CKR_OK;
}

/* see pkcs11/pkcs11_int.h */
void
vg_tmpl_std_end(CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE *c, int output)
{
	CK_ULONG i;

	if (c == NULL || c == t)
		return;
	for (i = 0; output && i < n; i++)
		t[i].ulValueLen = c[i].ulValueLen;
	free(c);
}
