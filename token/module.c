/*
 * Module state: C_Initialize and C_Finalize, the fork rule, and the DRBG.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "token/object.h"
#include "token/token.h"

struct vg_module vg_mod;

/* Serialises C_Initialize and C_Finalize against each other. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* Calls inside the module's state (between vg_module_enter and
 * vg_module_leave), and whether C_Finalize is waiting for them to leave.
 * Kept outside vg_mod, which C_Finalize clears. */
static int calls_in;
static int closing;

/*
 * fork() handlers. While fork() copies the process no thread of this
 * process is inside the module's database calls: the module lock (under
 * which SQLite is called) and init_lock (C_Initialize and C_Finalize) are
 * taken around it. Otherwise a child could inherit SQLite's global
 * mutexes locked by a thread that does not exist in it, and hang in its
 * own C_Initialize. It also means the child inherits the connection
 * idle, with no transaction open, which vg_db_forget needs to close it
 * without a write.
 */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static int fork_locked;

static void
fork_prepare(void)
{
	pthread_mutex_lock(&init_lock);
	fork_locked = vg_mod.initialized &&
	    vg_mod.fork_gen == vg_fork_generation();
	if (fork_locked)
		vg_mutex_lock(&vg_mod.lock);
}

/* In the parent and in the child alike. */
static void
fork_done(void)
{
	if (fork_locked)
		vg_mutex_unlock(&vg_mod.lock);
	fork_locked = 0;
	pthread_mutex_unlock(&init_lock);
}

static void
register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_done, fork_done);
}

static void
log_config_problem(void *ctx, const char *file, unsigned line,
    const char *msg)
{
	(void)ctx;
	VG_LOG(VG_LOG_ERROR, "%s:%u: %s; using the default", file, line,
	    msg);
}

/* Frees what the state holds without taking its locks: used at C_Finalize
 * and, in a forked child, on state whose locks another thread may hold. */
static void
discard_state(int destroy_locks)
{
	size_t i;

	for (i = 0; i < vg_mod.nsessions; i++) {
		struct vg_session *s = vg_mod.sessions[i];

		vg_session_end_op(s);
		free(s->found);
		if (destroy_locks)
			vg_mutex_destroy(&s->lock);
		else
			vg_mutex_forget(&s->lock);
		free(s);
	}
	free(vg_mod.sessions);
	vg_keys_retire_inlock();
	for (i = 0; i < vg_mod.nsobjs; i++)
		vg_object_free(vg_mod.sobjs[i]);
	free(vg_mod.sobjs);
	vg_mod.sobjs = NULL;
	vg_mod.nsobjs = 0;
	for (i = 0; i < vg_mod.nslots; i++) {
		vg_slot_logout_inlock(vg_mod.slots[i]);
		free(vg_mod.slots[i]);
	}
	free(vg_mod.slots);
	/* A connection inherited through fork() is released without a
	 * write before the child opens its own: left open, its record of
	 * locks the child does not hold would stand for the new one's. */
	if (destroy_locks)
		vg_db_close(&vg_mod.db);
	else
		vg_db_forget(&vg_mod.db);
	vg_rng_wipe(&vg_mod.rng);
	if (destroy_locks)
		vg_mutex_destroy(&vg_mod.lock);
	else
		vg_mutex_forget(&vg_mod.lock);
	memset(&vg_mod, 0, sizeof(vg_mod));
}

/* see token/token.h */
CK_RV
vg_module_initialize(const CK_C_INITIALIZE_ARGS *args)
{
	CK_RV rv;

	pthread_once(&fork_once, register_fork_handlers);
	pthread_mutex_lock(&init_lock);
	if (vg_mod.initialized && vg_mod.fork_gen == vg_fork_generation()) {
		rv = CKR_CRYPTOKI_ALREADY_INITIALIZED;
		goto out;
	}
	if (vg_mod.initialized) /* inherited through fork() */
		discard_state(0);
	/* Calls that other threads of the parent had in flight at fork()
	 * never leave in the child. */
	__atomic_store_n(&calls_in, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&closing, 0, __ATOMIC_SEQ_CST);

	/* Problems in the file are logged as errors whatever level the
	 * file itself asks for. */
	vg_log_configure(VG_LOG_ERROR);
	vg_config_load(&vg_mod.config, NULL, log_config_problem, NULL);
	vg_log_configure(vg_mod.config.log_level);

	vg_mutex_select(args);
	rv = vg_mutex_init(&vg_mod.lock);
	if (rv != CKR_OK)
		goto out;
	if (vg_rng_init(&vg_mod.rng) != VG_OK) {
		VG_LOG(VG_LOG_ERROR, "cannot seed the random generator");
		vg_mutex_destroy(&vg_mod.lock);
		rv = CKR_FUNCTION_FAILED;
		goto out;
	}
	/* Without its database the module still loads: it shows one slot
	 * whose token cannot be initialised, and says why in the log. */
	vg_mod.db_ok = vg_db_open(&vg_mod.db, &vg_mod.config) == CKR_OK;
	vg_mutex_lock(&vg_mod.lock);
	rv = vg_slots_refresh_inlock();
	vg_mutex_unlock(&vg_mod.lock);
	if (rv != CKR_OK) {
		discard_state(1);
		goto out;
	}
	vg_mod.next_handle = 1;
	vg_mod.fork_gen = vg_fork_generation();
	__atomic_store_n(&vg_mod.initialized, 1, __ATOMIC_SEQ_CST);
out:
	pthread_mutex_unlock(&init_lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_module_finalize(void)
{
	CK_RV rv = CKR_OK;

	pthread_mutex_lock(&init_lock);
	if (!vg_mod.initialized || vg_mod.fork_gen != vg_fork_generation()) {
		rv = CKR_CRYPTOKI_NOT_INITIALIZED;
		goto out;
	}
	/* Other threads may be inside calls [PKCS#11 3.2 §5.4 leaves this
	 * undefined]: new calls are turned away, and the state is freed
	 * once those in flight have left. */
	__atomic_store_n(&closing, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&calls_in, __ATOMIC_SEQ_CST) != 0) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	__atomic_store_n(&vg_mod.initialized, 0, __ATOMIC_SEQ_CST);
	discard_state(1);
	__atomic_store_n(&closing, 0, __ATOMIC_SEQ_CST);
out:
	pthread_mutex_unlock(&init_lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_module_check(void)
{
	if (!__atomic_load_n(&vg_mod.initialized, __ATOMIC_SEQ_CST) ||
	    vg_mod.fork_gen != vg_fork_generation())
		return CKR_CRYPTOKI_NOT_INITIALIZED;
	return CKR_OK;
}

/* see token/token.h
 *
 * The count goes up before the check and C_Finalize raises closing
 * before it reads the count (both sequentially consistent): either
 * C_Finalize sees this call and waits for it, or this call sees closing
 * and turns back. */
CK_RV
vg_module_enter(void)
{
	CK_RV rv;

	__atomic_add_fetch(&calls_in, 1, __ATOMIC_SEQ_CST);
	rv = __atomic_load_n(&closing, __ATOMIC_SEQ_CST)
	    ? CKR_CRYPTOKI_NOT_INITIALIZED : vg_module_check();
	if (rv != CKR_OK)
		__atomic_sub_fetch(&calls_in, 1, __ATOMIC_SEQ_CST);
	return rv;
}

/* see token/token.h */
void
vg_module_leave(void)
{
	__atomic_sub_fetch(&calls_in, 1, __ATOMIC_SEQ_CST);
}

/* see token/token.h */
CK_RV
vg_module_lock(void)
{
	CK_RV rv = vg_module_enter();

	if (rv == CKR_OK)
		vg_mutex_lock(&vg_mod.lock);
	return rv;
}

/* see token/token.h */
void
vg_module_unlock(void)
{
	vg_mutex_unlock(&vg_mod.lock);
	vg_module_leave();
}

/* see token/token.h */
CK_RV
vg_random(void *out, size_t len)
{
	CK_RV rv = vg_module_lock();

	if (rv != CKR_OK)
		return rv;
	if (vg_rng_generate(&vg_mod.rng, out, len) != VG_OK) {
		VG_LOG(VG_LOG_ERROR, "random generator failed");
		rv = CKR_FUNCTION_FAILED;
	}
	vg_module_unlock();
	return rv;
}

/* see token/token.h */
CK_RV
vg_random_mix(const void *in, size_t len)
{
	CK_RV rv = vg_module_lock();

	if (rv != CKR_OK)
		return rv;
	if (vg_rng_mix(&vg_mod.rng, in, len) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_module_unlock();
	return rv;
}

/* see token/token.h */
void
vg_pad(void *field, size_t n, const char *s)
{
	size_t len = strlen(s);

	if (len > n)
		len = n;
	memset(field, ' ', n);
	memcpy(field, s, len);
}
