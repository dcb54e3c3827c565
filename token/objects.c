/*
 * The object functions over both kinds of objects, with the access rules
 * of sessions and login [PKCS#11 3.2 §4.4, §5.7]:
 *
 *  - session objects live in this process, belong to the session that
 *    made them and vanish with it; every session of the application on
 *    the same slot sees them;
 *  - token objects live in the database; changing them needs a
 *    read/write session;
 *  - private objects exist only for sessions logged in as the user;
 *    an SO session reaches public objects only.
 *
 * Token objects are reached under the module lock (the database
 * connection is shared by all threads); session objects are not: they
 * live in a store of their own (token/sobj.c), whose shards have their
 * own locks, taken after the module lock when both are held. A call on
 * session objects alone (a template with CKA_TOKEN false, a session
 * object's handle) takes no module lock, except to retire the cached
 * keys of a session object that was used as a key.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cryptoki/nss.h"
#include "token/object.h"
#include "token/token.h"

static int
is_session_handle(CK_OBJECT_HANDLE h)
{
	return (h & VG_SESSION_OBJECT_BIT) != 0;
}

/* May this session create or change an object with these properties?
 * The module lock is held, or the object is a session object (the login
 * is read as vg_slot_login() reads it). */
static CK_RV
may_write(const struct vg_session *s, int token_obj, int private_obj)
{
	if (token_obj && !(s->flags & CKF_RW_SESSION))
		return CKR_SESSION_READ_ONLY;
	if (private_obj && vg_slot_login(s->slot) != CKU_USER)
		return CKR_USER_NOT_LOGGED_IN;
	if (token_obj && !s->slot->initialized)
		return CKR_TOKEN_NOT_RECOGNIZED;
	return CKR_OK;
}

/* A token object's copy, module lock held. */
static CK_RV
load_token_inlock(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_object **out)
{
	*out = NULL;
	if (!s->slot->listed)
		return CKR_DEVICE_REMOVED;
	if (!s->slot->initialized || h == CK_INVALID_HANDLE)
		return CKR_OBJECT_HANDLE_INVALID;
	return vg_store_load_inlock(s->slot, h, out);
}

/* see token/token.h */
CK_RV
vg_obj_load_inlock(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_object **out)
{
	if (is_session_handle(h))
		return vg_sobj_load(s, h, 0, out);
	return load_token_inlock(s, h, out);
}

/* see token/token.h */
CK_RV
vg_obj_load_key_inlock(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_object **out)
{
	if (is_session_handle(h))
		return vg_sobj_load(s, h, 1, out);
	return load_token_inlock(s, h, out);
}

/* A copy of object h, taking the module lock for a token object only. */
static CK_RV
load(struct vg_session *s, CK_OBJECT_HANDLE h, struct vg_object **out)
{
	CK_RV rv;

	if (is_session_handle(h))
		return vg_sobj_load(s, h, 0, out);
	vg_mutex_lock(&vg_mod.lock);
	rv = load_token_inlock(s, h, out);
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/* CKA_UNIQUE_ID [PKCS#11 3.2 §4.4]: set by the token on every new object,
 * copies included; 128 random bits in hex, from the thread's pool. */
static CK_RV
set_unique_id(struct vg_object *o)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t r[16];
	char id[32];
	size_t i;

	if (vg_random_uid(r) != CKR_OK)
		return CKR_FUNCTION_FAILED;
	for (i = 0; i < 16; i++) {
		id[2 * i] = hex[r[i] >> 4];
		id[2 * i + 1] = hex[r[i] & 15];
	}
	return vg_object_set_attr(o, CKA_UNIQUE_ID, id, sizeof(id));
}

static int
is_token_object(const struct vg_object *o)
{
	return vg_object_bool(o, CKA_TOKEN, CK_FALSE);
}

/* Adds a new object, as a session object or in the database; the module
 * lock is held for a token object. Takes o in every case. */
static CK_RV
add_inlock(struct vg_session *s, struct vg_object *o, CK_OBJECT_HANDLE *out)
{
	int token_obj = is_token_object(o);
	CK_RV rv;

	rv = may_write(s, token_obj, vg_object_is_private(o));
	if (rv == CKR_OK)
		rv = set_unique_id(o);
	if (rv != CKR_OK) {
		vg_object_free(o);
		return rv;
	}
	/* A session object's login is checked again where it is added,
	 * under its shard's lock. */
	if (!token_obj)
		return vg_sobj_insert(s, o, out);
	rv = vg_store_insert_inlock(s->slot, o);
	if (rv == CKR_OK)
		*out = o->handle;
	vg_object_free(o);
	return rv;
}

/* add_inlock, taking the module lock for a token object only. */
static CK_RV
add(struct vg_session *s, struct vg_object *o, CK_OBJECT_HANDLE *out)
{
	CK_RV rv;

	if (!is_token_object(o))
		return add_inlock(s, o, out);
	vg_mutex_lock(&vg_mod.lock);
	rv = add_inlock(s, o, out);
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/* The object-layer flags for this session's login: only the SO may set
 * CKA_TRUSTED to CK_TRUE, change a trusted certificate and copy a
 * trusted object [PKCS#11 3.2 §4.7, footnote 10]. */
static unsigned
login_flags(const struct vg_session *s)
{
	return vg_slot_login(s->slot) == CKU_SO ? VG_OBJ_F_SO : 0;
}

/* see token/token.h */
CK_RV
vg_obj_may_generate(struct vg_session *s, const CK_ATTRIBUTE *t, CK_ULONG n,
    int secret)
{
	const CK_ATTRIBUTE *tok = vg_template_find(t, n, CKA_TOKEN);
	const CK_ATTRIBUTE *prv = vg_template_find(t, n, CKA_PRIVATE);
	int token_obj = tok != NULL && tok->pValue != NULL &&
	    tok->ulValueLen == 1 && *(const CK_BBOOL *)tok->pValue == CK_TRUE;
	int private_obj = secret;
	CK_RV rv;

	if (prv != NULL && prv->pValue != NULL && prv->ulValueLen == 1)
		private_obj = *(const CK_BBOOL *)prv->pValue == CK_TRUE;
	/* A session object's login is checked again where it is added. */
	if (!token_obj)
		return may_write(s, 0, private_obj);
	vg_mutex_lock(&vg_mod.lock);
	rv = may_write(s, token_obj, private_obj);
	/* A key with secret parts is stored encrypted under the master
	 * key, which only a login opens, even when CKA_PRIVATE is false. */
	if (rv == CKR_OK && token_obj && secret && s->slot->mk == NULL)
		rv = CKR_USER_NOT_LOGGED_IN;
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/*
 * NSS writes a certificate's trust by creating a trust token object
 * (CKO_NSS_TRUST, or CKO_TRUST on a 3.2 token) whether or not one exists
 * (certutil -A, certutil -M, the certificate manager), and expects the
 * token to keep one per certificate, as its own database does. So a new
 * trust token object for the issuer and serial number of a stored one
 * of the same class replaces that object's attributes (its handle and
 * CKA_UNIQUE_ID stay). *done 1: replaced, or an error; o is taken.
 * *done 0: no such object, o untouched.
 */
static CK_RV
trust_replace_inlock(struct vg_session *s, struct vg_object *o,
    CK_OBJECT_HANDLE *out, int *done)
{
	static const CK_BBOOL yes = CK_TRUE;
	const struct vg_attr *issuer = vg_object_attr(o, CKA_ISSUER);
	const struct vg_attr *serial = vg_object_attr(o, CKA_SERIAL_NUMBER);
	const struct vg_attr *uid;
	CK_ATTRIBUTE t[4];
	CK_OBJECT_HANDLE *ids = NULL;
	struct vg_object *old = NULL;
	size_t count = 0;
	CK_RV rv;

	*done = 0;
	if ((o->cls != CKO_NSS_TRUST && o->cls != CKO_TRUST) ||
	    !vg_object_bool(o, CKA_TOKEN, CK_FALSE) ||
	    issuer == NULL || serial == NULL || !s->slot->initialized)
		return CKR_OK;
	t[0] = (CK_ATTRIBUTE){ CKA_CLASS, &o->cls, sizeof(o->cls) };
	t[1] = (CK_ATTRIBUTE){ CKA_TOKEN, (void *)&yes, sizeof(yes) };
	t[2] = (CK_ATTRIBUTE){ CKA_ISSUER, issuer->value, issuer->len };
	t[3] = (CK_ATTRIBUTE){ CKA_SERIAL_NUMBER, serial->value, serial->len };
	rv = vg_store_find_inlock(s->slot, t, 4, &ids, &count);
	if (rv == CKR_OK && count > 0)
		rv = vg_store_load_inlock(s->slot, ids[0], &old);
	free(ids);
	if (rv == CKR_OK && old == NULL)
		return CKR_OK;
	*done = 1;
	if (rv == CKR_OK)
		rv = may_write(s, 1, vg_object_is_private(old) ||
		    vg_object_is_private(o));
	if (rv == CKR_OK && !vg_object_bool(old, CKA_MODIFIABLE, CK_TRUE))
		rv = CKR_ACTION_PROHIBITED;
	uid = rv == CKR_OK ? vg_object_attr(old, CKA_UNIQUE_ID) : NULL;
	if (uid != NULL)
		rv = vg_object_set_attr(o, CKA_UNIQUE_ID, uid->value, uid->len);
	if (rv == CKR_OK) {
		o->db_id = old->db_id;
		o->handle = old->handle;
		rv = vg_store_update_inlock(s->slot, o);
	}
	if (rv == CKR_OK)
		*out = old->handle;
	vg_object_free(old); /* NULL is accepted */
	vg_object_free(o);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_create(struct vg_session *s, const CK_ATTRIBUTE *t, CK_ULONG n,
    CK_OBJECT_HANDLE *out)
{
	struct vg_object *o = NULL;
	unsigned flags;
	int done = 0;
	CK_RV rv;

	/* The template is checked outside the lock; a logout meanwhile
	 * orders the creation before it. */
	flags = login_flags(s);
	rv = vg_object_from_template_ex(VG_OBJ_CREATE,
	    CK_UNAVAILABLE_INFORMATION, CK_UNAVAILABLE_INFORMATION,
	    CK_UNAVAILABLE_INFORMATION, flags, t, n, &o);
	if (rv == CKR_OK)
		rv = vg_key_complete(o);
	if (rv != CKR_OK) {
		vg_object_free(o);
		return rv;
	}
	if (!is_token_object(o))
		return add_inlock(s, o, out);
	vg_mutex_lock(&vg_mod.lock);
	rv = trust_replace_inlock(s, o, out, &done);
	if (rv == CKR_OK && !done)
		rv = add_inlock(s, o, out);
	vg_mutex_unlock(&vg_mod.lock);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_copy(struct vg_session *s, CK_OBJECT_HANDLE h, const CK_ATTRIBUTE *t,
    CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	struct vg_object *src = NULL, *o = NULL;
	CK_RV rv;

	/* A copy made from the source as it was when loaded: a change or
	 * destruction meanwhile orders the copy before it. */
	rv = load(s, h, &src);
	if (rv == CKR_OK)
		rv = vg_object_copy_ex(src, login_flags(s), t, n, &o);
	if (rv == CKR_OK)
		rv = vg_key_check_change(o, t, n);
	if (rv == CKR_OK) {
		o->db_id = 0;
		rv = add(s, o, out);
		o = NULL; /* taken */
	}
	vg_object_free(o);
	vg_object_free(src);
	return rv;
}

/*
 * A token object its checks refuse (tampered with, or damaged) cannot be
 * used, but its owner can still remove it: none of its attributes is
 * trusted, CKA_DESTROYABLE included, so only what the row's columns say
 * (its privacy) decides who may, as for any object.
 */
static CK_RV
destroy_refused_inlock(struct vg_session *s, CK_OBJECT_HANDLE h)
{
	int64_t id = 0;
	int private_obj = 0;
	CK_RV rv;

	rv = vg_store_refused_inlock(s->slot, h, &id, &private_obj);
	if (rv == CKR_GENERAL_ERROR)
		rv = CKR_DEVICE_ERROR;
	if (rv == CKR_OK)
		rv = may_write(s, 1, private_obj);
	if (rv == CKR_OK) {
		vg_keys_retire_handle_inlock(h);
		rv = vg_store_delete_inlock(s->slot, id);
	}
	if (rv == CKR_OK)
		VG_LOG(VG_LOG_WARNING, "object %lld: refused by its checks, "
		    "destroyed", (long long)id);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_destroy(struct vg_session *s, CK_OBJECT_HANDLE h)
{
	struct vg_object *copy = NULL;
	CK_RV rv;

	/* a session object is checked where it is, in its store */
	if (is_session_handle(h))
		return vg_sobj_destroy(s, h);
	vg_mutex_lock(&vg_mod.lock);
	rv = load_token_inlock(s, h, &copy);
	if (rv == CKR_DEVICE_ERROR)
		rv = destroy_refused_inlock(s, h);
	if (rv != CKR_OK || copy == NULL)
		goto out;
	if (!vg_object_bool(copy, CKA_DESTROYABLE, CK_TRUE)) {
		rv = CKR_ACTION_PROHIBITED;
		goto out;
	}
	rv = may_write(s, 1, vg_object_is_private(copy));
	if (rv != CKR_OK)
		goto out;
	vg_keys_retire_handle_inlock(h);
	rv = vg_store_delete_inlock(s->slot, copy->db_id);
out:
	vg_mutex_unlock(&vg_mod.lock);
	vg_object_free(copy);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_size(struct vg_session *s, CK_OBJECT_HANDLE h, CK_ULONG *size)
{
	struct vg_object *o = NULL;
	CK_ULONG total = 0;
	size_t i;
	CK_RV rv;

	rv = load(s, h, &o);
	if (rv == CKR_OK) {
		for (i = 0; i < o->n; i++)
			total += sizeof(CK_ATTRIBUTE) + o->attrs[i].len;
		*size = total;
	}
	vg_object_free(o);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_get(struct vg_session *s, CK_OBJECT_HANDLE h, CK_ATTRIBUTE *t,
    CK_ULONG n)
{
	struct vg_object *o = NULL;
	CK_RV rv;

	rv = load(s, h, &o);
	if (rv == CKR_OK)
		rv = vg_object_get_attrs(o, t, n);
	vg_object_free(o);
	return rv;
}

/* The template of a C_SetAttributeValue. */
struct set_ctx {
	const CK_ATTRIBUTE *t;
	CK_ULONG n;
	int token_obj;
};

/* Applies the change to o, a copy of the object, with its checks. */
static CK_RV
apply_set(struct vg_session *s, struct vg_object *o, void *ctx)
{
	const struct set_ctx *c = ctx;
	CK_RV rv;

	rv = may_write(s, c->token_obj, vg_object_is_private(o));
	if (rv == CKR_OK)
		rv = vg_object_apply_set_ex(o, login_flags(s), c->t, c->n);
	if (rv == CKR_OK)
		rv = vg_key_check_change(o, c->t, c->n);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_set(struct vg_session *s, CK_OBJECT_HANDLE h, const CK_ATTRIBUTE *t,
    CK_ULONG n)
{
	struct set_ctx c = { t, n, !is_session_handle(h) };
	struct vg_object *o = NULL;
	CK_RV rv;

	if (is_session_handle(h))
		return vg_sobj_update(s, h, apply_set, &c);
	vg_mutex_lock(&vg_mod.lock);
	rv = load_token_inlock(s, h, &o);
	if (rv == CKR_OK)
		rv = apply_set(s, o, &c);
	if (rv == CKR_OK) {
		vg_keys_retire_handle_inlock(h);
		rv = vg_store_update_inlock(s->slot, o);
	}
	vg_mutex_unlock(&vg_mod.lock);
	vg_object_free(o);
	return rv;
}

/* see token/token.h
 * The session's search results stay until its last reference goes: a
 * thread still in a call in it may be reading them. */
void
vg_obj_session_closed_inlock(struct vg_session *s)
{
	vg_sobj_session_closed_inlock(s);
}

/* see token/token.h */
void
vg_obj_logout_inlock(struct vg_slot *slot)
{
	vg_sobj_logout_inlock(slot);
}

/* Whether template t says CKA_TOKEN value v (CK_TRUE or CK_FALSE): a
 * search for the other kind of object finds nothing of that kind. */
static int
says_token(const CK_ATTRIBUTE *t, CK_ULONG n, CK_BBOOL v)
{
	const CK_ATTRIBUTE *a = vg_template_find(t, n, CKA_TOKEN);

	return a != NULL && a->pValue != NULL && a->ulValueLen == 1 &&
	    *(const CK_BBOOL *)a->pValue == v;
}

/* see token/token.h
 * Session objects are searched in their store and token objects, unless
 * the template says CKA_TOKEN false, in the database under the module
 * lock: two snapshots, as any search of two stores that change. */
CK_RV
vg_obj_find_init(struct vg_session *s, const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_OBJECT_HANDLE *ids = NULL, *found = NULL;
	size_t count = 0, k = 0, cap = 0, i;
	CK_RV rv = CKR_OK;

	if (s->finding)
		return CKR_OPERATION_ACTIVE;
	if (!says_token(t, n, CK_TRUE))
		rv = vg_sobj_find(s, t, n, &found, &k, &cap);
	if (rv == CKR_OK && !says_token(t, n, CK_FALSE)) {
		vg_mutex_lock(&vg_mod.lock);
		if (s->slot->initialized && s->slot->listed)
			rv = vg_store_find_inlock(s->slot, t, n, &ids, &count);
		vg_mutex_unlock(&vg_mod.lock);
	}
	if (rv == CKR_OK && (cap < k + count || found == NULL)) {
		CK_OBJECT_HANDLE *g = realloc(found,
		    (k + count + 1) * sizeof(*g));

		if (g == NULL)
			rv = CKR_HOST_MEMORY;
		else
			found = g;
	}
	if (rv != CKR_OK) {
		free(found);
		goto out;
	}
	for (i = 0; i < count; i++)
		found[k++] = ids[i];
	s->found = found;
	s->nfound = k;
	s->found_pos = 0;
	s->finding = 1;
out:
	free(ids);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_find(struct vg_session *s, CK_OBJECT_HANDLE *out, CK_ULONG max,
    CK_ULONG *count)
{
	CK_ULONG k = 0;

	if (!s->finding)
		return CKR_OPERATION_NOT_INITIALIZED;
	while (k < max && s->found_pos < s->nfound)
		out[k++] = s->found[s->found_pos++];
	*count = k;
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_obj_find_final(struct vg_session *s)
{
	if (!s->finding)
		return CKR_OPERATION_NOT_INITIALIZED;
	free(s->found);
	s->found = NULL;
	s->nfound = s->found_pos = 0;
	s->finding = 0;
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_obj_digest_key(struct vg_session *s, CK_OBJECT_HANDLE h, struct vg_hash *d)
{
	struct vg_object *o = NULL;
	const struct vg_attr *v;
	CK_RV rv;

	rv = load(s, h, &o);
	if (rv == CKR_OBJECT_HANDLE_INVALID)
		rv = CKR_KEY_HANDLE_INVALID;
	if (rv != CKR_OK)
		goto out;
	v = vg_object_attr(o, CKA_VALUE);
	/* Only secret keys have a value to digest. */
	if (o->cls != CKO_SECRET_KEY || v == NULL)
		rv = CKR_KEY_INDIGESTIBLE;
	else
		vg_hash_update(d, v->value, v->len);
out:
	vg_object_free(o);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_key_template(struct vg_session *s, CK_OBJECT_HANDLE h,
    CK_ATTRIBUTE_TYPE which, const CK_ATTRIBUTE *t, CK_ULONG n,
    struct vg_key_template *out)
{
	struct vg_object *o = NULL;
	CK_RV rv;

	memset(out, 0, sizeof(*out));
	/* A key the session used lately has its derive template with it,
	 * served without the lock as its key would be. */
	rv = which == CKA_DERIVE_TEMPLATE ?
	    vg_key_session_derive_template(s, h, &out->nested) : CKR_OK;
	if (rv != CKR_OK || out->nested != NULL)
		goto nested;
	vg_mutex_lock(&vg_mod.lock);
	/* A key in use has its derive template in the cache (a change by
	 * another process retires the cache first); others are loaded. */
	rv = vg_slots_refresh_inlock();
	if (rv == CKR_OK && which == CKA_DERIVE_TEMPLATE)
		rv = vg_key_cached_derive_template_inlock(s, h, &out->nested);
	if (rv == CKR_OK && out->nested == NULL)
		rv = vg_obj_load_inlock(s, h, &o);
	vg_mutex_unlock(&vg_mod.lock);
nested:
	if (rv == CKR_OBJECT_HANDLE_INVALID)
		rv = CKR_KEY_HANDLE_INVALID;
	if (rv == CKR_OK && out->nested == NULL)
		rv = vg_object_nested(o, which, &out->nested);
	if (rv == CKR_OK)
		rv = vg_template_under(out->nested, t, n, &out->t, &out->n);
	vg_object_free(o);
	return rv;
}

/* see token/token.h */
void
vg_key_template_free(struct vg_key_template *kt)
{
	free(kt->t);
	vg_object_free(kt->nested);
	memset(kt, 0, sizeof(*kt));
}

/* see token/token.h */
CK_RV
vg_obj_wrap_target(struct vg_session *s, CK_OBJECT_HANDLE hw,
    CK_OBJECT_HANDLE h, struct vg_object **out)
{
	struct vg_object *w = NULL, *o = NULL, *wt = NULL;
	CK_ATTRIBUTE *t = NULL;
	CK_ULONG n = 0;
	CK_RV rv;

	*out = NULL;
	vg_mutex_lock(&vg_mod.lock);
	rv = vg_slots_refresh_inlock();
	if (rv == CKR_OK) {
		rv = vg_obj_load_inlock(s, hw, &w);
		if (rv == CKR_OBJECT_HANDLE_INVALID)
			rv = CKR_WRAPPING_KEY_HANDLE_INVALID;
	}
	if (rv == CKR_OK) {
		rv = vg_obj_load_inlock(s, h, &o);
		if (rv == CKR_OBJECT_HANDLE_INVALID)
			rv = CKR_KEY_HANDLE_INVALID;
	}
	vg_mutex_unlock(&vg_mod.lock);
	if (rv != CKR_OK)
		goto out;
	if (o->cls == CKO_PUBLIC_KEY)
		rv = CKR_KEY_NOT_WRAPPABLE;
	else if (o->cls != CKO_PRIVATE_KEY && o->cls != CKO_SECRET_KEY)
		rv = CKR_KEY_HANDLE_INVALID;
	else if (!vg_object_bool(o, CKA_EXTRACTABLE, CK_FALSE))
		rv = CKR_KEY_UNEXTRACTABLE;
	else if (vg_object_bool(o, CKA_WRAP_WITH_TRUSTED, CK_FALSE) &&
	    !vg_object_bool(w, CKA_TRUSTED, CK_FALSE))
		rv = CKR_KEY_NOT_WRAPPABLE;
	if (rv == CKR_OK)
		rv = vg_object_nested(w, CKA_WRAP_TEMPLATE, &wt);
	if (rv == CKR_OK)
		rv = vg_object_as_template(wt, &t, &n);
	if (rv == CKR_OK && !vg_object_match(o, t, n))
		rv = CKR_KEY_HANDLE_INVALID;
	if (rv == CKR_OK) {
		*out = o;
		o = NULL;
	}
out:
	free(t);
	vg_object_free(wt);
	vg_object_free(w);
	vg_object_free(o);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_generate_secret(struct vg_session *s, CK_MECHANISM_TYPE mech,
    CK_KEY_TYPE kt, CK_ULONG min_len, CK_ULONG max_len,
    const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	struct vg_object *o = NULL;
	struct vg_rng *r;
	uint8_t value[512];
	CK_ULONG len;
	CK_RV rv;

	rv = vg_object_from_template(VG_OBJ_GENERATE, CKO_SECRET_KEY, kt, mech,
	    t, n, &o);
	if (rv != CKR_OK)
		return rv;
	len = vg_object_ulong(o, CKA_VALUE_LEN, 0);
	if (len < min_len || len > max_len || len > sizeof(value) ||
	    (kt == CKK_AES && len != 16 && len != 24 && len != 32)) {
		vg_object_free(o);
		return CKR_KEY_SIZE_RANGE;
	}
	/* the thread's DRBG, as key pair generation uses */
	r = vg_rng_thread();
	if (r == NULL || vg_rng_generate(r, value, len) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_VALUE, value, len);
	vg_wipe(value, sizeof(value));
	if (rv == CKR_OK)
		rv = vg_object_complete(o);
	if (rv == CKR_OK)
		rv = add(s, o, out);
	else
		vg_object_free(o);
	return rv;
}

/* see token/token.h */
CK_RV
vg_obj_add(struct vg_session *s, struct vg_object *o, CK_OBJECT_HANDLE *out)
{
	return add(s, o, out);
}

/* see token/token.h */
CK_RV
vg_obj_add_pair(struct vg_session *s, struct vg_object *pub,
    struct vg_object *priv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv)
{
	/* A pair of session objects is added without the module lock; one
	 * with a token object under it, as one step. */
	int locked = is_token_object(pub) || is_token_object(priv);
	CK_RV rv;

	if (locked)
		vg_mutex_lock(&vg_mod.lock);
	rv = add_inlock(s, pub, hpub);
	if (rv != CKR_OK) {
		vg_object_free(priv);
	} else {
		rv = add_inlock(s, priv, hpriv);
		if (rv != CKR_OK) {
			/* Both or neither. */
			if (locked)
				vg_mutex_unlock(&vg_mod.lock);
			vg_obj_destroy(s, *hpub);
			return rv;
		}
	}
	if (locked)
		vg_mutex_unlock(&vg_mod.lock);
	return rv;
}
