/*
 * ML-DSA-44/65/87 against every test of Wycheproof's
 * mldsa_{44,65,87}_{sign_seed,sign_noseed,verify}_test.json, under every
 * kernel set (the portable twins, and the set the CPU and VG_CPU_FEATURES
 * allow), through the crypto layer.
 *
 *   sign_seed    KeyGen_internal(seed) must give the expected public key;
 *                each message is signed (deterministically, or with the
 *                test's rnd) and must give the expected mu and signature,
 *                which must verify; Internal tests sign the given mu.
 *   sign_noseed  the same from the expanded private key, which must also
 *                recompute the expected public key (vg_mldsa_sk_to_pk).
 *   verify       each signature must verify exactly when it is valid.
 *
 * Each also runs through the expanded keys (vg_mldsa_expand_sk / _pk):
 * the same signatures, the same verdicts.
 *
 * "invalid" must fail at some step (a seed that is not 32 bytes is
 * rejected by the harness, as the token does for CKA_SEED), "acceptable"
 * may go either way and is counted apart. The vectors come from
 * $VG_VECTORS_DIR (set by make check); without them the test prints
 * "FAIL: <reason>" and fails.
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

#include <json-c/json.h>

#include "tests/kat/wycheproof.h"

#include "crypto/cpu.h"
#include "crypto/mldsa.h"


struct kset {
	const char *name;
	struct vg_kernels k;
};

static struct kset ksets[3];
static unsigned nksets;

static void
check_outcome(const char *file, json_object *t, int want, int ok)
{
	int id = json_object_get_int(json_object_object_get(t, "tcId"));

	if (want >= 0 && want != ok)
		fail_msg("%s tcId %d (%s): expected %s, got %s", file, id,
		    wp_str(t, "comment"), want ? "valid" : "invalid",
		    ok ? "valid" : "invalid");
}

static enum vg_mldsa_param
param_of(int ps)
{
	return ps == 44 ? VG_MLDSA_44 : ps == 65 ? VG_MLDSA_65 : VG_MLDSA_87;
}

/* ------------------------------------------------------------ signing */

static void *
alloc32(size_t n)
{
	void *p = NULL;

	assert_int_equal(posix_memalign(&p, 32, n), 0);
	return p;
}

/* Signs mu (or msg when not NULL) with the expanded form of sk: built and
 * signed with kernel set ks (mode 2) or through the public API (3). */
static enum vg_err
sign_expanded(const struct kset *ks, int mode, enum vg_mldsa_param p,
    const uint8_t *sk, size_t sklen, const uint8_t *msg, size_t mlen,
    const uint8_t *ctx, size_t ctxlen, const uint8_t *mu, const uint8_t *r,
    uint8_t *sig)
{
	size_t n = vg_mldsa_expanded_size(p);
	struct vg_mldsa_expanded *e = alloc32(n);
	enum vg_err rv;

	if (mode == 2)
		rv = vg_mldsa_expand_sk_k(&ks->k.mldsa, p, sk, sklen, e, n);
	else
		rv = vg_mldsa_expand_sk(p, sk, sklen, e, n);
	if (rv == VG_OK && mode == 2)
		rv = vg_mldsa_sign_mu_expanded_k(&ks->k.mldsa, e, mu, r, sig);
	else if (rv == VG_OK && msg != NULL)
		rv = vg_mldsa_sign_expanded(e, msg, mlen, ctx, ctxlen, r, sig);
	else if (rv == VG_OK)
		rv = vg_mldsa_sign_mu_expanded(e, mu, r, sig);
	memset(e, 0, n);
	free(e);
	return rv;
}

/*
 * Signs one test with sk under kernel set k and returns 1 when everything
 * succeeded and matched the expected mu and signature. use_api: 0 signs
 * mu with the kernel set, 1 the message through the public API, 2 and 3
 * the same with the expanded key (sign_expanded).
 */
static int
sign_one(const struct kset *ks, int use_api, enum vg_mldsa_param p,
    const uint8_t *sk, size_t sklen, const uint8_t *pk, size_t pklen,
    json_object *t)
{
	const char *hmsg = wp_str(t, "msg"), *hctx = wp_str(t, "ctx");
	const char *hrnd = wp_str(t, "rnd"), *hmu = wp_str(t, "mu");
	const char *hsig = wp_str(t, "sig");
	uint8_t *msg = NULL, *ctx = NULL, *rnd = NULL, *want_mu = NULL;
	uint8_t *want_sig = NULL, zero[VG_MLDSA_RND_LEN] = { 0 };
	uint8_t mu[VG_MLDSA_MU_LEN], sig[VG_MLDSA_MAX_SIG_LEN];
	size_t mlen = 0, ctxlen = 0, rlen = 0, mulen = 0, siglen = 0;
	const uint8_t *r = zero;
	struct vg_mldsa_mu m;
	int ok = 0;

	if (hctx != NULL)
		ctx = wp_unhex(hctx, &ctxlen);
	if (hrnd != NULL) {
		rnd = wp_unhex(hrnd, &rlen);
		assert_int_equal(rlen, VG_MLDSA_RND_LEN);
		r = rnd;
	}
	if (hmu != NULL)
		want_mu = wp_unhex(hmu, &mulen);
	want_sig = wp_unhex(hsig, &siglen);
	if (sklen != vg_mldsa_sk_len(p))
		goto out;
	if (hmsg != NULL) {
		msg = wp_unhex(hmsg, &mlen);
		if (vg_mldsa_mu_init(&m, sk + 64, ctx, ctxlen) != VG_OK)
			goto out;
		vg_mldsa_mu_update(&m, msg, mlen);
		vg_mldsa_mu_final(&m, mu);
	} else {
		assert_non_null(want_mu);
		memcpy(mu, want_mu, sizeof(mu));
	}
	if (want_mu != NULL && memcmp(mu, want_mu, sizeof(mu)) != 0)
		goto out;
	if (use_api >= 2) {
		if (sign_expanded(ks, use_api, p, sk, sklen,
		    hmsg != NULL ? msg : NULL, mlen, ctx, ctxlen, mu, r,
		    sig) != VG_OK)
			goto out;
	} else if (use_api && hmsg != NULL) {
		if (vg_mldsa_sign(p, sk, sklen, msg, mlen, ctx, ctxlen, r,
		    sig) != VG_OK)
			goto out;
	} else if (vg_mldsa_sign_mu_k(&ks->k.mldsa, p, sk, sklen, mu, r,
	    sig) != VG_OK) {
		goto out;
	}
	if (siglen != 0 && (siglen != vg_mldsa_sig_len(p) ||
	    memcmp(sig, want_sig, siglen) != 0))
		goto out;
	if (pk != NULL && vg_mldsa_verify_mu_k(&ks->k.mldsa, p, pk, pklen, mu,
	    sig, vg_mldsa_sig_len(p)) != VG_OK)
		goto out;
	ok = 1;
out:
	free(msg);
	free(ctx);
	free(rnd);
	free(want_mu);
	free(want_sig);
	return ok;
}

static void
run_sign(int ps, int seeded)
{
	char name[64];
	enum vg_mldsa_param p = param_of(ps);
	json_object *root, *groups;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i, n = 0;
	unsigned s;

	snprintf(name, sizeof(name), "mldsa_%d_sign_%s_test.json", ps,
	    seeded ? "seed" : "noseed");
	root = wp_load(name);
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		json_object *tests = json_object_object_get(grp, "tests");
		const char *hpk = wp_str(grp, "publicKey");
		uint8_t *want_pk = NULL, *key, pk[VG_MLDSA_MAX_PK_LEN];
		uint8_t sk[VG_MLDSA_MAX_SK_LEN + 8];
		size_t pklen = 0, keylen, sklen = 0;

		if (hpk != NULL)
			want_pk = wp_unhex(hpk, &pklen);
		key = wp_unhex(wp_str(grp, seeded ? "privateSeed" : "privateKey"),
		    &keylen);
		for (s = 0; s < nksets; s++) {
			const struct kset *ks = &ksets[s];
			int key_ok;

			if (seeded) {
				/* CKA_SEED must be 32 bytes */
				key_ok = keylen == VG_MLDSA_SEED_LEN &&
				    vg_mldsa_keygen_internal_k(&ks->k.mldsa, p,
				    key, pk, sk) == VG_OK;
				sklen = vg_mldsa_sk_len(p);
			} else {
				/* an expanded key must check out and give
				 * back its public key */
				sklen = keylen <= sizeof(sk) ? keylen : 0;
				memcpy(sk, key, sklen);
				key_ok = vg_mldsa_sk_to_pk_k(&ks->k.mldsa, p,
				    sk, sklen, pk) == VG_OK;
			}
			if (key_ok && want_pk != NULL) {
				assert_int_equal(pklen, vg_mldsa_pk_len(p));
				assert_memory_equal(pk, want_pk, pklen);
			} else if (seeded) {
				assert_true(!key_ok && want_pk == NULL);
			}
			for (i = 0; i < json_object_array_length(tests); i++) {
				json_object *t = json_object_array_get_idx(tests,
				    i);
				struct wp_counts dummy;
				int want = wp_expected(t, s == 0 ? &c : &dummy);
				int ok;

				/* Sign must do its own checks on sk */
				ok = (key_ok || !seeded) && sign_one(ks, 0, p,
				    sk, sklen, key_ok ? pk : NULL, pklen, t);
				check_outcome(name, t, want, ok);
				ok = (key_ok || !seeded) && sign_one(ks, 2, p,
				    sk, sklen, key_ok ? pk : NULL, pklen, t);
				check_outcome(name, t, want, ok);
				if (s == 0 && (key_ok || !seeded)) {
					/* the public API on the global table */
					ok = sign_one(ks, 1, p, sk, sklen, NULL,
					    0, t);
					check_outcome(name, t, want, ok);
					ok = sign_one(ks, 3, p, sk, sklen, NULL,
					    0, t);
					check_outcome(name, t, want, ok);
				}
				n += s == 0;
			}
		}
		free(want_pk);
		free(key);
	}
	printf("# %s: %zu tests (%u valid, %u invalid, %u acceptable) x "
	    "%u kernel sets\n", name, n, c.valid, c.invalid, c.acceptable,
	    nksets);
	json_object_put(root);
}

/* ------------------------------------------------------------ verification */

static int
verify_one(const struct kset *ks, int use_api, enum vg_mldsa_param p,
    const uint8_t *pk, size_t pklen, json_object *t)
{
	const char *hctx = wp_str(t, "ctx");
	uint8_t *msg, *ctx = NULL, *sig;
	uint8_t tr[VG_MLDSA_TR_LEN], mu[VG_MLDSA_MU_LEN];
	size_t mlen, ctxlen = 0, siglen, n = vg_mldsa_expanded_pk_size(p);
	struct vg_mldsa_expanded_pk *ep = NULL;
	struct vg_mldsa_mu m;
	int ok = 0;

	msg = wp_unhex(wp_str(t, "msg"), &mlen);
	sig = wp_unhex(wp_str(t, "sig"), &siglen);
	if (hctx != NULL)
		ctx = wp_unhex(hctx, &ctxlen);
	if (use_api == 1) {
		ok = vg_mldsa_verify(p, pk, pklen, msg, mlen, ctx, ctxlen, sig,
		    siglen) == VG_OK;
		goto out;
	}
	if (use_api == 3) {
		ep = alloc32(n);
		ok = vg_mldsa_expand_pk(p, pk, pklen, ep, n) == VG_OK &&
		    vg_mldsa_verify_expanded(ep, msg, mlen, ctx, ctxlen, sig,
		    siglen) == VG_OK;
		goto out;
	}
	if (vg_mldsa_tr_from_pk(p, pk, pklen, tr) != VG_OK)
		goto out;
	if (vg_mldsa_mu_init(&m, tr, ctx, ctxlen) != VG_OK)
		goto out;
	vg_mldsa_mu_update(&m, msg, mlen);
	vg_mldsa_mu_final(&m, mu);
	if (use_api == 2) {
		ep = alloc32(n);
		ok = vg_mldsa_expand_pk_k(&ks->k.mldsa, p, pk, pklen, ep, n) ==
		    VG_OK && vg_mldsa_verify_mu_expanded_k(&ks->k.mldsa, ep,
		    mu, sig, siglen) == VG_OK;
		goto out;
	}
	ok = vg_mldsa_verify_mu_k(&ks->k.mldsa, p, pk, pklen, mu, sig,
	    siglen) == VG_OK;
out:
	free(ep);
	free(msg);
	free(ctx);
	free(sig);
	return ok;
}

static void
run_verify(int ps)
{
	char name[64];
	enum vg_mldsa_param p = param_of(ps);
	json_object *root, *groups;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i, n = 0;
	unsigned s;

	snprintf(name, sizeof(name), "mldsa_%d_verify_test.json", ps);
	root = wp_load(name);
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		json_object *tests = json_object_object_get(grp, "tests");
		size_t pklen;
		uint8_t *pk = wp_unhex(wp_str(grp, "publicKey"), &pklen);

		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);

			for (s = 0; s < nksets; s++) {
				check_outcome(name, t, want,
				    verify_one(&ksets[s], 0, p, pk, pklen, t));
				check_outcome(name, t, want,
				    verify_one(&ksets[s], 2, p, pk, pklen, t));
			}
			check_outcome(name, t, want,
			    verify_one(&ksets[0], 1, p, pk, pklen, t));
			check_outcome(name, t, want,
			    verify_one(&ksets[0], 3, p, pk, pklen, t));
			n++;
		}
		free(pk);
	}
	printf("# %s: %zu tests (%u valid, %u invalid, %u acceptable) x "
	    "%u kernel sets\n", name, n, c.valid, c.invalid, c.acceptable,
	    nksets);
	json_object_put(root);
}

static void test_sign_seed_44(void **s) { (void)s; run_sign(44, 1); }
static void test_sign_seed_65(void **s) { (void)s; run_sign(65, 1); }
static void test_sign_seed_87(void **s) { (void)s; run_sign(87, 1); }
static void test_sign_noseed_44(void **s) { (void)s; run_sign(44, 0); }
static void test_sign_noseed_65(void **s) { (void)s; run_sign(65, 0); }
static void test_sign_noseed_87(void **s) { (void)s; run_sign(87, 0); }
static void test_verify_44(void **s) { (void)s; run_verify(44); }
static void test_verify_65(void **s) { (void)s; run_verify(65); }
static void test_verify_87(void **s) { (void)s; run_verify(87); }

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign_seed_44),
		cmocka_unit_test(test_sign_seed_65),
		cmocka_unit_test(test_sign_seed_87),
		cmocka_unit_test(test_sign_noseed_44),
		cmocka_unit_test(test_sign_noseed_65),
		cmocka_unit_test(test_sign_noseed_87),
		cmocka_unit_test(test_verify_44),
		cmocka_unit_test(test_verify_65),
		cmocka_unit_test(test_verify_87),
	};
	static const char *const files[] = { "mldsa_44_verify_test.json" };
	unsigned f = vg_cpu_features();
	int rc = wp_init(files, 1);

	if (rc != 0)
		return rc;
	/* the global table first (its public API is exercised with it),
	 * then AVX2 without the AVX-512VL 4-way Keccak, then the portable
	 * twins, each when it differs from the sets before */
	vg_kernels_fill(&ksets[0].k, f);
	ksets[0].name = ksets[0].k.mldsa.impl;
	nksets = 1;
	if (strcmp(ksets[0].k.mldsa.impl, "avx2+avx512vl") == 0) {
		vg_kernels_fill(&ksets[nksets].k,
		    f & ~(unsigned)(VG_CPU_AVX512F | VG_CPU_AVX512VL));
		ksets[nksets++].name = "avx2";
	}
	if (strcmp(ksets[0].k.mldsa.impl, "c") != 0) {
		vg_kernels_fill(&ksets[nksets].k, 0);
		ksets[nksets++].name = "c";
	}
	printf("# kernel sets:");
	for (f = 0; f < nksets; f++)
		printf(" %s", ksets[f].name);
	printf("\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
