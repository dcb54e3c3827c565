/*
 * Objects as sorted attribute lists, and their serialisation for the
 * database. The rules of the specification are in token/attrs*.c.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/ct.h"
#include "token/object.h"

/* Serialisation: magic, version, and the sizes of the fixed fields. */
static const uint8_t enc_magic[4] = { 'V', 'G', 'A', 0x01 };
#define ENC_HDR 8u      /* magic + u32 count */
#define ENC_ENTRY 12u   /* u64 type + u32 len */
#define ENC_ULONG 8u    /* a CK_ULONG on the wire */
/* Longest value written (the length field has 32 bits). */
#define ENC_MAX_LEN 0xffffffffu

/* Frees one value after wiping it. */
static void
attr_clear(struct vg_attr *a)
{
	if (a->value != NULL) {
		vg_wipe(a->value, a->len);
		free(a->value);
	}
	a->value = NULL;
	a->len = 0;
}

/* Index of t in o, or of where it would be inserted; *found set. */
static size_t
attr_index(const struct vg_object *o, CK_ATTRIBUTE_TYPE t, int *found)
{
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->attrs[mid].type < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < o->n && o->attrs[lo].type == t;
	return lo;
}

/* Keeps cls and key_type in step with the attribute list. */
static void
sync_ids(struct vg_object *o)
{
	o->cls = vg_object_ulong(o, CKA_CLASS, CK_UNAVAILABLE_INFORMATION);
	o->key_type = vg_object_ulong(o, CKA_KEY_TYPE,
	    CK_UNAVAILABLE_INFORMATION);
}

/* see token/object.h */
struct vg_object *
vg_object_new(void)
{
	struct vg_object *o = calloc(1, sizeof(*o));

	if (o != NULL) {
		o->cls = CK_UNAVAILABLE_INFORMATION;
		o->key_type = CK_UNAVAILABLE_INFORMATION;
	}
	return o;
}

/* see token/object.h */
void
vg_object_free(struct vg_object *o)
{
	size_t i;

	if (o == NULL)
		return;
	for (i = 0; i < o->n; i++)
		attr_clear(&o->attrs[i]);
	free(o->attrs);
	if (o->cache != NULL && o->cache_free != NULL)
		o->cache_free(o->cache);
	vg_wipe(o, sizeof(*o));
	free(o);
}

/* see token/object.h */
struct vg_object *
vg_object_clone(const struct vg_object *o)
{
	struct vg_object *c = vg_object_new();
	size_t i;

	if (c == NULL)
		return NULL;
	c->handle = o->handle;
	c->db_id = o->db_id;
	c->session = o->session;
	c->cls = o->cls;
	c->key_type = o->key_type;
	if (o->n > 0) {
		c->attrs = calloc(o->n, sizeof(*c->attrs));
		if (c->attrs == NULL)
			goto fail;
		c->cap = o->n;
	}
	for (i = 0; i < o->n; i++) {
		const struct vg_attr *a = &o->attrs[i];

		c->attrs[i].type = a->type;
		if (a->len > 0) {
			c->attrs[i].value = malloc(a->len);
			if (c->attrs[i].value == NULL)
				goto fail;
			memcpy(c->attrs[i].value, a->value, a->len);
			c->attrs[i].len = a->len;
		}
		c->n = i + 1;
	}
	return c;
fail:
	vg_object_free(c);
	return NULL;
}

/* see token/object.h */
const struct vg_attr *
vg_object_attr(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	int found;
	size_t i = attr_index(o, t, &found);

	return found ? &o->attrs[i] : NULL;
}

/* Makes value (len bytes, malloc'd or NULL when len is 0; taken, and
 * wiped and freed on failure) the attribute t of o. */
static CK_RV
attr_put(struct vg_object *o, CK_ATTRIBUTE_TYPE t, void *copy, CK_ULONG len)
{
	int found;
	size_t i;

	i = attr_index(o, t, &found);
	if (found) {
		attr_clear(&o->attrs[i]);
	} else {
		if (o->n == o->cap) {
			size_t cap = o->cap == 0 ? 16 : o->cap * 2;
			struct vg_attr *na;

			na = realloc(o->attrs, cap * sizeof(*na));
			if (na == NULL) {
				if (copy != NULL) {
					vg_wipe(copy, len);
					free(copy);
				}
				return CKR_HOST_MEMORY;
			}
			o->attrs = na;
			o->cap = cap;
		}
		memmove(&o->attrs[i + 1], &o->attrs[i],
		    (o->n - i) * sizeof(*o->attrs));
		o->n++;
		o->attrs[i].type = t;
	}
	o->attrs[i].value = copy;
	o->attrs[i].len = len;
	if (t == CKA_CLASS || t == CKA_KEY_TYPE)
		sync_ids(o);
	return CKR_OK;
}

/* see token/object.h */
CK_RV
vg_object_set_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t, const void *v,
    CK_ULONG len)
{
	void *copy = NULL;

	if (len > 0) {
		if (v == NULL)
			return CKR_ARGUMENTS_BAD;
		copy = malloc(len);
		if (copy == NULL)
			return CKR_HOST_MEMORY;
		memcpy(copy, v, len);
	}
	return attr_put(o, t, copy, len);
}

/* see token/object.h */
CK_RV
vg_object_take_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t, void *value,
    CK_ULONG len)
{
	return attr_put(o, t, value, len);
}

/* see token/object.h */
CK_RV
vg_object_alloc_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t, CK_ULONG len,
    uint8_t **buf)
{
	uint8_t *p = len > 0 ? malloc(len) : NULL;
	CK_RV rv;

	*buf = NULL;
	if (p == NULL)
		return len > 0 ? CKR_HOST_MEMORY : CKR_ARGUMENTS_BAD;
	rv = attr_put(o, t, p, len);
	if (rv == CKR_OK)
		*buf = p;
	return rv;
}

/* see token/object.h */
void
vg_object_del_attr(struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	int found;
	size_t i = attr_index(o, t, &found);

	if (!found)
		return;
	attr_clear(&o->attrs[i]);
	memmove(&o->attrs[i], &o->attrs[i + 1],
	    (o->n - i - 1) * sizeof(*o->attrs));
	o->n--;
	if (t == CKA_CLASS || t == CKA_KEY_TYPE)
		sync_ids(o);
}

/* see token/object.h */
CK_BBOOL
vg_object_bool(const struct vg_object *o, CK_ATTRIBUTE_TYPE t, CK_BBOOL dflt)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	if (a == NULL || a->len != sizeof(CK_BBOOL))
		return dflt;
	return *(const CK_BBOOL *)a->value ? CK_TRUE : CK_FALSE;
}

/* see token/object.h */
CK_ULONG
vg_object_ulong(const struct vg_object *o, CK_ATTRIBUTE_TYPE t,
    CK_ULONG dflt)
{
	const struct vg_attr *a = vg_object_attr(o, t);
	CK_ULONG v;

	if (a == NULL || a->len != sizeof(CK_ULONG))
		return dflt;
	memcpy(&v, a->value, sizeof(v));
	return v;
}

/* ------------------------------------------------------------ encoding */

/* see token/object.h */
void
vg_put_be(uint8_t *p, uint64_t v, unsigned n)
{
	while (n-- > 0) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

/* see token/object.h */
uint64_t
vg_get_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v = (v << 8) | p[i];
	return v;
}

/* Length of a's value on the wire, or 0 with *bad set when it cannot be
 * written. */
static size_t
wire_len(const struct vg_attr *a, int *bad)
{
	switch (vg_attr_kind(a->type)) {
	case VG_K_ULONG:
		if (a->len != sizeof(CK_ULONG))
			*bad = 1;
		return ENC_ULONG;
	case VG_K_MECHS:
		if (a->len % sizeof(CK_ULONG) != 0)
			*bad = 1;
		return a->len / sizeof(CK_ULONG) * ENC_ULONG;
	default:
		return a->len;
	}
}

/* see token/object.h */
CK_RV
vg_attrs_encode(const struct vg_attr *a, size_t n, uint8_t **out,
    size_t *outlen)
{
	size_t total = ENC_HDR, i, pos;
	uint8_t *buf;
	int bad = 0;

	*out = NULL;
	*outlen = 0;
	if (n > 0xffffffffu)
		return CKR_GENERAL_ERROR;
	for (i = 0; i < n; i++) {
		size_t wl = wire_len(&a[i], &bad);

		if (i > 0 && a[i].type <= a[i - 1].type)
			bad = 1;
		if ((a[i].len > 0 && a[i].value == NULL) || wl > ENC_MAX_LEN ||
		    wl > SIZE_MAX - total - ENC_ENTRY)
			bad = 1;
		if (bad)
			return CKR_GENERAL_ERROR;
		total += ENC_ENTRY + wl;
	}
	buf = malloc(total);
	if (buf == NULL)
		return CKR_HOST_MEMORY;
	memcpy(buf, enc_magic, sizeof(enc_magic));
	vg_put_be(buf + 4, n, 4);
	pos = ENC_HDR;
	for (i = 0; i < n; i++) {
		size_t wl = wire_len(&a[i], &bad), k;
		CK_ULONG v;

		vg_put_be(buf + pos, a[i].type, 8);
		vg_put_be(buf + pos + 8, wl, 4);
		pos += ENC_ENTRY;
		switch (vg_attr_kind(a[i].type)) {
		case VG_K_ULONG:
		case VG_K_MECHS:
			for (k = 0; k < a[i].len / sizeof(CK_ULONG); k++) {
				memcpy(&v, (const uint8_t *)a[i].value +
				    k * sizeof(CK_ULONG), sizeof(v));
				vg_put_be(buf + pos + k * ENC_ULONG, v,
				    ENC_ULONG);
			}
			break;
		default:
			if (wl > 0)
				memcpy(buf + pos, a[i].value, wl);
			break;
		}
		pos += wl;
	}
	*out = buf;
	*outlen = total;
	return CKR_OK;
}

static void
list_free(struct vg_attr *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		attr_clear(&list[i]);
	free(list);
}

static int
date_ok(const uint8_t *p, size_t len)
{
	size_t i;

	if (len == 0)
		return 1;
	if (len != 8)
		return 0;
	for (i = 0; i < 8; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

/*
 * Parses a serialisation into a new sorted list of attributes with values
 * in host form. depth 0 allows attribute arrays (whose values must parse at
 * depth 1, without arrays). CKR_DEVICE_ERROR for any malformation.
 */
static CK_RV
parse(const uint8_t *in, size_t len, int depth, struct vg_attr **listp,
    size_t *countp)
{
	struct vg_attr *list = NULL;
	size_t count, i, pos = ENC_HDR;
	uint64_t prev = 0;
	CK_RV rv = CKR_DEVICE_ERROR;

	*listp = NULL;
	*countp = 0;
	if (in == NULL || len < ENC_HDR ||
	    memcmp(in, enc_magic, sizeof(enc_magic)) != 0)
		return CKR_DEVICE_ERROR;
	count = (size_t)vg_get_be(in + 4, 4);
	if (count > (len - ENC_HDR) / ENC_ENTRY)
		return CKR_DEVICE_ERROR;
	if (count > 0) {
		list = calloc(count, sizeof(*list));
		if (list == NULL)
			return CKR_HOST_MEMORY;
	}
	for (i = 0; i < count; i++) {
		uint64_t type;
		size_t vlen, k, hlen;
		const uint8_t *v;
		enum vg_attr_kind kind;

		if (len - pos < ENC_ENTRY)
			goto out;
		type = vg_get_be(in + pos, 8);
		vlen = (size_t)vg_get_be(in + pos + 8, 4);
		pos += ENC_ENTRY;
		if (vlen > len - pos || type > ULONG_MAX ||
		    (i > 0 && type <= prev))
			goto out;
		prev = type;
		v = in + pos;
		pos += vlen;
		list[i].type = (CK_ATTRIBUTE_TYPE)type;
		kind = vg_attr_kind(list[i].type);
		hlen = vlen;
		if (kind == VG_K_ULONG && vlen != ENC_ULONG)
			goto out;
		if (kind == VG_K_MECHS && vlen % ENC_ULONG != 0)
			goto out;
		if (kind == VG_K_BOOL && (vlen != 1 || v[0] > 1))
			goto out;
		if (kind == VG_K_DATE && !date_ok(v, vlen))
			goto out;
		if (kind == VG_K_ATTRS && vlen > 0) {
			struct vg_attr *inner;
			size_t ninner;

			if (depth > 0)
				goto out;
			rv = parse(v, vlen, depth + 1, &inner, &ninner);
			if (rv != CKR_OK)
				goto out;
			list_free(inner, ninner);
			rv = CKR_DEVICE_ERROR;
		}
		if (kind == VG_K_ULONG || kind == VG_K_MECHS)
			hlen = vlen / ENC_ULONG * sizeof(CK_ULONG);
		if (hlen == 0)
			continue;
		list[i].value = malloc(hlen);
		if (list[i].value == NULL) {
			rv = CKR_HOST_MEMORY;
			goto out;
		}
		list[i].len = hlen;
		if (kind == VG_K_ULONG || kind == VG_K_MECHS) {
			for (k = 0; k < vlen / ENC_ULONG; k++) {
				uint64_t x = vg_get_be(v + k * ENC_ULONG,
				    ENC_ULONG);
				CK_ULONG u = (CK_ULONG)x;

				if (x > ULONG_MAX)
					goto out;
				memcpy((uint8_t *)list[i].value +
				    k * sizeof(CK_ULONG), &u, sizeof(u));
			}
		} else {
			memcpy(list[i].value, v, vlen);
		}
	}
	if (pos != len)
		goto out;
	*listp = list;
	*countp = count;
	return CKR_OK;
out:
	list_free(list, count);
	return rv;
}

/* see token/object.h */
CK_RV
vg_attrs_decode(const uint8_t *in, size_t len, struct vg_object *o)
{
	struct vg_attr *list, *merged;
	size_t count, i = 0, j = 0, m = 0;
	CK_RV rv;

	rv = parse(in, len, 0, &list, &count);
	if (rv != CKR_OK)
		return rv;
	if (count == 0) {
		free(list);
		return CKR_OK;
	}
	merged = calloc(o->n + count, sizeof(*merged));
	if (merged == NULL) {
		list_free(list, count);
		return CKR_HOST_MEMORY;
	}
	/* Merge the two sorted lists; a decoded attribute replaces an old
	 * one of the same type. Nothing below can fail. */
	while (i < o->n || j < count) {
		if (j == count ||
		    (i < o->n && o->attrs[i].type < list[j].type)) {
			merged[m++] = o->attrs[i++];
		} else {
			if (i < o->n && o->attrs[i].type == list[j].type)
				attr_clear(&o->attrs[i++]);
			merged[m++] = list[j++];
		}
	}
	free(list);
	free(o->attrs);
	o->attrs = merged;
	o->cap = o->n + count;
	o->n = m;
	sync_ids(o);
	return CKR_OK;
}
