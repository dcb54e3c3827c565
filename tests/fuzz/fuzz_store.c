/*
 * Fuzz target "store": what token/ parses from bytes it did not make
 * itself in this process: the serialised attribute lists of the object
 * database (vg_attrs_decode, including nested attribute arrays), the
 * stored object bodies and seals (token/seal.c: vg_body_parse, the seal
 * checks, the rules for unsealed rows, decoding a row into an object),
 * and X.509 certificates as stored in CKA_VALUE, from which
 * C_CreateObject fills CKA_SUBJECT, CKA_ISSUER, CKA_SERIAL_NUMBER, the
 * dates and CKA_PUBLIC_KEY_INFO. Every input is tried as each.
 *
 * Oracles: a decoded list encodes back to the same bytes (the format is
 * canonical: types strictly increasing, fixed-size integers), a decoded
 * object matches a template made of its own visible attributes, length
 * queries agree with the values C_GetAttributeValue then copies, a
 * failed decode leaves the object unchanged, and a certificate the token
 * accepts yields a CKA_PUBLIC_KEY_INFO that parses as one; a parsed body
 * builds back to the same bytes, a seal accepts its own row and tag and
 * no other tag or row, and a token seal record accepted is the one the
 * token would write.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "token/object.h"
#include "token/token.h"
#include "tests/fuzz/fuzz.h"

/* C_GetAttributeValue twice, as applications call it: lengths first,
 * then values into buffers of those lengths. */
static void
get_all(const struct vg_object *o)
{
	CK_ATTRIBUTE *t = calloc(o->n ? o->n : 1, sizeof(*t));
	CK_ULONG i, n = o->n;

	if (t == NULL)
		return;
	for (i = 0; i < n; i++)
		t[i].type = o->attrs[i].type;
	(void)vg_object_get_attrs(o, t, n);
	for (i = 0; i < n; i++) {
		if (t[i].ulValueLen == CK_UNAVAILABLE_INFORMATION)
			continue;
		/* For attribute arrays a zeroed array asks for the inner
		 * types and lengths. */
		t[i].pValue = calloc(1, t[i].ulValueLen ? t[i].ulValueLen : 1);
	}
	(void)vg_object_get_attrs(o, t, n);
	for (i = 0; i < n; i++) {
		const struct vg_attr *a = &o->attrs[i];

		if (t[i].pValue != NULL &&
		    t[i].ulValueLen != CK_UNAVAILABLE_INFORMATION &&
		    vg_attr_kind(a->type) != VG_K_ATTRS &&
		    vg_attr_kind(a->type) != VG_K_MECHS &&
		    (t[i].ulValueLen != a->len ||
		    (a->len != 0 && memcmp(t[i].pValue, a->value, a->len))))
			vg_fz_fail("get_attrs: value differs from the stored "
				   "one (type 0x%lx)", (unsigned long)a->type);
		free(t[i].pValue);
	}
	free(t);
}

static void
stored_list(const uint8_t *d, size_t n)
{
	struct vg_object *o = vg_object_new(), *nested = NULL;
	uint8_t *out = NULL;
	size_t outlen = 0, before;
	CK_ATTRIBUTE *t = NULL;
	CK_ULONG tn = 0;
	CK_RV rv;

	if (o == NULL)
		return;
	/* Something to keep when decoding fails. */
	if (vg_object_set_attr(o, CKA_LABEL, "x", 1) != CKR_OK)
		goto out;
	before = o->n;
	rv = vg_attrs_decode(d, n, o);
	if (rv != CKR_OK) {
		if (rv != CKR_DEVICE_ERROR && rv != CKR_HOST_MEMORY)
			vg_fz_fail("attrs_decode: unexpected rv 0x%lx",
			    (unsigned long)rv);
		if (o->n != before)
			vg_fz_fail("attrs_decode: failed but changed the "
				   "object");
		goto out;
	}
	/* The input replaced CKA_LABEL or not: start afresh to compare. */
	vg_object_free(o);
	o = vg_object_new();
	if (o == NULL || vg_attrs_decode(d, n, o) != CKR_OK)
		goto out;
	if (vg_attrs_encode(o->attrs, o->n, &out, &outlen) != CKR_OK)
		vg_fz_fail("attrs_encode refused what attrs_decode made");
	if (outlen != n || memcmp(out, d, n) != 0)
		vg_fz_fail("attrs: decode then encode differs");
	get_all(o);
	if (vg_object_as_template(o, &t, &tn) == CKR_OK) {
		CK_ULONG i, k = 0;

		/* Hidden attributes never match: leave them out. */
		for (i = 0; i < tn; i++)
			if (!vg_object_attr_hidden(o, t[i].type))
				t[k++] = t[i];
		if (!vg_object_match(o, t, k))
			vg_fz_fail("object does not match its own attributes");
		free(t);
	}
	if (vg_object_nested(o, CKA_WRAP_TEMPLATE, &nested) == CKR_OK) {
		get_all(nested);
		vg_object_free(nested);
	}
	if (vg_object_nested(o, CKA_DERIVE_TEMPLATE, &nested) == CKR_OK)
		vg_object_free(nested);
out:
	if (out != NULL) {
		vg_wipe(out, outlen);
		free(out);
	}
	vg_object_free(o);
}

static uint8_t fz_key[VG_SEAL_KEY_LEN] = "a seal key for the fuzz target.";
static const char fz_serial[16] = "0123456789abcdef";

/* The body of a stored row: parse, build back, and the seal rules on a
 * slot holding the seal key (and, for odd inputs, the master key, so
 * that encrypted values are tried). */
static void
stored_body(const uint8_t *d, size_t n)
{
	struct vg_body_item *it = NULL;
	struct vg_object *o = NULL;
	struct vg_body b;
	struct vg_slot slot;
	struct vg_stored r;
	size_t ni = 0, i;
	CK_RV rv;

	rv = vg_body_parse(d, n, &it, &ni);
	if (rv != CKR_OK) {
		if (rv != CKR_DEVICE_ERROR && rv != CKR_HOST_MEMORY)
			vg_fz_fail("body_parse: unexpected rv 0x%lx",
			    (unsigned long)rv);
		if (it != NULL || ni != 0)
			vg_fz_fail("body_parse: failed but gave items");
		return;
	}
	if (vg_body_start(&b) != CKR_OK)
		goto out;
	for (i = 0; i < ni; i++)
		if (vg_body_add(&b, it[i].type, it[i].encrypted, it[i].value,
		    it[i].len) != CKR_OK)
			vg_fz_fail("body_add refused what body_parse gave");
	vg_body_finish(&b);
	if (b.len != n || memcmp(b.buf, d, n) != 0)
		vg_fz_fail("body: parse then build differs");
	vg_body_free(&b);

	memset(&slot, 0, sizeof(slot));
	memcpy(slot.rec.serial, fz_serial, 16);
	slot.rec.id = 1;
	slot.seal_key = fz_key;
	slot.mk = (n & 1) ? fz_key : NULL;
	slot.seal_mark = 3;
	slot.seal_legacy = (n & 2) != 0;
	memset(&r, 0, sizeof(r));
	r.row.token_id = 1;
	r.row.id = (int64_t)(n % 7);
	r.row.cls = ni > 0 ? (CK_OBJECT_CLASS)(it[0].type & 3) : CKO_DATA;
	r.row.has_kt = (n & 4) != 0;
	r.row.kt = CKK_AES;
	r.row.private_obj = (n & 8) != 0;
	r.row.label_null = r.row.id_null = 1;
	r.row.body = d;
	r.row.body_len = n;
	/* Unsealed: any verdict, never a crash. Decoded: only when allowed. */
	if (vg_seal_check(&slot, &r, it, ni) == CKR_OK &&
	    vg_store_decode(&slot, &r, it, ni, &o) == CKR_OK) {
		get_all(o);
		vg_object_free(o);
	}
out:
	free(it);
}

/* Seals over the input as a body: the right tag, and no other. */
static void
seals(const uint8_t *d, size_t n)
{
	uint8_t tag[VG_SEAL_TAG_LEN], other[VG_SEAL_TAG_LEN];
	uint8_t rec[VG_TOKEN_SEAL_LEN];
	struct vg_seal_row r;
	int64_t mark;

	memset(&r, 0, sizeof(r));
	r.token_id = 1;
	r.id = (int64_t)n;
	r.cls = n > 0 ? d[0] : 0;
	r.label_idx = d;
	r.label_len = n > 4 ? 4 : n;
	r.id_null = 1;
	r.body = d;
	r.body_len = n;
	vg_seal_object(fz_key, fz_serial, &r, tag);
	if (!vg_seal_object_check(fz_key, fz_serial, &r, tag, sizeof(tag)))
		vg_fz_fail("seal: the row's own seal refused");
	if (n >= sizeof(other)) {
		memcpy(other, d, sizeof(other));
	} else {
		memcpy(other, tag, sizeof(other));
		other[n % sizeof(other)] ^= 1;
	}
	if (vg_seal_object_check(fz_key, fz_serial, &r, other,
	    sizeof(other)) != (memcmp(other, tag, sizeof(tag)) == 0))
		vg_fz_fail("seal: another tag accepted");
	if (vg_seal_object_check(fz_key, fz_serial, &r, tag, sizeof(tag) - 1))
		vg_fz_fail("seal: a short tag accepted");
	r.label_null = 1;
	if (vg_seal_object_check(fz_key, fz_serial, &r, tag, sizeof(tag)))
		vg_fz_fail("seal: accepted for a NULL column");
	r.label_null = 0;
	r.id++;
	if (vg_seal_object_check(fz_key, fz_serial, &r, tag, sizeof(tag)))
		vg_fz_fail("seal: accepted for another object");
	if (vg_seal_token_check(fz_key, fz_serial, 1, d, n, &mark)) {
		vg_seal_token(fz_key, fz_serial, 1, mark, rec);
		if (n != sizeof(rec) || memcmp(rec, d, n) != 0)
			vg_fz_fail("token seal: accepted a record it would "
				   "not write");
	}
}

static void
certificate(const uint8_t *d, size_t n)
{
	CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	CK_CERTIFICATE_TYPE ct = CKC_X_509;
	CK_BBOOL no = CK_FALSE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_CERTIFICATE_TYPE, &ct, sizeof(ct) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_VALUE, (void *)d, n },
	};
	struct vg_object *o = NULL;
	const struct vg_attr *a;
	struct vg_der_algid alg;
	struct vg_der key;
	CK_RV rv;

	rv = vg_object_from_template(VG_OBJ_CREATE, CK_UNAVAILABLE_INFORMATION,
	    CK_UNAVAILABLE_INFORMATION, 0, t, 4, &o);
	if (rv != CKR_OK) {
		if (o != NULL)
			vg_fz_fail("from_template: error but an object");
		return;
	}
	a = vg_object_attr(o, CKA_PUBLIC_KEY_INFO);
	if (a == NULL || vg_der_parse_spki(a->value, a->len, &alg, &key) !=
	    VG_OK)
		vg_fz_fail("certificate accepted without a parsable SPKI");
	if (vg_object_attr(o, CKA_SUBJECT) == NULL ||
	    vg_object_attr(o, CKA_ISSUER) == NULL ||
	    vg_object_attr(o, CKA_SERIAL_NUMBER) == NULL)
		vg_fz_fail("certificate accepted without its names");
	get_all(o);
	vg_object_free(o);
}

/* see fuzz.h */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* see fuzz.h */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	stored_list(data, size);
	stored_body(data, size);
	seals(data, size);
	certificate(data, size);
	return 0;
}
