/*
 * Certificates for the PKCS#11 tests (tests/p11/cert_common.c), made by
 * OpenSSL.
 */
#ifndef VG_TESTS_CERT_COMMON_H
#define VG_TESTS_CERT_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* A self-signed P-256 X.509 certificate for CN=cn, DER, valid for a day
 * (free with OPENSSL_free); fails the test on an OpenSSL error. */
uint8_t *p11_cert_der(const char *cn, size_t *len);

#endif
