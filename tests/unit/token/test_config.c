/* The configuration file: defaults, values, problems reported by line;
 * the database opened with its settings. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "token/token.h"

struct problems {
	unsigned n;
	unsigned lines[16];
	char msgs[16][512];
};

static void
collect(void *ctx, const char *file, unsigned line, const char *msg)
{
	struct problems *p = ctx;

	(void)file;
	if (p->n < 16) {
		p->lines[p->n] = line;
		snprintf(p->msgs[p->n], sizeof(p->msgs[0]), "%s", msg);
	}
	p->n++;
}

static char *
write_conf(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	strcpy(path, "/tmp/vgtoken-conf-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void
test_defaults(void **state)
{
	struct vg_config c;
	struct problems p = { 0 };

	(void)state;
	unsetenv("VGTOKEN_CONF");
	setenv("XDG_DATA_HOME", "/nonexistent/xdg", 1);
	/* The default file may or may not exist; a missing one is no
	 * problem, so only check the file-independent parts. */
	vg_config_load(&c, "/nonexistent/vgtoken.conf", collect, &p);
	assert_int_equal(p.n, 1); /* a file named by the caller is missing */
	assert_int_equal(c.from_file, 0);
	assert_int_equal(c.pin_min_len, 4);
	assert_int_equal(c.pin_max_len, 255);
	assert_int_equal(c.user_pin_retries, 10);
	assert_int_equal(c.so_pin_retries, 10);
	assert_true(c.pbkdf2_iterations >= 600000);
	assert_int_equal(c.sqlite_synchronous, VG_SYNC_FULL);
	assert_int_equal(c.sqlite_cache_kib, 16384);
	assert_int_equal(c.log_level, VG_LOG_ERROR);
	assert_string_equal(c.data_dir, "/nonexistent/xdg/vgtoken");

	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/nonexistent/home", 1);
	vg_config_load(&c, "/nonexistent/vgtoken.conf", NULL, NULL);
	assert_string_equal(c.data_dir,
	    "/nonexistent/home/.local/share/vgtoken");
}

static void
test_values(void **state)
{
	struct vg_config c;
	struct problems p = { 0 };
	char *path = write_conf(
	    "# comment\n"
	    "\n"
	    "data_dir = /srv/tokens   # trailing comment\n"
	    "  pin_min_length=6\n"
	    "pin_max_length = 64\n"
	    "user_pin_retries = 3\n"
	    "pbkdf2_iterations = 1000\n"
	    "sqlite_synchronous = normal\n"
	    "sqlite_cache_kib = 512\n"
	    "log_level = debug\n");

	(void)state;
	assert_int_equal(vg_config_load(&c, path, collect, &p), 0);
	assert_int_equal(p.n, 0);
	assert_int_equal(c.from_file, 1);
	assert_string_equal(c.path, path);
	assert_string_equal(c.data_dir, "/srv/tokens");
	assert_int_equal(c.pin_min_len, 6);
	assert_int_equal(c.pin_max_len, 64);
	assert_int_equal(c.user_pin_retries, 3);
	assert_int_equal(c.pbkdf2_iterations, 1000);
	assert_int_equal(c.sqlite_synchronous, VG_SYNC_NORMAL);
	assert_int_equal(c.sqlite_cache_kib, 512);
	assert_int_equal(c.log_level, VG_LOG_DEBUG);
	unlink(path);
}

static void
test_problems(void **state)
{
	struct vg_config c;
	struct problems p = { 0 };
	char *path = write_conf(
	    "colour = blue\n"                 /* 1: unknown key */
	    "pin_min_length = 0\n"            /* 2: out of range */
	    "pin_max_length = 12abc\n"        /* 3: not a number */
	    "sqlite_synchronous = sometimes\n" /* 4: not a name */
	    "just some words\n"               /* 5: no '=' */
	    "data_dir = relative/path\n"      /* 6: not absolute */
	    "user_pin_retries = -1\n"         /* 7: negative */
	    "so_pin_retries = 99999999999999999999999\n" /* 8: overflow */
	    "sqlite_cache_kib = 63\n"          /* 9: below the least */
	    "pbkdf2_iterations = 5000\n");    /* fine */

	(void)state;
	assert_int_equal(vg_config_load(&c, path, collect, &p), 9);
	assert_int_equal(p.n, 9);
	assert_int_equal(p.lines[0], 1);
	assert_non_null(strstr(p.msgs[0], "unknown key 'colour'"));
	assert_int_equal(p.lines[1], 2);
	assert_non_null(strstr(p.msgs[1], "pin_min_length"));
	/* Each message says what the setting accepts. */
	assert_non_null(strstr(p.msgs[0], "(known keys: data_dir, "
	    "log_level, pin_min_length,"));
	assert_non_null(strstr(p.msgs[1], "(expected 1..255)"));
	assert_int_equal(p.lines[2], 3);
	assert_int_equal(p.lines[3], 4);
	assert_non_null(strstr(p.msgs[3], "(expected one of: off, normal, "
	    "full, extra)"));
	assert_int_equal(p.lines[4], 5);
	assert_int_equal(p.lines[5], 6);
	assert_non_null(strstr(p.msgs[5], "expected an absolute path"));
	assert_int_equal(p.lines[6], 7);
	assert_int_equal(p.lines[7], 8);
	assert_int_equal(p.lines[8], 9);
	assert_non_null(strstr(p.msgs[8], "(expected 64..1048576)"));
	/* Bad values leave the defaults; good ones still apply. */
	assert_int_equal(c.pin_min_len, 4);
	assert_int_equal(c.pin_max_len, 255);
	assert_int_equal(c.sqlite_synchronous, VG_SYNC_FULL);
	assert_int_equal(c.user_pin_retries, 10);
	assert_int_equal(c.sqlite_cache_kib, 16384);
	assert_int_equal(c.pbkdf2_iterations, 5000);
	unlink(path);
}

static void
test_inconsistent_and_env(void **state)
{
	struct vg_config c;
	struct problems p = { 0 };
	char *path = write_conf("pin_min_length = 20\npin_max_length = 8\n");

	(void)state;
	assert_int_equal(vg_config_load(&c, path, collect, &p), 1);
	assert_int_equal(c.pin_min_len, 4);
	assert_int_equal(c.pin_max_len, 255);

	/* VGTOKEN_CONF names the file when the caller does not. */
	setenv("VGTOKEN_CONF", path, 1);
	assert_string_equal(vg_config_default_path(), path);
	memset(&p, 0, sizeof(p));
	vg_config_load(&c, NULL, collect, &p);
	assert_int_equal(c.from_file, 1);
	assert_int_equal(p.n, 1);
	unlink(path);
	memset(&p, 0, sizeof(p));
	vg_config_load(&c, NULL, collect, &p);
	assert_int_equal(p.n, 1); /* named by VGTOKEN_CONF but missing */
	unsetenv("VGTOKEN_CONF");
}

static void
test_long_line(void **state)
{
	struct vg_config c;
	struct problems p = { 0 };
	size_t n = PATH_MAX + 500;
	char *text = malloc(n + 64), *path;

	(void)state;
	assert_non_null(text);
	strcpy(text, "data_dir = /");
	memset(text + 12, 'a', n);
	strcpy(text + 12 + n, "\npin_min_length = 5\n");
	path = write_conf(text);
	free(text);
	vg_config_load(&c, path, collect, &p);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.lines[0], 1);
	assert_int_equal(c.pin_min_len, 5);
	unlink(path);
}

struct shown {
	unsigned count;
	char pin_min[16];
};

static void
record(void *ctx, const char *key, const char *value)
{
	struct shown *sh = ctx;

	sh->count++;
	if (strcmp(key, "pin_min_length") == 0)
		snprintf(sh->pin_min, sizeof(sh->pin_min), "%s", value);
}

static void
test_show(void **state)
{
	struct vg_config c;
	struct shown sh = { 0, "" };
	char *path = write_conf("pin_min_length = 7\n");

	(void)state;
	vg_config_load(&c, path, NULL, NULL);
	vg_config_show(&c, record, &sh);
	assert_int_equal(sh.count, 10);
	assert_string_equal(sh.pin_min, "7");
	unlink(path);
}

/* The database the module opens: PRAGMA cache_size is the configured
 * sqlite_cache_kib (negative: KiB), 16384 by default. */
static void
test_db_cache(void **state)
{
	static const char *const texts[] = {
		"sqlite_cache_kib = 512\n", "", "sqlite_cache_kib = 7\n",
	};
	static const int want[] = { -512, -16384, -16384 };
	char dir[] = "/tmp/vgtoken-cache-XXXXXX", text[160], cmd[64];
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct vg_config c;
		struct problems p = { 0 };
		struct vg_db db;
		sqlite3_stmt *st;
		char *path;

		snprintf(text, sizeof(text), "data_dir = %s\n%s", dir,
		    texts[i]);
		path = write_conf(text);
		vg_config_load(&c, path, collect, &p);
		assert_int_equal(vg_db_open(&db, &c), CKR_OK);
		assert_int_equal(sqlite3_prepare_v2(db.h, "PRAGMA cache_size",
		    -1, &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), want[i]);
		sqlite3_finalize(st);
		vg_db_close(&db);
		unlink(path);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_inconsistent_and_env),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_show),
		cmocka_unit_test(test_db_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
