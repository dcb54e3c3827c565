/*
 * ML-DSA's external functions [FIPS 204 §5]: parameter sets, ML-DSA and
 * HashML-DSA sign and verify on top of the internal algorithms of
 * crypto/mldsa_sign.c, the message representative mu, the pre-hash
 * functions and their OIDs, and key generation from the DRBG.
 */
#include "config.h"

#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/drbg.h"
#include "crypto/mldsa_int.h"

static const struct vg_mldsa_params params[VG_MLDSA_PARAM_COUNT] = {
	[VG_MLDSA_44] = {
		.k = 4, .l = 4, .eta = 2, .tau = 39, .omega = 80,
		.ctilde_len = 32, .gamma1_bits = 17, .beta = 78,
		.gamma1 = 1 << 17, .gamma2 = (VG_MLDSA_Q - 1) / 88,
		.eta_bytes = 96, .z_bytes = 576, .w1_bytes = 192,
		.pk_len = VG_MLDSA_44_PK_LEN, .sk_len = VG_MLDSA_44_SK_LEN,
		.sig_len = VG_MLDSA_44_SIG_LEN,
	},
	[VG_MLDSA_65] = {
		.k = 6, .l = 5, .eta = 4, .tau = 49, .omega = 55,
		.ctilde_len = 48, .gamma1_bits = 19, .beta = 196,
		.gamma1 = 1 << 19, .gamma2 = (VG_MLDSA_Q - 1) / 32,
		.eta_bytes = 128, .z_bytes = 640, .w1_bytes = 128,
		.pk_len = VG_MLDSA_65_PK_LEN, .sk_len = VG_MLDSA_65_SK_LEN,
		.sig_len = VG_MLDSA_65_SIG_LEN,
	},
	[VG_MLDSA_87] = {
		.k = 8, .l = 7, .eta = 2, .tau = 60, .omega = 75,
		.ctilde_len = 64, .gamma1_bits = 19, .beta = 120,
		.gamma1 = 1 << 19, .gamma2 = (VG_MLDSA_Q - 1) / 32,
		.eta_bytes = 96, .z_bytes = 640, .w1_bytes = 128,
		.pk_len = VG_MLDSA_87_PK_LEN, .sk_len = VG_MLDSA_87_SK_LEN,
		.sig_len = VG_MLDSA_87_SIG_LEN,
	},
};

/* see crypto/mldsa_int.h */
const struct vg_mldsa_params *
vg_mldsa_params(enum vg_mldsa_param p)
{
	return (unsigned)p < VG_MLDSA_PARAM_COUNT ? &params[p] : NULL;
}

/* see crypto/mldsa.h */
size_t
vg_mldsa_pk_len(enum vg_mldsa_param p)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);

	return pp != NULL ? pp->pk_len : 0;
}

/* see crypto/mldsa.h */
size_t
vg_mldsa_sk_len(enum vg_mldsa_param p)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);

	return pp != NULL ? pp->sk_len : 0;
}

/* see crypto/mldsa.h */
size_t
vg_mldsa_sig_len(enum vg_mldsa_param p)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);

	return pp != NULL ? pp->sig_len : 0;
}

static const struct vg_mldsa_kernels *
kernels(void)
{
	return &vg_kernels()->mldsa;
}

/* ------------------------------------------------------------ keys */

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_keygen_internal(enum vg_mldsa_param p,
    const uint8_t xi[VG_MLDSA_SEED_LEN], uint8_t *pk, uint8_t *sk)
{
	return vg_mldsa_keygen_internal_k(kernels(), p, xi, pk, sk);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_keygen(enum vg_mldsa_param p, struct vg_rng *rng, uint8_t *xi_out,
    uint8_t *pk, uint8_t *sk)
{
	uint8_t xi[VG_MLDSA_SEED_LEN];
	enum vg_err rv;

	if (vg_mldsa_params(p) == NULL || rng == NULL)
		return VG_ERR_ARG;
	rv = vg_rng_generate(rng, xi, sizeof(xi));
	if (rv == VG_OK)
		rv = vg_mldsa_keygen_internal(p, xi, pk, sk);
	if (rv == VG_OK && xi_out != NULL)
		memcpy(xi_out, xi, sizeof(xi));
	vg_wipe(xi, sizeof(xi));
	return rv;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sk_to_pk(enum vg_mldsa_param p, const uint8_t *sk, size_t sklen,
    uint8_t *pk)
{
	return vg_mldsa_sk_to_pk_k(kernels(), p, sk, sklen, pk);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_tr_from_pk(enum vg_mldsa_param p, const uint8_t *pk, size_t pklen,
    uint8_t tr[VG_MLDSA_TR_LEN])
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);

	if (pp == NULL || tr == NULL || (pk == NULL && pklen != 0))
		return VG_ERR_ARG;
	if (pklen != pp->pk_len)
		return VG_ERR_DECODE;
	vg_shake256(tr, VG_MLDSA_TR_LEN, pk, pklen);
	return VG_OK;
}

/* ------------------------------------------------------------ pre-hash */

static const struct {
	uint8_t oid_last;  /* 2.16.840.1.101.3.4.2.x */
	uint8_t len;
	uint8_t alg;       /* enum vg_hash_alg; unused for SHAKE */
} ph_info[VG_MLDSA_PH_COUNT] = {
	[VG_MLDSA_PH_SHA224] = { 4, 28, VG_HASH_SHA224 },
	[VG_MLDSA_PH_SHA256] = { 1, 32, VG_HASH_SHA256 },
	[VG_MLDSA_PH_SHA384] = { 2, 48, VG_HASH_SHA384 },
	[VG_MLDSA_PH_SHA512] = { 3, 64, VG_HASH_SHA512 },
	[VG_MLDSA_PH_SHA3_224] = { 7, 28, VG_HASH_SHA3_224 },
	[VG_MLDSA_PH_SHA3_256] = { 8, 32, VG_HASH_SHA3_256 },
	[VG_MLDSA_PH_SHA3_384] = { 9, 48, VG_HASH_SHA3_384 },
	[VG_MLDSA_PH_SHA3_512] = { 10, 64, VG_HASH_SHA3_512 },
	[VG_MLDSA_PH_SHA512_224] = { 5, 28, VG_HASH_SHA512_224 },
	[VG_MLDSA_PH_SHA512_256] = { 6, 32, VG_HASH_SHA512_256 },
	[VG_MLDSA_PH_SHAKE128] = { 11, 32, 0 },
	[VG_MLDSA_PH_SHAKE256] = { 12, 64, 0 },
};

static const uint8_t oids[VG_MLDSA_PH_COUNT][VG_MLDSA_OID_LEN] = {
#define OID(x) { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, x }
	[VG_MLDSA_PH_SHA224] = OID(4),
	[VG_MLDSA_PH_SHA256] = OID(1),
	[VG_MLDSA_PH_SHA384] = OID(2),
	[VG_MLDSA_PH_SHA512] = OID(3),
	[VG_MLDSA_PH_SHA3_224] = OID(7),
	[VG_MLDSA_PH_SHA3_256] = OID(8),
	[VG_MLDSA_PH_SHA3_384] = OID(9),
	[VG_MLDSA_PH_SHA3_512] = OID(10),
	[VG_MLDSA_PH_SHA512_224] = OID(5),
	[VG_MLDSA_PH_SHA512_256] = OID(6),
	[VG_MLDSA_PH_SHAKE128] = OID(11),
	[VG_MLDSA_PH_SHAKE256] = OID(12),
#undef OID
};

/* see crypto/mldsa.h */
size_t
vg_mldsa_ph_len(enum vg_mldsa_ph ph)
{
	return (unsigned)ph < VG_MLDSA_PH_COUNT ? ph_info[ph].len : 0;
}

/* see crypto/mldsa.h */
const uint8_t *
vg_mldsa_ph_oid(enum vg_mldsa_ph ph)
{
	return (unsigned)ph < VG_MLDSA_PH_COUNT ? oids[ph] : NULL;
}

static int
ph_is_shake(enum vg_mldsa_ph ph)
{
	return ph == VG_MLDSA_PH_SHAKE128 || ph == VG_MLDSA_PH_SHAKE256;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_prehash_init(struct vg_mldsa_prehash *c, enum vg_mldsa_ph ph)
{
	if ((unsigned)ph >= VG_MLDSA_PH_COUNT)
		return VG_ERR_ARG;
	c->ph = ph;
	if (ph == VG_MLDSA_PH_SHAKE128)
		vg_shake128_init(&c->u.x);
	else if (ph == VG_MLDSA_PH_SHAKE256)
		vg_shake256_init(&c->u.x);
	else
		vg_hash_init(&c->u.h, (enum vg_hash_alg)ph_info[ph].alg);
	return VG_OK;
}

/* see crypto/mldsa.h */
void
vg_mldsa_prehash_update(struct vg_mldsa_prehash *c, const void *data,
    size_t len)
{
	if (ph_is_shake(c->ph))
		vg_shake_absorb(&c->u.x, data, len);
	else
		vg_hash_update(&c->u.h, data, len);
}

/* see crypto/mldsa.h */
void
vg_mldsa_prehash_final(struct vg_mldsa_prehash *c, uint8_t *out)
{
	if (ph_is_shake(c->ph))
		vg_shake_squeeze(&c->u.x, out, ph_info[c->ph].len);
	else
		vg_hash_final(&c->u.h, out);
	vg_wipe(c, sizeof(*c));
}

/* ------------------------------------------------------------ mu */

/* see crypto/mldsa_int.h */
void
vg_mldsa_mu_absorb_prefix(struct vg_mldsa_mu *m, const uint8_t tr[64],
    uint8_t domain, const void *ctx, size_t ctxlen)
{
	uint8_t hdr[2];

	hdr[0] = domain;
	hdr[1] = (uint8_t)ctxlen;
	vg_shake256_init(&m->x);
	vg_shake_absorb(&m->x, tr, VG_MLDSA_TR_LEN);
	vg_shake_absorb(&m->x, hdr, 2);
	vg_shake_absorb(&m->x, ctx, ctxlen);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_mu_init(struct vg_mldsa_mu *m, const uint8_t tr[VG_MLDSA_TR_LEN],
    const void *ctx, size_t ctxlen)
{
	if (ctxlen > VG_MLDSA_CTX_MAX || tr == NULL ||
	    (ctx == NULL && ctxlen != 0)) {
		vg_wipe(m, sizeof(*m));
		return VG_ERR_ARG;
	}
	vg_mldsa_mu_absorb_prefix(m, tr, 0, ctx, ctxlen);
	return VG_OK;
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_mu_init_hash(struct vg_mldsa_mu *m,
    const uint8_t tr[VG_MLDSA_TR_LEN], enum vg_mldsa_ph ph,
    const uint8_t *digest, size_t dlen, const void *ctx, size_t ctxlen)
{
	if (ctxlen > VG_MLDSA_CTX_MAX || tr == NULL ||
	    (unsigned)ph >= VG_MLDSA_PH_COUNT ||
	    (ctx == NULL && ctxlen != 0) || (digest == NULL && dlen != 0)) {
		vg_wipe(m, sizeof(*m));
		return VG_ERR_ARG;
	}
	if (dlen != ph_info[ph].len) {
		vg_wipe(m, sizeof(*m));
		return VG_ERR_LENGTH;
	}
	vg_mldsa_mu_absorb_prefix(m, tr, 1, ctx, ctxlen);
	vg_shake_absorb(&m->x, oids[ph], VG_MLDSA_OID_LEN);
	vg_shake_absorb(&m->x, digest, dlen);
	return VG_OK;
}

/* see crypto/mldsa.h */
void
vg_mldsa_mu_update(struct vg_mldsa_mu *m, const void *msg, size_t len)
{
	vg_shake_absorb(&m->x, msg, len);
}

/* see crypto/mldsa.h */
void
vg_mldsa_mu_final(struct vg_mldsa_mu *m, uint8_t mu[VG_MLDSA_MU_LEN])
{
	vg_shake_squeeze(&m->x, mu, VG_MLDSA_MU_LEN);
	vg_shake_wipe(&m->x);
}

/* ------------------------------------------------------------ sign, verify */

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign_mu(enum vg_mldsa_param p, const uint8_t *sk, size_t sklen,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t rnd[VG_MLDSA_RND_LEN],
    uint8_t *sig)
{
	return vg_mldsa_sign_mu_k(kernels(), p, sk, sklen, mu, rnd, sig);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify_mu(enum vg_mldsa_param p, const uint8_t *pk, size_t pklen,
    const uint8_t mu[VG_MLDSA_MU_LEN], const uint8_t *sig, size_t siglen)
{
	return vg_mldsa_verify_mu_k(kernels(), p, pk, pklen, mu, sig, siglen);
}

/*
 * ML-DSA.Sign (ph < 0, data is the message) or HashML-DSA.Sign (data is
 * the digest PH(M)): mu from tr (sk bytes 64..127) and M', then
 * Sign_internal. sig is wiped on every error.
 */
static enum vg_err
sign_common(enum vg_mldsa_param p, const uint8_t *sk, size_t sklen, int ph,
    const uint8_t *data, size_t dlen, const void *ctx, size_t ctxlen,
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);
	uint8_t mu[VG_MLDSA_MU_LEN];
	struct vg_mldsa_mu m;
	enum vg_err rv;

	if (pp == NULL || sig == NULL || rnd == NULL ||
	    (sk == NULL && sklen != 0) || (data == NULL && dlen != 0))
		return VG_ERR_ARG;
	if (sklen != pp->sk_len) {
		rv = VG_ERR_DECODE;
		goto fail;
	}
	if (ph < 0) {
		rv = vg_mldsa_mu_init(&m, sk + 64, ctx, ctxlen);
		if (rv == VG_OK)
			vg_mldsa_mu_update(&m, data, dlen);
	} else {
		rv = vg_mldsa_mu_init_hash(&m, sk + 64, (enum vg_mldsa_ph)ph,
		    data, dlen, ctx, ctxlen);
	}
	if (rv != VG_OK)
		goto fail;
	vg_mldsa_mu_final(&m, mu);
	return vg_mldsa_sign_mu(p, sk, sklen, mu, rnd, sig);
fail:
	vg_wipe(sig, pp->sig_len);
	return rv;
}

/* ML-DSA.Verify (ph < 0) or HashML-DSA.Verify, as sign_common. */
static enum vg_err
verify_common(enum vg_mldsa_param p, const uint8_t *pk, size_t pklen, int ph,
    const uint8_t *data, size_t dlen, const void *ctx, size_t ctxlen,
    const uint8_t *sig, size_t siglen)
{
	const struct vg_mldsa_params *pp = vg_mldsa_params(p);
	uint8_t tr[VG_MLDSA_TR_LEN], mu[VG_MLDSA_MU_LEN];
	struct vg_mldsa_mu m;
	enum vg_err rv;

	if (pp == NULL || (pk == NULL && pklen != 0) ||
	    (sig == NULL && siglen != 0) || (data == NULL && dlen != 0))
		return VG_ERR_ARG;
	if (pklen != pp->pk_len)
		return VG_ERR_DECODE;
	if (siglen != pp->sig_len)
		return VG_ERR_LENGTH;
	vg_shake256(tr, sizeof(tr), pk, pklen);
	if (ph < 0) {
		rv = vg_mldsa_mu_init(&m, tr, ctx, ctxlen);
		if (rv == VG_OK)
			vg_mldsa_mu_update(&m, data, dlen);
	} else {
		rv = vg_mldsa_mu_init_hash(&m, tr, (enum vg_mldsa_ph)ph, data,
		    dlen, ctx, ctxlen);
	}
	if (rv != VG_OK)
		return rv;
	vg_mldsa_mu_final(&m, mu);
	return vg_mldsa_verify_mu(p, pk, pklen, mu, sig, siglen);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign(enum vg_mldsa_param p, const uint8_t *sk, size_t sklen,
    const void *msg, size_t mlen, const void *ctx, size_t ctxlen,
    const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig)
{
	return sign_common(p, sk, sklen, -1, msg, mlen, ctx, ctxlen, rnd, sig);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify(enum vg_mldsa_param p, const uint8_t *pk, size_t pklen,
    const void *msg, size_t mlen, const void *ctx, size_t ctxlen,
    const uint8_t *sig, size_t siglen)
{
	return verify_common(p, pk, pklen, -1, msg, mlen, ctx, ctxlen, sig,
	    siglen);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_sign_hash(enum vg_mldsa_param p, const uint8_t *sk, size_t sklen,
    enum vg_mldsa_ph ph, const uint8_t *digest, size_t dlen, const void *ctx,
    size_t ctxlen, const uint8_t rnd[VG_MLDSA_RND_LEN], uint8_t *sig)
{
	if ((unsigned)ph >= VG_MLDSA_PH_COUNT) {
		if (vg_mldsa_params(p) != NULL && sig != NULL)
			vg_wipe(sig, vg_mldsa_sig_len(p));
		return VG_ERR_ARG;
	}
	return sign_common(p, sk, sklen, (int)ph, digest, dlen, ctx, ctxlen,
	    rnd, sig);
}

/* see crypto/mldsa.h */
enum vg_err
vg_mldsa_verify_hash(enum vg_mldsa_param p, const uint8_t *pk, size_t pklen,
    enum vg_mldsa_ph ph, const uint8_t *digest, size_t dlen, const void *ctx,
    size_t ctxlen, const uint8_t *sig, size_t siglen)
{
	if ((unsigned)ph >= VG_MLDSA_PH_COUNT)
		return VG_ERR_ARG;
	return verify_common(p, pk, pklen, (int)ph, digest, dlen, ctx, ctxlen,
	    sig, siglen);
}
