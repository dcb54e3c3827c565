/*
 * The object database: one SQLite file for the installation
 * (data_dir/vgtoken.db), opened once per C_Initialize and used under the
 * module lock. WAL mode lets several processes share it; PRAGMA
 * data_version tells whether another connection committed since we last
 * looked, so caches are refreshed without rescanning. Asking costs a read
 * transaction (four fcntl locks, about 4 us), more than an ECDSA
 * signature's whole PKCS#11 overhead, and every operation's Init asks;
 * so the WAL-index header that SQLite keeps in shared memory is compared
 * first, and the pragma runs only when it has changed (see
 * vg_db_changed). The header the caches were last refreshed up to is
 * also published for readers without the module lock
 * (vg_db_unchanged_nolock: a key cache lookup that finds the store
 * unchanged takes no lock at all).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "token/token.h"

#define SCHEMA_VERSION 2

/* Version 1. Every statement is idempotent so that a half-created database
 * (a crash during creation) is completed on the next open. */
static const char schema_v1[] =
    "CREATE TABLE IF NOT EXISTS meta ("
    "  key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tokens ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  label BLOB NOT NULL,"
    "  serial TEXT NOT NULL UNIQUE,"
    "  flags INTEGER NOT NULL,"
    "  iterations INTEGER NOT NULL,"
    "  so_salt BLOB NOT NULL, so_wrap BLOB NOT NULL,"
    "  user_salt BLOB, user_wrap BLOB,"
    "  so_fails INTEGER NOT NULL DEFAULT 0,"
    "  user_fails INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS objects ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  token_id INTEGER NOT NULL REFERENCES tokens(id) ON DELETE CASCADE,"
    "  class INTEGER NOT NULL,"
    "  key_type INTEGER,"
    "  private INTEGER NOT NULL,"
    "  label_idx BLOB,"
    "  id_idx BLOB);"
    "CREATE INDEX IF NOT EXISTS objects_class ON objects(token_id, class, key_type);"
    "CREATE INDEX IF NOT EXISTS objects_label ON objects(token_id, label_idx);"
    "CREATE INDEX IF NOT EXISTS objects_ckaid ON objects(token_id, id_idx);"
    "CREATE TABLE IF NOT EXISTS attributes ("
    "  object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,"
    "  type INTEGER NOT NULL,"
    "  encrypted INTEGER NOT NULL,"
    "  value BLOB NOT NULL,"
    "  PRIMARY KEY (object_id, type)) WITHOUT ROWID;";

/* Version 2: each object is one row with every attribute in its body
 * and a seal (token/seal.c); the token row has a seal record. From
 * version 1 the attribute rows are moved into the bodies (see
 * move_attributes); nothing needs a key, and sealing waits for the
 * token's first login. */
static const char schema_v2[] =
    "ALTER TABLE objects ADD COLUMN body BLOB NOT NULL DEFAULT x'';"
    "ALTER TABLE objects ADD COLUMN seal BLOB;"
    "ALTER TABLE tokens ADD COLUMN seal BLOB;"
    "CREATE INDEX objects_unsealed ON objects(token_id, id) "
    "  WHERE seal IS NULL;";

static const char *const sync_pragmas[] = {
	"PRAGMA synchronous=OFF", "PRAGMA synchronous=NORMAL",
	"PRAGMA synchronous=FULL", "PRAGMA synchronous=EXTRA",
};

/* The return value for the connection's last failure: a full disk and a
 * read-only database have their own. */
static CK_RV
failure_rv(struct vg_db *db)
{
	switch (db->h != NULL ? sqlite3_errcode(db->h) : SQLITE_ERROR) {
	case SQLITE_FULL:
		return CKR_DEVICE_MEMORY;
	case SQLITE_READONLY:
		return CKR_TOKEN_WRITE_PROTECTED;
	default:
		return CKR_DEVICE_ERROR;
	}
}

/* Logs SQLite's message for a failed call and returns CKR_DEVICE_ERROR,
 * CKR_DEVICE_MEMORY (disk full) or CKR_TOKEN_WRITE_PROTECTED. */
CK_RV
vg_db_error(struct vg_db *db, const char *what)
{
	VG_LOG(VG_LOG_ERROR, "database: %s: %s", what,
	    db->h != NULL ? sqlite3_errmsg(db->h) : "not open");
	return failure_rv(db);
}

/* see token/token.h */
CK_RV
vg_db_exec(struct vg_db *db, const char *sql)
{
	char *msg = NULL;
	CK_RV rv = CKR_OK;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		VG_LOG(VG_LOG_ERROR, "database: %s", msg ? msg : "error");
		sqlite3_free(msg);
		rv = failure_rv(db);
	}
	return rv;
}

/* see token/token.h */
CK_RV
vg_db_prepare(struct vg_db *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK)
		return vg_db_error(db, "prepare");
	return CKR_OK;
}

/* FNV-1a, to compare cached statements' SQL quickly. */
static uint32_t
sql_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* see token/token.h */
CK_RV
vg_db_cached(struct vg_db *db, const char *sql, sqlite3_stmt **st)
{
	uint32_t h = sql_hash(sql);
	struct vg_db_stmt *c;
	size_t i;

	*st = NULL;
	for (i = 0; i < db->nstmts; i++) {
		c = &db->stmts[i];
		if (c->hash == h && strcmp(c->sql, sql) == 0) {
			*st = c->st;
			return CKR_OK;
		}
	}
	if (db->nstmts == VG_DB_STMTS)
		return vg_db_prepare(db, sql, st);
	c = &db->stmts[db->nstmts];
	c->sql = strdup(sql);
	if (c->sql == NULL)
		return CKR_HOST_MEMORY;
	if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT,
	    &c->st, NULL) != SQLITE_OK) {
		free(c->sql);
		c->sql = NULL;
		return vg_db_error(db, "prepare");
	}
	c->hash = h;
	db->nstmts++;
	*st = c->st;
	return CKR_OK;
}

/* see token/token.h */
void
vg_db_release(struct vg_db *db, sqlite3_stmt *st)
{
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < db->nstmts; i++) {
		if (db->stmts[i].st == st) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			return;
		}
	}
	sqlite3_finalize(st);
}

/* Creates each missing directory of path with mode 0700. */
static int
make_dirs(const char *path)
{
	char buf[PATH_MAX];
	size_t i;

	if (strlen(path) >= sizeof(buf))
		return -1;
	strcpy(buf, path);
	for (i = 1; buf[i] != '\0'; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST)
			return -1;
		buf[i] = '/';
	}
	if (mkdir(buf, 0700) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

static CK_RV
schema_version(struct vg_db *db, long *version)
{
	sqlite3_stmt *st = NULL;
	CK_RV rv;

	*version = 0;
	rv = vg_db_prepare(db,
	    "SELECT value FROM meta WHERE key = 'schema_version'", &st);
	if (rv != CKR_OK)
		return rv;
	if (sqlite3_step(st) == SQLITE_ROW)
		*version = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return CKR_OK;
}

struct attr_row {
	uint64_t type;
	int encrypted;
	uint8_t *value;
	size_t len;
};

static int
cmp_attr_row(const void *a, const void *b)
{
	uint64_t x = ((const struct attr_row *)a)->type;
	uint64_t y = ((const struct attr_row *)b)->type;

	return x < y ? -1 : x > y;
}

static void
free_rows(struct attr_row *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(r[i].value); /* stored bytes: encrypted where secret */
	free(r);
}

/* The body of object id from its version 1 attribute rows. */
static CK_RV
body_of(struct vg_db *db, int64_t id, struct vg_body *b)
{
	struct attr_row *rows = NULL, *t;
	size_t n = 0, cap = 0, i;
	sqlite3_stmt *st = NULL;
	CK_RV rv;
	int r;

	rv = vg_db_prepare(db, "SELECT type, encrypted, value FROM "
	    "main.attributes WHERE object_id = ?", &st);
	if (rv != CKR_OK)
		return rv;
	sqlite3_bind_int64(st, 1, id);
	while (rv == CKR_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
		size_t len = (size_t)sqlite3_column_bytes(st, 2);

		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			t = realloc(rows, cap * sizeof(*rows));
			if (t == NULL) {
				rv = CKR_HOST_MEMORY;
				break;
			}
			rows = t;
		}
		rows[n].type = (uint64_t)sqlite3_column_int64(st, 0);
		rows[n].encrypted = sqlite3_column_int(st, 1) != 0;
		rows[n].len = len;
		rows[n].value = malloc(len ? len : 1);
		if (rows[n].value == NULL) {
			rv = CKR_HOST_MEMORY;
			break;
		}
		if (len > 0)
			memcpy(rows[n].value, sqlite3_column_blob(st, 2), len);
		n++;
	}
	if (rv == CKR_OK && r != SQLITE_DONE)
		rv = vg_db_error(db, "reading attributes");
	sqlite3_finalize(st);
	/* In the body's order: types as unsigned numbers. */
	if (rv == CKR_OK && n > 1)
		qsort(rows, n, sizeof(*rows), cmp_attr_row);
	if (rv == CKR_OK)
		rv = vg_body_start(b);
	for (i = 0; rv == CKR_OK && i < n; i++)
		rv = vg_body_add(b, (CK_ATTRIBUTE_TYPE)rows[i].type,
		    rows[i].encrypted, rows[i].value, rows[i].len);
	if (rv == CKR_OK)
		vg_body_finish(b);
	free_rows(rows, n);
	return rv;
}

/*
 * Fills the body of each row of table (objects, or a temporary copy of
 * it) from the version 1 attribute rows. The values move as stored:
 * ciphertexts stay bound to their object and type.
 */
static CK_RV
move_attributes(struct vg_db *db, const char *table)
{
	int64_t *ids = NULL, *t;
	size_t n = 0, cap = 0, i;
	sqlite3_stmt *st = NULL;
	char sql[96];
	CK_RV rv;
	int r;

	snprintf(sql, sizeof(sql), "SELECT id FROM %s", table);
	rv = vg_db_prepare(db, sql, &st);
	while (rv == CKR_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			t = realloc(ids, cap * sizeof(*ids));
			if (t == NULL) {
				rv = CKR_HOST_MEMORY;
				break;
			}
			ids = t;
		}
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	st = NULL;
	snprintf(sql, sizeof(sql), "UPDATE %s SET body = ? WHERE id = ?",
	    table);
	if (rv == CKR_OK)
		rv = vg_db_prepare(db, sql, &st);
	for (i = 0; rv == CKR_OK && i < n; i++) {
		struct vg_body b = { NULL, 0, 0, 0 };

		rv = body_of(db, ids[i], &b);
		if (rv == CKR_OK) {
			sqlite3_reset(st);
			sqlite3_bind_blob(st, 1, b.buf, (int)b.len,
			    SQLITE_STATIC);
			sqlite3_bind_int64(st, 2, ids[i]);
			if (sqlite3_step(st) != SQLITE_DONE)
				rv = vg_db_error(db, "moving attributes");
		}
		vg_body_free(&b);
	}
	sqlite3_finalize(st);
	free(ids);
	return rv;
}

/* Brings the schema to SCHEMA_VERSION in one transaction. Later versions
 * add their migration steps here, each guarded by the version it starts
 * from. */
static CK_RV
migrate(struct vg_db *db)
{
	long version = 0;
	CK_RV rv;

	rv = vg_db_exec(db, "BEGIN IMMEDIATE");
	if (rv != CKR_OK)
		return rv;
	rv = vg_db_exec(db,
	    "CREATE TABLE IF NOT EXISTS meta ("
	    "  key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
	if (rv == CKR_OK)
		rv = schema_version(db, &version);
	if (rv == CKR_OK && version > SCHEMA_VERSION) {
		VG_LOG(VG_LOG_ERROR, "database schema %ld is newer than this "
		    "library understands (%d)", version, SCHEMA_VERSION);
		rv = CKR_DEVICE_ERROR;
	}
	if (rv == CKR_OK && version < 1)
		rv = vg_db_exec(db, schema_v1);
	if (rv == CKR_OK && version < 2)
		rv = vg_db_exec(db, schema_v2);
	if (rv == CKR_OK && version < 2)
		rv = move_attributes(db, "objects");
	if (rv == CKR_OK && version < 2)
		rv = vg_db_exec(db, "DROP TABLE attributes");
	if (rv == CKR_OK && version == 1)
		VG_LOG(VG_LOG_INFO, "database upgraded to schema %d; objects "
		    "are sealed at each token's next login", SCHEMA_VERSION);
	if (rv == CKR_OK && version < SCHEMA_VERSION) {
		char sql[96];

		snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO meta "
		    "VALUES ('schema_version', %d)", SCHEMA_VERSION);
		rv = vg_db_exec(db, sql);
	}
	if (rv == CKR_OK)
		rv = vg_db_exec(db, "COMMIT");
	else
		vg_db_exec(db, "ROLLBACK");
	return rv;
}

/*
 * Finds the WAL-index header: region 0 of the -shm file as SQLite's VFS
 * has mapped it for this connection (xShmMap without extending returns
 * the existing mapping, which stays until the connection closes). Left
 * NULL where there is none (another journal mode, an immutable file, a
 * VFS without shared memory): vg_db_changed then always asks SQLite.
 */
static void
map_wal_header(struct vg_db *db)
{
	sqlite3_file *f = NULL;
	void volatile *p = NULL;
	const unsigned char *mode;
	sqlite3_stmt *st = NULL;
	int wal = 0;

	db->wal_hdr = NULL;
	db->wal_seen_ok = 0;
	__atomic_store_n(&db->pub_ok, 0, __ATOMIC_RELAXED);
	if (sqlite3_prepare_v2(db->h, "PRAGMA journal_mode", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		mode = sqlite3_column_text(st, 0);
		wal = mode != NULL && strcmp((const char *)mode, "wal") == 0;
	}
	sqlite3_finalize(st);
	if (!wal || sqlite3_file_control(db->h, "main",
	    SQLITE_FCNTL_FILE_POINTER, &f) != SQLITE_OK || f == NULL ||
	    f->pMethods == NULL || f->pMethods->iVersion < 2 ||
	    f->pMethods->xShmMap == NULL)
		return;
	if (f->pMethods->xShmMap(f, 0, 32768, 0, &p) == SQLITE_OK && p != NULL)
		db->wal_hdr = (const volatile unsigned char *)p;
}

/*
 * Copies the WAL-index header into h if it is consistent: SQLite writes
 * the second copy, then the first (with a barrier between), so reading
 * the first, then the second, and finding them equal means no update was
 * half done. Returns 1 if h holds a consistent, initialised header.
 */
static int
read_wal_header(const struct vg_db *db, unsigned char h[VG_WAL_HDR_LEN])
{
	unsigned char h2[VG_WAL_HDR_LEN];
	size_t i;

	for (i = 0; i < VG_WAL_HDR_LEN; i++)
		h[i] = db->wal_hdr[i];
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	for (i = 0; i < VG_WAL_HDR_LEN; i++)
		h2[i] = db->wal_hdr[VG_WAL_HDR_LEN + i];
	/* byte 12 is isInit */
	return memcmp(h, h2, VG_WAL_HDR_LEN) == 0 && h[12] != 0;
}

/* PRAGMA cache_size in KiB. */
static CK_RV
set_cache(struct vg_db *db, unsigned long kib)
{
	char sql[48];

	snprintf(sql, sizeof(sql), "PRAGMA cache_size=-%lu", kib);
	return vg_db_exec(db, sql);
}

/*
 * Opens an existing database that this process may not write. A reader
 * of a WAL database needs its -shm file; where that cannot be created
 * either (a read-only directory or mount), the file is opened immutable,
 * which reads the main file only.
 */
static CK_RV
open_readonly(struct vg_db *db, const char *path)
{
	static const char hex[] = "0123456789abcdef";
	char uri[3 * (PATH_MAX + 16) + 32]; /* every byte of path escaped */
	size_t n = 0;
	long version = -1;
	CK_RV rv = CKR_DEVICE_ERROR;
	int i;

	for (i = 0; i < 2 && rv != CKR_OK; i++) {
		vg_db_close(db);
		if (i == 0) {
			rv = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READONLY |
			    SQLITE_OPEN_FULLMUTEX, NULL) == SQLITE_OK
			    ? CKR_OK : CKR_DEVICE_ERROR;
		} else {
			const char *p;

			n = (size_t)snprintf(uri, sizeof(uri), "file:");
			for (p = path; *p != '\0'; p++) {
				unsigned char c = (unsigned char)*p;

				if (c == '%' || c == '?' || c == '#' ||
				    c < 0x20 || c >= 0x7f) {
					uri[n++] = '%';
					uri[n++] = hex[c >> 4];
					uri[n++] = hex[c & 15];
				} else {
					uri[n++] = (char)c;
				}
			}
			snprintf(uri + n, sizeof(uri) - n, "?immutable=1");
			rv = sqlite3_open_v2(uri, &db->h, SQLITE_OPEN_READONLY |
			    SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI, NULL) ==
			    SQLITE_OK ? CKR_OK : CKR_DEVICE_ERROR;
		}
		/* A quiet probe first: the first way may fail. */
		if (rv == CKR_OK && sqlite3_exec(db->h, "PRAGMA schema_version",
		    NULL, NULL, NULL) != SQLITE_OK)
			rv = CKR_DEVICE_ERROR;
		if (rv == CKR_OK)
			rv = schema_version(db, &version);
	}
	if (rv == CKR_OK && version != SCHEMA_VERSION && version != 1) {
		VG_LOG(VG_LOG_ERROR, "read-only database %s has schema %ld, "
		    "this library reads 1 and %d", path, version,
		    SCHEMA_VERSION);
		rv = CKR_DEVICE_ERROR;
	}
	/* Version 1 cannot be upgraded in place: temporary tables of
	 * version 2, which hide the file's, are made from it. */
	if (rv == CKR_OK && version == 1)
		rv = vg_db_exec(db, "CREATE TEMP TABLE objects AS SELECT id, "
		    "token_id, class, key_type, private, label_idx, id_idx, "
		    "x'' AS body, NULL AS seal FROM main.objects;"
		    "CREATE TEMP VIEW tokens AS SELECT *, NULL AS seal "
		    "FROM main.tokens");
	if (rv == CKR_OK && version == 1)
		rv = move_attributes(db, "temp.objects");
	if (rv != CKR_OK) {
		vg_db_close(db);
		return rv;
	}
	VG_LOG(VG_LOG_WARNING, "%s is read-only: the token can be read, "
	    "not changed", path);
	db->readonly = 1;
	db->data_version = -1;
	return CKR_OK;
}

/* 1 if path, which exists, may be read but not written by this process
 * (a read-only file or mount, an immutable file). */
static int
read_only_file(const char *path)
{
	int ro = 0;

	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0 &&
	    (errno == EACCES || errno == EROFS || errno == EPERM))
		ro = faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0;
	return ro;
}

/*
 * see token/token.h
 *
 * Only SQLite opens the file. POSIX locks belong to the process, and
 * closing any descriptor of a file drops every lock the process holds on
 * it: those of another copy of this library in the same process (loaded
 * from a second path, or beside p11-kit's proxy), whose connection shares
 * the process's one SQLite and would go on believing it holds them
 * [SQLite "How To Corrupt Your Database Files" §2.2]. Then another
 * process may take the whole database, checkpoint and delete the WAL
 * under it. So SQLite creates the file, this call gives it its mode by
 * path, and whether it may be written is asked with faccessat().
 */
CK_RV
vg_db_open(struct vg_db *db, const struct vg_config *c)
{
	char path[PATH_MAX + 16];
	struct stat st;
	int exists;
	CK_RV rv = CKR_OK;

	memset(db, 0, sizeof(*db));
	if (make_dirs(c->data_dir) != 0) {
		VG_LOG(VG_LOG_ERROR, "cannot create %s: %s", c->data_dir,
		    strerror(errno));
		rv = CKR_DEVICE_ERROR;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/vgtoken.db", c->data_dir);
	exists = lstat(path, &st) == 0;
	if (!exists && errno != ENOENT) {
		VG_LOG(VG_LOG_ERROR, "cannot open %s: %s", path,
		    strerror(errno));
		rv = CKR_DEVICE_ERROR;
		goto out;
	}
	/* Not a symbolic link either, as O_NOFOLLOW refused before: only
	 * the last component, since SQLITE_OPEN_NOFOLLOW would refuse a
	 * link anywhere in the path (a home directory behind one). */
	if (exists && !S_ISREG(st.st_mode)) {
		VG_LOG(VG_LOG_ERROR, "%s is not a regular file", path);
		rv = CKR_DEVICE_ERROR;
		goto out;
	}
	if (exists && read_only_file(path)) {
		rv = open_readonly(db, path);
		goto out;
	}
	if (sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		rv = vg_db_error(db, path);
		goto out;
	}
	/* SQLite creates the file (empty) in sqlite3_open_v2 with mode 0644
	 * less the umask; the -wal and -shm files, made later, take the
	 * database file's mode. The directory is 0700 anyway, so a failure
	 * (a file system without modes) is only worth a warning. Another
	 * process that created the file at the same moment wants 0600 too. */
	if (!exists && chmod(path, 0600) != 0)
		VG_LOG(VG_LOG_WARNING, "cannot make %s private: %s", path,
		    strerror(errno));
	/* SQLite falls back to read-only where its read-write open fails;
	 * the check above should have seen why, but not always (a race). */
	if (sqlite3_db_readonly(db->h, "main") == 1) {
		rv = open_readonly(db, path);
		goto out;
	}
	sqlite3_busy_timeout(db->h, (int)c->busy_timeout_ms);
	rv = vg_db_exec(db, "PRAGMA journal_mode=WAL");
	if (rv == CKR_OK)
		rv = vg_db_exec(db, sync_pragmas[c->sqlite_synchronous]);
	if (rv == CKR_OK)
		rv = vg_db_exec(db, "PRAGMA foreign_keys=ON");
	if (rv == CKR_OK)
		rv = vg_db_exec(db, "PRAGMA secure_delete=ON");
	if (rv == CKR_OK)
		rv = migrate(db);
	if (rv == CKR_OK) {
		db->data_version = -1;
		map_wal_header(db);
	}
out:
	/* SQLite's page cache, at most this many KiB (its default, 2 MiB,
	 * held about 3,500 objects: finding one of 10,000 by label then
	 * read pages from the file, 15.0 against 11.9 us; pages come in as
	 * they are read). */
	if (rv == CKR_OK)
		rv = set_cache(db, c->sqlite_cache_kib);
	/* open_readonly closes what it opened when it fails; closing
	 * nothing is harmless. */
	if (rv != CKR_OK)
		vg_db_close(db);
	return rv;
}

/* see token/token.h */
void
vg_db_close(struct vg_db *db)
{
	size_t i;

	db->wal_hdr = NULL;
	db->wal_seen_ok = 0;
	__atomic_store_n(&db->pub_ok, 0, __ATOMIC_RELAXED);
	sqlite3_finalize(db->dv);
	db->dv = NULL;
	for (i = 0; i < db->nstmts; i++) {
		sqlite3_finalize(db->stmts[i].st);
		free(db->stmts[i].sql);
	}
	memset(db->stmts, 0, sizeof(db->stmts));
	db->nstmts = 0;
	if (db->h != NULL)
		sqlite3_close_v2(db->h);
	db->h = NULL;
}

/*
 * see token/token.h
 *
 * Why close it: SQLite's unix VFS keeps one record per file for the whole
 * process, keyed by device and inode (os_unix.c: unixInodeInfo, and its
 * unixShmNode for the -shm file), counting the locks the process holds.
 * A forked child inherits the parent's records, which say that a SHARED
 * lock on the database and the DMS lock on the -shm file are held, but
 * not the locks themselves: fcntl() locks are not inherited. A new
 * connection of the child joins those records and takes no lock of its
 * own (unixLock only counts a SHARED lock the record already holds;
 * unixOpenSharedMemory takes the DMS lock only when it creates the
 * unixShmNode), so the parent's C_Finalize, or any other process's
 * close, takes the EXCLUSIVE lock, checkpoints and deletes the -wal and
 * -shm files under the child, whose changes then reach nobody. Closing
 * the inherited connection first drops the records (releaseInodeInfo,
 * and unixShmPurge once nothing refers to the node).
 *
 * Why the close writes nothing: under SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
 * sqlite3PagerClose (pager.c) gives sqlite3WalClose (wal.c) no buffer,
 * and sqlite3WalClose then neither asks for the EXCLUSIVE lock nor
 * checkpoints, and deletes neither file (isDelete stays 0:
 * walIndexClose and unixShmUnmap only unmap and close). PERSIST_WAL
 * would keep the WAL even if a checkpoint ran. No transaction is open:
 * the fork handlers (module.c, fork_prepare) held the module lock while
 * fork() copied the process, and every statement runs and is reset or
 * finalised under it, so the pager's rollback-and-unlock on close has
 * nothing to roll back. The fcntl() unlocks and close()s that remain act
 * on the child's own locks, of which it has none, never on the parent's.
 * So the connection SQLite says must not cross fork() [SQLite "How To
 * Corrupt Your Database Files" §2.6] is only released here, not used.
 *
 * It cannot help where another connection of the child (a second copy of
 * this library, say) still refers to the file: the records stay.
 */
void
vg_db_forget(struct vg_db *db)
{
	int one = 1;

	if (db->h != NULL) {
		sqlite3_db_config(db->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
		    NULL);
		sqlite3_file_control(db->h, "main", SQLITE_FCNTL_PERSIST_WAL,
		    &one);
	}
	vg_db_close(db);
}

/*
 * see token/token.h
 * Every commit, by any connection, changes the WAL-index header (its
 * change counter and frame count; a WAL restart changes its salts), so a
 * header identical to the one read just before the last pragma means no
 * commit since, and the pragma would answer as it did then. Any other
 * header, or none, asks SQLite; the header is read again before asking,
 * so a commit between the two reads is seen at the next call.
 */
int
vg_db_changed(struct vg_db *db)
{
	unsigned char hdr[VG_WAL_HDR_LEN];
	int have_hdr = 0;
	int64_t v = -2;

	if (db->h == NULL)
		return 0;
	if (db->wal_hdr != NULL) {
		have_hdr = read_wal_header(db, hdr);
		if (have_hdr && db->wal_seen_ok && db->data_version >= 0 &&
		    memcmp(hdr, db->wal_seen, sizeof(hdr)) == 0)
			return 0;
	}
	db->wal_seen_ok = have_hdr;
	if (have_hdr)
		memcpy(db->wal_seen, hdr, sizeof(hdr));
	/* Prepared once: this runs at every operation's Init, and parsing
	 * the pragma cost as much as running it. */
	if (db->dv == NULL && sqlite3_prepare_v2(db->h, "PRAGMA data_version",
	    -1, &db->dv, NULL) != SQLITE_OK) {
		sqlite3_finalize(db->dv);
		db->dv = NULL;
	}
	if (db->dv != NULL && sqlite3_step(db->dv) == SQLITE_ROW)
		v = sqlite3_column_int64(db->dv, 0);
	if (db->dv != NULL)
		sqlite3_reset(db->dv);
	if (v == db->data_version && v != -2)
		return 0;
	db->data_version = v;
	return 1;
}

/*
 * see token/token.h
 * A sequence lock: the writer (module lock held, so one at a time) makes
 * pub_seq odd, stores the words, makes it even again; a reader that finds
 * the same even pub_seq before and after its copy has a whole one. The
 * release on the last store pairs with the reader's acquire, so a reader
 * that sees this header also sees everything done under the module lock
 * before it was published (the key cache's retirements, for one).
 */
void
vg_db_publish_inlock(struct vg_db *db)
{
	uint64_t w[VG_WAL_HDR_LEN / 8];
	unsigned seq = __atomic_load_n(&db->pub_seq, __ATOMIC_RELAXED);
	size_t i;

	memcpy(w, db->wal_seen, sizeof(w));
	__atomic_store_n(&db->pub_seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&db->pub_ok, db->wal_hdr != NULL &&
	    db->wal_seen_ok && db->data_version >= 0, __ATOMIC_RELAXED);
	for (i = 0; i < VG_WAL_HDR_LEN / 8; i++)
		__atomic_store_n(&db->pub_hdr[i], w[i], __ATOMIC_RELAXED);
	__atomic_store_n(&db->pub_seq, seq + 2, __ATOMIC_RELEASE);
}

/* see token/token.h */
int
vg_db_unchanged_nolock(const struct vg_db *db)
{
	unsigned char hdr[VG_WAL_HDR_LEN];
	uint64_t w[VG_WAL_HDR_LEN / 8];
	unsigned seq;
	int ok;
	size_t i;

	/* Set at open and cleared at close only, when no call is in
	 * flight. */
	if (db->wal_hdr == NULL)
		return 0;
	seq = __atomic_load_n(&db->pub_seq, __ATOMIC_ACQUIRE);
	if (seq & 1)
		return 0;
	ok = __atomic_load_n(&db->pub_ok, __ATOMIC_RELAXED);
	for (i = 0; i < VG_WAL_HDR_LEN / 8; i++)
		w[i] = __atomic_load_n(&db->pub_hdr[i], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (!ok || __atomic_load_n(&db->pub_seq, __ATOMIC_RELAXED) != seq)
		return 0;
	return read_wal_header(db, hdr) && memcmp(hdr, w, sizeof(w)) == 0;
}

/* see token/token.h */
CK_RV
vg_db_begin(struct vg_db *db)
{
	if (db->h == NULL)
		return CKR_DEVICE_ERROR;
	/* A read-only database takes no write lock: its writes fail with
	 * CKR_TOKEN_WRITE_PROTECTED where they happen. */
	return vg_db_exec(db, db->readonly ? "BEGIN" : "BEGIN IMMEDIATE");
}

/* see token/token.h */
CK_RV
vg_db_end(struct vg_db *db, CK_RV rv)
{
	if (rv == CKR_OK) {
		rv = vg_db_exec(db, "COMMIT");
		if (rv != CKR_OK) {
			vg_db_exec(db, "ROLLBACK");
			return rv;
		}
		/* Our own commit does not change data_version for this
		 * connection; the caches were updated by the caller. */
		return CKR_OK;
	}
	vg_db_exec(db, "ROLLBACK");
	return rv;
}
