/*
 * Interfaces and function tables [PKCS#11 3.2 §5.3]: C_GetFunctionList,
 * C_GetInterfaceList, C_GetInterface, and the contents of the three
 * tables the module hands out.
 */
#include "config.h"

#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"
#include "vgtoken/vgtoken.h"

#define NAME "PKCS 11"

/* The versions the module offers, newest (the default) first. */
static const CK_VERSION versions[] = { { 3, 2 }, { 3, 0 }, { 2, 40 } };
#define NVERSIONS (sizeof(versions) / sizeof(versions[0]))

/* Number of entries of each table in the specification. */
#define N_2_40 68
#define N_3_0 (N_2_40 + 24)
#define N_3_2 (N_3_0 + 12)

typedef void (*fnptr)(void);

static const CK_VERSION *
table_version(const CK_INTERFACE *i)
{
	return (const CK_VERSION *)i->pFunctionList;
}

/* Reads the table at t as an array of function pointers from the member
 * at offset first to the member at offset last (both included); the
 * table is size bytes. Returns the number of pointers copied to out. */
static size_t
walk_table(const void *t, size_t size, size_t first, size_t last,
    fnptr *out, size_t max)
{
	size_t n, i;

	/* The pointers follow the CK_VERSION and fill the rest. */
	assert_true(first >= sizeof(CK_VERSION));
	assert_int_equal((last - first) % sizeof(fnptr), 0);
	assert_int_equal(last + sizeof(fnptr), size);
	n = (last - first) / sizeof(fnptr) + 1;
	assert_true(n <= max);
	for (i = 0; i < n; i++)
		memcpy(&out[i], (const char *)t + first + i * sizeof(fnptr),
		    sizeof(fnptr));
	return n;
}

static size_t
walk_2_40(const CK_FUNCTION_LIST *t, fnptr *out, size_t max)
{
	return walk_table(t, sizeof(*t), offsetof(CK_FUNCTION_LIST, C_Initialize),
	    offsetof(CK_FUNCTION_LIST, C_WaitForSlotEvent), out, max);
}

static size_t
walk_3_0(const CK_FUNCTION_LIST_3_0 *t, fnptr *out, size_t max)
{
	return walk_table(t, sizeof(*t),
	    offsetof(CK_FUNCTION_LIST_3_0, C_Initialize),
	    offsetof(CK_FUNCTION_LIST_3_0, C_MessageVerifyFinal), out, max);
}

static size_t
walk_3_2(const CK_FUNCTION_LIST_3_2 *t, fnptr *out, size_t max)
{
	return walk_table(t, sizeof(*t),
	    offsetof(CK_FUNCTION_LIST_3_2, C_Initialize),
	    offsetof(CK_FUNCTION_LIST_3_2, C_UnwrapKeyAuthenticated), out, max);
}

/* The interface of the given version, through C_GetInterface by name. */
static CK_INTERFACE_PTR
get_interface(CK_BYTE major, CK_BYTE minor)
{
	CK_VERSION v = { major, minor };
	CK_INTERFACE_PTR i = NULL;

	assert_rv(p11_sym_GetInterface((CK_UTF8CHAR_PTR)NAME, &v, &i, 0),
	    CKR_OK);
	assert_non_null(i);
	assert_non_null(i->pFunctionList);
	assert_int_equal(table_version(i)->major, major);
	assert_int_equal(table_version(i)->minor, minor);
	return i;
}

/* ------------------------------------------------------------ tests */

static void
test_get_function_list(void **state)
{
	CK_FUNCTION_LIST_PTR l = NULL, l2 = NULL;

	(void)state;
	assert_rv(p11_sym_GetFunctionList(NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11_sym_GetFunctionList(&l), CKR_OK);
	assert_non_null(l);
	assert_int_equal(l->version.major, 2);
	assert_int_equal(l->version.minor, 40);
	/* The table's own entry gives the same table. */
	assert_rv(l->C_GetFunctionList(&l2), CKR_OK);
	assert_ptr_equal(l, l2);
	assert_rv(l->C_GetFunctionList(NULL), CKR_ARGUMENTS_BAD);
	/* ... and so does the 2.40 interface. */
	assert_ptr_equal(get_interface(2, 40)->pFunctionList, l);
	assert_ptr_equal(l->C_GetFunctionList, p11_sym_GetFunctionList);
}

static void
test_interface_list_args(void **state)
{
	CK_INTERFACE list[NVERSIONS];
	CK_ULONG n;

	(void)state;
	assert_rv(p11_sym_GetInterfaceList(NULL, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11_sym_GetInterfaceList(list, NULL), CKR_ARGUMENTS_BAD);

	/* Size query. */
	n = 0;
	assert_rv(p11_sym_GetInterfaceList(NULL, &n), CKR_OK);
	assert_int_equal(n, NVERSIONS);
	n = 12345;
	assert_rv(p11_sym_GetInterfaceList(NULL, &n), CKR_OK);
	assert_int_equal(n, NVERSIONS);

	/* Short buffers report the count and write nothing. */
	for (n = 0; n < NVERSIONS; n++) {
		CK_ULONG got = n;

		memset(list, 0xa5, sizeof(list));
		assert_rv(p11_sym_GetInterfaceList(list, &got),
		    CKR_BUFFER_TOO_SMALL);
		assert_int_equal(got, NVERSIONS);
	}
}

static void
test_interface_list_full(void **state)
{
	CK_INTERFACE list[NVERSIONS + 5];
	int seen[NVERSIONS] = { 0 };
	CK_ULONG n = NVERSIONS + 5, i, j;

	(void)state;
	memset(list, 0, sizeof(list));
	assert_rv(p11_sym_GetInterfaceList(list, &n), CKR_OK);
	assert_int_equal(n, NVERSIONS);
	for (i = 0; i < n; i++) {
		const CK_VERSION *v;

		assert_non_null(list[i].pInterfaceName);
		assert_string_equal((const char *)list[i].pInterfaceName, NAME);
		assert_non_null(list[i].pFunctionList);
		v = table_version(&list[i]);
		for (j = 0; j < NVERSIONS; j++)
			if (v->major == versions[j].major &&
			    v->minor == versions[j].minor)
				break;
		if (j == NVERSIONS)
			fail_msg("unexpected interface version %u.%u",
			    v->major, v->minor);
		seen[j]++;
		/* C_GetInterface finds the same entry. */
		assert_ptr_equal(get_interface(v->major, v->minor)->pFunctionList,
		    list[i].pFunctionList);
	}
	for (j = 0; j < NVERSIONS; j++)
		assert_int_equal(seen[j], 1);
	/* Exactly the size fits, too. */
	n = NVERSIONS;
	assert_rv(p11_sym_GetInterfaceList(list, &n), CKR_OK);
	assert_int_equal(n, NVERSIONS);
	/* The 3.x tables export the same function. */
	assert_ptr_equal(p11->C_GetInterfaceList, p11_sym_GetInterfaceList);
	assert_ptr_equal(p11->C_GetInterface, p11_sym_GetInterface);
}

static void
test_get_interface_default(void **state)
{
	CK_VERSION v32 = { 3, 2 };
	CK_INTERFACE_PTR i = NULL, byname = NULL, byver = NULL;

	(void)state;
	assert_rv(p11_sym_GetInterface(NULL, NULL, &i, 0), CKR_OK);
	assert_non_null(i);
	assert_string_equal((const char *)i->pInterfaceName, NAME);
	assert_int_equal(table_version(i)->major, 3);
	assert_int_equal(table_version(i)->minor, 2);

	assert_rv(p11_sym_GetInterface((CK_UTF8CHAR_PTR)NAME, NULL, &byname,
		      0),
	    CKR_OK);
	assert_ptr_equal(byname->pFunctionList, i->pFunctionList);
	assert_rv(p11_sym_GetInterface(NULL, &v32, &byver, 0), CKR_OK);
	assert_ptr_equal(byver->pFunctionList, i->pFunctionList);
	assert_ptr_equal(i->pFunctionList, p11);
}

static void
test_get_interface_each(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < NVERSIONS; k++) {
		CK_VERSION v = versions[k];
		CK_INTERFACE_PTR byname = get_interface(v.major, v.minor);
		CK_INTERFACE_PTR byver = NULL;

		/* A NULL name with a version finds the same table. */
		assert_rv(p11_sym_GetInterface(NULL, &v, &byver, 0), CKR_OK);
		assert_ptr_equal(byver->pFunctionList, byname->pFunctionList);
		assert_int_equal(byname->flags & ~(CK_FLAGS)CKF_INTERFACE_FORK_SAFE,
		    0);
	}
	assert_ptr_equal(get_interface(2, 40)->pFunctionList, p11_240);
}

/* Asserts that C_GetInterface fails and leaves *ppInterface alone. */
static void
expect_no_interface(const char *name, const CK_VERSION *ver, CK_FLAGS flags)
{
	CK_INTERFACE sentinel_iface;
	CK_INTERFACE_PTR i = &sentinel_iface;
	CK_VERSION v;
	CK_RV rv;

	if (ver != NULL)
		v = *ver;
	rv = p11_sym_GetInterface((CK_UTF8CHAR_PTR)name,
	    ver != NULL ? &v : NULL, &i, flags);
	if (rv == CKR_OK)
		fail_msg("C_GetInterface(%s, %d.%d, 0x%lx) succeeded",
		    name != NULL ? name : "NULL", ver != NULL ? ver->major : -1,
		    ver != NULL ? ver->minor : -1, (unsigned long)flags);
	assert_ptr_equal(i, &sentinel_iface);
}

static void
test_get_interface_unknown(void **state)
{
	static const CK_VERSION v99 = { 9, 9 }, v211 = { 2, 11 },
				v31 = { 3, 1 }, v32 = { 3, 2 };

	(void)state;
	expect_no_interface("PKCS 12", NULL, 0);
	expect_no_interface("PKCS 11 ", NULL, 0);
	expect_no_interface("PKCS", NULL, 0);
	expect_no_interface("", NULL, 0);
	expect_no_interface("Vendor XYZ", &v32, 0);
	expect_no_interface(NULL, &v99, 0);
	expect_no_interface(NAME, &v99, 0);
	expect_no_interface(NAME, &v211, 0);
	expect_no_interface(NAME, &v31, 0);
	/* Flags the module's interfaces lack. */
	expect_no_interface(NULL, NULL, CKF_INTERFACE_FORK_SAFE);
	expect_no_interface(NAME, &v32, CKF_INTERFACE_FORK_SAFE);
	expect_no_interface(NAME, NULL, 0x80000000UL);

	assert_rv(p11_sym_GetInterface(NULL, NULL, NULL, 0),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11_sym_GetInterface((CK_UTF8CHAR_PTR)NAME, NULL, NULL, 0),
	    CKR_ARGUMENTS_BAD);
}

static void
test_tables_non_null(void **state)
{
	fnptr f[N_3_2 + 1];
	size_t n, i;

	(void)state;
	n = walk_2_40(get_interface(2, 40)->pFunctionList, f, N_3_2);
	assert_int_equal(n, N_2_40);
	for (i = 0; i < n; i++)
		if (f[i] == NULL)
			fail_msg("2.40 table entry %zu is NULL", i);

	n = walk_3_0(get_interface(3, 0)->pFunctionList, f, N_3_2);
	assert_int_equal(n, N_3_0);
	for (i = 0; i < n; i++)
		if (f[i] == NULL)
			fail_msg("3.0 table entry %zu is NULL", i);

	n = walk_3_2(get_interface(3, 2)->pFunctionList, f, N_3_2);
	assert_int_equal(n, N_3_2);
	for (i = 0; i < n; i++)
		if (f[i] == NULL)
			fail_msg("3.2 table entry %zu is NULL", i);

	/* The table from C_GetFunctionList is the 2.40 one. */
	n = walk_2_40(p11_240, f, N_3_2);
	assert_int_equal(n, N_2_40);
}

static void
test_tables_share(void **state)
{
	fnptr f240[N_2_40], f30[N_3_0], f32[N_3_2];
	size_t i;

	(void)state;
	assert_int_equal(walk_2_40(get_interface(2, 40)->pFunctionList, f240,
			     N_2_40),
	    N_2_40);
	assert_int_equal(walk_3_0(get_interface(3, 0)->pFunctionList, f30,
			     N_3_0),
	    N_3_0);
	assert_int_equal(walk_3_2(get_interface(3, 2)->pFunctionList, f32,
			     N_3_2),
	    N_3_2);
	for (i = 0; i < N_2_40; i++) {
		/* The three whose answers depend on the interface: each
		 * table has its own mechanism list and info (2.40 cannot
		 * name 3.0's, 3.0 cannot name 3.2's); the older tables
		 * share C_GetAttributeValue, the 3.2 table has its own. */
		int mech = f240[i] == (fnptr)p11_240->C_GetMechanismList ||
		    f240[i] == (fnptr)p11_240->C_GetMechanismInfo;
		int attr = f240[i] == (fnptr)p11_240->C_GetAttributeValue;

		if (mech ? f240[i] == f30[i] || f240[i] == f32[i] ||
			f30[i] == f32[i]
			 : f240[i] != f30[i] ||
			(attr ? f240[i] == f32[i] : f240[i] != f32[i]))
			fail_msg("2.40 entry %zu differs between the tables", i);
	}
	for (i = N_2_40; i < N_3_0; i++)
		if (f30[i] != f32[i])
			fail_msg("3.0 entry %zu differs between the tables", i);
	/* Entries are distinct functions (no copy-paste slip in a table). */
	for (i = 0; i < N_3_2; i++) {
		size_t j;

		for (j = i + 1; j < N_3_2; j++)
			if (f32[i] == f32[j])
				fail_msg("3.2 entries %zu and %zu are the same "
					 "function", i, j);
	}
	/* Named members line up with the walk. */
	assert_ptr_equal((fnptr)p11->C_Initialize, f32[0]);
	assert_ptr_equal((fnptr)p11->C_WaitForSlotEvent, f32[N_2_40 - 1]);
	assert_ptr_equal((fnptr)p11->C_GetInterfaceList, f32[N_2_40]);
	assert_ptr_equal((fnptr)p11->C_MessageVerifyFinal, f32[N_3_0 - 1]);
	assert_ptr_equal((fnptr)p11->C_EncapsulateKey, f32[N_3_0]);
	assert_ptr_equal((fnptr)p11->C_UnwrapKeyAuthenticated, f32[N_3_2 - 1]);
}

/* Calls four functions the token does not offer; all must answer want. */
static void
call_unsupported(CK_SESSION_HANDLE h, CK_RV want)
{
	CK_MECHANISM mech = { CKM_SHA256_RSA_PKCS, NULL, 0 };
	CK_BYTE buf[64];

	assert_rv(p11->C_SignRecoverInit(h, &mech, 1), want);
	assert_rv(p11->C_VerifyRecoverInit(h, &mech, 1), want);
	assert_rv(p11->C_AsyncJoin(h, (CK_UTF8CHAR_PTR)"C_Sign", 1, buf,
		      sizeof(buf)),
	    want);
	assert_rv(p11->C_MessageEncryptInit(h, &mech, 1), want);
}

static void
test_unsupported(void **state)
{
	CK_SESSION_HANDLE h;

	(void)state;
	call_unsupported(1, CKR_CRYPTOKI_NOT_INITIALIZED);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	h = p11_open(0);
	call_unsupported(h, CKR_FUNCTION_NOT_SUPPORTED);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	call_unsupported(h, CKR_CRYPTOKI_NOT_INITIALIZED);
}

/* Whether list (n entries) holds m. */
static int
holds(const CK_MECHANISM_TYPE *list, CK_ULONG n, CK_MECHANISM_TYPE m)
{
	CK_ULONG i;

	for (i = 0; i < n; i++)
		if (list[i] == m)
			return 1;
	return 0;
}

/* What each interface shows: the older tables (2.40, 3.0) list and
 * describe no mechanism only 3.2 defines, and read back the vendor twins
 * of ML-DSA's key type and mechanisms; the 3.2 table shows both. The
 * operations take either number from any table. */
static void
test_views(void **state)
{
	static const CK_MECHANISM_TYPE v32_only[] = { CKM_ML_DSA_KEY_PAIR_GEN,
		CKM_ML_DSA, CKM_HASH_ML_DSA, CKM_HASH_ML_DSA_SHA256,
		CKM_HASH_ML_DSA_SHAKE256 };
	const CK_FUNCTION_LIST *older[2] = { p11_240,
		get_interface(3, 0)->pFunctionList };
	CK_MECHANISM gen = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM sign = { CKM_ML_DSA, NULL, 0 };
	CK_ULONG set = CKP_ML_DSA_44, n, kt, kgm, allowed[2];
	CK_MECHANISM_TYPE only[2] = { CKM_ML_DSA, CKM_HASH_ML_DSA_SHA256 };
	CK_BBOOL yes = CK_TRUE;
	CK_ATTRIBUTE pt[] = { { CKA_PARAMETER_SET, &set, sizeof(set) } };
	CK_ATTRIBUTE kt_[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_ALLOWED_MECHANISMS, only, sizeof(only) },
	};
	CK_ATTRIBUTE get[] = {
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_KEY_GEN_MECHANISM, &kgm, sizeof(kgm) },
		{ CKA_ALLOWED_MECHANISMS, allowed, sizeof(allowed) },
	};
	CK_MECHANISM_TYPE list[256];
	CK_MECHANISM_INFO info;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE pub, priv;
	CK_SLOT_ID slot;
	uint8_t sig[2420];
	CK_ULONG slen = sizeof(sig);
	char dir[64];
	size_t i, j;

	(void)state;
	assert_int_equal(p11_fresh_user_session(dir, "views", &slot, &h), 0);
	assert_rv(p11->C_GenerateKeyPair(h, &gen, pt, 1, kt_, 2, &pub, &priv),
	    CKR_OK);
	for (j = 0; j < 2; j++) {
		const CK_FUNCTION_LIST *f = older[j];

		n = sizeof(list) / sizeof(list[0]);
		assert_rv(f->C_GetMechanismList(slot, list, &n), CKR_OK);
		for (i = 0; i < sizeof(v32_only) / sizeof(v32_only[0]); i++) {
			assert_false(holds(list, n, v32_only[i]));
			assert_rv(f->C_GetMechanismInfo(slot, v32_only[i],
			    &info), CKR_MECHANISM_INVALID);
		}
		assert_true(holds(list, n, CKM_VG_ML_DSA));
		assert_true(holds(list, n, CKM_VG_ML_DSA_KEY_PAIR_GEN));
		assert_rv(f->C_GetMechanismInfo(slot, CKM_VG_ML_DSA, &info),
		    CKR_OK);
		assert_rv(f->C_GetAttributeValue(h, priv, get, 3), CKR_OK);
		assert_int_equal(kt, CKK_VG_ML_DSA);
		assert_int_equal(kgm, CKM_VG_ML_DSA_KEY_PAIR_GEN);
		/* the one with a vendor twin becomes it; the other has none */
		assert_int_equal(allowed[0], CKM_VG_ML_DSA);
		assert_int_equal(allowed[1], CKM_HASH_ML_DSA_SHA256);
		/* an older caller may still use the standard number */
		assert_rv(f->C_SignInit(h, &sign, priv), CKR_OK);
		slen = sizeof(sig);
		assert_rv(f->C_Sign(h, (CK_BYTE_PTR)"m", 1, sig, &slen),
		    CKR_OK);
	}
	n = sizeof(list) / sizeof(list[0]);
	assert_rv(p11->C_GetMechanismList(slot, list, &n), CKR_OK);
	for (i = 0; i < sizeof(v32_only) / sizeof(v32_only[0]); i++)
		assert_true(holds(list, n, v32_only[i]));
	assert_true(holds(list, n, CKM_VG_ML_DSA));
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_ML_DSA, &info), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, priv, get, 3), CKR_OK);
	assert_int_equal(kt, CKK_ML_DSA);
	assert_int_equal(kgm, CKM_ML_DSA_KEY_PAIR_GEN);
	assert_int_equal(allowed[0], CKM_ML_DSA);
	assert_int_equal(p11_fresh_cleanup(dir), 0);
}

/* The numbers 3.0 added (Edwards and Montgomery curves, EdDSA, ECDSA
 * with SHA-3, HKDF): the 2.40 table neither lists nor describes them, the
 * 3.0 and 3.2 tables do; a 2.40 caller may still use them. */
static void
test_views_30(void **state)
{
	static const CK_MECHANISM_TYPE v30_only[] = {
		CKM_EC_EDWARDS_KEY_PAIR_GEN, CKM_EC_MONTGOMERY_KEY_PAIR_GEN,
		CKM_EDDSA, CKM_ECDSA_SHA3_256, CKM_HKDF_DERIVE, CKM_HKDF_DATA,
		CKM_HKDF_KEY_GEN };
	const CK_FUNCTION_LIST *tables[3] = { p11_240,
		get_interface(3, 0)->pFunctionList,
		get_interface(3, 2)->pFunctionList };
	static const uint8_t ed_oid[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
	CK_MECHANISM gen = { CKM_EC_EDWARDS_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM sign = { CKM_EDDSA, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)ed_oid,
		sizeof(ed_oid) } };
	CK_MECHANISM_TYPE list[256];
	CK_MECHANISM_INFO info;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE pub, priv;
	CK_SLOT_ID slot;
	uint8_t sig[64];
	CK_ULONG n, slen = sizeof(sig), n240 = 0;
	char dir[64];
	size_t i, j;

	(void)state;
	assert_int_equal(p11_fresh_user_session(dir, "views30", &slot, &h),
	    0);
	for (j = 0; j < 3; j++) {
		const CK_FUNCTION_LIST *f = tables[j];

		n = sizeof(list) / sizeof(list[0]);
		assert_rv(f->C_GetMechanismList(slot, list, &n), CKR_OK);
		if (j == 0)
			n240 = n;
		for (i = 0; i < sizeof(v30_only) / sizeof(v30_only[0]); i++) {
			assert_int_equal(holds(list, n, v30_only[i]), j != 0);
			assert_rv(f->C_GetMechanismInfo(slot, v30_only[i],
			    &info), j == 0 ? CKR_MECHANISM_INVALID : CKR_OK);
		}
		/* what 2.40 knows stays: SHA-3 digests, ECDSA with SHA-2 */
		assert_true(holds(list, n, CKM_SHA3_256));
		assert_true(holds(list, n, CKM_ECDSA_SHA256));
		assert_true(holds(list, n, CKM_AES_KEY_WRAP_KWP));
		if (j == 1)
			assert_int_equal(n, n240 + sizeof(v30_only) /
			    sizeof(v30_only[0]) + 3);
	}
	/* a 2.40 caller that names EdDSA anyway is served */
	assert_rv(p11_240->C_GenerateKeyPair(h, &gen, pt, 1, NULL, 0, &pub,
	    &priv), CKR_OK);
	assert_rv(p11_240->C_SignInit(h, &sign, priv), CKR_OK);
	assert_rv(p11_240->C_Sign(h, (CK_BYTE_PTR)"m", 1, sig, &slen), CKR_OK);
	assert_int_equal(slen, 64);
	assert_int_equal(p11_fresh_cleanup(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_function_list),
		cmocka_unit_test(test_interface_list_args),
		cmocka_unit_test(test_interface_list_full),
		cmocka_unit_test(test_get_interface_default),
		cmocka_unit_test(test_get_interface_each),
		cmocka_unit_test(test_get_interface_unknown),
		cmocka_unit_test(test_tables_non_null),
		cmocka_unit_test(test_tables_share),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_views_30),
		cmocka_unit_test_teardown(test_unsupported, p11_group_fini),
	};

	return cmocka_run_group_tests_name("p11 interface", tests,
	    p11_group_load, p11_group_fini);
}
