/*
 * PIN guessing across processes: the retry counter and the lockout live
 * in the database, so they hold whichever process guesses, across
 * restarts of the module, when several processes guess at once, and when
 * a process is killed while it derives the key of a wrong PIN (the try is
 * spent before the derivation starts). The last is timed by the database
 * itself, not by the clock, so that a loaded machine cannot move the kill.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/p11/common.h"

#define RETRIES 5
#define WRONG_PIN "wrong-pin-9"

static char dir[64];
static CK_SLOT_ID slot;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
setup_with(const char *iterations)
{
	char extra[160];

	snprintf(extra, sizeof(extra), "user_pin_retries = %d\n"
	    "so_pin_retries = %d\nbusy_timeout_ms = 30000\n%s", RETRIES,
	    RETRIES, iterations);
	return p11_fresh_token(dir, extra, "guess", &slot);
}

static int
setup(void **state)
{
	(void)state;
	return setup_with("");
}

/* A PIN key derivation slow enough for a kill to land inside it. */
static int
setup_slow(void **state)
{
	(void)state;
	return setup_with("pbkdf2_iterations = 400000\n");
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static CK_FLAGS
user_flags(void)
{
	CK_TOKEN_INFO ti;

	assert_rv(p11->C_GetTokenInfo(slot, &ti), CKR_OK);
	return ti.flags & (CKF_USER_PIN_COUNT_LOW | CKF_USER_PIN_FINAL_TRY |
	    CKF_USER_PIN_LOCKED);
}

/* One user login in this process, on a session of its own. */
static CK_RV
login_once(const char *pin)
{
	CK_SESSION_HANDLE h;
	CK_RV rv;

	rv = p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h);
	if (rv != CKR_OK)
		return rv;
	rv = p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)pin, strlen(pin));
	p11->C_CloseSession(h);
	return rv;
}

/* Starts a process that initialises the module afresh and logs in once
 * with pin; its result comes back on *fd. When ready is not NULL the
 * child writes one byte there just before C_Login. */
static pid_t
spawn_login(const char *pin, int *fd, int ready[2])
{
	int fds[2];
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		CK_SESSION_HANDLE h;
		CK_RV rv;

		close(fds[0]);
		rv = p11->C_Initialize(NULL);
		if (rv == CKR_OK)
			rv = p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL,
			    NULL, &h);
		if (rv == CKR_OK && ready != NULL &&
		    write(ready[1], "x", 1) != 1)
			rv = CKR_GENERAL_ERROR;
		if (rv == CKR_OK)
			rv = p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)pin,
			    strlen(pin));
		if (write(fds[1], &rv, sizeof(rv)) != (ssize_t)sizeof(rv))
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	*fd = fds[0];
	return pid;
}

static CK_RV
collect(pid_t pid, int fd)
{
	CK_RV rv = CKR_GENERAL_ERROR;
	int status;

	if (read(fd, &rv, sizeof(rv)) != (ssize_t)sizeof(rv))
		rv = CKR_GENERAL_ERROR;
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return rv;
}

/* Logs in once with pin in a new process; returns the result. */
static CK_RV
login_in_child(const char *pin)
{
	int fd;
	pid_t pid = spawn_login(pin, &fd, NULL);

	return collect(pid, fd);
}

/* Restarts the module in this process: the state comes back from disk. */
static void
restart(void)
{
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
}

static void
test_counter_across_processes(void **state)
{
	int i;

	(void)state;
	assert_int_equal(user_flags(), 0);
	/* Two wrong guesses, then the right PIN elsewhere resets the count. */
	assert_rv(login_in_child(WRONG_PIN), CKR_PIN_INCORRECT);
	assert_rv(login_in_child(WRONG_PIN), CKR_PIN_INCORRECT);
	assert_int_equal(user_flags(), CKF_USER_PIN_COUNT_LOW);
	assert_rv(login_in_child(P11_USER_PIN), CKR_OK);
	assert_int_equal(user_flags(), 0);

	/* RETRIES wrong guesses, each from its own process, with restarts
	 * of this one in between: the last try is flagged, then locked. */
	for (i = 1; i <= RETRIES; i++) {
		assert_rv(login_in_child(WRONG_PIN), CKR_PIN_INCORRECT);
		restart();
		if (i == RETRIES - 1)
			assert_true(user_flags() & CKF_USER_PIN_FINAL_TRY);
	}
	assert_true(user_flags() & CKF_USER_PIN_LOCKED);
	assert_rv(login_in_child(P11_USER_PIN), CKR_PIN_LOCKED);
	assert_rv(login_once(P11_USER_PIN), CKR_PIN_LOCKED);
	restart();
	assert_rv(login_once(P11_USER_PIN), CKR_PIN_LOCKED);
	printf("# locked after %d wrong PINs from %d processes\n", RETRIES,
	    RETRIES + 2);
}

/* Eight processes guess at once: exactly RETRIES guesses are judged, the
 * others find the PIN locked. */
static void
test_concurrent_guesses(void **state)
{
	enum { N = 8 };
	int fds[N], incorrect = 0, locked = 0, i;
	pid_t pids[N];

	(void)state;
	for (i = 0; i < N; i++)
		pids[i] = spawn_login(WRONG_PIN, &fds[i], NULL);
	for (i = 0; i < N; i++) {
		CK_RV rv = collect(pids[i], fds[i]);

		if (rv == CKR_PIN_INCORRECT)
			incorrect++;
		else if (rv == CKR_PIN_LOCKED)
			locked++;
		else
			fail_msg("guess %d: %s", i, p11_rv_name(rv));
	}
	assert_int_equal(incorrect, RETRIES);
	assert_int_equal(locked, N - RETRIES);
	assert_true(user_flags() & CKF_USER_PIN_LOCKED);
	assert_rv(login_in_child(P11_USER_PIN), CKR_PIN_LOCKED);
}

/* The user PIN's failure count as stored, read with a connection of
 * this test's own; -1 when it cannot be read. */
static long
stored_fails(void)
{
	char path[128];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	long n = -1;

	snprintf(path, sizeof(path), "%s/vgtoken/vgtoken.db", dir);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT user_fails FROM tokens", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/*
 * A process killed inside C_Login with a wrong PIN has spent the try.
 * The kill is sent as soon as the attempt shows in the database; with
 * the count written first that is while the key derivation runs (and a
 * slow one is configured), so the login has not returned yet. Had the
 * count been written after the derivation, the login would have ended
 * before the kill and no kill would land mid-login.
 */
static void
test_kill_mid_login(void **state)
{
	int attempt, mid = 0;

	(void)state;
	for (attempt = 1; attempt <= RETRIES; attempt++) {
		int ready[2], fd, status;
		long before = stored_fails(), after;
		double t0;
		CK_RV rv;
		char c;
		pid_t pid;

		assert_int_equal(before, attempt - 1);
		assert_int_equal(pipe(ready), 0);
		pid = spawn_login(WRONG_PIN, &fd, ready);
		close(ready[1]);
		assert_int_equal(read(ready[0], &c, 1), 1);
		close(ready[0]);
		t0 = now();
		while ((after = stored_fails()) == before && now() < t0 + 60)
			usleep(1000);
		kill(pid, SIGKILL);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		/* Killed before it could report: mid-login. */
		if (WIFSIGNALED(status) &&
		    read(fd, &rv, sizeof(rv)) != (ssize_t)sizeof(rv))
			mid++;
		close(fd);
		assert_int_equal(after, attempt);
		restart();
		assert_true(user_flags() & (attempt < RETRIES
		    ? CKF_USER_PIN_COUNT_LOW : CKF_USER_PIN_LOCKED));
	}
	assert_rv(login_in_child(P11_USER_PIN), CKR_PIN_LOCKED);
	printf("# %d of %d wrong-PIN logins killed mid-derivation; each "
	    "spent a try, then locked\n", mid, RETRIES);
	assert_true(mid * 2 > RETRIES);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counter_across_processes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_guesses, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_kill_mid_login,
		    setup_slow, teardown),
	};

	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
