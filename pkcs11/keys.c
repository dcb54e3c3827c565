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
		rv = vg_obj_may_generate(s, pTemplate, ulCount, 1);
	if (rv == CKR_OK)
		rv = vg_obj_generate_secret(s, row->type, row->key_type,
		    row->min_key, row->max_key, pTemplate, ulCount, phKey);
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_GenerateKeyPair(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_ATTRIBUTE_PTR pPublicKeyTemplate, CK_ULONG ulPublicKeyAttributeCount,
    CK_ATTRIBUTE_PTR pPrivateKeyTemplate,
    CK_ULONG ulPrivateKeyAttributeCount, CK_OBJECT_HANDLE_PTR phPublicKey,
    CK_OBJECT_HANDLE_PTR phPrivateKey)
{
	CK_ATTRIBUTE *pubt = NULL, *privt = NULL;
	const struct vg_mech *row = NULL;
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	if (pMechanism == NULL || phPublicKey == NULL ||
	    phPrivateKey == NULL ||
	    (pPublicKeyTemplate == NULL && ulPublicKeyAttributeCount != 0) ||
	    (pPrivateKeyTemplate == NULL && ulPrivateKeyAttributeCount != 0)) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	row = vg_mech_find(pMechanism->mechanism);
	if (row == NULL || !(row->flags & CKF_GENERATE_KEY_PAIR) ||
	    row->ops == NULL || row->ops->generate_pair == NULL) {
		rv = CKR_MECHANISM_INVALID;
		goto out;
	}
	/* vendor aliases (pkcs11/vendor.c) become the standard ids */
	rv = vg_tmpl_std(pPublicKeyTemplate, ulPublicKeyAttributeCount, 1,
	    &pubt);
	if (rv == CKR_OK)
		rv = vg_tmpl_std(pPrivateKeyTemplate,
		    ulPrivateKeyAttributeCount, 1, &privt);
	/* Refused before the (possibly long) generation when the session
	 * could not keep the keys. */
	if (rv == CKR_OK)
		rv = vg_obj_may_generate(s, privt, ulPrivateKeyAttributeCount,
		    1);
	if (rv == CKR_OK)
		rv = vg_obj_may_generate(s, pubt, ulPublicKeyAttributeCount, 0);
	if (rv == CKR_OK)
		rv = row->ops->generate_pair(s, pMechanism, pubt,
		    ulPublicKeyAttributeCount, privt,
		    ulPrivateKeyAttributeCount, phPublicKey, phPrivateKey);
	vg_tmpl_std_end(pPublicKeyTemplate, ulPublicKeyAttributeCount, pubt,
	    0);
	vg_tmpl_std_end(pPrivateKeyTemplate, ulPrivateKeyAttributeCount,
	    privt, 0);
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_DeriveKey(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hBaseKey, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulAttributeCount, CK_OBJECT_HANDLE_PTR phKey)
{
	struct vg_key_template kt = { NULL, 0, NULL };
	const struct vg_mech *row = NULL;
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	if (pMechanism == NULL || phKey == NULL ||
	    (pTemplate == NULL && ulAttributeCount != 0)) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	row = vg_mech_find(pMechanism->mechanism);
	if (row == NULL || !(row->flags & CKF_DERIVE) || row->ops == NULL ||
	    row->ops->derive == NULL) {
		rv = CKR_MECHANISM_INVALID;
		goto out;
	}
	/* The base key's CKA_DERIVE_TEMPLATE binds every derivation
	 * [PKCS#11 3.2 §5.18.5], so it is added here, once, and each
	 * mechanism sees it as part of the caller's template. */
	rv = vg_obj_key_template(s, hBaseKey, CKA_DERIVE_TEMPLATE, pTemplate,
	    ulAttributeCount, &kt);
	if (rv == CKR_OK)
		rv = row->ops->derive(s, pMechanism, hBaseKey, kt.t, kt.n,
		    phKey);
out:
	vg_key_template_free(&kt);
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}
