/*
 * Fuzz target "store": what token/ parses from bytes it did not make
 * itself in this process: the serialised attribute lists of the object
 * database (vg_attrs_decode, including nested attribute arrays) and X.509
 * certificates as stored in CKA_VALUE, from which C_CreateObject fills
 * CKA_SUBJECT, CKA_ISSUER, CKA_SERIAL_NUMBER, the dates and
 * CKA_PUBLIC_KEY_INFO. Every input is tried as both.
 *
 * Oracles: a decoded list encodes back to the same bytes (the format is
 * canonical: types strictly increasing, fixed-size integers), a decoded
 * object matches a template made of its own visible attributes, length
 * queries agree with the values C_GetAttributeValue then copies, a
 * failed decode leaves the object unchanged, and a certificate the token
 * accepts yields a CKA_PUBLIC_KEY_INFO that parses as one.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "token/object.h"
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
	certificate(data, size);
	return 0;
}
