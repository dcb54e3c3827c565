/*
 * Helpers shared by tests/p11/test_derive.c and test_hkdf.c: a user
 * session on a fresh token of the test's own, session secret keys, and
 * C_DeriveKey with a readable (non-sensitive, extractable) result.
 * Include cmocka.h and tests/p11/common.h first.
 */
#ifndef VG_TESTS_P11_DERIVE_COMMON_H
#define VG_TESTS_P11_DERIVE_COMMON_H

extern char dir[64];
extern CK_SLOT_ID slot;
extern CK_SESSION_HANDLE h;
extern CK_BBOOL yes, no;
extern CK_OBJECT_CLASS c_sec, c_data;
extern CK_KEY_TYPE k_aes, k_gen;

/* cmocka setup/teardown: the fresh token and its session h. */
int derive_setup(void **state);
int derive_teardown(void **state);

/* n bytes of a pattern that depends on seed. */
void pattern(uint8_t *p, size_t n, unsigned seed);

/* A session secret key of type kt holding v, CKA_DERIVE as given
 * (asserts success). */
CK_OBJECT_HANDLE secret(CK_KEY_TYPE kt, const uint8_t *v, size_t len,
    CK_BBOOL can_derive);

/* C_DeriveKey: for CKM_HKDF_DATA a data object, else a readable secret
 * key with CKA_DERIVE of type kt (0: none named); CKA_VALUE_LEN len (0:
 * none given). Returns the CK_RV; *out the new handle or 0. */
CK_RV derive(CK_MECHANISM_TYPE mech, void *param, CK_ULONG plen,
    CK_OBJECT_HANDLE base, CK_KEY_TYPE kt, CK_ULONG len,
    CK_OBJECT_HANDLE *out);

/* CKA_VALUE of o into buf (room for cap bytes); returns its length. */
size_t value(CK_OBJECT_HANDLE o, uint8_t *buf, size_t cap);

/* A CK_BBOOL attribute of o. */
CK_BBOOL get_bool(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type);

/* Objects the session sees (at most 256). */
CK_ULONG count_objects(void);

#endif
