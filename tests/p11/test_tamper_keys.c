/*
 * The tamper tests of test_tamper.c on the key types added after issue
 * 18 (Ed25519, X25519, ML-KEM: their seeds, parameter sets and private
 * values are sealed as any other attribute), and the clean-up of what
 * is refused: the attacker edits vgtoken.db through SQLite's own API
 * (tests/p11/tamper_common.c), never through the module.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/crypto.h>
#include <sqlite3.h>

#include "tests/p11/cert_common.h"
#include "tests/p11/tamper_common.h"

/* Rows left of objects a and b, counted through SQLite. */
static int
rows_of(CK_OBJECT_HANDLE a, CK_OBJECT_HANDLE b)
{
	sqlite3 *db = db_open();
	sqlite3_stmt *st;
	int n;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM objects "
	    "WHERE id IN (?, ?)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, ROW(a));
	sqlite3_bind_int64(st, 2, ROW(b));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* A refused object cannot be used, yet its owner can still destroy it,
 * so that the token can be cleaned up (none of its attributes is
 * trusted, CKA_DESTROYABLE included); a read-only session cannot. */
static void
test_destroy_tampered(void **state)
{
	static const uint8_t key[16] = "0123456789abcdef";
	CK_SESSION_HANDLE h = user(), ro;
	CK_OBJECT_HANDLE k, p, other;
	char buf[32];

	(void)state;
	k = secret(h, CKK_AES, "aes", key, sizeof(key), CK_FALSE);
	p = data(h, "public", CK_TRUE, CK_FALSE, "as made");
	other = data(h, "other", CK_TRUE, CK_FALSE, "other");
	away();
	attack_attr(k, CKA_SENSITIVE, &no, 1);
	attack_attr(p, CKA_VALUE, "changed", 7);
	restart();
	h = user();
	k = ROW(k);
	assert_rv(get_value(h, p, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &ro), CKR_OK);
	assert_rv(p11->C_DestroyObject(ro, k), CKR_SESSION_READ_ONLY);
	assert_rv(p11->C_DestroyObject(h, k), CKR_OK);
	assert_rv(p11->C_DestroyObject(h, p), CKR_OK);
	assert_rv(p11->C_DestroyObject(h, p), CKR_OBJECT_HANDLE_INVALID);
	assert_rv(get_value(h, k, buf, sizeof(buf)),
	    CKR_OBJECT_HANDLE_INVALID);
	assert_int_equal(rows_of(k, p), 0);
	assert_rv(get_value(h, other, buf, sizeof(buf)), CKR_OK);
	away();
}

/* A token key pair of mechanism gen with the public key's one parameter
 * attribute param; the private key signs or derives. */
static void
pair(CK_SESSION_HANDLE h, CK_MECHANISM_TYPE gen, CK_ATTRIBUTE param,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { gen, NULL, 0 };
	CK_ATTRIBUTE pt[] = { param, { CKA_TOKEN, &yes, 1 } };
	CK_ATTRIBUTE kt[] = { { CKA_TOKEN, &yes, 1 } };

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 1, pub, priv),
	    CKR_OK);
}

/* Reads one attribute of o that holds no secret (the parameter set). */
static CK_RV
get_ulong(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE t)
{
	CK_ULONG v = 0;
	CK_ATTRIBUTE a = { t, &v, sizeof(v) };

	return p11->C_GetAttributeValue(h, o, &a, 1);
}

/*
 * The attacks of issue 18 on the later key types: an attacker's plain
 * CKA_VALUE in an Ed25519 and an X25519 private key, an ML-KEM private
 * key's CKA_PARAMETER_SET changed, another's CKA_SEED planted in the
 * clear. Each is refused and named in the log; an untouched key of each
 * type keeps working.
 */
static void
test_later_key_types(void **state)
{
	static const uint8_t ed[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
	static const uint8_t x[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };
	static const uint8_t planted[64] = { 7, 7, 7 };
	CK_ULONG s768 = CKP_ML_KEM_768, s512 = CKP_ML_KEM_512;
	CK_ATTRIBUTE ped = { CKA_EC_PARAMS, (void *)ed, sizeof(ed) };
	CK_ATTRIBUTE px = { CKA_EC_PARAMS, (void *)x, sizeof(x) };
	CK_ATTRIBUTE pk = { CKA_PARAMETER_SET, &s768, sizeof(s768) };
	CK_MECHANISM eddsa = { CKM_EDDSA, NULL, 0 };
	CK_OBJECT_HANDLE epub, epriv, xpub, xpriv, kpub, kpriv, kpub2, kpriv2;
	CK_OBJECT_HANDLE opub, opriv;
	CK_SESSION_HANDLE h = user();
	const char *log;
	CK_RV rv[4];

	(void)state;
	pair(h, CKM_EC_EDWARDS_KEY_PAIR_GEN, ped, &epub, &epriv);
	pair(h, CKM_EC_MONTGOMERY_KEY_PAIR_GEN, px, &xpub, &xpriv);
	pair(h, CKM_ML_KEM_KEY_PAIR_GEN, pk, &kpub, &kpriv);
	pair(h, CKM_ML_KEM_KEY_PAIR_GEN, pk, &kpub2, &kpriv2);
	pair(h, CKM_EC_EDWARDS_KEY_PAIR_GEN, ped, &opub, &opriv);
	away();
	attack_attr(epriv, CKA_VALUE, planted, 32);
	attack_attr(xpriv, CKA_VALUE, planted, 32);
	attack_attr(kpriv, CKA_PARAMETER_SET, &s512, sizeof(s512));
	attack_attr(kpriv2, CKA_SEED, planted, 64);
	restart();
	h = user();
	epriv = ROW(epriv);
	xpriv = ROW(xpriv);
	kpriv = ROW(kpriv);
	kpriv2 = ROW(kpriv2);
	opriv = ROW(opriv);
	log_start();
	rv[0] = p11->C_SignInit(h, &eddsa, epriv);
	rv[1] = get_ulong(h, xpriv, CKA_KEY_TYPE);
	rv[2] = get_ulong(h, kpriv, CKA_PARAMETER_SET);
	rv[3] = get_ulong(h, kpriv2, CKA_PARAMETER_SET);
	log = log_end();
	assert_rv(rv[0], CKR_DEVICE_ERROR);
	assert_rv(rv[1], CKR_DEVICE_ERROR);
	assert_rv(rv[2], CKR_DEVICE_ERROR);
	assert_rv(rv[3], CKR_DEVICE_ERROR);
	assert_logged(log, epriv);
	assert_logged(log, xpriv);
	assert_logged(log, kpriv);
	assert_logged(log, kpriv2);
	/* the public halves and the untouched pair work */
	assert_rv(get_ulong(h, kpub, CKA_PARAMETER_SET), CKR_OK);
	assert_rv(get_ulong(h, xpub, CKA_KEY_TYPE), CKR_OK);
	assert_rv(p11->C_SignInit(h, &eddsa, opriv), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_SIGN), CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &eddsa, epub), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_VERIFY), CKR_OK);
	away();
}

/* A public token certificate, trusted when trusted (the SO's). */
static CK_OBJECT_HANDLE
cert(CK_SESSION_HANDLE h, const char *label, CK_BBOOL trusted)
{
	CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	CK_CERTIFICATE_TYPE ct = CKC_X_509;
	size_t len;
	uint8_t *der = p11_cert_der(label, &len);
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_CERTIFICATE_TYPE, &ct, sizeof(ct) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, der, len },
		{ CKA_TRUSTED, &trusted, 1 },
	};
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_CreateObject(h, t, 6, &o), CKR_OK);
	OPENSSL_free(der);
	return o;
}

/*
 * Certificates made before any login (pending) are sealed at the next
 * login, the SO's included, as are the trusted ones the SO makes: an
 * edit after that (a label, a trust flag dropped, a value replaced) is
 * caught at the user's login.
 */
static void
test_certificates(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_OBJECT_HANDLE pending, trusted;
	char buf[32];

	(void)state;
	pending = cert(h, "pending", CK_FALSE);
	(void)cert(h, "kept", CK_FALSE);
	away();
	h = so();
	trusted = cert(h, "trusted", CK_TRUE);
	away();
	attack_attr(pending, CKA_LABEL, "evil", 4);
	attack_attr(trusted, CKA_TRUSTED, &no, 1);
	h = user();
	assert_rv(get_value(h, pending, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_rv(get_value(h, trusted, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_int_equal(count_label(h, "evil"), 0);
	assert_int_equal(count_label(h, "trusted"), 0);
	assert_int_equal(count_label(h, "kept"), 1);
	away();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_destroy_tampered, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_later_key_types, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_certificates, setup,
		    teardown),
	};

	/* The module logs to stderr, where log_start catches it. */
	setenv("VG_LOG", "error", 1);
	if (p11_private_data_dir() != 0 || p11_load() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
