/* PKCS#11 helpers of the fuzz targets: see p11.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/p11.h"
#include "cryptoki/ckr_names.h"
#include "token/object.h"

CK_FUNCTION_LIST_3_2 *vg_fz_p11;

static char root[PATH_MAX - 64];
static pid_t root_owner;
static CK_MECHANISM_TYPE mechs[128];
static CK_ULONG nmechs;

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
remove_root(void)
{
	if (root[0] != '\0' && getpid() == root_owner)
		nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
die(const char *what)
{
	fprintf(stderr, "fuzz set-up: %s\n", what);
	exit(1);
}

/* see p11.h */
void
vg_fz_need(CK_RV rv, const char *what)
{
	if (rv != CKR_OK) {
		const char *name = vg_ckr_name(rv);

		fprintf(stderr, "fuzz set-up: %s: %s (0x%lx)\n", what,
		    name != NULL ? name : "?", (unsigned long)rv);
		exit(1);
	}
}

/* see p11.h */
void
vg_fz_p11_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];
	CK_INTERFACE_PTR iface = NULL;
	FILE *f;

	if (vg_fz_p11 != NULL)
		return;
	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(root, sizeof(root), "%s/vgfuzz-XXXXXX", tmp) >=
	    sizeof(root) || mkdtemp(root) == NULL)
		die("mkdtemp");
	root_owner = getpid();
	atexit(remove_root);
	snprintf(path, sizeof(path), "%s/vgtoken.conf", root);
	f = fopen(path, "w");
	if (f == NULL)
		die(path);
	fprintf(f, "data_dir = %s/data\npbkdf2_iterations = 1000\n"
		   "log_level = none\nsqlite_synchronous = off\n", root);
	if (fclose(f) != 0)
		die(path);
	setenv("VGTOKEN_CONF", path, 1);
	unsetenv("VG_LOG");
	vg_fz_need(C_GetInterface(NULL, NULL, &iface, 0), "C_GetInterface");
	vg_fz_p11 = iface->pFunctionList;
}

/* see p11.h */
CK_RV
vg_fz_rv(CK_RV rv, const char *fn)
{
	if (vg_ckr_name(rv) == NULL)
		vg_fz_fail("%s returned 0x%lx, not a defined CK_RV", fn,
		    (unsigned long)rv);
	return rv;
}

static void
pad(CK_UTF8CHAR *dst, size_t n, const char *s)
{
	memset(dst, ' ', n);
	memcpy(dst, s, strlen(s));
}

/* see p11.h */
CK_SLOT_ID
vg_fz_p11_token(void)
{
	CK_FUNCTION_LIST_3_2 *f = vg_fz_p11;
	CK_SLOT_ID slots[8];
	CK_ULONG n = 8;
	CK_UTF8CHAR label[32];
	CK_SESSION_HANDLE s;

	vg_fz_need(f->C_GetSlotList(CK_FALSE, slots, &n), "C_GetSlotList");
	if (n == 0)
		die("no slot");
	pad(label, sizeof(label), "fuzz");
	vg_fz_need(f->C_InitToken(slots[0], (CK_UTF8CHAR_PTR)VG_FZ_SO_PIN,
	    strlen(VG_FZ_SO_PIN), label), "C_InitToken");
	vg_fz_need(f->C_OpenSession(slots[0], CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &s), "C_OpenSession");
	vg_fz_need(f->C_Login(s, CKU_SO, (CK_UTF8CHAR_PTR)VG_FZ_SO_PIN,
	    strlen(VG_FZ_SO_PIN)), "C_Login SO");
	vg_fz_need(f->C_InitPIN(s, (CK_UTF8CHAR_PTR)VG_FZ_USER_PIN,
	    strlen(VG_FZ_USER_PIN)), "C_InitPIN");
	vg_fz_need(f->C_CloseSession(s), "C_CloseSession");
	if (nmechs == 0) {
		nmechs = sizeof(mechs) / sizeof(mechs[0]);
		vg_fz_need(f->C_GetMechanismList(slots[0], mechs, &nmechs),
		    "C_GetMechanismList");
	}
	return slots[0];
}

/* see p11.h */
CK_SESSION_HANDLE
vg_fz_p11_user_session(CK_SLOT_ID slot)
{
	CK_SESSION_HANDLE s;

	vg_fz_need(vg_fz_p11->C_OpenSession(slot,
	    CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &s),
	    "C_OpenSession");
	vg_fz_need(vg_fz_p11->C_Login(s, CKU_USER,
	    (CK_UTF8CHAR_PTR)VG_FZ_USER_PIN, strlen(VG_FZ_USER_PIN)),
	    "C_Login");
	return s;
}

static CK_BBOOL yes = CK_TRUE;
static CK_BBOOL no = CK_FALSE;

/* see p11.h */
const uint8_t vg_fz_x25519_peer[32] = { 0xde, 0x9e, 0xdb, 0x7d, 0x7b, 0x7d,
	0xc1, 0xb4, 0xd3, 0x5b, 0x61, 0xc2, 0xec, 0xe4, 0x35, 0x37, 0x3f,
	0x83, 0x43, 0xc8, 0x5b, 0x78, 0x67, 0x4d, 0xad, 0xfc, 0x7e, 0x14,
	0x6f, 0x88, 0x2b, 0x4f };

/* see p11.h */
void
vg_fz_p11_keys(CK_SESSION_HANDLE s, int with_rsa, int token,
    struct vg_fz_keys *k)
{
	static const CK_BYTE p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
		0x3d, 0x03, 0x01, 0x07 };
	static const CK_BYTE ed25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
	static const CK_BYTE x25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };
	CK_FUNCTION_LIST_3_2 *f = vg_fz_p11;
	CK_BBOOL *tok = token ? &yes : &no;
	CK_ULONG bits = 2048, set = CKP_ML_DSA_44, len = 32;
	CK_ATTRIBUTE pub[] = {
		{ CKA_TOKEN, tok, 1 },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_ENCRYPT, &yes, 1 },
		{ 0, NULL, 0 }, /* per key type */
	};
	CK_ATTRIBUTE priv[] = {
		{ CKA_TOKEN, tok, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};
	CK_ATTRIBUTE sec[] = {
		{ CKA_TOKEN, tok, 1 },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
	};
	CK_ATTRIBUTE pt = { CKA_EC_POINT, k->ec_point, sizeof(k->ec_point) };
	CK_MECHANISM m = { 0, NULL, 0 };

	memset(k, 0, sizeof(*k) - sizeof(k->ec_point));
	if (with_rsa) {
		/* RSA keys: no CKA_DERIVE. */
		pub[3] = (CK_ATTRIBUTE){ CKA_MODULUS_BITS, &bits, sizeof(bits) };
		m.mechanism = CKM_RSA_PKCS_KEY_PAIR_GEN;
		vg_fz_need(f->C_GenerateKeyPair(s, &m, pub, 4, priv, 3,
		    &k->rsa_pub, &k->rsa_priv), "RSA key pair");
	}
	/* EC and ML-DSA public keys have no CKA_ENCRYPT. */
	pub[2] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)p256, sizeof(p256) };
	m.mechanism = CKM_EC_KEY_PAIR_GEN;
	vg_fz_need(f->C_GenerateKeyPair(s, &m, pub, 3, priv, 6, &k->ec_pub,
	    &k->ec_priv), "EC key pair");
	vg_fz_need(f->C_GetAttributeValue(s, k->ec_pub, &pt, 1), "EC point");
	if (pt.ulValueLen != sizeof(k->ec_point))
		die("EC point length");
	pub[2] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)ed25519,
	    sizeof(ed25519) };
	m.mechanism = CKM_EC_EDWARDS_KEY_PAIR_GEN;
	vg_fz_need(f->C_GenerateKeyPair(s, &m, pub, 3, priv, 6, &k->ed_pub,
	    &k->ed_priv), "Ed25519 key pair");
	pub[2] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)x25519,
	    sizeof(x25519) };
	m.mechanism = CKM_EC_MONTGOMERY_KEY_PAIR_GEN;
	vg_fz_need(f->C_GenerateKeyPair(s, &m, pub, 3, priv, 6, &k->x_pub,
	    &k->x_priv), "X25519 key pair");
	pub[2] = (CK_ATTRIBUTE){ CKA_PARAMETER_SET, &set, sizeof(set) };
	priv[2] = (CK_ATTRIBUTE){ CKA_EXTRACTABLE, &yes, 1 };
	m.mechanism = CKM_ML_DSA_KEY_PAIR_GEN;
	vg_fz_need(f->C_GenerateKeyPair(s, &m, pub, 3, priv, 3,
	    &k->mldsa_pub, &k->mldsa_priv), "ML-DSA key pair");
	set = CKP_ML_KEM_512;
	m.mechanism = CKM_ML_KEM_KEY_PAIR_GEN;
	vg_fz_need(f->C_GenerateKeyPair(s, &m, pub, 3, priv, 3,
	    &k->mlkem_pub, &k->mlkem_priv), "ML-KEM key pair");
	m.mechanism = CKM_GENERIC_SECRET_KEY_GEN;
	vg_fz_need(f->C_GenerateKey(s, &m, sec, 5, &k->hmac), "HMAC key");
	m.mechanism = CKM_AES_KEY_GEN;
	sec[2] = (CK_ATTRIBUTE){ CKA_ENCRYPT, &yes, 1 };
	sec[3] = (CK_ATTRIBUTE){ CKA_DECRYPT, &yes, 1 };
	vg_fz_need(f->C_GenerateKey(s, &m, sec, 5, &k->aes), "AES key");
}

/* ------------------------------------------------------ templates */

/* Types that are not in the rule table but worth a try. */
static const CK_ATTRIBUTE_TYPE extra_types[] = {
	CKA_WRAP_TEMPLATE, CKA_UNWRAP_TEMPLATE, CKA_DERIVE_TEMPLATE,
	CKA_ALLOWED_MECHANISMS, CKA_VENDOR_DEFINED, 0x7fffffffUL,
	CKF_ARRAY_ATTRIBUTE | 0x1234UL, ~0UL,
};

static CK_ATTRIBUTE_TYPE
attr_type(struct vg_fz_in *in)
{
	const struct vg_attr_rule *rules;
	size_t nrules;
	uint8_t b = vg_fz_u8(in);

	rules = vg_attr_rules(&nrules);
	if (b < 0xf0)
		return rules[(b | (size_t)vg_fz_u8(in) << 8) % nrules].type;
	if (b < 0xf8)
		return extra_types[b - 0xf0];
	return vg_fz_ulong(in);
}

static void
date(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_ATTRIBUTE *a)
{
	static const char good[] = "20260101";
	char *d;
	size_t i;

	if (vg_fz_u8(in) & 1) {
		a->pValue = vg_fz_alloc(pool, 0);
		a->ulValueLen = 0;
		return;
	}
	d = vg_fz_dup(pool, good, 8);
	if (d == NULL)
		return;
	/* Change some digits. */
	for (i = vg_fz_u8(in) & 3; i > 0; i--) {
		size_t at = vg_fz_u8(in) & 7;

		d[at] = (char)vg_fz_u8(in);
	}
	a->pValue = d;
	a->ulValueLen = 8;
}

/* A value well formed for the kind of a->type. */
static void
good_value(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_ATTRIBUTE *a,
    int depth)
{
	size_t n, i, got;
	CK_ULONG *ul;
	CK_BBOOL *b;

	switch (vg_attr_kind(a->type)) {
	case VG_K_BOOL:
		b = vg_fz_alloc(pool, 1);
		if (b != NULL) {
			n = vg_fz_u8(in);
			*b = n < 0xf0 ? (CK_BBOOL)(n & 1) : (CK_BBOOL)n;
			a->pValue = b;
			a->ulValueLen = 1;
		}
		break;
	case VG_K_ULONG:
		ul = vg_fz_alloc(pool, sizeof(*ul));
		if (ul != NULL) {
			*ul = vg_fz_ulong(in);
			a->pValue = ul;
			a->ulValueLen = sizeof(*ul);
		}
		break;
	case VG_K_DATE:
		date(pool, in, a);
		break;
	case VG_K_MECHS:
		n = vg_fz_u8(in) % 5;
		ul = vg_fz_alloc(pool, n * sizeof(*ul));
		if (ul != NULL) {
			for (i = 0; i < n; i++)
				ul[i] = vg_fz_mech_type(in);
			a->pValue = ul;
			a->ulValueLen = n * sizeof(*ul);
		}
		break;
	case VG_K_ATTRS:
		if (depth < 1) {
			CK_ATTRIBUTE *t;

			n = vg_fz_template(pool, in, 6, depth + 1, &t);
			a->pValue = t != NULL ? (void *)t : vg_fz_alloc(pool, 0);
			a->ulValueLen = n * sizeof(CK_ATTRIBUTE);
			break;
		}
		/* fall through */
	default:
		a->pValue = vg_fz_take(pool, in, vg_fz_len(in, 4096), &got);
		a->ulValueLen = got;
		break;
	}
}

/* see p11.h */
CK_ULONG
vg_fz_template(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_ULONG max,
    int depth, CK_ATTRIBUTE **t)
{
	CK_ULONG n = vg_fz_u8(in) % (max + 1), i;
	size_t got;

	*t = NULL;
	if (n == 0)
		return 0;
	*t = vg_fz_alloc(pool, n * sizeof(**t));
	if (*t == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		CK_ATTRIBUTE *a = &(*t)[i];
		uint8_t form = vg_fz_u8(in);

		a->type = attr_type(in);
		a->pValue = NULL;
		a->ulValueLen = 0;
		/* The module follows the pointers in an attribute array
		 * (at the top level): never raw bytes there. */
		if (depth == 0 && vg_attr_kind(a->type) == VG_K_ATTRS &&
		    form >> 5 == 0)
			form = 0x40;
		switch (form >> 5) {
		case 0: /* any bytes */
			a->pValue = vg_fz_take(pool, in, vg_fz_len(in, 4096),
			    &got);
			a->ulValueLen = got;
			break;
		case 1: /* NULL with a length */
			a->ulValueLen = vg_fz_ulong(in);
			break;
		default:
			good_value(pool, in, a, depth);
			break;
		}
	}
	return n;
}

/* see p11.h */
CK_MECHANISM_TYPE
vg_fz_mech_type(struct vg_fz_in *in)
{
	uint8_t b = vg_fz_u8(in);

	if (b < 0xf0 && nmechs != 0)
		return mechs[b % nmechs];
	return vg_fz_ulong(in);
}

/* see p11.h */
void
vg_fz_p11_read_object(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE h)
{
	const struct vg_attr_rule *rules;
	size_t nrules, i, n = 0;
	CK_ATTRIBUTE *t;
	CK_ULONG *want;
	CK_RV rv;

	rules = vg_attr_rules(&nrules);
	t = calloc(nrules, sizeof(*t));
	want = calloc(nrules, sizeof(*want));
	if (t == NULL || want == NULL)
		goto out;
	/* Each type once (the table lists a type once per scope). */
	for (i = 0; i < nrules; i++) {
		size_t j;

		for (j = 0; j < n && t[j].type != rules[i].type; j++)
			;
		if (j == n)
			t[n++].type = rules[i].type;
	}
	rv = vg_fz_rv(vg_fz_p11->C_GetAttributeValue(s, h, t, n),
	    "C_GetAttributeValue");
	if (rv == CKR_BUFFER_TOO_SMALL)
		vg_fz_fail("C_GetAttributeValue: too small with no buffers");
	for (i = 0; i < n; i++) {
		want[i] = t[i].ulValueLen;
		if (want[i] != CK_UNAVAILABLE_INFORMATION)
			t[i].pValue = calloc(1, want[i] ? want[i] : 1);
	}
	rv = vg_fz_rv(vg_fz_p11->C_GetAttributeValue(s, h, t, n),
	    "C_GetAttributeValue");
	if (rv == CKR_BUFFER_TOO_SMALL)
		vg_fz_fail("C_GetAttributeValue: the lengths it gave are too "
			   "small");
	for (i = 0; i < n; i++)
		if (t[i].ulValueLen != want[i])
			vg_fz_fail("C_GetAttributeValue: length of 0x%lx "
				   "changed from %lu to %lu",
			    (unsigned long)t[i].type, (unsigned long)want[i],
			    (unsigned long)t[i].ulValueLen);
out:
	if (t != NULL)
		for (i = 0; i < n; i++)
			free(t[i].pValue);
	free(t);
	free(want);
}

/* ------------------------------------------------------ snapshots */

static int
copy_file(const char *src, const char *dst)
{
	char buf[65536];
	int in = open(src, O_RDONLY), out;
	ssize_t r;
	int rc = 0;

	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r)
			rc = -1;
	if (r < 0)
		rc = -1;
	close(in);
	if (close(out) != 0)
		rc = -1;
	return rc;
}

/* Makes dst hold exactly the regular files of src. */
static void
copy_dir(const char *src, const char *dst)
{
	char a[PATH_MAX], b[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (mkdir(dst, 0700) != 0 && errno != EEXIST)
		die(dst);
	d = opendir(dst);
	if (d == NULL)
		die(dst);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(b, sizeof(b), "%s/%s", dst, e->d_name);
		remove(b);
	}
	closedir(d);
	d = opendir(src);
	if (d == NULL)
		die(src);
	while ((e = readdir(d)) != NULL) {
		struct stat st;

		snprintf(a, sizeof(a), "%s/%s", src, e->d_name);
		snprintf(b, sizeof(b), "%s/%s", dst, e->d_name);
		if (e->d_name[0] == '.' || stat(a, &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (copy_file(a, b) != 0)
			die(b);
	}
	closedir(d);
}

/* see p11.h */
void
vg_fz_p11_snapshot(void)
{
	char data[PATH_MAX], snap[PATH_MAX];

	snprintf(data, sizeof(data), "%s/data", root);
	snprintf(snap, sizeof(snap), "%s/snapshot", root);
	copy_dir(data, snap);
}

/* see p11.h */
void
vg_fz_p11_restore(void)
{
	char data[PATH_MAX], snap[PATH_MAX];

	snprintf(data, sizeof(data), "%s/data", root);
	snprintf(snap, sizeof(snap), "%s/snapshot", root);
	copy_dir(snap, data);
}
