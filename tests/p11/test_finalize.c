/*
 * C_Finalize while other threads are inside calls, and fork() in the
 * middle of sessions.
 *
 * Finalize: threads sign, search, read token information and open and
 * close sessions in a loop while the main thread calls C_Finalize; every
 * call either completes (CKR_OK) or answers
 * CKR_CRYPTOKI_NOT_INITIALIZED, and nothing crashes (under ASan: no use
 * after free). Repeated over several rounds.
 *
 * Fork: with sessions open, logged in, a signing operation initialised
 * and another thread signing, the process forks. In the child every call
 * answers CKR_CRYPTOKI_NOT_INITIALIZED until it calls C_Initialize, after
 * which it works on its own sessions; the parent's sessions, login and
 * operation carry on. Under ASan the signing thread is held between two
 * calls while fork() runs: GCC 12's ASan runtime does not lock its
 * allocator around fork(), so a child could inherit it locked by a
 * thread in the middle of malloc() and hang there, outside the module
 * (it once did, in CI). The module's own locks are raced in the other
 * suites.
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
#include <time.h>
#include <unistd.h>

#include "tests/p11/common.h"

#define NTHREAD 6
#define ROUNDS 12
#define NFORK 16

static char dir[64];
static CK_SLOT_ID slot;
static CK_BBOOL yes = CK_TRUE;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_token(dir, "busy_timeout_ms = 30000\n", "finalize",
	    &slot);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* The private key labelled "signer", or CK_INVALID_HANDLE (no asserts:
 * a forked child uses it too). */
static CK_OBJECT_HANDLE
find_signer(CK_SESSION_HANDLE h)
{
	CK_OBJECT_CLASS priv_class = CKO_PRIVATE_KEY;
	CK_ATTRIBUTE ft[] = {
		{ CKA_LABEL, "signer", 6 },
		{ CKA_CLASS, &priv_class, sizeof(priv_class) },
	};
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;
	CK_ULONG n = 0;

	if (p11->C_FindObjectsInit(h, ft, 2) != CKR_OK)
		return CK_INVALID_HANDLE;
	if (p11->C_FindObjects(h, &o, 1, &n) != CKR_OK || n != 1)
		o = CK_INVALID_HANDLE;
	p11->C_FindObjectsFinal(h);
	return o;
}

/* An EC signing key on the token, labelled "signer"; made once. */
static CK_OBJECT_HANDLE
signer(CK_SESSION_HANDLE h)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof(p256) } };
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, "signer", 6 },
	};
	CK_OBJECT_HANDLE o = find_signer(h), pub;

	if (o == CK_INVALID_HANDLE)
		assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 1, kt, 3, &pub,
		    &o), CKR_OK);
	return o;
}

static CK_RV
sign_once(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE key)
{
	CK_MECHANISM m = { CKM_ECDSA_SHA256, NULL, 0 };
	uint8_t sig[64];
	CK_ULONG len = sizeof(sig);
	CK_RV rv;

	rv = p11->C_SignInit(h, &m, key);
	if (rv == CKR_OK)
		rv = p11->C_Sign(h, (CK_BYTE_PTR)"message", 7, sig, &len);
	if (rv == CKR_OK && len != 64)
		rv = CKR_GENERAL_ERROR;
	return rv;
}

struct racer {
	int id;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE key;
	unsigned ok, refused, wrong;
	CK_RV first_wrong;
};

static void
judge(struct racer *r, CK_RV rv, int *stop)
{
	if (rv == CKR_OK) {
		r->ok++;
	} else if (rv == CKR_CRYPTOKI_NOT_INITIALIZED) {
		r->refused++;
		*stop = 1;
	} else {
		if (r->wrong++ == 0)
			r->first_wrong = rv;
		*stop = 1;
	}
}

/* Calls of several kinds until the module is finalised under it. */
static void *
race(void *arg)
{
	struct racer *r = arg;
	CK_OBJECT_HANDLE o[8];
	CK_TOKEN_INFO ti;
	CK_SESSION_HANDLE h2;
	CK_ULONG n;
	CK_RV rv;
	int stop = 0;
	unsigned i;

	for (i = 0; !stop; i++) {
		switch ((i + (unsigned)r->id) % 4) {
		case 0:
			judge(r, sign_once(r->h, r->key), &stop);
			break;
		case 1:
			rv = p11->C_FindObjectsInit(r->h, NULL, 0);
			if (rv == CKR_OK)
				rv = p11->C_FindObjects(r->h, o, 8, &n);
			if (rv == CKR_OK)
				rv = p11->C_FindObjectsFinal(r->h);
			judge(r, rv, &stop);
			break;
		case 2:
			judge(r, p11->C_GetTokenInfo(slot, &ti), &stop);
			break;
		case 3:
			rv = p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL,
			    NULL, &h2);
			if (rv == CKR_OK)
				rv = p11->C_CloseSession(h2);
			judge(r, rv, &stop);
			break;
		}
	}
	return NULL;
}

static void
test_finalize_under_calls(void **state)
{
	unsigned round, ok = 0, refused = 0;
	struct p11_rng rng;

	(void)state;
	p11_rng_seed(&rng, 21);
	for (round = 0; round < ROUNDS; round++) {
		struct racer r[NTHREAD];
		pthread_t t[NTHREAD];
		CK_OBJECT_HANDLE key;
		CK_SESSION_HANDLE h;
		int i;

		if (round > 0)
			assert_rv(p11->C_Initialize(NULL), CKR_OK);
		h = p11_open(CKF_RW_SESSION);
		assert_rv(p11->C_Login(h, CKU_USER,
		    (CK_UTF8CHAR_PTR)P11_USER_PIN, strlen(P11_USER_PIN)),
		    CKR_OK);
		key = signer(h);
		for (i = 0; i < NTHREAD; i++) {
			memset(&r[i], 0, sizeof(r[i]));
			r[i].id = i;
			r[i].h = p11_open(0);
			r[i].key = key;
			assert_int_equal(pthread_create(&t[i], NULL, race,
			    &r[i]), 0);
		}
		usleep((useconds_t)(20000 + p11_rng_below(&rng, 80000)));
		assert_rv(p11->C_Finalize(NULL), CKR_OK);
		for (i = 0; i < NTHREAD; i++) {
			assert_int_equal(pthread_join(t[i], NULL), 0);
			if (r[i].wrong != 0)
				fail_msg("round %u thread %d: %s", round, i,
				    p11_rv_name(r[i].first_wrong));
			assert_int_equal(r[i].refused, 1);
			ok += r[i].ok;
			refused += r[i].refused;
		}
		/* After it: refused, and a second C_Finalize too. */
		assert_rv(p11->C_CloseSession(h), CKR_CRYPTOKI_NOT_INITIALIZED);
		assert_rv(p11->C_Finalize(NULL), CKR_CRYPTOKI_NOT_INITIALIZED);
	}
	printf("# %u rounds: %u calls completed, %u refused after "
	    "C_Finalize, none failed otherwise\n", ROUNDS, ok, refused);
	assert_true(ok > 0);
}

static int signing; /* atomic: TSan counts a volatile flag as a race */

#if defined(__SANITIZE_ADDRESS__)
/* Held by the signing thread around each call, and by fork()'s caller. */
static pthread_mutex_t fork_gate = PTHREAD_MUTEX_INITIALIZER;
#define GATE_LOCK() pthread_mutex_lock(&fork_gate)
#define GATE_UNLOCK() pthread_mutex_unlock(&fork_gate)
#else
#define GATE_LOCK() ((void)0)
#define GATE_UNLOCK() ((void)0)
#endif

/* Signs in its own session until told to stop; counts failures. */
static void *
sign_loop(void *arg)
{
	struct racer *r = arg;
	CK_RV rv;

	while (__atomic_load_n(&signing, __ATOMIC_ACQUIRE)) {
		GATE_LOCK();
		rv = sign_once(r->h, r->key);
		GATE_UNLOCK();
		if (rv == CKR_OK)
			r->ok++;
		else
			r->wrong++;
	}
	return NULL;
}

/* The child's part: exits with the number of the first check that
 * failed, 0 when all passed. */
static void
child_after_fork(CK_SESSION_HANDLE inherited, CK_OBJECT_HANDLE key)
{
	CK_SESSION_HANDLE h;
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;
	CK_TOKEN_INFO ti;
	uint8_t sig[64];
	CK_ULONG len = sizeof(sig);

	/* A child that hangs (a lock inherited from a thread the child
	 * does not have) fails the test instead of stopping it. The child
	 * takes well under a second; 120 s leaves room for a sanitizer
	 * build on a loaded machine (30 s was once exceeded there). */
	alarm(120);
	/* Nothing works before C_Initialize, not even the parent's
	 * sessions and operation. */
	if (p11->C_GetSlotList(CK_FALSE, ids, &n) !=
	    CKR_CRYPTOKI_NOT_INITIALIZED)
		_exit(1);
	if (p11->C_GetTokenInfo(slot, &ti) != CKR_CRYPTOKI_NOT_INITIALIZED)
		_exit(2);
	if (p11->C_Sign(inherited, (CK_BYTE_PTR)"m", 1, sig, &len) !=
	    CKR_CRYPTOKI_NOT_INITIALIZED)
		_exit(3);
	if (p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h) !=
	    CKR_CRYPTOKI_NOT_INITIALIZED)
		_exit(4);
	if (p11->C_Finalize(NULL) != CKR_CRYPTOKI_NOT_INITIALIZED)
		_exit(5);
	/* Then it starts afresh: not logged in, its own sessions. */
	if (p11->C_Initialize(NULL) != CKR_OK)
		_exit(6);
	if (p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h) !=
	    CKR_OK)
		_exit(7);
	if (sign_once(h, key) == CKR_OK)
		_exit(8); /* the parent's login did not come along */
	if (p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK)
		_exit(9);
	if (sign_once(h, find_signer(h)) != CKR_OK)
		_exit(10);
	if (p11->C_Finalize(NULL) != CKR_OK)
		_exit(11);
	_exit(0);
}

static void
test_fork_in_sessions(void **state)
{
	CK_MECHANISM m = { CKM_ECDSA_SHA256, NULL, 0 };
	struct racer busy;
	pthread_t t;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE key;
	uint8_t sig[64];
	CK_ULONG len = sizeof(sig);
	int k, status;

	(void)state;
	h = p11_open(CKF_RW_SESSION);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	key = signer(h);
	memset(&busy, 0, sizeof(busy));
	busy.h = p11_open(0);
	busy.key = key;
	__atomic_store_n(&signing, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_create(&t, NULL, sign_loop, &busy), 0);
	for (k = 0; k < NFORK; k++) {
		pid_t pid;

		/* An operation in progress across the fork. */
		assert_rv(p11->C_SignInit(h, &m, key), CKR_OK);
		usleep(5000);
		GATE_LOCK();
		pid = fork();
		GATE_UNLOCK();
		assert_true(pid >= 0);
		if (pid == 0)
			child_after_fork(h, key);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("child %d: %s %d", k,
			    WIFEXITED(status) ? "failed check" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status)
					      : WTERMSIG(status));
		/* The parent carries on where it was. */
		len = sizeof(sig);
		assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"message", 7, sig, &len),
		    CKR_OK);
		assert_int_equal(len, 64);
	}
	__atomic_store_n(&signing, 0, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(busy.wrong, 0);
	assert_true(busy.ok > 0);
	assert_rv(sign_once(h, key), CKR_OK);
	printf("# %d forks with an operation in progress and a thread "
	    "signing (%u signatures): children start afresh, the parent "
	    "carries on\n", NFORK, busy.ok);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_finalize_under_calls,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_in_sessions, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
