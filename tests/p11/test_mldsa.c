/*
 * ML-DSA through the function list, by the PKCS#11 3.2 identifiers and the
 * vendor ones: key pairs of each parameter set, pure and HashML-DSA
 * signatures with contexts, hedged and deterministic signing, single and
 * multi-part, and the refusals.
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

#include "tests/p11/common.h"
#include "vgtoken/vgtoken.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE;

static int
setup(void **state)
{
	(void)state;
	if (p11_fresh_token(dir, NULL, "mldsa", &slot) != 0)
		return -1;
	return p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h) == CKR_OK &&
	    p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) == CKR_OK ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static void
keypair(CK_MECHANISM_TYPE mech, CK_ULONG set, CK_OBJECT_HANDLE *pub,
    CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = { { CKA_SIGN, &yes, 1 } };

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 1, pub, priv),
	    CKR_OK);
}

static CK_ULONG
sign(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const void *msg, size_t len,
    uint8_t *sig)
{
	CK_ULONG slen = 0;

	assert_rv(p11->C_SignInit(h, m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)msg, len, NULL, &slen), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)msg, len, sig, &slen), CKR_OK);
	return slen;
}

static CK_RV
verify(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const void *msg, size_t len,
    const uint8_t *sig, CK_ULONG slen)
{
	assert_rv(p11->C_VerifyInit(h, m, k), CKR_OK);
	return p11->C_Verify(h, (CK_BYTE_PTR)msg, len, (CK_BYTE_PTR)sig, slen);
}

static void
test_sets(void **state)
{
	static const struct {
		CK_ULONG set;
		size_t pk, sig;
	} sets[] = {
		{ CKP_ML_DSA_44, 1312, 2420 },
		{ CKP_ML_DSA_65, 1952, 3309 },
		{ CKP_ML_DSA_87, 2592, 4627 },
	};
	static uint8_t sig[4627], pkv[2592];
	CK_MECHANISM m = { CKM_ML_DSA, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	CK_ATTRIBUTE get = { CKA_VALUE, pkv, sizeof(pkv) };
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		CK_ULONG slen;

		keypair(CKM_ML_DSA_KEY_PAIR_GEN, sets[i].set, &pub, &priv);
		get.ulValueLen = sizeof(pkv);
		assert_rv(p11->C_GetAttributeValue(h, pub, &get, 1), CKR_OK);
		assert_int_equal(get.ulValueLen, sets[i].pk);
		slen = sign(&m, priv, "message", 7, sig);
		assert_int_equal(slen, sets[i].sig);
		assert_rv(verify(&m, pub, "message", 7, sig, slen), CKR_OK);
		assert_rv(verify(&m, pub, "massage", 7, sig, slen),
		    CKR_SIGNATURE_INVALID);
		assert_rv(verify(&m, pub, "message", 7, sig, slen - 1),
		    CKR_SIGNATURE_LEN_RANGE);
	}
}

static void
test_context_and_hedging(void **state)
{
	static uint8_t s1[3309], s2[3309];
	CK_SIGN_ADDITIONAL_CONTEXT a = { CKH_DETERMINISTIC_REQUIRED,
		(CK_BYTE_PTR)"ctx", 3 };
	CK_MECHANISM det = { CKM_ML_DSA, &a, sizeof(a) };
	CK_MECHANISM plain = { CKM_ML_DSA, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	uint8_t big[256];
	CK_ULONG l1, l2;

	(void)state;
	keypair(CKM_ML_DSA_KEY_PAIR_GEN, CKP_ML_DSA_65, &pub, &priv);
	/* Deterministic signing repeats; the context is part of it. */
	l1 = sign(&det, priv, "m", 1, s1);
	l2 = sign(&det, priv, "m", 1, s2);
	assert_int_equal(l1, l2);
	assert_memory_equal(s1, s2, l1);
	assert_rv(verify(&det, pub, "m", 1, s1, l1), CKR_OK);
	assert_rv(verify(&plain, pub, "m", 1, s1, l1), CKR_SIGNATURE_INVALID);
	/* Multi-part equals single-part. */
	assert_rv(p11->C_SignInit(h, &det, priv), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"m", 1), CKR_OK);
	l2 = sizeof(s2);
	assert_rv(p11->C_SignFinal(h, s2, &l2), CKR_OK);
	assert_memory_equal(s1, s2, l1);
	/* Hedged (the default) differs each time and verifies. */
	a.hedgeVariant = CKH_HEDGE_PREFERRED;
	l1 = sign(&det, priv, "m", 1, s1);
	l2 = sign(&det, priv, "m", 1, s2);
	assert_memory_not_equal(s1, s2, l1);
	assert_rv(verify(&det, pub, "m", 1, s2, l2), CKR_OK);
	/* Contexts are at most 255 bytes; unknown hedging is refused. */
	memset(big, 'c', sizeof(big));
	a.pContext = big;
	a.ulContextLen = 256;
	assert_rv(p11->C_SignInit(h, &det, priv), CKR_MECHANISM_PARAM_INVALID);
	a.ulContextLen = 255;
	assert_rv(p11->C_SignInit(h, &det, priv), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_SIGN), CKR_OK);
	a.hedgeVariant = 9;
	assert_rv(p11->C_SignInit(h, &det, priv), CKR_MECHANISM_PARAM_INVALID);
	det.ulParameterLen = 5;
	assert_rv(p11->C_SignInit(h, &det, priv), CKR_MECHANISM_PARAM_INVALID);
}

static void
test_hash_ml_dsa(void **state)
{
	static uint8_t sig[2420];
	CK_MECHANISM hs = { CKM_HASH_ML_DSA_SHA256, NULL, 0 };
	CK_HASH_SIGN_ADDITIONAL_CONTEXT ha = { CKH_HEDGE_PREFERRED, NULL, 0,
		CKM_SHA256 };
	CK_MECHANISM given = { CKM_HASH_ML_DSA, &ha, sizeof(ha) };
	CK_OBJECT_HANDLE pub, priv;
	uint8_t digest[32];
	unsigned dlen = 0;
	CK_ULONG slen;

	(void)state;
	keypair(CKM_ML_DSA_KEY_PAIR_GEN, CKP_ML_DSA_44, &pub, &priv);
	EVP_Digest("prehashed", 9, digest, &dlen, EVP_sha256(), NULL);
	/* Hash-then-sign and sign-a-digest give interchangeable
	 * signatures. */
	slen = sign(&hs, priv, "prehashed", 9, sig);
	assert_rv(verify(&given, pub, digest, 32, sig, slen), CKR_OK);
	slen = sign(&given, priv, digest, 32, sig);
	assert_rv(verify(&hs, pub, "prehashed", 9, sig, slen), CKR_OK);
	/* A pure ML-DSA signature is not a HashML-DSA one. */
	assert_rv(verify(&given, pub, digest, 31, sig, slen),
	    CKR_DATA_LEN_RANGE);
	ha.hash = CKM_MD5;
	assert_rv(p11->C_SignInit(h, &given, priv),
	    CKR_MECHANISM_PARAM_INVALID);
	given.pParameter = NULL;
	given.ulParameterLen = 0;
	assert_rv(p11->C_SignInit(h, &given, priv),
	    CKR_MECHANISM_PARAM_INVALID);
}

/* The vendor identifiers run the same code on the same keys. */
static void
test_vendor(void **state)
{
	static uint8_t sig[2420];
	CK_MECHANISM vm = { CKM_VG_ML_DSA, NULL, 0 };
	CK_MECHANISM sm = { CKM_ML_DSA, NULL, 0 };
	CK_MECHANISM gen = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_ULONG bad = 7;
	CK_ATTRIBUTE pt = { CKA_PARAMETER_SET, &bad, sizeof(bad) };
	CK_OBJECT_HANDLE pub, priv, x, y;
	CK_MECHANISM_INFO info;
	CK_ULONG slen;

	(void)state;
	keypair(CKM_VG_ML_DSA_KEY_PAIR_GEN, CKP_ML_DSA_44, &pub, &priv);
	slen = sign(&vm, priv, "v", 1, sig);
	assert_rv(verify(&sm, pub, "v", 1, sig, slen), CKR_OK);
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_VG_ML_DSA, &info), CKR_OK);
	assert_true(info.flags & CKF_SIGN);
	assert_rv(p11->C_GenerateKeyPair(h, &gen, &pt, 1, NULL, 0, &x, &y),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(p11->C_SignInit(h, &sm, pub), CKR_KEY_TYPE_INCONSISTENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_context_and_hedging,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_hash_ml_dsa, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_vendor, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
