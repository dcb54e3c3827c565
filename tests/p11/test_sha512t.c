/*
 * SHA-512/224 and SHA-512/256 [FIPS 180-4 §5.3.6] through the function
 * list, beyond the digests themselves (test_digest compares C_Digest with
 * OpenSSL for every digest in p11_digests, these two included):
 *
 *   HMAC        every test of Wycheproof's hmac_sha512_224_test.json and
 *               hmac_sha512_256_test.json with the key made by
 *               C_CreateObject: a full-length tag through C_Verify, a
 *               truncated one as the prefix of C_Sign's MAC.
 *   HashML-DSA  CKM_HASH_ML_DSA with the hash CKM_SHA512_224 and
 *               CKM_SHA512_256 in CK_HASH_SIGN_ADDITIONAL_CONTEXT, on a
 *               digest OpenSSL computed: the signature verifies; it does
 *               not verify when the same digest is claimed to be another
 *               hash of its length (SHA3-224, SHA-256), so the hash's own
 *               OID is in M' [FIPS 204 §5.4]; deterministic signatures
 *               under different OIDs differ. (The OID bytes themselves
 *               are checked in tests/unit/crypto/test_mldsa.c, which
 *               rebuilds mu by hand.)
 *   mechanisms  listed, with the flags they should have.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/kat/wycheproof.h"
#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE;
static CK_OBJECT_CLASS c_sec = CKO_SECRET_KEY;
static CK_KEY_TYPE k_gen = CKK_GENERIC_SECRET;

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "sha512t", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* ------------------------------------------------------------ HMAC */

/* A session generic secret for signing and verifying; 0 when the token
 * refuses the value (an empty key). */
static CK_OBJECT_HANDLE
mac_key(const uint8_t *v, size_t len)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_KEY_TYPE, &k_gen, sizeof(k_gen) },
		{ CKA_VALUE, (void *)v, len },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_OBJECT_HANDLE o = 0;

	if (p11->C_CreateObject(h, t, 5, &o) != CKR_OK)
		return 0;
	return o;
}

/* One Wycheproof HMAC test through the token: 1 if the tag is right. */
static int
hmac_one(CK_MECHANISM_TYPE mech, size_t full, json_object *t, int *skipped)
{
	size_t kl, ml, tl;
	uint8_t *key = wp_unhex(wp_str(t, "key"), &kl);
	uint8_t *msg = wp_unhex(wp_str(t, "msg"), &ml);
	uint8_t *tag = wp_unhex(wp_str(t, "tag"), &tl);
	uint8_t mac[64];
	CK_MECHANISM m = { mech, NULL, 0 };
	CK_ULONG maclen = sizeof(mac);
	CK_OBJECT_HANDLE k = mac_key(key, kl);
	CK_RV rv;
	int ok = 0;

	if (k == 0) {
		assert_int_equal(kl, 0);
		*skipped = 1;
		goto out;
	}
	if (tl == full) {
		assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
		rv = p11->C_Verify(h, msg, ml, tag, tl);
		if (rv != CKR_OK && rv != CKR_SIGNATURE_INVALID)
			fail_msg("C_Verify: %s", p11_rv_name(rv));
		ok = rv == CKR_OK;
	} else {
		assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
		assert_rv(p11->C_Sign(h, msg, ml, mac, &maclen), CKR_OK);
		assert_int_equal(maclen, full);
		ok = tl <= full && memcmp(mac, tag, tl) == 0;
	}
	assert_rv(p11->C_DestroyObject(h, k), CKR_OK);
out:
	free(key);
	free(msg);
	free(tag);
	return ok;
}

static void
run_hmac(const char *file, CK_MECHANISM_TYPE mech, size_t full)
{
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	unsigned skipped = 0, ran = 0;
	size_t g, i;

	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		tests = json_object_object_get(
		    json_object_array_get_idx(groups, g), "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c), skip = 0;
			int ok = hmac_one(mech, full, t, &skip);

			if (skip) {
				skipped++;
				continue;
			}
			ran++;
			if (want >= 0 && want != ok)
				fail_msg("%s tcId %d (%s): expected %s", file,
				    json_object_get_int(json_object_object_get(
				    t, "tcId")), wp_str(t, "comment"),
				    want ? "valid" : "invalid");
		}
	}
	printf("# %s: %u tests through the token (%u valid, %u invalid), "
	    "%u with an empty key skipped\n", file, ran, c.valid, c.invalid,
	    skipped);
	assert_true(ran > 100);
	json_object_put(root);
}

static void
test_hmac_sha512_224(void **state)
{
	(void)state;
	run_hmac("hmac_sha512_224_test.json", CKM_SHA512_224_HMAC, 28);
}

static void
test_hmac_sha512_256(void **state)
{
	(void)state;
	run_hmac("hmac_sha512_256_test.json", CKM_SHA512_256_HMAC, 32);
}

/* ------------------------------------------------------------ HashML-DSA */

static void
mldsa_pair(CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_ULONG set = CKP_ML_DSA_44;
	CK_ATTRIBUTE pt[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = { { CKA_SIGN, &yes, 1 } };

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 1, pub, priv),
	    CKR_OK);
}

/* C_Sign / C_Verify with CKM_HASH_ML_DSA naming hash, deterministic. */
static CK_RV
hash_sign(CK_OBJECT_HANDLE k, CK_MECHANISM_TYPE hash, const uint8_t *d,
    size_t dlen, uint8_t *sig, CK_ULONG *siglen)
{
	CK_HASH_SIGN_ADDITIONAL_CONTEXT a = { CKH_DETERMINISTIC_REQUIRED,
		(CK_BYTE_PTR)"ctx", 3, hash };
	CK_MECHANISM m = { CKM_HASH_ML_DSA, &a, sizeof(a) };
	CK_RV rv = p11->C_SignInit(h, &m, k);

	if (rv != CKR_OK)
		return rv;
	return p11->C_Sign(h, (CK_BYTE_PTR)d, dlen, sig, siglen);
}

static CK_RV
hash_verify(CK_OBJECT_HANDLE k, CK_MECHANISM_TYPE hash, const uint8_t *d,
    size_t dlen, const uint8_t *sig, CK_ULONG siglen)
{
	CK_HASH_SIGN_ADDITIONAL_CONTEXT a = { CKH_HEDGE_PREFERRED,
		(CK_BYTE_PTR)"ctx", 3, hash };
	CK_MECHANISM m = { CKM_HASH_ML_DSA, &a, sizeof(a) };
	CK_RV rv = p11->C_VerifyInit(h, &m, k);

	if (rv != CKR_OK)
		return rv;
	return p11->C_Verify(h, (CK_BYTE_PTR)d, dlen, (CK_BYTE_PTR)sig,
	    siglen);
}

static void
evp_digest(const char *name, const void *msg, size_t len, uint8_t *out,
    size_t want)
{
	unsigned int n = 0;

	assert_int_equal(EVP_Digest(msg, len, out, &n,
	    EVP_get_digestbyname(name), NULL), 1);
	assert_int_equal(n, want);
}

static void
test_hash_mldsa(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE hash, twin; /* twin: another hash, same length */
		const char *evp;
		size_t len;
	} rows[] = {
		{ CKM_SHA512_224, CKM_SHA3_224, "SHA512-224", 28 },
		{ CKM_SHA512_256, CKM_SHA256, "SHA512-256", 32 },
	};
	static const char msg[] = "HashML-DSA over SHA-512/t";
	uint8_t d[64], sig[4096], sig2[4096];
	CK_OBJECT_HANDLE pub, priv;
	CK_ULONG slen, slen2;
	size_t i;

	(void)state;
	mldsa_pair(&pub, &priv);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		evp_digest(rows[i].evp, msg, strlen(msg), d, rows[i].len);
		slen = sizeof(sig);
		assert_rv(hash_sign(priv, rows[i].hash, d, rows[i].len, sig,
		    &slen), CKR_OK);
		assert_int_equal(slen, 2420);
		assert_rv(hash_verify(pub, rows[i].hash, d, rows[i].len, sig,
		    slen), CKR_OK);
		/* the same digest under another hash's OID */
		assert_rv(hash_verify(pub, rows[i].twin, d, rows[i].len, sig,
		    slen), CKR_SIGNATURE_INVALID);
		slen2 = sizeof(sig2);
		assert_rv(hash_sign(priv, rows[i].twin, d, rows[i].len, sig2,
		    &slen2), CKR_OK);
		assert_int_equal(slen2, slen);
		assert_memory_not_equal(sig, sig2, slen);
		/* a digest of the wrong length, a changed digest */
		assert_rv(hash_verify(pub, rows[i].hash, d, rows[i].len + 1,
		    sig, slen), CKR_DATA_LEN_RANGE);
		d[0] ^= 1;
		assert_rv(hash_verify(pub, rows[i].hash, d, rows[i].len, sig,
		    slen), CKR_SIGNATURE_INVALID);
	}
}

/* ------------------------------------------------------------ listing */

static void
test_mechanisms(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE m;
		CK_FLAGS flags;
	} rows[] = {
		{ CKM_SHA512_224, CKF_DIGEST },
		{ CKM_SHA512_256, CKF_DIGEST },
		{ CKM_SHA512_224_HMAC, CKF_SIGN | CKF_VERIFY },
		{ CKM_SHA512_256_HMAC, CKF_SIGN | CKF_VERIFY },
	};
	CK_MECHANISM_INFO info;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_rv(p11->C_GetMechanismInfo(slot, rows[i].m, &info),
		    CKR_OK);
		assert_int_equal(info.flags & rows[i].flags, rows[i].flags);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hmac_sha512_224, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hmac_sha512_256, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hash_mldsa, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_mechanisms, setup,
		    teardown),
	};
	static const char *const files[] = {
		"hmac_sha512_224_test.json",
		"hmac_sha512_256_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
