/*
 * ML-KEM key import through the PKCS#11 3.2 function list: each form of
 * the private key (seed d || z, dk, both) and the public key, with the
 * input checks of FIPS 203 §7.2 and §7.3 and seed consistency; and
 * Wycheproof's vectors:
 *
 *   mlkem_{512,768,1024}_test.json  a private key imported by its seed
 *       decapsulates the vector's ciphertext to its shared secret (the
 *       implicit rejection key for the wrong ones), seeds and
 *       ciphertexts of the wrong length are refused.
 *   mlkem_{512,768,1024}_semi_expanded_decaps_test.json  a private key
 *       imported by its dk (CKA_VALUE) decapsulates likewise; a dk of the
 *       wrong length or failing the hash check is refused at import.
 *   mlkem_{512,768,1024}_keygen_seed_test.json  a private key imported
 *       by its seed has the vector's ek in its SPKI, and imports with the
 *       vector's dk beside the seed (which the token refuses unless
 *       KeyGen_internal of the seed gives that dk).
 *
 * Without the vectors the test prints "FAIL: <reason>" and fails.
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
#include "tests/p11/mlkem_common.h"

/* Imports: the checks of FIPS 203 §7.2 and §7.3 and the seed's. */
static void
test_import(void **state)
{
	static uint8_t ek[1184], dk[2400], seed[64], ct[1088], info[1300],
	    info2[1300];
	static CK_ULONG set = CKP_ML_KEM_768, s512 = CKP_ML_KEM_512;
	CK_OBJECT_HANDLE pub, priv, o, k1, k2;
	CK_ATTRIBUTE rd[] = { { CKA_VALUE, dk, sizeof(dk) },
		{ CKA_SEED, seed, sizeof(seed) } };
	CK_ATTRIBUTE pt[] = {
		{ CKA_CLASS, &c_pub, sizeof(c_pub) },
		{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VALUE, ek, sizeof(ek) },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_VALUE, dk, sizeof(dk) },
		{ CKA_SEED, seed, sizeof(seed) },
	};
	CK_ATTRIBUTE gi = { CKA_PUBLIC_KEY_INFO, info, sizeof(info) };
	CK_ATTRIBUTE gi2 = { CKA_PUBLIC_KEY_INFO, info2, sizeof(info2) };
	CK_ULONG len32 = 32, ctlen = sizeof(ct), before, il;
	SECRET_TMPL(t, &len32);
	uint8_t v1[64], v2[64];

	(void)state;
	keypair(CKP_ML_KEM_768, 1, &pub, &priv);
	pt[3].ulValueLen = sizeof(ek);
	{
		CK_ATTRIBUTE e = { CKA_VALUE, ek, sizeof(ek) };

		assert_rv(p11->C_GetAttributeValue(h, pub, &e, 1), CKR_OK);
	}
	assert_rv(p11->C_GetAttributeValue(h, priv, rd, 2), CKR_OK);
	assert_int_equal(rd[0].ulValueLen, 2400);
	assert_int_equal(rd[1].ulValueLen, 64);
	/* dk = dk_PKE || ek || H(ek) || z, and z is the seed's second
	 * half */
	assert_memory_equal(dk + 1152, ek, 1184);
	assert_memory_equal(dk + 2368, seed + 32, 32);
	/* the SPKI of the pair is the same on both keys */
	assert_rv(p11->C_GetAttributeValue(h, pub, &gi, 1), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, priv, &gi2, 1), CKR_OK);
	assert_int_equal(gi.ulValueLen, gi2.ulValueLen);
	assert_memory_equal(info, info2, gi.ulValueLen);
	il = gi.ulValueLen;
	assert_int_equal(il, 1184 + 22);
	assert_memory_equal(info + il - 1184, ek, 1184);

	/* each form of the private key imports and decapsulates alike */
	assert_rv(encaps(pub, t, 5, ct, &ctlen, &k1), CKR_OK);
	value_of(k1, v1);
	assert_rv(p11->C_CreateObject(h, kt, 6, &o), CKR_OK);  /* both */
	assert_rv(decaps(o, t, 5, ct, ctlen, &k2), CKR_OK);
	value_of(k2, v2);
	assert_memory_equal(v1, v2, 32);
	assert_rv(p11->C_CreateObject(h, kt, 5, &o), CKR_OK);  /* dk only */
	assert_rv(decaps(o, t, 5, ct, ctlen, &k2), CKR_OK);
	value_of(k2, v2);
	assert_memory_equal(v1, v2, 32);
	kt[4] = kt[5];                                         /* seed only */
	assert_rv(p11->C_CreateObject(h, kt, 5, &o), CKR_OK);
	assert_rv(decaps(o, t, 5, ct, ctlen, &k2), CKR_OK);
	value_of(k2, v2);
	assert_memory_equal(v1, v2, 32);
	gi2.ulValueLen = sizeof(info2);
	assert_rv(p11->C_GetAttributeValue(h, o, &gi2, 1), CKR_OK);
	assert_memory_equal(info, info2, il);
	kt[4].type = CKA_VALUE;
	kt[4].pValue = dk;
	kt[4].ulValueLen = sizeof(dk);
	/* the public key imports and encapsulates */
	assert_rv(p11->C_CreateObject(h, pt, 4, &o), CKR_OK);
	assert_rv(encaps(o, t, 5, ct, &ctlen, &k1), CKR_OK);
	assert_rv(decaps(priv, t, 5, ct, ctlen, &k2), CKR_OK);
	value_of(k1, v1);
	value_of(k2, v2);
	assert_memory_equal(v1, v2, 32);

	before = nobjects();
	/* refusals */
	pt[3].ulValueLen = 1183;
	assert_rv(p11->C_CreateObject(h, pt, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	pt[3].ulValueLen = sizeof(ek);
	pt[2].pValue = &s512;
	assert_rv(p11->C_CreateObject(h, pt, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	pt[2].pValue = &set;
	ek[0] = 0xff;                  /* the first coefficient >= q */
	ek[1] |= 0x0f;
	assert_rv(p11->C_CreateObject(h, pt, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(p11->C_CreateObject(h, pt, 3, &o), CKR_TEMPLATE_INCOMPLETE);
	seed[0] ^= 1;                  /* a seed that is not the dk's */
	assert_rv(p11->C_CreateObject(h, kt, 6, &o),
	    CKR_TEMPLATE_INCONSISTENT);
	seed[0] ^= 1;
	kt[5].ulValueLen = 32;
	assert_rv(p11->C_CreateObject(h, kt, 6, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	kt[5].ulValueLen = 64;
	dk[2400 - 40] ^= 1;            /* H(ek) no longer ek's */
	assert_rv(p11->C_CreateObject(h, kt, 5, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	dk[2400 - 40] ^= 1;
	kt[4].ulValueLen = 2399;
	assert_rv(p11->C_CreateObject(h, kt, 5, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(p11->C_CreateObject(h, kt, 4, &o), CKR_TEMPLATE_INCOMPLETE);
	assert_int_equal(nobjects(), before);
}

/* Wycheproof's files, by parameter set. */
static const char *const kem_files[3] = { "mlkem_512_test.json",
	"mlkem_768_test.json", "mlkem_1024_test.json" };
static const char *const dk_files[3] = {
	"mlkem_512_semi_expanded_decaps_test.json",
	"mlkem_768_semi_expanded_decaps_test.json",
	"mlkem_1024_semi_expanded_decaps_test.json",
};
static const char *const kg_files[3] = {
	"mlkem_512_keygen_seed_test.json",
	"mlkem_768_keygen_seed_test.json",
	"mlkem_1024_keygen_seed_test.json",
};

/* Every test of the files (one per parameter set) through one, which
 * must agree with the vector's result; the counts in *counts. */
static void
wp_run(const char *const files[3], int (*one)(json_object *,
    const struct mlkem_set *), struct wp_counts *counts)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		json_object *root = wp_load(files[i]);
		json_object *groups = json_object_object_get(root,
		    "testGroups");
		size_t g, j;

		for (g = 0; g < json_object_array_length(groups); g++) {
			json_object *tests = json_object_object_get(
			    json_object_array_get_idx(groups, g), "tests");

			for (j = 0; j < json_object_array_length(tests);
			    j++) {
				json_object *tc = json_object_array_get_idx(
				    tests, j);
				int want = wp_expected(tc, counts);
				int got = one(tc, &sets[i]);

				if (want >= 0 && got != want)
					fail_msg("%s tcId %d: %s, expected %s",
					    files[i], json_object_get_int(
					    json_object_object_get(tc, "tcId")),
					    got ? "accepted" : "refused",
					    want ? "valid" : "invalid");
			}
		}
		json_object_put(root);
	}
}

/*
 * One Wycheproof vector: its seed makes a private key (a seed of another
 * length than 64 bytes must be refused with CKR_ATTRIBUTE_VALUE_INVALID),
 * which decapsulates the ciphertext to K (a ciphertext of another length
 * is CKR_ENCRYPTED_DATA_LEN_RANGE; a wrong one of the right length gives
 * the implicit rejection key, which is the vector's K); the vector's ek
 * makes a public key whose SPKI is the private key's. Nothing is left
 * behind. Returns whether the token accepted the vector.
 */
static int
wp_one(json_object *tc, const struct mlkem_set *s)
{
	static uint8_t i1[1700], i2[1700];
	CK_ULONG len32 = 32, set = s->set, before = nobjects();
	SECRET_TMPL(t, &len32);
	size_t sl, el = 0, cl, kl = 0;
	uint8_t *seed = wp_unhex(wp_str(tc, "seed"), &sl);
	uint8_t *c = wp_unhex(wp_str(tc, "c"), &cl);
	uint8_t *ek = wp_str(tc, "ek") ? wp_unhex(wp_str(tc, "ek"), &el)
				       : NULL;
	uint8_t *kk = wp_str(tc, "K") ? wp_unhex(wp_str(tc, "K"), &kl) : NULL;
	CK_ATTRIBUTE kt[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_SEED, seed, sl },
	};
	CK_ATTRIBUTE pt[] = {
		{ CKA_CLASS, &c_pub, sizeof(c_pub) },
		{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VALUE, ek, el },
	};
	CK_ATTRIBUTE g1 = { CKA_PUBLIC_KEY_INFO, i1, sizeof(i1) };
	CK_ATTRIBUTE g2 = { CKA_PUBLIC_KEY_INFO, i2, sizeof(i2) };
	CK_OBJECT_HANDLE priv, pub, k;
	uint8_t v[64];
	int ok = 0;

	if (sl != 64) {
		assert_rv(p11->C_CreateObject(h, kt, 4, &priv),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		goto out;
	}
	assert_rv(p11->C_CreateObject(h, kt, 4, &priv), CKR_OK);
	if (cl != s->ct) {
		assert_rv(decaps(priv, t, 5, c, cl, &k),
		    CKR_ENCRYPTED_DATA_LEN_RANGE);
	} else {
		assert_rv(decaps(priv, t, 5, c, cl, &k), CKR_OK);
		assert_int_equal(kl, 32);
		assert_int_equal(value_of(k, v), 32);
		assert_memory_equal(v, kk, 32);
		assert_rv(p11->C_DestroyObject(h, k), CKR_OK);
		ok = 1;
	}
	if (ek != NULL) {
		assert_rv(p11->C_CreateObject(h, pt, 4, &pub), CKR_OK);
		assert_rv(p11->C_GetAttributeValue(h, priv, &g1, 1), CKR_OK);
		assert_rv(p11->C_GetAttributeValue(h, pub, &g2, 1), CKR_OK);
		assert_int_equal(g1.ulValueLen, g2.ulValueLen);
		assert_memory_equal(i1, i2, g1.ulValueLen);
		assert_memory_equal(i1 + g1.ulValueLen - el, ek, el);
		assert_rv(p11->C_DestroyObject(h, pub), CKR_OK);
	}
	assert_rv(p11->C_DestroyObject(h, priv), CKR_OK);
out:
	assert_int_equal(nobjects(), before);
	free(seed);
	free(c);
	free(ek);
	free(kk);
	return ok;
}

/* Wycheproof's mlkem_{512,768,1024}_test.json: every valid vector is
 * accepted with its K, every invalid one refused. */
static void
test_wycheproof(void **state)
{
	struct wp_counts counts = { 0, 0, 0, 0 };

	(void)state;
	wp_run(kem_files, wp_one, &counts);
	printf("wycheproof ML-KEM: %u valid, %u invalid, %u acceptable\n",
	    counts.valid, counts.invalid, counts.acceptable);
	assert_true(counts.valid >= 300);
	assert_true(counts.invalid >= 90);
}

/* Asserts that the SPKI of key o ends with ek, of eklen bytes. */
static void
spki_has(CK_OBJECT_HANDLE o, const uint8_t *ek, size_t eklen)
{
	static uint8_t info[1700];
	CK_ATTRIBUTE g = { CKA_PUBLIC_KEY_INFO, info, sizeof(info) };

	assert_rv(p11->C_GetAttributeValue(h, o, &g, 1), CKR_OK);
	assert_int_equal(g.ulValueLen, eklen + 22);
	assert_memory_equal(info + g.ulValueLen - eklen, ek, eklen);
}

/*
 * One vector of a semi-expanded decapsulation file: its dk (CKA_VALUE)
 * makes a private key, refused with CKR_ATTRIBUTE_VALUE_INVALID when the
 * dk has the wrong length or fails the hash check [FIPS 203 §7.3]; the
 * key has the vector's ek in its SPKI and decapsulates the ciphertext to
 * K (a ciphertext of another length is CKR_ENCRYPTED_DATA_LEN_RANGE).
 * Nothing is left behind. Returns whether the token accepted the vector.
 */
static int
wp_dk_one(json_object *tc, const struct mlkem_set *s)
{
	CK_ULONG len32 = 32, set = s->set, before = nobjects();
	SECRET_TMPL(t, &len32);
	size_t dl, cl, el, kl = 0;
	uint8_t *dk = wp_unhex(wp_str(tc, "dk"), &dl);
	uint8_t *c = wp_unhex(wp_str(tc, "c"), &cl);
	uint8_t *ek = wp_unhex(wp_str(tc, "ek"), &el);
	uint8_t *kk = wp_str(tc, "K") ? wp_unhex(wp_str(tc, "K"), &kl) : NULL;
	CK_ATTRIBUTE kt[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VALUE, dk, dl },
	};
	CK_OBJECT_HANDLE priv, k;
	uint8_t v[64];
	CK_RV rv;
	int ok = 0;

	rv = p11->C_CreateObject(h, kt, 4, &priv);
	if (rv != CKR_OK) {
		assert_rv(rv, CKR_ATTRIBUTE_VALUE_INVALID);
		goto out;
	}
	assert_int_equal(dl, s->dk);
	spki_has(priv, ek, el);
	if (cl != s->ct) {
		assert_rv(decaps(priv, t, 5, c, cl, &k),
		    CKR_ENCRYPTED_DATA_LEN_RANGE);
	} else {
		assert_rv(decaps(priv, t, 5, c, cl, &k), CKR_OK);
		assert_int_equal(kl, 32);
		assert_int_equal(value_of(k, v), 32);
		assert_memory_equal(v, kk, 32);
		assert_rv(p11->C_DestroyObject(h, k), CKR_OK);
		ok = 1;
	}
	assert_rv(p11->C_DestroyObject(h, priv), CKR_OK);
out:
	assert_int_equal(nobjects(), before);
	free(dk);
	free(c);
	free(ek);
	free(kk);
	return ok;
}

/*
 * One vector of a keygen file: its seed makes a private key whose SPKI
 * holds the vector's ek, and the seed with the vector's dk makes one too
 * (the token checks that the seed gives that dk). Returns whether both
 * imports were accepted; nothing is left behind.
 */
static int
wp_kg_one(json_object *tc, const struct mlkem_set *s)
{
	CK_ULONG set = s->set, before = nobjects();
	size_t sl, el, dl;
	uint8_t *seed = wp_unhex(wp_str(tc, "seed"), &sl);
	uint8_t *ek = wp_unhex(wp_str(tc, "ek"), &el);
	uint8_t *dk = wp_unhex(wp_str(tc, "dk"), &dl);
	CK_ATTRIBUTE kt[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_SEED, seed, sl },
		{ CKA_VALUE, dk, dl },
	};
	CK_OBJECT_HANDLE o;
	int ok = 0;

	if (p11->C_CreateObject(h, kt, 4, &o) != CKR_OK)
		goto out;
	spki_has(o, ek, el);
	assert_rv(p11->C_DestroyObject(h, o), CKR_OK);
	if (p11->C_CreateObject(h, kt, 5, &o) != CKR_OK)
		goto out;
	spki_has(o, ek, el);
	assert_rv(p11->C_DestroyObject(h, o), CKR_OK);
	ok = 1;
out:
	assert_int_equal(nobjects(), before);
	free(seed);
	free(ek);
	free(dk);
	return ok;
}

/* The semi-expanded decapsulation files: the valid vectors give their
 * K, the invalid ones are refused. */
static void
test_wycheproof_dk(void **state)
{
	struct wp_counts counts = { 0, 0, 0, 0 };

	(void)state;
	wp_run(dk_files, wp_dk_one, &counts);
	printf("wycheproof ML-KEM semi-expanded: %u valid, %u invalid, "
	    "%u acceptable\n", counts.valid, counts.invalid,
	    counts.acceptable);
	assert_true(counts.valid >= 9);
	assert_true(counts.invalid >= 18);
}

/* The keygen files: every seed gives its ek and dk. */
static void
test_wycheproof_keygen(void **state)
{
	struct wp_counts counts = { 0, 0, 0, 0 };

	(void)state;
	wp_run(kg_files, wp_kg_one, &counts);
	printf("wycheproof ML-KEM keygen: %u valid, %u invalid, "
	    "%u acceptable\n", counts.valid, counts.invalid,
	    counts.acceptable);
	assert_true(counts.valid >= 300);
}

int
main(void)
{
	static const char *const files[] = { "mlkem_512_test.json",
		"mlkem_768_test.json", "mlkem_1024_test.json",
		"mlkem_512_semi_expanded_decaps_test.json",
		"mlkem_768_semi_expanded_decaps_test.json",
		"mlkem_1024_semi_expanded_decaps_test.json",
		"mlkem_512_keygen_seed_test.json",
		"mlkem_768_keygen_seed_test.json",
		"mlkem_1024_keygen_seed_test.json" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_import, mlkem_setup,
		    mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_wycheproof, mlkem_setup,
		    mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_wycheproof_dk,
		    mlkem_setup, mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_wycheproof_keygen,
		    mlkem_setup, mlkem_teardown),
	};
	int rc;

	if (p11_load() != 0)
		return 1;
	rc = wp_init(files, 9);
	if (rc != 0)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
