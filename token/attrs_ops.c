/*
 * The operations that build and change objects under the rule table of
 * token/attrs.c: object creation [PKCS#11 3.2 §4.1.1] (C_CreateObject and
 * the key management functions of §5.19), C_SetAttributeValue [§4.1.2,
 * §5.7.6] and C_CopyObject [§4.1.3, §5.7.2].
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "token/object.h"

static int
is_key(CK_OBJECT_CLASS cls)
{
	return cls == CKO_PUBLIC_KEY || cls == CKO_PRIVATE_KEY ||
	    cls == CKO_SECRET_KEY;
}

/* 1 if attribute a holds len bytes v. */
static int
same_value(const struct vg_attr *a, const void *v, CK_ULONG len)
{
	return a->len == len && (len == 0 || memcmp(a->value, v, len) == 0);
}

/* 1 if the template value is CK_TRUE (the value is already checked). */
static int
tmpl_true(const CK_ATTRIBUTE *e)
{
	return e->ulValueLen == sizeof(CK_BBOOL) &&
	    *(const CK_BBOOL *)e->pValue == CK_TRUE;
}

/*
 * The identity attribute type (CKA_CLASS, CKA_KEY_TYPE,
 * CKA_CERTIFICATE_TYPE) from the template and the hint: *v is the value,
 * CK_UNAVAILABLE_INFORMATION when neither gives one. Malformed:
 * CKR_ATTRIBUTE_VALUE_INVALID; two different values, or a value other than
 * the hint: CKR_TEMPLATE_INCONSISTENT [§5.19.1, §5.19.2].
 */
static CK_RV
identity(const CK_ATTRIBUTE *t, CK_ULONG n, CK_ATTRIBUTE_TYPE type,
    CK_ULONG hint, CK_ULONG *v)
{
	CK_ULONG i, x;

	*v = hint;
	for (i = 0; i < n; i++) {
		if (t[i].type != type)
			continue;
		if (t[i].pValue == NULL || t[i].ulValueLen != sizeof(CK_ULONG))
			return CKR_ATTRIBUTE_VALUE_INVALID;
		memcpy(&x, t[i].pValue, sizeof(x));
		if (x == CK_UNAVAILABLE_INFORMATION)
			return CKR_ATTRIBUTE_VALUE_INVALID;
		if (*v != CK_UNAVAILABLE_INFORMATION && *v != x)
			return CKR_TEMPLATE_INCONSISTENT;
		*v = x;
	}
	return CKR_OK;
}

/* Whether op may take attribute e from a caller's template: the
 * footnotes 2, 4, 6 and 10 of §4.2. */
static CK_RV
op_allows(enum vg_obj_op op, unsigned flags, const struct vg_attr_rule *r,
    const CK_ATTRIBUTE *e)
{
	unsigned forbid = 0;

	switch (op) {
	case VG_OBJ_CREATE:
		forbid = VG_A_NO_CREATE;
		break;
	case VG_OBJ_GENERATE:
	case VG_OBJ_DERIVE:
		forbid = VG_A_NO_GEN;
		break;
	case VG_OBJ_UNWRAP:
		forbid = VG_A_NO_UNWRAP;
		break;
	default:
		break;
	}
	if ((r->flags & forbid) != 0)
		return CKR_ATTRIBUTE_READ_ONLY;
	if ((r->flags & VG_A_SO_TRUE) != 0 && tmpl_true(e) &&
	    (flags & VG_OBJ_F_SO) == 0)
		return CKR_ATTRIBUTE_READ_ONLY;
	return CKR_OK;
}

/*
 * Puts template entry e (already checked) into o. If an earlier entry of
 * the same template (flagged in seen) set the type, the values must agree:
 * else CKR_TEMPLATE_INCONSISTENT (§4.1.1 item 6: the same value twice is
 * taken once).
 */
static CK_RV
put_entry(struct vg_object *o, const CK_ATTRIBUTE *e, int seen)
{
	const struct vg_attr *old = vg_object_attr(o, e->type);
	uint8_t *buf;
	const void *v;
	CK_ULONG len;
	CK_RV rv;

	rv = vg_attr_stored_form(e, &buf, &v, &len);
	if (rv != CKR_OK)
		return rv;
	if (seen && old != NULL)
		rv = same_value(old, v, len) ? CKR_OK
		    : CKR_TEMPLATE_INCONSISTENT;
	else
		rv = vg_object_set_attr(o, e->type, v, len);
	free(buf);
	return rv;
}

/* 1 if an entry before i in t has the type of t[i]. */
static int
seen_before(const CK_ATTRIBUTE *t, CK_ULONG i)
{
	CK_ULONG j;

	for (j = 0; j < i; j++)
		if (t[j].type == t[i].type)
			return 1;
	return 0;
}

/* Sets the token-computed key attributes for op (§4.9, §4.11, §4.12,
 * §5.7.1, §5.19). */
static CK_RV
set_token_attrs(struct vg_object *o, enum vg_obj_op op,
    CK_MECHANISM_TYPE mech)
{
	CK_BBOOL local = op == VG_OBJ_GENERATE, as, ne;
	CK_ULONG kgm = op == VG_OBJ_GENERATE ? mech
	    : CK_UNAVAILABLE_INFORMATION;
	int fresh = op == VG_OBJ_GENERATE || op == VG_OBJ_DERIVE;
	CK_RV rv;

	if (!is_key(o->cls))
		return CKR_OK;
	rv = vg_object_set_attr(o, CKA_LOCAL, &local, sizeof(local));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_KEY_GEN_MECHANISM, &kgm,
		    sizeof(kgm));
	if (rv != CKR_OK || o->cls == CKO_PUBLIC_KEY)
		return rv;
	as = fresh && vg_object_bool(o, CKA_SENSITIVE, CK_FALSE);
	ne = fresh && !vg_object_bool(o, CKA_EXTRACTABLE, CK_TRUE);
	rv = vg_object_set_attr(o, CKA_ALWAYS_SENSITIVE, &as, sizeof(as));
	if (rv == CKR_OK)
		rv = vg_object_set_attr(o, CKA_NEVER_EXTRACTABLE, &ne,
		    sizeof(ne));
	return rv;
}

/* Class and subtype of a new object; see vg_object_from_template. */
static CK_RV
new_identity(enum vg_obj_op op, CK_OBJECT_CLASS cls_hint, CK_KEY_TYPE kt_hint,
    const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_CLASS *cls, CK_ULONG *sub,
    uint32_t *scopes)
{
	CK_RV rv;

	rv = identity(t, n, CKA_CLASS, cls_hint, cls);
	if (rv != CKR_OK)
		return rv;
	if (*cls == CK_UNAVAILABLE_INFORMATION)
		return CKR_TEMPLATE_INCOMPLETE;
	*sub = 0;
	if (is_key(*cls))
		rv = identity(t, n, CKA_KEY_TYPE, kt_hint, sub);
	else if (*cls == CKO_CERTIFICATE)
		rv = identity(t, n, CKA_CERTIFICATE_TYPE,
		    CK_UNAVAILABLE_INFORMATION, sub);
	if (rv != CKR_OK)
		return rv;
	if (*sub == CK_UNAVAILABLE_INFORMATION)
		return CKR_TEMPLATE_INCOMPLETE;
	*scopes = vg_attr_scopes(*cls, *sub);
	if (*scopes == 0)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	/* C_GenerateKey(Pair) make keys; C_DeriveKey and C_UnwrapKey make
	 * private or secret keys (§5.19). */
	if (op != VG_OBJ_CREATE && !is_key(*cls))
		return CKR_TEMPLATE_INCONSISTENT;
	if ((op == VG_OBJ_DERIVE || op == VG_OBJ_UNWRAP) &&
	    *cls == CKO_PUBLIC_KEY)
		return CKR_TEMPLATE_INCONSISTENT;
	return CKR_OK;
}

/* see token/object.h */
CK_RV
vg_object_from_template_ex(enum vg_obj_op op, CK_OBJECT_CLASS cls_hint,
    CK_KEY_TYPE kt_hint, CK_MECHANISM_TYPE mech, unsigned flags,
    const CK_ATTRIBUTE *t, CK_ULONG n, struct vg_object **out)
{
	struct vg_object *o = NULL;
	const struct vg_attr_rule *rules, *r;
	CK_OBJECT_CLASS cls;
	CK_ULONG sub, i;
	uint32_t scopes = 0;
	size_t nrules, k;
	CK_RV rv;

	*out = NULL;
	if (op == VG_OBJ_COPY || op > VG_OBJ_UNWRAP || (n > 0 && t == NULL))
		return CKR_ARGUMENTS_BAD;
	rv = new_identity(op, cls_hint, kt_hint, t, n, &cls, &sub, &scopes);
	if (rv != CKR_OK)
		return rv;
	o = vg_object_new();
	if (o == NULL)
		return CKR_HOST_MEMORY;
	rv = vg_object_set_attr(o, CKA_CLASS, &cls, sizeof(cls));
	if (rv == CKR_OK && is_key(cls))
		rv = vg_object_set_attr(o, CKA_KEY_TYPE, &sub, sizeof(sub));
	if (rv == CKR_OK && cls == CKO_CERTIFICATE)
		rv = vg_object_set_attr(o, CKA_CERTIFICATE_TYPE, &sub,
		    sizeof(sub));

	/* Each entry: type, value, read-only, repeated (§4.1.1). The
	 * identity attributes are in o already and compare equal. */
	for (i = 0; i < n && rv == CKR_OK; i++) {
		r = vg_attr_rule_in(scopes, t[i].type);
		if (r == NULL) {
			rv = CKR_ATTRIBUTE_TYPE_INVALID;
			break;
		}
		rv = vg_attr_check_value(r, &t[i]);
		if (rv == CKR_OK)
			rv = op_allows(op, flags, r, &t[i]);
		if (rv == CKR_OK)
			rv = put_entry(o, &t[i],
			    seen_before(t, i) || t[i].type == CKA_CLASS ||
				t[i].type == CKA_KEY_TYPE ||
				t[i].type == CKA_CERTIFICATE_TYPE);
	}

	/* Required attributes (footnotes 3 and 5; those of footnote 1 are
	 * checked by vg_object_complete, after the computed ones), then the
	 * defaults of the rest but the computed ones. */
	rules = vg_attr_rules(&nrules);
	for (k = 0; k < nrules && rv == CKR_OK; k++) {
		r = &rules[k];
		if ((r->scope & scopes) == 0 ||
		    vg_object_attr(o, r->type) != NULL)
			continue;
		if ((op == VG_OBJ_GENERATE &&
			(r->flags & VG_A_REQ_GEN) != 0) ||
		    (op == VG_OBJ_UNWRAP && (r->flags & VG_A_REQ_UNWRAP) != 0))
			rv = CKR_TEMPLATE_INCOMPLETE;
		else if ((r->flags & VG_A_COMPUTED) == 0)
			rv = vg_attr_apply_default(o, r, op);
	}
	if (rv == CKR_OK)
		rv = set_token_attrs(o, op, mech);
	if (rv == CKR_OK)
		rv = vg_object_check_consistency(o);
	if (rv == CKR_OK && op == VG_OBJ_CREATE)
		rv = vg_object_complete(o);
	if (rv != CKR_OK) {
		vg_object_free(o);
		return rv;
	}
	*out = o;
	return CKR_OK;
}

/* see token/object.h */
CK_RV
vg_object_from_template(enum vg_obj_op op, CK_OBJECT_CLASS cls_hint,
    CK_KEY_TYPE kt_hint, CK_MECHANISM_TYPE mech, const CK_ATTRIBUTE *t,
    CK_ULONG n, struct vg_object **out)
{
	return vg_object_from_template_ex(op, cls_hint, kt_hint, mech, 0, t,
	    n, out);
}

/* see token/object.h */
CK_RV
vg_object_derived_from(struct vg_object *o, int base_always_sensitive,
    int base_never_extractable)
{
	static const CK_BBOOL no = CK_FALSE;
	CK_RV rv = CKR_OK;

	if (!base_always_sensitive &&
	    vg_object_attr(o, CKA_ALWAYS_SENSITIVE) != NULL)
		rv = vg_object_set_attr(o, CKA_ALWAYS_SENSITIVE, &no,
		    sizeof(no));
	if (rv == CKR_OK && !base_never_extractable &&
	    vg_object_attr(o, CKA_NEVER_EXTRACTABLE) != NULL)
		rv = vg_object_set_attr(o, CKA_NEVER_EXTRACTABLE, &no,
		    sizeof(no));
	return rv;
}

/* see token/object.h */
CK_RV
vg_template_under(const struct vg_object *nested, const CK_ATTRIBUTE *t,
    CK_ULONG n, CK_ATTRIBUTE **out, CK_ULONG *nout)
{
	CK_ATTRIBUTE *a = NULL, *b;
	CK_ULONG k = 0;
	CK_RV rv;

	*out = NULL;
	*nout = 0;
	/* The nested entries first: the caller's are then the repeats that
	 * vg_object_from_template compares (§4.1.1), so that a conflict is
	 * CKR_TEMPLATE_INCONSISTENT whichever side names the type first
	 * would give, and a malformed caller value is still reported as
	 * such. */
	rv = vg_object_as_template(nested, &a, &k);
	if (rv == CKR_OK && n > 0) {
		b = realloc(a, (k + n) * sizeof(*a));
		if (b == NULL) {
			rv = CKR_HOST_MEMORY;
		} else {
			a = b;
			memcpy(a + k, t, n * sizeof(*t));
			k += n;
		}
	}
	if (rv == CKR_OK) {
		*out = a;
		*nout = k;
		a = NULL;
	}
	free(a);
	return rv;
}

/*
 * Whether a set (copy 0) or copy (copy 1) template may change attribute r
 * of src to the value of e: CKR_OK or CKR_ATTRIBUTE_READ_ONLY.
 */
static CK_RV
change_allowed(const struct vg_object *src, unsigned flags, int copy,
    const struct vg_attr_rule *r, const CK_ATTRIBUTE *e)
{
	int ok = (r->flags & VG_A_MODIFY) != 0 ||
	    (copy && (r->flags & VG_A_COPY) != 0) ||
	    ((r->flags & VG_A_SO_TRUE) != 0 && (flags & VG_OBJ_F_SO) != 0) ||
	    ((r->flags & VG_A_CLEARABLE) != 0 && e->ulValueLen == 0);
	CK_BBOOL cur, want;

	if (!ok)
		return CKR_ATTRIBUTE_READ_ONLY;
	if (r->kind != VG_K_BOOL)
		return CKR_OK;
	want = tmpl_true(e) ? CK_TRUE : CK_FALSE;
	/* Footnotes 11 and 12; the current value is known (defaults are
	 * filled at creation), absent counts as the locked value. */
	if ((r->flags & VG_A_ONLY_TRUE) != 0) {
		cur = vg_object_bool(src, r->type, CK_TRUE);
		if (cur && !want)
			return CKR_ATTRIBUTE_READ_ONLY;
	}
	if ((r->flags & VG_A_ONLY_FALSE) != 0) {
		cur = vg_object_bool(src, r->type, CK_FALSE);
		if (!cur && want)
			return CKR_ATTRIBUTE_READ_ONLY;
	}
	return CKR_OK;
}

/* A clone of src with the template applied under the set (copy 0) or
 * copy (copy 1) rules, all entries checked first. */
static CK_RV
changed(const struct vg_object *src, unsigned flags, int copy,
    const CK_ATTRIBUTE *t, CK_ULONG n, struct vg_object **out)
{
	uint32_t scopes = vg_object_scopes(src);
	const struct vg_attr_rule *r;
	struct vg_object *c;
	CK_ULONG i;
	CK_RV rv = CKR_OK;

	*out = NULL;
	if (n > 0 && t == NULL)
		return CKR_ARGUMENTS_BAD;
	for (i = 0; i < n && rv == CKR_OK; i++) {
		r = vg_attr_rule_in(scopes, t[i].type);
		if (r == NULL)
			return CKR_ATTRIBUTE_TYPE_INVALID;
		rv = vg_attr_check_value(r, &t[i]);
		if (rv == CKR_OK)
			rv = change_allowed(src, flags, copy, r, &t[i]);
	}
	if (rv != CKR_OK)
		return rv;
	c = vg_object_clone(src);
	if (c == NULL)
		return CKR_HOST_MEMORY;
	for (i = 0; i < n && rv == CKR_OK; i++)
		rv = put_entry(c, &t[i], seen_before(t, i));
	if (rv == CKR_OK)
		rv = vg_object_check_consistency(c);
	if (rv != CKR_OK) {
		vg_object_free(c);
		return rv;
	}
	*out = c;
	return CKR_OK;
}

/* see token/object.h */
CK_RV
vg_object_apply_set_ex(struct vg_object *o, unsigned flags,
    const CK_ATTRIBUTE *t, CK_ULONG n)
{
	struct vg_object *c;
	struct vg_attr *attrs;
	size_t cnt, cap;
	CK_RV rv;

	/* §5.7.6: objects that may not be modified: CKR_ACTION_PROHIBITED;
	 * §4.7: "Trusted certificates cannot be modified" (but by the SO). */
	if (!vg_object_bool(o, CKA_MODIFIABLE, CK_TRUE))
		return CKR_ACTION_PROHIBITED;
	if (o->cls == CKO_CERTIFICATE && (flags & VG_OBJ_F_SO) == 0 &&
	    vg_object_bool(o, CKA_TRUSTED, CK_FALSE))
		return CKR_ACTION_PROHIBITED;
	rv = changed(o, flags, 0, t, n, &c);
	if (rv != CKR_OK)
		return rv;
	/* Swap the new attribute list in; the old one goes with c. */
	attrs = o->attrs;
	cnt = o->n;
	cap = o->cap;
	o->attrs = c->attrs;
	o->n = c->n;
	o->cap = c->cap;
	o->cls = c->cls;
	o->key_type = c->key_type;
	c->attrs = attrs;
	c->n = cnt;
	c->cap = cap;
	vg_object_free(c);
	return CKR_OK;
}

/* see token/object.h */
CK_RV
vg_object_apply_set(struct vg_object *o, const CK_ATTRIBUTE *t, CK_ULONG n)
{
	return vg_object_apply_set_ex(o, 0, t, n);
}

/* see token/object.h */
CK_RV
vg_object_copy_ex(const struct vg_object *src, unsigned flags,
    const CK_ATTRIBUTE *t, CK_ULONG n, struct vg_object **out)
{
	struct vg_object *c = NULL;
	CK_RV rv = CKR_OK;

	*out = NULL;
	/*
	 * A copy is a new object, so a copy of a trusted object made by
	 * anyone but the SO would be a CKA_TRUSTED true the SO never set
	 * (footnote 10). Refused rather than copied untrusted: C_CopyObject
	 * changes only what the template names, and only attributes that
	 * "can ordinarily be modified" (§5.7.2), which CKA_TRUSTED is not
	 * for them, nor anything of a trusted certificate (§4.7); a call
	 * that "cannot support the precise template" fails and creates
	 * nothing.
	 */
	if (!vg_object_bool(src, CKA_COPYABLE, CK_TRUE) ||
	    ((flags & VG_OBJ_F_SO) == 0 &&
		vg_object_bool(src, CKA_TRUSTED, CK_FALSE)))
		rv = CKR_ACTION_PROHIBITED;
	if (rv == CKR_OK)
		rv = changed(src, flags, 1, t, n, &c);
	if (rv == CKR_OK) {
		c->handle = 0;
		c->db_id = 0;
		c->session = 0;
		/* §5.7.2: "a new value for CKA_UNIQUE_ID is generated". */
		vg_object_del_attr(c, CKA_UNIQUE_ID);
		*out = c;
	}
	return rv;
}

/* see token/object.h */
CK_RV
vg_object_copy(const struct vg_object *src, const CK_ATTRIBUTE *t,
    CK_ULONG n, struct vg_object **out)
{
	return vg_object_copy_ex(src, 0, t, n, out);
}
