/*
 * vgtoken-bench: benchmarks of vgtoken against its peers in one run.
 *
 *   vgtoken-bench crypto [--kernels all]      crypto/ against OpenSSL's
 *                                             libcrypto, and kernel variants
 *   vgtoken-bench p11 --module PATH ...       any PKCS#11 modules, side by side
 *   vgtoken-bench store --module PATH ...     token-store scaling (issue 3)
 *   vgtoken-bench callgrind                   instructions per operation
 *   vgtoken-bench info                        CPU, kernels, library versions
 *
 * Every figure is measured in alternating rounds (A, B, A, B, ...) so that
 * the noise of a shared machine hits both sides alike; the ratio printed is
 * the median of the per-round ratios. Nothing here is a timed test: the
 * smoke test (tests/bench/smoke.sh) checks that each mode runs and that its
 * output parses.
 *
 * This is a test program: it links crypto/ (libvgcrypto) and OpenSSL's
 * libcrypto for the crypto mode, and reaches modules only through dlopen()
 * and C_GetFunctionList in the p11 and store modes.
 */
#ifndef VG_TESTS_BENCH_H
#define VG_TESTS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cryptoki/pkcs11.h"

#define BENCH_MAX_MODULES 4
#define BENCH_MAX_THREADS 128 /* p11 --threads */
#define BENCH_MAX_ROUNDS 64

/* ------------------------------------------------------------ options */

struct bench_module_opt {
	const char *path;
	const char *token; /* NULL: a throw-away token */
	const char *pin;
};

struct bench_opts {
	const char *mode;
	struct bench_module_opt mod[BENCH_MAX_MODULES];
	int nmod;
	const char *token, *pin;   /* defaults for modules without their own */
	double seconds;            /* per case and side (module) */
	int rounds;
	const char *json;          /* --json FILE */
	const char *markdown;      /* --markdown FILE: a README fragment */
	const char *filter[16];    /* --case SUBSTRING, once or more */
	int nfilter;
	int kernels_all;           /* --kernels all */
	unsigned long pbkdf2_iter; /* crypto: PBKDF2 iterations */
	unsigned long counts[8];   /* store: object counts */
	int ncounts;
	int store_public;          /* store: CKA_PRIVATE false objects */
	double setup_limit;        /* store: skip fillings longer (s) */
	int threads_max;           /* p11: the most threads of a row */
	int scale;                 /* p11: rows 1, 2, 4, ... threads_max */
	unsigned long iters;       /* callgrind: operations per case */
	const char *save, *previous, *valgrind; /* callgrind */
	int quiet;
};

extern struct bench_opts opt;
extern const char *bench_self; /* path of this program, for re-exec */

/* ------------------------------------------------------------- time */

/* Nanoseconds of the monotonic clock, of this thread's CPU time, and of
 * the whole process's CPU time. */
uint64_t bench_wall_ns(void);
uint64_t bench_thread_cpu_ns(void);
uint64_t bench_proc_cpu_ns(void);

/* ------------------------------------------------------------ stats */

/* One side of a comparison: a value per round. */
struct bench_series {
	double v[BENCH_MAX_ROUNDS];
	int n;
};

void series_add(struct bench_series *s, double v);
double series_median(const struct bench_series *s);
double series_min(const struct bench_series *s);
double series_max(const struct bench_series *s);

/* Formats a duration given in ns with a unit that keeps 3-4 digits
 * ("812 ns", "8.21 us", "103 ms"). Returns buf. */
char *fmt_time(char *buf, size_t n, double ns);
/* "11.5 us [11.4-11.9]": a median and its range in the median's unit. */
char *fmt_range(char *buf, size_t n, double med, double lo, double hi);
/* Formats a rate ("1.23 M", "812 k", "45.1"). Returns buf. */
char *fmt_rate(char *buf, size_t n, double per_s);

/* ------------------------------------------------------------- json */

/* A minimal streaming JSON writer: objects and arrays nest; keys are
 * given with each member; strings are escaped. */
struct json {
	FILE *f;
	int depth;
	int count[16]; /* members written at each depth */
	char close[16]; /* '}' or ']' for each open level */
};

int json_open(struct json *j, const char *path);
int json_close(struct json *j);
void json_obj(struct json *j, const char *key);
void json_arr(struct json *j, const char *key);
void json_end(struct json *j);
void json_str(struct json *j, const char *key, const char *v);
void json_num(struct json *j, const char *key, double v);
void json_int(struct json *j, const char *key, long long v);
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);
/* {"median":..,"min":..,"max":..,"rounds":[..]} of a series */
void json_series(struct json *j, const char *key, const struct bench_series *s);

/* ----------------------------------------------------- environment */

/* The CPU's model name from /proc/cpuinfo (or "unknown"). */
const char *bench_cpu_model(void);

/* The kernels the global table chose, "sha256=shani aes=aesni ...". */
const char *bench_kernels_chosen(void);

/* The linked libcrypto's version string. */
const char *bench_openssl_version(void);

/* A private directory, removed at exit by the process that made it.
 * Returns its path (static storage) or NULL. */
const char *bench_tmpdir(void);

/* Writes the benchmark's environment header (CPU, kernels, OpenSSL) to
 * out and to the JSON document under "env". */
void bench_print_env(FILE *out, struct json *j);

/* The same as a Markdown list (for the README). */
void bench_env_markdown(FILE *md);

/* Runs the case-name filter of --case: 1 when name should run. */
int bench_selected(const char *name);

/* ------------------------------------------------------------ child */

/* A re-executed copy of this program, talking over two pipes one line
 * at a time. */
struct bench_child {
	int pid;
	FILE *to, *from;
};

/* Starts prog (NULL: this program, bench_self) with argv, with the
 * environment variables in env ("NAME=value", NULL-terminated; "NAME"
 * alone unsets it); its stdin and stdout are pipes to us. Returns 0 or
 * -1. */
int child_start(struct bench_child *c, const char *prog, char *const argv[],
    const char *const env[]);
/* Sends a line and reads one answer line into buf. Returns 0 or -1. */
int child_ask(struct bench_child *c, const char *line, char *buf, size_t n);
/* Closes the pipes, waits for the child; returns its exit status (or
 * -1). With ru non-NULL the child's resource usage is stored there. */
struct rusage;
int child_finish(struct bench_child *c, struct rusage *ru);

/* --------------------------------------------------------- the modes */

int bench_crypto(void);
int bench_crypto_child(void);
int bench_callgrind(void);
int bench_callgrind_child(int argc, char **argv);
int bench_p11(void);
int bench_store(void);
int bench_store_child(int argc, char **argv);

/* ------------------------------------------------------------ PKCS#11 */

/* A module loaded for the p11 and store modes. */
struct bmod {
	const char *path;
	char name[32];     /* short name: the file name without lib and .so */
	char info[160];    /* C_GetInfo: manufacturer, description, version */
	void *dl;
	CK_FUNCTION_LIST *f;
	CK_FUNCTION_LIST_3_2 *f32; /* C_GetInterface's 3.2 table; NULL when
	                              the module has none */
	CK_SLOT_ID slot;
	char label[33];    /* the token's label */
	char pin[64];      /* user PIN */
	int throwaway;     /* we made the token */
	CK_SESSION_HANDLE main; /* a read-write session, logged in as user */
};

/* Name of a CK_RV ("CKR_MECHANISM_INVALID", else "CKR_0x..."). */
const char *rv_name(CK_RV rv);

/* Prepares the environment read by the modules we know of, so that a
 * throw-away token never touches the user's own: under dir, a vgtoken
 * configuration with a test PBKDF2 count and its own data directory
 * (VGTOKEN_CONF, XDG_DATA_HOME), and a SoftHSMv2 configuration with its
 * own token directory (SOFTHSM2_CONF). Other modules see variables they
 * ignore. Returns 0 or -1. */
int bmod_prepare_env(const char *dir);

/* The PBKDF2 count written to the throw-away vgtoken configuration. */
#define BENCH_TEST_PBKDF2 1000

/* dlopen()s path (a copy of it when the same file is already loaded, so
 * that each --module is its own instance), calls C_GetFunctionList and
 * fills m->name, m->info. Does not call C_Initialize. Returns 0 or -1
 * with a message printed. */
int bmod_load(struct bmod *m, const char *path, int index);

/* C_Initialize with OS locking allowed. */
CK_RV bmod_initialize(struct bmod *m);

/* Finds the slot whose token is labelled label; CKR_TOKEN_NOT_PRESENT
 * when none is. */
CK_RV bmod_find_token(struct bmod *m, const char *label, CK_SLOT_ID *slot);

/* Initialises a throw-away token labelled label on a slot holding an
 * uninitialised token, and sets its user PIN; m->slot, m->label and
 * m->pin are then set. */
CK_RV bmod_init_token(struct bmod *m, const char *label);

/* Opens m->main (read-write) on m->slot and logs the user in (an
 * already logged-in application is fine). */
CK_RV bmod_open_main(struct bmod *m);

/* The SO PIN of throw-away tokens. */
#define BENCH_SO_PIN "bench-so-pin"
#define BENCH_USER_PIN "bench-user-pin"

#endif
