/*
 * Reading objects: C_GetAttributeValue [PKCS#11 3.2 §5.7.5] with the
 * attribute-array rules of §4.9.3, and the matching of C_FindObjects
 * [§5.7.7].
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "token/object.h"

/* Fills one (type, pValue, ulValueLen) from v: 0, or 1 when the buffer is
 * too small (ulValueLen set to CK_UNAVAILABLE_INFORMATION). */
static int
fill_one(CK_ATTRIBUTE *e, const void *v, CK_ULONG len)
{
	if (e->pValue == NULL) {
		e->ulValueLen = len;
		return 0;
	}
	if (e->ulValueLen < len) {
		e->ulValueLen = CK_UNAVAILABLE_INFORMATION;
		return 1;
	}
	if (len > 0)
		memcpy(e->pValue, v, len);
	e->ulValueLen = len;
	return 0;
}

/* 1 if the k types in inner are distinct and all present in tmpl. */
static int
types_named(const struct vg_object *tmpl, const CK_ATTRIBUTE *inner,
    CK_ULONG k)
{
	CK_ULONG i, j;

	if (k == 0 || k > tmpl->n)
		return 0;
	for (i = 0; i < k; i++) {
		if (vg_object_attr(tmpl, inner[i].type) == NULL)
			return 0;
		for (j = 0; j < i; j++)
			if (inner[j].type == inner[i].type)
				return 0;
	}
	return 1;
}

/*
 * An attribute-array value (a, stored serialised) into e. With pValue NULL
 * the length of the whole array; otherwise the inner entries, by type when
 * the caller named stored types (all, in any order, or some of them:
 * §4.9.3), else in stored order with the types written (§5.7.5: "the type
 * element of attributes within the array MUST be ignored on input and MUST
 * be set on output"). Returns CKR_OK, CKR_BUFFER_TOO_SMALL,
 * CKR_HOST_MEMORY or CKR_DEVICE_ERROR.
 */
static CK_RV
get_array(const struct vg_attr *a, CK_ATTRIBUTE *e)
{
	struct vg_object *tmpl;
	CK_ATTRIBUTE *inner = e->pValue;
	CK_ULONG k, m, j;
	int by_type, small = 0;
	CK_RV rv = CKR_OK;

	tmpl = vg_object_new();
	if (tmpl == NULL)
		return CKR_HOST_MEMORY;
	if (a->len > 0)
		rv = vg_attrs_decode(a->value, a->len, tmpl);
	if (rv != CKR_OK)
		goto out;
	if (e->pValue == NULL) {
		e->ulValueLen = tmpl->n * sizeof(CK_ATTRIBUTE);
		goto out;
	}
	k = e->ulValueLen / sizeof(CK_ATTRIBUTE);
	by_type = types_named(tmpl, inner, k);
	if (!by_type && k < tmpl->n) {
		e->ulValueLen = CK_UNAVAILABLE_INFORMATION;
		rv = CKR_BUFFER_TOO_SMALL;
		goto out;
	}
	m = by_type ? k : tmpl->n;
	for (j = 0; j < m; j++) {
		const struct vg_attr *src = by_type
		    ? vg_object_attr(tmpl, inner[j].type) : &tmpl->attrs[j];

		inner[j].type = src->type;
		small |= fill_one(&inner[j], src->value, src->len);
	}
	e->ulValueLen = m * sizeof(CK_ATTRIBUTE);
	if (small)
		rv = CKR_BUFFER_TOO_SMALL;
out:
	vg_object_free(tmpl);
	return rv;
}

/* see token/object.h */
CK_RV
vg_object_get_attrs(const struct vg_object *o, CK_ATTRIBUTE *t, CK_ULONG n)
{
	int sensitive = 0, invalid = 0, small = 0;
	CK_ULONG i;
	CK_RV rv;

	if (n > 0 && t == NULL)
		return CKR_ARGUMENTS_BAD;
	for (i = 0; i < n; i++) {
		CK_ATTRIBUTE *e = &t[i];
		const struct vg_attr *a;

		/* Case 1: cannot be revealed. */
		if (vg_object_attr_hidden(o, e->type)) {
			e->ulValueLen = CK_UNAVAILABLE_INFORMATION;
			sensitive = 1;
			continue;
		}
		/* Case 2: the object does not possess the attribute. */
		a = vg_object_attr(o, e->type);
		if (a == NULL) {
			e->ulValueLen = CK_UNAVAILABLE_INFORMATION;
			invalid = 1;
			continue;
		}
		if (vg_attr_kind(e->type) == VG_K_ATTRS) {
			rv = get_array(a, e);
			if (rv == CKR_BUFFER_TOO_SMALL)
				small = 1;
			else if (rv != CKR_OK)
				return rv;
			continue;
		}
		/* Cases 3 to 5. */
		small |= fill_one(e, a->value, a->len);
	}
	/* "if more than one of these error codes is applicable, Cryptoki may
	 * return any of them": the order of the specification's list. */
	if (sensitive)
		return CKR_ATTRIBUTE_SENSITIVE;
	if (invalid)
		return CKR_ATTRIBUTE_TYPE_INVALID;
	if (small)
		return CKR_BUFFER_TOO_SMALL;
	return CKR_OK;
}

/* see token/object.h */
int
vg_object_match(const struct vg_object *o, const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_ULONG i;

	if (n > 0 && t == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		const struct vg_attr *a;
		const void *v;
		uint8_t *buf;
		CK_ULONG len;
		int eq;

		if (t[i].ulValueLen > 0 && t[i].pValue == NULL)
			return 0;
		if (vg_object_attr_hidden(o, t[i].type))
			return 0;
		a = vg_object_attr(o, t[i].type);
		if (a == NULL)
			return 0;
		if (vg_attr_stored_form(&t[i], &buf, &v, &len) != CKR_OK)
			return 0;
		eq = a->len == len &&
		    (len == 0 || memcmp(a->value, v, len) == 0);
		free(buf);
		if (!eq)
			return 0;
	}
	return 1;
}

/* see token/object.h */
CK_RV
vg_object_nested(const struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    struct vg_object **out)
{
	const struct vg_attr *a = vg_object_attr(o, t);
	struct vg_object *n;
	CK_RV rv = CKR_OK;

	*out = NULL;
	n = vg_object_new();
	if (n == NULL)
		return CKR_HOST_MEMORY;
	if (a != NULL && a->len > 0)
		rv = vg_attrs_decode(a->value, a->len, n);
	if (rv != CKR_OK) {
		vg_object_free(n);
		return rv;
	}
	*out = n;
	return CKR_OK;
}

/* see token/object.h */
CK_RV
vg_object_as_template(const struct vg_object *o, CK_ATTRIBUTE **t,
    CK_ULONG *n)
{
	CK_ATTRIBUTE *a = NULL;
	size_t i;

	*t = NULL;
	*n = 0;
	if (o->n == 0)
		return CKR_OK;
	a = calloc(o->n, sizeof(*a));
	if (a == NULL)
		return CKR_HOST_MEMORY;
	for (i = 0; i < o->n; i++) {
		/* A serialised array is not a CK_ATTRIBUTE array. */
		if (vg_attr_kind(o->attrs[i].type) == VG_K_ATTRS)
			continue;
		a[*n].type = o->attrs[i].type;
		a[*n].pValue = o->attrs[i].value;
		a[*n].ulValueLen = o->attrs[i].len;
		(*n)++;
	}
	*t = a;
	return CKR_OK;
}
