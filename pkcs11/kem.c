/*
 * Key encapsulation [PKCS#11 3.2 §5.20]: C_EncapsulateKey makes a shared
 * secret and its ciphertext with a public key, C_DecapsulateKey recovers
 * the secret from the ciphertext with the private key; in both the
 * secret becomes a new secret key object from the caller's template.
 *
 * The key is checked as for the other key operations (vg_key_fits: class,
 * type, CKA_ENCAPSULATE / CKA_DECAPSULATE, allowed mechanisms, size); its
 * CKA_ENCAPSULATE_TEMPLATE / CKA_DECAPSULATE_TEMPLATE binds the new key
 * as the unwrap template binds unwrapped keys. The new key follows
 * C_DeriveKey's rules: a generic secret unless the template names AES,
 * CKA_VALUE_LEN at most the secret's length (the default), CKA_LOCAL
 * false. Its CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE: a
 * decapsulated key's follow the private key's; an encapsulated key's
 * secret was made in the token, as a generated key's, and they follow
 * its own CKA_SENSITIVE and CKA_EXTRACTABLE.
 *
 * C_EncapsulateKey returns the ciphertext by the convention of §5.2: a
 * NULL buffer asks for the length, a short one gets
 * CKR_BUFFER_TOO_SMALL, and neither makes a key. Nothing is made, and no
 * ciphertext written, unless every step succeeds.
 */
#include "config.h"

#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

enum dir { ENCAPS, DECAPS };

static const struct {
	CK_FLAGS flag;
	unsigned use;
	CK_OBJECT_CLASS cls[2];
	CK_ATTRIBUTE_TYPE tmpl;
} dirs[] = {
	[ENCAPS] = { CKF_ENCAPSULATE, VG_USE_ENCAPSULATE,
	    { CKO_PUBLIC_KEY, CKO_PUBLIC_KEY }, CKA_ENCAPSULATE_TEMPLATE },
	[DECAPS] = { CKF_DECAPSULATE, VG_USE_DECAPSULATE,
	    { CKO_PRIVATE_KEY, CKO_PRIVATE_KEY }, CKA_DECAPSULATE_TEMPLATE },
};

/* The mechanism's row and key h, checked; *k is a reference the caller
 * drops. */
static CK_RV
kem_key(struct vg_session *s, enum dir d, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE h, const struct vg_mech **row, struct vg_key **k)
{
	const struct vg_mech *r = vg_mech_find(m->mechanism);
	CK_RV rv;

	*k = NULL;
	if (r == NULL || !(r->flags & dirs[d].flag) || r->ops == NULL ||
	    r->ops->load == NULL || r->ops->kem_ct_len == NULL)
		return CKR_MECHANISM_INVALID;
	if (m->pParameter == NULL && m->ulParameterLen != 0)
		return CKR_ARGUMENTS_BAD;
	if (m->ulParameterLen != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	rv = vg_key_get(s, h, r->ops->load, k);
	if (rv == CKR_OK)
		rv = vg_key_fits(*k, r, dirs[d].cls, dirs[d].use);
	if (rv != CKR_OK) {
		vg_key_put(*k);
		*k = NULL;
		return rv;
	}
	*row = r;
	return CKR_OK;
}

/*
 * The new key's object from the caller's template t under key h's
 * template (vendor aliases made standard first): a secret key the
 * session may keep, of a type that holds bytes, and the length of its
 * value in *len.
 */
static CK_RV
new_key(struct vg_session *s, enum dir d, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n,
    struct vg_object **o, CK_ULONG *len)
{
	struct vg_key_template kt = { NULL, 0, NULL };
	CK_ATTRIBUTE *std = NULL;
	CK_KEY_TYPE hint;
	CK_RV rv;

	*o = NULL;
	rv = vg_tmpl_std(t, n, 1, &std);
	if (rv == CKR_OK)
		rv = vg_obj_key_template(s, h, dirs[d].tmpl, std, n, &kt);
	if (rv != CKR_OK)
		goto out;
	hint = vg_template_find(kt.t, kt.n, CKA_KEY_TYPE) != NULL
	    ? CK_UNAVAILABLE_INFORMATION : CKK_GENERIC_SECRET;
	rv = vg_object_from_template(VG_OBJ_DERIVE, CKO_SECRET_KEY, hint,
	    m->mechanism, kt.t, kt.n, o);
	if (rv == CKR_OK)
		rv = vg_obj_may_generate(s, kt.t, kt.n, 1);
	if (rv != CKR_OK)
		goto out;
	if ((*o)->key_type != CKK_GENERIC_SECRET && (*o)->key_type != CKK_AES) {
		rv = CKR_TEMPLATE_INCONSISTENT;
		goto out;
	}
	*len = vg_object_ulong(*o, CKA_VALUE_LEN, VG_KEM_SS_MAX);
	if (*len == 0 || ((*o)->key_type == CKK_AES && *len != 16 &&
	    *len != 24 && *len != 32))
		rv = CKR_KEY_SIZE_RANGE;
	else if (*len > VG_KEM_SS_MAX)
		rv = CKR_TEMPLATE_INCONSISTENT;
out:
	if (rv != CKR_OK) {
		vg_object_free(*o);
		*o = NULL;
	}
	vg_key_template_free(&kt);
	vg_tmpl_std_end((CK_ATTRIBUTE *)t, n, std, 0);
	return rv;
}

/* Gives the new key o the first len bytes of the secret and adds it;
 * takes o. */
static CK_RV
add_key(struct vg_session *s, struct vg_object *o, int always_sensitive,
    int never_extractable, const uint8_t *ss, size_t sslen, CK_ULONG len,
    CK_OBJECT_HANDLE *out)
{
	CK_RV rv = len <= sslen ? CKR_OK : CKR_TEMPLATE_INCONSISTENT;

	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_VALUE, ss, len);
	if (rv == CKR_OK && vg_object_attr(o, CKA_VALUE_LEN) == NULL)
		rv = vg_object_set_attr(o, CKA_VALUE_LEN, &len, sizeof(len));
	if (rv == CKR_OK)
		rv = vg_object_derived_from(o, always_sensitive,
		    never_extractable);
	if (rv == CKR_OK)
		rv = vg_object_complete(o);
	if (rv == CKR_OK)
		return vg_obj_add(s, o, out);
	vg_object_free(o);
	return rv;
}

static CK_RV
encapsulate_key(struct vg_session *s, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n, CK_BYTE_PTR ct,
    CK_ULONG_PTR ctlen, CK_OBJECT_HANDLE_PTR out)
{
	const struct vg_mech *row = NULL;
	struct vg_object *o = NULL;
	struct vg_key *k = NULL;
	uint8_t c[VG_KEM_CT_MAX], ss[VG_KEM_SS_MAX];
	size_t sslen = 0;
	CK_ULONG need, len = 0;
	CK_RV rv;

	if (m == NULL || ctlen == NULL || out == NULL ||
	    (t == NULL && n != 0))
		return CKR_ARGUMENTS_BAD;
	rv = kem_key(s, ENCAPS, m, h, &row, &k);
	if (rv == CKR_OK)
		rv = new_key(s, ENCAPS, m, h, t, n, &o, &len);
	if (rv != CKR_OK)
		goto out;
	need = row->ops->kem_ct_len(k);
	if (ct == NULL || *ctlen < need) {
		rv = ct == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
		*ctlen = need;
		goto out;
	}
	if (need > sizeof(c)) {
		rv = CKR_GENERAL_ERROR;
		goto out;
	}
	rv = row->ops->encapsulate(k, c, ss, &sslen);
	if (rv == CKR_OK) {
		rv = add_key(s, o, 1, 1, ss, sslen, len, out);
		o = NULL; /* taken */
	}
	if (rv == CKR_OK) {
		memcpy(ct, c, need);
		*ctlen = need;
	}
out:
	vg_wipe(ss, sizeof(ss));
	vg_object_free(o);
	vg_key_put(k);
	return rv;
}

static CK_RV
decapsulate_key(struct vg_session *s, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n,
    const CK_BYTE *ct, CK_ULONG ctlen, CK_OBJECT_HANDLE_PTR out)
{
	const struct vg_mech *row = NULL;
	struct vg_object *o = NULL;
	struct vg_key *k = NULL;
	uint8_t ss[VG_KEM_SS_MAX];
	size_t sslen = 0;
	CK_ULONG len = 0;
	CK_RV rv;

	if (m == NULL || ct == NULL || out == NULL || (t == NULL && n != 0))
		return CKR_ARGUMENTS_BAD;
	rv = kem_key(s, DECAPS, m, h, &row, &k);
	if (rv == CKR_OK && ctlen != row->ops->kem_ct_len(k))
		rv = CKR_ENCRYPTED_DATA_LEN_RANGE;
	if (rv == CKR_OK)
		rv = new_key(s, DECAPS, m, h, t, n, &o, &len);
	if (rv == CKR_OK)
		rv = row->ops->decapsulate(k, ct, ctlen, ss, &sslen);
	if (rv == CKR_OK) {
		rv = add_key(s, o, k->always_sensitive, k->never_extractable,
		    ss, sslen, len, out);
		o = NULL; /* taken */
	}
	vg_wipe(ss, sizeof(ss));
	vg_object_free(o);
	vg_key_put(k);
	return rv;
}

VG_EXPORT CK_RV
C_EncapsulateKey(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hPublicKey, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulAttributeCount, CK_BYTE_PTR pCiphertext,
    CK_ULONG_PTR pulCiphertextLen, CK_OBJECT_HANDLE_PTR phKey)
{
	VG_WITH_SESSION(hSession, encapsulate_key(s, pMechanism, hPublicKey,
	    pTemplate, ulAttributeCount, pCiphertext, pulCiphertextLen,
	    phKey));
}

VG_EXPORT CK_RV
C_DecapsulateKey(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hPrivateKey, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulAttributeCount, CK_BYTE_PTR pCiphertext,
    CK_ULONG ulCiphertextLen, CK_OBJECT_HANDLE_PTR phKey)
{
	VG_WITH_SESSION(hSession, decapsulate_key(s, pMechanism, hPrivateKey,
	    pTemplate, ulAttributeCount, pCiphertext, ulCiphertextLen,
	    phKey));
}
