/* The attribute rules (token/object.h): the table itself; creation,
 * generation, derivation and unwrapping for every class and key type;
 * C_SetAttributeValue, C_CopyObject and C_GetAttributeValue semantics;
 * matching; and the X.509 fields taken from a certificate made by OpenSSL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#include "token/object.h"

#define N(t) ((CK_ULONG)(sizeof(t) / sizeof((t)[0])))
#define A(type, var) { (type), (void *)&(var), sizeof(var) }
#define AB(type, buf, len) { (type), (void *)(buf), (len) }

static CK_BBOOL tru = CK_TRUE, fal = CK_FALSE;
static CK_OBJECT_CLASS c_data = CKO_DATA, c_cert = CKO_CERTIFICATE,
    c_pub = CKO_PUBLIC_KEY, c_priv = CKO_PRIVATE_KEY, c_sec = CKO_SECRET_KEY;
static CK_KEY_TYPE k_rsa = CKK_RSA, k_ec = CKK_EC, k_mldsa = CKK_ML_DSA,
    k_gen = CKK_GENERIC_SECRET, k_aes = CKK_AES;
static CK_CERTIFICATE_TYPE x509 = CKC_X_509;
static CK_ULONG p65 = CKP_ML_DSA_65;
static uint8_t modulus[256], pubexp[3] = { 1, 0, 1 }, privexp[256],
    aes[32], point[67], seed[32], blob[64];
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };
static const CK_ULONG UNAV = CK_UNAVAILABLE_INFORMATION;

static int
setup(void **state)
{
	(void)state;
	memset(modulus, 0xc3, sizeof(modulus));
	memset(privexp, 0x5a, sizeof(privexp));
	memset(aes, 0x11, sizeof(aes));
	memset(seed, 0x22, sizeof(seed));
	memset(blob, 0x33, sizeof(blob));
	point[0] = 0x04;
	point[1] = 65;
	point[2] = 0x04;
	memset(point + 3, 0x44, 64);
	return 0;
}

static CK_RV
build(enum vg_obj_op op, CK_OBJECT_CLASS ch, CK_KEY_TYPE kh,
    const CK_ATTRIBUTE *t, CK_ULONG n, struct vg_object **o)
{
	CK_RV rv = vg_object_from_template(op, ch, kh, CKM_VENDOR_DEFINED, t,
	    n, o);

	if (rv != CKR_OK)
		assert_null(*o);
	return rv;
}

static struct vg_object *
create(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	struct vg_object *o = NULL;

	assert_int_equal(build(VG_OBJ_CREATE, UNAV, UNAV, t, n, &o), CKR_OK);
	return o;
}

static CK_RV
create_rv(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	struct vg_object *o = NULL;
	CK_RV rv = build(VG_OBJ_CREATE, UNAV, UNAV, t, n, &o);

	vg_object_free(o);
	return rv;
}

static void
expect_bool(const struct vg_object *o, CK_ATTRIBUTE_TYPE t, CK_BBOOL v)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	assert_non_null(a);
	assert_int_equal(a->len, 1);
	assert_int_equal(*(CK_BBOOL *)a->value, v);
}

static void
expect_ulong(const struct vg_object *o, CK_ATTRIBUTE_TYPE t, CK_ULONG v)
{
	assert_non_null(vg_object_attr(o, t));
	assert_int_equal(vg_object_ulong(o, t, ~v), v);
}

static void
expect_bytes(const struct vg_object *o, CK_ATTRIBUTE_TYPE t, const void *v,
    size_t len)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	assert_non_null(a);
	assert_int_equal(a->len, len);
	if (len > 0)
		assert_memory_equal(a->value, v, len);
}

/* Templates of the minimal valid objects. */
#define RSA_PUB(...) { A(CKA_CLASS, c_pub), A(CKA_KEY_TYPE, k_rsa), \
	A(CKA_MODULUS, modulus), A(CKA_PUBLIC_EXPONENT, pubexp), __VA_ARGS__ }
#define RSA_PRIV(...) { A(CKA_CLASS, c_priv), A(CKA_KEY_TYPE, k_rsa), \
	A(CKA_MODULUS, modulus), A(CKA_PUBLIC_EXPONENT, pubexp), \
	A(CKA_PRIVATE_EXPONENT, privexp), __VA_ARGS__ }
#define AES_KEY(...) { A(CKA_CLASS, c_sec), A(CKA_KEY_TYPE, k_aes), \
	A(CKA_VALUE, aes), __VA_ARGS__ }
#define DATA(...) { A(CKA_CLASS, c_data), __VA_ARGS__ }

/* ------------------------------------------------------------ table */

static void
test_table_sane(void **state)
{
	static const struct { CK_OBJECT_CLASS c; CK_ULONG s; } cls[] = {
		{ CKO_DATA, 0 }, { CKO_CERTIFICATE, CKC_X_509 },
		{ CKO_PUBLIC_KEY, CKK_RSA }, { CKO_PUBLIC_KEY, CKK_EC },
		{ CKO_PUBLIC_KEY, CKK_ML_DSA }, { CKO_PRIVATE_KEY, CKK_RSA },
		{ CKO_PRIVATE_KEY, CKK_EC }, { CKO_PRIVATE_KEY, CKK_ML_DSA },
		{ CKO_SECRET_KEY, CKK_GENERIC_SECRET },
		{ CKO_SECRET_KEY, CKK_AES },
	};
	const struct vg_attr_rule *r;
	size_t n, i, j, c;

	(void)state;
	r = vg_attr_rules(&n);
	assert_true(n > 50);
	for (c = 0; c < sizeof(cls) / sizeof(cls[0]); c++) {
		uint32_t s = vg_attr_scopes(cls[c].c, cls[c].s);

		assert_int_not_equal(s, 0);
		for (i = 0; i < n; i++) {
			if ((r[i].scope & s) == 0)
				continue;
			/* One rule per type and class. */
			for (j = i + 1; j < n; j++)
				assert_false(r[j].type == r[i].type &&
				    (r[j].scope & s) != 0);
			/* Sensitive only for private and secret keys. */
			if (r[i].flags & VG_A_SENSITIVE)
				assert_true(cls[c].c == CKO_PRIVATE_KEY ||
				    cls[c].c == CKO_SECRET_KEY);
			assert_int_equal(vg_attr_is_secret(cls[c].c,
					     cls[c].s, r[i].type),
			    (r[i].flags & VG_A_SENSITIVE) != 0);
		}
	}
	for (i = 0; i < n; i++) {
		/* One kind per type, whatever the class. */
		assert_int_equal(vg_attr_kind(r[i].type), r[i].kind);
		/* Required attributes have no default. */
		if (r[i].flags & (VG_A_REQ_CREATE | VG_A_REQ_GEN))
			assert_int_equal(r[i].dflt, VG_D_NONE);
		/* Token-set attributes are never changeable. */
		if ((r[i].flags & VG_A_TOKEN) == VG_A_TOKEN)
			assert_int_equal(r[i].flags &
			    (VG_A_MODIFY | VG_A_COPY), 0);
	}
	assert_int_equal(vg_attr_scopes(CKO_HW_FEATURE, 0), 0);
	assert_int_equal(vg_attr_scopes(CKO_PUBLIC_KEY, CKK_DSA), 0);
	assert_int_equal(vg_attr_scopes(CKO_CERTIFICATE, CKC_WTLS), 0);
}

static void
test_secret_at_rest(void **state)
{
	(void)state;
	assert_true(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_RSA,
	    CKA_PRIVATE_EXPONENT));
	assert_true(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_RSA, CKA_PRIME_2));
	assert_true(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_RSA,
	    CKA_COEFFICIENT));
	assert_false(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_RSA, CKA_MODULUS));
	assert_false(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_RSA, CKA_LABEL));
	assert_true(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_EC, CKA_VALUE));
	assert_false(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_EC,
	    CKA_EC_PARAMS));
	assert_true(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_ML_DSA, CKA_SEED));
	assert_true(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_ML_DSA, CKA_VALUE));
	assert_true(vg_attr_is_secret(CKO_SECRET_KEY, CKK_AES, CKA_VALUE));
	assert_true(vg_attr_is_secret(CKO_SECRET_KEY, CKK_GENERIC_SECRET,
	    CKA_VALUE));
	assert_false(vg_attr_is_secret(CKO_SECRET_KEY, CKK_AES,
	    CKA_CHECK_VALUE));
	assert_false(vg_attr_is_secret(CKO_PUBLIC_KEY, CKK_ML_DSA, CKA_VALUE));
	assert_false(vg_attr_is_secret(CKO_DATA, 0, CKA_VALUE));
	assert_false(vg_attr_is_secret(CKO_CERTIFICATE, UNAV, CKA_VALUE));
	/* A key type we do not know: everything counts as secret. */
	assert_true(vg_attr_is_secret(CKO_PRIVATE_KEY, CKK_DSA, CKA_VALUE));
}

/* ------------------------------------------------------------ create */

static void
test_create_data(void **state)
{
	CK_ATTRIBUTE t[] = DATA(AB(CKA_LABEL, "d", 1));
	struct vg_object *o = create(t, N(t));

	(void)state;
	assert_int_equal(o->cls, CKO_DATA);
	assert_int_equal(o->key_type, UNAV);
	expect_bool(o, CKA_TOKEN, CK_FALSE);
	expect_bool(o, CKA_PRIVATE, CK_FALSE);
	expect_bool(o, CKA_MODIFIABLE, CK_TRUE);
	expect_bool(o, CKA_COPYABLE, CK_TRUE);
	expect_bool(o, CKA_DESTROYABLE, CK_TRUE);
	expect_bytes(o, CKA_LABEL, "d", 1);
	expect_bytes(o, CKA_APPLICATION, NULL, 0);
	expect_bytes(o, CKA_OBJECT_ID, NULL, 0);
	expect_bytes(o, CKA_VALUE, NULL, 0);
	assert_null(vg_object_attr(o, CKA_UNIQUE_ID));
	assert_null(vg_object_attr(o, CKA_LOCAL));
	assert_false(vg_object_is_private(o));
	assert_int_equal(o->n, 10);
	vg_object_free(o);
}

static void
test_create_rsa(void **state)
{
	CK_ATTRIBUTE pub[] = RSA_PUB(AB(CKA_ID, "id", 2));
	CK_ATTRIBUTE priv[] = RSA_PRIV(A(CKA_PRIME_1, blob));
	struct vg_object *o;

	(void)state;
	o = create(pub, N(pub));
	assert_int_equal(o->key_type, CKK_RSA);
	expect_ulong(o, CKA_MODULUS_BITS, 2048);
	expect_bool(o, CKA_PRIVATE, CK_FALSE);
	expect_bool(o, CKA_LOCAL, CK_FALSE);
	expect_ulong(o, CKA_KEY_GEN_MECHANISM, UNAV);
	expect_bool(o, CKA_ENCRYPT, CK_TRUE);
	expect_bool(o, CKA_VERIFY, CK_TRUE);
	expect_bool(o, CKA_VERIFY_RECOVER, CK_TRUE);
	expect_bool(o, CKA_WRAP, CK_TRUE);
	expect_bool(o, CKA_DERIVE, CK_FALSE);
	expect_bool(o, CKA_TRUSTED, CK_FALSE);
	expect_bytes(o, CKA_ID, "id", 2);
	expect_bytes(o, CKA_SUBJECT, NULL, 0);
	expect_bytes(o, CKA_START_DATE, NULL, 0);
	expect_bytes(o, CKA_ALLOWED_MECHANISMS, NULL, 0);
	expect_bytes(o, CKA_WRAP_TEMPLATE, NULL, 0);
	expect_bytes(o, CKA_PUBLIC_KEY_INFO, NULL, 0);
	assert_null(vg_object_attr(o, CKA_SENSITIVE));
	vg_object_free(o);

	o = create(priv, N(priv));
	expect_bool(o, CKA_PRIVATE, CK_TRUE);
	expect_bool(o, CKA_SENSITIVE, CK_TRUE);
	expect_bool(o, CKA_EXTRACTABLE, CK_FALSE);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_FALSE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_FALSE);
	expect_bool(o, CKA_LOCAL, CK_FALSE);
	expect_bool(o, CKA_SIGN, CK_TRUE);
	expect_bool(o, CKA_DECRYPT, CK_TRUE);
	expect_bool(o, CKA_SIGN_RECOVER, CK_TRUE);
	expect_bool(o, CKA_UNWRAP, CK_TRUE);
	expect_bool(o, CKA_ALWAYS_AUTHENTICATE, CK_FALSE);
	expect_bool(o, CKA_WRAP_WITH_TRUSTED, CK_FALSE);
	expect_bytes(o, CKA_PRIME_1, blob, sizeof(blob));
	assert_null(vg_object_attr(o, CKA_PRIME_2));
	assert_null(vg_object_attr(o, CKA_MODULUS_BITS));
	assert_true(vg_object_is_private(o));
	vg_object_free(o);

	/* Modulus bits count from the first set bit. */
	{
		uint8_t m[4] = { 0x00, 0x01, 0xff, 0xff };
		CK_ATTRIBUTE t[] = { A(CKA_CLASS, c_pub),
			A(CKA_KEY_TYPE, k_rsa), A(CKA_MODULUS, m),
			A(CKA_PUBLIC_EXPONENT, pubexp) };

		o = create(t, N(t));
		expect_ulong(o, CKA_MODULUS_BITS, 17);
		vg_object_free(o);
		memset(m, 0, sizeof(m));
		assert_int_equal(create_rv(t, N(t)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
	}
}

static void
test_create_ec_mldsa(void **state)
{
	CK_ATTRIBUTE ecpub[] = { A(CKA_CLASS, c_pub), A(CKA_KEY_TYPE, k_ec),
		A(CKA_EC_PARAMS, p256), A(CKA_EC_POINT, point) };
	CK_ATTRIBUTE ecpriv[] = { A(CKA_CLASS, c_priv), A(CKA_KEY_TYPE, k_ec),
		A(CKA_EC_PARAMS, p256), AB(CKA_VALUE, seed, 32),
		A(CKA_DERIVE, tru) };
	CK_ATTRIBUTE mpub[] = { A(CKA_CLASS, c_pub), A(CKA_KEY_TYPE, k_mldsa),
		A(CKA_PARAMETER_SET, p65), A(CKA_VALUE, blob) };
	CK_ATTRIBUTE mpriv[] = { A(CKA_CLASS, c_priv),
		A(CKA_KEY_TYPE, k_mldsa), A(CKA_PARAMETER_SET, p65),
		A(CKA_SEED, seed), A(CKA_VALUE, blob) };
	struct vg_object *o;

	(void)state;
	o = create(ecpub, N(ecpub));
	expect_bool(o, CKA_VERIFY, CK_TRUE);
	expect_bool(o, CKA_ENCRYPT, CK_FALSE);
	expect_bool(o, CKA_VERIFY_RECOVER, CK_FALSE);
	expect_bytes(o, CKA_EC_POINT, point, sizeof(point));
	vg_object_free(o);
	o = create(ecpriv, N(ecpriv));
	expect_bool(o, CKA_SIGN, CK_TRUE);
	expect_bool(o, CKA_DECRYPT, CK_FALSE);
	expect_bool(o, CKA_DERIVE, CK_TRUE);
	vg_object_free(o);
	o = create(mpub, N(mpub));
	expect_ulong(o, CKA_PARAMETER_SET, CKP_ML_DSA_65);
	expect_bool(o, CKA_VERIFY, CK_TRUE);
	vg_object_free(o);
	/* ML-DSA private: seed and value, either alone, not neither. */
	o = create(mpriv, N(mpriv));
	expect_bool(o, CKA_SIGN, CK_TRUE);
	vg_object_free(o);
	assert_int_equal(create_rv(mpriv, 4), CKR_OK);
	mpriv[3] = mpriv[4];
	assert_int_equal(create_rv(mpriv, 4), CKR_OK);
	assert_int_equal(create_rv(mpriv, 3), CKR_TEMPLATE_INCOMPLETE);
	/* Missing parts. */
	assert_int_equal(create_rv(ecpriv, 3), CKR_TEMPLATE_INCOMPLETE);
	assert_int_equal(create_rv(ecpub, 3), CKR_TEMPLATE_INCOMPLETE);
	/* Malformed values. */
	{
		CK_ULONG p9 = 9;
		uint8_t junk[3] = { 0x06, 0x05, 0x2a };

		mpub[2].pValue = &p9;
		assert_int_equal(create_rv(mpub, N(mpub)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		ecpub[2].pValue = junk;
		ecpub[2].ulValueLen = sizeof(junk);
		assert_int_equal(create_rv(ecpub, N(ecpub)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
	}
}

static void
test_create_secret(void **state)
{
	CK_ATTRIBUTE t[] = AES_KEY(AB(CKA_LABEL, "k", 1));
	CK_ATTRIBUTE g[] = { A(CKA_CLASS, c_sec), A(CKA_KEY_TYPE, k_gen),
		AB(CKA_VALUE, blob, 20) };
	uint8_t kcv[16], zero[16] = { 0 }, sha[20];
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	struct vg_object *o;
	int outl;

	(void)state;
	assert_int_equal(EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, aes,
			     NULL),
	    1);
	assert_int_equal(EVP_EncryptUpdate(ctx, kcv, &outl, zero, 16), 1);
	EVP_CIPHER_CTX_free(ctx);

	o = create(t, N(t));
	expect_ulong(o, CKA_VALUE_LEN, 32);
	expect_bytes(o, CKA_CHECK_VALUE, kcv, 3);
	expect_bool(o, CKA_PRIVATE, CK_TRUE);
	expect_bool(o, CKA_SENSITIVE, CK_FALSE);
	expect_bool(o, CKA_EXTRACTABLE, CK_FALSE);
	expect_bool(o, CKA_ENCRYPT, CK_TRUE);
	expect_bool(o, CKA_WRAP, CK_TRUE);
	expect_bool(o, CKA_SIGN, CK_TRUE);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_FALSE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_FALSE);
	vg_object_free(o);

	SHA1(blob, 20, sha);
	o = create(g, N(g));
	expect_ulong(o, CKA_VALUE_LEN, 20);
	expect_bytes(o, CKA_CHECK_VALUE, sha, 3);
	expect_bool(o, CKA_ENCRYPT, CK_FALSE);
	expect_bool(o, CKA_SIGN, CK_TRUE);
	vg_object_free(o);

	/* A matching check value is accepted, a wrong one is not, an empty
	 * one stays empty (§4.12). */
	{
		CK_ATTRIBUTE c[] = AES_KEY(AB(CKA_CHECK_VALUE, kcv, 3));

		assert_int_equal(create_rv(c, N(c)), CKR_OK);
		kcv[0] ^= 1;
		assert_int_equal(create_rv(c, N(c)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		c[3].ulValueLen = 0;
		o = create(c, N(c));
		expect_bytes(o, CKA_CHECK_VALUE, NULL, 0);
		vg_object_free(o);
	}
	/* AES keys are 16, 24 or 32 bytes. */
	t[2].ulValueLen = 15;
	assert_int_equal(create_rv(t, N(t)), CKR_ATTRIBUTE_VALUE_INVALID);
	t[2].ulValueLen = 24;
	assert_int_equal(create_rv(t, N(t)), CKR_OK);
}

static void
test_create_bad_templates(void **state)
{
	CK_ULONG hw = CKO_HW_FEATURE, vendor = CKO_VENDOR_DEFINED | 0x4e,
	    dsa = CKK_DSA, wtls = CKC_WTLS, cat9 = 9, bits = 2048;
	uint32_t small = CKO_DATA;
	CK_BBOOL two = 2;
	CK_ATTRIBUTE t[8];

	(void)state;
	/* No class; a malformed or unsupported one. */
	assert_int_equal(create_rv(NULL, 0), CKR_TEMPLATE_INCOMPLETE);
	t[0] = (CK_ATTRIBUTE)AB(CKA_LABEL, "x", 1);
	assert_int_equal(create_rv(t, 1), CKR_TEMPLATE_INCOMPLETE);
	t[0] = (CK_ATTRIBUTE)A(CKA_CLASS, small);
	assert_int_equal(create_rv(t, 1), CKR_ATTRIBUTE_VALUE_INVALID);
	t[0] = (CK_ATTRIBUTE)A(CKA_CLASS, hw);
	assert_int_equal(create_rv(t, 1), CKR_ATTRIBUTE_VALUE_INVALID);
	t[0] = (CK_ATTRIBUTE)A(CKA_CLASS, vendor);
	assert_int_equal(create_rv(t, 1), CKR_ATTRIBUTE_VALUE_INVALID);
	/* Keys without a key type or with one we lack. */
	t[0] = (CK_ATTRIBUTE)A(CKA_CLASS, c_pub);
	assert_int_equal(create_rv(t, 1), CKR_TEMPLATE_INCOMPLETE);
	t[1] = (CK_ATTRIBUTE)A(CKA_KEY_TYPE, dsa);
	assert_int_equal(create_rv(t, 2), CKR_ATTRIBUTE_VALUE_INVALID);
	/* Certificates likewise. */
	t[0] = (CK_ATTRIBUTE)A(CKA_CLASS, c_cert);
	assert_int_equal(create_rv(t, 1), CKR_TEMPLATE_INCOMPLETE);
	t[1] = (CK_ATTRIBUTE)A(CKA_CERTIFICATE_TYPE, wtls);
	assert_int_equal(create_rv(t, 2), CKR_ATTRIBUTE_VALUE_INVALID);
	/* The same attribute twice: equal values are fine, others not. */
	{
		CK_ATTRIBUTE d[] = DATA(AB(CKA_LABEL, "a", 1),
		    AB(CKA_LABEL, "a", 1), A(CKA_CLASS, c_data));

		assert_int_equal(create_rv(d, N(d)), CKR_OK);
		d[2].pValue = "b";
		assert_int_equal(create_rv(d, N(d)),
		    CKR_TEMPLATE_INCONSISTENT);
		d[2].pValue = "a";
		d[3].pValue = &c_pub;
		assert_int_equal(create_rv(d, N(d)),
		    CKR_TEMPLATE_INCONSISTENT);
	}
	/* Attributes the class does not have. */
	{
		CK_ATTRIBUTE d[] = DATA(A(CKA_MODULUS, modulus));
		CK_ATTRIBUTE p[] = RSA_PUB(A(CKA_SIGN, tru));
		CK_ATTRIBUTE s[] = AES_KEY(A(CKA_VERIFY_RECOVER, tru));
		CK_ATTRIBUTE k[] = DATA(A(CKA_KEY_TYPE, k_aes));

		assert_int_equal(create_rv(d, N(d)),
		    CKR_ATTRIBUTE_TYPE_INVALID);
		assert_int_equal(create_rv(p, N(p)),
		    CKR_ATTRIBUTE_TYPE_INVALID);
		assert_int_equal(create_rv(s, N(s)),
		    CKR_ATTRIBUTE_TYPE_INVALID);
		assert_int_equal(create_rv(k, N(k)),
		    CKR_ATTRIBUTE_TYPE_INVALID);
	}
	/* Malformed values. */
	{
		CK_ATTRIBUTE d[] = DATA(A(CKA_TOKEN, tru));
		CK_ATTRIBUTE c[] = { A(CKA_CLASS, c_cert),
			A(CKA_CERTIFICATE_TYPE, x509),
			A(CKA_CERTIFICATE_CATEGORY, cat9) };
		static const char *dates[] = { "2024130", "20241301",
			"20240100", "1899123 ", "2024O101", "202401011" };
		size_t i;

		d[1].ulValueLen = 2;
		assert_int_equal(create_rv(d, N(d)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		d[1] = (CK_ATTRIBUTE)A(CKA_TOKEN, two);
		assert_int_equal(create_rv(d, N(d)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		d[1] = (CK_ATTRIBUTE)AB(CKA_LABEL, NULL, 4);
		assert_int_equal(create_rv(d, N(d)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		assert_int_equal(create_rv(c, N(c)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		for (i = 0; i < sizeof(dates) / sizeof(dates[0]); i++) {
			CK_ATTRIBUTE k[] = RSA_PUB(AB(CKA_START_DATE,
			    dates[i], strlen(dates[i])));

			assert_int_equal(create_rv(k, N(k)),
			    CKR_ATTRIBUTE_VALUE_INVALID);
		}
		{
			CK_ATTRIBUTE k[] = RSA_PUB(AB(CKA_END_DATE,
			    "20991231", 8), AB(CKA_START_DATE, "", 0));

			assert_int_equal(create_rv(k, N(k)), CKR_OK);
		}
	}
	/* Token-set and generate-only attributes are read-only here. */
	{
		CK_ATTRIBUTE k[] = RSA_PRIV(A(CKA_LOCAL, fal));
		CK_ATTRIBUTE p[] = RSA_PUB(A(CKA_MODULUS_BITS, bits));
		CK_ULONG l32 = 32;
		CK_ATTRIBUTE s[] = AES_KEY(A(CKA_VALUE_LEN, l32));
		static const CK_ATTRIBUTE_TYPE ro[] = { CKA_LOCAL,
			CKA_ALWAYS_SENSITIVE, CKA_NEVER_EXTRACTABLE };
		size_t i;

		for (i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
			k[5].type = ro[i];
			assert_int_equal(create_rv(k, N(k)),
			    CKR_ATTRIBUTE_READ_ONLY);
		}
		k[5] = (CK_ATTRIBUTE)A(CKA_KEY_GEN_MECHANISM, bits);
		assert_int_equal(create_rv(k, N(k)), CKR_ATTRIBUTE_READ_ONLY);
		k[5] = (CK_ATTRIBUTE)AB(CKA_UNIQUE_ID, "1", 1);
		assert_int_equal(create_rv(k, N(k)), CKR_ATTRIBUTE_READ_ONLY);
		assert_int_equal(create_rv(p, N(p)), CKR_ATTRIBUTE_READ_ONLY);
		assert_int_equal(create_rv(s, N(s)), CKR_ATTRIBUTE_READ_ONLY);
	}
	/* Missing required parts. */
	{
		CK_ATTRIBUTE p[] = RSA_PUB(AB(CKA_LABEL, "", 0));
		CK_ATTRIBUTE k[] = RSA_PRIV(AB(CKA_LABEL, "", 0));
		CK_ATTRIBUTE s[] = AES_KEY(AB(CKA_LABEL, "", 0));

		p[2] = p[4];
		assert_int_equal(create_rv(p, N(p)),
		    CKR_TEMPLATE_INCOMPLETE);
		k[4] = k[5];
		assert_int_equal(create_rv(k, N(k)),
		    CKR_TEMPLATE_INCOMPLETE);
		s[2] = s[3];
		assert_int_equal(create_rv(s, N(s)),
		    CKR_TEMPLATE_INCOMPLETE);
	}
}

static void
test_create_trusted_and_always_auth(void **state)
{
	CK_ATTRIBUTE p[] = RSA_PUB(A(CKA_TRUSTED, tru));
	CK_ATTRIBUTE k[] = RSA_PRIV(A(CKA_ALWAYS_AUTHENTICATE, tru),
	    A(CKA_PRIVATE, fal));
	struct vg_object *o = NULL;

	(void)state;
	/* Footnote 10: only the SO sets CKA_TRUSTED true. */
	assert_int_equal(create_rv(p, N(p)), CKR_ATTRIBUTE_READ_ONLY);
	assert_int_equal(vg_object_from_template_ex(VG_OBJ_CREATE, UNAV, UNAV,
			     0, VG_OBJ_F_SO, p, N(p), &o),
	    CKR_OK);
	expect_bool(o, CKA_TRUSTED, CK_TRUE);
	vg_object_free(o);
	p[4].pValue = &fal;
	assert_int_equal(create_rv(p, N(p)), CKR_OK);
	/* CKA_ALWAYS_AUTHENTICATE needs CKA_PRIVATE. */
	assert_int_equal(create_rv(k, N(k)), CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(create_rv(k, N(k) - 1), CKR_OK);
}

static void
test_create_nested_templates(void **state)
{
	CK_ULONG aeskt = CKK_AES;
	CK_MECHANISM_TYPE mechs[2] = { CKM_SHA_1, 0x1082 };
	CK_ATTRIBUTE inner[] = { A(CKA_KEY_TYPE, aeskt),
		A(CKA_EXTRACTABLE, tru), AB(CKA_LABEL, "wrapped", 7) };
	CK_ATTRIBUTE rec[] = { AB(CKA_WRAP_TEMPLATE, inner, sizeof(inner)) };
	CK_ATTRIBUTE t[] = AES_KEY(AB(CKA_WRAP_TEMPLATE, inner, sizeof(inner)),
	    A(CKA_ALLOWED_MECHANISMS, mechs));
	struct vg_object *o, *n;
	CK_ATTRIBUTE *tt;
	CK_ULONG tn;

	(void)state;
	o = create(t, N(t));
	expect_bytes(o, CKA_ALLOWED_MECHANISMS, mechs, sizeof(mechs));
	assert_int_equal(vg_object_nested(o, CKA_WRAP_TEMPLATE, &n), CKR_OK);
	assert_int_equal(n->n, 3);
	expect_bytes(n, CKA_LABEL, "wrapped", 7);
	expect_ulong(n, CKA_KEY_TYPE, CKK_AES);
	/* As a template it matches a key that has those values. */
	assert_int_equal(vg_object_as_template(n, &tt, &tn), CKR_OK);
	assert_int_equal(tn, 3);
	assert_false(vg_object_match(o, tt, tn));
	free(tt);
	vg_object_free(n);
	assert_int_equal(vg_object_nested(o, CKA_UNWRAP_TEMPLATE, &n), CKR_OK);
	assert_int_equal(n->n, 0);
	vg_object_free(n);
	vg_object_free(o);

	/* No recursion; whole elements only; consistent repeats. */
	t[3] = (CK_ATTRIBUTE)AB(CKA_WRAP_TEMPLATE, rec, sizeof(rec));
	assert_int_equal(create_rv(t, N(t)), CKR_TEMPLATE_INCONSISTENT);
	t[3] = (CK_ATTRIBUTE)AB(CKA_WRAP_TEMPLATE, inner, sizeof(inner) - 1);
	assert_int_equal(create_rv(t, N(t)), CKR_ATTRIBUTE_VALUE_INVALID);
	inner[2] = inner[1];
	inner[2].pValue = &fal;
	t[3] = (CK_ATTRIBUTE)AB(CKA_WRAP_TEMPLATE, inner, sizeof(inner));
	assert_int_equal(create_rv(t, N(t)), CKR_TEMPLATE_INCONSISTENT);
	inner[1].ulValueLen = 2;
	assert_int_equal(create_rv(t, N(t)), CKR_ATTRIBUTE_VALUE_INVALID);
	t[4].ulValueLen = 12;
	t[3].ulValueLen = 0;
	assert_int_equal(create_rv(t, N(t)), CKR_ATTRIBUTE_VALUE_INVALID);
}

/* ---------------------------------------------- generate, derive, unwrap */

static void
test_generate(void **state)
{
	CK_ULONG bits = 2048, len32 = 32;
	CK_ATTRIBUTE pub[] = { A(CKA_MODULUS_BITS, bits),
		A(CKA_PUBLIC_EXPONENT, pubexp), A(CKA_TOKEN, tru) };
	CK_ATTRIBUTE priv[] = { A(CKA_SENSITIVE, tru), A(CKA_CLASS, c_priv),
		A(CKA_EXTRACTABLE, fal) };
	CK_ATTRIBUTE sec[] = { A(CKA_VALUE_LEN, len32), A(CKA_SENSITIVE, fal),
		A(CKA_EXTRACTABLE, tru) };
	struct vg_object *o = NULL;
	CK_MECHANISM_TYPE gen = 0x1080; /* CKM_AES_KEY_GEN */

	(void)state;
	assert_int_equal(vg_object_from_template(VG_OBJ_GENERATE,
			     CKO_PUBLIC_KEY, CKK_RSA, 0, pub, N(pub), &o),
	    CKR_OK);
	expect_bool(o, CKA_LOCAL, CK_TRUE);
	expect_ulong(o, CKA_KEY_GEN_MECHANISM, 0);
	expect_ulong(o, CKA_MODULUS_BITS, 2048);
	assert_null(vg_object_attr(o, CKA_MODULUS));
	/* Not whole until the mechanism adds the modulus. */
	assert_int_equal(vg_object_complete(o), CKR_TEMPLATE_INCOMPLETE);
	assert_int_equal(vg_object_set_attr(o, CKA_MODULUS, modulus,
			     sizeof(modulus)),
	    CKR_OK);
	assert_int_equal(vg_object_complete(o), CKR_OK);
	vg_object_free(o);

	assert_int_equal(vg_object_from_template(VG_OBJ_GENERATE,
			     CKO_PRIVATE_KEY, CKK_RSA, 0, priv, N(priv), &o),
	    CKR_OK);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_TRUE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_TRUE);
	expect_bool(o, CKA_LOCAL, CK_TRUE);
	vg_object_free(o);

	/* Required and forbidden at generation. */
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, CKK_RSA,
			     pub + 1, 2, &o),
	    CKR_TEMPLATE_INCOMPLETE);
	pub[1] = (CK_ATTRIBUTE)A(CKA_MODULUS, modulus);
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, CKK_RSA, pub,
			     N(pub), &o),
	    CKR_ATTRIBUTE_READ_ONLY);
	priv[0] = (CK_ATTRIBUTE)A(CKA_PUBLIC_EXPONENT, pubexp);
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_PRIVATE_KEY, CKK_RSA,
			     priv, N(priv), &o),
	    CKR_ATTRIBUTE_READ_ONLY);
	{
		CK_ATTRIBUTE e[] = { A(CKA_EC_PARAMS, p256) };

		assert_int_equal(build(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, CKK_EC,
				     e, 1, &o),
		    CKR_OK);
		vg_object_free(o);
		assert_int_equal(build(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, CKK_EC,
				     NULL, 0, &o),
		    CKR_TEMPLATE_INCOMPLETE);
		assert_int_equal(build(VG_OBJ_GENERATE, CKO_PRIVATE_KEY,
				     CKK_EC, e, 1, &o),
		    CKR_ATTRIBUTE_READ_ONLY);
		assert_int_equal(build(VG_OBJ_GENERATE, CKO_PUBLIC_KEY,
				     CKK_ML_DSA, NULL, 0, &o),
		    CKR_TEMPLATE_INCOMPLETE);
	}
	/* A class or key type that differs from the mechanism's. */
	priv[0] = (CK_ATTRIBUTE)A(CKA_KEY_TYPE, k_ec);
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_PRIVATE_KEY, CKK_RSA,
			     priv, N(priv), &o),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_PUBLIC_KEY, CKK_EC, priv,
			     N(priv), &o),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_DATA, UNAV, NULL, 0, &o),
	    CKR_TEMPLATE_INCONSISTENT);

	/* A secret key: the value comes afterwards, then the check value. */
	assert_int_equal(vg_object_from_template(VG_OBJ_GENERATE,
			     CKO_SECRET_KEY, CKK_AES, gen, sec, N(sec), &o),
	    CKR_OK);
	expect_ulong(o, CKA_KEY_GEN_MECHANISM, gen);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_FALSE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_FALSE);
	assert_null(vg_object_attr(o, CKA_CHECK_VALUE));
	assert_int_equal(vg_object_set_attr(o, CKA_VALUE, aes, 16), CKR_OK);
	assert_int_equal(vg_object_complete(o), CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(vg_object_set_attr(o, CKA_VALUE, aes, 32), CKR_OK);
	assert_int_equal(vg_object_complete(o), CKR_OK);
	assert_int_equal(vg_object_attr(o, CKA_CHECK_VALUE)->len, 3);
	assert_int_equal(vg_object_complete(o), CKR_OK);
	vg_object_free(o);
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_SECRET_KEY, CKK_AES,
			     sec + 1, 2, &o),
	    CKR_TEMPLATE_INCOMPLETE);
	sec[1] = (CK_ATTRIBUTE)A(CKA_VALUE, aes);
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_SECRET_KEY, CKK_AES, sec,
			     N(sec), &o),
	    CKR_ATTRIBUTE_READ_ONLY);
	len32 = 17;
	assert_int_equal(build(VG_OBJ_GENERATE, CKO_SECRET_KEY, CKK_AES, sec,
			     1, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
}

static void
test_derive_unwrap(void **state)
{
	CK_ULONG len = 32;
	CK_ATTRIBUTE d[] = { A(CKA_CLASS, c_sec), A(CKA_KEY_TYPE, k_gen),
		A(CKA_VALUE_LEN, len), A(CKA_SENSITIVE, tru),
		A(CKA_EXTRACTABLE, fal) };
	CK_ATTRIBUTE u[] = { A(CKA_CLASS, c_sec), A(CKA_KEY_TYPE, k_aes) };
	struct vg_object *o = NULL, *base = NULL;
	CK_ATTRIBUTE b[] = RSA_PRIV(A(CKA_LABEL, tru));

	(void)state;
	b[5] = (CK_ATTRIBUTE)AB(CKA_LABEL, "b", 1);
	base = create(b, N(b)); /* created: never "always sensitive" */
	assert_int_equal(build(VG_OBJ_DERIVE, UNAV, UNAV, d, N(d), &o), CKR_OK);
	expect_bool(o, CKA_LOCAL, CK_FALSE);
	expect_ulong(o, CKA_KEY_GEN_MECHANISM, UNAV);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_TRUE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_TRUE);
	assert_int_equal(vg_object_derived_from(o,
	    vg_object_bool(base, CKA_ALWAYS_SENSITIVE, CK_FALSE),
	    vg_object_bool(base, CKA_NEVER_EXTRACTABLE, CK_FALSE)), CKR_OK);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_FALSE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_FALSE);
	assert_int_equal(vg_object_set_attr(o, CKA_VALUE, blob, 32), CKR_OK);
	assert_int_equal(vg_object_complete(o), CKR_OK);
	vg_object_free(o);
	vg_object_free(base);
	/* The derived value comes from the mechanism. */
	d[2] = (CK_ATTRIBUTE)A(CKA_VALUE, aes);
	assert_int_equal(build(VG_OBJ_DERIVE, UNAV, UNAV, d, N(d), &o),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_int_equal(build(VG_OBJ_DERIVE, CKO_PUBLIC_KEY, CKK_EC, NULL, 0,
			     &o),
	    CKR_TEMPLATE_INCONSISTENT);

	/* Unwrapped: extractable by default, never "always sensitive". */
	assert_int_equal(build(VG_OBJ_UNWRAP, UNAV, UNAV, u, N(u), &o), CKR_OK);
	expect_bool(o, CKA_EXTRACTABLE, CK_TRUE);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_FALSE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_FALSE);
	expect_bool(o, CKA_LOCAL, CK_FALSE);
	vg_object_free(o);
	assert_int_equal(build(VG_OBJ_UNWRAP, UNAV, UNAV, u, 1, &o),
	    CKR_TEMPLATE_INCOMPLETE);
	u[1] = (CK_ATTRIBUTE)A(CKA_VALUE, aes);
	assert_int_equal(build(VG_OBJ_UNWRAP, CKO_SECRET_KEY, CKK_AES, u, 2,
			     &o),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_int_equal(build(VG_OBJ_COPY, UNAV, UNAV, u, 2, &o),
	    CKR_ARGUMENTS_BAD);
}

/* ------------------------------------------------------------ set, copy */

static void
test_set_rules(void **state)
{
	CK_ATTRIBUTE t[] = RSA_PRIV(A(CKA_SENSITIVE, fal),
	    A(CKA_EXTRACTABLE, tru));
	struct vg_object *o = create(t, N(t));
	CK_ATTRIBUTE s[3];

	(void)state;
	o->cache = o; /* kept by set (no cache_free: not ours) */
	s[0] = (CK_ATTRIBUTE)AB(CKA_LABEL, "new", 3);
	s[1] = (CK_ATTRIBUTE)AB(CKA_ID, "\x01\x02", 2);
	assert_int_equal(vg_object_apply_set(o, s, 2), CKR_OK);
	expect_bytes(o, CKA_LABEL, "new", 3);
	expect_bytes(o, CKA_ID, "\x01\x02", 2);
	assert_ptr_equal(o->cache, o);
	assert_int_equal(vg_object_apply_set(o, NULL, 0), CKR_OK);

	/* All or nothing: a read-only entry after a good one. */
	s[0] = (CK_ATTRIBUTE)AB(CKA_LABEL, "zzz", 3);
	s[1] = (CK_ATTRIBUTE)A(CKA_MODULUS, modulus);
	assert_int_equal(vg_object_apply_set(o, s, 2), CKR_ATTRIBUTE_READ_ONLY);
	expect_bytes(o, CKA_LABEL, "new", 3);
	s[1] = (CK_ATTRIBUTE)A(CKA_CLASS, c_pub);
	assert_int_equal(vg_object_apply_set(o, s, 2), CKR_ATTRIBUTE_READ_ONLY);
	s[1] = (CK_ATTRIBUTE)A(CKA_TOKEN, tru);
	assert_int_equal(vg_object_apply_set(o, s, 2), CKR_ATTRIBUTE_READ_ONLY);
	s[1] = (CK_ATTRIBUTE)A(CKA_ALWAYS_AUTHENTICATE, tru);
	assert_int_equal(vg_object_apply_set(o, s, 2), CKR_ATTRIBUTE_READ_ONLY);
	s[1] = (CK_ATTRIBUTE)A(CKA_VALUE_LEN, modulus);
	assert_int_equal(vg_object_apply_set(o, s, 2),
	    CKR_ATTRIBUTE_TYPE_INVALID);
	s[1] = (CK_ATTRIBUTE)AB(CKA_SIGN, "\x02", 1);
	assert_int_equal(vg_object_apply_set(o, s, 2),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	s[1] = (CK_ATTRIBUTE)AB(CKA_LABEL, "yyy", 3);
	assert_int_equal(vg_object_apply_set(o, s, 2),
	    CKR_TEMPLATE_INCONSISTENT);
	expect_bytes(o, CKA_LABEL, "new", 3);

	/* One-way changes (footnotes 11, 12). */
	s[0] = (CK_ATTRIBUTE)A(CKA_SENSITIVE, tru);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_FALSE);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);
	s[0] = (CK_ATTRIBUTE)A(CKA_SENSITIVE, fal);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_ATTRIBUTE_READ_ONLY);
	s[0] = (CK_ATTRIBUTE)A(CKA_EXTRACTABLE, fal);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_FALSE);
	s[0] = (CK_ATTRIBUTE)A(CKA_EXTRACTABLE, tru);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_ATTRIBUTE_READ_ONLY);
	s[0] = (CK_ATTRIBUTE)A(CKA_WRAP_WITH_TRUSTED, tru);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);
	s[0] = (CK_ATTRIBUTE)A(CKA_WRAP_WITH_TRUSTED, fal);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_ATTRIBUTE_READ_ONLY);
	s[0] = (CK_ATTRIBUTE)A(CKA_COPYABLE, fal);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);
	s[0] = (CK_ATTRIBUTE)A(CKA_COPYABLE, tru);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_ATTRIBUTE_READ_ONLY);
	/* Usage flags go both ways. */
	s[0] = (CK_ATTRIBUTE)A(CKA_SIGN, fal);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);
	s[0] = (CK_ATTRIBUTE)A(CKA_SIGN, tru);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);

	/* CKA_MODIFIABLE false freezes everything. */
	o->cache = NULL;
	vg_object_free(o);
	t[5] = (CK_ATTRIBUTE)A(CKA_MODIFIABLE, fal);
	o = create(t, N(t));
	s[0] = (CK_ATTRIBUTE)AB(CKA_LABEL, "x", 1);
	assert_int_equal(vg_object_apply_set(o, s, 1), CKR_ACTION_PROHIBITED);
	assert_int_equal(vg_object_apply_set(o, NULL, 0),
	    CKR_ACTION_PROHIBITED);
	vg_object_free(o);

	/* Secret key check value: may be cleared, not changed. */
	{
		CK_ATTRIBUTE k[] = AES_KEY(A(CKA_LABEL, tru));

		k[3] = (CK_ATTRIBUTE)AB(CKA_LABEL, "", 0);
		o = create(k, N(k));
		s[0] = (CK_ATTRIBUTE)AB(CKA_CHECK_VALUE, "abc", 3);
		assert_int_equal(vg_object_apply_set(o, s, 1),
		    CKR_ATTRIBUTE_READ_ONLY);
		s[0].ulValueLen = 0;
		assert_int_equal(vg_object_apply_set(o, s, 1), CKR_OK);
		expect_bytes(o, CKA_CHECK_VALUE, NULL, 0);
		vg_object_free(o);
	}
}

static void
test_copy_rules(void **state)
{
	CK_ATTRIBUTE t[] = AES_KEY(A(CKA_SENSITIVE, fal),
	    A(CKA_EXTRACTABLE, tru), A(CKA_MODIFIABLE, fal));
	struct vg_object *o = create(t, N(t)), *c = NULL;
	CK_ATTRIBUTE s[4];

	(void)state;
	assert_int_equal(vg_object_set_attr(o, CKA_UNIQUE_ID, "7", 1), CKR_OK);
	o->handle = 5;
	o->db_id = 9;
	o->session = 2;
	/* NSS: C_CopyObject(h, NULL, 0). */
	assert_int_equal(vg_object_copy(o, NULL, 0, &c), CKR_OK);
	assert_int_equal(c->n, o->n - 1);
	assert_null(vg_object_attr(c, CKA_UNIQUE_ID));
	assert_int_equal(c->handle, 0);
	assert_int_equal(c->db_id, 0);
	assert_int_equal(c->session, 0);
	vg_object_free(c);

	/* The four special attributes, the modifiable ones, one-way ones;
	 * the source's CKA_MODIFIABLE does not matter. */
	s[0] = (CK_ATTRIBUTE)A(CKA_TOKEN, tru);
	s[1] = (CK_ATTRIBUTE)A(CKA_MODIFIABLE, tru);
	s[2] = (CK_ATTRIBUTE)A(CKA_DESTROYABLE, fal);
	s[3] = (CK_ATTRIBUTE)A(CKA_EXTRACTABLE, fal);
	assert_int_equal(vg_object_copy(o, s, 4, &c), CKR_OK);
	expect_bool(c, CKA_TOKEN, CK_TRUE);
	expect_bool(c, CKA_MODIFIABLE, CK_TRUE);
	expect_bool(c, CKA_DESTROYABLE, CK_FALSE);
	expect_bool(c, CKA_EXTRACTABLE, CK_FALSE);
	/* §5.7.2: CKA_NEVER_EXTRACTABLE keeps its value. */
	expect_bool(c, CKA_NEVER_EXTRACTABLE, CK_FALSE);
	expect_bool(o, CKA_EXTRACTABLE, CK_TRUE);
	/* The copy is not extractable: no copy of it may make it so. */
	s[0] = (CK_ATTRIBUTE)A(CKA_EXTRACTABLE, tru);
	{
		struct vg_object *c2 = NULL;

		assert_int_equal(vg_object_copy(c, s, 1, &c2),
		    CKR_ATTRIBUTE_READ_ONLY);
		assert_null(c2);
	}
	vg_object_free(c);
	s[0] = (CK_ATTRIBUTE)A(CKA_PRIVATE, fal);
	s[1] = (CK_ATTRIBUTE)A(CKA_SENSITIVE, tru);
	s[2] = (CK_ATTRIBUTE)AB(CKA_LABEL, "copy", 4);
	s[3] = (CK_ATTRIBUTE)A(CKA_COPYABLE, fal);
	assert_int_equal(vg_object_copy(o, s, 4, &c), CKR_OK);
	expect_bool(c, CKA_ALWAYS_SENSITIVE, CK_FALSE);
	/* CKA_COPYABLE false: no more copies. */
	{
		struct vg_object *c2 = NULL;

		assert_int_equal(vg_object_copy(c, NULL, 0, &c2),
		    CKR_ACTION_PROHIBITED);
		assert_null(c2);
	}
	vg_object_free(c);
	/* Not changeable in a copy. */
	s[0] = (CK_ATTRIBUTE)A(CKA_CLASS, c_sec);
	assert_int_equal(vg_object_copy(o, s, 1, &c), CKR_ATTRIBUTE_READ_ONLY);
	s[0] = (CK_ATTRIBUTE)A(CKA_VALUE, aes);
	assert_int_equal(vg_object_copy(o, s, 1, &c), CKR_ATTRIBUTE_READ_ONLY);
	s[0] = (CK_ATTRIBUTE)A(CKA_LOCAL, tru);
	assert_int_equal(vg_object_copy(o, s, 1, &c), CKR_ATTRIBUTE_READ_ONLY);
	s[0] = (CK_ATTRIBUTE)A(CKA_MODULUS, modulus);
	assert_int_equal(vg_object_copy(o, s, 1, &c),
	    CKR_ATTRIBUTE_TYPE_INVALID);
	assert_null(c);
	vg_object_free(o);

	/* A key that needs login each use stays private. */
	{
		CK_ATTRIBUTE k[] = RSA_PRIV(A(CKA_ALWAYS_AUTHENTICATE, tru));

		o = create(k, N(k));
		s[0] = (CK_ATTRIBUTE)A(CKA_PRIVATE, fal);
		assert_int_equal(vg_object_copy(o, s, 1, &c),
		    CKR_TEMPLATE_INCONSISTENT);
		s[0] = (CK_ATTRIBUTE)A(CKA_SENSITIVE, fal);
		assert_int_equal(vg_object_copy(o, s, 1, &c),
		    CKR_ATTRIBUTE_READ_ONLY);
		vg_object_free(o);
	}
}

/* ------------------------------------------------------------ get */

static void
test_get_mixed(void **state)
{
	CK_ATTRIBUTE t[] = RSA_PRIV(AB(CKA_LABEL, "priv", 4));
	struct vg_object *o = create(t, N(t));
	uint8_t label[16], pe[512], mod[1], vl[8], p1[8];
	CK_ATTRIBUTE g[6];

	(void)state;
	g[0] = (CK_ATTRIBUTE)AB(CKA_LABEL, label, sizeof(label));
	g[1] = (CK_ATTRIBUTE)AB(CKA_PRIVATE_EXPONENT, pe, sizeof(pe));
	g[2] = (CK_ATTRIBUTE)AB(CKA_VALUE_LEN, vl, sizeof(vl));
	g[3] = (CK_ATTRIBUTE)AB(CKA_MODULUS, mod, sizeof(mod));
	g[4] = (CK_ATTRIBUTE)AB(CKA_PUBLIC_EXPONENT, NULL, 0);
	g[5] = (CK_ATTRIBUTE)AB(CKA_PRIME_1, p1, sizeof(p1));
	assert_int_equal(vg_object_get_attrs(o, g, 6), CKR_ATTRIBUTE_SENSITIVE);
	assert_int_equal(g[0].ulValueLen, 4);
	assert_memory_equal(label, "priv", 4);
	assert_int_equal(g[1].ulValueLen, UNAV);
	assert_int_equal(g[2].ulValueLen, UNAV);
	assert_int_equal(g[3].ulValueLen, UNAV);
	assert_int_equal(g[4].ulValueLen, 3);
	assert_int_equal(g[5].ulValueLen, UNAV); /* hidden, even if absent */

	/* Without the sensitive ones: type invalid beats too small. */
	g[2].ulValueLen = sizeof(vl);
	g[3].ulValueLen = sizeof(mod);
	assert_int_equal(vg_object_get_attrs(o, g + 2, 2),
	    CKR_ATTRIBUTE_TYPE_INVALID);
	g[3].ulValueLen = sizeof(mod);
	assert_int_equal(vg_object_get_attrs(o, g + 3, 1),
	    CKR_BUFFER_TOO_SMALL);
	/* Size queries, then the values. */
	g[3] = (CK_ATTRIBUTE)AB(CKA_MODULUS, NULL, 0);
	g[4] = (CK_ATTRIBUTE)AB(CKA_KEY_TYPE, NULL, 0);
	assert_int_equal(vg_object_get_attrs(o, g + 3, 2), CKR_OK);
	assert_int_equal(g[3].ulValueLen, sizeof(modulus));
	assert_int_equal(g[4].ulValueLen, sizeof(CK_ULONG));
	assert_int_equal(vg_object_get_attrs(o, NULL, 0), CKR_OK);
	vg_object_free(o);

	/* Not sensitive and extractable: revealed; not extractable: not. */
	{
		CK_ATTRIBUTE k[] = RSA_PRIV(A(CKA_SENSITIVE, fal),
		    A(CKA_EXTRACTABLE, tru));

		o = create(k, N(k));
		g[0] = (CK_ATTRIBUTE)AB(CKA_PRIVATE_EXPONENT, pe, sizeof(pe));
		g[1] = (CK_ATTRIBUTE)AB(CKA_PRIME_1, p1, sizeof(p1));
		assert_int_equal(vg_object_get_attrs(o, g, 2),
		    CKR_ATTRIBUTE_TYPE_INVALID);
		assert_int_equal(g[0].ulValueLen, sizeof(privexp));
		assert_memory_equal(pe, privexp, sizeof(privexp));
		assert_false(vg_object_attr_hidden(o, CKA_PRIVATE_EXPONENT));
		vg_object_free(o);
		k[6].pValue = &fal;
		o = create(k, N(k));
		assert_true(vg_object_attr_hidden(o, CKA_PRIVATE_EXPONENT));
		assert_false(vg_object_attr_hidden(o, CKA_MODULUS));
		assert_int_equal(vg_object_get_attrs(o, g, 1),
		    CKR_ATTRIBUTE_SENSITIVE);
		vg_object_free(o);
	}
}

static void
test_get_arrays(void **state)
{
	CK_ULONG aeskt = CKK_AES;
	CK_MECHANISM_TYPE mechs[2] = { CKM_SHA_1, 0x1082 }, mout[2];
	CK_ATTRIBUTE inner[] = { A(CKA_KEY_TYPE, aeskt),
		A(CKA_EXTRACTABLE, tru), AB(CKA_LABEL, "wrapped", 7) };
	CK_ATTRIBUTE t[] = AES_KEY(AB(CKA_WRAP_TEMPLATE, inner, sizeof(inner)),
	    A(CKA_ALLOWED_MECHANISMS, mechs));
	struct vg_object *o = create(t, N(t));
	CK_ATTRIBUTE g[2], in[3];
	CK_ULONG kt = 0;
	CK_BBOOL ex = 0;
	char label[16];
	size_t i;

	(void)state;
	g[0] = (CK_ATTRIBUTE)AB(CKA_WRAP_TEMPLATE, NULL, 0);
	g[1] = (CK_ATTRIBUTE)AB(CKA_ALLOWED_MECHANISMS, NULL, 0);
	assert_int_equal(vg_object_get_attrs(o, g, 2), CKR_OK);
	assert_int_equal(g[0].ulValueLen, 3 * sizeof(CK_ATTRIBUTE));
	assert_int_equal(g[1].ulValueLen, sizeof(mechs));
	g[1].pValue = mout;
	assert_int_equal(vg_object_get_attrs(o, g + 1, 1), CKR_OK);
	assert_memory_equal(mout, mechs, sizeof(mechs));

	/* Discovery (§4.9.3): types unknown, no buffers. */
	for (i = 0; i < 3; i++)
		in[i] = (CK_ATTRIBUTE)AB(UNAV, NULL, 0);
	g[0] = (CK_ATTRIBUTE)AB(CKA_WRAP_TEMPLATE, in, sizeof(in));
	assert_int_equal(vg_object_get_attrs(o, g, 1), CKR_OK);
	assert_int_equal(g[0].ulValueLen, sizeof(in));
	/* Stored in type order. */
	assert_int_equal(in[0].type, CKA_LABEL);
	assert_int_equal(in[0].ulValueLen, 7);
	assert_int_equal(in[1].type, CKA_KEY_TYPE);
	assert_int_equal(in[1].ulValueLen, sizeof(CK_ULONG));
	assert_int_equal(in[2].type, CKA_EXTRACTABLE);
	assert_int_equal(in[2].ulValueLen, 1);
	assert_null(in[0].pValue);
	/* Then the values. */
	in[0].pValue = label;
	in[0].ulValueLen = sizeof(label);
	in[1].pValue = &kt;
	in[2].pValue = &ex;
	assert_int_equal(vg_object_get_attrs(o, g, 1), CKR_OK);
	assert_int_equal(in[0].ulValueLen, 7);
	assert_memory_equal(label, "wrapped", 7);
	assert_int_equal(kt, CKK_AES);
	assert_int_equal(ex, CK_TRUE);
	/* One inner buffer too small. */
	in[0].ulValueLen = 3;
	assert_int_equal(vg_object_get_attrs(o, g, 1), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(in[0].ulValueLen, UNAV);
	assert_int_equal(in[1].ulValueLen, sizeof(CK_ULONG));
	/* Fewer entries naming stored types (by type, any order). */
	in[0] = (CK_ATTRIBUTE)A(CKA_EXTRACTABLE, ex);
	ex = 0;
	g[0].ulValueLen = sizeof(CK_ATTRIBUTE);
	assert_int_equal(vg_object_get_attrs(o, g, 1), CKR_OK);
	assert_int_equal(ex, CK_TRUE);
	assert_int_equal(g[0].ulValueLen, sizeof(CK_ATTRIBUTE));
	/* Too few entries without named types. */
	in[0] = (CK_ATTRIBUTE)AB(UNAV, NULL, 0);
	g[0].ulValueLen = 2 * sizeof(CK_ATTRIBUTE);
	assert_int_equal(vg_object_get_attrs(o, g, 1), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(g[0].ulValueLen, UNAV);
	vg_object_free(o);
}

static void
test_match(void **state)
{
	CK_ULONG aeskt = CKK_AES;
	CK_ATTRIBUTE inner[] = { A(CKA_KEY_TYPE, aeskt),
		AB(CKA_LABEL, "w", 1) };
	CK_ATTRIBUTE inner2[] = { AB(CKA_LABEL, "w", 1),
		A(CKA_KEY_TYPE, aeskt) };
	CK_ATTRIBUTE t[] = AES_KEY(AB(CKA_LABEL, "find me", 7),
	    A(CKA_SENSITIVE, fal), A(CKA_EXTRACTABLE, tru),
	    AB(CKA_UNWRAP_TEMPLATE, inner, sizeof(inner)));
	struct vg_object *o = create(t, N(t));
	CK_ATTRIBUTE q[2];

	(void)state;
	assert_true(vg_object_match(o, NULL, 0));
	q[0] = (CK_ATTRIBUTE)A(CKA_CLASS, c_sec);
	q[1] = (CK_ATTRIBUTE)AB(CKA_LABEL, "find me", 7);
	assert_true(vg_object_match(o, q, 2));
	q[1].ulValueLen = 6;
	assert_false(vg_object_match(o, q, 2));
	q[1] = (CK_ATTRIBUTE)A(CKA_MODULUS, modulus);
	assert_false(vg_object_match(o, q, 2));
	q[0] = (CK_ATTRIBUTE)A(CKA_CLASS, c_priv);
	assert_false(vg_object_match(o, q, 1));
	/* Values are matched while they can be read... */
	q[0] = (CK_ATTRIBUTE)A(CKA_VALUE, aes);
	assert_true(vg_object_match(o, q, 1));
	/* ...attribute arrays as sets... */
	q[1] = (CK_ATTRIBUTE)AB(CKA_UNWRAP_TEMPLATE, inner2, sizeof(inner2));
	assert_true(vg_object_match(o, q, 2));
	q[1].ulValueLen = sizeof(CK_ATTRIBUTE);
	assert_false(vg_object_match(o, q, 2));
	/* ...and a hidden value never matches, so a search cannot test it. */
	q[1] = (CK_ATTRIBUTE)A(CKA_SENSITIVE, tru);
	assert_int_equal(vg_object_apply_set(o, q + 1, 1), CKR_OK);
	assert_false(vg_object_match(o, q, 1));
	vg_object_free(o);
}

/* ------------------------------------------------------------ X.509 */

static uint8_t *
make_cert(size_t *len, EVP_PKEY **keyp, const char *nb, const char *na)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *iss = X509_NAME_new();
	BIGNUM *bn = BN_new();
	uint8_t *der = NULL;
	int n;

	assert_non_null(key);
	assert_int_equal(X509_set_version(x, 2), 1);
	/* A 20-byte serial with the top bit set: DER adds a 00 byte. */
	assert_int_equal(BN_hex2bn(&bn,
			     "8123456789abcdef0123456789abcdef01234567"),
	    40);
	assert_non_null(BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)));
	assert_int_equal(ASN1_TIME_set_string(X509_getm_notBefore(x), nb), 1);
	assert_int_equal(ASN1_TIME_set_string(X509_getm_notAfter(x), na), 1);
	assert_int_equal(X509_NAME_add_entry_by_txt(X509_get_subject_name(x),
			     "CN", MBSTRING_ASC,
			     (const uint8_t *)"vgtoken test", -1, -1, 0),
	    1);
	assert_int_equal(X509_NAME_add_entry_by_txt(iss, "O", MBSTRING_ASC,
			     (const uint8_t *)"Test CA", -1, -1, 0),
	    1);
	assert_int_equal(X509_set_issuer_name(x, iss), 1);
	assert_int_equal(X509_set_pubkey(x, key), 1);
	assert_true(X509_sign(x, key, EVP_sha256()) > 0);
	n = i2d_X509(x, &der);
	assert_true(n > 0);
	*len = (size_t)n;
	X509_NAME_free(iss);
	BN_free(bn);
	X509_free(x);
	*keyp = key;
	return der;
}

/* The DER encoding an OpenSSL i2d function gives. */
#define I2D(fn, obj, out, outlen) do { \
		int n_ = fn(obj, &(out)); \
		assert_true(n_ > 0); \
		(outlen) = (size_t)n_; \
	} while (0)

static void
test_cert_fields(void **state)
{
	size_t len, slen, ilen, nlen, klen;
	EVP_PKEY *key;
	uint8_t *der = make_cert(&len, &key, "240102030405Z",
	    "20510607080910Z");
	const uint8_t *p = der;
	X509 *x = d2i_X509(NULL, &p, (long)len);
	uint8_t *subj = NULL, *iss = NULL, *ser = NULL, *spki = NULL,
	    sha[20];
	CK_ATTRIBUTE t[] = { A(CKA_CLASS, c_cert), A(CKA_CERTIFICATE_TYPE,
		x509), AB(CKA_VALUE, der, len), AB(CKA_ID, "\x01", 1),
		AB(CKA_LABEL, "cert", 4) };
	struct vg_object *o;

	(void)state;
	assert_non_null(x);
	I2D(i2d_X509_NAME, X509_get_subject_name(x), subj, slen);
	I2D(i2d_X509_NAME, X509_get_issuer_name(x), iss, ilen);
	I2D(i2d_ASN1_INTEGER, X509_get_serialNumber(x), ser, nlen);
	I2D(i2d_PUBKEY, key, spki, klen);
	SHA1(der, len, sha);
	assert_int_equal(ser[0], 0x02);
	assert_int_equal(ser[2], 0x00);

	o = create(t, N(t));
	expect_bytes(o, CKA_SUBJECT, subj, slen);
	expect_bytes(o, CKA_ISSUER, iss, ilen);
	expect_bytes(o, CKA_SERIAL_NUMBER, ser, nlen);
	expect_bytes(o, CKA_START_DATE, "20240102", 8);
	expect_bytes(o, CKA_END_DATE, "20510607", 8);
	expect_bytes(o, CKA_PUBLIC_KEY_INFO, spki, klen);
	expect_bytes(o, CKA_CHECK_VALUE, sha, 3);
	expect_bytes(o, CKA_ID, "\x01", 1);
	expect_bool(o, CKA_TRUSTED, CK_FALSE);
	expect_ulong(o, CKA_CERTIFICATE_CATEGORY, 0);
	expect_ulong(o, CKA_JAVA_MIDP_SECURITY_DOMAIN, 0);
	expect_ulong(o, CKA_NAME_HASH_ALGORITHM, CKM_SHA_1);
	expect_bytes(o, CKA_URL, NULL, 0);
	expect_bool(o, CKA_PRIVATE, CK_FALSE);
	assert_int_equal(o->key_type, UNAV);
	assert_false(vg_object_attr_hidden(o, CKA_VALUE));

	/* Set: CKA_ID, CKA_ISSUER, CKA_SERIAL_NUMBER only. */
	{
		CK_ATTRIBUTE s[] = { AB(CKA_ISSUER, "i", 1),
			AB(CKA_SERIAL_NUMBER, "s", 1), AB(CKA_ID, "2", 1) };

		assert_int_equal(vg_object_apply_set(o, s, N(s)), CKR_OK);
		s[0] = (CK_ATTRIBUTE)AB(CKA_SUBJECT, "x", 1);
		assert_int_equal(vg_object_apply_set(o, s, 1),
		    CKR_ATTRIBUTE_READ_ONLY);
		s[0] = (CK_ATTRIBUTE)A(CKA_CERTIFICATE_CATEGORY, x509);
		assert_int_equal(vg_object_apply_set(o, s, 1),
		    CKR_ATTRIBUTE_READ_ONLY);
		/* A trusted certificate is frozen (but for the SO). */
		s[0] = (CK_ATTRIBUTE)A(CKA_TRUSTED, tru);
		assert_int_equal(vg_object_apply_set(o, s, 1),
		    CKR_ATTRIBUTE_READ_ONLY);
		assert_int_equal(vg_object_apply_set_ex(o, VG_OBJ_F_SO, s, 1),
		    CKR_OK);
		s[0] = (CK_ATTRIBUTE)AB(CKA_ID, "3", 1);
		assert_int_equal(vg_object_apply_set(o, s, 1),
		    CKR_ACTION_PROHIBITED);
	}
	vg_object_free(o);

	/* What the caller gives is kept. */
	{
		CK_ATTRIBUTE c[] = { A(CKA_CLASS, c_cert),
			A(CKA_CERTIFICATE_TYPE, x509), AB(CKA_VALUE, der, len),
			AB(CKA_SUBJECT, "subj", 4),
			AB(CKA_START_DATE, "20000101", 8),
			AB(CKA_CHECK_VALUE, sha, 3) };

		o = create(c, N(c));
		expect_bytes(o, CKA_SUBJECT, "subj", 4);
		expect_bytes(o, CKA_START_DATE, "20000101", 8);
		expect_bytes(o, CKA_END_DATE, "20510607", 8);
		vg_object_free(o);
		sha[0] ^= 1;
		assert_int_equal(create_rv(c, N(c)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
	}
	/* Malformed, truncated, with trailing data. */
	{
		uint8_t *bad = malloc(len + 1);
		size_t cut;

		memcpy(bad, der, len);
		bad[len] = 0;
		t[2].pValue = bad;
		t[2].ulValueLen = len + 1;
		assert_int_equal(create_rv(t, N(t)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		for (cut = 0; cut < len; cut += 7) {
			t[2].ulValueLen = cut;
			assert_int_not_equal(create_rv(t, N(t)), CKR_OK);
		}
		memcpy(bad, "garbage!", 8);
		t[2].ulValueLen = len;
		assert_int_equal(create_rv(t, N(t)),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		free(bad);
	}
	/* No value: a URL with key hashes and a subject will do. */
	{
		CK_ATTRIBUTE u[] = { A(CKA_CLASS, c_cert),
			A(CKA_CERTIFICATE_TYPE, x509), AB(CKA_VALUE, NULL, 0),
			AB(CKA_SUBJECT, subj, slen),
			AB(CKA_URL, "http://x/c", 10),
			AB(CKA_HASH_OF_SUBJECT_PUBLIC_KEY, sha, 20),
			AB(CKA_HASH_OF_ISSUER_PUBLIC_KEY, sha, 20) };

		assert_int_equal(create_rv(u, N(u)), CKR_OK);
		assert_int_equal(create_rv(u, 6), CKR_TEMPLATE_INCONSISTENT);
		assert_int_equal(create_rv(u, 4), CKR_TEMPLATE_INCOMPLETE);
		u[3] = u[4];
		assert_int_equal(create_rv(u, N(u)), CKR_TEMPLATE_INCOMPLETE);
		assert_int_equal(create_rv(u, 2), CKR_TEMPLATE_INCOMPLETE);
	}
	OPENSSL_free(subj);
	OPENSSL_free(iss);
	OPENSSL_free(ser);
	OPENSSL_free(spki);
	OPENSSL_free(der);
	X509_free(x);
	EVP_PKEY_free(key);
}

/*
 * A derive or unwrap template added to the caller's (vg_template_under):
 * what the caller leaves out comes from it, a repeat with the same value
 * is taken once, another value is a conflict.
 */
static void
test_template_under(void **state)
{
	CK_ULONG len16 = 16;
	CK_ATTRIBUTE t[] = { A(CKA_KEY_TYPE, k_aes), A(CKA_VALUE_LEN, len16),
		A(CKA_SENSITIVE, fal) };
	struct vg_object *nested = vg_object_new(), *o = NULL;
	CK_ATTRIBUTE *u = NULL;
	CK_ULONG n = 0;

	(void)state;
	assert_non_null(nested);
	/* nothing nested: the caller's entries as they are */
	assert_int_equal(vg_template_under(nested, t, N(t), &u, &n), CKR_OK);
	assert_int_equal(n, N(t));
	assert_memory_equal(u, t, sizeof(t));
	free(u);
	assert_int_equal(vg_template_under(nested, NULL, 0, &u, &n), CKR_OK);
	assert_null(u);
	assert_int_equal(n, 0);

	assert_int_equal(vg_object_set_attr(nested, CKA_SENSITIVE, &tru, 1),
	    CKR_OK);
	assert_int_equal(vg_object_set_attr(nested, CKA_EXTRACTABLE, &fal, 1),
	    CKR_OK);
	assert_int_equal(vg_template_under(nested, t, 2, &u, &n), CKR_OK);
	assert_int_equal(n, 4);
	assert_int_equal(build(VG_OBJ_DERIVE, CKO_SECRET_KEY, UNAV, u, n, &o),
	    CKR_OK);
	expect_bool(o, CKA_SENSITIVE, CK_TRUE);
	expect_bool(o, CKA_EXTRACTABLE, CK_FALSE);
	expect_bool(o, CKA_ALWAYS_SENSITIVE, CK_TRUE);
	expect_bool(o, CKA_NEVER_EXTRACTABLE, CK_TRUE);
	vg_object_free(o);
	free(u);

	/* conflicting, for C_DeriveKey and C_UnwrapKey alike */
	assert_int_equal(vg_template_under(nested, t, 3, &u, &n), CKR_OK);
	assert_int_equal(build(VG_OBJ_DERIVE, CKO_SECRET_KEY, UNAV, u, n, &o),
	    CKR_TEMPLATE_INCONSISTENT);
	free(u);
	t[1] = (CK_ATTRIBUTE)A(CKA_SENSITIVE, fal);
	assert_int_equal(vg_template_under(nested, t, 2, &u, &n), CKR_OK);
	assert_int_equal(build(VG_OBJ_UNWRAP, CKO_SECRET_KEY, UNAV, u, n, &o),
	    CKR_TEMPLATE_INCONSISTENT);
	free(u);

	/* agreeing */
	t[1] = (CK_ATTRIBUTE)A(CKA_VALUE_LEN, len16);
	t[2].pValue = &tru;
	assert_int_equal(vg_template_under(nested, t, 3, &u, &n), CKR_OK);
	assert_int_equal(build(VG_OBJ_DERIVE, CKO_SECRET_KEY, UNAV, u, n, &o),
	    CKR_OK);
	expect_bool(o, CKA_SENSITIVE, CK_TRUE);
	vg_object_free(o);
	free(u);
	vg_object_free(nested);
}

/* A copy of a trusted object: only the SO's (footnote 10). */
static void
test_copy_trusted(void **state)
{
	CK_ATTRIBUTE p[] = RSA_PUB(A(CKA_TRUSTED, tru));
	CK_ATTRIBUTE label[] = { AB(CKA_LABEL, "copy", 4) };
	struct vg_object *o = NULL, *c = NULL;

	(void)state;
	assert_int_equal(vg_object_from_template_ex(VG_OBJ_CREATE, UNAV, UNAV,
			     0, VG_OBJ_F_SO, p, N(p), &o),
	    CKR_OK);
	assert_int_equal(vg_object_copy(o, NULL, 0, &c),
	    CKR_ACTION_PROHIBITED);
	assert_null(c);
	assert_int_equal(vg_object_copy_ex(o, 0, label, 1, &c),
	    CKR_ACTION_PROHIBITED);
	assert_null(c);
	assert_int_equal(vg_object_copy_ex(o, VG_OBJ_F_SO, label, 1, &c),
	    CKR_OK);
	expect_bool(c, CKA_TRUSTED, CK_TRUE);
	expect_bytes(c, CKA_LABEL, "copy", 4);
	vg_object_free(c);
	vg_object_free(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sane),
		cmocka_unit_test(test_secret_at_rest),
		cmocka_unit_test(test_create_data),
		cmocka_unit_test(test_create_rsa),
		cmocka_unit_test(test_create_ec_mldsa),
		cmocka_unit_test(test_create_secret),
		cmocka_unit_test(test_create_bad_templates),
		cmocka_unit_test(test_create_trusted_and_always_auth),
		cmocka_unit_test(test_create_nested_templates),
		cmocka_unit_test(test_generate),
		cmocka_unit_test(test_derive_unwrap),
		cmocka_unit_test(test_template_under),
		cmocka_unit_test(test_set_rules),
		cmocka_unit_test(test_copy_rules),
		cmocka_unit_test(test_copy_trusted),
		cmocka_unit_test(test_get_mixed),
		cmocka_unit_test(test_get_arrays),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_cert_fields),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
