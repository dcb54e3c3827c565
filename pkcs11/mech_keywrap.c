/*
 * AES key wrap [PKCS#11 3.2 §6.16]: CKM_AES_KEY_WRAP, KW of SP 800-38F
 * §6.2 (RFC 3394), and CKM_AES_KEY_WRAP_KWP, KWP of SP 800-38F §6.3 (RFC
 * 5649), as C_WrapKey and C_UnwrapKey mechanisms (pkcs11/wrap.c) with an
 * AES key. The optional parameter is the initial value; crypto/aes.h
 * runs the default ones only, so a parameter must be that value (8 bytes
 * A6A6A6A6A6A6A6A6 for KW, 4 bytes A65959A6 for KWP) or absent.
 *
 * CKM_AES_ECB and CKM_AES_CBC_PAD wrap too [PKCS#11 3.2 §6.14] (their
 * rows belong to the cipher family, pkcs11/mech_aes.c, whose wrap part
 * is here): ECB only keys of a non-zero multiple of 16 bytes, since the
 * zero padding the specification allows for other lengths is not
 * authenticated and not removable; CBC_PAD, with its IV as parameter, any
 * secret key and private keys as PKCS #8. Neither carries an integrity
 * check: a wrong key or a changed wrapped key is noticed, if at all, by
 * the padding (one CKR_WRAPPED_KEY_INVALID, checked in constant time) or
 * by the checks of the unwrapped material.
 */
#include "config.h"

#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

static const uint8_t kw_iv[8] = { 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6,
	0xa6 };
static const uint8_t kwp_iv[4] = { 0xa6, 0x59, 0x59, 0xa6 };

static void
key_free(void *p)
{
	struct vg_aes_key *k = p;

	if (k != NULL) {
		vg_aes_key_wipe(k);
		vg_secmem_free(k, sizeof(*k));
	}
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_aes_key_load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	struct vg_aes_key *k;
	CK_RV rv = CKR_OK;

	if (o->cls != CKO_SECRET_KEY || o->key_type != CKK_AES || v == NULL)
		return CKR_KEY_TYPE_INCONSISTENT;
	k = vg_secmem_alloc(sizeof(*k));
	if (k == NULL)
		return CKR_HOST_MEMORY;
	if (vg_aes_init(k, v->value, v->len) != VG_OK)
		rv = CKR_KEY_TYPE_INCONSISTENT;
	if (rv != CKR_OK) {
		key_free(k);
		return rv;
	}
	key->impl = k;
	key->impl_free = key_free;
	key->bits = v->len;
	return CKR_OK;
}

static int
is_kwp(const struct vg_mech *row)
{
	return row->type == CKM_AES_KEY_WRAP_KWP;
}

static CK_RV
params(const struct vg_mech *row, const CK_MECHANISM *m)
{
	const uint8_t *iv = is_kwp(row) ? kwp_iv : kw_iv;
	size_t ivlen = is_kwp(row) ? sizeof(kwp_iv) : sizeof(kw_iv);

	if (m->ulParameterLen == 0 || (m->pParameter != NULL &&
	    m->ulParameterLen == ivlen &&
	    memcmp(m->pParameter, iv, ivlen) == 0))
		return CKR_OK;
	return CKR_MECHANISM_PARAM_INVALID;
}

/* KW: a multiple of 8 bytes, at least 16 [SP 800-38F §5.3.1]; KWP: 1 to
 * 2^32 - 1 bytes. */
static CK_RV
wrapped_len(const struct vg_mech *row, const CK_MECHANISM *m,
    const struct vg_key *k, size_t len, CK_ULONG *out)
{
	(void)m;
	(void)k;
	if (is_kwp(row) && len != 0 && len <= VG_AES_KWP_MAX_LEN) {
		*out = ((len + 7) & ~(size_t)7) + VG_AES_KW_OVERHEAD;
		return CKR_OK;
	}
	if (!is_kwp(row) && len >= 16 && len % 8 == 0 &&
	    len <= VG_AES_KWP_MAX_LEN) {
		*out = len + VG_AES_KW_OVERHEAD;
		return CKR_OK;
	}
	return CKR_KEY_SIZE_RANGE;
}

static CK_RV
wrap(const struct vg_mech *row, const CK_MECHANISM *m, struct vg_key *k,
    const uint8_t *in, size_t len, uint8_t *out)
{
	size_t n;
	enum vg_err e;

	(void)m;
	e = is_kwp(row) ? vg_aes_kwp_wrap(k->impl, in, len, out, &n)
			: vg_aes_kw_wrap(k->impl, in, len, out);
	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}

static CK_RV
unwrap(const struct vg_mech *row, const CK_MECHANISM *m, struct vg_key *k,
    const uint8_t *in, size_t len, uint8_t *out, size_t *outlen)
{
	enum vg_err e;

	(void)m;
	*outlen = 0;
	/* The lengths the wrap makes: semiblocks, two at least (KWP), plus
	 * the integrity block (KW) [SP 800-38F §6.2, §6.3]. */
	if (len % 8 != 0 || len < (is_kwp(row) ? 16u : 24u))
		return CKR_WRAPPED_KEY_LEN_RANGE;
	if (is_kwp(row)) {
		e = vg_aes_kwp_unwrap(k->impl, in, len, out, outlen);
	} else {
		e = vg_aes_kw_unwrap(k->impl, in, len, out);
		*outlen = e == VG_OK ? len - VG_AES_KW_OVERHEAD : 0;
	}
	/* The plaintext of a failed check is zeroed by crypto/aes.c. */
	if (e == VG_ERR_AUTH)
		return CKR_WRAPPED_KEY_INVALID;
	if (e == VG_ERR_LENGTH)
		return CKR_WRAPPED_KEY_LEN_RANGE;
	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}

static const struct vg_wrap_ops aes_wrap = {
	.params = params,
	.wrapped_len = wrapped_len,
	.wrap = wrap,
	.unwrap = unwrap,
};

const struct vg_mech_ops vg_aes_wrap_ops = {
	.load = vg_aes_key_load,
	.wrap = &aes_wrap,
};

/* ----------------------------------------------------- ECB and CBC_PAD */

static int
is_ecb(const struct vg_mech *row)
{
	return row->type == CKM_AES_ECB;
}

static CK_RV
cipher_params(const struct vg_mech *row, const CK_MECHANISM *m)
{
	size_t want = is_ecb(row) ? 0 : VG_AES_BLOCK;

	return m->ulParameterLen == want ? CKR_OK
					 : CKR_MECHANISM_PARAM_INVALID;
}

static CK_RV
cipher_wrapped_len(const struct vg_mech *row, const CK_MECHANISM *m,
    const struct vg_key *k, size_t len, CK_ULONG *out)
{
	(void)m;
	(void)k;
	if (len == 0 || len > VG_AES_KWP_MAX_LEN ||
	    (is_ecb(row) && len % VG_AES_BLOCK != 0))
		return CKR_KEY_SIZE_RANGE;
	*out = is_ecb(row) ? len : (len / VG_AES_BLOCK + 1) * VG_AES_BLOCK;
	return CKR_OK;
}

/* The padded plaintext is made in secure memory, never in the caller's
 * buffer, which another thread of the caller could read. */
static CK_RV
cipher_wrap(const struct vg_mech *row, const CK_MECHANISM *m,
    struct vg_key *k, const uint8_t *in, size_t len, uint8_t *out)
{
	size_t cap = (len / VG_AES_BLOCK + 1) * VG_AES_BLOCK, n = 0;
	uint8_t *t;
	enum vg_err e;

	if (is_ecb(row))
		return vg_aes_ecb_encrypt(k->impl, in, len, out) == VG_OK
		    ? CKR_OK : CKR_FUNCTION_FAILED;
	t = vg_secmem_alloc(cap);
	if (t == NULL)
		return CKR_HOST_MEMORY;
	memcpy(t, in, len);
	e = vg_aes_pkcs7_pad(t, len, cap, &n);
	if (e == VG_OK)
		e = vg_aes_cbc_encrypt(k->impl, m->pParameter, t, n, t);
	if (e == VG_OK)
		memcpy(out, t, n);
	vg_secmem_free(t, cap);
	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}

static CK_RV
cipher_unwrap(const struct vg_mech *row, const CK_MECHANISM *m,
    struct vg_key *k, const uint8_t *in, size_t len, uint8_t *out,
    size_t *outlen)
{
	size_t n = 0;
	enum vg_err e;

	*outlen = 0;
	if (len == 0 || len % VG_AES_BLOCK != 0)
		return CKR_WRAPPED_KEY_LEN_RANGE;
	if (is_ecb(row)) {
		e = vg_aes_ecb_decrypt(k->impl, in, len, out);
		n = len;
	} else {
		e = vg_aes_cbc_decrypt(k->impl, m->pParameter, in, len, out);
		if (e == VG_OK)
			e = vg_aes_pkcs7_unpad(out, len, &n);
	}
	if (e != VG_OK) {
		vg_wipe(out, len);
		return e == VG_ERR_DECODE ? CKR_WRAPPED_KEY_INVALID
					  : CKR_FUNCTION_FAILED;
	}
	*outlen = n;
	return CKR_OK;
}

/* see pkcs11/pkcs11_int.h */
const struct vg_wrap_ops vg_aes_cipher_wrap = {
	.params = cipher_params,
	.wrapped_len = cipher_wrapped_len,
	.wrap = cipher_wrap,
	.unwrap = cipher_unwrap,
};
