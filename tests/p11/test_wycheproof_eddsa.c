/*
 * Wycheproof's Ed25519 and X25519 vectors through the function list, as
 * tests/kat/test_c25519_wycheproof.c runs them through crypto/: every test
 * of ed25519_test.json and x25519_test.json. Keys are session objects made
 * by C_CreateObject.
 *
 *   Ed25519  the group's public key becomes an object (the 32 bytes as
 *            given, so the token judges them; a key it refuses must be
 *            refused with CKR_ATTRIBUTE_VALUE_INVALID, and then each of the
 *            group's tests counts as refused), the signature goes to
 *            C_Verify with CKM_EDDSA over the message; a refusal must be
 *            CKR_SIGNATURE_INVALID or CKR_SIGNATURE_LEN_RANGE.
 *   X25519   the private key becomes an object, the peer's u-coordinate
 *            goes to C_DeriveKey(CKM_ECDH1_DERIVE, CKD_NULL) as it is, and
 *            the derived key's CKA_VALUE must equal "shared"; a refusal
 *            must be CKR_MECHANISM_PARAM_INVALID (the all-zero results of
 *            small-order points, which Wycheproof calls acceptable).
 * "valid" must succeed, "invalid" must fail, "acceptable" may go either
 * way and is counted apart. Without the vectors the test prints
 * "FAIL: <reason>" and fails.
 */
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
#include "tests/p11/common.h"

static char dir[64];
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS c_priv = CKO_PRIVATE_KEY, c_pub = CKO_PUBLIC_KEY,
    c_sec = CKO_SECRET_KEY;
static CK_KEY_TYPE k_ed = CKK_EC_EDWARDS, k_x = CKK_EC_MONTGOMERY,
    k_gen = CKK_GENERIC_SECRET;
static const uint8_t oid_ed25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
static const uint8_t oid_x25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };

static int
setup(void **state)
{
	CK_SLOT_ID slot;

	(void)state;
	return p11_fresh_user_session(dir, "wycheproof-ed", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static int
tc_id(json_object *t)
{
	return json_object_get_int(json_object_object_get(t, "tcId"));
}

static void
outcome(const char *file, json_object *t, int want, int ok,
    struct wp_counts *c)
{
	if (want < 0 && ok)
		c->acc_ok++;
	if (want >= 0 && want != ok)
		fail_msg("%s tcId %d (%s): expected %s, got %s", file,
		    tc_id(t), wp_str(t, "comment"),
		    want ? "valid" : "invalid", ok ? "valid" : "invalid");
}

static void
report(const char *file, const struct wp_counts *c, json_object *root)
{
	printf("# %s: %u valid, %u invalid, %u acceptable (%u accepted)\n",
	    file, c->valid, c->invalid, c->acceptable, c->acc_ok);
	assert_int_equal(c->valid + c->invalid + c->acceptable,
	    (unsigned)json_object_get_int(json_object_object_get(root,
	    "numberOfTests")));
	assert_true(c->valid > 0);
}

static void
test_ed25519(void **state)
{
	static const char file[] = "ed25519_test.json";
	json_object *root = wp_load(file), *groups;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;

	(void)state;
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		json_object *tests = json_object_object_get(grp, "tests");
		size_t pklen;
		uint8_t *pk = wp_unhex(wp_str(json_object_object_get(grp,
		    "publicKey"), "pk"), &pklen);
		CK_ATTRIBUTE t[] = {
			{ CKA_CLASS, &c_pub, sizeof(c_pub) },
			{ CKA_KEY_TYPE, &k_ed, sizeof(k_ed) },
			{ CKA_EC_PARAMS, (void *)oid_ed25519,
			    sizeof(oid_ed25519) },
			{ CKA_EC_POINT, pk, pklen },
			{ CKA_VERIFY, &yes, 1 },
		};
		CK_OBJECT_HANDLE key = CK_INVALID_HANDLE;
		CK_RV krv = p11->C_CreateObject(h, t, 5, &key);

		if (krv != CKR_OK && krv != CKR_ATTRIBUTE_VALUE_INVALID)
			fail_msg("%s group %zu: key refused with %s", file, g,
			    p11_rv_name(krv));
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *tc = json_object_array_get_idx(tests, i);
			CK_MECHANISM m = { CKM_EDDSA, NULL, 0 };
			int want = wp_expected(tc, &c);
			size_t mlen, slen;
			uint8_t *msg = wp_unhex(wp_str(tc, "msg"), &mlen);
			uint8_t *sig = wp_unhex(wp_str(tc, "sig"), &slen);
			CK_RV rv = krv;

			if (rv == CKR_OK)
				rv = p11->C_VerifyInit(h, &m, key);
			if (rv == CKR_OK)
				rv = p11->C_Verify(h, msg, mlen, sig, slen);
			if (krv == CKR_OK && rv != CKR_OK &&
			    rv != CKR_SIGNATURE_INVALID &&
			    rv != CKR_SIGNATURE_LEN_RANGE)
				fail_msg("%s tcId %d: refused with %s", file,
				    tc_id(tc), p11_rv_name(rv));
			outcome(file, tc, want, rv == CKR_OK, &c);
			free(msg);
			free(sig);
		}
		if (key != CK_INVALID_HANDLE)
			assert_rv(p11->C_DestroyObject(h, key), CKR_OK);
		free(pk);
	}
	report(file, &c, root);
	json_object_put(root);
}

static void
test_x25519(void **state)
{
	static const char file[] = "x25519_test.json";
	json_object *root = wp_load(file), *groups;
	struct wp_counts c = { 0, 0, 0, 0 };
	CK_ULONG len = 32;
	size_t g, i;

	(void)state;
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *tests = json_object_object_get(
		    json_object_array_get_idx(groups, g), "tests");

		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *tc = json_object_array_get_idx(tests, i);
			int want = wp_expected(tc, &c);
			size_t sklen, ulen, zlen;
			uint8_t *sk = wp_unhex(wp_str(tc, "private"), &sklen);
			uint8_t *u = wp_unhex(wp_str(tc, "public"), &ulen);
			uint8_t *z = wp_unhex(wp_str(tc, "shared"), &zlen);
			uint8_t got[32];
			CK_ATTRIBUTE kt[] = {
				{ CKA_CLASS, &c_priv, sizeof(c_priv) },
				{ CKA_KEY_TYPE, &k_x, sizeof(k_x) },
				{ CKA_EC_PARAMS, (void *)oid_x25519,
				    sizeof(oid_x25519) },
				{ CKA_VALUE, sk, sklen },
				{ CKA_DERIVE, &yes, 1 },
			};
			CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, ulen,
				u };
			CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
			CK_ATTRIBUTE dt[] = {
				{ CKA_CLASS, &c_sec, sizeof(c_sec) },
				{ CKA_KEY_TYPE, &k_gen, sizeof(k_gen) },
				{ CKA_VALUE_LEN, &len, sizeof(len) },
				{ CKA_SENSITIVE, &no, 1 },
				{ CKA_EXTRACTABLE, &yes, 1 },
			};
			CK_ATTRIBUTE v = { CKA_VALUE, got, sizeof(got) };
			CK_OBJECT_HANDLE key, d;
			CK_RV rv;
			int ok = 0;

			assert_rv(p11->C_CreateObject(h, kt, 5, &key), CKR_OK);
			rv = p11->C_DeriveKey(h, &m, key, dt, 5, &d);
			if (rv == CKR_OK) {
				assert_rv(p11->C_GetAttributeValue(h, d, &v, 1),
				    CKR_OK);
				ok = v.ulValueLen == zlen &&
				    memcmp(got, z, zlen) == 0;
				assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
			} else if (rv != CKR_MECHANISM_PARAM_INVALID) {
				fail_msg("%s tcId %d: refused with %s", file,
				    tc_id(tc), p11_rv_name(rv));
			}
			outcome(file, tc, want, ok, &c);
			assert_rv(p11->C_DestroyObject(h, key), CKR_OK);
			free(sk);
			free(u);
			free(z);
		}
	}
	report(file, &c, root);
	json_object_put(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ed25519, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x25519, setup, teardown),
	};
	static const char *const files[] = {
		"ed25519_test.json",
		"x25519_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
