/*
 * jsoncheck FILE MODE: parses a vgtoken-bench --json file with json-c and
 * checks its shape for the mode (crypto, p11, store, callgrind, info):
 * the "mode" member, the environment, and at least one result whose
 * figures are numbers. Used by tests/bench/smoke.sh; exits 0 when the file
 * is good, 1 with a message otherwise.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

static int
fail(const char *file, const char *what)
{
	fprintf(stderr, "jsoncheck: %s: %s\n", file, what);
	return 1;
}

static struct json_object *
get(struct json_object *o, const char *key, enum json_type type)
{
	struct json_object *v = NULL;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* A number, or null where a figure could not be measured. */
static int
is_num(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return v == NULL || json_object_is_type(v, json_type_double) ||
	    json_object_is_type(v, json_type_int);
}

/* {"median":..,"min":..,"max":..,"rounds":[..]} */
static int
is_series(struct json_object *o, const char *key)
{
	struct json_object *s = get(o, key, json_type_object);

	return s != NULL && is_num(s, "median") && is_num(s, "min") &&
	    is_num(s, "max") && get(s, "rounds", json_type_array) != NULL;
}

static int
check_result(const char *mode, struct json_object *r)
{
	struct json_object *a;
	size_t i;

	if (strcmp(mode, "crypto") == 0) {
		a = get(r, "sides", json_type_array);
		if (get(r, "name", json_type_string) == NULL || a == NULL ||
		    json_object_array_length(a) != 2 || !is_series(r, "ratio"))
			return 0;
		for (i = 0; i < 2; i++)
			if (!is_series(json_object_array_get_idx(a, i),
			    "cpu_ns_per_op") ||
			    !is_series(json_object_array_get_idx(a, i),
			    "wall_ns_per_op"))
				return 0;
		return 1;
	}
	if (strcmp(mode, "p11") == 0) {
		a = get(r, "modules", json_type_array);
		if (get(r, "name", json_type_string) == NULL || a == NULL ||
		    json_object_array_length(a) < 1)
			return 0;
		for (i = 0; i < json_object_array_length(a); i++) {
			struct json_object *m = json_object_array_get_idx(a, i);

			if (get(m, "status", json_type_string) == NULL ||
			    !is_series(m, "ops_per_s") ||
			    !is_series(m, "cpu_us_per_op"))
				return 0;
		}
		return get(r, "ratios", json_type_array) != NULL;
	}
	if (strcmp(mode, "store") == 0)
		return get(r, "module", json_type_string) != NULL &&
		    is_num(r, "init_login_ns") && is_num(r, "find_ns") &&
		    is_num(r, "create_ns") && is_num(r, "maxrss_kb");
	if (strcmp(mode, "callgrind") == 0)
		return get(r, "name", json_type_string) != NULL &&
		    is_num(r, "vgtoken");
	return 0;
}

/* Checks the document; returns 0 or 1 with a message. */
static int
check(const char *file, struct json_object *doc, const char *want)
{
	struct json_object *mode, *res;
	size_t i, n;

	mode = get(doc, "mode", json_type_string);
	if (mode == NULL || strcmp(json_object_get_string(mode), want) != 0)
		return fail(file, "no \"mode\" or another mode");
	if (get(get(doc, "env", json_type_object), "cpu",
	    json_type_string) == NULL)
		return fail(file, "no env.cpu");
	if (strcmp(want, "info") == 0)
		return 0;
	res = get(doc, "results", json_type_array);
	n = res != NULL ? json_object_array_length(res) : 0;
	if (n == 0)
		return fail(file, "no results");
	for (i = 0; i < n; i++)
		if (!check_result(want, json_object_array_get_idx(res, i)))
			return fail(file, "a result lacks its figures");
	if (strcmp(want, "store") == 0 &&
	    get(doc, "goals", json_type_array) == NULL)
		return fail(file, "no goals");
	printf("jsoncheck: %s: %s, %zu results\n", file, want, n);
	return 0;
}

int
main(int argc, char **argv)
{
	struct json_object *doc;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: jsoncheck FILE MODE\n");
		return 2;
	}
	doc = json_object_from_file(argv[1]);
	if (doc == NULL)
		return fail(argv[1], "does not parse as JSON");
	rc = check(argv[1], doc, argv[2]);
	json_object_put(doc);
	return rc;
}
