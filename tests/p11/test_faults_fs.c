/*
 * The file system says no: a full disk, and a database that may be read
 * but not written.
 *
 * Disk full: the token lives on a small tmpfs (mounted in a mount
 * namespace of this process's own, so nothing shows outside it) that a
 * filler file has almost filled. Objects are created until a write
 * fails: it fails with CKR_DEVICE_MEMORY or CKR_DEVICE_ERROR, everything
 * created before is readable, and once the filler is gone the token
 * takes writes again and the database is consistent.
 *
 * Read-only: a read-only bind mount of the data directory, and (as the
 * unprivileged user nobody, since root ignores permissions) a database
 * file of mode 0444. C_Initialize succeeds, the token says
 * CKF_WRITE_PROTECTED, login and reads work, and a write fails with
 * CKR_TOKEN_WRITE_PROTECTED (or CKR_DEVICE_ERROR).
 *
 * Both need root (mounts, setresuid); without it they are skipped with
 * the reason printed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
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

#define NOBJ 12

static char dir[64];
static CK_OBJECT_CLASS data_class = CKO_DATA;
static CK_BBOOL yes = CK_TRUE;

/* A mount namespace of this process's own, where mounts do not
 * propagate back; once per process. NULL, or why not. */
static const char *
private_mounts(void)
{
	static int done;
	static char why[128];

	if (done)
		return why[0] != '\0' ? why : NULL;
	done = 1;
	if (geteuid() != 0)
		snprintf(why, sizeof(why), "needs root for mounts");
	else if (unshare(CLONE_NEWNS) != 0)
		snprintf(why, sizeof(why), "unshare(CLONE_NEWNS): %s",
		    strerror(errno));
	else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		snprintf(why, sizeof(why), "private mounts: %s",
		    strerror(errno));
	return why[0] != '\0' ? why : NULL;
}

static int
teardown(void **state)
{
	char sub[96];

	(void)state;
	snprintf(sub, sizeof(sub), "%s/vgtoken", dir);
	umount2(sub, MNT_DETACH);
	umount2(dir, MNT_DETACH);
	return dir[0] != '\0' ? p11_fresh_cleanup(dir) : 0;
}

static CK_RV
create(CK_SESSION_HANDLE h, const char *label, size_t vlen)
{
	static uint8_t value[4096];
	CK_OBJECT_HANDLE o;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, value, vlen },
	};

	memset(value, label[strlen(label) - 1], sizeof(value));
	return p11->C_CreateObject(h, t, 5, &o);
}

static CK_SLOT_ID
first_slot(void)
{
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;

	assert_rv(p11->C_GetSlotList(CK_FALSE, ids, &n), CKR_OK);
	assert_true(n >= 1);
	return ids[0];
}

/* A logged-in session on the first slot (RW when asked). */
static CK_RV
user_session(CK_FLAGS rw, CK_SESSION_HANDLE *h)
{
	CK_RV rv = p11->C_OpenSession(first_slot(), CKF_SERIAL_SESSION | rw,
	    NULL, NULL, h);

	if (rv == CKR_OK)
		rv = p11->C_Login(*h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
		    strlen(P11_USER_PIN));
	return rv;
}

/* Data objects this session sees, and whether each value is whole (all
 * bytes equal to the last character of the label). */
static unsigned
count_data(CK_SESSION_HANDLE h, int *whole)
{
	CK_ATTRIBUTE t = { CKA_CLASS, &data_class, sizeof(data_class) };
	CK_OBJECT_HANDLE o[256];
	CK_ULONG n = 0, i;

	*whole = 1;
	if (p11->C_FindObjectsInit(h, &t, 1) != CKR_OK)
		return 0;
	if (p11->C_FindObjects(h, o, 256, &n) != CKR_OK)
		n = 0;
	p11->C_FindObjectsFinal(h);
	for (i = 0; i < n; i++) {
		static uint8_t v[4096];
		char label[32];
		CK_ATTRIBUTE a[] = {
			{ CKA_LABEL, label, sizeof(label) - 1 },
			{ CKA_VALUE, v, sizeof(v) },
		};
		CK_ULONG j;

		if (p11->C_GetAttributeValue(h, o[i], a, 2) != CKR_OK ||
		    a[0].ulValueLen == 0) {
			*whole = 0;
			continue;
		}
		label[a[0].ulValueLen] = '\0';
		for (j = 0; j < a[1].ulValueLen; j++)
			if (v[j] != (uint8_t)label[a[0].ulValueLen - 1])
				*whole = 0;
	}
	return (unsigned)n;
}

static void
integrity_ok(void)
{
	char path[128];
	sqlite3 *db;
	sqlite3_stmt *st;

	snprintf(path, sizeof(path), "%s/vgtoken/vgtoken.db", dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1,
	    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* Fills the file system of path with a file there, then gives back
 * slack bytes of it. */
static void
fill(const char *path, off_t slack)
{
	static char buf[65536];
	off_t size = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	assert_true(fd >= 0);
	memset(buf, 0xaa, sizeof(buf));
	while ((n = write(fd, buf, sizeof(buf))) > 0)
		size += n;
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(ftruncate(fd, size > slack ? size - slack : 0), 0);
	close(fd);
}

/* A token in dir (which exists): a configuration there naming
 * dir/vgtoken, C_Initialize, and a token with the usual PINs. */
static void
token_in(const char *label)
{
	CK_UTF8CHAR lab[32];
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	char conf[96];
	FILE *f;

	snprintf(conf, sizeof(conf), "%s/vgtoken.conf", dir);
	f = fopen(conf, "w");
	assert_non_null(f);
	fprintf(f, "data_dir = %s/vgtoken\npbkdf2_iterations = 1000\n"
	    "busy_timeout_ms = 30000\n", dir);
	assert_int_equal(fclose(f), 0);
	setenv("VGTOKEN_CONF", conf, 1);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	slot = first_slot();
	memset(lab, ' ', sizeof(lab));
	memcpy(lab, label, strlen(label));
	assert_rv(p11->C_InitToken(slot, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN), lab), CKR_OK);
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN)), CKR_OK);
	assert_rv(p11->C_InitPIN(h, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static int
write_failure(CK_RV rv)
{
	return rv == CKR_DEVICE_MEMORY || rv == CKR_DEVICE_ERROR;
}

static void
test_disk_full(void **state)
{
	const char *why = private_mounts();
	char filler[96], label[32];
	CK_SESSION_HANDLE h, h2;
	unsigned ok = 0, i;
	int whole;
	CK_RV rv = CKR_OK, rv2;

	(void)state;
	if (why != NULL) {
		printf("# SKIP disk full: %s\n", why);
		skip();
	}
	assert_int_equal(p11_load(), 0);
	snprintf(dir, sizeof(dir), "/tmp/vgtoken-test-XXXXXX");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mount("vgtoken-full", dir, "tmpfs", 0,
	    "size=3m,mode=0700"), 0);
	token_in("full");
	assert_rv(user_session(CKF_RW_SESSION, &h), CKR_OK);

	/* Almost no room left; write until a write fails. */
	snprintf(filler, sizeof(filler), "%s/filler", dir);
	fill(filler, 256 * 1024);
	for (i = 0; i < 1000; i++) {
		snprintf(label, sizeof(label), "full-%u", i);
		rv = create(h, label, 4000);
		if (rv != CKR_OK)
			break;
		ok++;
	}
	if (!write_failure(rv))
		fail_msg("write on a full disk: %s", p11_rv_name(rv));
	/* Full: more writes fail the same way; what is there reads whole. */
	for (i = 0; i < 3; i++)
		assert_true(write_failure(create(h, "more", 4000)));
	assert_int_equal(count_data(h, &whole), ok);
	assert_true(whole);
	/* Logging in must record the attempt: it may be refused. */
	assert_rv(p11->C_OpenSession(first_slot(), CKF_SERIAL_SESSION, NULL,
	    NULL, &h2), CKR_OK);
	assert_rv(p11->C_Logout(h), CKR_OK);
	rv2 = p11->C_Login(h2, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN));
	assert_true(rv2 == CKR_OK || write_failure(rv2));

	/* Room again: the token takes writes, and nothing was lost. */
	assert_int_equal(unlink(filler), 0);
	if (rv2 != CKR_OK)
		assert_rv(p11->C_Login(h2, CKU_USER,
		    (CK_UTF8CHAR_PTR)P11_USER_PIN, strlen(P11_USER_PIN)),
		    CKR_OK);
	assert_rv(create(h, "after", 4000), CKR_OK);
	assert_int_equal(count_data(h2, &whole), ok + 1);
	assert_true(whole);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	integrity_ok();
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(user_session(0, &h), CKR_OK);
	assert_int_equal(count_data(h, &whole), ok + 1);
	assert_true(whole);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	printf("# disk full after %u objects: writes failed with %s, login "
	    "%s; all readable, writable again once space returned\n", ok,
	    p11_rv_name(rv), p11_rv_name(rv2));
}

/*
 * On a database this process cannot write: the token is there and says
 * CKF_WRITE_PROTECTED, login and reads work, a write fails. Returns the
 * number of failed checks (each printed), for use in a child too.
 */
static int
read_only_checks(const char *how, unsigned want)
{
	CK_TOKEN_INFO ti;
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;
	unsigned count;
	int bad = 0, whole;
	CK_RV rv;

#define RO_CHECK(cond, ...)                                                 \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "%s: ", how);                       \
			fprintf(stderr, __VA_ARGS__);                       \
			fputc('\n', stderr);                                \
			bad++;                                              \
		}                                                           \
	} while (0)

	rv = p11->C_Initialize(NULL);
	RO_CHECK(rv == CKR_OK, "C_Initialize: %s", p11_rv_name(rv));
	if (rv != CKR_OK)
		return bad;
	rv = p11->C_GetSlotList(CK_FALSE, ids, &n);
	RO_CHECK(rv == CKR_OK && n >= 1, "C_GetSlotList: %s",
	    p11_rv_name(rv));
	slot = ids[0];
	rv = p11->C_GetTokenInfo(slot, &ti);
	RO_CHECK(rv == CKR_OK, "C_GetTokenInfo: %s", p11_rv_name(rv));
	RO_CHECK(ti.flags & CKF_TOKEN_INITIALIZED, "the token is not shown");
	RO_CHECK(ti.flags & CKF_WRITE_PROTECTED, "not CKF_WRITE_PROTECTED");
	rv = p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h);
	RO_CHECK(rv == CKR_OK, "C_OpenSession: %s", p11_rv_name(rv));
	rv = p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN));
	RO_CHECK(rv == CKR_OK, "C_Login: %s", p11_rv_name(rv));
	count = count_data(h, &whole);
	RO_CHECK(count == want && whole, "read %u objects (want %u), %s",
	    count, want, whole ? "whole" : "damaged");
	rv = create(h, "ro-write", 100);
	RO_CHECK(rv == CKR_TOKEN_WRITE_PROTECTED || rv == CKR_DEVICE_ERROR,
	    "a write: %s", p11_rv_name(rv));
	/* A wrong PIN is refused; the right one still works after it. */
	p11->C_Logout(h);
	rv = p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)"wrong-pin",
	    strlen("wrong-pin"));
	RO_CHECK(rv == CKR_PIN_INCORRECT, "wrong PIN: %s", p11_rv_name(rv));
	rv = p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN));
	RO_CHECK(rv == CKR_OK, "C_Login again: %s", p11_rv_name(rv));
	rv = p11->C_Finalize(NULL);
	RO_CHECK(rv == CKR_OK, "C_Finalize: %s", p11_rv_name(rv));
#undef RO_CHECK
	return bad;
}

/* After a read-only spell: writable again, nothing changed. */
static void
writable_again(unsigned want)
{
	CK_SESSION_HANDLE h;
	int whole;

	integrity_ok();
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(user_session(CKF_RW_SESSION, &h), CKR_OK);
	assert_int_equal(count_data(h, &whole), want);
	assert_rv(create(h, "rw-again", 100), CKR_OK);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

static void
test_read_only(void **state)
{
	const char *why = private_mounts();
	CK_SESSION_HANDLE h;
	char sub[96], path[128];
	struct passwd *pw;
	int i, status;
	pid_t pid;

	(void)state;
	if (why != NULL) {
		printf("# SKIP read-only: %s\n", why);
		skip();
	}
	assert_int_equal(p11_load(), 0);
	snprintf(dir, sizeof(dir), "/tmp/vgtoken-test-XXXXXX");
	assert_non_null(mkdtemp(dir));
	token_in("ro");
	assert_rv(user_session(CKF_RW_SESSION, &h), CKR_OK);
	for (i = 0; i < NOBJ; i++) {
		char label[32];

		snprintf(label, sizeof(label), "ro-%d", i);
		assert_rv(create(h, label, 100), CKR_OK);
	}
	assert_rv(p11->C_Finalize(NULL), CKR_OK);

	/* A read-only bind mount of the data directory. */
	snprintf(sub, sizeof(sub), "%s/vgtoken", dir);
	assert_int_equal(mount(sub, sub, NULL, MS_BIND, NULL), 0);
	assert_int_equal(mount(NULL, sub, NULL,
	    MS_REMOUNT | MS_BIND | MS_RDONLY, NULL), 0);
	assert_int_equal(read_only_checks("read-only mount", NOBJ), 0);
	assert_int_equal(umount2(sub, 0), 0);
	writable_again(NOBJ);

	/* A database file of mode 0444, for a user to whom permissions
	 * apply. */
	pw = getpwnam("nobody");
	if (pw == NULL) {
		printf("# SKIP read-only file: no user nobody\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/vgtoken.db", sub);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(chown(sub, pw->pw_uid, pw->pw_gid), 0);
	assert_int_equal(chown(path, pw->pw_uid, pw->pw_gid), 0);
	assert_int_equal(chmod(path, 0444), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) != 0 ||
		    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) != 0)
			_exit(90);
		_exit(read_only_checks("read-only file", NOBJ + 1) != 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(chmod(path, 0600), 0);
	writable_again(NOBJ + 1);
	printf("# read-only mount and read-only file: token readable, "
	    "writes refused, writable again afterwards\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_disk_full, teardown),
		cmocka_unit_test_teardown(test_read_only, teardown),
	};

	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
