/*
 * The crypto mode of vgtoken-bench: every case of crypto_cases[] measured
 * against a peer in alternating rounds.
 *
 *  - vgtoken against OpenSSL's libcrypto, in this process (a case without
 *    an OpenSSL peer against vgtoken's own portable path);
 *  - with --kernels all, each kernel variant this CPU can run against the
 *    portable code. Kernel rows run through tables built with
 *    vg_kernels_fill(); the primitives reach their kernels only through the
 *    process-wide table, so their variants run in a re-executed copy of
 *    this program with VG_CPU_FEATURES set, which answers over a pipe one
 *    round at a time (the rounds still alternate).
 *
 * Each side reports per-thread CPU time (CLOCK_THREAD_CPUTIME_ID) and wall
 * time per operation; the ratio is the median of the per-round ratios of
 * CPU time, peer over vgtoken (above 1: vgtoken is faster).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench.h"
#include "tests/bench/ccase.h"

enum side_kind { S_VG, S_OSSL, S_TABLE, S_CHILD };

struct side {
	char label[48];
	char impl[48];
	enum side_kind kind;
	int idx;                 /* 0 or 1: per-side state in cstate */
	unsigned mask;           /* S_TABLE, S_CHILD */
	struct vg_kernels table; /* S_TABLE */
	struct bench_child child;
	uint64_t iters;
	struct bench_series cpu, wall; /* ns per operation, per round */
	int failed;
};

/* One operation of a side in this process. */
static int
op_local(struct cstate *s, struct side *d)
{
	switch (d->kind) {
	case S_VG:
		return s->c->run_vg(s);
	case S_OSSL:
		return s->c->run_ossl(s);
	case S_TABLE:
		return s->c->run_k(s, &d->table, d->idx);
	default:
		return -1;
	}
}

static int
batch_local(struct cstate *s, struct side *d, uint64_t n, uint64_t *cpu,
    uint64_t *wall)
{
	uint64_t c0 = bench_thread_cpu_ns(), w0 = bench_wall_ns(), i;

	for (i = 0; i < n; i++)
		if (op_local(s, d) != 0)
			return -1;
	*cpu = bench_thread_cpu_ns() - c0;
	*wall = bench_wall_ns() - w0;
	return 0;
}

/* Warms up, then finds how many operations take about target ns. */
static int
calibrate_local(struct cstate *s, struct side *d, uint64_t target,
    uint64_t *iters)
{
	uint64_t n = 1, cpu, wall;

	if (batch_local(s, d, 1, &cpu, &wall) != 0)
		return -1;
	for (;;) {
		if (batch_local(s, d, n, &cpu, &wall) != 0)
			return -1;
		if (wall >= 5000000 || wall * 8 >= target || n >= (1u << 24))
			break;
		n *= 4;
	}
	*iters = (uint64_t)((double)target * (double)n /
	    (double)(wall > 0 ? wall : 1));
	if (*iters < 1)
		*iters = 1;
	return 0;
}

static void
mask_names(unsigned mask, char *buf, size_t n)
{
	size_t len = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < VG_CPU_FEATURE_COUNT; i++)
		if (mask & (1u << i))
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
			    len ? "," : "", vg_cpu_feature_name(i));
	if (len == 0)
		snprintf(buf, n, "none");
}

/* Starts a copy of this program with VG_CPU_FEATURES = d->mask and sets
 * the case up there. */
static int
child_side(struct side *d, size_t case_index)
{
	char env0[160], pb[32], line[160], ans[160];
	char *argv[] = { (char *)"vgtoken-bench", (char *)"crypto-child", pb,
		NULL };
	const char *env[] = { env0, NULL };
	unsigned feats = 0;

	snprintf(env0, sizeof(env0), "VG_CPU_FEATURES=");
	mask_names(d->mask, env0 + strlen(env0), sizeof(env0) - strlen(env0));
	snprintf(pb, sizeof(pb), "%lu", opt.pbkdf2_iter);
	if (child_start(&d->child, NULL, argv, env) != 0)
		return -1;
	snprintf(line, sizeof(line), "case %zu", case_index);
	if (child_ask(&d->child, line, ans, sizeof(ans)) != 0 ||
	    sscanf(ans, "ok %u", &feats) != 1) {
		fprintf(stderr, "vgtoken-bench: child (%s): %s\n", env0, ans);
		return -1;
	}
	if (feats != (d->mask & vg_cpu_detected())) {
		fprintf(stderr, "vgtoken-bench: child runs features %#x, "
		    "wanted %#x\n", feats, d->mask);
		return -1;
	}
	return 0;
}

static int
side_calibrate(struct cstate *s, struct side *d, uint64_t target)
{
	char line[64], ans[64];
	unsigned long long n = 0;

	if (d->kind != S_CHILD)
		return calibrate_local(s, d, target, &d->iters);
	snprintf(line, sizeof(line), "calib %llu", (unsigned long long)target);
	if (child_ask(&d->child, line, ans, sizeof(ans)) != 0 ||
	    sscanf(ans, "%llu", &n) != 1 || n == 0)
		return -1;
	d->iters = n;
	return 0;
}

/* One round of a side: adds its per-operation CPU and wall time. */
static int
side_round(struct cstate *s, struct side *d)
{
	char line[64], ans[96];
	unsigned long long c = 0, w = 0;
	uint64_t cpu, wall;

	if (d->kind != S_CHILD) {
		if (batch_local(s, d, d->iters, &cpu, &wall) != 0)
			return -1;
	} else {
		snprintf(line, sizeof(line), "run %llu",
		    (unsigned long long)d->iters);
		if (child_ask(&d->child, line, ans, sizeof(ans)) != 0 ||
		    sscanf(ans, "%llu %llu", &c, &w) != 2)
			return -1;
		cpu = c;
		wall = w;
	}
	series_add(&d->cpu, (double)cpu / (double)d->iters);
	series_add(&d->wall, (double)wall / (double)d->iters);
	return 0;
}

/* Measures a against b in alternating rounds; ratio gets b/a CPU time
 * per round. Returns 0, or -1 if a side failed. */
static int
compare(size_t ci, struct side *a, struct side *b, struct bench_series *ratio)
{
	const struct ccase *c = &crypto_cases[ci];
	struct cstate s;
	uint64_t target;
	int r, rc = -1;
	struct side *sd[2] = { a, b };

	if (cstate_setup(&s, c, ccase_param(c, 0)) != 0) {
		a->failed = b->failed = 1;
		return -1;
	}
	for (r = 0; r < 2; r++) {
		if (sd[r]->kind == S_CHILD) {
			if (child_side(sd[r], ci) != 0) {
				sd[r]->failed = 1;
				goto out;
			}
		} else {
			if (sd[r]->kind == S_TABLE && c->setup_k != NULL &&
			    c->setup_k(&s, &sd[r]->table, sd[r]->idx) != 0) {
				sd[r]->failed = 1;
				goto out;
			}
		}
	}
	target = (uint64_t)(opt.seconds * 1e9 / opt.rounds);
	for (r = 0; r < 2; r++)
		if (side_calibrate(&s, sd[r], target) != 0) {
			sd[r]->failed = 1;
			goto out;
		}
	for (r = 0; r < opt.rounds; r++) {
		struct side *first = r % 2 ? b : a, *second = r % 2 ? a : b;

		if (side_round(&s, first) != 0) {
			first->failed = 1;
			goto out;
		}
		if (side_round(&s, second) != 0) {
			second->failed = 1;
			goto out;
		}
		series_add(ratio, b->cpu.v[b->cpu.n - 1] /
		    a->cpu.v[a->cpu.n - 1]);
	}
	rc = 0;
out:
	for (r = 0; r < 2; r++)
		if (sd[r]->kind == S_CHILD && sd[r]->child.pid > 0)
			child_finish(&sd[r]->child, NULL);
	cstate_teardown(&s);
	return rc;
}

/* ------------------------------------------------------------ output */

static void
cell(char *buf, size_t n, const struct side *d, const struct ccase *c,
    unsigned long param)
{
	char range[48], rate[24];
	double m = series_median(&d->cpu);

	if (d->failed || d->cpu.n == 0) {
		snprintf(buf, n, "failed");
		return;
	}
	fmt_range(range, sizeof(range), m, series_min(&d->cpu),
	    series_max(&d->cpu));
	if (c->bytes)
		snprintf(rate, sizeof(rate), " %.0f MB/s",
		    (double)param * 1e3 / m);
	else
		rate[0] = '\0';
	snprintf(buf, n, "%s%s", range, rate);
}

static void
json_side(struct json *j, const struct side *d)
{
	json_obj(j, NULL);
	json_str(j, "label", d->label);
	json_str(j, "impl", d->impl);
	json_bool(j, "failed", d->failed);
	json_int(j, "ops_per_round", (long long)d->iters);
	json_series(j, "cpu_ns_per_op", &d->cpu);
	json_series(j, "wall_ns_per_op", &d->wall);
	json_end(j);
}

static void
row_json(struct json *j, const char *kind, const char *label,
    const struct ccase *c, unsigned long param, const struct side *a,
    const struct side *b, const struct bench_series *ratio, const char *how)
{
	json_obj(j, NULL);
	json_str(j, "kind", kind);
	json_str(j, "name", label);
	json_str(j, "operation", c->name);
	json_int(j, c->bytes ? "bytes" : "param", (long long)param);
	json_str(j, "method", how);
	json_arr(j, "sides");
	json_side(j, a);
	json_side(j, b);
	json_end(j);
	json_series(j, "ratio", ratio);
	json_end(j);
}

/* How a side ran: "this process" or "re-exec VG_CPU_FEATURES=...". */
static void
side_how(const struct side *d, char *buf, size_t n)
{
	char m[96];

	if (d->kind != S_CHILD) {
		snprintf(buf, n, "this process");
		return;
	}
	mask_names(d->mask, m, sizeof(m));
	snprintf(buf, n, "re-exec VG_CPU_FEATURES=%s", m);
}

/* ------------------------------------------------------------- modes */

struct variant {
	char impl[48];
	unsigned mask;
};

static unsigned
popcount(unsigned x)
{
	unsigned n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

/* The distinct kernel choices of case c over every subset of the CPU's
 * features, each with its smallest feature mask; [0] is the portable
 * code (mask 0). */
static int
variants(const struct ccase *c, struct variant *v, int max)
{
	unsigned det = vg_cpu_detected(), sub = det;
	struct vg_kernels k;
	char buf[48];
	int n = 0, i;

	for (;;) {
		vg_kernels_fill(&k, sub);
		c->impl(&k, buf, sizeof(buf));
		for (i = 0; i < n; i++)
			if (strcmp(v[i].impl, buf) == 0)
				break;
		if (i == n && n < max) {
			snprintf(v[n].impl, sizeof(v[n].impl), "%s", buf);
			v[n++].mask = sub;
		} else if (i < n && (popcount(sub) < popcount(v[i].mask) ||
		    (popcount(sub) == popcount(v[i].mask) && sub < v[i].mask))) {
			v[i].mask = sub;
		}
		if (sub == 0)
			break;
		sub = (sub - 1) & det;
	}
	/* The portable code first. */
	for (i = 0; i < n; i++)
		if (v[i].mask == 0 && i != 0) {
			struct variant t = v[0];

			v[0] = v[i];
			v[i] = t;
		}
	return n;
}

/* A side that runs variant v of case c: the global table's choice in
 * this process, another table here (kernel rows), or a child. */
static void
variant_side(struct side *d, const struct ccase *c, const struct variant *v,
    int idx)
{
	char global[48];

	memset(d, 0, sizeof(*d));
	d->idx = idx;
	d->mask = v->mask;
	snprintf(d->impl, sizeof(d->impl), "%s", v->impl);
	impl_display(v->impl, d->label, sizeof(d->label));
	c->impl(vg_kernels(), global, sizeof(global));
	if (c->kind == CC_KERNEL) {
		d->kind = S_TABLE;
		vg_kernels_fill(&d->table, v->mask);
	} else if (strcmp(global, v->impl) == 0) {
		d->kind = S_VG;
	} else {
		d->kind = S_CHILD;
	}
}

static void
progress(const char *what)
{
	if (!opt.quiet)
		fprintf(stderr, "  ... %s\n", what);
}

static int
run_main_table(struct json *j, FILE *md)
{
	size_t ci;
	int fails = 0;

	printf("\n%-30s %-14s %-34s %-9s %-34s %-19s %s\n", "operation",
	    "kernel", "vgtoken CPU/op [min-max]", "peer",
	    "peer CPU/op [min-max]", "wall/op vg | peer", "ratio");
	if (md != NULL)
		fprintf(md, "| operation | vgtoken kernel | vgtoken CPU/op "
		    "| peer | peer CPU/op | ratio |\n|---|---|---|---|---|---|\n");
	json_arr(j, "results");
	for (ci = 0; ci < crypto_ncases; ci++) {
		const struct ccase *c = &crypto_cases[ci];
		unsigned long param = ccase_param(c, 0);
		struct side a, b;
		struct bench_series ratio = { { 0 }, 0 };
		char label[64], ca[80], cb[80], wa[16], wb[16], impl[48];
		const char *how;

		if (c->kind != CC_PRIM)
			continue;
		ccase_label(c, param, label, sizeof(label));
		if (!bench_selected(label))
			continue;
		progress(label);
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		c->impl(vg_kernels(), a.impl, sizeof(a.impl));
		snprintf(a.label, sizeof(a.label), "vgtoken");
		a.kind = S_VG;
		if (c->run_ossl != NULL) {
			b.kind = S_OSSL;
			snprintf(b.label, sizeof(b.label), "OpenSSL");
			snprintf(b.impl, sizeof(b.impl), "libcrypto");
			how = "in-process";
		} else {
			struct vg_kernels k;

			vg_kernels_fill(&k, 0);
			b.kind = S_CHILD;
			b.mask = 0;
			snprintf(b.label, sizeof(b.label), "portable");
			c->impl(&k, b.impl, sizeof(b.impl));
			how = "re-exec VG_CPU_FEATURES=none";
		}
		if (compare(ci, &a, &b, &ratio) != 0)
			fails++;
		cell(ca, sizeof(ca), &a, c, param);
		cell(cb, sizeof(cb), &b, c, param);
		fmt_time(wa, sizeof(wa), series_median(&a.wall));
		fmt_time(wb, sizeof(wb), series_median(&b.wall));
		impl_display(a.impl, impl, sizeof(impl));
		printf("%-30s %-14s %-34s %-9s %-34s %8s | %-8s %.2fx\n",
		    label, impl, ca, b.label, cb, wa, wb,
		    series_median(&ratio));
		if (md != NULL)
			fprintf(md, "| %s | %s | %s | %s | %s | %.2fx |\n",
			    label, impl, ca, b.label, cb,
			    series_median(&ratio));
		row_json(j, "vs-peer", label, c, param, &a, &b, &ratio, how);
	}
	json_end(j);
	printf("ratio: peer CPU time / vgtoken CPU time, median of %d "
	    "per-round ratios (above 1: vgtoken is faster)\n", opt.rounds);
	return fails;
}

static int
run_variants(struct json *j, FILE *md)
{
	size_t ci;
	int fails = 0, i;

	printf("\nKernel variants against the portable code (every variant "
	    "this CPU can run)\n");
	printf("%-30s %-36s %-34s %-34s %-8s %s\n", "operation", "variant",
	    "variant CPU/op [min-max]", "portable CPU/op [min-max]",
	    "speedup", "measured by");
	if (md != NULL)
		fprintf(md, "\nKernel variants against vgtoken's portable code "
		    "(`--kernels all`; speedup: portable time over the "
		    "variant's):\n\n| operation | variant | variant CPU/op "
		    "| portable CPU/op | speedup | measured by |\n"
		    "|---|---|---|---|---|---|\n");
	json_arr(j, "variants");
	for (ci = 0; ci < crypto_ncases; ci++) {
		const struct ccase *c = &crypto_cases[ci];
		unsigned long param = ccase_param(c, 0);
		struct variant v[16];
		char label[64];
		int n;

		ccase_label(c, param, label, sizeof(label));
		if (!bench_selected(label))
			continue;
		n = variants(c, v, 16);
		for (i = 1; i < n; i++) {
			struct side a, b;
			struct bench_series ratio = { { 0 }, 0 };
			char vs[112], ca[80], cb[80], how[320], ha[150];
			char hb[150], p[192];

			variant_side(&a, c, &v[i], 0);
			variant_side(&b, c, &v[0], 1);
			snprintf(vs, sizeof(vs), "%s vs %s", a.label, b.label);
			snprintf(p, sizeof(p), "%s: %s", label, vs);
			progress(p);
			if (compare(ci, &a, &b, &ratio) != 0)
				fails++;
			cell(ca, sizeof(ca), &a, c, param);
			cell(cb, sizeof(cb), &b, c, param);
			if (c->kind == CC_KERNEL) {
				snprintf(how, sizeof(how),
				    "tables from vg_kernels_fill()");
			} else {
				side_how(&a, ha, sizeof(ha));
				side_how(&b, hb, sizeof(hb));
				snprintf(how, sizeof(how), "%s vs %s", ha, hb);
			}
			printf("%-30s %-36s %-34s %-34s %6.2fx  %s\n", label, vs,
			    ca, cb, series_median(&ratio), how);
			row_json(j, "variant", label, c, param, &a, &b, &ratio,
			    how);
			if (md != NULL)
				fprintf(md, "| %s | %s | %s | %s | %.2fx | %s |\n",
				    label, vs, ca, cb, series_median(&ratio),
				    how);
		}
	}
	json_end(j);
	printf("speedup: portable CPU time / variant CPU time, median of "
	    "per-round ratios\n");
	return fails;
}

/* see bench.h */
int
bench_crypto(void)
{
	struct json j = { 0 };
	FILE *md = NULL;
	int fails;

	if (opt.seconds <= 0)
		opt.seconds = 1;
	if (opt.json != NULL && json_open(&j, opt.json) != 0)
		return 1;
	if (opt.markdown != NULL && (md = fopen(opt.markdown, "we")) == NULL) {
		perror(opt.markdown);
		return 1;
	}
	json_str(&j, "mode", "crypto");
	printf("vgtoken-bench crypto: %d alternating rounds, %.3g s per case "
	    "and side\n", opt.rounds, opt.seconds);
	bench_print_env(stdout, &j);
	json_int(&j, "rounds", opt.rounds);
	json_num(&j, "seconds", opt.seconds);
	fails = run_main_table(&j, md);
	if (opt.kernels_all)
		fails += run_variants(&j, md);
	if (md != NULL && fclose(md) != 0)
		fails++;
	if (json_close(&j) != 0)
		fails++;
	return fails ? 1 : 0;
}

/* see bench.h
 *
 * The other end of child_side(): reads "case N", "calib NS" and "run N"
 * lines and answers each with one line. */
int
bench_crypto_child(void)
{
	struct cstate s;
	struct side d;
	char line[128];
	int have = 0;

	memset(&d, 0, sizeof(d));
	d.kind = S_VG;
	while (fgets(line, sizeof(line), stdin) != NULL) {
		unsigned long long n;
		uint64_t cpu, wall;
		size_t ci;

		if (sscanf(line, "case %zu", &ci) == 1) {
			if (have)
				cstate_teardown(&s);
			have = 0;
			if (ci >= crypto_ncases ||
			    crypto_cases[ci].kind != CC_PRIM ||
			    cstate_setup(&s, &crypto_cases[ci],
				ccase_param(&crypto_cases[ci], 0)) != 0) {
				printf("err setup\n");
			} else {
				have = 1;
				printf("ok %u\n", vg_cpu_features());
			}
		} else if (have && sscanf(line, "calib %llu", &n) == 1) {
			uint64_t it;

			if (calibrate_local(&s, &d, n, &it) != 0)
				printf("err\n");
			else
				printf("%llu\n", (unsigned long long)it);
		} else if (have && sscanf(line, "run %llu", &n) == 1) {
			if (batch_local(&s, &d, n, &cpu, &wall) != 0)
				printf("err\n");
			else
				printf("%llu %llu\n", (unsigned long long)cpu,
				    (unsigned long long)wall);
		} else {
			printf("err unknown\n");
		}
		fflush(stdout);
	}
	if (have)
		cstate_teardown(&s);
	return 0;
}
