/*
 * ML-DSA key generation, signing and verification: KeyGen_internal,
 * Sign_internal and Verify_internal [FIPS 204 Alg. 6, 7, 8] on an explicit
 * kernel table, and the check of an expanded private key.
 *
 * Signing and verification run on the expanded form of the key
 * (crypto/mldsa_expanded.c): the matrix A in the NTT domain (K x L
 * polynomials, 56 KiB for ML-DSA-87) and, for signing, NTT(s1), NTT(s2)
 * and NTT(t0); for verification NTT(t1 * 2^d). The functions given an
 * encoded key expand it on the stack for the one operation. Workspaces
 * live on the stack and are wiped on every exit.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/hash.h"
#include "crypto/mldsa_int.h"

typedef struct vg_mldsa_poly poly;

/* c = a + b, coefficient-wise (no reduction). */
static void
poly_add(poly *c, const poly *a, const poly *b)
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N; i++)
		c->c[i] = a->c[i] + b->c[i];
}

/* H(in1 || in2 || in3) with SHAKE256, outlen bytes. */
static void
shake256_3(uint8_t *out, size_t outlen, const void *in1, size_t len1,
    const void *in2, size_t len2, const void *in3, size_t len3)
{
	struct vg_shake x;

	vg_shake256_init(&x);
	vg_shake_absorb(&x, in1, len1);
	vg_shake_absorb(&x, in2, len2);
	vg_shake_absorb(&x, in3, len3);
	vg_shake_squeeze(&x, out, outlen);
	vg_shake_wipe(&x);
}

/* ------------------------------------------------------------ KeyGen */

/* Secrets of key generation (wiped); the matrix A is public and kept
 * apart. */
struct keygen_ws {
	poly s[VG_MLDSA_L_MAX + VG_MLDSA_K_MAX]; /* s1 then s2 */
	poly s1hat[VG_MLDSA_L_MAX];
	poly t, t1, t0;
	uint8_t seed[128]; /* rho, rho', K */
	uint8_t tr[VG_MLDSA_TR_LEN];
	uint8_t t0b[VG_MLDSA_T0_BYTES];
};

/* Wipes what p used of w (the arrays are sized for ML-DSA-87). */
static void
keygen_ws_wipe(const struct vg_mldsa_params *pp, struct keygen_ws *w)
{
	vg_wipe(w->s, ((size_t)pp->l + pp->k) * sizeof(poly));
	vg_wipe(w->s1hat, (size_t)pp->l * sizeof(poly));
	vg_wipe(&w->t, offsetof(struct keygen_ws, t0b) + sizeof(w->t0b) -
	    offsetof(struct keygen_ws, t));
}

/*
 * pk = rho || t1 and the t0 part of sk from t = NTT^-1(A o NTT(s1)) + s2,
 * row by row [FIPS 204 Alg. 6 lines 5-7]. The packed t0 goes to t0_out
 * or, when t0_out is NULL, is compared with t0_ref: returns all-ones if
 * every row matches. CT: no branch on secrets.
 */
static uint32_t
compute_t(const struct vg_mldsa_kernels *k, const struct vg_mldsa_params *pp,
    const poly *a, struct keygen_ws *w, uint8_t *pk, uint8_t *t0_out,
    const uint8_t *t0_ref)
{
	uint32_t same = 0xffffffffu;
	unsigned i, j;

	for (j = 0; j < pp->l; j++) {
		w->s1hat[j] = w->s[j];
		k->ntt(w->s1hat[j].c);
	}
	memcpy(pk, w->seed, 32);
	for (i = 0; i < pp->k; i++) {
		k->pointwise_acc(w->t.c, a[i * pp->l].c, w->s1hat[0].c, pp->l);
		k->invntt(w->t.c);
		/* |t| < q: the inverse NTT's output is below 6.2e6 */
		poly_add(&w->t, &w->t, &w->s[pp->l + i]);
		k->power2round(w->t1.c, w->t0.c, w->t.c);
		vg_mldsa_pack_t1(pk + 32 + i * VG_MLDSA_T1_BYTES, &w->t1);
		if (t0_out != NULL) {
			vg_mldsa_pack_t0(t0_out + i * VG_MLDSA_T0_BYTES, &w->t0);
		} else {
			vg_mldsa_pack_t0(w->t0b, &w->t0);
			same &= vg_ct_memeq(w->t0b,
			    t0_ref + i * VG_MLDSA_T0_BYTES, VG_MLDSA_T0_BYTES);
		}
	}
	return same;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_keygen_internal_k(const struct vg_mldsa_kernels *k,
    enum vg_mldsa_param p, const uint8_t xi[VG_MLDSA_SEED_LEN], uint8_t *pk,
    uint8_t *sk)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);
	poly a[VG_MLDSA_K_MAX * VG_MLDSA_L_MAX];
	struct keygen_ws w;
	uint8_t kl[2];

	if (pp == NULL || xi == NULL || pk == NULL || sk == NULL)
		return VG_ERR_ARG;
	/* (rho, rho', K) = H(xi || k || l, 128) */
	kl[0] = pp->k;
	kl[1] = pp->l;
	shake256_3(w.seed, 128, xi, VG_MLDSA_SEED_LEN, kl, 2, NULL, 0);
	VG_MLDSA_DECLASSIFY(w.seed, 32); /* rho is public */
	vg_mldsa_expand_a(k, pp, a, w.seed);
	vg_mldsa_expand_s(k, pp, w.s, w.seed + 32);
	compute_t(k, pp, a, &w, pk, sk + VG_MLDSA_SK_T0_OFF(pp), NULL);
	vg_shake256(w.tr, sizeof(w.tr), pk, pp->pk_len);
	vg_mldsa_pack_sk_head(pp, sk, w.seed, w.seed + 96, w.tr, w.s);
	keygen_ws_wipe(pp, &w);
	return VG_OK;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sk_to_pk_k(const struct vg_mldsa_kernels *k, enum vg_mldsa_param p,
    const uint8_t *sk, size_t sklen, uint8_t *pk)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);
	uint8_t pkbuf[VG_MLDSA_MAX_PK_LEN];
	poly a[VG_MLDSA_K_MAX * VG_MLDSA_L_MAX];
	struct keygen_ws w;
	enum vg_err rv = VG_OK;
	uint32_t ok;

	if (pp == NULL || (sk == NULL && sklen != 0))
		return VG_ERR_ARG;
	if (sklen != pp->sk_len)
		return VG_ERR_DECODE;
	memcpy(w.seed, sk, 32);
	VG_MLDSA_DECLASSIFY(w.seed, 32); /* rho is public */
	ok = vg_mldsa_unpack_sk_vectors(pp, w.s, a, sk); /* t0 unused */
	VG_MLDSA_DECLASSIFY(&ok, sizeof(ok));
	if (!ok) {
		rv = VG_ERR_DECODE;
		goto out;
	}
	vg_mldsa_expand_a(k, pp, a, w.seed);
	ok = compute_t(k, pp, a, &w, pkbuf, NULL, sk + VG_MLDSA_SK_T0_OFF(pp));
	vg_shake256(w.tr, sizeof(w.tr), pkbuf, pp->pk_len);
	ok &= vg_ct_memeq(w.tr, sk + 64, VG_MLDSA_TR_LEN);
	VG_MLDSA_DECLASSIFY(&ok, sizeof(ok));
	if (!ok)
		rv = VG_ERR_DECODE;
	else if (pk != NULL)
		memcpy(pk, pkbuf, pp->pk_len);
out:
	keygen_ws_wipe(pp, &w);
	vg_wipe(a, (size_t)pp->k * sizeof(a[0])); /* held t0 */
	return rv;
}

/* ------------------------------------------------------------ Sign */

/* Secrets of one signature (wiped); the key is in the expanded form. */
struct sign_ws {
	poly y[VG_MLDSA_L_MAX];                  /* y, then z */
	poly yhat[VG_MLDSA_L_MAX];
	poly w1[VG_MLDSA_K_MAX];
	poly w0[VG_MLDSA_K_MAX];                 /* w0, then the hints */
	poly c, t, u;
	uint8_t rhopp[VG_MLDSA_CRH_LEN];         /* rho'' */
	uint8_t w1b[VG_MLDSA_K_MAX * VG_MLDSA_W1_MAX_BYTES];
	uint8_t ctilde[VG_MLDSA_CTILDE_MAX];
};

/* Wipes what p used of w. */
static void
sign_ws_wipe(const struct vg_mldsa_params *pp, struct sign_ws *w)
{
	size_t k = pp->k, l = pp->l;

	vg_wipe(w->y, l * sizeof(poly));
	vg_wipe(w->yhat, l * sizeof(poly));
	vg_wipe(w->w1, k * sizeof(poly));
	vg_wipe(w->w0, k * sizeof(poly));
	vg_wipe(&w->c, offsetof(struct sign_ws, ctilde) + sizeof(w->ctilde) -
	    offsetof(struct sign_ws, c));
}

/* Computes w = NTT^-1(A o NTT(y)) and its decomposition, packs
 * w1 and returns c~ = H(mu || w1Encode(w1)) in w->ctilde. */
static void
sign_commit(const struct vg_mldsa_kernels *k, const struct vg_mldsa_params *pp,
    const poly *a, struct sign_ws *w, const uint8_t mu[VG_MLDSA_MU_LEN])
{
	unsigned i;

	for (i = 0; i < pp->l; i++) {
		w->yhat[i] = w->y[i];
		k->ntt(w->yhat[i].c);
	}
	for (i = 0; i < pp->k; i++) {
		k->pointwise_acc(w->t.c, a[i * pp->l].c, w->yhat[0].c, pp->l);
		k->invntt(w->t.c);
		k->decompose(w->w1[i].c, w->w0[i].c, w->t.c, pp->gamma2);
		k->w1_pack(w->w1b + i * pp->w1_bytes, w->w1[i].c, pp->gamma2);
	}
	shake256_3(w->ctilde, pp->ctilde_len, mu, VG_MLDSA_MU_LEN, w->w1b,
	    (size_t)pp->k * pp->w1_bytes, NULL, 0);
}

/* NTT^-1(chat o shat), in (-q, q). */
static void
mul_c(const struct vg_mldsa_kernels *k, poly *r, const poly *chat,
    const poly *shat)
{
	k->pointwise(r->c, chat->c, shat->c);
	k->invntt(r->c);
}

/* Declassified: 1 if some |a_i| >= bound. */
static uint32_t
reject_norm(const struct vg_mldsa_kernels *k, const poly *a, int32_t bound)
{
	uint32_t bad = k->chknorm(a->c, bound);

	VG_MLDSA_DECLASSIFY(&bad, sizeof(bad));
	return bad;
}

/*
 * One attempt of the loop of Sign_internal [FIPS 204 Alg. 7 lines 11-31]
 * after the commitment: z = y + c s1 and the checks on z, r0 = w0 - c s2,
 * c t0 and the hints; s holds NTT(s1) then NTT(s2), t0 NTT(t0). Returns 1
 * when the candidate is rejected.
 * CT: the branches are the (declassified) outcomes of the checks.
 */
static int
sign_respond(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, const poly *s, const poly *t0,
    struct sign_ws *w)
{
	unsigned i, nh = 0, n;

	vg_mldsa_sample_in_ball(pp, &w->c, w->ctilde);
	k->ntt(w->c.c);
	for (i = 0; i < pp->l; i++) {
		mul_c(k, &w->t, &w->c, &s[i]);
		k->reduce_sum(w->y[i].c, w->y[i].c, w->t.c, 1);
		if (reject_norm(k, &w->y[i], pp->gamma1 - pp->beta))
			return 1;
	}
	for (i = 0; i < pp->k; i++) {
		/* r0 = LowBits(w - c s2) = w0 - c s2 */
		mul_c(k, &w->t, &w->c, &s[pp->l + i]);
		k->reduce_sum(w->t.c, w->w0[i].c, w->t.c, -1);
		if (reject_norm(k, &w->t, pp->gamma2 - pp->beta))
			return 1;
		mul_c(k, &w->u, &w->c, &t0[i]);
		k->reduce_sum(w->u.c, w->u.c, NULL, 0);
		if (reject_norm(k, &w->u, pp->gamma2))
			return 1;
		/* h = MakeHint(-c t0, w - c s2 + c t0), with
		 * w - c s2 = w1 * 2 gamma2 + r0 (mod q) */
		k->hint_input(w->t.c, w->u.c, w->w1[i].c, pp->gamma2);
		n = k->make_hint(w->w0[i].c, w->u.c, w->t.c, pp->gamma2);
		nh += n;
		VG_MLDSA_DECLASSIFY(&nh, sizeof(nh));
		if (nh > pp->omega)
			return 1;
	}
	return 0;
}

/* see crypto/mldsa_int.h */
enum vg_err
vg_mldsa_sign_core(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, const struct vg_mldsa_expanded *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig)
{
	const poly *a = VG_MLDSA_EXP_A(e, pp);
	const poly *s = VG_MLDSA_EXP_S(e, pp);
	const poly *t0 = VG_MLDSA_EXP_T0(e, pp);
	struct sign_ws w;
	unsigned kappa = 0;

	/* rho'' = H(K || rnd || mu, 64) */
	shake256_3(w.rhopp, sizeof(w.rhopp), e->key, 32, rnd,
	    VG_MLDSA_RND_LEN, mu, VG_MLDSA_MU_LEN);
	for (;;) {
		vg_mldsa_expand_mask(k, pp, w.y, w.rhopp, kappa);
		kappa += pp->l;
		sign_commit(k, pp, a, &w, mu);
		VG_MLDSA_DECLASSIFY(w.ctilde, pp->ctilde_len);
		if (!sign_respond(k, pp, s, t0, &w))
			break;
	}
	/* the signature is public: z and the hints (held in w0) */
	VG_MLDSA_DECLASSIFY(w.y, sizeof(w.y));
	VG_MLDSA_DECLASSIFY(w.w0, sizeof(w.w0));
	memcpy(sig, w.ctilde, pp->ctilde_len);
	vg_mldsa_pack_sig_zh(pp, sig, w.y, w.w0);
	sign_ws_wipe(pp, &w);
	return VG_OK;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign_mu_k(const struct vg_mldsa_kernels *k, enum vg_mldsa_param p,
    const uint8_t *sk, size_t sklen, const uint8_t mu[VG_MLDSA_MU_LEN],
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);
	union vg_mldsa_exp_buf b;
	enum vg_err rv;

	if (pp == NULL || sig == NULL || mu == NULL || rnd == NULL ||
	    (sk == NULL && sklen != 0))
		return VG_ERR_ARG;
	rv = vg_mldsa_expand_sk_k(k, p, sk, sklen, &b.e, sizeof(b));
	if (rv == VG_OK)
		rv = vg_mldsa_sign_core(k, pp, &b.e, mu, rnd, sig);
	else
		vg_wipe(sig, pp->sig_len);
	/* the secrets: K, tr and the key's NTTs (A-hat is public) */
	vg_wipe(&b.e, sizeof(b.e));
	vg_wipe(VG_MLDSA_EXP_S(&b.e, pp), ((size_t)pp->l + 2 * pp->k) *
	    sizeof(poly));
	return rv;
}

/* ------------------------------------------------------------ Verify */

struct verify_ws {
	poly z[VG_MLDSA_L_MAX];
	poly h[VG_MLDSA_K_MAX];
	poly c, t, w;
	uint8_t w1b[VG_MLDSA_K_MAX * VG_MLDSA_W1_MAX_BYTES];
	uint8_t ctilde[VG_MLDSA_CTILDE_MAX];
};

/* see crypto/mldsa_int.h */
enum vg_err
vg_mldsa_verify_core(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, const struct vg_mldsa_expanded_pk *e,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t *sig)
{
	const poly *a = e->v;
	const poly *t1 = VG_MLDSA_EXPK_T1(e, pp);
	struct verify_ws w;
	enum vg_err rv = VG_ERR_AUTH;
	unsigned i;

	/* sigDecode: z, with ||z|| < gamma1 - beta, and the hints */
	for (i = 0; i < pp->l; i++) {
		k->expand_mask(w.z[i].c, sig + pp->ctilde_len + i * pp->z_bytes,
		    pp->gamma1_bits);
		if (k->chknorm(w.z[i].c, pp->gamma1 - pp->beta))
			goto out;
	}
	if (vg_mldsa_unpack_hints(pp, w.h,
	    sig + pp->ctilde_len + (size_t)pp->l * pp->z_bytes) != 0)
		goto out;
	vg_mldsa_sample_in_ball(pp, &w.c, sig);
	k->ntt(w.c.c);
	for (i = 0; i < pp->l; i++)
		k->ntt(w.z[i].c);
	/* w'_approx = NTT^-1(A o NTT(z) - NTT(c) o NTT(t1 * 2^d)) */
	for (i = 0; i < pp->k; i++) {
		k->pointwise(w.t.c, w.c.c, t1[i].c);
		k->pointwise_acc(w.w.c, a[i * pp->l].c, w.z[0].c, pp->l);
		k->reduce_sum(w.w.c, w.w.c, w.t.c, -1);
		k->invntt(w.w.c);
		k->use_hint(w.w.c, w.w.c, w.h[i].c, pp->gamma2);
		k->w1_pack(w.w1b + i * pp->w1_bytes, w.w.c, pp->gamma2);
	}
	shake256_3(w.ctilde, pp->ctilde_len, mu, VG_MLDSA_MU_LEN, w.w1b,
	    (size_t)pp->k * pp->w1_bytes, NULL, 0);
	if (vg_ct_memeq(w.ctilde, sig, pp->ctilde_len))
		rv = VG_OK;
out:
	return rv;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify_mu_k(const struct vg_mldsa_kernels *k, enum vg_mldsa_param p,
    const uint8_t *pk, size_t pklen, const uint8_t mu[VG_MLDSA_MU_LEN],
    const uint8_t *sig, size_t siglen)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);
	union vg_mldsa_expk_buf b;

	if (pp == NULL || mu == NULL || (pk == NULL && pklen != 0) ||
	    (sig == NULL && siglen != 0))
		return VG_ERR_ARG;
	if (pklen != pp->pk_len)
		return VG_ERR_DECODE;
	if (siglen != pp->sig_len)
		return VG_ERR_LENGTH;
	vg_mldsa_expand_pk_polys(k, pp, &b.e, pk);
	return vg_mldsa_verify_core(k, pp, &b.e, mu, sig);
}
