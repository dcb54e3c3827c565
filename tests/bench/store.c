/*
 * The store mode of vgtoken-bench: how a token scales with the number of
 * objects on it (issue 3, "Performance"). For each count (10, 1,000 and
 * 10,000 by default) and each module, alternating modules count by count:
 *
 *  1. a set-up process brings the module's throw-away token to that many
 *     private data objects (created once, added to as counts grow; never
 *     timed; for vgtoken with sqlite_synchronous = off, which changes only
 *     how long the filling takes);
 *  2. a fresh measuring process then times, with the module's ordinary
 *     configuration: C_Initialize + C_OpenSession + C_Login (with the
 *     C_GetSlotList/C_GetTokenInfo that find the token), C_FindObjects by
 *     CKA_LABEL returning one object, and C_CreateObject; and reports its
 *     peak RSS (VmHWM, and ru_maxrss from wait4).
 *
 * Each measurement is the median of repeated calls (at least 3, more while
 * --seconds lasts). The figures are printed with their ratio to the
 * smallest count and between modules, and issue 3's goals are checked.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/bench/bench.h"

#define STORE_LABEL "bench-store"
#define STORE_APP "vgtoken-bench store"
#define MAX_REPS 20000

struct store_fig {
	double cost_n[2], cost_ns[2]; /* set-up: create cost at two counts */
	int ok;
	int skipped;     /* --setup-limit: filling would take too long */
	double estimate; /* its estimated filling time, seconds */
	double init_ns, init_first_ns, find_ns, create_ns;
	int init_reps, find_reps, create_reps;
	long hwm_kb, maxrss_kb;
	double setup_s;
};

/* ------------------------------------------------------- the children */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double
median_u64(uint64_t *v, int n)
{
	if (n == 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
	return n % 2 ? (double)v[n / 2] :
	    ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

static CK_RV
create_one(struct bmod *m, const char *label, CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_BBOOL yes = CK_TRUE, priv = opt.store_public ? CK_FALSE : CK_TRUE;
	unsigned char value[64];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PRIVATE, &priv, sizeof(priv) },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_APPLICATION, (void *)STORE_APP, sizeof(STORE_APP) - 1 },
		{ CKA_VALUE, value, sizeof(value) },
	};

	memset(value, 0xa7, sizeof(value));
	return m->f->C_CreateObject(m->main, t, 6, h);
}

static void
obj_label(char *buf, size_t n, unsigned long i)
{
	snprintf(buf, n, "store object %06lu", i);
}

/* store-child setup: brings the token from `from` to `to` objects. */
static int
child_setup(struct bmod *m, unsigned long from, unsigned long to)
{
	char label[40];
	CK_OBJECT_HANDLE h;
	unsigned long i, half = from + (to - from) / 2;
	uint64_t t0 = 0, sum[2] = { 0, 0 };
	CK_RV rv;

	if (from == 0)
		rv = bmod_init_token(m, STORE_LABEL);
	else
		rv = bmod_find_token(m, STORE_LABEL, &m->slot);
	snprintf(m->pin, sizeof(m->pin), "%s", BENCH_USER_PIN);
	if (rv == CKR_OK)
		rv = bmod_open_main(m);
	for (i = from; i < to && rv == CKR_OK; i++) {
		obj_label(label, sizeof(label), i);
		t0 = bench_wall_ns();
		rv = create_one(m, label, &h);
		sum[i >= half] += bench_wall_ns() - t0;
	}
	if (rv != CKR_OK) {
		printf("err set-up: %s\n", rv_name(rv));
		return 1;
	}
	/* The cost of one C_CreateObject in each half of the filling, at
	 * the middle count of the half: how the parent foresees the next
	 * filling. */
	if (half > from && to > half)
		printf("cost %.1f %.0f %.1f %.0f\n",
		    (double)(from + half) / 2, (double)sum[0] / (half - from),
		    (double)(half + to) / 2, (double)sum[1] / (to - half));
	m->f->C_Finalize(NULL);
	printf("ok\n");
	return 0;
}

static long
vm_hwm_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* C_Initialize, find the token, C_OpenSession, C_Login: the start of
 * every application that uses the token. */
static CK_RV
init_login(struct bmod *m)
{
	CK_RV rv;

	rv = bmod_initialize(m);
	if (rv == CKR_OK)
		rv = bmod_find_token(m, STORE_LABEL, &m->slot);
	if (rv == CKR_OK)
		rv = bmod_open_main(m);
	return rv;
}

static int
enough(int reps, int min, uint64_t start, double seconds)
{
	return reps >= MAX_REPS || (reps >= min &&
	    (double)(bench_wall_ns() - start) >= seconds * 1e9);
}

/* store-child measure: the figures of one count, one line each. */
static int
child_measure(struct bmod *m, unsigned long count, double seconds)
{
	static uint64_t t[MAX_REPS];
	static CK_OBJECT_HANDLE made[MAX_REPS];
	char label[40];
	CK_OBJECT_HANDLE h[4];
	uint64_t start, t0, first = 0;
	int n;
	CK_ULONG found;
	CK_RV rv = CKR_OK;

	snprintf(m->pin, sizeof(m->pin), "%s", BENCH_USER_PIN);
	start = bench_wall_ns();
	for (n = 0; !enough(n, 3, start, seconds); n++) {
		if (n > 0)
			m->f->C_Finalize(NULL);
		t0 = bench_wall_ns();
		rv = init_login(m);
		t[n] = bench_wall_ns() - t0;
		if (rv != CKR_OK)
			goto fail;
		if (n == 0)
			first = t[0];
	}
	printf("init %.0f %llu %d\n", median_u64(t, n),
	    (unsigned long long)first, n);

	start = bench_wall_ns();
	for (n = 0; !enough(n, 5, start, seconds); n++) {
		unsigned long i = (unsigned long)(n * 7919UL) % count;
		CK_ATTRIBUTE tmpl[] = { { CKA_LABEL, label, 0 } };
		CK_RV rv2;

		obj_label(label, sizeof(label), i);
		tmpl[0].ulValueLen = strlen(label);
		found = 0;
		t0 = bench_wall_ns();
		rv = m->f->C_FindObjectsInit(m->main, tmpl, 1);
		if (rv == CKR_OK) {
			rv = m->f->C_FindObjects(m->main, h, 4, &found);
			rv2 = m->f->C_FindObjectsFinal(m->main);
			if (rv == CKR_OK)
				rv = rv2;
		}
		t[n] = bench_wall_ns() - t0;
		if (rv == CKR_OK && found != 1) {
			printf("err find \"%s\": %lu objects\n", label,
			    (unsigned long)found);
			return 1;
		}
		if (rv != CKR_OK)
			goto fail;
	}
	printf("find %.0f %d\n", median_u64(t, n), n);

	start = bench_wall_ns();
	for (n = 0; !enough(n, 3, start, seconds) && n < 1000; n++) {
		snprintf(label, sizeof(label), "store new %06d", n);
		t0 = bench_wall_ns();
		rv = create_one(m, label, &made[n]);
		t[n] = bench_wall_ns() - t0;
		if (rv != CKR_OK)
			goto fail;
	}
	printf("create %.0f %d\n", median_u64(t, n), n);
	/* Back to `count` objects for the next, larger count. */
	while (n-- > 0)
		m->f->C_DestroyObject(m->main, made[n]);
	printf("hwm %ld\n", vm_hwm_kb());
	m->f->C_Finalize(NULL);
	printf("done\n");
	return 0;
fail:
	printf("err %s\n", rv_name(rv));
	return 1;
}

/* see bench.h
 *
 * vgtoken-bench store-child setup|measure MODULE DIR COUNT FROM SECONDS
 * private|public */
int
bench_store_child(int argc, char **argv)
{
	struct bmod m;
	char conf[PATH_MAX];
	unsigned long count, from;
	double seconds;
	int setup;
	CK_RV rv;

	if (argc != 9)
		return 2;
	opt.store_public = strcmp(argv[8], "public") == 0;
	setup = strcmp(argv[2], "setup") == 0;
	count = strtoul(argv[5], NULL, 10);
	from = strtoul(argv[6], NULL, 10);
	seconds = strtod(argv[7], NULL);
	if (count == 0 || bmod_prepare_env(argv[4]) != 0)
		return 1;
	if (setup) {
		snprintf(conf, sizeof(conf), "%s/vgtoken-setup.conf", argv[4]);
		setenv("VGTOKEN_CONF", conf, 1);
	}
	if (bmod_load(&m, argv[3], 0) != 0) {
		printf("err load\n");
		return 1;
	}
	if (!setup)
		return child_measure(&m, count, seconds);
	rv = bmod_initialize(&m);
	if (rv != CKR_OK) {
		printf("err C_Initialize: %s\n", rv_name(rv));
		return 1;
	}
	return child_setup(&m, from, count);
}

/* ------------------------------------------------------- the parent */

static int
run_child(const char *what, const char *module, const char *dir,
    unsigned long count, unsigned long from, struct store_fig *fig)
{
	char sc[24], sf[24], ss[24], line[256];
	char *argv[] = { (char *)"vgtoken-bench", (char *)"store-child",
		(char *)what, (char *)module, (char *)dir, sc, sf, ss,
		(char *)(opt.store_public ? "public" : "private"), NULL };
	struct bench_child ch;
	struct rusage ru;
	int st, done = 0;

	snprintf(sc, sizeof(sc), "%lu", count);
	snprintf(sf, sizeof(sf), "%lu", from);
	snprintf(ss, sizeof(ss), "%g", opt.seconds);
	if (child_start(&ch, NULL, argv, NULL) != 0)
		return -1;
	while (child_ask(&ch, NULL, line, sizeof(line)) == 0) {
		if (strcmp(line, "ok") == 0 || strcmp(line, "done") == 0)
			done = 1;
		else if (strncmp(line, "err", 3) == 0)
			fprintf(stderr, "vgtoken-bench store: %s, %lu objects, "
			    "%s: %s\n", module, count, what, line);
		else if (sscanf(line, "init %lf %lf %d", &fig->init_ns,
		    &fig->init_first_ns, &fig->init_reps) == 3 ||
		    sscanf(line, "find %lf %d", &fig->find_ns,
		    &fig->find_reps) == 2 ||
		    sscanf(line, "create %lf %d", &fig->create_ns,
		    &fig->create_reps) == 2 ||
		    sscanf(line, "hwm %ld", &fig->hwm_kb) == 1 ||
		    sscanf(line, "cost %lf %lf %lf %lf", &fig->cost_n[0],
		    &fig->cost_ns[0], &fig->cost_n[1], &fig->cost_ns[1]) == 4)
			continue;
	}
	memset(&ru, 0, sizeof(ru));
	st = child_finish(&ch, &ru);
	if (strcmp(what, "measure") == 0)
		fig->maxrss_kb = ru.ru_maxrss;
	return st == 0 && done ? 0 : -1;
}

static double
peak_mib(const struct store_fig *f)
{
	long kb = f->hwm_kb > f->maxrss_kb ? f->hwm_kb : f->maxrss_kb;

	return (double)kb / 1024;
}

static void
sort_counts(void)
{
	int i, k;

	for (i = 1; i < opt.ncounts; i++)
		for (k = i; k > 0 && opt.counts[k - 1] > opt.counts[k]; k--) {
			unsigned long t = opt.counts[k];

			opt.counts[k] = opt.counts[k - 1];
			opt.counts[k - 1] = t;
		}
}

static int
count_index(unsigned long n)
{
	int i;

	for (i = 0; i < opt.ncounts; i++)
		if (opt.counts[i] == n)
			return i;
	return -1;
}

/* see bench.h */
int
bench_store(void)
{
	static struct store_fig fig[BENCH_MAX_MODULES][8];
	struct bmod names[BENCH_MAX_MODULES];
	char dirs[BENCH_MAX_MODULES][PATH_MAX], a[24], b[24], c[24];
	unsigned long have[BENCH_MAX_MODULES] = { 0 };
	/* Per module, C_CreateObject's cost as a + b * count, fitted on the
	 * last filling (b = -1: not known yet). */
	double cost_a[BENCH_MAX_MODULES], cost_b[BENCH_MAX_MODULES];
	struct json j = { 0 };
	FILE *md = NULL;
	const char *tmp;
	int ci, k, mi, rc = 0, i10, i10k;

	if (opt.nmod == 0) {
		fprintf(stderr, "vgtoken-bench store: give --module PATH\n");
		return 2;
	}
	for (mi = 0; mi < opt.nmod; mi++)
		if (opt.mod[mi].token != NULL) {
			fprintf(stderr, "vgtoken-bench store: works on "
			    "throw-away tokens only (no --token)\n");
			return 2;
		}
	if (opt.seconds <= 0)
		opt.seconds = 0.5;
	for (mi = 0; mi < BENCH_MAX_MODULES; mi++)
		cost_b[mi] = -1;
	sort_counts();
	tmp = bench_tmpdir();
	if (tmp == NULL)
		return 1;
	if (opt.json != NULL && json_open(&j, opt.json) != 0)
		return 1;
	if (opt.markdown != NULL && (md = fopen(opt.markdown, "we")) == NULL) {
		perror(opt.markdown);
		return 1;
	}
	json_str(&j, "mode", "store");
	printf("vgtoken-bench store: %s CKO_DATA token objects (64-byte "
	    "value), %.3g s per measurement (at least 3 calls)\n",
	    opt.store_public ? "public" : "private", opt.seconds);
	bench_print_env(stdout, &j);
	json_num(&j, "seconds", opt.seconds);
	json_str(&j, "objects", opt.store_public ? "public" : "private");
	json_arr(&j, "modules");
	for (mi = 0; mi < opt.nmod; mi++) {
		/* Loaded here only for its name and C_GetInfo; the work is
		 * done by child processes. */
		snprintf(dirs[mi], sizeof(dirs[mi]), "%s/m%d", tmp, mi);
		if (mkdir(dirs[mi], 0700) != 0 ||
		    bmod_prepare_env(dirs[mi]) != 0 ||
		    bmod_load(&names[mi], opt.mod[mi].path, mi) != 0) {
			fprintf(stderr, "vgtoken-bench store: %s: set-up "
			    "failed\n", opt.mod[mi].path);
			return 1;
		}
		if (bmod_initialize(&names[mi]) == CKR_OK)
			names[mi].f->C_Finalize(NULL);
		printf("module %d: %s: %s (%s)\n", mi + 1, names[mi].name,
		    names[mi].path, names[mi].info);
		json_obj(&j, NULL);
		json_str(&j, "name", names[mi].name);
		json_str(&j, "path", names[mi].path);
		json_str(&j, "info", names[mi].info);
		json_end(&j);
	}
	json_end(&j);
	printf("throw-away tokens: vgtoken pbkdf2_iterations = %d (a test "
	    "setting); init+login = C_Initialize, C_GetSlotList, "
	    "C_GetTokenInfo, C_OpenSession, C_Login\n", BENCH_TEST_PBKDF2);
	printf("\n%-12s %8s  %-22s %-22s %-22s %s\n", "module", "objects",
	    "init+login [x first]", "find by label [x]",
	    "C_CreateObject [x]", "peak RSS");
	if (md != NULL)
		fprintf(md, "| module | objects | init+login | find by label | "
		    "C_CreateObject | peak RSS |\n|---|---|---|---|---|---|\n");

	for (ci = 0; ci < opt.ncounts; ci++) {
		unsigned long n = opt.counts[ci];

		for (k = 0; k < opt.nmod; k++) {
			struct store_fig *f, *f0;
			char ti[48], tf[48], tc[48];
			uint64_t t0;

			mi = ci % 2 ? opt.nmod - 1 - k : k;
			f = &fig[mi][ci];
			f0 = &fig[mi][0];
			if (!opt.quiet)
				fprintf(stderr, "  ... %s: %lu objects\n",
				    names[mi].name, n);
			if (opt.setup_limit > 0 && cost_b[mi] >= 0) {
				double x = (double)have[mi], y = (double)n;

				f->estimate = ((y - x) * cost_a[mi] +
				    cost_b[mi] * (y * y - x * x) / 2) / 1e9;
				if (f->estimate > opt.setup_limit ||
				    fig[mi][ci > 0 ? ci - 1 : 0].skipped) {
					f->skipped = 1;
					printf("%-12s %8lu  skipped: filling would "
					    "take about %.0f s (--setup-limit "
					    "%g)\n", names[mi].name, n,
					    f->estimate, opt.setup_limit);
					continue;
				}
			}
			t0 = bench_wall_ns();
			if (have[mi] != n && run_child("setup",
			    opt.mod[mi].path, dirs[mi], n, have[mi], f) != 0) {
				rc = 1;
				continue;
			}
			f->setup_s = (double)(bench_wall_ns() - t0) / 1e9;
			if (have[mi] != n && f->cost_n[1] > f->cost_n[0]) {
				cost_b[mi] = (f->cost_ns[1] - f->cost_ns[0]) /
				    (f->cost_n[1] - f->cost_n[0]);
				if (cost_b[mi] < 0)
					cost_b[mi] = 0;
				cost_a[mi] = f->cost_ns[0] -
				    cost_b[mi] * f->cost_n[0];
				if (cost_a[mi] < 0)
					cost_a[mi] = 0;
			}
			have[mi] = n;
			if (run_child("measure", opt.mod[mi].path, dirs[mi], n,
			    n, f) != 0) {
				rc = 1;
				continue;
			}
			f->ok = 1;
			snprintf(ti, sizeof(ti), "%s [%.2fx]",
			    fmt_time(a, sizeof(a), f->init_ns),
			    f->init_ns / f0->init_ns);
			snprintf(tf, sizeof(tf), "%s [%.2fx]",
			    fmt_time(b, sizeof(b), f->find_ns),
			    f->find_ns / f0->find_ns);
			snprintf(tc, sizeof(tc), "%s [%.2fx]",
			    fmt_time(c, sizeof(c), f->create_ns),
			    f->create_ns / f0->create_ns);
			printf("%-12s %8lu  %-22s %-22s %-22s %.1f MiB\n",
			    names[mi].name, n, ti, tf, tc, peak_mib(f));
		}
	}
	printf("[x first]: ratio to the same module's figure at %lu objects\n",
	    opt.counts[0]);
	/* The Markdown table module by module. */
	for (mi = 0; md != NULL && mi < opt.nmod; mi++)
		for (ci = 0; ci < opt.ncounts; ci++) {
			const struct store_fig *f = &fig[mi][ci];
			const struct store_fig *f0 = &fig[mi][0];

			fprintf(md, "| %s | %lu |", names[mi].name,
			    opt.counts[ci]);
			if (f->skipped)
				fprintf(md, " skipped (filling: about %.0f s) "
				    "| | | |\n", f->estimate);
			else if (!f->ok)
				fprintf(md, " failed | | | |\n");
			else
				fprintf(md, " %s [%.2fx] | %s [%.2fx] | "
				    "%s [%.2fx] | %.1f MiB |\n",
				    fmt_time(a, sizeof(a), f->init_ns),
				    f->init_ns / f0->init_ns,
				    fmt_time(b, sizeof(b), f->find_ns),
				    f->find_ns / f0->find_ns,
				    fmt_time(c, sizeof(c), f->create_ns),
				    f->create_ns / f0->create_ns, peak_mib(f));
		}
	if (md != NULL && opt.nmod > 1)
		fprintf(md, "\nBetween modules (the other module's time or "
		    "RSS over %s's; above 1, %s is faster or smaller):\n\n"
		    "| modules | objects | init+login | find by label | "
		    "C_CreateObject | peak RSS |\n|---|---|---|---|---|---|\n",
		    names[0].name, names[0].name);

	json_arr(&j, "results");
	for (mi = 0; mi < opt.nmod; mi++)
		for (ci = 0; ci < opt.ncounts; ci++) {
			const struct store_fig *f = &fig[mi][ci];
			const struct store_fig *f0 = &fig[mi][0];

			json_obj(&j, NULL);
			json_str(&j, "module", names[mi].name);
			json_int(&j, "objects", (long long)opt.counts[ci]);
			json_bool(&j, "ok", f->ok);
			json_bool(&j, "skipped", f->skipped);
			if (f->skipped)
				json_num(&j, "setup_estimate_s", f->estimate);
			json_num(&j, "init_login_ns", f->init_ns);
			json_num(&j, "init_login_first_ns", f->init_first_ns);
			json_int(&j, "init_login_calls", f->init_reps);
			json_num(&j, "find_ns", f->find_ns);
			json_int(&j, "find_calls", f->find_reps);
			json_num(&j, "create_ns", f->create_ns);
			json_int(&j, "create_calls", f->create_reps);
			json_int(&j, "vmhwm_kb", f->hwm_kb);
			json_int(&j, "maxrss_kb", f->maxrss_kb);
			json_num(&j, "setup_s", f->setup_s);
			json_num(&j, "init_login_ratio", f->init_ns / f0->init_ns);
			json_num(&j, "find_ratio", f->find_ns / f0->find_ns);
			json_num(&j, "create_ratio",
			    f->create_ns / f0->create_ns);
			json_end(&j);
		}
	json_end(&j);

	if (opt.nmod > 1) {
		printf("\nbetween modules (other's time or RSS / %s's: above 1, "
		    "%s is faster or smaller)\n", names[0].name,
		    names[0].name);
		printf("%-24s %8s  %-11s %-11s %-11s %s\n", "", "objects",
		    "init+login", "find", "create", "peak RSS");
	}
	json_arr(&j, "between");
	for (mi = 1; mi < opt.nmod; mi++)
		for (ci = 0; ci < opt.ncounts; ci++) {
			const struct store_fig *f = &fig[mi][ci];
			const struct store_fig *f0 = &fig[0][ci];
			char who[40];

			if (!f->ok || !f0->ok)
				continue;
			snprintf(who, sizeof(who), "%s / %s", names[mi].name,
			    names[0].name);
			printf("%-24s %8lu  %-11.2f %-11.2f %-11.2f %.2f\n",
			    who, opt.counts[ci], f->init_ns / f0->init_ns,
			    f->find_ns / f0->find_ns,
			    f->create_ns / f0->create_ns,
			    peak_mib(f) / peak_mib(f0));
			if (md != NULL)
				fprintf(md, "| %s | %lu | %.2fx | %.2fx | %.2fx "
				    "| %.2fx |\n", who, opt.counts[ci],
				    f->init_ns / f0->init_ns,
				    f->find_ns / f0->find_ns,
				    f->create_ns / f0->create_ns,
				    peak_mib(f) / peak_mib(f0));
			json_obj(&j, NULL);
			json_str(&j, "of", names[mi].name);
			json_str(&j, "to", names[0].name);
			json_int(&j, "objects", (long long)opt.counts[ci]);
			json_num(&j, "init_login", f->init_ns / f0->init_ns);
			json_num(&j, "find", f->find_ns / f0->find_ns);
			json_num(&j, "create", f->create_ns / f0->create_ns);
			json_num(&j, "peak_rss", peak_mib(f) / peak_mib(f0));
			json_end(&j);
		}
	json_end(&j);

	/* Issue 3's goals, defined from 10 to 10,000 objects. */
	i10 = count_index(10);
	i10k = count_index(10000);
	printf("\nissue 3 goals (find at 10,000 objects within 2x of 10; "
	    "init+login at 10,000 under 10x of 10; 10,000-object process "
	    "under 64 MiB):\n");
	json_arr(&j, "goals");
	for (mi = 0; mi < opt.nmod; mi++) {
		const struct store_fig *lo, *hi;
		double fr, ir, rss;
		int ok;

		json_obj(&j, NULL);
		json_str(&j, "module", names[mi].name);
		if (i10 < 0 || i10k < 0 || !fig[mi][i10].ok ||
		    !fig[mi][i10k].ok) {
			printf("  %-12s not evaluated (needs counts 10 and "
			    "10000 measured)\n", names[mi].name);
			json_bool(&j, "evaluated", 0);
			json_end(&j);
			continue;
		}
		lo = &fig[mi][i10];
		hi = &fig[mi][i10k];
		fr = hi->find_ns / lo->find_ns;
		ir = hi->init_ns / lo->init_ns;
		rss = peak_mib(hi);
		ok = fr <= 2 && ir < 10 && rss < 64;
		printf("  %-12s find %.2fx %s; init+login %.2fx %s; peak RSS "
		    "%.1f MiB %s => %s\n", names[mi].name, fr,
		    fr <= 2 ? "holds" : "FAILS", ir, ir < 10 ? "holds" : "FAILS",
		    rss, rss < 64 ? "holds" : "FAILS",
		    ok ? "all goals hold" : "goals not met");
		if (md != NULL)
			fprintf(md, "%s%s: find at 10,000 objects %.2fx the time "
			    "at 10 (goal at most 2x), init+login %.2fx (goal "
			    "under 10x), peak RSS %.1f MiB (goal under 64 MiB): "
			    "%s.\n", "\n", names[mi].name, fr,
			    ir, rss, ok ? "all goals hold" : "goals not met");
		json_bool(&j, "evaluated", 1);
		json_num(&j, "find_ratio", fr);
		json_bool(&j, "find_ok", fr <= 2);
		json_num(&j, "init_login_ratio", ir);
		json_bool(&j, "init_login_ok", ir < 10);
		json_num(&j, "peak_rss_mib", rss);
		json_bool(&j, "peak_rss_ok", rss < 64);
		json_end(&j);
	}
	json_end(&j);
	if (md != NULL && fclose(md) != 0)
		rc = 1;
	if (json_close(&j) != 0)
		rc = 1;
	return rc;
}
