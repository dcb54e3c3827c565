/*
 * ML-KEM [FIPS 203]: the parameter sets, K-PKE (Alg. 13-15) and
 * ML-KEM's internal and external algorithms (Alg. 16-21) with the input
 * checks of §7.2 and §7.3 and implicit rejection.
 */
#include "config.h"

#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/drbg.h"
#include "crypto/hash.h"
#include "crypto/mlkem_int.h"

static const struct vg_mlkem_params params[VG_MLKEM_PARAM_COUNT] = {
	[VG_MLKEM_512] = {
		.k = 2, .eta1 = 3, .eta2 = 2, .du = 10, .dv = 4,
		.ek_len = VG_MLKEM_512_EK_LEN, .dk_len = VG_MLKEM_512_DK_LEN,
		.ct_len = VG_MLKEM_512_CT_LEN,
	},
	[VG_MLKEM_768] = {
		.k = 3, .eta1 = 2, .eta2 = 2, .du = 10, .dv = 4,
		.ek_len = VG_MLKEM_768_EK_LEN, .dk_len = VG_MLKEM_768_DK_LEN,
		.ct_len = VG_MLKEM_768_CT_LEN,
	},
	[VG_MLKEM_1024] = {
		.k = 4, .eta1 = 2, .eta2 = 2, .du = 11, .dv = 5,
		.ek_len = VG_MLKEM_1024_EK_LEN, .dk_len = VG_MLKEM_1024_DK_LEN,
		.ct_len = VG_MLKEM_1024_CT_LEN,
	},
};

/* see crypto/mlkem_int.h */
const struct vg_mlkem_params *
vg_mlkem_params(enum vg_mlkem_param p)
{
	return (unsigned)p < VG_MLKEM_PARAM_COUNT ? &params[p] : NULL;
}

/* see crypto/mlkem.h */
size_t
vg_mlkem_ek_len(enum vg_mlkem_param p)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	return pp != NULL ? pp->ek_len : 0;
}

/* see crypto/mlkem.h */
size_t
vg_mlkem_dk_len(enum vg_mlkem_param p)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	return pp != NULL ? pp->dk_len : 0;
}

/* see crypto/mlkem.h */
size_t
vg_mlkem_ct_len(enum vg_mlkem_param p)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	return pp != NULL ? pp->ct_len : 0;
}

static const struct vg_mlkem_kernels *
kernels(void)
{
	return &vg_kernels()->mlkem;
}

/*
 * K-PKE.KeyGen [FIPS 203 Alg. 13]: ek (384 k + 32 bytes) and dk_PKE
 * (384 k bytes) from d. CT: only the rejections of A (rho is public).
 */
static void
kpke_keygen(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_params *pp, const uint8_t d[32], uint8_t *ek,
    uint8_t *dkpke)
{
	struct vg_mlkem_poly a[VG_MLKEM_K_MAX * VG_MLKEM_K_MAX];
	struct vg_mlkem_poly se[2 * VG_MLKEM_K_MAX], t;
	uint8_t gin[33], rs[64];
	unsigned k = pp->k, i;

	memcpy(gin, d, 32);
	gin[32] = (uint8_t)k;
	vg_hash(VG_HASH_SHA3_512, gin, sizeof(gin), rs);
	VG_MLKEM_DECLASSIFY(rs, 32); /* rho is public */
	vg_mlkem_gen_matrix(kk, a, k, rs, 0);
	vg_mlkem_sample_cbd(kk, se, 2 * k, rs + 32, 0, pp->eta1, 2 * k);
	for (i = 0; i < 2 * k; i++)
		kk->ntt(se[i].c);
	for (i = 0; i < k; i++) {
		kk->basemul_acc(t.c, a[i * k].c, se[0].c, k);
		vg_mlkem_poly_tomont(&t);
		vg_mlkem_poly_add(&t, &se[k + i]);
		vg_mlkem_poly_freeze(&t);
		kk->tobytes(ek + VG_MLKEM_POLY_BYTES * i, t.c);
		vg_mlkem_poly_freeze(&se[i]);
		kk->tobytes(dkpke + VG_MLKEM_POLY_BYTES * i, se[i].c);
	}
	memcpy(ek + VG_MLKEM_POLY_BYTES * k, rs, 32);
	vg_wipe(gin, sizeof(gin));
	vg_wipe(rs, sizeof(rs));
	vg_wipe(se, sizeof(se));
	vg_wipe(&t, sizeof(t));
}

/*
 * K-PKE.Encrypt [FIPS 203 Alg. 14] of m with the randomness r under the
 * expanded ek: the transposed A-hat (k * k polynomials, lines 4-8) and the
 * decoded t-hat (k polynomials, line 2). CT: constant time.
 */
static void
kpke_encrypt(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_params *pp, const struct vg_mlkem_poly *a,
    const struct vg_mlkem_poly *t, const uint8_t m[32], const uint8_t r[32],
    uint8_t *c)
{
	struct vg_mlkem_poly y[2 * VG_MLKEM_K_MAX + 1];
	struct vg_mlkem_poly u, mu;
	unsigned k = pp->k, i;
	size_t ulen = 32 * (size_t)pp->du;

	/* y[0 .. k) = y, y[k .. 2k) = e1, y[2k] = e2 */
	vg_mlkem_sample_cbd(kk, y, 2 * k + 1, r, 0, pp->eta1, k);
	for (i = 0; i < k; i++)
		kk->ntt(y[i].c);
	for (i = 0; i < k; i++) {
		kk->basemul_acc(u.c, a[i * k].c, y[0].c, k);
		kk->invntt(u.c);
		vg_mlkem_poly_add(&u, &y[k + i]);
		vg_mlkem_poly_freeze(&u);
		vg_mlkem_poly_compress(kk, c + ulen * i, &u, pp->du);
	}
	kk->basemul_acc(u.c, t[0].c, y[0].c, k);
	kk->invntt(u.c);
	vg_mlkem_poly_add(&u, &y[2 * k]);
	kk->decompress(mu.c, m, 1);
	vg_mlkem_poly_add(&u, &mu);
	vg_mlkem_poly_freeze(&u);
	vg_mlkem_poly_compress(kk, c + ulen * k, &u, pp->dv);
	vg_wipe(y, sizeof(y));
	vg_wipe(&u, sizeof(u));
	vg_wipe(&mu, sizeof(mu));
}

/* K-PKE.Decrypt [FIPS 203 Alg. 15] with s-hat decoded from dk_PKE (line
 * 5, in the expanded dk). CT: constant time. */
static void
kpke_decrypt(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_params *pp, const struct vg_mlkem_poly *s,
    const uint8_t *c, uint8_t m[32])
{
	struct vg_mlkem_poly u[VG_MLKEM_K_MAX], w, v;
	unsigned k = pp->k, i;
	size_t ulen = 32 * (size_t)pp->du;

	for (i = 0; i < k; i++) {
		kk->decompress(u[i].c, c + ulen * i, pp->du);
		kk->ntt(u[i].c);
	}
	kk->basemul_acc(w.c, s[0].c, u[0].c, k);
	kk->invntt(w.c);
	kk->decompress(v.c, c + ulen * k, pp->dv);
	vg_mlkem_poly_sub(&v, &w);
	vg_mlkem_poly_freeze(&v);
	vg_mlkem_poly_compress(kk, m, &v, 1);
	vg_wipe(&w, sizeof(w));
	vg_wipe(&v, sizeof(v));
}

/* ByteDecode_12 of the k polynomials of t-hat in ek, with the modulus
 * check [FIPS 203 §7.2]: all-ones if it passes. */
static uint32_t
decode_ek(const struct vg_mlkem_kernels *kk, const struct vg_mlkem_params *pp,
    const uint8_t *ek, struct vg_mlkem_poly *t)
{
	uint32_t ok = 0xffffffffu;
	unsigned i;

	for (i = 0; i < pp->k; i++)
		ok &= kk->frombytes(t[i].c, ek + VG_MLKEM_POLY_BYTES * i);
	return ok;
}

/* The modulus check alone. */
static uint32_t
ek_modulus_ok(const struct vg_mlkem_params *pp, const uint8_t *ek)
{
	struct vg_mlkem_poly t[VG_MLKEM_K_MAX];

	return decode_ek(kernels(), pp, ek, t);
}

/* The hash check of dk [FIPS 203 §7.3]: all-ones if H(ek) matches. */
static uint32_t
dk_hash_ok(const struct vg_mlkem_params *pp, const uint8_t *dk)
{
	size_t off = VG_MLKEM_POLY_BYTES * (size_t)pp->k;
	uint8_t h[32];
	uint32_t ok;

	vg_hash(VG_HASH_SHA3_256, dk + off, pp->ek_len, h);
	ok = vg_ct_memeq(h, dk + off + pp->ek_len, 32);
	VG_MLKEM_DECLASSIFY(&ok, sizeof(ok));
	return ok;
}

/* see crypto/mlkem_int.h */
uint32_t
vg_mlkem_expand_ek_core(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t *ek, const uint8_t *hek,
    struct vg_mlkem_expanded_ek *e)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);
	unsigned k = pp->k;
	uint32_t ok;

	e->p = p;
	ok = decode_ek(kk, pp, ek, VG_MLKEM_EXPEK_T(e, k));
	memcpy(e->rho, ek + VG_MLKEM_POLY_BYTES * k, 32);
	if (hek != NULL)
		memcpy(e->h, hek, 32);
	else
		vg_hash(VG_HASH_SHA3_256, ek, pp->ek_len, e->h);
	vg_mlkem_gen_matrix(kk, VG_MLKEM_EXPEK_A(e), k, e->rho, 1);
	return ok;
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_expand_dk_core(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t *dk, const uint8_t hek[32],
    struct vg_mlkem_expanded_dk *d)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);
	size_t off = VG_MLKEM_POLY_BYTES * (size_t)pp->k;
	struct vg_mlkem_poly *s = VG_MLKEM_EXPDK_S(d);
	unsigned i;

	d->p = p;
	/* dk_PKE is not range-checked [FIPS 203 §7.3]: ByteDecode_12 only */
	for (i = 0; i < pp->k; i++)
		(void)kk->frombytes(s[i].c, dk + VG_MLKEM_POLY_BYTES * i);
	memcpy(d->z, dk + off + pp->ek_len + 32, 32);
	/* nor is the ek inside dk modulus-checked: its verdict is dropped */
	(void)vg_mlkem_expand_ek_core(kk, p, dk + off, hek,
	    VG_MLKEM_EXPDK_EK(d, pp->k));
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_encaps_core(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_expanded_ek *e, const uint8_t m[32], uint8_t *c,
    uint8_t ss[32])
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(e->p);
	uint8_t gin[64], kr[64];

	memcpy(gin, m, 32);
	memcpy(gin + 32, e->h, 32);
	vg_hash(VG_HASH_SHA3_512, gin, sizeof(gin), kr);
	kpke_encrypt(kk, pp, VG_MLKEM_EXPEK_A(e), VG_MLKEM_EXPEK_T(e, pp->k),
	    m, kr + 32, c);
	memcpy(ss, kr, 32);
	vg_wipe(gin, sizeof(gin));
	vg_wipe(kr, sizeof(kr));
}

/* see crypto/mlkem_int.h
 * CT: the re-encryption is compared with vg_ct_memeq and the key chosen
 * with vg_ct_cmov; both keys are always computed. */
void
vg_mlkem_decaps_core(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_expanded_dk *d, const uint8_t *c, uint8_t kbar[32],
    uint8_t ss[32])
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(d->p);
	const struct vg_mlkem_expanded_ek *e =
	    VG_MLKEM_EXPDK_EK((struct vg_mlkem_expanded_dk *)d, pp->k);
	uint8_t gin[64], kr[64], cp[VG_MLKEM_MAX_CT_LEN];
	uint32_t eq;

	kpke_decrypt(kk, pp, VG_MLKEM_EXPDK_S(d), c, gin);
	memcpy(gin + 32, e->h, 32);
	vg_hash(VG_HASH_SHA3_512, gin, sizeof(gin), kr);
	kpke_encrypt(kk, pp, VG_MLKEM_EXPEK_A(e), VG_MLKEM_EXPEK_T(e, pp->k),
	    gin, kr + 32, cp);
	eq = vg_ct_memeq(c, cp, pp->ct_len);
	vg_ct_cmov(kbar, kr, 32, eq);
	memcpy(ss, kbar, 32);
	vg_wipe(gin, sizeof(gin));
	vg_wipe(kr, sizeof(kr));
	vg_wipe(cp, sizeof(cp));
	vg_wipe(&eq, sizeof(eq));
	vg_wipe(kbar, 32);
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_check_ek(enum vg_mlkem_param p, const uint8_t *ek, size_t eklen)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	if (pp == NULL || ek == NULL)
		return VG_ERR_ARG;
	if (eklen != pp->ek_len || !ek_modulus_ok(pp, ek))
		return VG_ERR_DECODE;
	return VG_OK;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_check_dk(enum vg_mlkem_param p, const uint8_t *dk, size_t dklen)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	if (pp == NULL || dk == NULL)
		return VG_ERR_ARG;
	if (dklen != pp->dk_len || !dk_hash_ok(pp, dk))
		return VG_ERR_DECODE;
	return VG_OK;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_keygen_internal_k(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t seed[VG_MLKEM_SEED_LEN],
    uint8_t *ek, uint8_t *dk)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);
	size_t off;

	if (kk == NULL || pp == NULL || seed == NULL || ek == NULL ||
	    dk == NULL)
		return VG_ERR_ARG;
	off = VG_MLKEM_POLY_BYTES * (size_t)pp->k;
	kpke_keygen(kk, pp, seed, ek, dk);
	memcpy(dk + off, ek, pp->ek_len);
	vg_hash(VG_HASH_SHA3_256, ek, pp->ek_len, dk + off + pp->ek_len);
	memcpy(dk + off + pp->ek_len + 32, seed + 32, 32);
	return VG_OK;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_keygen_internal(enum vg_mlkem_param p,
    const uint8_t seed[VG_MLKEM_SEED_LEN], uint8_t *ek, uint8_t *dk)
{
	return vg_mlkem_keygen_internal_k(kernels(), p, seed, ek, dk);
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_keygen(enum vg_mlkem_param p, struct vg_rng *rng, uint8_t *seed_out,
    uint8_t *ek, uint8_t *dk)
{
	uint8_t seed[VG_MLKEM_SEED_LEN];
	enum vg_err err;

	if (vg_mlkem_params(p) == NULL || rng == NULL || ek == NULL ||
	    dk == NULL)
		return VG_ERR_ARG;
	err = vg_rng_generate(rng, seed, sizeof(seed));
	if (err != VG_OK) {
		err = VG_ERR_RANDOM;
		goto out;
	}
	err = vg_mlkem_keygen_internal(p, seed, ek, dk);
	if (err == VG_OK && seed_out != NULL)
		memcpy(seed_out, seed, sizeof(seed));
out:
	vg_wipe(seed, sizeof(seed));
	return err;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_encaps_internal_k(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t *ek, size_t eklen,
    const uint8_t m[VG_MLKEM_M_LEN], uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN])
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);
	union vg_mlkem_exp_buf buf;
	enum vg_err err = VG_OK;

	if (kk == NULL || pp == NULL || ek == NULL || m == NULL || c == NULL ||
	    ss == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	/* the expanded ek on the stack, then the code of the expanded key */
	if (eklen != pp->ek_len || !vg_mlkem_expand_ek_core(kk, p, ek, NULL,
	    &buf.e)) {
		err = VG_ERR_DECODE;
		goto out;
	}
	vg_mlkem_encaps_core(kk, &buf.e, m, c, ss);
out:
	if (err != VG_OK) {
		if (ss != NULL)
			vg_wipe(ss, VG_MLKEM_SS_LEN);
		if (c != NULL && pp != NULL)
			vg_wipe(c, pp->ct_len);
	}
	return err;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_encaps_internal(enum vg_mlkem_param p, const uint8_t *ek,
    size_t eklen, const uint8_t m[VG_MLKEM_M_LEN], uint8_t *c,
    uint8_t ss[VG_MLKEM_SS_LEN])
{
	return vg_mlkem_encaps_internal_k(kernels(), p, ek, eklen, m, c, ss);
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_encaps(enum vg_mlkem_param p, struct vg_rng *rng, const uint8_t *ek,
    size_t eklen, uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN])
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);
	uint8_t m[VG_MLKEM_M_LEN];
	enum vg_err err;

	if (pp == NULL || rng == NULL || ek == NULL || c == NULL ||
	    ss == NULL) {
		err = VG_ERR_ARG;
		goto fail;
	}
	if (vg_rng_generate(rng, m, sizeof(m)) != VG_OK) {
		err = VG_ERR_RANDOM;
		goto fail;
	}
	err = vg_mlkem_encaps_internal(p, ek, eklen, m, c, ss);
	vg_wipe(m, sizeof(m));
	return err;
fail:
	vg_wipe(m, sizeof(m));
	if (ss != NULL)
		vg_wipe(ss, VG_MLKEM_SS_LEN);
	if (c != NULL && pp != NULL)
		vg_wipe(c, pp->ct_len);
	return err;
}

/* see crypto/mlkem.h
 * H(ek) for the hash check and J(z || c) run together on the 4-way
 * Keccak; then dk is expanded on the stack and decapsulated by the code of
 * the expanded key (vg_mlkem_decaps_core). */
enum vg_err
vg_mlkem_decaps_k(const struct vg_mlkem_kernels *kk, enum vg_mlkem_param p,
    const uint8_t *dk, size_t dklen, const uint8_t *c, size_t clen,
    uint8_t ss[VG_MLKEM_SS_LEN])
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);
	uint8_t kbar[32], hek[32], jin[32 + VG_MLKEM_MAX_CT_LEN];
	union vg_mlkem_exp_buf buf;
	const uint8_t *ek, *h, *z;
	enum vg_err err = VG_OK;
	uint32_t eq;
	size_t off;

	if (kk == NULL || pp == NULL || dk == NULL || c == NULL || ss == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (dklen != pp->dk_len) {
		err = VG_ERR_DECODE;
		goto out;
	}
	if (clen != pp->ct_len) {
		err = dk_hash_ok(pp, dk) ? VG_ERR_LENGTH : VG_ERR_DECODE;
		goto out;
	}
	off = VG_MLKEM_POLY_BYTES * (size_t)pp->k;
	ek = dk + off;
	h = ek + pp->ek_len;
	z = h + 32;
	memcpy(jin, z, 32);
	memcpy(jin + 32, c, clen);
	{
		uint8_t *const o[4] = { hek, kbar, hek, hek };
		const uint8_t *const in[4] = { ek, jin, ek, ek };
		const size_t len[4] = { pp->ek_len, 32 + clen, pp->ek_len,
			pp->ek_len };
		static const uint8_t ds[4] = { 0x06, 0x1f, 0x06, 0x06 };

		vg_mlkem_x4_hash32(kk, o, in, len, ds);
	}
	eq = vg_ct_memeq(hek, h, 32);
	VG_MLKEM_DECLASSIFY(&eq, sizeof(eq));
	if (!eq) {
		err = VG_ERR_DECODE;
		goto done;
	}
	vg_mlkem_expand_dk_core(kk, p, dk, hek, &buf.d);
	vg_mlkem_decaps_core(kk, &buf.d, c, kbar, ss);
	/* the secret part: z and s-hat (the ek after them is public) */
	vg_wipe(&buf, sizeof(buf.d) + pp->k * sizeof(struct vg_mlkem_poly));
done:
	vg_wipe(kbar, sizeof(kbar));
	vg_wipe(jin, 32);
out:
	if (err != VG_OK && ss != NULL)
		vg_wipe(ss, VG_MLKEM_SS_LEN);
	return err;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_decaps(enum vg_mlkem_param p, const uint8_t *dk, size_t dklen,
    const uint8_t *c, size_t clen, uint8_t ss[VG_MLKEM_SS_LEN])
{
	return vg_mlkem_decaps_k(kernels(), p, dk, dklen, c, clen, ss);
}
