/* Helpers shared by the tests in tests/p11/: see common.h. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/evp.h>

#include "tests/p11/common.h"
#include "cryptoki/ckr_names.h"
#include "tests/xorshift.h"

CK_FUNCTION_LIST_3_2 *p11;
CK_FUNCTION_LIST *p11_240;
CK_C_GetFunctionList p11_sym_GetFunctionList;
CK_C_GetInterfaceList p11_sym_GetInterfaceList;
CK_C_GetInterface p11_sym_GetInterface;

static void *module;

/* ------------------------------------------------ private token data */

static char data_root[PATH_MAX];
static pid_t data_owner;

static int
remove_entry(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Removes the private directory, in the process that made it only (a
 * forked child leaves it to its parent). */
static void
remove_data_root(void)
{
	if (data_root[0] != '\0' && getpid() == data_owner)
		nftw(data_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* see common.h
 *
 * Gives this test program a token database of its own, so that programs
 * running in parallel, and the user's own tokens, never meet: a new
 * directory under $XDG_DATA_HOME (else $TMPDIR or /tmp), and a
 * configuration file there that repeats $VGTOKEN_CONF (the test suite's
 * settings) and then sets data_dir to the new directory. Both variables
 * are pointed at the new files before the module reads them.
 */
int
p11_private_data_dir(void)
{
	const char *base = getenv("XDG_DATA_HOME");
	const char *conf = getenv("VGTOKEN_CONF");
	char path[PATH_MAX + 16], line[PATH_MAX + 128];
	FILE *in, *out;

	if (data_root[0] != '\0')
		return 0; /* once per process */
	if (base == NULL || base[0] != '/')
		base = getenv("TMPDIR");
	if (base == NULL || base[0] != '/')
		base = "/tmp";
	if (mkdir(base, 0700) != 0 && errno != EEXIST) {
		print_error("mkdir %s: %s\n", base, strerror(errno));
		return -1;
	}
	if ((size_t)snprintf(data_root, sizeof(data_root), "%s/p11-XXXXXX",
		base) >= sizeof(data_root) - 64 ||
	    mkdtemp(data_root) == NULL) {
		print_error("mkdtemp under %s failed\n", base);
		data_root[0] = '\0';
		return -1;
	}
	data_owner = getpid();
	atexit(remove_data_root);

	snprintf(path, sizeof(path), "%s/vgtoken.conf", data_root);
	out = fopen(path, "w");
	if (out == NULL) {
		print_error("%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (conf != NULL && *conf != '\0') {
		in = fopen(conf, "r");
		if (in == NULL) {
			print_error("%s: %s\n", conf, strerror(errno));
			fclose(out);
			return -1;
		}
		while (fgets(line, sizeof(line), in) != NULL)
			fputs(line, out);
		fclose(in);
		fputc('\n', out);
	}
	/* The last setting of a key wins. */
	fprintf(out, "data_dir = %s/data\n", data_root);
	if (fclose(out) != 0)
		return -1;
	setenv("VGTOKEN_CONF", path, 1);
	setenv("XDG_DATA_HOME", data_root, 1);
	return 0;
}

/* dlsym() returns an object pointer; POSIX guarantees that it converts
 * to a function pointer, which memcpy does without a warning. */
static int
resolve(const char *name, void *fp, size_t fpsize)
{
	void *sym = dlsym(module, name);

	if (sym == NULL) {
		print_error("%s: %s\n", name, dlerror());
		return -1;
	}
	memcpy(fp, &sym, fpsize);
	return 0;
}

/* see common.h */
int
p11_load(void)
{
	const char *path = getenv("VG_MODULE");
	CK_INTERFACE_PTR iface = NULL;
	CK_RV rv;

	if (p11 != NULL)
		return 0;
	if (path == NULL || *path == '\0') {
		print_error("VG_MODULE is not set; run the tests through "
			    "'make check'\n");
		return -1;
	}
	module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (module == NULL) {
		print_error("dlopen %s: %s\n", path, dlerror());
		return -1;
	}
	if (resolve("C_GetFunctionList", &p11_sym_GetFunctionList,
		sizeof(p11_sym_GetFunctionList)) != 0 ||
	    resolve("C_GetInterfaceList", &p11_sym_GetInterfaceList,
		sizeof(p11_sym_GetInterfaceList)) != 0 ||
	    resolve("C_GetInterface", &p11_sym_GetInterface,
		sizeof(p11_sym_GetInterface)) != 0)
		return -1;

	rv = p11_sym_GetInterface(NULL, NULL, &iface, 0);
	if (rv != CKR_OK || iface == NULL || iface->pFunctionList == NULL) {
		print_error("C_GetInterface: %s\n", p11_rv_name(rv));
		return -1;
	}
	if (((CK_VERSION *)iface->pFunctionList)->major != 3 ||
	    ((CK_VERSION *)iface->pFunctionList)->minor != 2) {
		print_error("the default interface is not PKCS#11 3.2\n");
		return -1;
	}
	rv = p11_sym_GetFunctionList(&p11_240);
	if (rv != CKR_OK || p11_240 == NULL) {
		print_error("C_GetFunctionList: %s\n", p11_rv_name(rv));
		return -1;
	}
	p11 = iface->pFunctionList;
	return 0;
}

/* see common.h */
int
p11_group_load(void **state)
{
	(void)state;
	if (p11_private_data_dir() != 0)
		return -1;
	return p11_load();
}

/* see common.h */
int
p11_group_init(void **state)
{
	CK_RV rv;

	if (p11_group_load(state) != 0)
		return -1;
	rv = p11->C_Initialize(NULL);
	if (rv != CKR_OK) {
		print_error("C_Initialize: %s\n", p11_rv_name(rv));
		return -1;
	}
	return 0;
}

/* see common.h */
int
p11_group_fini(void **state)
{
	CK_RV rv;

	(void)state;
	if (p11 == NULL)
		return 0;
	rv = p11->C_Finalize(NULL);
	if (rv != CKR_OK && rv != CKR_CRYPTOKI_NOT_INITIALIZED) {
		print_error("C_Finalize: %s\n", p11_rv_name(rv));
		return -1;
	}
	return 0;
}

/* see common.h */
CK_SLOT_ID
p11_slot(void)
{
	CK_SLOT_ID slots[8];
	CK_ULONG n = 8;

	assert_rv(p11->C_GetSlotList(CK_TRUE, slots, &n), CKR_OK);
	assert_true(n >= 1);
	return slots[0];
}

/* see common.h */
CK_SESSION_HANDLE
p11_open(CK_FLAGS extra)
{
	CK_SESSION_HANDLE h = CK_INVALID_HANDLE;

	assert_rv(p11->C_OpenSession(p11_slot(), CKF_SERIAL_SESSION | extra,
		      NULL, NULL, &h),
	    CKR_OK);
	assert_true(h != CK_INVALID_HANDLE);
	return h;
}

/* see common.h */
CK_SLOT_ID
p11_bad_slot(void)
{
	CK_SLOT_ID slots[64], bad = 0x7fff0000UL;
	CK_ULONG n = 64, i;
	int clash;

	assert_rv(p11->C_GetSlotList(CK_FALSE, slots, &n), CKR_OK);
	do {
		clash = 0;
		for (i = 0; i < n; i++)
			if (slots[i] == bad)
				clash = 1;
		bad += clash;
	} while (clash);
	return bad;
}

/* see common.h */
void
p11_bad_sessions(CK_SESSION_HANDLE out[P11_NBAD_SESSIONS])
{
	CK_SESSION_HANDLE closed = p11_open(0);

	assert_rv(p11->C_CloseSession(closed), CKR_OK);
	out[0] = CK_INVALID_HANDLE;
	out[1] = (CK_SESSION_HANDLE)0x7ffffff1UL;
	out[2] = closed;
}

/* see common.h */
const char *
p11_rv_name(CK_RV rv)
{
	/* Several names may appear in one message: rotate buffers. */
	static __thread char bufs[4][32];
	static __thread unsigned next;
	char *buf = bufs[next++ % 4];
	const char *name = vg_ckr_name(rv);

	if (name != NULL)
		return name;
	snprintf(buf, sizeof(bufs[0]), "CKR_0x%lx", (unsigned long)rv);
	return buf;
}

/* see common.h */
int
p11_text_ok(const CK_UTF8CHAR *field, size_t n, char *buf, size_t bufsize)
{
	size_t len = n, i;

	if (memchr(field, '\0', n) != NULL)
		return 0;
	while (len > 0 && field[len - 1] == ' ')
		len--;
	/* Blank padding or a full field; nothing else after the text. */
	for (i = 0; i < len; i++)
		if (field[i] < 0x20 || field[i] == 0x7f)
			return 0;
	if (bufsize > 0) {
		if (len > bufsize - 1)
			len = bufsize - 1;
		memcpy(buf, field, len);
		buf[len] = '\0';
	}
	return 1;
}

/* ---------------------------------------------------------------- rng */

static uint64_t base_seed;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

static void
choose_seed(void)
{
	const char *env = getenv("VG_TEST_SEED");
	struct timespec ts;

	if (env != NULL && *env != '\0') {
		base_seed = strtoull(env, NULL, 0);
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		base_seed = ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^
		    ((uint64_t)getpid() << 40);
	}
	print_message("test seed: VG_TEST_SEED=%llu\n",
	    (unsigned long long)base_seed);
}

/* see common.h */
void
p11_rng_seed(struct p11_rng *r, uint64_t stream)
{
	uint64_t z;

	pthread_once(&seed_once, choose_seed);
	/* splitmix64 of seed and stream: never 0 in practice, and fixed
	 * up if it is. */
	z = base_seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	r->s = z != 0 ? z : 1;
}

/* see common.h */
uint64_t
p11_rng_next(struct p11_rng *r)
{
	return vg_xorshift64s(&r->s);
}

/* see common.h */
size_t
p11_rng_below(struct p11_rng *r, size_t n)
{
	return (size_t)(p11_rng_next(r) % n);
}

/* see common.h */
void
p11_rng_fill(struct p11_rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len > 0) {
		uint64_t v = p11_rng_next(r);
		size_t k = len < 8 ? len : 8;

		memcpy(p, &v, k);
		p += k;
		len -= k;
	}
}

/* ---------------------------------------------------------------- digests */

const struct p11_digest p11_digests[] = {
	{ CKM_SHA_1, "SHA-1", "SHA1", 20 },
	{ CKM_SHA224, "SHA-224", "SHA224", 28 },
	{ CKM_SHA256, "SHA-256", "SHA256", 32 },
	{ CKM_SHA384, "SHA-384", "SHA384", 48 },
	{ CKM_SHA512, "SHA-512", "SHA512", 64 },
	{ CKM_SHA3_224, "SHA3-224", "SHA3-224", 28 },
	{ CKM_SHA3_256, "SHA3-256", "SHA3-256", 32 },
	{ CKM_SHA3_384, "SHA3-384", "SHA3-384", 48 },
	{ CKM_SHA3_512, "SHA3-512", "SHA3-512", 64 },
	{ CKM_SHA512_224, "SHA-512/224", "SHA512-224", 28 },
	{ CKM_SHA512_256, "SHA-512/256", "SHA512-256", 32 },
};
const size_t p11_ndigests = sizeof(p11_digests) / sizeof(p11_digests[0]);

/* see common.h */
int
p11_evp_digest(const struct p11_digest *d, const void *data, size_t len,
    unsigned char *out)
{
	const EVP_MD *md = EVP_get_digestbyname(d->evp_name);
	unsigned int outlen = 0;

	if (md == NULL || EVP_Digest(data, len, out, &outlen, md, NULL) != 1 ||
	    outlen != d->len)
		return -1;
	return 0;
}

/* see common.h */
int
p11_evp_wrap(const void *c, const uint8_t *key, const uint8_t *in,
    size_t len, uint8_t *out, int enc)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = -1, f = 0;

	if (x == NULL)
		return -1;
	EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	if (EVP_CipherInit_ex(x, c, NULL, key, NULL, enc) == 1 &&
	    EVP_CipherUpdate(x, out, &n, in, (int)len) == 1 &&
	    EVP_CipherFinal_ex(x, out + n, &f) == 1)
		n += f;
	else
		n = -1;
	EVP_CIPHER_CTX_free(x);
	return n;
}

/* see common.h */
size_t
p11_der_header(uint8_t *out, uint8_t tag, size_t len)
{
	out[0] = tag;
	if (len < 0x80) {
		out[1] = (uint8_t)len;
		return 2;
	}
	if (len < 0x100) {
		out[1] = 0x81;
		out[2] = (uint8_t)len;
		return 3;
	}
	out[1] = 0x82;
	out[2] = (uint8_t)(len >> 8);
	out[3] = (uint8_t)len;
	return 4;
}

/* see common.h */
int
p11_fresh_module(char dir[64], const char *extra)
{
	char conf[96];
	FILE *f;

	/* p11_load() gives the process a directory of its own once; each
	 * test then names its own directory in its configuration. */
	if (p11_load() != 0)
		return -1;
	snprintf(dir, 64, "/tmp/vgtoken-test-XXXXXX");
	if (mkdtemp(dir) == NULL) {
		print_error("mkdtemp: %s\n", strerror(errno));
		return -1;
	}
	snprintf(conf, sizeof(conf), "%s/vgtoken.conf", dir);
	f = fopen(conf, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "data_dir = %s/vgtoken\npbkdf2_iterations = 1000\n%s", dir,
	    extra != NULL ? extra : "");
	if (fclose(f) != 0)
		return -1;
	setenv("VGTOKEN_CONF", conf, 1);
	return p11->C_Initialize(NULL) == CKR_OK ? 0 : -1;
}

/* see common.h */
int
p11_fresh_token(char dir[64], const char *extra, const char *label,
    CK_SLOT_ID *slot)
{
	CK_UTF8CHAR lab[32];
	CK_SESSION_HANDLE h;
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;

	if (p11_fresh_module(dir, extra) != 0 ||
	    p11->C_GetSlotList(CK_FALSE, ids, &n) != CKR_OK || n < 1)
		return -1;
	*slot = ids[0];
	memset(lab, ' ', sizeof(lab));
	memcpy(lab, label, strlen(label) < 32 ? strlen(label) : 32);
	if (p11->C_InitToken(*slot, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN), lab) != CKR_OK ||
	    p11->C_OpenSession(*slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h) != CKR_OK)
		return -1;
	if (p11->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN)) != CKR_OK ||
	    p11->C_InitPIN(h, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK) {
		p11->C_CloseSession(h);
		return -1;
	}
	return p11->C_CloseSession(h) == CKR_OK ? 0 : -1;
}

/* see common.h */
int
p11_fresh_user_session(char dir[64], const char *label, CK_SLOT_ID *slot,
    CK_SESSION_HANDLE *h)
{
	if (p11_fresh_token(dir, NULL, label, slot) != 0 ||
	    p11->C_OpenSession(*slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, h) != CKR_OK ||
	    p11->C_Login(*h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK)
		return -1;
	return 0;
}

/* see common.h */
int
p11_fresh_cleanup(const char *dir)
{
	char cmd[96];

	p11->C_Finalize(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}
