/*
 * HKDF through the function list [PKCS#11 3.2 §6.62, RFC 5869]: every
 * test of Wycheproof's hkdf_sha256/384/512_test.json, the IKM made a
 * generic secret by C_CreateObject, the output as a CKM_HKDF_DATA object
 * and, where a key can be that long, as a CKM_HKDF_DERIVE generic secret
 * and in two derivations (extract, then expand from the PRK as a key),
 * the salt as bytes and as a key; OpenSSL's HKDF for the other PRF hashes
 * (SHA-1, SHA-224, SHA3-256, SHA-512/224, SHA-512/256); the data object's
 * attributes; CKM_HKDF_KEY_GEN and CKK_HKDF keys. A Wycheproof "invalid" test (an output too long) must be
 * refused with CKR_TEMPLATE_INCONSISTENT.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/kat/wycheproof.h"
#include "tests/p11/common.h"
#include "tests/p11/derive_common.h"

/* ------------------------------------------------------------ HKDF */

/* HKDF through the token: from a generic secret holding ikm, salt as
 * bytes (via 0) or as a key (via 1), into out (len bytes). Returns the
 * CK_RV of the C_DeriveKey that made the output. */
static CK_RV
token_hkdf(CK_MECHANISM_TYPE mech, CK_MECHANISM_TYPE prf,
    CK_OBJECT_HANDLE ikm, const uint8_t *salt, size_t saltlen, int via,
    const uint8_t *info, size_t infolen, uint8_t *out, size_t len)
{
	CK_HKDF_PARAMS p = { CK_TRUE, CK_TRUE, prf, CKF_HKDF_SALT_NULL, NULL,
		0, 0, (CK_BYTE_PTR)info, infolen };
	CK_OBJECT_HANDLE d = 0, sk = 0;
	CK_RV rv;

	if (saltlen != 0 && via == 0) {
		p.ulSaltType = CKF_HKDF_SALT_DATA;
		p.pSalt = (CK_BYTE_PTR)salt;
		p.ulSaltLen = saltlen;
	} else if (saltlen != 0) {
		sk = secret(CKK_GENERIC_SECRET, salt, saltlen, CK_TRUE);
		p.ulSaltType = CKF_HKDF_SALT_KEY;
		p.hSaltKey = sk;
	}
	rv = derive(mech, &p, sizeof(p), ikm,
	    mech == CKM_HKDF_DATA ? 0 : CKK_GENERIC_SECRET, len, &d);
	if (rv == CKR_OK) {
		assert_int_equal(value(d, out, len), len);
		assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
	}
	if (sk != 0)
		assert_rv(p11->C_DestroyObject(h, sk), CKR_OK);
	return rv;
}

/* Extract, then expand from the PRK as a key of its own. */
static void
token_hkdf_split(CK_MECHANISM_TYPE prf, size_t hl, CK_OBJECT_HANDLE ikm,
    const uint8_t *salt, size_t saltlen, const uint8_t *info,
    size_t infolen, uint8_t *out, size_t len)
{
	CK_HKDF_PARAMS x = { CK_TRUE, CK_FALSE, prf, CKF_HKDF_SALT_DATA,
		(CK_BYTE_PTR)salt, saltlen, 0, NULL, 0 };
	CK_HKDF_PARAMS e = { CK_FALSE, CK_TRUE, prf, 0, NULL, 0, 0,
		(CK_BYTE_PTR)info, infolen };
	CK_MECHANISM mx = { CKM_HKDF_DERIVE, &x, sizeof(x) };
	CK_ULONG vl = len;
	CK_ATTRIBUTE pt[] = { { CKA_DERIVE, &yes, 1 } };
	CK_OBJECT_HANDLE prk, d;

	if (saltlen == 0)
		x.ulSaltType = CKF_HKDF_SALT_NULL;
	assert_rv(p11->C_DeriveKey(h, &mx, ikm, pt, 1, &prk), CKR_OK);
	/* the PRK's length is the hash's */
	{
		CK_ULONG got = 0;
		CK_ATTRIBUTE a = { CKA_VALUE_LEN, &got, sizeof(got) };

		assert_rv(p11->C_GetAttributeValue(h, prk, &a, 1), CKR_OK);
		assert_int_equal(got, hl);
	}
	assert_rv(derive(CKM_HKDF_DATA, &e, sizeof(e), prk, 0, vl, &d),
	    CKR_OK);
	assert_int_equal(value(d, out, len), len);
	assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
	assert_rv(p11->C_DestroyObject(h, prk), CKR_OK);
}

static void
run_hkdf(const char *file, CK_MECHANISM_TYPE prf, size_t hl)
{
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	unsigned ran = 0, keys = 0;
	size_t g, i;

	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		tests = json_object_object_get(
		    json_object_array_get_idx(groups, g), "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);
			int id = json_object_get_int(
			    json_object_object_get(t, "tcId"));
			size_t il, sl, nl, ol, size = (size_t)json_object_get_int(
			    json_object_object_get(t, "size"));
			uint8_t *ikm = wp_unhex(wp_str(t, "ikm"), &il);
			uint8_t *salt = wp_unhex(wp_str(t, "salt"), &sl);
			uint8_t *info = wp_unhex(wp_str(t, "info"), &nl);
			uint8_t *okm = wp_unhex(wp_str(t, "okm"), &ol);
			uint8_t *out = malloc(size + 1);
			CK_OBJECT_HANDLE k;
			CK_RV rv;

			assert_non_null(out);
			k = secret(CKK_GENERIC_SECRET, ikm, il, CK_TRUE);
			rv = token_hkdf(CKM_HKDF_DATA, prf, k, salt, sl,
			    (int)(i & 1), info, nl, out, size);
			if (want == 1) {
				if (rv != CKR_OK || ol != size ||
				    memcmp(out, okm, size) != 0)
					fail_msg("%s tcId %d: %s", file, id,
					    p11_rv_name(rv));
			} else if (want == 0 && rv != CKR_TEMPLATE_INCONSISTENT)
				fail_msg("%s tcId %d (invalid): %s", file, id,
				    p11_rv_name(rv));
			if (want == 1 && size <= 512) {
				assert_rv(token_hkdf(CKM_HKDF_DERIVE, prf, k,
				    salt, sl, (int)(~i & 1), info, nl, out,
				    size), CKR_OK);
				assert_memory_equal(out, okm, size);
				memset(out, 0, size);
				token_hkdf_split(prf, hl, k, salt, sl, info,
				    nl, out, size);
				assert_memory_equal(out, okm, size);
				keys++;
			}
			assert_rv(p11->C_DestroyObject(h, k), CKR_OK);
			ran++;
			free(ikm);
			free(salt);
			free(info);
			free(okm);
			free(out);
		}
	}
	printf("# %s: %u tests (%u valid, %u invalid), %u also as keys and "
	    "in two steps\n", file, ran, c.valid, c.invalid, keys);
	assert_true(ran > 50 && keys > 40);
	json_object_put(root);
}

static void
test_hkdf_sha256(void **state)
{
	(void)state;
	run_hkdf("hkdf_sha256_test.json", CKM_SHA256, 32);
}

static void
test_hkdf_sha384(void **state)
{
	(void)state;
	run_hkdf("hkdf_sha384_test.json", CKM_SHA384, 48);
}

static void
test_hkdf_sha512(void **state)
{
	(void)state;
	run_hkdf("hkdf_sha512_test.json", CKM_SHA512, 64);
}

/* OpenSSL's HKDF (extract and expand) with the digest named md. */
static void
evp_hkdf(const char *md, const uint8_t *ikm, size_t il, const uint8_t *salt,
    size_t sl, const uint8_t *info, size_t nl, uint8_t *out, size_t len)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *c = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM p[5], *q = p;

	assert_non_null(c);
	*q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
	    (char *)md, 0);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
	    (void *)ikm, il);
	if (sl != 0) /* no salt: OpenSSL uses HashLen zeros, as RFC 5869 */
		*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
		    (void *)salt, sl);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
	    (void *)info, nl);
	*q = OSSL_PARAM_construct_end();
	assert_int_equal(EVP_KDF_derive(c, out, len, p), 1);
	EVP_KDF_CTX_free(c);
	EVP_KDF_free(kdf);
}

static void
test_hkdf_other_hashes(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE prf;
		const char *md;
	} rows[] = {
		{ CKM_SHA_1, "SHA1" }, { CKM_SHA224, "SHA224" },
		{ CKM_SHA3_256, "SHA3-256" }, { CKM_SHA512_224, "SHA512-224" },
		{ CKM_SHA512_256, "SHA512-256" },
	};
	static const size_t lens[] = { 1, 28, 32, 100, 300 };
	uint8_t ikm[40], salt[17], info[9], ref[300], got[300];
	CK_OBJECT_HANDLE k;
	size_t i, j;

	(void)state;
	pattern(ikm, sizeof(ikm), 11);
	pattern(salt, sizeof(salt), 12);
	pattern(info, sizeof(info), 13);
	k = secret(CKK_GENERIC_SECRET, ikm, sizeof(ikm), CK_TRUE);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			evp_hkdf(rows[i].md, ikm, sizeof(ikm), salt,
			    sizeof(salt), info, sizeof(info), ref, lens[j]);
			assert_rv(token_hkdf(CKM_HKDF_DERIVE, rows[i].prf, k,
			    salt, sizeof(salt), (int)(j & 1), info,
			    sizeof(info), got, lens[j]), CKR_OK);
			assert_memory_equal(got, ref, lens[j]);
		}
}

/* The data object: CKO_DATA, its value readable, no CKA_VALUE_LEN. */
static void
test_hkdf_data_object(void **state)
{
	uint8_t ikm[32], buf[100];
	CK_HKDF_PARAMS p = { CK_TRUE, CK_TRUE, CKM_SHA256, CKF_HKDF_SALT_NULL,
		NULL, 0, 0, NULL, 0 };
	CK_OBJECT_CLASS cls = 0;
	CK_ULONG vl = 0;
	CK_ATTRIBUTE a[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_VALUE_LEN, &vl, sizeof(vl) },
	};
	CK_OBJECT_HANDLE k, d;

	(void)state;
	pattern(ikm, sizeof(ikm), 14);
	k = secret(CKK_GENERIC_SECRET, ikm, sizeof(ikm), CK_TRUE);
	assert_rv(derive(CKM_HKDF_DATA, &p, sizeof(p), k, 0, 100, &d), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, d, a, 1), CKR_OK);
	assert_int_equal(cls, CKO_DATA);
	assert_rv(p11->C_GetAttributeValue(h, d, a + 1, 1),
	    CKR_ATTRIBUTE_TYPE_INVALID);
	assert_int_equal(value(d, buf, sizeof(buf)), 100);
	/* extract only: one hash length, no CKA_VALUE_LEN needed */
	p.bExpand = CK_FALSE;
	assert_rv(derive(CKM_HKDF_DATA, &p, sizeof(p), k, 0, 0, &d), CKR_OK);
	assert_int_equal(value(d, buf, sizeof(buf)), 32);
}

/* CKK_HKDF keys: CKM_HKDF_KEY_GEN makes them, HKDF takes them (as
 * OpenSSL computes), HMAC does not. */
static void
test_hkdf_key(void **state)
{
	CK_MECHANISM gen = { CKM_HKDF_KEY_GEN, NULL, 0 };
	CK_MECHANISM mac = { CKM_SHA256_HMAC, NULL, 0 };
	CK_KEY_TYPE k_hkdf = CKK_HKDF, kt = 0;
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
	};
	CK_ATTRIBUTE a = { CKA_KEY_TYPE, &kt, sizeof(kt) };
	uint8_t ikm[32], info[5], ref[42], got[42];
	CK_OBJECT_HANDLE k;

	(void)state;
	pattern(info, sizeof(info), 15);
	assert_rv(p11->C_GenerateKey(h, &gen, t, 5, &k), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, k, &a, 1), CKR_OK);
	assert_int_equal(kt, CKK_HKDF);
	assert_int_equal(get_bool(k, CKA_LOCAL), CK_TRUE);
	assert_int_equal(value(k, ikm, sizeof(ikm)), 32);
	evp_hkdf("SHA256", ikm, sizeof(ikm), NULL, 0, info, sizeof(info),
	    ref, sizeof(ref));
	assert_rv(token_hkdf(CKM_HKDF_DERIVE, CKM_SHA256, k, NULL, 0, 0,
	    info, sizeof(info), got, sizeof(got)), CKR_OK);
	assert_memory_equal(got, ref, sizeof(ref));
	assert_rv(p11->C_SignInit(h, &mac, k), CKR_KEY_TYPE_INCONSISTENT);
	/* a length is required */
	assert_rv(p11->C_GenerateKey(h, &gen, t + 1, 4, &k),
	    CKR_TEMPLATE_INCOMPLETE);
	/* and C_CreateObject makes one too */
	{
		CK_ATTRIBUTE ct[] = {
			{ CKA_CLASS, &c_sec, sizeof(c_sec) },
			{ CKA_KEY_TYPE, &k_hkdf, sizeof(k_hkdf) },
			{ CKA_VALUE, ikm, sizeof(ikm) },
			{ CKA_DERIVE, &yes, 1 },
		};

		assert_rv(p11->C_CreateObject(h, ct, 4, &k), CKR_OK);
		memset(got, 0, sizeof(got));
		assert_rv(token_hkdf(CKM_HKDF_DATA, CKM_SHA256, k, NULL, 0, 0,
		    info, sizeof(info), got, sizeof(got)), CKR_OK);
		assert_memory_equal(got, ref, sizeof(ref));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hkdf_sha256, derive_setup,
		    derive_teardown),
		cmocka_unit_test_setup_teardown(test_hkdf_sha384, derive_setup,
		    derive_teardown),
		cmocka_unit_test_setup_teardown(test_hkdf_sha512, derive_setup,
		    derive_teardown),
		cmocka_unit_test_setup_teardown(test_hkdf_other_hashes,
		    derive_setup, derive_teardown),
		cmocka_unit_test_setup_teardown(test_hkdf_data_object,
		    derive_setup, derive_teardown),
		cmocka_unit_test_setup_teardown(test_hkdf_key, derive_setup,
		    derive_teardown),
	};
	static const char *const files[] = {
		"hkdf_sha256_test.json", "hkdf_sha384_test.json",
		"hkdf_sha512_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
