/*
 * The key cache's invalidation (issue 23). A session serves the keys its
 * operations used from its own copies without the module lock while the
 * store is unchanged; every way a cached key can go stale must still be
 * noticed at the next C_SignInit, as it was when every lookup took the
 * lock and asked the database:
 *
 *   - another process destroys the key: CKR_KEY_HANDLE_INVALID;
 *   - another process clears its CKA_SIGN: CKR_KEY_FUNCTION_NOT_PERMITTED;
 *   - another session of this process destroys it (no store check can
 *     see that: the cache's epoch must);
 *   - the user logs out: a private key is no longer found;
 *   - threads signing in sessions of their own while another session
 *     destroys the key: each either signs or gets CKR_KEY_HANDLE_INVALID,
 *     and after the destruction every one gets the latter.
 *
 * The "other process" is this program run again (exec, so that it
 * inherits no state of the module): "--helper CMD LABEL".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/p11/common.h"

#define THREADS 3

static char dir[64];
static CK_SLOT_ID slot;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

/* DER of the OID prime256v1, as CKA_EC_PARAMS. */
static const unsigned char p256_oid[] = {
	0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07
};

/* ------------------------------------------------ token calls (no asserts:
 * the helper uses them too) */

/* A P-256 pair labelled label, a token pair when token. */
static CK_RV
gen_pair(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE h, const char *label,
    CK_BBOOL token, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_OBJECT_HANDLE pub;
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, &token, sizeof(token) },
		{ CKA_EC_PARAMS, (void *)p256_oid, sizeof(p256_oid) },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_TOKEN, &token, sizeof(token) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};

	return f->C_GenerateKeyPair(h, &m, pt, 3, st, 5, &pub, priv);
}

/* The private key labelled label, or CK_INVALID_HANDLE. */
static CK_OBJECT_HANDLE
find_priv(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE h, const char *label)
{
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;
	CK_ULONG n = 0;

	if (f->C_FindObjectsInit(h, t, 2) != CKR_OK)
		return CK_INVALID_HANDLE;
	if (f->C_FindObjects(h, &o, 1, &n) != CKR_OK || n != 1)
		o = CK_INVALID_HANDLE;
	f->C_FindObjectsFinal(h);
	return o;
}

/* C_SignInit and C_Sign with ECDSA over 32 bytes: the first failure. */
static CK_RV
sign(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE h, CK_OBJECT_HANDLE key)
{
	CK_MECHANISM m = { CKM_ECDSA, NULL, 0 };
	unsigned char in[32] = { 1, 2, 3 }, sig[64];
	CK_ULONG len = sizeof(sig);
	CK_RV rv;

	rv = f->C_SignInit(h, &m, key);
	if (rv == CKR_OK)
		rv = f->C_Sign(h, in, sizeof(in), sig, &len);
	return rv;
}

/*
 * The other process: C_Initialize, a session logged in as the user, then
 *   destroy LABEL   destroys the private key labelled LABEL
 *   nosign LABEL    sets its CKA_SIGN to false
 * Returns 0 when done, 1 and up for a failed step.
 */
static int
helper(const char *cmd, const char *label)
{
	CK_FUNCTION_LIST *f;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE o;
	CK_ATTRIBUTE a = { CKA_SIGN, &no, sizeof(no) };
	int code = 0;

	if (p11_load() != 0)
		return 2;
	f = p11_240;
	if (f->C_Initialize(NULL) != CKR_OK)
		return 3;
	if (f->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h) != CKR_OK ||
	    f->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK)
		code = 4;
	o = code == 0 ? find_priv(f, h, label) : CK_INVALID_HANDLE;
	if (code == 0 && o == CK_INVALID_HANDLE)
		code = 5;
	if (code == 0 && strcmp(cmd, "destroy") == 0)
		code = f->C_DestroyObject(h, o) == CKR_OK ? 0 : 6;
	else if (code == 0 && strcmp(cmd, "nosign") == 0)
		code = f->C_SetAttributeValue(h, o, &a, 1) == CKR_OK ? 0 : 7;
	if (f->C_Finalize(NULL) != CKR_OK && code == 0)
		code = 8;
	return code;
}

/* Runs this program as the helper; its exit status (100 and up when it
 * did not exit normally). */
static int
run_helper(const char *cmd, const char *label)
{
	char sl[32];
	int status;
	pid_t pid;

	snprintf(sl, sizeof(sl), "%lu", (unsigned long)slot);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 101;
	if (pid == 0) {
		execl("/proc/self/exe", "test_keycache", "--helper", cmd,
		    label, sl, (char *)NULL);
		_exit(102);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 103;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 104;
}

/* ------------------------------------------------ tests */

static CK_SESSION_HANDLE sess;

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "keycache", &slot, &sess);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* A token key, used twice (the second from the session's copy), is
 * destroyed by another process: the next C_SignInit fails. */
static void
test_other_process_destroys(void **state)
{
	CK_OBJECT_HANDLE key;

	(void)state;
	assert_int_equal(gen_pair(p11_240, sess, "gone", CK_TRUE, &key),
	    CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(run_helper("destroy", "gone"), 0);
	assert_int_equal(sign(p11_240, sess, key), CKR_KEY_HANDLE_INVALID);
	/* and stays so */
	assert_int_equal(sign(p11_240, sess, key), CKR_KEY_HANDLE_INVALID);
}

/* Another process takes CKA_SIGN away: the next C_SignInit sees it. */
static void
test_other_process_changes(void **state)
{
	CK_OBJECT_HANDLE key;

	(void)state;
	assert_int_equal(gen_pair(p11_240, sess, "nosign", CK_TRUE, &key),
	    CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(run_helper("nosign", "nosign"), 0);
	assert_int_equal(sign(p11_240, sess, key),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
}

/* Another session of this process destroys a session key that this one
 * keeps: nothing in the store changes, the cache's epoch does. */
static void
test_other_session_destroys(void **state)
{
	CK_SESSION_HANDLE other;
	CK_OBJECT_HANDLE key;

	(void)state;
	assert_int_equal(p11_240->C_OpenSession(slot, CKF_SERIAL_SESSION |
	    CKF_RW_SESSION, NULL, NULL, &other), CKR_OK);
	assert_int_equal(gen_pair(p11_240, sess, "local", CK_FALSE, &key),
	    CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(sign(p11_240, other, key), CKR_OK);
	assert_int_equal(p11_240->C_DestroyObject(other, key), CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_KEY_HANDLE_INVALID);
	assert_int_equal(sign(p11_240, other, key), CKR_KEY_HANDLE_INVALID);
	assert_int_equal(p11_240->C_CloseSession(other), CKR_OK);
}

/* After C_Logout a private token key kept by the session is not used. */
static void
test_logout(void **state)
{
	CK_OBJECT_HANDLE key;

	(void)state;
	assert_int_equal(gen_pair(p11_240, sess, "private", CK_TRUE, &key),
	    CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_OK);
	assert_int_equal(p11_240->C_Logout(sess), CKR_OK);
	assert_int_equal(sign(p11_240, sess, key), CKR_KEY_HANDLE_INVALID);
}

struct signer {
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE key;
	int stop;        /* atomic */
	int ok, gone, bad;
	int after_bad;   /* a signature after the destruction returned */
};

static int destroyed; /* atomic: C_DestroyObject has returned */

static void *
signer_main(void *p)
{
	struct signer *s = p;
	CK_RV rv;
	int was;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		was = __atomic_load_n(&destroyed, __ATOMIC_ACQUIRE);
		rv = sign(p11_240, s->h, s->key);
		if (rv == CKR_OK) {
			s->ok++;
			s->after_bad += was;
		} else if (rv == CKR_KEY_HANDLE_INVALID) {
			s->gone++;
		} else {
			s->bad++;
		}
	}
	return NULL;
}

/* Threads sign with a session key in sessions of their own while the
 * main thread destroys it: no signature begun after C_DestroyObject
 * returned succeeds, and nothing else fails. */
static void
test_threads_destroy(void **state)
{
	struct signer s[THREADS];
	pthread_t t[THREADS];
	CK_OBJECT_HANDLE key;
	int i;

	(void)state;
	assert_int_equal(gen_pair(p11_240, sess, "shared", CK_FALSE, &key),
	    CKR_OK);
	__atomic_store_n(&destroyed, 0, __ATOMIC_RELEASE);
	memset(s, 0, sizeof(s));
	for (i = 0; i < THREADS; i++) {
		s[i].key = key;
		assert_int_equal(p11_240->C_OpenSession(slot,
		    CKF_SERIAL_SESSION, NULL, NULL, &s[i].h), CKR_OK);
		assert_int_equal(pthread_create(&t[i], NULL, signer_main,
		    &s[i]), 0);
	}
	usleep(200000);
	assert_int_equal(p11_240->C_DestroyObject(sess, key), CKR_OK);
	__atomic_store_n(&destroyed, 1, __ATOMIC_RELEASE);
	usleep(100000);
	for (i = 0; i < THREADS; i++) {
		__atomic_store_n(&s[i].stop, 1, __ATOMIC_RELEASE);
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(p11_240->C_CloseSession(s[i].h), CKR_OK);
		print_message("thread %d: %d signed, %d refused\n", i,
		    s[i].ok, s[i].gone);
		assert_true(s[i].ok > 0);
		assert_true(s[i].gone > 0);
		assert_int_equal(s[i].bad, 0);
		assert_int_equal(s[i].after_bad, 0);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_other_process_destroys,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_process_changes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_session_destroys,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_logout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads_destroy, setup,
		    teardown),
	};

	if (argc == 5 && strcmp(argv[1], "--helper") == 0) {
		slot = (CK_SLOT_ID)strtoul(argv[4], NULL, 10);
		return helper(argv[2], argv[3]);
	}
	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
