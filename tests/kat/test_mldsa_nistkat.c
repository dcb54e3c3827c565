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

#include <openssl/evp.h>

#include "crypto/cpu.h"
#include "crypto/mldsa.h"

/* ------------------------------------------------ NIST's randombytes */

/* AES256_CTR_DRBG of the NIST PQC KAT generator (rng.c): no derivation
 * function, no reseeding, 48-byte seed material. */
struct nist_drbg {
	uint8_t key[32], v[16];
};

static void
aes256_ecb(const uint8_t key[32], const uint8_t in[16], uint8_t out[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int len;

	assert_non_null(c);
	assert_int_equal(EVP_EncryptInit_ex(c, EVP_aes_256_ecb(), NULL, key,
	    NULL), 1);
	assert_int_equal(EVP_EncryptUpdate(c, out, &len, in, 16), 1);
	EVP_CIPHER_CTX_free(c);
}

static void
inc_v(uint8_t v[16])
{
	int j;

	for (j = 15; j >= 0; j--)
		if (++v[j] != 0)
			break;
}

static void
drbg_update(struct nist_drbg *d, const uint8_t *provided)
{
	uint8_t t[48];
	unsigned i;

	for (i = 0; i < 3; i++) {
		inc_v(d->v);
		aes256_ecb(d->key, d->v, t + 16 * i);
	}
	if (provided != NULL)
		for (i = 0; i < 48; i++)
			t[i] ^= provided[i];
	memcpy(d->key, t, 32);
	memcpy(d->v, t + 32, 16);
}

static void
drbg_init(struct nist_drbg *d, const uint8_t entropy[48])
{
	memset(d, 0, sizeof(*d));
	drbg_update(d, entropy);
}

static void
drbg_bytes(struct nist_drbg *d, uint8_t *x, size_t n)
{
	uint8_t blk[16];

	while (n > 0) {
		size_t k = n < 16 ? n : 16;

		inc_v(d->v);
		aes256_ecb(d->key, d->v, blk);
		memcpy(x, blk, k);
		x += k;
		n -= k;
	}
	drbg_update(d, NULL);
}

/* ------------------------------------------------ the .rsp file */

/* The file's hash, and the first record's while rec0 is set. */
static EVP_MD_CTX *h_rec0;
static int rec0;

static void
hash_out(EVP_MD_CTX *h, const void *p, size_t n)
{
	assert_int_equal(EVP_DigestUpdate(h, p, n), 1);
	if (rec0)
		assert_int_equal(EVP_DigestUpdate(h_rec0, p, n), 1);
}

static void
put(EVP_MD_CTX *h, const char *fmt, ...)
{
	char line[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(line));
	hash_out(h, line, (size_t)n);
}

/* fprintBstr: label, upper-case hex ("00" for no bytes), newline */
static void
put_hex(EVP_MD_CTX *h, const char *label, const uint8_t *a, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	char buf[256];
	size_t i, k = 0;

	put(h, "%s", label);
	for (i = 0; i < n; i++) {
		buf[k++] = hex[a[i] >> 4];
		buf[k++] = hex[a[i] & 15];
		if (k == sizeof(buf)) {
			hash_out(h, buf, k);
			k = 0;
		}
	}
	if (n == 0)
		buf[k++] = '0', buf[k++] = '0';
	buf[k++] = '\n';
	hash_out(h, buf, k);
}

static void
hex32(char out[65], const uint8_t d[32])
{
	unsigned i;

	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void
run(enum vg_mldsa_param p, const char *name, const char *want_meta,
    const char *want_file)
{
	uint8_t seeds[100][48], entropy[48], xi[32], rnd[32], digest[32];
	uint8_t pk[VG_MLDSA_MAX_PK_LEN], sk[VG_MLDSA_MAX_SK_LEN];
	uint8_t *msg, *sm;
	size_t pklen = vg_mldsa_pk_len(p), sklen = vg_mldsa_sk_len(p);
	size_t siglen = vg_mldsa_sig_len(p);
	struct vg_kernels k[2];
	unsigned nk = 1, ki, i;
	char got[65], got0[65];

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
		EVP_MD_CTX *h = EVP_MD_CTX_new();
		unsigned int dlen;
		size_t off = 0;

		h_rec0 = EVP_MD_CTX_new();
		assert_non_null(h);
		assert_non_null(h_rec0);
		assert_int_equal(EVP_DigestInit_ex(h, EVP_sha256(), NULL), 1);
		assert_int_equal(EVP_DigestInit_ex(h_rec0, EVP_sha256(), NULL),
		    1);
		for (i = 0; i < 48; i++)
			entropy[i] = (uint8_t)i;
		drbg_init(&d, entropy);
		/* the request file: 100 seeds, each with its message */
		for (i = 0; i < 100; i++) {
			drbg_bytes(&d, seeds[i], 48);
			drbg_bytes(&d, msg + off, 33 * (i + 1));
			off += 33 * (i + 1);
		}
		put(h, "# %s\n\n", name);
		for (i = 0, off = 0; i < 100; off += 33 * (i + 1), i++) {
			size_t mlen = 33 * (i + 1);
			const uint8_t *m1 = msg + off;
			uint8_t mu[VG_MLDSA_MU_LEN];
			struct vg_mldsa_mu m;

			rec0 = i == 0;
			put(h, "count = %u\n", i);
			put_hex(h, "seed = ", seeds[i], 48);
			put(h, "mlen = %zu\n", mlen);
			put_hex(h, "msg = ", m1, mlen);
			/* the response: keypair draws xi, signing draws rnd */
			drbg_init(&d, seeds[i]);
			drbg_bytes(&d, xi, 32);
			assert_int_equal(vg_mldsa_keygen_internal_k(km, p, xi,
			    pk, sk), VG_OK);
			put_hex(h, "pk = ", pk, pklen);
			put_hex(h, "sk = ", sk, sklen);
			drbg_bytes(&d, rnd, 32);
			assert_int_equal(vg_mldsa_mu_init(&m, sk + 64, NULL, 0),
			    VG_OK);
			vg_mldsa_mu_update(&m, m1, mlen);
			vg_mldsa_mu_final(&m, mu);
			assert_int_equal(vg_mldsa_sign_mu_k(km, p, sk, sklen, mu,
			    rnd, sm), VG_OK);
			memcpy(sm + siglen, m1, mlen);
			put(h, "smlen = %zu\n", siglen + mlen);
			put_hex(h, "sm = ", sm, siglen + mlen);
			rec0 = 0;
			put(h, "\n");
			assert_int_equal(vg_mldsa_verify_mu_k(km, p, pk, pklen, mu,
			    sm, siglen), VG_OK);
		}
		assert_int_equal(EVP_DigestFinal_ex(h, digest, &dlen), 1);
		hex32(got, digest);
		assert_int_equal(EVP_DigestFinal_ex(h_rec0, digest, &dlen), 1);
		hex32(got0, digest);
		EVP_MD_CTX_free(h);
		EVP_MD_CTX_free(h_rec0);
		printf("# %s (%s kernels): first record %s, file %s\n", name,
		    km->impl, got0, got);
		assert_string_equal(got0, want_meta);
		assert_string_equal(got, want_file);
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
