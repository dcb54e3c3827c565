/*
 * Helpers shared by the ML-KEM tests (tests/p11/test_mlkem.c,
 * test_mlkem_import.c): a user session h on a fresh token of the test's
 * own, key pairs, C_EncapsulateKey / C_DecapsulateKey with CKM_ML_KEM
 * through the 3.2 table, and readers. Include cmocka.h and
 * tests/p11/common.h first.
 */
#ifndef VG_TESTS_P11_MLKEM_COMMON_H
#define VG_TESTS_P11_MLKEM_COMMON_H

extern char dir[64];
extern CK_SLOT_ID slot;
extern CK_SESSION_HANDLE h;
extern CK_BBOOL yes, no;
extern CK_OBJECT_CLASS c_pub, c_priv, c_sec;
extern CK_KEY_TYPE k_kem, k_gen, k_aes;

/* The parameter sets: sizes and Wycheproof's vector file. */
struct mlkem_set {
	CK_ULONG set;
	size_t ek, dk, ct;
	const char *file;
};
extern const struct mlkem_set sets[3];

/* cmocka setup/teardown: the fresh token and its session h. */
int mlkem_setup(void **state);
int mlkem_teardown(void **state);

/* A session key pair of set; the private key extractable (so that its dk
 * and seed can be read) when ext. Asserts success. */
void keypair(CK_ULONG set, int ext, CK_OBJECT_HANDLE *pub,
    CK_OBJECT_HANDLE *priv);

/* How many objects the session sees. */
CK_ULONG nobjects(void);

/* An extractable generic secret template of len bytes (0: no length). */
#define SECRET_TMPL(name, lenp)                                             \
	CK_ATTRIBUTE name[] = {                                             \
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },                       \
		{ CKA_KEY_TYPE, &k_gen, sizeof(k_gen) },                    \
		{ CKA_SENSITIVE, &no, 1 },                                  \
		{ CKA_EXTRACTABLE, &yes, 1 },                               \
		{ CKA_VALUE_LEN, (lenp), sizeof(CK_ULONG) },                \
	}

/* C_EncapsulateKey / C_DecapsulateKey with CKM_ML_KEM; the CK_RV. */
CK_RV encaps(CK_OBJECT_HANDLE pub, CK_ATTRIBUTE *t, CK_ULONG n,
    uint8_t *ct, CK_ULONG *ctlen, CK_OBJECT_HANDLE *key);
CK_RV decaps(CK_OBJECT_HANDLE priv, CK_ATTRIBUTE *t, CK_ULONG n,
    const uint8_t *ct, CK_ULONG ctlen, CK_OBJECT_HANDLE *key);

/* A key's CKA_VALUE into v (room for 64 bytes); its length. */
CK_ULONG value_of(CK_OBJECT_HANDLE k, uint8_t *v);

/* A CK_BBOOL attribute of k. */
CK_BBOOL bool_of(CK_OBJECT_HANDLE k, CK_ATTRIBUTE_TYPE t);

#endif
