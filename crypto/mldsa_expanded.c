/*
 * ML-DSA keys in expanded form (crypto/mldsa.h): the per-key part of
 * Sign_internal and Verify_internal [FIPS 204 Alg. 7 lines 1-5, Alg. 8
 * lines 1-9] done once, so that a key store can keep it with the loaded
 * key. Signing and verification themselves are in mldsa_sign.c; the
 * functions given an encoded key run through the same code with the
 * expansion on the stack, which is what makes the signatures identical.
 */
#include "config.h"

#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/mldsa_int.h"

static const struct vg_mldsa_kernels *
kernels(void)
{
	return &vg_kernels()->mldsa;
}

/* see crypto/mldsa.h */
size_t
vg_mldsa_expanded_size(enum vg_mldsa_param p)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);

	return pp != NULL ? sizeof(struct vg_mldsa_expanded) +
	    VG_MLDSA_EXP_POLYS(pp) * sizeof(struct vg_mldsa_poly) : 0;
}

/* see crypto/mldsa.h */
size_t
vg_mldsa_expanded_pk_size(enum vg_mldsa_param p)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);

	return pp != NULL ? sizeof(struct vg_mldsa_expanded_pk) +
	    VG_MLDSA_EXPK_POLYS(pp) * sizeof(struct vg_mldsa_poly) : 0;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_expand_sk_k(const struct vg_mldsa_kernels *k, enum vg_mldsa_param p,
    const uint8_t *sk, size_t sklen, struct vg_mldsa_expanded *e,
    size_t esize)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);
	struct vg_mldsa_poly *s, *t0;
	enum vg_err rv = VG_OK;
	uint8_t rho[32];
	unsigned i;
	uint32_t ok;

	if (pp == NULL || e == NULL || (sk == NULL && sklen != 0) ||
	    esize < vg_mldsa_expanded_size(p))
		return VG_ERR_ARG;
	if (sklen != pp->sk_len) {
		rv = VG_ERR_DECODE;
		goto out;
	}
	s = VG_MLDSA_EXP_S(e, pp);
	t0 = VG_MLDSA_EXP_T0(e, pp);
	memcpy(rho, sk, 32);
	VG_MLDSA_DECLASSIFY(rho, 32); /* rho is public */
	ok = vg_mldsa_unpack_sk_vectors(pp, s, t0, sk);
	VG_MLDSA_DECLASSIFY(&ok, sizeof(ok));
	if (!ok) {
		rv = VG_ERR_DECODE;
		goto out;
	}
	e->p = p;
	memcpy(e->key, sk + 32, sizeof(e->key));
	memcpy(e->tr, sk + 64, sizeof(e->tr));
	vg_mldsa_expand_a(k, pp, VG_MLDSA_EXP_A(e, pp), rho);
	for (i = 0; i < (unsigned)pp->l + pp->k; i++)
		k->ntt(s[i].c);
	for (i = 0; i < pp->k; i++)
		k->ntt(t0[i].c);
out:
	if (rv != VG_OK)
		vg_wipe(e, vg_mldsa_expanded_size(p));
	return rv;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_expand_sk(enum vg_mldsa_param p, const uint8_t *sk, size_t sklen,
    struct vg_mldsa_expanded *e, size_t esize)
{
	return vg_mldsa_expand_sk_k(kernels(), p, sk, sklen, e, esize);
}

/* see crypto/mldsa.h */
enum vg_mldsa_param
vg_mldsa_expanded_param(const struct vg_mldsa_expanded *e)
{
	return e->p;
}

/* see crypto/mldsa.h */
const uint8_t *
vg_mldsa_expanded_tr(const struct vg_mldsa_expanded *e)
{
	return e->tr;
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_expand_pk_polys(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_expanded_pk *e,
    const uint8_t *pk)
{
	struct vg_mldsa_poly *t1 = VG_MLDSA_EXPK_T1(e, pp);
	unsigned i, j;

	vg_mldsa_expand_a(k, pp, e->v, pk);
	for (i = 0; i < pp->k; i++) {
		vg_mldsa_unpack_t1(&t1[i], pk + 32 + i * VG_MLDSA_T1_BYTES);
		for (j = 0; j < VG_MLDSA_N; j++)
			t1[i].c[j] <<= VG_MLDSA_D;
		k->ntt(t1[i].c);
	}
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_expand_pk_k(const struct vg_mldsa_kernels *k, enum vg_mldsa_param p,
    const uint8_t *pk, size_t pklen, struct vg_mldsa_expanded_pk *e,
    size_t esize)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);

	if (pp == NULL || e == NULL || (pk == NULL && pklen != 0) ||
	    esize < vg_mldsa_expanded_pk_size(p))
		return VG_ERR_ARG;
	if (pklen != pp->pk_len)
		return VG_ERR_DECODE;
	e->p = p;
	vg_shake256(e->tr, sizeof(e->tr), pk, pklen);
	vg_mldsa_expand_pk_polys(k, pp, e, pk);
	return VG_OK;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_expand_pk(enum vg_mldsa_param p, const uint8_t *pk, size_t pklen,
    struct vg_mldsa_expanded_pk *e, size_t esize)
{
	return vg_mldsa_expand_pk_k(kernels(), p, pk, pklen, e, esize);
}

/* see crypto/mldsa.h */
enum vg_mldsa_param
vg_mldsa_expanded_pk_param(const struct vg_mldsa_expanded_pk *e)
{
	return e->p;
}

/* ------------------------------------------------------------ sign */

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign_mu_expanded_k(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_expanded *e, const uint8_t mu[VG_MLDSA_MU_LEN],
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig)
{
	const struct vg_mldsa_params *pp;

	if (e == NULL || (pp = vg_mldsa_params(e->p)) == NULL || sig == NULL)
		return VG_ERR_ARG;
	if (mu == NULL || rnd == NULL) {
		vg_wipe(sig, pp->sig_len);
		return VG_ERR_ARG;
	}
	return vg_mldsa_sign_core(k, pp, e, mu, rnd, sig);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign_mu_expanded(const struct vg_mldsa_expanded *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig)
{
	return vg_mldsa_sign_mu_expanded_k(kernels(), e, mu, rnd, sig);
}

/*
 * mu of ML-DSA (ph < 0, data is the message) or HashML-DSA (data is the
 * digest PH(M)) over tr and M' [FIPS 204 Alg. 2, 4]. Returns as
 * vg_mldsa_mu_init / vg_mldsa_mu_init_hash.
 */
static enum vg_err
mu_of(const uint8_t tr[VG_MLDSA_TR_LEN], int ph, const uint8_t *data,
    size_t dlen, const void *ctx, size_t ctxlen, uint8_t mu[VG_MLDSA_MU_LEN])
{
	struct vg_mldsa_mu m;
	enum vg_err rv;

	if (data == NULL && dlen != 0)
		return VG_ERR_ARG;
	if (ph < 0) {
		rv = vg_mldsa_mu_init(&m, tr, ctx, ctxlen);
		if (rv == VG_OK)
			vg_mldsa_mu_update(&m, data, dlen);
	} else {
		rv = vg_mldsa_mu_init_hash(&m, tr, (enum vg_mldsa_ph)ph, data,
		    dlen, ctx, ctxlen);
	}
	if (rv == VG_OK)
		vg_mldsa_mu_final(&m, mu);
	return rv;
}

/* Sign of ML-DSA or HashML-DSA (as mu_of) with an expanded key; sig is
 * wiped on every error. */
static enum vg_err
sign_common(const struct vg_mldsa_expanded *e, int ph, const uint8_t *data,
    size_t dlen, const void *ctx, size_t ctxlen,
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig)
{
	const struct vg_mldsa_params *pp;
	uint8_t mu[VG_MLDSA_MU_LEN];
	enum vg_err rv;

	if (e == NULL || (pp = vg_mldsa_params(e->p)) == NULL || sig == NULL)
		return VG_ERR_ARG;
	rv = rnd == NULL || ph >= VG_MLDSA_PH_COUNT ? VG_ERR_ARG
	    : mu_of(e->tr, ph, data, dlen, ctx, ctxlen, mu);
	if (rv == VG_OK)
		rv = vg_mldsa_sign_core(kernels(), pp, e, mu, rnd, sig);
	else
		vg_wipe(sig, pp->sig_len);
	return rv;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign_expanded(const struct vg_mldsa_expanded *e, const void *msg,
    size_t mlen, const void *ctx, size_t ctxlen,
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig)
{
	return sign_common(e, -1, msg, mlen, ctx, ctxlen, rnd, sig);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign_hash_expanded(const struct vg_mldsa_expanded *e,
    enum vg_mldsa_ph ph, const uint8_t *digest, size_t dlen,
    const void *ctx, size_t ctxlen, const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig)
{
	int i = (unsigned)ph < VG_MLDSA_PH_COUNT ? (int)ph : VG_MLDSA_PH_COUNT;

	return sign_common(e, i, digest, dlen, ctx, ctxlen, rnd, sig);
}

/* ------------------------------------------------------------ verify */

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify_mu_expanded_k(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_expanded_pk *e, const uint8_t mu[VG_MLDSA_MU_LEN],
    const uint8_t *sig, size_t siglen)
{
	const struct vg_mldsa_params *pp;

	if (e == NULL || (pp = vg_mldsa_params(e->p)) == NULL || mu == NULL ||
	    (sig == NULL && siglen != 0))
		return VG_ERR_ARG;
	if (siglen != pp->sig_len)
		return VG_ERR_LENGTH;
	return vg_mldsa_verify_core(k, pp, e, mu, sig);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify_mu_expanded(const struct vg_mldsa_expanded_pk *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t *sig, size_t siglen)
{
	return vg_mldsa_verify_mu_expanded_k(kernels(), e, mu, sig, siglen);
}

/* Verify of ML-DSA or HashML-DSA (as mu_of) with an expanded key. */
static enum vg_err
verify_common(const struct vg_mldsa_expanded_pk *e, int ph,
    const uint8_t *data, size_t dlen, const void *ctx, size_t ctxlen,
    const uint8_t *sig, size_t siglen)
{
	const struct vg_mldsa_params *pp;
	uint8_t mu[VG_MLDSA_MU_LEN];
	enum vg_err rv;

	if (e == NULL || (pp = vg_mldsa_params(e->p)) == NULL ||
	    (sig == NULL && siglen != 0) || ph >= VG_MLDSA_PH_COUNT)
		return VG_ERR_ARG;
	if (siglen != pp->sig_len)
		return VG_ERR_LENGTH;
	rv = mu_of(e->tr, ph, data, dlen, ctx, ctxlen, mu);
	if (rv == VG_OK)
		rv = vg_mldsa_verify_core(kernels(), pp, e, mu, sig);
	return rv;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify_expanded(const struct vg_mldsa_expanded_pk *e,
    const void *msg, size_t mlen, const void *ctx, size_t ctxlen,
    const uint8_t *sig, size_t siglen)
{
	return verify_common(e, -1, msg, mlen, ctx, ctxlen, sig, siglen);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify_hash_expanded(const struct vg_mldsa_expanded_pk *e,
    enum vg_mldsa_ph ph, const uint8_t *digest, size_t dlen,
    const void *ctx, size_t ctxlen, const uint8_t *sig, size_t siglen)
{
	int i = (unsigned)ph < VG_MLDSA_PH_COUNT ? (int)ph : VG_MLDSA_PH_COUNT;

	return verify_common(e, i, digest, dlen, ctx, ctxlen, sig, siglen);
}
