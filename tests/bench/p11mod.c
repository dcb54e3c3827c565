/* Loading PKCS#11 modules and preparing throw-away tokens for the p11 and
 * store modes of vgtoken-bench: see bench.h. Nothing here knows a module's
 * internals; bmod_prepare_env() only writes the configuration files that
 * vgtoken and SoftHSMv2 read, so that their tokens live in a private
 * directory. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/bench/bench.h"
#include "cryptoki/ckr_names.h"

/* see bench.h */
const char *
rv_name(CK_RV rv)
{
	static __thread char buf[32];
	const char *name = vg_ckr_name(rv);

	if (name != NULL)
		return name;
	snprintf(buf, sizeof(buf), "CKR_0x%lx", (unsigned long)rv);
	return buf;
}

static int
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "vgtoken-bench: %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* see bench.h */
int
bmod_prepare_env(const char *dir)
{
	char path[PATH_MAX], text[PATH_MAX + 512];

	/* vgtoken: its own data directory and a fast PIN derivation (the
	 * test suite's count: login cost is not what is measured here). A
	 * second file differs only by sqlite_synchronous = off, for the
	 * store benchmark's set-up processes, which fill tokens with
	 * thousands of objects before the measured process starts. */
	snprintf(text, sizeof(text),
	    "# written by vgtoken-bench for a throw-away token\n"
	    "data_dir = %s/vgtoken\n"
	    "pbkdf2_iterations = %d\n", dir, BENCH_TEST_PBKDF2);
	snprintf(path, sizeof(path), "%s/vgtoken.conf", dir);
	if (write_file(path, text) != 0)
		return -1;
	setenv("VGTOKEN_CONF", path, 1);
	setenv("XDG_DATA_HOME", dir, 1);
	strncat(text, "sqlite_synchronous = off\n",
	    sizeof(text) - strlen(text) - 1);
	snprintf(path, sizeof(path), "%s/vgtoken-setup.conf", dir);
	if (write_file(path, text) != 0)
		return -1;

	/* SoftHSMv2: its own token directory. */
	snprintf(path, sizeof(path), "%s/softhsm-tokens", dir);
	if (mkdir(path, 0700) != 0 && errno != EEXIST) {
		fprintf(stderr, "vgtoken-bench: mkdir %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	snprintf(text, sizeof(text),
	    "# written by vgtoken-bench for a throw-away token\n"
	    "directories.tokendir = %s/softhsm-tokens\n"
	    "objectstore.backend = file\n"
	    "log.level = ERROR\n"
	    "slots.removable = false\n", dir);
	snprintf(path, sizeof(path), "%s/softhsm2.conf", dir);
	if (write_file(path, text) != 0)
		return -1;
	setenv("SOFTHSM2_CONF", path, 1);
	return 0;
}

/* Copies src to dst (to load a second instance of one library). */
static int
copy_file(const char *src, const char *dst)
{
	char buf[65536];
	FILE *in = fopen(src, "rb"), *out = NULL;
	size_t n;
	int rc = -1;

	if (in == NULL)
		goto out;
	out = fopen(dst, "wb");
	if (out == NULL)
		goto out;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			goto out;
	rc = ferror(in) ? -1 : 0;
out:
	if (in != NULL)
		fclose(in);
	if (out != NULL && fclose(out) != 0)
		rc = -1;
	return rc;
}

static char loaded[BENCH_MAX_MODULES][PATH_MAX];
static char names[BENCH_MAX_MODULES][32];
static int nloaded;

/* see bench.h */
int
bmod_load(struct bmod *m, const char *path, int index)
{
	char real[PATH_MAX], copy[PATH_MAX + 64];
	const char *base, *use = path;
	CK_C_GetFunctionList get;
	void *sym;
	size_t len;
	CK_RV rv;
	int i;

	memset(m, 0, sizeof(*m));
	m->path = path;
	m->main = CK_INVALID_HANDLE;
	if (realpath(path, real) == NULL) {
		fprintf(stderr, "vgtoken-bench: %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	for (i = 0; i < nloaded; i++) {
		if (strcmp(loaded[i], real) != 0 || bench_tmpdir() == NULL)
			continue;
		/* dlopen() would hand back the instance already loaded. */
		snprintf(copy, sizeof(copy), "%s/module-%d.so",
		    bench_tmpdir(), index);
		if (copy_file(real, copy) != 0) {
			fprintf(stderr, "vgtoken-bench: cannot copy %s\n",
			    real);
			return -1;
		}
		use = copy;
		break;
	}

	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	if (strncmp(base, "lib", 3) == 0)
		base += 3;
	len = strcspn(base, ".");
	snprintf(m->name, sizeof(m->name), "%.*s", (int)(len < 24 ? len : 24),
	    base);
	for (i = 0; i < nloaded; i++)
		if (strcmp(names[i], m->name) == 0) {
			len = strlen(m->name);
			snprintf(m->name + (len < 24 ? len : 24), 8, "#%u",
			    (unsigned)(index + 1) % 100);
			break;
		}

	m->dl = dlopen(use, RTLD_NOW | RTLD_LOCAL);
	if (m->dl == NULL) {
		fprintf(stderr, "vgtoken-bench: dlopen %s: %s\n", use,
		    dlerror());
		return -1;
	}
	sym = dlsym(m->dl, "C_GetFunctionList");
	if (sym == NULL) {
		fprintf(stderr, "vgtoken-bench: %s: no C_GetFunctionList\n",
		    path);
		return -1;
	}
	memcpy(&get, &sym, sizeof(get));
	rv = get(&m->f);
	if (rv != CKR_OK || m->f == NULL) {
		fprintf(stderr, "vgtoken-bench: %s: C_GetFunctionList: %s\n",
		    path, rv_name(rv));
		return -1;
	}
	/* The 3.2 table, for the calls only it has (key encapsulation). */
	m->f32 = NULL;
	sym = dlsym(m->dl, "C_GetInterface");
	if (sym != NULL) {
		CK_C_GetInterface geti;
		CK_VERSION v32 = { 3, 2 };
		CK_INTERFACE_PTR iface = NULL;

		memcpy(&geti, &sym, sizeof(geti));
		if (geti((CK_UTF8CHAR_PTR)"PKCS 11", &v32, &iface, 0) ==
		    CKR_OK && iface != NULL && iface->pFunctionList != NULL)
			m->f32 = iface->pFunctionList;
	}
	if (nloaded < BENCH_MAX_MODULES) {
		snprintf(loaded[nloaded], PATH_MAX, "%s", real);
		snprintf(names[nloaded], sizeof(names[0]), "%s", m->name);
		nloaded++;
	}
	return 0;
}

/* Copies a blank-padded PKCS#11 text field without its padding. */
static void
field(char *dst, size_t n, const CK_UTF8CHAR *src, size_t len)
{
	while (len > 0 && src[len - 1] == ' ')
		len--;
	if (len > n - 1)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* see bench.h */
CK_RV
bmod_initialize(struct bmod *m)
{
	CK_C_INITIALIZE_ARGS args;
	CK_INFO info;
	char manu[33], desc[33];
	CK_RV rv;

	memset(&args, 0, sizeof(args));
	args.flags = CKF_OS_LOCKING_OK;
	rv = m->f->C_Initialize(&args);
	if (rv == CKR_OK && m->info[0] == '\0' &&
	    m->f->C_GetInfo(&info) == CKR_OK) {
		field(manu, sizeof(manu), info.manufacturerID, 32);
		field(desc, sizeof(desc), info.libraryDescription, 32);
		snprintf(m->info, sizeof(m->info), "%s, %s, library %u.%u",
		    manu, desc, info.libraryVersion.major,
		    info.libraryVersion.minor);
	}
	return rv;
}

/* see bench.h */
CK_RV
bmod_find_token(struct bmod *m, const char *label, CK_SLOT_ID *slot)
{
	CK_SLOT_ID ids[64];
	CK_ULONG n = 64, i;
	CK_TOKEN_INFO ti;
	char have[33];
	CK_RV rv;

	rv = m->f->C_GetSlotList(CK_TRUE, ids, &n);
	if (rv != CKR_OK)
		return rv;
	for (i = 0; i < n; i++) {
		if (m->f->C_GetTokenInfo(ids[i], &ti) != CKR_OK)
			continue;
		field(have, sizeof(have), ti.label, 32);
		if ((ti.flags & CKF_TOKEN_INITIALIZED) &&
		    strcmp(have, label) == 0) {
			*slot = ids[i];
			return CKR_OK;
		}
	}
	return CKR_TOKEN_NOT_PRESENT;
}

static void
pad32(CK_UTF8CHAR out[32], const char *s)
{
	size_t len = strlen(s);

	memset(out, ' ', 32);
	memcpy(out, s, len < 32 ? len : 32);
}

/* see bench.h */
CK_RV
bmod_init_token(struct bmod *m, const char *label)
{
	CK_SLOT_ID ids[64], slot = 0;
	CK_ULONG n = 64, i;
	CK_TOKEN_INFO ti;
	CK_UTF8CHAR lab[32];
	CK_SESSION_HANDLE h = CK_INVALID_HANDLE;
	int found = 0;
	CK_RV rv;

	rv = m->f->C_GetSlotList(CK_TRUE, ids, &n);
	if (rv != CKR_OK)
		goto out;
	for (i = 0; i < n && !found; i++)
		if (m->f->C_GetTokenInfo(ids[i], &ti) == CKR_OK &&
		    !(ti.flags & CKF_TOKEN_INITIALIZED)) {
			slot = ids[i];
			found = 1;
		}
	if (!found) {
		rv = CKR_TOKEN_NOT_RECOGNIZED;
		goto out;
	}
	pad32(lab, label);
	rv = m->f->C_InitToken(slot, (CK_UTF8CHAR_PTR)BENCH_SO_PIN,
	    strlen(BENCH_SO_PIN), lab);
	if (rv != CKR_OK)
		goto out;
	/* Some modules move an initialised token to another slot ID. */
	rv = bmod_find_token(m, label, &slot);
	if (rv != CKR_OK)
		goto out;
	rv = m->f->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h);
	if (rv != CKR_OK)
		goto out;
	rv = m->f->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)BENCH_SO_PIN,
	    strlen(BENCH_SO_PIN));
	if (rv == CKR_OK)
		rv = m->f->C_InitPIN(h, (CK_UTF8CHAR_PTR)BENCH_USER_PIN,
		    strlen(BENCH_USER_PIN));
	if (rv == CKR_OK)
		rv = m->f->C_Logout(h);
	if (rv != CKR_OK)
		goto out;
	m->slot = slot;
	snprintf(m->label, sizeof(m->label), "%s", label);
	snprintf(m->pin, sizeof(m->pin), "%s", BENCH_USER_PIN);
	m->throwaway = 1;
out:
	if (h != CK_INVALID_HANDLE)
		m->f->C_CloseSession(h);
	return rv;
}

/* see bench.h */
CK_RV
bmod_open_main(struct bmod *m)
{
	CK_RV rv;

	rv = m->f->C_OpenSession(m->slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &m->main);
	if (rv != CKR_OK) {
		m->main = CK_INVALID_HANDLE;
		return rv;
	}
	rv = m->f->C_Login(m->main, CKU_USER, (CK_UTF8CHAR_PTR)m->pin,
	    strlen(m->pin));
	if (rv == CKR_USER_ALREADY_LOGGED_IN)
		rv = CKR_OK;
	return rv;
}
