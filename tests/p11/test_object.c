/*
 * Objects through the function list: create, copy, destroy, size, get and
 * set attributes, find; session and token objects; access rules of
 * sessions and login; persistence; encryption at rest;
 * trusted certificates, which only the SO makes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/p11/cert_common.h"
#include "tests/p11/common.h"


static char dir[64];
static CK_SLOT_ID slot;

static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS data_class = CKO_DATA, secret_class = CKO_SECRET_KEY;
static CK_KEY_TYPE generic = CKK_GENERIC_SECRET;

static CK_SESSION_HANDLE
open_rw(void)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), CKR_OK);
	return h;
}

static CK_SESSION_HANDLE
open_ro(void)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h),
	    CKR_OK);
	return h;
}

static CK_RV
login_user(CK_SESSION_HANDLE h)
{
	return p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN));
}

/* A fresh data directory with one token whose user PIN is set. */
static int
setup(void **state)
{
	(void)state;
	return p11_fresh_token(dir, NULL, "objects", &slot);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* A data object; token/private as given. */
static CK_RV
make_data(CK_SESSION_HANDLE h, const char *label, CK_BBOOL token,
    CK_BBOOL private_obj, const char *value, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_TOKEN, &token, 1 },
		{ CKA_PRIVATE, &private_obj, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)value, strlen(value) },
	};

	return p11->C_CreateObject(h, t, 5, out);
}

/* A sensitive generic secret key on the token. */
static CK_RV
make_secret(CK_SESSION_HANDLE h, const char *label, const uint8_t *key,
    size_t len, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &generic, sizeof(generic) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)key, len },
	};

	return p11->C_CreateObject(h, t, 6, out);
}

/* Handles found for a template (at most max). */
static CK_ULONG
find(CK_SESSION_HANDLE h, CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out,
    CK_ULONG max)
{
	CK_ULONG count = 0;

	assert_rv(p11->C_FindObjectsInit(h, t, n), CKR_OK);
	assert_rv(p11->C_FindObjects(h, out, max, &count), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return count;
}

static CK_ULONG
find_label(CK_SESSION_HANDLE h, const char *label)
{
	CK_ATTRIBUTE t = { CKA_LABEL, (void *)label, strlen(label) };
	CK_OBJECT_HANDLE out[8];

	return find(h, &t, 1, out, 8);
}

/* Every object the session sees (the user's login decides which). */
static CK_ULONG
count_all(CK_SESSION_HANDLE h)
{
	CK_OBJECT_HANDLE out[64];

	return find(h, NULL, 0, out, 64);
}

static void
test_create_get(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE o;
	char value[32], label[32];
	CK_ATTRIBUTE get[] = {
		{ CKA_VALUE, value, sizeof(value) },
		{ CKA_LABEL, label, sizeof(label) },
	};
	CK_ULONG size;

	(void)state;
	assert_rv(make_data(h, "d1", CK_TRUE, CK_FALSE, "value-1", &o), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, o, get, 2), CKR_OK);
	assert_int_equal(get[0].ulValueLen, 7);
	assert_memory_equal(value, "value-1", 7);
	assert_int_equal(get[1].ulValueLen, 2);
	assert_rv(p11->C_GetObjectSize(h, o, &size), CKR_OK);
	assert_true(size > 9);
	assert_rv(p11->C_GetObjectSize(h, o, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_CreateObject(h, NULL, 1, &o), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_CreateObject(h, get, 2, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GetAttributeValue(h, 0x7fffff, get, 2),
	    CKR_OBJECT_HANDLE_INVALID);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_access_rules(void **state)
{
	CK_SESSION_HANDLE ro = open_ro(), rw = open_rw();
	CK_OBJECT_HANDLE o, s;
	CK_ATTRIBUTE nodestroy[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_DESTROYABLE, &no, 1 },
	};

	(void)state;
	/* Token objects need a read/write session; session objects do not. */
	assert_rv(make_data(ro, "t", CK_TRUE, CK_FALSE, "v", &o),
	    CKR_SESSION_READ_ONLY);
	assert_rv(make_data(ro, "s", CK_FALSE, CK_FALSE, "v", &s), CKR_OK);
	/* Private objects need the user. */
	assert_rv(make_data(rw, "p", CK_TRUE, CK_TRUE, "v", &o),
	    CKR_USER_NOT_LOGGED_IN);
	assert_rv(make_data(rw, "t", CK_TRUE, CK_FALSE, "v", &o), CKR_OK);
	assert_rv(p11->C_DestroyObject(ro, o), CKR_SESSION_READ_ONLY);
	assert_rv(p11->C_DestroyObject(rw, o), CKR_OK);
	assert_rv(p11->C_DestroyObject(rw, o), CKR_OBJECT_HANDLE_INVALID);
	assert_rv(p11->C_CreateObject(rw, nodestroy, 4, &o), CKR_OK);
	assert_rv(p11->C_DestroyObject(rw, o), CKR_ACTION_PROHIBITED);
	/* The session object is seen by the other session of the app. */
	assert_int_equal(find_label(rw, "s"), 1);
	assert_rv(p11->C_CloseSession(ro), CKR_OK);
	assert_int_equal(find_label(rw, "s"), 0);
	assert_rv(p11->C_CloseSession(rw), CKR_OK);
}

static void
test_private_and_sensitive(void **state)
{
	static const uint8_t key[32] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE o, p;
	uint8_t buf[64];
	char label[16];
	CK_ATTRIBUTE get[] = {
		{ CKA_VALUE, buf, sizeof(buf) },
		{ CKA_LABEL, label, sizeof(label) },
		{ CKA_MODULUS, buf, sizeof(buf) },
	};

	(void)state;
	assert_rv(login_user(h), CKR_OK);
	assert_rv(make_data(h, "priv", CK_TRUE, CK_TRUE, "hidden", &p), CKR_OK);
	assert_rv(make_secret(h, "sec", key, sizeof(key), &o), CKR_OK);
	assert_int_equal(find_label(h, "priv"), 1);
	/* Sensitive values are never returned; the rest of the call is
	 * still filled. */
	assert_rv(p11->C_GetAttributeValue(h, o, get, 3),
	    CKR_ATTRIBUTE_SENSITIVE);
	assert_int_equal(get[0].ulValueLen, CK_UNAVAILABLE_INFORMATION);
	assert_int_equal(get[1].ulValueLen, 3);
	assert_memory_equal(label, "sec", 3);
	assert_int_equal(get[2].ulValueLen, CK_UNAVAILABLE_INFORMATION);
	/* Before login, private objects do not exist. */
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_int_equal(find_label(h, "priv"), 0);
	get[0].ulValueLen = sizeof(buf);
	assert_rv(p11->C_GetAttributeValue(h, p, get, 1),
	    CKR_OBJECT_HANDLE_INVALID);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_set_and_copy(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE o, c, c2;
	CK_ATTRIBUTE relabel = { CKA_LABEL, "renamed", 7 };
	CK_ATTRIBUTE to_session = { CKA_TOKEN, &no, 1 };
	CK_ATTRIBUTE bad_class = { CKA_CLASS, &secret_class,
		sizeof(secret_class) };
	char value[16];
	CK_ATTRIBUTE get = { CKA_VALUE, value, sizeof(value) };

	(void)state;
	assert_rv(make_data(h, "orig", CK_TRUE, CK_FALSE, "payload", &o),
	    CKR_OK);
	assert_rv(p11->C_SetAttributeValue(h, o, &relabel, 1), CKR_OK);
	assert_int_equal(find_label(h, "orig"), 0);
	assert_int_equal(find_label(h, "renamed"), 1);
	assert_rv(p11->C_SetAttributeValue(h, o, &bad_class, 1),
	    CKR_ATTRIBUTE_READ_ONLY);
	/* Copies: with a template, and with an empty one (NSS servers). */
	assert_rv(p11->C_CopyObject(h, o, &to_session, 1, &c), CKR_OK);
	assert_rv(p11->C_CopyObject(h, c, NULL, 0, &c2), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, c2, &get, 1), CKR_OK);
	assert_memory_equal(value, "payload", 7);
	assert_int_equal(find_label(h, "renamed"), 3);
	assert_rv(p11->C_CopyObject(h, o, NULL, 0, NULL), CKR_ARGUMENTS_BAD);

	/* A data object's value, application and object ID may change
	 * [PKCS#11 3.2 §4.6], in place and in a copy. */
	{
		static const uint8_t oid[] = { 0x06, 0x03, 0x2a, 0x03, 0x04 };
		CK_ATTRIBUTE set[] = {
			{ CKA_VALUE, "new value", 9 },
			{ CKA_APPLICATION, "app", 3 },
			{ CKA_OBJECT_ID, (void *)oid, sizeof(oid) },
		};
		CK_ATTRIBUTE cset = { CKA_VALUE, "copied", 6 };
		char app[8];
		uint8_t got[8];
		CK_ATTRIBUTE read[] = {
			{ CKA_VALUE, value, sizeof(value) },
			{ CKA_APPLICATION, app, sizeof(app) },
			{ CKA_OBJECT_ID, got, sizeof(got) },
		};

		assert_rv(p11->C_SetAttributeValue(h, o, set, 3), CKR_OK);
		assert_rv(p11->C_GetAttributeValue(h, o, read, 3), CKR_OK);
		assert_int_equal(read[0].ulValueLen, 9);
		assert_memory_equal(value, "new value", 9);
		assert_int_equal(read[1].ulValueLen, 3);
		assert_memory_equal(app, "app", 3);
		assert_int_equal(read[2].ulValueLen, sizeof(oid));
		assert_memory_equal(got, oid, sizeof(oid));
		assert_rv(p11->C_CopyObject(h, o, &cset, 1, &c), CKR_OK);
		read[0].ulValueLen = sizeof(value);
		assert_rv(p11->C_GetAttributeValue(h, c, read, 1), CKR_OK);
		assert_int_equal(read[0].ulValueLen, 6);
		assert_memory_equal(value, "copied", 6);
	}
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_find(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE o[4], out[8];
	CK_OBJECT_CLASS vendor = CKO_VENDOR_DEFINED + 5;
	CK_ATTRIBUTE by_class = { CKA_CLASS, &data_class, sizeof(data_class) };
	CK_ATTRIBUTE by_vendor = { CKA_CLASS, &vendor, sizeof(vendor) };
	CK_ATTRIBUTE by_value = { CKA_VALUE, "two", 3 };
	CK_ULONG count;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_rv(make_data(h, i == 2 ? "other" : "same", CK_TRUE,
		    CK_FALSE, i == 1 ? "two" : "one", &o[i]), CKR_OK);
	assert_int_equal(find_label(h, "same"), 2);
	assert_int_equal(find(h, &by_class, 1, out, 8), 3);
	assert_int_equal(find(h, &by_value, 1, out, 8), 1);
	assert_int_equal(out[0], o[1]);
	/* An unknown or vendor class finds nothing; it is not an error. */
	assert_int_equal(find(h, &by_vendor, 1, out, 8), 0);
	/* Results come in pieces. */
	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OPERATION_ACTIVE);
	assert_rv(p11->C_FindObjects(h, out, 2, &count), CKR_OK);
	assert_int_equal(count, 2);
	assert_rv(p11->C_FindObjects(h, out, 8, &count), CKR_OK);
	assert_int_equal(count, 1);
	assert_rv(p11->C_FindObjects(h, out, 8, &count), CKR_OK);
	assert_int_equal(count, 0);
	assert_rv(p11->C_FindObjects(h, out, 8, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_FindObjects(h, out, 8, &count),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_persistence(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE o, p, out[4];
	CK_ATTRIBUTE label = { CKA_LABEL, "kept-private", 12 };

	(void)state;
	assert_rv(login_user(h), CKR_OK);
	assert_rv(make_data(h, "kept", CK_TRUE, CK_FALSE, "v", &o), CKR_OK);
	assert_rv(make_data(h, "kept-private", CK_TRUE, CK_TRUE, "v", &p),
	    CKR_OK);
	assert_rv(make_data(h, "gone", CK_FALSE, CK_FALSE, "v", &o), CKR_OK);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = open_rw();
	assert_int_equal(find_label(h, "kept"), 1);
	assert_int_equal(find_label(h, "gone"), 0);
	assert_rv(login_user(h), CKR_OK);
	/* Same handle in every process and after restart (until the
	 * user's first logout in the process). */
	assert_int_equal(find(h, &label, 1, out, 4), 1);
	assert_int_equal(out[0], p);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* Keys that need the master key to be stored (a token private or secret
 * key, CKA_PRIVATE false or not) are refused before they are generated
 * in a session without a login, and a token key in a read-only session,
 * with the CK_RV the store would give; nothing is created. */
static void
test_generate_needs_login(void **state)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
		0x3d, 0x03, 0x01, 0x07 };
	CK_MECHANISM ec = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM aes = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ULONG len = 32;
	CK_ATTRIBUTE pubt[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
	};
	CK_ATTRIBUTE privt[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_SIGN, &yes, 1 },
	};
	CK_ATTRIBUTE sect[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
	};
	CK_SESSION_HANDLE rw = open_rw(), ro = open_ro();
	CK_OBJECT_HANDLE pub, priv, k;
	CK_ULONG before = count_all(rw);

	(void)state;
	assert_rv(p11->C_GenerateKeyPair(rw, &ec, pubt, 2, privt, 3, &pub,
	    &priv), CKR_USER_NOT_LOGGED_IN);
	assert_rv(p11->C_GenerateKey(rw, &aes, sect, 3, &k),
	    CKR_USER_NOT_LOGGED_IN);
	assert_rv(p11->C_GenerateKeyPair(ro, &ec, pubt, 2, privt, 3, &pub,
	    &priv), CKR_SESSION_READ_ONLY);
	assert_int_equal(count_all(rw), before);
	/* As session objects they are made, and with a login too. */
	privt[0].pValue = &no;
	pubt[0].pValue = &no;
	assert_rv(p11->C_GenerateKeyPair(rw, &ec, pubt, 2, privt, 3, &pub,
	    &priv), CKR_OK);
	privt[0].pValue = &yes;
	pubt[0].pValue = &yes;
	assert_rv(login_user(rw), CKR_OK);
	assert_rv(p11->C_GenerateKeyPair(rw, &ec, pubt, 2, privt, 3, &pub,
	    &priv), CKR_OK);
	assert_rv(p11->C_GenerateKey(rw, &aes, sect, 3, &k), CKR_OK);
	assert_rv(p11->C_CloseSession(ro), CKR_OK);
	assert_rv(p11->C_CloseSession(rw), CKR_OK);
}

/* Values of private objects are not in the clear on disk (tampering
 * with the file: tests/p11/test_tamper.c). */
static void
test_encrypted_at_rest(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE a;
	char stmt[256];

	(void)state;
	assert_rv(login_user(h), CKR_OK);
	assert_rv(make_data(h, "a", CK_TRUE, CK_TRUE, "secret-a", &a), CKR_OK);
	snprintf(stmt, sizeof(stmt), "test -s '%s'/vgtoken/vgtoken.db", dir);
	assert_int_equal(system(stmt), 0);
	snprintf(stmt, sizeof(stmt), "cat '%s'/vgtoken/vgtoken.db* | "
	    "grep -aq secret-a", dir);
	assert_int_not_equal(system(stmt), 0);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* C_DigestKey feeds a secret key's value into the digest. */
static void
test_digest_key(void **state)
{
	static const uint8_t key[24] = "0123456789abcdefghijklm";
	CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE k, d;
	uint8_t a[32], b[32];
	CK_ULONG alen = 32, blen = 32;

	(void)state;
	assert_rv(login_user(h), CKR_OK);
	assert_rv(make_secret(h, "dk", key, sizeof(key), &k), CKR_OK);
	assert_rv(make_data(h, "dd", CK_FALSE, CK_FALSE, "x", &d), CKR_OK);
	assert_rv(p11->C_DigestInit(h, &sha), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"pre", 3), CKR_OK);
	assert_rv(p11->C_DigestKey(h, k), CKR_OK);
	assert_rv(p11->C_DigestFinal(h, a, &alen), CKR_OK);
	assert_rv(p11->C_DigestInit(h, &sha), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"pre", 3), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)key, sizeof(key)),
	    CKR_OK);
	assert_rv(p11->C_DigestFinal(h, b, &blen), CKR_OK);
	assert_memory_equal(a, b, 32);
	/* Not a secret key; no key at all; each ends the operation. */
	assert_rv(p11->C_DigestInit(h, &sha), CKR_OK);
	assert_rv(p11->C_DigestKey(h, d), CKR_KEY_INDIGESTIBLE);
	assert_rv(p11->C_DigestKey(h, k), CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DigestInit(h, &sha), CKR_OK);
	assert_rv(p11->C_DigestKey(h, 0x7ffff), CKR_KEY_HANDLE_INVALID);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* The token sets CKA_UNIQUE_ID on every new object, copies included. */
static void
test_unique_id(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE o, c;
	char a[64], b[64];
	CK_ATTRIBUTE ga = { CKA_UNIQUE_ID, a, sizeof(a) };
	CK_ATTRIBUTE gb = { CKA_UNIQUE_ID, b, sizeof(b) };
	CK_ATTRIBUTE set = { CKA_UNIQUE_ID, "mine", 4 };

	(void)state;
	assert_rv(make_data(h, "u", CK_TRUE, CK_FALSE, "v", &o), CKR_OK);
	assert_rv(p11->C_CopyObject(h, o, NULL, 0, &c), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, o, &ga, 1), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, c, &gb, 1), CKR_OK);
	assert_int_equal(ga.ulValueLen, 32);
	assert_int_equal(gb.ulValueLen, 32);
	assert_memory_not_equal(a, b, 32);
	assert_rv(p11->C_SetAttributeValue(h, o, &set, 1),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* Unique IDs come from a pool of random bytes refilled every 32
 * objects: 80 session objects in a row get 80 different IDs, and a child
 * process, after its own C_Initialize, never hands out the IDs that the
 * parent's pool still holds. */
static void
test_unique_id_pool(void **state)
{
	enum { N = 80 };
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE o;
	char ids[N][32], child[32];
	CK_ATTRIBUTE g = { CKA_UNIQUE_ID, NULL, 32 };
	int fd[2], status, i, j;
	pid_t pid;

	(void)state;
	for (i = 0; i < N; i++) {
		assert_rv(make_data(h, "pool", CK_FALSE, CK_FALSE, "v", &o),
		    CKR_OK);
		g.pValue = ids[i];
		g.ulValueLen = 32;
		assert_rv(p11->C_GetAttributeValue(h, o, &g, 1), CKR_OK);
		for (j = 0; j < i; j++)
			assert_memory_not_equal(ids[i], ids[j], 32);
	}
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		CK_SESSION_HANDLE hc;

		if (p11->C_Initialize(NULL) != CKR_OK ||
		    p11->C_OpenSession(slot, CKF_SERIAL_SESSION |
		    CKF_RW_SESSION, NULL, NULL, &hc) != CKR_OK ||
		    make_data(hc, "child", CK_FALSE, CK_FALSE, "v", &o) !=
		    CKR_OK)
			_exit(1);
		g.pValue = child;
		g.ulValueLen = 32;
		if (p11->C_GetAttributeValue(hc, o, &g, 1) != CKR_OK ||
		    write(fd[1], child, 32) != 32)
			_exit(2);
		p11->C_Finalize(NULL);
		_exit(0);
	}
	close(fd[1]);
	assert_int_equal(read(fd[0], child, 32), 32);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the parent's next ID, from the pool the child also inherited */
	assert_rv(make_data(h, "pool", CK_FALSE, CK_FALSE, "v", &o), CKR_OK);
	g.pValue = ids[0];
	g.ulValueLen = 32;
	assert_rv(p11->C_GetAttributeValue(h, o, &g, 1), CKR_OK);
	assert_memory_not_equal(ids[0], child, 32);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* CKA_PUBLIC_KEY_INFO of an EC public key is the SPKI OpenSSL writes. */
static void
test_public_key_info(void **state)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
		0x3d, 0x03, 0x01, 0x07 };
	CK_OBJECT_CLASS cls = CKO_PUBLIC_KEY;
	CK_KEY_TYPE kt = CKK_EC;
	CK_SESSION_HANDLE h = open_rw();
	EVP_PKEY *pk = EVP_EC_gen("P-256");
	uint8_t point[67], info[200], *der = NULL, *bad;
	size_t plen = 0;
	int dlen;
	CK_OBJECT_HANDLE o;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_EC_POINT, point, sizeof(point) },
		{ CKA_PUBLIC_KEY_INFO, NULL, 0 },
	};
	CK_ATTRIBUTE get = { CKA_PUBLIC_KEY_INFO, info, sizeof(info) };

	(void)state;
	assert_non_null(pk);
	assert_int_equal(EVP_PKEY_get_octet_string_param(pk,
	    OSSL_PKEY_PARAM_PUB_KEY, point + 2, 65, &plen), 1);
	assert_int_equal(plen, 65);
	point[0] = 0x04; /* OCTET STRING */
	point[1] = 65;
	dlen = i2d_PUBKEY(pk, &der);
	assert_true(dlen > 0);
	assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, o, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, (CK_ULONG)dlen);
	assert_memory_equal(info, der, (size_t)dlen);
	/* Given by the caller, it must describe the key. */
	t[4].pValue = der;
	t[4].ulValueLen = (CK_ULONG)dlen;
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
	bad = der + dlen - 1;
	*bad ^= 1;
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_TEMPLATE_INCONSISTENT);
	OPENSSL_free(der);
	EVP_PKEY_free(pk);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static CK_RV
make_cert(CK_SESSION_HANDLE h, const uint8_t *der, size_t len,
    CK_BBOOL trusted, CK_OBJECT_HANDLE *out)
{
	CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	CK_CERTIFICATE_TYPE ct = CKC_X_509;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_CERTIFICATE_TYPE, &ct, sizeof(ct) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_VALUE, (void *)der, len },
		{ CKA_TRUSTED, &trusted, 1 },
	};

	return p11->C_CreateObject(h, t, 6, out);
}

/*
 * Only the SO sets CKA_TRUSTED to CK_TRUE, and only the SO changes a
 * trusted certificate [§4.7, footnote 10]. `p11tool --write
 * --mark-trusted --so-login` (GnuTLS) creates a certificate so.
 */
static void
test_trusted_by_so(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE plain, trusted;
	CK_BBOOL b = CK_FALSE;
	CK_ATTRIBUTE get = { CKA_TRUSTED, &b, 1 };
	CK_ATTRIBUTE mark = { CKA_TRUSTED, &yes, 1 };
	CK_ATTRIBUTE relabel = { CKA_LABEL, "ca", 2 };
	size_t len1, len2;
	uint8_t *der1 = p11_cert_der("plain", &len1);
	uint8_t *der2 = p11_cert_der("trusted", &len2);

	(void)state;
	assert_rv(login_user(h), CKR_OK);
	assert_rv(make_cert(h, der2, len2, CK_TRUE, &trusted),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_rv(make_cert(h, der1, len1, CK_FALSE, &plain), CKR_OK);
	assert_rv(p11->C_SetAttributeValue(h, plain, &mark, 1),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_rv(p11->C_Logout(h), CKR_OK);

	assert_rv(p11->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN)), CKR_OK);
	assert_rv(make_cert(h, der2, len2, CK_TRUE, &trusted), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, trusted, &get, 1), CKR_OK);
	assert_int_equal(b, CK_TRUE);
	assert_rv(p11->C_SetAttributeValue(h, plain, &mark, 1), CKR_OK);
	assert_rv(p11->C_SetAttributeValue(h, trusted, &relabel, 1), CKR_OK);
	assert_rv(p11->C_Logout(h), CKR_OK);

	b = CK_FALSE;
	assert_rv(p11->C_GetAttributeValue(h, plain, &get, 1), CKR_OK);
	assert_int_equal(b, CK_TRUE);
	assert_rv(login_user(h), CKR_OK);
	assert_rv(p11->C_SetAttributeValue(h, trusted, &relabel, 1),
	    CKR_ACTION_PROHIBITED);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	OPENSSL_free(der1);
	OPENSSL_free(der2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_get, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_access_rules, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_private_and_sensitive,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_and_copy, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_find, setup, teardown),
		cmocka_unit_test_setup_teardown(test_persistence, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_generate_needs_login,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_encrypted_at_rest, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_digest_key, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unique_id, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unique_id_pool, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_public_key_info, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_trusted_by_so, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
