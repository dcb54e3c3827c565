/*
 * General-purpose functions [PKCS#11 3.2 §5.4]: C_Initialize with each
 * kind of argument, C_Finalize, C_GetInfo, the state before C_Initialize,
 * and the fork() rule.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"

static const CK_BYTE abc_sha256[32] = {
	0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
	0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
	0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
};

/* Opens a session and runs a few calls that take locks: one-shot and
 * multi-part SHA-256 of "abc", random bytes, session info. */
static void
exercise(void)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h = p11_open(CKF_RW_SESSION);
	CK_SESSION_INFO si;
	CK_BYTE out[32], rnd[16];
	CK_ULONG len = sizeof(out);

	assert_rv(p11->C_DigestInit(h, &mech), CKR_OK);
	assert_rv(p11->C_Digest(h, (CK_BYTE_PTR)"abc", 3, out, &len), CKR_OK);
	assert_int_equal(len, 32);
	assert_memory_equal(out, abc_sha256, 32);
	assert_rv(p11->C_DigestInit(h, &mech), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"a", 1), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"bc", 2), CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_DigestFinal(h, out, &len), CKR_OK);
	assert_memory_equal(out, abc_sha256, 32);
	assert_rv(p11->C_GenerateRandom(h, rnd, sizeof(rnd)), CKR_OK);
	assert_rv(p11->C_GetSessionInfo(h, &si), CKR_OK);
	assert_int_equal(si.state, CKS_RW_PUBLIC_SESSION);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* ------------------------------------------------ application mutexes */

#define MUTEX_MAGIC 0x6d757478UL

struct app_mutex {
	unsigned long magic;
	pthread_mutex_t m;
	int locked;
};

static struct {
	unsigned long create, destroy, lock, unlock, errors;
} calls;

static CK_RV
app_create(CK_VOID_PTR_PTR pp)
{
	struct app_mutex *m;

	if (pp == NULL) {
		calls.errors++;
		return CKR_ARGUMENTS_BAD;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return CKR_HOST_MEMORY;
	m->magic = MUTEX_MAGIC;
	pthread_mutex_init(&m->m, NULL);
	calls.create++;
	*pp = m;
	return CKR_OK;
}

static CK_RV
app_destroy(CK_VOID_PTR p)
{
	struct app_mutex *m = p;

	if (m == NULL || m->magic != MUTEX_MAGIC || m->locked) {
		calls.errors++;
		return CKR_MUTEX_BAD;
	}
	m->magic = 0;
	pthread_mutex_destroy(&m->m);
	free(m);
	calls.destroy++;
	return CKR_OK;
}

static CK_RV
app_lock(CK_VOID_PTR p)
{
	struct app_mutex *m = p;

	if (m == NULL || m->magic != MUTEX_MAGIC) {
		calls.errors++;
		return CKR_MUTEX_BAD;
	}
	pthread_mutex_lock(&m->m);
	m->locked = 1;
	calls.lock++;
	return CKR_OK;
}

static CK_RV
app_unlock(CK_VOID_PTR p)
{
	struct app_mutex *m = p;

	if (m == NULL || m->magic != MUTEX_MAGIC) {
		calls.errors++;
		return CKR_MUTEX_BAD;
	}
	if (!m->locked) {
		calls.errors++;
		return CKR_MUTEX_NOT_LOCKED;
	}
	m->locked = 0;
	calls.unlock++;
	pthread_mutex_unlock(&m->m);
	return CKR_OK;
}

/* ------------------------------------------------------------ tests */

static void
test_init_null(void **state)
{
	CK_INFO info;
	int dummy;

	(void)state;
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(p11->C_Initialize(NULL), CKR_CRYPTOKI_ALREADY_INITIALIZED);
	assert_rv(p11_240->C_Initialize(NULL),
	    CKR_CRYPTOKI_ALREADY_INITIALIZED);
	assert_rv(p11->C_Finalize(&dummy), CKR_ARGUMENTS_BAD);
	/* Still initialised after the refused C_Finalize. */
	assert_rv(p11->C_GetInfo(&info), CKR_OK);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_rv(p11->C_Finalize(NULL), CKR_CRYPTOKI_NOT_INITIALIZED);
	assert_rv(p11->C_GetInfo(&info), CKR_CRYPTOKI_NOT_INITIALIZED);
}

static void
test_init_os_locking(void **state)
{
	CK_C_INITIALIZE_ARGS a = { NULL, NULL, NULL, NULL, CKF_OS_LOCKING_OK,
		NULL };

	(void)state;
	assert_rv(p11->C_Initialize(&a), CKR_OK);
	assert_rv(p11->C_Initialize(&a), CKR_CRYPTOKI_ALREADY_INITIALIZED);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

static void
test_init_cant_create_threads(void **state)
{
	CK_C_INITIALIZE_ARGS a = { NULL, NULL, NULL, NULL,
		CKF_OS_LOCKING_OK | CKF_LIBRARY_CANT_CREATE_OS_THREADS, NULL };
	CK_C_INITIALIZE_ARGS b = { NULL, NULL, NULL, NULL,
		CKF_LIBRARY_CANT_CREATE_OS_THREADS, NULL };
	CK_C_INITIALIZE_ARGS none = { NULL, NULL, NULL, NULL, 0, NULL };

	(void)state;
	assert_rv(p11->C_Initialize(&a), CKR_OK);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	/* The library never creates threads, so the flag alone is fine. */
	assert_rv(p11->C_Initialize(&b), CKR_OK);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	/* No flags and no callbacks: single-threaded use. */
	assert_rv(p11->C_Initialize(&none), CKR_OK);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

static void
test_init_app_mutexes(void **state)
{
	CK_C_INITIALIZE_ARGS a = { app_create, app_destroy, app_lock,
		app_unlock, 0, NULL };

	(void)state;
	memset(&calls, 0, sizeof(calls));
	assert_rv(p11->C_Initialize(&a), CKR_OK);
	assert_true(calls.create >= 1);
	exercise();
	exercise();
	/* The module used our mutexes, and released each lock it took. */
	assert_true(calls.lock >= 1);
	assert_int_equal(calls.lock, calls.unlock);
	assert_int_equal(calls.errors, 0);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_int_equal(calls.destroy, calls.create);
	assert_int_equal(calls.lock, calls.unlock);
	assert_int_equal(calls.errors, 0);

	/* With CKF_OS_LOCKING_OK as well, the library may use either; it
	 * must work and stay balanced. */
	memset(&calls, 0, sizeof(calls));
	a.flags = CKF_OS_LOCKING_OK;
	assert_rv(p11->C_Initialize(&a), CKR_OK);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_int_equal(calls.destroy, calls.create);
	assert_int_equal(calls.lock, calls.unlock);
	assert_int_equal(calls.errors, 0);

	/* A later C_Initialize(NULL) stops using the callbacks. */
	memset(&calls, 0, sizeof(calls));
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_int_equal(calls.create + calls.lock + calls.unlock +
		calls.destroy,
	    0);
}

static void
test_init_partial_callbacks(void **state)
{
	CK_INFO info;
	unsigned mask;

	(void)state;
	/* Every proper, non-empty subset of the four callbacks. */
	for (mask = 1; mask < 15; mask++) {
		CK_C_INITIALIZE_ARGS a = { (mask & 1) ? app_create : NULL,
			(mask & 2) ? app_destroy : NULL,
			(mask & 4) ? app_lock : NULL,
			(mask & 8) ? app_unlock : NULL, 0, NULL };

		memset(&calls, 0, sizeof(calls));
		assert_rv(p11->C_Initialize(&a), CKR_ARGUMENTS_BAD);
		a.flags = CKF_OS_LOCKING_OK;
		assert_rv(p11->C_Initialize(&a), CKR_ARGUMENTS_BAD);
		assert_rv(p11->C_GetInfo(&info), CKR_CRYPTOKI_NOT_INITIALIZED);
		assert_int_equal(calls.create, 0);
	}
}

static void
test_init_reserved(void **state)
{
	int dummy;
	CK_C_INITIALIZE_ARGS a = { NULL, NULL, NULL, NULL, CKF_OS_LOCKING_OK,
		&dummy };
	CK_C_INITIALIZE_ARGS b = { app_create, app_destroy, app_lock,
		app_unlock, 0, &dummy };
	CK_INFO info;

	(void)state;
	assert_rv(p11->C_Initialize(&a), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GetInfo(&info), CKR_CRYPTOKI_NOT_INITIALIZED);
	memset(&calls, 0, sizeof(calls));
	assert_rv(p11->C_Initialize(&b), CKR_ARGUMENTS_BAD);
	assert_int_equal(calls.create, 0);
	assert_rv(p11->C_GetInfo(&info), CKR_CRYPTOKI_NOT_INITIALIZED);
}

static void
test_finalize_args(void **state)
{
	int dummy;

	(void)state;
	assert_rv(p11->C_Finalize(NULL), CKR_CRYPTOKI_NOT_INITIALIZED);
	assert_rv(p11->C_Finalize(&dummy), CKR_CRYPTOKI_NOT_INITIALIZED);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(p11->C_Finalize(&dummy), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_rv(p11->C_Finalize(NULL), CKR_CRYPTOKI_NOT_INITIALIZED);
}

static void
test_cycles(void **state)
{
	CK_SESSION_HANDLE h;
	CK_SESSION_INFO si;
	CK_TOKEN_INFO ti;
	int i;

	(void)state;
	for (i = 0; i < 50; i++) {
		assert_rv(p11->C_Initialize(NULL), CKR_OK);
		h = p11_open(i & 1 ? CKF_RW_SESSION : 0);
		assert_rv(p11->C_GetSessionInfo(h, &si), CKR_OK);
		/* Sessions left open are closed by C_Finalize. */
		assert_rv(p11->C_Finalize(NULL), CKR_OK);
		assert_rv(p11->C_GetSessionInfo(h, &si),
		    CKR_CRYPTOKI_NOT_INITIALIZED);
	}
	/* No session survives into the next initialisation. */
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(p11->C_GetTokenInfo(p11_slot(), &ti), CKR_OK);
	assert_int_equal(ti.ulSessionCount, 0);
	assert_int_equal(ti.ulRwSessionCount, 0);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

/* Calls every function the token implements with plausible arguments
 * (and a few it does not) and asserts each answers want. */
static void
call_all(CK_RV want)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_INFO info;
	CK_SLOT_INFO si;
	CK_TOKEN_INFO ti;
	CK_MECHANISM_INFO mi;
	CK_SESSION_INFO ses;
	CK_SLOT_ID slot = 0, slots[4];
	CK_SESSION_HANDLE h = 1;
	CK_BYTE buf[64];
	CK_ULONG n = 4, len = sizeof(buf);
	CK_MECHANISM_TYPE mechs[32];

	assert_rv(p11->C_GetInfo(&info), want);
	assert_rv(p11->C_GetSlotList(CK_TRUE, NULL, &n), want);
	n = 4;
	assert_rv(p11->C_GetSlotList(CK_FALSE, slots, &n), want);
	assert_rv(p11->C_GetSlotInfo(0, &si), want);
	assert_rv(p11->C_GetTokenInfo(0, &ti), want);
	n = 32;
	assert_rv(p11->C_GetMechanismList(0, mechs, &n), want);
	assert_rv(p11->C_GetMechanismInfo(0, CKM_SHA256, &mi), want);
	assert_rv(p11->C_WaitForSlotEvent(CKF_DONT_BLOCK, &slot, NULL), want);
	assert_rv(p11->C_OpenSession(0, CKF_SERIAL_SESSION, NULL, NULL, &h),
	    want);
	h = 1;
	assert_rv(p11->C_CloseSession(h), want);
	assert_rv(p11->C_CloseAllSessions(0), want);
	assert_rv(p11->C_GetSessionInfo(h, &ses), want);
	assert_rv(p11->C_SessionCancel(h, CKF_DIGEST), want);
	assert_rv(p11->C_GetOperationState(h, NULL, &len), want);
	assert_rv(p11->C_SetOperationState(h, buf, 8, 0, 0), want);
	assert_rv(p11->C_DigestInit(h, &mech), want);
	assert_rv(p11->C_Digest(h, buf, 3, buf, &len), want);
	assert_rv(p11->C_DigestUpdate(h, buf, 3), want);
	assert_rv(p11->C_DigestKey(h, 1), want);
	len = sizeof(buf);
	assert_rv(p11->C_DigestFinal(h, buf, &len), want);
	assert_rv(p11->C_SeedRandom(h, buf, 8), want);
	assert_rv(p11->C_GenerateRandom(h, buf, 8), want);
	assert_rv(p11->C_GetFunctionStatus(h), want);
	assert_rv(p11->C_CancelFunction(h), want);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)"1234", 4), want);
	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), want);
	assert_rv(p11->C_Finalize(NULL), want);
}

static void
test_not_initialized(void **state)
{
	CK_SESSION_HANDLE h;

	(void)state;
	call_all(CKR_CRYPTOKI_NOT_INITIALIZED);
	/* ... and again after a C_Finalize. */
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = p11_open(0);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	call_all(CKR_CRYPTOKI_NOT_INITIALIZED);
	assert_rv(p11->C_CloseSession(h), CKR_CRYPTOKI_NOT_INITIALIZED);

	/* The interface functions need no initialisation. */
	{
		CK_FUNCTION_LIST_PTR l = NULL;
		CK_ULONG n = 0;

		assert_rv(p11_sym_GetFunctionList(&l), CKR_OK);
		assert_rv(p11_sym_GetInterfaceList(NULL, &n), CKR_OK);
	}
}

static void
test_legacy_parallel(void **state)
{
	CK_SESSION_HANDLE h;

	(void)state;
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = p11_open(0);
	/* [PKCS#11 3.2 §5.18]: legacy functions. */
	assert_rv(p11->C_GetFunctionStatus(h), CKR_FUNCTION_NOT_PARALLEL);
	assert_rv(p11->C_CancelFunction(h), CKR_FUNCTION_NOT_PARALLEL);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

static void
test_get_info(void **state)
{
	CK_INFO info;
	char text[33];

	(void)state;
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(p11->C_GetInfo(NULL), CKR_ARGUMENTS_BAD);
	memset(&info, 0, sizeof(info));
	assert_rv(p11->C_GetInfo(&info), CKR_OK);
	assert_int_equal(info.cryptokiVersion.major, 3);
	assert_int_equal(info.cryptokiVersion.minor, 2);
	assert_int_equal(info.flags, 0);
	assert_true(p11_text_ok(info.manufacturerID,
	    sizeof(info.manufacturerID), text, sizeof(text)));
	assert_string_equal(text, "vgtoken");
	assert_text_field(info.manufacturerID);
	assert_text_field(info.libraryDescription);
	assert_true(p11_text_ok(info.libraryDescription,
	    sizeof(info.libraryDescription), text, sizeof(text)));
	assert_true(strlen(text) > 0);
	/* The 2.40 table reaches the same function. */
	assert_ptr_equal(p11_240->C_GetInfo, p11->C_GetInfo);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

/* The fork() child: what it checks, each step with its own exit code. */
static int
child_checks(void)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h = CK_INVALID_HANDLE;
	CK_SLOT_ID slots[4];
	CK_ULONG n = 4;
	CK_INFO info;
	CK_BYTE out[32];
	CK_ULONG len = sizeof(out);

	/* The parent's initialisation does not carry over. */
	if (p11->C_GetInfo(&info) != CKR_CRYPTOKI_NOT_INITIALIZED)
		return 10;
	if (p11->C_OpenSession(0, CKF_SERIAL_SESSION, NULL, NULL, &h) !=
	    CKR_CRYPTOKI_NOT_INITIALIZED)
		return 11;
	if (p11->C_Finalize(NULL) != CKR_CRYPTOKI_NOT_INITIALIZED)
		return 12;
	if (p11->C_Initialize(NULL) != CKR_OK)
		return 13;
	if (p11->C_GetInfo(&info) != CKR_OK)
		return 14;
	if (p11->C_GetSlotList(CK_TRUE, slots, &n) != CKR_OK || n < 1)
		return 15;
	if (p11->C_OpenSession(slots[0], CKF_SERIAL_SESSION, NULL, NULL,
		&h) != CKR_OK)
		return 16;
	if (p11->C_DigestInit(h, &mech) != CKR_OK)
		return 17;
	if (p11->C_Digest(h, (CK_BYTE_PTR)"abc", 3, out, &len) != CKR_OK ||
	    len != 32 || memcmp(out, abc_sha256, 32) != 0)
		return 18;
	if (p11->C_Finalize(NULL) != CKR_OK)
		return 19;
	return 0;
}

static void
test_fork(void **state)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h, h2;
	CK_SESSION_INFO si;
	CK_BYTE out[32];
	CK_ULONG len = sizeof(out);
	int status = -1;
	pid_t pid;

	(void)state;
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = p11_open(CKF_RW_SESSION);
	h2 = p11_open(0);
	/* An operation in flight across the fork. */
	assert_rv(p11->C_DigestInit(h, &mech), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"a", 1), CKR_OK);

	pid = fork();
	assert_true(pid >= 0);
	/* _exit(): the child's C_Initialize leaves behind, on purpose, the
	 * SQLite connection it inherited (a child must neither use nor close
	 * it), so the child skips the exit handlers, LeakSanitizer's among
	 * them, and cmocka's state stays the parent's. */
	if (pid == 0)
		_exit(child_checks());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status))
		fail_msg("the child did not exit (status 0x%x)", status);
	if (WEXITSTATUS(status) != 0)
		fail_msg("the child failed at step %d", WEXITSTATUS(status));

	/* The parent's sessions are untouched. */
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"bc", 2), CKR_OK);
	assert_rv(p11->C_DigestFinal(h, out, &len), CKR_OK);
	assert_int_equal(len, 32);
	assert_memory_equal(out, abc_sha256, 32);
	assert_rv(p11->C_GetSessionInfo(h, &si), CKR_OK);
	assert_int_equal(si.state, CKS_RW_PUBLIC_SESSION);
	assert_rv(p11->C_GetSessionInfo(h2, &si), CKR_OK);
	assert_int_equal(si.state, CKS_RO_PUBLIC_SESSION);
	exercise();
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

/* Each test initialises and finalises the library itself; the teardown
 * finalises what a failed test left behind. */
#define T(f) cmocka_unit_test_teardown(f, p11_group_fini)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_not_initialized),
		T(test_init_null),
		T(test_init_os_locking),
		T(test_init_cant_create_threads),
		T(test_init_app_mutexes),
		T(test_init_partial_callbacks),
		T(test_init_reserved),
		T(test_finalize_args),
		T(test_cycles),
		T(test_legacy_parallel),
		T(test_get_info),
		T(test_fork),
	};

	return cmocka_run_group_tests_name("p11 general", tests,
	    p11_group_load, p11_group_fini);
}
