/*
 * Curve25519 [PKCS#11 3.2 §6.3.5 - §6.3.8, §6.3.14]: Ed25519 key pairs
 * (CKM_EC_EDWARDS_KEY_PAIR_GEN) and signatures (CKM_EDDSA: pure Ed25519,
 * Ed25519ctx and Ed25519ph chosen by the optional CK_EDDSA_PARAMS), and
 * X25519 key pairs (CKM_EC_MONTGOMERY_KEY_PAIR_GEN) whose CKM_ECDH1_DERIVE
 * runs here for pkcs11/mech_ec.c.
 *
 * Multi-part CKM_EDDSA: pure Ed25519 and Ed25519ctx read the message
 * twice, so they gather the parts (pkcs11/ops.c, at most
 * VG_OP_MAX_GATHER bytes, CKR_DATA_LEN_RANGE beyond); Ed25519ph streams
 * them into SHA-512 (s->op_hashing) and signs PH(M)
 * (VG_ED25519_PH_DIGEST), so its message has no length limit.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/c25519.h"
#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/* A loaded key: the private key (private keys only) and the public key,
 * in the key cache's locked memory. */
struct ecx_key {
	int is_private;
	uint8_t sk[VG_ECX_LEN];
	uint8_t pk[VG_ECX_LEN];
};

/* The variant and context of a CKM_EDDSA operation. */
struct eddsa_params {
	enum vg_ed25519_variant v;
	size_t ctxlen;
	uint8_t ctx[VG_ED25519_CTX_MAX];
};

static void
key_free(void *p)
{
	if (p != NULL)
		vg_secmem_free(p, sizeof(struct ecx_key));
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_ecx_key_load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *params = vg_object_attr(o, CKA_EC_PARAMS);
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *pt = vg_object_attr(o, CKA_EC_POINT);
	struct ecx_key *k;
	CK_RV rv = CKR_OK;

	if (!vg_ecx_is(o->key_type) || params == NULL ||
	    vg_ecx_params_check(o->key_type, params->value, params->len) !=
	    CKR_OK)
		return CKR_KEY_TYPE_INCONSISTENT;
	k = vg_secmem_alloc(sizeof(*k));
	if (k == NULL)
		return CKR_HOST_MEMORY;
	if (o->cls == CKO_PRIVATE_KEY) {
		k->is_private = 1;
		/* The public key from the private key, so that a signature
		 * never uses a stored point that is not the key's. */
		if (v == NULL || v->len != VG_ECX_LEN)
			rv = CKR_KEY_TYPE_INCONSISTENT;
		else {
			memcpy(k->sk, v->value, VG_ECX_LEN);
			if (vg_ecx_public(o->key_type, k->sk, k->pk) != CKR_OK)
				rv = CKR_KEY_TYPE_INCONSISTENT;
		}
	} else if (pt == NULL ||
	    vg_ecx_point_decode(pt->value, pt->len, k->pk) != 0) {
		rv = CKR_KEY_TYPE_INCONSISTENT;
	}
	if (rv != CKR_OK) {
		key_free(k);
		return rv;
	}
	key->impl = k;
	key->impl_free = key_free;
	key->bits = 256;
	return CKR_OK;
}

static void
params_free(void *p)
{
	if (p != NULL) {
		vg_wipe(p, sizeof(struct eddsa_params));
		free(p);
	}
}

/* CK_EDDSA_PARAMS [PKCS#11 3.2 §6.3.14]: none is pure Ed25519; phFlag
 * CK_TRUE is Ed25519ph (the context may be empty), CK_FALSE with a
 * context Ed25519ctx. CK_FALSE with no context is pure Ed25519: RFC 8032
 * §5.1 forbids Ed25519ctx with an empty context, and clients that always
 * send the structure mean the plain scheme. */
static CK_RV
init(struct vg_session *s, const struct vg_mech *row, const CK_MECHANISM *m)
{
	const CK_EDDSA_PARAMS *a = m->pParameter;
	struct eddsa_params *p;

	(void)row;
	if (m->ulParameterLen != 0 &&
	    (a == NULL || m->ulParameterLen != sizeof(*a) ||
	    (a->phFlag != CK_TRUE && a->phFlag != CK_FALSE) ||
	    a->ulContextDataLen > VG_ED25519_CTX_MAX ||
	    (a->pContextData == NULL && a->ulContextDataLen != 0)))
		return CKR_MECHANISM_PARAM_INVALID;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return CKR_HOST_MEMORY;
	p->v = VG_ED25519_PURE;
	if (m->ulParameterLen != 0) {
		if (a->phFlag == CK_TRUE)
			p->v = VG_ED25519_PH_DIGEST;
		else if (a->ulContextDataLen != 0)
			p->v = VG_ED25519_CTX;
		p->ctxlen = a->ulContextDataLen;
		if (p->ctxlen != 0)
			memcpy(p->ctx, a->pContextData, p->ctxlen);
	}
	if (p->v == VG_ED25519_PH_DIGEST) {
		vg_hash_init(&s->digest, VG_HASH_SHA512);
		s->op_hashing = 1;
	}
	s->op_state = p;
	s->op_state_free = params_free;
	return CKR_OK;
}

static CK_ULONG
out_len(const struct vg_session *s, CK_ULONG inlen)
{
	(void)s;
	(void)inlen;
	return VG_ED25519_SIG_LEN;
}

static CK_RV
run(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	const struct ecx_key *k = s->op_key->impl;
	const struct eddsa_params *p = s->op_state;

	if (vg_ed25519_sign(p->v, k->sk, k->pk, in, len, p->ctx, p->ctxlen,
	    out) != VG_OK)
		return CKR_FUNCTION_FAILED;
	*outlen = VG_ED25519_SIG_LEN;
	return CKR_OK;
}

static CK_RV
verify(struct vg_session *s, const uint8_t *in, size_t len,
    const uint8_t *sig, size_t siglen)
{
	const struct ecx_key *k = s->op_key->impl;
	const struct eddsa_params *p = s->op_state;

	if (siglen != VG_ED25519_SIG_LEN)
		return CKR_SIGNATURE_LEN_RANGE;
	return vg_ed25519_verify(p->v, k->pk, in, len, p->ctx, p->ctxlen, sig,
	    siglen) == VG_OK ? CKR_OK : CKR_SIGNATURE_INVALID;
}

const struct vg_mech_ops vg_eddsa_ops = {
	.load = vg_ecx_key_load,
	.init = init,
	.out_len = out_len,
	.run = run,
	.verify = verify,
};

/* ------------------------------------------------------ key generation */

static CK_RV
ecx_generate_pair(struct vg_session *s, const CK_MECHANISM *m,
    const CK_ATTRIBUTE *pubt, CK_ULONG npub, const CK_ATTRIBUTE *privt,
    CK_ULONG npriv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv)
{
	CK_KEY_TYPE kt = m->mechanism == CKM_EC_EDWARDS_KEY_PAIR_GEN
	    ? CKK_EC_EDWARDS : CKK_EC_MONTGOMERY;
	const CK_ATTRIBUTE *a = vg_template_find(pubt, npub, CKA_EC_PARAMS);
	CK_ATTRIBUTE *fixed = NULL;
	struct vg_object *pub = NULL, *priv = NULL;
	uint8_t sk[VG_ECX_LEN], pk[VG_ECX_LEN], pt[VG_ECX_EC_POINT_LEN];
	uint8_t params[16];
	size_t plen = sizeof(params);
	struct vg_rng *rng;
	enum vg_err e;
	CK_RV rv;

	if (m->ulParameterLen != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	if (a == NULL)
		return CKR_TEMPLATE_INCOMPLETE;
	if (a->pValue == NULL)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	rv = vg_ecx_params_check(kt, a->pValue, a->ulValueLen);
	if (rv == CKR_OK && vg_der_build_ecx_params(params, &plen,
	    kt == CKK_EC_EDWARDS ? VG_DER_ECX_ED25519 : VG_DER_ECX_X25519) !=
	    VG_OK)
		rv = CKR_GENERAL_ERROR;
	/* The curve name pkcs11-tool 0.23 sends for X25519 is not DER
	 * (crypto/der_ecx.c): the public key gets the OID instead. */
	if (rv == CKR_OK && kt == CKK_EC_MONTGOMERY &&
	    a->ulValueLen == 12 && ((const uint8_t *)a->pValue)[0] == 0x13 &&
	    ((const uint8_t *)a->pValue)[1] == 0x0b) {
		fixed = malloc(npub * sizeof(*fixed));
		if (fixed == NULL) {
			rv = CKR_HOST_MEMORY;
		} else {
			memcpy(fixed, pubt, npub * sizeof(*fixed));
			fixed[a - pubt].pValue = params;
			fixed[a - pubt].ulValueLen = plen;
			pubt = fixed;
		}
	}
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, kt,
		    m->mechanism, pubt, npub, &pub);
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PRIVATE_KEY,
		    kt, m->mechanism, privt, npriv, &priv);
	if (rv != CKR_OK)
		goto out;
	/* The thread's DRBG, as for P-256 (pkcs11/mech_ec.c): no lock
	 * shared by all threads. */
	rng = vg_rng_thread();
	e = rng == NULL ? VG_ERR_RANDOM
	    : kt == CKK_EC_EDWARDS ? vg_ed25519_keygen(rng, sk, pk)
				   : vg_x25519_keygen(rng, sk, pk);
	if (e != VG_OK) {
		rv = CKR_FUNCTION_FAILED;
		goto out;
	}
	vg_ecx_point_encode(pt, pk);
	/* The private key carries the parameters and, for libp11, which
	 * looks there first, the point. */
	rv = vg_object_set_attr(pub, CKA_EC_POINT, pt, sizeof(pt));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(priv, CKA_EC_PARAMS, params, plen);
	if (rv == CKR_OK)
		rv = vg_object_set_attr(priv, CKA_EC_POINT, pt, sizeof(pt));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(priv, CKA_VALUE, sk, sizeof(sk));
	if (rv == CKR_OK)
		rv = vg_object_complete(pub);
	if (rv == CKR_OK)
		rv = vg_object_complete(priv);
	if (rv == CKR_OK)
		rv = vg_key_complete(pub);
	if (rv == CKR_OK)
		rv = vg_key_complete(priv);
	if (rv == CKR_OK) {
		rv = vg_obj_add_pair(s, pub, priv, hpub, hpriv);
		pub = priv = NULL; /* taken */
	}
out:
	free(fixed);
	vg_wipe(sk, sizeof(sk));
	vg_object_free(pub);
	vg_object_free(priv);
	return rv;
}

const struct vg_mech_ops vg_ecx_keygen_ops = {
	.generate_pair = ecx_generate_pair,
};

/* ------------------------------------------------------ X25519 */

/* see pkcs11/pkcs11_int.h */
int
vg_x25519_peer(const void *p, size_t len, uint8_t u[VG_ECX_LEN])
{
	return vg_ecx_point_decode(p, len, u);
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_x25519_shared(const struct vg_key *k, const uint8_t u[VG_ECX_LEN],
    uint8_t z[VG_ECX_LEN])
{
	const struct ecx_key *x = k->impl;
	enum vg_err e = vg_x25519(z, x->sk, u);

	if (e == VG_ERR_DECODE)
		return CKR_MECHANISM_PARAM_INVALID;
	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}
