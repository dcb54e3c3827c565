/*
 * The tamper tests' attacker and token (tests/p11/tamper_common.c). The
 * attacker can write the data directory but knows no PIN: every edit
 * goes through SQLite's own API on vgtoken.db, never through the module,
 * and is written for both store formats (version 1: one row per
 * attribute; version 2: one body per object, see token/seal.c).
 */
#ifndef VG_TESTS_TAMPER_COMMON_H
#define VG_TESTS_TAMPER_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "tests/p11/common.h"

/* The row ID of an object handle. */
#define ROW(h) ((int64_t)((h) & (((CK_OBJECT_HANDLE)1 << 40) - 1)))

extern char dir[64];
extern CK_SLOT_ID slot;
extern CK_BBOOL yes, no;

/* ---- the attacker */
sqlite3 *db_open(void);
/* Runs one printf-formatted statement. */
void sqlf(const char *fmt, ...);
/* The store's format: 1 (attribute rows) or 2 (bodies). */
int format(sqlite3 *db);
/* Big-endian n-byte integers. */
uint64_t rd(const uint8_t *p, int n);
void wr(uint8_t *p, uint64_t v, int n);
/* Attribute t of object h becomes the plain value v (len bytes), or
 * goes (v NULL), keeping every other row, and the seal, as they are. */
void attack_attr(CK_OBJECT_HANDLE h, CK_ATTRIBUTE_TYPE t, const void *v,
    size_t len);
/* Object to takes every stored part of object from. */
void attack_copy(CK_OBJECT_HANDLE from, CK_OBJECT_HANDLE to);

/* ---- the token: a fresh one per test with both PINs set */
int setup(void **state);
int teardown(void **state);
CK_SESSION_HANDLE open_rw(void);
CK_SESSION_HANDLE user(void);
CK_SESSION_HANDLE so(void);
/* Ends every session: the user is logged out. */
void away(void);
/* C_Finalize and C_Initialize: handles of private objects are their row
 * IDs again until the user's first logout (ROW). */
void restart(void);
CK_OBJECT_HANDLE secret(CK_SESSION_HANDLE h, CK_KEY_TYPE kt,
    const char *label, const void *value, size_t len, CK_BBOOL sign);
CK_OBJECT_HANDLE data(CK_SESSION_HANDLE h, const char *label,
    CK_BBOOL token, CK_BBOOL private_obj, const char *value);
/* An EC P-256 key pair on the token; n extra attributes for the private
 * key. */
void ec_pair(CK_SESSION_HANDLE h, const char *label,
    const CK_ATTRIBUTE *extra, CK_ULONG n, CK_OBJECT_HANDLE *pub,
    CK_OBJECT_HANDLE *priv);
/* Number of objects a search for label finds. */
CK_ULONG count_label(CK_SESSION_HANDLE h, const char *label);
CK_RV get_value(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, char *buf,
    size_t size);
/* The module's log between log_start and log_end (stderr captured;
 * VG_LOG=error is set for the whole program); assert_logged fails unless
 * it names object o. */
void log_start(void);
const char *log_end(void);
void assert_logged(const char *log, CK_OBJECT_HANDLE o);

#endif
