/*
 * kemtmpl: ML-KEM keys with CKA_ENCAPSULATE_TEMPLATE and
 * CKA_DECAPSULATE_TEMPLATE for tests/e2e/util_backup_kem.sh, through the
 * PKCS#11 3.2 function list (no client of Debian 12 calls
 * C_EncapsulateKey).
 *
 *   kemtmpl make TOKEN PIN
 *       two ML-KEM-768 token key pairs on TOKEN, both extractable:
 *       "kem" (ID 20) whose public key's encapsulate template asks an
 *       AES key labelled "encapsulated" and whose private key's
 *       decapsulate template asks an AES key labelled "decapsulated";
 *       "kem-off" (ID 21) with CKA_ENCAPSULATE and CKA_DECAPSULATE
 *       false; "kem-odd" (ID 22) whose templates hold a CKA_VALUE,
 *       which a backup does not keep there.
 *   kemtmpl check TOKEN PIN
 *       the keys of TOKEN obey that: the templates hold two entries
 *       each; a caller's template that conflicts with the key's
 *       (another key type, another label) is refused with
 *       CKR_TEMPLATE_INCONSISTENT and makes nothing; a new key gets the
 *       template's type and label; what the public key encapsulates the
 *       private key decapsulates to the same secret; "kem-off" neither
 *       encapsulates nor decapsulates (CKR_KEY_FUNCTION_NOT_PERMITTED).
 *
 * Prints "ok - ..." for each check. Exit status 0, or 1 with a message
 * on stderr.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cryptoki/pkcs11.h"
#include "tests/e2e/p11open.h"

static CK_FUNCTION_LIST_3_2 *f;
static CK_SESSION_HANDLE h;

static const CK_OBJECT_CLASS c_sec = CKO_SECRET_KEY;
static const CK_KEY_TYPE k_aes = CKK_AES, k_gen = CKK_GENERIC_SECRET;
static const CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static const CK_ULONG len32 = 32;

#define CA(t, v, n) { (t), (void *)(uintptr_t)(v), (n) }

static int
die(const char *what)
{
	fprintf(stderr, "kemtmpl: %s\n", what);
	return 1;
}

static int
fail_rv(const char *what, CK_RV rv)
{
	fprintf(stderr, "kemtmpl: %s: 0x%lx\n", what, (unsigned long)rv);
	return 1;
}

static int
ok(const char *what)
{
	printf("ok - %s\n", what);
	return 0;
}

/* One token pair labelled label with ID id; on makes the templates
 * (with a CKA_VALUE entry when odd), off the usage flags false. */
static int
make_pair(const char *label, CK_BYTE id, int on, int odd)
{
	static const CK_ULONG set = CKP_ML_KEM_768;
	static const uint8_t zeros[32];
	CK_ATTRIBUTE et[] = { CA(CKA_KEY_TYPE, &k_aes, sizeof(k_aes)),
		odd ? (CK_ATTRIBUTE)CA(CKA_VALUE, zeros, sizeof(zeros))
		    : (CK_ATTRIBUTE)CA(CKA_LABEL, "encapsulated", 12) };
	CK_ATTRIBUTE dt[] = { CA(CKA_KEY_TYPE, &k_aes, sizeof(k_aes)),
		odd ? (CK_ATTRIBUTE)CA(CKA_VALUE, zeros, sizeof(zeros))
		    : (CK_ATTRIBUTE)CA(CKA_LABEL, "decapsulated", 12) };
	CK_ATTRIBUTE pt[] = {
		CA(CKA_PARAMETER_SET, &set, sizeof(set)),
		CA(CKA_TOKEN, &yes, 1),
		CA(CKA_LABEL, label, strlen(label)),
		CA(CKA_ID, &id, 1),
		on ? (CK_ATTRIBUTE)CA(CKA_ENCAPSULATE_TEMPLATE, et, sizeof(et))
		   : (CK_ATTRIBUTE)CA(CKA_ENCAPSULATE, &no, 1),
	};
	CK_ATTRIBUTE kt[] = {
		CA(CKA_TOKEN, &yes, 1),
		CA(CKA_PRIVATE, &yes, 1),
		CA(CKA_SENSITIVE, &yes, 1),
		CA(CKA_EXTRACTABLE, &yes, 1),
		CA(CKA_LABEL, label, strlen(label)),
		CA(CKA_ID, &id, 1),
		on ? (CK_ATTRIBUTE)CA(CKA_DECAPSULATE_TEMPLATE, dt, sizeof(dt))
		   : (CK_ATTRIBUTE)CA(CKA_DECAPSULATE, &no, 1),
	};
	CK_MECHANISM m = { CKM_ML_KEM_KEY_PAIR_GEN, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	CK_RV rv;

	rv = f->C_GenerateKeyPair(h, &m, pt, 5, kt, 7, &pub, &priv);
	return rv == CKR_OK ? 0 : fail_rv("C_GenerateKeyPair", rv);
}

/* How many objects the session sees (token and session objects). */
static CK_ULONG
nobjects(void)
{
	CK_OBJECT_HANDLE o[64];
	CK_ULONG n = 0, all = 0;

	if (f->C_FindObjectsInit(h, NULL, 0) != CKR_OK)
		return ~(CK_ULONG)0;
	do {
		if (f->C_FindObjects(h, o, 64, &n) != CKR_OK)
			n = 0;
		all += n;
	} while (n == 64);
	f->C_FindObjectsFinal(h);
	return all;
}

/* The new key k has type AES and the label want. */
static int
is_from_template(CK_OBJECT_HANDLE k, const char *want)
{
	CK_KEY_TYPE kt = 0;
	char label[32];
	CK_ATTRIBUTE a[] = { CA(CKA_KEY_TYPE, &kt, sizeof(kt)),
		CA(CKA_LABEL, label, sizeof(label)) };

	return f->C_GetAttributeValue(h, k, a, 2) == CKR_OK &&
	    kt == CKK_AES && a[1].ulValueLen == strlen(want) &&
	    memcmp(label, want, strlen(want)) == 0;
}

static CK_ULONG
tmpl_entries(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type)
{
	CK_ATTRIBUTE a = { type, NULL, 0 };

	if (f->C_GetAttributeValue(h, o, &a, 1) != CKR_OK)
		return 0;
	return a.ulValueLen / sizeof(CK_ATTRIBUTE);
}

static int
check(void)
{
	static uint8_t ct[2048];
	CK_ATTRIBUTE t[] = { CA(CKA_CLASS, &c_sec, sizeof(c_sec)),
		CA(CKA_TOKEN, &no, 1), CA(CKA_SENSITIVE, &no, 1),
		CA(CKA_EXTRACTABLE, &yes, 1),
		CA(CKA_VALUE_LEN, &len32, sizeof(len32)),
		CA(CKA_KEY_TYPE, &k_gen, sizeof(k_gen)) };
	CK_ATTRIBUTE lt[] = { CA(CKA_CLASS, &c_sec, sizeof(c_sec)),
		CA(CKA_TOKEN, &no, 1), CA(CKA_SENSITIVE, &no, 1),
		CA(CKA_VALUE_LEN, &len32, sizeof(len32)),
		CA(CKA_LABEL, "mine", 4) };
	CK_MECHANISM m = { CKM_ML_KEM, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv, opub, opriv, k1, k2;
	CK_ULONG ctlen = sizeof(ct), len2, before;
	uint8_t v1[32], v2[32];
	CK_ATTRIBUTE a1 = CA(CKA_VALUE, v1, sizeof(v1));
	CK_ATTRIBUTE a2 = CA(CKA_VALUE, v2, sizeof(v2));
	CK_RV rv;

	pub = e2e_find(f, h, CKO_PUBLIC_KEY, "kem");
	priv = e2e_find(f, h, CKO_PRIVATE_KEY, "kem");
	opub = e2e_find(f, h, CKO_PUBLIC_KEY, "kem-off");
	opriv = e2e_find(f, h, CKO_PRIVATE_KEY, "kem-off");
	if (pub == CK_INVALID_HANDLE || priv == CK_INVALID_HANDLE ||
	    opub == CK_INVALID_HANDLE || opriv == CK_INVALID_HANDLE)
		return die("not one public and one private key per label");
	if (tmpl_entries(pub, CKA_ENCAPSULATE_TEMPLATE) != 2 ||
	    tmpl_entries(priv, CKA_DECAPSULATE_TEMPLATE) != 2)
		return die("the templates do not hold two entries each");
	ok("the keys hold their two-entry templates");

	before = nobjects();
	rv = f->C_EncapsulateKey(h, &m, pub, t, 6, ct, &ctlen, &k1);
	if (rv != CKR_TEMPLATE_INCONSISTENT || nobjects() != before)
		return fail_rv("a generic secret encapsulated", rv);
	ok("encapsulating to a generic secret is refused, nothing made");
	rv = f->C_EncapsulateKey(h, &m, pub, lt, 5, ct, &ctlen, &k1);
	if (rv != CKR_TEMPLATE_INCONSISTENT || nobjects() != before)
		return fail_rv("a key of another label encapsulated", rv);
	ok("encapsulating to another label is refused, nothing made");
	rv = f->C_EncapsulateKey(h, &m, pub, t, 5, ct, &ctlen, &k1);
	if (rv != CKR_OK)
		return fail_rv("C_EncapsulateKey", rv);
	if (!is_from_template(k1, "encapsulated"))
		return die("the encapsulated key is not the template's");
	ok("an encapsulated key is an AES key labelled \"encapsulated\"");

	before = nobjects();
	rv = f->C_DecapsulateKey(h, &m, priv, lt, 5, ct, ctlen, &k2);
	if (rv != CKR_TEMPLATE_INCONSISTENT || nobjects() != before)
		return fail_rv("a key of another label decapsulated", rv);
	ok("decapsulating to another label is refused, nothing made");
	rv = f->C_DecapsulateKey(h, &m, priv, t, 6, ct, ctlen, &k2);
	if (rv != CKR_TEMPLATE_INCONSISTENT || nobjects() != before)
		return fail_rv("a generic secret decapsulated", rv);
	ok("decapsulating to a generic secret is refused, nothing made");
	rv = f->C_DecapsulateKey(h, &m, priv, t, 5, ct, ctlen, &k2);
	if (rv != CKR_OK)
		return fail_rv("C_DecapsulateKey", rv);
	if (!is_from_template(k2, "decapsulated"))
		return die("the decapsulated key is not the template's");
	ok("a decapsulated key is an AES key labelled \"decapsulated\"");
	rv = f->C_GetAttributeValue(h, k1, &a1, 1);
	if (rv == CKR_OK)
		rv = f->C_GetAttributeValue(h, k2, &a2, 1);
	if (rv != CKR_OK || a1.ulValueLen != 32 || a2.ulValueLen != 32 ||
	    memcmp(v1, v2, 32) != 0)
		return die("the two sides do not share the secret");
	ok("the private key decapsulates the public key's secret");

	len2 = sizeof(ct);
	rv = f->C_EncapsulateKey(h, &m, opub, t, 5, ct, &len2, &k1);
	if (rv != CKR_KEY_FUNCTION_NOT_PERMITTED)
		return fail_rv("kem-off encapsulated", rv);
	rv = f->C_DecapsulateKey(h, &m, opriv, t, 5, ct, ctlen, &k2);
	if (rv != CKR_KEY_FUNCTION_NOT_PERMITTED)
		return fail_rv("kem-off decapsulated", rv);
	ok("kem-off neither encapsulates nor decapsulates");
	return 0;
}

int
main(int argc, char **argv)
{
	int rc;

	if (argc != 4 || (strcmp(argv[1], "make") != 0 &&
	    strcmp(argv[1], "check") != 0))
		return die("usage: kemtmpl make|check TOKEN PIN");
	if (e2e_open_user("kemtmpl", argv[2], argv[3], &f, &h) != 0)
		return 1;
	if (strcmp(argv[1], "make") == 0)
		rc = make_pair("kem", 0x20, 1, 0) ||
		    make_pair("kem-off", 0x21, 0, 0) ||
		    make_pair("kem-odd", 0x22, 1, 1);
	else
		rc = check();
	e2e_close(f, h);
	return rc;
}
