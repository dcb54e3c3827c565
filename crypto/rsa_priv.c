/*
 * The RSA primitives: the public operation, and the private operation by
 * CRT with base blinding, optional exponent blinding, Garner recombination
 * and the fault check by the public exponent.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"

/* see crypto/rsa_int.h: one conditional subtraction over w + 1 words (2m
 * may need a bit above 64 w) */
void
vg_rsa52_canon(uint64_t *d, const uint64_t *x, size_t nl, const uint64_t *mod,
    size_t w)
{
	uint64_t t[VG_BN_MAX_WORDS + 1], u[VG_BN_MAX_WORDS + 1];
	uint64_t m[VG_BN_MAX_WORDS + 1];
	uint64_t br;

	vg_rsa52_to64(t, w + 1, x, nl);
	vg_bn_copy(m, mod, w);
	m[w] = 0;
	br = vg_bn_sub(u, t, m, w + 1);
	vg_bn_cmov(t, u, w, 0 - (br ^ 1));
	vg_bn_copy(d, t, w);
	vg_wipe(t, sizeof(t));
	vg_wipe(u, sizeof(u));
}

/* x = x^e mod n (x below n, n.w words) on the IFMA pair, n in both
 * halves: x R' by one AMM with R'^2, raised to e in the AMM domain
 * (square-and-multiply), out of it by an AMM with 1 (a result at most
 * n), one conditional subtraction. Public data only. */
static void
rsa52_public(const struct vg_rsa_pub *k, uint64_t *x)
{
	uint64_t a[2][VG_RSA52_MAX_LIMBS], y[2][VG_RSA52_MAX_LIMBS];
	uint64_t unit[2][VG_RSA52_MAX_LIMBS];
	const uint64_t(*const ac)[VG_RSA52_MAX_LIMBS] =
	    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])a;
	const uint64_t(*const yc)[VG_RSA52_MAX_LIMBS] =
	    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])y;
	size_t nl = k->nl52, w = k->n.w;

	vg_rsa52_from64(a[0], nl, x, w);
	memcpy(a[1], a[0], sizeof(a[0]));
	vg_bn_zero(unit[0], VG_RSA52_PAD(nl));
	unit[0][0] = 1;
	memcpy(unit[1], unit[0], sizeof(unit[0]));
	k->amm52x2(a, ac, k->g52, k->m52, k->k052, nl);
	k->powpub52x2(y, ac, k->e, k->ebits, k->m52, k->k052, nl);
	k->amm52x2(y, yc, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])unit,
	    k->m52, k->k052, nl);
	vg_rsa52_canon(x, y[0], nl, k->n.m, w);
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_public(const struct vg_rsa_pub *k, uint8_t *out, const uint8_t *in,
    size_t len)
{
	uint64_t x[VG_BN_MAX_WORDS], lt;
	size_t w = k->n.w;
	enum vg_err rv = VG_OK;

	assert(k != NULL && out != NULL && in != NULL);
	if (len != k->len)
		return VG_ERR_LENGTH;
	vg_bn_from_bytes(x, w, in, len);
	lt = vg_bn_lt_mask(x, k->n.m, w);
	VG_CT_DECLASSIFY(&lt, sizeof(lt)); /* the outcome: an error or not */
	if (!lt) {
		memset(out, 0, len);
		rv = VG_ERR_DECODE;
		goto out;
	}
	if (k->amm52x2 != NULL) {
		rsa52_public(k, x);
	} else {
		vg_bn_mont_to(&k->n, x, x);
		vg_bn_mont_exp_public(&k->n, x, x, k->e, k->ebits);
		vg_bn_mont_from(&k->n, x, x);
	}
	vg_bn_to_bytes(out, len, x, w);
out:
	vg_wipe(x, sizeof(x));
	return rv;
}

/* see crypto/rsa_int.h */
int
vg_rsa52_serves(const struct vg_rsa_kernels *kern, size_t w)
{
	return kern->modexp52x2 != NULL && kern->amm52x2 != NULL &&
	    kern->powpub52x2 != NULL && VG_RSA52_LIMBS(w) != 0 &&
	    (kern->amm52_words & VG_RSA52_WORDS_BIT(w)) != 0;
}

/* see crypto/rsa_int.h */
int
vg_rsa52_eligible(const struct vg_rsa_key *k,
    const struct vg_rsa_kernels *kern)
{
	return k->q.mont.w == k->p.mont.w &&
	    vg_rsa52_serves(kern, k->p.mont.w);
}

/* see crypto/rsa_int.h */
void
vg_rsa52_setup(struct vg_rsa_key *k)
{
	const struct vg_rsa_half *h[2] = { &k->p, &k->q };
	uint64_t t[VG_BN_MAX_WORDS];
	size_t nl = VG_RSA52_LIMBS(k->p.mont.w);
	unsigned rbits = (unsigned)(52 * nl);
	int i;

	k->c52.nl = nl;
	for (i = 0; i < 2; i++) {
		const struct vg_bn_mont *c = &h[i]->mont;
		unsigned kk = (unsigned)(h[i]->kw / c->w);

		vg_rsa52_from64(k->c52.m[i], nl, c->m, c->w);
		k->c52.k0[i] = c->m0i;
		/* R' = 2^(52 nl); the input arrives as x R^-(K-1) */
		vg_bn_mont_pow2(c, t, rbits);
		vg_rsa52_from64(k->c52.one[i], nl, t, c->w);
		vg_bn_mont_pow2(c, t,
		    2 * rbits + (unsigned)(64 * c->w) * (kk - 1));
		vg_rsa52_from64(k->c52.g[i], nl, t, c->w);
	}
	vg_wipe(t, sizeof(t));
}

/* see crypto/rsa_int.h: reduced by the 64-bit contexts to c R^-(K-1),
 * then one AMM pair by g */
void
vg_rsa52_in(const struct vg_rsa_key *k, uint64_t x[2][VG_RSA52_MAX_LIMBS],
    const uint64_t *c, size_t cn)
{
	const struct vg_rsa_half *h[2] = { &k->p, &k->q };
	const struct vg_rsa52_consts *c52 = &k->c52;
	uint64_t t[VG_BN_MAX_WORDS];
	int i;

	for (i = 0; i < 2; i++) {
		vg_bn_mont_reduce(&h[i]->mont, t, c, cn, h[i]->kw);
		vg_rsa52_from64(x[i], c52->nl, t, h[i]->mont.w);
	}
	/* AMM(x R^-(K-1), R'^2 R^(K-1)) = x R' */
	k->kern.amm52x2(x, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x, c52->g,
	    c52->m, c52->k0, c52->nl);
	vg_wipe(t, sizeof(t));
}

/* d[i] = x[i] mod p_i (vg_rsa52_canon) for both halves. */
static void
rsa52_canon(const struct vg_rsa_key *k, uint64_t *const d[2],
    const uint64_t x[2][VG_RSA52_MAX_LIMBS])
{
	const struct vg_rsa_half *h[2] = { &k->p, &k->q };
	int i;

	for (i = 0; i < 2; i++)
		vg_rsa52_canon(d[i], x[i], k->c52.nl, h[i]->mont.m,
		    h[i]->mont.w);
}

/* see crypto/rsa_int.h */
void
vg_rsa52_halves(const struct vg_rsa_key *k, uint64_t *mp, uint64_t *mq,
    uint64_t cr[2][VG_RSA52_MAX_LIMBS], const uint64_t *c,
    const uint64_t *ep, const uint64_t *eq, unsigned ebits)
{
	const struct vg_rsa52_consts *c52 = &k->c52;
	uint64_t *const res[2] = { mp, mq };
	const uint64_t *e[2] = { ep, eq };
	uint64_t x[2][VG_RSA52_MAX_LIMBS], unit[2][VG_RSA52_MAX_LIMBS];
	size_t nl = c52->nl;
	int i;

	for (i = 0; i < 2; i++) {
		vg_bn_zero(unit[i], VG_RSA52_PAD(nl));
		unit[i][0] = 1;
	}
	vg_rsa52_in(k, cr, c, k->pub.n.w);
	/* blind: c r^e R' */
	k->kern.amm52x2(x, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])cr,
	    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])k->blind52_a,
	    c52->m, c52->k0, nl);
	k->kern.modexp52x2(x, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
	    c52->one, e, ebits, c52->m, c52->k0, nl);
	/* unblind: (c r^e)^d R' = c^d r R', times r^-1 R' / R' */
	k->kern.amm52x2(x, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
	    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])k->blind52_b,
	    c52->m, c52->k0, nl);
	/* out of the domain: AMM(y, 1) <= p */
	k->kern.amm52x2(x, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
	    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])unit, c52->m, c52->k0,
	    nl);
	rsa52_canon(k, res, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x);
	vg_wipe(x, sizeof(x));
}

/*
 * The fault check on the IFMA pair: all-ones when m^e = c mod p and
 * mod q, which (n = pq, p != q prime) is m^e = c mod n; m below n
 * (k->pub.n.w words), cr = c R' mod p, q from vg_rsa52_in. m R' raised
 * to e in the AMM domain (square-and-multiply, one kernel call) gives
 * m^e R', compared with c R', both made canonical first.
 * CT: only e and the sizes.
 */
static uint64_t
rsa52_check(const struct vg_rsa_key *k, const uint64_t *m,
    const uint64_t cr[2][VG_RSA52_MAX_LIMBS])
{
	const struct vg_rsa52_consts *c52 = &k->c52;
	uint64_t x[2][VG_RSA52_MAX_LIMBS], y[2][VG_RSA52_MAX_LIMBS];
	/* halves of at most 32 words on this path */
	uint64_t a[2][VG_BN_MAX_WORDS / 2], b[2][VG_BN_MAX_WORDS / 2];
	uint64_t *const ra[2] = { a[0], a[1] }, *const rb[2] = { b[0], b[1] };
	size_t nl = c52->nl;
	uint64_t ok;

	vg_rsa52_in(k, x, m, k->pub.n.w);
	k->kern.powpub52x2(y, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
	    k->pub.e, k->pub.ebits, c52->m, c52->k0, nl);
	rsa52_canon(k, ra, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])y);
	rsa52_canon(k, rb, cr);
	ok = vg_bn_eq_mask(a[0], b[0], k->p.mont.w) &
	    vg_bn_eq_mask(a[1], b[1], k->q.mont.w);
	vg_wipe(x, sizeof(x));
	vg_wipe(y, sizeof(y));
	vg_wipe(a, sizeof(a));
	vg_wipe(b, sizeof(b));
	return ok;
}

/* see crypto/rsa_int.h */
void
vg_rsa_crt_combine(const struct vg_rsa_key *k, uint64_t *m, const uint64_t *mp,
    const uint64_t *mq)
{
	const struct vg_bn_mont *p = &k->p.mont;
	uint64_t h[VG_BN_MAX_WORDS], u[VG_BN_MAX_WORDS];
	uint64_t t[2 * VG_BN_MAX_WORDS], z[VG_BN_MAX_WORDS];
	size_t nw = k->pub.n.w, pw = p->w, qw = k->q.mont.w;

	/* h = (mp - mq) qinv mod p: both into p's domain, then one
	 * multiplication by the plain qinv leaves it */
	vg_bn_mont_import(p, u, mq, qw, k->p.g, k->p.kw);
	vg_bn_mont_to(p, h, mp);
	vg_bn_mod_sub(h, h, u, p->m, pw);
	vg_bn_mont_mul(p, h, h, k->qinv);
	/* m = mq + h q < n */
	vg_bn_mul(t, h, pw, k->q.mont.m, qw);
	vg_bn_zero(t + pw + qw, 2 * VG_BN_MAX_WORDS - pw - qw);
	vg_bn_zero(z, VG_BN_MAX_WORDS);
	vg_bn_copy(z, mq, qw);
	vg_bn_add(t, t, z, nw);
	vg_bn_copy(m, t, nw);
	vg_wipe(h, sizeof(h));
	vg_wipe(u, sizeof(u));
	vg_wipe(t, sizeof(t));
	vg_wipe(z, sizeof(z));
}

/* One half on the 64-bit kernels: m = c^e mod p, plain, below p. */
static void
half64(const struct vg_rsa_half *h, uint64_t *m, const uint64_t *c, size_t cn,
    const uint64_t *e, unsigned ebits)
{
	uint64_t x[VG_BN_MAX_WORDS];

	vg_bn_mont_import(&h->mont, x, c, cn, h->g, h->kw);
	vg_bn_mont_exp(&h->mont, x, x, e, ebits);
	vg_bn_mont_from(&h->mont, m, x);
	vg_wipe(x, sizeof(x));
}

/* e = d mod (p - 1) + r (p - 1) for a random 64-bit r: the exponent
 * grows by 64 bits. e has w + 1 words. */
static void
blind_exponent(uint64_t *e, const struct vg_rsa_half *h, uint64_t r)
{
	uint64_t pm1[VG_BN_MAX_WORDS];
	size_t w = h->mont.w;

	vg_bn_copy(pm1, h->mont.m, w);
	pm1[0] &= ~(uint64_t)1; /* p is odd */
	vg_bn_copy(e, h->dexp, w);
	e[w] = vg_bn_muladd_word(e, pm1, r, w);
	vg_wipe(pm1, sizeof(pm1));
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_private(struct vg_rsa_key *k, uint8_t *out, const uint8_t *in,
    size_t len, struct vg_rng *rng)
{
	const struct vg_bn_mont *n = &k->pub.n, *p = &k->p.mont;
	uint64_t c[VG_BN_MAX_WORDS], cb[VG_BN_MAX_WORDS];
	uint64_t mp[VG_BN_MAX_WORDS], mq[VG_BN_MAX_WORDS];
	uint64_t ep[VG_BN_MAX_WORDS + 1], eq[VG_BN_MAX_WORDS + 1];
	uint64_t t[VG_BN_MAX_WORDS], u[VG_BN_MAX_WORDS];
	uint64_t cr[2][VG_RSA52_MAX_LIMBS];
	uint64_t r[2], ok;
	size_t nw = n->w, pw = p->w, qw = k->q.mont.w;
	unsigned ebp = p->bits, ebq = k->q.mont.bits;
	enum vg_err rv = VG_OK;

	assert(k != NULL && out != NULL && in != NULL);
	if (len != k->pub.len)
		return VG_ERR_LENGTH;
	if ((k->flags & VG_RSA_EXP_BLIND) && rng == NULL)
		return VG_ERR_ARG;
	vg_bn_from_bytes(c, nw, in, len);
	ok = vg_bn_lt_mask(c, n->m, nw);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the outcome: an error or not */
	if (!ok) {
		rv = VG_ERR_DECODE;
		goto out;
	}

	vg_bn_zero(ep, VG_BN_MAX_WORDS + 1);
	vg_bn_zero(eq, VG_BN_MAX_WORDS + 1);
	if (k->flags & VG_RSA_EXP_BLIND) {
		rv = vg_rng_generate(rng, r, sizeof(r));
		if (rv != VG_OK)
			goto out;
		blind_exponent(ep, &k->p, r[0]);
		blind_exponent(eq, &k->q, r[1]);
		ebp += 64;
		ebq += 64;
	} else {
		vg_bn_copy(ep, k->p.dexp, pw);
		vg_bn_copy(eq, k->q.dexp, qw);
	}

	vg_bn_zero(mp, VG_BN_MAX_WORDS);
	vg_bn_zero(mq, VG_BN_MAX_WORDS);
	if (k->use52) {
		const struct vg_rsa52_consts *c52 = &k->c52;

		/* blinded and unblinded per prime on the pair */
		vg_rsa52_halves(k, t, u, cr, c, ep, eq,
		    ebp > ebq ? ebp : ebq);
		vg_rsa_crt_combine(k, mp, t, u);
		/* fault check: m^e must give back c, per prime */
		ok = rsa52_check(k, mp,
		    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])cr);
		/* refresh the pair: (r^2)^e and r^-2 */
		k->kern.amm52x2(k->blind52_a,
		    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])k->blind52_a,
		    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])k->blind52_a,
		    c52->m, c52->k0, c52->nl);
		k->kern.amm52x2(k->blind52_b,
		    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])k->blind52_b,
		    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])k->blind52_b,
		    c52->m, c52->k0, c52->nl);
	} else {
		/* blind: cb = c r^e mod n */
		vg_bn_mont_mul(n, cb, c, k->blind_a);
		half64(&k->p, mp, cb, nw, ep, ebp);
		half64(&k->q, mq, cb, nw, eq, ebq);
		/* Garner, then unblind: m = m' r^-1 mod n */
		vg_rsa_crt_combine(k, t, mp, mq);
		vg_bn_mont_mul(n, mp, t, k->blind_b);
		/* fault check: m^e must give back c */
		vg_bn_mont_to(n, u, mp);
		vg_bn_mont_exp_public(n, u, u, k->pub.e, k->pub.ebits);
		vg_bn_mont_from(n, u, u);
		ok = vg_bn_eq_mask(u, c, nw);
		/* refresh the pair: (r^2)^e and r^-2 */
		n->sqr(k->blind_a, k->blind_a, n->m, n->m0i, nw);
		n->sqr(k->blind_b, k->blind_b, n->m, n->m0i, nw);
	}
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the fault check's outcome */

	if (!ok) {
		rv = VG_ERR_INTERNAL;
		goto out;
	}
	vg_bn_to_bytes(out, len, mp, nw);
out:
	if (rv != VG_OK)
		vg_wipe(out, len);
	vg_wipe(c, sizeof(c));
	vg_wipe(cb, sizeof(cb));
	vg_wipe(mp, sizeof(mp));
	vg_wipe(mq, sizeof(mq));
	vg_wipe(ep, sizeof(ep));
	vg_wipe(eq, sizeof(eq));
	vg_wipe(t, sizeof(t));
	vg_wipe(u, sizeof(u));
	vg_wipe(cr, sizeof(cr));
	vg_wipe(r, sizeof(r));
	return rv;
}
