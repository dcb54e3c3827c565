/*
 * NIST's randombytes and the .rsp writer of the PQC known-answer tests
 * (see nistkat.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "tests/kat/nistkat.h"

/* ------------------------------------------------ NIST's randombytes */

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

/* see nistkat.h */
void
nist_drbg_init(struct nist_drbg *d, const uint8_t entropy[48])
{
	memset(d, 0, sizeof(*d));
	drbg_update(d, entropy);
}

/* see nistkat.h */
void
nist_drbg_bytes(struct nist_drbg *d, uint8_t *x, size_t n)
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

/* see nistkat.h */
void
nist_rsp_init(struct nist_rsp *r)
{
	unsigned i;

	for (i = 0; i < NIST_RSP_HASHES; i++) {
		r->h[i] = EVP_MD_CTX_new();
		assert_non_null(r->h[i]);
		assert_int_equal(EVP_DigestInit_ex(r->h[i], EVP_sha256(),
		    NULL), 1);
	}
	r->on = 0;
	r->copy = NULL;
}

static void
out(struct nist_rsp *r, const void *p, size_t n)
{
	unsigned i;

	for (i = 0; i < NIST_RSP_HASHES; i++)
		if (i == 0 || (r->on >> i & 1) != 0)
			assert_int_equal(EVP_DigestUpdate(r->h[i], p, n), 1);
	if (r->copy != NULL)
		assert_int_equal(fwrite(p, 1, n, r->copy), n);
}

/* see nistkat.h */
void
nist_rsp_put(struct nist_rsp *r, const char *fmt, ...)
{
	char line[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(line));
	out(r, line, (size_t)n);
}

/* see nistkat.h */
void
nist_rsp_hex(struct nist_rsp *r, const char *label, const uint8_t *a,
    size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	char buf[256];
	size_t i, k = 0;

	nist_rsp_put(r, "%s", label);
	for (i = 0; i < n; i++) {
		buf[k++] = hex[a[i] >> 4];
		buf[k++] = hex[a[i] & 15];
		if (k == sizeof(buf)) {
			out(r, buf, k);
			k = 0;
		}
	}
	if (n == 0)
		buf[k++] = '0', buf[k++] = '0';
	buf[k++] = '\n';
	out(r, buf, k);
}

/* see nistkat.h */
void
nist_rsp_final(struct nist_rsp *r, char hex[NIST_RSP_HASHES][65])
{
	uint8_t d[32];
	unsigned int dlen, i, j;

	for (i = 0; i < NIST_RSP_HASHES; i++) {
		assert_int_equal(EVP_DigestFinal_ex(r->h[i], d, &dlen), 1);
		assert_int_equal(dlen, 32);
		for (j = 0; j < 32; j++)
			snprintf(hex[i] + 2 * j, 3, "%02x", d[j]);
		EVP_MD_CTX_free(r->h[i]);
		r->h[i] = NULL;
	}
}
