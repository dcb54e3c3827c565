/*
 * Recovery of the CRT components of an RSA key given as (n, e, d) only
 * [NIST SP 800-56B Rev. 2, Appendix C.2], so that such keys run the same
 * CRT private operation, blinding and fault check as every other.
 *
 * The method: k = e d - 1 is a multiple of lambda(n); write k = 2^t r with
 * r odd. For a base g, the sequence y_0 = g^r, y_{i+1} = y_i^2 reaches 1
 * within t steps; a y_i that is neither 1 nor -1 but whose square is 1 is
 * a non-trivial square root of 1, and gcd(y_i - 1, n) is a prime factor.
 * About half of all bases give one.
 *
 * Constant time: t and r are found by a masked shift loop of a fixed
 * (public) number of steps; every base runs the full number of squarings
 * its public width allows and keeps the root it finds under a mask; the
 * gcd, the division and the inverse are the constant-time ones of bn.c.
 * Only whether a base succeeded is declassified (a property of the fixed
 * public base, taken before the factors are known), and whether the key
 * turned out consistent.
 */
#include "config.h"

#include <string.h>

#include "crypto/bn.h"
#include "crypto/ct.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"

/* Words of k = e d - 1 (e fits one word, d < n): one more than n. */
#define KW (VG_BN_MAX_WORDS + 1)

/* The bases tried, in order; 20 failures in a row have probability
 * about 2^-20 for a consistent key. */
static const uint64_t bases[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31,
	37, 41, 43, 47, 53, 59, 61, 67, 71 };

struct recover {
	struct vg_bn_mont n;
	uint64_t r[KW + 1];           /* k / 2^t, one zero word of padding */
	uint64_t t;                   /* secret */
	uint64_t y[VG_BN_MAX_WORDS];  /* Montgomery domain */
	uint64_t y2[VG_BN_MAX_WORDS];
	uint64_t nm1[VG_BN_MAX_WORDS]; /* -1 in the domain: n - R mod n */
	uint64_t x[VG_BN_MAX_WORDS];  /* the root found */
	uint64_t p[VG_BN_MAX_WORDS], q[VG_BN_MAX_WORDS];
	uint64_t d[VG_BN_MAX_WORDS], s[VG_BN_MAX_WORDS];
	uint64_t rem[VG_BN_MAX_WORDS];
};

/* r = k with its trailing zero bits shifted out, t their number; k has kw
 * words. CT: kw only (64 kw masked steps). */
static void
strip_twos(struct recover *c, size_t kw)
{
	uint64_t s[KW], go = ~(uint64_t)0;
	size_t i;

	c->t = 0;
	for (i = 0; i < 64 * kw; i++) {
		go &= vg_ct_zero_mask64(c->r[0] & 1) &
		    ~vg_bn_zero_mask(c->r, kw);
		vg_bn_copy(s, c->r, kw);
		vg_bn_shr1(s, kw, 0);
		vg_bn_cmov(c->r, s, kw, go);
		c->t += go & 1;
	}
	vg_wipe(s, sizeof(s));
}

/* One base: all-ones if it yields a root x (left in c->x). */
static uint64_t
try_base(struct recover *c, uint64_t g, size_t kw)
{
	uint64_t gm[VG_BN_MAX_WORDS] = { 0 };
	size_t w = c->n.w, i;
	uint64_t found = 0;

	gm[0] = g;
	vg_bn_mont_to(&c->n, gm, gm);
	vg_bn_mont_exp(&c->n, c->y, gm, c->r, (unsigned)(64 * kw));
	for (i = 0; i < 64 * kw; i++) {
		uint64_t hit;

		c->n.sqr(c->y2, c->y, c->n.m, c->n.m0i, w);
		hit = vg_ct_lt_mask64(i, c->t) &
		    ~vg_bn_eq_mask(c->y, c->n.one, w) &
		    ~vg_bn_eq_mask(c->y, c->nm1, w) &
		    vg_bn_eq_mask(c->y2, c->n.one, w) & ~found;
		vg_bn_cmov(c->x, c->y, w, hit);
		found |= hit;
		vg_bn_copy(c->y, c->y2, w);
	}
	vg_wipe(gm, sizeof(gm));
	return found;
}

/* Writes x (nw words) as len big-endian bytes. */
static void
put(uint8_t *out, size_t len, const uint64_t *x, size_t nw)
{
	vg_bn_to_bytes(out, len, x, nw);
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_recover_crt(struct vg_rsa_key_bytes *out, const struct vg_der *n,
    const struct vg_der *e, const struct vg_der *d)
{
	struct recover cs, *c = &cs;
	uint64_t ew, nwords[VG_BN_MAX_WORDS], k[KW + 1], one[KW] = { 1 };
	uint64_t ok, found = 0, swap;
	unsigned nbits, pbits, qbits;
	size_t nw, kw, i, plen;
	enum vg_err rv = VG_ERR_DECODE;

	memset(out, 0, sizeof(*out));
	nbits = vg_bn_bytes_bitlen(n->p, n->len);
	if (nbits < VG_RSA_MIN_BITS || nbits > VG_RSA_MAX_BITS ||
	    vg_bn_bytes_bitlen(e->p, e->len) > 64 ||
	    vg_bn_bytes_bitlen(e->p, e->len) < 2 || d->len == 0)
		return VG_ERR_LENGTH;
	memset(c, 0, sizeof(*c));
	vg_bn_from_bytes(nwords, VG_BN_MAX_WORDS, n->p, n->len);
	if (vg_bn_mont_init(&c->n, nwords, VG_BN_MAX_WORDS, NULL) != 0)
		goto out;
	nw = c->n.w;
	kw = nw + 1;
	vg_bn_from_bytes(&ew, 1, e->p, e->len);
	ok = vg_bn_from_bytes(c->d, nw, d->p, d->len);
	ok &= vg_bn_lt_mask(c->d, c->n.m, nw);

	/* k = e d - 1, r and t */
	memset(k, 0, sizeof(k));
	vg_bn_mul(k, c->d, nw, &ew, 1);
	vg_bn_sub(k, k, one, kw);
	vg_bn_copy(c->r, k, kw);
	strip_twos(c, kw);
	vg_bn_sub(c->nm1, c->n.m, c->n.one, nw);

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		found = try_base(c, bases[i], kw);
		VG_CT_DECLASSIFY(&found, sizeof(found));
		if (vg_ct_barrier64(found) != 0) /* declassified */
			break;
	}
	found &= ok;

	/* p = gcd(x - 1, n), q = n / p, p > q */
	vg_bn_mont_from(&c->n, c->x, c->x);
	vg_bn_sub(c->x, c->x, one, nw);
	vg_bn_gcd(c->p, c->x, c->n.m, nw);
	vg_bn_divmod(c->q, c->rem, c->n.m, nw, c->p, nw);
	found &= vg_bn_zero_mask(c->rem, nw);
	swap = vg_bn_lt_mask(c->p, c->q, nw);
	vg_bn_copy(c->s, c->p, nw);
	vg_bn_cmov(c->p, c->q, nw, swap);
	vg_bn_cmov(c->q, c->s, nw, swap);
	pbits = vg_bn_bitlen(c->p, nw);
	qbits = vg_bn_bitlen(c->q, nw);
	VG_CT_DECLASSIFY(&found, sizeof(found));
	VG_CT_DECLASSIFY(&pbits, sizeof(pbits));
	VG_CT_DECLASSIFY(&qbits, sizeof(qbits));
	plen = (pbits + 7) / 8;
	if (!vg_ct_barrier64(found) || qbits < 2 ||
	    plen > sizeof(out->p)) /* declassified */
		goto out;

	out->nlen = (nbits + 7) / 8;
	out->elen = (vg_bn_bytes_bitlen(e->p, e->len) + 7) / 8;
	out->plen = plen;
	put(out->n, out->nlen, c->n.m, nw);
	put(out->e, out->elen, &ew, 1);
	put(out->d, out->nlen, c->d, nw);
	put(out->p, plen, c->p, nw);
	put(out->q, plen, c->q, nw);
	/* dp = d mod (p - 1), dq = d mod (q - 1), qinv = q^-1 mod p */
	vg_bn_sub(c->s, c->p, one, nw);
	vg_bn_divmod(NULL, c->rem, c->d, nw, c->s, nw);
	put(out->dp, plen, c->rem, nw);
	vg_bn_sub(c->s, c->q, one, nw);
	vg_bn_divmod(NULL, c->rem, c->d, nw, c->s, nw);
	put(out->dq, plen, c->rem, nw);
	ok = vg_bn_mod_inv(c->rem, c->q, c->p, nw);
	VG_CT_DECLASSIFY(&ok, sizeof(ok));
	if (!vg_ct_barrier64(ok)) /* declassified: p and q share a factor */
		goto out;
	put(out->qinv, plen, c->rem, nw);
	rv = VG_OK;
out:
	if (rv != VG_OK)
		vg_wipe(out, sizeof(*out));
	vg_wipe(k, sizeof(k));
	vg_wipe(&ew, sizeof(ew));
	vg_wipe(nwords, sizeof(nwords));
	vg_wipe(c, sizeof(*c));
	return rv;
}
