/*
 * The attacker and the token of the tamper tests (test_tamper.c,
 * test_tamper_keys.c): edits of vgtoken.db through SQLite's own API,
 * never through the module, for both store formats; see
 * tamper_common.h.
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

char dir[64];
CK_SLOT_ID slot;
CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

/* ------------------------------------------------------- the attacker */

sqlite3 *
db_open(void)
{
	char path[128];
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s/vgtoken/vgtoken.db", dir);
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	return db;
}

void
sqlf(const char *fmt, ...)
{
	char stmt[512];
	char *err = NULL;
	sqlite3 *db = db_open();
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(stmt, sizeof(stmt), fmt, ap);
	va_end(ap);
	if (sqlite3_exec(db, stmt, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s", stmt, err);
	sqlite3_close(db);
}

/* The store's format: 1 (attribute rows) or 2 (bodies). */
int
format(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v1;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM "
	    "sqlite_master WHERE name = 'attributes'", -1, &st, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v1 = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v1 ? 1 : 2;
}

/* A version 2 body, decoded by the attacker. */
struct item {
	uint64_t type;
	int enc;
	uint8_t v[8192];
	size_t len;
};
struct body {
	struct item it[96];
	size_t n;
};

uint64_t
rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

void
wr(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static void
body_read(sqlite3 *db, int64_t id, struct body *b)
{
	sqlite3_stmt *st;
	const uint8_t *p;
	size_t len, pos = 8, i;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT body FROM objects "
	    "WHERE id = ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	p = sqlite3_column_blob(st, 0);
	len = (size_t)sqlite3_column_bytes(st, 0);
	assert_true(len >= 8 && memcmp(p, "VGB\x02", 4) == 0);
	b->n = (size_t)rd(p + 4, 4);
	assert_true(b->n <= 96);
	for (i = 0; i < b->n; i++) {
		struct item *it = &b->it[i];

		it->type = rd(p + pos, 8);
		it->enc = p[pos + 8];
		it->len = (size_t)rd(p + pos + 9, 4);
		assert_true(it->len <= sizeof(it->v));
		memcpy(it->v, p + pos + 13, it->len);
		pos += 13 + it->len;
	}
	assert_int_equal(pos, len);
	sqlite3_finalize(st);
}

static void
body_write(sqlite3 *db, int64_t id, const struct body *b)
{
	static uint8_t buf[96 * (13 + 8192) + 8];
	sqlite3_stmt *st;
	size_t pos = 8, i;

	memcpy(buf, "VGB\x02", 4);
	wr(buf + 4, b->n, 4);
	for (i = 0; i < b->n; i++) {
		wr(buf + pos, b->it[i].type, 8);
		buf[pos + 8] = (uint8_t)b->it[i].enc;
		wr(buf + pos + 9, b->it[i].len, 4);
		memcpy(buf + pos + 13, b->it[i].v, b->it[i].len);
		pos += 13 + b->it[i].len;
	}
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE objects SET body = ? "
	    "WHERE id = ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_blob(st, 1, buf, (int)pos, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
}

/* Attribute t of object h becomes the plain value v (len bytes), or
 * goes (v NULL), keeping every other row, and the seal, as they are. */
void
attack_attr(CK_OBJECT_HANDLE h, CK_ATTRIBUTE_TYPE t, const void *v,
    size_t len)
{
	sqlite3 *db = db_open();
	sqlite3_stmt *st;
	struct body *b;
	size_t i, at;

	if (format(db) == 1) {
		assert_int_equal(sqlite3_prepare_v2(db, v != NULL
		    ? "INSERT OR REPLACE INTO attributes (object_id, type, "
		      "encrypted, value) VALUES (?1, ?2, 0, ?3)"
		    : "DELETE FROM attributes WHERE object_id = ?1 AND "
		      "type = ?2", -1, &st, NULL), SQLITE_OK);
		sqlite3_bind_int64(st, 1, ROW(h));
		sqlite3_bind_int64(st, 2, (sqlite3_int64)t);
		if (v != NULL)
			sqlite3_bind_blob(st, 3, v, (int)len, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_finalize(st);
		sqlite3_close(db);
		return;
	}
	b = calloc(1, sizeof(*b));
	assert_non_null(b);
	body_read(db, ROW(h), b);
	for (at = 0; at < b->n && b->it[at].type < t; at++)
		;
	if (at < b->n && b->it[at].type == t) {
		memmove(&b->it[at], &b->it[at + 1],
		    (b->n - at - 1) * sizeof(b->it[0]));
		b->n--;
	}
	if (v != NULL) {
		for (i = b->n; i > at; i--)
			b->it[i] = b->it[i - 1];
		b->it[at].type = t;
		b->it[at].enc = 0;
		b->it[at].len = len;
		memcpy(b->it[at].v, v, len);
		b->n++;
	}
	body_write(db, ROW(h), b);
	free(b);
	sqlite3_close(db);
}

/* Object to takes every stored part of object from (in version 2: the
 * whole row but its ID and token). */
void
attack_copy(CK_OBJECT_HANDLE from, CK_OBJECT_HANDLE to)
{
	sqlite3 *db = db_open();
	int v1 = format(db) == 1;

	sqlite3_close(db);
	if (v1) {
		sqlf("DELETE FROM attributes WHERE object_id = %lld",
		    (long long)ROW(to));
		sqlf("INSERT INTO attributes SELECT %lld, type, encrypted, "
		    "value FROM attributes WHERE object_id = %lld",
		    (long long)ROW(to), (long long)ROW(from));
	} else {
		sqlf("UPDATE objects SET (class, key_type, private, label_idx, "
		    "id_idx, body, seal) = (SELECT class, key_type, private, "
		    "label_idx, id_idx, body, seal FROM objects WHERE id = "
		    "%lld) WHERE id = %lld", (long long)ROW(from),
		    (long long)ROW(to));
	}
}

/* ------------------------------------------------------- the token */

int
setup(void **state)
{
	CK_SESSION_HANDLE h;

	(void)state;
	if (p11_fresh_user_session(dir, "tamper", &slot, &h) != 0)
		return -1;
	return p11->C_CloseSession(h) == CKR_OK ? 0 : -1;
}

int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

CK_SESSION_HANDLE
open_rw(void)
{
	CK_SESSION_HANDLE h;

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), CKR_OK);
	return h;
}

CK_SESSION_HANDLE
user(void)
{
	CK_SESSION_HANDLE h = open_rw();

	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	return h;
}

CK_SESSION_HANDLE
so(void)
{
	CK_SESSION_HANDLE h = open_rw();

	assert_rv(p11->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN)), CKR_OK);
	return h;
}

/* Ends every session: the user is logged out. */
void
away(void)
{
	assert_rv(p11->C_CloseAllSessions(slot), CKR_OK);
}

/* The application ends (the attacker edits the file meanwhile) and
 * starts again: handles of private objects are their row IDs again until
 * the user's first logout (ROW). */
void
restart(void)
{
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
}

CK_OBJECT_HANDLE
secret(CK_SESSION_HANDLE h, CK_KEY_TYPE kt, const char *label,
    const void *value, size_t len, CK_BBOOL sign)
{
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c, sizeof(c) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
		{ CKA_SIGN, &sign, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)value, len },
	};
	CK_OBJECT_HANDLE k;

	assert_rv(p11->C_CreateObject(h, t, 8, &k), CKR_OK);
	return k;
}

CK_OBJECT_HANDLE
data(CK_SESSION_HANDLE h, const char *label, CK_BBOOL token,
    CK_BBOOL private_obj, const char *value)
{
	CK_OBJECT_CLASS c = CKO_DATA;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c, sizeof(c) },
		{ CKA_TOKEN, &token, 1 },
		{ CKA_PRIVATE, &private_obj, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)value, strlen(value) },
	};
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
	return o;
}

/* An EC P-256 key pair on the token; extra attributes for the private
 * key (n of them). */
void
ec_pair(CK_SESSION_HANDLE h, const char *label, const CK_ATTRIBUTE *extra,
    CK_ULONG n, CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
		0x3d, 0x03, 0x01, 0x07 };
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[8] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};
	CK_ULONG i;

	for (i = 0; i < n; i++)
		kt[3 + i] = extra[i];
	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 3, kt, 3 + n, pub, priv),
	    CKR_OK);
}

/* Number of objects a search for label finds. */
CK_ULONG
count_label(CK_SESSION_HANDLE h, const char *label)
{
	CK_ATTRIBUTE t = { CKA_LABEL, (void *)label, strlen(label) };
	CK_OBJECT_HANDLE out[8];
	CK_ULONG n = 0;

	assert_rv(p11->C_FindObjectsInit(h, &t, 1), CKR_OK);
	assert_rv(p11->C_FindObjects(h, out, 8, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return n;
}

CK_RV
get_value(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, char *buf, size_t size)
{
	CK_ATTRIBUTE a = { CKA_VALUE, buf, size };
	CK_RV rv;

	memset(buf, 0, size);
	rv = p11->C_GetAttributeValue(h, o, &a, 1);
	return rv;
}

/* The module's log of a call, captured from stderr (VG_LOG=error is
 * set for the whole program). */
static char logbuf[8192];
static int saved_fd = -1;
static FILE *logf_;

void
log_start(void)
{
	fflush(stderr);
	logf_ = tmpfile();
	assert_non_null(logf_);
	saved_fd = dup(2);
	assert_true(saved_fd >= 0);
	assert_int_equal(dup2(fileno(logf_), 2), 2);
}

const char *
log_end(void)
{
	size_t n;

	fflush(stderr);
	assert_int_equal(dup2(saved_fd, 2), 2);
	close(saved_fd);
	rewind(logf_);
	n = fread(logbuf, 1, sizeof(logbuf) - 1, logf_);
	logbuf[n] = '\0';
	fclose(logf_);
	return logbuf;
}

void
assert_logged(const char *log, CK_OBJECT_HANDLE o)
{
	char want[48];

	snprintf(want, sizeof(want), "object %lld:", (long long)ROW(o));
	if (strstr(log, want) == NULL)
		fail_msg("the log does not name %s: %s", want, log);
}
