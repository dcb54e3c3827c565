/* vgtoken-bench: options and the choice of mode. See bench.h and the
 * README's "Performance" section. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/bench/bench.h"

struct bench_opts opt;
const char *bench_self;

static void
usage(FILE *out)
{
	fputs(
"usage: vgtoken-bench MODE [options]\n"
"\n"
"modes:\n"
"  crypto     crypto/ against OpenSSL's libcrypto (per-thread CPU and wall\n"
"             time, alternating rounds); --kernels all adds every kernel\n"
"             variant this CPU can run against the portable code\n"
"  p11        PKCS#11 modules side by side (--module, once or more)\n"
"  store      token-store scaling: init+login, find by label, create and\n"
"             peak RSS with --counts objects (--module, once or more)\n"
"  callgrind  instructions per operation under valgrind --tool=callgrind\n"
"  info       CPU model, features, kernels chosen, OpenSSL version\n"
"\n"
"options:\n"
"  --module PATH        a PKCS#11 module (p11, store); repeat to compare\n"
"  --token LABEL        use this existing token instead of a throw-away\n"
"  --pin PIN            its user PIN (--token and --pin after a --module\n"
"                       apply to that module, before any to all)\n"
"  --seconds S          time per case and side (default 1; store: per\n"
"                       measurement, default 0.5)\n"
"  --rounds R           alternating rounds per case (default 5)\n"
"  --case TEXT          only cases whose name contains TEXT (repeat:\n"
"                       those that contain any)\n"
"  --kernels all        crypto: also every kernel variant vs portable\n"
"  --pbkdf2-iterations N  crypto: PBKDF2 iterations (default 600000)\n"
"  --counts A,B,...     store: object counts (default 10,1000,10000)\n"
"  --public             store: public objects (default: private ones)\n"
"  --setup-limit S      store: skip a count whose filling would take\n"
"                       longer than S seconds (estimated; default none)\n"
"  --threads N          p11: each case on 1 and on N threads, a session\n"
"                       each (default 2; 1: one thread only)\n"
"  --scale              p11: each case on 1, 2, 4, ... threads up to the\n"
"                       CPUs online (or up to --threads N)\n"
"  --iters N            callgrind: operations per case (default 20)\n"
"  --save FILE          callgrind: write the counts to FILE\n"
"  --previous FILE      callgrind: print the change against FILE\n"
"  --valgrind PATH      callgrind: the valgrind program (default valgrind)\n"
"  --json FILE          also write the results as JSON\n"
"  --markdown FILE      also write a Markdown table (for the README)\n"
"  --quiet              no progress lines on stderr\n", out);
}

static int
parse_counts(const char *s)
{
	char *end;

	opt.ncounts = 0;
	while (*s != '\0' && opt.ncounts < 8) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v == 0)
			return -1;
		opt.counts[opt.ncounts++] = v;
		s = end;
		if (*s == ',')
			s++;
		else if (*s != '\0')
			return -1;
	}
	return opt.ncounts > 0 ? 0 : -1;
}

static int
parse(int argc, char **argv)
{
	int i, threads_given = 0;

	opt.mode = argv[1];
	opt.seconds = -1;
	opt.rounds = 5;
	opt.pbkdf2_iter = 600000;
	opt.threads_max = 2;
	opt.iters = 20;
	opt.counts[0] = 10;
	opt.counts[1] = 1000;
	opt.counts[2] = 10000;
	opt.ncounts = 3;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(0);
		} else if (strcmp(a, "--scale") == 0) {
			opt.scale = 1;
			takes = 0;
		} else if (strcmp(a, "--quiet") == 0) {
			opt.quiet = 1;
			takes = 0;
		} else if (strcmp(a, "--public") == 0) {
			opt.store_public = 1;
			takes = 0;
		} else if (v == NULL) {
			fprintf(stderr, "vgtoken-bench: %s needs a value\n",
			    a);
			return -1;
		} else if (strcmp(a, "--module") == 0) {
			if (opt.nmod == BENCH_MAX_MODULES) {
				fprintf(stderr, "vgtoken-bench: at most %d "
				    "modules\n", BENCH_MAX_MODULES);
				return -1;
			}
			opt.mod[opt.nmod++].path = v;
		} else if (strcmp(a, "--token") == 0) {
			if (opt.nmod > 0)
				opt.mod[opt.nmod - 1].token = v;
			else
				opt.token = v;
		} else if (strcmp(a, "--pin") == 0) {
			if (opt.nmod > 0)
				opt.mod[opt.nmod - 1].pin = v;
			else
				opt.pin = v;
		} else if (strcmp(a, "--seconds") == 0) {
			opt.seconds = strtod(v, NULL);
			if (!(opt.seconds > 0)) {
				fprintf(stderr, "vgtoken-bench: bad "
				    "--seconds\n");
				return -1;
			}
		} else if (strcmp(a, "--rounds") == 0) {
			opt.rounds = atoi(v);
			if (opt.rounds < 1 || opt.rounds > BENCH_MAX_ROUNDS) {
				fprintf(stderr, "vgtoken-bench: --rounds "
				    "1..%d\n", BENCH_MAX_ROUNDS);
				return -1;
			}
		} else if (strcmp(a, "--json") == 0) {
			opt.json = v;
		} else if (strcmp(a, "--markdown") == 0) {
			opt.markdown = v;
		} else if (strcmp(a, "--case") == 0) {
			if (opt.nfilter == (int)(sizeof(opt.filter) /
			    sizeof(opt.filter[0]))) {
				fprintf(stderr, "vgtoken-bench: at most %d "
				    "--case\n", opt.nfilter);
				return -1;
			}
			opt.filter[opt.nfilter++] = v;
		} else if (strcmp(a, "--kernels") == 0) {
			if (strcmp(v, "all") == 0)
				opt.kernels_all = 1;
			else if (strcmp(v, "native") != 0) {
				fprintf(stderr, "vgtoken-bench: --kernels "
				    "all|native\n");
				return -1;
			}
		} else if (strcmp(a, "--pbkdf2-iterations") == 0) {
			opt.pbkdf2_iter = strtoul(v, NULL, 10);
			if (opt.pbkdf2_iter == 0 || opt.pbkdf2_iter > 100000000)
				return -1;
		} else if (strcmp(a, "--counts") == 0) {
			if (parse_counts(v) != 0) {
				fprintf(stderr, "vgtoken-bench: bad --counts\n");
				return -1;
			}
		} else if (strcmp(a, "--threads") == 0) {
			opt.threads_max = atoi(v);
			threads_given = 1;
			if (opt.threads_max < 1 ||
			    opt.threads_max > BENCH_MAX_THREADS) {
				fprintf(stderr, "vgtoken-bench: --threads "
				    "1..%d\n", BENCH_MAX_THREADS);
				return -1;
			}
		} else if (strcmp(a, "--setup-limit") == 0) {
			opt.setup_limit = strtod(v, NULL);
		} else if (strcmp(a, "--iters") == 0) {
			opt.iters = strtoul(v, NULL, 10);
			if (opt.iters == 0)
				return -1;
		} else if (strcmp(a, "--save") == 0) {
			opt.save = v;
		} else if (strcmp(a, "--previous") == 0) {
			opt.previous = v;
		} else if (strcmp(a, "--valgrind") == 0) {
			opt.valgrind = v;
		} else {
			fprintf(stderr, "vgtoken-bench: unknown option %s\n",
			    a);
			return -1;
		}
		i += takes;
	}
	if (opt.scale && !threads_given) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		opt.threads_max = n < 1 ? 1 : n > BENCH_MAX_THREADS
		    ? BENCH_MAX_THREADS : (int)n;
	}
	for (i = 0; i < opt.nmod; i++) {
		if (opt.mod[i].token == NULL)
			opt.mod[i].token = opt.token;
		if (opt.mod[i].pin == NULL)
			opt.mod[i].pin = opt.pin;
		if ((opt.mod[i].token == NULL) != (opt.mod[i].pin == NULL)) {
			fprintf(stderr, "vgtoken-bench: --token and --pin "
			    "go together\n");
			return -1;
		}
	}
	return 0;
}

static int
info(void)
{
	struct json j = { 0 };
	FILE *md;

	if (opt.json != NULL && json_open(&j, opt.json) != 0)
		return 1;
	json_str(&j, "mode", "info");
	bench_print_env(stdout, &j);
	if (opt.markdown != NULL) {
		md = fopen(opt.markdown, "we");
		if (md == NULL) {
			perror(opt.markdown);
			return 1;
		}
		bench_env_markdown(md);
		if (fclose(md) != 0)
			return 1;
	}
	return json_close(&j) == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	static char self[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		bench_self = self;
	} else {
		bench_self = argv[0];
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	/* Internal modes: a copy of this program started by another. */
	if (strcmp(argv[1], "crypto-child") == 0) {
		opt.pbkdf2_iter = argc > 2 ? strtoul(argv[2], NULL, 10) : 600000;
		return bench_crypto_child();
	}
	if (strcmp(argv[1], "callgrind-child") == 0)
		return bench_callgrind_child(argc, argv);
	if (strcmp(argv[1], "store-child") == 0)
		return bench_store_child(argc, argv);

	if (parse(argc, argv) != 0) {
		usage(stderr);
		return 2;
	}
	if (strcmp(opt.mode, "crypto") == 0)
		return bench_crypto();
	if (strcmp(opt.mode, "p11") == 0)
		return bench_p11();
	if (strcmp(opt.mode, "store") == 0)
		return bench_store();
	if (strcmp(opt.mode, "callgrind") == 0)
		return bench_callgrind();
	if (strcmp(opt.mode, "info") == 0)
		return info();
	fprintf(stderr, "vgtoken-bench: unknown mode %s\n", opt.mode);
	usage(stderr);
	return 2;
}
