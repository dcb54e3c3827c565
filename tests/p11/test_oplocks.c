/*
 * No lock shared by all threads on a per-operation path (issue 23): the
 * calls that threads repeat in sessions of their own, once the session
 * has used its key, take no mutex that another session's same calls
 * take. Scaling figures need a machine with many idle cores; this holds
 * the property they depend on anywhere.
 *
 * The module is initialised with the application's mutex callbacks
 * [PKCS#11 3.2 §5.4 C_Initialize] (no CKF_OS_LOCKING_OK), so that every
 * lock it takes is one of ours and is counted: each mutex counts the
 * locks taken while session A's calls ran and while session B's did.
 * A mutex with both counts above zero is one the two sessions share.
 * The sessions are opened one after the other, so their handles differ
 * by one, and a lock chosen by handle (the session and session-object
 * shards) is not shared.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

#define MAX_MUTEXES 4096
#define WARM 3
#define CALLS 40

/* Which session's calls run now: 0 none (set-up), 1 A, 2 B. */
static int running;

struct tmutex {
	pthread_mutex_t m;
	unsigned long locks[3];   /* by the value of running */
	int alive;
};

static struct tmutex *mutexes[MAX_MUTEXES];
static int nmutexes;
static pthread_mutex_t reg = PTHREAD_MUTEX_INITIALIZER;

static CK_RV
t_create(CK_VOID_PTR_PTR out)
{
	struct tmutex *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return CKR_HOST_MEMORY;
	pthread_mutex_init(&t->m, NULL);
	t->alive = 1;
	pthread_mutex_lock(&reg);
	if (nmutexes == MAX_MUTEXES) {
		pthread_mutex_unlock(&reg);
		free(t);
		return CKR_HOST_MEMORY;
	}
	mutexes[nmutexes++] = t;
	pthread_mutex_unlock(&reg);
	*out = t;
	return CKR_OK;
}

static CK_RV
t_destroy(CK_VOID_PTR p)
{
	struct tmutex *t = p;

	/* kept (not freed) so that a later mutex cannot take its address,
	 * and its counts can still be read */
	pthread_mutex_destroy(&t->m);
	t->alive = 0;
	return CKR_OK;
}

static CK_RV
t_lock(CK_VOID_PTR p)
{
	struct tmutex *t = p;

	pthread_mutex_lock(&t->m);
	t->locks[running]++;
	return CKR_OK;
}

static CK_RV
t_unlock(CK_VOID_PTR p)
{
	struct tmutex *t = p;

	pthread_mutex_unlock(&t->m);
	return CKR_OK;
}

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE sa, sb;
static CK_OBJECT_HANDLE ec_priv, ec_pub, hmac_key, rsa_priv, aes_key;
static CK_OBJECT_HANDLE ml_priv;
static CK_BBOOL yes = CK_TRUE;

/* DER of the OID prime256v1, as CKA_EC_PARAMS. */
static const unsigned char p256_oid[] = {
	0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07
};

/* The uncompressed point of ECDH's peer: the pair's own public point. */
static unsigned char peer[80];
static CK_ULONG peer_len;

static CK_SESSION_HANDLE
user_session(void)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION |
	    CKF_RW_SESSION, NULL, NULL, &h), CKR_OK);
	return h;
}

static int
group_setup(void **state)
{
	CK_C_INITIALIZE_ARGS args = {
		t_create, t_destroy, t_lock, t_unlock, 0, NULL
	};
	CK_MECHANISM ecgen = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM rsagen = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM secgen = { CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 };
	CK_ULONG bits = 2048, klen = 32;
	CK_BYTE e[] = { 1, 0, 1 };
	CK_ATTRIBUTE ecpub[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_EC_PARAMS, (void *)p256_oid, sizeof(p256_oid) },
		{ CKA_VERIFY, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE ecpriv[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
		{ CKA_DERIVE, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE rsapub[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		{ CKA_PUBLIC_EXPONENT, e, sizeof(e) },
	};
	CK_ATTRIBUTE rsapriv[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE sec[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
		{ CKA_VALUE_LEN, &klen, sizeof(klen) },
	};
	CK_MECHANISM aesgen = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ATTRIBUTE aes[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_ENCRYPT, &yes, sizeof(yes) },
		{ CKA_VALUE_LEN, &klen, sizeof(klen) },
	};
	CK_MECHANISM mlgen = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_ML_DSA_PARAMETER_SET_TYPE set = CKP_ML_DSA_44;
	CK_ATTRIBUTE mlpub[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
	};
	CK_ATTRIBUTE mlpriv[] = {
		{ CKA_TOKEN, &yes, sizeof(yes) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE pt = { CKA_EC_POINT, peer, sizeof(peer) };
	CK_OBJECT_HANDLE rsa_pub, ml_pub;
	CK_SESSION_HANDLE h;
	const unsigned char *der = peer;

	(void)state;
	if (p11_fresh_token(dir, NULL, "oplocks", &slot) != 0 ||
	    p11->C_Finalize(NULL) != CKR_OK)
		return -1;
	/* the same configuration (VGTOKEN_CONF), the test's mutexes */
	if (p11->C_Initialize(&args) != CKR_OK)
		return -1;
	h = user_session();
	if (p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK ||
	    p11->C_GenerateKeyPair(h, &ecgen, ecpub, 3, ecpriv, 5, &ec_pub,
	    &ec_priv) != CKR_OK ||
	    p11->C_GenerateKeyPair(h, &rsagen, rsapub, 3, rsapriv, 4,
	    &rsa_pub, &rsa_priv) != CKR_OK ||
	    p11->C_GenerateKey(h, &secgen, sec, 4, &hmac_key) != CKR_OK ||
	    p11->C_GenerateKey(h, &aesgen, aes, 4, &aes_key) != CKR_OK ||
	    p11->C_GenerateKeyPair(h, &mlgen, mlpub, 2, mlpriv, 3, &ml_pub,
	    &ml_priv) != CKR_OK ||
	    p11->C_GetAttributeValue(h, ec_pub, &pt, 1) != CKR_OK)
		return -1;
	/* CKA_EC_POINT is an OCTET STRING: ECDH takes the point inside */
	if (pt.ulValueLen != 67 || der[0] != 0x04 || der[1] != 65)
		return -1;
	memmove(peer, peer + 2, 65);
	peer_len = 65;
	sa = user_session();
	sb = user_session();
	return p11->C_CloseSession(h) == CKR_OK ? 0 : -1;
}

static int
group_teardown(void **state)
{
	int rc, i;

	(void)state;
	rc = p11_fresh_cleanup(dir);
	for (i = 0; i < nmutexes; i++)
		free(mutexes[i]);
	nmutexes = 0;
	return rc;
}

/* ------------------------------------------------------------- the calls */

static void
call_random(CK_SESSION_HANDLE h)
{
	unsigned char buf[32];

	assert_rv(p11->C_GenerateRandom(h, buf, sizeof(buf)), CKR_OK);
}

static void
sign_with(CK_SESSION_HANDLE h, CK_MECHANISM_TYPE mt, CK_OBJECT_HANDLE key,
    CK_ULONG inlen)
{
	CK_MECHANISM m = { mt, NULL, 0 };
	unsigned char in[64] = { 7 }, sig[4096];
	CK_ULONG len = sizeof(sig);

	assert_rv(p11->C_SignInit(h, &m, key), CKR_OK);
	assert_rv(p11->C_Sign(h, in, inlen, sig, &len), CKR_OK);
}

static void
call_hmac(CK_SESSION_HANDLE h)
{
	sign_with(h, CKM_SHA256_HMAC, hmac_key, 64);
}

static void
call_ecdsa(CK_SESSION_HANDLE h)
{
	sign_with(h, CKM_ECDSA, ec_priv, 32);
}

static void
call_rsa(CK_SESSION_HANDLE h)
{
	sign_with(h, CKM_RSA_PKCS, rsa_priv, 51);
}

static void
call_mldsa(CK_SESSION_HANDLE h)
{
	sign_with(h, CKM_ML_DSA, ml_priv, 32);
}

static void
call_verify(CK_SESSION_HANDLE h)
{
	CK_MECHANISM m = { CKM_ECDSA, NULL, 0 };
	unsigned char in[32] = { 9 }, sig[64];
	CK_ULONG len = sizeof(sig);

	assert_rv(p11->C_SignInit(h, &m, ec_priv), CKR_OK);
	assert_rv(p11->C_Sign(h, in, sizeof(in), sig, &len), CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &m, ec_pub), CKR_OK);
	assert_rv(p11->C_Verify(h, in, sizeof(in), sig, len), CKR_OK);
}

static void
call_gcm(CK_SESSION_HANDLE h)
{
	unsigned char iv[12] = { 1 }, in[256] = { 2 }, out[256 + 16];
	CK_GCM_PARAMS p = { iv, sizeof(iv), 96, NULL, 0, 128 };
	CK_MECHANISM m = { CKM_AES_GCM, &p, sizeof(p) };
	CK_ULONG len = sizeof(out);

	assert_rv(p11->C_EncryptInit(h, &m, aes_key), CKR_OK);
	assert_rv(p11->C_Encrypt(h, in, sizeof(in), out, &len), CKR_OK);
}

static void
call_digest(CK_SESSION_HANDLE h)
{
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	unsigned char in[64] = { 3 }, out[32];
	CK_ULONG len = sizeof(out);

	assert_rv(p11->C_DigestInit(h, &m), CKR_OK);
	assert_rv(p11->C_Digest(h, in, sizeof(in), out, &len), CKR_OK);
}

static void
call_ecgen(CK_SESSION_HANDLE h)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_BBOOL no = CK_FALSE;
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_EC_PARAMS, (void *)p256_oid, sizeof(p256_oid) },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_SIGN, &yes, sizeof(yes) },
	};
	CK_OBJECT_HANDLE pub, priv;

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, st, 2, &pub, &priv),
	    CKR_OK);
	assert_rv(p11->C_DestroyObject(h, pub), CKR_OK);
	assert_rv(p11->C_DestroyObject(h, priv), CKR_OK);
}

static void
call_ecdh(CK_SESSION_HANDLE h)
{
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, peer_len, peer };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET;
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
	};
	CK_OBJECT_HANDLE k;

	assert_rv(p11->C_DeriveKey(h, &m, ec_priv, t, 3, &k), CKR_OK);
	assert_rv(p11->C_DestroyObject(h, k), CKR_OK);
}

/*
 * Runs call WARM times in each session (the first use of a key takes the
 * module lock, once), then CALLS times in A and CALLS times in B with the
 * locks counted, and fails on a mutex both took.
 */
static void
check_calls(const char *what, void (*call)(CK_SESSION_HANDLE))
{
	unsigned long total = 0;
	int i, shared = 0;

	for (i = 0; i < WARM; i++) {
		call(sa);
		call(sb);
	}
	pthread_mutex_lock(&reg);
	for (i = 0; i < nmutexes; i++)
		memset(mutexes[i]->locks, 0, sizeof(mutexes[i]->locks));
	pthread_mutex_unlock(&reg);

	running = 1;
	for (i = 0; i < CALLS; i++)
		call(sa);
	running = 2;
	for (i = 0; i < CALLS; i++)
		call(sb);
	running = 0;

	pthread_mutex_lock(&reg);
	for (i = 0; i < nmutexes; i++) {
		const struct tmutex *t = mutexes[i];

		total += t->locks[1] + t->locks[2];
		if (t->locks[1] != 0 && t->locks[2] != 0) {
			print_message("%s: mutex %d (of %d) taken %lu times "
			    "by session A's %d calls and %lu by B's\n", what,
			    i, nmutexes, t->locks[1], CALLS, t->locks[2]);
			shared++;
		}
	}
	pthread_mutex_unlock(&reg);
	print_message("%s: %lu locks in %d calls, %d mutex(es) shared\n",
	    what, total, 2 * CALLS, shared);
	/* the calls take a lock of their session's (the session lookup):
	 * the counting sees the module's mutexes */
	assert_true(total >= 2 * CALLS);
	assert_int_equal(shared, 0);
}

struct call {
	const char *what;
	void (*call)(CK_SESSION_HANDLE);
};

static const struct call calls[] = {
	{ "C_GenerateRandom", call_random },
	{ "C_Sign SHA256_HMAC", call_hmac },
	{ "C_Sign ECDSA", call_ecdsa },
	{ "C_Sign RSA_PKCS", call_rsa },
	{ "C_DeriveKey ECDH1 + C_DestroyObject", call_ecdh },
	{ "C_Sign ML-DSA-44", call_mldsa },
	{ "C_Sign + C_Verify ECDSA", call_verify },
	{ "C_Encrypt AES-256-GCM", call_gcm },
	{ "C_Digest SHA-256", call_digest },
	{ "C_GenerateKeyPair EC P-256 session + C_DestroyObject", call_ecgen },
};

/* One test per entry of calls (its state). */
static void
test_call(void **state)
{
	const struct call *c = *state;

	check_calls(c->what, c->call);
}

int
main(void)
{
	struct CMUnitTest tests[sizeof(calls) / sizeof(calls[0])];
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct CMUnitTest t = cmocka_unit_test_prestate(test_call,
		    (void *)&calls[i]);

		t.name = calls[i].what;
		tests[i] = t;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
