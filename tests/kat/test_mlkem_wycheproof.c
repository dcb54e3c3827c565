/*
 * ML-KEM-512/768/1024 against every test of Wycheproof's
 * mlkem_{512,768,1024}_{keygen_seed,encaps,semi_expanded_decaps}_test.json
 * and mlkem_{512,768,1024}_test.json, under every kernel set (the
 * portable twins, and the set the CPU and VG_CPU_FEATURES allow), through
 * the crypto layer.
 *
 *   keygen_seed   KeyGen_internal(seed) must give the expected ek and dk,
 *                 which pass the input checks.
 *   encaps        Encaps_internal(ek, m) must give the expected c and K,
 *                 or fail the modulus or length check (VG_ERR_DECODE).
 *   semi_expanded Decaps(dk, c) must give the expected K, or reject a dk
 *   _decaps       of the wrong length or with a wrong H(ek)
 *                 (VG_ERR_DECODE) or a c of the wrong length
 *                 (VG_ERR_LENGTH).
 *   test          KeyGen_internal(seed) gives ek; Decaps(dk, c) gives K
 *                 (implicit rejection included); a seed that is not 64
 *                 bytes is rejected by the harness (as the token does for
 *                 CKA_SEED), a c of the wrong length by Decaps.
 *
 * Every encaps and decaps also runs with the key in expanded form
 * (vg_mlkem_expand_ek / _dk), which must refuse the same keys and give
 * byte-identical results.
 *
 * "invalid" must fail at some step. The vectors come from $VG_VECTORS_DIR
 * (set by make check); without them the test prints "FAIL: <reason>" and
 * fails.
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
#include "crypto/mlkem.h"
#include "tests/kat/mlkem_ksets.h"

static struct mlkem_kset ksets[MLKEM_MAX_KSETS];
static unsigned nksets;

static void
check_outcome(const char *file, json_object *t, int want, int ok,
    const char *kname)
{
	int id = json_object_get_int(json_object_object_get(t, "tcId"));

	if (want >= 0 && want != ok)
		fail_msg("%s tcId %d (%s) kernels %s: expected %s, got %s",
		    file, id, wp_str(t, "comment"), kname,
		    want ? "valid" : "invalid", ok ? "valid" : "invalid");
}

static enum vg_mlkem_param
param_of(int ps)
{
	return ps == 512 ? VG_MLKEM_512 : ps == 768 ? VG_MLKEM_768 :
	    VG_MLKEM_1024;
}

static int
eq(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

/* Room for an expanded key, aligned as a key store's pages are. */
static uint8_t xbuf[16384] __attribute__((aligned(64)));

/* Decaps with dk expanded under ks must agree with rv and ss of the
 * encoded-key function. */
static void
decaps_expanded_agrees(const struct mlkem_kset *ks, enum vg_mlkem_param p,
    const uint8_t *dk, size_t dklen, const uint8_t *c, size_t clen,
    enum vg_err rv, const uint8_t ss[VG_MLKEM_SS_LEN])
{
	struct vg_mlkem_expanded_dk *xd = (void *)xbuf;
	uint8_t ss2[VG_MLKEM_SS_LEN];
	enum vg_err xrv;

	xrv = vg_mlkem_expand_dk_k(&ks->k.mlkem, p, dk, dklen, xd,
	    sizeof(xbuf));
	if (xrv != VG_OK) {
		assert_int_equal(xrv, VG_ERR_DECODE);
		assert_int_equal(rv, VG_ERR_DECODE);
		return;
	}
	assert_int_equal(vg_mlkem_decaps_expanded_k(&ks->k.mlkem, xd, c, clen,
	    ss2), rv);
	if (rv == VG_OK)
		assert_memory_equal(ss, ss2, VG_MLKEM_SS_LEN);
}

/* The driver: runs one() on every test of the file under every kernel
 * set. */
typedef int (*one_fn)(const struct mlkem_kset *ks, enum vg_mlkem_param p,
    json_object *t);

static void
run_file(const char *kind, int ps, one_fn one)
{
	char name[80];
	json_object *root, *groups;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i, n = 0;
	unsigned s;

	snprintf(name, sizeof(name), "mlkem_%d_%s.json", ps, kind);
	root = wp_load(name);
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		json_object *tests = json_object_object_get(grp, "tests");
		char want_ps[16];

		snprintf(want_ps, sizeof(want_ps), "ML-KEM-%d", ps);
		assert_string_equal(wp_str(grp, "parameterSet"), want_ps);
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);

			for (s = 0; s < nksets; s++)
				check_outcome(name, t, want,
				    one(&ksets[s], param_of(ps), t),
				    ksets[s].name);
			n++;
		}
	}
	printf("# %s: %zu tests (%u valid, %u invalid, %u acceptable) x "
	    "%u kernel sets\n", name, n, c.valid, c.invalid, c.acceptable,
	    nksets);
	assert_true(n > 0);
	json_object_put(root);
}

static int
keygen_one(const struct mlkem_kset *ks, enum vg_mlkem_param p, json_object *t)
{
	size_t slen, eklen, dklen;
	uint8_t *seed = wp_unhex(wp_str(t, "seed"), &slen);
	uint8_t *wek = wp_unhex(wp_str(t, "ek"), &eklen);
	uint8_t *wdk = wp_unhex(wp_str(t, "dk"), &dklen);
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
	int ok = 0;

	if (slen == VG_MLKEM_SEED_LEN &&
	    vg_mlkem_keygen_internal_k(&ks->k.mlkem, p, seed, ek, dk) ==
	    VG_OK) {
		ok = eq(ek, vg_mlkem_ek_len(p), wek, eklen) &&
		    eq(dk, vg_mlkem_dk_len(p), wdk, dklen);
		assert_int_equal(vg_mlkem_check_ek(p, ek, vg_mlkem_ek_len(p)),
		    VG_OK);
		assert_int_equal(vg_mlkem_check_dk(p, dk, vg_mlkem_dk_len(p)),
		    VG_OK);
	}
	free(seed);
	free(wek);
	free(wdk);
	return ok;
}

static int
encaps_one(const struct mlkem_kset *ks, enum vg_mlkem_param p, json_object *t)
{
	size_t mlen, eklen, clen, klen;
	uint8_t *m = wp_unhex(wp_str(t, "m"), &mlen);
	uint8_t *ek = wp_unhex(wp_str(t, "ek"), &eklen);
	uint8_t *wc = wp_unhex(wp_str(t, "c"), &clen);
	uint8_t *wk = wp_unhex(wp_str(t, "K"), &klen);
	uint8_t c[VG_MLKEM_MAX_CT_LEN], ss[VG_MLKEM_SS_LEN];
	enum vg_err rv;
	int ok = 0;

	assert_int_equal(mlen, VG_MLKEM_M_LEN);
	rv = vg_mlkem_encaps_internal_k(&ks->k.mlkem, p, ek, eklen, m, c, ss);
	if (rv == VG_OK)
		ok = eq(c, vg_mlkem_ct_len(p), wc, clen) &&
		    eq(ss, sizeof(ss), wk, klen);
	else
		assert_int_equal(rv, VG_ERR_DECODE);
	/* the expanded form refuses the same keys and agrees */
	{
		struct vg_mlkem_expanded_ek *xe = (void *)xbuf;
		uint8_t c2[VG_MLKEM_MAX_CT_LEN], ss2[VG_MLKEM_SS_LEN];

		assert_int_equal(vg_mlkem_expand_ek_k(&ks->k.mlkem, p, ek,
		    eklen, xe, sizeof(xbuf)), rv);
		if (rv == VG_OK) {
			assert_int_equal(vg_mlkem_encaps_internal_expanded_k(
			    &ks->k.mlkem, xe, m, c2, ss2), VG_OK);
			assert_memory_equal(c, c2, vg_mlkem_ct_len(p));
			assert_memory_equal(ss, ss2, sizeof(ss));
		}
	}
	/* the stand-alone check agrees */
	assert_int_equal(vg_mlkem_check_ek(p, ek, eklen), rv);
	free(m);
	free(ek);
	free(wc);
	free(wk);
	return ok;
}

static int
decaps_one(const struct mlkem_kset *ks, enum vg_mlkem_param p, json_object *t)
{
	size_t dklen, clen, klen;
	uint8_t *dk = wp_unhex(wp_str(t, "dk"), &dklen);
	uint8_t *c = wp_unhex(wp_str(t, "c"), &clen);
	const char *hk = wp_str(t, "K");
	uint8_t *wk = hk != NULL ? wp_unhex(hk, &klen) : NULL;
	uint8_t ss[VG_MLKEM_SS_LEN];
	enum vg_err rv;
	int ok = 0;

	rv = vg_mlkem_decaps_k(&ks->k.mlkem, p, dk, dklen, c, clen, ss);
	if (rv == VG_OK) {
		ok = wk != NULL && eq(ss, sizeof(ss), wk, klen);
	} else {
		/* the right error for the input that is wrong */
		if (dklen != vg_mlkem_dk_len(p) ||
		    vg_mlkem_check_dk(p, dk, dklen) != VG_OK)
			assert_int_equal(rv, VG_ERR_DECODE);
		else
			assert_int_equal(rv, VG_ERR_LENGTH);
	}
	decaps_expanded_agrees(ks, p, dk, dklen, c, clen, rv, ss);
	free(dk);
	free(c);
	free(wk);
	return ok;
}

static int
kem_one(const struct mlkem_kset *ks, enum vg_mlkem_param p, json_object *t)
{
	size_t slen, eklen, clen, klen;
	uint8_t *seed = wp_unhex(wp_str(t, "seed"), &slen);
	const char *hek = wp_str(t, "ek"), *hk = wp_str(t, "K");
	uint8_t *wek = hek != NULL ? wp_unhex(hek, &eklen) : NULL;
	uint8_t *c = wp_unhex(wp_str(t, "c"), &clen);
	uint8_t *wk = hk != NULL ? wp_unhex(hk, &klen) : NULL;
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
	uint8_t ss[VG_MLKEM_SS_LEN];
	enum vg_err rv;
	int ok = 0;

	if (slen != VG_MLKEM_SEED_LEN)
		goto out;
	assert_int_equal(vg_mlkem_keygen_internal_k(&ks->k.mlkem, p, seed,
	    ek, dk), VG_OK);
	if (wek != NULL && !eq(ek, vg_mlkem_ek_len(p), wek, eklen))
		goto out;
	rv = vg_mlkem_decaps_k(&ks->k.mlkem, p, dk, vg_mlkem_dk_len(p), c,
	    clen, ss);
	decaps_expanded_agrees(ks, p, dk, vg_mlkem_dk_len(p), c, clen, rv,
	    ss);
	if (rv != VG_OK) {
		assert_int_equal(rv, VG_ERR_LENGTH);
		goto out;
	}
	ok = wk != NULL && eq(ss, sizeof(ss), wk, klen);
out:
	free(seed);
	free(wek);
	free(c);
	free(wk);
	return ok;
}

#define CASES(ps) \
	static void test_keygen_##ps(void **s) \
	{ (void)s; run_file("keygen_seed_test", ps, keygen_one); } \
	static void test_encaps_##ps(void **s) \
	{ (void)s; run_file("encaps_test", ps, encaps_one); } \
	static void test_decaps_##ps(void **s) \
	{ (void)s; run_file("semi_expanded_decaps_test", ps, decaps_one); } \
	static void test_kem_##ps(void **s) \
	{ (void)s; run_file("test", ps, kem_one); }

CASES(512)
CASES(768)
CASES(1024)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keygen_512),
		cmocka_unit_test(test_keygen_768),
		cmocka_unit_test(test_keygen_1024),
		cmocka_unit_test(test_encaps_512),
		cmocka_unit_test(test_encaps_768),
		cmocka_unit_test(test_encaps_1024),
		cmocka_unit_test(test_decaps_512),
		cmocka_unit_test(test_decaps_768),
		cmocka_unit_test(test_decaps_1024),
		cmocka_unit_test(test_kem_512),
		cmocka_unit_test(test_kem_768),
		cmocka_unit_test(test_kem_1024),
	};
	static const char *const files[] = {
		"mlkem_512_keygen_seed_test.json",
		"mlkem_768_keygen_seed_test.json",
		"mlkem_1024_keygen_seed_test.json",
		"mlkem_512_encaps_test.json",
		"mlkem_768_encaps_test.json",
		"mlkem_1024_encaps_test.json",
		"mlkem_512_semi_expanded_decaps_test.json",
		"mlkem_768_semi_expanded_decaps_test.json",
		"mlkem_1024_semi_expanded_decaps_test.json",
		"mlkem_512_test.json",
		"mlkem_768_test.json",
		"mlkem_1024_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	nksets = mlkem_ksets_fill(ksets);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
