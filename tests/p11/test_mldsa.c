/*
 * ML-DSA through the function list, by the PKCS#11 3.2 identifiers and the
 * vendor ones: key pairs of each parameter set, pure and HashML-DSA
 * signatures with contexts, hedged and deterministic signing, single and
 * multi-part, the SHAKE hash-and-sign mechanisms, the vendor key type and
 * attributes as aliases of the standard ones, and the refusals.
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
	return p11_fresh_user_session(dir, "mldsa", &slot, &h);
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

/* CKM_HASH_ML_DSA_SHAKE128 / SHAKE256: single and multi-part agree,
 * each verifies only under its own mechanism. */
static void
test_shake(void **state)
{
	static uint8_t s1[2420], s2[2420];
	static const CK_MECHANISM_TYPE mechs[2] = { CKM_HASH_ML_DSA_SHAKE128,
		CKM_HASH_ML_DSA_SHAKE256 };
	CK_SIGN_ADDITIONAL_CONTEXT a = { CKH_DETERMINISTIC_REQUIRED,
		(CK_BYTE_PTR)"xof", 3 };
	CK_MECHANISM pure = { CKM_ML_DSA, &a, sizeof(a) };
	CK_MECHANISM_TYPE list[128];
	CK_ULONG n = 128, l1, l2, i, found = 0;
	CK_OBJECT_HANDLE pub, priv;
	size_t j;

	(void)state;
	assert_rv(p11->C_GetMechanismList(slot, list, &n), CKR_OK);
	for (i = 0; i < n; i++)
		found += list[i] == CKM_HASH_ML_DSA_SHAKE128 ||
		    list[i] == CKM_HASH_ML_DSA_SHAKE256;
	assert_int_equal(found, 2);
	keypair(CKM_ML_DSA_KEY_PAIR_GEN, CKP_ML_DSA_44, &pub, &priv);
	for (j = 0; j < 2; j++) {
		CK_MECHANISM m = { mechs[j], &a, sizeof(a) };
		CK_MECHANISM other = { mechs[1 - j], &a, sizeof(a) };

		l1 = sign(&m, priv, "shake message", 13, s1);
		assert_int_equal(l1, 2420);
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"shake ", 6),
		    CKR_OK);
		assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"message", 7),
		    CKR_OK);
		l2 = 10; /* too short: the operation stays active */
		assert_rv(p11->C_SignFinal(h, s2, &l2), CKR_BUFFER_TOO_SMALL);
		assert_int_equal(l2, 2420);
		assert_rv(p11->C_SignFinal(h, s2, &l2), CKR_OK);
		assert_memory_equal(s1, s2, l1);
		assert_rv(verify(&m, pub, "shake message", 13, s1, l1), CKR_OK);
		assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
		assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)"shake mes", 9),
		    CKR_OK);
		assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)"sage", 4),
		    CKR_OK);
		assert_rv(p11->C_VerifyFinal(h, s1, l1), CKR_OK);
		assert_rv(verify(&m, pub, "shake massage", 13, s1, l1),
		    CKR_SIGNATURE_INVALID);
		assert_rv(verify(&other, pub, "shake message", 13, s1, l1),
		    CKR_SIGNATURE_INVALID);
		assert_rv(verify(&pure, pub, "shake message", 13, s1, l1),
		    CKR_SIGNATURE_INVALID);
		/* hedged signatures differ and verify */
		a.hedgeVariant = CKH_HEDGE_REQUIRED;
		l2 = sign(&m, priv, "shake message", 13, s2);
		assert_memory_not_equal(s1, s2, l1);
		assert_rv(verify(&m, pub, "shake message", 13, s2, l2), CKR_OK);
		a.hedgeVariant = CKH_DETERMINISTIC_REQUIRED;
	}
}

/* Objects found with a template, counted. */
static CK_ULONG
count(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_OBJECT_HANDLE found[8];
	CK_ULONG got = 0;

	assert_rv(p11->C_FindObjectsInit(h, (CK_ATTRIBUTE_PTR)t, n), CKR_OK);
	assert_rv(p11->C_FindObjects(h, found, 8, &got), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return got;
}

/* CKK_VG_ML_DSA, CKA_VG_PARAMETER_SET and CKA_VG_SEED are aliases of the
 * standard identifiers in every template: an object made with either set
 * is found and read with either. */
static void
test_vendor_attrs(void **state)
{
	static uint8_t s1[3309], s2[3309];
	static CK_KEY_TYPE vkt = CKK_VG_ML_DSA, skt = CKK_ML_DSA;
	static CK_ULONG v65 = CKP_ML_DSA_65, v87 = CKP_ML_DSA_87;
	static CK_OBJECT_CLASS privc = CKO_PRIVATE_KEY;
	static CK_BBOOL no = CK_FALSE, yes_ = CK_TRUE;
	/* read-only templates: the module must not write into them */
	static const CK_ATTRIBUTE by_vendor[] = {
		{ CKA_KEY_TYPE, &vkt, sizeof(vkt) },
		{ CKA_VG_PARAMETER_SET, &v65, sizeof(v65) },
		{ CKA_LABEL, "alias", 5 },
	};
	static const CK_ATTRIBUTE by_std[] = {
		{ CKA_KEY_TYPE, &skt, sizeof(skt) },
		{ CKA_PARAMETER_SET, &v65, sizeof(v65) },
		{ CKA_LABEL, "alias", 5 },
	};
	static const CK_ATTRIBUTE by_87[] = {
		{ CKA_VG_PARAMETER_SET, &v87, sizeof(v87) },
		{ CKA_LABEL, "alias", 5 },
	};
	CK_MECHANISM gen = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_SIGN_ADDITIONAL_CONTEXT a = { CKH_DETERMINISTIC_REQUIRED, NULL, 0 };
	CK_MECHANISM det = { CKM_ML_DSA, &a, sizeof(a) };
	CK_ATTRIBUTE pt[] = {
		{ CKA_KEY_TYPE, &vkt, sizeof(vkt) },
		{ CKA_VG_PARAMETER_SET, &v65, sizeof(v65) },
		{ CKA_LABEL, "alias", 5 },
		{ CKA_VERIFY, &yes_, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_KEY_TYPE, &vkt, sizeof(vkt) },
		{ CKA_LABEL, "alias", 5 },
		{ CKA_SIGN, &yes_, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes_, 1 },
	};
	uint8_t seed[32], vseed[32], other[32];
	CK_ULONG set = 0, vset = 0, type = 0, l1, l2;
	CK_ATTRIBUTE get[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VG_PARAMETER_SET, &vset, sizeof(vset) },
		{ CKA_KEY_TYPE, &type, sizeof(type) },
	};
	CK_ATTRIBUTE sget[] = {
		{ CKA_SEED, seed, sizeof(seed) },
		{ CKA_VG_SEED, vseed, sizeof(vseed) },
	};
	CK_ATTRIBUTE ct[] = {
		{ CKA_CLASS, &privc, sizeof(privc) },
		{ CKA_KEY_TYPE, &vkt, sizeof(vkt) },
		{ CKA_VG_PARAMETER_SET, &v65, sizeof(v65) },
		{ CKA_VG_SEED, seed, sizeof(seed) },
		{ CKA_SIGN, &yes_, 1 },
		{ CKA_SEED, other, sizeof(other) },
	};
	CK_OBJECT_HANDLE pub, priv, made;

	(void)state;
	assert_rv(p11->C_GenerateKeyPair(h, &gen, pt, 4, kt, 5, &pub, &priv),
	    CKR_OK);
	/* read with both names */
	assert_rv(p11->C_GetAttributeValue(h, pub, get, 3), CKR_OK);
	assert_int_equal(set, CKP_ML_DSA_65);
	assert_int_equal(vset, CKP_ML_DSA_65);
	assert_int_equal(type, CKK_ML_DSA);
	get[1].pValue = NULL;
	get[1].ulValueLen = 0;
	assert_rv(p11->C_GetAttributeValue(h, priv, get, 2), CKR_OK);
	assert_int_equal(get[1].ulValueLen, sizeof(CK_ULONG));
	assert_rv(p11->C_GetAttributeValue(h, priv, sget, 2), CKR_OK);
	assert_int_equal(sget[1].ulValueLen, 32);
	assert_memory_equal(seed, vseed, 32);
	/* found with both names, and not with another set */
	assert_int_equal(count(by_vendor, 3), 2);
	assert_int_equal(count(by_std, 3), 2);
	assert_int_equal(count(by_87, 2), 0);
	/* a private key created from the seed under the vendor names signs
	 * as the generated one (deterministic signatures agree) */
	memcpy(other, seed, sizeof(other));
	assert_rv(p11->C_CreateObject(h, ct, 5, &made), CKR_OK);
	l1 = sign(&det, priv, "alias", 5, s1);
	l2 = sign(&det, made, "alias", 5, s2);
	assert_int_equal(l1, l2);
	assert_memory_equal(s1, s2, l1);
	assert_rv(verify(&det, pub, "alias", 5, s2, l2), CKR_OK);
	/* the same attribute twice under its two names: the values must
	 * agree */
	assert_rv(p11->C_CreateObject(h, ct, 6, &made), CKR_OK);
	other[0] ^= 1;
	assert_rv(p11->C_CreateObject(h, ct, 6, &made),
	    CKR_TEMPLATE_INCONSISTENT);
	/* CKA_ALLOWED_MECHANISMS naming the standard mechanism allows its
	 * vendor twin, and nothing else */
	{
		CK_MECHANISM_TYPE allowed = CKM_ML_DSA;
		CK_MECHANISM vdet = { CKM_VG_ML_DSA, &a, sizeof(a) };
		CK_MECHANISM hs = { CKM_HASH_ML_DSA_SHA256, NULL, 0 };
		CK_ATTRIBUTE am = { CKA_ALLOWED_MECHANISMS, &allowed,
			sizeof(allowed) };
		CK_OBJECT_HANDLE lim;

		ct[5] = am;
		assert_rv(p11->C_CreateObject(h, ct, 6, &lim), CKR_OK);
		l2 = sign(&vdet, lim, "alias", 5, s2);
		assert_memory_equal(s1, s2, l1);
		assert_rv(p11->C_SignInit(h, &hs, lim), CKR_MECHANISM_INVALID);
	}
	/* a vendor key type with a standard parameter set, and back */
	pt[0].pValue = &skt;
	assert_rv(p11->C_GenerateKeyPair(h, &gen, pt, 4, kt, 3, &pub, &priv),
	    CKR_OK);
	assert_int_equal(count(by_vendor, 3), 4);
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
		cmocka_unit_test_setup_teardown(test_shake, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vendor_attrs, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
