/* Certificates for the PKCS#11 tests: see cert_common.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "tests/p11/cert_common.h"

/* see tests/p11/cert_common.h */
uint8_t *
p11_cert_der(const char *cn, size_t *len)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *name;
	uint8_t *der = NULL;
	int n;

	assert_non_null(key);
	assert_non_null(x);
	assert_int_equal(X509_set_version(x, 2), 1);
	assert_int_equal(ASN1_INTEGER_set(X509_get_serialNumber(x), 7), 1);
	assert_non_null(X509_gmtime_adj(X509_getm_notBefore(x), 0));
	assert_non_null(X509_gmtime_adj(X509_getm_notAfter(x), 86400));
	name = X509_get_subject_name(x);
	assert_int_equal(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
	    (const uint8_t *)cn, -1, -1, 0), 1);
	assert_int_equal(X509_set_issuer_name(x, name), 1);
	assert_int_equal(X509_set_pubkey(x, key), 1);
	assert_true(X509_sign(x, key, EVP_sha256()) > 0);
	n = i2d_X509(x, &der);
	assert_true(n > 0);
	*len = (size_t)n;
	X509_free(x);
	EVP_PKEY_free(key);
	return der;
}
