/*
 * Unit tests of ML-DSA's expanded keys (crypto/mldsa.h): for random keys
 * of ML-DSA-44/65/87, signing from the expanded private key gives the
 * same bytes as signing from the encoded key, for pure ML-DSA with
 * contexts, HashML-DSA with every pre-hash and external mu, hedged
 * (random rnd) and deterministic; every kernel set gives the same
 * expansion; the expanded public key verifies what the encoded one
 * verifies and rejects what it rejects; the sizes; and the errors (short
 * buffers, wrong lengths, out-of-range s1/s2, which leave the buffer
 * wiped, contexts over 255 bytes, unknown pre-hashes). The Wycheproof
 * vectors run through the expanded path in tests/kat/.
 * VG_TEST_SEED=<n> replays a run (the seed is printed).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/mldsa.h"
#include "tests/xorshift.h"

static const enum vg_mldsa_param sets[3] = {
	VG_MLDSA_44, VG_MLDSA_65, VG_MLDSA_87,
};

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

/* A key pair with both expanded forms. */
struct kp {
	enum vg_mldsa_param p;
	size_t pklen, sklen, siglen, esize, epsize;
	uint8_t pk[VG_MLDSA_MAX_PK_LEN];
	uint8_t sk[VG_MLDSA_MAX_SK_LEN];
	struct vg_mldsa_expanded *e;
	struct vg_mldsa_expanded_pk *ep;
};

static void *
alloc32(size_t n)
{
	void *p = NULL;

	assert_int_equal(posix_memalign(&p, 32, n), 0);
	memset(p, 0xa5, n);
	return p;
}

static void
make_key(struct kp *k, unsigned set)
{
	uint8_t xi[VG_MLDSA_SEED_LEN];

	k->p = sets[set];
	k->pklen = vg_mldsa_pk_len(k->p);
	k->sklen = vg_mldsa_sk_len(k->p);
	k->siglen = vg_mldsa_sig_len(k->p);
	k->esize = vg_mldsa_expanded_size(k->p);
	k->epsize = vg_mldsa_expanded_pk_size(k->p);
	rnd_bytes(xi, sizeof(xi));
	assert_int_equal(vg_mldsa_keygen_internal(k->p, xi, k->pk, k->sk),
	    VG_OK);
	k->e = alloc32(k->esize);
	k->ep = alloc32(k->epsize);
	assert_int_equal(vg_mldsa_expand_sk(k->p, k->sk, k->sklen, k->e,
	    k->esize), VG_OK);
	assert_int_equal(vg_mldsa_expand_pk(k->p, k->pk, k->pklen, k->ep,
	    k->epsize), VG_OK);
	assert_int_equal(vg_mldsa_expanded_param(k->e), k->p);
	assert_int_equal(vg_mldsa_expanded_pk_param(k->ep), k->p);
	assert_memory_equal(vg_mldsa_expanded_tr(k->e), k->sk + 64,
	    VG_MLDSA_TR_LEN);
}

static void
free_key(struct kp *k)
{
	free(k->e);
	free(k->ep);
}

static int
all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/* ------------------------------------------------------------ tests */

static void
test_sizes(void **state)
{
	(void)state;
	/* header, then k*l + l + 2k (private) or k*l + k (public) polys */
	assert_true(vg_mldsa_expanded_size(VG_MLDSA_44) >= 28 * 1024);
	assert_true(vg_mldsa_expanded_size(VG_MLDSA_44) < 29 * 1024);
	assert_true(vg_mldsa_expanded_size(VG_MLDSA_65) >= 47 * 1024);
	assert_true(vg_mldsa_expanded_size(VG_MLDSA_87) >= 79 * 1024);
	assert_true(vg_mldsa_expanded_size(VG_MLDSA_87) < 80 * 1024);
	assert_true(vg_mldsa_expanded_pk_size(VG_MLDSA_44) >= 20 * 1024);
	assert_true(vg_mldsa_expanded_pk_size(VG_MLDSA_87) >= 64 * 1024);
	assert_true(vg_mldsa_expanded_pk_size(VG_MLDSA_87) < 65 * 1024);
	assert_int_equal(vg_mldsa_expanded_size(VG_MLDSA_PARAM_COUNT), 0);
	assert_int_equal(vg_mldsa_expanded_pk_size((enum vg_mldsa_param)-1),
	    0);
}

/* Pure ML-DSA with contexts of 0..255 bytes and messages of several
 * lengths, hedged and deterministic: the same signature both ways, and
 * both verify forms accept it. */
static void
test_sign_equal(void **state)
{
	static const size_t mlens[] = { 0, 1, 33, 1000 };
	uint8_t a[VG_MLDSA_MAX_SIG_LEN], b[VG_MLDSA_MAX_SIG_LEN];
	uint8_t msg[1000], ctx[255], r[VG_MLDSA_RND_LEN];
	unsigned s, i;
	struct kp k;

	(void)state;
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		for (i = 0; i < 8; i++) {
			size_t mlen = mlens[i % 4];
			size_t ctxlen = i == 7 ? 255 : rnd() % 16;

			rnd_bytes(msg, mlen);
			rnd_bytes(ctx, ctxlen);
			if (i & 1)
				memset(r, 0, sizeof(r));
			else
				rnd_bytes(r, sizeof(r));
			assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
			    mlen, ctx, ctxlen, r, a), VG_OK);
			assert_int_equal(vg_mldsa_sign_expanded(k.e, msg, mlen,
			    ctx, ctxlen, r, b), VG_OK);
			assert_memory_equal(a, b, k.siglen);
			assert_int_equal(vg_mldsa_verify_expanded(k.ep, msg,
			    mlen, ctx, ctxlen, b, k.siglen), VG_OK);
			assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen,
			    msg, mlen, ctx, ctxlen, b, k.siglen), VG_OK);
			/* another context, a flipped bit: both reject */
			assert_int_equal(vg_mldsa_verify_expanded(k.ep, msg,
			    mlen, "x", 1, b, k.siglen), VG_ERR_AUTH);
			b[rnd() % k.siglen] ^= (uint8_t)(1u << (rnd() % 8));
			assert_int_equal(vg_mldsa_verify_expanded(k.ep, msg,
			    mlen, ctx, ctxlen, b, k.siglen),
			    vg_mldsa_verify(k.p, k.pk, k.pklen, msg, mlen, ctx,
			    ctxlen, b, k.siglen));
			assert_int_equal(vg_mldsa_verify_expanded(k.ep, msg,
			    mlen, ctx, ctxlen, b, k.siglen), VG_ERR_AUTH);
		}
		free_key(&k);
	}
}

/* HashML-DSA with each pre-hash and external mu. */
static void
test_hash_and_mu_equal(void **state)
{
	uint8_t a[VG_MLDSA_MAX_SIG_LEN], b[VG_MLDSA_MAX_SIG_LEN];
	uint8_t d[64], mu[VG_MLDSA_MU_LEN], r[VG_MLDSA_RND_LEN];
	unsigned s, ph;
	struct kp k;

	(void)state;
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		for (ph = 0; ph < VG_MLDSA_PH_COUNT; ph++) {
			size_t dlen = vg_mldsa_ph_len((enum vg_mldsa_ph)ph);

			rnd_bytes(d, dlen);
			rnd_bytes(r, sizeof(r));
			assert_int_equal(vg_mldsa_sign_hash(k.p, k.sk, k.sklen,
			    (enum vg_mldsa_ph)ph, d, dlen, "c", 1, r, a),
			    VG_OK);
			assert_int_equal(vg_mldsa_sign_hash_expanded(k.e,
			    (enum vg_mldsa_ph)ph, d, dlen, "c", 1, r, b),
			    VG_OK);
			assert_memory_equal(a, b, k.siglen);
			assert_int_equal(vg_mldsa_verify_hash_expanded(k.ep,
			    (enum vg_mldsa_ph)ph, d, dlen, "c", 1, b,
			    k.siglen), VG_OK);
			assert_int_equal(vg_mldsa_verify_hash(k.p, k.pk,
			    k.pklen, (enum vg_mldsa_ph)ph, d, dlen, "c", 1, b,
			    k.siglen), VG_OK);
			/* the pure verifier must not accept it */
			assert_int_equal(vg_mldsa_verify_expanded(k.ep, d,
			    dlen, "c", 1, b, k.siglen), VG_ERR_AUTH);
		}
		rnd_bytes(mu, sizeof(mu));
		rnd_bytes(r, sizeof(r));
		assert_int_equal(vg_mldsa_sign_mu(k.p, k.sk, k.sklen, mu, r, a),
		    VG_OK);
		assert_int_equal(vg_mldsa_sign_mu_expanded(k.e, mu, r, b),
		    VG_OK);
		assert_memory_equal(a, b, k.siglen);
		assert_int_equal(vg_mldsa_verify_mu_expanded(k.ep, mu, b,
		    k.siglen), VG_OK);
		mu[0] ^= 1;
		assert_int_equal(vg_mldsa_verify_mu_expanded(k.ep, mu, b,
		    k.siglen), VG_ERR_AUTH);
		free_key(&k);
	}
}

/* Each kernel set expands to the same bytes and signs the same. */
static void
test_kernel_sets(void **state)
{
	uint8_t a[VG_MLDSA_MAX_SIG_LEN], b[VG_MLDSA_MAX_SIG_LEN];
	uint8_t mu[VG_MLDSA_MU_LEN], r[VG_MLDSA_RND_LEN];
	struct vg_mldsa_expanded *e2;
	struct vg_mldsa_expanded_pk *ep2;
	unsigned masks[2] = { 0, vg_cpu_features() };
	struct vg_kernels kt;
	unsigned s, m;
	struct kp k;

	(void)state;
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		e2 = alloc32(k.esize);
		ep2 = alloc32(k.epsize);
		rnd_bytes(mu, sizeof(mu));
		rnd_bytes(r, sizeof(r));
		assert_int_equal(vg_mldsa_sign_mu_expanded(k.e, mu, r, a),
		    VG_OK);
		for (m = 0; m < 2; m++) {
			vg_kernels_fill(&kt, masks[m]);
			assert_int_equal(vg_mldsa_expand_sk_k(&kt.mldsa, k.p,
			    k.sk, k.sklen, e2, k.esize), VG_OK);
			assert_memory_equal(e2, k.e, k.esize);
			assert_int_equal(vg_mldsa_expand_pk_k(&kt.mldsa, k.p,
			    k.pk, k.pklen, ep2, k.epsize), VG_OK);
			assert_memory_equal(ep2, k.ep, k.epsize);
			assert_int_equal(vg_mldsa_sign_mu_expanded_k(&kt.mldsa,
			    e2, mu, r, b), VG_OK);
			assert_memory_equal(a, b, k.siglen);
			assert_int_equal(vg_mldsa_verify_mu_expanded_k(
			    &kt.mldsa, ep2, mu, b, k.siglen), VG_OK);
		}
		free(e2);
		free(ep2);
		free_key(&k);
	}
}

/* Errors: short buffers, wrong lengths, out-of-range s1, bad arguments. */
static void
test_errors(void **state)
{
	uint8_t sig[VG_MLDSA_MAX_SIG_LEN], sk[VG_MLDSA_MAX_SK_LEN];
	uint8_t ctx[256] = { 0 }, r[VG_MLDSA_RND_LEN] = { 0 };
	struct vg_mldsa_expanded *e;
	struct kp k;

	(void)state;
	make_key(&k, 0);
	e = alloc32(k.esize);
	assert_int_equal(vg_mldsa_expand_sk(k.p, k.sk, k.sklen, e,
	    k.esize - 1), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_expand_sk(VG_MLDSA_PARAM_COUNT, k.sk,
	    k.sklen, e, k.esize), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_expand_sk(k.p, NULL, k.sklen, e, k.esize),
	    VG_ERR_ARG);
	assert_int_equal(vg_mldsa_expand_sk(k.p, k.sk, k.sklen, NULL,
	    k.esize), VG_ERR_ARG);
	/* a key of another set's length is malformed: e left wiped */
	assert_int_equal(vg_mldsa_expand_sk(k.p, k.sk, k.sklen - 1, e,
	    k.esize), VG_ERR_DECODE);
	assert_true(all_zero((const uint8_t *)e, k.esize));
	/* the first coefficient of s1[0] out of range (3-bit 7 = -5) */
	memset(e, 0xa5, k.esize);
	memcpy(sk, k.sk, k.sklen);
	sk[128] |= 0x07;
	assert_int_equal(vg_mldsa_expand_sk(k.p, sk, k.sklen, e, k.esize),
	    VG_ERR_DECODE);
	assert_true(all_zero((const uint8_t *)e, k.esize));
	free(e);
	assert_int_equal(vg_mldsa_expand_pk(k.p, k.pk, k.pklen + 1, k.ep,
	    k.epsize), VG_ERR_DECODE);
	assert_int_equal(vg_mldsa_expand_pk(k.p, k.pk, k.pklen, k.ep,
	    k.epsize - 1), VG_ERR_ARG);
	/* a context of 256 bytes, an unknown pre-hash, a wrong digest
	 * length: nothing signed, sig wiped */
	memset(sig, 0x5a, sizeof(sig));
	assert_int_equal(vg_mldsa_sign_expanded(k.e, "m", 1, ctx, 256, r,
	    sig), VG_ERR_ARG);
	assert_true(all_zero(sig, k.siglen));
	memset(sig, 0x5a, sizeof(sig));
	assert_int_equal(vg_mldsa_sign_hash_expanded(k.e, VG_MLDSA_PH_COUNT,
	    ctx, 32, NULL, 0, r, sig), VG_ERR_ARG);
	assert_true(all_zero(sig, k.siglen));
	memset(sig, 0x5a, sizeof(sig));
	assert_int_equal(vg_mldsa_sign_hash_expanded(k.e, VG_MLDSA_PH_SHA256,
	    ctx, 31, NULL, 0, r, sig), VG_ERR_LENGTH);
	assert_true(all_zero(sig, k.siglen));
	assert_int_equal(vg_mldsa_sign_expanded(k.e, "m", 1, NULL, 0, NULL,
	    sig), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_sign_expanded(NULL, "m", 1, NULL, 0, r,
	    sig), VG_ERR_ARG);
	/* verification: wrong lengths */
	assert_int_equal(vg_mldsa_sign_expanded(k.e, "m", 1, NULL, 0, r, sig),
	    VG_OK);
	assert_int_equal(vg_mldsa_verify_expanded(k.ep, "m", 1, NULL, 0, sig,
	    k.siglen), VG_OK);
	assert_int_equal(vg_mldsa_verify_expanded(k.ep, "m", 1, NULL, 0, sig,
	    k.siglen - 1), VG_ERR_LENGTH);
	assert_int_equal(vg_mldsa_verify_hash_expanded(k.ep,
	    VG_MLDSA_PH_SHA256, ctx, 31, NULL, 0, sig, k.siglen),
	    VG_ERR_LENGTH);
	assert_int_equal(vg_mldsa_verify_expanded(k.ep, "m", 1, ctx, 256, sig,
	    k.siglen), VG_ERR_ARG);
	free_key(&k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_sign_equal),
		cmocka_unit_test(test_hash_and_mu_equal),
		cmocka_unit_test(test_kernel_sets),
		cmocka_unit_test(test_errors),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x4558504eULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
