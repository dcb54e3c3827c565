/*
 * Wycheproof's RSA vectors through the function list of the dlopen'ed
 * module, as tests/kat/test_rsa_wycheproof.c runs them through crypto/:
 * each group's key becomes a session object by C_CreateObject, and each
 * test goes through C_Verify, C_Decrypt or C_Sign.
 *
 * PKCS#1 v1.5 and PSS verification (rsa_signature_*, rsa_pss_*), PKCS#1
 * v1.5 and OAEP decryption (rsa_pkcs1_<bits>_test, rsa_oaep_*), PKCS#1
 * v1.5 signature generation (rsa_pkcs1_<bits>_sig_gen). "valid" must
 * succeed and give the expected output; "invalid" must be refused by the
 * operation itself with an error it may give for bad input (and leave no
 * output); "acceptable" may go either way, by the same rules, and is
 * counted apart. Groups with a hash the module has no RSA mechanism for
 * are counted as skipped; no other group is skipped.
 *
 * The vectors come from $VG_VECTORS_DIR/wycheproof (make check sets
 * VG_VECTORS_DIR to tests/vectors); without them the test prints
 * "FAIL: <reason>" and fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "tests/kat/wycheproof.h"
#include "tests/p11/common.h"

#define NAME_LEN 128
#define MAX_FILES 64
#define NTALLY 8

static char g_vdir[4096];               /* $VG_VECTORS_DIR/wycheproof */
static char g_dir[64];                  /* the token's database */
static CK_SESSION_HANDLE g_h;           /* logged in as the user */
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

/* A hash by Wycheproof's name, with the module's mechanisms for it. */
struct hash {
	const char *name;
	CK_MECHANISM_TYPE digest, pkcs1, pss;
	CK_RSA_PKCS_MGF_TYPE mgf;
};

static const struct hash hashes[] = {
	{ "SHA-1", CKM_SHA_1, CKM_SHA1_RSA_PKCS, CKM_SHA1_RSA_PKCS_PSS,
	    CKG_MGF1_SHA1 },
	{ "SHA-224", CKM_SHA224, CKM_SHA224_RSA_PKCS,
	    CKM_SHA224_RSA_PKCS_PSS, CKG_MGF1_SHA224 },
	{ "SHA-256", CKM_SHA256, CKM_SHA256_RSA_PKCS,
	    CKM_SHA256_RSA_PKCS_PSS, CKG_MGF1_SHA256 },
	{ "SHA-384", CKM_SHA384, CKM_SHA384_RSA_PKCS,
	    CKM_SHA384_RSA_PKCS_PSS, CKG_MGF1_SHA384 },
	{ "SHA-512", CKM_SHA512, CKM_SHA512_RSA_PKCS,
	    CKM_SHA512_RSA_PKCS_PSS, CKG_MGF1_SHA512 },
};

/* One file's tally: the tests by expected result (wp.acc_ok: acceptable
 * ones the token accepted), those skipped and those failed, and how the
 * refused ones were refused (by step and return value). */
struct counts {
	struct wp_counts wp;
	unsigned skipped, failed, other;
	size_t ntally;
	struct {
		char where[48];
		CK_RV rv;
		unsigned n;
	} tally[NTALLY];
};

/* ------------------------------------------------------------ helpers */

static json_object *
member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v) || v == NULL)
		fail_msg("no member \"%s\"", key);
	return v;
}

/* A hex member (may be empty); malloc'ed, never NULL. */
static uint8_t *
hex(json_object *o, const char *key, size_t *len)
{
	const char *s = wp_str(o, key);

	if (s == NULL)
		fail_msg("no hex member \"%s\"", key);
	return wp_unhex(s, len);
}

/* A Wycheproof integer as PKCS#11 wants it: Wycheproof writes two's
 * complement, so a value with its top bit set carries a leading 00 byte,
 * and a PKCS#11 big integer has no leading zeros. */
static uint8_t *
bigint(json_object *o, const char *key, size_t *len)
{
	uint8_t *p = hex(o, key, len);
	size_t z = 0;

	while (z + 1 < *len && p[z] == 0)
		z++;
	memmove(p, p + z, *len - z);
	*len -= z;
	return p;
}

/* NULL if the module has no mechanism for the hash. */
static const struct hash *
hash_of(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < sizeof(hashes) / sizeof(hashes[0]);
	    i++)
		if (strcmp(hashes[i].name, name) == 0)
			return &hashes[i];
	return NULL;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The files whose names start with prefix and end with "_test.json",
 * sorted, less those that contain exclude (the same selection as the kat
 * test's, so that both run the same vectors). */
static size_t
list_files(const char *prefix, const char *exclude,
    char names[][NAME_LEN], size_t cap)
{
	DIR *d = opendir(g_vdir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 ||
		    l < 10 || l >= NAME_LEN ||
		    strcmp(e->d_name + l - 10, "_test.json") != 0)
			continue;
		if (exclude != NULL && strstr(e->d_name, exclude) != NULL)
			continue;
		assert_true(n < cap);
		memcpy(names[n++], e->d_name, l + 1);
	}
	closedir(d);
	qsort(names, n, NAME_LEN, name_cmp);
	return n;
}

static void
tally(struct counts *c, const char *where, CK_RV rv)
{
	size_t i;

	for (i = 0; i < c->ntally; i++)
		if (c->tally[i].rv == rv && strcmp(c->tally[i].where,
		    where) == 0) {
			c->tally[i].n++;
			return;
		}
	if (c->ntally == NTALLY) {
		c->other++;
		return;
	}
	/* a copy: the signing test names its step in a buffer it reuses */
	snprintf(c->tally[c->ntally].where, sizeof(c->tally[0].where), "%s",
	    where);
	c->tally[c->ntally].rv = rv;
	c->tally[c->ntally++].n = 1;
}

/*
 * Records one test. rv is what the step named where returned; refusal
 * says whether rv, when not CKR_OK, is a refusal of bad input the
 * operation may give (a failed C_CreateObject or Init is never one); bad,
 * when not NULL, what went wrong besides the return value (output that
 * differs, or output left behind by a refusal).
 */
static void
record(struct counts *c, const char *file, json_object *t,
    const char *where, CK_RV rv, int refusal, const char *bad)
{
	int exp = wp_expected(t, &c->wp);
	const char *why = bad;

	if (why == NULL && rv == CKR_OK) {
		if (exp == 0)
			why = "accepted";
		else if (exp < 0)
			c->wp.acc_ok++;
	} else if (why == NULL) {
		if (exp > 0)
			why = "refused";
		else if (!refusal)
			why = "refused with an unexpected error";
		else
			tally(c, where, rv);
	}
	if (why != NULL) {
		c->failed++;
		printf("# FAIL %s tcId %d (%s, %s): %s returned %s\n", file,
		    json_object_get_int(member(t, "tcId")),
		    exp > 0 ? "valid" : exp == 0 ? "invalid" : "acceptable",
		    why, where, p11_rv_name(rv));
	}
}

/* The tests of a group whose hash (named sha) the module has no RSA
 * mechanism for, counted as skipped. */
static void
skip_group(struct counts *c, const char *file, json_object *g, size_t gi,
    const char *sha)
{
	unsigned n = (unsigned)json_object_array_length(member(g, "tests"));

	c->skipped += n;
	printf("# %s: group %zu (%u tests) skipped: no RSA mechanism with "
	    "%s\n", file, gi, n, sha != NULL ? sha : "(no hash named)");
}

/* Prints a file's line, checks that every test of it was counted, and
 * adds it to the running total. */
static void
finish_file(const char *file, json_object *root, const struct counts *c,
    struct counts *tot)
{
	int want = json_object_get_int(member(root, "numberOfTests"));
	unsigned seen = c->wp.valid + c->wp.invalid + c->wp.acceptable +
	    c->skipped;
	size_t i;

	json_object_put(root);
	printf("# %s: %u valid, %u invalid, %u acceptable (%u accepted), "
	    "%u skipped, %u failed\n", file, c->wp.valid, c->wp.invalid,
	    c->wp.acceptable, c->wp.acc_ok, c->skipped, c->failed);
	for (i = 0; i < c->ntally; i++)
		printf("#   refused by %s: %s x%u\n", c->tally[i].where,
		    p11_rv_name(c->tally[i].rv), c->tally[i].n);
	if (c->other != 0)
		printf("#   refused otherwise: x%u\n", c->other);
	tot->wp.valid += c->wp.valid;
	tot->wp.invalid += c->wp.invalid;
	tot->wp.acceptable += c->wp.acceptable;
	tot->wp.acc_ok += c->wp.acc_ok;
	tot->skipped += c->skipped;
	tot->failed += c->failed;
	assert_int_equal(seen, want);
}

/* The total of a kind of file; fails if any test failed or none ran. */
static void
summary(const char *what, size_t nfiles, const struct counts *c)
{
	printf("# %s (%zu files): %u valid, %u invalid, %u acceptable (%u "
	    "accepted), %u skipped, %u failed\n", what, nfiles, c->wp.valid,
	    c->wp.invalid, c->wp.acceptable, c->wp.acc_ok, c->skipped,
	    c->failed);
	assert_int_equal(c->failed, 0);
	assert_true(c->wp.valid > 0);
}

/* Runs one vector file; flag selects the variant (PSS, OAEP). */
typedef void runner(const char *file, struct counts *tot, int flag);

/* Runs every file named prefix*_test.json, less those that contain
 * exclude, or only those that contain only; what names the kind. */
static void
run_files(const char *what, const char *prefix, const char *exclude,
    const char *only, runner *run, int flag)
{
	static char names[MAX_FILES][NAME_LEN];
	struct counts c = { 0 };
	size_t n = list_files(prefix, exclude, names, MAX_FILES), i, m = 0;

	for (i = 0; i < n; i++)
		if (only == NULL || strstr(names[i], only) != NULL) {
			run(names[i], &c, flag);
			m++;
		}
	assert_true(m > 0);
	summary(what, m, &c);
}

/* ----------------------------------------------------------------- keys */

/* A public key session object from a key's modulus and publicExponent. */
static CK_RV
create_public(json_object *k, CK_OBJECT_HANDLE *o)
{
	CK_OBJECT_CLASS cls = CKO_PUBLIC_KEY;
	CK_KEY_TYPE type = CKK_RSA;
	size_t nl, el;
	uint8_t *n = bigint(k, "modulus", &nl);
	uint8_t *e = bigint(k, "publicExponent", &el);
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &type, sizeof(type) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_VERIFY, &yes, sizeof(yes) },
		{ CKA_MODULUS, n, nl },
		{ CKA_PUBLIC_EXPONENT, e, el },
	};
	CK_RV rv;

	rv = p11->C_CreateObject(g_h, t, sizeof(t) / sizeof(t[0]), o);
	free(n);
	free(e);
	return rv;
}

/* A private key's parts in the order of CKA_MODULUS, CKA_PUBLIC_EXPONENT,
 * CKA_PRIVATE_EXPONENT, CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1,
 * CKA_EXPONENT_2, CKA_COEFFICIENT: all eight, or (n, e, d) only. */
struct parts {
	size_t n;
	uint8_t *p[8];
	size_t len[8];
};

static void
parts_free(struct parts *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->p[i]);
	k->n = 0;
}

/* From a group's privateKey: eight parts, or three where it has no CRT
 * values (the sig-gen files). */
static void
parts_json(json_object *pk, struct parts *k)
{
	static const char *const names[8] = {
		"modulus", "publicExponent", "privateExponent", "prime1",
		"prime2", "exponent1", "exponent2", "coefficient",
	};
	size_t i;

	k->n = json_object_object_get_ex(pk, "prime1", NULL) ? 8 : 3;
	for (i = 0; i < k->n; i++)
		k->p[i] = bigint(pk, names[i], &k->len[i]);
}

/* All eight from the group's privateKeyPkcs8, as OpenSSL reads it: the
 * kat test takes the CRT values there when privateKey lacks them. */
static void
parts_pkcs8(json_object *g, struct parts *k)
{
	static const char *const names[8] = {
		OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E,
		OSSL_PKEY_PARAM_RSA_D, OSSL_PKEY_PARAM_RSA_FACTOR1,
		OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_EXPONENT1,
		OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
	};
	size_t dl, i;
	uint8_t *der = hex(g, "privateKeyPkcs8", &dl);
	const unsigned char *p = der;
	EVP_PKEY *pk = d2i_AutoPrivateKey(NULL, &p, (long)dl);

	free(der);
	if (pk == NULL)
		fail_msg("OpenSSL cannot read privateKeyPkcs8");
	for (i = 0; i < 8; i++) {
		BIGNUM *bn = NULL;

		assert_int_equal(EVP_PKEY_get_bn_param(pk, names[i], &bn), 1);
		k->len[i] = (size_t)BN_num_bytes(bn);
		k->p[i] = malloc(k->len[i] + 1);
		assert_non_null(k->p[i]);
		BN_bn2bin(bn, k->p[i]);
		BN_clear_free(bn);
	}
	k->n = 8;
	EVP_PKEY_free(pk);
}

/* A private key session object allowed one use (CKA_DECRYPT or
 * CKA_SIGN). */
static CK_RV
create_private(const struct parts *k, CK_ATTRIBUTE_TYPE use,
    CK_OBJECT_HANDLE *o)
{
	static const CK_ATTRIBUTE_TYPE types[8] = {
		CKA_MODULUS, CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT,
		CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2,
		CKA_COEFFICIENT,
	};
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_KEY_TYPE type = CKK_RSA;
	CK_ATTRIBUTE t[13] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &type, sizeof(type) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ use, &yes, sizeof(yes) },
	};
	size_t i;

	for (i = 0; i < k->n; i++) {
		t[5 + i].type = types[i];
		t[5 + i].pValue = k->p[i];
		t[5 + i].ulValueLen = k->len[i];
	}
	return p11->C_CreateObject(g_h, t, 5 + k->n, o);
}

/* ------------------------------------------------------- verification */

static void
run_verify(const char *file, struct counts *tot, int pss)
{
	json_object *root = wp_load(file), *groups = member(root,
	    "testGroups");
	struct counts c = { 0 };
	size_t gi, ti;

	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		json_object *g = json_object_array_get_idx(groups, gi);
		json_object *tests = member(g, "tests");
		const char *sha = wp_str(g, "sha");
		const char *mgfsha = pss ? wp_str(g, "mgfSha") : sha;
		const struct hash *h = hash_of(sha), *mgf = hash_of(mgfsha);
		CK_RSA_PKCS_PSS_PARAMS pp = { 0, 0, 0 };
		CK_MECHANISM m = { 0, NULL, 0 };
		CK_OBJECT_HANDLE key = CK_INVALID_HANDLE;
		CK_RV krv;

		if (h == NULL || mgf == NULL) {
			skip_group(&c, file, g, gi, h == NULL ? sha : mgfsha);
			continue;
		}
		if (pss) {
			pp.hashAlg = h->digest;
			pp.mgf = mgf->mgf;
			pp.sLen = (CK_ULONG)json_object_get_int(member(g,
			    "sLen"));
			m.mechanism = h->pss;
			m.pParameter = &pp;
			m.ulParameterLen = sizeof(pp);
		} else {
			m.mechanism = h->pkcs1;
		}
		krv = create_public(member(g, "publicKey"), &key);
		for (ti = 0; ti < json_object_array_length(tests); ti++) {
			json_object *t = json_object_array_get_idx(tests, ti);
			size_t ml, sl;
			uint8_t *msg = hex(t, "msg", &ml);
			uint8_t *sig = hex(t, "sig", &sl);
			const char *where = "C_CreateObject";
			CK_RV rv = krv;

			if (rv == CKR_OK) {
				where = "C_VerifyInit";
				rv = p11->C_VerifyInit(g_h, &m, key);
			}
			if (rv == CKR_OK) {
				where = "C_Verify";
				rv = p11->C_Verify(g_h, msg, ml, sig, sl);
			}
			record(&c, file, t, where, rv,
			    strcmp(where, "C_Verify") == 0 &&
			    (rv == CKR_SIGNATURE_INVALID ||
			    rv == CKR_SIGNATURE_LEN_RANGE), NULL);
			free(msg);
			free(sig);
		}
		if (krv == CKR_OK)
			assert_rv(p11->C_DestroyObject(g_h, key), CKR_OK);
	}
	finish_file(file, root, &c, tot);
}

static void
test_pkcs1_verify(void **state)
{
	(void)state;
	run_files("PKCS#1 v1.5 verification", "rsa_signature_", NULL, NULL,
	    run_verify, 0);
}

static void
test_pss_verify(void **state)
{
	(void)state;
	run_files("PSS verification", "rsa_pss_", "_params", NULL, run_verify,
	    1);
}

/* --------------------------------------------------------- decryption */

/* Fills the output buffer before each decryption, to see that a refusal
 * leaves nothing in it. */
#define SENTINEL 0xa5

/* One decryption into out (cap bytes): the step that stopped it in
 * *where, its return value, the plaintext's length in *ol. */
static CK_RV
decrypt_one(CK_MECHANISM *m, CK_OBJECT_HANDLE key, uint8_t *ct, size_t cl,
    uint8_t *out, size_t cap, size_t *ol, const char **where)
{
	CK_ULONG len = cap;
	CK_RV rv;

	memset(out, SENTINEL, cap);
	*ol = 0;
	*where = "C_DecryptInit";
	rv = p11->C_DecryptInit(g_h, m, key);
	if (rv != CKR_OK)
		return rv;
	*where = "C_Decrypt";
	rv = p11->C_Decrypt(g_h, ct, cl, out, &len);
	if (rv == CKR_OK)
		*ol = len;
	return rv;
}

/* What is wrong with a decryption's output: a success must give msg, a
 * refusal must leave the buffer as it was. NULL if nothing. */
static const char *
decrypt_check(CK_RV rv, const uint8_t *out, size_t cap, size_t ol,
    const uint8_t *msg, size_t ml)
{
	size_t i;

	if (rv == CKR_OK)
		return ol == ml && memcmp(out, msg, ml) == 0 ? NULL
		    : "wrong plaintext";
	for (i = 0; i < cap; i++)
		if (out[i] != SENTINEL)
			return "output written";
	return NULL;
}

static void
run_decrypt(const char *file, struct counts *tot, int oaep)
{
	json_object *root = wp_load(file), *groups = member(root,
	    "testGroups");
	struct counts c = { 0 };
	int ran = 0, src0 = 0; /* a group run; source 0 tried */
	size_t gi, ti;

	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		json_object *g = json_object_array_get_idx(groups, gi);
		json_object *tests = member(g, "tests");
		const char *sha = oaep ? wp_str(g, "sha") : NULL;
		const char *mgfsha = oaep ? wp_str(g, "mgfSha") : NULL;
		const struct hash *h = hash_of(sha), *mgf = hash_of(mgfsha);
		CK_RSA_PKCS_OAEP_PARAMS op = { 0, 0, 0, NULL, 0 };
		CK_MECHANISM m = { CKM_RSA_PKCS, NULL, 0 };
		CK_OBJECT_HANDLE key = CK_INVALID_HANDLE;
		struct parts k;
		CK_RV krv;

		if (oaep && (h == NULL || mgf == NULL)) {
			skip_group(&c, file, g, gi, h == NULL ? sha : mgfsha);
			continue;
		}
		if (oaep) {
			op.hashAlg = h->digest;
			op.mgf = mgf->mgf;
			op.source = CKZ_DATA_SPECIFIED;
			m.mechanism = CKM_RSA_PKCS_OAEP;
			m.pParameter = &op;
			m.ulParameterLen = sizeof(op);
		}
		ran = 1;
		/* One key per group: C_CreateObject checks the parts, which
		 * costs more than a decryption. */
		parts_json(member(g, "privateKey"), &k);
		assert_int_equal(k.n, 8);
		krv = create_private(&k, CKA_DECRYPT, &key);
		parts_free(&k);
		for (ti = 0; ti < json_object_array_length(tests); ti++) {
			json_object *t = json_object_array_get_idx(tests, ti);
			static uint8_t out[1024];
			size_t cl, ml, ll = 0, ol;
			uint8_t *ct = hex(t, "ct", &cl);
			uint8_t *msg = hex(t, "msg", &ml);
			uint8_t *label = oaep ? hex(t, "label", &ll) : NULL;
			const char *where = "C_CreateObject", *bad = NULL;
			CK_RV rv = krv;

			/* An empty label as most applications pass it. */
			op.pSourceData = ll != 0 ? label : NULL;
			op.ulSourceDataLen = ll;
			if (rv == CKR_OK) {
				rv = decrypt_one(&m, key, ct, cl, out,
				    sizeof(out), &ol, &where);
				bad = decrypt_check(rv, out, sizeof(out), ol,
				    msg, ml);
			}
			record(&c, file, t, where, rv,
			    strcmp(where, "C_Decrypt") == 0, bad);
			/* The empty label also with source 0, as some
			 * applications pass it: the same plaintext. Once a
			 * file is enough for a parameter check. */
			if (oaep && !src0 && ll == 0 && krv == CKR_OK &&
			    strcmp(wp_str(t, "result"), "valid") == 0) {
				src0 = 1;
				op.source = 0;
				rv = decrypt_one(&m, key, ct, cl, out,
				    sizeof(out), &ol, &where);
				op.source = CKZ_DATA_SPECIFIED;
				bad = rv == CKR_OK ? decrypt_check(rv, out,
				    sizeof(out), ol, msg, ml) : "refused";
				if (bad != NULL) {
					c.failed++;
					printf("# FAIL %s tcId %d (valid, "
					    "source 0, %s): %s returned %s\n",
					    file, json_object_get_int(
					    member(t, "tcId")), bad, where,
					    p11_rv_name(rv));
				}
			}
			free(ct);
			free(msg);
			free(label);
		}
		if (krv == CKR_OK)
			assert_rv(p11->C_DestroyObject(g_h, key), CKR_OK);
	}
	if (oaep && ran && !src0) {
		c.failed++;
		printf("# FAIL %s: no valid test with an empty label to try "
		    "source 0 on\n", file);
	}
	finish_file(file, root, &c, tot);
}

static void
test_pkcs1_decrypt(void **state)
{
	(void)state;
	run_files("PKCS#1 v1.5 decryption", "rsa_pkcs1_", "_sig_gen", NULL,
	    run_decrypt, 0);
}

static void
test_oaep_decrypt(void **state)
{
	(void)state;
	run_files("OAEP decryption", "rsa_oaep_", "misc", NULL, run_decrypt,
	    1);
}

/* ----------------------------------------------------------- signing */

/* Signs msg with key and checks the result against want, then verifies
 * it with pub. Returns the return value of the step named in *where;
 * *bad says what is wrong with a signature made (NULL if nothing). */
static CK_RV
sign_one(CK_MECHANISM *m, CK_OBJECT_HANDLE key, CK_OBJECT_HANDLE pub,
    uint8_t *msg, size_t ml, const uint8_t *want, size_t wl,
    const char **where, const char **bad)
{
	uint8_t sig[1024];
	CK_ULONG sl = sizeof(sig);
	CK_RV rv;

	*bad = NULL;
	*where = "C_SignInit";
	rv = p11->C_SignInit(g_h, m, key);
	if (rv != CKR_OK)
		return rv;
	*where = "C_Sign";
	rv = p11->C_Sign(g_h, msg, ml, sig, &sl);
	if (rv != CKR_OK)
		return rv;
	if (sl != wl || memcmp(sig, want, wl) != 0) {
		*bad = "wrong signature";
		return rv;
	}
	*where = "C_Verify";
	rv = p11->C_VerifyInit(g_h, m, pub);
	if (rv == CKR_OK)
		rv = p11->C_Verify(g_h, msg, ml, sig, sl);
	if (rv != CKR_OK)
		*bad = "own signature does not verify";
	return rv;
}

static void
run_sign(const char *file, struct counts *tot, int flag)
{
	static const char *const form[2] = { "privateKey", "PKCS#8" };
	json_object *root = wp_load(file), *groups = member(root,
	    "testGroups");
	struct counts c = { 0 };
	size_t gi, ti, f;

	(void)flag;
	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		json_object *g = json_object_array_get_idx(groups, gi);
		json_object *tests = member(g, "tests");
		const char *sha = wp_str(g, "sha");
		const struct hash *h = hash_of(sha);
		CK_MECHANISM m = { 0, NULL, 0 };
		CK_OBJECT_HANDLE key[2] = { CK_INVALID_HANDLE,
			CK_INVALID_HANDLE }, pub = CK_INVALID_HANDLE;
		CK_RV krv[2] = { CKR_OK, CKR_OK }, prv;
		size_t nform;
		struct parts k;

		if (h == NULL) {
			skip_group(&c, file, g, gi, sha);
			continue;
		}
		m.mechanism = h->pkcs1;
		/* The key as the group gives it, (n, e, d) only in these
		 * files, so the module recovers the CRT values; and, as the
		 * kat test loads it, with all its parts from the PKCS#8. */
		parts_json(member(g, "privateKey"), &k);
		krv[0] = create_private(&k, CKA_SIGN, &key[0]);
		nform = 1;
		if (k.n != 8) {
			parts_free(&k);
			parts_pkcs8(g, &k);
			krv[1] = create_private(&k, CKA_SIGN, &key[1]);
			nform = 2;
		}
		parts_free(&k);
		prv = create_public(member(g, "privateKey"), &pub);
		for (ti = 0; ti < json_object_array_length(tests); ti++) {
			json_object *t = json_object_array_get_idx(tests, ti);
			size_t ml, wl;
			uint8_t *msg = hex(t, "msg", &ml);
			uint8_t *want = hex(t, "sig", &wl);
			const char *where = "C_CreateObject", *bad = NULL;
			char step[64] = "";
			CK_RV rv = prv;

			/* The first form that goes wrong speaks for the
			 * test; a refusal is one only at signing time. */
			for (f = 0; f < nform && rv == CKR_OK && bad == NULL;
			    f++) {
				where = "C_CreateObject";
				rv = krv[f];
				if (rv == CKR_OK)
					rv = sign_one(&m, key[f], pub, msg, ml,
					    want, wl, &where, &bad);
				snprintf(step, sizeof(step), "%s (%s)", where,
				    form[f]);
			}
			if (prv != CKR_OK)
				snprintf(step, sizeof(step), "%s (public)",
				    where);
			record(&c, file, t, step, rv,
			    strcmp(where, "C_SignInit") == 0 ||
			    strcmp(where, "C_Sign") == 0, bad);
			free(msg);
			free(want);
		}
		for (f = 0; f < nform; f++)
			if (krv[f] == CKR_OK)
				assert_rv(p11->C_DestroyObject(g_h, key[f]),
				    CKR_OK);
		if (prv == CKR_OK)
			assert_rv(p11->C_DestroyObject(g_h, pub), CKR_OK);
	}
	finish_file(file, root, &c, tot);
}

static void
test_pkcs1_sign(void **state)
{
	(void)state;
	run_files("PKCS#1 v1.5 signature generation", "rsa_pkcs1_", NULL,
	    "_sig_gen_", run_sign, 0);
}

/* -------------------------------------------------------------- setup */

/* A token of the program's own, a session, and the user logged in: the
 * private keys are private objects. */
static int
group_setup(void **state)
{
	CK_SLOT_ID slot;

	(void)state;
	return p11_fresh_user_session(g_dir, "wycheproof-rsa", &slot, &g_h);
}

static int
group_teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(g_dir);
}

int
main(void)
{
	/* One file of each kind: their absence means no vectors at all. */
	static const char *const probe[] = {
		"rsa_signature_2048_sha256_test.json",
		"rsa_pss_2048_sha256_mgf1_32_test.json",
		"rsa_pkcs1_2048_test.json",
		"rsa_oaep_2048_sha256_mgf1sha256_test.json",
		"rsa_pkcs1_2048_sig_gen_test.json",
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pkcs1_verify),
		cmocka_unit_test(test_pss_verify),
		cmocka_unit_test(test_pkcs1_decrypt),
		cmocka_unit_test(test_oaep_decrypt),
		cmocka_unit_test(test_pkcs1_sign),
	};
	int rv = wp_init(probe, sizeof(probe) / sizeof(probe[0]));

	if (rv != 0)
		return rv;
	snprintf(g_vdir, sizeof(g_vdir), "%s/wycheproof",
	    getenv("VG_VECTORS_DIR"));
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
