/*
 * vgtoken-util: administration of vgtoken. Errors are one line on stderr
 * and a non-zero exit status.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token/token.h"

static void
usage(FILE *f)
{
	fprintf(f,
	    "Usage: vgtoken-util COMMAND\n"
	    "\n"
	    "Commands:\n"
	    "  --cpu                 CPU features found, the VG_CPU_FEATURES mask\n"
	    "                        and the kernel chosen for each primitive\n"
	    "  --show-config [FILE]  the effective configuration\n"
	    "  --check-config [FILE] report problems in the configuration file\n"
	    "                        (exit status 1 if there are any)\n"
	    "  --version             print the version\n"
	    "  --help                print this help\n"
	    "\n"
	    "FILE defaults to $VGTOKEN_CONF, else %s/vgtoken.conf.\n",
	    VG_SYSCONFDIR);
}

static void
print_features(const char *title, unsigned f)
{
	unsigned i;

	printf("%-22s", title);
	if (f == 0)
		printf(" (none)");
	for (i = 0; i < VG_CPU_FEATURE_COUNT; i++)
		if (f & (1u << i))
			printf(" %s", vg_cpu_feature_name(i));
	printf("\n");
}

static int
cmd_cpu(void)
{
	const struct vg_kernels *k = vg_kernels();
	const char *mask = getenv("VG_CPU_FEATURES");
	const struct {
		const char *primitive;
		const char *impl;
	} rows[] = {
		{ "sha1", k->sha1_impl },
		{ "sha256", k->sha256_impl },
		{ "sha512", k->sha512_impl },
		{ "keccak", k->keccak_impl },
		{ "aes", k->aes_impl },
		{ "ghash", k->ghash_impl },
		{ "rsa", k->rsa.impl },
		{ "p256", k->p256.impl },
		{ "mldsa", k->mldsa.impl },
	};
	size_t i;

	print_features("detected:", vg_cpu_detected());
	printf("%-22s %s\n", "VG_CPU_FEATURES:",
	    mask != NULL ? mask : "(unset: use all)");
	if (vg_cpu_mask_unknown() != 0)
		printf("%-22s %u unknown name(s) ignored\n", "",
		    vg_cpu_mask_unknown());
	print_features("in use:", vg_cpu_features());
	printf("kernels:\n");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		printf("  %-20s %s\n", rows[i].primitive, rows[i].impl);
	return 0;
}

static void
report_problem(void *ctx, const char *file, unsigned line, const char *msg)
{
	(void)ctx;
	if (line != 0)
		fprintf(stderr, "%s:%u: %s\n", file, line, msg);
	else
		fprintf(stderr, "%s: %s\n", file, msg);
}

static void
emit_setting(void *ctx, const char *key, const char *value)
{
	(void)ctx;
	printf("%s = %s\n", key, value);
}

static int
cmd_config(const char *path, int show)
{
	struct vg_config c;
	unsigned problems;

	problems = vg_config_load(&c, path, report_problem, NULL);
	if (show) {
		printf("# file: %s\n", c.from_file ? c.path : "(none: defaults)");
		vg_config_show(&c, emit_setting, NULL);
		return 0;
	}
	if (problems != 0) {
		fprintf(stderr, "%u problem(s) found\n", problems);
		return 1;
	}
	printf("%s: ok\n", c.from_file ? c.path : "(no file: defaults)");
	return 0;
}

int
main(int argc, char **argv)
{
	enum { OPT_CPU = 256, OPT_SHOW, OPT_CHECK, OPT_VERSION, OPT_HELP };
	static const struct option opts[] = {
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "show-config", no_argument, NULL, OPT_SHOW },
		{ "check-config", no_argument, NULL, OPT_CHECK },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int cmd = 0, c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h')
			c = OPT_HELP;
		if (c == '?') {
			usage(stderr);
			return 2;
		}
		if (cmd != 0 && cmd != c) {
			fprintf(stderr, "vgtoken-util: give one command\n");
			return 2;
		}
		cmd = c;
	}
	if (argc - optind > 1 ||
	    (argc - optind == 1 && cmd != OPT_SHOW && cmd != OPT_CHECK)) {
		fprintf(stderr, "vgtoken-util: unexpected argument '%s'\n",
		    argv[optind]);
		return 2;
	}
	switch (cmd) {
	case OPT_CPU:
		return cmd_cpu();
	case OPT_SHOW:
	case OPT_CHECK:
		return cmd_config(optind < argc ? argv[optind] : NULL,
		    cmd == OPT_SHOW);
	case OPT_VERSION:
		printf("vgtoken-util %s\n", PACKAGE_VERSION);
		return 0;
	case OPT_HELP:
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
}
