/*
 * Tokens, PINs and login through the function list: C_InitToken,
 * C_InitPIN, C_SetPIN, C_Login, C_LoginUser, C_Logout, the slot model,
 * PIN counters and lockout, persistence, and tokens made by another
 * process.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/p11/common.h"

#define SO_PIN "so-secret-1"
#define USER_PIN "user-pin-1"
#define RETRIES 3

static char dir[64];

static void
label32(CK_UTF8CHAR out[32], const char *s)
{
	memset(out, ' ', 32);
	memcpy(out, s, strlen(s));
}

/* Each test gets an empty data directory and a configuration with few
 * PIN retries, then initialises the module. */
static int
setup(void **state)
{
	char extra[96];

	(void)state;
	snprintf(extra, sizeof(extra), "user_pin_retries = %d\n"
	    "so_pin_retries = %d\npin_min_length = 4\n", RETRIES, RETRIES);
	return p11_fresh_module(dir, extra);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* Slot IDs in list order; returns the count. */
static CK_ULONG
slots(CK_SLOT_ID *ids, CK_ULONG max)
{
	CK_ULONG n = max;

	assert_rv(p11->C_GetSlotList(CK_FALSE, ids, &n), CKR_OK);
	return n;
}

static CK_FLAGS
token_flags(CK_SLOT_ID id)
{
	CK_TOKEN_INFO ti;

	assert_rv(p11->C_GetTokenInfo(id, &ti), CKR_OK);
	return ti.flags;
}

/* Initialises the empty (last) slot; returns its ID. */
static CK_SLOT_ID
init_token(const char *label)
{
	CK_SLOT_ID ids[16];
	CK_ULONG n = slots(ids, 16);
	CK_UTF8CHAR lab[32];

	label32(lab, label);
	assert_rv(p11->C_InitToken(ids[n - 1], (CK_UTF8CHAR_PTR)SO_PIN,
	    strlen(SO_PIN), lab), CKR_OK);
	return ids[n - 1];
}

static CK_SESSION_HANDLE
open_on(CK_SLOT_ID id, CK_FLAGS extra)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(id, CKF_SERIAL_SESSION | extra, NULL,
	    NULL, &h), CKR_OK);
	return h;
}

static CK_RV
login(CK_SESSION_HANDLE h, CK_USER_TYPE who, const char *pin)
{
	return p11->C_Login(h, who, (CK_UTF8CHAR_PTR)pin, strlen(pin));
}

/* A token with its user PIN set; returns the slot. */
static CK_SLOT_ID
ready_token(const char *label)
{
	CK_SLOT_ID id = init_token(label);
	CK_SESSION_HANDLE h = open_on(id, CKF_RW_SESSION);

	assert_rv(login(h, CKU_SO, SO_PIN), CKR_OK);
	assert_rv(p11->C_InitPIN(h, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN)), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	return id;
}

static CK_STATE
state_of(CK_SESSION_HANDLE h)
{
	CK_SESSION_INFO si;

	assert_rv(p11->C_GetSessionInfo(h, &si), CKR_OK);
	return si.state;
}

static void
test_slot_model(void **state)
{
	CK_SLOT_ID ids[16], id;
	CK_TOKEN_INFO ti;
	CK_ULONG n;
	char label[33];

	(void)state;
	n = slots(ids, 16);
	assert_int_equal(n, 1);
	assert_false(token_flags(ids[0]) & CKF_TOKEN_INITIALIZED);

	id = init_token("first");
	n = slots(ids, 16);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], id);
	assert_true(ids[1] > id);
	assert_rv(p11->C_GetTokenInfo(id, &ti), CKR_OK);
	assert_true(ti.flags & CKF_TOKEN_INITIALIZED);
	assert_false(ti.flags & CKF_USER_PIN_INITIALIZED);
	assert_true(p11_text_ok(ti.label, 32, label, sizeof(label)));
	assert_string_equal(label, "first");
	assert_true(p11_text_ok(ti.serialNumber, 16, label, sizeof(label)));
	assert_int_equal(strlen(label), 16);
	assert_false(token_flags(ids[1]) & CKF_TOKEN_INITIALIZED);

	/* A second token gets the next slot; IDs are never reused. */
	assert_int_equal(init_token("second"), ids[1]);
	assert_int_equal(slots(ids, 16), 3);
}

static void
test_init_token_errors(void **state)
{
	CK_SLOT_ID ids[16];
	CK_UTF8CHAR lab[32];
	CK_SESSION_HANDLE h;
	CK_ULONG n = slots(ids, 16);

	(void)state;
	label32(lab, "x");
	assert_rv(p11->C_InitToken(ids[0], NULL, 4, lab), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_InitToken(ids[0], (CK_UTF8CHAR_PTR)SO_PIN, 4, NULL),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_InitToken(9999, (CK_UTF8CHAR_PTR)SO_PIN,
	    strlen(SO_PIN), lab), CKR_SLOT_ID_INVALID);
	assert_rv(p11->C_InitToken(ids[n - 1], (CK_UTF8CHAR_PTR)"abc", 3,
	    lab), CKR_PIN_LEN_RANGE);
	h = open_on(ids[n - 1], 0);
	assert_rv(p11->C_InitToken(ids[n - 1], (CK_UTF8CHAR_PTR)SO_PIN,
	    strlen(SO_PIN), lab), CKR_SESSION_EXISTS);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	/* Login on the uninitialised token. */
	h = open_on(ids[n - 1], CKF_RW_SESSION);
	assert_rv(login(h, CKU_USER, USER_PIN), CKR_USER_PIN_NOT_INITIALIZED);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_so_and_init_pin(void **state)
{
	CK_SLOT_ID id = init_token("so");
	CK_SESSION_HANDLE ro, rw;

	(void)state;
	ro = open_on(id, 0);
	rw = open_on(id, CKF_RW_SESSION);
	assert_rv(login(rw, CKU_USER, USER_PIN), CKR_USER_PIN_NOT_INITIALIZED);
	assert_rv(p11->C_InitPIN(rw, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN)), CKR_USER_NOT_LOGGED_IN);
	assert_rv(login(rw, CKU_SO, SO_PIN), CKR_SESSION_READ_ONLY_EXISTS);
	assert_rv(p11->C_CloseSession(ro), CKR_OK);
	assert_rv(p11->C_Login(rw, CKU_SO, NULL, 4), CKR_ARGUMENTS_BAD);
	assert_rv(login(rw, 77, SO_PIN), CKR_USER_TYPE_INVALID);
	assert_rv(login(rw, CKU_SO, SO_PIN), CKR_OK);
	assert_int_equal(state_of(rw), CKS_RW_SO_FUNCTIONS);
	assert_rv(login(rw, CKU_SO, SO_PIN), CKR_USER_ALREADY_LOGGED_IN);
	assert_rv(login(rw, CKU_USER, USER_PIN),
	    CKR_USER_ANOTHER_ALREADY_LOGGED_IN);
	assert_rv(p11->C_OpenSession(id, CKF_SERIAL_SESSION, NULL, NULL, &ro),
	    CKR_SESSION_READ_WRITE_SO_EXISTS);
	assert_rv(p11->C_InitPIN(rw, (CK_UTF8CHAR_PTR)"abc", 3),
	    CKR_PIN_LEN_RANGE);
	assert_rv(p11->C_InitPIN(rw, NULL, 4), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_InitPIN(rw, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN)), CKR_OK);
	assert_true(token_flags(id) & CKF_USER_PIN_INITIALIZED);
	assert_rv(p11->C_Logout(rw), CKR_OK);
	assert_rv(p11->C_Logout(rw), CKR_USER_NOT_LOGGED_IN);
	assert_int_equal(state_of(rw), CKS_RW_PUBLIC_SESSION);

	assert_rv(login(rw, CKU_USER, USER_PIN), CKR_OK);
	assert_int_equal(state_of(rw), CKS_RW_USER_FUNCTIONS);
	/* Login is shared by all the application's sessions. */
	ro = open_on(id, 0);
	assert_int_equal(state_of(ro), CKS_RO_USER_FUNCTIONS);
	assert_rv(login(ro, CKU_USER, USER_PIN), CKR_USER_ALREADY_LOGGED_IN);
	/* Closing the last session logs out. */
	assert_rv(p11->C_CloseSession(ro), CKR_OK);
	assert_rv(p11->C_CloseSession(rw), CKR_OK);
	rw = open_on(id, CKF_RW_SESSION);
	assert_int_equal(state_of(rw), CKS_RW_PUBLIC_SESSION);
	assert_rv(p11->C_LoginUser(rw, CKU_USER, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN), (CK_UTF8CHAR_PTR)"anyone", 6), CKR_OK);
	assert_rv(p11->C_Logout(rw), CKR_OK);
	assert_rv(p11->C_LoginUser(rw, CKU_USER, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN), NULL, 3), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_CloseSession(rw), CKR_OK);
}

static void
test_user_lockout(void **state)
{
	CK_SLOT_ID id = ready_token("lockout");
	CK_SESSION_HANDLE h = open_on(id, CKF_RW_SESSION);
	CK_FLAGS f;
	int i;

	(void)state;
	assert_false(token_flags(id) & CKF_USER_PIN_COUNT_LOW);
	assert_rv(login(h, CKU_USER, "wrong-pin"), CKR_PIN_INCORRECT);
	f = token_flags(id);
	assert_true(f & CKF_USER_PIN_COUNT_LOW);
	assert_false(f & CKF_USER_PIN_FINAL_TRY);
	/* A right PIN resets the counter. */
	assert_rv(login(h, CKU_USER, USER_PIN), CKR_OK);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_false(token_flags(id) & CKF_USER_PIN_COUNT_LOW);

	for (i = 0; i < RETRIES - 1; i++)
		assert_rv(login(h, CKU_USER, "wrong-pin"), CKR_PIN_INCORRECT);
	assert_true(token_flags(id) & CKF_USER_PIN_FINAL_TRY);
	/* Too short or too long counts as wrong, too. */
	assert_rv(login(h, CKU_USER, "x"), CKR_PIN_INCORRECT);
	f = token_flags(id);
	assert_true(f & CKF_USER_PIN_LOCKED);
	assert_rv(login(h, CKU_USER, USER_PIN), CKR_PIN_LOCKED);

	/* The SO resets it by setting the PIN again. */
	assert_rv(login(h, CKU_SO, SO_PIN), CKR_OK);
	assert_rv(p11->C_InitPIN(h, (CK_UTF8CHAR_PTR)"fresh-pin", 9), CKR_OK);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_false(token_flags(id) & CKF_USER_PIN_LOCKED);
	assert_rv(login(h, CKU_USER, USER_PIN), CKR_PIN_INCORRECT);
	assert_rv(login(h, CKU_USER, "fresh-pin"), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_so_lockout(void **state)
{
	CK_SLOT_ID id = init_token("so lockout");
	CK_SESSION_HANDLE h = open_on(id, CKF_RW_SESSION);
	CK_UTF8CHAR lab[32];
	int i;

	(void)state;
	for (i = 0; i < RETRIES; i++)
		assert_rv(login(h, CKU_SO, "not-the-pin"), CKR_PIN_INCORRECT);
	assert_true(token_flags(id) & CKF_SO_PIN_LOCKED);
	assert_rv(login(h, CKU_SO, SO_PIN), CKR_PIN_LOCKED);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	label32(lab, "again");
	assert_rv(p11->C_InitToken(id, (CK_UTF8CHAR_PTR)SO_PIN,
	    strlen(SO_PIN), lab), CKR_PIN_LOCKED);
}

static void
test_set_pin(void **state)
{
	CK_SLOT_ID id = ready_token("setpin");
	CK_SESSION_HANDLE ro = open_on(id, 0), rw = open_on(id, CKF_RW_SESSION);

	(void)state;
	assert_rv(p11->C_SetPIN(ro, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN), (CK_UTF8CHAR_PTR)"new-pin-2", 9),
	    CKR_SESSION_READ_ONLY);
	assert_rv(p11->C_SetPIN(rw, NULL, 0, (CK_UTF8CHAR_PTR)"x", 1),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_SetPIN(rw, (CK_UTF8CHAR_PTR)"wrong", 5,
	    (CK_UTF8CHAR_PTR)"new-pin-2", 9), CKR_PIN_INCORRECT);
	assert_rv(p11->C_SetPIN(rw, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN), (CK_UTF8CHAR_PTR)"n", 1), CKR_PIN_LEN_RANGE);
	/* In a public session C_SetPIN changes the user PIN. */
	assert_rv(p11->C_SetPIN(rw, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN), (CK_UTF8CHAR_PTR)"new-pin-2", 9), CKR_OK);
	assert_rv(login(rw, CKU_USER, USER_PIN), CKR_PIN_INCORRECT);
	assert_rv(login(rw, CKU_USER, "new-pin-2"), CKR_OK);
	assert_rv(p11->C_Logout(rw), CKR_OK);
	assert_rv(p11->C_CloseSession(ro), CKR_OK);
	/* The SO changes the SO PIN. */
	assert_rv(login(rw, CKU_SO, SO_PIN), CKR_OK);
	assert_rv(p11->C_SetPIN(rw, (CK_UTF8CHAR_PTR)SO_PIN, strlen(SO_PIN),
	    (CK_UTF8CHAR_PTR)"new-so-pin", 10), CKR_OK);
	assert_rv(p11->C_Logout(rw), CKR_OK);
	assert_rv(login(rw, CKU_SO, SO_PIN), CKR_PIN_INCORRECT);
	assert_rv(login(rw, CKU_SO, "new-so-pin"), CKR_OK);
	assert_rv(p11->C_CloseSession(rw), CKR_OK);
}

static void
test_reinit(void **state)
{
	CK_SLOT_ID id = ready_token("before");
	CK_SESSION_HANDLE h;
	CK_TOKEN_INFO a, b;
	CK_UTF8CHAR lab[32];
	char text[33];

	(void)state;
	assert_rv(p11->C_GetTokenInfo(id, &a), CKR_OK);
	label32(lab, "after");
	h = open_on(id, 0);
	assert_rv(p11->C_InitToken(id, (CK_UTF8CHAR_PTR)SO_PIN,
	    strlen(SO_PIN), lab), CKR_SESSION_EXISTS);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	assert_rv(p11->C_InitToken(id, (CK_UTF8CHAR_PTR)"wrong-so", 8, lab),
	    CKR_PIN_INCORRECT);
	assert_true(token_flags(id) & CKF_SO_PIN_COUNT_LOW);
	assert_rv(p11->C_InitToken(id, (CK_UTF8CHAR_PTR)SO_PIN,
	    strlen(SO_PIN), lab), CKR_OK);
	assert_rv(p11->C_GetTokenInfo(id, &b), CKR_OK);
	assert_true(p11_text_ok(b.label, 32, text, sizeof(text)));
	assert_string_equal(text, "after");
	assert_memory_not_equal(a.serialNumber, b.serialNumber, 16);
	assert_false(b.flags & CKF_USER_PIN_INITIALIZED);
	assert_false(b.flags & CKF_SO_PIN_COUNT_LOW);
	h = open_on(id, CKF_RW_SESSION);
	assert_rv(login(h, CKU_USER, USER_PIN), CKR_USER_PIN_NOT_INITIALIZED);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_persistence(void **state)
{
	CK_SLOT_ID id = ready_token("persist"), ids[16];
	CK_SESSION_HANDLE h;

	(void)state;
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_int_equal(slots(ids, 16), 2);
	assert_int_equal(ids[0], id);
	h = open_on(id, 0);
	assert_rv(login(h, CKU_USER, USER_PIN), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

/* Another process creates a token: it shows at our next C_GetSlotList,
 * with the slot ID that process saw. */
static void
test_other_process(void **state)
{
	CK_SLOT_ID ids[16], theirs;
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(slots(ids, 16), 1);
	theirs = ids[0];
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		CK_UTF8CHAR lab[32];

		label32(lab, "from child");
		_exit(p11->C_Initialize(NULL) != CKR_OK ||
		    p11->C_InitToken(theirs, (CK_UTF8CHAR_PTR)SO_PIN,
			strlen(SO_PIN), lab) != CKR_OK ||
		    p11->C_Finalize(NULL) != CKR_OK);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(slots(ids, 16), 2);
	assert_int_equal(ids[0], theirs);
	assert_true(token_flags(theirs) & CKF_TOKEN_INITIALIZED);
	assert_true(ids[1] > theirs);
}

/* PINs are never stored: neither appears in the database files. */
static void
test_pin_not_stored(void **state)
{
	char cmd[256];

	(void)state;
	ready_token("nopin");
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	/* The files are there (so the search below means something). */
	snprintf(cmd, sizeof(cmd), "test -s '%s'/vgtoken/vgtoken.db", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd),
	    "cat '%s'/vgtoken/vgtoken.db* | grep -aqe '%s' -e '%s'", dir,
	    SO_PIN, USER_PIN);
	assert_int_not_equal(system(cmd), 0);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_slot_model, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_init_token_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_so_and_init_pin, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_user_lockout, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_so_lockout, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_set_pin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reinit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_persistence, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_other_process, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_pin_not_stored, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
