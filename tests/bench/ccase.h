/*
 * The operations of the crypto and callgrind modes of vgtoken-bench: one
 * table of cases (ccases.c), each with set-up, run and tear-down function
 * pointers for vgtoken's crypto layer and, where there is one, for
 * OpenSSL's libcrypto. Keys and inputs are made in set-up, outside every
 * timed loop, on both sides (as `openssl speed` does), so that both sides
 * measure the operation and not its preparation.
 *
 * Adding an operation (RSA, P-256, ML-DSA as they land in crypto/) is one
 * row in crypto_cases[] and its functions:
 *
 *   { "RSA-2048 private (CRT)", CC_PRIM, 2048, 0, 2048, 0,
 *     rsa_setup, rsa_teardown, rsa_priv_vg, rsa_priv_ossl,
 *     NULL, NULL, impl_rsa },
 *
 * A case without an OpenSSL peer (ML-DSA on Debian 12's OpenSSL 3.0) sets
 * run_ossl to NULL: the crypto mode then compares vgtoken's chosen kernels
 * with its own portable path (a re-executed copy of the benchmark with
 * VG_CPU_FEATURES=none). Per-case state that does not fit struct cstate
 * goes behind cstate.extra, allocated by set-up and freed by tear-down.
 */
#ifndef VG_TESTS_BENCH_CCASE_H
#define VG_TESTS_BENCH_CCASE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "crypto/crypto.h"

struct ccase;

/* The state of one case while it runs. */
struct cstate {
	const struct ccase *c;
	unsigned long param; /* bytes per operation, or iterations */
	uint8_t *in, *out;
	uint8_t key[32], iv[12], aad[16], tag[16], salt[16], h[16];
	uint64_t st[25];
	struct vg_aes_key ak;     /* scheduled by the global kernel table */
	struct vg_aes_key kak[2]; /* kernel rows: per side's table */
	EVP_MD *md;
	EVP_MD_CTX *mctx;
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *cctx;
	void *extra;
};

enum ccase_kind {
	CC_PRIM,   /* a crypto/ primitive, through the global dispatch */
	CC_KERNEL, /* one kernel, through a table from vg_kernels_fill() */
};

struct ccase {
	const char *name;
	enum ccase_kind kind;
	/* Bytes per operation (bytes != 0: throughput is printed) or a
	 * count such as PBKDF2 iterations; 0 takes --pbkdf2-iterations. */
	unsigned long param;
	int bytes;
	/* The parameter and operation count of the callgrind workload
	 * (0: param, and --iters operations). */
	unsigned long cg_param;
	unsigned long cg_ops;

	/* Returns 0, or -1 when the case cannot run here. */
	int (*setup)(struct cstate *s);
	void (*teardown)(struct cstate *s);
	/* One operation; 0 or -1 on failure. */
	int (*run_vg)(struct cstate *s);
	int (*run_ossl)(struct cstate *s); /* NULL: no OpenSSL peer */

	/* CC_KERNEL: prepare per-side state for a table, and run one
	 * operation through it (side is 0 or 1). */
	int (*setup_k)(struct cstate *s, const struct vg_kernels *k, int side);
	int (*run_k)(struct cstate *s, const struct vg_kernels *k, int side);

	/* Writes the name of the kernels this case runs in table k ("shani",
	 * "aesni+pclmul"): the cases whose name differs between two tables
	 * are different variants. */
	void (*impl)(const struct vg_kernels *k, char *buf, size_t n);
};

/* RSA and ML-DSA rows (ccases_pk.c): param is the modulus size in bits
 * or the ML-DSA parameter set (44, 65, 87). */
int bench_rsa_setup(struct cstate *s);
void bench_rsa_teardown(struct cstate *s);
int bench_rsa_priv_vg(struct cstate *s);
int bench_rsa_priv_ossl(struct cstate *s);
int bench_rsa_sign_vg(struct cstate *s);
int bench_rsa_sign_ossl(struct cstate *s);
int bench_rsa_pss_vg(struct cstate *s);
int bench_rsa_pss_ossl(struct cstate *s);
int bench_rsa_verify_vg(struct cstate *s);
int bench_rsa_verify_ossl(struct cstate *s);
int bench_rsa_oaep_vg(struct cstate *s);
int bench_rsa_oaep_ossl(struct cstate *s);
int bench_rsa_keygen_vg(struct cstate *s);
int bench_rsa_keygen_ossl(struct cstate *s);
int bench_rsa_cold_vg(struct cstate *s);
int bench_rsa_cold_ossl(struct cstate *s);
void bench_impl_rsa(const struct vg_kernels *k, char *buf, size_t n);
int bench_mldsa_setup(struct cstate *s);
void bench_mldsa_teardown(struct cstate *s);
int bench_mldsa_keygen_vg(struct cstate *s);
int bench_mldsa_sign_vg(struct cstate *s);
int bench_mldsa_verify_vg(struct cstate *s);
/* hedged: a fresh rnd per signature; expanded: from the expanded key
 * (vg_mldsa_sign_expanded, as C_Sign signs), hedged too */
int bench_mldsa_sign_hedged_vg(struct cstate *s);
int bench_mldsa_sign_expanded_vg(struct cstate *s);
int bench_mldsa_verify_expanded_vg(struct cstate *s);
void bench_impl_mldsa(const struct vg_kernels *k, char *buf, size_t n);
/* ML-KEM rows (ccases_mlkem.c): param is 512, 768 or 1024 */
int bench_mlkem_setup(struct cstate *s);
void bench_mlkem_teardown(struct cstate *s);
int bench_mlkem_keygen_vg(struct cstate *s);
int bench_mlkem_encaps_vg(struct cstate *s);
int bench_mlkem_decaps_vg(struct cstate *s);
int bench_mlkem_encaps_expanded_vg(struct cstate *s);
int bench_mlkem_decaps_expanded_vg(struct cstate *s);
void bench_impl_mlkem(const struct vg_kernels *k, char *buf, size_t n);

/* X25519 and Ed25519 rows (ccases_c25519.c): fixed keys on both sides;
 * Ed25519 signs and verifies a 32-byte message. */
int bench_c25519_setup(struct cstate *s);
void bench_c25519_teardown(struct cstate *s);
int bench_x25519_vg(struct cstate *s);
int bench_x25519_ossl(struct cstate *s);
int bench_ed25519_keygen_vg(struct cstate *s);
int bench_ed25519_keygen_ossl(struct cstate *s);
int bench_ed25519_sign_vg(struct cstate *s);
int bench_ed25519_sign_ossl(struct cstate *s);
int bench_ed25519_verify_vg(struct cstate *s);
int bench_ed25519_verify_ossl(struct cstate *s);
void bench_impl_c25519(const struct vg_kernels *k, char *buf, size_t n);
void bench_impl_ed25519(const struct vg_kernels *k, char *buf, size_t n);

/* Symmetric rows (ccases_sym.c): param is the bytes per operation; s->h
 * is the IV or counter block. Set-up checks that both sides agree. */
int bench_gcm_dec_setup(struct cstate *s);
int bench_gcm_dec_vg(struct cstate *s);
int bench_gcm_dec_ossl(struct cstate *s);
int bench_ctr_setup(struct cstate *s);
int bench_ctr_vg(struct cstate *s);
int bench_ctr_ossl(struct cstate *s);
int bench_cbc_dec_setup(struct cstate *s);
int bench_cbc_dec_vg(struct cstate *s);
int bench_cbc_dec_ossl(struct cstate *s);
int bench_cmac_setup(struct cstate *s);
int bench_cmac_vg(struct cstate *s);
int bench_cmac_ossl(struct cstate *s);
int bench_kw_setup(struct cstate *s);
int bench_kw_vg(struct cstate *s);
int bench_kw_ossl(struct cstate *s);
int bench_sha512_256_setup(struct cstate *s);
int bench_sha512_256_vg(struct cstate *s);
int bench_sha512_256_ossl(struct cstate *s);
void bench_sym_teardown(struct cstate *s);
void bench_impl_aes_modes(const struct vg_kernels *k, char *buf, size_t n);

extern const struct ccase crypto_cases[];
extern const size_t crypto_ncases;

/* The parameter a case runs with (resolves param 0 to the PBKDF2
 * iterations of the options). */
unsigned long ccase_param(const struct ccase *c, int callgrind);

/* "SHA-256 16 KiB", "PBKDF2-HMAC-SHA-256 600000 iterations". */
void ccase_label(const struct ccase *c, unsigned long param, char *buf,
    size_t n);

/* Set-up and tear-down of a case's state with the given parameter. */
int cstate_setup(struct cstate *s, const struct ccase *c,
    unsigned long param);
void cstate_teardown(struct cstate *s);

/* Readable names of kernel implementations: "c" -> "portable", "shani"
 * -> "SHA-NI", "aesni+pclmul" -> "AES-NI+PCLMUL". */
void impl_display(const char *impl, char *buf, size_t n);

#endif
