/*
 * ML-KEM through the PKCS#11 3.2 function list: key pairs of each
 * parameter set, C_EncapsulateKey and C_DecapsulateKey (the two secret
 * keys are equal; the length convention of the ciphertext; the template
 * rules of the new key; the key's own encapsulation templates), implicit
 * rejection of a wrong ciphertext, token keys and usage flags, every
 * refusal (with no object made), and the vendor identifiers that older
 * interfaces see instead of the 3.2 ones. Imports and Wycheproof's
 * vectors: tests/p11/test_mlkem_import.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"
#include "tests/p11/mlkem_common.h"
#include "vgtoken/vgtoken.h"

/* Key pairs of each set; an encapsulated and a decapsulated key agree;
 * the ciphertext's length convention. */
static void
test_round_trip(void **state)
{
	static uint8_t ct[1568], ek[1568];
	CK_ULONG len32 = 32;
	SECRET_TMPL(t, &len32);
	CK_OBJECT_HANDLE pub, priv, k1, k2;
	uint8_t v1[64], v2[64];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		CK_ATTRIBUTE get[] = { { CKA_VALUE, ek, sizeof(ek) },
			{ CKA_PARAMETER_SET, NULL, 0 } };
		CK_ULONG set = 0, ctlen = 0, before;

		keypair(sets[i].set, 0, &pub, &priv);
		get[1].pValue = &set;
		get[1].ulValueLen = sizeof(set);
		assert_rv(p11->C_GetAttributeValue(h, pub, get, 2), CKR_OK);
		assert_int_equal(get[0].ulValueLen, sets[i].ek);
		assert_int_equal(set, sets[i].set);
		assert_int_equal(bool_of(pub, CKA_ENCAPSULATE), CK_TRUE);
		assert_int_equal(bool_of(priv, CKA_DECAPSULATE), CK_TRUE);
		/* the length: asked, too short, then right; no key until
		 * then */
		before = nobjects();
		k1 = CK_INVALID_HANDLE;
		assert_rv(encaps(pub, t, 5, NULL, &ctlen, &k1), CKR_OK);
		assert_int_equal(ctlen, sets[i].ct);
		assert_int_equal(k1, CK_INVALID_HANDLE);
		ctlen--;
		assert_rv(encaps(pub, t, 5, ct, &ctlen, &k1),
		    CKR_BUFFER_TOO_SMALL);
		assert_int_equal(ctlen, sets[i].ct);
		assert_int_equal(nobjects(), before);
		ctlen = sizeof(ct);
		assert_rv(encaps(pub, t, 5, ct, &ctlen, &k1), CKR_OK);
		assert_int_equal(ctlen, sets[i].ct);
		assert_rv(decaps(priv, t, 5, ct, ctlen, &k2), CKR_OK);
		assert_int_equal(nobjects(), before + 2);
		assert_int_equal(value_of(k1, v1), 32);
		assert_int_equal(value_of(k2, v2), 32);
		assert_memory_equal(v1, v2, 32);
		assert_int_equal(bool_of(k1, CKA_LOCAL), CK_FALSE);
		assert_int_equal(bool_of(k2, CKA_LOCAL), CK_FALSE);
		/* a second encapsulation makes another secret */
		assert_rv(encaps(pub, t, 5, ct, &ctlen, &k2), CKR_OK);
		assert_int_equal(value_of(k2, v2), 32);
		assert_memory_not_equal(v1, v2, 32);
	}
}

/* The new key's template: default length, AES, shorter keys (a prefix
 * of the secret), and the history attributes. */
static void
test_new_key(void **state)
{
	static uint8_t ct[1088];
	CK_ULONG len16 = 16, len33 = 33, len20 = 20, ctlen = sizeof(ct), n;
	CK_OBJECT_HANDLE pub, priv, k1, k2, k3;
	uint8_t v1[64], v2[64];
	CK_ATTRIBUTE dflt[] = {
		{ CKA_SENSITIVE, &no, 1 }, { CKA_EXTRACTABLE, &yes, 1 },
	};
	CK_ATTRIBUTE aes[] = {
		{ CKA_KEY_TYPE, &k_aes, sizeof(k_aes) },
		{ CKA_VALUE_LEN, &len16, sizeof(len16) },
		{ CKA_SENSITIVE, &no, 1 }, { CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_ENCRYPT, &yes, 1 },
	};
	CK_ATTRIBUTE secret[] = {
		{ CKA_SENSITIVE, &yes, 1 }, { CKA_EXTRACTABLE, &no, 1 },
	};
	CK_ATTRIBUTE tmpl[] = { { CKA_VALUE_LEN, &len33, sizeof(len33) } };

	(void)state;
	keypair(CKP_ML_KEM_768, 0, &pub, &priv);
	assert_rv(encaps(pub, dflt, 2, ct, &ctlen, &k1), CKR_OK);
	n = value_of(k1, v1);
	assert_int_equal(n, 32);
	{
		CK_KEY_TYPE kt = 0;
		CK_ULONG vl = 0;
		CK_ATTRIBUTE a[] = { { CKA_KEY_TYPE, &kt, sizeof(kt) },
			{ CKA_VALUE_LEN, &vl, sizeof(vl) } };

		assert_rv(p11->C_GetAttributeValue(h, k1, a, 2), CKR_OK);
		assert_int_equal(kt, CKK_GENERIC_SECRET);
		assert_int_equal(vl, 32);
	}
	/* an AES-128 key from the same ciphertext: the first 16 bytes */
	assert_rv(decaps(priv, aes, 5, ct, ctlen, &k2), CKR_OK);
	assert_int_equal(value_of(k2, v2), 16);
	assert_memory_equal(v1, v2, 16);
	/* longer than the secret; a length AES cannot have */
	assert_rv(decaps(priv, tmpl, 1, ct, ctlen, &k3),
	    CKR_TEMPLATE_INCONSISTENT);
	aes[1].pValue = &len20;
	assert_rv(decaps(priv, aes, 5, ct, ctlen, &k3),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* the history: a decapsulated key follows the private key (which
	 * was always sensitive, never extractable); an encapsulated one
	 * is new to the token, as a generated key */
	assert_rv(decaps(priv, secret, 2, ct, ctlen, &k3), CKR_OK);
	assert_int_equal(bool_of(k3, CKA_ALWAYS_SENSITIVE), CK_TRUE);
	assert_int_equal(bool_of(k3, CKA_NEVER_EXTRACTABLE), CK_TRUE);
	assert_int_equal(bool_of(k2, CKA_ALWAYS_SENSITIVE), CK_FALSE);
	assert_rv(encaps(pub, secret, 2, ct, &ctlen, &k3), CKR_OK);
	assert_int_equal(bool_of(k3, CKA_ALWAYS_SENSITIVE), CK_TRUE);
	assert_int_equal(bool_of(k3, CKA_NEVER_EXTRACTABLE), CK_TRUE);
	assert_int_equal(bool_of(k1, CKA_NEVER_EXTRACTABLE), CK_FALSE);
	/* a private key that was extractable passes that on */
	keypair(CKP_ML_KEM_768, 1, &pub, &priv);
	assert_rv(encaps(pub, dflt, 2, ct, &ctlen, &k1), CKR_OK);
	assert_rv(decaps(priv, secret, 2, ct, ctlen, &k3), CKR_OK);
	assert_int_equal(bool_of(k3, CKA_ALWAYS_SENSITIVE), CK_FALSE);
	assert_int_equal(bool_of(k3, CKA_NEVER_EXTRACTABLE), CK_FALSE);
}

/* CKA_ENCAPSULATE_TEMPLATE and CKA_DECAPSULATE_TEMPLATE bind the keys
 * made with the key, as the unwrap template binds unwrapped keys. */
static void
test_key_templates(void **state)
{
	static uint8_t ct[800];
	static CK_ULONG set = CKP_ML_KEM_512;
	CK_ATTRIBUTE inner[] = { { CKA_KEY_TYPE, &k_aes, sizeof(k_aes) } };
	CK_ATTRIBUTE pt[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_ENCAPSULATE_TEMPLATE, inner, sizeof(inner) },
	};
	CK_ATTRIBUTE kt[] = { { CKA_DECAPSULATE_TEMPLATE, inner,
		sizeof(inner) } };
	CK_ATTRIBUTE gen[] = { { CKA_KEY_TYPE, &k_gen, sizeof(k_gen) } };
	CK_MECHANISM m = { CKM_ML_KEM_KEY_PAIR_GEN, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv, k;
	CK_ULONG ctlen = sizeof(ct), before;
	CK_KEY_TYPE got = 0;
	CK_ATTRIBUTE a = { CKA_KEY_TYPE, &got, sizeof(got) };

	(void)state;
	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 1, &pub, &priv),
	    CKR_OK);
	before = nobjects();
	assert_rv(encaps(pub, gen, 1, ct, &ctlen, &k),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(nobjects(), before);
	assert_rv(encaps(pub, NULL, 0, ct, &ctlen, &k), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, k, &a, 1), CKR_OK);
	assert_int_equal(got, CKK_AES);
	before = nobjects();
	assert_rv(decaps(priv, gen, 1, ct, ctlen, &k),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(nobjects(), before);
	assert_rv(decaps(priv, NULL, 0, ct, ctlen, &k), CKR_OK);
	got = 0;
	assert_rv(p11->C_GetAttributeValue(h, k, &a, 1), CKR_OK);
	assert_int_equal(got, CKK_AES);
}

/* A wrong ciphertext of the right length is no error: it gives the
 * implicit rejection key, the same each time, another than the sender's. */
static void
test_implicit_rejection(void **state)
{
	static uint8_t ct[1568];
	CK_ULONG len32 = 32, ctlen = sizeof(ct);
	SECRET_TMPL(t, &len32);
	CK_OBJECT_HANDLE pub, priv, k1, k2, k3;
	uint8_t v1[64], v2[64], v3[64];

	(void)state;
	keypair(CKP_ML_KEM_1024, 0, &pub, &priv);
	assert_rv(encaps(pub, t, 5, ct, &ctlen, &k1), CKR_OK);
	ct[17] ^= 0x01;
	assert_rv(decaps(priv, t, 5, ct, ctlen, &k2), CKR_OK);
	assert_rv(decaps(priv, t, 5, ct, ctlen, &k3), CKR_OK);
	value_of(k1, v1);
	value_of(k2, v2);
	value_of(k3, v3);
	assert_memory_not_equal(v1, v2, 32);
	assert_memory_equal(v2, v3, 32);
}

/* Token keys work as session keys do, across a new login; turning
 * CKA_ENCAPSULATE / CKA_DECAPSULATE off takes effect at once (the key
 * cache drops the changed key). */
static void
test_token_keys_and_usage(void **state)
{
	static uint8_t ct[1568];
	static CK_ULONG set = CKP_ML_KEM_1024;
	CK_MECHANISM gen = { CKM_ML_KEM_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_TOKEN, &yes, 1 }, { CKA_LABEL, "kem-pub", 7 } };
	CK_ATTRIBUTE kt[] = { { CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, "kem-priv", 8 } };
	CK_ATTRIBUTE off[] = { { CKA_ENCAPSULATE, &no, 1 } };
	CK_ATTRIBUTE off2[] = { { CKA_DECAPSULATE, &no, 1 } };
	CK_ATTRIBUTE find[] = { { CKA_LABEL, "kem-priv", 8 } };
	CK_ULONG len32 = 32, ctlen = sizeof(ct), got = 0;
	SECRET_TMPL(t, &len32);
	CK_OBJECT_HANDLE pub, priv, k1, k2;
	uint8_t v1[64], v2[64];

	(void)state;
	assert_rv(p11->C_GenerateKeyPair(h, &gen, pt, 3, kt, 2, &pub, &priv),
	    CKR_OK);
	assert_rv(encaps(pub, t, 5, ct, &ctlen, &k1), CKR_OK);
	assert_int_equal(ctlen, 1568);
	value_of(k1, v1);
	/* a new login: the private key is found again and decapsulates */
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	assert_rv(p11->C_FindObjectsInit(h, find, 1), CKR_OK);
	assert_rv(p11->C_FindObjects(h, &priv, 1, &got), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	assert_int_equal(got, 1);
	assert_rv(decaps(priv, t, 5, ct, ctlen, &k2), CKR_OK);
	value_of(k2, v2);
	assert_memory_equal(v1, v2, 32);
	/* usage turned off */
	assert_rv(p11->C_SetAttributeValue(h, pub, off, 1), CKR_OK);
	assert_rv(encaps(pub, t, 5, ct, &ctlen, &k1),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_rv(p11->C_SetAttributeValue(h, priv, off2, 1), CKR_OK);
	assert_rv(decaps(priv, t, 5, ct, ctlen, &k2),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
}

/* Every refusal, and no object made by any of them. */
static void
test_errors(void **state)
{
	static uint8_t ct[1088];
	static CK_ULONG set = CKP_ML_KEM_768, mldsa = CKP_ML_DSA_44;
	static CK_MECHANISM_TYPE only_dsa = CKM_ML_DSA;
	CK_MECHANISM kem = { CKM_ML_KEM, NULL, 0 }, dsa = { CKM_ML_DSA, NULL,
		0 }, gen = { CKM_ML_KEM_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM param = { CKM_ML_KEM, ct, 4 }, nullp = { CKM_ML_KEM,
		NULL, 4 };
	CK_ATTRIBUTE pt[] = { { CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_ENCAPSULATE, &no, 1 } };
	CK_ATTRIBUTE kt[] = { { CKA_DECAPSULATE, &no, 1 } };
	CK_ATTRIBUTE am[] = { { CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_ALLOWED_MECHANISMS, &only_dsa, sizeof(only_dsa) } };
	CK_ATTRIBUTE dt[] = { { CKA_PARAMETER_SET, &mldsa, sizeof(mldsa) } };
	CK_ATTRIBUTE value[] = { { CKA_VALUE, ct, 32 } };
	CK_ATTRIBUTE cls[] = { { CKA_CLASS, &c_priv, sizeof(c_priv) } };
	CK_OBJECT_HANDLE pub, priv, npub, npriv, apub, apriv, dpub, dpriv, k;
	CK_ULONG ctlen = sizeof(ct), before;

	(void)state;
	keypair(CKP_ML_KEM_768, 0, &pub, &priv);
	assert_rv(p11->C_GenerateKeyPair(h, &gen, pt, 2, kt, 1, &npub,
	    &npriv), CKR_OK);
	assert_rv(p11->C_GenerateKeyPair(h, &gen, am, 2, NULL, 0, &apub,
	    &apriv), CKR_OK);
	assert_rv(p11->C_GenerateKeyPair(h, &(CK_MECHANISM){
	    CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 }, dt, 1, NULL, 0, &dpub, &dpriv),
	    CKR_OK);
	assert_rv(encaps(pub, NULL, 0, ct, &ctlen, &k), CKR_OK);
	before = nobjects();
	/* arguments */
	assert_rv(p11->C_EncapsulateKey(h, NULL, pub, NULL, 0, ct, &ctlen,
	    &k), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_EncapsulateKey(h, &kem, pub, NULL, 0, ct, NULL,
	    &k), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_EncapsulateKey(h, &kem, pub, NULL, 0, ct, &ctlen,
	    NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_EncapsulateKey(h, &kem, pub, NULL, 1, ct, &ctlen,
	    &k), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_DecapsulateKey(h, &kem, priv, NULL, 0, NULL, ctlen,
	    &k), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_DecapsulateKey(h, &kem, priv, NULL, 0, ct, ctlen,
	    NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_DecapsulateKey(h, NULL, priv, NULL, 0, ct, ctlen,
	    &k), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_EncapsulateKey(CK_INVALID_HANDLE, &kem, pub, NULL,
	    0, ct, &ctlen, &k), CKR_SESSION_HANDLE_INVALID);
	/* mechanism */
	assert_rv(p11->C_EncapsulateKey(h, &dsa, pub, NULL, 0, ct, &ctlen,
	    &k), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_DecapsulateKey(h, &gen, priv, NULL, 0, ct, ctlen,
	    &k), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_EncapsulateKey(h, &param, pub, NULL, 0, ct, &ctlen,
	    &k), CKR_MECHANISM_PARAM_INVALID);
	assert_rv(p11->C_DecapsulateKey(h, &nullp, priv, NULL, 0, ct, ctlen,
	    &k), CKR_ARGUMENTS_BAD);
	/* keys */
	assert_rv(encaps(CK_INVALID_HANDLE, NULL, 0, ct, &ctlen, &k),
	    CKR_KEY_HANDLE_INVALID);
	assert_rv(decaps(0x7fffffff, NULL, 0, ct, ctlen, &k),
	    CKR_KEY_HANDLE_INVALID);
	assert_rv(encaps(priv, NULL, 0, ct, &ctlen, &k),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(decaps(pub, NULL, 0, ct, ctlen, &k),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(encaps(dpub, NULL, 0, ct, &ctlen, &k),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(decaps(dpriv, NULL, 0, ct, ctlen, &k),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(encaps(npub, NULL, 0, ct, &ctlen, &k),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_rv(decaps(npriv, NULL, 0, ct, ctlen, &k),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_rv(encaps(apub, NULL, 0, ct, &ctlen, &k),
	    CKR_MECHANISM_INVALID);
	/* the ciphertext's length */
	assert_rv(decaps(priv, NULL, 0, ct, ctlen - 1, &k),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	assert_rv(decaps(priv, NULL, 0, ct, ctlen + 1, &k),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	assert_rv(decaps(priv, NULL, 0, ct, 0, &k),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	assert_rv(decaps(priv, NULL, 0, ct, 768, &k),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	/* templates: the value is the mechanism's; only secret keys */
	assert_rv(encaps(pub, value, 1, ct, &ctlen, &k),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_rv(decaps(priv, value, 1, ct, ctlen, &k),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_rv(decaps(priv, cls, 1, ct, ctlen, &k),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(nobjects(), before);
}

/* The 3.2 identifiers are for the 3.2 interface; older ones see the
 * vendor twins, by which keys are made and read. */
static void
test_interfaces(void **state)
{
	CK_MECHANISM_TYPE list[256];
	CK_MECHANISM_INFO info;
	CK_ULONG n = 256, i, std = 0, ven = 0;
	CK_INTERFACE_PTR iface;
	CK_VERSION v30 = { 3, 0 };
	CK_FUNCTION_LIST_3_0 *f30;
	CK_ULONG set = CKP_VG_ML_KEM_512;
	CK_KEY_TYPE vkt = CKK_VG_ML_KEM, kt = 0;
	CK_MECHANISM vgen = { CKM_VG_ML_KEM_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM vkem = { CKM_VG_ML_KEM, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_VG_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_KEY_TYPE, &vkt, sizeof(vkt) } };
	CK_ATTRIBUTE rd = { CKA_KEY_TYPE, &kt, sizeof(kt) };
	CK_OBJECT_HANDLE pub, priv, k1, k2;
	static uint8_t ct[768];
	CK_ULONG ctlen = sizeof(ct);
	uint8_t v1[64], v2[64];

	(void)state;
	assert_rv(p11->C_GetMechanismList(slot, list, &n), CKR_OK);
	for (i = 0; i < n; i++) {
		std += list[i] == CKM_ML_KEM || list[i] == CKM_ML_KEM_KEY_PAIR_GEN;
		ven += list[i] == CKM_VG_ML_KEM ||
		    list[i] == CKM_VG_ML_KEM_KEY_PAIR_GEN;
	}
	assert_int_equal(std, 2);
	assert_int_equal(ven, 2);
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_ML_KEM, &info), CKR_OK);
	assert_int_equal(info.flags, CKF_ENCAPSULATE | CKF_DECAPSULATE);
	assert_int_equal(info.ulMinKeySize, 1);
	assert_int_equal(info.ulMaxKeySize, 3);
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_ML_KEM_KEY_PAIR_GEN,
	    &info), CKR_OK);
	assert_int_equal(info.flags, CKF_GENERATE_KEY_PAIR);
	/* 2.40 and 3.0 */
	assert_rv(p11_sym_GetInterface((CK_UTF8CHAR_PTR)"PKCS 11", &v30,
	    &iface, 0), CKR_OK);
	f30 = iface->pFunctionList;
	n = 256;
	assert_rv(f30->C_GetMechanismList(slot, list, &n), CKR_OK);
	std = ven = 0;
	for (i = 0; i < n; i++) {
		std += list[i] == CKM_ML_KEM || list[i] == CKM_ML_KEM_KEY_PAIR_GEN;
		ven += list[i] == CKM_VG_ML_KEM ||
		    list[i] == CKM_VG_ML_KEM_KEY_PAIR_GEN;
	}
	assert_int_equal(std, 0);
	assert_int_equal(ven, 2);
	assert_rv(f30->C_GetMechanismInfo(slot, CKM_ML_KEM, &info),
	    CKR_MECHANISM_INVALID);
	assert_rv(p11_240->C_GetMechanismInfo(slot, CKM_ML_KEM_KEY_PAIR_GEN,
	    &info), CKR_MECHANISM_INVALID);
	assert_rv(p11_240->C_GetMechanismInfo(slot,
	    CKM_VG_ML_KEM_KEY_PAIR_GEN, &info), CKR_OK);
	/* a key pair by the vendor numbers, read as either */
	assert_rv(p11_240->C_GenerateKeyPair(h, &vgen, pt, 2, NULL, 0, &pub,
	    &priv), CKR_OK);
	assert_rv(p11_240->C_GetAttributeValue(h, pub, &rd, 1), CKR_OK);
	assert_int_equal(kt, CKK_VG_ML_KEM);
	assert_rv(p11->C_GetAttributeValue(h, priv, &rd, 1), CKR_OK);
	assert_int_equal(kt, CKK_ML_KEM);
	/* the vendor mechanism encapsulates too (through 3.2's table) */
	assert_rv(p11->C_EncapsulateKey(h, &vkem, pub, NULL, 0, ct, &ctlen,
	    &k1), CKR_OK);
	assert_int_equal(ctlen, 768);
	{
		CK_ATTRIBUTE t[] = { { CKA_SENSITIVE, &no, 1 },
			{ CKA_EXTRACTABLE, &yes, 1 } };

		assert_rv(decaps(priv, t, 2, ct, ctlen, &k2), CKR_OK);
		assert_rv(p11->C_DestroyObject(h, k1), CKR_OK);
		assert_rv(p11->C_EncapsulateKey(h, &vkem, pub, t, 2, ct,
		    &ctlen, &k1), CKR_OK);
		assert_rv(p11->C_DecapsulateKey(h, &vkem, priv, t, 2, ct,
		    ctlen, &k2), CKR_OK);
		assert_int_equal(value_of(k1, v1), 32);
		assert_int_equal(value_of(k2, v2), 32);
		assert_memory_equal(v1, v2, 32);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, mlkem_setup,
		    mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_new_key, mlkem_setup,
		    mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_key_templates,
		    mlkem_setup, mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_implicit_rejection,
		    mlkem_setup, mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_errors, mlkem_setup,
		    mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_token_keys_and_usage,
		    mlkem_setup, mlkem_teardown),
		cmocka_unit_test_setup_teardown(test_interfaces, mlkem_setup,
		    mlkem_teardown),
	};

	if (p11_load() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
