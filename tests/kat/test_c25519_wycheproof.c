/*
 * X25519 and Ed25519 against every test of Wycheproof's x25519_test.json
 * and ed25519_test.json, through the crypto layer, under every kernel set:
 * the one the CPU and VG_CPU_FEATURES give, then (wp_rerun_portable) this
 * program again with VG_CPU_FEATURES=none, and from a first run with
 * VG_CPU_FEATURES unset once more with the ADX kernels alone ("bmi2,adx":
 * the Ed25519 comb without its AVX2 selection).
 *
 *   X25519   a result that is produced must equal "shared"; "valid" must
 *            succeed; an all-zero "shared" (low-order peer, "acceptable")
 *            must be refused with VG_ERR_DECODE, as crypto/c25519.h says.
 *   Ed25519  pure Ed25519 verification of "sig" over "msg" under the
 *            group's key: "valid" must verify, "invalid" must not (the
 *            file has no "acceptable" tests); the keys must decode.
 * The vectors come from $VG_VECTORS_DIR/wycheproof (set by make check);
 * without them the test prints "FAIL: <reason>" and fails.
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

#include "crypto/c25519.h"
#include "crypto/cpu.h"

static int
all_zero(const uint8_t *p, size_t n)
{
	uint8_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= p[i];
	return d == 0;
}

static void
test_x25519(void **state)
{
	static const char file[] = "x25519_test.json";
	json_object *root = wp_load(file), *groups;
	struct wp_counts c = { 0 };
	size_t gi, ti, n = 0;

	(void)state;
	groups = json_object_object_get(root, "testGroups");
	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		json_object *g = json_object_array_get_idx(groups, gi);
		json_object *tests = json_object_object_get(g, "tests");

		assert_string_equal(wp_str(g, "curve"), "curve25519");
		for (ti = 0; ti < json_object_array_length(tests); ti++) {
			json_object *t = json_object_array_get_idx(tests, ti);
			int id = json_object_get_int(
			    json_object_object_get(t, "tcId"));
			int want = wp_expected(t, &c);
			size_t plen, klen, slen;
			uint8_t *pub = wp_unhex(wp_str(t, "public"), &plen);
			uint8_t *priv = wp_unhex(wp_str(t, "private"), &klen);
			uint8_t *shared = wp_unhex(wp_str(t, "shared"), &slen);
			uint8_t out[VG_X25519_LEN];
			enum vg_err rv;

			assert_int_equal(plen, 32);
			assert_int_equal(klen, 32);
			assert_int_equal(slen, 32);
			rv = vg_x25519(out, priv, pub);
			if (rv == VG_OK) {
				if (want < 0)
					c.acc_ok++;
				if (memcmp(out, shared, 32) != 0)
					fail_msg("%s tcId %d (%s): wrong shared "
					    "secret", file, id,
					    wp_str(t, "comment"));
			} else if (want > 0 || rv != VG_ERR_DECODE ||
			    !all_zero(shared, 32) || !all_zero(out, 32)) {
				fail_msg("%s tcId %d (%s): error %d", file, id,
				    wp_str(t, "comment"), (int)rv);
			}
			n++;
			free(pub);
			free(priv);
			free(shared);
		}
	}
	printf("# %s: %u valid, %u acceptable (%u accepted)\n", file,
	    c.valid, c.acceptable, c.acc_ok);
	assert_true(n > 500 && c.valid > 200);
	json_object_put(root);
}

static void
test_ed25519(void **state)
{
	static const char file[] = "ed25519_test.json";
	json_object *root = wp_load(file), *groups;
	struct wp_counts c = { 0 };
	size_t gi, ti, n = 0;

	(void)state;
	groups = json_object_object_get(root, "testGroups");
	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		json_object *g = json_object_array_get_idx(groups, gi);
		json_object *key = json_object_object_get(g, "publicKey");
		json_object *tests = json_object_object_get(g, "tests");
		size_t pklen;
		uint8_t *pk;

		assert_string_equal(wp_str(key, "curve"), "edwards25519");
		pk = wp_unhex(wp_str(key, "pk"), &pklen);
		assert_int_equal(pklen, VG_ED25519_PK_LEN);
		assert_int_equal(vg_ed25519_check_public(pk), VG_OK);
		for (ti = 0; ti < json_object_array_length(tests); ti++) {
			json_object *t = json_object_array_get_idx(tests, ti);
			int id = json_object_get_int(
			    json_object_object_get(t, "tcId"));
			int want = wp_expected(t, &c);
			size_t mlen, siglen;
			uint8_t *msg = wp_unhex(wp_str(t, "msg"), &mlen);
			uint8_t *sig = wp_unhex(wp_str(t, "sig"), &siglen);
			enum vg_err rv;
			int ok;

			rv = vg_ed25519_verify(VG_ED25519_PURE, pk, msg, mlen,
			    NULL, 0, sig, siglen);
			ok = rv == VG_OK;
			if (!ok && rv != VG_ERR_AUTH && rv != VG_ERR_LENGTH)
				fail_msg("%s tcId %d: unexpected error %d",
				    file, id, (int)rv);
			if (want < 0 && ok)
				c.acc_ok++;
			if (want >= 0 && want != ok)
				fail_msg("%s tcId %d (%s): expected %s", file,
				    id, wp_str(t, "comment"),
				    want ? "valid" : "invalid");
			n++;
			free(msg);
			free(sig);
		}
		free(pk);
	}
	printf("# %s: %u valid, %u invalid, %u acceptable (%u accepted)\n",
	    file, c.valid, c.invalid, c.acceptable, c.acc_ok);
	assert_true(n > 100 && c.valid > 50 && c.invalid > 50);
	json_object_put(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x25519),
		cmocka_unit_test(test_ed25519),
	};
	static const char *const files[] = {
		"x25519_test.json",
		"ed25519_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	printf("# kernels: x25519 %s, ed25519 %s, sha512 %s\n",
	    vg_kernels()->c25519.impl, vg_kernels()->c25519.ed25519_impl,
	    vg_kernels()->sha512_impl);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rc = wp_rerun_portable(rc);
	return wp_rerun_masked(rc, "bmi2,adx");
}
