/*
 * P-256 keys: private scalar decoding and generation, public points
 * (decoding with full validation, encodings), the fixed-base public key
 * and ECDH.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/der.h"
#include "crypto/drbg.h"
#include "crypto/p256.h"
#include "crypto/p256_int.h"

static const struct vg_p256_kernels *
kernels(void)
{
	return &vg_kernels()->p256;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_priv_decode(struct vg_p256_priv *k, const uint8_t *in, size_t len)
{
	uint8_t buf[VG_P256_SCALAR_LEN];
	uint64_t hi = 0, ok;
	enum vg_err err = VG_OK;
	size_t i;

	assert(k != NULL && (in != NULL || len == 0));
	if (len == 0) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	/* bytes above the low 32 must be zero */
	for (i = 0; i + VG_P256_SCALAR_LEN < len; i++)
		hi |= in[i];
	memset(buf, 0, sizeof(buf));
	if (len >= sizeof(buf))
		memcpy(buf, in + len - sizeof(buf), sizeof(buf));
	else
		memcpy(buf + sizeof(buf) - len, in, len);
	vg_p256_from_be(k->d, buf);
	ok = vg_ct_zero_mask64(hi) & vg_p256_ord_valid_mask(k->d);
	if (!vg_p256_public(ok)) {
		vg_p256_priv_wipe(k);
		err = VG_ERR_ARG;
	}
out:
	vg_wipe(buf, sizeof(buf));
	return err;
}

/* see crypto/p256.h */
void
vg_p256_priv_encode(uint8_t out[VG_P256_SCALAR_LEN],
    const struct vg_p256_priv *k)
{
	vg_p256_to_be(out, k->d);
}

/* see crypto/p256.h */
void
vg_p256_priv_wipe(struct vg_p256_priv *k)
{
	if (k != NULL)
		vg_wipe(k, sizeof(*k));
}

/* Affine point to a public key (leaves Montgomery form as is). */
static void
aff_to_pub(struct vg_p256_pub *pub, const struct vg_p256_aff *a)
{
	vg_p256_copy4(pub->x, a->x);
	vg_p256_copy4(pub->y, a->y);
}

/*
 * pub = [d]G for a valid d. Returns all-ones if the result passed the
 * self-check (not infinity, on the curve).
 */
static uint64_t
base_pub(const struct vg_p256_kernels *k, struct vg_p256_pub *pub,
    const uint64_t d[4])
{
	struct vg_p256_jac r;
	struct vg_p256_aff a;
	uint64_t ok;

	vg_p256_base_mul(k, &r, d);
	ok = vg_p256_point_to_affine(k, &a, &r);
	ok &= vg_p256_point_on_curve(k, &a);
	aff_to_pub(pub, &a);
	vg_wipe(&r, sizeof(r));
	return ok;
}

/* see crypto/p256_int.h */
enum vg_err
vg_p256_pub_from_priv_k(const struct vg_p256_kernels *ker,
    struct vg_p256_pub *pub, const struct vg_p256_priv *k)
{
	enum vg_err err = VG_ERR_ARG;

	if (vg_p256_public(vg_p256_ord_valid_mask(k->d))) {
		err = vg_p256_public(base_pub(ker, pub, k->d)) ? VG_OK :
		    VG_ERR_INTERNAL;
		VG_WIPE_STACK(VG_P256_SCRUB_LEN);
	}
	return err;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_pub_from_priv(struct vg_p256_pub *pub, const struct vg_p256_priv *k)
{
	return vg_p256_pub_from_priv_k(kernels(), pub, k);
}

/* see crypto/p256.h */
enum vg_err
vg_p256_keygen(struct vg_p256_priv *k, struct vg_p256_pub *pub,
    vg_p256_random_fn rnd, void *ctx)
{
	uint8_t buf[VG_P256_SCALAR_LEN];
	struct vg_p256_pub tmp;
	enum vg_err err = VG_ERR_RANDOM;
	int tries;

	for (tries = 0; tries < 64; tries++) {
		err = rnd(ctx, buf, sizeof(buf));
		if (err != VG_OK)
			goto out;
		vg_p256_from_be(k->d, buf);
		/* a rejected draw is discarded: that it was is public */
		if (vg_p256_public(vg_p256_ord_valid_mask(k->d)))
			break;
		err = VG_ERR_RANDOM;
	}
	if (err != VG_OK)
		goto out;
	if (!vg_p256_public(base_pub(kernels(), pub != NULL ? pub : &tmp,
	    k->d)))
		err = VG_ERR_INTERNAL;
	VG_WIPE_STACK(VG_P256_SCRUB_LEN);
out:
	if (err != VG_OK)
		vg_p256_priv_wipe(k);
	vg_wipe(buf, sizeof(buf));
	return err;
}

static enum vg_err
rng_source(void *ctx, uint8_t *out, size_t len)
{
	return vg_rng_generate(ctx, out, len);
}

/* see crypto/p256.h */
enum vg_err
vg_p256_keygen_rng(struct vg_p256_priv *k, struct vg_p256_pub *pub,
    struct vg_rng *rng)
{
	return vg_p256_keygen(k, pub, rng_source, rng);
}

/* see crypto/p256.h */
enum vg_err
vg_p256_check_pair(const struct vg_p256_priv *k, const struct vg_p256_pub *pub)
{
	struct vg_p256_pub t;
	enum vg_err err = VG_ERR_ARG;
	uint64_t ok;

	if (vg_p256_public(vg_p256_ord_valid_mask(k->d))) {
		ok = base_pub(kernels(), &t, k->d);
		VG_WIPE_STACK(VG_P256_SCRUB_LEN);
		ok &= vg_p256_eq4_mask(t.x, pub->x) &
		    vg_p256_eq4_mask(t.y, pub->y);
		if (vg_p256_public(ok))
			err = VG_OK;
	}
	return err;
}

/* see crypto/p256_int.h */
enum vg_err
vg_p256_pub_decode_k(const struct vg_p256_kernels *k, struct vg_p256_pub *pub,
    const uint8_t *in, size_t len)
{
	struct vg_p256_aff a;
	uint64_t ok = 0;

	if (len == VG_P256_POINT_LEN && in[0] == 0x04) {
		ok = vg_p256_fe_from_bytes(k, a.x, in + 1);
		ok &= vg_p256_fe_from_bytes(k, a.y, in + 33);
		ok &= vg_p256_point_on_curve(k, &a);
	} else if (len == VG_P256_POINT_COMPRESSED_LEN &&
	    (in[0] == 0x02 || in[0] == 0x03)) {
		uint64_t rhs[4], ny[4];
		uint8_t yb[32];

		/* y = +-sqrt(x^3 - 3x + b), the sign from the prefix */
		ok = vg_p256_fe_from_bytes(k, a.x, in + 1);
		vg_p256_curve_rhs(k, rhs, a.x);
		ok &= vg_p256_fe_sqrt(k, a.y, rhs);
		vg_p256_fe_to_bytes(k, yb, a.y);
		vg_p256_fe_neg(ny, a.y);
		vg_p256_cmov4(a.y, ny, 0 - (uint64_t)((yb[31] ^ in[0]) & 1));
	}
	if (ok)
		aff_to_pub(pub, &a);
	return ok ? VG_OK : VG_ERR_DECODE;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_pub_decode(struct vg_p256_pub *pub, const uint8_t *in, size_t len)
{
	return vg_p256_pub_decode_k(kernels(), pub, in, len);
}

/* see crypto/p256_int.h */
enum vg_err
vg_p256_pub_decode_ec_point_k(const struct vg_p256_kernels *k,
    struct vg_p256_pub *pub, const uint8_t *in, size_t len)
{
	struct vg_der cur = vg_der_make(in, len), str;
	enum vg_err err = VG_ERR_DECODE;

	if (len == VG_P256_POINT_LEN || len == VG_P256_POINT_COMPRESSED_LEN)
		err = vg_p256_pub_decode_k(k, pub, in, len);
	else if (vg_der_get_octet_string(&cur, &str) == VG_OK &&
	    vg_der_at_end(&cur) && (str.len == VG_P256_POINT_LEN ||
	    str.len == VG_P256_POINT_COMPRESSED_LEN))
		err = vg_p256_pub_decode_k(k, pub, str.p, str.len);
	return err;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_pub_decode_ec_point(struct vg_p256_pub *pub, const uint8_t *in,
    size_t len)
{
	return vg_p256_pub_decode_ec_point_k(kernels(), pub, in, len);
}

/* see crypto/p256.h */
void
vg_p256_pub_encode(uint8_t out[VG_P256_POINT_LEN],
    const struct vg_p256_pub *pub)
{
	const struct vg_p256_kernels *k = kernels();

	out[0] = 0x04;
	vg_p256_fe_to_bytes(k, out + 1, pub->x);
	vg_p256_fe_to_bytes(k, out + 33, pub->y);
}

/* see crypto/p256.h */
void
vg_p256_pub_encode_compressed(uint8_t out[VG_P256_POINT_COMPRESSED_LEN],
    const struct vg_p256_pub *pub)
{
	const struct vg_p256_kernels *k = kernels();
	uint8_t yb[32];

	vg_p256_fe_to_bytes(k, yb, pub->y);
	out[0] = (uint8_t)(0x02 | (yb[31] & 1));
	vg_p256_fe_to_bytes(k, out + 1, pub->x);
}

/* see crypto/p256.h */
void
vg_p256_pub_encode_ec_point(uint8_t out[VG_P256_EC_POINT_LEN],
    const struct vg_p256_pub *pub)
{
	out[0] = 0x04;
	out[1] = VG_P256_POINT_LEN;
	vg_p256_pub_encode(out + 2, pub);
}

/* see crypto/p256_int.h */
enum vg_err
vg_p256_ecdh_k(const struct vg_p256_kernels *ker,
    uint8_t shared[VG_P256_SHARED_LEN], const struct vg_p256_priv *k,
    const struct vg_p256_pub *peer)
{
	struct vg_p256_aff p, a;
	struct vg_p256_jac r;
	uint64_t ok;
	enum vg_err err = VG_OK;

	if (!vg_p256_public(vg_p256_ord_valid_mask(k->d))) {
		err = VG_ERR_ARG;
		goto out;
	}
	vg_p256_copy4(p.x, peer->x);
	vg_p256_copy4(p.y, peer->y);
	vg_p256_point_mul(ker, &r, &p, k->d);
	/* a fault (or an invalid peer smuggled past decoding) must not
	 * release anything: check the result is a point of the curve */
	ok = vg_p256_point_to_affine(ker, &a, &r);
	ok &= vg_p256_point_on_curve(ker, &a);
	vg_p256_fe_to_bytes(ker, shared, a.x);
	VG_WIPE_STACK(VG_P256_SCRUB_LEN);
	if (!vg_p256_public(ok))
		err = VG_ERR_INTERNAL;
out:
	if (err != VG_OK)
		vg_wipe(shared, VG_P256_SHARED_LEN);
	vg_wipe(&r, sizeof(r));
	vg_wipe(&a, sizeof(a));
	return err;
}

/* see crypto/p256.h */
enum vg_err
vg_p256_ecdh(uint8_t shared[VG_P256_SHARED_LEN], const struct vg_p256_priv *k,
    const struct vg_p256_pub *peer)
{
	return vg_p256_ecdh_k(kernels(), shared, k, peer);
}
