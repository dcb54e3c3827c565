/*
 * Session objects, off the module lock: a store sharded by owning
 * session, each shard under its own lock (struct vg_sobj_shard in
 * token/token.h, which states the lock order and what each lock orders).
 * Threads that make, use, find or destroy session objects share only the
 * shard of the session they work in, and a search takes each shard's
 * lock in turn, never two at once. The module lock stays with the token
 * objects and the database (token/objects.c) and with the key cache.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "token/object.h"
#include "token/token.h"

static struct vg_sobj_shard *
shard_of_handle(CK_OBJECT_HANDLE h)
{
	return &vg_mod.sobjs[h & (VG_SOBJ_SHARDS - 1)];
}

/* May this session see the object at all? Under the shard's lock. */
static int
visible(const struct vg_session *s, const struct vg_object *o)
{
	return !vg_object_is_private(o) || vg_slot_login(s->slot) == CKU_USER;
}

/* see token/token.h */
CK_RV
vg_sobjs_init(void)
{
	size_t i;
	CK_RV rv = CKR_OK;

	for (i = 0; rv == CKR_OK && i < VG_SOBJ_SHARDS; i++) {
		rv = vg_mutex_init(&vg_mod.sobjs[i].lock);
		vg_mod.sobjs[i].next = 1;
	}
	if (rv != CKR_OK)
		while (--i > 0)
			vg_mutex_destroy(&vg_mod.sobjs[i - 1].lock);
	return rv;
}

/* see token/token.h */
void
vg_sobjs_discard(int destroy_locks)
{
	size_t i, j;

	for (j = 0; j < VG_SOBJ_SHARDS; j++) {
		struct vg_sobj_shard *sh = &vg_mod.sobjs[j];

		for (i = 0; i < sh->n; i++)
			vg_object_free(sh->v[i]);
		free(sh->v);
		if (destroy_locks)
			vg_mutex_destroy(&sh->lock);
		else
			vg_mutex_forget(&sh->lock);
		memset(sh, 0, sizeof(*sh));
	}
}

/* see token/token.h */
void
vg_sobjs_lock_all(void)
{
	size_t j;

	for (j = 0; j < VG_SOBJ_SHARDS; j++)
		vg_mutex_lock(&vg_mod.sobjs[j].lock);
}

/* see token/token.h */
void
vg_sobjs_unlock_all(void)
{
	size_t j;

	for (j = VG_SOBJ_SHARDS; j-- > 0;)
		vg_mutex_unlock(&vg_mod.sobjs[j].lock);
}

/* Index of object h in shard sh (handles only grow within a shard, so the
 * array is sorted), or sh->n. Shard lock held. */
static size_t
index_inlock(const struct vg_sobj_shard *sh, CK_OBJECT_HANDLE h)
{
	size_t lo = 0, hi = sh->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sh->v[mid]->handle < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sh->n && sh->v[lo]->handle == h ? lo : sh->n;
}

/* Object h as session s finds it: its index in sh, or sh->n with *rv set
 * (CKR_DEVICE_REMOVED, CKR_OBJECT_HANDLE_INVALID). Shard lock held. */
static size_t
lookup_inlock(struct vg_session *s, struct vg_sobj_shard *sh,
    CK_OBJECT_HANDLE h, CK_RV *rv)
{
	size_t i;

	*rv = CKR_OK;
	if (!vg_slot_listed(s->slot)) {
		*rv = CKR_DEVICE_REMOVED;
		return sh->n;
	}
	i = index_inlock(sh, h);
	if (i == sh->n || sh->v[i]->slot_id != s->slot->id ||
	    !visible(s, sh->v[i])) {
		*rv = CKR_OBJECT_HANDLE_INVALID;
		return sh->n;
	}
	return i;
}

/* Takes entry i out of shard sh. Shard lock held. */
static struct vg_object *
remove_inlock(struct vg_sobj_shard *sh, size_t i)
{
	struct vg_object *o = sh->v[i];

	memmove(&sh->v[i], &sh->v[i + 1], (sh->n - i - 1) * sizeof(sh->v[0]));
	__atomic_store_n(&sh->n, sh->n - 1, __ATOMIC_RELEASE);
	return o;
}

/* Retires the cached keys of object h, which was loaded as a key: the
 * module lock is taken here, with no shard's held. */
static void
retire_keys(CK_OBJECT_HANDLE h)
{
	vg_mutex_lock(&vg_mod.lock);
	vg_keys_retire_handle_inlock(h);
	vg_mutex_unlock(&vg_mod.lock);
}

/* see token/token.h */
CK_RV
vg_sobj_insert(struct vg_session *s, struct vg_object *o,
    CK_OBJECT_HANDLE *out)
{
	struct vg_sobj_shard *sh = &vg_mod.sobjs[s->handle %
	    VG_SOBJ_SHARDS];
	CK_RV rv = CKR_OK;

	o->session = s->handle;
	o->slot_id = s->slot->id;
	o->keyed = 0;
	vg_mutex_lock(&sh->lock);
	/* Both read under the shard's lock: a close or a logout that
	 * changed them before this runs its pass over the shard after. */
	if (__atomic_load_n(&s->closed, __ATOMIC_ACQUIRE))
		rv = CKR_SESSION_CLOSED;
	else if (!visible(s, o))
		rv = CKR_USER_NOT_LOGGED_IN;
	if (rv == CKR_OK && sh->n == sh->cap) {
		size_t cap = sh->cap ? sh->cap * 2 : 8;
		struct vg_object **t = realloc(sh->v, cap * sizeof(*t));

		if (t == NULL) {
			rv = CKR_HOST_MEMORY;
		} else {
			sh->v = t;
			sh->cap = cap;
		}
	}
	if (rv == CKR_OK) {
		o->handle = VG_SESSION_OBJECT_BIT |
		    (sh->next++ << VG_SOBJ_SHARD_BITS) |
		    (CK_OBJECT_HANDLE)(sh - vg_mod.sobjs);
		sh->v[sh->n] = o;
		__atomic_store_n(&sh->n, sh->n + 1, __ATOMIC_RELEASE);
		*out = o->handle;
		o = NULL;
	}
	vg_mutex_unlock(&sh->lock);
	vg_object_free(o); /* NULL when kept */
	return rv;
}

/* see token/token.h */
CK_RV
vg_sobj_load(struct vg_session *s, CK_OBJECT_HANDLE h, int for_key,
    struct vg_object **out)
{
	struct vg_sobj_shard *sh = shard_of_handle(h);
	size_t i;
	CK_RV rv;

	*out = NULL;
	vg_mutex_lock(&sh->lock);
	i = lookup_inlock(s, sh, h, &rv);
	if (rv == CKR_OK) {
		if (for_key)
			sh->v[i]->keyed = 1;
		*out = vg_object_clone(sh->v[i]);
		if (*out == NULL)
			rv = CKR_HOST_MEMORY;
	}
	vg_mutex_unlock(&sh->lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_sobj_destroy(struct vg_session *s, CK_OBJECT_HANDLE h)
{
	struct vg_sobj_shard *sh = shard_of_handle(h);
	struct vg_object *o = NULL;
	size_t i;
	CK_RV rv;

	vg_mutex_lock(&sh->lock);
	i = lookup_inlock(s, sh, h, &rv);
	if (rv == CKR_OK && !vg_object_bool(sh->v[i], CKA_DESTROYABLE,
	    CK_TRUE))
		rv = CKR_ACTION_PROHIBITED;
	/* visible() checked the login a private object needs */
	if (rv == CKR_OK)
		o = remove_inlock(sh, i);
	vg_mutex_unlock(&sh->lock);
	if (o != NULL && o->keyed)
		retire_keys(h);
	vg_object_free(o);
	return rv;
}

/* see token/token.h */
CK_RV
vg_sobj_update(struct vg_session *s, CK_OBJECT_HANDLE h,
    CK_RV (*apply)(struct vg_session *, struct vg_object *, void *),
    void *ctx)
{
	struct vg_sobj_shard *sh = shard_of_handle(h);
	struct vg_object *o = NULL;
	int keyed = 0;
	size_t i;
	CK_RV rv;

	/* The change is made and checked under the shard's lock, so that
	 * two changes to one object never lose one of them. */
	vg_mutex_lock(&sh->lock);
	i = lookup_inlock(s, sh, h, &rv);
	if (rv == CKR_OK) {
		o = vg_object_clone(sh->v[i]);
		if (o == NULL)
			rv = CKR_HOST_MEMORY;
	}
	if (rv == CKR_OK)
		rv = apply(s, o, ctx);
	if (rv == CKR_OK) {
		struct vg_object *old = sh->v[i];

		o->session = old->session;
		o->slot_id = old->slot_id;
		keyed = old->keyed;
		o->keyed = keyed;
		sh->v[i] = o;
		o = old;
	}
	vg_mutex_unlock(&sh->lock);
	/* The keys decoded from the old attributes go before the call
	 * returns. */
	if (keyed)
		retire_keys(h);
	vg_object_free(o);
	return rv;
}

/* see token/token.h */
CK_RV
vg_sobj_find(struct vg_session *s, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE **v, size_t *count, size_t *cap)
{
	CK_RV rv = CKR_OK;
	size_t i, j;

	for (j = 0; rv == CKR_OK && j < VG_SOBJ_SHARDS; j++) {
		struct vg_sobj_shard *sh = &vg_mod.sobjs[j];

		/* An empty shard is passed without its lock: an object
		 * whose creation returned before this search began is seen
		 * in the count (a release store under the lock). */
		if (__atomic_load_n(&sh->n, __ATOMIC_ACQUIRE) == 0)
			continue;
		vg_mutex_lock(&sh->lock);
		for (i = 0; rv == CKR_OK && i < sh->n; i++) {
			const struct vg_object *o = sh->v[i];

			if (o->slot_id != s->slot->id || !visible(s, o) ||
			    !vg_object_match(o, t, n))
				continue;
			if (*count == *cap) {
				size_t c = *cap ? *cap * 2 : 16;
				CK_OBJECT_HANDLE *g = realloc(*v,
				    c * sizeof(*g));

				if (g == NULL) {
					rv = CKR_HOST_MEMORY;
					break;
				}
				*v = g;
				*cap = c;
			}
			(*v)[(*count)++] = o->handle;
		}
		vg_mutex_unlock(&sh->lock);
	}
	return rv;
}

/* Destroys the objects of shard sh that keep() refuses, retiring their
 * keys (which takes no lock: the caller holds the module lock). */
static void
drop_inlock(struct vg_sobj_shard *sh,
    int (*keep)(const struct vg_object *, const void *), const void *ctx)
{
	size_t i, kept = 0;

	vg_mutex_lock(&sh->lock);
	for (i = 0; i < sh->n; i++) {
		struct vg_object *o = sh->v[i];

		if (keep(o, ctx)) {
			sh->v[kept++] = o;
		} else {
			vg_keys_retire_handle_inlock(o->handle);
			vg_object_free(o);
		}
	}
	__atomic_store_n(&sh->n, kept, __ATOMIC_RELEASE);
	vg_mutex_unlock(&sh->lock);
}

static int
not_of_session(const struct vg_object *o, const void *ctx)
{
	return o->session != ((const struct vg_session *)ctx)->handle;
}

/* see token/token.h */
void
vg_sobj_session_closed_inlock(struct vg_session *s)
{
	drop_inlock(&vg_mod.sobjs[s->handle % VG_SOBJ_SHARDS], not_of_session,
	    s);
}

static int
not_private_of_slot(const struct vg_object *o, const void *ctx)
{
	return o->slot_id != ((const struct vg_slot *)ctx)->id ||
	    !vg_object_is_private(o);
}

/* see token/token.h */
void
vg_sobj_logout_inlock(struct vg_slot *slot)
{
	size_t j;

	for (j = 0; j < VG_SOBJ_SHARDS; j++)
		drop_inlock(&vg_mod.sobjs[j], not_private_of_slot, slot);
}
