/*
 * Key wrapping [PKCS#11 3.2 §5.18.3 C_WrapKey, §5.18.4 C_UnwrapKey]. Both
 * share one path for the wrapping key (the mechanism's row, the key's
 * class, type, usage, allowed mechanisms and size, the parameter), as the
 * key operations share theirs; the mechanism family (struct vg_wrap_ops)
 * does the cryptography on bytes: a secret key's value, or a private
 * key's PKCS #8 encoding [§6.7] for the mechanisms that take private keys
 * (VG_MECH_WRAP_PRIVATE).
 *
 * C_UnwrapKey builds the new key like C_DeriveKey: the unwrapping key's
 * CKA_UNWRAP_TEMPLATE under the caller's template, the object checked
 * against the attribute rules before anything is decrypted, and the
 * material checked as C_CreateObject checks it. Nothing is made unless
 * every step succeeds; the plaintext is wiped on every path.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/* The longest wrapped key taken: an ML-DSA-87 key in PKCS #8 with its
 * seed and expanded key is under 5 KiB, an RSA-4096 key under 2.5 KiB. */
#define VG_WRAPPED_MAX 16384u

enum dir { WRAP, UNWRAP };

/* What each direction asks of its key, and the codes that name it. */
static const struct {
	CK_FLAGS flag;                 /* the mechanism's */
	unsigned use;                  /* the key's */
	CK_OBJECT_CLASS cls[2];        /* key classes it takes */
	CK_RV handle_invalid, type_inconsistent, size_range;
} dirs[] = {
	[WRAP] = { CKF_WRAP, VG_USE_WRAP, { CKO_PUBLIC_KEY, CKO_SECRET_KEY },
	    CKR_WRAPPING_KEY_HANDLE_INVALID,
	    CKR_WRAPPING_KEY_TYPE_INCONSISTENT, CKR_WRAPPING_KEY_SIZE_RANGE },
	[UNWRAP] = { CKF_UNWRAP, VG_USE_UNWRAP,
	    { CKO_PRIVATE_KEY, CKO_SECRET_KEY },
	    CKR_UNWRAPPING_KEY_HANDLE_INVALID,
	    CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT,
	    CKR_UNWRAPPING_KEY_SIZE_RANGE },
};

/*
 * The mechanism's row and the (un)wrapping key h, checked: *row and *k (a
 * reference, dropped by the caller with vg_key_put). The key checks of
 * vg_op_init (vg_key_fits), with the codes §5.18.3 and §5.18.4 give the
 * wrapping key.
 */
static CK_RV
wrapping_key(struct vg_session *s, enum dir d, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE h, const struct vg_mech **row, struct vg_key **k)
{
	const struct vg_mech *r;
	struct vg_key *key = NULL;
	CK_RV rv;

	*k = NULL;
	r = vg_mech_find(m->mechanism);
	if (r == NULL || !(r->flags & dirs[d].flag) || r->ops == NULL ||
	    r->ops->wrap == NULL) {
		rv = CKR_MECHANISM_INVALID;
		goto out;
	}
	if (m->pParameter == NULL && m->ulParameterLen != 0) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	rv = vg_key_get(s, h, r->ops->load, &key);
	if (rv == CKR_OK)
		rv = vg_key_fits(key, r, dirs[d].cls, dirs[d].use);
	/* Unwrapping decrypts: a private key that wants a login for each
	 * use (CKA_ALWAYS_AUTHENTICATE) has no context to get it in here,
	 * and would otherwise decrypt into an extractable key unasked. */
	if (rv == CKR_OK && d == UNWRAP && key->always_auth)
		rv = CKR_KEY_FUNCTION_NOT_PERMITTED;
	/* the wrapping key's own codes */
	if (rv == CKR_KEY_HANDLE_INVALID)
		rv = dirs[d].handle_invalid;
	else if (rv == CKR_KEY_TYPE_INCONSISTENT)
		rv = dirs[d].type_inconsistent;
	else if (rv == CKR_KEY_SIZE_RANGE)
		rv = dirs[d].size_range;
	if (rv == CKR_OK)
		rv = r->ops->wrap->params(r, m);
out:
	if (rv == CKR_OK) {
		*row = r;
		*k = key;
	} else {
		vg_key_put(key);
	}
	return rv;
}

/* The bytes C_WrapKey wraps for key o (a secret key's value, a private
 * key's PKCS #8), in secure memory: *p, *len (free with vg_secmem_free). */
static CK_RV
wrapped_form(const struct vg_mech *row, const struct vg_object *o,
    uint8_t **p, size_t *len)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	CK_RV rv = CKR_OK;

	*p = NULL;
	*len = 0;
	if (o->cls == CKO_PRIVATE_KEY) {
		rv = (row->vflags & VG_MECH_WRAP_PRIVATE)
		    ? vg_key_to_pkcs8(o, p, len) : CKR_KEY_NOT_WRAPPABLE;
	} else if (v == NULL || v->len == 0) {
		rv = CKR_KEY_NOT_WRAPPABLE;
	} else {
		*p = vg_secmem_alloc(v->len);
		if (*p == NULL) {
			rv = CKR_HOST_MEMORY;
		} else {
			memcpy(*p, v->value, v->len);
			*len = v->len;
		}
	}
	return rv;
}

/* C_WrapKey in a session; the output convention of §5.2. */
static CK_RV
wrap_key(struct vg_session *s, const CK_MECHANISM *m, CK_OBJECT_HANDLE hw,
    CK_OBJECT_HANDLE h, CK_BYTE_PTR out, CK_ULONG_PTR outlen)
{
	const struct vg_mech *row = NULL;
	struct vg_object *o = NULL;
	struct vg_key *k = NULL;
	uint8_t *plain = NULL;
	size_t plen = 0;
	CK_ULONG n = 0;
	CK_RV rv;

	if (m == NULL || outlen == NULL) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	rv = wrapping_key(s, WRAP, m, hw, &row, &k);
	if (rv == CKR_OK)
		rv = vg_obj_wrap_target(s, hw, h, &o);
	if (rv == CKR_OK)
		rv = wrapped_form(row, o, &plain, &plen);
	if (rv == CKR_OK)
		rv = row->ops->wrap->wrapped_len(row, m, k, plen, &n);
	if (rv != CKR_OK)
		goto out;
	if (out == NULL || *outlen < n) {
		rv = out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
		*outlen = n;
		goto out;
	}
	rv = row->ops->wrap->wrap(row, m, k, plain, plen, out);
	if (rv == CKR_OK)
		*outlen = n;
out:
	if (plain != NULL)
		vg_secmem_free(plain, plen);
	vg_object_free(o);
	vg_key_put(k);
	return rv;
}

/* A CK_ULONG template value, or dflt. */
static CK_ULONG
tmpl_ulong(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE type,
    CK_ULONG dflt)
{
	const CK_ATTRIBUTE *a = vg_template_find(t, n, type);
	CK_ULONG v = dflt;

	if (a != NULL && a->pValue != NULL && a->ulValueLen == sizeof(v))
		memcpy(&v, a->pValue, sizeof(v));
	return v;
}

/*
 * The class of the key C_UnwrapKey makes: a secret key, unless the
 * mechanism takes private keys and the template asks for one (by
 * CKA_CLASS, or by a key type of private keys). A template that names
 * another class than the mechanism makes meets it as a hint and gets
 * CKR_TEMPLATE_INCONSISTENT [§4.1.1].
 */
static CK_OBJECT_CLASS
unwrapped_class(const struct vg_mech *row, const CK_ATTRIBUTE *t,
    CK_ULONG n)
{
	CK_OBJECT_CLASS cls = tmpl_ulong(t, n, CKA_CLASS,
	    CK_UNAVAILABLE_INFORMATION);
	CK_KEY_TYPE kt = tmpl_ulong(t, n, CKA_KEY_TYPE,
	    CK_UNAVAILABLE_INFORMATION);

	if (!(row->vflags & VG_MECH_WRAP_PRIVATE))
		return CKO_SECRET_KEY;
	if (cls == CK_UNAVAILABLE_INFORMATION)
		cls = kt == CKK_RSA || kt == CKK_EC || kt == CKK_ML_DSA ||
		    vg_ecx_is(kt)
		    ? CKO_PRIVATE_KEY : CKO_SECRET_KEY;
	return cls;
}

/*
 * A secret key's value: its type's lengths, and the template's
 * CKA_VALUE_LEN if any; "any length conflict" between them and what the
 * mechanism gives is CKR_WRAPPED_KEY_LEN_RANGE [§5.18.4].
 */
static CK_RV
secret_from(struct vg_object *o, const uint8_t *p, size_t len)
{
	CK_ULONG want = vg_object_ulong(o, CKA_VALUE_LEN, len);
	CK_RV rv;

	if (len == 0 || want != len ||
	    (o->key_type == CKK_AES && len != 16 && len != 24 && len != 32))
		return CKR_WRAPPED_KEY_LEN_RANGE;
	rv = vg_object_set_attr(o, CKA_VALUE, p, len);
	if (rv == CKR_OK)
		rv = vg_object_complete(o);
	return rv;
}

/* What a check of the key material says of a wrapped key: the token
 * cannot take it (an EC point that is not the scalar's, RSA parts that
 * disagree, an ML-DSA seed that does not give the expanded key). */
static CK_RV
material(CK_RV rv)
{
	return rv == CKR_OK || rv == CKR_HOST_MEMORY ||
	    rv == CKR_FUNCTION_FAILED || rv == CKR_CURVE_NOT_SUPPORTED
	    ? rv : CKR_WRAPPED_KEY_INVALID;
}

/*
 * A private key's material from its PKCS #8 encoding, then the checks of
 * C_CreateObject (vg_key_complete). A failure is the material's,
 * CKR_WRAPPED_KEY_INVALID, unless the template brought a
 * CKA_PUBLIC_KEY_INFO: then the material is checked alone first, and the
 * template's value that is not the key's keeps its own code.
 */
static CK_RV
private_from(struct vg_object *o, const uint8_t *p, size_t len)
{
	const struct vg_attr *info = vg_object_attr(o, CKA_PUBLIC_KEY_INFO);
	int given = info != NULL && info->len != 0;
	CK_RV rv;

	rv = vg_key_from_pkcs8(o, p, len);
	if (rv == CKR_OK)
		rv = vg_object_complete(o);
	if (rv == CKR_OK && given)
		rv = material(vg_key_check(o));
	if (rv == CKR_OK) {
		rv = vg_key_complete(o);
		if (!given)
			rv = material(rv);
	}
	return rv;
}

/* C_UnwrapKey in a session. */
static CK_RV
unwrap_key(struct vg_session *s, const CK_MECHANISM *m, CK_OBJECT_HANDLE hu,
    const uint8_t *in, CK_ULONG inlen, CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out)
{
	struct vg_key_template kt = { NULL, 0, NULL };
	const struct vg_mech *row = NULL;
	struct vg_object *o = NULL;
	struct vg_key *k = NULL;
	CK_ATTRIBUTE *std = NULL;
	uint8_t *plain = NULL;
	size_t plen = 0;
	CK_RV rv;

	if (m == NULL || out == NULL || in == NULL ||
	    (t == NULL && n != 0)) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	rv = wrapping_key(s, UNWRAP, m, hu, &row, &k);
	/* vendor aliases (pkcs11/vendor.c) become the standard ids */
	if (rv == CKR_OK)
		rv = vg_tmpl_std(t, n, 1, &std);
	/* The unwrapping key's CKA_UNWRAP_TEMPLATE binds every key it
	 * unwraps [§5.18.4], as the derive template binds derivations. */
	if (rv == CKR_OK) {
		rv = vg_obj_key_template(s, hu, CKA_UNWRAP_TEMPLATE, std, n,
		    &kt);
		if (rv == CKR_KEY_HANDLE_INVALID)
			rv = CKR_UNWRAPPING_KEY_HANDLE_INVALID;
	}
	/* The template first: a key it cannot make is refused before
	 * anything is decrypted, and the session must be able to keep it. */
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_UNWRAP,
		    unwrapped_class(row, kt.t, kt.n),
		    CK_UNAVAILABLE_INFORMATION, m->mechanism, kt.t, kt.n, &o);
	if (rv == CKR_OK)
		rv = vg_obj_may_generate(s, kt.t, kt.n, 1);
	if (rv != CKR_OK)
		goto out;
	if (inlen > VG_WRAPPED_MAX) {
		rv = CKR_WRAPPED_KEY_LEN_RANGE;
		goto out;
	}
	plen = inlen;
	plain = vg_secmem_alloc(plen ? plen : 1);
	if (plain == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = row->ops->wrap->unwrap(row, m, k, in, inlen, plain, &plen);
	if (rv == CKR_OK)
		rv = o->cls == CKO_PRIVATE_KEY ? private_from(o, plain, plen)
					       : secret_from(o, plain, plen);
	if (rv == CKR_OK) {
		rv = vg_obj_add(s, o, out);
		o = NULL; /* taken */
	}
out:
	if (plain != NULL)
		vg_secmem_free(plain, inlen ? inlen : 1);
	vg_object_free(o);
	vg_key_template_free(&kt);
	vg_tmpl_std_end(t, n, std, 0);
	vg_key_put(k);
	return rv;
}

VG_EXPORT CK_RV
C_WrapKey(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hWrappingKey, CK_OBJECT_HANDLE hKey,
    CK_BYTE_PTR pWrappedKey, CK_ULONG_PTR pulWrappedKeyLen)
{
	VG_WITH_SESSION(hSession, wrap_key(s, pMechanism, hWrappingKey, hKey,
	    pWrappedKey, pulWrappedKeyLen));
}

VG_EXPORT CK_RV
C_UnwrapKey(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism,
    CK_OBJECT_HANDLE hUnwrappingKey, CK_BYTE_PTR pWrappedKey,
    CK_ULONG ulWrappedKeyLen, CK_ATTRIBUTE_PTR pTemplate,
    CK_ULONG ulAttributeCount, CK_OBJECT_HANDLE_PTR phKey)
{
	VG_WITH_SESSION(hSession, unwrap_key(s, pMechanism, hUnwrappingKey,
	    pWrappedKey, ulWrappedKeyLen, pTemplate, ulAttributeCount,
	    phKey));
}
