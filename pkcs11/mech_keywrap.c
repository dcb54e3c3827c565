/*
 * AES key wrap [PKCS#11 3.2 §6.16]: CKM_AES_KEY_WRAP, KW of SP 800-38F
 * §6.2 (RFC 3394), and CKM_AES_KEY_WRAP_KWP, KWP of SP 800-38F §6.3 (RFC
 * 5649), as C_WrapKey and C_UnwrapKey mechanisms (pkcs11/wrap.c) with an
 * AES key. The optional parameter is the initial value; crypto/aes.h
 * runs the default ones only, so a parameter must be that value (8 bytes
 * A6A6A6A6A6A6A6A6 for KW, 4 bytes A65959A6 for KWP) or absent.
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

/* An AES key's schedule; key->bits counts bytes, as the table's sizes. */
static CK_RV
load(const struct vg_object *o, struct vg_key *key)
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
	.load = load,
	.wrap = &aes_wrap,
};
