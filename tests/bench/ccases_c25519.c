/*
 * X25519 and Ed25519 rows of the crypto benchmark (the table is in
 * ccases.c), against OpenSSL's libcrypto (EVP_PKEY X25519 and ED25519):
 * the same fixed keys on both sides, made in set-up; X25519 derives one
 * shared secret; Ed25519 generates a key pair from the DRBG (OpenSSL: from
 * its own), signs and verifies a 32-byte message (pure Ed25519). OpenSSL's
 * one-shot EVP_DigestSign/Verify run on a copy of a context initialised
 * once in set-up (EVP_MD_CTX_copy_ex), so that neither side pays for
 * fetching or key set-up in the timed loop.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/bench/ccase.h"

struct c25519_state {
	struct vg_rng rng;
	uint8_t xsk[32], xpeer[32];  /* X25519: our scalar, the peer's key */
	uint8_t seed[32], pk[32];    /* Ed25519 key pair */
	uint8_t msg[32], sig[64];
	EVP_PKEY *x, *xp, *ed;
	EVP_PKEY_CTX *derive, *gen;
	EVP_MD_CTX *sign0, *verify0, *work;
};

/* Key number i: SHA-256("vgtoken-bench 25519 key" || i). */
static void
fixed_key(unsigned i, uint8_t k[32])
{
	static const char tag[] = "vgtoken-bench 25519 key";
	uint8_t seed[sizeof(tag)];

	memcpy(seed, tag, sizeof(tag) - 1);
	seed[sizeof(tag) - 1] = (uint8_t)i;
	vg_hash(VG_HASH_SHA256, seed, sizeof(seed), k);
}

/* see tests/bench/ccase.h */
int
bench_c25519_setup(struct cstate *s)
{
	struct c25519_state *e = calloc(1, sizeof(*e));
	uint8_t peer_sk[32];

	s->extra = e;
	if (e == NULL || vg_rng_init(&e->rng) != VG_OK)
		return -1;
	fixed_key(1, e->xsk);
	fixed_key(2, peer_sk);
	fixed_key(3, e->seed);
	fixed_key(4, e->msg);
	if (vg_x25519_public(e->xpeer, peer_sk) != VG_OK ||
	    vg_ed25519_public(e->pk, e->seed) != VG_OK ||
	    vg_ed25519_sign(VG_ED25519_PURE, e->seed, e->pk, e->msg, 32, NULL,
		0, e->sig) != VG_OK)
		return -1;
	e->x = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, e->xsk, 32);
	e->xp = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, e->xpeer,
	    32);
	e->ed = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, e->seed,
	    32);
	if (e->x == NULL || e->xp == NULL || e->ed == NULL)
		return -1;
	e->derive = EVP_PKEY_CTX_new(e->x, NULL);
	if (e->derive == NULL || EVP_PKEY_derive_init(e->derive) != 1 ||
	    EVP_PKEY_derive_set_peer(e->derive, e->xp) != 1)
		return -1;
	e->gen = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
	if (e->gen == NULL || EVP_PKEY_keygen_init(e->gen) != 1)
		return -1;
	e->sign0 = EVP_MD_CTX_new();
	e->verify0 = EVP_MD_CTX_new();
	e->work = EVP_MD_CTX_new();
	if (e->sign0 == NULL || e->verify0 == NULL || e->work == NULL ||
	    EVP_DigestSignInit(e->sign0, NULL, NULL, NULL, e->ed) != 1 ||
	    EVP_DigestVerifyInit(e->verify0, NULL, NULL, NULL, e->ed) != 1)
		return -1;
	/* both sides agree */
	{
		uint8_t a[32], b[32], sig[64];
		size_t alen = 32, slen = 64;

		if (vg_x25519(a, e->xsk, e->xpeer) != VG_OK ||
		    EVP_PKEY_derive(e->derive, b, &alen) != 1 || alen != 32 ||
		    memcmp(a, b, 32) != 0 ||
		    EVP_MD_CTX_copy_ex(e->work, e->sign0) != 1 ||
		    EVP_DigestSign(e->work, sig, &slen, e->msg, 32) != 1 ||
		    slen != 64 || memcmp(sig, e->sig, 64) != 0)
			return -1;
	}
	vg_wipe(peer_sk, sizeof(peer_sk));
	return 0;
}

/* see tests/bench/ccase.h */
void
bench_c25519_teardown(struct cstate *s)
{
	struct c25519_state *e = s->extra;

	if (e == NULL)
		return;
	EVP_MD_CTX_free(e->sign0);
	EVP_MD_CTX_free(e->verify0);
	EVP_MD_CTX_free(e->work);
	EVP_PKEY_CTX_free(e->derive);
	EVP_PKEY_CTX_free(e->gen);
	EVP_PKEY_free(e->x);
	EVP_PKEY_free(e->xp);
	EVP_PKEY_free(e->ed);
	vg_rng_wipe(&e->rng);
	vg_wipe(e, sizeof(*e));
	free(e);
	s->extra = NULL;
}

/* see tests/bench/ccase.h */
int
bench_x25519_vg(struct cstate *s)
{
	struct c25519_state *e = s->extra;

	return vg_x25519(s->out, e->xsk, e->xpeer) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_x25519_ossl(struct cstate *s)
{
	struct c25519_state *e = s->extra;
	size_t len = 32;

	return EVP_PKEY_derive(e->derive, s->out, &len) == 1 ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_ed25519_keygen_vg(struct cstate *s)
{
	struct c25519_state *e = s->extra;
	uint8_t seed[32];
	int r;

	r = vg_ed25519_keygen(&e->rng, seed, s->out) == VG_OK ? 0 : -1;
	vg_wipe(seed, sizeof(seed));
	return r;
}

/* see tests/bench/ccase.h */
int
bench_ed25519_keygen_ossl(struct cstate *s)
{
	struct c25519_state *e = s->extra;
	EVP_PKEY *pkey = NULL;
	int ok = EVP_PKEY_keygen(e->gen, &pkey) == 1;

	EVP_PKEY_free(pkey);
	return ok ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_ed25519_sign_vg(struct cstate *s)
{
	struct c25519_state *e = s->extra;

	return vg_ed25519_sign(VG_ED25519_PURE, e->seed, e->pk, e->msg, 32,
	    NULL, 0, s->out) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_ed25519_sign_ossl(struct cstate *s)
{
	struct c25519_state *e = s->extra;
	size_t len = 64;

	return EVP_MD_CTX_copy_ex(e->work, e->sign0) == 1 &&
	    EVP_DigestSign(e->work, s->out, &len, e->msg, 32) == 1 ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_ed25519_verify_vg(struct cstate *s)
{
	struct c25519_state *e = s->extra;

	return vg_ed25519_verify(VG_ED25519_PURE, e->pk, e->msg, 32, NULL, 0,
	    e->sig, 64) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_ed25519_verify_ossl(struct cstate *s)
{
	struct c25519_state *e = s->extra;

	return EVP_MD_CTX_copy_ex(e->work, e->verify0) == 1 &&
	    EVP_DigestVerify(e->work, e->sig, 64, e->msg, 32) == 1 ? 0 : -1;
}

/* see tests/bench/ccase.h: the comb's and the double multiplication's
 * kernels */
void
bench_impl_ed25519(const struct vg_kernels *k, char *buf, size_t n)
{
	strncpy(buf, k->c25519.ed25519_impl, n - 1);
	buf[n - 1] = '\0';
}

/* see tests/bench/ccase.h */
void
bench_impl_c25519(const struct vg_kernels *k, char *buf, size_t n)
{
	strncpy(buf, k->c25519.impl, n - 1);
	buf[n - 1] = '\0';
}
