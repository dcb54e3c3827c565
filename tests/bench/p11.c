/*
 * The p11 mode of vgtoken-bench: a generic PKCS#11 client that measures
 * the same calls on one or more modules, alternating modules round by
 * round, and prints ops/s and CPU time per operation per module and the
 * ratio of the first module to each other. It knows nothing of a module:
 * what a module lacks shows as "unsupported (CKR_...)" and the run goes on.
 *
 * Keys are session objects made once per module, on first use, outside
 * every timed loop; inputs that need a key (a signature to verify, a
 * ciphertext to decrypt) are made in the case's set-up. Each case also
 * runs on N threads with a session each (--threads N, default 2; 1 turns
 * that off), or on 1, 2, 4, ... threads up to the CPUs online (--scale),
 * which shows how the rate and the CPU time per operation scale.
 * CPU time is the process's (CLOCK_PROCESS_CPUTIME_ID), so that work a
 * module hands to threads of its own is counted.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench.h"
#include "tests/bench/p11case.h"

#define NFIND 10

struct pmod {
	struct bmod m;
	struct p11keys k;
	CK_SESSION_HANDLE sess[BENCH_MAX_THREADS];
	CK_OBJECT_HANDLE find[NFIND];
	int nfind;
	int ok;
};

static struct pmod mods[BENCH_MAX_MODULES];
static int nmods;

/* Cases no module ran, for one line under the Markdown table. */
static char none_ran[4096];

/* --scale: each module's one-thread rate and CPU/op of the case being
 * run (medians; 0 where it did not run), which the rows with more
 * threads are divided by. */
static double one_rate[BENCH_MAX_MODULES], one_cpu[BENCH_MAX_MODULES];

/* ------------------------------------------------------------ set-up */

static CK_RV
make_find_objects(struct pmod *pm)
{
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	char label[32];
	unsigned char value[32];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PRIVATE, &no, sizeof(no) },
		{ CKA_LABEL, label, 0 },
		{ CKA_APPLICATION, (void *)"vgtoken-bench", 13 },
		{ CKA_VALUE, value, sizeof(value) },
	};
	CK_RV rv = CKR_OK;
	int i;

	memset(value, 0x5c, sizeof(value));
	for (i = 0; i < NFIND && rv == CKR_OK; i++) {
		snprintf(label, sizeof(label), "vgtoken-bench find %d", i);
		t[3].ulValueLen = strlen(label);
		rv = pm->m.f->C_CreateObject(pm->m.main, t, 6, &pm->find[i]);
		if (rv == CKR_OK)
			pm->nfind++;
	}
	return rv;
}

static int
module_setup(struct pmod *pm, const struct bench_module_opt *mo, int index)
{
	struct bmod *m = &pm->m;
	char label[33];
	CK_RV rv;
	int t;

	if (bmod_load(m, mo->path, index) != 0)
		return -1;
	rv = bmod_initialize(m);
	if (rv != CKR_OK) {
		fprintf(stderr, "vgtoken-bench: %s: C_Initialize: %s\n",
		    m->path, rv_name(rv));
		return -1;
	}
	if (mo->token != NULL) {
		rv = bmod_find_token(m, mo->token, &m->slot);
		snprintf(m->label, sizeof(m->label), "%s", mo->token);
		snprintf(m->pin, sizeof(m->pin), "%s", mo->pin);
	} else {
		snprintf(label, sizeof(label), "bench-%s", m->name);
		rv = bmod_init_token(m, label);
		if (rv == CKR_TOKEN_NOT_RECOGNIZED)
			fprintf(stderr, "vgtoken-bench: %s: no uninitialised "
			    "token to use; give --token LABEL --pin PIN\n",
			    m->path);
	}
	if (rv != CKR_OK) {
		fprintf(stderr, "vgtoken-bench: %s: token %s: %s\n", m->path,
		    mo->token ? mo->token : "(throw-away)", rv_name(rv));
		return -1;
	}
	rv = bmod_open_main(m);
	if (rv == CKR_OK)
		rv = make_find_objects(pm);
	for (t = 0; t < opt.threads_max && rv == CKR_OK; t++)
		rv = m->f->C_OpenSession(m->slot,
		    CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL,
		    &pm->sess[t]);
	if (rv != CKR_OK) {
		fprintf(stderr, "vgtoken-bench: %s: session set-up: %s\n",
		    m->path, rv_name(rv));
		return -1;
	}
	pm->ok = 1;
	return 0;
}

static void
module_cleanup(struct pmod *pm)
{
	int i;

	if (pm->m.f == NULL)
		return;
	/* On a token of the user's, leave nothing behind. */
	for (i = 0; i < pm->nfind; i++)
		pm->m.f->C_DestroyObject(pm->m.main, pm->find[i]);
	pm->m.f->C_Finalize(NULL);
}

/* ----------------------------------------------------------- running */

struct cell {
	CK_RV rv;
	int unsupported; /* set-up failed: rv says why */
	int failed;      /* a timed call failed */
	struct bench_series ops_s, cpu_us;
	uint64_t ops;
};

/* A cache line each: ops is written at every call, and two threads'
 * counters on one line would be the bench's own contention. */
struct run_thread {
	struct pthr *t;
	uint64_t deadline;
	uint64_t ops;
	CK_RV err;
} __attribute__((aligned(64)));

static void *
thread_main(void *arg)
{
	struct run_thread *r = arg;
	CK_RV rv;

	for (;;) {
		rv = r->t->c->run(r->t);
		if (rv != CKR_OK) {
			r->err = rv;
			break;
		}
		r->ops++;
		if (bench_wall_ns() >= r->deadline)
			break;
	}
	return NULL;
}

/* One round of one module: nthr threads run until the slice is over. */
static void
round_module(struct pthr *thr, int nthr, uint64_t slice, struct cell *c)
{
	struct run_thread rt[BENCH_MAX_THREADS];
	pthread_t tid[BENCH_MAX_THREADS];
	int started[BENCH_MAX_THREADS] = { 0 };
	uint64_t c0, w0, wall, cpu, ops = 0;
	CK_RV err = CKR_OK;
	int i;

	memset(rt, 0, sizeof(rt));
	c0 = bench_proc_cpu_ns();
	w0 = bench_wall_ns();
	for (i = 0; i < nthr; i++) {
		rt[i].t = &thr[i];
		rt[i].deadline = w0 + slice;
	}
	/* Thread 0 runs here, the others in threads of their own; all stop
	 * at the same deadline. */
	for (i = 1; i < nthr; i++) {
		started[i] = pthread_create(&tid[i], NULL, thread_main,
		    &rt[i]) == 0;
		if (!started[i])
			rt[i].err = CKR_HOST_MEMORY;
	}
	thread_main(&rt[0]);
	for (i = 1; i < nthr; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
	wall = bench_wall_ns() - w0;
	cpu = bench_proc_cpu_ns() - c0;
	for (i = 0; i < nthr; i++) {
		ops += rt[i].ops;
		if (rt[i].err != CKR_OK)
			err = rt[i].err;
	}
	if (err != CKR_OK) {
		c->failed = 1;
		c->rv = err;
		return;
	}
	c->ops += ops;
	series_add(&c->ops_s, (double)ops * 1e9 / (double)wall);
	series_add(&c->cpu_us, ops ? (double)cpu / 1e3 / (double)ops : NAN);
}

static void
cell_text(char *buf, size_t n, const struct cell *c)
{
	char r[24], t[24];

	if (c->unsupported)
		snprintf(buf, n, "unsupported (%s)", rv_name(c->rv));
	else if (c->failed)
		snprintf(buf, n, "failed (%s)", rv_name(c->rv));
	else
		snprintf(buf, n, "%s/s | %s", fmt_rate(r, sizeof(r),
		    series_median(&c->ops_s)), fmt_time(t, sizeof(t),
		    series_median(&c->cpu_us) * 1e3));
}

/* --scale: the row's rate over the one-thread rate and its CPU/op over
 * the one-thread CPU/op, as "7.84x | 1.04x", or "- | -". */
static void
scaling_text(char *buf, size_t n, const struct cell *c, int mi)
{
	if (c->ops_s.n == 0 || one_rate[mi] <= 0 || one_cpu[mi] <= 0)
		snprintf(buf, n, "- | -");
	else
		snprintf(buf, n, "%.2fx | %.2fx",
		    series_median(&c->ops_s) / one_rate[mi],
		    series_median(&c->cpu_us) / one_cpu[mi]);
}

static void
run_case(const struct pcase *pc, int nthr, struct json *j, FILE *md)
{
	static struct pthr thr[BENCH_MAX_MODULES][BENCH_MAX_THREADS];
	struct cell cells[BENCH_MAX_MODULES];
	struct bench_series ratio[BENCH_MAX_MODULES];
	char name[96], text[64];
	uint64_t slice;
	int mi, t, r, k;

	snprintf(name, sizeof(name), "%s", pc->name);
	memset(cells, 0, sizeof(cells));
	memset(ratio, 0, sizeof(ratio));
	memset(thr, 0, sizeof(thr));
	if (!opt.quiet)
		fprintf(stderr, "  ... %s, %d thread%s\n", name, nthr,
		    nthr > 1 ? "s" : "");

	/* Set-up and one warm-up call per thread: this is where a module
	 * shows what it does not support. */
	for (mi = 0; mi < nmods; mi++) {
		struct pmod *pm = &mods[mi];
		CK_RV rv = pm->ok ? CKR_OK : CKR_GENERAL_ERROR;

		if (rv == CKR_OK)
			rv = p11keys_need(&pm->k, pm->m.f, pm->m.main, pc->need);
		for (t = 0; t < nthr && rv == CKR_OK; t++) {
			thr[mi][t].f = pm->m.f;
			thr[mi][t].f32 = pm->m.f32;
			thr[mi][t].s = pm->sess[t];
			thr[mi][t].c = pc;
			thr[mi][t].k = &pm->k;
			if (pc->setup != NULL)
				rv = pc->setup(&thr[mi][t]);
			if (rv == CKR_OK)
				rv = pc->run(&thr[mi][t]);
		}
		if (!pm->ok) {
			cells[mi].failed = 1; /* its set-up failed, see above */
			cells[mi].rv = rv;
		} else if (rv != CKR_OK) {
			cells[mi].unsupported = 1;
			cells[mi].rv = rv;
		}
	}

	slice = (uint64_t)(opt.seconds * 1e9 / opt.rounds);
	for (r = 0; r < opt.rounds; r++) {
		for (k = 0; k < nmods; k++) {
			mi = r % 2 ? nmods - 1 - k : k;
			if (cells[mi].unsupported || cells[mi].failed)
				continue;
			round_module(thr[mi], nthr, slice, &cells[mi]);
		}
		for (mi = 1; mi < nmods; mi++) {
			const struct cell *a = &cells[0], *b = &cells[mi];

			if (a->ops_s.n == r + 1 && b->ops_s.n == r + 1)
				series_add(&ratio[mi],
				    a->ops_s.v[r] / b->ops_s.v[r]);
		}
	}
	for (mi = 0; mi < nmods; mi++)
		for (t = 0; t < nthr; t++)
			if (pc->teardown != NULL && thr[mi][t].c != NULL)
				pc->teardown(&thr[mi][t]);
	if (nthr == 1)
		for (mi = 0; mi < nmods; mi++) {
			int ran = cells[mi].ops_s.n > 0;

			one_rate[mi] = ran ? series_median(&cells[mi].ops_s) : 0;
			one_cpu[mi] = ran ? series_median(&cells[mi].cpu_us) : 0;
		}

	printf("%-40s %2d ", name, nthr);
	for (mi = 0; mi < nmods; mi++) {
		cell_text(text, sizeof(text), &cells[mi]);
		printf(" %-42s", text);
	}
	for (mi = 1; mi < nmods; mi++) {
		if (ratio[mi].n > 0)
			printf(" %6.2fx", series_median(&ratio[mi]));
		else
			printf(" %7s", "-");
	}
	for (mi = 0; opt.scale && mi < nmods; mi++) {
		scaling_text(text, sizeof(text), &cells[mi], mi);
		printf("  %-17s", text);
	}
	printf("\n");

	for (mi = 0, k = 0; mi < nmods; mi++)
		k |= cells[mi].ops_s.n > 0;
	if (md != NULL && !k) {
		/* A row of "unsupported" only: named once below the table. */
		size_t len = strlen(none_ran);

		if (nthr == 1 && len + strlen(name) + 64 < sizeof(none_ran)) {
			snprintf(none_ran + len, sizeof(none_ran) - len, "%s%s (",
			    len ? "; " : "", name);
			for (mi = 0; mi < nmods; mi++) {
				len = strlen(none_ran);
				snprintf(none_ran + len, sizeof(none_ran) - len,
				    "%s%s", mi ? ", " : "",
				    rv_name(cells[mi].rv));
			}
			len = strlen(none_ran);
			snprintf(none_ran + len, sizeof(none_ran) - len, ")");
		}
	} else if (md != NULL) {
		fprintf(md, "| %s | %d |", name, nthr);
		for (mi = 0; mi < nmods; mi++) {
			char rate[24], tm[24];

			if (cells[mi].unsupported || cells[mi].failed) {
				cell_text(text, sizeof(text), &cells[mi]);
				fprintf(md, " %s | |", text);
			} else {
				fprintf(md, " %s | %s |",
				    fmt_rate(rate, sizeof(rate),
					series_median(&cells[mi].ops_s)),
				    fmt_time(tm, sizeof(tm),
					series_median(&cells[mi].cpu_us) * 1e3));
			}
		}
		for (mi = 1; mi < nmods; mi++) {
			if (ratio[mi].n > 0)
				fprintf(md, " %.2fx |", series_median(&ratio[mi]));
			else
				fprintf(md, " - |");
		}
		for (mi = 0; opt.scale && mi < nmods; mi++) {
			scaling_text(text, sizeof(text), &cells[mi], mi);
			fprintf(md, " %s |", text);
		}
		fprintf(md, "\n");
	}

	json_obj(j, NULL);
	json_str(j, "name", name);
	json_int(j, "threads", nthr);
	json_arr(j, "modules");
	for (mi = 0; mi < nmods; mi++) {
		const struct cell *c = &cells[mi];

		json_obj(j, NULL);
		json_str(j, "module", mods[mi].m.name);
		json_str(j, "status", c->unsupported ? "unsupported" :
		    c->failed ? "failed" : "ok");
		if (c->unsupported || c->failed)
			json_str(j, "rv", rv_name(c->rv));
		json_int(j, "ops", (long long)c->ops);
		json_series(j, "ops_per_s", &c->ops_s);
		json_series(j, "cpu_us_per_op", &c->cpu_us);
		if (opt.scale && c->ops_s.n > 0 && one_rate[mi] > 0 &&
		    one_cpu[mi] > 0) {
			json_num(j, "rate_over_one_thread",
			    series_median(&c->ops_s) / one_rate[mi]);
			json_num(j, "cpu_per_op_over_one_thread",
			    series_median(&c->cpu_us) / one_cpu[mi]);
		}
		json_end(j);
	}
	json_end(j);
	json_arr(j, "ratios");
	for (mi = 1; mi < nmods; mi++) {
		json_obj(j, NULL);
		json_str(j, "of", mods[0].m.name);
		json_str(j, "to", mods[mi].m.name);
		json_series(j, "ops_per_s_ratio", &ratio[mi]);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

/* The thread count of the row after one with t: --scale doubles up to
 * threads_max (which ends the list also when it is no power of 2);
 * otherwise 1 is followed by threads_max. */
static int
next_threads(int t)
{
	if (t >= opt.threads_max)
		return opt.threads_max + 1;
	if (!opt.scale)
		return opt.threads_max;
	return t * 2 < opt.threads_max ? t * 2 : opt.threads_max;
}

/* see bench.h */
int
bench_p11(void)
{
	struct json j = { 0 };
	FILE *md = NULL;
	const char *dir;
	int mi, t, throwaway = 0, rc = 0;
	size_t ci;

	if (opt.nmod == 0) {
		fprintf(stderr, "vgtoken-bench p11: give --module PATH\n");
		return 2;
	}
	if (opt.seconds <= 0)
		opt.seconds = 1;
	for (mi = 0; mi < opt.nmod; mi++)
		throwaway |= opt.mod[mi].token == NULL;
	if (throwaway) {
		dir = bench_tmpdir();
		if (dir == NULL || bmod_prepare_env(dir) != 0)
			return 1;
	}
	if (opt.json != NULL && json_open(&j, opt.json) != 0)
		return 1;
	if (opt.markdown != NULL && (md = fopen(opt.markdown, "we")) == NULL) {
		perror(opt.markdown);
		return 1;
	}
	json_str(&j, "mode", "p11");
	printf("vgtoken-bench p11: %d alternating rounds, %.3g s per case and "
	    "module\n", opt.rounds, opt.seconds);
	bench_print_env(stdout, &j);
	json_int(&j, "rounds", opt.rounds);
	json_num(&j, "seconds", opt.seconds);
	json_arr(&j, "modules");
	nmods = opt.nmod;
	for (mi = 0; mi < nmods; mi++) {
		struct bmod *m = &mods[mi].m;

		if (module_setup(&mods[mi], &opt.mod[mi], mi) != 0)
			rc = 1;
		printf("module %d: %s: %s (%s)%s\n", mi + 1, m->name,
		    m->path, m->info[0] ? m->info : "not loaded",
		    mods[mi].ok ? "" : " FAILED");
		if (mods[mi].ok)
			printf("          token \"%s\"%s\n", m->label,
			    m->throwaway ? ", throw-away" : "");
		json_obj(&j, NULL);
		json_str(&j, "name", m->name);
		json_str(&j, "path", m->path);
		json_str(&j, "info", m->info);
		json_bool(&j, "ok", mods[mi].ok);
		json_bool(&j, "throwaway_token", m->throwaway);
		json_end(&j);
	}
	json_end(&j);
	if (throwaway)
		printf("throw-away tokens: vgtoken pbkdf2_iterations = %d "
		    "(a test setting)\n", BENCH_TEST_PBKDF2);

	printf("\n%-40s %2s ", "case", "th");
	for (mi = 0; mi < nmods; mi++) {
		char h[48];

		snprintf(h, sizeof(h), "%s ops/s | CPU/op", mods[mi].m.name);
		printf(" %-42s", h);
	}
	for (mi = 1; mi < nmods; mi++)
		printf(" %7s", "ratio");
	for (mi = 0; opt.scale && mi < nmods; mi++) {
		char h[48];

		snprintf(h, sizeof(h), "%.8s x1 | CPU x1", mods[mi].m.name);
		printf("  %-17s", h);
	}
	printf("\n");
	if (md != NULL) {
		for (mi = 0; mi < nmods; mi++)
			fprintf(md, "%s `%s`: %s%s\n", mi == 0 ? "Modules:" :
			    "and", mods[mi].m.name, mods[mi].m.info,
			    mi + 1 < nmods ? ";" : ".");
		fprintf(md, "Throw-away tokens; the vgtoken one with "
		    "`pbkdf2_iterations = %d` (a test setting).\n\n",
		    BENCH_TEST_PBKDF2);
		fprintf(md, "| case | threads |");
		for (mi = 0; mi < nmods; mi++)
			fprintf(md, " %s ops/s | %s CPU/op |", mods[mi].m.name,
			    mods[mi].m.name);
		for (mi = 1; mi < nmods; mi++)
			fprintf(md, " %s:%s |", mods[0].m.name,
			    mods[mi].m.name);
		for (mi = 0; opt.scale && mi < nmods; mi++)
			fprintf(md, " %s rate / 1 thread | %s CPU/op / 1 "
			    "thread |", mods[mi].m.name, mods[mi].m.name);
		fprintf(md, "\n|---|---|");
		for (mi = 0; mi < nmods; mi++)
			fprintf(md, "---|---|");
		for (mi = 1; mi < nmods; mi++)
			fprintf(md, "---|");
		for (mi = 0; opt.scale && mi < nmods; mi++)
			fprintf(md, "---|---|");
		fprintf(md, "\n");
	}

	json_arr(&j, "results");
	for (ci = 0; ci < p11_ncases; ci++) {
		if (!bench_selected(p11_cases[ci].name))
			continue;
		for (t = 1; t <= opt.threads_max; t = next_threads(t))
			run_case(&p11_cases[ci], t, &j, md);
	}
	json_end(&j);
	if (nmods > 1)
		printf("ratio: %s ops/s / other module's ops/s, median of %d "
		    "per-round ratios (above 1: %s is faster)\n",
		    mods[0].m.name, opt.rounds, mods[0].m.name);
	if (md != NULL && none_ran[0] != '\0')
		fprintf(md, "\nNot run on any module (the answers of each, in "
		    "order): %s.\n", none_ran);
	for (mi = 0; mi < nmods; mi++)
		module_cleanup(&mods[mi]);
	if (md != NULL && fclose(md) != 0)
		rc = 1;
	if (json_close(&j) != 0)
		rc = 1;
	return rc;
}
