/*
 * Wycheproof's AES vectors through the function list (tests/kat/
 * test_aes_wycheproof.c runs them through crypto/): every test of
 * aes_gcm_test.json (CKM_AES_GCM), aes_cbc_pkcs5_test.json
 * (CKM_AES_CBC_PAD) and aes_cmac_test.json (CKM_AES_CMAC and
 * CKM_AES_CMAC_GENERAL). A valid test must encrypt (or MAC) to the given
 * bytes and decrypt (or verify) back; an invalid one must be refused
 * with the code the specification names: CKR_ENCRYPTED_DATA_INVALID for
 * a bad tag or padding, CKR_ENCRYPTED_DATA_LEN_RANGE for a length the
 * mode does not make, CKR_MECHANISM_PARAM_INVALID for an empty GCM IV,
 * CKR_SIGNATURE_INVALID for a bad MAC, and a key of a length AES does not
 * have is refused at C_CreateObject. The program runs once more with the
 * portable kernels (VG_CPU_FEATURES=none).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/kat/wycheproof.h"
#include "tests/p11/common.h"

static char dir[64];
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE;
static CK_OBJECT_CLASS secret_class = CKO_SECRET_KEY;
static CK_KEY_TYPE aes_type = CKK_AES;

static int
setup(void **state)
{
	CK_SLOT_ID slot;

	(void)state;
	return p11_fresh_user_session(dir, "wycheproof-aes", &slot, &h);
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

/* A session AES key, or CK_INVALID_HANDLE when the token refuses the
 * length (which must then be one AES does not have). */
static CK_OBJECT_HANDLE
key_from(json_object *t)
{
	size_t len;
	uint8_t *v = wp_unhex(wp_str(t, "key"), &len);
	CK_ATTRIBUTE a[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_VALUE, v, len },
		{ CKA_ENCRYPT, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;
	CK_RV rv = p11->C_CreateObject(h, a, 7, &o);

	if (len == 16 || len == 24 || len == 32)
		assert_rv(rv, CKR_OK);
	else if (rv == CKR_OK)
		fail_msg("tcId %d: an AES key of %zu bytes was accepted",
		    tc_id(t), len);
	free(v);
	return rv == CKR_OK ? o : CK_INVALID_HANDLE;
}

static void
drop(CK_OBJECT_HANDLE k)
{
	if (k != CK_INVALID_HANDLE)
		assert_rv(p11->C_DestroyObject(h, k), CKR_OK);
}

static void
report(const char *file, const struct wp_counts *c, json_object *root)
{
	printf("# %s: %u valid, %u invalid, %u acceptable\n", file, c->valid,
	    c->invalid, c->acceptable);
	assert_int_equal(c->valid + c->invalid + c->acceptable,
	    (unsigned)json_object_get_int(json_object_object_get(root,
	    "numberOfTests")));
}

/* Encrypts msg (valid tests) and decrypts ct; m's parameter is set. */
static void
cipher_one(json_object *t, CK_MECHANISM *m, CK_OBJECT_HANDLE k,
    const uint8_t *msg, size_t mlen, const uint8_t *ct, size_t clen,
    int want)
{
	uint8_t *out = malloc(clen + mlen + 32);
	CK_ULONG n;
	CK_RV rv;

	assert_non_null(out);
	if (want == 1) {
		assert_rv(p11->C_EncryptInit(h, m, k), CKR_OK);
		n = clen + 32;
		assert_rv(p11->C_Encrypt(h, (CK_BYTE_PTR)msg, mlen, out, &n),
		    CKR_OK);
		if (n != clen || memcmp(out, ct, clen) != 0)
			fail_msg("tcId %d: wrong ciphertext", tc_id(t));
	}
	rv = p11->C_DecryptInit(h, m, k);
	if (rv == CKR_OK) {
		n = clen + 32;
		rv = p11->C_Decrypt(h, (CK_BYTE_PTR)ct, clen, out, &n);
	}
	if (want == 1) {
		assert_rv(rv, CKR_OK);
		if (n != mlen || memcmp(out, msg, mlen) != 0)
			fail_msg("tcId %d: wrong plaintext", tc_id(t));
	} else if (want == 0 && rv != CKR_ENCRYPTED_DATA_INVALID &&
	    rv != CKR_ENCRYPTED_DATA_LEN_RANGE &&
	    rv != CKR_MECHANISM_PARAM_INVALID) {
		fail_msg("tcId %d (%s): invalid, got %s", tc_id(t),
		    wp_str(t, "comment"), p11_rv_name(rv));
	}
	free(out);
}

static void
test_gcm(void **state)
{
	const char *file = "aes_gcm_test.json";
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;

	(void)state;
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		CK_ULONG tagbits = (CK_ULONG)json_object_get_int(
		    json_object_object_get(grp, "tagSize"));

		tests = json_object_object_get(grp, "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);
			size_t ivl, al, ml, cl, tl;
			uint8_t *iv = wp_unhex(wp_str(t, "iv"), &ivl);
			uint8_t *aad = wp_unhex(wp_str(t, "aad"), &al);
			uint8_t *msg = wp_unhex(wp_str(t, "msg"), &ml);
			uint8_t *ct = wp_unhex(wp_str(t, "ct"), &cl);
			uint8_t *tag = wp_unhex(wp_str(t, "tag"), &tl);
			uint8_t *ctt = malloc(cl + tl + 1);
			CK_GCM_PARAMS p = { iv, ivl, ivl * 8, aad, al,
				tagbits };
			CK_MECHANISM m = { CKM_AES_GCM, &p, sizeof(p) };
			CK_OBJECT_HANDLE k = key_from(t);

			assert_non_null(ctt);
			memcpy(ctt, ct, cl);
			memcpy(ctt + cl, tag, tl);
			if (ivl == 0) {
				/* no IV: refused whatever the rest */
				assert_rv(p11->C_EncryptInit(h, &m, k),
				    CKR_MECHANISM_PARAM_INVALID);
				assert_int_equal(want, 0);
			} else {
				cipher_one(t, &m, k, msg, ml, ctt, cl + tl,
				    want);
			}
			drop(k);
			free(iv);
			free(aad);
			free(msg);
			free(ct);
			free(tag);
			free(ctt);
		}
	}
	report(file, &c, root);
	json_object_put(root);
}

static void
test_cbc_pkcs5(void **state)
{
	const char *file = "aes_cbc_pkcs5_test.json";
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;

	(void)state;
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);

		tests = json_object_object_get(grp, "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);
			size_t ivl, ml, cl;
			uint8_t *iv = wp_unhex(wp_str(t, "iv"), &ivl);
			uint8_t *msg = wp_unhex(wp_str(t, "msg"), &ml);
			uint8_t *ct = wp_unhex(wp_str(t, "ct"), &cl);
			CK_MECHANISM m = { CKM_AES_CBC_PAD, iv, ivl };
			CK_OBJECT_HANDLE k = key_from(t);

			cipher_one(t, &m, k, msg, ml, ct, cl, want);
			drop(k);
			free(iv);
			free(msg);
			free(ct);
		}
	}
	report(file, &c, root);
	json_object_put(root);
}

static void
test_cmac(void **state)
{
	const char *file = "aes_cmac_test.json";
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;

	(void)state;
	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		CK_MAC_GENERAL_PARAMS gl = (CK_ULONG)json_object_get_int(
		    json_object_object_get(grp, "tagSize")) / 8;

		tests = json_object_object_get(grp, "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);
			size_t ml, tl;
			uint8_t *msg = wp_unhex(wp_str(t, "msg"), &ml);
			uint8_t *tag = wp_unhex(wp_str(t, "tag"), &tl);
			CK_MECHANISM m = { CKM_AES_CMAC_GENERAL, &gl,
				sizeof(gl) };
			CK_OBJECT_HANDLE k = key_from(t);
			uint8_t mac[16];
			CK_ULONG n = sizeof(mac);
			CK_RV rv;

			if (gl == 16) {
				m.pParameter = NULL;
				m.ulParameterLen = 0;
				m.mechanism = CKM_AES_CMAC;
			}
			if (k == CK_INVALID_HANDLE) {
				assert_int_equal(want, 0);
			} else {
				if (want == 1) {
					assert_rv(p11->C_SignInit(h, &m, k),
					    CKR_OK);
					assert_rv(p11->C_Sign(h, msg, ml, mac,
					    &n), CKR_OK);
					assert_int_equal(n, tl);
					if (memcmp(mac, tag, tl) != 0)
						fail_msg("tcId %d: wrong MAC",
						    tc_id(t));
				}
				assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
				rv = p11->C_Verify(h, msg, ml, tag, tl);
				if (want == 1)
					assert_rv(rv, CKR_OK);
				else if (want == 0 &&
				    rv != CKR_SIGNATURE_INVALID &&
				    rv != CKR_SIGNATURE_LEN_RANGE)
					fail_msg("tcId %d: invalid, got %s",
					    tc_id(t), p11_rv_name(rv));
			}
			drop(k);
			free(msg);
			free(tag);
		}
	}
	report(file, &c, root);
	json_object_put(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gcm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cbc_pkcs5, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_cmac, setup, teardown),
	};
	static const char *const files[] = {
		"aes_gcm_test.json",
		"aes_cbc_pkcs5_test.json",
		"aes_cmac_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	return wp_rerun_portable(cmocka_run_group_tests(tests, NULL, NULL));
}
