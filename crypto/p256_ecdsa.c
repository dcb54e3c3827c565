/*
 * ECDSA over P-256: signing with RFC 6979 nonces (optionally hedged with
 * caller randomness), verification by [u1]G + [u2]Q, and the conversions
 * between r || s and the DER ECDSA-Sig-Value.
 */
#include "config.h"

#include <assert.h>
#include <pthread.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/der.h"
#include "crypto/p256.h"
#include "crypto/p256_int.h"

/* e = bits2int(h) for qlen = 256: the leftmost 32 bytes of h, or the
 * integer h encodes when it is shorter [RFC 6979 §2.3.2]. Not reduced. */
static void
bits2int(uint64_t e[4], const uint8_t *h, size_t hlen)
{
	uint8_t buf[32];

	memset(buf, 0, sizeof(buf));
	if (hlen >= sizeof(buf))
		memcpy(buf, h, sizeof(buf));
	else if (hlen > 0)
		memcpy(buf + sizeof(buf) - hlen, h, hlen);
	vg_p256_from_be(e, buf);
}

/* HMAC_DRBG state of RFC 6979 §3.2: V of hl bytes, and HMAC keyed with
 * K, initialised once per K and cloned for each use (a struct copy). */
struct rfc6979 {
	enum vg_hash_alg alg;
	size_t hl;
	uint8_t v[VG_HASH_MAX_LEN];
	struct vg_hmac mk;
};

/* HMAC-SHA-256 keyed with the first K of §3.2 c (32 zero bytes), its two
 * key blocks hashed once per process: the nonce hash the token signs with,
 * and 2 of the 20 compressions of a hedged signature. */
static pthread_once_t k0_once = PTHREAD_ONCE_INIT;
static struct vg_hmac k0_sha256;

static void
k0_setup(void)
{
	static const uint8_t zero[32];

	vg_hmac_init(&k0_sha256, VG_HASH_SHA256, zero, sizeof(zero));
}

/* st->mk = HMAC keyed with st->hl zero bytes */
static void
drbg_key0(struct rfc6979 *st)
{
	if (st->alg == VG_HASH_SHA256) {
		pthread_once(&k0_once, k0_setup);
		st->mk = k0_sha256;
	} else {
		memset(st->v, 0x00, st->hl);
		vg_hmac_init(&st->mk, st->alg, st->v, st->hl);
	}
}

/* V = HMAC_K(V) */
static void
drbg_next_v(struct rfc6979 *st)
{
	struct vg_hmac m = st->mk;

	vg_hmac_update(&m, st->v, st->hl);
	vg_hmac_final(&m, st->v);
}

/* K = HMAC_K(V || sep || x || h || extra); V = HMAC_K(V). With sep < 0
 * (the retry step of §3.2 h.3) only V || 0x00 is hashed. */
static void
drbg_update(struct rfc6979 *st, int sep, const uint8_t x[32],
    const uint8_t h[32], const uint8_t *extra)
{
	struct vg_hmac m = st->mk;
	uint8_t b = (uint8_t)(sep < 0 ? 0 : sep), k[VG_HASH_MAX_LEN];

	vg_hmac_update(&m, st->v, st->hl);
	vg_hmac_update(&m, &b, 1);
	if (sep >= 0) {
		vg_hmac_update(&m, x, 32);
		vg_hmac_update(&m, h, 32);
		if (extra != NULL)
			vg_hmac_update(&m, extra, 32);
	}
	vg_hmac_final(&m, k);
	vg_wipe(&st->mk, sizeof(st->mk));
	vg_hmac_init(&st->mk, st->alg, k, st->hl);
	vg_wipe(k, sizeof(k));
	drbg_next_v(st);
}

/* The next candidate: T = V1 || V2 || ... until 32 bytes, k = bits2int(T)
 * (§3.2 h.1, h.2). */
static void
drbg_candidate(struct rfc6979 *st, uint64_t kk[4])
{
	uint8_t t[32 + VG_HASH_MAX_LEN];
	size_t tlen = 0;

	while (tlen < 32) {
		drbg_next_v(st);
		memcpy(t + tlen, st->v, st->hl);
		tlen += st->hl;
	}
	vg_p256_from_be(kk, t);
	vg_wipe(t, sizeof(t));
}

/* see crypto/p256_int.h */
enum vg_err
vg_p256_ecdsa_sign_k(const struct vg_p256_kernels *ker,
    uint8_t sig[VG_P256_SIG_LEN], const struct vg_p256_priv *k,
    const uint8_t *h, size_t hlen, enum vg_hash_alg nonce_hash,
    const uint8_t *rnd)
{
	static const uint64_t one[4] = { 1, 0, 0, 0 };
	struct rfc6979 st;
	struct vg_p256_jac rp;
	uint8_t xb[32], hb[32];
	uint64_t e[4], kk[4], km[4], dm[4], r[4], s[4], u[4], zi[4], ok;
	enum vg_err err = VG_ERR_INTERNAL;
	int round;

	assert(h != NULL || hlen == 0);
	memset(&st, 0, sizeof(st));
	st.alg = nonce_hash;
	st.hl = vg_hash_len(nonce_hash);
	if (st.hl == 0 || !vg_p256_public(vg_p256_ord_valid_mask(k->d))) {
		err = VG_ERR_ARG;
		goto out;
	}

	bits2int(e, h, hlen);
	vg_p256_ord_reduce(e, e);
	vg_p256_to_be(xb, k->d);
	vg_p256_to_be(hb, e);
	drbg_key0(&st);                                 /* K = 00 ... 00 */
	memset(st.v, 0x01, st.hl);
	drbg_update(&st, 0, xb, hb, rnd);
	drbg_update(&st, 1, xb, hb, rnd);
	vg_p256_ord_to_mont(ker, dm, k->d);

	for (round = 0; round < 64; round++) {
		if (round > 0)
			drbg_update(&st, -1, NULL, NULL, NULL);
		drbg_candidate(&st, kk);
		/* a rejected candidate (probability 2^-32) is discarded:
		 * only the fact that it was is observable */
		if (!vg_p256_public(vg_p256_ord_valid_mask(kk)))
			continue;
		/* r = x([k]G) mod n: x = X / Z^2, y is not needed; the
		 * Montgomery multiplication by 1 leaves the Montgomery
		 * form */
		vg_p256_base_mul(ker, &rp, kk);
		ok = ~vg_p256_is_zero4_mask(rp.z);
		/* Z^-1 mod p and k^-1 mod n, side by side */
		vg_p256_ord_to_mont(ker, km, kk);
		vg_p256_fe_ord_inv(ker, zi, rp.z, km, km);
		ker->sqr(zi, zi);
		ker->mul(r, rp.x, zi);
		ker->mul(r, r, one);
		vg_p256_ord_reduce(r, r);
		ok &= ~vg_p256_is_zero4_mask(r);
		/* s = k^-1 (e + r d) mod n */
		ker->ord_mul(u, r, dm);         /* r d (plain) */
		vg_p256_modadd(u, u, e, vg_p256_n);
		ker->ord_mul(s, km, u);         /* k^-1 (e + r d) (plain) */
		ok &= ~vg_p256_is_zero4_mask(s);
		if (vg_p256_public(ok)) {
			vg_p256_to_be(sig, r);
			vg_p256_to_be(sig + 32, s);
			err = VG_OK;
			break;
		}
	}
out:
	VG_WIPE_STACK(VG_P256_SCRUB_LEN);
	vg_wipe(&st, sizeof(st));
	vg_wipe(&rp, sizeof(rp));
	vg_wipe(zi, sizeof(zi));
	vg_wipe(xb, sizeof(xb));
	vg_wipe(kk, sizeof(kk));
	vg_wipe(km, sizeof(km));
	vg_wipe(dm, sizeof(dm));
	vg_wipe(u, sizeof(u));
	vg_wipe(s, sizeof(s));
	return err;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_ecdsa_sign(uint8_t sig[VG_P256_SIG_LEN], const struct vg_p256_priv *k,
    const uint8_t *h, size_t hlen, enum vg_hash_alg nonce_hash,
    const uint8_t *rnd)
{
	return vg_p256_ecdsa_sign_k(&vg_kernels()->p256, sig, k, h, hlen,
	    nonce_hash, rnd);
}

/*
 * 1 if x(R) mod n = r for R = (X, Y, Z) not O, without an inversion:
 * x(R) = X / Z^2 < p is r or r + n (the latter only when r + n < p), so
 * compare X with r Z^2 and (r + n) Z^2.
 */
static int
x_matches_vartime(const struct vg_p256_kernels *k, const struct vg_p256_jac *rp,
    const uint64_t r[4])
{
	uint64_t zz[4], t[4];
	int ok;

	k->sqr(zz, rp->z);
	k->mul(t, r, vg_p256_rr);               /* r < n < p, Montgomery */
	k->mul(t, t, zz);
	ok = vg_p256_eq4_mask(t, rp->x) != 0;
	if (!ok && vg_p256_add4(t, r, vg_p256_n) == 0 &&
	    vg_p256_lt4_mask(t, vg_p256_p)) {
		k->mul(t, t, vg_p256_rr);
		k->mul(t, t, zz);
		ok = vg_p256_eq4_mask(t, rp->x) != 0;
	}
	return ok;
}

/* see crypto/p256_int.h */
enum vg_err
vg_p256_ecdsa_verify_k(const struct vg_p256_kernels *k,
    const struct vg_p256_pub *pub, const uint8_t *h, size_t hlen,
    const uint8_t sig[VG_P256_SIG_LEN])
{
	struct vg_p256_jac rp;
	struct vg_p256_aff q;
	uint64_t r[4], s[4], e[4], w[4], u1[4], u2[4];
	enum vg_err err = VG_ERR_AUTH;

	assert(h != NULL || hlen == 0);
	vg_p256_from_be(r, sig);
	vg_p256_from_be(s, sig + 32);
	if (!vg_p256_ord_valid_mask(r) || !vg_p256_ord_valid_mask(s))
		goto out;
	bits2int(e, h, hlen);
	vg_p256_ord_reduce(e, e);

	/* w = s^-1, u1 = e w, u2 = r w (plain) */
	vg_p256_ord_to_mont(k, w, s);
	vg_p256_ord_inv_vartime(k, w, w);       /* s is public */
	k->ord_mul(u1, e, w);
	k->ord_mul(u2, r, w);
	vg_p256_copy4(q.x, pub->x);
	vg_p256_copy4(q.y, pub->y);
	vg_p256_mul2_vartime(k, &rp, u1, u2, &q);
	if (!vg_p256_is_zero4_mask(rp.z) && x_matches_vartime(k, &rp, r))
		err = VG_OK;
out:
	return err;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_ecdsa_verify(const struct vg_p256_pub *pub, const uint8_t *h,
    size_t hlen, const uint8_t sig[VG_P256_SIG_LEN])
{
	return vg_p256_ecdsa_verify_k(&vg_kernels()->p256, pub, h, hlen, sig);
}

/* see crypto/p256.h */
enum vg_err
vg_p256_ecdsa_sig_to_der(uint8_t *out, size_t *outlen,
    const uint8_t sig[VG_P256_SIG_LEN])
{
	size_t lr, ls, len, hl;
	enum vg_err err = VG_OK;

	lr = vg_der_put_integer(NULL, sig, 32);
	ls = vg_der_put_integer(NULL, sig + 32, 32);
	hl = vg_der_put_sequence(NULL, lr + ls);
	len = hl + lr + ls;
	if (out != NULL && *outlen < len) {
		err = VG_ERR_LENGTH;
	} else if (out != NULL) {
		vg_der_put_sequence(out, lr + ls);
		vg_der_put_integer(out + hl, sig, 32);
		vg_der_put_integer(out + hl + lr, sig + 32, 32);
	}
	*outlen = len;
	return err;
}

/* Copies a DER INTEGER magnitude into 32 big-endian bytes. */
static enum vg_err
get_int32(struct vg_der *cur, uint8_t out[32])
{
	struct vg_der mag;
	enum vg_err err;

	err = vg_der_get_integer(cur, &mag, 0);
	if (err == VG_OK && mag.len > 32)
		err = VG_ERR_DECODE;
	if (err == VG_OK) {
		memset(out, 0, 32);
		memcpy(out + 32 - mag.len, mag.p, mag.len);
	}
	return err;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_ecdsa_sig_from_der(uint8_t sig[VG_P256_SIG_LEN], const uint8_t *in,
    size_t len)
{
	struct vg_der cur = vg_der_make(in, len), seq;
	uint8_t t[VG_P256_SIG_LEN];
	enum vg_err err = VG_ERR_DECODE;

	if (vg_der_get_sequence(&cur, &seq) == VG_OK && vg_der_at_end(&cur) &&
	    get_int32(&seq, t) == VG_OK && get_int32(&seq, t + 32) == VG_OK &&
	    vg_der_at_end(&seq)) {
		memcpy(sig, t, sizeof(t));
		err = VG_OK;
	}
	return err;
}
