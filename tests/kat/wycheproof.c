/* Reading Wycheproof test vectors; see wycheproof.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/kat/wycheproof.h"

static const char *vectors_dir;

/* see wycheproof.h */
int
wp_init(const char *const *files, size_t n)
{
	char probe[4096];
	struct stat st;
	size_t i;

	vectors_dir = getenv("VG_VECTORS_DIR");
	if (vectors_dir == NULL) {
		printf("FAIL: VG_VECTORS_DIR is not set (make check sets it "
		    "to tests/vectors)\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		snprintf(probe, sizeof(probe), "%s/wycheproof/%s", vectors_dir,
		    files[i]);
		if (stat(probe, &st) != 0) {
			printf("FAIL: %s is missing\n", probe);
			return 1;
		}
	}
	return 0;
}

/* see wycheproof.h */
json_object *
wp_load(const char *name)
{
	char path[4096];
	json_object *root;

	snprintf(path, sizeof(path), "%s/wycheproof/%s", vectors_dir, name);
	root = json_object_from_file(path);
	if (root == NULL)
		fail_msg("cannot parse %s", path);
	return root;
}

/* see wycheproof.h */
const char *
wp_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    json_object_is_type(v, json_type_null))
		return NULL;
	return json_object_get_string(v);
}

/* see wycheproof.h */
uint8_t *
wp_unhex(const char *s, size_t *len)
{
	size_t n = strlen(s) / 2, i;
	uint8_t *p = malloc(n + 1);

	assert_non_null(p);
	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		p[i] = (uint8_t)v;
	}
	*len = n;
	return p;
}

/* see wycheproof.h */
int
wp_expected(json_object *t, struct wp_counts *c)
{
	const char *r = wp_str(t, "result");

	assert_non_null(r);
	if (strcmp(r, "valid") == 0) {
		c->valid++;
		return 1;
	}
	if (strcmp(r, "invalid") == 0) {
		c->invalid++;
		return 0;
	}
	c->acceptable++;
	return -1;
}

/* see wycheproof.h */
int
wp_rerun_portable(int status)
{
	const char *f = getenv("VG_CPU_FEATURES");
	pid_t pid;
	int ws;

	if (status != 0 || (f != NULL && strcmp(f, "none") == 0) ||
	    getenv("VG_WP_MASKED") != NULL)
		return status;
	printf("# again with VG_CPU_FEATURES=none\n");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		setenv("VG_CPU_FEATURES", "none", 1);
		execl("/proc/self/exe", "wycheproof-portable", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &ws, 0) != pid)
		return 1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
}

/* see wycheproof.h */
int
wp_rerun_masked(int status, const char *mask)
{
	pid_t pid;
	int ws;

	if (status != 0 || getenv("VG_CPU_FEATURES") != NULL)
		return status;
	printf("# again with VG_CPU_FEATURES=%s\n", mask);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		setenv("VG_CPU_FEATURES", mask, 1);
		setenv("VG_WP_MASKED", "1", 1);
		execl("/proc/self/exe", "wycheproof-masked", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &ws, 0) != pid)
		return 1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
}
