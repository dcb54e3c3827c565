/*
 * The key cache: decoded keys kept between operations (struct vg_key in
 * token/token.h). The cache holds one reference to each entry and every
 * operation using it holds another; references are counted atomically so
 * that dropping one never needs the module lock (sessions end operations
 * while holding it). Entries are retired, never changed: when an object
 * is changed or destroyed here, its own entries are retired (an entry
 * depends on its object alone, and a destroyed token object's handle may
 * be given again to a new one); when another process changes the store or
 * the user logs out, the whole cache is retired. Later operations load
 * their keys afresh. Creating an object retires nothing: it cannot change
 * a key already decoded, and so C_DeriveKey's new object followed by
 * C_DestroyObject leaves the base key cached.
 *
 * Each session also keeps the last few keys its operations used, with
 * references of its own (struct vg_session), and serves them again
 * without the module lock when two things hold: the store's WAL-index
 * header is the one published after the last refresh (no commit since,
 * by this process or another: vg_db_unchanged_nolock), and no entry was
 * retired since the session took the key (vg_mod.key_epoch, bumped by
 * every retirement that removes an entry). That is exactly when the
 * locked path would find the same key: a key another process destroyed
 * or changed is noticed at the same call as before. An operation's
 * reference then comes back to the session (vg_key_release), so the
 * key's shared count is not touched on that path either.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "token/object.h"
#include "token/token.h"

static void
key_free(struct vg_key *k)
{
	if (k->impl_free != NULL)
		k->impl_free(k->impl);
	free(k->allowed);
	vg_object_free(k->derive_tmpl);
	vg_wipe(k, sizeof(*k));
	free(k);
}

/* see token/token.h */
void
vg_key_put(struct vg_key *k)
{
	if (k != NULL && __atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL) == 0)
		key_free(k);
}

/* A retirement: sessions' copies taken before it are not used again.
 * Release, so that a reader that sees the new epoch (or a store header
 * published after it) sees the retirement. */
static void
bump_epoch_inlock(void)
{
	__atomic_add_fetch(&vg_mod.key_epoch, 1, __ATOMIC_RELEASE);
}

/* see token/token.h */
void
vg_keys_retire_inlock(void)
{
	size_t i;

	bump_epoch_inlock();
	for (i = 0; i < vg_mod.nkeys; i++) {
		vg_mod.keys[i]->retired = 1;
		vg_key_put(vg_mod.keys[i]);
	}
	free(vg_mod.keys);
	vg_mod.keys = NULL;
	vg_mod.nkeys = 0;
}

/* see token/token.h */
void
vg_keys_retire_handle_inlock(CK_OBJECT_HANDLE h)
{
	size_t i, kept = 0;

	for (i = 0; i < vg_mod.nkeys; i++) {
		if (vg_mod.keys[i]->handle == h) {
			vg_mod.keys[i]->retired = 1;
			vg_key_put(vg_mod.keys[i]);
		} else {
			vg_mod.keys[kept++] = vg_mod.keys[i];
		}
	}
	/* A session keeps only keys that are in the cache: an object that
	 * had none (C_DeriveKey's new key, destroyed) changes no epoch and
	 * leaves the sessions' keys in use. */
	if (kept != vg_mod.nkeys)
		bump_epoch_inlock();
	vg_mod.nkeys = kept;
}

/* Drops entry e of a session's keys. */
static void
skey_drop(struct vg_session_key *e)
{
	if (e->k != NULL &&
	    __atomic_sub_fetch(&e->k->refs, e->held, __ATOMIC_ACQ_REL) == 0)
		key_free(e->k);
	e->k = NULL;
	e->held = 0;
}

/* see token/token.h */
void
vg_session_keys_drop(struct vg_session *s)
{
	size_t i;

	for (i = 0; i < VG_SESSION_KEYS; i++)
		skey_drop(&s->keys[i]);
}

/* see token/token.h */
void
vg_session_keys_tidy(struct vg_session *s)
{
	unsigned long epoch = __atomic_load_n(&vg_mod.key_epoch,
	    __ATOMIC_ACQUIRE);
	size_t i;

	for (i = 0; i < VG_SESSION_KEYS; i++)
		if (s->keys[i].k != NULL && s->keys[i].epoch != epoch)
			skey_drop(&s->keys[i]);
}

/* see token/token.h */
void
vg_key_release(struct vg_session *s, struct vg_key *k)
{
	size_t i;

	if (k == NULL)
		return;
	/* Two held (the session's and one for the next operation) are
	 * enough for a session's one operation at a time. */
	for (i = 0; i < VG_SESSION_KEYS; i++) {
		if (s->keys[i].k == k && s->keys[i].held < 2) {
			s->keys[i].held++;
			return;
		}
	}
	vg_key_put(k);
}

/* The session's own copy of key h for loader, with a reference for the
 * caller, or NULL (then the locked path runs). Session lock held. */
static struct vg_key *
session_key(struct vg_session *s, CK_OBJECT_HANDLE h, vg_key_loader *loader)
{
	struct vg_session_key *e = NULL;
	unsigned long epoch;
	size_t i;

	for (i = 0; i < VG_SESSION_KEYS && e == NULL; i++)
		if (s->keys[i].k != NULL && s->keys[i].k->handle == h &&
		    s->keys[i].k->loader == loader)
			e = &s->keys[i];
	if (e == NULL || !vg_mod.db_ok ||
	    !vg_db_unchanged_nolock(&vg_mod.db))
		return NULL;
	/* Read after the store check: a header published after a
	 * retirement comes with that retirement's epoch. */
	epoch = __atomic_load_n(&vg_mod.key_epoch, __ATOMIC_ACQUIRE);
	if (e->epoch != epoch) {
		skey_drop(e);
		return NULL;
	}
	if (e->held > 1)
		e->held--;
	else
		__atomic_add_fetch(&e->k->refs, 1, __ATOMIC_ACQ_REL);
	return e->k;
}

/* Keeps k, just found in the cache at the current epoch, among the
 * session's keys (module and session lock held). */
static void
session_keep_inlock(struct vg_session *s, struct vg_key *k)
{
	unsigned long epoch = __atomic_load_n(&vg_mod.key_epoch,
	    __ATOMIC_RELAXED);
	struct vg_session_key *e = NULL;
	size_t i;

	for (i = 0; i < VG_SESSION_KEYS; i++) {
		if (s->keys[i].k != NULL && s->keys[i].epoch != epoch)
			skey_drop(&s->keys[i]);
		if (s->keys[i].k == k)
			return;
		if (s->keys[i].k == NULL && e == NULL)
			e = &s->keys[i];
	}
	if (e == NULL) {
		e = &s->keys[s->keys_next % VG_SESSION_KEYS];
		s->keys_next++;
		skey_drop(e);
	}
	__atomic_add_fetch(&k->refs, 1, __ATOMIC_ACQ_REL);
	e->k = k;
	e->held = 1;
	e->epoch = epoch;
}

static unsigned
usage_of(const struct vg_object *o)
{
	static const struct {
		CK_ATTRIBUTE_TYPE attr;
		unsigned use;
	} map[] = {
		{ CKA_SIGN, VG_USE_SIGN }, { CKA_VERIFY, VG_USE_VERIFY },
		{ CKA_ENCRYPT, VG_USE_ENCRYPT }, { CKA_DECRYPT, VG_USE_DECRYPT },
		{ CKA_DERIVE, VG_USE_DERIVE }, { CKA_WRAP, VG_USE_WRAP },
		{ CKA_UNWRAP, VG_USE_UNWRAP },
		{ CKA_ENCAPSULATE, VG_USE_ENCAPSULATE },
		{ CKA_DECAPSULATE, VG_USE_DECAPSULATE },
	};
	unsigned use = 0;
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (vg_object_bool(o, map[i].attr, CK_FALSE))
			use |= map[i].use;
	return use;
}

static CK_RV
key_from_object(const struct vg_object *o, vg_key_loader *loader,
    struct vg_key **out)
{
	const struct vg_attr *am = vg_object_attr(o, CKA_ALLOWED_MECHANISMS);
	struct vg_key *k = calloc(1, sizeof(*k));
	CK_RV rv;

	if (k == NULL)
		return CKR_HOST_MEMORY;
	k->refs = 1;
	k->handle = o->handle;
	k->loader = loader;
	k->cls = o->cls;
	k->type = o->key_type;
	k->use = usage_of(o);
	k->always_auth = vg_object_bool(o, CKA_ALWAYS_AUTHENTICATE, CK_FALSE);
	/* read-only attributes: what a derived key inherits (§6.3.15) */
	k->always_sensitive = vg_object_bool(o, CKA_ALWAYS_SENSITIVE,
	    CK_FALSE);
	k->never_extractable = vg_object_bool(o, CKA_NEVER_EXTRACTABLE,
	    CK_FALSE);
	if (am != NULL && am->len >= sizeof(CK_MECHANISM_TYPE)) {
		k->nallowed = am->len / sizeof(CK_MECHANISM_TYPE);
		k->allowed = malloc(k->nallowed * sizeof(CK_MECHANISM_TYPE));
		if (k->allowed == NULL) {
			key_free(k);
			return CKR_HOST_MEMORY;
		}
		memcpy(k->allowed, am->value,
		    k->nallowed * sizeof(CK_MECHANISM_TYPE));
	}
	/* Kept so that each C_DeriveKey need not load the object again
	 * (pkcs11/keys.c); one that does not decode is left for the load
	 * to report. */
	if (vg_object_nested(o, CKA_DERIVE_TEMPLATE, &k->derive_tmpl) ==
	    CKR_HOST_MEMORY) {
		key_free(k);
		return CKR_HOST_MEMORY;
	}
	rv = loader(o, k);
	if (rv != CKR_OK) {
		key_free(k);
		return rv;
	}
	*out = k;
	return CKR_OK;
}

/* see token/token.h */
CK_RV
vg_key_get(struct vg_session *s, CK_OBJECT_HANDLE h, vg_key_loader *loader,
    struct vg_key **out)
{
	struct vg_object *o = NULL;
	struct vg_key *k = NULL, **t;
	size_t i;
	CK_RV rv = CKR_OK;

	*out = session_key(s, h, loader);
	if (*out != NULL)
		return CKR_OK;
	vg_mutex_lock(&vg_mod.lock);
	/* A change by another process retires the cache (our own changes
	 * retire it where they happen). */
	rv = vg_slots_refresh_inlock();
	/* The caches are now up to the header it saw. */
	if (rv == CKR_OK && vg_mod.db_ok)
		vg_db_publish_inlock(&vg_mod.db);
	for (i = 0; rv == CKR_OK && i < vg_mod.nkeys; i++) {
		if (vg_mod.keys[i]->handle == h &&
		    vg_mod.keys[i]->slot == s->slot->id &&
		    vg_mod.keys[i]->loader == loader) {
			k = vg_mod.keys[i];
			break;
		}
	}
	/* A private key the session may no longer see is not served from
	 * the cache: logout retires it, and the check below repeats. */
	if (rv == CKR_OK && k == NULL) {
		rv = vg_obj_load_key_inlock(s, h, &o);
		/* An object that is not a key is no key handle
		 * [PKCS#11 3.2 §5.1: CKR_KEY_HANDLE_INVALID]. */
		if (rv == CKR_OBJECT_HANDLE_INVALID || (rv == CKR_OK &&
		    o->cls != CKO_PUBLIC_KEY && o->cls != CKO_PRIVATE_KEY &&
		    o->cls != CKO_SECRET_KEY))
			rv = CKR_KEY_HANDLE_INVALID;
		if (rv == CKR_OK)
			rv = key_from_object(o, loader, &k);
		if (rv == CKR_OK) {
			k->slot = s->slot->id;
			t = realloc(vg_mod.keys,
			    (vg_mod.nkeys + 1) * sizeof(*t));
			if (t != NULL) {
				vg_mod.keys = t;
				vg_mod.keys[vg_mod.nkeys++] = k;
				__atomic_add_fetch(&k->refs, 1,
				    __ATOMIC_ACQ_REL);
				session_keep_inlock(s, k);
			}
			/* Without room in the cache the key still serves
			 * this operation (and is not kept by the session:
			 * only cached keys are retired with an epoch). */
		}
	} else if (rv == CKR_OK) {
		__atomic_add_fetch(&k->refs, 1, __ATOMIC_ACQ_REL);
		session_keep_inlock(s, k);
	}
	vg_mutex_unlock(&vg_mod.lock);
	vg_object_free(o);
	if (rv == CKR_OK)
		*out = k;
	return rv;
}

/* see token/token.h */
CK_RV
vg_key_session_derive_template(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_object **out)
{
	const struct vg_session_key *e = NULL;
	size_t i;

	*out = NULL;
	for (i = 0; i < VG_SESSION_KEYS && e == NULL; i++)
		if (s->keys[i].k != NULL && s->keys[i].k->handle == h &&
		    s->keys[i].k->slot == s->slot->id &&
		    s->keys[i].k->derive_tmpl != NULL)
			e = &s->keys[i];
	/* Served under the conditions of session_key(): then the locked
	 * path would find this entry in the cache. */
	if (e == NULL || !vg_mod.db_ok ||
	    !vg_db_unchanged_nolock(&vg_mod.db) ||
	    e->epoch != __atomic_load_n(&vg_mod.key_epoch, __ATOMIC_ACQUIRE))
		return CKR_OK;
	*out = vg_object_clone(e->k->derive_tmpl);
	return *out != NULL ? CKR_OK : CKR_HOST_MEMORY;
}

/* see token/token.h */
CK_RV
vg_key_cached_derive_template_inlock(struct vg_session *s, CK_OBJECT_HANDLE h,
    struct vg_object **out)
{
	size_t i;

	*out = NULL;
	for (i = 0; i < vg_mod.nkeys; i++) {
		const struct vg_key *k = vg_mod.keys[i];

		if (k->handle != h || k->slot != s->slot->id ||
		    k->derive_tmpl == NULL)
			continue;
		*out = vg_object_clone(k->derive_tmpl);
		return *out != NULL ? CKR_OK : CKR_HOST_MEMORY;
	}
	return CKR_OK;
}

/* see token/token.h */
int
vg_key_allows(const struct vg_key *k, CK_MECHANISM_TYPE m)
{
	size_t i;

	if (k->allowed == NULL)
		return 1;
	for (i = 0; i < k->nallowed; i++)
		if (k->allowed[i] == m)
			return 1;
	return 0;
}
