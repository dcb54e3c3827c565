/*
 * AES modes against every test of Wycheproof's aes_gcm_test.json,
 * aes_cbc_pkcs5_test.json, aes_cmac_test.json, aes_wrap_test.json and
 * aes_kwp_test.json, through crypto/aes.h, under every kernel set the CPU
 * and VG_CPU_FEATURES allow (AES-NI or the bitsliced AES, the mode
 * kernels of AES-NI or VAES, each with PCLMULQDQ, VPCLMULQDQ or the
 * portable GHASH; the key carries its set).
 *
 *   GCM     decryption with the tag must give msg; for valid tests also
 *           encryption (one-shot and streaming) must give ct and tag, and
 *           every truncation of the tag (4..16 bytes) must be accepted in
 *           both directions, a flipped bit in it refused. IVs of every
 *           length in the file; an empty IV must be refused.
 *   CBC     decryption with the constant-time padding check, one-shot
 *           (vg_aes_cbc_decrypt + vg_aes_pkcs7_unpad) and streaming
 *           (VG_AES_PAD), must give msg and the two must agree; for valid
 *           tests encryption must give ct.
 *   CMAC    verification of tag must pass (keys of other sizes refused);
 *           for valid tests the MAC must equal tag, and every truncation
 *           must verify.
 *   KW/KWP  unwrapping ct must give msg; for valid tests wrapping msg must
 *           give ct.
 *
 * "valid" must succeed, "invalid" must fail at some step, "acceptable"
 * may go either way and is counted apart. The vectors come from
 * $VG_VECTORS_DIR/wycheproof (make check: tests/vectors); without them
 * the test prints "FAIL: <reason>" and fails.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/kat/wycheproof.h"

#include "crypto/aes.h"
#include "crypto/cpu.h"

struct kset {
	char name[48];
	struct vg_kernels k;
};

static struct kset ksets[32];
static unsigned nksets;

/* A test's input, decoded once. */
struct tc {
	json_object *t;
	uint8_t *key, *iv, *aad, *msg, *ct, *tag;
	size_t keylen, ivlen, aadlen, msglen, ctlen, taglen;
};

static uint8_t *
hex_or_empty(json_object *t, const char *name, size_t *len)
{
	const char *s = wp_str(t, name);

	return wp_unhex(s != NULL ? s : "", len);
}

static void
tc_load(struct tc *c, json_object *t)
{
	c->t = t;
	c->key = hex_or_empty(t, "key", &c->keylen);
	c->iv = hex_or_empty(t, "iv", &c->ivlen);
	c->aad = hex_or_empty(t, "aad", &c->aadlen);
	c->msg = hex_or_empty(t, "msg", &c->msglen);
	c->ct = hex_or_empty(t, "ct", &c->ctlen);
	c->tag = hex_or_empty(t, "tag", &c->taglen);
}

static void
tc_free(struct tc *c)
{
	free(c->key);
	free(c->iv);
	free(c->aad);
	free(c->msg);
	free(c->ct);
	free(c->tag);
}

/* Output buffers: the longest message of the files is a few hundred
 * bytes; 32 more for padding and wrapping. */
static uint8_t *
outbuf(const struct tc *c)
{
	size_t n = c->msglen > c->ctlen ? c->msglen : c->ctlen;
	uint8_t *p = malloc(n + 32);

	assert_non_null(p);
	memset(p, 0xee, n + 32);
	return p;
}

static int
same(const uint8_t *a, const uint8_t *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

static void
check_outcome(const char *file, const struct kset *ks, json_object *t,
    int want, int ok, struct wp_counts *c)
{
	int id = json_object_get_int(json_object_object_get(t, "tcId"));

	if (want < 0 && ok)
		c->acc_ok++;
	if (want >= 0 && want != ok)
		fail_msg("%s tcId %d (%s) [%s]: expected %s, got %s", file, id,
		    wp_str(t, "comment"), ks->name, want ? "valid" : "invalid",
		    ok ? "valid" : "invalid");
}

/* ---------------------------------------------------------------- GCM */

static int
gcm_one(const struct vg_aes_key *k, const struct tc *c, int want)
{
	uint8_t *out = outbuf(c), tag[16], t2[16];
	struct vg_aes_gcm g;
	size_t tl, cut = c->msglen / 3, n;
	enum vg_err e;
	int ok;

	e = vg_aes_gcm_decrypt(k, c->iv, c->ivlen, c->aad, c->aadlen, c->ct,
	    c->ctlen, out, c->tag, c->taglen);
	assert_true(e == VG_OK || e == VG_ERR_AUTH || e == VG_ERR_LENGTH);
	ok = e == VG_OK && c->msglen == c->ctlen &&
	    same(out, c->msg, c->msglen);
	if (e == VG_ERR_AUTH)
		for (n = 0; n < c->ctlen; n++)
			assert_int_equal(out[n], 0);
	if (want != 1 || !ok)
		goto out;
	/* Valid: encryption, one-shot and streaming, and the tag's
	 * truncations both ways. */
	assert_int_equal(c->taglen, 16);
	assert_int_equal(vg_aes_gcm_encrypt(k, c->iv, c->ivlen, c->aad,
	    c->aadlen, c->msg, c->msglen, out, tag, 16), VG_OK);
	ok = same(out, c->ct, c->ctlen) && memcmp(tag, c->tag, 16) == 0;
	assert_int_equal(vg_aes_gcm_encrypt_init(&g, k, c->iv, c->ivlen,
	    c->aad, c->aadlen), VG_OK);
	assert_int_equal(vg_aes_gcm_encrypt_update(&g, c->msg, cut, out),
	    VG_OK);
	assert_int_equal(vg_aes_gcm_encrypt_update(&g, c->msg + cut,
	    c->msglen - cut, out + cut), VG_OK);
	assert_int_equal(vg_aes_gcm_encrypt_final(&g, t2, 16), VG_OK);
	ok = ok && same(out, c->ct, c->ctlen) && memcmp(t2, c->tag, 16) == 0;
	for (tl = VG_AES_GCM_MIN_TAG; ok && tl <= VG_AES_GCM_MAX_TAG; tl++) {
		memset(t2, 0, sizeof(t2));
		assert_int_equal(vg_aes_gcm_encrypt(k, c->iv, c->ivlen, c->aad,
		    c->aadlen, c->msg, c->msglen, out, t2, tl), VG_OK);
		ok = memcmp(t2, c->tag, tl) == 0;
		ok = ok && vg_aes_gcm_decrypt(k, c->iv, c->ivlen, c->aad,
		    c->aadlen, c->ct, c->ctlen, out, c->tag, tl) == VG_OK &&
		    same(out, c->msg, c->msglen);
		memcpy(t2, c->tag, tl);
		t2[tl - 1] ^= 0x01;
		ok = ok && vg_aes_gcm_decrypt(k, c->iv, c->ivlen, c->aad,
		    c->aadlen, c->ct, c->ctlen, out, t2, tl) == VG_ERR_AUTH;
	}
out:
	free(out);
	return ok;
}

/* ---------------------------------------------------------------- CBC */

static int
cbc_one(const struct vg_aes_key *k, const struct tc *c, int want)
{
	uint8_t *a = outbuf(c), *b = outbuf(c);
	struct vg_aes_cbc s;
	size_t n1 = 0, n2 = 0, m = 0, cut;
	enum vg_err e1, e2;
	int ok;

	assert_int_equal(c->ivlen, 16);
	/* one-shot: decrypt, then the constant-time padding check */
	e1 = vg_aes_cbc_decrypt(k, c->iv, c->ct, c->ctlen, a);
	if (e1 == VG_OK) {
		e1 = vg_aes_pkcs7_unpad(a, c->ctlen, &n1);
		if (e1 != VG_OK)
			n1 = 0;
	}
	/* streaming, in two pieces */
	cut = c->ctlen / 2 + 1 > c->ctlen ? c->ctlen : c->ctlen / 2 + 1;
	assert_int_equal(vg_aes_cbc_init(&s, k, c->iv,
	    VG_AES_DECRYPT | VG_AES_PAD), VG_OK);
	assert_int_equal(vg_aes_cbc_update(&s, c->ct, cut, b, &m), VG_OK);
	n2 = m;
	assert_int_equal(vg_aes_cbc_update(&s, c->ct + cut, c->ctlen - cut,
	    b + n2, &m), VG_OK);
	n2 += m;
	e2 = vg_aes_cbc_final(&s, b + n2, &m);
	n2 += m;
	assert_true(e1 == VG_OK || e1 == VG_ERR_DECODE ||
	    e1 == VG_ERR_LENGTH);
	/* the two paths agree on the verdict (an empty ciphertext is a
	 * length error for one-shot unpadding and for final) */
	assert_int_equal(e1, e2);
	ok = e1 == VG_OK && n1 == c->msglen && same(a, c->msg, n1) &&
	    n2 == n1 && same(b, a, n1);
	if (ok && want == 1) {
		size_t padded;

		memcpy(a, c->msg, c->msglen);
		assert_int_equal(vg_aes_pkcs7_pad(a, c->msglen, c->msglen + 16,
		    &padded), VG_OK);
		assert_int_equal(vg_aes_cbc_encrypt(k, c->iv, a, padded, a),
		    VG_OK);
		ok = padded == c->ctlen && same(a, c->ct, padded);
		assert_int_equal(vg_aes_cbc_init(&s, k, c->iv, VG_AES_PAD),
		    VG_OK);
		assert_int_equal(vg_aes_cbc_update(&s, c->msg, c->msglen, b,
		    &n2), VG_OK);
		assert_int_equal(vg_aes_cbc_final(&s, b + n2, &m), VG_OK);
		ok = ok && n2 + m == c->ctlen && same(b, c->ct, c->ctlen);
	}
	free(a);
	free(b);
	return ok;
}

/* --------------------------------------------------------------- CMAC */

static int
cmac_one(const struct vg_aes_key *k, const struct tc *c, int want)
{
	uint8_t mac[16];
	struct vg_aes_cmac m;
	size_t tl;
	int ok;

	if (c->taglen < 1 || c->taglen > 16)
		return 0;
	assert_int_equal(vg_aes_cmac_init(&m, k), VG_OK);
	assert_int_equal(vg_aes_cmac_update(&m, c->msg, c->msglen / 2),
	    VG_OK);
	assert_int_equal(vg_aes_cmac_update(&m, c->msg + c->msglen / 2,
	    c->msglen - c->msglen / 2), VG_OK);
	ok = vg_aes_cmac_verify(&m, c->tag, c->taglen) == VG_OK;
	if (!ok || want != 1)
		return ok;
	assert_int_equal(vg_aes_cmac(k, c->msg, c->msglen, mac, 16), VG_OK);
	ok = c->taglen == 16 && memcmp(mac, c->tag, 16) == 0;
	for (tl = 1; ok && tl <= 16; tl++) {
		assert_int_equal(vg_aes_cmac_init(&m, k), VG_OK);
		assert_int_equal(vg_aes_cmac_update(&m, c->msg, c->msglen),
		    VG_OK);
		ok = vg_aes_cmac_verify(&m, c->tag, tl) == VG_OK;
	}
	return ok;
}

/* ------------------------------------------------------------ KW, KWP */

static int
wrap_one(const struct vg_aes_key *k, const struct tc *c, int pad, int want)
{
	uint8_t *out = outbuf(c);
	size_t n = 0;
	enum vg_err e;
	int ok;

	if (pad) {
		e = vg_aes_kwp_unwrap(k, c->ct, c->ctlen, out, &n);
	} else {
		e = vg_aes_kw_unwrap(k, c->ct, c->ctlen, out);
		n = c->ctlen >= 8 ? c->ctlen - 8 : 0;
	}
	assert_true(e == VG_OK || e == VG_ERR_AUTH || e == VG_ERR_LENGTH);
	ok = e == VG_OK && n == c->msglen && same(out, c->msg, n);
	if (ok && want == 1) {
		if (pad) {
			ok = vg_aes_kwp_wrap(k, c->msg, c->msglen, out, &n) ==
			    VG_OK;
		} else {
			ok = vg_aes_kw_wrap(k, c->msg, c->msglen, out) == VG_OK;
			n = c->msglen + 8;
		}
		ok = ok && n == c->ctlen && same(out, c->ct, n);
	}
	free(out);
	return ok;
}

/* ------------------------------------------------------------- driver */

enum mode { GCM, CBC, CMAC, KW, KWP };

static void
run(const char *file, enum mode mode)
{
	json_object *root = wp_load(file), *groups, *tests;
	struct wp_counts c = { 0, 0, 0, 0 };
	size_t g, i;
	unsigned s;

	groups = json_object_object_get(root, "testGroups");
	for (s = 0; s < nksets; s++)
		for (g = 0; g < json_object_array_length(groups); g++) {
			json_object *grp = json_object_array_get_idx(groups, g);

			tests = json_object_object_get(grp, "tests");
			for (i = 0; i < json_object_array_length(tests); i++) {
				json_object *t =
				    json_object_array_get_idx(tests, i);
				int want = wp_expected(t, &c), ok = 0;
				struct vg_aes_key k;
				struct tc tc;

				tc_load(&tc, t);
				/* keys of other sizes are refused */
				if (vg_aes_init_k(&k, &ksets[s].k, tc.key,
				    tc.keylen) == VG_OK) {
					switch (mode) {
					case GCM:
						ok = gcm_one(&k, &tc, want);
						break;
					case CBC:
						ok = cbc_one(&k, &tc, want);
						break;
					case CMAC:
						ok = cmac_one(&k, &tc, want);
						break;
					case KW:
					case KWP:
						ok = wrap_one(&k, &tc,
						    mode == KWP, want);
						break;
					}
				}
				check_outcome(file, &ksets[s], t, want, ok,
				    &c);
				vg_aes_key_wipe(&k);
				tc_free(&tc);
			}
		}
	printf("# %s: %u valid, %u invalid, %u acceptable (%u accepted), "
	    "per kernel set\n", file, c.valid / nksets, c.invalid / nksets,
	    c.acceptable / nksets, c.acc_ok / nksets);
	assert_int_equal(c.valid + c.invalid + c.acceptable,
	    nksets * (unsigned)json_object_get_int(
	    json_object_object_get(root, "numberOfTests")));
	json_object_put(root);
}

static void
test_gcm(void **state)
{
	(void)state;
	run("aes_gcm_test.json", GCM);
}

static void
test_cbc_pkcs5(void **state)
{
	(void)state;
	run("aes_cbc_pkcs5_test.json", CBC);
}

static void
test_cmac(void **state)
{
	(void)state;
	run("aes_cmac_test.json", CMAC);
}

static void
test_kw(void **state)
{
	(void)state;
	run("aes_wrap_test.json", KW);
}

static void
test_kwp(void **state)
{
	(void)state;
	run("aes_kwp_test.json", KWP);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcm),
		cmocka_unit_test(test_cbc_pkcs5),
		cmocka_unit_test(test_cmac),
		cmocka_unit_test(test_kw),
		cmocka_unit_test(test_kwp),
	};
	static const char *const files[] = {
		"aes_gcm_test.json",
		"aes_cbc_pkcs5_test.json",
		"aes_cmac_test.json",
		"aes_wrap_test.json",
		"aes_kwp_test.json",
	};
	const unsigned mine = VG_CPU_AESNI | VG_CPU_PCLMUL | VG_CPU_VAES |
	    VG_CPU_VPCLMUL | VG_CPU_AVX512F;
	unsigned f = vg_cpu_features(), sub;
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	/* every subset of the AES-NI, PCLMULQDQ, VAES, VPCLMULQDQ and
	 * AVX-512 bits in use (without AVX-512 the VAES kernels are the
	 * 256-bit ones), the full set first and the portable pair last;
	 * subsets that pick the same kernels are run once */
	printf("# kernel sets (aes/modes+ghash/keyed ghash):");
	for (sub = f & mine;; sub = (sub - 1) & (f & mine)) {
		struct kset *ks = &ksets[nksets];
		unsigned i;

		vg_kernels_fill(&ks->k, (f & ~mine) | sub);
		snprintf(ks->name, sizeof(ks->name), "%s/%s+%s/%s",
		    ks->k.aes_impl, ks->k.aes_modes_impl, ks->k.ghash_impl,
		    ks->k.ghash_update_impl);
		for (i = 0; i < nksets; i++)
			if (strcmp(ksets[i].name, ks->name) == 0)
				break;
		if (i == nksets) {
			nksets++;
			printf(" %s", ks->name);
		}
		if (sub == 0)
			break;
	}
	printf("\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
