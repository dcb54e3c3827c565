/* HMAC sign and verify with generic secret keys [PKCS#11 3.2 §6.x HMAC]. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

struct hmac_key {
	size_t len;
	uint8_t v[];
};

static void
key_free(void *p)
{
	struct hmac_key *k = p;

	if (k == NULL)
		return;
	vg_secmem_free(k, sizeof(*k) + k->len);
}

static CK_RV
load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	struct hmac_key *k;

	if (o->cls != CKO_SECRET_KEY || v == NULL || v->len == 0)
		return CKR_KEY_TYPE_INCONSISTENT;
	k = vg_secmem_alloc(sizeof(*k) + v->len);
	if (k == NULL)
		return CKR_HOST_MEMORY;
	k->len = v->len;
	memcpy(k->v, v->value, v->len);
	key->impl = k;
	key->impl_free = key_free;
	key->bits = v->len; /* HMAC key sizes count bytes */
	return CKR_OK;
}

static void
state_free(void *p)
{
	if (p != NULL) {
		vg_wipe(p, sizeof(struct vg_hmac));
		free(p);
	}
}

static CK_RV
init(struct vg_session *s, const struct vg_mech *row, const CK_MECHANISM *m)
{
	const struct hmac_key *k = s->op_key->impl;
	struct vg_hmac *h;

	if (m->ulParameterLen != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	h = malloc(sizeof(*h));
	if (h == NULL)
		return CKR_HOST_MEMORY;
	vg_hmac_init(h, (enum vg_hash_alg)row->hash, k->v, k->len);
	s->op_state = h;
	s->op_state_free = state_free;
	return CKR_OK;
}

static CK_ULONG
out_len(const struct vg_session *s, CK_ULONG inlen)
{
	const struct vg_hmac *h = s->op_state;

	(void)inlen;
	return vg_hash_len(h->inner.alg);
}

static CK_RV
update(struct vg_session *s, const uint8_t *in, size_t len)
{
	vg_hmac_update(s->op_state, in, len);
	return CKR_OK;
}

static CK_RV
run(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	(void)in;
	(void)len;
	*outlen = out_len(s, 0);
	vg_hmac_final(s->op_state, out);
	return CKR_OK;
}

/* The tag comparison is constant time; only the verdict is public. */
static CK_RV
verify(struct vg_session *s, const uint8_t *in, size_t len,
    const uint8_t *sig, size_t siglen)
{
	uint8_t mac[VG_HASH_MAX_LEN];
	CK_ULONG n = out_len(s, 0);
	uint32_t ok;

	(void)in;
	(void)len;
	if (siglen != n)
		return CKR_SIGNATURE_LEN_RANGE;
	vg_hmac_final(s->op_state, mac);
	ok = vg_ct_memeq(mac, sig, n);
	vg_wipe(mac, sizeof(mac));
	VG_CT_DECLASSIFY(&ok, sizeof(ok));
	return ok ? CKR_OK : CKR_SIGNATURE_INVALID;
}

const struct vg_mech_ops vg_hmac_ops = {
	.load = load,
	.init = init,
	.out_len = out_len,
	.update = update,
	.run = run,
	.verify = verify,
};
