/*
 * A database written by vgtoken 0.1 (tests/fixtures/vgtoken-0.1.db,
 * described in tests/fixtures/README.md) opened by this module: the
 * schema moves to version 2 when the file is opened, the objects are
 * sealed at the first login, and nothing is lost: every object is there
 * with its values, keys sign, and restrictions still hold. A value
 * tampered with before the upgrade is not sealed into the new format. A
 * read-only copy is read as it is.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/x509.h>
#include <sched.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/p11/common.h"

/* What the fixture holds (tests/fixtures/README.md). */
#define SO_PIN "so-pin-1"
#define USER_PIN "user-pin"
#define NOBJECTS 13
#define NPUBLIC 7
#define HMAC_ROW 11
static const uint8_t aes_key[16] = { 0x8c, 0x1c, 0x86, 0xa8, 0x1a, 0xa6,
	0x67, 0xdc, 0x4b, 0xe9, 0xf7, 0x37, 0xcc, 0xf0, 0xf4, 0x60 };
static const uint8_t hmac_key[32] = { 0xcb, 0xe3, 0x9b, 0x2d, 0xfa, 0x46,
	0x0f, 0xfe, 0x39, 0x3f, 0xdd, 0x43, 0xb6, 0x26, 0xf8, 0xb7, 0xe1, 0x96,
	0x00, 0xf8, 0x51, 0x4a, 0x1f, 0x09, 0xa4, 0xf8, 0xc7, 0xbb, 0x24, 0xe3,
	0x0b, 0xda };

static char dir[64];
static CK_SLOT_ID slot;

static void
db_path(char *buf, size_t n)
{
	snprintf(buf, n, "%s/vgtoken/vgtoken.db", dir);
}

/* A directory with a copy of the fixture and a configuration naming it;
 * edit (may be NULL) runs SQL on the copy first. Not initialised. */
static void
fixture(const char *edit)
{
	const char *top = getenv("top_srcdir");
	char cmd[512], conf[96];
	FILE *f;

	assert_non_null(top);
	snprintf(dir, sizeof(dir), "/tmp/vgtoken-upgrade-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "mkdir -m 700 '%s/vgtoken' && cp "
	    "'%s/tests/fixtures/vgtoken-0.1.db' '%s/vgtoken/vgtoken.db' && "
	    "chmod 600 '%s/vgtoken/vgtoken.db'", dir, top, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(conf, sizeof(conf), "%s/vgtoken.conf", dir);
	f = fopen(conf, "w");
	assert_non_null(f);
	fprintf(f, "data_dir = %s/vgtoken\npbkdf2_iterations = 1000\n", dir);
	assert_int_equal(fclose(f), 0);
	setenv("VGTOKEN_CONF", conf, 1);
	if (edit != NULL) {
		sqlite3 *db;

		db_path(cmd, sizeof(cmd));
		assert_int_equal(sqlite3_open(cmd, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, edit, NULL, NULL, NULL),
		    SQLITE_OK);
		sqlite3_close(db);
	}
}

static void
start(void)
{
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;

	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(p11->C_GetSlotList(CK_TRUE, ids, &n), CKR_OK);
	assert_int_equal(n, 2); /* the token, and the free slot */
	slot = ids[0];
	assert_int_equal(slot, 1);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static CK_SESSION_HANDLE
session(CK_USER_TYPE who, const char *pin)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), CKR_OK);
	if (pin != NULL)
		assert_rv(p11->C_Login(h, who, (CK_UTF8CHAR_PTR)pin,
		    strlen(pin)), CKR_OK);
	return h;
}

static CK_ULONG
find(CK_SESSION_HANDLE h, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out, CK_ULONG max)
{
	CK_ULONG got = 0;

	assert_rv(p11->C_FindObjectsInit(h, (CK_ATTRIBUTE_PTR)t, n), CKR_OK);
	assert_rv(p11->C_FindObjects(h, out, max, &got), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return got;
}

static CK_OBJECT_HANDLE
one(CK_SESSION_HANDLE h, const char *label, CK_OBJECT_CLASS cls)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_CLASS, &cls, sizeof(cls) },
	};
	CK_OBJECT_HANDLE o[2];

	if (find(h, t, 2, o, 2) != 1)
		fail_msg("no single %s object labelled %s", cls ==
		    CKO_PRIVATE_KEY ? "private key" : "other", label);
	return o[0];
}

static CK_ULONG
count_all(CK_SESSION_HANDLE h)
{
	CK_OBJECT_HANDLE o[32];

	return find(h, NULL, 0, o, 32);
}

static void
value_is(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE t,
    const void *want, size_t len)
{
	uint8_t buf[256];
	CK_ATTRIBUTE a = { t, buf, sizeof(buf) };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, len);
	assert_memory_equal(buf, want, len);
}

/* Signs msg with the private key labelled label and verifies it with
 * its public key. */
static void
sign_verify(CK_SESSION_HANDLE h, const char *label, CK_MECHANISM_TYPE mt)
{
	CK_MECHANISM m = { mt, NULL, 0 };
	static uint8_t sig[8192];
	CK_ULONG slen = sizeof(sig);
	uint8_t msg[32] = "message of 32 bytes for signing";

	assert_rv(p11->C_SignInit(h, &m, one(h, label, CKO_PRIVATE_KEY)),
	    CKR_OK);
	assert_rv(p11->C_Sign(h, msg, sizeof(msg), sig, &slen), CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &m, one(h, label, CKO_PUBLIC_KEY)),
	    CKR_OK);
	assert_rv(p11->C_Verify(h, msg, sizeof(msg), sig, slen), CKR_OK);
	msg[0] ^= 1;
	assert_rv(p11->C_VerifyInit(h, &m, one(h, label, CKO_PUBLIC_KEY)),
	    CKR_OK);
	assert_rv(p11->C_Verify(h, msg, sizeof(msg), sig, slen),
	    CKR_SIGNATURE_INVALID);
}

/* The HMAC key signs as OpenSSL computes with its known value. */
static void
hmac_ok(CK_SESSION_HANDLE h)
{
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	uint8_t mac[32], want[32];
	unsigned int wlen = sizeof(want);
	CK_ULONG mlen = sizeof(mac);

	assert_rv(p11->C_SignInit(h, &m, one(h, "hmac-key", CKO_SECRET_KEY)),
	    CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, mac, &mlen), CKR_OK);
	assert_non_null(HMAC(EVP_sha256(), hmac_key, sizeof(hmac_key),
	    (const unsigned char *)"abc", 3, want, &wlen));
	assert_int_equal(mlen, 32);
	assert_memory_equal(mac, want, 32);
}

/* Everything of the fixture, checked value by value. */
static void
all_there(CK_SESSION_HANDLE h)
{
	CK_MECHANISM ecdsa = { CKM_ECDSA, NULL, 0 };
	CK_MECHANISM ecdsa256 = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_OBJECT_HANDLE k, cert;
	uint8_t zero[16] = { 0 }, check[16], der[2048], sig[64];
	CK_ATTRIBUTE a = { CKA_VALUE, der, sizeof(der) };
	CK_ULONG slen = sizeof(sig);
	const unsigned char *p = der;
	char cn[64];
	EVP_CIPHER_CTX *c;
	X509 *x;
	int outl = 0;

	assert_int_equal(count_all(h), NOBJECTS);
	sign_verify(h, "ec-key", CKM_ECDSA_SHA256);
	sign_verify(h, "rsa-key", CKM_SHA256_RSA_PKCS);
	sign_verify(h, "mldsa-key", CKM_ML_DSA);
	hmac_ok(h);

	/* The AES key: its check value is the first bytes of a zero block
	 * under it. */
	c = EVP_CIPHER_CTX_new();
	assert_int_equal(EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL,
	    aes_key, NULL), 1);
	assert_int_equal(EVP_EncryptUpdate(c, check, &outl, zero, 16), 1);
	EVP_CIPHER_CTX_free(c);
	value_is(h, one(h, "aes-key", CKO_SECRET_KEY), CKA_CHECK_VALUE, check,
	    3);

	value_is(h, one(h, "pub-data", CKO_DATA), CKA_VALUE, "public data\n",
	    12);
	value_is(h, one(h, "pub-data", CKO_DATA), CKA_APPLICATION, "app", 3);
	value_is(h, one(h, "priv-data", CKO_DATA), CKA_VALUE,
	    "private data\n", 13);

	cert = one(h, "cert", CKO_CERTIFICATE);
	assert_rv(p11->C_GetAttributeValue(h, cert, &a, 1), CKR_OK);
	x = d2i_X509(NULL, &p, (long)a.ulValueLen);
	assert_non_null(x);
	assert_true(X509_NAME_get_text_by_NID(X509_get_subject_name(x),
	    NID_commonName, cn, sizeof(cn)) > 0);
	assert_string_equal(cn, "legacy");
	X509_free(x);

	/* The restricted key: one mechanism, and the PIN at each use. */
	k = one(h, "ec-restricted", CKO_PRIVATE_KEY);
	assert_rv(p11->C_SignInit(h, &ecdsa256, k), CKR_MECHANISM_INVALID);
	assert_rv(p11->C_SignInit(h, &ecdsa, k), CKR_OK);
	assert_rv(p11->C_Sign(h, zero, 16, sig, &slen),
	    CKR_USER_NOT_LOGGED_IN);
	assert_rv(p11->C_SessionCancel(h, CKF_SIGN), CKR_OK);
	assert_rv(p11->C_SignInit(h, &ecdsa, k), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_CONTEXT_SPECIFIC,
	    (CK_UTF8CHAR_PTR)USER_PIN, strlen(USER_PIN)), CKR_OK);
	slen = sizeof(sig);
	assert_rv(p11->C_Sign(h, zero, 16, sig, &slen), CKR_OK);
}

static long
sql_long(const char *q)
{
	char path[128];
	sqlite3 *db;
	sqlite3_stmt *st;
	long v;

	db_path(path, sizeof(path));
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, q, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void
test_upgrade(void **state)
{
	CK_TOKEN_INFO ti;
	CK_SESSION_HANDLE h;

	(void)state;
	fixture(NULL);
	start();
	/* Opening upgraded the schema; nothing is sealed without a key. */
	assert_int_equal(sql_long("SELECT value FROM meta WHERE key = "
	    "'schema_version'"), 2);
	assert_int_equal(sql_long("SELECT count(*) FROM objects WHERE seal "
	    "IS NOT NULL"), 0);
	assert_rv(p11->C_GetTokenInfo(slot, &ti), CKR_OK);
	assert_memory_equal(ti.serialNumber, "929a66a4d244a17b", 16);
	assert_memory_equal(ti.label, "legacy ", 7);

	/* Before any login: the public objects, as stored. */
	h = session(CKU_USER, NULL);
	assert_int_equal(count_all(h), NPUBLIC);
	assert_rv(p11->C_CloseSession(h), CKR_OK);

	/* The first login seals the token and rewraps the user's PIN. */
	h = session(CKU_USER, USER_PIN);
	assert_int_equal(sql_long("SELECT count(*) FROM objects WHERE seal "
	    "IS NOT NULL"), NOBJECTS);
	assert_int_equal(sql_long("SELECT length(seal) FROM tokens"), 41);
	assert_int_equal(sql_long("SELECT length(user_wrap) FROM tokens"), 65);
	assert_int_equal(sql_long("SELECT length(so_wrap) FROM tokens"), 60);
	all_there(h);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);

	/* Again, from the sealed store. */
	start();
	h = session(CKU_USER, USER_PIN);
	all_there(h);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	/* The SO's PIN still opens its version 1 wrap, which is then
	 * rewrapped too; the SO sees the public objects. */
	h = session(CKU_SO, SO_PIN);
	assert_int_equal(count_all(h), NPUBLIC);
	assert_int_equal(sql_long("SELECT length(so_wrap) FROM tokens"), 65);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* Version 1 already kept private values encrypted: a private object with
 * a value in the clear was tampered with before the upgrade, and is not
 * sealed. */
static void
test_tampered_before(void **state)
{
	char buf[32];
	CK_ATTRIBUTE a = { CKA_LABEL, buf, sizeof(buf) };
	CK_SESSION_HANDLE h;
	CK_BBOOL no = CK_FALSE;
	char edit[160];

	(void)state;
	snprintf(edit, sizeof(edit), "UPDATE attributes SET encrypted = 0, "
	    "value = x'%02x' WHERE object_id = %d AND type = %lu", no,
	    HMAC_ROW, (unsigned long)CKA_SENSITIVE);
	fixture(edit);
	start();
	h = session(CKU_USER, USER_PIN);
	assert_int_equal(count_all(h), NOBJECTS - 1);
	assert_rv(p11->C_GetAttributeValue(h, HMAC_ROW, &a, 1),
	    CKR_DEVICE_ERROR);
	assert_int_equal(sql_long("SELECT count(*) FROM objects WHERE seal "
	    "IS NOT NULL"), NOBJECTS - 1);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	start();
	h = session(CKU_USER, USER_PIN);
	assert_int_equal(count_all(h), NOBJECTS - 1);
	sign_verify(h, "ec-key", CKM_ECDSA_SHA256);
}

/* In the child of test_read_only, without cmocka (whose failures would
 * unwind into the child's copy of the runner): 0 when the read-only copy
 * reads as it should. */
static int
read_only_child(void)
{
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	CK_OBJECT_CLASS sk = CKO_SECRET_KEY;
	CK_ATTRIBUTE t = { CKA_CLASS, &sk, sizeof(sk) };
	CK_OBJECT_HANDLE o[32];
	CK_SESSION_HANDLE h;
	CK_TOKEN_INFO ti;
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4, mlen = 32;
	uint8_t mac[32], want[32];
	unsigned int wlen = sizeof(want);
	CK_RV rv;

	rv = p11->C_Initialize(NULL);
	if (rv == CKR_OK)
		rv = p11->C_GetSlotList(CK_TRUE, ids, &n);
	slot = ids[0];
	if (rv == CKR_OK)
		rv = p11->C_GetTokenInfo(slot, &ti);
	if (rv == CKR_OK && !(ti.flags & CKF_WRITE_PROTECTED))
		rv = CKR_GENERAL_ERROR;
	if (rv == CKR_OK)
		rv = p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
		    &h);
	if (rv == CKR_OK)
		rv = p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)USER_PIN,
		    strlen(USER_PIN));
	if (rv == CKR_OK)
		rv = p11->C_FindObjectsInit(h, NULL, 0);
	if (rv == CKR_OK)
		rv = p11->C_FindObjects(h, o, 32, &n);
	if (rv == CKR_OK)
		rv = p11->C_FindObjectsFinal(h);
	if (rv == CKR_OK && n != NOBJECTS) {
		printf("read-only copy: %lu objects\n", (unsigned long)n);
		return 1;
	}
	/* The HMAC key (the private secret key) works as it did. */
	if (rv == CKR_OK)
		rv = p11->C_FindObjectsInit(h, &t, 1);
	if (rv == CKR_OK)
		rv = p11->C_FindObjects(h, o, 32, &n);
	if (rv == CKR_OK)
		rv = p11->C_FindObjectsFinal(h);
	if (rv == CKR_OK)
		rv = p11->C_SignInit(h, &m, HMAC_ROW);
	if (rv == CKR_OK)
		rv = p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, mac, &mlen);
	if (rv != CKR_OK) {
		printf("read-only copy: %s\n", p11_rv_name(rv));
		return 1;
	}
	HMAC(EVP_sha256(), hmac_key, sizeof(hmac_key),
	    (const unsigned char *)"abc", 3, want, &wlen);
	if (n != 2 || mlen != 32 || memcmp(mac, want, 32) != 0) {
		printf("read-only copy: wrong HMAC or %lu secret keys\n",
		    (unsigned long)n);
		return 1;
	}
	p11->C_Finalize(NULL);
	return 0;
}

/* A read-only copy (a read-only bind mount, in a mount namespace of a
 * child's own) is read as version 1 had it, and left unchanged. */
static void
test_read_only(void **state)
{
	char sub[96], cmd[256];
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0) {
		printf("# SKIP read-only copy: needs root for mounts\n");
		skip();
	}
	fixture(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		snprintf(sub, sizeof(sub), "%s/vgtoken", dir);
		if (unshare(CLONE_NEWNS) != 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
		    mount(sub, sub, NULL, MS_BIND, NULL) != 0 ||
		    mount(NULL, sub, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY,
		    NULL) != 0) {
			printf("# SKIP read-only copy: mounts: %s\n",
			    strerror(errno));
			fflush(stdout);
			_exit(77);
		}
		status = read_only_child();
		fflush(stdout);
		_exit(status);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
	snprintf(cmd, sizeof(cmd), "cmp -s '%s/vgtoken/vgtoken.db' "
	    "'%s/tests/fixtures/vgtoken-0.1.db'", dir, getenv("top_srcdir"));
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_upgrade, teardown),
		cmocka_unit_test_teardown(test_tampered_before, teardown),
		cmocka_unit_test_teardown(test_read_only, teardown),
	};

	if (p11_private_data_dir() != 0 || p11_load() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
