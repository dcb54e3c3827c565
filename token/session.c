/*
 * Sessions: a table sharded by handle (struct vg_session_shard), changed
 * with the module lock and the shard's lock held and looked up with only
 * the shard's, and a lock per session held while a call works in it. A
 * session closed while another thread still uses it is freed when that
 * thread drops the last (atomic) reference.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "token/token.h"

static struct vg_session_shard *
shard_of(CK_SESSION_HANDLE h)
{
	return &vg_mod.shards[h % VG_SESSION_SHARDS];
}

/* Index of handle h in shard sh, or where it would be inserted. Caller
 * holds the module lock or the shard's. */
static size_t
find_inlock(const struct vg_session_shard *sh, CK_SESSION_HANDLE h)
{
	size_t lo = 0, hi = sh->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sh->v[mid]->handle < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* see token/token.h */
CK_RV
vg_sessions_init(void)
{
	size_t i;
	CK_RV rv = CKR_OK;

	for (i = 0; rv == CKR_OK && i < VG_SESSION_SHARDS; i++)
		rv = vg_mutex_init(&vg_mod.shards[i].lock);
	if (rv != CKR_OK)
		while (i-- > 0)
			vg_mutex_destroy(&vg_mod.shards[i].lock);
	return rv;
}

/* see token/token.h */
void
vg_session_end_op(struct vg_session *s)
{
	if (s->op == VG_OP_NONE)
		return;
	vg_wipe(&s->digest, sizeof(s->digest));
	vg_key_release(s, s->op_key);
	s->op_key = NULL;
	if (s->op_buf != NULL) {
		vg_wipe(s->op_buf, s->op_cap);
		free(s->op_buf);
	}
	s->op_buf = NULL;
	s->op_len = s->op_cap = 0;
	if (s->op_state_free != NULL)
		s->op_state_free(s->op_state);
	s->op_state = NULL;
	s->op_state_free = NULL;
	s->op = VG_OP_NONE;
	s->op_multipart = 0;
	s->op_single = 0;
	s->op_mech = 0;
	s->op_need_auth = s->op_authed = 0;
}

/* Drops one reference; frees the session when it was the last one. No
 * lock needed: the last reference is no longer in the table. */
static void
unref(struct vg_session *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	vg_session_end_op(s);
	vg_session_keys_drop(s);
	free(s->found);
	vg_mutex_destroy(&s->lock);
	free(s);
}

/* see token/token.h
 *
 * No module lock here: the handle is looked up under its shard's lock
 * (threads in different sessions take different ones), the reference is
 * atomic, and closed is read with the session locked. */
CK_RV
vg_session_acquire(CK_SESSION_HANDLE h, struct vg_session **out)
{
	struct vg_session_shard *sh = shard_of(h);
	struct vg_session *s = NULL;
	size_t i;
	CK_RV rv;

	*out = NULL;
	/* The call stays entered until vg_session_release(). */
	rv = vg_module_enter();
	if (rv != CKR_OK)
		return rv;
	vg_mutex_lock(&sh->lock);
	i = find_inlock(sh, h);
	if (i < sh->n && sh->v[i]->handle == h) {
		s = sh->v[i];
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
	}
	vg_mutex_unlock(&sh->lock);
	if (s == NULL) {
		rv = CKR_SESSION_HANDLE_INVALID;
		goto out;
	}
	/* Closed while this thread waited for it? */
	vg_mutex_lock(&s->lock);
	if (__atomic_load_n(&s->closed, __ATOMIC_ACQUIRE)) {
		vg_mutex_unlock(&s->lock);
		unref(s);
		rv = CKR_SESSION_HANDLE_INVALID;
	}
out:
	if (rv == CKR_OK)
		*out = s;
	else
		vg_module_leave();
	return rv;
}

/* see token/token.h */
void
vg_session_release(struct vg_session *s)
{
	if (s == NULL)
		return;
	/* Keys retired since the session took them (a logout, a destroyed
	 * object) are let go at the end of its next call, not only at its
	 * next key lookup. */
	vg_session_keys_tidy(s);
	vg_mutex_unlock(&s->lock);
	unref(s);
	vg_module_leave();
}

/* see token/token.h */
CK_RV
vg_session_open(CK_SLOT_ID slot_id, CK_FLAGS flags, CK_VOID_PTR app,
    CK_NOTIFY notify, CK_SESSION_HANDLE_PTR out)
{
	struct vg_session_shard *sh;
	struct vg_session *s = NULL;
	struct vg_slot *slot;
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	rv = vg_slots_refresh_inlock();
	if (rv != CKR_OK)
		goto out;
	slot = vg_slot_find_inlock(slot_id);
	if (slot == NULL) {
		rv = CKR_SLOT_ID_INVALID;
		goto out;
	}
	if (slot->login == CKU_SO && !(flags & CKF_RW_SESSION)) {
		rv = CKR_SESSION_READ_WRITE_SO_EXISTS;
		goto out;
	}
	sh = shard_of(vg_mod.next_handle);
	if (sh->n == sh->cap) {
		size_t cap = sh->cap ? sh->cap * 2 : 4;
		struct vg_session **t;

		/* Readers of the shard hold its lock. */
		vg_mutex_lock(&sh->lock);
		t = realloc(sh->v, cap * sizeof(*t));
		if (t != NULL) {
			sh->v = t;
			sh->cap = cap;
		}
		vg_mutex_unlock(&sh->lock);
		if (t == NULL) {
			rv = CKR_HOST_MEMORY;
			goto out;
		}
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	rv = vg_mutex_init(&s->lock);
	if (rv != CKR_OK) {
		free(s);
		goto out;
	}
	s->handle = vg_mod.next_handle++;
	s->slot = slot;
	s->flags = flags & (CKF_SERIAL_SESSION | CKF_RW_SESSION);
	s->app = app;
	s->notify = notify;
	s->refs = 1; /* the table's reference */
	/* Handles only grow, so the new session goes last. */
	vg_mutex_lock(&sh->lock);
	sh->v[sh->n++] = s;
	vg_mutex_unlock(&sh->lock);
	slot->sessions++;
	if (flags & CKF_RW_SESSION)
		slot->rw_sessions++;
	*out = s->handle;
out:
	vg_module_unlock();
	return rv;
}

/* Removes entry i of shard sh and drops the table's reference. Caller
 * holds the module lock. */
static void
close_at_inlock(struct vg_session_shard *sh, size_t i)
{
	struct vg_session *s = sh->v[i];

	vg_mutex_lock(&sh->lock);
	memmove(&sh->v[i], &sh->v[i + 1], (sh->n - i - 1) * sizeof(sh->v[0]));
	sh->n--;
	vg_mutex_unlock(&sh->lock);
	s->slot->sessions--;
	if (s->flags & CKF_RW_SESSION)
		s->slot->rw_sessions--;
	__atomic_store_n(&s->closed, 1, __ATOMIC_RELEASE);
	vg_obj_session_closed_inlock(s);
	/* Closing the application's last session with a token logs it
	 * out [PKCS#11 3.2 §5.6 C_CloseSession]. */
	if (s->slot->sessions == 0)
		vg_slot_logout_inlock(s->slot);
	unref(s);
}

/* see token/token.h */
CK_RV
vg_session_close(CK_SESSION_HANDLE h)
{
	struct vg_session_shard *sh = shard_of(h);
	size_t i;
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	/* Writers hold the module lock: the shard cannot change here. */
	i = find_inlock(sh, h);
	if (i < sh->n && sh->v[i]->handle == h)
		close_at_inlock(sh, i);
	else
		rv = CKR_SESSION_HANDLE_INVALID;
	vg_module_unlock();
	return rv;
}

/* see token/token.h */
CK_RV
vg_session_close_all(CK_SLOT_ID slot_id)
{
	size_t i, j;
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	if (vg_slot_find_inlock(slot_id) == NULL) {
		rv = CKR_SLOT_ID_INVALID;
		goto out;
	}
	for (j = 0; j < VG_SESSION_SHARDS; j++) {
		struct vg_session_shard *sh = &vg_mod.shards[j];

		for (i = sh->n; i-- > 0;)
			if (sh->v[i]->slot->id == slot_id)
				close_at_inlock(sh, i);
	}
out:
	vg_module_unlock();
	return rv;
}

/*
 * see token/token.h
 * A session whose only reference is the table's is in no call, and none
 * can enter it while its shard is locked (vg_session_acquire takes the
 * reference under that lock); the last call's writes to its keys came
 * before the release of the reference this acquire load reads.
 */
void
vg_sessions_keys_tidy_inlock(void)
{
	size_t i, j;

	for (j = 0; j < VG_SESSION_SHARDS; j++) {
		struct vg_session_shard *sh = &vg_mod.shards[j];

		vg_mutex_lock(&sh->lock);
		for (i = 0; i < sh->n; i++)
			if (__atomic_load_n(&sh->v[i]->refs,
			    __ATOMIC_ACQUIRE) == 1)
				vg_session_keys_tidy(sh->v[i]);
		vg_mutex_unlock(&sh->lock);
	}
}

/* see token/token.h */
CK_STATE
vg_session_state(const struct vg_session *s)
{
	int rw = (s->flags & CKF_RW_SESSION) != 0;

	switch (s->slot->login) {
	case CKU_SO:
		return CKS_RW_SO_FUNCTIONS;
	case CKU_USER:
		return rw ? CKS_RW_USER_FUNCTIONS : CKS_RO_USER_FUNCTIONS;
	default:
		return rw ? CKS_RW_PUBLIC_SESSION : CKS_RO_PUBLIC_SESSION;
	}
}

/* see token/token.h */
CK_RV
vg_session_info(CK_SESSION_HANDLE h, CK_SESSION_INFO *info)
{
	struct vg_session *s;
	CK_RV rv;

	rv = vg_session_acquire(h, &s);
	if (rv != CKR_OK)
		return rv;
	memset(info, 0, sizeof(*info));
	info->slotID = s->slot->id;
	info->flags = s->flags;
	vg_mutex_lock(&vg_mod.lock);
	info->state = vg_session_state(s);
	vg_mutex_unlock(&vg_mod.lock);
	info->ulDeviceError = 0;
	vg_session_release(s);
	return CKR_OK;
}
