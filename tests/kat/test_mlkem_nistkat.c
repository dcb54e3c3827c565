/*
 * ML-KEM against the known answers of the FIPS 203 reference
 * implementation (pq-crystals/kyber, branch main at commit 4768bd3, which
 * holds the final FIPS 203 code of its branch standard): its NIST KAT
 * generator (ref/nistkat/PQCgenKAT_kem.c with NIST's AES-256-CTR
 * randombytes) writes 100 records per parameter set: a key pair, one
 * encapsulation to it, and the shared secret. This test regenerates that
 * .rsp file in memory, byte for byte (the same DRBG, the same calls in
 * the same order: the 64 bytes d || z in one call for the key pair, then
 * m for the encapsulation; the same text, headed "# Kyber512" and so on
 * as the reference names its sets), with our KeyGen_internal and
 * Encaps_internal under every kernel set, checks that Decaps gives the
 * same shared secret, and compares three SHA-256 values:
 *
 *   - the nistkat-sha256 of PQClean's and mlkem-native's ML-KEM META.yml
 *     files, also liboqs's "single" value in tests/KATs/kem/kats.json:
 *     the hash of the first record alone ("count = 0" up to the "ss = "
 *     line and its newline);
 *   - liboqs's "all" value in the same file: the 100 records without the
 *     "# Kyber512" header and the blank line after it, and without the
 *     file's last newline (the form its kat_kem --all prints);
 *   - the hash of the whole file as the reference's generator writes it
 *     (obtained by building ref/ with "make nistkat" at that commit and
 *     running PQCgenKAT_kem512, 768 and 1024; the repository does not
 *     publish it).
 *
 * When a hash differs, the test names the first record on which the
 * kernel sets disagree (a kernel bug), or says that they agree (a bug in
 * the portable code or the test); with VG_NISTKAT_DIR set it also writes
 * each regenerated file there, to diff against the reference's.
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

#include <openssl/evp.h>

#include "tests/kat/nistkat.h"

#include "crypto/cpu.h"
#include "crypto/mlkem.h"
#include "tests/kat/mlkem_ksets.h"

#define RECORDS 100
static struct mlkem_kset ksets[MLKEM_MAX_KSETS];
static unsigned nksets;

/* The SHA-256 of each record, per kernel set, to find the first record on
 * which two sets disagree. */
static uint8_t rec_hash[MLKEM_MAX_KSETS][RECORDS][32];

static void
record_hash(struct nist_rsp *r, unsigned ks, unsigned i)
{
	/* hash 2 runs across every record; a copy of it at the end of a
	 * record identifies the records up to that one */
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int dlen;

	assert_non_null(c);
	assert_int_equal(EVP_MD_CTX_copy_ex(c, r->h[2]), 1);
	assert_int_equal(EVP_DigestFinal_ex(c, rec_hash[ks][i], &dlen), 1);
	EVP_MD_CTX_free(c);
}

/* Optionally the file itself, for diff: VG_NISTKAT_DIR/<dklen>.<set>.rsp */
static FILE *
open_copy(size_t dklen, const char *set)
{
	const char *dir = getenv("VG_NISTKAT_DIR");
	char path[512];
	FILE *f;

	if (dir == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/PQCkemKAT_%zu.%s.rsp", dir, dklen,
	    set);
	f = fopen(path, "w");
	if (f == NULL)
		printf("# cannot write %s\n", path);
	return f;
}

static void
run(enum vg_mlkem_param p, const char *name, const char *want_rec0,
    const char *want_all, const char *want_file)
{
	uint8_t seeds[RECORDS][48], entropy[48], coins[VG_MLKEM_SEED_LEN];
	uint8_t m[VG_MLKEM_M_LEN], ss[VG_MLKEM_SS_LEN], ss1[VG_MLKEM_SS_LEN];
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
	uint8_t ct[VG_MLKEM_MAX_CT_LEN];
	size_t eklen = vg_mlkem_ek_len(p), dklen = vg_mlkem_dk_len(p);
	size_t ctlen = vg_mlkem_ct_len(p);
	unsigned ks, i, bad = 0;

	for (ks = 0; ks < nksets; ks++) {
		const struct vg_mlkem_kernels *km = &ksets[ks].k.mlkem;
		struct nist_drbg d;
		struct nist_rsp r;
		char got[NIST_RSP_HASHES][65];
		FILE *copy = open_copy(dklen, ksets[ks].name);

		/* hash 1: the first record; hash 2: the records */
		nist_rsp_init(&r);
		r.copy = copy;
		for (i = 0; i < 48; i++)
			entropy[i] = (uint8_t)i;
		nist_drbg_init(&d, entropy);
		/* the request file: 100 seeds */
		for (i = 0; i < RECORDS; i++)
			nist_drbg_bytes(&d, seeds[i], 48);
		nist_rsp_put(&r, "# %s\n\n", name);
		for (i = 0; i < RECORDS; i++) {
			r.on = i == 0 ? 2 | 4 : 4;
			nist_rsp_put(&r, "count = %u\n", i);
			nist_rsp_hex(&r, "seed = ", seeds[i], 48);
			/* the response: the key pair draws d || z at once,
			 * the encapsulation m */
			nist_drbg_init(&d, seeds[i]);
			nist_drbg_bytes(&d, coins, sizeof(coins));
			assert_int_equal(vg_mlkem_keygen_internal_k(km, p, coins,
			    ek, dk), VG_OK);
			nist_rsp_hex(&r, "pk = ", ek, eklen);
			nist_rsp_hex(&r, "sk = ", dk, dklen);
			nist_drbg_bytes(&d, m, sizeof(m));
			assert_int_equal(vg_mlkem_encaps_internal_k(km, p, ek,
			    eklen, m, ct, ss), VG_OK);
			nist_rsp_hex(&r, "ct = ", ct, ctlen);
			nist_rsp_hex(&r, "ss = ", ss, sizeof(ss));
			record_hash(&r, ks, i);
			r.on = i + 1 < RECORDS ? 4 : 0;
			nist_rsp_put(&r, "\n");
			assert_int_equal(vg_mlkem_decaps_k(km, p, dk, dklen, ct,
			    ctlen, ss1), VG_OK);
			assert_memory_equal(ss1, ss, sizeof(ss));
		}
		nist_rsp_final(&r, got);
		if (copy != NULL)
			fclose(copy);
		printf("# %s (%s kernels): first record %s, records %s, "
		    "file %s\n", name, ksets[ks].name, got[1], got[2], got[0]);
		if (strcmp(got[1], want_rec0) != 0 ||
		    strcmp(got[2], want_all) != 0 ||
		    strcmp(got[0], want_file) != 0) {
			printf("# %s (%s kernels): want first record %s, "
			    "records %s, file %s\n", name, ksets[ks].name,
			    want_rec0, want_all, want_file);
			bad = 1;
		}
	}
	if (bad) {
		for (i = 0; i < RECORDS; i++)
			for (ks = 1; ks < nksets; ks++)
				if (memcmp(rec_hash[0][i], rec_hash[ks][i], 32)
				    != 0) {
					printf("# first difference between the "
					    "%s and %s kernels: count = %u\n",
					    ksets[0].name, ksets[ks].name, i);
					fail();
				}
		printf("# the kernel sets agree on every record; set "
		    "VG_NISTKAT_DIR to write the files and diff them against "
		    "the reference's\n");
		fail();
	}
}

/* The published first-record hash (META.yml, kats.json "single"), liboqs's
 * "all", then the reference's whole file. */
static void
test_nistkat_512(void **state)
{
	(void)state;
	run(VG_MLKEM_512, "Kyber512",
	    "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782",
	    "74b470e797cbdbd589a31d387d36c72aad5033446ab5159bf4014c24652b1173",
	    "a30184edee53b3b009356e1e31d7f9e93ce82550e3c622d7192e387b0cc84f2e");
}

static void
test_nistkat_768(void **state)
{
	(void)state;
	run(VG_MLKEM_768, "Kyber768",
	    "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3",
	    "e5d6911117c708d8342702db222f66bef5ac5b0314fb8bc36eb22a536c9b34fb",
	    "729367b590637f4a93c68d5e4a4d2e2b4454842a52c9eec503e3a0d24cb66471");
}

static void
test_nistkat_1024(void **state)
{
	(void)state;
	run(VG_MLKEM_1024, "Kyber1024",
	    "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6",
	    "81d1ae0468f62154885b6f2a293c0eb48f9339645357a88bbbc186c57ab0ace0",
	    "3fba7327d0320cb6134badf2a1bcb963a5b3c0026c7dece8f00d6a6155e47b33");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nistkat_512),
		cmocka_unit_test(test_nistkat_768),
		cmocka_unit_test(test_nistkat_1024),
	};

	nksets = mlkem_ksets_fill(ksets);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
