/*
 * ML-DSA (FIPS 204) [PKCS#11 3.2 §6.56]: key pair generation
 * (CKM_ML_DSA_KEY_PAIR_GEN), pure ML-DSA (CKM_ML_DSA) on the whole
 * message, HashML-DSA on a given digest (CKM_HASH_ML_DSA) and
 * hash-then-sign (CKM_HASH_ML_DSA_SHA224 ... SHA3_512 on the module's
 * digests; CKM_HASH_ML_DSA_SHAKE128 / SHAKE256, whose pre-hash is an XOF
 * of 256 / 512 bits, stream the parts into it here). The optional
 * parameters carry the context string (up to 255 bytes) and the hedging
 * choice: hedged by default, deterministic on request. The vendor
 * mechanisms of vgtoken/vgtoken.h run the same code.
 *
 * Keys are loaded once into the key cache in their expanded form
 * (crypto/mldsa.h), so that a signature or verification does only the
 * per-message work.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/*
 * A loaded key: the expanded form of crypto/mldsa.h, built once here and
 * kept in the key cache's locked memory, so that each C_Sign / C_Verify
 * skips ExpandA and the key's NTTs. The form follows the header in the
 * same page-aligned region, at KEY_OFF.
 */
struct mldsa_key {
	enum vg_mldsa_param set;
	size_t alloc;                  /* bytes from vg_secmem_alloc */
	struct vg_mldsa_expanded *sk;  /* private keys, else NULL */
	struct vg_mldsa_expanded_pk *pk; /* public keys, else NULL */
};

#define KEY_OFF 64                     /* keeps the form 32-byte aligned */

struct mldsa_params {
	int deterministic;
	enum vg_mldsa_ph ph;           /* CKM_HASH_ML_DSA: the caller's hash */
	size_t ctxlen;
	uint8_t ctx[VG_MLDSA_CTX_MAX];
	int xof;                       /* SHAKE rows: parts go into pre */
	struct vg_mldsa_prehash pre;
};

/* Wipes the key (the whole region, the expanded secret included) and
 * releases it. */
static void
key_free(void *p)
{
	struct mldsa_key *k = p;

	if (k != NULL)
		vg_secmem_free(k, k->alloc);
}

static int
set_of(CK_ULONG ckp, enum vg_mldsa_param *set)
{
	switch (ckp) {
	case CKP_ML_DSA_44:
		*set = VG_MLDSA_44;
		return 0;
	case CKP_ML_DSA_65:
		*set = VG_MLDSA_65;
		return 0;
	case CKP_ML_DSA_87:
		*set = VG_MLDSA_87;
		return 0;
	}
	return -1;
}

/* Expands the private key of o (CKA_VALUE, or else CKA_SEED) into e. */
static CK_RV
expand_private(const struct vg_object *o, enum vg_mldsa_param set,
    struct vg_mldsa_expanded *e, size_t esize)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *seed = vg_object_attr(o, CKA_SEED);
	size_t len = vg_mldsa_sk_len(set);
	uint8_t sk[VG_MLDSA_MAX_SK_LEN], pk[VG_MLDSA_MAX_PK_LEN];
	CK_RV rv = CKR_KEY_TYPE_INCONSISTENT;

	if (v != NULL && v->len == len) {
		if (vg_mldsa_expand_sk(set, v->value, len, e, esize) == VG_OK)
			rv = CKR_OK;
	} else if (seed != NULL && seed->len == VG_MLDSA_SEED_LEN) {
		/* A key given by its seed only: KeyGen_internal first. */
		if (vg_mldsa_keygen_internal(set, seed->value, pk, sk) ==
		    VG_OK && vg_mldsa_expand_sk(set, sk, len, e, esize) ==
		    VG_OK)
			rv = CKR_OK;
		vg_wipe(sk, sizeof(sk));
	}
	return rv;
}

static CK_RV
load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	int priv = o->cls == CKO_PRIVATE_KEY;
	enum vg_mldsa_param set;
	struct mldsa_key *k;
	size_t esize;
	CK_RV rv;

	if (o->key_type != CKK_ML_DSA ||
	    set_of(vg_object_ulong(o, CKA_PARAMETER_SET, 0), &set) != 0)
		return CKR_KEY_TYPE_INCONSISTENT;
	esize = priv ? vg_mldsa_expanded_size(set)
		     : vg_mldsa_expanded_pk_size(set);
	k = vg_secmem_alloc(KEY_OFF + esize);
	if (k == NULL)
		return CKR_HOST_MEMORY;
	k->set = set;
	k->alloc = KEY_OFF + esize;
	if (priv) {
		k->sk = (struct vg_mldsa_expanded *)((uint8_t *)k + KEY_OFF);
		rv = expand_private(o, set, k->sk, esize);
	} else {
		k->pk = (struct vg_mldsa_expanded_pk *)((uint8_t *)k +
		    KEY_OFF);
		rv = v != NULL && vg_mldsa_expand_pk(set, v->value, v->len,
		    k->pk, esize) == VG_OK ? CKR_OK : CKR_KEY_TYPE_INCONSISTENT;
	}
	if (rv != CKR_OK) {
		key_free(k);
		return rv;
	}
	key->impl = k;
	key->impl_free = key_free;
	key->bits = (CK_ULONG)(set + 1); /* the table counts parameter sets */
	return CKR_OK;
}

static enum vg_mldsa_ph
ph_of(CK_MECHANISM_TYPE m)
{
	static const struct {
		CK_MECHANISM_TYPE m;
		enum vg_mldsa_ph ph;
	} map[] = {
		{ CKM_SHA224, VG_MLDSA_PH_SHA224 },
		{ CKM_SHA256, VG_MLDSA_PH_SHA256 },
		{ CKM_SHA384, VG_MLDSA_PH_SHA384 },
		{ CKM_SHA512, VG_MLDSA_PH_SHA512 },
		{ CKM_SHA512_224, VG_MLDSA_PH_SHA512_224 },
		{ CKM_SHA512_256, VG_MLDSA_PH_SHA512_256 },
		{ CKM_SHA3_224, VG_MLDSA_PH_SHA3_224 },
		{ CKM_SHA3_256, VG_MLDSA_PH_SHA3_256 },
		{ CKM_SHA3_384, VG_MLDSA_PH_SHA3_384 },
		{ CKM_SHA3_512, VG_MLDSA_PH_SHA3_512 },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].m == m)
			return map[i].ph;
	return VG_MLDSA_PH_COUNT;
}

/* The prehash of a hash-then-sign row. */
static enum vg_mldsa_ph
ph_of_hash(int hash)
{
	switch (hash) {
	case VG_HASH_SHA224:
		return VG_MLDSA_PH_SHA224;
	case VG_HASH_SHA256:
		return VG_MLDSA_PH_SHA256;
	case VG_HASH_SHA384:
		return VG_MLDSA_PH_SHA384;
	case VG_HASH_SHA512:
		return VG_MLDSA_PH_SHA512;
	case VG_HASH_SHA3_224:
		return VG_MLDSA_PH_SHA3_224;
	case VG_HASH_SHA3_256:
		return VG_MLDSA_PH_SHA3_256;
	case VG_HASH_SHA3_384:
		return VG_MLDSA_PH_SHA3_384;
	case VG_HASH_SHA3_512:
		return VG_MLDSA_PH_SHA3_512;
	default:
		return VG_MLDSA_PH_COUNT;
	}
}

static void
params_free(void *p)
{
	if (p != NULL) {
		vg_wipe(p, sizeof(struct mldsa_params));
		free(p);
	}
}

static CK_RV
init(struct vg_session *s, const struct vg_mech *row, const CK_MECHANISM *m)
{
	struct mldsa_params *p = calloc(1, sizeof(*p));
	int given_hash = row->vflags & VG_MECH_GIVEN_HASH;
	CK_HEDGE_TYPE hedge = CKH_HEDGE_PREFERRED;
	const CK_BYTE *ctx = NULL;
	CK_ULONG ctxlen = 0;

	if (p == NULL)
		return CKR_HOST_MEMORY;
	p->ph = row->hash >= 0 ? ph_of_hash(row->hash) : VG_MLDSA_PH_COUNT;
	if (row->type == CKM_HASH_ML_DSA_SHAKE128 ||
	    row->type == CKM_HASH_ML_DSA_SHAKE256) {
		p->ph = row->type == CKM_HASH_ML_DSA_SHAKE128
		    ? VG_MLDSA_PH_SHAKE128 : VG_MLDSA_PH_SHAKE256;
		p->xof = 1;
		(void)vg_mldsa_prehash_init(&p->pre, p->ph);
	}
	if (given_hash) {
		const CK_HASH_SIGN_ADDITIONAL_CONTEXT *a = m->pParameter;

		if (a == NULL || m->ulParameterLen != sizeof(*a) ||
		    (p->ph = ph_of(a->hash)) == VG_MLDSA_PH_COUNT)
			goto bad;
		hedge = a->hedgeVariant;
		ctx = a->pContext;
		ctxlen = a->ulContextLen;
	} else if (m->ulParameterLen != 0) {
		const CK_SIGN_ADDITIONAL_CONTEXT *a = m->pParameter;

		if (m->ulParameterLen != sizeof(*a))
			goto bad;
		hedge = a->hedgeVariant;
		ctx = a->pContext;
		ctxlen = a->ulContextLen;
	}
	if (ctxlen > VG_MLDSA_CTX_MAX || (ctx == NULL && ctxlen != 0) ||
	    hedge > CKH_DETERMINISTIC_REQUIRED)
		goto bad;
	p->deterministic = hedge == CKH_DETERMINISTIC_REQUIRED;
	p->ctxlen = ctxlen;
	if (ctxlen != 0)
		memcpy(p->ctx, ctx, ctxlen);
	s->op_state = p;
	s->op_state_free = params_free;
	return CKR_OK;
bad:
	free(p);
	return CKR_MECHANISM_PARAM_INVALID;
}

/* The SHAKE rows' update: the part goes into the pre-hash. */
static CK_RV
xof_update(struct vg_session *s, const uint8_t *in, size_t len)
{
	struct mldsa_params *p = s->op_state;

	vg_mldsa_prehash_update(&p->pre, in, len);
	return CKR_OK;
}

/* For the SHAKE rows: ends the pre-hash into d and points *in, *len at
 * it (the parts were streamed; in and len from the caller are empty). */
static void
xof_digest(struct vg_session *s, uint8_t d[64], const uint8_t **in,
    size_t *len)
{
	struct mldsa_params *p = s->op_state;

	if (!p->xof)
		return;
	vg_mldsa_prehash_final(&p->pre, d);
	*in = d;
	*len = vg_mldsa_ph_len(p->ph);
}

static CK_ULONG
out_len(const struct vg_session *s, CK_ULONG inlen)
{
	const struct mldsa_key *k = s->op_key->impl;

	(void)inlen;
	return (CK_ULONG)vg_mldsa_sig_len(k->set);
}

static CK_RV
run(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	const struct mldsa_key *k = s->op_key->impl;
	const struct mldsa_params *p = s->op_state;
	uint8_t rnd[VG_MLDSA_RND_LEN], d[64];
	enum vg_err e;
	CK_RV rv = CKR_OK;

	xof_digest(s, d, &in, &len);
	memset(rnd, 0, sizeof(rnd));
	if (!p->deterministic)
		rv = vg_random(rnd, sizeof(rnd));
	if (rv != CKR_OK)
		return rv;
	if (p->ph == VG_MLDSA_PH_COUNT)
		e = vg_mldsa_sign_expanded(k->sk, in, len, p->ctx, p->ctxlen,
		    rnd, out);
	else
		e = vg_mldsa_sign_hash_expanded(k->sk, p->ph, in, len, p->ctx,
		    p->ctxlen, rnd, out);
	vg_wipe(rnd, sizeof(rnd));
	vg_wipe(d, sizeof(d));
	if (e != VG_OK)
		return e == VG_ERR_LENGTH ? CKR_DATA_LEN_RANGE
					  : CKR_FUNCTION_FAILED;
	*outlen = (CK_ULONG)vg_mldsa_sig_len(k->set);
	return CKR_OK;
}

static CK_RV
verify(struct vg_session *s, const uint8_t *in, size_t len,
    const uint8_t *sig, size_t siglen)
{
	const struct mldsa_key *k = s->op_key->impl;
	const struct mldsa_params *p = s->op_state;
	uint8_t d[64];
	enum vg_err e;

	if (siglen != vg_mldsa_sig_len(k->set))
		return CKR_SIGNATURE_LEN_RANGE;
	xof_digest(s, d, &in, &len);
	if (p->ph == VG_MLDSA_PH_COUNT)
		e = vg_mldsa_verify_expanded(k->pk, in, len, p->ctx,
		    p->ctxlen, sig, siglen);
	else
		e = vg_mldsa_verify_hash_expanded(k->pk, p->ph, in, len,
		    p->ctx, p->ctxlen, sig, siglen);
	if (e == VG_ERR_LENGTH && p->ph != VG_MLDSA_PH_COUNT)
		return CKR_DATA_LEN_RANGE;
	return e == VG_OK ? CKR_OK : CKR_SIGNATURE_INVALID;
}

const struct vg_mech_ops vg_mldsa_ops = {
	.load = load,
	.init = init,
	.out_len = out_len,
	.run = run,
	.verify = verify,
};

/* CKM_HASH_ML_DSA_SHAKE128 / SHAKE256: the same, streaming. */
const struct vg_mech_ops vg_mldsa_xof_ops = {
	.load = load,
	.init = init,
	.out_len = out_len,
	.update = xof_update,
	.run = run,
	.verify = verify,
};

/* ------------------------------------------------------ key generation */

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_lattice_pair_start(const CK_MECHANISM *m, CK_KEY_TYPE kt,
    CK_MECHANISM_TYPE gen, const CK_ATTRIBUTE *pubt, CK_ULONG npub,
    const CK_ATTRIBUTE *privt, CK_ULONG npriv, struct vg_object **pub,
    struct vg_object **priv, CK_ULONG *ckp)
{
	CK_RV rv;

	*pub = *priv = NULL;
	if (m->ulParameterLen != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, kt, gen,
	    pubt, npub, pub);
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PRIVATE_KEY,
		    kt, gen, privt, npriv, priv);
	if (rv == CKR_OK)
		*ckp = vg_object_ulong(*pub, CKA_PARAMETER_SET, 0);
	return rv;
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_lattice_pair_finish(struct vg_session *s, struct vg_object **pub,
    struct vg_object **priv, const struct vg_lattice_pair *p,
    CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv)
{
	CK_RV rv;

	rv = CKR_OK;
	if (!p->in_place)
		rv = vg_object_set_attr(*pub, CKA_VALUE, p->pk, p->pklen);
	if (rv == CKR_OK && !p->in_place)
		rv = vg_object_set_attr(*priv, CKA_VALUE, p->sk, p->sklen);
	if (rv == CKR_OK)
		rv = vg_object_set_attr(*priv, CKA_SEED, p->seed, p->seedlen);
	if (rv == CKR_OK)
		rv = vg_object_set_attr(*priv, CKA_PARAMETER_SET, &p->ckp,
		    sizeof(p->ckp));
	if (rv == CKR_OK)
		rv = vg_object_complete(*pub);
	if (rv == CKR_OK)
		rv = vg_object_complete(*priv);
	/* Made by the crypto layer just now: not checked as imported
	 * material would be (vg_key_complete_generated). */
	if (rv == CKR_OK)
		rv = vg_key_complete_generated(*pub, NULL);
	if (rv == CKR_OK)
		rv = vg_key_complete_generated(*priv, p->pk);
	if (rv == CKR_OK) {
		rv = vg_obj_add_pair(s, *pub, *priv, hpub, hpriv);
		*pub = *priv = NULL; /* taken */
	}
	return rv;
}

static CK_RV
mldsa_generate_pair(struct vg_session *s, const CK_MECHANISM *m,
    const CK_ATTRIBUTE *pubt, CK_ULONG npub, const CK_ATTRIBUTE *privt,
    CK_ULONG npriv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv)
{
	struct vg_object *pub = NULL, *priv = NULL;
	uint8_t xi[VG_MLDSA_SEED_LEN], *pk = NULL, *sk = NULL;
	enum vg_mldsa_param set = VG_MLDSA_44;
	struct vg_lattice_pair lp;
	struct vg_rng *rng;
	CK_RV rv;

	rv = vg_lattice_pair_start(m, CKK_ML_DSA, CKM_ML_DSA_KEY_PAIR_GEN,
	    pubt, npub, privt, npriv, &pub, &priv, &lp.ckp);
	if (rv != CKR_OK)
		goto out;
	if (set_of(lp.ckp, &set) != 0) {
		rv = CKR_ATTRIBUTE_VALUE_INVALID;
		goto out;
	}
	/* The keys are made in the objects' CKA_VALUE: no copy of the
	 * private key to make and wipe (on an error the objects are freed,
	 * which wipes them). */
	rv = vg_object_alloc_attr(pub, CKA_VALUE, vg_mldsa_pk_len(set), &pk);
	if (rv == CKR_OK)
		rv = vg_object_alloc_attr(priv, CKA_VALUE,
		    vg_mldsa_sk_len(set), &sk);
	if (rv != CKR_OK)
		goto out;
	/* The thread's DRBG, as for EC (vg_rng_thread). */
	rng = vg_rng_thread();
	if (rng == NULL || vg_mldsa_keygen(set, rng, xi, pk, sk) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	lp.pk = pk;
	lp.pklen = vg_mldsa_pk_len(set);
	lp.sk = sk;
	lp.sklen = vg_mldsa_sk_len(set);
	lp.seed = xi;
	lp.seedlen = sizeof(xi);
	lp.in_place = 1;
	if (rv == CKR_OK)
		rv = vg_lattice_pair_finish(s, &pub, &priv, &lp, hpub, hpriv);
out:
	vg_wipe(xi, sizeof(xi));
	vg_object_free(pub);
	vg_object_free(priv);
	return rv;
}

const struct vg_mech_ops vg_mldsa_keygen_ops = {
	.generate_pair = mldsa_generate_pair,
};
