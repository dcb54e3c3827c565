/*
 * token/: module state, slots and tokens, sessions, the configuration file
 * and logging. Functions here return CK_RV; crypto/ errors are mapped to
 * CK_RV in one place (vg_crv_from_err). Functions with the suffix _inlock
 * expect the module lock to be held by the caller.
 */
#ifndef VG_TOKEN_H
#define VG_TOKEN_H

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sqlite3.h>

#include "crypto/crypto.h"
#include "cryptoki/pkcs11.h"

/* ------------------------------------------------------------ logging */

enum vg_log_level {
	VG_LOG_NONE = 0,
	VG_LOG_ERROR,
	VG_LOG_WARNING,
	VG_LOG_INFO,
	VG_LOG_DEBUG,
};

/* Current level; set once by vg_log_configure(). */
extern enum vg_log_level vg_log_level;

/*
 * Sets the level and destination: the environment variable VG_LOG
 * ("none", "error", "warning", "info", "debug") overrides the configured
 * level and sends messages to stderr, for the user who asked for them;
 * otherwise messages go to syslog. Never log key bytes, PINs or sensitive
 * attribute values.
 */
void vg_log_configure(enum vg_log_level configured);

void vg_log_msg(enum vg_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define VG_LOG(level, ...)                                                  \
	do {                                                                \
		if ((level) <= vg_log_level)                                \
			vg_log_msg((level), __VA_ARGS__);                   \
	} while (0)

/* Traces a function's return value at debug level. */
#define VG_TRACE_RV(rv)                                                     \
	VG_LOG(VG_LOG_DEBUG, "%s -> %s", __func__, vg_rv_name(rv))

/* Name of a CK_RV ("CKR_OK"), or "CKR_0x..." for unknown values. */
const char *vg_rv_name(CK_RV rv);

/* The one mapping from crypto/ results to CK_RV. */
CK_RV vg_crv_from_err(enum vg_err e);

/* ------------------------------------------------------------ config */

enum vg_sync_mode { VG_SYNC_OFF, VG_SYNC_NORMAL, VG_SYNC_FULL, VG_SYNC_EXTRA };

struct vg_config {
	char data_dir[PATH_MAX];       /* "" until resolved: see below */
	enum vg_log_level log_level;
	unsigned long pin_min_len;
	unsigned long pin_max_len;
	unsigned long user_pin_retries;
	unsigned long so_pin_retries;
	unsigned long pbkdf2_iterations;
	enum vg_sync_mode sqlite_synchronous;
	unsigned long sqlite_cache_kib;
	unsigned long busy_timeout_ms;
	char path[PATH_MAX];           /* file read, "" when none */
	int from_file;                 /* 1 if a file was read */
};

/* Receives each problem found in a configuration file. */
typedef void vg_config_report(void *ctx, const char *file, unsigned line,
    const char *msg);

/* Path of the configuration file: $VGTOKEN_CONF, else
 * SYSCONFDIR/vgtoken.conf. */
const char *vg_config_default_path(void);

/*
 * Fills *c with the defaults, then reads the file at path (NULL: the
 * default path). A missing default file is not an error; a missing file
 * named by VGTOKEN_CONF or the caller is reported. Unknown keys and bad
 * values are reported through report (may be NULL) with file and line, and
 * leave the default in place. Finally resolves data_dir when unset to
 * $XDG_DATA_HOME/vgtoken or $HOME/.local/share/vgtoken.
 * Returns the number of problems reported.
 */
unsigned vg_config_load(struct vg_config *c, const char *path,
    vg_config_report *report, void *ctx);

/* Calls emit once per setting, in file order, with its current value. */
void vg_config_show(const struct vg_config *c,
    void (*emit)(void *ctx, const char *key, const char *value), void *ctx);

/* ------------------------------------------------------------ locking */

/* A mutex from either pthreads or the application's callbacks
 * (CK_C_INITIALIZE_ARGS), chosen at C_Initialize. */
struct vg_mutex {
	void *m;
};

CK_RV vg_mutex_init(struct vg_mutex *mx);
void vg_mutex_destroy(struct vg_mutex *mx);
/* Releases a mutex inherited through fork(), whose state is unknown (a
 * thread of the parent may have held it): the memory of a pthread mutex is
 * freed without pthread_mutex_destroy(); an application's mutex is left to
 * the application. */
void vg_mutex_forget(struct vg_mutex *mx);
void vg_mutex_lock(struct vg_mutex *mx);
void vg_mutex_unlock(struct vg_mutex *mx);

/* Selects the implementation; args as given to C_Initialize (validated). */
void vg_mutex_select(const CK_C_INITIALIZE_ARGS *args);

/* ------------------------------------------------------------ sessions */

enum vg_op {
	VG_OP_NONE = 0,
	VG_OP_DIGEST,
	VG_OP_SIGN,
	VG_OP_VERIFY,
	VG_OP_ENCRYPT,
	VG_OP_DECRYPT,
};

struct vg_slot;
struct vg_key;

/* Keys a session keeps for its next operations (struct vg_session). */
#define VG_SESSION_KEYS 4

struct vg_session {
	CK_SESSION_HANDLE handle;
	struct vg_slot *slot;
	CK_FLAGS flags;                /* CKF_SERIAL_SESSION, CKF_RW_SESSION */
	CK_VOID_PTR app;
	CK_NOTIFY notify;
	struct vg_mutex lock;          /* held while a call works in it */
	unsigned refs;                 /* atomic: the table's and callers' */
	int closed;                    /* atomic; set under the module lock */

	enum vg_op op;                 /* the active operation, if any */
	int op_multipart;              /* an Update call has been made */
	int op_single;                 /* a single-part call asked for the
	                                  length: no Update or Final now */
	CK_MECHANISM_TYPE op_mech;
	struct vg_hash digest;         /* digests; hash-then-sign input */
	int op_hashing;                /* Update hashes the input into
	                                  digest: a hash-then-sign row, or
	                                  a family that chose it (Ed25519ph) */
	struct vg_key *op_key;         /* key operations: a reference */
	uint8_t *op_buf;               /* input gathered by Update calls for
	                                  mechanisms that need all of it */
	size_t op_len, op_cap;
	void *op_state;                /* the mechanism's own state */
	void (*op_state_free)(void *);
	int op_need_auth;              /* key has CKA_ALWAYS_AUTHENTICATE */
	int op_authed;                 /* and the context login happened */

	int finding;                   /* C_FindObjectsInit was called */
	CK_OBJECT_HANDLE *found;       /* its results, consumed from pos */
	size_t nfound, found_pos;

	/* Keys this session's operations used lately, with references of
	 * the session's own (token/keycache.c): served again without the
	 * module lock while the key cache's epoch and the store are as
	 * they were, and the operation's reference comes back here instead
	 * of to the key's shared count. Under the session lock. */
	struct vg_session_key {
		struct vg_key *k;      /* NULL: free */
		unsigned held;         /* references the session holds */
		unsigned long epoch;   /* vg_mod.key_epoch when taken */
	} keys[VG_SESSION_KEYS];
	unsigned keys_next;            /* the entry a new key replaces */
};

/*
 * Looks up an open session and locks it for the calling thread. On CKR_OK
 * *out holds a reference released by vg_session_release(). Checks that the
 * module is initialised (CKR_CRYPTOKI_NOT_INITIALIZED) and the handle
 * (CKR_SESSION_HANDLE_INVALID).
 */
CK_RV vg_session_acquire(CK_SESSION_HANDLE h, struct vg_session **out);

/* Unlocks and drops the reference; NULL is accepted. */
void vg_session_release(struct vg_session *s);

/* Ends the session's active operation, wiping its state. */
void vg_session_end_op(struct vg_session *s);

CK_RV vg_session_open(CK_SLOT_ID slot, CK_FLAGS flags, CK_VOID_PTR app,
    CK_NOTIFY notify, CK_SESSION_HANDLE_PTR out);
/* Creates the shard locks of vg_mod (C_Initialize). */
CK_RV vg_sessions_init(void);
CK_RV vg_session_close(CK_SESSION_HANDLE h);
CK_RV vg_session_close_all(CK_SLOT_ID slot);
CK_RV vg_session_info(CK_SESSION_HANDLE h, CK_SESSION_INFO *info);

/* The session's state from its flags and its slot's login. Reading the
 * login needs the module lock or the session lock of a caller that will
 * not race a login (login state changes only under both). */
CK_STATE vg_session_state(const struct vg_session *s);

/* ------------------------------------------------------------ database */

/* Bytes of one copy of SQLite's WAL-index header (the -shm file starts
 * with two copies) [SQLite "WAL-mode File Format" §2.1]. */
#define VG_WAL_HDR_LEN 48

/* Statements kept prepared by a connection (vg_db_cached). */
#define VG_DB_STMTS 96

struct vg_db_stmt {
	uint32_t hash;                 /* of sql */
	char *sql;
	sqlite3_stmt *st;
};

struct vg_db {
	sqlite3 *h;
	struct vg_db_stmt stmts[VG_DB_STMTS];
	size_t nstmts;
	int64_t data_version;          /* last PRAGMA data_version seen */
	sqlite3_stmt *dv;              /* that pragma, prepared */
	int readonly;                  /* the file cannot be written */
	/* The WAL-index header as SQLite maps it (NULL where it is not
	 * mapped), and a copy taken just before the last PRAGMA
	 * data_version when wal_seen_ok. */
	const volatile unsigned char *wal_hdr;
	unsigned char wal_seen[VG_WAL_HDR_LEN];
	int wal_seen_ok;
	/* wal_seen as last published by vg_db_publish_inlock, for
	 * vg_db_unchanged_nolock: a sequence lock (pub_seq odd while it is
	 * written; pub_ok 0 when nothing is published), every word atomic */
	unsigned pub_seq;
	int pub_ok;
	uint64_t pub_hdr[VG_WAL_HDR_LEN / 8];
};

/* Opens (creating 0700/0600 where needed) data_dir/vgtoken.db, sets WAL,
 * synchronous and busy timeout from the config, and migrates the schema.
 * An existing database that this process may read but not write (a
 * read-only file, directory or mount) is opened read-only: reads work,
 * writes fail with CKR_TOKEN_WRITE_PROTECTED. CKR_DEVICE_ERROR (logged)
 * on failure. Only SQLite ever opens the file: closing any other
 * descriptor of it would drop the POSIX locks of every connection to it
 * in the process, another copy of this library's included. */
CK_RV vg_db_open(struct vg_db *db, const struct vg_config *c);
/*
 * Publishes the WAL-index header of the last vg_db_changed (module lock
 * held) as one whose commits the caches have taken in: call it only when
 * everything that depends on the store has been refreshed up to it.
 */
void vg_db_publish_inlock(struct vg_db *db);
/*
 * Without the module lock: 1 when SQLite's WAL-index header in shared
 * memory is the one last published, so that no connection (of this
 * process or another) has committed since, and vg_db_changed would say
 * so too; 0 when that is not certain (no header mapped, nothing
 * published, a commit since, or a publication under way).
 */
int vg_db_unchanged_nolock(const struct vg_db *db);
void vg_db_close(struct vg_db *db);
/* Closes a connection inherited through fork(), before the child opens
 * its own, without a write, a checkpoint or a deleted file: only the
 * child's copy of SQLite's state goes. The parent must not have been
 * inside SQLite on it when it forked. */
void vg_db_forget(struct vg_db *db);

/* 1 if another connection committed since the last call (or on the first
 * call), else 0. Costs one PRAGMA. */
int vg_db_changed(struct vg_db *db);

/* BEGIN IMMEDIATE; vg_db_end commits when rv is CKR_OK (returning
 * CKR_DEVICE_ERROR if the commit fails) and rolls back otherwise,
 * returning rv. Each C_ call that changes state is one transaction. */
CK_RV vg_db_begin(struct vg_db *db);
CK_RV vg_db_end(struct vg_db *db, CK_RV rv);

CK_RV vg_db_exec(struct vg_db *db, const char *sql);
CK_RV vg_db_prepare(struct vg_db *db, const char *sql, sqlite3_stmt **st);
/*
 * A statement for sql kept prepared by the connection (parsing one costs
 * more than running it on the hot paths: a search, a load): ready to
 * bind, with no bindings. Give it back with vg_db_release, never with
 * sqlite3_finalize; the cache is finalised with the connection. When
 * the cache is full, a fresh statement that vg_db_release finalises.
 */
CK_RV vg_db_cached(struct vg_db *db, const char *sql, sqlite3_stmt **st);
/* Resets (ending any read it holds) and unbinds a statement from
 * vg_db_cached, or finalises one the cache did not keep. NULL is
 * accepted. */
void vg_db_release(struct vg_db *db, sqlite3_stmt *st);
/* Logs the last SQLite error with context; returns CKR_DEVICE_ERROR. */
CK_RV vg_db_error(struct vg_db *db, const char *what);

/* ------------------------------------------------------------ secure memory */

/* Page-backed memory for keys: locked in RAM where the system allows it
 * and excluded from core dumps. Returns NULL on failure. */
void *vg_secmem_alloc(size_t n);
/* Wipes and releases memory from vg_secmem_alloc (NULL is accepted). */
void vg_secmem_free(void *p, size_t n);

/* Test hook (internal, never exported from the module): when set,
 * vg_secmem_free calls it with each whole region after wiping it and
 * before unmapping it, so that a test linking this layer can see that
 * key memory is released, and released wiped. */
extern void (*vg_secmem_release_hook)(const void *p, size_t len);

/* ------------------------------------------------------------ slots */

#define VG_MK_LEN 32                   /* token master key (AES-256) */
#define VG_SALT_LEN 16
/* A wrap of the master key under a PIN. Version 1 (vgtoken 0.1): GCM
 * nonce, key, tag, with the iteration count in the tokens row, outside
 * the wrap. Version 2: a header (the byte 2, the PBKDF2 iteration count
 * big-endian) that is also the GCM associated data, so the count cannot
 * be changed without the wrap failing to open. */
#define VG_WRAP_V1_LEN (12 + VG_MK_LEN + 16)
#define VG_WRAP_HDR_LEN 5
#define VG_WRAP_LEN (VG_WRAP_HDR_LEN + VG_WRAP_V1_LEN)
/* The lowest PBKDF2 iteration count the configuration allows: a stored
 * count below it is never used (token/pin.c). */
#define VG_PBKDF2_MIN 1000
/* The key that seals objects (token/seal.c), derived from the master
 * key. */
#define VG_SEAL_KEY_LEN 32
/* A token's seal record: the byte 2, the seal mark (big-endian), an
 * HMAC-SHA-256 tag. */
#define VG_TOKEN_SEAL_LEN (1 + 8 + 32)

/* A token as stored in the tokens table. */
struct vg_token_rec {
	int64_t id;
	char label[32];                /* space-padded */
	char serial[16];               /* space-padded */
	CK_FLAGS flags;                /* stored flags: USER_PIN_INITIALIZED,
	                                  USER_PIN_TO_BE_CHANGED */
	unsigned long iterations;
	unsigned long so_fails, user_fails;
	uint8_t so_salt[VG_SALT_LEN], so_wrap[VG_WRAP_LEN];
	uint8_t user_salt[VG_SALT_LEN], user_wrap[VG_WRAP_LEN];
	size_t so_wrap_len, user_wrap_len; /* 0: none or malformed */
	uint8_t seal[VG_TOKEN_SEAL_LEN];
	size_t seal_len;               /* 0: none or malformed */
};

enum { VG_NOT_LOGGED_IN = -1 };

struct vg_slot {
	CK_SLOT_ID id;
	int listed;                    /* shown by C_GetSlotList; as login */
	int initialized;               /* holds a token (rec is valid) */
	int seen;                      /* found by the last reading of the
	                                  tokens (token/slot.c) */
	struct vg_token_rec rec;

	long login;                    /* CKU_USER, CKU_SO or
	                                  VG_NOT_LOGGED_IN, for this process;
	                                  written (atomically) with the
	                                  module lock held, read with it or
	                                  by vg_slot_login() */
	uint8_t *mk;                   /* master key while logged in
	                                  (vg_secmem), else NULL */
	uint8_t *seal_key;             /* the key sealing objects, with mk */
	uint8_t *index_key;            /* the key of private objects'
	                                  search keys, with mk */
	int64_t seal_mark;             /* with seal_key: every object of
	                                  the token with a row ID up to
	                                  this must be sealed */
	uint32_t epoch;                /* user logouts so far: handles of
	                                  private token objects carry it */
	int seal_legacy;               /* with seal_key: the token was
	                                  written before objects were
	                                  sealed, and a read-only file
	                                  keeps it so */
	unsigned long sessions;        /* open sessions */
	unsigned long rw_sessions;
};

/* login and listed of a slot read without the module lock (the session
 * objects' paths, token/sobj.c): the value of the last change, made with
 * the module lock held. */
static inline long
vg_slot_login(const struct vg_slot *slot)
{
	return __atomic_load_n(&slot->login, __ATOMIC_ACQUIRE);
}

static inline int
vg_slot_listed(const struct vg_slot *slot)
{
	return __atomic_load_n(&slot->listed, __ATOMIC_ACQUIRE);
}

/* Re-reads the tokens when the database changed (cheap when not). Caller
 * holds the module lock. */
CK_RV vg_slots_refresh_inlock(void);

/* Re-reads the tokens after this process changed them (our own commits
 * do not change data_version). */
CK_RV vg_slots_reload_inlock(void);

/* Reads token row id into *r (CKR_DEVICE_REMOVED if it is gone). */
CK_RV vg_token_rec_load(int64_t id, struct vg_token_rec *r);

/* The row ID the next token will get (AUTOINCREMENT never reuses one). */
int64_t vg_token_next_id(void);

/* Fills the slot list as C_GetSlotList specifies (list may be NULL). */
CK_RV vg_slot_list(CK_BBOOL token_present, CK_SLOT_ID_PTR list,
    CK_ULONG_PTR count);
CK_RV vg_slot_info(CK_SLOT_ID id, CK_SLOT_INFO *info);
CK_RV vg_token_info(CK_SLOT_ID id, CK_TOKEN_INFO *info);

/* Finds a listed slot; caller holds the module lock. NULL if unknown. */
struct vg_slot *vg_slot_find_inlock(CK_SLOT_ID id);

/* Token and PIN management [PKCS#11 3.2 §5.5, §5.6]. PINs are checked by
 * unwrapping the master key (AES-GCM under a PBKDF2 key): never stored,
 * compared in constant time by the tag check, and wiped after use. */
CK_RV vg_token_init(CK_SLOT_ID id, const uint8_t *so_pin, size_t so_len,
    const char label[32]);
CK_RV vg_token_init_pin(struct vg_session *s, const uint8_t *pin,
    size_t len);
CK_RV vg_token_set_pin(struct vg_session *s, const uint8_t *old_pin,
    size_t old_len, const uint8_t *new_pin, size_t new_len);
CK_RV vg_token_login(struct vg_session *s, CK_USER_TYPE who,
    const uint8_t *pin, size_t len);
CK_RV vg_token_logout(struct vg_session *s);
/* Checks the user PIN again for a context-specific login (the user is
 * logged in); counts a wrong PIN like C_Login. */
CK_RV vg_token_check_user_pin(struct vg_session *s, const uint8_t *pin,
    size_t len);

/* Deletes the session's token: its objects, its PIN wraps and its row
 * (not a PKCS#11 function; for vgtoken-util). The SO must be logged in
 * (which checked the SO PIN) in a read/write session that is the only
 * session of this process on the slot. The slot is unlisted afterwards;
 * the session can only be closed. Returns CKR_OK,
 * CKR_USER_NOT_LOGGED_IN, CKR_SESSION_READ_ONLY, CKR_SESSION_EXISTS,
 * CKR_TOKEN_NOT_RECOGNIZED (no token in the slot), CKR_DEVICE_REMOVED
 * (already gone) or CKR_DEVICE_ERROR (token/admin.c). */
CK_RV vg_token_delete(struct vg_session *s);

/* Forgets the login of a slot and wipes its keys. Caller holds the
 * module lock. */
void vg_slot_logout_inlock(struct vg_slot *slot);
/* Wipes and releases the slot's master, seal and index keys (a failed
 * login; part of vg_slot_logout_inlock). */
void vg_slot_drop_keys(struct vg_slot *slot);

/* ------------------------------------------------------------ objects */

struct vg_object;

/*
 * Object handles. Session objects have handles with VG_SESSION_OBJECT_BIT
 * set. A token object's handle is its database row ID (below 2^40), the
 * same in every process; a private token object's handle also carries,
 * from bit 40, the count of the user's logouts from its slot in this
 * process (the epoch), so a handle given out before C_Logout names
 * nothing after the next login [PKCS#11 3.2 §5.6 C_Logout].
 */
#define VG_SESSION_OBJECT_BIT ((CK_OBJECT_HANDLE)1 << 62)
#define VG_HANDLE_ID_BITS 40
#define VG_HANDLE_ID_MAX (((int64_t)1 << VG_HANDLE_ID_BITS) - 1)
#define VG_EPOCH_MASK ((1u << 22) - 1)

/* The handle of token object id (private or not) for this process. */
CK_OBJECT_HANDLE vg_store_handle(const struct vg_slot *slot, int64_t id,
    int private_obj);

/*
 * Token objects in the database (token/store.c); module lock held. Each
 * object is sealed (token/seal.c) when the slot has its seal key (a user
 * or the SO is logged in) and checked against its seal when loaded or
 * found then; objects made without a login stay unsealed until the next
 * login or sealed write.
 */
/* Adds o, setting o->db_id and o->handle. */
CK_RV vg_store_insert_inlock(struct vg_slot *slot, struct vg_object *o);
/* Rewrites o (o->db_id). A sealed object cannot be changed without the
 * seal key: CKR_USER_NOT_LOGGED_IN. */
CK_RV vg_store_update_inlock(struct vg_slot *slot, struct vg_object *o);
CK_RV vg_store_delete_inlock(struct vg_slot *slot, int64_t id);
/* Loads the object of handle h of the slot's token, decrypting what
 * needs the master key. CKR_OBJECT_HANDLE_INVALID if there is no such
 * object, it is private and the user is not logged in, or the handle is
 * from before a logout; CKR_DEVICE_ERROR (logged, naming the object) if
 * the object fails its seal or a stored value does not authenticate. */
CK_RV vg_store_load_inlock(struct vg_slot *slot, CK_OBJECT_HANDLE h,
    struct vg_object **out);
/* Whether handle h names an object of the slot's token that is there and
 * visible (as for vg_store_load_inlock) but refused by its checks (a
 * seal that does not match, a malformed body, a value that does not
 * authenticate): CKR_OK, with its row ID in *id and its privacy column
 * in *private_obj, so that its owner can still destroy it. Only with the
 * seal key (a login; without it CKR_DEVICE_ERROR: nothing is checked).
 * Otherwise the code vg_store_load_inlock gives (CKR_GENERAL_ERROR for
 * an object it loads). */
CK_RV vg_store_refused_inlock(struct vg_slot *slot, CK_OBJECT_HANDLE h,
    int64_t *id, int *private_obj);
/* Handles of the token objects matching a template, in row ID order
 * (*handles is malloc'd; free it). Objects that fail their seal are left
 * out (and logged). */
CK_RV vg_store_find_inlock(struct vg_slot *slot, const CK_ATTRIBUTE *t,
    CK_ULONG n, CK_OBJECT_HANDLE **handles, size_t *count);
/*
 * At a login that opened the master key (slot->mk set, inside the
 * login's transaction): derives the seal key, checks the token's seal
 * record, seals the objects still unsealed that may be (made without a
 * login since the last seal; with legacy_ok, every object of a token
 * written before objects were sealed) and raises the mark over them.
 * legacy_ok: neither PIN wrap of the token is of the sealed format, so
 * a token without a seal record is one from before it. Problems are
 * logged; CKR_OK unless memory or the key derivation fails.
 */
CK_RV vg_store_seal_login_intx(struct vg_slot *slot, int legacy_ok);
/* The key of private objects' search keys, from the master key
 * (VG_SEAL_KEY_LEN bytes). */
CK_RV vg_store_index_key(const uint8_t *mk, uint8_t *key);
/* Re-reads the seal mark from the token record just read (another
 * process may have raised it); slot->rec is current. */
void vg_store_seal_refresh_inlock(struct vg_slot *slot);
/* After a sealed insert of row id, a public object (token/store_seal.c):
 * the mark goes over it, sealing the pending objects below it first. */
CK_RV vg_store_raise_mark_intx(struct vg_slot *slot, int64_t id);


/* ------------------------------------------------------------ seal */

/* The body of a stored object: "VGB" 2, u32 count, then for each
 * attribute in increasing type order u64 type, u8 1 if the value is
 * encrypted (nonce, ciphertext, tag) else 0, u32 length, the bytes; all
 * integers big-endian (token/seal.c). */
#define VG_BODY_MAGIC "VGB\x02"
#define VG_SEAL_TAG_LEN 32

struct vg_body {
	uint8_t *buf;
	size_t len, cap, count;
};

struct vg_body_item {
	CK_ATTRIBUTE_TYPE type;
	int encrypted;
	const uint8_t *value;          /* into the parsed body */
	size_t len;
};

/* Builds a body: start, add each attribute in increasing type order,
 * finish (buf and len are then the body); free wipes it. start and add
 * return CKR_OK, CKR_HOST_MEMORY or CKR_GENERAL_ERROR (too large). */
CK_RV vg_body_start(struct vg_body *b);
CK_RV vg_body_add(struct vg_body *b, CK_ATTRIBUTE_TYPE type, int encrypted,
    const void *v, size_t len);
void vg_body_finish(struct vg_body *b);
void vg_body_free(struct vg_body *b);
/* Parses len bytes of body into *items (*n of them, malloc'd, views into
 * body): CKR_OK, CKR_HOST_MEMORY, or CKR_DEVICE_ERROR for any
 * malformation (magic, counts, lengths, order, flags, trailing bytes).
 * Safe on any bytes. */
CK_RV vg_body_parse(const uint8_t *body, size_t len,
    struct vg_body_item **items, size_t *n);

/* An objects row, as its seal covers it. */
struct vg_seal_row {
	int64_t token_id, id;
	CK_OBJECT_CLASS cls;
	int has_kt;                    /* key_type is not NULL */
	CK_KEY_TYPE kt;
	int private_obj;
	const uint8_t *label_idx, *id_idx;
	size_t label_len, id_len;
	int label_null, id_null;
	const uint8_t *body;
	size_t body_len;
};

/* The seal key from the master key (HKDF-SHA-256). */
CK_RV vg_seal_key_derive(const uint8_t *mk, uint8_t *key);
/* The seal of row r of the token with this serial. */
void vg_seal_object(const uint8_t *key, const char serial[16],
    const struct vg_seal_row *r, uint8_t tag[VG_SEAL_TAG_LEN]);
/* 1 if tag is r's seal, else 0. CT: only the verdict and the lengths are
 * observable. */
int vg_seal_object_check(const uint8_t *key, const char serial[16],
    const struct vg_seal_row *r, const void *tag, size_t taglen);
/* Shared by token/store*.c and token/seal.c, not for other files. */

/* The columns of an object, in the order every SELECT of them names them
 * (vg_store_read_row). */
#define VG_OBJ_COLS                                                       \
	"id, class, key_type, private, label_idx, id_idx, body, seal"

/* One objects row as read: views into a statement's current row. */
struct vg_stored {
	struct vg_seal_row row;
	const uint8_t *seal;           /* NULL: not sealed */
	size_t seal_len;
};

/* Reads the current row of st, which selects VG_OBJ_COLS. */
void vg_store_read_row(const struct vg_slot *slot, sqlite3_stmt *st,
    struct vg_stored *r);
/* Builds the object of a row from its parsed body, decrypting with the
 * master key where there is one (without it, encrypted values of public
 * objects are left out); checks that the columns agree with the object.
 * CKR_DEVICE_ERROR (logged) for a value that does not decrypt. */
CK_RV vg_store_decode(const struct vg_slot *slot, const struct vg_stored *r,
    const struct vg_body_item *it, size_t n, struct vg_object **out);

/*
 * The seal rules (token/store.c's header comment). vg_seal_check: with
 * the slot's seal key, CKR_OK if the row may be used (sealed and the seal
 * matches, or unsealed and allowed by vg_seal_unsealed_ok), else
 * CKR_DEVICE_ERROR, logged; without the key CKR_OK. it: the parsed body.
 * vg_seal_unsealed_ok: whether an unsealed row may be used (legacy: by
 * version 1's rules; else as a pending object, above the mark).
 */
CK_RV vg_seal_check(const struct vg_slot *slot, const struct vg_stored *r,
    const struct vg_body_item *it, size_t n);
int vg_seal_unsealed_ok(const struct vg_slot *slot, const struct vg_stored *r,
    const struct vg_body_item *it, size_t n, int legacy);
/* Logs that object id is refused and why. */
void vg_seal_log_refused(int64_t id, const char *why);
/* A token's seal record for mark, and its check: 1 and *mark when rec is
 * a valid record of this token, else 0. */
void vg_seal_token(const uint8_t *key, const char serial[16],
    int64_t token_id, int64_t mark, uint8_t out[VG_TOKEN_SEAL_LEN]);
int vg_seal_token_check(const uint8_t *key, const char serial[16],
    int64_t token_id, const uint8_t *rec, size_t len, int64_t *mark);

/* Checks the key material of an object built from a caller template
 * (token/keys.c): EC parameters name P-256 and points are well-formed,
 * RSA parts are complete, ML-DSA keys have the sizes of their parameter
 * set. CKR_OK for objects that are not keys. */
CK_RV vg_key_check(const struct vg_object *o);
/* Whether CKA_EC_PARAMS p (len bytes) names P-256, as an OID or by the
 * curveName form of PKCS#11 3.2 §6.3.3: CKR_OK, CKR_CURVE_NOT_SUPPORTED
 * for another curve or explicit parameters, CKR_ATTRIBUTE_VALUE_INVALID
 * when malformed. */
CK_RV vg_ec_params_check(const void *p, size_t len);

/*
 * Curve25519 keys, CKK_EC_EDWARDS (Ed25519) and CKK_EC_MONTGOMERY
 * (X25519) [PKCS#11 3.2 §6.3.5 - §6.3.8] (token/keys_ecx.c).
 * VG_ECX_LEN: a public or private key; CKA_EC_POINT holds the public key
 * as a DER OCTET STRING, VG_ECX_EC_POINT_LEN bytes.
 */
#define VG_ECX_LEN 32
#define VG_ECX_EC_POINT_LEN 34
/* Whether kt is one of the two. */
int vg_ecx_is(CK_KEY_TYPE kt);
/* Whether CKA_EC_PARAMS p names kt's curve (vg_der_parse_ecx_params):
 * CKR_OK, CKR_CURVE_NOT_SUPPORTED for another curve (Ed448, X448, P-256,
 * the other 25519 curve), CKR_ATTRIBUTE_VALUE_INVALID when malformed. */
CK_RV vg_ecx_params_check(CK_KEY_TYPE kt, const void *p, size_t len);
/* The 32-byte public key of a CKA_EC_POINT value: the DER OCTET STRING
 * or the 32 bytes themselves. 0, or -1 for any other form. */
int vg_ecx_point_decode(const void *p, size_t len, uint8_t pk[VG_ECX_LEN]);
/* Writes the OCTET STRING form of pk. */
void vg_ecx_point_encode(uint8_t out[VG_ECX_EC_POINT_LEN],
    const uint8_t pk[VG_ECX_LEN]);
/* The public key of private key sk of type kt: CKR_OK or
 * CKR_FUNCTION_FAILED. CT: as crypto/c25519.h. */
CK_RV vg_ecx_public(CK_KEY_TYPE kt, const uint8_t sk[VG_ECX_LEN],
    uint8_t pk[VG_ECX_LEN]);
/* The key material checks of vg_key_check for these types: parameters,
 * the point's form (an Ed25519 point must decode), a private key of 32
 * bytes whose given point is its own (else CKR_TEMPLATE_INCONSISTENT). */
CK_RV vg_ecx_check(const struct vg_object *o);
/* Puts a raw 32-byte CKA_EC_POINT in its DER form. */
CK_RV vg_ecx_normalize(struct vg_object *o);
/* The SubjectPublicKeyInfo [RFC 8410 §4] of o into a new buffer (*out
 * NULL when o has no key material yet). */
CK_RV vg_ecx_spki(const struct vg_object *o, uint8_t **out, size_t *outlen);
/* PKCS #8 [RFC 8410 §7]: the algorithm (OID, no parameters) and the
 * CurvePrivateKey of private key o in new secure memory (*key, *keylen;
 * vg_secmem_free), or CKR_KEY_NOT_WRAPPABLE. */
CK_RV vg_ecx_to_pkcs8(const struct vg_object *o, struct vg_der_algid *alg,
    uint8_t **key, size_t *keylen);
/* Sets CKA_EC_PARAMS, CKA_VALUE and CKA_EC_POINT of o (its key type set)
 * from a parsed PrivateKeyInfo: CKR_TEMPLATE_INCONSISTENT when it is of
 * another algorithm, CKR_CURVE_NOT_SUPPORTED for Ed448/X448,
 * CKR_WRAPPED_KEY_INVALID when malformed. */
CK_RV vg_ecx_from_pkcs8(struct vg_object *o, const struct vg_der_pkcs8 *p8);
/*
 * vg_key_check, then CKA_PUBLIC_KEY_INFO from the key: filled in when
 * absent or empty, else checked against it. A private key's comes from
 * its key (RSA n and e; the EC point beside the scalar, which must match
 * it, or else [d]G; the ML-DSA public key recomputed from the expanded
 * key or the seed), a public key's from its public parts. A value that
 * differs: CKR_ATTRIBUTE_VALUE_INVALID for a private key [PKCS#11 3.2
 * §4.11], CKR_TEMPLATE_INCONSISTENT for a public key.
 */
CK_RV vg_key_complete(struct vg_object *o);
/*
 * vg_key_complete for a key pair the module has just generated (EC P-256,
 * ML-DSA, ML-KEM): CKA_PUBLIC_KEY_INFO filled in (from pk, the public key,
 * for an ML-DSA or ML-KEM private key; NULL otherwise) without the checks of material
 * supplied by a caller.
 */
CK_RV vg_key_complete_generated(struct vg_object *o, const uint8_t *pk);
/*
 * For C_SetAttributeValue and C_CopyObject: o is the object with the
 * caller's template t applied. When o is a private key and t names
 * CKA_PUBLIC_KEY_INFO, the value must be the key's own (an empty one is
 * filled in from the key): else CKR_ATTRIBUTE_VALUE_INVALID [§4.11].
 * Returns CKR_OK, that, or CKR_HOST_MEMORY.
 */
CK_RV vg_key_check_change(struct vg_object *o, const CK_ATTRIBUTE *t,
    CK_ULONG n);
/* The components of an RSA private key object as vg_rsa_key_load takes
 * them: views of its attributes, or, for a key given as (n, e, d) only,
 * the CRT parts recovered into *rec (secure memory the caller provides
 * and wipes). CKR_KEY_TYPE_INCONSISTENT without e or d,
 * CKR_TEMPLATE_INCONSISTENT when d does not belong to n and e. */
CK_RV vg_rsa_priv_parts(const struct vg_object *o,
    struct vg_der_rsa_priv *in, struct vg_rsa_key_bytes *rec);

/*
 * Private keys as PKCS #8 PrivateKeyInfo [PKCS#11 3.2 §6.7] (token/pkcs8.c),
 * for C_WrapKey and C_UnwrapKey.
 *
 * vg_key_to_pkcs8: the PrivateKeyInfo of private key o in secure memory
 * (free with vg_secmem_free(*der, *len)): RSA with every CRT part
 * (recovered when o holds only n, e and d), EC with the curve in the
 * algorithm identifier and the public point in the ECPrivateKey, ML-DSA
 * as its seed when o has one, else its expanded key. Returns CKR_OK,
 * CKR_KEY_NOT_WRAPPABLE (another class or type, or a key without what
 * the encoding needs) or CKR_HOST_MEMORY.
 * CT: the lengths of the values are observable (the encoding shows them,
 * with each INTEGER's leading zeros and sign byte); nothing else.
 *
 * vg_key_from_pkcs8: the key material of a PrivateKeyInfo set on o, a
 * private key from vg_object_from_template(VG_OBJ_UNWRAP, ...) with its
 * key type; the caller then completes and checks o (vg_object_complete,
 * vg_key_check). Returns CKR_OK; CKR_TEMPLATE_INCONSISTENT when the
 * algorithm is not o's key type; CKR_CURVE_NOT_SUPPORTED for an EC key
 * on another curve; CKR_WRAPPED_KEY_INVALID when the structure is
 * malformed, an ML-DSA seed or key has the wrong size, or an EC scalar
 * or point is invalid; CKR_HOST_MEMORY. On error o may hold part of the
 * key: the caller frees it.
 * CT: the structure of der (its tags and lengths, the algorithm, the
 * first two octets of each INTEGER, which say whether it is minimal and
 * so follow from its length) and whether an EC scalar is in range are
 * observable; no branch or index depends on other key octets.
 */
CK_RV vg_key_to_pkcs8(const struct vg_object *o, uint8_t **der, size_t *len);
CK_RV vg_key_from_pkcs8(struct vg_object *o, const uint8_t *der, size_t len);

/* The object functions [PKCS#11 3.2 §5.7] over session and token
 * objects, with the access rules of sessions and login (token/objects.c).
 * The session is acquired by the caller; arguments are checked. */
CK_RV vg_obj_create(struct vg_session *s, const CK_ATTRIBUTE *t,
    CK_ULONG n, CK_OBJECT_HANDLE *out);
CK_RV vg_obj_copy(struct vg_session *s, CK_OBJECT_HANDLE h,
    const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out);
CK_RV vg_obj_destroy(struct vg_session *s, CK_OBJECT_HANDLE h);
CK_RV vg_obj_size(struct vg_session *s, CK_OBJECT_HANDLE h,
    CK_ULONG *size);
CK_RV vg_obj_get(struct vg_session *s, CK_OBJECT_HANDLE h, CK_ATTRIBUTE *t,
    CK_ULONG n);
CK_RV vg_obj_set(struct vg_session *s, CK_OBJECT_HANDLE h,
    const CK_ATTRIBUTE *t, CK_ULONG n);
CK_RV vg_obj_find_init(struct vg_session *s, const CK_ATTRIBUTE *t,
    CK_ULONG n);
CK_RV vg_obj_find(struct vg_session *s, CK_OBJECT_HANDLE *out, CK_ULONG max,
    CK_ULONG *count);
CK_RV vg_obj_find_final(struct vg_session *s);
/* Before a key is made from template t (n entries): whether the session
 * may keep it, from its CKA_TOKEN and CKA_PRIVATE (secret: a private or
 * secret key, private unless the template says otherwise, whose value
 * needs the master key when it is a token object). CKR_OK,
 * CKR_SESSION_READ_ONLY, CKR_USER_NOT_LOGGED_IN or
 * CKR_TOKEN_NOT_RECOGNIZED, so that a key generation the store would
 * refuse is refused before it runs. Malformed values are left for the
 * template's checks. */
CK_RV vg_obj_may_generate(struct vg_session *s, const CK_ATTRIBUTE *t,
    CK_ULONG n, int secret);
/*
 * C_WrapKey's rules for the key to be wrapped [PKCS#11 3.2 §5.18.3]: a
 * copy of key h in *out (free it with vg_object_free; it holds the key's
 * secrets) once these hold, in this order: h is a private or secret key
 * the session can see (else CKR_KEY_HANDLE_INVALID; a public key:
 * CKR_KEY_NOT_WRAPPABLE); its CKA_EXTRACTABLE is true (else
 * CKR_KEY_UNEXTRACTABLE); with CKA_WRAP_WITH_TRUSTED true, the wrapping
 * key hw has CKA_TRUSTED true (else CKR_KEY_NOT_WRAPPABLE, the
 * code for a key that "cannot be wrapped for some token-specific
 * reason"); and h matches hw's CKA_WRAP_TEMPLATE by C_FindObjects' rules
 * (else CKR_KEY_HANDLE_INVALID, which §5.18.3 names for a mismatch).
 * CKR_WRAPPING_KEY_HANDLE_INVALID when hw is gone.
 */
CK_RV vg_obj_wrap_target(struct vg_session *s, CK_OBJECT_HANDLE hw,
    CK_OBJECT_HANDLE h, struct vg_object **out);
/* Adds an object made by a mechanism (generation, derivation) under the
 * session's access rules; takes o in every case. */
CK_RV vg_obj_add(struct vg_session *s, struct vg_object *o,
    CK_OBJECT_HANDLE *out);
/* Adds a generated key pair: both or neither; takes both objects. */
CK_RV vg_obj_add_pair(struct vg_session *s, struct vg_object *pub,
    struct vg_object *priv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv);
/* C_GenerateKey for secret keys whose value is random bytes: the
 * template's CKA_VALUE_LEN (min_len..max_len bytes; 16, 24 or 32 for AES)
 * random bytes from the DRBG. */
CK_RV vg_obj_generate_secret(struct vg_session *s, CK_MECHANISM_TYPE mech,
    CK_KEY_TYPE kt, CK_ULONG min_len, CK_ULONG max_len,
    const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out);
/* Feeds the value of secret key h into d (C_DigestKey):
 * CKR_KEY_HANDLE_INVALID, or CKR_KEY_INDIGESTIBLE for other objects. */
CK_RV vg_obj_digest_key(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_hash *d);
/* A caller's template for a new key with the attribute template of the
 * key it is made with added (vg_obj_key_template). */
struct vg_key_template {
	CK_ATTRIBUTE *t;               /* the entries; NULL when n is 0 */
	CK_ULONG n;
	struct vg_object *nested;      /* what the added entries point into */
};
/*
 * The template for a key made with key h: the attribute-array attribute
 * which of h (CKA_DERIVE_TEMPLATE for C_DeriveKey, CKA_UNWRAP_TEMPLATE
 * for C_UnwrapKey) added to the caller's t, as vg_template_under() makes
 * it; just t's entries when h has none. CKR_KEY_HANDLE_INVALID when the
 * session cannot see h; CKR_DEVICE_ERROR when the stored array does not
 * decode. Free *out with vg_key_template_free (also on error).
 */
CK_RV vg_obj_key_template(struct vg_session *s, CK_OBJECT_HANDLE h,
    CK_ATTRIBUTE_TYPE which, const CK_ATTRIBUTE *t, CK_ULONG n,
    struct vg_key_template *out);
void vg_key_template_free(struct vg_key_template *kt);
/* Loads a copy of an object the session may see (free it with
 * vg_object_free). Module lock held. */
CK_RV vg_obj_load_inlock(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_object **out);
/* The same, for the key cache (vg_key_get): a session object loaded so is
 * marked as one whose keys may be cached, so that its change or
 * destruction retires them. Module lock held. */
CK_RV vg_obj_load_key_inlock(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_object **out);
/* Destroys the session objects of a closing session (marked closed
 * before). Module lock held. */
void vg_obj_session_closed_inlock(struct vg_session *s);
/* Destroys the private session objects of the slot's sessions (at
 * logout, after the slot's login was cleared). Module lock held. */
void vg_obj_logout_inlock(struct vg_slot *slot);

/*
 * The session objects (token/sobj.c), off the module lock: a store in
 * VG_SOBJ_SHARDS shards, each with its own lock. An object lives in the
 * shard of its owning session (the session's handle modulo
 * VG_SOBJ_SHARDS), and its handle names the shard in its low bits:
 * VG_SESSION_OBJECT_BIT | sequence << VG_SOBJ_SHARD_BITS | shard. So a
 * lookup, a creation or a destruction takes one shard's lock, a session's
 * close one shard's, and a search (and a logout) each shard's in turn.
 *
 * Lock order: a session's lock (held through a call), then the module
 * lock, then one shard's lock. A shard's lock is never held while another
 * lock is taken (the module lock, another shard's, a session's or a
 * session table shard's); a path without the module lock that must
 * retire cached keys (vg_keys_retire_handle_inlock) lets the shard's lock
 * go first (a path with it retires them with the shard's lock held:
 * retiring takes no lock). fork() takes the module lock and then every shard's lock in
 * order (token/module.c), so a child finds each shard consistent.
 *
 * What the module lock used to order, the shard's lock orders now:
 *  - the login: a private object is added, found or reached only while
 *    vg_slot_login() says CKU_USER, read under the shard's lock; a logout
 *    clears the login before it takes each shard's lock to destroy the
 *    slot's private objects, so an object added after that pass saw the
 *    cleared login and was refused;
 *  - the close: an object is added to a session only while the session is
 *    not marked closed, read under the shard's lock; a close marks it
 *    before it takes the shard's lock to destroy the session's objects;
 *  - the key cache: an object whose keys vg_key_get loaded (under the
 *    module lock, marking it under the shard's lock) is destroyed or
 *    changed, then its keys retired under the module lock before the call
 *    returns; an object never loaded as a key has none to retire, and so
 *    C_DeriveKey's new key, a new pair or a created key is destroyed
 *    without the module lock.
 */
#define VG_SOBJ_SHARD_BITS 4
#define VG_SOBJ_SHARDS (1 << VG_SOBJ_SHARD_BITS)
struct vg_sobj_shard {
	struct vg_mutex lock;
	struct vg_object **v;          /* sorted by handle */
	size_t n;                      /* written atomically under the lock;
	                                  a search reads it without, to pass
	                                  an empty shard */
	size_t cap;
	CK_OBJECT_HANDLE next;         /* the sequence of the next handle */
} __attribute__((aligned(64)));

/* Creates and destroys the shards' locks (C_Initialize, C_Finalize);
 * discard frees every object, and forgets the locks instead of
 * destroying them when destroy_locks is 0 (a forked child). */
CK_RV vg_sobjs_init(void);
void vg_sobjs_discard(int destroy_locks);
/* Locks and unlocks every shard, in order (around fork()). */
void vg_sobjs_lock_all(void);
void vg_sobjs_unlock_all(void);
/* Adds o (CKA_TOKEN false, its CKA_UNIQUE_ID set) as a session object of
 * s; takes o in every case. CKR_USER_NOT_LOGGED_IN for a private object
 * without the user's login; CKR_SESSION_CLOSED when s was closed
 * meanwhile. */
CK_RV vg_sobj_insert(struct vg_session *s, struct vg_object *o,
    CK_OBJECT_HANDLE *out);
/* A copy of session object h (session handle bit set) that s may see:
 * CKR_DEVICE_REMOVED when the slot is no longer listed,
 * CKR_OBJECT_HANDLE_INVALID when there is no such object for s. for_key:
 * marks it (see above); the caller holds the module lock. */
CK_RV vg_sobj_load(struct vg_session *s, CK_OBJECT_HANDLE h, int for_key,
    struct vg_object **out);
/* C_DestroyObject of session object h, with its checks (as
 * vg_sobj_load, then CKR_ACTION_PROHIBITED when not destroyable,
 * CKR_USER_NOT_LOGGED_IN). Without the module lock. */
CK_RV vg_sobj_destroy(struct vg_session *s, CK_OBJECT_HANDLE h);
/* C_SetAttributeValue of session object h: apply(o, ctx) changes a copy
 * of it under the shard's lock, and the copy replaces it when apply
 * returns CKR_OK. Without the module lock. */
CK_RV vg_sobj_update(struct vg_session *s, CK_OBJECT_HANDLE h,
    CK_RV (*apply)(struct vg_session *, struct vg_object *, void *),
    void *ctx);
/* Appends to *v (count *n, room *cap; grown with realloc) the handles of
 * the session objects of s's slot that s may see and t matches.
 * CKR_HOST_MEMORY, or CKR_OK. Without the module lock. */
CK_RV vg_sobj_find(struct vg_session *s, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE **v, size_t *count, size_t *cap);
/* Removes the objects of closing session s, or the private objects of
 * slot, and frees them, retiring their keys. Module lock held. */
void vg_sobj_session_closed_inlock(struct vg_session *s);
void vg_sobj_logout_inlock(struct vg_slot *slot);

/* ------------------------------------------------------------ keys */

/* Key usage bits, from the key's CKA_ attributes. */
enum {
	VG_USE_SIGN = 1 << 0,
	VG_USE_VERIFY = 1 << 1,
	VG_USE_ENCRYPT = 1 << 2,
	VG_USE_DECRYPT = 1 << 3,
	VG_USE_DERIVE = 1 << 4,
	VG_USE_WRAP = 1 << 5,
	VG_USE_UNWRAP = 1 << 6,
	VG_USE_ENCAPSULATE = 1 << 7,
	VG_USE_DECAPSULATE = 1 << 8,
};

/* Decodes an object into key->impl and key->bits; CKR_OK or an error
 * such as CKR_KEY_TYPE_INCONSISTENT. Called with the module lock held. */
typedef CK_RV vg_key_loader(const struct vg_object *o, struct vg_key *key);

/*
 * A key as operations use it: its properties and its decoded form, made
 * once by the algorithm's loader and kept while the user stays logged in,
 * so an operation's Init does no parsing and no key derivation. Entries
 * are shared by reference (the cache's, the sessions' that keep them,
 * the operations'); a change to the key's object, any change by another
 * process or a logout retires them, and a retired entry is wiped when its
 * last reference goes.
 */
struct vg_key {
	unsigned refs;                 /* atomic */
	int retired;
	CK_SLOT_ID slot;
	CK_OBJECT_HANDLE handle;
	vg_key_loader *loader;         /* made by this loader: impl is its
	                                  decoded form */
	CK_OBJECT_CLASS cls;
	CK_KEY_TYPE type;
	unsigned use;                  /* VG_USE_* */
	int always_auth;               /* CKA_ALWAYS_AUTHENTICATE */
	int always_sensitive;          /* CKA_ALWAYS_SENSITIVE */
	int never_extractable;         /* CKA_NEVER_EXTRACTABLE */
	CK_MECHANISM_TYPE *allowed;    /* CKA_ALLOWED_MECHANISMS, or NULL */
	size_t nallowed;
	CK_ULONG bits;                 /* size as C_GetMechanismInfo counts */
	struct vg_object *derive_tmpl; /* CKA_DERIVE_TEMPLATE decoded (no
	                                  attributes when the key has none),
	                                  or NULL if it does not decode */
	void *impl;                    /* decoded by the loader */
	void (*impl_free)(void *);     /* wipes and frees impl */
};

/*
 * Finds key h for the session, from the cache or by loading it with
 * loader; returns a reference in *out. CKR_KEY_HANDLE_INVALID when the
 * session cannot see such an object. The cache holds a key once per
 * loader: two families that decode the same object differently (an AES
 * key for key wrapping and for encryption) each get their own form.
 */
CK_RV vg_key_get(struct vg_session *s, CK_OBJECT_HANDLE h,
    vg_key_loader *loader, struct vg_key **out);
/* Drops a reference (NULL is accepted). */
void vg_key_put(struct vg_key *k);
/* Drops a reference that vg_key_get gave for session s, which the caller
 * holds locked: kept by the session for its next operation when the key
 * is one of its own (struct vg_session), else vg_key_put. */
void vg_key_release(struct vg_session *s, struct vg_key *k);
/* Drops every key session s keeps (its end; its lock held or its last
 * reference gone). */
void vg_session_keys_drop(struct vg_session *s);
/* Drops the keys session s (locked) took before a retirement. */
void vg_session_keys_tidy(struct vg_session *s);
/*
 * After a retirement (C_Logout): drops now the keys of every session that
 * no call is working in, so that no decoded key outlives the logout in an
 * idle session; a session in a call drops its own at the call's end
 * (vg_session_release). Module lock held.
 */
void vg_sessions_keys_tidy_inlock(void);
/* The derive template of key h of the session's slot as the cache holds
 * it (a copy in *out), or *out NULL when the key is not cached. Module
 * lock held. */
CK_RV vg_key_cached_derive_template_inlock(struct vg_session *s,
    CK_OBJECT_HANDLE h, struct vg_object **out);
/* The same from the keys session s (locked) keeps, without the module
 * lock, when the cache would serve it (no commit and no retirement since
 * the session took it); else *out NULL. */
CK_RV vg_key_session_derive_template(struct vg_session *s,
    CK_OBJECT_HANDLE h, struct vg_object **out);
/* Whether CKA_ALLOWED_MECHANISMS (if any) lets the key run m. */
int vg_key_allows(const struct vg_key *k, CK_MECHANISM_TYPE m);
/* Retires every cached key (a change to the objects, a logout). Module
 * lock held. */
void vg_keys_retire_inlock(void);
/* Retires the cached keys of object h (changed or destroyed) in every
 * slot. Module lock held. */
void vg_keys_retire_handle_inlock(CK_OBJECT_HANDLE h);

/* ------------------------------------------------------------ module */

/* One shard of the session table: the sessions whose handle is the
 * shard's index modulo VG_SESSION_SHARDS, sorted by handle. A cache line
 * of its own, so that lookups in two shards share nothing. */
#define VG_SESSION_SHARDS 16
struct vg_session_shard {
	struct vg_mutex lock;
	struct vg_session **v;
	size_t n, cap;
} __attribute__((aligned(64)));

/* The one mutable global of the module. */
struct vg_module {
	int initialized;
	uint64_t fork_gen;             /* vg_fork_generation() of the
	                                * process that initialised it */
	struct vg_mutex lock;
	struct vg_config config;
	struct vg_rng rng;

	struct vg_db db;
	int db_ok;                     /* the database opened */

	struct vg_slot **slots;        /* every slot seen by this process */
	size_t nslots;
	int64_t next_token_id;         /* ID of the slot with no token */

	struct vg_key **keys;          /* the key cache */
	size_t nkeys;
	/* atomic; bumped under the module lock whenever cached keys are
	 * retired: a session's own copies (struct vg_session) taken at an
	 * older epoch are not used */
	unsigned long key_epoch;

	/* session objects (token/sobj.c), each shard under its own lock */
	struct vg_sobj_shard sobjs[VG_SOBJ_SHARDS];

	/* open sessions, sharded by handle so that threads working in
	 * different sessions look theirs up under different locks; written
	 * with the module lock and the shard's lock held, read with
	 * either */
	struct vg_session_shard shards[VG_SESSION_SHARDS];
	CK_SESSION_HANDLE next_handle;
};

extern struct vg_module vg_mod;

/* C_Initialize and C_Finalize (arguments already checked by pkcs11/). */
CK_RV vg_module_initialize(const CK_C_INITIALIZE_ARGS *args);
CK_RV vg_module_finalize(void);

/* CKR_OK if the module is initialised in this process, else
 * CKR_CRYPTOKI_NOT_INITIALIZED. A child after fork() sees the library as
 * not initialised until it calls C_Initialize. */
CK_RV vg_module_check(void);

/*
 * A call into the module's state: vg_module_enter() checks as
 * vg_module_check() does and, on CKR_OK, counts the call until
 * vg_module_leave(). C_Finalize turns new calls away and waits for the
 * counted ones to leave before it frees the state, so a thread inside a
 * call when another finalises completes its call or gets
 * CKR_CRYPTOKI_NOT_INITIALIZED, never freed memory.
 */
CK_RV vg_module_enter(void);
void vg_module_leave(void);

/* Enters (as above) and locks the module; unlock unlocks and leaves. */
CK_RV vg_module_lock(void);
void vg_module_unlock(void);

/* Random bytes from the calling thread's own DRBG (no lock; seeded at the
 * thread's first request, reseeded as vg_rng is, wiped at thread exit and
 * C_Finalize). vg_mod.rng stays for callers that hold the module lock. */
CK_RV vg_random(void *out, size_t len);
/*
 * The calling thread's DRBG itself (seeded; NULL if it cannot be), for
 * the crypto layer's key generation inside a call: valid until the call
 * returns. It is the HMAC_DRBG of vg_mod.rng (security strength 256,
 * reseeded from the kernel on the same interval and after fork()), so it
 * serves key generation as well, without the module lock.
 */
struct vg_rng *vg_rng_thread(void);
/* 16 random bytes for a CKA_UNIQUE_ID, from a pool of the calling
 * thread's (refilled from its DRBG 32 IDs at a time; emptied in a child
 * after fork() and at C_Finalize, so no two processes hand out the same
 * bytes). Inside a call; no lock. CKR_FUNCTION_FAILED if the DRBG
 * fails. */
CK_RV vg_random_uid(uint8_t out[16]);
/* Mixes caller input into the calling thread's DRBG; never replaces its
 * seed. */
CK_RV vg_random_mix(const void *in, size_t len);

/* Copies s into a space-padded field of n bytes (truncating). */
void vg_pad(void *field, size_t n, const char *s);

#endif
