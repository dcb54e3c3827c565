/*
 * Key memory after use: the keys the module decodes for its operations
 * (the key cache, token/keycache.c) and the token master key live in
 * secure memory (token/secmem.c) that is excluded from core dumps (the
 * "dd" flag of /proc/self/smaps), and C_Logout and C_Finalize release
 * all of it wiped (a key an operation still uses, when it ends). The test links the pkcs11/ and token/ layers and
 * watches vg_secmem_free through its test hook, which the module does
 * not export. ML-DSA keys are cached expanded (the matrix and the NTTs
 * of the key), in one region.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "token/token.h"

#define SO_PIN "so-secret-1"
#define USER_PIN "user-pin-1"
#define MAX_REGIONS 64

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_OBJECT_HANDLE ec, rsa, ml, mac;
static CK_BBOOL yes = CK_TRUE;

/* Regions released by vg_secmem_free, and whether they were zero. */
static struct {
	const void *p;
	size_t len;
	int zero;
} released[1024];
static size_t nreleased;

static void
on_release(const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;
	int zero = 1;

	for (i = 0; i < len; i++)
		zero &= b[i] == 0;
	if (nreleased < sizeof(released) / sizeof(released[0])) {
		released[nreleased].p = p;
		released[nreleased].len = len;
		released[nreleased].zero = zero;
		nreleased++;
	}
}

/* Whether region p was released (wiped, else the test fails) since the
 * count mark. */
static int
was_released(const void *p, size_t mark)
{
	size_t i;

	for (i = mark; i < nreleased; i++)
		if ((const char *)p >= (const char *)released[i].p &&
		    (const char *)p < (const char *)released[i].p +
		    released[i].len) {
			if (!released[i].zero)
				fail_msg("region %p was released unwiped", p);
			return 1;
		}
	return 0;
}

/* Whether the mapping that holds p has "dd" (MADV_DONTDUMP) among its
 * VmFlags in /proc/self/smaps. */
static int
dontdump(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long lo, hi, a = (unsigned long)p;
	int in = 0, dd = -1;

	assert_non_null(f);
	while (dd < 0 && fgets(line, sizeof(line), f) != NULL) {
		/* A mapping's first line is "start-end perms ..."; no
		 * field line ("Size:", "AnonHugePages:") scans so. */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && strncmp(line, "VmFlags:", 8) == 0)
			dd = strstr(line, " dd") != NULL;
	}
	fclose(f);
	return dd == 1;
}

/* The secure regions in use now: every cached key's decoded form and
 * the master key of a logged-in slot. */
static size_t
live_regions(const void *out[MAX_REGIONS])
{
	size_t i, n = 0;

	for (i = 0; i < vg_mod.nkeys && n < MAX_REGIONS; i++)
		if (vg_mod.keys[i]->impl != NULL)
			out[n++] = vg_mod.keys[i]->impl;
	for (i = 0; i < vg_mod.nslots && n < MAX_REGIONS; i++)
		if (vg_mod.slots[i]->mk != NULL)
			out[n++] = vg_mod.slots[i]->mk;
	for (i = 0; i < vg_mod.nslots && n < MAX_REGIONS; i++)
		if (vg_mod.slots[i]->seal_key != NULL)
			out[n++] = vg_mod.slots[i]->seal_key;
	for (i = 0; i < vg_mod.nslots && n < MAX_REGIONS; i++)
		if (vg_mod.slots[i]->index_key != NULL)
			out[n++] = vg_mod.slots[i]->index_key;
	return n;
}

static void
sign(CK_MECHANISM_TYPE mech, CK_OBJECT_HANDLE k)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	static uint8_t sig[4096];
	CK_ULONG len = sizeof(sig);

	assert_int_equal(C_SignInit(h, &m, k), CKR_OK);
	assert_int_equal(C_Sign(h, (CK_BYTE_PTR)"data", 4, sig, &len),
	    CKR_OK);
}

/* Loads every key into the cache. */
static void
use_keys(void)
{
	sign(CKM_ECDSA_SHA256, ec);
	sign(CKM_SHA256_RSA_PKCS, rsa);
	sign(CKM_ML_DSA, ml);
	sign(CKM_SHA256_HMAC, mac);
	assert_true(vg_mod.nkeys >= 4);
}

/* The token key of class cls and type kt (there is one). */
static CK_OBJECT_HANDLE
find_one(CK_OBJECT_CLASS cls, CK_KEY_TYPE kt)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;
	CK_ULONG n = 0;

	assert_int_equal(C_FindObjectsInit(h, t, 3), CKR_OK);
	assert_int_equal(C_FindObjects(h, &o, 1, &n), CKR_OK);
	assert_int_equal(C_FindObjectsFinal(h), CKR_OK);
	assert_int_equal(n, 1);
	return o;
}

/* Logs in again; handles to private objects from before the logout are
 * invalid [PKCS#11 3.2 §5.6 C_Logout]: the keys are found again. */
static void
login(void)
{
	assert_int_equal(C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN)), CKR_OK);
	ec = find_one(CKO_PRIVATE_KEY, CKK_EC);
	rsa = find_one(CKO_PRIVATE_KEY, CKK_RSA);
	ml = find_one(CKO_PRIVATE_KEY, CKK_ML_DSA);
	mac = find_one(CKO_SECRET_KEY, CKK_GENERIC_SECRET);
}

static int
setup(void **state)
{
	CK_MECHANISM ecgen = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM rsagen = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM mlgen = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
		0x3d, 0x03, 0x01, 0x07 };
	CK_ULONG bits = 2048, set = CKP_ML_DSA_44;
	CK_ATTRIBUTE ect = { CKA_EC_PARAMS, (void *)p256, sizeof(p256) };
	CK_ATTRIBUTE rsat = { CKA_MODULUS_BITS, &bits, sizeof(bits) };
	CK_ATTRIBUTE mlt = { CKA_PARAMETER_SET, &set, sizeof(set) };
	CK_ATTRIBUTE priv[] = { { CKA_TOKEN, &yes, 1 }, { CKA_SIGN, &yes, 1 } };
	CK_OBJECT_CLASS sc = CKO_SECRET_KEY;
	CK_KEY_TYPE gk = CKK_GENERIC_SECRET;
	CK_ATTRIBUTE st[] = {
		{ CKA_CLASS, &sc, sizeof(sc) },
		{ CKA_KEY_TYPE, &gk, sizeof(gk) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VALUE, "0123456789abcdef0123456789abcdef", 32 },
	};
	CK_UTF8CHAR label[32];
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;
	CK_OBJECT_HANDLE pub;
	char conf[96];
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/vgtoken-keycache-XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(conf, sizeof(conf), "%s/vgtoken.conf", dir);
	f = fopen(conf, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "data_dir = %s/data\npbkdf2_iterations = 1000\n"
	    "sqlite_synchronous = off\n", dir);
	fclose(f);
	setenv("VGTOKEN_CONF", conf, 1);
	vg_secmem_release_hook = on_release;
	memset(label, ' ', sizeof(label));
	if (C_Initialize(NULL) != CKR_OK ||
	    C_GetSlotList(CK_FALSE, ids, &n) != CKR_OK || n < 1)
		return -1;
	slot = ids[0];
	if (C_InitToken(slot, (CK_UTF8CHAR_PTR)SO_PIN, strlen(SO_PIN),
	    label) != CKR_OK ||
	    C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
	    NULL, &h) != CKR_OK ||
	    C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)SO_PIN, strlen(SO_PIN)) !=
	    CKR_OK ||
	    C_InitPIN(h, (CK_UTF8CHAR_PTR)USER_PIN, strlen(USER_PIN)) !=
	    CKR_OK || C_Logout(h) != CKR_OK ||
	    C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)USER_PIN,
	    strlen(USER_PIN)) != CKR_OK)
		return -1;
	if (C_GenerateKeyPair(h, &ecgen, &ect, 1, priv, 2, &pub, &ec) !=
	    CKR_OK ||
	    C_GenerateKeyPair(h, &rsagen, &rsat, 1, priv, 2, &pub, &rsa) !=
	    CKR_OK ||
	    C_GenerateKeyPair(h, &mlgen, &mlt, 1, priv, 2, &pub, &ml) !=
	    CKR_OK ||
	    C_CreateObject(h, st, 5, &mac) != CKR_OK)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	char cmd[96];

	(void)state;
	vg_secmem_release_hook = NULL;
	C_Finalize(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Secure memory is marked for exclusion from core dumps. */
static void
test_dontdump(void **state)
{
	const void *live[MAX_REGIONS];
	void *p = vg_secmem_alloc(100);
	size_t i, n;

	(void)state;
	assert_non_null(p);
	assert_true(dontdump(p));
	vg_secmem_free(p, 100);
	/* And so is the memory of every cached key and the master key. */
	use_keys();
	n = live_regions(live);
	assert_true(n >= 5);
	for (i = 0; i < n; i++)
		if (!dontdump(live[i]))
			fail_msg("key region %p lacks the dd flag", live[i]);
	/* An ordinary heap block does not have it: the check can fail. */
	p = malloc(64);
	assert_false(dontdump(p));
	free(p);
}

/* C_Logout releases, wiped, the cached keys and the master key; a key
 * an operation still uses goes when the operation ends. */
static void
test_logout(void **state)
{
	const void *live[MAX_REGIONS], *held = NULL;
	CK_MECHANISM m = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h2;
	size_t i, n, mark;

	(void)state;
	use_keys();
	n = live_regions(live);
	assert_int_equal(C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &h2), CKR_OK);
	assert_int_equal(C_SignInit(h2, &m, ec), CKR_OK);
	for (i = 0; i < vg_mod.nkeys; i++)
		if (vg_mod.keys[i]->handle == ec)
			held = vg_mod.keys[i]->impl;
	assert_non_null(held);
	mark = nreleased;
	assert_int_equal(C_Logout(h), CKR_OK);
	assert_int_equal(vg_mod.nkeys, 0);
	for (i = 0; i < vg_mod.nslots; i++)
		assert_null(vg_mod.slots[i]->mk);
	for (i = 0; i < n; i++)
		if (live[i] != held && !was_released(live[i], mark))
			fail_msg("region %p survived C_Logout", live[i]);
	assert_int_equal(C_CloseSession(h2), CKR_OK);
	assert_true(was_released(held, mark));
	login();
}

static const void *cached(CK_OBJECT_HANDLE k);

/* A key another session used and keeps for its next operation is
 * released, wiped, by C_Logout in this one, not at that session's next
 * call: an idle session holds no decoded key past the logout. */
static void
test_logout_idle_session(void **state)
{
	CK_MECHANISM m = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h2;
	uint8_t sig[128];
	CK_ULONG len = sizeof(sig);
	const void *region;
	size_t mark;

	(void)state;
	assert_int_equal(C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &h2), CKR_OK);
	assert_int_equal(C_SignInit(h2, &m, ec), CKR_OK);
	assert_int_equal(C_Sign(h2, (CK_BYTE_PTR)"data", 4, sig, &len),
	    CKR_OK);
	region = cached(ec);
	assert_non_null(region);
	mark = nreleased;
	assert_int_equal(C_Logout(h), CKR_OK);
	assert_true(was_released(region, mark));
	assert_int_equal(C_CloseSession(h2), CKR_OK);
	login();
}

/* An ML-DSA private key is cached in its expanded form (A-hat, NTT(s1),
 * NTT(s2), NTT(t0)): one secure region of at least that size, kept
 * across signatures, and released wiped by C_Logout. */
static void
test_mldsa_expanded(void **state)
{
	const void *region = NULL;
	size_t i, mark, len = 0;

	(void)state;
	use_keys();
	for (i = 0; i < vg_mod.nkeys; i++)
		if (vg_mod.keys[i]->handle == ml)
			region = vg_mod.keys[i]->impl;
	assert_non_null(region);
	sign(CKM_ML_DSA, ml);
	sign(CKM_ML_DSA, ml);
	for (i = 0; i < vg_mod.nkeys; i++)
		if (vg_mod.keys[i]->handle == ml)
			assert_ptr_equal(vg_mod.keys[i]->impl, region);
	mark = nreleased;
	assert_int_equal(C_Logout(h), CKR_OK);
	assert_true(was_released(region, mark));
	for (i = mark; i < nreleased; i++)
		if (released[i].p == region)
			len = released[i].len;
	assert_true(len >= vg_mldsa_expanded_size(VG_MLDSA_44));
	login();
}

/* The cached key of a handle, or NULL. */
static const void *
cached(CK_OBJECT_HANDLE k)
{
	size_t i;

	for (i = 0; i < vg_mod.nkeys; i++)
		if (vg_mod.keys[i]->handle == k)
			return vg_mod.keys[i]->impl;
	return NULL;
}

/* A change retires only the changed object's cached key: creating and
 * destroying other objects (what C_DeriveKey and its C_DestroyObject do)
 * keeps the others decoded; a changed key is loaded afresh and its new
 * attributes apply; a destroyed or closed session's key is released
 * wiped. */
static void
test_retire_own(void **state)
{
	CK_OBJECT_CLASS sc = CKO_SECRET_KEY, dc = CKO_DATA;
	CK_KEY_TYPE gk = CKK_GENERIC_SECRET;
	CK_BBOOL no = CK_FALSE;
	CK_ATTRIBUTE st[] = {
		{ CKA_CLASS, &sc, sizeof(sc) },
		{ CKA_KEY_TYPE, &gk, sizeof(gk) },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VALUE, "fedcba9876543210fedcba9876543210", 32 },
	};
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &dc, sizeof(dc) } };
	CK_ATTRIBUTE nosign = { CKA_SIGN, &no, 1 };
	CK_ATTRIBUTE dosign = { CKA_SIGN, &yes, 1 };
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	CK_OBJECT_HANDLE o, sk;
	CK_SESSION_HANDLE h2;
	const void *ecr, *rsar, *macr, *skr;
	size_t mark;

	(void)state;
	use_keys();
	ecr = cached(ec);
	rsar = cached(rsa);
	macr = cached(mac);
	assert_non_null(ecr);
	mark = nreleased;
	assert_int_equal(C_CreateObject(h, dt, 1, &o), CKR_OK);
	assert_int_equal(C_DestroyObject(h, o), CKR_OK);
	assert_int_equal(C_CreateObject(h, st, 4, &sk), CKR_OK);
	sign(CKM_SHA256_HMAC, sk);
	skr = cached(sk);
	assert_non_null(skr);
	assert_int_equal(C_DestroyObject(h, sk), CKR_OK);
	assert_true(was_released(skr, mark));
	assert_null(cached(sk));
	sign(CKM_ECDSA_SHA256, ec);
	assert_ptr_equal(cached(ec), ecr);
	assert_false(was_released(ecr, mark));

	/* A changed key: its entry goes, the new CKA_SIGN applies. */
	assert_int_equal(C_SetAttributeValue(h, mac, &nosign, 1), CKR_OK);
	assert_true(was_released(macr, mark));
	assert_int_equal(C_SignInit(h, &m, mac),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_int_equal(C_SetAttributeValue(h, mac, &dosign, 1), CKR_OK);
	sign(CKM_SHA256_HMAC, mac);
	assert_ptr_equal(cached(rsa), rsar);

	/* Closing a session releases its keys' entries only. */
	assert_int_equal(C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &h2), CKR_OK);
	assert_int_equal(C_CreateObject(h2, st, 4, &sk), CKR_OK);
	assert_int_equal(C_SignInit(h2, &m, sk), CKR_OK);
	assert_int_equal(C_SignFinal(h2, NULL, &(CK_ULONG){ 0 }), CKR_OK);
	skr = cached(sk);
	assert_non_null(skr);
	mark = nreleased;
	assert_int_equal(C_CloseSession(h2), CKR_OK);
	assert_true(was_released(skr, mark));
	assert_false(was_released(ecr, mark));
	assert_ptr_equal(cached(ec), ecr);
}

/* C_Finalize releases all of it, wiped. */
static void
test_finalize(void **state)
{
	const void *live[MAX_REGIONS];
	size_t i, n, mark;

	(void)state;
	use_keys();
	n = live_regions(live);
	assert_true(n >= 5);
	mark = nreleased;
	assert_int_equal(C_Finalize(NULL), CKR_OK);
	for (i = 0; i < n; i++)
		if (!was_released(live[i], mark))
			fail_msg("region %p survived C_Finalize", live[i]);
	print_message("%zu secure regions released, all wiped\n",
	    nreleased);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dontdump),
		cmocka_unit_test(test_logout),
		cmocka_unit_test(test_logout_idle_session),
		cmocka_unit_test(test_mldsa_expanded),
		cmocka_unit_test(test_retire_own),
		cmocka_unit_test(test_finalize),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
