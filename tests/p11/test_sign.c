/*
 * The key operations' common path, through HMAC sign and verify: key
 * checks, single and multi-part calls, output length rules, operation
 * states, cancelling, the key cache following attribute changes (ours
 * and another process's), and the encrypt/decrypt entry points' states.
 * HMAC results are checked against OpenSSL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/p11/common.h"


static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static const uint8_t key[40] = "a key for the HMAC tests, forty bytes!!";
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "sign", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* A generic secret key for HMAC; token object, sign as given. */
static CK_OBJECT_HANDLE
hmac_key(CK_BBOOL sign, const CK_MECHANISM_TYPE *allowed, size_t nallowed)
{
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SIGN, &sign, 1 },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_VALUE, (void *)key, sizeof(key) },
		{ CKA_ALLOWED_MECHANISMS, (void *)allowed,
		    nallowed * sizeof(CK_MECHANISM_TYPE) },
	};
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_CreateObject(h, t, allowed != NULL ? 7 : 6, &o),
	    CKR_OK);
	return o;
}

static void
expected(const EVP_MD *md, const void *msg, size_t len, uint8_t *out,
    unsigned *outlen)
{
	assert_non_null(HMAC(md, key, sizeof(key), msg, len, out, outlen));
}

static void
test_hmac_all(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE m;
		const char *md;
	} cases[] = {
		{ CKM_SHA_1_HMAC, "SHA1" }, { CKM_SHA224_HMAC, "SHA224" },
		{ CKM_SHA256_HMAC, "SHA256" }, { CKM_SHA384_HMAC, "SHA384" },
		{ CKM_SHA512_HMAC, "SHA512" }, { CKM_SHA3_224_HMAC, "SHA3-224" },
		{ CKM_SHA3_256_HMAC, "SHA3-256" },
		{ CKM_SHA3_384_HMAC, "SHA3-384" },
		{ CKM_SHA3_512_HMAC, "SHA3-512" },
	};
	CK_OBJECT_HANDLE k = hmac_key(CK_TRUE, NULL, 0);
	uint8_t msg[1000], want[64], sig[64];
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 31);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CK_MECHANISM m = { cases[i].m, NULL, 0 };
		CK_MECHANISM_INFO info;
		unsigned wlen;
		CK_ULONG slen = sizeof(sig);

		assert_rv(p11->C_GetMechanismInfo(slot, cases[i].m, &info),
		    CKR_OK);
		assert_true(info.flags & CKF_SIGN);
		expected(EVP_get_digestbyname(cases[i].md), msg, sizeof(msg),
		    want, &wlen);
		/* Single part. */
		assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
		assert_rv(p11->C_Sign(h, msg, sizeof(msg), sig, &slen), CKR_OK);
		assert_int_equal(slen, wlen);
		assert_memory_equal(sig, want, wlen);
		/* Multi-part, uneven pieces. */
		assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
		for (j = 0; j < sizeof(msg); j += 137)
			assert_rv(p11->C_SignUpdate(h, msg + j,
			    j + 137 > sizeof(msg) ? sizeof(msg) - j : 137),
			    CKR_OK);
		slen = sizeof(sig);
		assert_rv(p11->C_SignFinal(h, sig, &slen), CKR_OK);
		assert_memory_equal(sig, want, wlen);
		/* Verify, and a wrong MAC, and a wrong length. */
		assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
		assert_rv(p11->C_Verify(h, msg, sizeof(msg), want, wlen),
		    CKR_OK);
		want[wlen - 1] ^= 1;
		assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
		assert_rv(p11->C_Verify(h, msg, sizeof(msg), want, wlen),
		    CKR_SIGNATURE_INVALID);
		assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
		assert_rv(p11->C_VerifyUpdate(h, msg, 10), CKR_OK);
		assert_rv(p11->C_VerifyFinal(h, want, wlen - 1),
		    CKR_SIGNATURE_LEN_RANGE);
	}
}

static void
test_lengths_and_states(void **state)
{
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };
	CK_OBJECT_HANDLE k = hmac_key(CK_TRUE, NULL, 0);
	uint8_t sig[64], want[64];
	unsigned wlen;
	CK_ULONG slen;

	(void)state;
	expected(EVP_sha256(), "abc", 3, want, &wlen);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, sig, &slen),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_SignInit(h, NULL, k), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_SignInit(h, &sha, k), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_SignInit(h, &m, 0x7ffffff), CKR_KEY_HANDLE_INVALID);
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OPERATION_ACTIVE);
	/* Length query, short buffer, then success: the input is not lost. */
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, NULL, &slen), CKR_OK);
	assert_int_equal(slen, 32);
	slen = 31;
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, sig, &slen),
	    CKR_BUFFER_TOO_SMALL);
	assert_int_equal(slen, 32);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, sig, &slen), CKR_OK);
	assert_memory_equal(sig, want, 32);
	assert_rv(p11->C_SignFinal(h, sig, &slen),
	    CKR_OPERATION_NOT_INITIALIZED);
	/* Single-part after Update is refused, and ends the operation
	 * as every C_Sign does but a length query or a short buffer. */
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"c", 1, sig, &slen),
	    CKR_OPERATION_ACTIVE);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"c", 1),
	    CKR_OPERATION_NOT_INITIALIZED);
	/* The converse: after a length query of C_Sign, C_SignUpdate and
	 * C_SignFinal cannot take the operation over, and end it. */
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, NULL, &slen), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"c", 1),
	    CKR_OPERATION_ACTIVE);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, sig, &slen),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, NULL, &slen), CKR_OK);
	slen = sizeof(sig);
	assert_rv(p11->C_SignFinal(h, sig, &slen), CKR_OPERATION_ACTIVE);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, sig, &slen),
	    CKR_OPERATION_NOT_INITIALIZED);
	/* Multi-part: a short buffer keeps it, Final gives the MAC. */
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"c", 1), CKR_OK);
	slen = 1;
	assert_rv(p11->C_SignFinal(h, sig, &slen), CKR_BUFFER_TOO_SMALL);
	slen = sizeof(sig);
	assert_rv(p11->C_SignFinal(h, sig, &slen), CKR_OK);
	assert_memory_equal(sig, want, 32);
	/* Bad arguments end the operation. */
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, NULL, 3, sig, &slen), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"x", 1),
	    CKR_OPERATION_NOT_INITIALIZED);
	/* A parameter where none is taken. */
	m.pParameter = sig;
	m.ulParameterLen = 4;
	assert_rv(p11->C_SignInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	m.pParameter = NULL;
	assert_rv(p11->C_SignInit(h, &m, k), CKR_ARGUMENTS_BAD);
	m.ulParameterLen = 0;
	/* Cancelling. */
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_SIGN), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"x", 1),
	    CKR_OPERATION_NOT_INITIALIZED);
	/* No operation needs a context-specific login. */
	assert_rv(p11->C_Login(h, CKU_CONTEXT_SPECIFIC,
	    (CK_UTF8CHAR_PTR)P11_USER_PIN, strlen(P11_USER_PIN)),
	    CKR_OPERATION_NOT_INITIALIZED);
}

static void
test_key_rules(void **state)
{
	static const CK_MECHANISM_TYPE only256[] = { CKM_SHA256_HMAC };
	CK_MECHANISM m256 = { CKM_SHA256_HMAC, NULL, 0 };
	CK_MECHANISM m1 = { CKM_SHA_1_HMAC, NULL, 0 };
	CK_OBJECT_HANDLE nosign = hmac_key(CK_FALSE, NULL, 0);
	CK_OBJECT_HANDLE limited = hmac_key(CK_TRUE, only256, 1);
	CK_OBJECT_HANDLE k = hmac_key(CK_TRUE, NULL, 0), data;
	CK_OBJECT_CLASS dc = CKO_DATA;
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &dc, sizeof(dc) } };
	CK_ATTRIBUTE off = { CKA_SIGN, &no, 1 };
	uint8_t sig[64];
	CK_ULONG slen = sizeof(sig);

	(void)state;
	assert_rv(p11->C_SignInit(h, &m256, nosign),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_rv(p11->C_VerifyInit(h, &m256, nosign), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_VERIFY), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m1, limited), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_SignInit(h, &m256, limited), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"x", 1, sig, &slen), CKR_OK);
	assert_rv(p11->C_CreateObject(h, dt, 1, &data), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m256, data), CKR_KEY_HANDLE_INVALID);
	/* A changed key is loaded again, not served stale from the cache. */
	assert_rv(p11->C_SignInit(h, &m256, k), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_SIGN), CKR_OK);
	assert_rv(p11->C_SetAttributeValue(h, k, &off, 1), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m256, k), CKR_KEY_FUNCTION_NOT_PERMITTED);
	/* Private keys go away with the login; secret token keys too. */
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m256, limited), CKR_KEY_HANDLE_INVALID);
}

/* In a child process with its own C_Initialize and login: what = 0
 * turns CKA_SIGN off on token key k, 1 destroys it, 2 creates an
 * unrelated data object. Returns the child's exit status (0: done). */
static int
in_child(CK_OBJECT_HANDLE k, int what)
{
	CK_OBJECT_CLASS dc = CKO_DATA;
	CK_ATTRIBUTE data[] = {
		{ CKA_CLASS, &dc, sizeof(dc) },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_ATTRIBUTE off = { CKA_SIGN, &no, 1 };
	CK_SESSION_HANDLE hc;
	CK_OBJECT_HANDLE o;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		CK_RV rv;

		if (p11->C_Initialize(NULL) != CKR_OK ||
		    p11->C_OpenSession(slot, CKF_SERIAL_SESSION |
		    CKF_RW_SESSION, NULL, NULL, &hc) != CKR_OK ||
		    p11->C_Login(hc, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
		    strlen(P11_USER_PIN)) != CKR_OK)
			_exit(1);
		rv = what == 0 ? p11->C_SetAttributeValue(hc, k, &off, 1) :
		    what == 1 ? p11->C_DestroyObject(hc, k) :
		    p11->C_CreateObject(hc, data, 2, &o);
		p11->C_Finalize(NULL);
		_exit(rv == CKR_OK ? 0 : 2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

/* Another process's changes to a token key this one has cached show at
 * the next C_SignInit: an unrelated commit leaves the key usable, CKA_SIGN
 * turned off is refused, the destroyed key is gone. Checked twice in a row
 * each time, so that a change noticed once stays noticed. */
static void
test_other_process(void **state)
{
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	CK_OBJECT_HANDLE k = hmac_key(CK_TRUE, NULL, 0);
	uint8_t sig[64];
	CK_ULONG slen = sizeof(sig);
	int i;

	(void)state;
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"x", 1, sig, &slen), CKR_OK);
	assert_int_equal(in_child(k, 2), 0);
	for (i = 0; i < 2; i++) {
		slen = sizeof(sig);
		assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
		assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"x", 1, sig, &slen),
		    CKR_OK);
	}
	assert_int_equal(in_child(k, 0), 0);
	for (i = 0; i < 2; i++)
		assert_rv(p11->C_SignInit(h, &m, k),
		    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_int_equal(in_child(k, 1), 0);
	for (i = 0; i < 2; i++)
		assert_rv(p11->C_SignInit(h, &m, k), CKR_KEY_HANDLE_INVALID);
}

static void
test_crypt_states(void **state)
{
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	CK_OBJECT_HANDLE k = hmac_key(CK_TRUE, NULL, 0);
	uint8_t buf[64];
	CK_ULONG len = sizeof(buf);

	(void)state;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_Encrypt(h, buf, 4, buf, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DecryptUpdate(h, buf, 4, buf, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_EncryptFinal(h, buf, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DecryptUpdate(h, buf, 4, buf, NULL),
	    CKR_ARGUMENTS_BAD);
}

static void
test_generate_key(void **state)
{
	CK_MECHANISM gen = { CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 };
	CK_MECHANISM aes = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	CK_ULONG len = 32, bad = 17, vlen = 0;
	CK_BBOOL extractable = CK_TRUE;
	CK_ATTRIBUTE t[] = {
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_ATTRIBUTE tbad = { CKA_VALUE_LEN, &bad, sizeof(bad) };
	CK_MECHANISM_TYPE kgm = 0;
	CK_BBOOL local = CK_FALSE;
	CK_ATTRIBUTE get[] = {
		{ CKA_VALUE_LEN, &vlen, sizeof(vlen) },
		{ CKA_LOCAL, &local, 1 },
		{ CKA_KEY_GEN_MECHANISM, &kgm, sizeof(kgm) },
		{ CKA_EXTRACTABLE, &extractable, 1 },
	};
	uint8_t value[64], sig[32];
	CK_ATTRIBUTE getv = { CKA_VALUE, value, sizeof(value) };
	CK_OBJECT_HANDLE k, k2;
	CK_ULONG slen = sizeof(sig);

	(void)state;
	assert_rv(p11->C_GenerateKey(h, &gen, t, 4, &k), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, k, get, 4), CKR_OK);
	assert_int_equal(vlen, 32);
	assert_true(local);
	assert_int_equal(kgm, CKM_GENERIC_SECRET_KEY_GEN);
	/* Not extractable by default: the value never leaves the token. */
	assert_false(extractable);
	assert_rv(p11->C_GetAttributeValue(h, k, &getv, 1),
	    CKR_ATTRIBUTE_SENSITIVE);
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"x", 1, sig, &slen), CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_Verify(h, (CK_BYTE_PTR)"x", 1, sig, slen), CKR_OK);
	/* Two keys differ. */
	assert_rv(p11->C_GenerateKey(h, &gen, t, 4, &k2), CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &m, k2), CKR_OK);
	assert_rv(p11->C_Verify(h, (CK_BYTE_PTR)"x", 1, sig, slen),
	    CKR_SIGNATURE_INVALID);
	/* AES sizes; errors. */
	assert_rv(p11->C_GenerateKey(h, &aes, t, 1, &k), CKR_OK);
	assert_rv(p11->C_GenerateKey(h, &aes, &tbad, 1, &k),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	bad = 513;
	assert_rv(p11->C_GenerateKey(h, &gen, &tbad, 1, &k), CKR_KEY_SIZE_RANGE);
	assert_rv(p11->C_GenerateKey(h, &gen, NULL, 0, &k),
	    CKR_TEMPLATE_INCOMPLETE);
	assert_rv(p11->C_GenerateKey(h, &m, t, 1, &k), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_GenerateKey(h, NULL, t, 1, &k), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GenerateKey(h, &gen, t, 1, NULL), CKR_ARGUMENTS_BAD);
	gen.pParameter = value;
	gen.ulParameterLen = 1;
	assert_rv(p11->C_GenerateKey(h, &gen, t, 1, &k),
	    CKR_MECHANISM_PARAM_INVALID);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hmac_all, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lengths_and_states, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_key_rules, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_other_process, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_crypt_states, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_generate_key, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
