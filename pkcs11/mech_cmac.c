/*
 * AES-CMAC sign and verify [PKCS#11 3.2 §6.14, SP 800-38B]: CKM_AES_CMAC
 * (the full 16-byte MAC) and CKM_AES_CMAC_GENERAL (its first
 * CK_MAC_GENERAL_PARAMS bytes, 1 to 16), single-part and multi-part, over
 * the streaming context of crypto/aes.h. Verification compares in
 * constant time; only the verdict is public.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"

struct cmac_op {
	struct vg_aes_cmac m;
	size_t maclen;
};

static void
state_free(void *p)
{
	struct cmac_op *st = p;

	if (st != NULL) {
		vg_aes_cmac_wipe(&st->m);
		vg_wipe(st, sizeof(*st));
		free(st);
	}
}

static CK_RV
init(struct vg_session *s, const struct vg_mech *row, const CK_MECHANISM *m)
{
	struct cmac_op *st;
	CK_MAC_GENERAL_PARAMS n = VG_AES_CMAC_MAX;

	if (row->type == CKM_AES_CMAC_GENERAL) {
		if (m->ulParameterLen != sizeof(n))
			return CKR_MECHANISM_PARAM_INVALID;
		memcpy(&n, m->pParameter, sizeof(n));
		if (n == 0 || n > VG_AES_CMAC_MAX)
			return CKR_MECHANISM_PARAM_INVALID;
	} else if (m->ulParameterLen != 0) {
		return CKR_MECHANISM_PARAM_INVALID;
	}
	st = malloc(sizeof(*st));
	if (st == NULL)
		return CKR_HOST_MEMORY;
	st->maclen = n;
	if (vg_aes_cmac_init(&st->m, s->op_key->impl) != VG_OK) {
		state_free(st);
		return CKR_FUNCTION_FAILED;
	}
	s->op_state = st;
	s->op_state_free = state_free;
	return CKR_OK;
}

static CK_ULONG
out_len(const struct vg_session *s, CK_ULONG inlen)
{
	const struct cmac_op *st = s->op_state;

	(void)inlen;
	return st->maclen;
}

static CK_RV
update(struct vg_session *s, const uint8_t *in, size_t len)
{
	struct cmac_op *st = s->op_state;

	return vg_aes_cmac_update(&st->m, in, len) == VG_OK
	    ? CKR_OK : CKR_FUNCTION_FAILED;
}

static CK_RV
run(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	struct cmac_op *st = s->op_state;

	(void)in;
	(void)len;
	if (vg_aes_cmac_final(&st->m, out, st->maclen) != VG_OK)
		return CKR_FUNCTION_FAILED;
	*outlen = st->maclen;
	return CKR_OK;
}

static CK_RV
verify(struct vg_session *s, const uint8_t *in, size_t len,
    const uint8_t *sig, size_t siglen)
{
	struct cmac_op *st = s->op_state;
	enum vg_err e;

	(void)in;
	(void)len;
	if (siglen != st->maclen)
		return CKR_SIGNATURE_LEN_RANGE;
	e = vg_aes_cmac_verify(&st->m, sig, siglen);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e == VG_OK)
		return CKR_OK;
	return e == VG_ERR_AUTH ? CKR_SIGNATURE_INVALID : CKR_FUNCTION_FAILED;
}

const struct vg_mech_ops vg_aes_cmac_ops = {
	.load = vg_aes_key_load,
	.init = init,
	.out_len = out_len,
	.update = update,
	.run = run,
	.verify = verify,
};
