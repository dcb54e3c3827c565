/*
 * Reading Wycheproof test vectors (JSON, through json-c) for the
 * known-answer tests. The files come from $VG_VECTORS_DIR/wycheproof/
 * (make check sets VG_VECTORS_DIR to the tree's tests/vectors, where
 * tests/vectors/wycheproof/README.md says where they come from). Include
 * <stdarg.h>, <stddef.h>, <setjmp.h> and <cmocka.h> first.
 */
#ifndef VG_TESTS_KAT_WYCHEPROOF_H
#define VG_TESTS_KAT_WYCHEPROOF_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

/* How many tests of each expected result were seen (acc_ok: acceptable
 * ones that passed). */
struct wp_counts {
	unsigned valid, invalid, acceptable, acc_ok;
};

/*
 * Finds the vectors: 0 when $VG_VECTORS_DIR/wycheproof holds every file
 * named; otherwise prints "FAIL: <reason>" and returns 1, the exit status
 * the test should end with: the vectors are part of the tree, so a test
 * that cannot find them has failed, not been skipped.
 */
int wp_init(const char *const *files, size_t n);

/* Parses a vector file (fails the test if it cannot). */
json_object *wp_load(const char *name);

/* The string member key of o, or NULL if absent or null. */
const char *wp_str(json_object *o, const char *key);

/* Decodes hex into a malloc'ed buffer (never NULL); *len its length. */
uint8_t *wp_unhex(const char *s, size_t *len);

/* A test's expected result: 1 valid, 0 invalid, -1 acceptable; counted
 * in *c. */
int wp_expected(json_object *t, struct wp_counts *c);

/*
 * For tests whose functions take the kernels from the process-wide table
 * (hashes, HMAC, HKDF): when status is 0 and VG_CPU_FEATURES is not
 * "none", runs this program again with VG_CPU_FEATURES=none, so that the
 * portable kernels see the vectors too, and returns its exit status;
 * otherwise returns status (also in a run started by wp_rerun_masked).
 */
int wp_rerun_portable(int status);
/*
 * When status is 0 and VG_CPU_FEATURES is unset (the first run), runs
 * this program again with VG_CPU_FEATURES=mask (a kernel set between the
 * native and the portable one, such as "bmi2,adx") and returns its exit
 * status; otherwise returns status.
 */
int wp_rerun_masked(int status, const char *mask);

#endif
