/* Objects as attribute lists, and their serialisation: set/get, clone, free,
 * encode/decode round trips, and a parser that fails cleanly on truncated,
 * corrupted and random input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "token/object.h"
#include "tests/xorshift.h"

static const CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

/* Checks the invariants of an object: sorted, unique, NULL iff empty, and
 * cls / key_type in step with CKA_CLASS / CKA_KEY_TYPE. */
static void
assert_well_formed(const struct vg_object *o)
{
	size_t i;

	assert_true(o->n <= o->cap || o->n == 0);
	for (i = 0; i < o->n; i++) {
		if (i > 0)
			assert_true(o->attrs[i - 1].type < o->attrs[i].type);
		assert_true((o->attrs[i].len == 0) ==
		    (o->attrs[i].value == NULL));
	}
	assert_int_equal(o->cls,
	    vg_object_ulong(o, CKA_CLASS, CK_UNAVAILABLE_INFORMATION));
	assert_int_equal(o->key_type,
	    vg_object_ulong(o, CKA_KEY_TYPE, CK_UNAVAILABLE_INFORMATION));
}

/* 1 if a and b have the same attributes (types, lengths, bytes). */
static int
same_attrs(const struct vg_object *a, const struct vg_object *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (a->attrs[i].type != b->attrs[i].type ||
		    a->attrs[i].len != b->attrs[i].len)
			return 0;
		if (a->attrs[i].len > 0 &&
		    memcmp(a->attrs[i].value, b->attrs[i].value,
			a->attrs[i].len) != 0)
			return 0;
	}
	return 1;
}

static void
test_new_free(void **state)
{
	struct vg_object *o = vg_object_new();

	(void)state;
	assert_non_null(o);
	assert_int_equal(o->n, 0);
	assert_int_equal(o->cls, CK_UNAVAILABLE_INFORMATION);
	assert_int_equal(o->key_type, CK_UNAVAILABLE_INFORMATION);
	assert_null(vg_object_attr(o, CKA_LABEL));
	vg_object_free(o);
	vg_object_free(NULL);
}

static void
test_set_get_del(void **state)
{
	struct vg_object *o = vg_object_new();
	const struct vg_attr *a;
	CK_ULONG cls = CKO_SECRET_KEY, kt = CKK_AES, v;

	(void)state;
	assert_int_equal(vg_object_set_attr(o, CKA_LABEL, "abc", 3), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_TOKEN, &yes, 1), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_ID, NULL, 0), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_CLASS, &cls, sizeof(cls)),
	    CKR_OK);
	assert_int_equal(o->cls, CKO_SECRET_KEY);
	assert_int_equal(vg_object_set_attr(o, CKA_KEY_TYPE, &kt, sizeof(kt)),
	    CKR_OK);
	assert_int_equal(o->key_type, CKK_AES);
	assert_well_formed(o);
	assert_int_equal(o->n, 5);

	a = vg_object_attr(o, CKA_LABEL);
	assert_non_null(a);
	assert_int_equal(a->len, 3);
	assert_memory_equal(a->value, "abc", 3);
	a = vg_object_attr(o, CKA_ID);
	assert_non_null(a);
	assert_int_equal(a->len, 0);
	assert_null(a->value);

	/* Replacing keeps one entry. */
	assert_int_equal(vg_object_set_attr(o, CKA_LABEL, "longer", 6),
	    CKR_OK);
	assert_int_equal(o->n, 5);
	a = vg_object_attr(o, CKA_LABEL);
	assert_int_equal(a->len, 6);
	assert_memory_equal(a->value, "longer", 6);

	assert_int_equal(vg_object_bool(o, CKA_TOKEN, CK_FALSE), CK_TRUE);
	assert_int_equal(vg_object_bool(o, CKA_PRIVATE, CK_TRUE), CK_TRUE);
	assert_int_equal(vg_object_bool(o, CKA_PRIVATE, CK_FALSE), CK_FALSE);
	/* Wrong sizes read as the default. */
	assert_int_equal(vg_object_bool(o, CKA_LABEL, CK_FALSE), CK_FALSE);
	assert_int_equal(vg_object_ulong(o, CKA_LABEL, 7), 7);
	assert_int_equal(vg_object_ulong(o, CKA_CLASS, 7), CKO_SECRET_KEY);

	vg_object_del_attr(o, CKA_LABEL);
	vg_object_del_attr(o, CKA_LABEL);
	assert_null(vg_object_attr(o, CKA_LABEL));
	vg_object_del_attr(o, CKA_CLASS);
	assert_int_equal(o->cls, CK_UNAVAILABLE_INFORMATION);
	assert_int_equal(o->n, 3);
	assert_well_formed(o);

	/* A NULL value with a length is refused and changes nothing. */
	assert_int_not_equal(vg_object_set_attr(o, CKA_VALUE, NULL, 4),
	    CKR_OK);
	assert_null(vg_object_attr(o, CKA_VALUE));
	v = vg_object_ulong(o, CKA_KEY_TYPE, 0);
	assert_int_equal(v, CKK_AES);
	vg_object_free(o);
}

static void
test_sorted_random_inserts(void **state)
{
	struct vg_object *o = vg_object_new();
	unsigned i;

	(void)state;
	srand(1);
	for (i = 0; i < 2000; i++) {
		CK_ATTRIBUTE_TYPE t = (CK_ATTRIBUTE_TYPE)(rand() % 300);
		uint8_t v[8];
		size_t len = (size_t)(rand() % 9);

		memset(v, (int)t, sizeof(v));
		if (rand() % 4 == 0)
			vg_object_del_attr(o, t);
		else
			assert_int_equal(vg_object_set_attr(o, t, v, len),
			    CKR_OK);
	}
	assert_well_formed(o);
	vg_object_free(o);
}

/* The lookup at every size from 0 to 40 attributes: each type present
 * is found with its value, each absent one (below, between and above
 * them) is not, and an insertion between two lands in order. */
static void
test_lookup_every_size(void **state)
{
	size_t n, k;
	CK_ATTRIBUTE_TYPE t;

	(void)state;
	for (n = 0; n <= 40; n++) {
		struct vg_object *o = vg_object_new();

		assert_non_null(o);
		/* types 2, 4, ..., 2n, inserted from the top down */
		for (k = n; k >= 1; k--) {
			uint8_t v = (uint8_t)k;

			assert_int_equal(vg_object_set_attr(o,
			    (CK_ATTRIBUTE_TYPE)(2 * k + 0x200), &v, 1), CKR_OK);
		}
		assert_int_equal(o->n, n);
		for (t = 0x200; t <= 2 * n + 0x201; t++) {
			const struct vg_attr *a = vg_object_attr(o, t);
			int want = t % 2 == 0 && t >= 0x202;

			if (!want) {
				assert_null(a);
				continue;
			}
			assert_non_null(a);
			assert_int_equal(a->type, t);
			assert_int_equal(*(const uint8_t *)a->value,
			    (uint8_t)((t - 0x200) / 2));
		}
		assert_int_equal(vg_object_set_attr(o, 0x203, &yes, 1), CKR_OK);
		assert_int_equal(vg_object_bool(o, 0x203, CK_FALSE), CK_TRUE);
		assert_well_formed(o);
		vg_object_free(o);
	}
}

/* A value made in place (vg_object_alloc_attr) or handed over
 * (vg_object_take_attr) is the attribute's, replacing one that was
 * there. */
static void
test_alloc_and_take(void **state)
{
	struct vg_object *o = vg_object_new();
	const struct vg_attr *a;
	uint8_t *buf = NULL, *mine;

	(void)state;
	assert_int_equal(vg_object_set_attr(o, CKA_VALUE, "old", 3), CKR_OK);
	assert_int_equal(vg_object_alloc_attr(o, CKA_VALUE, 5, &buf), CKR_OK);
	assert_non_null(buf);
	memcpy(buf, "fresh", 5);
	a = vg_object_attr(o, CKA_VALUE);
	assert_ptr_equal(a->value, buf);
	assert_int_equal(a->len, 5);
	assert_memory_equal(a->value, "fresh", 5);
	assert_int_equal(vg_object_alloc_attr(o, CKA_LABEL, 0, &buf),
	    CKR_ARGUMENTS_BAD);
	assert_null(buf);
	assert_null(vg_object_attr(o, CKA_LABEL));

	mine = malloc(4);
	assert_non_null(mine);
	memcpy(mine, "spki", 4);
	assert_int_equal(vg_object_take_attr(o, CKA_PUBLIC_KEY_INFO, mine, 4),
	    CKR_OK);
	a = vg_object_attr(o, CKA_PUBLIC_KEY_INFO);
	assert_ptr_equal(a->value, mine);
	assert_memory_equal(a->value, "spki", 4);
	assert_well_formed(o);
	vg_object_free(o);
}

static int cache_frees;

static void
cache_free(void *p)
{
	cache_frees++;
	free(p);
}

static void
test_clone_and_cache(void **state)
{
	struct vg_object *o = vg_object_new(), *c;
	CK_ULONG cls = CKO_PRIVATE_KEY;

	(void)state;
	assert_int_equal(vg_object_set_attr(o, CKA_CLASS, &cls, sizeof(cls)),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_LABEL, "key", 3), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_ID, NULL, 0), CKR_OK);
	o->handle = 42;
	o->db_id = 7;
	o->session = 3;
	o->cache = malloc(16);
	o->cache_free = cache_free;

	c = vg_object_clone(o);
	assert_non_null(c);
	assert_true(same_attrs(o, c));
	assert_int_equal(c->handle, 42);
	assert_int_equal(c->db_id, 7);
	assert_int_equal(c->session, 3);
	assert_int_equal(c->cls, CKO_PRIVATE_KEY);
	assert_null(c->cache);
	/* Deep: changing the clone leaves the original alone. */
	assert_int_equal(vg_object_set_attr(c, CKA_LABEL, "other", 5), CKR_OK);
	assert_memory_equal(vg_object_attr(o, CKA_LABEL)->value, "key", 3);
	assert_ptr_not_equal(vg_object_attr(o, CKA_LABEL)->value,
	    vg_object_attr(c, CKA_LABEL)->value);

	cache_frees = 0;
	vg_object_free(c);
	assert_int_equal(cache_frees, 0);
	vg_object_free(o);
	assert_int_equal(cache_frees, 1);

	/* An empty object clones too. */
	o = vg_object_new();
	c = vg_object_clone(o);
	assert_non_null(c);
	assert_int_equal(c->n, 0);
	vg_object_free(c);
	vg_object_free(o);
}

/* A nested template in stored form (as attrs.c makes it). */
static void
nested_value(uint8_t **v, size_t *len)
{
	struct vg_object *n = vg_object_new();
	CK_ULONG kt = CKK_AES;

	assert_int_equal(vg_object_set_attr(n, CKA_KEY_TYPE, &kt, sizeof(kt)),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(n, CKA_EXTRACTABLE, &no, 1),
	    CKR_OK);
	assert_int_equal(vg_attrs_encode(n->attrs, n->n, v, len), CKR_OK);
	vg_object_free(n);
}

/* An object with every kind of value. */
static struct vg_object *
sample(void)
{
	struct vg_object *o = vg_object_new();
	CK_ULONG cls = CKO_SECRET_KEY, kt = CKK_AES, vl = 32;
	CK_MECHANISM_TYPE mechs[3] = { CKM_SHA_1, 0x1082, 0x80001234UL };
	uint8_t key[32], *nest;
	size_t nlen;

	memset(key, 0xa5, sizeof(key));
	nested_value(&nest, &nlen);
	assert_int_equal(vg_object_set_attr(o, CKA_CLASS, &cls, sizeof(cls)),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_KEY_TYPE, &kt, sizeof(kt)),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_VALUE_LEN, &vl, sizeof(vl)),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_TOKEN, &yes, 1), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_SENSITIVE, &no, 1), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_LABEL, "label", 5), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_ID, NULL, 0), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_START_DATE, "20240131", 8),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_END_DATE, NULL, 0), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_VALUE, key, sizeof(key)),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_ALLOWED_MECHANISMS, mechs,
			     sizeof(mechs)),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_UNWRAP_TEMPLATE, nest,
			     nlen),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_WRAP_TEMPLATE, NULL, 0),
	    CKR_OK);
	free(nest);
	return o;
}

static void
test_encode_decode_round_trip(void **state)
{
	struct vg_object *o = sample(), *d;
	uint8_t *enc, *enc2;
	size_t len, len2;

	(void)state;
	assert_int_equal(vg_attrs_encode(o->attrs, o->n, &enc, &len), CKR_OK);
	d = vg_object_new();
	assert_int_equal(vg_attrs_decode(enc, len, d), CKR_OK);
	assert_true(same_attrs(o, d));
	assert_int_equal(d->cls, CKO_SECRET_KEY);
	assert_int_equal(d->key_type, CKK_AES);
	assert_well_formed(d);
	/* Encoding is canonical: the decoded object encodes the same. */
	assert_int_equal(vg_attrs_encode(d->attrs, d->n, &enc2, &len2),
	    CKR_OK);
	assert_int_equal(len, len2);
	assert_memory_equal(enc, enc2, len);
	free(enc2);
	vg_object_free(d);

	/* Decoding merges: existing attributes stay unless replaced. */
	d = vg_object_new();
	assert_int_equal(vg_object_set_attr(d, CKA_LABEL, "old", 3), CKR_OK);
	assert_int_equal(vg_object_set_attr(d, CKA_MODIFIABLE, &no, 1),
	    CKR_OK);
	assert_int_equal(vg_attrs_decode(enc, len, d), CKR_OK);
	assert_int_equal(d->n, o->n + 1);
	assert_memory_equal(vg_object_attr(d, CKA_LABEL)->value, "label", 5);
	assert_int_equal(vg_object_bool(d, CKA_MODIFIABLE, CK_TRUE), CK_FALSE);
	assert_well_formed(d);
	vg_object_free(d);
	free(enc);

	/* A subset (the public attributes, say) encodes on its own. */
	assert_int_equal(vg_attrs_encode(o->attrs, 3, &enc, &len), CKR_OK);
	d = vg_object_new();
	assert_int_equal(vg_attrs_decode(enc, len, d), CKR_OK);
	assert_int_equal(d->n, 3);
	vg_object_free(d);
	free(enc);

	/* An empty list. */
	assert_int_equal(vg_attrs_encode(NULL, 0, &enc, &len), CKR_OK);
	assert_int_equal(len, 8);
	d = vg_object_new();
	assert_int_equal(vg_attrs_decode(enc, len, d), CKR_OK);
	assert_int_equal(d->n, 0);
	vg_object_free(d);
	free(enc);
	vg_object_free(o);
}

/* The format is fixed: a known list gives known bytes. */
static void
test_encode_golden(void **state)
{
	struct vg_object *o = vg_object_new();
	CK_ULONG cls = CKO_CERTIFICATE;
	static const uint8_t want[] = {
		'V', 'G', 'A', 0x01, 0, 0, 0, 3,
		/* CKA_CLASS = 1, as 8 big-endian bytes */
		0, 0, 0, 0, 0, 0, 0, 0x00, 0, 0, 0, 8,
		0, 0, 0, 0, 0, 0, 0, 1,
		/* CKA_TOKEN = TRUE */
		0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 1, 1,
		/* CKA_LABEL = "ab" */
		0, 0, 0, 0, 0, 0, 0, 0x03, 0, 0, 0, 2, 'a', 'b',
	};
	uint8_t *enc;
	size_t len;

	(void)state;
	assert_int_equal(vg_object_set_attr(o, CKA_LABEL, "ab", 2), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_TOKEN, &yes, 1), CKR_OK);
	assert_int_equal(vg_object_set_attr(o, CKA_CLASS, &cls, sizeof(cls)),
	    CKR_OK);
	assert_int_equal(vg_attrs_encode(o->attrs, o->n, &enc, &len), CKR_OK);
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(enc, want, sizeof(want));
	free(enc);
	vg_object_free(o);
}

static void
test_encode_rejects(void **state)
{
	struct vg_attr a[2];
	CK_ULONG v = 1;
	uint32_t small = 1;
	uint8_t *enc = (uint8_t *)1;
	size_t len = 1;

	(void)state;
	/* Not sorted. */
	a[0].type = CKA_LABEL;
	a[0].len = 1;
	a[0].value = "x";
	a[1].type = CKA_CLASS;
	a[1].len = sizeof(v);
	a[1].value = &v;
	assert_int_equal(vg_attrs_encode(a, 2, &enc, &len), CKR_GENERAL_ERROR);
	assert_null(enc);
	assert_int_equal(len, 0);
	/* Duplicate. */
	a[1] = a[0];
	assert_int_equal(vg_attrs_encode(a, 2, &enc, &len), CKR_GENERAL_ERROR);
	/* A CK_ULONG attribute of another size. */
	a[0].type = CKA_CLASS;
	a[0].len = sizeof(small);
	a[0].value = &small;
	assert_int_equal(vg_attrs_encode(a, 1, &enc, &len), CKR_GENERAL_ERROR);
}

/* Encodes one attribute (type, len, bytes) by hand after a header. */
static size_t
raw(uint8_t *buf, uint32_t count, const uint8_t *body, size_t blen)
{
	memcpy(buf, "VGA\x01", 4);
	buf[4] = (uint8_t)(count >> 24);
	buf[5] = (uint8_t)(count >> 16);
	buf[6] = (uint8_t)(count >> 8);
	buf[7] = (uint8_t)count;
	memcpy(buf + 8, body, blen);
	return 8 + blen;
}

static void
entry(uint8_t *p, uint64_t type, uint32_t len)
{
	int i;

	for (i = 7; i >= 0; i--, type >>= 8)
		p[i] = (uint8_t)type;
	p[8] = (uint8_t)(len >> 24);
	p[9] = (uint8_t)(len >> 16);
	p[10] = (uint8_t)(len >> 8);
	p[11] = (uint8_t)len;
}

static void
expect_bad(const uint8_t *buf, size_t len)
{
	struct vg_object *o = vg_object_new();

	assert_int_equal(vg_object_set_attr(o, CKA_LABEL, "keep", 4), CKR_OK);
	assert_int_equal(vg_attrs_decode(buf, len, o), CKR_DEVICE_ERROR);
	/* Unchanged on error. */
	assert_int_equal(o->n, 1);
	assert_memory_equal(vg_object_attr(o, CKA_LABEL)->value, "keep", 4);
	vg_object_free(o);
}

static void
test_decode_rejects(void **state)
{
	uint8_t body[64], buf[128];
	size_t len;

	(void)state;
	expect_bad(NULL, 0);
	expect_bad((const uint8_t *)"VGA", 3);
	expect_bad((const uint8_t *)"VGB\x01\0\0\0\0", 8);
	expect_bad((const uint8_t *)"VGA\x02\0\0\0\0", 8);
	/* Count larger than the data. */
	expect_bad((const uint8_t *)"VGA\x01\0\0\0\1", 8);
	expect_bad((const uint8_t *)"VGA\x01\xff\xff\xff\xff", 8);
	/* Trailing bytes. */
	expect_bad((const uint8_t *)"VGA\x01\0\0\0\0x", 9);

	/* A CK_BBOOL of 2 bytes, and of value 2. */
	entry(body, CKA_TOKEN, 2);
	body[12] = 1;
	body[13] = 0;
	len = raw(buf, 1, body, 14);
	expect_bad(buf, len);
	entry(body, CKA_TOKEN, 1);
	body[12] = 2;
	len = raw(buf, 1, body, 13);
	expect_bad(buf, len);
	/* A CK_ULONG of 4 bytes. */
	entry(body, CKA_CLASS, 4);
	memset(body + 12, 0, 4);
	len = raw(buf, 1, body, 16);
	expect_bad(buf, len);
	/* A CK_ULONG that does not fit (only where CK_ULONG is 32 bits). */
	if (sizeof(CK_ULONG) < 8) {
		entry(body, CKA_CLASS, 8);
		memset(body + 12, 0xff, 8);
		len = raw(buf, 1, body, 20);
		expect_bad(buf, len);
	}
	/* A mechanism array of 12 bytes. */
	entry(body, CKA_ALLOWED_MECHANISMS, 12);
	memset(body + 12, 0, 12);
	len = raw(buf, 1, body, 24);
	expect_bad(buf, len);
	/* A date of 7 bytes, and one with letters. */
	entry(body, CKA_START_DATE, 7);
	memcpy(body + 12, "2024010", 7);
	len = raw(buf, 1, body, 19);
	expect_bad(buf, len);
	entry(body, CKA_START_DATE, 8);
	memcpy(body + 12, "2024O101", 8);
	len = raw(buf, 1, body, 20);
	expect_bad(buf, len);
	/* Types out of order, and repeated. */
	entry(body, CKA_LABEL, 0);
	entry(body + 12, CKA_TOKEN, 1);
	body[24] = 1;
	len = raw(buf, 2, body, 25);
	expect_bad(buf, len);
	entry(body + 12, CKA_LABEL, 0);
	len = raw(buf, 2, body, 24);
	expect_bad(buf, len);
	/* A value running past the end. */
	entry(body, CKA_LABEL, 10);
	len = raw(buf, 1, body, 15);
	expect_bad(buf, len);
	/* An attribute array that does not parse. */
	entry(body, CKA_UNWRAP_TEMPLATE, 4);
	memcpy(body + 12, "VGA\x01", 4);
	len = raw(buf, 1, body, 16);
	expect_bad(buf, len);
}

static void
test_decode_nested_recursion(void **state)
{
	struct vg_attr inner, outer;
	uint8_t *in, *out;
	size_t inlen, outlen;

	(void)state;
	/* An attribute array inside an attribute array is refused. */
	inner.type = CKA_LABEL;
	inner.len = 1;
	inner.value = "x";
	assert_int_equal(vg_attrs_encode(&inner, 1, &in, &inlen), CKR_OK);
	outer.type = CKA_WRAP_TEMPLATE;
	outer.len = inlen;
	outer.value = in;
	assert_int_equal(vg_attrs_encode(&outer, 1, &out, &outlen), CKR_OK);
	free(in);
	/* Depth 1 is fine... */
	{
		struct vg_object *o = vg_object_new();

		assert_int_equal(vg_attrs_decode(out, outlen, o), CKR_OK);
		vg_object_free(o);
	}
	/* ...depth 2 is not. */
	outer.type = CKA_UNWRAP_TEMPLATE;
	outer.len = outlen;
	outer.value = out;
	assert_int_equal(vg_attrs_encode(&outer, 1, &in, &inlen), CKR_OK);
	expect_bad(in, inlen);
	free(in);
	free(out);
}

static void
test_decode_truncated_and_flipped(void **state)
{
	struct vg_object *o = sample(), *d;
	uint8_t *enc, *copy;
	size_t len, i;
	unsigned bit;

	(void)state;
	assert_int_equal(vg_attrs_encode(o->attrs, o->n, &enc, &len), CKR_OK);
	/* Every truncation fails cleanly (each copy is exactly that long,
	 * so ASan sees any read past the end). */
	for (i = 0; i < len; i++) {
		copy = malloc(i + 1);
		memcpy(copy, enc, i);
		expect_bad(i == 0 ? NULL : copy, i);
		free(copy);
	}
	/* Every single-bit flip either fails cleanly or gives a well-formed
	 * object. */
	copy = malloc(len);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			CK_RV rv;

			memcpy(copy, enc, len);
			copy[i] ^= (uint8_t)(1u << bit);
			d = vg_object_new();
			rv = vg_attrs_decode(copy, len, d);
			assert_true(rv == CKR_OK || rv == CKR_DEVICE_ERROR);
			if (rv == CKR_OK)
				assert_well_formed(d);
			else
				assert_int_equal(d->n, 0);
			vg_object_free(d);
		}
	}
	free(copy);
	free(enc);
	vg_object_free(o);
}

/* xorshift64*, deterministic. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
test_decode_random(void **state)
{
	struct vg_object *o = sample();
	uint8_t *enc, *buf;
	size_t len, n, i;
	unsigned iter, ok = 0;

	(void)state;
	assert_int_equal(vg_attrs_encode(o->attrs, o->n, &enc, &len), CKR_OK);
	for (iter = 0; iter < 100000; iter++) {
		struct vg_object *d = vg_object_new();
		uint64_t r = rnd();
		CK_RV rv;

		switch (r % 4) {
		case 0: /* pure noise */
			n = (size_t)(rnd() % 96);
			buf = malloc(n + 1);
			for (i = 0; i < n; i++)
				buf[i] = (uint8_t)rnd();
			break;
		case 1: /* a header, then noise */
			n = 8 + (size_t)(rnd() % 96);
			buf = malloc(n);
			for (i = 0; i < n; i++)
				buf[i] = (uint8_t)rnd();
			memcpy(buf, "VGA\x01\0\0\0", 7);
			buf[7] = (uint8_t)(rnd() % 6);
			break;
		default: /* a valid encoding, mutated and maybe cut */
			n = len - (r % 8 == 2 ? (size_t)(rnd() % len) : 0);
			buf = malloc(len);
			memcpy(buf, enc, len);
			for (i = 0; i < 1 + rnd() % 4; i++)
				buf[rnd() % len] = (uint8_t)rnd();
			break;
		}
		rv = vg_attrs_decode(buf, n, d);
		assert_true(rv == CKR_OK || rv == CKR_DEVICE_ERROR);
		if (rv == CKR_OK) {
			ok++;
			assert_well_formed(d);
		} else {
			assert_int_equal(d->n, 0);
		}
		free(buf);
		vg_object_free(d);
	}
	/* The loop reached the parser's accepting paths, not only its
	 * first checks. */
	assert_true(ok > 100);
	free(enc);
	vg_object_free(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_free),
		cmocka_unit_test(test_set_get_del),
		cmocka_unit_test(test_sorted_random_inserts),
		cmocka_unit_test(test_lookup_every_size),
		cmocka_unit_test(test_alloc_and_take),
		cmocka_unit_test(test_clone_and_cache),
		cmocka_unit_test(test_encode_decode_round_trip),
		cmocka_unit_test(test_encode_golden),
		cmocka_unit_test(test_encode_rejects),
		cmocka_unit_test(test_decode_rejects),
		cmocka_unit_test(test_decode_nested_recursion),
		cmocka_unit_test(test_decode_truncated_and_flipped),
		cmocka_unit_test(test_decode_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
