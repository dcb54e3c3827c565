/*
 * Wycheproof's P-256 vectors through the function list, as
 * tests/kat/test_p256_wycheproof.c runs them through crypto/: every test
 * of ecdh_secp256r1_ecpoint_test.json (raw SEC1 peer points),
 * ecdh_secp256r1_test.json (peer keys as DER SubjectPublicKeyInfo),
 * ecdsa_secp256r1_sha256_p1363_test.json (r || s) and
 * ecdsa_secp256r1_sha256_test.json (DER signatures). Keys are session
 * objects made by C_CreateObject.
 *
 *   ECDH   the private key becomes an object, the peer point goes to
 *          C_DeriveKey(CKM_ECDH1_DERIVE, CKD_NULL) as it is, and the
 *          derived key's CKA_VALUE must equal "shared". A refused point
 *          must give CKR_MECHANISM_PARAM_INVALID, nothing else. PKCS#11
 *          takes points, not SubjectPublicKeyInfo: for the second file
 *          the point goes to the token only if the SPKI is DER (OpenSSL
 *          re-encodes it to the same bytes) and names id-ecPublicKey and
 *          prime256v1, as crypto/ requires; the point's bytes are passed
 *          untouched, so the token judges every point.
 *   ECDSA  the public key becomes an object (one per group); r || s goes
 *          to C_Verify with CKM_ECDSA_SHA256 over the message; a DER
 *          signature is turned into r || s first when it is DER (the same
 *          re-encoding check) with 0 <= r, s < 2^256, and then verified
 *          with CKM_ECDSA over SHA-256(msg) computed by OpenSSL. A
 *          refusal must be CKR_SIGNATURE_INVALID (or, for a P1363
 *          signature of another length, CKR_SIGNATURE_LEN_RANGE).
 * "valid" must succeed, "invalid" must fail at some step, "acceptable" may
 * go either way and is counted apart. Without the vectors the test prints
 * "FAIL: <reason>" and fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/kat/wycheproof.h"
#include "tests/p11/common.h"

static char dir[64];
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS c_priv = CKO_PRIVATE_KEY, c_pub = CKO_PUBLIC_KEY,
    c_sec = CKO_SECRET_KEY;
static CK_KEY_TYPE k_ec = CKK_EC, k_gen = CKK_GENERIC_SECRET;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

static int
setup(void **state)
{
	CK_SLOT_ID slot;

	(void)state;
	return p11_fresh_user_session(dir, "wycheproof-ec", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static void
check_outcome(const char *file, json_object *t, int want, int ok,
    struct wp_counts *c)
{
	int id = json_object_get_int(json_object_object_get(t, "tcId"));

	if (want < 0 && ok)
		c->acc_ok++;
	if (want >= 0 && want != ok)
		fail_msg("%s tcId %d (%s): expected %s, got %s", file, id,
		    wp_str(t, "comment"), want ? "valid" : "invalid",
		    ok ? "valid" : "invalid");
}

/* A refusal with another code than the one the spec names is a failure
 * of its own, whatever the test expected. */
static void
check_refusal(const char *file, json_object *t, CK_RV rv, CK_RV want1,
    CK_RV want2)
{
	if (rv != CKR_OK && rv != want1 && rv != want2)
		fail_msg("%s tcId %d: refused with %s", file,
		    json_object_get_int(json_object_object_get(t, "tcId")),
		    p11_rv_name(rv));
}

static void
report(const char *file, const struct wp_counts *c, json_object *root)
{
	printf("# %s: %u valid, %u invalid, %u acceptable (%u accepted)\n",
	    file, c->valid, c->invalid, c->acceptable, c->acc_ok);
	assert_int_equal(c->valid + c->invalid + c->acceptable,
	    (unsigned)json_object_get_int(json_object_object_get(root,
	    "numberOfTests")));
}

/* 1 if d (n bytes) is DER: OpenSSL's encoding of what it parsed from
 * it, enc (elen bytes, or elen <= 0), is the same bytes. Frees enc. */
static int
same_der(const uint8_t *d, size_t n, uint8_t *enc, int elen)
{
	int ok = elen > 0 && (size_t)elen == n && memcmp(enc, d, n) == 0;

	OPENSSL_free(enc);
	return ok;
}

/* ---------------------------------------------------------------- ECDH */

/* The point of a DER SubjectPublicKeyInfo naming id-ecPublicKey and
 * prime256v1, as encoded there (not decoded: OpenSSL leaves an invalid
 * point for the token to refuse). *pt points into the SPKI's copy in
 * *xp (X509_PUBKEY_free it); 0 if the SPKI does not qualify. */
static int
spki_point(const uint8_t *in, size_t len, X509_PUBKEY **xp,
    const uint8_t **pt, int *ptlen)
{
	const unsigned char *q = in;
	const ASN1_OBJECT *poid;
	ASN1_OBJECT *oid;
	const void *pval;
	X509_ALGOR *alg;
	uint8_t *enc = NULL;
	int ptype, elen;

	*xp = d2i_X509_PUBKEY(NULL, &q, (long)len);
	if (*xp == NULL || q != in + len)
		return 0;
	elen = i2d_X509_PUBKEY(*xp, &enc);
	if (!same_der(in, len, enc, elen) ||
	    X509_PUBKEY_get0_param(&oid, pt, ptlen, &alg, *xp) != 1 ||
	    OBJ_obj2nid(oid) != NID_X9_62_id_ecPublicKey)
		return 0;
	X509_ALGOR_get0(&poid, &ptype, &pval, alg);
	return ptype == V_ASN1_OBJECT &&
	    OBJ_obj2nid(pval) == NID_X9_62_prime256v1;
}

/* One ECDH test: 1 if the token derived "shared". */
static int
ecdh_one(const char *file, int spki, json_object *t)
{
	size_t plen, dlen, zlen;
	uint8_t *pub = wp_unhex(wp_str(t, "public"), &plen);
	uint8_t *d = wp_unhex(wp_str(t, "private"), &dlen);
	uint8_t *want = wp_unhex(wp_str(t, "shared"), &zlen);
	uint8_t got[64];
	CK_ULONG vlen = 32;
	CK_ATTRIBUTE kt[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, &k_ec, sizeof(k_ec) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_VALUE, d, dlen },
		{ CKA_DERIVE, &yes, 1 },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_KEY_TYPE, &k_gen, sizeof(k_gen) },
		{ CKA_VALUE_LEN, &vlen, sizeof(vlen) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 0, NULL };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	CK_OBJECT_HANDLE key = CK_INVALID_HANDLE, z = CK_INVALID_HANDLE;
	X509_PUBKEY *xp = NULL;
	const uint8_t *pt = pub;
	int ptlen = (int)plen, ok = 0;
	CK_RV rv;

	/* d as Wycheproof writes it, a signed integer: 33 bytes, 00 first,
	 * when the top bit is set; the token takes the zero in front */
	if (spki && !spki_point(pub, plen, &xp, &pt, &ptlen))
		goto out;
	/* Wycheproof's private keys are all in range */
	assert_rv(p11->C_CreateObject(h, kt, 5, &key), CKR_OK);
	p.pPublicData = (CK_BYTE_PTR)pt;
	p.ulPublicDataLen = (CK_ULONG)ptlen;
	rv = p11->C_DeriveKey(h, &m, key, st, 5, &z);
	check_refusal(file, t, rv, CKR_MECHANISM_PARAM_INVALID,
	    CKR_MECHANISM_PARAM_INVALID);
	if (rv == CKR_OK) {
		assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
		ok = zlen == 32 && get.ulValueLen == 32 &&
		    memcmp(got, want, 32) == 0;
		assert_rv(p11->C_DestroyObject(h, z), CKR_OK);
	}
	assert_rv(p11->C_DestroyObject(h, key), CKR_OK);
out:
	X509_PUBKEY_free(xp);
	free(pub);
	free(d);
	free(want);
	return ok;
}

static void
run_ecdh(const char *file, int spki)
{
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;

	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);

		assert_string_equal(wp_str(grp, "curve"), "secp256r1");
		tests = json_object_object_get(grp, "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);

			check_outcome(file, t, want, ecdh_one(file, spki, t),
			    &c);
		}
	}
	report(file, &c, root);
	json_object_put(root);
}

static void
test_ecdh_ecpoint(void **state)
{
	(void)state;
	run_ecdh("ecdh_secp256r1_ecpoint_test.json", 0);
}

static void
test_ecdh_spki(void **state)
{
	(void)state;
	run_ecdh("ecdh_secp256r1_test.json", 1);
}

/* --------------------------------------------------------------- ECDSA */

/* r || s from a DER ECDSA-Sig-Value with 0 <= r, s < 2^256; 0 if the
 * signature is not that. */
static int
der_to_rs(const uint8_t *in, size_t len, uint8_t rs[64])
{
	const unsigned char *q = in;
	ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &q, (long)len);
	const BIGNUM *r, *s;
	uint8_t *enc = NULL;
	int ok = 0, elen;

	if (es == NULL || q != in + len) {
		ECDSA_SIG_free(es);
		return 0;
	}
	elen = i2d_ECDSA_SIG(es, &enc);
	if (same_der(in, len, enc, elen)) {
		ECDSA_SIG_get0(es, &r, &s);
		ok = !BN_is_negative(r) && !BN_is_negative(s) &&
		    BN_bn2binpad(r, rs, 32) == 32 &&
		    BN_bn2binpad(s, rs + 32, 32) == 32;
	}
	ECDSA_SIG_free(es);
	return ok;
}

/* One ECDSA test: 1 if the token accepted the signature. */
static int
ecdsa_one(const char *file, CK_OBJECT_HANDLE key, int der, json_object *t)
{
	size_t mlen, slen;
	uint8_t *msg = wp_unhex(wp_str(t, "msg"), &mlen);
	uint8_t *sig = wp_unhex(wp_str(t, "sig"), &slen);
	uint8_t rs[64], hash[32];
	unsigned hl = 0;
	CK_MECHANISM m = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_RV rv = CKR_SIGNATURE_INVALID;

	if (der) {
		if (der_to_rs(sig, slen, rs)) {
			m.mechanism = CKM_ECDSA;
			assert_int_equal(EVP_Digest(msg, mlen, hash, &hl,
			    EVP_sha256(), NULL), 1);
			assert_rv(p11->C_VerifyInit(h, &m, key), CKR_OK);
			rv = p11->C_Verify(h, hash, hl, rs, 64);
			check_refusal(file, t, rv, CKR_SIGNATURE_INVALID,
			    CKR_SIGNATURE_INVALID);
		}
	} else {
		assert_rv(p11->C_VerifyInit(h, &m, key), CKR_OK);
		rv = p11->C_Verify(h, msg, mlen, sig, slen);
		check_refusal(file, t, rv, CKR_SIGNATURE_INVALID,
		    slen != 64 ? CKR_SIGNATURE_LEN_RANGE :
		    CKR_SIGNATURE_INVALID);
	}
	free(msg);
	free(sig);
	return rv == CKR_OK;
}

static void
run_ecdsa(const char *file, int der)
{
	json_object *root = wp_load(file), *groups, *tests, *pk;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i, plen;

	groups = json_object_object_get(root, "testGroups");
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		uint8_t *q, point[67];
		CK_ATTRIBUTE kt[] = {
			{ CKA_CLASS, &c_pub, sizeof(c_pub) },
			{ CKA_KEY_TYPE, &k_ec, sizeof(k_ec) },
			{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
			{ CKA_EC_POINT, point, sizeof(point) },
			{ CKA_VERIFY, &yes, 1 },
		};
		CK_OBJECT_HANDLE key;

		assert_string_equal(wp_str(grp, "sha"), "SHA-256");
		pk = json_object_object_get(grp, "publicKey");
		assert_string_equal(wp_str(pk, "curve"), "secp256r1");
		q = wp_unhex(wp_str(pk, "uncompressed"), &plen);
		assert_int_equal(plen, 65);
		point[0] = 0x04; /* DER OCTET STRING */
		point[1] = 65;
		memcpy(point + 2, q, 65);
		free(q);
		assert_rv(p11->C_CreateObject(h, kt, 5, &key), CKR_OK);
		tests = json_object_object_get(grp, "tests");
		for (i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i);
			int want = wp_expected(t, &c);

			check_outcome(file, t, want, ecdsa_one(file, key, der,
			    t), &c);
		}
		assert_rv(p11->C_DestroyObject(h, key), CKR_OK);
	}
	report(file, &c, root);
	json_object_put(root);
}

static void
test_ecdsa_p1363(void **state)
{
	(void)state;
	run_ecdsa("ecdsa_secp256r1_sha256_p1363_test.json", 0);
}

static void
test_ecdsa_der(void **state)
{
	(void)state;
	run_ecdsa("ecdsa_secp256r1_sha256_test.json", 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ecdh_ecpoint, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ecdh_spki, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ecdsa_p1363, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ecdsa_der, setup,
		    teardown),
	};
	static const char *const files[] = {
		"ecdh_secp256r1_ecpoint_test.json",
		"ecdh_secp256r1_test.json",
		"ecdsa_secp256r1_sha256_p1363_test.json",
		"ecdsa_secp256r1_sha256_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
