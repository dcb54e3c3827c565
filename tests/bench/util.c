/* Clocks, statistics, the JSON writer, the environment and child
 * processes of vgtoken-bench: see bench.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "crypto/cpu.h"
#include "tests/bench/bench.h"

/* ------------------------------------------------------------- time */

static uint64_t
clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* see bench.h */
uint64_t
bench_wall_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* see bench.h */
uint64_t
bench_thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* see bench.h */
uint64_t
bench_proc_cpu_ns(void)
{
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

/* ------------------------------------------------------------ stats */

/* see bench.h */
void
series_add(struct bench_series *s, double v)
{
	if (s->n < BENCH_MAX_ROUNDS)
		s->v[s->n++] = v;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* see bench.h */
double
series_median(const struct bench_series *s)
{
	double t[BENCH_MAX_ROUNDS];

	if (s->n == 0)
		return NAN;
	memcpy(t, s->v, sizeof(double) * (size_t)s->n);
	qsort(t, (size_t)s->n, sizeof(double), cmp_double);
	if (s->n % 2 == 1)
		return t[s->n / 2];
	return (t[s->n / 2 - 1] + t[s->n / 2]) / 2;
}

/* see bench.h */
double
series_min(const struct bench_series *s)
{
	double m = INFINITY;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] < m)
			m = s->v[i];
	return s->n > 0 ? m : NAN;
}

/* see bench.h */
double
series_max(const struct bench_series *s)
{
	double m = -INFINITY;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] > m)
			m = s->v[i];
	return s->n > 0 ? m : NAN;
}

/* see bench.h */
char *
fmt_time(char *buf, size_t n, double ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	int u = 0;

	if (isnan(ns)) {
		snprintf(buf, n, "-");
		return buf;
	}
	while (u < 3 && ns >= 1000) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, n, ns >= 100 ? "%.0f %s" : ns >= 10 ? "%.1f %s" :
	    "%.2f %s", ns, unit[u]);
	return buf;
}

/* see bench.h */
char *
fmt_range(char *buf, size_t n, double med, double lo, double hi)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double scale = 1;
	int u = 0;

	if (isnan(med)) {
		snprintf(buf, n, "-");
		return buf;
	}
	while (u < 3 && med / scale >= 1000) {
		scale *= 1000;
		u++;
	}
	med /= scale;
	lo /= scale;
	hi /= scale;
	if (med >= 100)
		snprintf(buf, n, "%.0f %s [%.0f-%.0f]", med, unit[u], lo, hi);
	else if (med >= 10)
		snprintf(buf, n, "%.1f %s [%.1f-%.1f]", med, unit[u], lo, hi);
	else
		snprintf(buf, n, "%.2f %s [%.2f-%.2f]", med, unit[u], lo, hi);
	return buf;
}

/* see bench.h */
char *
fmt_rate(char *buf, size_t n, double r)
{
	const char *sfx = "";

	if (isnan(r)) {
		snprintf(buf, n, "-");
		return buf;
	}
	if (r >= 1e6) {
		r /= 1e6;
		sfx = " M";
	} else if (r >= 1e4) {
		r /= 1e3;
		sfx = " k";
	}
	snprintf(buf, n, r >= 100 ? "%.0f%s" : r >= 10 ? "%.1f%s" : "%.2f%s",
	    r, sfx);
	return buf;
}

/* ------------------------------------------------------------- json */

/* see bench.h */
int
json_open(struct json *j, const char *path)
{
	memset(j, 0, sizeof(*j));
	j->f = fopen(path, "we");
	if (j->f == NULL) {
		fprintf(stderr, "vgtoken-bench: %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	fputc('{', j->f);
	j->depth = 1;
	return 0;
}

/* see bench.h */
int
json_close(struct json *j)
{
	int rc;

	if (j->f == NULL)
		return 0;
	while (j->depth > 1)
		json_end(j);
	fputs("}\n", j->f);
	rc = fclose(j->f);
	j->f = NULL;
	return rc == 0 ? 0 : -1;
}

static void
json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void
json_key(struct json *j, const char *key)
{
	if (j->count[j->depth]++ > 0)
		fputc(',', j->f);
	fputc('\n', j->f);
	fprintf(j->f, "%*s", 2 * j->depth, "");
	if (key != NULL) {
		json_escape(j->f, key);
		fputs(": ", j->f);
	}
}

/* see bench.h */
void
json_obj(struct json *j, const char *key)
{
	if (j->f == NULL)
		return;
	json_key(j, key);
	fputc('{', j->f);
	j->count[++j->depth] = 0;
	j->close[j->depth] = '}';
}

/* see bench.h */
void
json_arr(struct json *j, const char *key)
{
	if (j->f == NULL)
		return;
	json_key(j, key);
	fputc('[', j->f);
	j->count[++j->depth] = 0;
	j->close[j->depth] = ']';
}

/* see bench.h */
void
json_end(struct json *j)
{
	char close;

	if (j->f == NULL || j->depth <= 1)
		return;
	close = j->close[j->depth--];
	fputc('\n', j->f);
	fprintf(j->f, "%*s%c", 2 * j->depth, "", close);
}

/* see bench.h */
void
json_str(struct json *j, const char *key, const char *v)
{
	if (j->f == NULL)
		return;
	json_key(j, key);
	json_escape(j->f, v != NULL ? v : "");
}

/* see bench.h */
void
json_num(struct json *j, const char *key, double v)
{
	if (j->f == NULL)
		return;
	json_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.9g", v);
	else
		fputs("null", j->f);
}

/* see bench.h */
void
json_int(struct json *j, const char *key, long long v)
{
	if (j->f == NULL)
		return;
	json_key(j, key);
	fprintf(j->f, "%lld", v);
}

/* see bench.h */
void
json_bool(struct json *j, const char *key, int v)
{
	if (j->f == NULL)
		return;
	json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

/* see bench.h */
void
json_null(struct json *j, const char *key)
{
	if (j->f == NULL)
		return;
	json_key(j, key);
	fputs("null", j->f);
}

/* see bench.h */
void
json_series(struct json *j, const char *key, const struct bench_series *s)
{
	int i;

	json_obj(j, key);
	json_num(j, "median", series_median(s));
	json_num(j, "min", series_min(s));
	json_num(j, "max", series_max(s));
	json_arr(j, "rounds");
	for (i = 0; i < s->n; i++)
		json_num(j, NULL, s->v[i]);
	json_end(j);
	json_end(j);
}

/* ----------------------------------------------------- environment */

/* see bench.h */
const char *
bench_cpu_model(void)
{
	static char model[128];
	char line[256];
	FILE *f;

	char name[96] = "unknown", family[16] = "", num[16] = "";
	int n = 0;

	if (model[0] != '\0')
		return model;
	/* the name, and the family and model numbers, which tell the
	 * generation where the name does not ("AMD EPYC" under a
	 * hypervisor) */
	f = fopen("/proc/cpuinfo", "r");
	while (f != NULL && n < 3 && fgets(line, sizeof(line), f) != NULL) {
		char *p = strchr(line, ':');

		if (p == NULL)
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		if (strncmp(line, "model name", 10) == 0)
			snprintf(name, sizeof(name), "%s", p);
		else if (strncmp(line, "cpu family", 10) == 0)
			snprintf(family, sizeof(family), "%s", p);
		else if (strncmp(line, "model", 5) == 0 &&
		    (line[5] == ' ' || line[5] == '\t'))
			snprintf(num, sizeof(num), "%s", p);
		else
			continue;
		n++;
	}
	if (f != NULL)
		fclose(f);
	if (family[0] != '\0' && num[0] != '\0')
		snprintf(model, sizeof(model), "%s, family %s model %s", name,
		    family, num);
	else
		snprintf(model, sizeof(model), "%s", name);
	return model;
}

/* see bench.h */
const char *
bench_kernels_chosen(void)
{
	static char buf[256];
	const struct vg_kernels *k = vg_kernels();

	snprintf(buf, sizeof(buf),
	    "sha1=%s sha256=%s sha512=%s keccak=%s aes=%s ghash=%s rsa=%s "
	    "p256=%s p256_select=%s mldsa=%s",
	    k->sha1_impl, k->sha256_impl, k->sha512_impl, k->keccak_impl,
	    k->aes_impl, k->ghash_impl, k->rsa.impl ? k->rsa.impl : "-",
	    k->p256.impl ? k->p256.impl : "-",
	    k->p256.select_impl ? k->p256.select_impl : "-",
	    k->mldsa.impl ? k->mldsa.impl : "-");
	return buf;
}

/* see bench.h */
const char *
bench_openssl_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}

/* see bench.h */
void
bench_print_env(FILE *out, struct json *j)
{
	char feats[160] = "";
	unsigned f = vg_cpu_features(), i;
	size_t len = 0;

	for (i = 0; i < VG_CPU_FEATURE_COUNT; i++)
		if (f & (1u << i))
			len += (size_t)snprintf(feats + len, sizeof(feats) - len,
			    "%s%s", len ? "," : "", vg_cpu_feature_name(i));
	if (len == 0)
		snprintf(feats, sizeof(feats), "none");
	fprintf(out, "CPU:      %s (%ld online CPUs)\n", bench_cpu_model(),
	    sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(out, "features: %s%s\n", feats,
	    getenv("VG_CPU_FEATURES") ? " (masked by VG_CPU_FEATURES)" : "");
	fprintf(out, "kernels:  %s\n", bench_kernels_chosen());
	fprintf(out, "OpenSSL:  %s\n", bench_openssl_version());
	json_obj(j, "env");
	json_str(j, "cpu", bench_cpu_model());
	json_int(j, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	json_str(j, "features", feats);
	json_str(j, "kernels", bench_kernels_chosen());
	json_str(j, "openssl", bench_openssl_version());
	json_end(j);
}

/* see bench.h */
void
bench_env_markdown(FILE *md)
{
	char feats[160] = "";
	unsigned f = vg_cpu_features(), i;
	size_t len = 0;

	for (i = 0; i < VG_CPU_FEATURE_COUNT; i++)
		if (f & (1u << i))
			len += (size_t)snprintf(feats + len, sizeof(feats) - len,
			    "%s%s", len ? ", " : "", vg_cpu_feature_name(i));
	fprintf(md, "* CPU: %s, %ld CPUs online\n", bench_cpu_model(),
	    sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(md, "* CPU features vgtoken uses: %s\n", len ? feats : "none");
	fprintf(md, "* kernels chosen: `%s`\n", bench_kernels_chosen());
	fprintf(md, "* OpenSSL (libcrypto linked into the benchmark): %s\n",
	    bench_openssl_version());
}

/* see bench.h */
int
bench_selected(const char *name)
{
	int i;

	for (i = 0; i < opt.nfilter; i++)
		if (strstr(name, opt.filter[i]) != NULL)
			return 1;
	return opt.nfilter == 0;
}

static char tmp_root[PATH_MAX];
static pid_t tmp_owner;

static int
remove_entry(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
remove_tmp(void)
{
	if (tmp_root[0] != '\0' && getpid() == tmp_owner)
		nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* see bench.h */
const char *
bench_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (tmp_root[0] != '\0')
		return tmp_root;
	if (base == NULL || base[0] != '/')
		base = "/tmp";
	snprintf(tmp_root, sizeof(tmp_root), "%s/vgtoken-bench-XXXXXX", base);
	if (mkdtemp(tmp_root) == NULL) {
		fprintf(stderr, "vgtoken-bench: mkdtemp %s: %s\n", tmp_root,
		    strerror(errno));
		tmp_root[0] = '\0';
		return NULL;
	}
	tmp_owner = getpid();
	atexit(remove_tmp);
	return tmp_root;
}

/* ------------------------------------------------------------ child */

/* see bench.h */
int
child_start(struct bench_child *c, const char *prog, char *const argv[],
    const char *const env[])
{
	int in[2], out[2];
	pid_t pid;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	/* Close-on-exec, so that a later child does not hold this one's
	 * pipes open (dup2 below clears the flag on 0 and 1). */
	if (pipe2(in, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		for (i = 0; env != NULL && env[i] != NULL; i++) {
			char name[64];
			const char *eq = strchr(env[i], '=');

			if (eq == NULL) {
				unsetenv(env[i]);
				continue;
			}
			snprintf(name, sizeof(name), "%.*s",
			    (int)(eq - env[i]), env[i]);
			setenv(name, eq + 1, 1);
		}
		if (prog == NULL)
			execv(bench_self, argv);
		else
			execvp(prog, argv);
		fprintf(stderr, "vgtoken-bench: exec %s: %s\n",
		    prog != NULL ? prog : bench_self, strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	c->pid = pid;
	c->to = fdopen(in[1], "w");
	c->from = fdopen(out[0], "r");
	if (c->to == NULL || c->from == NULL) {
		child_finish(c, NULL);
		return -1;
	}
	return 0;
}

/* see bench.h */
int
child_ask(struct bench_child *c, const char *line, char *buf, size_t n)
{
	if (c->to == NULL || c->from == NULL)
		return -1;
	if (line != NULL) {
		if (fprintf(c->to, "%s\n", line) < 0 || fflush(c->to) != 0)
			return -1;
	}
	if (fgets(buf, (int)n, c->from) == NULL)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* see bench.h */
int
child_finish(struct bench_child *c, struct rusage *ru)
{
	int status = 0;

	if (c->to != NULL)
		fclose(c->to);
	if (c->from != NULL)
		fclose(c->from);
	c->to = c->from = NULL;
	if (c->pid <= 0)
		return -1;
	while (wait4(c->pid, &status, 0, ru) < 0) {
		if (errno != EINTR)
			return -1;
	}
	c->pid = -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -1;
}
