/*
 * Access control through the function list (issue 18): who may copy a
 * trusted object.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;

static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

/* A token with both PINs set and a R/W session logged in as the user. */
static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "access", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* Every object the session h2 can see. */
static CK_ULONG
count_objects(CK_SESSION_HANDLE h2)
{
	CK_OBJECT_HANDLE out[64];
	CK_ULONG count = 0, total = 0;

	assert_rv(p11->C_FindObjectsInit(h2, NULL, 0), CKR_OK);
	do {
		assert_rv(p11->C_FindObjects(h2, out, 64, &count), CKR_OK);
		total += count;
	} while (count != 0);
	assert_rv(p11->C_FindObjectsFinal(h2), CKR_OK);
	return total;
}

static CK_BBOOL
get_bool(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type)
{
	CK_BBOOL b = 0x55;
	CK_ATTRIBUTE a = { type, &b, 1 };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	return b;
}

/* ------------------------------------------------- trusted objects */

/* A self-signed P-256 certificate, DER (free with OPENSSL_free). */
static uint8_t *
cert_der(const char *cn, size_t *len)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *name;
	uint8_t *der = NULL;
	int n;

	assert_non_null(key);
	assert_non_null(x);
	assert_int_equal(X509_set_version(x, 2), 1);
	assert_int_equal(ASN1_INTEGER_set(X509_get_serialNumber(x), 7), 1);
	assert_non_null(X509_gmtime_adj(X509_getm_notBefore(x), 0));
	assert_non_null(X509_gmtime_adj(X509_getm_notAfter(x), 86400));
	name = X509_get_subject_name(x);
	assert_int_equal(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
	    (const uint8_t *)cn, -1, -1, 0), 1);
	assert_int_equal(X509_set_issuer_name(x, name), 1);
	assert_int_equal(X509_set_pubkey(x, key), 1);
	assert_true(X509_sign(x, key, EVP_sha256()) > 0);
	n = i2d_X509(x, &der);
	assert_true(n > 0);
	*len = (size_t)n;
	X509_free(x);
	EVP_PKEY_free(key);
	return der;
}

static CK_RV
so_login(CK_SESSION_HANDLE h2)
{
	return p11->C_Login(h2, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN));
}

static CK_RV
user_login(CK_SESSION_HANDLE h2)
{
	return p11->C_Login(h2, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN));
}

/*
 * Only the SO makes a trusted certificate [§4.7, footnote 10]. A copy is
 * a new object, so a copy by anyone else would be a trusted certificate
 * the SO never made: C_CopyObject refuses it (CKR_ACTION_PROHIBITED) with
 * or without a new label. The SO's own copy stays trusted.
 */
static void
test_copy_trusted_cert(void **state)
{
	CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	CK_CERTIFICATE_TYPE ct = CKC_X_509;
	size_t len, len2;
	uint8_t *der = cert_der("trusted CA", &len);
	uint8_t *der2 = cert_der("plain", &len2);
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_CERTIFICATE_TYPE, &ct, sizeof(ct) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_LABEL, "CA", 2 },
		{ CKA_VALUE, der, len },
		{ CKA_TRUSTED, &yes, 1 },
	};
	CK_ATTRIBUTE relabel[] = { { CKA_LABEL, "mine", 4 } };
	CK_OBJECT_HANDLE ca, plain, copy = CK_INVALID_HANDLE;
	CK_SESSION_HANDLE pub_s;
	CK_ULONG before;

	(void)state;
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(so_login(h), CKR_OK);
	assert_rv(p11->C_CreateObject(h, t, 7, &ca), CKR_OK);
	assert_int_equal(get_bool(ca, CKA_TRUSTED), CK_TRUE);
	/* the SO's copies, with and without a new label, stay trusted */
	assert_rv(p11->C_CopyObject(h, ca, NULL, 0, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_TRUE);
	assert_rv(p11->C_CopyObject(h, ca, relabel, 1, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_TRUE);
	assert_rv(p11->C_Logout(h), CKR_OK);

	/* the user's copies are refused and make nothing */
	assert_rv(user_login(h), CKR_OK);
	before = count_objects(h);
	copy = CK_INVALID_HANDLE;
	assert_rv(p11->C_CopyObject(h, ca, NULL, 0, &copy),
	    CKR_ACTION_PROHIBITED);
	assert_rv(p11->C_CopyObject(h, ca, relabel, 1, &copy),
	    CKR_ACTION_PROHIBITED);
	assert_int_equal(count_objects(h), before);
	/* an untrusted certificate the user copies as before */
	t[5].pValue = der2;
	t[5].ulValueLen = len2;
	t[6].pValue = &no;
	assert_rv(p11->C_CreateObject(h, t, 7, &plain), CKR_OK);
	assert_rv(p11->C_CopyObject(h, plain, relabel, 1, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_FALSE);

	/* nor may a session nobody logged in to copy it */
	pub_s = p11_open(CKF_RW_SESSION);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_CopyObject(pub_s, ca, relabel, 1, &copy),
	    CKR_ACTION_PROHIBITED);
	assert_rv(p11->C_CloseSession(pub_s), CKR_OK);
	OPENSSL_free(der);
	OPENSSL_free(der2);
}

/* The same holds for a trusted public key (footnote 10 covers every
 * CKA_TRUSTED): the user's copy is refused, the SO's is trusted. */
static void
test_copy_trusted_key(void **state)
{
	CK_OBJECT_CLASS cls = CKO_PUBLIC_KEY;
	CK_KEY_TYPE ec = CKK_EC;
	EVP_PKEY *k = EVP_EC_gen("P-256");
	uint8_t point[67];
	size_t plen = 0;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &ec, sizeof(ec) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_EC_POINT, point, sizeof(point) },
		{ CKA_TRUSTED, &yes, 1 },
	};
	CK_OBJECT_HANDLE o, copy;

	(void)state;
	assert_int_equal(EVP_PKEY_get_octet_string_param(k,
	    OSSL_PKEY_PARAM_PUB_KEY, point + 2, 65, &plen), 1);
	point[0] = 0x04;
	point[1] = 65;
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(so_login(h), CKR_OK);
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
	assert_rv(p11->C_CopyObject(h, o, NULL, 0, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_TRUE);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(user_login(h), CKR_OK);
	assert_rv(p11->C_CopyObject(h, o, NULL, 0, &copy),
	    CKR_ACTION_PROHIBITED);
	EVP_PKEY_free(k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy_trusted_cert, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_copy_trusted_key, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
