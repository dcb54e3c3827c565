/*
 * Ed25519, Ed25519ctx and Ed25519ph [RFC 8032 §5.1]: key expansion,
 * signing and cofactorless verification on SHA-512 (crypto/hash.h).
 */
#include "config.h"

#include <string.h>

#include "crypto/c25519.h"
#include "crypto/c25519_int.h"
#include "crypto/ct.h"
#include "crypto/drbg.h"
#include "crypto/hash.h"

/* The secret scalar a (clamped) and the prefix from H(seed) [§5.1.5]. */
static void
expand(uint8_t h[64], const uint8_t seed[32])
{
	vg_hash(VG_HASH_SHA512, seed, 32, h);
	h[0] &= 248;
	h[31] &= 127;
	h[31] |= 64;
}

static int
check_args(enum vg_ed25519_variant v, const void *msg, size_t mlen,
    const void *ctx, size_t ctxlen)
{
	if ((msg == NULL && mlen > 0) || (ctx == NULL && ctxlen > 0))
		return -1;
	if (ctxlen > VG_ED25519_CTX_MAX)
		return -1;
	switch (v) {
	case VG_ED25519_PURE:
		return ctxlen == 0 ? 0 : -1;
	case VG_ED25519_CTX:
		return ctxlen > 0 ? 0 : -1;
	case VG_ED25519_PH:
		return 0;
	case VG_ED25519_PH_DIGEST:
		return mlen == 64 ? 0 : -1;
	}
	return -1;
}

/* Starts H(dom2(phflag, ctx) || ...) [RFC 8032 §5.1]; pure Ed25519 has no
 * prefix. */
static void
hash_start(struct vg_hash *h, enum vg_ed25519_variant v, const void *ctx,
    size_t ctxlen)
{
	static const char dom[] = "SigEd25519 no Ed25519 collisions";
	uint8_t fl[2];

	vg_hash_init(h, VG_HASH_SHA512);
	if (v == VG_ED25519_PURE)
		return;
	fl[0] = v == VG_ED25519_PH || v == VG_ED25519_PH_DIGEST ? 1 : 0;
	fl[1] = (uint8_t)ctxlen;
	vg_hash_update(h, dom, sizeof(dom) - 1);
	vg_hash_update(h, fl, 2);
	vg_hash_update(h, ctx, ctxlen);
}

/* The message as signed: M itself, or SHA-512(M) for Ed25519ph (given
 * as msg for VG_ED25519_PH_DIGEST). */
static void
message(struct vg_hash *h, enum vg_ed25519_variant v, const void *msg,
    size_t mlen)
{
	uint8_t ph[64];

	if (v == VG_ED25519_PH) {
		vg_hash(VG_HASH_SHA512, msg, mlen, ph);
		vg_hash_update(h, ph, sizeof(ph));
	} else {
		vg_hash_update(h, msg, mlen);
	}
}

/* see crypto/c25519.h */
enum vg_err
vg_ed25519_public(uint8_t pk[VG_ED25519_PK_LEN],
    const uint8_t seed[VG_ED25519_SEED_LEN])
{
	uint8_t h[64];

	if (pk == NULL || seed == NULL)
		return VG_ERR_ARG;
	expand(h, seed);
	vg_ge25519_scalarmult_base_bytes(pk, h, 0);
	vg_wipe(h, sizeof(h));
	return VG_OK;
}

/* see crypto/c25519.h */
enum vg_err
vg_ed25519_keygen(struct vg_rng *rng, uint8_t seed[VG_ED25519_SEED_LEN],
    uint8_t pk[VG_ED25519_PK_LEN])
{
	uint8_t s[VG_ED25519_SEED_LEN];
	enum vg_err rv;

	if (rng == NULL || seed == NULL || pk == NULL)
		return VG_ERR_ARG;
	rv = vg_rng_generate(rng, s, sizeof(s));
	if (rv == VG_OK) {
		vg_ed25519_public(pk, s);
		memcpy(seed, s, sizeof(s));
	} else {
		rv = VG_ERR_RANDOM;
	}
	vg_wipe(s, sizeof(s));
	return rv;
}

/* see crypto/c25519.h
 * The secrets of a signature (the expanded key, both digests and r) sit
 * in one struct, wiped once. */
enum vg_err
vg_ed25519_sign(enum vg_ed25519_variant v,
    const uint8_t seed[VG_ED25519_SEED_LEN],
    const uint8_t pk[VG_ED25519_PK_LEN], const void *msg, size_t mlen,
    const void *ctx, size_t ctxlen, uint8_t sig[VG_ED25519_SIG_LEN])
{
	struct {
		uint8_t h[64], d[64], r[32];
		struct vg_hash hs;
	} w;

	if (seed == NULL || pk == NULL || sig == NULL ||
	    check_args(v, msg, mlen, ctx, ctxlen) != 0)
		return VG_ERR_ARG;
	expand(w.h, seed);
	/* r = H(dom2 || prefix || M) mod L */
	hash_start(&w.hs, v, ctx, ctxlen);
	vg_hash_update(&w.hs, w.h + 32, 32);
	message(&w.hs, v, msg, mlen);
	vg_hash_final(&w.hs, w.d);
	vg_sc25519_reduce64(w.r, w.d);
	/* R = [r]B, r < L < 2^253: the short comb; pk is the caller's
	 * (crypto/c25519.h) */
	vg_ge25519_scalarmult_base_bytes(sig, w.r, VG_GE25519_BASE_SHORT);
	/* k = H(dom2 || R || A || M) mod L; S = r + k a mod L */
	hash_start(&w.hs, v, ctx, ctxlen);
	vg_hash_update(&w.hs, sig, 32);
	vg_hash_update(&w.hs, pk, 32);
	message(&w.hs, v, msg, mlen);
	vg_hash_final(&w.hs, w.d);
	vg_sc25519_muladd64(sig + 32, w.r, w.d, w.h);
	vg_wipe(&w, sizeof(w));
	return VG_OK;
}

/* see crypto/c25519.h */
enum vg_err
vg_ed25519_verify(enum vg_ed25519_variant v,
    const uint8_t pk[VG_ED25519_PK_LEN], const void *msg, size_t mlen,
    const void *ctx, size_t ctxlen, const uint8_t *sig, size_t siglen)
{
	struct vg_ge25519 A, R;
	struct vg_hash hs;
	uint8_t d[64], k[32], rb[32];

	if (pk == NULL || (sig == NULL && siglen > 0) ||
	    check_args(v, msg, mlen, ctx, ctxlen) != 0)
		return VG_ERR_ARG;
	if (siglen != VG_ED25519_SIG_LEN)
		return VG_ERR_LENGTH;
	if (vg_ge25519_frombytes(&A, pk) != 0)
		return VG_ERR_DECODE;
	if (!vg_sc25519_is_canonical(sig + 32))
		return VG_ERR_AUTH;
	hash_start(&hs, v, ctx, ctxlen);
	vg_hash_update(&hs, sig, 32);
	vg_hash_update(&hs, pk, 32);
	message(&hs, v, msg, mlen);
	vg_hash_final(&hs, d);
	vg_sc25519_reduce64(k, d);
	/* R' = [S]B - [k]A; the encoding of R' is canonical, so comparing
	 * bytes also refuses a non-canonical R. */
	vg_fe25519_neg(A.X, A.X);
	vg_fe25519_neg(A.T, A.T);
	vg_ge25519_double_scalarmult_vartime(&R, k, &A, sig + 32);
	vg_ge25519_tobytes(rb, &R);
	return memcmp(rb, sig, 32) == 0 ? VG_OK : VG_ERR_AUTH;
}

/* see crypto/c25519.h */
enum vg_err
vg_ed25519_check_public(const uint8_t pk[VG_ED25519_PK_LEN])
{
	struct vg_ge25519 A;

	if (pk == NULL || vg_ge25519_frombytes(&A, pk) != 0)
		return VG_ERR_DECODE;
	return VG_OK;
}
