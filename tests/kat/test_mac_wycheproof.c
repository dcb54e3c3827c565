/*
 * HMAC and HKDF against every test of Wycheproof's hmac_sha256, _sha384,
 * _sha512, _sha512_224, _sha512_256 and _sha3_256 files and hkdf_sha256,
 * _sha384 and _sha512, through crypto/hash.h.
 *
 *   HMAC  the tag (truncated to the group's tagSize) must verify with
 *         vg_hmac_verify; for valid tests the MAC, one-shot and in two
 *         pieces, must begin with the tag.
 *   HKDF  vg_hkdf with the salt, ikm, info and size must give okm (an
 *         oversized output is refused).
 *
 * "valid" must succeed, "invalid" must fail, "acceptable" may go either
 * way and is counted apart. The hashes take their kernels from the
 * process-wide table: the test runs with what the CPU and VG_CPU_FEATURES
 * give, then runs itself again with VG_CPU_FEATURES=none for the portable
 * ones. The vectors come from $VG_VECTORS_DIR/wycheproof (make check:
 * tests/vectors); without them the test prints "FAIL: <reason>" and
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
#include "crypto/hash.h"

static uint8_t *
hex_of(json_object *t, const char *name, size_t *len)
{
	const char *s = wp_str(t, name);

	return wp_unhex(s != NULL ? s : "", len);
}

static void
check_outcome(const char *file, json_object *t, int want, int ok,
    struct wp_counts *c)
{
	int id = json_object_get_int(json_object_object_get(t, "tcId"));

	if (want < 0 && ok)
		c->acc_ok++;
	if (want >= 0 && want != ok)
		fail_msg("%s tcId %d (%s): expected %s, got %s", file, id,
		    wp_str(t, "comment"), want ? "valid" : "invalid",
		    ok ? "valid" : "invalid");
}

static void
report(const char *file, json_object *root, const struct wp_counts *c)
{
	printf("# %s: %u valid, %u invalid, %u acceptable (%u accepted)\n",
	    file, c->valid, c->invalid, c->acceptable, c->acc_ok);
	assert_int_equal(c->valid + c->invalid + c->acceptable,
	    (unsigned)json_object_get_int(
	    json_object_object_get(root, "numberOfTests")));
}

/* --------------------------------------------------------------- HMAC */

static int
hmac_one(enum vg_hash_alg alg, size_t tagbytes, json_object *t, int want)
{
	size_t kl, ml, tl, hl = vg_hash_len(alg);
	uint8_t *key = hex_of(t, "key", &kl), *msg = hex_of(t, "msg", &ml);
	uint8_t *tag = hex_of(t, "tag", &tl), mac[VG_HASH_MAX_LEN];
	struct vg_hmac m;
	int ok = 0;

	/* the group's tag size is the length of every tag in it */
	assert_int_equal(tl, tagbytes);
	if (tl == 0 || tl > hl)
		goto out;
	vg_hmac_init(&m, alg, key, kl);
	vg_hmac_update(&m, msg, ml);
	ok = vg_hmac_verify(&m, tag, tl) == VG_OK;
	if (ok && want == 1) {
		vg_hmac(alg, key, kl, msg, ml, mac);
		ok = memcmp(mac, tag, tl) == 0;
		vg_hmac_init(&m, alg, key, kl);
		vg_hmac_update(&m, msg, ml / 2);
		vg_hmac_update(&m, msg + ml / 2, ml - ml / 2);
		vg_hmac_final(&m, mac);
		ok = ok && memcmp(mac, tag, tl) == 0;
	}
out:
	free(key);
	free(msg);
	free(tag);
	return ok;
}

static void
run_hmac(const char *file, enum vg_hash_alg alg)
{
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;

	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		size_t bits = (size_t)json_object_get_int(
		    json_object_object_get(grp, "tagSize"));

		assert_int_equal(bits % 8, 0);
		tests = json_object_object_get(grp, "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);

			check_outcome(file, t, want,
			    hmac_one(alg, bits / 8, t, want), &c);
		}
	}
	report(file, root, &c);
	json_object_put(root);
}

static void
test_hmac_sha256(void **state)
{
	(void)state;
	run_hmac("hmac_sha256_test.json", VG_HASH_SHA256);
}

static void
test_hmac_sha384(void **state)
{
	(void)state;
	run_hmac("hmac_sha384_test.json", VG_HASH_SHA384);
}

static void
test_hmac_sha512(void **state)
{
	(void)state;
	run_hmac("hmac_sha512_test.json", VG_HASH_SHA512);
}

static void
test_hmac_sha512_224(void **state)
{
	(void)state;
	run_hmac("hmac_sha512_224_test.json", VG_HASH_SHA512_224);
}

static void
test_hmac_sha512_256(void **state)
{
	(void)state;
	run_hmac("hmac_sha512_256_test.json", VG_HASH_SHA512_256);
}

static void
test_hmac_sha3_256(void **state)
{
	(void)state;
	run_hmac("hmac_sha3_256_test.json", VG_HASH_SHA3_256);
}

/* --------------------------------------------------------------- HKDF */

static int
hkdf_one(enum vg_hash_alg alg, json_object *t)
{
	size_t il, sl, nl, ol, size;
	uint8_t *ikm = hex_of(t, "ikm", &il), *salt = hex_of(t, "salt", &sl);
	uint8_t *info = hex_of(t, "info", &nl), *okm = hex_of(t, "okm", &ol);
	uint8_t *out;
	int ok;

	size = (size_t)json_object_get_int(json_object_object_get(t, "size"));
	out = malloc(size + 1);
	assert_non_null(out);
	ok = vg_hkdf(alg, salt, sl, ikm, il, info, nl, out, size) == VG_OK &&
	    ol == size && memcmp(out, okm, size) == 0;
	free(ikm);
	free(salt);
	free(info);
	free(okm);
	free(out);
	return ok;
}

static void
run_hkdf(const char *file, enum vg_hash_alg alg)
{
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;

	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		tests = json_object_object_get(
		    json_object_array_get_idx(groups, g), "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);

			check_outcome(file, t, want, hkdf_one(alg, t), &c);
		}
	}
	report(file, root, &c);
	json_object_put(root);
}

static void
test_hkdf_sha256(void **state)
{
	(void)state;
	run_hkdf("hkdf_sha256_test.json", VG_HASH_SHA256);
}

static void
test_hkdf_sha384(void **state)
{
	(void)state;
	run_hkdf("hkdf_sha384_test.json", VG_HASH_SHA384);
}

static void
test_hkdf_sha512(void **state)
{
	(void)state;
	run_hkdf("hkdf_sha512_test.json", VG_HASH_SHA512);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmac_sha256),
		cmocka_unit_test(test_hmac_sha384),
		cmocka_unit_test(test_hmac_sha512),
		cmocka_unit_test(test_hmac_sha512_224),
		cmocka_unit_test(test_hmac_sha512_256),
		cmocka_unit_test(test_hmac_sha3_256),
		cmocka_unit_test(test_hkdf_sha256),
		cmocka_unit_test(test_hkdf_sha384),
		cmocka_unit_test(test_hkdf_sha512),
	};
	static const char *const files[] = {
		"hmac_sha256_test.json", "hmac_sha384_test.json",
		"hmac_sha512_test.json", "hmac_sha512_224_test.json",
		"hmac_sha512_256_test.json", "hmac_sha3_256_test.json",
		"hkdf_sha256_test.json", "hkdf_sha384_test.json",
		"hkdf_sha512_test.json",
	};
	const struct vg_kernels *k = vg_kernels();
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	printf("# kernels: sha256 %s, sha512 %s, keccak %s\n", k->sha256_impl,
	    k->sha512_impl, k->keccak_impl);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	return wp_rerun_portable(rc);
}
