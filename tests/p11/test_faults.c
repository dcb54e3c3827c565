/*
 * Faults of the process and of the file: a writer killed at random points
 * many times over, and a database file that has been damaged.
 *
 * Kills: a writer creates data objects, generates EC key pairs and
 * destroys objects, reporting each step through a pipe once the call has
 * returned CKR_OK (and, for a destroy, before the call too). It is killed
 * with SIGKILL at a random moment, VG_FAULT_KILLS times (default 200);
 * sometimes before it has even opened the database. After every kill the
 * database opens, PRAGMA integrity_check says ok, everything reported
 * created is there and everything reported destroyed is gone; at the end
 * no object is there that nobody created (at most one unreported
 * creation per kill).
 *
 * Damage: garbage over pages, over the header, a truncated file, a text
 * file and an empty file where the database was. A process that runs
 * every kind of call on it ends normally (no crash, and under ASan no
 * memory error), a database it cannot read is reported in the log and
 * left untouched, and a token it can read answers with return values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_OBJECT_CLASS data_class = CKO_DATA;
static CK_BBOOL yes = CK_TRUE;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

static unsigned
env_or(const char *name, unsigned dflt)
{
	const char *v = getenv(name);

	return v != NULL && atoi(v) > 0 ? (unsigned)atoi(v) : dflt;
}

static int
setup(void **state)
{
	(void)state;
	if (p11_fresh_token(dir, "busy_timeout_ms = 30000\n", "faults",
	    &slot) != 0)
		return -1;
	return p11->C_Finalize(NULL) == CKR_OK ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static void
db_path(char *out, size_t n)
{
	snprintf(out, n, "%s/vgtoken/vgtoken.db", dir);
}

static void
integrity_ok(void)
{
	char path[128];
	sqlite3 *db;
	sqlite3_stmt *st;

	db_path(path, sizeof(path));
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1,
	    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static CK_RV
create(CK_SESSION_HANDLE h, const char *label, CK_BBOOL private_obj)
{
	CK_OBJECT_HANDLE o;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &private_obj, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)label, strlen(label) },
	};

	return p11->C_CreateObject(h, t, 5, &o);
}

static CK_RV
ec_pair(CK_SESSION_HANDLE h, const char *label)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};

	return p11->C_GenerateKeyPair(h, &m, pt, 3, kt, 3, &pub, &priv);
}

/* Objects with this label (at most 4 counted); -1 on an error. */
static int
count_label(CK_SESSION_HANDLE h, const char *label, CK_OBJECT_HANDLE *o)
{
	CK_ATTRIBUTE t = { CKA_LABEL, (void *)label, strlen(label) };
	CK_OBJECT_HANDLE found[4];
	CK_ULONG n = 0;

	if (p11->C_FindObjectsInit(h, &t, 1) != CKR_OK)
		return -1;
	if (p11->C_FindObjects(h, found, 4, &n) != CKR_OK)
		n = (CK_ULONG)-1;
	if (p11->C_FindObjectsFinal(h) != CKR_OK)
		return -1;
	if (o != NULL && n > 0 && n != (CK_ULONG)-1)
		*o = found[0];
	return (int)n;
}

static void
say(int fd, char kind, const char *label)
{
	char line[64];
	int len = snprintf(line, sizeof(line), "%c %s\n", kind, label);

	if (write(fd, line, (size_t)len) != len)
		_exit(3);
}

/*
 * The writer: reports "C label" after a data object was created, "K label"
 * after a key pair labelled so was generated, "X label" before it
 * destroys an object and "D label" once that returned CKR_OK. Labels are
 * "k<round>-<i>". Runs until killed.
 */
static void
writer(unsigned round, int fd, int ready)
{
	CK_SESSION_HANDLE h;
	char live[64][32], label[32];
	unsigned i, nlive = 0, first = 0;

	if (p11->C_Initialize(NULL) != CKR_OK ||
	    p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
	    NULL, &h) != CKR_OK ||
	    p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK)
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(3);
	for (i = 0;; i++) {
		if (i == 256) /* what the record holds; wait for the kill */
			pause();
		snprintf(label, sizeof(label), "k%u-%u", round, i);
		if (i % 4 == 3 && nlive > 0) {
			CK_OBJECT_HANDLE o = 0;
			const char *victim = live[first % 64];

			if (count_label(h, victim, &o) != 1)
				_exit(4);
			say(fd, 'X', victim);
			if (p11->C_DestroyObject(h, o) != CKR_OK)
				_exit(2);
			say(fd, 'D', victim);
			first++;
			nlive--;
		} else if (i % 8 == 5) {
			if (ec_pair(h, label) != CKR_OK)
				_exit(2);
			say(fd, 'K', label);
		} else {
			if (create(h, label, (CK_BBOOL)(i & 1)) != CKR_OK)
				_exit(2);
			say(fd, 'C', label);
			if (nlive < 64) {
				strcpy(live[(first + nlive) % 64], label);
				nlive++;
			}
		}
	}
}

/* What the writers reported, by round and index: 'C', 'K', 'X', 'D'. */
struct record {
	char (*state)[256];
	unsigned rounds;
};

static void
note(struct record *rec, const char *line)
{
	unsigned r, i;
	char kind;

	if (sscanf(line, "%c k%u-%u", &kind, &r, &i) != 3 ||
	    r >= rec->rounds || i >= 256)
		fail_msg("bad report: %s", line);
	rec->state[r][i] = kind;
}

/* Checks round r's labels (all rounds when r < 0) against the token;
 * returns how many objects were checked. */
static unsigned
check_rounds(CK_SESSION_HANDLE h, const struct record *rec, int r)
{
	unsigned lo = r < 0 ? 0 : (unsigned)r;
	unsigned hi = r < 0 ? rec->rounds : (unsigned)r + 1, k, i, n = 0;

	for (k = lo; k < hi; k++)
		for (i = 0; i < 256; i++) {
			char label[32], s = rec->state[k][i];
			int c;

			if (s == 0)
				continue;
			snprintf(label, sizeof(label), "k%u-%u", k, i);
			c = count_label(h, label, NULL);
			if ((s == 'C' && c != 1) || (s == 'K' && c != 2) ||
			    (s == 'D' && c != 0) ||
			    (s == 'X' && c != 0 && c != 1))
				fail_msg("%s reported %c, found %d", label, s,
				    c);
			n++;
		}
	return n;
}

static CK_SESSION_HANDLE
user_session(void)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	return h;
}

/* Every labelled object on the token belongs to a reported or an
 * in-flight step; returns how many objects there are. */
static unsigned
no_strays(CK_SESSION_HANDLE h, const struct record *rec, unsigned *strays)
{
	CK_OBJECT_HANDLE o[128];
	CK_ULONG n, i;
	unsigned total = 0;

	*strays = 0;
	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
	do {
		assert_rv(p11->C_FindObjects(h, o, 128, &n), CKR_OK);
		for (i = 0; i < n; i++) {
			char label[32];
			CK_ATTRIBUTE get = { CKA_LABEL, label,
				sizeof(label) - 1 };
			unsigned r, k;

			assert_rv(p11->C_GetAttributeValue(h, o[i], &get, 1),
			    CKR_OK);
			label[get.ulValueLen] = '\0';
			assert_int_equal(sscanf(label, "k%u-%u", &r, &k), 2);
			assert_true(r < rec->rounds && k < 256);
			if (rec->state[r][k] == 0)
				(*strays)++;
		}
		total += (unsigned)n;
	} while (n > 0);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return total;
}

static void
test_kills(void **state)
{
	unsigned rounds = env_or("VG_FAULT_KILLS", 200), r, early = 0;
	unsigned checked = 0, objects, strays, ops = 0;
	struct record rec;
	struct p11_rng rng;
	CK_SESSION_HANDLE h;

	(void)state;
	rec.rounds = rounds;
	rec.state = calloc(rounds, sizeof(*rec.state));
	assert_non_null(rec.state);
	p11_rng_seed(&rng, 11);
	for (r = 0; r < rounds; r++) {
		int fds[2], rdy[2], status;
		char buf[8192], c;
		size_t have = 0;
		ssize_t n;
		pid_t pid;

		assert_int_equal(pipe(fds), 0);
		assert_int_equal(pipe(rdy), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			close(rdy[0]);
			writer(r, fds[1], rdy[1]);
		}
		close(fds[1]);
		close(rdy[1]);
		/* One round in eight is killed while it opens the database
		 * and logs in; the others after a random time at work. */
		if (p11_rng_below(&rng, 8) == 0) {
			usleep((useconds_t)p11_rng_below(&rng, 5000));
			early++;
		} else {
			assert_int_equal(read(rdy[0], &c, 1), 1);
			usleep((useconds_t)p11_rng_below(&rng, 40000));
		}
		kill(pid, SIGKILL);
		close(rdy[0]);
		while ((n = read(fds[0], buf + have, sizeof(buf) - 1 - have)) >
		    0)
			have += (size_t)n;
		close(fds[0]);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		buf[have] = '\0';
		{
			char *line, *save = NULL;

			for (line = strtok_r(buf, "\n", &save); line != NULL;
			    line = strtok_r(NULL, "\n", &save)) {
				note(&rec, line);
				ops++;
			}
		}

		integrity_ok();
		assert_rv(p11->C_Initialize(NULL), CKR_OK);
		h = user_session();
		checked += check_rounds(h, &rec, (int)r);
		if (r % 50 == 49)
			check_rounds(h, &rec, -1);
		assert_rv(p11->C_Finalize(NULL), CKR_OK);
	}
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = user_session();
	check_rounds(h, &rec, -1);
	objects = no_strays(h, &rec, &strays);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	integrity_ok();
	/* A creation whose commit reached the file is kept even when the
	 * writer died before reporting it: at most one step (two objects
	 * for a key pair) per kill. */
	assert_true(strays <= 2 * rounds);
	free(rec.state);
	printf("# %u kills (%u while opening), %u reported steps, %u "
	    "checks after kills, %u objects left, %u unreported creations; "
	    "no committed change lost\n", rounds, early, ops, checked,
	    objects, strays);
	assert_true(ops > rounds);
}

/* ------------------------------------------------------------ damage */

/* Every kind of call on whatever the module finds; returns normally
 * whatever they answer. Counts the answers that are not CKR_OK. */
static unsigned
exercise(unsigned *tokens)
{
	CK_SLOT_ID ids[8];
	CK_ULONG n = 8, i;
	unsigned errors = 0;

	*tokens = 0;
	if (p11->C_Initialize(NULL) != CKR_OK)
		return 1;
	if (p11->C_GetSlotList(CK_FALSE, ids, &n) != CKR_OK)
		n = 0, errors++;
	for (i = 0; i < n && i < 8; i++) {
		CK_TOKEN_INFO ti;
		CK_SESSION_HANDLE h;
		CK_OBJECT_HANDLE o[64];
		CK_ULONG k, j;

		if (p11->C_GetTokenInfo(ids[i], &ti) != CKR_OK) {
			errors++;
			continue;
		}
		if (!(ti.flags & CKF_TOKEN_INITIALIZED))
			continue;
		(*tokens)++;
		if (p11->C_OpenSession(ids[i], CKF_SERIAL_SESSION |
		    CKF_RW_SESSION, NULL, NULL, &h) != CKR_OK) {
			errors++;
			continue;
		}
		errors += p11->C_Login(h, CKU_USER,
		    (CK_UTF8CHAR_PTR)P11_USER_PIN, strlen(P11_USER_PIN)) !=
		    CKR_OK;
		if (p11->C_FindObjectsInit(h, NULL, 0) == CKR_OK) {
			errors += p11->C_FindObjects(h, o, 64, &k) != CKR_OK;
			p11->C_FindObjectsFinal(h);
			for (j = 0; j < k && j < 64; j++) {
				uint8_t v[512];
				CK_ATTRIBUTE a[] = {
					{ CKA_LABEL, v, 64 },
					{ CKA_VALUE, v + 64, 448 },
				};

				errors += p11->C_GetAttributeValue(h, o[j], a,
				    2) != CKR_OK;
			}
		} else {
			errors++;
		}
		errors += create(h, "after-damage", CK_TRUE) != CKR_OK;
		p11->C_CloseSession(h);
	}
	p11->C_Finalize(NULL);
	return errors;
}

static void
read_file(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	*data = malloc((size_t)n + 1);
	assert_non_null(*data);
	assert_int_equal(fread(*data, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
}

static void
write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

enum damage { PAGES, HEADER, TRUNCATED, TEXT, EMPTY, NDAMAGE };
static const char *const damage_name[NDAMAGE] = {
	"garbage over pages", "garbage over the header", "truncated file",
	"text file", "empty file",
};

static void
test_damage(void **state)
{
	char path[128], logpath[160];
	uint8_t *clean, *now_data;
	size_t len, now_len;
	struct p11_rng rng;
	CK_SESSION_HANDLE h;
	int d, i;

	(void)state;
	/* A token with a few objects, closed cleanly (no WAL left). */
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	for (i = 0; i < 40; i++) {
		char label[32];

		snprintf(label, sizeof(label), "k0-%d", i);
		assert_rv(create(h, label, (CK_BBOOL)(i & 1)), CKR_OK);
	}
	assert_rv(ec_pair(h, "k0-99"), CKR_OK);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	db_path(path, sizeof(path));
	read_file(path, &clean, &len);
	assert_true(len >= 4 * 4096);
	p11_rng_seed(&rng, 13);
	snprintf(logpath, sizeof(logpath), "%s/damage.log", dir);

	for (d = 0; d < NDAMAGE; d++) {
		uint8_t *bad = malloc(len);
		size_t bad_len = len;
		unsigned errors = 0, tokens = 0;
		int status;
		pid_t pid;

		assert_non_null(bad);
		memcpy(bad, clean, len);
		switch (d) {
		case PAGES: /* three pages after the first */
			for (i = 0; i < 3; i++)
				p11_rng_fill(&rng, bad + 4096 *
				    (1 + p11_rng_below(&rng, len / 4096 - 1)),
				    4096);
			break;
		case HEADER:
			p11_rng_fill(&rng, bad, 100);
			break;
		case TRUNCATED:
			bad_len = len / 2 + 1000;
			break;
		case TEXT:
			for (i = 0; (size_t)i < len; i++)
				bad[i] = "this is not a database\n"[i % 23];
			break;
		case EMPTY:
			bad_len = 0;
			break;
		}
		write_file(path, bad, bad_len);
		/* In a process of its own, with the log on its stderr: it
		 * must end normally whatever it meets. */
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			int fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC,
			    0600);

			if (fd < 0 || dup2(fd, 2) < 0)
				_exit(90);
			setenv("VG_LOG", "error", 1);
			errors = exercise(&tokens);
			printf("#   %s: %u token(s) seen, %u call(s) failed\n",
			    damage_name[d], tokens, errors);
			fflush(stdout);
			_exit(tokens > 9 ? 9 : (int)tokens);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) > 9)
			fail_msg("%s: the process %s %d", damage_name[d],
			    WIFEXITED(status) ? "exited" : "died of signal",
			    WIFEXITED(status) ? WEXITSTATUS(status)
					      : WTERMSIG(status));
		tokens = (unsigned)WEXITSTATUS(status);
		if (d != EMPTY && tokens == 0) {
			char cmd[256];

			/* A token that is not shown is explained. */
			snprintf(cmd, sizeof(cmd), "grep -q 'database' '%s'",
			    logpath);
			if (system(cmd) != 0)
				fail_msg("%s: the token is gone and the log "
				    "says nothing", damage_name[d]);
		}
		if (d == HEADER || d == TEXT) {
			char cmd[256];

			/* Not a database: no token, a line in the log, and
			 * the file is left as it was for the user to
			 * recover. */
			assert_int_equal(tokens, 0);
			snprintf(cmd, sizeof(cmd), "grep -q 'not a database' "
			    "'%s'", logpath);
			if (system(cmd) != 0)
				fail_msg("%s: no clear message in the log",
				    damage_name[d]);
			read_file(path, &now_data, &now_len);
			assert_int_equal(now_len, bad_len);
			assert_memory_equal(now_data, bad, bad_len);
			free(now_data);
		}
		free(bad);
	}
	/* The clean file back, without what the damaged runs left beside
	 * it: everything is there again. */
	snprintf(logpath, sizeof(logpath), "%s-wal", path);
	unlink(logpath);
	snprintf(logpath, sizeof(logpath), "%s-shm", path);
	unlink(logpath);
	write_file(path, clean, len);
	integrity_ok();
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = user_session();
	assert_int_equal(count_label(h, "k0-99", NULL), 2);
	assert_int_equal(count_label(h, "k0-39", NULL), 1);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	free(clean);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kills, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damage, setup, teardown),
	};

	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
