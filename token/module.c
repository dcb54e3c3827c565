/*
 * Module state: C_Initialize and C_Finalize, the fork rule, the count of
 * calls in flight, and the per-thread DRBGs.
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
 * Kept outside vg_mod, which C_Finalize clears. The count is spread over
 * counters on cache lines of their own, each thread using one (given
 * round-robin at its first call): a single counter written twice by every
 * call of every thread was the one line all threads fought for. Only the
 * sum means anything; a counter may go below zero. */
#define CALL_COUNTERS 16
static struct {
	int n;
} __attribute__((aligned(64))) calls_in[CALL_COUNTERS];
static unsigned calls_next;
static __thread int call_counter = -1;
static int closing;

static int *
my_call_counter(void)
{
	if (call_counter < 0)
		call_counter = (int)(__atomic_fetch_add(&calls_next, 1,
		    __ATOMIC_RELAXED) % CALL_COUNTERS);
	return &calls_in[call_counter].n;
}

static int
calls_in_sum(void)
{
	int i, sum = 0;

	for (i = 0; i < CALL_COUNTERS; i++)
		sum += __atomic_load_n(&calls_in[i].n, __ATOMIC_SEQ_CST);
	return sum;
}

/*
 * The DRBG of each thread, for vg_random (SP 800-90A allows any number of
 * instantiations; each is seeded from the kernel on its own). Lives in the
 * thread's TLS: no lock on the request path. Every one is also on a list
 * (under trng_lock, taken only at a thread's first request, at thread
 * exit, around fork() and at C_Initialize and C_Finalize) so that
 * C_Finalize can wipe all of them; a thread's exit wipes its own (the
 * key's destructor). A state copied into a child by fork() reseeds with
 * the child's pid at its first request there, as vg_mod.rng does.
 */
#define UID_POOL 512 /* 32 IDs of 16 bytes */
struct thread_rng {
	struct vg_rng rng;
	/* random bytes for CKA_UNIQUE_ID (vg_random_uid), drawn UID_POOL
	 * at a time: one DRBG request per 32 objects instead of one per
	 * object; the last uid_left bytes are unused */
	uint8_t uid_pool[UID_POOL];
	size_t uid_left;
	struct thread_rng *next, **pprev; /* on trng_list, when listed */
	int listed;
};
static __thread struct thread_rng trng;
static pthread_mutex_t trng_lock = PTHREAD_MUTEX_INITIALIZER;
static struct thread_rng *trng_list;
static pthread_key_t trng_key;
static int trng_key_ok;

static void
trng_unlink_inlock(struct thread_rng *t)
{
	if (!t->listed)
		return;
	*t->pprev = t->next;
	if (t->next != NULL)
		t->next->pprev = t->pprev;
	t->next = NULL;
	t->pprev = NULL;
	t->listed = 0;
}

/* At thread exit (the key's destructor). */
static void
trng_thread_exit(void *p)
{
	struct thread_rng *t = p;

	pthread_mutex_lock(&trng_lock);
	trng_unlink_inlock(t);
	vg_rng_wipe(&t->rng);
	pthread_mutex_unlock(&trng_lock);
}

/* Wipes every thread's DRBG (C_Initialize in a child, C_Finalize: no call
 * is in flight, so no thread is using its own). */
static void
trng_wipe_all(void)
{
	struct thread_rng *t;

	pthread_mutex_lock(&trng_lock);
	for (t = trng_list; t != NULL; t = t->next) {
		vg_rng_wipe(&t->rng);
		t->uid_left = 0;
	}
	pthread_mutex_unlock(&trng_lock);
}

/* The calling thread's DRBG, seeded; NULL if it cannot be seeded. */
static struct vg_rng *
thread_rng(void)
{
	struct thread_rng *t = &trng;

	if (t->rng.ready)
		return &t->rng;
	if (!t->listed) {
		pthread_mutex_lock(&trng_lock);
		t->next = trng_list;
		if (trng_list != NULL)
			trng_list->pprev = &t->next;
		t->pprev = &trng_list;
		trng_list = t;
		t->listed = 1;
		pthread_mutex_unlock(&trng_lock);
		if (trng_key_ok)
			(void)pthread_setspecific(trng_key, t);
	}
	if (vg_rng_init(&t->rng) != VG_OK)
		return NULL;
	return &t->rng;
}

/* The library is unloaded: a thread that exits later must not call into
 * its code, and no state may outlive it. */
__attribute__((destructor)) static void
trng_unload(void)
{
	struct thread_rng *t;

	pthread_mutex_lock(&trng_lock);
	if (trng_key_ok)
		(void)pthread_key_delete(trng_key);
	trng_key_ok = 0;
	while ((t = trng_list) != NULL) {
		trng_unlink_inlock(t);
		vg_rng_wipe(&t->rng);
	}
	pthread_mutex_unlock(&trng_lock);
}

/*
 * fork() handlers. While fork() copies the process no thread of this
 * process is inside the module's database calls: the module lock (under
 * which SQLite is called) and init_lock (C_Initialize and C_Finalize) are
 * taken around it, and every session-object shard's lock, which guard
 * the stores a child's C_Initialize frees. Otherwise a child could inherit SQLite's global
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
	if (fork_locked) {
		vg_mutex_lock(&vg_mod.lock);
		vg_sobjs_lock_all();
	}
	pthread_mutex_lock(&trng_lock);
}

/* In the parent and in the child alike. */
static void
fork_done(void)
{
	pthread_mutex_unlock(&trng_lock);
	if (fork_locked) {
		vg_sobjs_unlock_all();
		vg_mutex_unlock(&vg_mod.lock);
	}
	fork_locked = 0;
	pthread_mutex_unlock(&init_lock);
}

/* In the child: the other threads' DRBGs were copied with the rest and
 * their threads do not exist here; they are wiped and forgotten (this
 * thread's own reseeds at its next request, and its unique-ID bytes,
 * which the parent may still hand out, are dropped). */
static void
fork_child(void)
{
	struct thread_rng *t = trng_list, *next;

	trng.uid_left = 0;
	for (; t != NULL; t = next) {
		next = t->next;
		if (t != &trng) {
			trng_unlink_inlock(t);
			vg_rng_wipe(&t->rng);
		}
	}
	fork_done();
}

static void
register_fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_done, fork_child);
	trng_key_ok = pthread_key_create(&trng_key, trng_thread_exit) == 0;
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
	size_t i, j;

	for (j = 0; j < VG_SESSION_SHARDS; j++) {
		struct vg_session_shard *sh = &vg_mod.shards[j];

		for (i = 0; i < sh->n; i++) {
			struct vg_session *s = sh->v[i];

			vg_session_end_op(s);
			vg_session_keys_drop(s);
			free(s->found);
			if (destroy_locks)
				vg_mutex_destroy(&s->lock);
			else
				vg_mutex_forget(&s->lock);
			free(s);
		}
		free(sh->v);
		if (destroy_locks)
			vg_mutex_destroy(&sh->lock);
		else
			vg_mutex_forget(&sh->lock);
	}
	vg_keys_retire_inlock();
	vg_sobjs_discard(destroy_locks);
	/* What a logout would free besides the objects and keys freed
	 * above (a logout takes the store's locks). */
	for (i = 0; i < vg_mod.nslots; i++) {
		vg_slot_drop_keys(vg_mod.slots[i]);
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
	trng_wipe_all();
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
	int i;

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
	for (i = 0; i < CALL_COUNTERS; i++)
		__atomic_store_n(&calls_in[i].n, 0, __ATOMIC_SEQ_CST);
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
	rv = vg_sessions_init();
	if (rv != CKR_OK) {
		vg_mutex_destroy(&vg_mod.lock);
		goto out;
	}
	rv = vg_sobjs_init();
	if (rv == CKR_OK && vg_rng_init(&vg_mod.rng) != VG_OK) {
		VG_LOG(VG_LOG_ERROR, "cannot seed the random generator");
		vg_sobjs_discard(1);
		rv = CKR_FUNCTION_FAILED;
	}
	if (rv != CKR_OK) {
		for (i = 0; i < VG_SESSION_SHARDS; i++)
			vg_mutex_destroy(&vg_mod.shards[i].lock);
		vg_mutex_destroy(&vg_mod.lock);
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
	while (calls_in_sum() != 0) {
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

	int *n = my_call_counter();

	__atomic_add_fetch(n, 1, __ATOMIC_SEQ_CST);
	rv = __atomic_load_n(&closing, __ATOMIC_SEQ_CST)
	    ? CKR_CRYPTOKI_NOT_INITIALIZED : vg_module_check();
	if (rv != CKR_OK)
		__atomic_sub_fetch(n, 1, __ATOMIC_SEQ_CST);
	return rv;
}

/* see token/token.h */
void
vg_module_leave(void)
{
	__atomic_sub_fetch(my_call_counter(), 1, __ATOMIC_SEQ_CST);
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
	struct vg_rng *r;
	CK_RV rv = vg_module_enter();

	if (rv != CKR_OK)
		return rv;
	r = thread_rng();
	if (r == NULL || vg_rng_generate(r, out, len) != VG_OK) {
		VG_LOG(VG_LOG_ERROR, "random generator failed");
		rv = CKR_FUNCTION_FAILED;
	}
	vg_module_leave();
	return rv;
}

/* see token/token.h */
struct vg_rng *
vg_rng_thread(void)
{
	return thread_rng();
}

/* see token/token.h */
CK_RV
vg_random_uid(uint8_t out[16])
{
	struct thread_rng *t = &trng;

	if (t->uid_left < 16) {
		if (thread_rng() == NULL || vg_rng_generate(&t->rng,
		    t->uid_pool, sizeof(t->uid_pool)) != VG_OK)
			return CKR_FUNCTION_FAILED;
		t->uid_left = sizeof(t->uid_pool);
	}
	memcpy(out, t->uid_pool + sizeof(t->uid_pool) - t->uid_left, 16);
	t->uid_left -= 16;
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_random_mix(const void *in, size_t len)
{
	struct vg_rng *r;
	CK_RV rv = vg_module_enter();

	if (rv != CKR_OK)
		return rv;
	r = thread_rng();
	if (r == NULL || vg_rng_mix(r, in, len) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_module_leave();
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
