/*
 * What the NIST PQC known-answer generators (PQCgenKAT_kem.c,
 * PQCgenKAT_sign.c, with rng.c) need from a test that regenerates their
 * .rsp files in memory: NIST's AES256_CTR_DRBG randombytes, and a writer
 * that formats the file exactly as the generators do and hashes it with
 * SHA-256 (libcrypto) instead of storing it. Include <stdarg.h>,
 * <stddef.h>, <setjmp.h> and <cmocka.h> first: a libcrypto failure fails
 * the test.
 */
#ifndef VG_TESTS_KAT_NISTKAT_H
#define VG_TESTS_KAT_NISTKAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>

/* AES256_CTR_DRBG of rng.c: no derivation function, no reseeding,
 * 48-byte seed material. */
struct nist_drbg {
	uint8_t key[32], v[16];
};

/* randombytes_init(entropy, NULL, 256) */
void nist_drbg_init(struct nist_drbg *d, const uint8_t entropy[48]);

/* randombytes(x, n): one call, then the state update. Two calls of 32
 * bytes do not give the bytes of one call of 64. */
void nist_drbg_bytes(struct nist_drbg *d, uint8_t *x, size_t n);

/*
 * The .rsp file as a set of SHA-256 hashes: hash 0 takes the whole file;
 * hashes 1 .. NIST_RSP_HASHES-1 take what is written while their bit is
 * set in on (bit i for hash i), so that a test can also hash the parts
 * that others publish hashes of (the first record alone, say). When copy
 * is not NULL, the file is also written there.
 */
#define NIST_RSP_HASHES 3

struct nist_rsp {
	EVP_MD_CTX *h[NIST_RSP_HASHES];
	unsigned on;
	FILE *copy;
};

/* Hashes started, on 0, copy NULL. */
void nist_rsp_init(struct nist_rsp *r);

/* fprintf: at most 127 bytes per call */
void nist_rsp_put(struct nist_rsp *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* fprintBstr: the label, upper-case hex ("00" for no bytes), newline */
void nist_rsp_hex(struct nist_rsp *r, const char *label, const uint8_t *a,
    size_t n);

/* Finishes every hash and frees r: hex[i] receives hash i in lower-case
 * hex, as sha256sum prints it. */
void nist_rsp_final(struct nist_rsp *r, char hex[NIST_RSP_HASHES][65]);

#endif
