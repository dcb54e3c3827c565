/*
 * P-256 against every test of Wycheproof's ecdh_secp256r1_ecpoint_test.json
 * (raw SEC1 peer points), ecdh_secp256r1_test.json (peer keys as DER
 * SubjectPublicKeyInfo), ecdsa_secp256r1_sha256_test.json (DER signatures)
 * and ecdsa_secp256r1_sha256_p1363_test.json (r || s), through the crypto
 * layer, under every kernel set (the one the CPU and VG_CPU_FEATURES give,
 * and the portable twins when they differ).
 *
 *   ECDH   the private key must decode, the peer key decode and validate
 *          (SPKI: id-ecPublicKey with the named curve prime256v1 only,
 *          strict DER), and the shared x-coordinate must equal "shared".
 *   ECDSA  the signature must decode (strict DER, or exactly 64 bytes)
 *          and verify over SHA-256(msg).
 * "valid" must succeed, "invalid" must fail at some step, "acceptable" may
 * go either way and is counted apart. The vectors come from
 * $VG_VECTORS_DIR/wycheproof (set by make check); without them the test
 * prints "FAIL: <reason>" and fails.
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

#include "crypto/cpu.h"
#include "crypto/der.h"
#include "crypto/hash.h"
#include "crypto/p256.h"
#include "crypto/p256_int.h"


struct kset {
	const char *name;
	struct vg_kernels k;
};

static struct kset ksets[2];
static unsigned nksets;

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

static void
report(const char *file, const struct wp_counts *c)
{
	printf("# %s: %u valid, %u invalid, %u acceptable (%u accepted), "
	    "per kernel set\n", file, c->valid / nksets, c->invalid / nksets,
	    c->acceptable / nksets, c->acc_ok / nksets);
}

/* ---------------------------------------------------------------- ECDH */

/* The peer key of an ecdh_secp256r1_test.json case: a DER SPKI that must
 * name id-ecPublicKey and prime256v1. */
static enum vg_err
decode_spki(const struct vg_p256_kernels *k, struct vg_p256_pub *pub,
    const uint8_t *in, size_t len)
{
	struct vg_der_algid alg;
	struct vg_der key;
	enum vg_der_curve curve;
	enum vg_err err;

	err = vg_der_parse_spki(in, len, &alg, &key);
	if (err != VG_OK)
		return err;
	if (!vg_der_oid_equal(&alg.oid, &vg_oid_ec_public_key))
		return VG_ERR_DECODE;
	err = vg_der_parse_ec_params(alg.params.p, alg.params.len, &curve,
	    NULL);
	if (err != VG_OK)
		return err;
	if (curve != VG_DER_CURVE_P256)
		return VG_ERR_ARG;
	return vg_p256_pub_decode_k(k, pub, key.p, key.len);
}

static int
ecdh_one(const struct kset *ks, int spki, json_object *t)
{
	size_t plen, dlen, zlen;
	uint8_t *pub = wp_unhex(wp_str(t, "public"), &plen);
	uint8_t *d = wp_unhex(wp_str(t, "private"), &dlen);
	uint8_t *want = wp_unhex(wp_str(t, "shared"), &zlen);
	struct vg_p256_priv key;
	struct vg_p256_pub peer;
	uint8_t z[32];
	int ok = 0;

	if (vg_p256_priv_decode(&key, d, dlen) != VG_OK)
		goto out;
	if (spki) {
		if (decode_spki(&ks->k.p256, &peer, pub, plen) != VG_OK)
			goto out;
	} else if (vg_p256_pub_decode_k(&ks->k.p256, &peer, pub, plen) !=
	    VG_OK) {
		goto out;
	}
	if (vg_p256_ecdh_k(&ks->k.p256, z, &key, &peer) != VG_OK)
		goto out;
	ok = zlen == 32 && memcmp(z, want, 32) == 0;
out:
	vg_p256_priv_wipe(&key);
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
	unsigned s;

	groups = json_object_object_get(root, "testGroups");
	for (s = 0; s < nksets; s++)
		for (g = 0; g < json_object_array_length(groups); g++) {
			json_object *grp = json_object_array_get_idx(groups, g);

			assert_string_equal(wp_str(grp, "curve"), "secp256r1");
			tests = json_object_object_get(grp, "tests");
			for (i = 0; i < json_object_array_length(tests); i++) {
				json_object *t =
				    json_object_array_get_idx(tests, i);
				int want = wp_expected(t, &c);

				check_outcome(file, &ksets[s], t, want,
				    ecdh_one(&ksets[s], spki, t), &c);
			}
		}
	report(file, &c);
	assert_int_equal(c.valid + c.invalid + c.acceptable,
	    nksets * (unsigned)json_object_get_int(
	    json_object_object_get(root, "numberOfTests")));
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

static int
ecdsa_one(const struct kset *ks, const struct vg_p256_pub *pub, int der,
    json_object *t)
{
	size_t mlen, slen;
	uint8_t *msg = wp_unhex(wp_str(t, "msg"), &mlen);
	uint8_t *sig = wp_unhex(wp_str(t, "sig"), &slen);
	uint8_t h[32], rs[64];
	int ok = 0;

	if (der) {
		if (vg_p256_ecdsa_sig_from_der(rs, sig, slen) != VG_OK)
			goto out;
	} else {
		if (slen != 64)
			goto out;
		memcpy(rs, sig, 64);
	}
	vg_hash(VG_HASH_SHA256, msg, mlen, h);
	ok = vg_p256_ecdsa_verify_k(&ks->k.p256, pub, h, 32, rs) == VG_OK;
out:
	free(msg);
	free(sig);
	return ok;
}

static void
run_ecdsa(const char *file, int der)
{
	json_object *root = wp_load(file), *groups, *tests, *pk;
	struct wp_counts c = { 0, 0, 0, 0 };
	struct vg_p256_pub pub;
	size_t g, i, plen;
	unsigned s;

	groups = json_object_object_get(root, "testGroups");
	for (s = 0; s < nksets; s++)
		for (g = 0; g < json_object_array_length(groups); g++) {
			json_object *grp = json_object_array_get_idx(groups, g);
			uint8_t *q;

			assert_string_equal(wp_str(grp, "sha"), "SHA-256");
			pk = json_object_object_get(grp, "publicKey");
			assert_string_equal(wp_str(pk, "curve"), "secp256r1");
			q = wp_unhex(wp_str(pk, "uncompressed"), &plen);
			assert_int_equal(vg_p256_pub_decode_k(&ksets[s].k.p256,
			    &pub, q, plen), VG_OK);
			free(q);
			tests = json_object_object_get(grp, "tests");
			for (i = 0; i < json_object_array_length(tests); i++) {
				json_object *t =
				    json_object_array_get_idx(tests, i);
				int want = wp_expected(t, &c);

				check_outcome(file, &ksets[s], t, want,
				    ecdsa_one(&ksets[s], &pub, der, t), &c);
			}
		}
	report(file, &c);
	assert_int_equal(c.valid + c.invalid + c.acceptable,
	    nksets * (unsigned)json_object_get_int(
	    json_object_object_get(root, "numberOfTests")));
	json_object_put(root);
}

static void
test_ecdsa_der(void **state)
{
	(void)state;
	run_ecdsa("ecdsa_secp256r1_sha256_test.json", 1);
}

static void
test_ecdsa_p1363(void **state)
{
	(void)state;
	run_ecdsa("ecdsa_secp256r1_sha256_p1363_test.json", 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ecdh_ecpoint),
		cmocka_unit_test(test_ecdh_spki),
		cmocka_unit_test(test_ecdsa_der),
		cmocka_unit_test(test_ecdsa_p1363),
	};
	static const char *const files[] = {
		"ecdh_secp256r1_ecpoint_test.json",
		"ecdh_secp256r1_test.json",
		"ecdsa_secp256r1_sha256_test.json",
		"ecdsa_secp256r1_sha256_p1363_test.json",
	};
	int rc = wp_init(files, sizeof(files) / sizeof(files[0]));

	if (rc != 0)
		return rc;
	/* the global table first, then the portable twins if they differ */
	ksets[0].k = *vg_kernels();
	ksets[0].name = ksets[0].k.p256.impl;
	nksets = 1;
	if (strcmp(ksets[0].k.p256.impl, "c") != 0 ||
	    strcmp(ksets[0].k.p256.select_impl, "c") != 0) {
		vg_kernels_fill(&ksets[1].k, 0);
		ksets[1].name = "c";
		nksets = 2;
	}
	printf("# kernel sets: %s/%s%s\n", ksets[0].k.p256.impl,
	    ksets[0].k.p256.select_impl, nksets == 2 ? " and c/c" : "");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
