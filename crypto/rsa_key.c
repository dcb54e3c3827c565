/*
 * RSA keys: loading and checking public and private keys, the per-key
 * precomputation (Montgomery constants, import constants, IFMA constants,
 * the blinding pair), wiping.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/modinv62.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"

/* The IFMA pair for k's public operation, where kern has it for halves of
 * n's width and n is RSA-2048's (w = 32 words: 40 limbs), else none. The
 * constants depend on n alone: made once, when first needed. */
static void
pub52_setup(struct vg_rsa_pub *k, const struct vg_rsa_kernels *kern)
{
	uint64_t t[VG_BN_MAX_WORDS];
	size_t w = k->n.w, nl = VG_RSA52_LIMBS(w);

	k->amm52x2 = NULL;
	k->powpub52x2 = NULL;
	if (w != 32 || !vg_rsa52_serves(kern, w))
		return;
	k->amm52x2 = kern->amm52x2;
	k->powpub52x2 = kern->powpub52x2;
	if (k->nl52 == nl)
		return;
	vg_rsa52_from64(k->m52[0], nl, k->n.m, w);
	vg_bn_mont_pow2(&k->n, t, (unsigned)(2 * 52 * nl));
	vg_rsa52_from64(k->g52[0], nl, t, w);
	memcpy(k->m52[1], k->m52[0], sizeof(k->m52[0]));
	memcpy(k->g52[1], k->g52[0], sizeof(k->g52[0]));
	k->k052[0] = k->k052[1] = k->n.m0i;
	k->nl52 = nl;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_pub_load(struct vg_rsa_pub *k, const uint8_t *n, size_t nlen,
    const uint8_t *e, size_t elen)
{
	uint64_t x[VG_BN_MAX_WORDS];
	unsigned nbits, ebits;

	assert(k != NULL && (n != NULL || nlen == 0) &&
	    (e != NULL || elen == 0));
	vg_rsa_pub_wipe(k);
	nbits = vg_bn_bytes_bitlen(n, nlen);
	if (nbits < VG_RSA_MIN_BITS || nbits > VG_RSA_MAX_BITS)
		return VG_ERR_LENGTH;
	vg_bn_from_bytes(x, VG_BN_MAX_WORDS, n, nlen);
	if (vg_bn_mont_init(&k->n, x, VG_BN_MAX_WORDS, NULL) != 0)
		return VG_ERR_DECODE;
	k->len = (nbits + 7) / 8;
	ebits = vg_bn_bytes_bitlen(e, elen);
	if (ebits < 2 || ebits > nbits)
		goto bad;
	vg_bn_from_bytes(k->e, VG_BN_MAX_WORDS, e, elen);
	if ((k->e[0] & 1) == 0 || !vg_bn_lt_mask(k->e, k->n.m, VG_BN_MAX_WORDS))
		goto bad;
	k->ebits = ebits;
	pub52_setup(k, &vg_kernels()->rsa);
	return VG_OK;
bad:
	vg_rsa_pub_wipe(k);
	return VG_ERR_DECODE;
}

/* see crypto/rsa.h */
void
vg_rsa_pub_wipe(struct vg_rsa_pub *k)
{
	if (k != NULL)
		vg_wipe(k, sizeof(*k));
}

/* see crypto/rsa.h */
void
vg_rsa_key_wipe(struct vg_rsa_key *k)
{
	if (k != NULL)
		vg_wipe(k, sizeof(*k));
}

/* see crypto/rsa.h */
const struct vg_rsa_pub *
vg_rsa_key_pub(const struct vg_rsa_key *k)
{
	return &k->pub;
}

/* see crypto/rsa.h */
void
vg_rsa_pub_set_kernels(struct vg_rsa_pub *k, const struct vg_rsa_kernels *kern)
{
	if (kern == NULL)
		kern = &vg_kernels()->rsa;
	k->n.mul = kern->montmul;
	k->n.sqr = kern->montsqr;
	k->n.amul = kern->montmul_amm;
	k->n.asqr = kern->montsqr_amm;
	k->n.impl = kern->impl;
	pub52_setup(k, kern);
}

/* see crypto/rsa.h */
void
vg_rsa_key_bytes_view(const struct vg_rsa_key_bytes *b,
    struct vg_der_rsa_priv *v)
{
	v->n = vg_der_make(b->n, b->nlen);
	v->e = vg_der_make(b->e, b->elen);
	v->d = vg_der_make(b->d, b->nlen);
	v->p = vg_der_make(b->p, b->plen);
	v->q = vg_der_make(b->q, b->plen);
	v->dp = vg_der_make(b->dp, b->plen);
	v->dq = vg_der_make(b->dq, b->plen);
	v->qinv = vg_der_make(b->qinv, b->plen);
}

/* All-ones if (a * b) mod m == 1 (a: an words, b: bn words, m: mn
 * words of which the top one is not zero: a prime or a prime less one of
 * public length; an + bn <= 2 * VG_BN_MAX_WORDS). CT: only the
 * lengths. */
static uint64_t
mul_mod_is_one(const uint64_t *a, size_t an, const uint64_t *b, size_t bn,
    const uint64_t *m, size_t mn)
{
	uint64_t t[2 * VG_BN_MAX_WORDS], r[VG_BN_MAX_WORDS];
	uint64_t ok;

	vg_bn_mul(t, a, an, b, bn);
	vg_bn_divmod_pub(NULL, r, t, an + bn, m, mn);
	ok = vg_ct_eq_mask64(r[0], 1) & vg_bn_zero_mask(r + 1, mn - 1);
	vg_wipe(t, sizeof(t));
	vg_wipe(r, sizeof(r));
	return ok;
}

/* All-ones if a mod m == b (a: an >= mn words; m: mn words, the top one
 * not zero, as for mul_mod_is_one; b: w >= mn words). */
static uint64_t
mod_equals(const uint64_t *a, size_t an, const uint64_t *m, size_t mn,
    const uint64_t *b, size_t w)
{
	uint64_t r[VG_BN_MAX_WORDS], ok;

	vg_bn_divmod_pub(NULL, r, a, an, m, mn);
	ok = vg_bn_eq_mask(r, b, mn) & vg_bn_zero_mask(b + mn, w - mn);
	vg_wipe(r, sizeof(r));
	return ok;
}

/*
 * Sets up one half: the context of the prime x (already in h->mont's
 * words), the exponent dx and the import constant. Returns a mask of the
 * checks on dx: dx < x - 1 and e dx = 1 mod (x - 1), and when d is given
 * d = dx mod (x - 1).
 */
static uint64_t
half_setup(struct vg_rsa_half *h, const struct vg_rsa_pub *pub,
    const struct vg_der *dx, const uint64_t *d, size_t dn)
{
	uint64_t xm1[VG_BN_MAX_WORDS];
	size_t w = h->mont.w, ew = (pub->ebits + 63) / 64, kk;
	/* x - 1 has x's public length (x is odd and above 2) */
	size_t mn = (h->mont.bits + 63) / 64;
	uint64_t ok;

	vg_bn_copy(xm1, h->mont.m, w);
	xm1[0] &= ~(uint64_t)1;
	ok = vg_bn_from_bytes(h->dexp, w, dx->p, dx->len);
	ok &= vg_bn_lt_mask(h->dexp, xm1, w);
	ok &= mul_mod_is_one(pub->e, ew, h->dexp, w, xm1, mn);
	if (dn > 0)
		ok &= mod_equals(d, dn, xm1, mn, h->dexp, w);
	kk = (pub->n.w + w - 1) / w;
	h->kw = (unsigned)(kk * w);
	vg_bn_mont_pow2(&h->mont, h->g, (unsigned)(64 * w * (kk + 1)));
	vg_wipe(xm1, sizeof(xm1));
	return ok;
}

/* A fresh blinding pair from rng: r^e R and r^-1 R mod n, the inverse
 * modulo each prime by safegcd (both at once) and Garner; with use52
 * r^e R' and r^-1 R' mod p and q instead of r^e R mod n, the power
 * raised per prime on the IFMA pair. */
static enum vg_err
blinding_init(struct vg_rsa_key *k, struct vg_rng *rng)
{
	const struct vg_bn_mont *n = &k->pub.n;
	uint64_t rnd[2 * VG_BN_MAX_WORDS], r[VG_BN_MAX_WORDS];
	uint64_t ip[VG_BN_MAX_WORDS], iq[VG_BN_MAX_WORDS];
	uint64_t inv[VG_BN_MAX_WORDS], x[VG_BN_MAX_WORDS];
	uint64_t ok2[2];
	size_t w = n->w, pw = k->p.mont.w, qw = k->q.mont.w;
	size_t hw = pw > qw ? pw : qw;
	enum vg_err rv;
	int tries;

	for (tries = 0; tries < 8; tries++) {
		uint64_t ok;

		rv = vg_rng_generate(rng, rnd, 2 * w * sizeof(uint64_t));
		if (rv != VG_OK)
			goto out;
		/* r R mod n, r nearly uniform below n */
		vg_bn_mont_import(n, r, rnd, 2 * w, k->g_n, 2 * w);
		if (!k->use52)
			vg_bn_mont_exp_public(n, k->blind_a, r, k->pub.e,
			    k->pub.ebits);
		vg_bn_mont_from(n, r, r);
		/* r^-1 mod p and mod q, in hw words (the contexts' moduli
		 * are zero above their widths) */
		vg_bn_zero(ip, hw);
		vg_bn_zero(iq, hw);
		vg_bn_divmod_pub(NULL, ip, r, w, k->p.mont.m,
		    (k->p.mont.bits + 63) / 64);
		vg_bn_divmod_pub(NULL, iq, r, w, k->q.mont.m,
		    (k->q.mont.bits + 63) / 64);
		vg_modinv62_n_x2(ip, ip, k->p.mont.m, iq, iq, k->q.mont.m, hw,
		    ok2);
		vg_rsa_crt_combine(k, inv, ip, iq);
		/* r inv = 1 mod n, or r shared a factor with n */
		vg_bn_mont_to(n, k->blind_b, inv);
		vg_bn_mont_mul(n, x, k->blind_b, r);
		ok = vg_ct_eq_mask64(x[0], 1) & vg_bn_zero_mask(x + 1, w - 1) &
		    ok2[0] & ok2[1];
		VG_CT_DECLASSIFY(&ok, sizeof(ok));
		if (vg_ct_barrier64(ok) != 0) { /* declassified */
			if (k->use52) { /* the pair per prime, for the IFMA path */
				const struct vg_rsa52_consts *c52 = &k->c52;

				vg_rsa52_in(k, k->blind52_a, r, w);
				k->kern.powpub52x2(k->blind52_a,
				    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])
				    k->blind52_a, k->pub.e, k->pub.ebits,
				    c52->m, c52->k0, c52->nl);
				vg_bn_mont_from(n, x, k->blind_b);
				vg_rsa52_in(k, k->blind52_b, x, w);
			}
			rv = VG_OK;
			goto out;
		}
	}
	rv = VG_ERR_RANDOM;
out:
	vg_wipe(rnd, sizeof(rnd));
	vg_wipe(r, sizeof(r));
	vg_wipe(ip, sizeof(ip));
	vg_wipe(iq, sizeof(iq));
	vg_wipe(inv, sizeof(inv));
	vg_wipe(x, sizeof(x));
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_key_copy(struct vg_rsa_key *dst, const struct vg_rsa_key *src,
    struct vg_rng *rng)
{
	enum vg_err rv;

	*dst = *src;
	rv = blinding_init(dst, rng);
	if (rv != VG_OK)
		vg_rsa_key_wipe(dst);
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_key_load(struct vg_rsa_key *k, const struct vg_der_rsa_priv *in,
    const struct vg_rsa_kernels *kern, unsigned flags, struct vg_rng *rng)
{
	uint64_t p[VG_BN_MAX_WORDS], q[VG_BN_MAX_WORDS];
	uint64_t d[VG_BN_MAX_WORDS], t[2 * VG_BN_MAX_WORDS];
	unsigned nbits, pbits, qbits;
	size_t nw, pw, qw, dn = 0;
	uint64_t ok;
	enum vg_err rv;

	assert(k != NULL && in != NULL);
	vg_rsa_key_wipe(k);
	if (rng == NULL)
		return VG_ERR_ARG;
	if (kern == NULL)
		kern = &vg_kernels()->rsa;
	k->kern = *kern;
	rv = vg_rsa_pub_load(&k->pub, in->n.p, in->n.len, in->e.p, in->e.len);
	if (rv != VG_OK)
		goto out;
	vg_rsa_pub_set_kernels(&k->pub, kern);
	nbits = k->pub.n.bits;
	nw = k->pub.n.w;

	/* sizes are public */
	pbits = vg_bn_bytes_bitlen(in->p.p, in->p.len);
	qbits = vg_bn_bytes_bitlen(in->q.p, in->q.len);
	VG_CT_DECLASSIFY(&pbits, sizeof(pbits));
	VG_CT_DECLASSIFY(&qbits, sizeof(qbits));
	if (pbits < 128 || qbits < 128 || pbits + qbits < nbits ||
	    pbits + qbits > nbits + 1 ||
	    VG_BN_MONT_WORDS(nbits) > 4 * VG_BN_MONT_WORDS(pbits) ||
	    VG_BN_MONT_WORDS(nbits) > 4 * VG_BN_MONT_WORDS(qbits)) {
		rv = VG_ERR_LENGTH;
		goto out;
	}
	vg_bn_from_bytes(p, VG_BN_MAX_WORDS, in->p.p, in->p.len);
	vg_bn_from_bytes(q, VG_BN_MAX_WORDS, in->q.p, in->q.len);
	if (vg_bn_mont_init(&k->p.mont, p, VG_BN_MAX_WORDS, kern) != 0 ||
	    vg_bn_mont_init(&k->q.mont, q, VG_BN_MAX_WORDS, kern) != 0) {
		rv = VG_ERR_DECODE;
		goto out;
	}
	pw = k->p.mont.w;
	qw = k->q.mont.w;

	/* n = p q */
	vg_bn_mul(t, p, pw, q, qw);
	vg_bn_zero(t + pw + qw, 2 * VG_BN_MAX_WORDS - pw - qw);
	ok = vg_bn_eq_mask(t, k->pub.n.m, VG_BN_MAX_WORDS) &
	    vg_bn_zero_mask(t + VG_BN_MAX_WORDS, VG_BN_MAX_WORDS);
	if (in->d.len > 0) {
		ok &= vg_bn_from_bytes(d, nw, in->d.p, in->d.len);
		ok &= vg_bn_lt_mask(d, k->pub.n.m, nw);
		dn = nw;
	}
	ok &= half_setup(&k->p, &k->pub, &in->dp, d, dn);
	ok &= half_setup(&k->q, &k->pub, &in->dq, d, dn);
	/* qinv < p, q qinv = 1 mod p */
	ok &= vg_bn_from_bytes(k->qinv, pw, in->qinv.p, in->qinv.len);
	ok &= vg_bn_lt_mask(k->qinv, p, pw);
	ok &= mul_mod_is_one(k->qinv, pw, q, qw, p,
	    (k->p.mont.bits + 63) / 64);
	VG_CT_DECLASSIFY(&ok, sizeof(ok));
	if (!ok) { /* declassified: the key is inconsistent */
		rv = VG_ERR_DECODE;
		goto out;
	}

	vg_bn_mont_pow2(&k->pub.n, k->g_n, (unsigned)(64 * nw * 3));
	k->use52 = vg_rsa52_eligible(k, kern);
	if (k->use52)
		vg_rsa52_setup(k);
	k->flags = flags;
	rv = blinding_init(k, rng);
out:
	if (rv != VG_OK)
		vg_rsa_key_wipe(k);
	vg_wipe(p, sizeof(p));
	vg_wipe(q, sizeof(q));
	vg_wipe(d, sizeof(d));
	vg_wipe(t, sizeof(t));
	return rv;
}
