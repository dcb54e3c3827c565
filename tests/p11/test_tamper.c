/*
 * The object database does not trust its own file. Each test plays an
 * attacker who can write the data directory but knows no PIN: with the
 * user logged out, it edits vgtoken.db through SQLite's own API (never
 * through the module), then the user logs in again and the module must
 * refuse what was changed, name it in the log, and keep every other
 * object working.
 *
 * The attacker's edits are written for both store formats (version 1:
 * one row per attribute; version 2: one body per object, see
 * token/seal.c), so this program also shows each attack succeeding
 * against a module of vgtoken 0.1 (VG_MODULE naming its library).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "tests/p11/tamper_common.h"

/* ------------------------------------------------------- the attacks */

/* Attack 1 of issue 18: a secret key's encrypted CKA_SENSITIVE and
 * CKA_EXTRACTABLE rows replaced by plain false / true. */
static void
test_unsensitive_secret(void **state)
{
	static const uint8_t key[16] = "0123456789abcdef";
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE k, other;
	char buf[64];
	const char *log;
	CK_RV rv;

	(void)state;
	k = secret(h, CKK_AES, "aes", key, sizeof(key), CK_FALSE);
	other = secret(h, CKK_AES, "aes-2", key, sizeof(key), CK_FALSE);
	away();
	attack_attr(k, CKA_SENSITIVE, &no, 1);
	attack_attr(k, CKA_EXTRACTABLE, &yes, 1);
	restart();
	h = user();
	k = ROW(k);
	other = ROW(other);
	log_start();
	rv = get_value(h, k, buf, sizeof(buf));
	log = log_end();
	assert_rv(rv, CKR_DEVICE_ERROR);
	assert_true(memcmp(buf, key, sizeof(key)) != 0);
	assert_logged(log, k);
	/* Left out of searches; the other key is as it was. */
	assert_int_equal(count_label(h, "aes"), 0);
	assert_int_equal(count_label(h, "aes-2"), 1);
	assert_rv(get_value(h, other, buf, sizeof(buf)),
	    CKR_ATTRIBUTE_SENSITIVE);
	away();
}

/* Attack 2: a plain CKA_VALUE of the attacker's written into an EC
 * private key and an HMAC key: neither signs. */
static void
test_planted_value(void **state)
{
	static const uint8_t scalar[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const uint8_t hkey[32] = "attacker's hmac key...........";
	static const uint8_t mine[32] = "the user's own hmac key........";
	CK_MECHANISM ecdsa = { CKM_ECDSA, NULL, 0 };
	CK_MECHANISM hmac = { CKM_SHA256_HMAC, NULL, 0 };
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE pub, priv, mac;

	(void)state;
	ec_pair(h, "ec", NULL, 0, &pub, &priv);
	mac = secret(h, CKK_GENERIC_SECRET, "hmac", mine, sizeof(mine),
	    CK_TRUE);
	away();
	attack_attr(priv, CKA_VALUE, scalar, sizeof(scalar));
	attack_attr(mac, CKA_VALUE, hkey, sizeof(hkey));
	restart();
	h = user();
	priv = ROW(priv);
	mac = ROW(mac);
	assert_rv(p11->C_SignInit(h, &ecdsa, priv), CKR_DEVICE_ERROR);
	assert_rv(p11->C_SignInit(h, &hmac, mac), CKR_DEVICE_ERROR);
	/* The public key is untouched and still verifies. */
	assert_rv(p11->C_VerifyInit(h, &ecdsa, pub), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_VERIFY), CKR_OK);
	away();
}

/* Attack 3: the CKA_ALWAYS_AUTHENTICATE and CKA_ALLOWED_MECHANISMS rows
 * of a private key deleted. */
static void
test_dropped_restrictions(void **state)
{
	CK_MECHANISM_TYPE only = CKM_ECDSA;
	CK_ATTRIBUTE extra[] = {
		{ CKA_ALLOWED_MECHANISMS, &only, sizeof(only) },
		{ CKA_ALWAYS_AUTHENTICATE, &yes, 1 },
	};
	CK_MECHANISM ecdsa = { CKM_ECDSA, NULL, 0 };
	CK_MECHANISM sha = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE pub, priv;
	uint8_t sig[64], hash[32] = { 0 };
	CK_ULONG slen = sizeof(sig);

	(void)state;
	ec_pair(h, "restricted", extra, 2, &pub, &priv);
	/* As made: the other mechanism is refused, signing needs the PIN
	 * again. */
	assert_rv(p11->C_SignInit(h, &sha, priv),
	    CKR_MECHANISM_INVALID);
	assert_rv(p11->C_SignInit(h, &ecdsa, priv), CKR_OK);
	assert_rv(p11->C_Sign(h, hash, sizeof(hash), sig, &slen),
	    CKR_USER_NOT_LOGGED_IN);
	away();
	attack_attr(priv, CKA_ALLOWED_MECHANISMS, NULL, 0);
	attack_attr(priv, CKA_ALWAYS_AUTHENTICATE, NULL, 0);
	restart();
	h = user();
	priv = ROW(priv);
	assert_rv(p11->C_SignInit(h, &sha, priv), CKR_DEVICE_ERROR);
	assert_rv(p11->C_SignInit(h, &ecdsa, priv), CKR_DEVICE_ERROR);
	away();
}

/* The iteration count the user PIN's wrap uses, as stored. */
static long
user_wrap_iterations(void)
{
	sqlite3 *db = db_open();
	sqlite3_stmt *st;
	const uint8_t *w;
	long it = -1;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT user_wrap, "
	    "iterations FROM tokens", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	w = sqlite3_column_blob(st, 0);
	if (sqlite3_column_bytes(st, 0) == 60)
		it = (long)sqlite3_column_int64(st, 1);
	else if (sqlite3_column_bytes(st, 0) == 65 && w[0] == 2)
		it = (long)rd(w + 1, 4);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return it;
}

/* Attack 4: tokens.iterations lowered; the SO then sets the user PIN
 * (and the user changes it): the new wraps keep the configured count. */
static void
test_lowered_iterations(void **state)
{
	CK_SESSION_HANDLE h;

	(void)state;
	assert_true(user_wrap_iterations() >= 1000);
	h = so();
	sqlf("UPDATE tokens SET iterations = 1");
	assert_rv(p11->C_InitPIN(h, (CK_UTF8CHAR_PTR)"new-pin-22", 10),
	    CKR_OK);
	away();
	assert_true(user_wrap_iterations() >= 1000);
	h = open_rw();
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)"new-pin-22",
	    10), CKR_OK);
	sqlf("UPDATE tokens SET iterations = 1");
	assert_rv(p11->C_SetPIN(h, (CK_UTF8CHAR_PTR)"new-pin-22", 10,
	    (CK_UTF8CHAR_PTR)P11_USER_PIN, strlen(P11_USER_PIN)), CKR_OK);
	away();
	assert_true(user_wrap_iterations() >= 1000);
	away();
}

/* Rewrites the iteration count in the user PIN's version 2 wrap. */
static void
set_wrap_iterations(uint32_t it)
{
	sqlite3 *db = db_open();
	sqlite3_stmt *st;
	uint8_t w[65];

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT user_wrap FROM "
	    "tokens", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_bytes(st, 0), 65);
	memcpy(w, sqlite3_column_blob(st, 0), 65);
	sqlite3_finalize(st);
	wr(w + 1, it, 4);
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE tokens SET user_wrap "
	    "= ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_blob(st, 1, w, 65, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* A wrap's iteration count is part of what it authenticates: a lower
 * count than the configuration allows is refused before the PIN is
 * tried (and not counted), another one fails as a wrong PIN would. */
static void
test_wrap_header(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_TOKEN_INFO ti;
	sqlite3 *db = db_open();
	int v2 = format(db) == 2;

	(void)state;
	sqlite3_close(db);
	if (!v2) {
		printf("# SKIP wrap header: a version 1 store has none\n");
		skip();
	}
	set_wrap_iterations(1);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_DEVICE_ERROR);
	assert_rv(p11->C_GetTokenInfo(slot, &ti), CKR_OK);
	assert_int_equal(ti.flags & CKF_USER_PIN_COUNT_LOW, 0);
	set_wrap_iterations(2001);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_PIN_INCORRECT);
	away();
}

/* Rows moved: one object's stored parts copied over another's, and an
 * object moved to another token. */
static void
test_moved(void **state)
{
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE a, b, c, p;
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4;
	CK_UTF8CHAR lab[32];
	char buf[32];

	(void)state;
	a = data(h, "alpha", CK_TRUE, CK_FALSE, "value a");
	b = data(h, "beta", CK_TRUE, CK_FALSE, "value b");
	c = data(h, "gamma", CK_TRUE, CK_FALSE, "value c");
	p = data(h, "private", CK_TRUE, CK_TRUE, "value p");
	away();
	attack_copy(a, b);
	attack_copy(p, c);
	restart();
	h = user();
	p = ROW(p);
	assert_rv(get_value(h, b, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_rv(get_value(h, c, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_rv(get_value(h, a, buf, sizeof(buf)), CKR_OK);
	assert_string_equal(buf, "value a");
	assert_int_equal(count_label(h, "alpha"), 1);
	assert_rv(get_value(h, p, buf, sizeof(buf)), CKR_OK);
	away();

	/* A second token; object a moves there. */
	assert_rv(p11->C_GetSlotList(CK_FALSE, ids, &n), CKR_OK);
	assert_int_equal(n, 2);
	memset(lab, ' ', sizeof(lab));
	memcpy(lab, "second", 6);
	assert_rv(p11->C_InitToken(ids[1], (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN), lab), CKR_OK);
	sqlf("UPDATE objects SET token_id = %lu WHERE id = %lld",
	    (unsigned long)ids[1], (long long)ROW(a));
	assert_rv(p11->C_OpenSession(ids[1], CKF_SERIAL_SESSION |
	    CKF_RW_SESSION, NULL, NULL, &h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN)), CKR_OK);
	assert_int_equal(count_label(h, "alpha"), 0);
	assert_rv(get_value(h, a, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	away();
	assert_rv(p11->C_CloseAllSessions(ids[1]), CKR_OK);
}

/* Encrypted turned into plain: a private object's label in the clear. */
static void
test_decrypted(void **state)
{
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE p;
	char buf[32];

	(void)state;
	p = data(h, "hidden", CK_TRUE, CK_TRUE, "value p");
	away();
	attack_attr(p, CKA_LABEL, "shown", 5);
	restart();
	h = user();
	p = ROW(p);
	assert_rv(get_value(h, p, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_int_equal(count_label(h, "hidden"), 0);
	assert_int_equal(count_label(h, "shown"), 0);
	away();
}

/* A sealed public object: its seal stripped and its value changed. */
static void
test_unsealed(void **state)
{
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE o;
	char buf[32];
	sqlite3 *db;
	int v2;

	(void)state;
	o = data(h, "public", CK_TRUE, CK_FALSE, "as made");
	away();
	db = db_open();
	v2 = format(db) == 2;
	sqlite3_close(db);
	if (v2)
		sqlf("UPDATE objects SET seal = NULL WHERE id = %lld",
		    (long long)ROW(o));
	attack_attr(o, CKA_VALUE, "changed", 7);
	h = user();
	assert_rv(get_value(h, o, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_int_equal(count_label(h, "public"), 0);
	away();
}

/* Objects made without a login cannot be sealed then; they are at the
 * next login, after which an edit is caught. A sealed object cannot be
 * changed without a login. */
static void
test_made_without_login(void **state)
{
	CK_SESSION_HANDLE h = open_rw();
	CK_ATTRIBUTE lab = { CKA_LABEL, "renamed", 7 };
	CK_OBJECT_HANDLE o, s;
	char buf[32];

	(void)state;
	o = data(h, "public", CK_TRUE, CK_FALSE, "as made");
	assert_rv(get_value(h, o, buf, sizeof(buf)), CKR_OK);
	assert_rv(p11->C_SetAttributeValue(h, o, &lab, 1), CKR_OK);
	away();
	h = user();
	assert_rv(get_value(h, o, buf, sizeof(buf)), CKR_OK);
	assert_string_equal(buf, "as made");
	s = data(h, "sealed", CK_TRUE, CK_FALSE, "sealed");
	away();
	h = open_rw();
	assert_rv(p11->C_SetAttributeValue(h, o, &lab, 1),
	    CKR_USER_NOT_LOGGED_IN);
	assert_rv(p11->C_SetAttributeValue(h, s, &lab, 1),
	    CKR_USER_NOT_LOGGED_IN);
	assert_rv(p11->C_DestroyObject(h, s), CKR_OK);
	away();
	attack_attr(o, CKA_VALUE, "changed", 7);
	h = user();
	assert_rv(get_value(h, o, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	away();
}

/* Rows added by the attacker that the module would only write sealed:
 * a trusted certificate and a private object. */
static void
test_forged_rows(void **state)
{
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE o, cert, priv;
	CK_OBJECT_CLASS cc = CKO_CERTIFICATE;
	CK_ATTRIBUTE t = { CKA_CLASS, &cc, sizeof(cc) };
	CK_OBJECT_HANDLE out[8];
	CK_ULONG n = 0;
	char buf[32];
	sqlite3 *db;
	int v2;

	(void)state;
	o = data(h, "template", CK_TRUE, CK_FALSE, "x");
	away();
	db = db_open();
	v2 = format(db) == 2;
	sqlite3_close(db);
	if (!v2) {
		printf("# SKIP forged rows: written for a version 2 store\n");
		skip();
	}
	/* Copies of the public object's row, unsealed, one turned into a
	 * trusted certificate, one made private. */
	sqlf("INSERT INTO objects (token_id, class, key_type, private, "
	    "label_idx, id_idx, body, seal) SELECT token_id, %lu, NULL, 0, "
	    "label_idx, id_idx, body, NULL FROM objects WHERE id = %lld",
	    (unsigned long)CKO_CERTIFICATE, (long long)ROW(o));
	cert = ROW(o) + 1;
	attack_attr(cert, CKA_CLASS, &cc, sizeof(cc));
	attack_attr(cert, CKA_TRUSTED, &yes, 1);
	sqlf("INSERT INTO objects (token_id, class, key_type, private, "
	    "label_idx, id_idx, body, seal) SELECT token_id, class, NULL, 1, "
	    "label_idx, id_idx, body, NULL FROM objects WHERE id = %lld",
	    (long long)ROW(o));
	priv = ROW(o) + 2;
	attack_attr(priv, CKA_PRIVATE, &yes, 1);
	restart();
	h = user();
	assert_rv(p11->C_FindObjectsInit(h, &t, 1), CKR_OK);
	assert_rv(p11->C_FindObjects(h, out, 8, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	assert_int_equal(n, 0);
	assert_rv(get_value(h, cert, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_rv(get_value(h, priv, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	assert_rv(get_value(h, o, buf, sizeof(buf)), CKR_OK);
	away();
}

/* The token's seal record deleted: sealed objects still work, unsealed
 * ones do not, and the record is made again over them. */
static void
test_seal_record(void **state)
{
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE sealed, later, after;
	char buf[32];
	sqlite3 *db;
	int v2;

	(void)state;
	sealed = data(h, "sealed", CK_TRUE, CK_FALSE, "s");
	away();
	db = db_open();
	v2 = format(db) == 2;
	sqlite3_close(db);
	if (!v2) {
		printf("# SKIP seal record: a version 1 store has none\n");
		skip();
	}
	h = open_rw();
	later = data(h, "later", CK_TRUE, CK_FALSE, "l");
	away();
	sqlf("UPDATE tokens SET seal = NULL");
	h = user();
	assert_rv(get_value(h, sealed, buf, sizeof(buf)), CKR_OK);
	assert_rv(get_value(h, later, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	away();
	h = open_rw();
	after = data(h, "after", CK_TRUE, CK_FALSE, "a");
	away();
	h = user();
	assert_rv(get_value(h, after, buf, sizeof(buf)), CKR_OK);
	assert_rv(get_value(h, later, buf, sizeof(buf)), CKR_DEVICE_ERROR);
	away();
}

/* C_Logout: handles to private objects stay invalid after the next
 * login, private session objects are destroyed, public ones stay. */
static void
test_logout_handles(void **state)
{
	CK_SESSION_HANDLE h = user();
	CK_OBJECT_HANDLE tok, ses, pub, found[4];
	CK_ATTRIBUTE t = { CKA_LABEL, "tok", 3 };
	CK_ULONG n = 0;
	char buf[32];

	(void)state;
	tok = data(h, "tok", CK_TRUE, CK_TRUE, "t");
	ses = data(h, "ses", CK_FALSE, CK_TRUE, "s");
	pub = data(h, "pub", CK_FALSE, CK_FALSE, "p");
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(get_value(h, pub, buf, sizeof(buf)), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	assert_rv(get_value(h, tok, buf, sizeof(buf)),
	    CKR_OBJECT_HANDLE_INVALID);
	assert_rv(get_value(h, ses, buf, sizeof(buf)),
	    CKR_OBJECT_HANDLE_INVALID);
	assert_int_equal(count_label(h, "ses"), 0);
	assert_rv(get_value(h, pub, buf, sizeof(buf)), CKR_OK);
	/* The token object is there, under a new handle. */
	assert_rv(p11->C_FindObjectsInit(h, &t, 1), CKR_OK);
	assert_rv(p11->C_FindObjects(h, found, 4, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	assert_int_equal(n, 1);
	assert_true(found[0] != tok);
	assert_rv(get_value(h, found[0], buf, sizeof(buf)), CKR_OK);
	assert_string_equal(buf, "t");
	away();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unsensitive_secret,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_planted_value, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dropped_restrictions,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_lowered_iterations,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap_header, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_moved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decrypted, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unsealed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_made_without_login,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_forged_rows, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_seal_record, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_logout_handles, setup,
		    teardown),
	};

	/* The module logs to stderr, where log_start catches it. */
	setenv("VG_LOG", "error", 1);
	if (p11_private_data_dir() != 0 || p11_load() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
