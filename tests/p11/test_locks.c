/*
 * The database's POSIX locks belong to the process, and SQLite keeps
 * one record per file for the whole process (dev and inode), shared by
 * every connection in it. Two ways to lose them:
 *
 * Fork: a process with the module initialised forks; the child calls
 * C_Initialize and works; the parent calls C_Finalize. The child must
 * then hold locks on the database and its -shm file (else the parent's
 * close, or anyone's, takes the whole database, checkpoints and deletes
 * the -wal and -shm files under the child), and must see the others'
 * changes, have its own seen, and have its wrong PINs counted for the
 * whole token.
 *
 * Two copies in one process (two paths of the library, or the library
 * beside p11-kit's proxy): both share the one SQLite of the process, and
 * closing any descriptor of the file drops every lock the process holds
 * on it. Copy B's C_Initialize and C_Finalize must not take copy A's
 * locks away, and what A writes afterwards must reach other processes.
 *
 * The "other process" is this program run again (exec, so that it
 * inherits no state of the module): "--helper CMD LABEL".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/p11/common.h"

#define WRONG_PIN "wrong-pin-7"

static char dir[64];
static CK_SLOT_ID slot;
static CK_OBJECT_CLASS data_class = CKO_DATA;
static CK_BBOOL yes = CK_TRUE;

/* ------------------------------------------------ token calls (no asserts:
 * the child and the helper use them too) */

/* A private token data object labelled label. */
static CK_RV
create_data(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE h, const char *label)
{
	CK_OBJECT_HANDLE o;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)"value", 5 },
	};

	return f->C_CreateObject(h, t, 5, &o);
}

/* The number of data objects labelled label, or -1 on a failed call. */
static int
count_label(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE h, const char *label)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};
	CK_OBJECT_HANDLE o[4];
	CK_ULONG n = 0;
	int count = -1;

	if (f->C_FindObjectsInit(h, t, 2) != CKR_OK)
		goto out;
	if (f->C_FindObjects(h, o, 4, &n) == CKR_OK)
		count = (int)n;
	f->C_FindObjectsFinal(h);
out:
	return count;
}

static CK_RV
login_user(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE h)
{
	return f->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN));
}

/* ------------------------------------------------ the helper process */

/*
 * Runs one command in a fresh process on the token of VGTOKEN_CONF and
 * returns its exit status: 0 yes/done, 1 no, 2 and up a failed call.
 *   find LABEL    a data object labelled LABEL exists (logs in)
 *   create LABEL  creates one (logs in)
 *   countlow -    the token shows CKF_USER_PIN_COUNT_LOW (no login)
 *   touch -       C_Initialize, a session, C_Finalize: a close that
 *                 checkpoints and deletes the WAL when it can
 */
static int
helper(const char *cmd, const char *label)
{
	CK_SESSION_HANDLE h;
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;
	CK_TOKEN_INFO ti;
	int code = 2, count;

	if (p11_load() != 0 || p11_240->C_Initialize(NULL) != CKR_OK)
		return 3;
	if (p11_240->C_GetSlotList(CK_TRUE, ids, &n) != CKR_OK || n < 1) {
		code = 4;
		goto out;
	}
	if (strcmp(cmd, "countlow") == 0) {
		if (p11_240->C_GetTokenInfo(ids[0], &ti) == CKR_OK)
			code = (ti.flags & CKF_USER_PIN_COUNT_LOW) ? 0 : 1;
		goto out;
	}
	if (p11_240->C_OpenSession(ids[0], CKF_SERIAL_SESSION |
	    CKF_RW_SESSION, NULL, NULL, &h) != CKR_OK) {
		code = 5;
		goto out;
	}
	if (strcmp(cmd, "touch") == 0) {
		code = 0;
		goto out;
	}
	if (login_user(p11_240, h) != CKR_OK) {
		code = 6;
		goto out;
	}
	if (strcmp(cmd, "find") == 0) {
		count = count_label(p11_240, h, label);
		code = count == 1 ? 0 : count == 0 ? 1 : 7;
	} else if (strcmp(cmd, "create") == 0) {
		code = create_data(p11_240, h, label) == CKR_OK ? 0 : 8;
	}
out:
	if (p11_240->C_Finalize(NULL) != CKR_OK && code == 0)
		code = 9;
	return code;
}

/* Runs this program as a helper and returns its exit status (or 100
 * and up when it did not exit normally). */
static int
run_helper(const char *cmd, const char *label)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 101;
	if (pid == 0) {
		execl("/proc/self/exe", "test_locks", "--helper", cmd, label,
		    (char *)NULL);
		_exit(102);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 103;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 104;
}

/* ------------------------------------------------ files and locks */

static void
db_path(char *out, size_t n, const char *suffix)
{
	snprintf(out, n, "%s/vgtoken/vgtoken.db%s", dir, suffix);
}

/* The inode of the database file with suffix ("", "-wal", "-shm"), or
 * 0 when it does not exist. */
static ino_t
db_inode(const char *suffix)
{
	char path[128];
	struct stat st;

	db_path(path, sizeof(path), suffix);
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

/*
 * POSIX locks that process pid holds on the database file with suffix
 * ("" or "-shm"), from /proc/locks, whose lines read
 *   N: POSIX  ADVISORY  READ|WRITE PID MAJ:MIN:INODE START END
 * (a waiter's line has "->" after the number). -1 if it cannot be read.
 */
static int
count_locks(pid_t pid, const char *suffix)
{
	ino_t want = db_inode(suffix);
	char line[256], type[16], arrow[16];
	unsigned maj, min;
	unsigned long ino;
	long lpid;
	int count = 0;
	FILE *f = fopen("/proc/locks", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%*d: %15s", arrow) != 1 ||
		    strcmp(arrow, "->") == 0)
			continue;
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", type,
		    &lpid, &maj, &min, &ino) != 5)
			continue;
		if (strcmp(type, "POSIX") == 0 && lpid == (long)pid &&
		    want != 0 && ino == (unsigned long)want)
			count++;
	}
	fclose(f);
	return count;
}

/* Checks that pid holds locks on the database file and on its -shm
 * file (a WAL connection keeps a shared lock on each while open);
 * prints the counts. Returns 1 if it failed. */
static int
check_locks(pid_t pid, const char *who)
{
	int db = count_locks(pid, ""), shm = count_locks(pid, "-shm");

	printf("#   %s holds %d lock(s) on vgtoken.db, %d on -shm: %s\n", who,
	    db, shm, db > 0 && shm > 0 ? "ok" : "FAILED");
	return !(db > 0 && shm > 0);
}

/* 1 if process pid has a descriptor open on the file of inode ino. */
static int
has_open(pid_t pid, ino_t ino)
{
	char path[64];
	struct dirent *e;
	struct stat st;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/fd", (long)pid);
	d = opendir(path);
	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL && !found) {
		if (e->d_name[0] == '.')
			continue;
		/* stat, not lstat: the file the descriptor is open on */
		found = ino != 0 && fstatat(dirfd(d), e->d_name, &st, 0) ==
		    0 && st.st_ino == ino;
	}
	closedir(d);
	return found;
}

/* ------------------------------------------------ fork */

/* What the parent asks the child to do, one byte each way. */
enum {
	DO_CREATE = 'c', /* create "child-obj" */
	DO_FIND = 'f',   /* find "helper-obj" */
	DO_WRONG = 'w',  /* log out, then a wrong user PIN */
	DO_QUIT = 'q',
};

/* The child: its own C_Initialize, a logged-in session, then the
 * parent's commands. Reports 0 for done, else the failed step. */
static void
child(int in, int out)
{
	CK_SESSION_HANDLE h;
	unsigned char cmd, res = 0;

	alarm(120);
	if (p11->C_Initialize(NULL) != CKR_OK)
		res = 1;
	else if (p11->C_OpenSession(slot, CKF_SERIAL_SESSION |
	    CKF_RW_SESSION, NULL, NULL, &h) != CKR_OK)
		res = 2;
	else if (login_user(p11_240, h) != CKR_OK)
		res = 3;
	else if (count_label(p11_240, h, "child-obj") != 0)
		res = 4;
	if (write(out, &res, 1) != 1 || res != 0)
		_exit(1);
	while (read(in, &cmd, 1) == 1 && cmd != DO_QUIT) {
		switch (cmd) {
		case DO_CREATE:
			res = create_data(p11_240, h, "child-obj") == CKR_OK
			    ? 0 : 10;
			break;
		case DO_FIND:
			res = count_label(p11_240, h, "helper-obj") == 1
			    ? 0 : 11;
			break;
		case DO_WRONG:
			p11->C_Logout(h);
			res = p11->C_Login(h, CKU_USER,
			    (CK_UTF8CHAR_PTR)WRONG_PIN, strlen(WRONG_PIN)) ==
			    CKR_PIN_INCORRECT ? 0 : 12;
			break;
		default:
			res = 99;
		}
		if (write(out, &res, 1) != 1)
			_exit(1);
	}
	_exit(p11->C_Finalize(NULL) == CKR_OK ? 0 : 2);
}

/* Sends cmd to the child and returns its answer (255: no answer). */
static int
ask(int to, int from, unsigned char cmd)
{
	unsigned char res = 255;

	if (write(to, &cmd, 1) != 1 || read(from, &res, 1) != 1)
		return 255;
	return res;
}

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_token(dir, "busy_timeout_ms = 30000\n", "locks",
	    &slot);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* Prints one check's outcome; returns 1 if it failed. */
static int
check(int ok, const char *what)
{
	printf("#   %s: %s\n", what, ok ? "ok" : "FAILED");
	return !ok;
}

static void
test_fork_child_keeps_locks(void **state)
{
	int to_child[2], from_child[2], status, bad = 0;
	unsigned char res = 255;
	CK_SESSION_HANDLE h;
	pid_t pid;

	(void)state;
	/* The parent uses the store before the fork, as an application
	 * would. */
	h = p11_open(CKF_RW_SESSION);
	assert_rv(login_user(p11_240, h), CKR_OK);
	assert_int_equal(count_label(p11_240, h, "child-obj"), 0);
	assert_int_equal(pipe(to_child), 0);
	assert_int_equal(pipe(from_child), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(to_child[1]);
		close(from_child[0]);
		child(to_child[0], from_child[1]);
	}
	close(to_child[0]);
	close(from_child[1]);
	assert_int_equal(read(from_child[0], &res, 1), 1);
	assert_int_equal(res, 0);

	/* The child is initialised and idle: the parent goes. */
	assert_rv(p11->C_Finalize(NULL), CKR_OK);

	bad += check_locks(pid, "the child");
	bad += check(db_inode("-wal") != 0 && db_inode("-shm") != 0,
	    "the -wal and -shm files are still there");
	bad += check(has_open(pid, db_inode("-wal")) &&
	    has_open(pid, db_inode("-shm")),
	    "the child has those very -wal and -shm files open");
	/* The parent is gone from the database; a third process comes and
	 * goes (its close checkpoints and deletes the WAL if it can). */
	bad += check(run_helper("touch", "-") == 0, "a third process opens "
	    "and closes the database");
	bad += check(ask(to_child[1], from_child[0], DO_CREATE) == 0,
	    "the child creates an object");
	bad += check(run_helper("find", "child-obj") == 0,
	    "a fresh process sees the child's object");
	bad += check(run_helper("create", "helper-obj") == 0,
	    "a fresh process creates an object");
	bad += check(ask(to_child[1], from_child[0], DO_FIND) == 0,
	    "the child sees the fresh process's object");
	bad += check(ask(to_child[1], from_child[0], DO_WRONG) == 0,
	    "the child is given a wrong user PIN");
	bad += check(run_helper("countlow", "-") == 0,
	    "a fresh process sees CKF_USER_PIN_COUNT_LOW");

	res = DO_QUIT;
	assert_int_equal(write(to_child[1], &res, 1), 1);
	close(to_child[1]);
	close(from_child[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	bad += check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "the child finalises and exits normally");
	if (bad != 0)
		fail_msg("%d check(s) failed after fork", bad);
}

/* ------------------------------------------------ two copies */

static void
test_two_copies_keep_locks(void **state)
{
	const char *path = getenv("VG_MODULE");
	CK_C_GetFunctionList get_list;
	CK_FUNCTION_LIST *b = NULL;
	CK_SESSION_HANDLE h, hb;
	char copy[128], cmd[384];
	void *ha, *hb_mod, *sym;
	int i, bad = 0;

	(void)state;
	assert_non_null(path);
	/* Copy A: the module as the other tests load it, initialised by
	 * setup, using the store. */
	h = p11_open(CKF_RW_SESSION);
	assert_rv(login_user(p11_240, h), CKR_OK);
	assert_rv(create_data(p11_240, h, "a-first"), CKR_OK);
	assert_int_equal(count_label(p11_240, h, "a-first"), 1);

	/* Copy B: the same file under another name is another copy. */
	snprintf(copy, sizeof(copy), "%s/libvgtoken-copy.so", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", path, copy);
	assert_int_equal(system(cmd), 0);
	ha = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
	assert_non_null(ha);
	hb_mod = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
	if (hb_mod == NULL)
		fail_msg("dlopen %s: %s", copy, dlerror());
	assert_true(ha != hb_mod);
	dlclose(ha);
	sym = dlsym(hb_mod, "C_GetFunctionList");
	assert_non_null(sym);
	memcpy(&get_list, &sym, sizeof(get_list));
	assert_rv(get_list(&b), CKR_OK);
	assert_true(b != p11_240);

	/* Before: as expected, else the check after means nothing. */
	assert_int_equal(check_locks(getpid(), "with copy A open, this "
	    "process"), 0);
	for (i = 0; i < 3; i++) {
		assert_rv(b->C_Initialize(NULL), CKR_OK);
		assert_rv(b->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
		    &hb), CKR_OK);
		assert_int_equal(count_label(b, hb, "a-first"), 0);
		assert_rv(b->C_Finalize(NULL), CKR_OK);
	}
	bad += check_locks(getpid(), "after copy B's C_Initialize and "
	    "C_Finalize, this process");
	/* A third process comes and goes: its close checkpoints and
	 * deletes the WAL if nobody else holds the database. */
	bad += check(run_helper("touch", "-") == 0, "a third process opens "
	    "and closes the database");
	bad += check(create_data(p11_240, h, "a-after") == CKR_OK,
	    "copy A creates an object");
	bad += check(run_helper("find", "a-after") == 0,
	    "a fresh process sees it");
	bad += check(run_helper("create", "helper-obj") == 0,
	    "a fresh process creates an object");
	bad += check(count_label(p11_240, h, "helper-obj") == 1,
	    "copy A sees it");
	bad += check(db_inode("-wal") != 0 && has_open(getpid(),
	    db_inode("-wal")), "the -wal file copy A has open is on disk");
	dlclose(hb_mod);
	unlink(copy);
	if (bad != 0)
		fail_msg("%d check(s) failed with two copies", bad);
}

/* ------------------------------------------------ file modes */

/* Only the owner may read the database files, whatever the umask. */
static void
test_file_modes(void **state)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char path[128];
	struct stat st;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		db_path(path, sizeof(path), suffix[i]);
		assert_int_equal(stat(path, &st), 0);
		if ((st.st_mode & 0777) != 0600)
			fail_msg("%s has mode %04o", path,
			    (unsigned)(st.st_mode & 0777));
	}
}

static int
setup_umask0(void **state)
{
	mode_t old = umask(0);
	int rv = setup(state);

	umask(old);
	return rv;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fork_child_keeps_locks,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_copies_keep_locks,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_modes, setup_umask0,
		    teardown),
	};

	if (argc == 4 && strcmp(argv[1], "--helper") == 0)
		return helper(argv[2], argv[3]);
	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
