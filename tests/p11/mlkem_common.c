/*
 * Helpers shared by tests/p11/test_mlkem.c and test_mlkem_import.c (see
 * tests/p11/mlkem_common.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "tests/p11/common.h"
#include "tests/p11/mlkem_common.h"

char dir[64];
CK_SLOT_ID slot;
CK_SESSION_HANDLE h;
CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
CK_OBJECT_CLASS c_pub = CKO_PUBLIC_KEY, c_priv = CKO_PRIVATE_KEY,
    c_sec = CKO_SECRET_KEY;
CK_KEY_TYPE k_kem = CKK_ML_KEM, k_gen = CKK_GENERIC_SECRET,
    k_aes = CKK_AES;

const struct mlkem_set sets[3] = {
	{ CKP_ML_KEM_512, 800, 1632, 768, "mlkem_512_test.json" },
	{ CKP_ML_KEM_768, 1184, 2400, 1088, "mlkem_768_test.json" },
	{ CKP_ML_KEM_1024, 1568, 3168, 1568, "mlkem_1024_test.json" },
};

/* see tests/p11/mlkem_common.h */
int
mlkem_setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "mlkem", &slot, &h);
}

/* see tests/p11/mlkem_common.h */
int
mlkem_teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* A session key pair; the private key extractable (so its dk and seed
 * can be read) when ext. */
/* see tests/p11/mlkem_common.h */
void
keypair(CK_ULONG set, int ext, CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_ML_KEM_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_PARAMETER_SET, &set, sizeof(set) } };
	CK_ATTRIBUTE kt[] = {
		{ CKA_SENSITIVE, ext ? &no : &yes, 1 },
		{ CKA_EXTRACTABLE, ext ? &yes : &no, 1 },
	};

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 1, kt, 2, pub, priv),
	    CKR_OK);
}

/* Every object the session sees. */
/* see tests/p11/mlkem_common.h */
CK_ULONG
nobjects(void)
{
	CK_OBJECT_HANDLE found[256];
	CK_ULONG got = 0;

	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
	assert_rv(p11->C_FindObjects(h, found, 256, &got), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	assert_true(got < 256);
	return got;
}

/* see tests/p11/mlkem_common.h */
CK_RV
encaps(CK_OBJECT_HANDLE pub, CK_ATTRIBUTE *t, CK_ULONG n, uint8_t *ct,
    CK_ULONG *ctlen, CK_OBJECT_HANDLE *key)
{
	CK_MECHANISM m = { CKM_ML_KEM, NULL, 0 };

	return p11->C_EncapsulateKey(h, &m, pub, t, n, ct, ctlen, key);
}

/* see tests/p11/mlkem_common.h */
CK_RV
decaps(CK_OBJECT_HANDLE priv, CK_ATTRIBUTE *t, CK_ULONG n,
    const uint8_t *ct, CK_ULONG ctlen, CK_OBJECT_HANDLE *key)
{
	CK_MECHANISM m = { CKM_ML_KEM, NULL, 0 };

	return p11->C_DecapsulateKey(h, &m, priv, t, n, (CK_BYTE_PTR)ct,
	    ctlen, key);
}

/* A key's CKA_VALUE into v (room for 64 bytes); its length. */
/* see tests/p11/mlkem_common.h */
CK_ULONG
value_of(CK_OBJECT_HANDLE k, uint8_t *v)
{
	CK_ATTRIBUTE a = { CKA_VALUE, v, 64 };

	assert_rv(p11->C_GetAttributeValue(h, k, &a, 1), CKR_OK);
	return a.ulValueLen;
}

/* see tests/p11/mlkem_common.h */
CK_BBOOL
bool_of(CK_OBJECT_HANDLE k, CK_ATTRIBUTE_TYPE t)
{
	CK_BBOOL b = 2;
	CK_ATTRIBUTE a = { t, &b, 1 };

	assert_rv(p11->C_GetAttributeValue(h, k, &a, 1), CKR_OK);
	return b;
}
