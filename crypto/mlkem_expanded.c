/*
 * ML-KEM keys in expanded form (crypto/mlkem.h): the per-key part of
 * Encaps and Decaps [FIPS 203 Alg. 14 lines 2-8, Alg. 15 line 5, Alg. 17
 * line 1] done once, so that a key store can keep it with the loaded key.
 * The expansion and the operations themselves are in mlkem_api.c, where
 * the functions given an encoded key run the same code with the expansion
 * on the stack, which is what makes the results identical.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/drbg.h"
#include "crypto/hash.h"
#include "crypto/mlkem_int.h"

static const struct vg_mlkem_kernels *
kernels(void)
{
	return &vg_kernels()->mlkem;
}

static int
aligned32(const void *p)
{
	return ((uintptr_t)p & 31) == 0;
}

/* see crypto/mlkem.h */
size_t
vg_mlkem_expanded_ek_size(enum vg_mlkem_param p)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	return pp != NULL ? sizeof(struct vg_mlkem_expanded_ek) +
	    VG_MLKEM_EXPEK_POLYS(pp->k) * sizeof(struct vg_mlkem_poly) : 0;
}

/* see crypto/mlkem.h */
size_t
vg_mlkem_expanded_dk_size(enum vg_mlkem_param p)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	return pp != NULL ? sizeof(struct vg_mlkem_expanded_dk) +
	    pp->k * sizeof(struct vg_mlkem_poly) +
	    vg_mlkem_expanded_ek_size(p) : 0;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_expand_ek_k(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t *ek, size_t eklen,
    struct vg_mlkem_expanded_ek *e, size_t esize)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);

	if (kk == NULL || pp == NULL || e == NULL || ek == NULL ||
	    esize < vg_mlkem_expanded_ek_size(p) || !aligned32(e))
		return VG_ERR_ARG;
	if (eklen != pp->ek_len || !vg_mlkem_expand_ek_core(kk, p, ek, NULL,
	    e)) {
		vg_wipe(e, vg_mlkem_expanded_ek_size(p));
		return VG_ERR_DECODE;
	}
	return VG_OK;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_expand_ek(enum vg_mlkem_param p, const uint8_t *ek, size_t eklen,
    struct vg_mlkem_expanded_ek *e, size_t esize)
{
	return vg_mlkem_expand_ek_k(kernels(), p, ek, eklen, e, esize);
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_expand_dk_k(const struct vg_mlkem_kernels *kk,
    enum vg_mlkem_param p, const uint8_t *dk, size_t dklen,
    struct vg_mlkem_expanded_dk *d, size_t dsize)
{
	const struct vg_mlkem_params *pp = vg_mlkem_params(p);
	uint8_t hek[32];
	uint32_t ok;
	size_t off;

	if (kk == NULL || pp == NULL || d == NULL || dk == NULL ||
	    dsize < vg_mlkem_expanded_dk_size(p) || !aligned32(d))
		return VG_ERR_ARG;
	if (dklen != pp->dk_len)
		goto bad;
	/* the hash check [FIPS 203 §7.3] */
	off = VG_MLKEM_POLY_BYTES * (size_t)pp->k;
	vg_hash(VG_HASH_SHA3_256, dk + off, pp->ek_len, hek);
	ok = vg_ct_memeq(hek, dk + off + pp->ek_len, 32);
	VG_MLKEM_DECLASSIFY(&ok, sizeof(ok));
	if (!ok)
		goto bad;
	vg_mlkem_expand_dk_core(kk, p, dk, hek, d);
	return VG_OK;
bad:
	vg_wipe(d, vg_mlkem_expanded_dk_size(p));
	return VG_ERR_DECODE;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_expand_dk(enum vg_mlkem_param p, const uint8_t *dk, size_t dklen,
    struct vg_mlkem_expanded_dk *d, size_t dsize)
{
	return vg_mlkem_expand_dk_k(kernels(), p, dk, dklen, d, dsize);
}

/* see crypto/mlkem.h */
enum vg_mlkem_param
vg_mlkem_expanded_ek_param(const struct vg_mlkem_expanded_ek *e)
{
	return e->p;
}

/* see crypto/mlkem.h */
enum vg_mlkem_param
vg_mlkem_expanded_dk_param(const struct vg_mlkem_expanded_dk *d)
{
	return d->p;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_encaps_internal_expanded_k(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_expanded_ek *e, const uint8_t m[VG_MLKEM_M_LEN],
    uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN])
{
	const struct vg_mlkem_params *pp;

	if (e == NULL || (pp = vg_mlkem_params(e->p)) == NULL) {
		if (ss != NULL)
			vg_wipe(ss, VG_MLKEM_SS_LEN);
		return VG_ERR_ARG;
	}
	if (kk == NULL || m == NULL || c == NULL || ss == NULL) {
		if (ss != NULL)
			vg_wipe(ss, VG_MLKEM_SS_LEN);
		if (c != NULL)
			vg_wipe(c, pp->ct_len);
		return VG_ERR_ARG;
	}
	vg_mlkem_encaps_core(kk, e, m, c, ss);
	return VG_OK;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_encaps_internal_expanded(const struct vg_mlkem_expanded_ek *e,
    const uint8_t m[VG_MLKEM_M_LEN], uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN])
{
	return vg_mlkem_encaps_internal_expanded_k(kernels(), e, m, c, ss);
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_encaps_expanded(const struct vg_mlkem_expanded_ek *e,
    struct vg_rng *rng, uint8_t *c, uint8_t ss[VG_MLKEM_SS_LEN])
{
	uint8_t m[VG_MLKEM_M_LEN];
	enum vg_err err;

	if (rng == NULL)
		err = VG_ERR_ARG;
	else if (vg_rng_generate(rng, m, sizeof(m)) != VG_OK)
		err = VG_ERR_RANDOM;
	else
		err = vg_mlkem_encaps_internal_expanded(e, m, c, ss);
	if (err != VG_OK) {
		const struct vg_mlkem_params *pp =
		    e != NULL ? vg_mlkem_params(e->p) : NULL;

		if (ss != NULL)
			vg_wipe(ss, VG_MLKEM_SS_LEN);
		if (c != NULL && pp != NULL)
			vg_wipe(c, pp->ct_len);
	}
	vg_wipe(m, sizeof(m));
	return err;
}

/* see crypto/mlkem.h
 * J(z || c) here (the encoded-key path computes it beside H(ek)), then
 * the common Decaps. */
enum vg_err
vg_mlkem_decaps_expanded_k(const struct vg_mlkem_kernels *kk,
    const struct vg_mlkem_expanded_dk *d, const uint8_t *c, size_t clen,
    uint8_t ss[VG_MLKEM_SS_LEN])
{
	const struct vg_mlkem_params *pp;
	uint8_t kbar[32], jin[32 + VG_MLKEM_MAX_CT_LEN];
	enum vg_err err = VG_OK;

	if (kk == NULL || d == NULL || (pp = vg_mlkem_params(d->p)) == NULL ||
	    c == NULL || ss == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (clen != pp->ct_len) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	memcpy(jin, d->z, 32);
	memcpy(jin + 32, c, clen);
	vg_shake256(kbar, sizeof(kbar), jin, 32 + clen);
	vg_mlkem_decaps_core(kk, d, c, kbar, ss);
	vg_wipe(kbar, sizeof(kbar));
	vg_wipe(jin, 32);
out:
	if (err != VG_OK && ss != NULL)
		vg_wipe(ss, VG_MLKEM_SS_LEN);
	return err;
}

/* see crypto/mlkem.h */
enum vg_err
vg_mlkem_decaps_expanded(const struct vg_mlkem_expanded_dk *d,
    const uint8_t *c, size_t clen, uint8_t ss[VG_MLKEM_SS_LEN])
{
	return vg_mlkem_decaps_expanded_k(kernels(), d, c, clen, ss);
}
