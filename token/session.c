/*
 * Sessions: a table sorted by handle under the module lock, and a lock per
 * session held while a call works in it. A session closed while another
 * thread still uses it is freed when that thread releases it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "token/token.h"

/* Index of handle h in the table, or where it would be inserted. */
static size_t
find_inlock(CK_SESSION_HANDLE h)
{
	size_t lo = 0, hi = vg_mod.nsessions;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (vg_mod.sessions[mid]->handle < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct vg_session *
lookup_inlock(CK_SESSION_HANDLE h)
{
	size_t i = find_inlock(h);

	if (i < vg_mod.nsessions && vg_mod.sessions[i]->handle == h)
		return vg_mod.sessions[i];
	return NULL;
}

/* see token/token.h */
void
vg_session_end_op(struct vg_session *s)
{
	if (s->op == VG_OP_NONE)
		return;
	vg_wipe(&s->digest, sizeof(s->digest));
	vg_key_put(s->op_key);
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

/* Drops one reference; frees the session when it was the last one.
 * Caller holds the module lock. */
static void
unref_inlock(struct vg_session *s)
{
	if (--s->refs > 0)
		return;
	vg_session_end_op(s);
	free(s->found);
	vg_mutex_destroy(&s->lock);
	free(s);
}

/* see token/token.h */
CK_RV
vg_session_acquire(CK_SESSION_HANDLE h, struct vg_session **out)
{
	struct vg_session *s;
	CK_RV rv;

	*out = NULL;
	/* The call stays entered until vg_session_release(). */
	rv = vg_module_enter();
	if (rv != CKR_OK)
		return rv;
	vg_mutex_lock(&vg_mod.lock);
	s = lookup_inlock(h);
	if (s != NULL)
		s->refs++;
	vg_mutex_unlock(&vg_mod.lock);
	if (s == NULL) {
		rv = CKR_SESSION_HANDLE_INVALID;
		goto out;
	}

	/* Closed while this thread waited for it? closed is written under
	 * the module lock, so it is read under it too (lock order: session,
	 * then module; nothing takes a session lock with the module lock
	 * held). */
	vg_mutex_lock(&s->lock);
	vg_mutex_lock(&vg_mod.lock);
	if (s->closed) {
		vg_mutex_unlock(&s->lock);
		unref_inlock(s);
		rv = CKR_SESSION_HANDLE_INVALID;
	}
	vg_mutex_unlock(&vg_mod.lock);
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
	vg_mutex_unlock(&s->lock);
	vg_mutex_lock(&vg_mod.lock);
	unref_inlock(s);
	vg_mutex_unlock(&vg_mod.lock);
	vg_module_leave();
}

/* see token/token.h */
CK_RV
vg_session_open(CK_SLOT_ID slot_id, CK_FLAGS flags, CK_VOID_PTR app,
    CK_NOTIFY notify, CK_SESSION_HANDLE_PTR out)
{
	struct vg_session *s = NULL;
	struct vg_slot *slot;
	size_t i;
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
	if (vg_mod.nsessions == vg_mod.cap_sessions) {
		size_t cap = vg_mod.cap_sessions ? vg_mod.cap_sessions * 2 : 16;
		struct vg_session **t;

		t = realloc(vg_mod.sessions, cap * sizeof(*t));
		if (t == NULL) {
			rv = CKR_HOST_MEMORY;
			goto out;
		}
		vg_mod.sessions = t;
		vg_mod.cap_sessions = cap;
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
	i = vg_mod.nsessions++;
	vg_mod.sessions[i] = s;
	slot->sessions++;
	if (flags & CKF_RW_SESSION)
		slot->rw_sessions++;
	*out = s->handle;
out:
	vg_module_unlock();
	return rv;
}

/* Removes table entry i and drops the table's reference. */
static void
close_at_inlock(size_t i)
{
	struct vg_session *s = vg_mod.sessions[i];

	memmove(&vg_mod.sessions[i], &vg_mod.sessions[i + 1],
	    (vg_mod.nsessions - i - 1) * sizeof(vg_mod.sessions[0]));
	vg_mod.nsessions--;
	s->slot->sessions--;
	if (s->flags & CKF_RW_SESSION)
		s->slot->rw_sessions--;
	s->closed = 1;
	vg_obj_session_closed_inlock(s);
	/* Closing the application's last session with a token logs it
	 * out [PKCS#11 3.2 §5.6 C_CloseSession]. */
	if (s->slot->sessions == 0)
		vg_slot_logout_inlock(s->slot);
	unref_inlock(s);
}

/* see token/token.h */
CK_RV
vg_session_close(CK_SESSION_HANDLE h)
{
	size_t i;
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	i = find_inlock(h);
	if (i < vg_mod.nsessions && vg_mod.sessions[i]->handle == h)
		close_at_inlock(i);
	else
		rv = CKR_SESSION_HANDLE_INVALID;
	vg_module_unlock();
	return rv;
}

/* see token/token.h */
CK_RV
vg_session_close_all(CK_SLOT_ID slot_id)
{
	size_t i;
	CK_RV rv;

	rv = vg_module_lock();
	if (rv != CKR_OK)
		return rv;
	if (vg_slot_find_inlock(slot_id) == NULL) {
		rv = CKR_SLOT_ID_INVALID;
		goto out;
	}
	for (i = vg_mod.nsessions; i-- > 0;)
		if (vg_mod.sessions[i]->slot->id == slot_id)
			close_at_inlock(i);
out:
	vg_module_unlock();
	return rv;
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
