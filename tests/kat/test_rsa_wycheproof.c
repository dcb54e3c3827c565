/*
 * Wycheproof RSA vectors through crypto/rsa.h, under every kernel set the
 * features in use allow (portable, ADX, IFMA):
 * PKCS#1 v1.5 and PSS verification (rsa_signature_*, rsa_pss_*), PKCS#1
 * v1.5 and OAEP decryption (rsa_pkcs1_<bits>_test, rsa_oaep_*), PKCS#1 v1.5
 * signature generation (rsa_pkcs1_*_sig_gen). Each test's result is
 * honoured: "valid" must succeed (and match), "invalid" must fail,
 * "acceptable" may go either way (counted apart). Groups with a hash
 * crypto/ does not offer would be counted as skipped (every hash of the
 * files in tests/vectors is offered).
 *
 * The vectors come from $VG_VECTORS_DIR/wycheproof (make check sets
 * VG_VECTORS_DIR to tests/vectors); without them the test prints
 * "FAIL: <reason>" and fails.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "crypto/cpu.h"
#include "crypto/der.h"
#include "crypto/rsa.h"

static char g_dir[4096];
static struct vg_rng g_rng;
static struct vg_rsa_kernels g_kern[3];
static size_t g_nkern;
/* Private keys loaded with an IFMA kernel set, and how many of them ran
 * their halves on the IFMA pair, by modulus size: 2048, 3072, 4096. */
static unsigned g_ifma_keys[3], g_ifma_pair[3];

struct counts {
	unsigned valid, invalid, acceptable, skipped, failed;
};

/* ------------------------------------------------------------ JSON */

static struct json_object *
get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static const char *
get_str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v != NULL ? json_object_get_string(v) : NULL;
}

/* Hex field into buf (cap bytes); returns the length. */
static size_t
get_hex(struct json_object *o, const char *key, uint8_t *buf, size_t cap)
{
	const char *s = get_str(o, key);
	size_t n, i;

	assert_non_null(s);
	n = strlen(s) / 2;
	assert_true(n <= cap);
	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		buf[i] = (uint8_t)v;
	}
	return n;
}

/* Hash name to algorithm; -1 if not offered. */
static int
hash_of(const char *name)
{
	static const struct {
		const char *name;
		enum vg_hash_alg alg;
	} map[] = {
		{ "SHA-1", VG_HASH_SHA1 }, { "SHA-224", VG_HASH_SHA224 },
		{ "SHA-256", VG_HASH_SHA256 }, { "SHA-384", VG_HASH_SHA384 },
		{ "SHA-512", VG_HASH_SHA512 }, { "SHA3-224", VG_HASH_SHA3_224 },
		{ "SHA3-256", VG_HASH_SHA3_256 }, { "SHA3-384", VG_HASH_SHA3_384 },
		{ "SHA3-512", VG_HASH_SHA3_512 },
		{ "SHA-512/224", VG_HASH_SHA512_224 },
		{ "SHA-512/256", VG_HASH_SHA512_256 },
	};
	size_t i;

	for (i = 0; name != NULL && i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i].name, name) == 0)
			return (int)map[i].alg;
	return -1;
}

/* Records one outcome: ok is whether our code accepted the input. */
static void
record(struct counts *c, const char *file, struct json_object *t, int ok,
    const char *kern)
{
	const char *res = get_str(t, "result");
	int tc = json_object_get_int(get(t, "tcId"));

	if (strcmp(res, "acceptable") == 0) {
		c->acceptable++;
	} else if (strcmp(res, "valid") == 0) {
		if (ok) {
			c->valid++;
		} else {
			c->failed++;
			printf("# FAIL %s tcId %d (valid, rejected) kernels %s\n",
			    file, tc, kern);
		}
	} else {
		if (!ok) {
			c->invalid++;
		} else {
			c->failed++;
			printf("# FAIL %s tcId %d (invalid, accepted) kernels "
			    "%s\n", file, tc, kern);
		}
	}
}

/* The files of the directory whose names start with prefix and end with
 * "_test.json", sorted, optionally excluding a substring. */
static size_t
list_files(const char *prefix, const char *exclude, char names[][128],
    size_t cap)
{
	DIR *d = opendir(g_dir);
	struct dirent *e;
	size_t n = 0, i, j;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 ||
		    l < 10 || strcmp(e->d_name + l - 10, "_test.json") != 0 ||
		    l >= 128)
			continue;
		if (exclude != NULL && strstr(e->d_name, exclude) != NULL)
			continue;
		assert_true(n < cap);
		strcpy(names[n++], e->d_name);
	}
	closedir(d);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (strcmp(names[j], names[i]) < 0) {
				char t[128];

				strcpy(t, names[i]);
				strcpy(names[i], names[j]);
				strcpy(names[j], t);
			}
	return n;
}

static struct json_object *
load_file(const char *name)
{
	char path[4096 + 128];
	struct json_object *o;

	snprintf(path, sizeof(path), "%s/%s", g_dir, name);
	o = json_object_from_file(path);
	assert_non_null(o);
	return o;
}

/* A private key from a group's privateKey object or, when it lacks the CRT
 * values, from privateKeyPkcs8. */
static void
load_private(struct vg_rsa_key *k, struct json_object *g,
    const struct vg_rsa_kernels *kern)
{
	static uint8_t b[8][1024], p8[8192];
	static const char *const names[8] = {
		"modulus", "publicExponent", "privateExponent", "prime1",
		"prime2", "exponent1", "exponent2", "coefficient",
	};
	struct json_object *pk = get(g, "privateKey");
	struct vg_der_rsa_priv c;
	struct vg_der *f = &c.n;
	size_t i;

	if (get(pk, "prime1") != NULL) {
		for (i = 0; i < 8; i++) {
			size_t len = get_hex(pk, names[i], b[i], sizeof(b[i]));

			f[i] = vg_der_make(b[i], len);
		}
	} else {
		struct vg_der_pkcs8 k8;
		size_t len = get_hex(g, "privateKeyPkcs8", p8, sizeof(p8));

		assert_int_equal(vg_der_parse_pkcs8(p8, len, &k8), VG_OK);
		assert_int_equal(vg_der_parse_rsa_private(k8.key.p, k8.key.len,
		    &c), VG_OK);
	}
	assert_int_equal(vg_rsa_key_load(k, &c, kern, 0, &g_rng), VG_OK);
	if (kern->amm52x2 != NULL) {
		unsigned bits = (unsigned)k->pub.n.bits;
		size_t w = k->p.mont.w;

		if (bits == 2048 || bits == 3072 || bits == 4096) {
			g_ifma_keys[bits / 1024 - 2]++;
			g_ifma_pair[bits / 1024 - 2] += k->use52 != 0;
			/* the pair runs every size the table gives it */
			if (k->q.mont.w == w && (kern->amm52_words &
			    VG_RSA52_WORDS_BIT(w)) != 0)
				assert_true(k->use52);
		}
	}
}

static void
load_public(struct vg_rsa_pub *k, struct json_object *g,
    const struct vg_rsa_kernels *kern)
{
	struct json_object *pk = get(g, "publicKey");
	uint8_t n[1024], e[1024];
	size_t nl = get_hex(pk, "modulus", n, sizeof(n));
	size_t el = get_hex(pk, "publicExponent", e, sizeof(e));

	assert_int_equal(vg_rsa_pub_load(k, n, nl, e, el), VG_OK);
	vg_rsa_pub_set_kernels(k, kern);
}

static void
summary(const char *what, const struct counts *c)
{
	printf("# %s: %u valid, %u invalid, %u acceptable, %u skipped, %u "
	    "failed (x%zu kernel sets)\n", what, c->valid, c->invalid,
	    c->acceptable, c->skipped, c->failed, g_nkern);
	assert_int_equal(c->failed, 0);
}

/* ------------------------------------------------------- verification */

static void
run_verify(const char *file, struct counts *c, int pss)
{
	struct json_object *root = load_file(file), *groups;
	static struct vg_rsa_pub pub;
	size_t gi, ti, ki;

	groups = get(root, "testGroups");
	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		struct json_object *g = json_object_array_get_idx(groups, gi);
		struct json_object *tests = get(g, "tests");
		int h = hash_of(get_str(g, "sha"));
		int mgf = pss ? hash_of(get_str(g, "mgfSha")) : h;
		size_t slen = pss ? (size_t)json_object_get_int(get(g, "sLen"))
				  : 0;

		if (h < 0 || mgf < 0) {
			c->skipped += (unsigned)json_object_array_length(tests);
			continue;
		}
		for (ki = 0; ki < g_nkern; ki++) {
			load_public(&pub, g, &g_kern[ki]);
			for (ti = 0; ti < json_object_array_length(tests); ti++) {
				struct json_object *t =
				    json_object_array_get_idx(tests, ti);
				static uint8_t msg[8192], sig[1024];
				uint8_t hash[VG_HASH_MAX_LEN];
				size_t ml = get_hex(t, "msg", msg, sizeof(msg));
				size_t sl = get_hex(t, "sig", sig, sizeof(sig));
				enum vg_err rv;

				vg_hash((enum vg_hash_alg)h, msg, ml, hash);
				if (pss)
					rv = vg_rsa_pss_verify(&pub,
					    (enum vg_hash_alg)h,
					    (enum vg_hash_alg)mgf, slen, hash,
					    vg_hash_len((enum vg_hash_alg)h), sig,
					    sl);
				else
					rv = vg_rsa_pkcs1_verify(&pub,
					    (enum vg_hash_alg)h, hash,
					    vg_hash_len((enum vg_hash_alg)h), sig,
					    sl);
				assert_true(rv == VG_OK || rv == VG_ERR_AUTH);
				record(c, file, t, rv == VG_OK, g_kern[ki].impl);
			}
		}
	}
	json_object_put(root);
}

static void
test_pkcs1_verify(void **state)
{
	char names[64][128];
	struct counts c = { 0 };
	size_t n = list_files("rsa_signature_", NULL, names, 64), i;

	(void)state;
	assert_true(n > 0);
	for (i = 0; i < n; i++)
		run_verify(names[i], &c, 0);
	summary("PKCS#1 v1.5 verification", &c);
}

static void
test_pss_verify(void **state)
{
	char names[64][128];
	struct counts c = { 0 };
	size_t n = list_files("rsa_pss_", "_params", names, 64), i;

	(void)state;
	assert_true(n > 0);
	for (i = 0; i < n; i++)
		run_verify(names[i], &c, 1);
	summary("PSS verification", &c);
}

/* --------------------------------------------------------- decryption */

static void
run_decrypt(const char *file, struct counts *c, int oaep)
{
	struct json_object *root = load_file(file), *groups;
	static struct vg_rsa_key k;
	size_t gi, ti, ki;

	groups = get(root, "testGroups");
	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		struct json_object *g = json_object_array_get_idx(groups, gi);
		struct json_object *tests = get(g, "tests");
		int h = oaep ? hash_of(get_str(g, "sha")) : 0;
		int mgf = oaep ? hash_of(get_str(g, "mgfSha")) : 0;

		if (h < 0 || mgf < 0) {
			c->skipped += (unsigned)json_object_array_length(tests);
			continue;
		}
		for (ki = 0; ki < g_nkern; ki++) {
			load_private(&k, g, &g_kern[ki]);
			for (ti = 0; ti < json_object_array_length(tests); ti++) {
				struct json_object *t =
				    json_object_array_get_idx(tests, ti);
				static uint8_t ct[2048], msg[1024], out[1024];
				static uint8_t label[1024];
				size_t cl = get_hex(t, "ct", ct, sizeof(ct));
				size_t ml = get_hex(t, "msg", msg, sizeof(msg));
				size_t ol = 0, ll = 0;
				enum vg_err rv;
				int ok;

				if (oaep) {
					ll = get_hex(t, "label", label,
					    sizeof(label));
					rv = vg_rsa_oaep_decrypt(&k,
					    (enum vg_hash_alg)h,
					    (enum vg_hash_alg)mgf, label, ll, ct,
					    cl, out, sizeof(out), &ol, &g_rng);
				} else {
					rv = vg_rsa_pkcs1_decrypt(&k, ct, cl, out,
					    sizeof(out), &ol, &g_rng);
				}
				assert_true(rv == VG_OK || rv == VG_ERR_DECODE);
				ok = rv == VG_OK;
				/* a valid decryption must give the message */
				if (ok && strcmp(get_str(t, "result"), "valid") == 0)
					ok = ol == ml && memcmp(out, msg, ml) == 0;
				record(c, file, t, ok, g_kern[ki].impl);
			}
		}
	}
	vg_rsa_key_wipe(&k);
	json_object_put(root);
}

static void
test_pkcs1_decrypt(void **state)
{
	static const char *const files[] = {
		"rsa_pkcs1_2048_test.json", "rsa_pkcs1_3072_test.json",
		"rsa_pkcs1_4096_test.json",
	};
	struct counts c = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++)
		run_decrypt(files[i], &c, 0);
	summary("PKCS#1 v1.5 decryption", &c);
}

static void
test_oaep_decrypt(void **state)
{
	char names[64][128];
	struct counts c = { 0 };
	size_t n = list_files("rsa_oaep_", "misc", names, 64), i;

	(void)state;
	assert_true(n > 0);
	for (i = 0; i < n; i++)
		run_decrypt(names[i], &c, 1);
	summary("OAEP decryption", &c);
}

/* ----------------------------------------------------------- signing */

static void
run_sign(const char *file, struct counts *c)
{
	struct json_object *root = load_file(file), *groups;
	static struct vg_rsa_key k;
	size_t gi, ti, ki;

	groups = get(root, "testGroups");
	for (gi = 0; gi < json_object_array_length(groups); gi++) {
		struct json_object *g = json_object_array_get_idx(groups, gi);
		struct json_object *tests = get(g, "tests");
		int h = hash_of(get_str(g, "sha"));

		if (h < 0) {
			c->skipped += (unsigned)json_object_array_length(tests);
			continue;
		}
		for (ki = 0; ki < g_nkern; ki++) {
			load_private(&k, g, &g_kern[ki]);
			for (ti = 0; ti < json_object_array_length(tests); ti++) {
				struct json_object *t =
				    json_object_array_get_idx(tests, ti);
				static uint8_t msg[8192], want[1024], sig[1024];
				uint8_t hash[VG_HASH_MAX_LEN];
				size_t ml = get_hex(t, "msg", msg, sizeof(msg));
				size_t wl = get_hex(t, "sig", want, sizeof(want));
				size_t hl = vg_hash_len((enum vg_hash_alg)h);
				enum vg_err rv;
				int ok;

				vg_hash((enum vg_hash_alg)h, msg, ml, hash);
				rv = vg_rsa_pkcs1_sign(&k, (enum vg_hash_alg)h,
				    hash, hl, sig, k.pub.len, &g_rng);
				ok = rv == VG_OK && wl == k.pub.len &&
				    memcmp(sig, want, wl) == 0;
				if (ok)
					ok = vg_rsa_pkcs1_verify(&k.pub,
					    (enum vg_hash_alg)h, hash, hl, sig,
					    wl) == VG_OK;
				record(c, file, t, ok, g_kern[ki].impl);
			}
		}
	}
	vg_rsa_key_wipe(&k);
	json_object_put(root);
}

static void
test_pkcs1_sign(void **state)
{
	char names[16][128];
	struct counts c = { 0 };
	size_t n = list_files("rsa_pkcs1_", NULL, names, 16), i, m = 0;

	(void)state;
	for (i = 0; i < n; i++)
		if (strstr(names[i], "_sig_gen_") != NULL) {
			run_sign(names[i], &c);
			m++;
		}
	assert_true(m > 0);
	summary("PKCS#1 v1.5 signature generation", &c);
}

/* With an IFMA kernel set, the private keys of the sizes it serves ran
 * on the IFMA pair (run after the tests that load them). */
static void
test_ifma_sizes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < g_nkern; i++) {
		const struct vg_rsa_kernels *k = &g_kern[i];
		unsigned s;

		if (k->amm52x2 == NULL)
			continue;
		for (s = 0; s < 3; s++) {
			size_t w = 16 + 8 * s;

			printf("# RSA-%u: %u of %u private keys on the IFMA "
			    "pair\n", 1024 * (s + 2), g_ifma_pair[s],
			    g_ifma_keys[s]);
			assert_true(g_ifma_keys[s] > 0);
			if (k->amm52_words & VG_RSA52_WORDS_BIT(w))
				assert_true(g_ifma_pair[s] > 0);
			else
				assert_int_equal(g_ifma_pair[s], 0);
		}
		return;
	}
	printf("# skipped: no IFMA kernel set on this CPU\n");
	skip();
}

int
main(void)
{
	static const unsigned sets[] = {
		0,
		VG_CPU_BMI2 | VG_CPU_ADX,
		VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX512F | VG_CPU_AVX512VL |
		    VG_CPU_AVX512IFMA,
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pkcs1_verify),
		cmocka_unit_test(test_pss_verify),
		cmocka_unit_test(test_pkcs1_decrypt),
		cmocka_unit_test(test_oaep_decrypt),
		cmocka_unit_test(test_pkcs1_sign),
		cmocka_unit_test(test_ifma_sizes),
	};
	const char *dir = getenv("VG_VECTORS_DIR");
	char probe[4096 + 64];
	FILE *f;
	size_t i;

	if (dir == NULL) {
		printf("FAIL: VG_VECTORS_DIR is not set (make check sets it "
		    "to tests/vectors)\n");
		return 1;
	}
	snprintf(g_dir, sizeof(g_dir), "%s/wycheproof", dir);
	snprintf(probe, sizeof(probe), "%s/rsa_pkcs1_2048_test.json", g_dir);
	f = fopen(probe, "r");
	if (f == NULL) {
		printf("FAIL: no Wycheproof RSA vectors in %s\n", g_dir);
		return 1;
	}
	fclose(f);
	if (vg_rng_init(&g_rng) != VG_OK) {
		printf("SKIP: no entropy source\n");
		return 77;
	}
	/* every kernel set the features in use allow */
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if ((sets[i] & vg_cpu_features()) == sets[i])
			vg_rsa_kernels_fill(&g_kern[g_nkern++], sets[i]);
	printf("# kernel sets:");
	for (i = 0; i < g_nkern; i++)
		printf(" %s", g_kern[i].impl);
	printf("\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
