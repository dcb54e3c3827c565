/*
 * Sustained load: 4 processes x 4 threads, each thread with a session of
 * its own, for VG_LOAD_SECONDS (default 60; 30 under ASan and with
 * VG_CPU_FEATURES=none, whose operations are slower anyway). The threads
 * mix C_Sign and C_Verify with RSA-2048 (PKCS#1 v1.5 with SHA-256),
 * ECDSA P-256 and ML-DSA-44 (through the vendor mechanisms of
 * vgtoken/vgtoken.h), C_Encrypt and C_Decrypt with RSA, C_DeriveKey with
 * ECDH, C_CreateObject and C_DestroyObject of token objects,
 * C_FindObjects, and C_Logout/C_Login cycles (the login state is the
 * process's: a cycle waits until the process's other threads are between
 * operations).
 *
 * Passes when no call fails, every signature verifies, every decryption
 * and derivation gives the same bytes each time, the data objects on the
 * token are exactly those created and not destroyed (and the six keys),
 * the processes end normally (under ASan: no leak, since they exit
 * through exit() after C_Finalize), and the resident size of each
 * process after warm-up (a quarter of the run) grows by at most 8 MiB or
 * 10% by the end (not checked under ASan, whose quarantine grows by
 * design). Prints the operations completed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/p11/common.h"
#include "vgtoken/vgtoken.h"

#define NPROC 4
#define NTHREAD 4
#define MAXLIVE 48

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
/* ThreadSanitizer's shadow memory grows the resident size too. */
#if defined(__SANITIZE_THREAD__) && !defined(UNDER_ASAN)
#define UNDER_ASAN 1
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

enum op {
	OP_RSA_SIGN, OP_ECDSA, OP_MLDSA, OP_RSA_DECRYPT, OP_ECDH, OP_CREATE,
	OP_DESTROY, OP_FIND, OP_LOGIN, NOP
};
static const char *const op_name[NOP] = {
	"RSA-2048 sign+verify", "ECDSA P-256 sign+verify",
	"ML-DSA-44 sign+verify", "RSA-2048 encrypt+decrypt", "ECDH derive",
	"create token object", "destroy token object", "find objects",
	"logout+login",
};
/* Out of 24. */
static const unsigned op_weight[NOP] = { 2, 3, 2, 2, 3, 4, 3, 4, 1 };

static char dir[64];
static CK_SLOT_ID slot;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS data_class = CKO_DATA;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

struct keys {
	CK_OBJECT_HANDLE rsa_pub, rsa_priv, ec_pub, ec_priv, ml_pub, ml_priv;
	uint8_t ec_point[65];
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned
load_seconds(void)
{
	const char *v = getenv("VG_LOAD_SECONDS");
	const char *cpu = getenv("VG_CPU_FEATURES");

	if (v != NULL && atoi(v) > 0)
		return (unsigned)atoi(v);
	if (UNDER_ASAN || (cpu != NULL && strcmp(cpu, "none") == 0))
		return 30;
	return 60;
}

/* ------------------------------------------------------------ setup */

/* A token key pair labelled label: the public template pt plus
 * CKA_TOKEN and CKA_LABEL; the private key signs and, for RSA, decrypts
 * or, for EC, derives. */
static CK_RV
gen(CK_SESSION_HANDLE h, CK_MECHANISM_TYPE mech, const CK_ATTRIBUTE *pt,
    CK_ULONG npt, const char *label)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	CK_ATTRIBUTE full[8];
	CK_ATTRIBUTE kt[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_SIGN, &yes, 1 },
		{ mech == CKM_EC_KEY_PAIR_GEN ? CKA_DERIVE : CKA_DECRYPT, &yes,
		    1 },
	};
	CK_ULONG nkt = mech == CKM_VG_ML_DSA_KEY_PAIR_GEN ? 3 : 4;

	memcpy(full, pt, npt * sizeof(*pt));
	memcpy(full + npt, kt, 2 * sizeof(*kt));
	return p11->C_GenerateKeyPair(h, &m, full, npt + 2, kt, nkt, &pub,
	    &priv);
}

/* The token with its three key pairs, the module finalised. */
static int
setup(void **state)
{
	CK_SESSION_HANDLE h;
	CK_ULONG bits = 2048, set = CKP_ML_DSA_44;
	CK_ATTRIBUTE rsa[] = {
		{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_ENCRYPT, &yes, 1 },
	};
	CK_ATTRIBUTE ec[] = {
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE ml[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_RV rv;

	(void)state;
	if (p11_fresh_token(dir, "busy_timeout_ms = 60000\n", "load", &slot) !=
	    0 ||
	    p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
	    NULL, &h) != CKR_OK ||
	    p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK)
		return -1;
	if ((rv = gen(h, CKM_RSA_PKCS_KEY_PAIR_GEN, rsa, 3, "load-rsa")) !=
	    CKR_OK ||
	    (rv = gen(h, CKM_EC_KEY_PAIR_GEN, ec, 2, "load-ec")) != CKR_OK ||
	    (rv = gen(h, CKM_VG_ML_DSA_KEY_PAIR_GEN, ml, 2, "load-ml")) !=
	    CKR_OK) {
		print_error("key generation: %s\n", p11_rv_name(rv));
		return -1;
	}
	return p11->C_Finalize(NULL) == CKR_OK ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static CK_OBJECT_HANDLE
find_key(CK_SESSION_HANDLE h, const char *label, CK_OBJECT_CLASS cls)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_CLASS, &cls, sizeof(cls) },
	};
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;
	CK_ULONG n = 0;

	if (p11->C_FindObjectsInit(h, t, 2) == CKR_OK) {
		if (p11->C_FindObjects(h, &o, 1, &n) != CKR_OK || n != 1)
			o = CK_INVALID_HANDLE;
		p11->C_FindObjectsFinal(h);
	}
	return o;
}

static int
find_keys(CK_SESSION_HANDLE h, struct keys *k)
{
	uint8_t point[80];
	CK_ATTRIBUTE a = { CKA_EC_POINT, point, sizeof(point) };

	k->rsa_pub = find_key(h, "load-rsa", CKO_PUBLIC_KEY);
	k->rsa_priv = find_key(h, "load-rsa", CKO_PRIVATE_KEY);
	k->ec_pub = find_key(h, "load-ec", CKO_PUBLIC_KEY);
	k->ec_priv = find_key(h, "load-ec", CKO_PRIVATE_KEY);
	k->ml_pub = find_key(h, "load-ml", CKO_PUBLIC_KEY);
	k->ml_priv = find_key(h, "load-ml", CKO_PRIVATE_KEY);
	/* CKA_EC_POINT is the DER OCTET STRING of the 65-byte point. */
	if (p11->C_GetAttributeValue(h, k->ec_pub, &a, 1) != CKR_OK ||
	    a.ulValueLen != 67)
		return -1;
	memcpy(k->ec_point, point + 2, 65);
	return k->rsa_pub && k->rsa_priv && k->ec_pub && k->ec_priv &&
	    k->ml_pub && k->ml_priv ? 0 : -1;
}

/* ------------------------------------------------------------ workers */

struct worker {
	int proc, thread;
	double until;
	struct keys *k;               /* the process's, shared */
	struct worker *all;           /* the process's workers */
	pthread_rwlock_t *login;  /* shared: operations; exclusive: login */
	CK_SESSION_HANDLE h;
	struct p11_rng rng;
	unsigned long ops[NOP];
	unsigned errors;
	unsigned created, destroyed;
	CK_OBJECT_HANDLE live[MAXLIVE];
	unsigned live_id[MAXLIVE];
	unsigned nlive;
	uint8_t secret[32];
	int have_secret;
};

static void
complain(struct worker *w, const char *what, CK_RV rv)
{
	if (w->errors++ < 5)
		fprintf(stderr, "p%d t%d: %s: %s\n", w->proc, w->thread, what,
		    p11_rv_name(rv));
}

static CK_RV
sign_verify(struct worker *w, CK_MECHANISM_TYPE mech, CK_OBJECT_HANDLE priv,
    CK_OBJECT_HANDLE pub)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	uint8_t msg[64], sig[2500];
	CK_ULONG len = sizeof(sig);
	CK_RV rv;

	p11_rng_fill(&w->rng, msg, sizeof(msg));
	rv = p11->C_SignInit(w->h, &m, priv);
	if (rv == CKR_OK)
		rv = p11->C_Sign(w->h, msg, sizeof(msg), sig, &len);
	if (rv == CKR_OK)
		rv = p11->C_VerifyInit(w->h, &m, pub);
	if (rv == CKR_OK)
		rv = p11->C_Verify(w->h, msg, sizeof(msg), sig, len);
	return rv;
}

static CK_RV
rsa_decrypt(struct worker *w)
{
	CK_MECHANISM m = { CKM_RSA_PKCS, NULL, 0 };
	uint8_t msg[32], ct[256], pt[256];
	CK_ULONG clen = sizeof(ct), plen = sizeof(pt);
	CK_RV rv;

	p11_rng_fill(&w->rng, msg, sizeof(msg));
	rv = p11->C_EncryptInit(w->h, &m, w->k->rsa_pub);
	if (rv == CKR_OK)
		rv = p11->C_Encrypt(w->h, msg, sizeof(msg), ct, &clen);
	if (rv == CKR_OK)
		rv = p11->C_DecryptInit(w->h, &m, w->k->rsa_priv);
	if (rv == CKR_OK)
		rv = p11->C_Decrypt(w->h, ct, clen, pt, &plen);
	if (rv == CKR_OK && (plen != sizeof(msg) || memcmp(pt, msg, plen)))
		rv = CKR_GENERAL_ERROR;
	return rv;
}

/* ECDH of the key with its own public point: the same secret every
 * time; the derived key is a session object, destroyed at once. */
static CK_RV
ecdh(struct worker *w)
{
	CK_OBJECT_CLASS sc = CKO_SECRET_KEY;
	CK_KEY_TYPE gk = CKK_GENERIC_SECRET;
	CK_ULONG len32 = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &sc, sizeof(sc) },
		{ CKA_KEY_TYPE, &gk, sizeof(gk) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_VALUE_LEN, &len32, sizeof(len32) },
		{ CKA_TOKEN, &no, 1 },
	};
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 65,
		(CK_BYTE_PTR)w->k->ec_point };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	uint8_t got[32];
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_OBJECT_HANDLE z;
	CK_RV rv;

	rv = p11->C_DeriveKey(w->h, &m, w->k->ec_priv, t, 6, &z);
	if (rv != CKR_OK)
		return rv;
	rv = p11->C_GetAttributeValue(w->h, z, &get, 1);
	if (rv == CKR_OK && get.ulValueLen != 32)
		rv = CKR_GENERAL_ERROR;
	if (rv == CKR_OK && !w->have_secret) {
		memcpy(w->secret, got, 32);
		w->have_secret = 1;
	} else if (rv == CKR_OK && memcmp(w->secret, got, 32) != 0) {
		rv = CKR_GENERAL_ERROR;
	}
	if (p11->C_DestroyObject(w->h, z) != CKR_OK && rv == CKR_OK)
		rv = CKR_GENERAL_ERROR;
	return rv;
}

static CK_RV
create(struct worker *w)
{
	char label[48];
	CK_BBOOL priv = (CK_BBOOL)(w->created & 1);
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &priv, 1 },
		{ CKA_LABEL, label, 0 },
		{ CKA_VALUE, label, 0 },
	};
	CK_OBJECT_HANDLE o;
	CK_RV rv;

	snprintf(label, sizeof(label), "p%d-t%d-%u", w->proc, w->thread,
	    w->created);
	t[3].ulValueLen = t[4].ulValueLen = strlen(label);
	rv = p11->C_CreateObject(w->h, t, 5, &o);
	if (rv == CKR_OK) {
		w->live[w->nlive] = o;
		w->live_id[w->nlive++] = w->created++;
	}
	return rv;
}

static CK_RV
destroy(struct worker *w)
{
	size_t i;
	CK_RV rv;

	if (w->nlive == 0)
		return CKR_OK;
	i = p11_rng_below(&w->rng, w->nlive);
	rv = p11->C_DestroyObject(w->h, w->live[i]);
	if (rv == CKR_OK) {
		w->nlive--;
		w->live[i] = w->live[w->nlive];
		w->live_id[i] = w->live_id[w->nlive];
		w->destroyed++;
	}
	return rv;
}

/* One of this thread's objects by label: found once, with its handle. */
static CK_RV
find(struct worker *w)
{
	char label[48];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_LABEL, label, 0 },
	};
	CK_OBJECT_HANDLE o[4];
	CK_ULONG n = 0;
	size_t i;
	CK_RV rv;

	if (w->nlive == 0)
		return CKR_OK;
	i = p11_rng_below(&w->rng, w->nlive);
	snprintf(label, sizeof(label), "p%d-t%d-%u", w->proc, w->thread,
	    w->live_id[i]);
	t[1].ulValueLen = strlen(label);
	rv = p11->C_FindObjectsInit(w->h, t, 2);
	if (rv == CKR_OK)
		rv = p11->C_FindObjects(w->h, o, 4, &n);
	if (rv == CKR_OK)
		rv = p11->C_FindObjectsFinal(w->h);
	if (rv == CKR_OK && (n != 1 || o[0] != w->live[i]))
		rv = CKR_GENERAL_ERROR;
	return rv;
}

/* Logout and login. Handles to private objects are invalid after a
 * logout, even once logged in again [PKCS#11 3.2 §5.6 C_Logout]: the
 * process's keys and its workers' private objects are looked up again
 * (the other threads wait: this one holds the login lock). */
static CK_RV
relogin(struct worker *w)
{
	CK_RV rv = p11->C_Logout(w->h);
	CK_OBJECT_HANDLE old = w->k->ec_priv;
	unsigned i, j;

	if (rv == CKR_OK)
		rv = p11->C_Login(w->h, CKU_USER,
		    (CK_UTF8CHAR_PTR)P11_USER_PIN, strlen(P11_USER_PIN));
	if (rv == CKR_OK && find_keys(w->h, w->k) != 0)
		rv = CKR_GENERAL_ERROR;
	if (rv == CKR_OK && w->k->ec_priv == old)
		rv = CKR_GENERAL_ERROR; /* the old handle must have gone */
	for (i = 0; rv == CKR_OK && i < NTHREAD; i++) {
		struct worker *o = &w->all[i];

		for (j = 0; rv == CKR_OK && j < o->nlive; j++) {
			char label[48];
			CK_ATTRIBUTE t[] = {
				{ CKA_CLASS, &data_class, sizeof(data_class) },
				{ CKA_LABEL, label, 0 },
			};
			CK_ULONG n = 0;

			if (!(o->live_id[j] & 1))
				continue; /* public: the handle stays */
			snprintf(label, sizeof(label), "p%d-t%d-%u", o->proc,
			    o->thread, o->live_id[j]);
			t[1].ulValueLen = strlen(label);
			rv = p11->C_FindObjectsInit(w->h, t, 2);
			if (rv == CKR_OK)
				rv = p11->C_FindObjects(w->h, &o->live[j], 1,
				    &n);
			if (rv == CKR_OK)
				rv = p11->C_FindObjectsFinal(w->h);
			if (rv == CKR_OK && n != 1)
				rv = CKR_GENERAL_ERROR;
		}
	}
	return rv;
}

static enum op
pick(struct worker *w)
{
	size_t r = p11_rng_below(&w->rng, 24);
	int i;

	for (i = 0; i < NOP; i++) {
		if (r < op_weight[i])
			return (enum op)i;
		r -= op_weight[i];
	}
	return OP_FIND;
}

static void *
work(void *arg)
{
	struct worker *w = arg;

	while (now() < w->until) {
		enum op op = pick(w);
		CK_RV rv = CKR_OK;

		/* Keep some of this thread's objects, not too many. */
		if (op == OP_CREATE && w->nlive == MAXLIVE)
			op = OP_DESTROY;
		else if ((op == OP_DESTROY || op == OP_FIND) && w->nlive == 0)
			op = OP_CREATE;

		if (op == OP_LOGIN)
			pthread_rwlock_wrlock(w->login);
		else
			pthread_rwlock_rdlock(w->login);
		switch (op) {
		case OP_RSA_SIGN:
			rv = sign_verify(w, CKM_SHA256_RSA_PKCS,
			    w->k->rsa_priv, w->k->rsa_pub);
			break;
		case OP_ECDSA:
			rv = sign_verify(w, CKM_ECDSA_SHA256, w->k->ec_priv,
			    w->k->ec_pub);
			break;
		case OP_MLDSA:
			rv = sign_verify(w, CKM_VG_ML_DSA, w->k->ml_priv,
			    w->k->ml_pub);
			break;
		case OP_RSA_DECRYPT:
			rv = rsa_decrypt(w);
			break;
		case OP_ECDH:
			rv = ecdh(w);
			break;
		case OP_CREATE:
			rv = create(w);
			break;
		case OP_DESTROY:
			rv = destroy(w);
			break;
		case OP_FIND:
			rv = find(w);
			break;
		default:
			rv = relogin(w);
			break;
		}
		pthread_rwlock_unlock(w->login);
		if (rv != CKR_OK)
			complain(w, op_name[op], rv);
		else
			w->ops[op]++;
	}
	return NULL;
}

/* VmRSS of this process in KiB. */
static long
rss_kib(void)
{
	char line[128];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* One process: NTHREAD workers; writes its figures to dir/stats-<proc>
 * and exits (through exit(), so that LeakSanitizer runs) with its error
 * count. */
static void
child(int proc, double start, double until)
{
	struct worker w[NTHREAD];
	pthread_t t[NTHREAD];
	pthread_rwlock_t login;
	pthread_rwlockattr_t la;
	struct keys k;
	CK_SESSION_HANDLE h0;
	long rss_warm, rss_end;
	unsigned errors = 0;
	char path[128];
	FILE *f;
	int i, j;

	pthread_rwlockattr_init(&la);
	pthread_rwlockattr_setkind_np(&la,
	    PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&login, &la);
	if (p11->C_Initialize(NULL) != CKR_OK ||
	    p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
	    NULL, &h0) != CKR_OK ||
	    p11->C_Login(h0, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK || find_keys(h0, &k) != 0)
		exit(100);
	memset(w, 0, sizeof(w));
	for (i = 0; i < NTHREAD; i++) {
		w[i].proc = proc;
		w[i].thread = i;
		w[i].until = until;
		w[i].k = &k;
		w[i].all = w;
		w[i].login = &login;
		p11_rng_seed(&w[i].rng, (uint64_t)(proc * NTHREAD + i));
		if (p11->C_OpenSession(slot, CKF_SERIAL_SESSION |
		    CKF_RW_SESSION, NULL, NULL, &w[i].h) != CKR_OK)
			exit(101);
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	/* Warm-up: a quarter of the run. */
	while (now() < start + (until - start) / 4)
		usleep(100000);
	rss_warm = rss_kib();
	for (i = 0; i < NTHREAD; i++) {
		pthread_join(t[i], NULL);
		errors += w[i].errors;
	}
	rss_end = rss_kib();
	snprintf(path, sizeof(path), "%s/stats-%d", dir, proc);
	f = fopen(path, "w");
	if (f == NULL)
		exit(102);
	fprintf(f, "%ld %ld", rss_warm, rss_end);
	for (j = 0; j < NOP; j++) {
		unsigned long n = 0;

		for (i = 0; i < NTHREAD; i++)
			n += w[i].ops[j];
		fprintf(f, " %lu", n);
	}
	for (i = 0; i < NTHREAD; i++)
		fprintf(f, " %u", w[i].nlive);
	fprintf(f, "\n");
	fclose(f);
	if (p11->C_Finalize(NULL) != CKR_OK)
		errors++;
	pthread_rwlock_destroy(&login);
	pthread_rwlockattr_destroy(&la);
	exit(errors > 99 ? 99 : (int)errors);
}

/* Objects of a class on the token (the user logged in). */
static unsigned long
count_class(CK_SESSION_HANDLE h, CK_OBJECT_CLASS cls)
{
	CK_ATTRIBUTE t = { CKA_CLASS, &cls, sizeof(cls) };
	CK_BBOOL tok = CK_TRUE;
	CK_ATTRIBUTE tt[] = { t, { CKA_TOKEN, &tok, 1 } };
	CK_OBJECT_HANDLE o[256];
	CK_ULONG n;
	unsigned long total = 0;

	assert_rv(p11->C_FindObjectsInit(h, tt, 2), CKR_OK);
	do {
		assert_rv(p11->C_FindObjects(h, o, 256, &n), CKR_OK);
		total += n;
	} while (n > 0);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return total;
}

static void
test_load(void **state)
{
	unsigned seconds = load_seconds();
	double start = now(), until = start + seconds;
	unsigned long ops[NOP] = { 0 }, total = 0, expect_data = 0;
	long worst = 0;
	pid_t pids[NPROC];
	CK_SESSION_HANDLE h;
	int i, j, status;

	(void)state;
	for (i = 0; i < NPROC; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0)
			child(i, start, until);
	}
	for (i = 0; i < NPROC; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("process %d: %s %d", i,
			    WIFEXITED(status) ? "exit" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status)
					      : WTERMSIG(status));
	}
	for (i = 0; i < NPROC; i++) {
		char path[128];
		long warm, end;
		FILE *f;

		snprintf(path, sizeof(path), "%s/stats-%d", dir, i);
		f = fopen(path, "r");
		assert_non_null(f);
		assert_int_equal(fscanf(f, "%ld %ld", &warm, &end), 2);
		for (j = 0; j < NOP; j++) {
			unsigned long n;

			assert_int_equal(fscanf(f, "%lu", &n), 1);
			ops[j] += n;
		}
		for (j = 0; j < NTHREAD; j++) {
			unsigned long n;

			assert_int_equal(fscanf(f, "%lu", &n), 1);
			expect_data += n;
		}
		fclose(f);
		printf("# process %d: VmRSS %ld KiB after warm-up, %ld KiB at "
		    "the end\n", i, warm, end);
		assert_true(warm > 0 && end > 0);
		if (end - warm > worst)
			worst = end - warm;
		if (!UNDER_ASAN && end - warm > 8192 && end - warm > warm / 10)
			fail_msg("process %d grew from %ld to %ld KiB", i,
			    warm, end);
	}
	/* Exactly the objects created and not destroyed, and the keys. */
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = p11_open(0);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	assert_int_equal(count_class(h, CKO_DATA), expect_data);
	assert_int_equal(count_class(h, CKO_PRIVATE_KEY), 3);
	assert_int_equal(count_class(h, CKO_PUBLIC_KEY), 3);
	assert_int_equal(count_class(h, CKO_SECRET_KEY), 0);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);

	printf("# %u processes x %u threads, %u s: operations completed, "
	    "none failed:\n", NPROC, NTHREAD, seconds);
	for (j = 0; j < NOP; j++) {
		printf("#   %-26s %9lu\n", op_name[j], ops[j]);
		total += ops[j];
		assert_true(ops[j] > 0);
	}
	printf("#   %-26s %9lu (%.0f/s)\n", "total", total,
	    (double)total / seconds);
	printf("# %lu data objects left, as created-destroyed says; worst "
	    "VmRSS growth after warm-up %ld KiB%s\n", expect_data, worst,
	    UNDER_ASAN ? " (not checked under a sanitizer)" : "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_load, setup, teardown),
	};

	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
