/*
 * RSA [PKCS#11 3.2 §6.1]: key pair generation, PKCS#1 v1.5 and PSS
 * signatures (on given data or hash-then-sign), raw RSA (X.509), PKCS#1
 * v1.5 and OAEP encryption. A loaded private key keeps its CRT
 * precomputation and blinding pair. Each private operation refreshes the
 * pair and draws from a generator, so it needs a key to itself: it takes
 * one of the key's lanes (a copy with its own pair and generator, made by
 * vg_rsa_key_copy), a new lane is made when all are busy, up to
 * RSA_LANES, and past that a caller waits for one. Operations on one key
 * thus run side by side in several threads; with a single lock they took
 * turns.
 */
#include "config.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

#define RSA_LANES 8

/* A private key's copy for one operation at a time: taken by setting busy
 * from 0 to 1 (compare-and-swap), given back by storing 0. The PKCS#11
 * mutex callbacks have no try-lock, hence the flag. */
struct rsa_lane {
	int busy;
	struct vg_rng rng;             /* blinding and padding randomness */
	struct vg_rsa_key key;
};

struct rsa_key {
	int is_private;
	struct vg_mutex lock;          /* rng; making lanes */
	struct vg_rng rng;             /* encryption padding randomness */
	struct vg_rsa_pub pub;
	unsigned nlanes;               /* lanes made (lane[0] at load) */
	struct rsa_lane *lane[RSA_LANES];
};

/* Parameters an operation keeps (PSS, OAEP). */
struct rsa_params {
	enum vg_hash_alg halg, mgf;
	size_t slen;
	size_t llen;
	uint8_t label[];
};

static void
lane_free(struct rsa_lane *l)
{
	if (l == NULL)
		return;
	vg_rng_wipe(&l->rng);
	vg_rsa_key_wipe(&l->key);
	vg_secmem_free(l, sizeof(*l));
}

static void
key_free(void *p)
{
	struct rsa_key *k = p;
	unsigned i;

	if (k == NULL)
		return;
	vg_mutex_destroy(&k->lock);
	vg_rng_wipe(&k->rng);
	for (i = 0; i < RSA_LANES; i++)
		lane_free(k->lane[i]);
	vg_rsa_pub_wipe(&k->pub);
	vg_secmem_free(k, sizeof(*k));
}

/* Takes lane l if it is free. */
static int
lane_try(struct rsa_lane *l)
{
	int free_ = 0;

	return __atomic_compare_exchange_n(&l->busy, &free_, 1, 0,
	    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void
lane_give(struct rsa_lane *l)
{
	__atomic_store_n(&l->busy, 0, __ATOMIC_RELEASE);
}

/* A new lane, taken, copied from lane 0 (waited for: its blinding pair
 * changes while it is in use); NULL if memory or randomness fails. The
 * key's lock is held, so lanes are made one at a time. */
static struct rsa_lane *
lane_make_inlock(struct rsa_key *k)
{
	struct rsa_lane *l = vg_secmem_alloc(sizeof(*l)), *l0 = k->lane[0];
	enum vg_err e = VG_ERR_NOMEM;

	if (l != NULL && vg_rng_init(&l->rng) == VG_OK) {
		while (!lane_try(l0))
			sched_yield();
		e = vg_rsa_key_copy(&l->key, &l0->key, &l->rng);
		lane_give(l0);
	}
	if (e != VG_OK) {
		lane_free(l);
		return NULL;
	}
	l->busy = 1;
	return l;
}

/* A lane of k for one private operation, given back with lane_give;
 * NULL for a public key. */
static struct rsa_lane *
lane_take(struct rsa_key *k)
{
	struct rsa_lane *l = NULL;
	unsigned n, i;

	while (l == NULL && k->is_private) {
		n = __atomic_load_n(&k->nlanes, __ATOMIC_ACQUIRE);
		for (i = 0; i < n && l == NULL; i++)
			if (lane_try(k->lane[i]))
				l = k->lane[i];
		if (l == NULL && n < RSA_LANES) {
			vg_mutex_lock(&k->lock);
			/* unless another thread made one meanwhile */
			if (k->nlanes == n) {
				l = lane_make_inlock(k);
				if (l != NULL) {
					k->lane[n] = l;
					__atomic_store_n(&k->nlanes, n + 1,
					    __ATOMIC_RELEASE);
				}
			}
			vg_mutex_unlock(&k->lock);
		}
		if (l == NULL)
			sched_yield();
	}
	return l;
}

static const struct vg_attr *
attr(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	return a != NULL && a->len != 0 ? a : NULL;
}

static CK_RV
load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *n = attr(o, CKA_MODULUS);
	const struct vg_attr *e = attr(o, CKA_PUBLIC_EXPONENT);
	struct rsa_key *k;
	CK_RV rv = CKR_OK;

	if (o->key_type != CKK_RSA || n == NULL || e == NULL)
		return CKR_KEY_TYPE_INCONSISTENT;
	k = vg_secmem_alloc(sizeof(*k));
	if (k == NULL)
		return CKR_HOST_MEMORY;
	if (vg_rng_init(&k->rng) != VG_OK ||
	    vg_mutex_init(&k->lock) != CKR_OK) {
		key_free(k);
		return CKR_FUNCTION_FAILED;
	}
	if (o->cls == CKO_PRIVATE_KEY) {
		struct vg_rsa_key_bytes *rec = vg_secmem_alloc(sizeof(*rec));
		struct rsa_lane *l = vg_secmem_alloc(sizeof(*l));
		struct vg_der_rsa_priv in;

		/* a key that does not load is unusable, whatever the cause */
		if (rec == NULL || l == NULL)
			rv = CKR_HOST_MEMORY;
		else if (vg_rng_init(&l->rng) != VG_OK)
			rv = CKR_FUNCTION_FAILED;
		else if (vg_rsa_priv_parts(o, &in, rec) != CKR_OK ||
		    vg_rsa_key_load(&l->key, &in, NULL, 0, &l->rng) != VG_OK)
			rv = CKR_KEY_TYPE_INCONSISTENT;
		vg_secmem_free(rec, sizeof(*rec));
		if (rv == CKR_OK) {
			k->is_private = 1;
			k->pub = *vg_rsa_key_pub(&l->key);
			k->lane[0] = l;
			k->nlanes = 1;
		} else {
			lane_free(l);
		}
	} else if (vg_rsa_pub_load(&k->pub, n->value, n->len, e->value,
	    e->len) != VG_OK) {
		rv = CKR_KEY_TYPE_INCONSISTENT;
	}
	if (rv != CKR_OK) {
		key_free(k);
		return rv;
	}
	key->impl = k;
	key->impl_free = key_free;
	key->bits = k->pub.len * 8;
	return CKR_OK;
}

static int
hash_of_mech(CK_MECHANISM_TYPE m)
{
	static const struct {
		CK_MECHANISM_TYPE m;
		int h;
	} map[] = {
		{ CKM_SHA_1, VG_HASH_SHA1 }, { CKM_SHA224, VG_HASH_SHA224 },
		{ CKM_SHA256, VG_HASH_SHA256 }, { CKM_SHA384, VG_HASH_SHA384 },
		{ CKM_SHA512, VG_HASH_SHA512 },
		{ CKM_SHA3_224, VG_HASH_SHA3_224 },
		{ CKM_SHA3_256, VG_HASH_SHA3_256 },
		{ CKM_SHA3_384, VG_HASH_SHA3_384 },
		{ CKM_SHA3_512, VG_HASH_SHA3_512 },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].m == m)
			return map[i].h;
	return -1;
}

static int
hash_of_mgf(CK_RSA_PKCS_MGF_TYPE g)
{
	static const int map[] = { -1, VG_HASH_SHA1, VG_HASH_SHA256,
		VG_HASH_SHA384, VG_HASH_SHA512, VG_HASH_SHA224,
		VG_HASH_SHA3_224, VG_HASH_SHA3_256, VG_HASH_SHA3_384,
		VG_HASH_SHA3_512 };

	return g < sizeof(map) / sizeof(map[0]) ? map[g] : -1;
}

static void
params_free(void *p)
{
	struct rsa_params *r = p;

	if (r != NULL) {
		vg_wipe(r, sizeof(*r) + r->llen);
		free(r);
	}
}

/* The longest OAEP label taken (it is copied into the operation): far
 * beyond any real one, and no allocation size can wrap. */
#define OAEP_MAX_LABEL ((CK_ULONG)1 << 20)

/* CK_RSA_PKCS_OAEP_PARAMS [PKCS#11 3.2 §6.1.7], for encryption and key
 * wrapping: *out (free with params_free) or CKR_MECHANISM_PARAM_INVALID,
 * CKR_HOST_MEMORY. */
static CK_RV
oaep_params(const CK_MECHANISM *m, struct rsa_params **out)
{
	const CK_RSA_PKCS_OAEP_PARAMS *p = m->pParameter;
	struct rsa_params *r;
	int h, g;

	*out = NULL;
	if (p == NULL || m->ulParameterLen != sizeof(*p))
		return CKR_MECHANISM_PARAM_INVALID;
	h = hash_of_mech(p->hashAlg);
	g = hash_of_mgf(p->mgf);
	if (h < 0 || h > VG_HASH_SHA512 || g < 0 ||
	    (p->source != 0 && p->source != CKZ_DATA_SPECIFIED) ||
	    (p->pSourceData == NULL && p->ulSourceDataLen != 0) ||
	    (p->source == 0 && p->ulSourceDataLen != 0) ||
	    p->ulSourceDataLen > OAEP_MAX_LABEL)
		return CKR_MECHANISM_PARAM_INVALID;
	r = malloc(sizeof(*r) + p->ulSourceDataLen);
	if (r == NULL)
		return CKR_HOST_MEMORY;
	r->llen = p->ulSourceDataLen;
	if (r->llen != 0)
		memcpy(r->label, p->pSourceData, r->llen);
	r->slen = 0;
	r->halg = (enum vg_hash_alg)h;
	r->mgf = (enum vg_hash_alg)g;
	*out = r;
	return CKR_OK;
}

/* PSS and OAEP parameters [PKCS#11 3.2 §6.1.4, §6.1.7]. */
static CK_RV
init(struct vg_session *s, const struct vg_mech *row, const CK_MECHANISM *m)
{
	struct rsa_params *r;
	CK_RV rv;
	int h, g;

	if (row->type == CKM_RSA_PKCS_OAEP) {
		rv = oaep_params(m, &r);
		if (rv != CKR_OK)
			return rv;
		h = (int)r->halg;
		g = (int)r->mgf;
	} else if (row->vflags & VG_MECH_PSS) {
		const CK_RSA_PKCS_PSS_PARAMS *p = m->pParameter;

		if (p == NULL || m->ulParameterLen != sizeof(*p))
			return CKR_MECHANISM_PARAM_INVALID;
		h = hash_of_mech(p->hashAlg);
		g = hash_of_mgf(p->mgf);
		/* hash-then-sign: the parameter's hash must be the
		 * mechanism's [PKCS#11 3.2 §6.1.6]; the salt must fit the
		 * encoded message, emLen >= hLen + sLen + 2 with emLen the
		 * bytes of modBits - 1 [RFC 8017 §9.1.1], or C_Sign would
		 * fail after the operation began. */
		if (h < 0 || g < 0 || (row->hash >= 0 && h != row->hash) ||
		    p->sLen > (s->op_key->bits + 6) / 8 ||
		    p->sLen + vg_hash_len((enum vg_hash_alg)h) + 2 >
		    (s->op_key->bits + 6) / 8)
			return CKR_MECHANISM_PARAM_INVALID;
		r = malloc(sizeof(*r));
		if (r == NULL)
			return CKR_HOST_MEMORY;
		r->llen = 0;
		r->slen = p->sLen;
	} else {
		return m->ulParameterLen == 0 ? CKR_OK
					      : CKR_MECHANISM_PARAM_INVALID;
	}
	r->halg = (enum vg_hash_alg)h;
	r->mgf = (enum vg_hash_alg)g;
	s->op_state = r;
	s->op_state_free = params_free;
	return CKR_OK;
}

static CK_ULONG
out_len(const struct vg_session *s, CK_ULONG inlen)
{
	const struct rsa_key *k = s->op_key->impl;

	(void)inlen;
	return (CK_ULONG)k->pub.len;
}

/* The private-key operations, each on a lane of the key. */
static CK_RV
private_op(struct vg_session *s, const struct vg_mech *row,
    const uint8_t *in, size_t len, uint8_t *out, CK_ULONG *outlen)
{
	struct rsa_key *rk = s->op_key->impl;
	const struct rsa_params *r = s->op_state;
	size_t klen = rk->pub.len, n = 0;
	struct rsa_lane *k = lane_take(rk);
	uint8_t *buf = NULL;
	enum vg_err e = VG_OK;

	if (k == NULL)
		return CKR_KEY_TYPE_INCONSISTENT;
	if (s->op == VG_OP_DECRYPT && len != klen) {
		/* Every ciphertext is one modulus long; this also keeps an
		 * empty input (no buffer at all) from the decoders. */
		e = VG_ERR_LENGTH;
	} else if (s->op == VG_OP_DECRYPT) {
		if (row->type == CKM_RSA_X_509)
			e = len == klen ? vg_rsa_private(&k->key, out, in, len,
			    &k->rng) : VG_ERR_LENGTH;
		else if (row->type == CKM_RSA_PKCS_OAEP)
			e = vg_rsa_oaep_decrypt(&k->key, r->halg, r->mgf,
			    r->label, r->llen, in, len, out, klen, &n, &k->rng);
		else
			e = vg_rsa_pkcs1_decrypt(&k->key, in, len, out, klen,
			    &n, &k->rng);
		if (row->type == CKM_RSA_X_509)
			n = klen;
	} else if (row->type == CKM_RSA_X_509) {
		/* Raw: the input as a number, zeros on the left. */
		buf = calloc(1, klen);
		if (buf == NULL || len > klen) {
			e = buf == NULL ? VG_ERR_NOMEM : VG_ERR_LENGTH;
		} else {
			memcpy(buf + klen - len, in, len);
			e = vg_rsa_private(&k->key, out, buf, klen, &k->rng);
		}
		n = klen;
	} else if (row->vflags & VG_MECH_PSS) {
		e = len == vg_hash_len(r->halg) ? vg_rsa_pss_sign(&k->key,
		    r->halg, r->mgf, r->slen, in, len, out, klen, &k->rng)
						: VG_ERR_LENGTH;
		n = klen;
	} else {
		e = vg_rsa_pkcs1_sign(&k->key, row->hash >= 0
		    ? (enum vg_hash_alg)row->hash : VG_HASH_COUNT, in, len, out,
		    klen, &k->rng);
		n = klen;
	}
	lane_give(k);
	free(buf);
	if (e == VG_OK) {
		*outlen = n;
		return CKR_OK;
	}
	if (s->op == VG_OP_DECRYPT)
		return e == VG_ERR_LENGTH ? CKR_ENCRYPTED_DATA_LEN_RANGE
					  : CKR_ENCRYPTED_DATA_INVALID;
	return e == VG_ERR_LENGTH ? CKR_DATA_LEN_RANGE : CKR_FUNCTION_FAILED;
}

static CK_RV
run(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	const struct vg_mech *row = vg_mech_find(s->op_mech);
	struct rsa_key *k = s->op_key->impl;
	const struct rsa_params *r = s->op_state;
	size_t klen = k->pub.len;
	enum vg_err e;

	if (s->op != VG_OP_ENCRYPT)
		return private_op(s, row, in, len, out, outlen);
	if (row->type == CKM_RSA_X_509) {
		uint8_t *buf = calloc(1, klen);

		if (buf == NULL)
			return CKR_HOST_MEMORY;
		if (len > klen) {
			e = VG_ERR_LENGTH;
		} else {
			memcpy(buf + klen - len, in, len);
			e = vg_rsa_public(&k->pub, out, buf, klen);
		}
		vg_wipe(buf, klen);
		free(buf);
	} else {
		/* Encryption needs random padding: the key's generator,
		 * under the key's lock. */
		vg_mutex_lock(&k->lock);
		e = row->type == CKM_RSA_PKCS_OAEP
		    ? vg_rsa_oaep_encrypt(&k->pub, r->halg, r->mgf, r->label,
			r->llen, in, len, out, klen, &k->rng)
		    : vg_rsa_pkcs1_encrypt(&k->pub, in, len, out, klen,
			&k->rng);
		vg_mutex_unlock(&k->lock);
	}
	if (e != VG_OK)
		return e == VG_ERR_LENGTH || e == VG_ERR_ARG
		    ? CKR_DATA_LEN_RANGE : CKR_FUNCTION_FAILED;
	*outlen = klen;
	return CKR_OK;
}

static CK_RV
verify(struct vg_session *s, const uint8_t *in, size_t len,
    const uint8_t *sig, size_t siglen)
{
	const struct vg_mech *row = vg_mech_find(s->op_mech);
	const struct rsa_key *k = s->op_key->impl;
	const struct rsa_params *r = s->op_state;
	size_t klen = k->pub.len;
	enum vg_err e;

	if (siglen != klen)
		return CKR_SIGNATURE_LEN_RANGE;
	if (row->type == CKM_RSA_X_509) {
		uint8_t *m = malloc(klen), *want = calloc(1, klen);

		e = VG_ERR_NOMEM;
		if (m != NULL && want != NULL && len <= klen) {
			memcpy(want + klen - len, in, len);
			e = vg_rsa_public(&k->pub, m, sig, klen);
			if (e == VG_OK && memcmp(m, want, klen) != 0)
				e = VG_ERR_AUTH;
		} else if (len > klen) {
			e = VG_ERR_AUTH;
		}
		free(m);
		free(want);
	} else if (row->vflags & VG_MECH_PSS) {
		e = len == vg_hash_len(r->halg) ? vg_rsa_pss_verify(&k->pub,
		    r->halg, r->mgf, r->slen, in, len, sig, siglen)
						: VG_ERR_AUTH;
	} else {
		e = vg_rsa_pkcs1_verify(&k->pub, row->hash >= 0
		    ? (enum vg_hash_alg)row->hash : VG_HASH_COUNT, in, len, sig,
		    siglen);
	}
	if (e == VG_ERR_NOMEM)
		return CKR_HOST_MEMORY;
	return e == VG_OK ? CKR_OK : CKR_SIGNATURE_INVALID;
}

/* ------------------------------------------------------ key wrapping */

/*
 * CKM_RSA_PKCS_OAEP wraps secret keys [PKCS#11 3.2 §6.1.7]: the value is
 * encrypted with the public key and decrypted with the private one, with
 * the parameters of encryption.
 */
static CK_RV
oaep_wrap_params(const struct vg_mech *row, const CK_MECHANISM *m)
{
	struct rsa_params *r;
	CK_RV rv = oaep_params(m, &r);

	(void)row;
	params_free(r);
	return rv;
}

/* The modulus' length; mLen <= k - 2 hLen - 2 [RFC 8017 §7.1.1]. */
static CK_RV
oaep_wrapped_len(const struct vg_mech *row, const CK_MECHANISM *m,
    const struct vg_key *k, size_t len, CK_ULONG *out)
{
	const CK_RSA_PKCS_OAEP_PARAMS *p = m->pParameter;
	const struct rsa_key *rk = k->impl;
	size_t hlen = vg_hash_len((enum vg_hash_alg)hash_of_mech(p->hashAlg));

	(void)row;
	if (rk->pub.len < 2 * hlen + 2 || len > rk->pub.len - 2 * hlen - 2)
		return CKR_KEY_SIZE_RANGE;
	*out = rk->pub.len;
	return CKR_OK;
}

static CK_RV
oaep_wrap(const struct vg_mech *row, const CK_MECHANISM *m,
    struct vg_key *k, const uint8_t *in, size_t len, uint8_t *out)
{
	struct rsa_key *rk = k->impl;
	struct rsa_params *r;
	enum vg_err e;
	CK_RV rv;

	(void)row;
	rv = oaep_params(m, &r);
	if (rv != CKR_OK)
		return rv;
	/* the key's generator, under the key's lock, as for C_Encrypt */
	vg_mutex_lock(&rk->lock);
	e = vg_rsa_oaep_encrypt(&rk->pub, r->halg, r->mgf, r->label, r->llen,
	    in, len, out, rk->pub.len, &rk->rng);
	vg_mutex_unlock(&rk->lock);
	params_free(r);
	if (e == VG_ERR_LENGTH || e == VG_ERR_ARG)
		return CKR_KEY_SIZE_RANGE;
	return e == VG_OK ? CKR_OK : CKR_FUNCTION_FAILED;
}

/* Every failure of the decoding is one result after the same work
 * (crypto/rsa.h: no Manger oracle). */
static CK_RV
oaep_unwrap(const struct vg_mech *row, const CK_MECHANISM *m,
    struct vg_key *k, const uint8_t *in, size_t len, uint8_t *out,
    size_t *outlen)
{
	struct rsa_key *rk = k->impl;
	struct rsa_params *r = NULL;
	struct rsa_lane *l = NULL;
	enum vg_err e = VG_ERR_DECODE;
	CK_RV rv;

	(void)row;
	*outlen = 0;
	if (len != rk->pub.len)
		return CKR_WRAPPED_KEY_LEN_RANGE;
	rv = oaep_params(m, &r);
	if (rv == CKR_OK) {
		l = lane_take(rk);
		if (l == NULL)
			rv = CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT;
	}
	if (rv == CKR_OK) {
		e = vg_rsa_oaep_decrypt(&l->key, r->halg, r->mgf, r->label,
		    r->llen, in, len, out, len, outlen, &l->rng);
		lane_give(l);
		if (e == VG_ERR_NOMEM)
			rv = CKR_HOST_MEMORY;
		else if (e != VG_OK)
			rv = CKR_WRAPPED_KEY_INVALID;
	}
	if (rv != CKR_OK) {
		vg_wipe(out, len);
		*outlen = 0;
	}
	params_free(r);
	return rv;
}

static const struct vg_wrap_ops rsa_wrap = {
	.params = oaep_wrap_params,
	.wrapped_len = oaep_wrapped_len,
	.wrap = oaep_wrap,
	.unwrap = oaep_unwrap,
};

const struct vg_mech_ops vg_rsa_ops = {
	.load = load,
	.init = init,
	.out_len = out_len,
	.run = run,
	.verify = verify,
	.wrap = &rsa_wrap,
};

/* ------------------------------------------------------ key generation */

static CK_RV
rsa_generate_pair(struct vg_session *s, const CK_MECHANISM *m,
    const CK_ATTRIBUTE *pubt, CK_ULONG npub, const CK_ATTRIBUTE *privt,
    CK_ULONG npriv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv)
{
	static const uint8_t f4[] = { 0x01, 0x00, 0x01 };
	struct vg_object *pub = NULL, *priv = NULL;
	struct vg_rsa_key_bytes *kb = NULL;
	struct vg_der_rsa_priv v;
	const struct vg_attr *ea;
	CK_ULONG bits;
	uint64_t e = 0;
	struct vg_rng rng;
	size_t i;
	CK_RV rv;

	if (m->ulParameterLen != 0)
		return CKR_MECHANISM_PARAM_INVALID;
	rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, CKK_RSA,
	    m->mechanism, pubt, npub, &pub);
	if (rv == CKR_OK)
		rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_PRIVATE_KEY,
		    CKK_RSA, m->mechanism, privt, npriv, &priv);
	if (rv != CKR_OK)
		goto out;
	bits = vg_object_ulong(pub, CKA_MODULUS_BITS, 0);
	if (bits != 2048 && bits != 3072 && bits != 4096) {
		rv = CKR_KEY_SIZE_RANGE;
		goto out;
	}
	ea = vg_object_attr(pub, CKA_PUBLIC_EXPONENT);
	if (ea == NULL || ea->len == 0) {
		rv = vg_object_set_attr(pub, CKA_PUBLIC_EXPONENT, f4,
		    sizeof(f4));
		ea = vg_object_attr(pub, CKA_PUBLIC_EXPONENT);
	}
	for (i = 0; rv == CKR_OK && i < ea->len; i++) {
		if (e >> 56)
			rv = CKR_ATTRIBUTE_VALUE_INVALID;
		e = e << 8 | ((const uint8_t *)ea->value)[i];
	}
	/* Odd and at least 65537, as FIPS 186-5 asks. */
	if (rv == CKR_OK && (e < 65537 || !(e & 1)))
		rv = CKR_ATTRIBUTE_VALUE_INVALID;
	kb = calloc(1, sizeof(*kb));
	if (rv == CKR_OK && kb == NULL)
		rv = CKR_HOST_MEMORY;
	if (rv == CKR_OK && vg_rng_init(&rng) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	if (rv != CKR_OK)
		goto out;
	if (vg_rsa_keygen(kb, (unsigned)bits, e, &rng) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_rng_wipe(&rng);
	if (rv != CKR_OK)
		goto out;
	vg_rsa_key_bytes_view(kb, &v);
	{
		const struct {
			struct vg_object *o;
			CK_ATTRIBUTE_TYPE t;
			const struct vg_der *d;
		} set[] = {
			{ pub, CKA_MODULUS, &v.n },
			{ priv, CKA_MODULUS, &v.n },
			{ priv, CKA_PUBLIC_EXPONENT, &v.e },
			{ priv, CKA_PRIVATE_EXPONENT, &v.d },
			{ priv, CKA_PRIME_1, &v.p },
			{ priv, CKA_PRIME_2, &v.q },
			{ priv, CKA_EXPONENT_1, &v.dp },
			{ priv, CKA_EXPONENT_2, &v.dq },
			{ priv, CKA_COEFFICIENT, &v.qinv },
		};

		for (i = 0; rv == CKR_OK && i < sizeof(set) / sizeof(set[0]);
		    i++)
			rv = vg_object_set_attr(set[i].o, set[i].t,
			    set[i].d->p, set[i].d->len);
	}
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
	if (kb != NULL) {
		vg_wipe(kb, sizeof(*kb));
		free(kb);
	}
	vg_object_free(pub);
	vg_object_free(priv);
	return rv;
}

const struct vg_mech_ops vg_rsa_keygen_ops = {
	.generate_pair = rsa_generate_pair,
};
