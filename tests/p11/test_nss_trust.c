/*
 * NSS trust objects (CKO_NSS_TRUST, cryptoki/nss.h) through the function
 * list, with the template NSS's certutil writes: created in a read/write
 * session without a login (they are public), found by issuer and serial
 * number, trust values changed with C_SetAttributeValue and kept across
 * a restart of the module, a second creation for the same certificate
 * rewriting the first (as NSS expects), destroyed; and the CK_RV of
 * templates NSS would never send. The same for the PKCS#11 3.2 trust
 * objects (CKO_TRUST) that newer NSS writes to a 3.2 token.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cryptoki/nss.h"
#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;

static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS trust_class = CKO_NSS_TRUST;
/* A DER Name (CN=t) and serial number; hashes of some certificate. */
static unsigned char issuer[] = { 0x30, 0x0c, 0x31, 0x0a, 0x30, 0x08, 0x06,
	0x03, 0x55, 0x04, 0x03, 0x0c, 0x01, 0x74 };
static unsigned char serial[] = { 0x02, 0x01, 0x07 };
static unsigned char sha1[20] = { 0x11, 0x22, 0x33 };
static unsigned char md5[16] = { 0x44, 0x55 };
static CK_ULONG delegator = CKT_NSS_TRUSTED_DELEGATOR;
static CK_ULONG must_verify = CKT_NSS_MUST_VERIFY_TRUST;
static CK_ULONG trusted = CKT_NSS_TRUSTED;

/* The attributes NSS's nssToken_ImportTrust sends, in its order. */
enum { I_TOKEN, I_CLASS, I_ISSUER, I_SERIAL, I_SHA1, I_MD5, I_SERVER,
	I_CLIENT, I_CODE, I_EMAIL, I_STEP_UP, N_TMPL };

static void
nss_template(CK_ATTRIBUTE t[N_TMPL])
{
	CK_ATTRIBUTE base[N_TMPL] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_CLASS, &trust_class, sizeof(trust_class) },
		{ CKA_ISSUER, issuer, sizeof(issuer) },
		{ CKA_SERIAL_NUMBER, serial, sizeof(serial) },
		{ CKA_NSS_CERT_SHA1_HASH, sha1, sizeof(sha1) },
		{ CKA_NSS_CERT_MD5_HASH, md5, sizeof(md5) },
		{ CKA_NSS_TRUST_SERVER_AUTH, &delegator, sizeof(delegator) },
		{ CKA_NSS_TRUST_CLIENT_AUTH, &must_verify, sizeof(must_verify) },
		{ CKA_NSS_TRUST_CODE_SIGNING, &must_verify, sizeof(must_verify) },
		{ CKA_NSS_TRUST_EMAIL_PROTECTION, &delegator,
		    sizeof(delegator) },
		{ CKA_NSS_TRUST_STEP_UP_APPROVED, &no, sizeof(no) },
	};

	memcpy(t, base, sizeof(base));
}

static CK_SESSION_HANDLE
open_session(CK_FLAGS extra)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | extra, NULL,
	    NULL, &h), CKR_OK);
	return h;
}

/* The trust token objects for issuer/serial: their count, the first in
 * *out. */
static CK_ULONG
find_trust(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_CLASS, &trust_class, sizeof(trust_class) },
		{ CKA_ISSUER, issuer, sizeof(issuer) },
		{ CKA_SERIAL_NUMBER, serial, sizeof(serial) },
	};
	CK_OBJECT_HANDLE found[4];
	CK_ULONG n = 0;

	assert_rv(p11->C_FindObjectsInit(h, t, 4), CKR_OK);
	assert_rv(p11->C_FindObjects(h, found, 4, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	if (n > 0 && out != NULL)
		*out = found[0];
	return n;
}

static CK_ULONG
get_ulong(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type)
{
	CK_ULONG v = 0;
	CK_ATTRIBUTE t = { type, &v, sizeof(v) };

	assert_rv(p11->C_GetAttributeValue(h, o, &t, 1), CKR_OK);
	assert_int_equal(t.ulValueLen, sizeof(v));
	return v;
}

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_token(dir, NULL, "trust", &slot);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* certutil's sequence: create without a login, find, read, change,
 * persist, re-create, destroy. */
static void
test_lifecycle(void **state)
{
	CK_ATTRIBUTE t[N_TMPL];
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE o = 0, again = 0, found = 0;
	unsigned char got_sha1[20];
	CK_BBOOL priv = CK_TRUE;
	CK_ATTRIBUTE get[] = {
		{ CKA_NSS_CERT_SHA1_HASH, got_sha1, sizeof(got_sha1) },
		{ CKA_PRIVATE, &priv, sizeof(priv) },
	};
	CK_ATTRIBUTE set = { CKA_NSS_TRUST_SERVER_AUTH, &trusted,
		sizeof(trusted) };

	(void)state;
	nss_template(t);
	h = open_session(0);
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_SESSION_READ_ONLY);
	assert_rv(p11->C_CloseSession(h), CKR_OK);

	h = open_session(CKF_RW_SESSION);
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o), CKR_OK);
	assert_int_equal(find_trust(h, &found), 1);
	assert_true(found == o);
	assert_rv(p11->C_GetAttributeValue(h, o, get, 2), CKR_OK);
	assert_memory_equal(got_sha1, sha1, sizeof(sha1));
	assert_int_equal(priv, CK_FALSE);
	assert_int_equal(get_ulong(h, o, CKA_NSS_TRUST_SERVER_AUTH),
	    CKT_NSS_TRUSTED_DELEGATOR);
	/* What NSS leaves out is unknown, not missing. */
	assert_int_equal(get_ulong(h, o, CKA_NSS_TRUST_TIME_STAMPING),
	    CKT_NSS_TRUST_UNKNOWN);

	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1), CKR_OK);
	assert_int_equal(get_ulong(h, o, CKA_NSS_TRUST_SERVER_AUTH),
	    CKT_NSS_TRUSTED);
	assert_rv(p11->C_CloseSession(h), CKR_OK);

	/* A new process sees the change. */
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = open_session(CKF_RW_SESSION);
	assert_int_equal(find_trust(h, &found), 1);
	assert_int_equal(get_ulong(h, found, CKA_NSS_TRUST_SERVER_AUTH),
	    CKT_NSS_TRUSTED);

	/* NSS changes trust by creating the object again: one object for
	 * the certificate stays, with the new values. */
	t[I_SERVER].pValue = &must_verify;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &again), CKR_OK);
	assert_true(again == found);
	assert_int_equal(find_trust(h, &found), 1);
	assert_int_equal(get_ulong(h, found, CKA_NSS_TRUST_SERVER_AUTH),
	    CKT_NSS_MUST_VERIFY_TRUST);

	assert_rv(p11->C_DestroyObject(h, found), CKR_OK);
	assert_int_equal(find_trust(h, NULL), 0);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* Session trust objects are plain objects: one per creation. */
static void
test_session_objects(void **state)
{
	CK_ATTRIBUTE t[N_TMPL];
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE a = 0, b = 0;

	(void)state;
	nss_template(t);
	t[I_TOKEN].pValue = &no;
	h = open_session(0);
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &a), CKR_OK);
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &b), CKR_OK);
	assert_true(a != b);
	assert_int_equal(find_trust(h, NULL), 0); /* not token objects */
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* Templates NSS never sends. */
static void
test_bad_templates(void **state)
{
	CK_ATTRIBUTE t[N_TMPL];
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE o = 0;
	unsigned char long_hash[21] = { 0 };
	CK_ULONG not_trust = 7, lie = CKT_NSS_TRUSTED;
	CK_BBOOL two = 2;
	CK_BYTE value[1] = { 0 };
	CK_ATTRIBUTE extra[N_TMPL + 1];
	CK_ATTRIBUTE set;
	size_t i;
	static const size_t required[] = { I_CLASS, I_ISSUER, I_SERIAL,
		I_SHA1 };

	(void)state;
	h = open_session(CKF_RW_SESSION);
	/* Each required attribute left out (the class: nothing to make). */
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		nss_template(t);
		t[required[i]] = t[N_TMPL - 1];
		assert_rv(p11->C_CreateObject(h, t, N_TMPL - 1, &o),
		    CKR_TEMPLATE_INCOMPLETE);
	}
	/* Hashes of the wrong length. */
	nss_template(t);
	t[I_SHA1].ulValueLen = 19;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	nss_template(t);
	t[I_SHA1].pValue = long_hash;
	t[I_SHA1].ulValueLen = sizeof(long_hash);
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	nss_template(t);
	t[I_MD5].ulValueLen = 20;
	t[I_MD5].pValue = long_hash;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* Empty issuer or serial. */
	nss_template(t);
	t[I_ISSUER].ulValueLen = 0;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* A trust value of the wrong length, or not a CK_TRUST. */
	nss_template(t);
	t[I_CLIENT].ulValueLen = 4;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	nss_template(t);
	t[I_CLIENT].pValue = &not_trust;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	nss_template(t);
	t[I_STEP_UP].pValue = &two;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	nss_template(t);
	t[I_SHA1].pValue = NULL;
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* An attribute trust objects do not have. */
	nss_template(extra);
	extra[N_TMPL] = (CK_ATTRIBUTE){ CKA_VALUE, value, sizeof(value) };
	assert_rv(p11->C_CreateObject(h, extra, N_TMPL + 1, &o),
	    CKR_ATTRIBUTE_TYPE_INVALID);
	/* The same type twice with different values. */
	nss_template(extra);
	extra[N_TMPL] = (CK_ATTRIBUTE){ CKA_NSS_TRUST_SERVER_AUTH, &lie,
		sizeof(lie) };
	assert_rv(p11->C_CreateObject(h, extra, N_TMPL + 1, &o),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(find_trust(h, NULL), 0);

	/* C_SetAttributeValue: the certificate is fixed, the values are
	 * checked. */
	nss_template(t);
	assert_rv(p11->C_CreateObject(h, t, N_TMPL, &o), CKR_OK);
	set = (CK_ATTRIBUTE){ CKA_ISSUER, serial, sizeof(serial) };
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1),
	    CKR_ATTRIBUTE_READ_ONLY);
	set = (CK_ATTRIBUTE){ CKA_NSS_CERT_SHA1_HASH, long_hash, 20 };
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1),
	    CKR_ATTRIBUTE_READ_ONLY);
	set = (CK_ATTRIBUTE){ CKA_NSS_TRUST_SERVER_AUTH, &not_trust,
		sizeof(not_trust) };
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	set = (CK_ATTRIBUTE){ CKA_NSS_TRUST_SERVER_AUTH, &not_trust, 2 };
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_int_equal(get_ulong(h, o, CKA_NSS_TRUST_SERVER_AUTH),
	    CKT_NSS_TRUSTED_DELEGATOR);
	assert_rv(p11->C_DestroyObject(h, o), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* The 3.2 form, as NSS 3.1xx writes it to a 3.2 token. */
enum { J_TOKEN, J_CLASS, J_ISSUER, J_SERIAL, J_HASH, J_ALG, J_SERVER,
	J_CLIENT, J_CODE, J_EMAIL, N_STD };

static unsigned char sha256[32] = { 0x66, 0x77 };
static CK_MECHANISM_TYPE alg_sha256 = CKM_SHA256;
static CK_OBJECT_CLASS std_class = CKO_TRUST;
static CK_ULONG anchor = CKT_TRUST_ANCHOR, verify = CKT_TRUST_MUST_VERIFY_TRUST;

static void
std_template(CK_ATTRIBUTE t[N_STD])
{
	CK_ATTRIBUTE base[N_STD] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_CLASS, &std_class, sizeof(std_class) },
		{ CKA_ISSUER, issuer, sizeof(issuer) },
		{ CKA_SERIAL_NUMBER, serial, sizeof(serial) },
		{ CKA_HASH_OF_CERTIFICATE, sha256, sizeof(sha256) },
		{ CKA_NAME_HASH_ALGORITHM, &alg_sha256, sizeof(alg_sha256) },
		{ CKA_TRUST_SERVER_AUTH, &anchor, sizeof(anchor) },
		{ CKA_TRUST_CLIENT_AUTH, &anchor, sizeof(anchor) },
		{ CKA_TRUST_CODE_SIGNING, &verify, sizeof(verify) },
		{ CKA_TRUST_EMAIL_PROTECTION, &anchor, sizeof(anchor) },
	};

	memcpy(t, base, sizeof(base));
}

static CK_ULONG
find_std(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &std_class, sizeof(std_class) },
		{ CKA_ISSUER, issuer, sizeof(issuer) },
		{ CKA_SERIAL_NUMBER, serial, sizeof(serial) },
	};
	CK_OBJECT_HANDLE found[4];
	CK_ULONG n = 0;

	assert_rv(p11->C_FindObjectsInit(h, t, 3), CKR_OK);
	assert_rv(p11->C_FindObjects(h, found, 4, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	if (n > 0 && out != NULL)
		*out = found[0];
	return n;
}

static void
test_pkcs_trust(void **state)
{
	CK_ATTRIBUTE t[N_STD];
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE o = 0, again = 0, found = 0;
	CK_ULONG bad = CKT_TRUST_MUST_VERIFY_TRUST + 1, not_hash = CKM_AES_CBC;
	CK_MECHANISM_TYPE sha1_alg = CKM_SHA_1;
	CK_ATTRIBUTE set = { CKA_TRUST_SERVER_AUTH, &verify, sizeof(verify) };

	(void)state;
	h = open_session(CKF_RW_SESSION);
	std_template(t);
	assert_rv(p11->C_CreateObject(h, t, N_STD, &o), CKR_OK);
	assert_int_equal(find_std(h, &found), 1);
	assert_true(found == o);
	/* The NSS trust objects are another class. */
	assert_int_equal(find_trust(h, NULL), 0);
	assert_int_equal(get_ulong(h, o, CKA_TRUST_OCSP_SIGNING),
	    CKT_TRUST_UNKNOWN);
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1), CKR_OK);
	assert_int_equal(get_ulong(h, o, CKA_TRUST_SERVER_AUTH),
	    CKT_TRUST_MUST_VERIFY_TRUST);
	t[J_SERVER].pValue = &anchor;
	t[J_CODE].pValue = &anchor;
	assert_rv(p11->C_CreateObject(h, t, N_STD, &again), CKR_OK);
	assert_true(again == o);
	assert_int_equal(find_std(h, NULL), 1);
	assert_int_equal(get_ulong(h, o, CKA_TRUST_CODE_SIGNING),
	    CKT_TRUST_ANCHOR);

	/* A hash that is not of its algorithm's length, an algorithm that
	 * is no hash, a trust value out of range, a hash left out. */
	std_template(t);
	t[J_ALG].pValue = &sha1_alg;
	assert_rv(p11->C_CreateObject(h, t, N_STD, &again),
	    CKR_TEMPLATE_INCONSISTENT);
	std_template(t);
	t[J_ALG].pValue = &not_hash;
	assert_rv(p11->C_CreateObject(h, t, N_STD, &again),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	std_template(t);
	t[J_EMAIL].pValue = &bad;
	assert_rv(p11->C_CreateObject(h, t, N_STD, &again),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	std_template(t);
	t[J_HASH] = t[N_STD - 1];
	assert_rv(p11->C_CreateObject(h, t, N_STD - 1, &again),
	    CKR_TEMPLATE_INCOMPLETE);
	set = (CK_ATTRIBUTE){ CKA_TRUST_CLIENT_AUTH, &bad, sizeof(bad) };
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* NSS's attributes are not the 3.2 class's. */
	set = (CK_ATTRIBUTE){ CKA_NSS_TRUST_SERVER_AUTH, &trusted,
		sizeof(trusted) };
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1),
	    CKR_ATTRIBUTE_TYPE_INVALID);

	assert_rv(p11->C_DestroyObject(h, o), CKR_OK);
	assert_int_equal(find_std(h, NULL), 0);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lifecycle, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_session_objects, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bad_templates, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_pkcs_trust, setup,
		    teardown),
	};

	if (p11_load() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
