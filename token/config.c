/*
 * The configuration file: "key = value" lines, '#' comments, blank lines.
 * Every setting has a default, so no file is needed.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "token/token.h"

#ifndef VG_SYSCONFDIR
#define VG_SYSCONFDIR "/etc"
#endif

enum kind { K_PATH, K_ULONG, K_ENUM };

static const char *const log_names[] = { "none", "error", "warning", "info",
	"debug", NULL };
static const char *const sync_names[] = { "off", "normal", "full", "extra",
	NULL };

/* The settings, as data: name, kind, where it lives, range or names. */
static const struct setting {
	const char *key;
	enum kind kind;
	size_t off;
	unsigned long min, max, def;
	const char *const *names;
} settings[] = {
	{ "data_dir", K_PATH, offsetof(struct vg_config, data_dir), 0, 0, 0,
	    NULL },
	{ "log_level", K_ENUM, offsetof(struct vg_config, log_level), 0, 0,
	    VG_LOG_ERROR, log_names },
	{ "pin_min_length", K_ULONG, offsetof(struct vg_config, pin_min_len),
	    1, 255, 4, NULL },
	{ "pin_max_length", K_ULONG, offsetof(struct vg_config, pin_max_len),
	    1, 255, 255, NULL },
	{ "user_pin_retries", K_ULONG,
	    offsetof(struct vg_config, user_pin_retries), 1, 1000, 10, NULL },
	{ "so_pin_retries", K_ULONG,
	    offsetof(struct vg_config, so_pin_retries), 1, 1000, 10, NULL },
	{ "pbkdf2_iterations", K_ULONG,
	    offsetof(struct vg_config, pbkdf2_iterations), 1000, 100000000,
	    600000, NULL },
	{ "sqlite_synchronous", K_ENUM,
	    offsetof(struct vg_config, sqlite_synchronous), 0, 0, VG_SYNC_FULL,
	    sync_names },
	{ "sqlite_cache_kib", K_ULONG,
	    offsetof(struct vg_config, sqlite_cache_kib), 64, 1048576, 16384,
	    NULL },
	{ "busy_timeout_ms", K_ULONG,
	    offsetof(struct vg_config, busy_timeout_ms), 0, 600000, 5000,
	    NULL },
};
#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

/* see token/token.h */
const char *
vg_config_default_path(void)
{
	const char *env = getenv("VGTOKEN_CONF");

	return (env != NULL && *env != '\0') ? env
					     : VG_SYSCONFDIR "/vgtoken.conf";
}

static void
set_defaults(struct vg_config *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < NSETTINGS; i++) {
		char *field = (char *)c + settings[i].off;

		if (settings[i].kind == K_ULONG)
			*(unsigned long *)field = settings[i].def;
		else if (settings[i].kind == K_ENUM)
			*(int *)field = (int)settings[i].def;
	}
}

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Appends to the message in msg, truncating. */
static void __attribute__((format(printf, 3, 4)))
append(char *msg, size_t msglen, const char *fmt, ...)
{
	size_t used = strlen(msg);
	va_list ap;

	va_start(ap, fmt);
	if (used < msglen)
		vsnprintf(msg + used, msglen - used, fmt, ap);
	va_end(ap);
}

/* Applies one value; returns NULL or a message describing the problem,
 * which names what the setting accepts: the reader of the message is
 * likely to be editing the file. */
static const char *
apply(struct vg_config *c, const struct setting *st, const char *v,
    char *msg, size_t msglen)
{
	char *field = (char *)c + st->off;
	unsigned long n;
	char *end;
	unsigned i;

	switch (st->kind) {
	case K_PATH:
		if (v[0] != '/') {
			snprintf(msg, msglen, "bad value '%.40s' for %s (expected "
			    "an absolute path, e.g. /var/lib/vgtoken)", v,
			    st->key);
			return msg;
		}
		if (strlen(v) >= PATH_MAX - 64) {
			snprintf(msg, msglen, "%s is too long (at most %d "
			    "bytes)", st->key, PATH_MAX - 65);
			return msg;
		}
		strcpy(field, v);
		return NULL;
	case K_ULONG:
		errno = 0;
		n = strtoul(v, &end, 10);
		if (!isdigit((unsigned char)v[0]) || *end != '\0' ||
		    errno != 0 || n < st->min || n > st->max) {
			snprintf(msg, msglen,
			    "bad value '%.40s' for %s (expected %lu..%lu)", v,
			    st->key, st->min, st->max);
			return msg;
		}
		*(unsigned long *)field = n;
		return NULL;
	case K_ENUM:
		for (i = 0; st->names[i] != NULL; i++) {
			if (strcmp(v, st->names[i]) == 0) {
				*(int *)field = (int)i;
				return NULL;
			}
		}
		snprintf(msg, msglen, "bad value '%.40s' for %s (expected one "
		    "of:", v, st->key);
		for (i = 0; st->names[i] != NULL; i++)
			append(msg, msglen, i == 0 ? " %s" : ", %s",
			    st->names[i]);
		append(msg, msglen, ")");
		return msg;
	}
	return NULL;
}

static unsigned
parse_file(struct vg_config *c, FILE *f, const char *file,
    vg_config_report *report, void *ctx)
{
	char line[PATH_MAX + 128], msg[512];
	unsigned lineno = 0, problems = 0;

	while (fgets(line, sizeof(line), f) != NULL) {
		char *key, *val, *eq, *hash;
		const char *err = NULL;
		size_t i;

		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f)) {
			int ch;

			while ((ch = fgetc(f)) != EOF && ch != '\n')
				;
			err = "line too long";
			goto report;
		}
		hash = strchr(line, '#');
		if (hash != NULL)
			*hash = '\0';
		key = trim(line);
		if (*key == '\0')
			continue;
		eq = strchr(key, '=');
		if (eq == NULL) {
			err = "expected 'key = value'";
			goto report;
		}
		*eq = '\0';
		key = trim(key);
		val = trim(eq + 1);
		for (i = 0; i < NSETTINGS; i++)
			if (strcmp(key, settings[i].key) == 0)
				break;
		if (i == NSETTINGS) {
			snprintf(msg, sizeof(msg), "unknown key '%.40s' "
			    "(known keys:", key);
			for (i = 0; i < NSETTINGS; i++)
				append(msg, sizeof(msg), i == 0 ? " %s"
				    : ", %s", settings[i].key);
			append(msg, sizeof(msg), ")");
			err = msg;
		} else {
			err = apply(c, &settings[i], val, msg, sizeof(msg));
		}
report:
		if (err != NULL) {
			problems++;
			if (report != NULL)
				report(ctx, file, lineno, err);
		}
	}
	return problems;
}

static void
resolve_data_dir(struct vg_config *c)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (c->data_dir[0] != '\0')
		return;
	if (xdg != NULL && xdg[0] == '/' && strlen(xdg) < PATH_MAX - 64)
		snprintf(c->data_dir, sizeof(c->data_dir), "%s/vgtoken", xdg);
	else if (home != NULL && home[0] == '/' &&
	    strlen(home) < PATH_MAX - 64)
		snprintf(c->data_dir, sizeof(c->data_dir),
		    "%s/.local/share/vgtoken", home);
	else
		snprintf(c->data_dir, sizeof(c->data_dir),
		    "/tmp/vgtoken-%lu", (unsigned long)getuid());
}

/* see token/token.h */
unsigned
vg_config_load(struct vg_config *c, const char *path,
    vg_config_report *report, void *ctx)
{
	unsigned problems = 0;
	int explicit = path != NULL || getenv("VGTOKEN_CONF") != NULL;
	FILE *f;

	set_defaults(c);
	if (path == NULL)
		path = vg_config_default_path();
	f = fopen(path, "re");
	if (f == NULL) {
		if (explicit) {
			problems++;
			if (report != NULL)
				report(ctx, path, 0, strerror(errno));
		}
	} else {
		snprintf(c->path, sizeof(c->path), "%s", path);
		c->from_file = 1;
		problems += parse_file(c, f, path, report, ctx);
		fclose(f);
	}
	if (c->pin_min_len > c->pin_max_len) {
		problems++;
		if (report != NULL)
			report(ctx, path, 0,
			    "pin_min_length exceeds pin_max_length; using the "
			    "defaults for both");
		c->pin_min_len = 4;
		c->pin_max_len = 255;
	}
	resolve_data_dir(c);
	return problems;
}

/* see token/token.h */
void
vg_config_show(const struct vg_config *c,
    void (*emit)(void *ctx, const char *key, const char *value), void *ctx)
{
	char buf[32];
	size_t i;

	for (i = 0; i < NSETTINGS; i++) {
		const char *field = (const char *)c + settings[i].off;

		switch (settings[i].kind) {
		case K_PATH:
			emit(ctx, settings[i].key, field);
			break;
		case K_ULONG:
			snprintf(buf, sizeof(buf), "%lu",
			    *(const unsigned long *)field);
			emit(ctx, settings[i].key, buf);
			break;
		case K_ENUM:
			emit(ctx, settings[i].key,
			    settings[i].names[*(const int *)field]);
			break;
		}
	}
}
