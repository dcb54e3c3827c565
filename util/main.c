/*
 * vgtoken-util: the command line, and the commands that need no token
 * (CPU report, configuration). Errors are one line on stderr and a
 * non-zero exit status.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token/token.h"
#include "util/util.h"

static void
usage(FILE *f)
{
	fprintf(f,
	    "Usage: vgtoken-util COMMAND [OPTIONS]\n"
	    "\n"
	    "Tokens:\n"
	    "  --show-slots [--json]\n"
	    "      slots and tokens: ID, label, serial, flags, and the state\n"
	    "      of each PIN as the token reports it: ok, wrong tries\n"
	    "      counted, one try left, or locked (PKCS#11 reports these\n"
	    "      flags, not a number of tries)\n"
	    "  --init-token --label L [--so-pin P] [--pin P]\n"
	    "      create token L on the free slot, with its SO and user PINs\n"
	    "  --delete-token --token T [--so-pin P]\n"
	    "      delete token T and all its objects\n"
	    "  --set-pin --token T [--so] [--pin P] [--new-pin P]\n"
	    "      change the user PIN (with --so: the SO PIN); --pin is\n"
	    "      the current PIN (--old-pin is an alias, and with --so\n"
	    "      --so-pin is taken too)\n"
	    "  --init-pin --token T [--so-pin P] [--new-pin P]\n"
	    "      the SO sets a new user PIN: the way out of a forgotten\n"
	    "      or locked user PIN (it clears the count of wrong tries)\n"
	    "  --list-objects --token T [--pin P] [--json]\n"
	    "      list the objects (the private ones too with --pin):\n"
	    "      class, type and size (rsa-2048, ec-p256, ml-dsa-65,\n"
	    "      ml-kem-768, aes-256), CKA_ID, label, token and private\n"
	    "      flags\n"
	    "  --delete-object --token T (--id HEX | --label S) [--class C]\n"
	    "                  [--pin P] [--all]\n"
	    "      delete the object with that ID and/or label (C:\n"
	    "      private-key, public-key, certificate, secret-key, data);\n"
	    "      when several match, only with --all; lists what it\n"
	    "      deleted\n"
	    "\n"
	    "Keys and certificates:\n"
	    "  --import FILE --token T [--pin P] [--id HEX] [--label S]\n"
	    "           [--passphrase-file F]\n"
	    "      import a private key with its public key, and/or an\n"
	    "      X.509 certificate: PEM or DER, the key PKCS#8 (also\n"
	    "      encrypted: ENCRYPTED PRIVATE KEY) of RSA, EC P-256,\n"
	    "      Ed25519, X25519, ML-DSA-44/65/87 or ML-KEM-512/768/1024\n"
	    "      (seed, expanded key or both), or traditional RSA/EC; or a\n"
	    "      PKCS#12 (PFX) file, whose key comes with its certificate.\n"
	    "      The passphrase of an encrypted file is asked for on the\n"
	    "      terminal, or is the first line of F\n"
	    "  --import FILE --key-type aes|generic --token T [--pin P]\n"
	    "           [--id HEX] [--label S] [--extractable]\n"
	    "      import a raw secret key, the file's bytes as they are:\n"
	    "      AES (16, 24 or 32 bytes) or generic (HMAC, 1 to 512\n"
	    "      bytes); sensitive, and extractable (wrappable) only with\n"
	    "      --extractable. Without --id the ID is random\n"
	    "  --keygen TYPE --token T [--pin P] [--id HEX] [--label S]\n"
	    "           [--extractable]\n"
	    "      generate a key pair on the token: rsa2048, rsa3072,\n"
	    "      rsa4096, ec (P-256), ed25519, x25519, mldsa44, mldsa65,\n"
	    "      mldsa87 (or ml-dsa-44 ...), ml-kem-512, ml-kem-768,\n"
	    "      ml-kem-1024; the private key can be wrapped (backed up)\n"
	    "      only when made with --extractable\n"
	    "  --export-pubkey --token T (--id HEX | --label S)\n"
	    "                  [-o FILE | --output FILE]\n"
	    "      write a public key as a PEM SubjectPublicKeyInfo (RSA, EC,\n"
	    "      Ed25519, X25519, ML-DSA or ML-KEM)\n"
	    "\n"
	    "Backup:\n"
	    "  --backup FILE --token T [--pin P] [--passphrase-file F]\n"
	    "      write every object of token T that may leave it into\n"
	    "      FILE (a new file), sealed with a passphrase (asked for\n"
	    "      twice, or the first line of F): AES-256-GCM under\n"
	    "      PBKDF2-HMAC-SHA-256, keys wrapped by the token.\n"
	    "      Non-extractable keys are skipped and named\n"
	    "  --restore FILE --token T [--pin P] [--passphrase-file F]\n"
	    "      make the objects of a backup on token T; those it has\n"
	    "      already or refuses are skipped and named (status 1). A\n"
	    "      wrong passphrase or a changed file creates nothing\n"
	    "\n"
	    "Other:\n"
	    "  --cpu                 CPU features found, the VG_CPU_FEATURES\n"
	    "                        mask and the kernel of each primitive\n"
	    "  --show-config [FILE]  the effective configuration\n"
	    "  --check-config [FILE] report problems in the configuration\n"
	    "                        file (exit status 1 if there are any)\n"
	    "  -v, --version         print the version\n"
	    "  -h, --help            print this help\n"
	    "\n"
	    "--json prints the listing as JSON, for scripts. A call that\n"
	    "takes long (PBKDF2, RSA-4096) shows a spinner on stderr when\n"
	    "it is a terminal.\n"
	    "T is a token label or serial number. PINs not given are asked\n"
	    "for on the terminal, without echo; PINs on the command line\n"
	    "are visible to other users while the tool starts. The default\n"
	    "CKA_ID of an import is the SHA-1 of the public key (RSA\n"
	    "modulus, EC point), so that a key and its certificate pair up.\n"
	    "\n"
	    "Environment:\n"
	    "  VGTOKEN_CONF      the configuration file to read instead of\n"
	    "                    %s/vgtoken.conf\n"
	    "  VG_LOG            none, error, warning, info or debug: the\n"
	    "                    module's log messages go to stderr at that\n"
	    "                    level (otherwise to syslog, at log_level)\n"
	    "  VG_CPU_FEATURES   none, all, or a comma-separated list of\n"
	    "                    CPU features the kernels may use (see --cpu)\n"
	    "  XDG_DATA_HOME     the default data directory is\n"
	    "                    $XDG_DATA_HOME/vgtoken, else\n"
	    "                    ~/.local/share/vgtoken\n"
	    "\n"
	    "Files:\n"
	    "  %s/vgtoken.conf\n"
	    "                    the configuration (vgtoken.conf(5))\n"
	    "  DATA_DIR/vgtoken.db\n"
	    "                    the token database, with its -wal and -shm\n"
	    "                    files; DATA_DIR is data_dir of the\n"
	    "                    configuration (see --show-config)\n"
	    "\n"
	    "Exit status:\n"
	    "  0  done   1  failed (one line on stderr says why)\n"
	    "  2  usage error (unknown option, missing argument)\n"
	    "\n"
	    "See vgtoken-util(1), vgtoken.conf(5) and vgtoken(7).\n",
	    VG_SYSCONFDIR, VG_SYSCONFDIR);
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

/* The library counts the names in VG_CPU_FEATURES it does not know but
 * never prints (it runs inside other programs): the tool names them, by
 * asking the same parser about each word on its own. */
static void
print_unknown(const char *mask)
{
	const char *p = mask;
	char word[64];
	unsigned i, unknown;
	size_t n;

	printf("%-22s unknown name(s) ignored:", "");
	while (*p != '\0') {
		p += strspn(p, ", ");
		n = strcspn(p, ", ");
		if (n == 0)
			break;
		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		vg_cpu_parse_mask(word, &unknown);
		if (unknown != 0)
			printf(" '%s'", word);
		p += n;
	}
	printf("\n%-22s known: none, all", "");
	for (i = 0; i < VG_CPU_FEATURE_COUNT; i++)
		printf(", %s", vg_cpu_feature_name(i));
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
		{ "x25519", k->c25519.impl },
		{ "ed25519", k->c25519.ed25519_impl },
		{ "mlkem", k->mlkem.impl },
	};
	size_t i;

	print_features("detected:", vg_cpu_detected());
	printf("%-22s %s\n", "VG_CPU_FEATURES:",
	    mask != NULL ? mask : "(unset: use all)");
	if (mask != NULL && vg_cpu_mask_unknown() != 0)
		print_unknown(mask);
	print_features("in use:", vg_cpu_features());
	printf("kernels:\n");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		printf("  %-20s %s\n", rows[i].primitive, rows[i].impl);
	return VG_UTIL_OK;
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
		printf("# file: %s\n",
		    c.from_file ? c.path : "(none: defaults)");
		vg_config_show(&c, emit_setting, NULL);
		return VG_UTIL_OK;
	}
	if (problems != 0) {
		fprintf(stderr, "%u problem(s) found\n", problems);
		return VG_UTIL_FAIL;
	}
	printf("%s: ok\n", c.from_file ? c.path : "(no file: defaults)");
	return VG_UTIL_OK;
}

/* ------------------------------------------------------ command table */

enum {
	OPT_CPU = 256, OPT_SHOW, OPT_CHECK, OPT_VERSION, OPT_HELP,
	OPT_INIT, OPT_SLOTS, OPT_LIST, OPT_DELETE, OPT_SETPIN, OPT_INITPIN,
	OPT_DELOBJ, OPT_IMPORT, OPT_EXPORT, OPT_KEYGEN, OPT_BACKUP,
	OPT_RESTORE,
	/* options */
	OPT_LABEL, OPT_TOKEN, OPT_PIN, OPT_SO_PIN, OPT_SO, OPT_OLD_PIN,
	OPT_NEW_PIN, OPT_ID, OPT_OUTPUT, OPT_JSON, OPT_ALL, OPT_CLASS,
	OPT_PASSFILE, OPT_KEYTYPE, OPT_EXTRACT,
};

/* Option bits, for what each command takes and needs. */
#define F_LABEL (1u << 0)
#define F_TOKEN (1u << 1)
#define F_PIN (1u << 2)
#define F_SO_PIN (1u << 3)
#define F_SO (1u << 4)
#define F_OLD_PIN (1u << 5)
#define F_NEW_PIN (1u << 6)
#define F_ID (1u << 7)
#define F_OUTPUT (1u << 8)
#define F_JSON (1u << 9)
#define F_ALL (1u << 10)
#define F_CLASS (1u << 11)
#define F_PASSFILE (1u << 12)
#define F_KEYTYPE (1u << 13)
#define F_EXTRACT (1u << 14)

static const struct {
	int opt;
	unsigned bit;
	const char *name;
} option_bits[] = {
	{ OPT_LABEL, F_LABEL, "--label" },
	{ OPT_TOKEN, F_TOKEN, "--token" },
	{ OPT_PIN, F_PIN, "--pin" },
	{ OPT_SO_PIN, F_SO_PIN, "--so-pin" },
	{ OPT_SO, F_SO, "--so" },
	{ OPT_OLD_PIN, F_OLD_PIN, "--old-pin" },
	{ OPT_NEW_PIN, F_NEW_PIN, "--new-pin" },
	{ OPT_ID, F_ID, "--id" },
	{ OPT_OUTPUT, F_OUTPUT, "-o" },
	{ OPT_JSON, F_JSON, "--json" },
	{ OPT_ALL, F_ALL, "--all" },
	{ OPT_CLASS, F_CLASS, "--class" },
	{ OPT_PASSFILE, F_PASSFILE, "--passphrase-file" },
	{ OPT_KEYTYPE, F_KEYTYPE, "--key-type" },
	{ OPT_EXTRACT, F_EXTRACT, "--extractable" },
};
#define NOPTION_BITS (sizeof(option_bits) / sizeof(option_bits[0]))

static const struct {
	int cmd;
	const char *name;
	unsigned takes, needs;
	int (*run)(struct vg_util_opts *o);
} commands[] = {
	{ OPT_INIT, "--init-token", F_LABEL | F_PIN | F_SO_PIN, F_LABEL,
	  vg_util_init_token },
	{ OPT_SLOTS, "--show-slots", F_JSON, 0, vg_util_show_slots },
	{ OPT_LIST, "--list-objects", F_TOKEN | F_PIN | F_JSON, F_TOKEN,
	  vg_util_list_objects },
	{ OPT_DELOBJ, "--delete-object", F_TOKEN | F_PIN | F_ID | F_LABEL |
	  F_CLASS | F_ALL, F_TOKEN, vg_util_delete_object },
	{ OPT_DELETE, "--delete-token", F_TOKEN | F_SO_PIN, F_TOKEN,
	  vg_util_delete_token },
	{ OPT_SETPIN, "--set-pin", F_TOKEN | F_SO | F_PIN | F_SO_PIN |
	  F_OLD_PIN | F_NEW_PIN, F_TOKEN, vg_util_set_pin },
	{ OPT_INITPIN, "--init-pin", F_TOKEN | F_SO_PIN | F_NEW_PIN, F_TOKEN,
	  vg_util_init_pin },
	{ OPT_IMPORT, "--import", F_TOKEN | F_PIN | F_ID | F_LABEL |
	  F_PASSFILE | F_KEYTYPE | F_EXTRACT, F_TOKEN, vg_util_import },
	{ OPT_EXPORT, "--export-pubkey", F_TOKEN | F_PIN | F_ID | F_LABEL |
	  F_OUTPUT, F_TOKEN, vg_util_export_pubkey },
	{ OPT_KEYGEN, "--keygen", F_TOKEN | F_PIN | F_ID | F_LABEL |
	  F_EXTRACT, F_TOKEN, vg_util_keygen },
	{ OPT_BACKUP, "--backup", F_TOKEN | F_PIN | F_PASSFILE, F_TOKEN,
	  vg_util_backup },
	{ OPT_RESTORE, "--restore", F_TOKEN | F_PIN | F_PASSFILE, F_TOKEN,
	  vg_util_restore },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static unsigned
option_bit(int c)
{
	size_t i;

	for (i = 0; i < NOPTION_BITS; i++)
		if (option_bits[i].opt == c)
			return option_bits[i].bit;
	return 0;
}

/* Checks the options given against what the command takes and needs. */
static int
check_options(size_t k, unsigned given)
{
	size_t i;

	for (i = 0; i < NOPTION_BITS; i++) {
		unsigned b = option_bits[i].bit;

		if ((given & b) && !(commands[k].takes & b)) {
			vg_util_err("%s does not take %s", commands[k].name,
			    option_bits[i].name);
			return -1;
		}
		if ((commands[k].needs & b) && !(given & b)) {
			vg_util_err("%s needs %s", commands[k].name,
			    option_bits[i].name);
			return -1;
		}
	}
	return 0;
}

static int
set_pin_option(struct vg_util_opts *o, int c, char *arg)
{
	switch (c) {
	case OPT_PIN:
		return vg_util_pin_from_arg(&o->pin, arg, "--pin");
	case OPT_SO_PIN:
		return vg_util_pin_from_arg(&o->so_pin, arg, "--so-pin");
	case OPT_OLD_PIN:
		return vg_util_pin_from_arg(&o->old_pin, arg, "--old-pin");
	default:
		return vg_util_pin_from_arg(&o->new_pin, arg, "--new-pin");
	}
}

static void
free_opts(struct vg_util_opts *o)
{
	vg_util_pin_free(&o->pin);
	vg_util_pin_free(&o->so_pin);
	vg_util_pin_free(&o->old_pin);
	vg_util_pin_free(&o->new_pin);
	vg_util_pin_free(&o->passphrase);
}

static int
run_token_command(int cmd, unsigned given, struct vg_util_opts *o)
{
	size_t k;

	for (k = 0; k < NCOMMANDS && commands[k].cmd != cmd; k++)
		;
	if (check_options(k, given) != 0)
		return VG_UTIL_USAGE;
	return commands[k].run(o);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "show-config", no_argument, NULL, OPT_SHOW },
		{ "check-config", no_argument, NULL, OPT_CHECK },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "init-token", no_argument, NULL, OPT_INIT },
		{ "show-slots", no_argument, NULL, OPT_SLOTS },
		{ "list-objects", no_argument, NULL, OPT_LIST },
		{ "delete-token", no_argument, NULL, OPT_DELETE },
		{ "set-pin", no_argument, NULL, OPT_SETPIN },
		{ "init-pin", no_argument, NULL, OPT_INITPIN },
		{ "delete-object", no_argument, NULL, OPT_DELOBJ },
		{ "import", required_argument, NULL, OPT_IMPORT },
		{ "export-pubkey", no_argument, NULL, OPT_EXPORT },
		{ "keygen", required_argument, NULL, OPT_KEYGEN },
		{ "backup", required_argument, NULL, OPT_BACKUP },
		{ "restore", required_argument, NULL, OPT_RESTORE },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "token", required_argument, NULL, OPT_TOKEN },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "so-pin", required_argument, NULL, OPT_SO_PIN },
		{ "so", no_argument, NULL, OPT_SO },
		{ "old-pin", required_argument, NULL, OPT_OLD_PIN },
		{ "new-pin", required_argument, NULL, OPT_NEW_PIN },
		{ "id", required_argument, NULL, OPT_ID },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "class", required_argument, NULL, OPT_CLASS },
		{ "passphrase-file", required_argument, NULL, OPT_PASSFILE },
		{ "key-type", required_argument, NULL, OPT_KEYTYPE },
		{ "extractable", no_argument, NULL, OPT_EXTRACT },
		{ NULL, 0, NULL, 0 },
	};
	struct vg_util_opts o;
	unsigned given = 0, bit;
	int cmd = 0, c, rc;

	memset(&o, 0, sizeof(o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hvo:", opts, NULL)) != -1) {
		if (c == 'h')
			c = OPT_HELP;
		if (c == 'v')
			c = OPT_VERSION;
		if (c == 'o')
			c = OPT_OUTPUT;
		if (c == '?' || c == ':') {
			if (optopt != 0 && optopt < 256)
				vg_util_err("unknown or incomplete option "
				    "'-%c' (see --help)", optopt);
			else
				vg_util_err("unknown or incomplete option "
				    "'%s' (see --help)", argv[optind - 1]);
			rc = VG_UTIL_USAGE;
			goto out;
		}
		bit = option_bit(c);
		if (bit == 0) {
			if (cmd != 0 && cmd != c) {
				vg_util_err("give one command (see --help)");
				rc = VG_UTIL_USAGE;
				goto out;
			}
			cmd = c;
			if (c == OPT_IMPORT || c == OPT_BACKUP ||
			    c == OPT_RESTORE)
				o.file = optarg;
			else if (c == OPT_KEYGEN)
				o.keytype = optarg;
			continue;
		}
		given |= bit;
		switch (c) {
		case OPT_LABEL:
			o.label = optarg;
			break;
		case OPT_TOKEN:
			o.token = optarg;
			break;
		case OPT_SO:
			o.so = 1;
			break;
		case OPT_JSON:
			o.json = 1;
			break;
		case OPT_ALL:
			o.all = 1;
			break;
		case OPT_KEYTYPE:
			o.keytype = optarg;
			break;
		case OPT_EXTRACT:
			o.extractable = 1;
			break;
		case OPT_CLASS:
			o.cls = optarg;
			break;
		case OPT_PASSFILE:
			/* getopt_long takes "--passphrase SECRET" as an
			 * abbreviation: refuse it, lest someone think a
			 * passphrase on the command line is accepted. */
			if (strncmp(optarg == argv[optind - 1]
			    ? argv[optind - 2] : argv[optind - 1],
			    "--passphrase-", 13) != 0) {
				vg_util_err("the passphrase is never taken "
				    "from the command line: give "
				    "--passphrase-file F, or type it at the "
				    "prompt");
				rc = VG_UTIL_USAGE;
				goto out;
			}
			o.passphrase_file = optarg;
			break;
		case OPT_ID:
			o.id_hex = optarg;
			break;
		case OPT_OUTPUT:
			o.output = optarg;
			break;
		default:
			if (set_pin_option(&o, c, optarg) != 0) {
				rc = VG_UTIL_USAGE;
				goto out;
			}
		}
	}
	if (argc - optind > 1 ||
	    (argc - optind == 1 && cmd != OPT_SHOW && cmd != OPT_CHECK)) {
		vg_util_err("unexpected argument '%s'", argv[optind]);
		rc = VG_UTIL_USAGE;
		goto out;
	}
	if (given != 0 && (cmd < OPT_INIT || cmd > OPT_RESTORE)) {
		vg_util_err(cmd == 0 ? "no command given (see --help)"
				     : "options given to a command that "
				       "takes none");
		rc = VG_UTIL_USAGE;
		goto out;
	}
	switch (cmd) {
	case OPT_CPU:
		rc = cmd_cpu();
		break;
	case OPT_SHOW:
	case OPT_CHECK:
		rc = cmd_config(optind < argc ? argv[optind] : NULL,
		    cmd == OPT_SHOW);
		break;
	case OPT_VERSION:
		printf("vgtoken-util %s\n", PACKAGE_VERSION);
		rc = VG_UTIL_OK;
		break;
	case OPT_HELP:
		usage(stdout);
		rc = VG_UTIL_OK;
		break;
	case 0:
		usage(stderr);
		rc = VG_UTIL_USAGE;
		break;
	default:
		rc = run_token_command(cmd, given, &o);
	}
out:
	free_opts(&o);
	return rc;
}
