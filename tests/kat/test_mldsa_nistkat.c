/*
 * ML-DSA against the known answers of the FIPS 204 reference
 * implementation (pq-crystals/dilithium, branch master): its NIST KAT
 * generator (ref/nistkat/PQCgenKAT_sign.c with NIST's AES-256-CTR
 * randombytes) writes 100 hedged signatures with an empty context per
 * parameter set. This test regenerates that .rsp file in memory, byte for
 * byte (the same DRBG, the same calls in the same order: xi for the key
 * pair, then rnd for the signature; the same text), with our key
 * generation and signing under every kernel set, verifies each signed
 * message, and compares two SHA-256 values:
 *
 *   - the nistkat-sha256 of Dilithium{2,3,5}_META.yml, which is the hash
 *     of the first record alone ("count = 0" up to the "sm = " line and
 *     its newline: the single-KAT form liboqs checks);
 *   - the hash of the whole file as the reference's generator writes it
 *     at commit 6e00625 (obtained by building and running it; the
 *     repository does not publish it).
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

#include "tests/kat/nistkat.h"

#include "crypto/cpu.h"
#include "crypto/mldsa.h"

static void
run(enum vg_mldsa_param p, const char *name, const char *want_meta,
    const char *want_file)
{
	uint8_t seeds[100][48], entropy[48], xi[32], rnd[32];
	uint8_t pk[VG_MLDSA_MAX_PK_LEN], sk[VG_MLDSA_MAX_SK_LEN];
	uint8_t *msg, *sm;
	size_t pklen = vg_mldsa_pk_len(p), sklen = vg_mldsa_sk_len(p);
	size_t siglen = vg_mldsa_sig_len(p);
	struct vg_kernels k[2];
	unsigned nk = 1, ki, i;
	char got[NIST_RSP_HASHES][65];

	vg_kernels_fill(&k[0], vg_cpu_features());
	if (strcmp(k[0].mldsa.impl, "c") != 0) {
		vg_kernels_fill(&k[1], 0);
		nk = 2;
	}
	/* all messages: 33 + 66 + ... + 3300 bytes */
	msg = malloc(33 * 5050);
	sm = malloc(siglen + 33 * 100);
	assert_non_null(msg);
	assert_non_null(sm);
	for (ki = 0; ki < nk; ki++) {
		const struct vg_mldsa_kernels *km = &k[ki].mldsa;
		struct nist_drbg d;
		struct nist_rsp r;
		size_t off = 0;

		/* hash 1: the first record */
		nist_rsp_init(&r);
		for (i = 0; i < 48; i++)
			entropy[i] = (uint8_t)i;
		nist_drbg_init(&d, entropy);
		/* the request file: 100 seeds, each with its message */
		for (i = 0; i < 100; i++) {
			nist_drbg_bytes(&d, seeds[i], 48);
			nist_drbg_bytes(&d, msg + off, 33 * (i + 1));
			off += 33 * (i + 1);
		}
		nist_rsp_put(&r, "# %s\n\n", name);
		for (i = 0, off = 0; i < 100; off += 33 * (i + 1), i++) {
			size_t mlen = 33 * (i + 1);
			const uint8_t *m1 = msg + off;
			uint8_t mu[VG_MLDSA_MU_LEN];
			struct vg_mldsa_mu m;

			r.on = i == 0 ? 2 : 0;
			nist_rsp_put(&r, "count = %u\n", i);
			nist_rsp_hex(&r, "seed = ", seeds[i], 48);
			nist_rsp_put(&r, "mlen = %zu\n", mlen);
			nist_rsp_hex(&r, "msg = ", m1, mlen);
			/* the response: keypair draws xi, signing draws rnd */
			nist_drbg_init(&d, seeds[i]);
			nist_drbg_bytes(&d, xi, 32);
			assert_int_equal(vg_mldsa_keygen_internal_k(km, p, xi,
			    pk, sk), VG_OK);
			nist_rsp_hex(&r, "pk = ", pk, pklen);
			nist_rsp_hex(&r, "sk = ", sk, sklen);
			nist_drbg_bytes(&d, rnd, 32);
			assert_int_equal(vg_mldsa_mu_init(&m, sk + 64, NULL, 0),
			    VG_OK);
			vg_mldsa_mu_update(&m, m1, mlen);
			vg_mldsa_mu_final(&m, mu);
			assert_int_equal(vg_mldsa_sign_mu_k(km, p, sk, sklen, mu,
			    rnd, sm), VG_OK);
			memcpy(sm + siglen, m1, mlen);
			nist_rsp_put(&r, "smlen = %zu\n", siglen + mlen);
			nist_rsp_hex(&r, "sm = ", sm, siglen + mlen);
			r.on = 0;
			nist_rsp_put(&r, "\n");
			assert_int_equal(vg_mldsa_verify_mu_k(km, p, pk, pklen, mu,
			    sm, siglen), VG_OK);
		}
		nist_rsp_final(&r, got);
		printf("# %s (%s kernels): first record %s, file %s\n", name,
		    km->impl, got[1], got[0]);
		assert_string_equal(got[1], want_meta);
		assert_string_equal(got[0], want_file);
	}
	free(msg);
	free(sm);
}

/* Dilithium{2,3,5}_META.yml nistkat-sha256, then the whole file */
static void
test_nistkat_44(void **state)
{
	(void)state;
	run(VG_MLDSA_44, "Dilithium2",
	    "9a196e7fb32fbc93757dc2d8dc1924460eab66303c0c08aeb8b798fb8d8f8cf3",
	    "1d29c3b4ec68e3455f87f49b3386a2a6fc5e167c76e476c4770317ffbb97d242");
}

static void
test_nistkat_65(void **state)
{
	(void)state;
	run(VG_MLDSA_65, "Dilithium3",
	    "7cb96242eac9907a55b5c84c202f0ebd552419c50b2e986dc2e28f07ecebf072",
	    "3c9427c9939788031cbaf2cdfa3e49c1e69ead5584516ad513567a4880fa64b6");
}

static void
test_nistkat_87(void **state)
{
	(void)state;
	run(VG_MLDSA_87, "Dilithium5",
	    "4537905d2aabcf302fab2f242baed293459ecda7c230e6a67063b02c7e2840ed",
	    "8f35a98d3672e89fe8b4d461ff62a145edfe972e515a9bccec248b7899b718ec");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nistkat_44),
		cmocka_unit_test(test_nistkat_65),
		cmocka_unit_test(test_nistkat_87),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
