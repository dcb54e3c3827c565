/*
 * The callgrind mode of vgtoken-bench: instructions per operation, which
 * stay the same on a busy machine. Each case of crypto_cases[] runs a fixed
 * workload (cg_ops operations, default --iters) in a copy of this program
 * under `valgrind --tool=callgrind`, with collection switched on only inside
 * vg_bench_fixed_workload(), so that start-up, set-up and the warm-up call
 * are not counted. Sides: vgtoken with the kernels valgrind's virtual CPU
 * allows, vgtoken's portable code (VG_CPU_FEATURES=none), and OpenSSL.
 *
 * With --previous FILE (a file written by --save), each vgtoken figure is
 * shown as "N -> M (-x%)" against the earlier run.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench.h"
#include "tests/bench/ccase.h"

/* The measured region: callgrind counts from its entry to its return. */
__attribute__((noinline)) int vg_bench_fixed_workload(struct cstate *s,
    int ossl, unsigned long ops);

static int
run_ops(struct cstate *s, int ossl, unsigned long ops)
{
	const struct ccase *c = s->c;
	unsigned long i;
	int rc = 0;

	for (i = 0; i < ops && rc == 0; i++) {
		if (c->kind == CC_KERNEL)
			rc = c->run_k(s, vg_kernels(), 0);
		else
			rc = ossl ? c->run_ossl(s) : c->run_vg(s);
	}
	return rc;
}

__attribute__((noinline)) int
vg_bench_fixed_workload(struct cstate *s, int ossl, unsigned long ops)
{
	return run_ops(s, ossl, ops);
}

/* see bench.h
 *
 * vgtoken-bench callgrind-child CASE vg|ossl OPS PARAM */
int
bench_callgrind_child(int argc, char **argv)
{
	const struct ccase *c;
	struct cstate s;
	char impl[48];
	size_t ci;
	int ossl, rc;

	if (argc != 6)
		return 2;
	ci = strtoul(argv[2], NULL, 10);
	ossl = strcmp(argv[3], "ossl") == 0;
	if (ci >= crypto_ncases)
		return 2;
	c = &crypto_cases[ci];
	if ((ossl && c->run_ossl == NULL) ||
	    cstate_setup(&s, c, strtoul(argv[5], NULL, 10)) != 0) {
		printf("err set-up\n");
		return 1;
	}
	if (c->kind == CC_KERNEL && c->setup_k != NULL &&
	    c->setup_k(&s, vg_kernels(), 0) != 0) {
		printf("err set-up\n");
		return 1;
	}
	/* A warm-up call outside the measured region (lazy
	 * initialisation on either side). */
	rc = run_ops(&s, ossl, 1);
	if (rc == 0)
		rc = vg_bench_fixed_workload(&s, ossl,
		    strtoul(argv[4], NULL, 10));
	c->impl(vg_kernels(), impl, sizeof(impl));
	printf("%s %s\n", rc == 0 ? "impl" : "err", ossl ? "libcrypto" : impl);
	cstate_teardown(&s);
	return rc == 0 ? 0 : 1;
}

/* Reads the "totals:" (or "summary:") line of a callgrind output file. */
static double
callgrind_total(const char *path)
{
	char line[256];
	double v = -1;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "totals: %lf", &v) == 1)
			break;
		if (sscanf(line, "summary: %lf", &v) == 1)
			continue;
	}
	fclose(f);
	return v;
}

/* Runs one side of a case under callgrind; returns instructions per
 * operation or -1. impl receives the kernels the child used. */
static double
measure(size_t ci, const char *side, int portable, unsigned long ops,
    unsigned long param, char *impl, size_t implsize)
{
	const char *vg = opt.valgrind != NULL ? opt.valgrind : "valgrind";
	char out[4200], outarg[4300], sci[24], sops[24], sparam[24];
	char line[256];
	char *argv[] = { (char *)vg, (char *)"--tool=callgrind", (char *)"-q",
		(char *)"--collect-atstart=no",
		(char *)"--toggle-collect=vg_bench_fixed_workload", outarg,
		(char *)bench_self, (char *)"callgrind-child", sci,
		(char *)side, sops, sparam, NULL };
	const char *env_none[] = { "VG_CPU_FEATURES=none", NULL };
	const char *env_all[] = { "VG_CPU_FEATURES", NULL };
	struct bench_child ch;
	double total;
	int st, ok = 0;

	snprintf(out, sizeof(out), "%s/callgrind.out", bench_tmpdir());
	snprintf(outarg, sizeof(outarg), "--callgrind-out-file=%s", out);
	snprintf(sci, sizeof(sci), "%zu", ci);
	snprintf(sops, sizeof(sops), "%lu", ops);
	snprintf(sparam, sizeof(sparam), "%lu", param);
	remove(out);
	if (child_start(&ch, vg, argv, portable ? env_none : env_all) != 0)
		return -1;
	impl[0] = '\0';
	while (child_ask(&ch, NULL, line, sizeof(line)) == 0)
		if (strncmp(line, "impl ", 5) == 0) {
			snprintf(impl, implsize, "%.*s", (int)implsize - 1, line + 5);
			ok = 1;
		}
	st = child_finish(&ch, NULL);
	if (st != 0 || !ok)
		return -1;
	total = callgrind_total(out);
	return total > 0 ? total / (double)ops : -1;
}

struct prev {
	char name[80], side[16];
	double instr;
};

static int
load_previous(struct prev *p, int max)
{
	char line[256];
	int n = 0;
	FILE *f;

	if (opt.previous == NULL || (f = fopen(opt.previous, "r")) == NULL)
		return 0;
	while (n < max && fgets(line, sizeof(line), f) != NULL) {
		char *t1 = strchr(line, '\t'), *t2;

		if (t1 == NULL || (t2 = strchr(t1 + 1, '\t')) == NULL)
			continue;
		*t1 = *t2 = '\0';
		snprintf(p[n].name, sizeof(p[n].name), "%.79s", line);
		snprintf(p[n].side, sizeof(p[n].side), "%.15s", t1 + 1);
		p[n].instr = strtod(t2 + 1, NULL);
		n++;
	}
	fclose(f);
	return n;
}

static double
previous(const struct prev *p, int n, const char *name, const char *side)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(p[i].name, name) == 0 && strcmp(p[i].side, side) == 0)
			return p[i].instr;
	return -1;
}

static void
fmt_instr(char *buf, size_t n, double v)
{
	if (v < 0)
		snprintf(buf, n, "failed");
	else
		snprintf(buf, n, "%.0f", v);
}

/* see bench.h */
int
bench_callgrind(void)
{
	static struct prev prev[256];
	static char done[64][80];
	int ndone = 0, i;
	static const char *const sides[] = { "vgtoken", "portable", "OpenSSL" };
	struct json j = { 0 };
	FILE *save = NULL;
	int nprev, rc = 0, si;
	size_t ci;

	nprev = load_previous(prev, 256);
	if (bench_tmpdir() == NULL)
		return 1;
	if (opt.json != NULL && json_open(&j, opt.json) != 0)
		return 1;
	json_str(&j, "mode", "callgrind");
	printf("vgtoken-bench callgrind: instructions per operation "
	    "(valgrind --tool=callgrind, Ir)\n");
	bench_print_env(stdout, &j);
	printf("(under valgrind the kernels are chosen from valgrind's virtual "
	    "CPU, shown per row)\n");
	if (nprev > 0)
		printf("previous run: %s\n", opt.previous);
	printf("\n%-32s %-16s %-14s %-14s %-14s %s\n", "operation",
	    "vgtoken kernel", "vgtoken", "portable", "OpenSSL",
	    nprev > 0 ? "vgtoken: previous -> now" : "");
	json_arr(&j, "results");
	for (ci = 0; ci < crypto_ncases; ci++) {
		const struct ccase *c = &crypto_cases[ci];
		unsigned long param = ccase_param(c, 1);
		unsigned long ops = c->cg_ops ? c->cg_ops : opt.iters;
		char label[80], impl[3][48], cells[3][24], dk[48], change[96];
		double v[3];

		ccase_label(c, param, label, sizeof(label));
		if (!bench_selected(label))
			continue;
		if (!opt.quiet)
			fprintf(stderr, "  ... %s\n", label);
		for (si = 0; si < 3; si++) {
			v[si] = -1;
			impl[si][0] = '\0';
			if (si == 2 && c->run_ossl == NULL) {
				snprintf(cells[si], sizeof(cells[si]), "-");
				continue;
			}
			v[si] = measure(ci, si == 2 ? "ossl" : "vg", si == 1,
			    ops, param, impl[si], sizeof(impl[si]));
			if (v[si] < 0)
				rc = 1;
			fmt_instr(cells[si], sizeof(cells[si]), v[si]);
		}
		impl_display(impl[0], dk, sizeof(dk));
		change[0] = '\0';
		{
			double p = previous(prev, nprev, label, "vgtoken");

			if (p > 0 && v[0] > 0)
				snprintf(change, sizeof(change),
				    "%.0f -> %.0f (%+.1f%%)", p, v[0],
				    (v[0] - p) * 100 / p);
		}
		printf("%-32s %-16s %-14s %-14s %-14s %s\n", label, dk,
		    cells[0], cells[1], cells[2], change);
		json_obj(&j, NULL);
		json_str(&j, "name", label);
		json_int(&j, "ops", (long long)ops);
		json_str(&j, "kernel", impl[0]);
		for (si = 0; si < 3; si++) {
			if (v[si] >= 0)
				json_num(&j, sides[si], v[si]);
			else
				json_null(&j, sides[si]);
		}
		json_end(&j);
		if (opt.save != NULL && save == NULL) {
			save = fopen(opt.save, "we");
			if (save == NULL)
				perror(opt.save);
		}
		for (si = 0; save != NULL && si < 3; si++)
			if (v[si] >= 0)
				fprintf(save, "%s\t%s\t%.0f\n", label,
				    sides[si], v[si]);
		if (ndone < 64)
			snprintf(done[ndone++], sizeof(done[0]), "%s", label);
	}
	json_end(&j);
	/* Keep the earlier counts of the cases --case left out. */
	for (i = 0; save != NULL && i < nprev; i++) {
		int k, seen = 0;

		for (k = 0; k < ndone; k++)
			seen |= strcmp(done[k], prev[i].name) == 0;
		if (!seen)
			fprintf(save, "%s\t%s\t%.0f\n", prev[i].name,
			    prev[i].side, prev[i].instr);
	}
	if (save != NULL && fclose(save) != 0)
		rc = 1;
	if (json_close(&j) != 0)
		rc = 1;
	return rc;
}
