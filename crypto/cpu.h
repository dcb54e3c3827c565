/*
 * CPU features and the kernel dispatch table.
 *
 * crypto/cpu.c probes the CPU once (CPUID and XGETBV), masks what it found
 * with the environment variable VG_CPU_FEATURES, and fills one write-once
 * table of kernel pointers under pthread_once. Every kernel has a portable
 * twin with the suffix _c and the same contract; those twins are declared
 * here, the instruction-set variants in crypto/x86_64/kernels.h.
 *
 * VG_CPU_FEATURES: unset means "everything the CPU has"; "none" forces the
 * portable code; otherwise a comma-separated list of the names below, of
 * which only those the CPU also has are used. Unknown names are ignored and
 * reported by vg_cpu_mask_unknown() (vgtoken-util --cpu prints them).
 */
#ifndef VG_CRYPTO_CPU_H
#define VG_CRYPTO_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/c25519_kernels.h"
#include "crypto/mldsa_kernels.h"
#include "crypto/p256_kernels.h"
#include "crypto/rsa_kernels.h"

enum vg_cpu_feature {
	VG_CPU_AVX = 1u << 0,
	VG_CPU_AVX2 = 1u << 1,
	VG_CPU_BMI2 = 1u << 2,
	VG_CPU_ADX = 1u << 3,
	VG_CPU_AVX512F = 1u << 4,
	VG_CPU_AVX512VL = 1u << 5,
	VG_CPU_AVX512IFMA = 1u << 6,
	VG_CPU_AESNI = 1u << 7,
	VG_CPU_PCLMUL = 1u << 8,
	VG_CPU_SHANI = 1u << 9,
	VG_CPU_VAES = 1u << 10,
	VG_CPU_VPCLMUL = 1u << 11,
	VG_CPU_AVX512BW = 1u << 12,
};
#define VG_CPU_FEATURE_COUNT 13

/* Name of feature bit i (0 <= i < VG_CPU_FEATURE_COUNT), as VG_CPU_FEATURES
 * spells it. */
const char *vg_cpu_feature_name(unsigned i);

/* Features the CPU and the operating system support (no mask applied). */
unsigned vg_cpu_detected(void);

/* Parses a VG_CPU_FEATURES value. Returns the mask; a NULL string means no
 * mask (all bits). Counts names it did not recognise in *unknown when
 * unknown is non-NULL. */
unsigned vg_cpu_parse_mask(const char *spec, unsigned *unknown);

/* Features in use: vg_cpu_detected() masked by VG_CPU_FEATURES. */
unsigned vg_cpu_features(void);

/* Number of unrecognised names in VG_CPU_FEATURES. */
unsigned vg_cpu_mask_unknown(void);

struct vg_aes_key;
struct vg_ghash_key;

/*
 * The kernel table. Each entry names the implementation it points to
 * ("c", "shani", "aesni", ...), for vgtoken-util --cpu and the tests.
 */
struct vg_kernels {
	unsigned features;

	/* Compress nblocks 64-byte blocks into the SHA-1 / SHA-256 state;
	 * nblocks 128-byte blocks for SHA-512. */
	void (*sha1_blocks)(uint32_t st[5], const uint8_t *in, size_t nblocks);
	void (*sha256_blocks)(uint32_t st[8], const uint8_t *in, size_t nblocks);
	void (*sha512_blocks)(uint64_t st[8], const uint8_t *in, size_t nblocks);
	/* Keccak-f[1600] permutation, lanes in host (little-endian) order. */
	void (*keccakf1600)(uint64_t st[25]);

	/* AES key schedule (encryption and decryption), len 16, 24 or 32.
	 * Returns 0, or -1 for a bad length. CT: only len is observable. */
	int (*aes_setkey)(struct vg_aes_key *k, const uint8_t *key, size_t len);
	/* ECB on nblocks 16-byte blocks; in and out may be equal.
	 * CT: only nblocks is observable. */
	void (*aes_encrypt)(const struct vg_aes_key *k, uint8_t *out,
	    const uint8_t *in, size_t nblocks);
	void (*aes_decrypt)(const struct vg_aes_key *k, uint8_t *out,
	    const uint8_t *in, size_t nblocks);
	/* GHASH: y = (y xor X_i) * h over nblocks 16-byte blocks in, in
	 * GCM's bit order. CT: only nblocks is observable. */
	void (*ghash)(uint8_t y[16], const uint8_t h[16], const uint8_t *in,
	    size_t nblocks);
	/* CTR with GCM's inc32: out = in ^ E(cb), E(inc32(cb)), ... over
	 * nblocks blocks, and cb advanced by nblocks (the low 32 bits, big
	 * endian, wrap). in == out allowed. CT: only nblocks is observable
	 * (cb may be secret). */
	void (*aes_ctr32)(const struct vg_aes_key *k, uint8_t *out,
	    const uint8_t *in, size_t nblocks, uint8_t cb[16]);
	/* CBC decryption of nblocks blocks with the chaining value iv,
	 * which is updated to the last ciphertext block. in == out allowed;
	 * other overlaps not. CT: only nblocks is observable. */
	void (*aes_cbc_dec)(const struct vg_aes_key *k, uint8_t *out,
	    const uint8_t *in, size_t nblocks, uint8_t iv[16]);
	/* CBC encryption of nblocks blocks with the chaining value iv
	 * (updated to the last ciphertext block), in == out allowed; and
	 * CBC-MAC: x = E(x ^ block) over nblocks blocks. Serial, so one
	 * block at a time in registers. CT: only nblocks is observable. */
	void (*aes_cbc_enc)(const struct vg_aes_key *k, uint8_t *out,
	    const uint8_t *in, size_t nblocks, uint8_t iv[16]);
	void (*aes_cbc_mac)(const struct vg_aes_key *k, uint8_t x[16],
	    const uint8_t *in, size_t nblocks);
	/* GCM encryption of whole blocks: aes_ctr32 from cb, then the
	 * ciphertext hashed into y with the key's hash key (k->gh), in one
	 * pass. NULL where the table runs the two kernels apart (faster
	 * with the wide VAES/VPCLMULQDQ forms). in == out allowed.
	 * CT: only nblocks is observable. */
	void (*aes_gcm_enc)(const struct vg_aes_key *k, uint8_t *out,
	    const uint8_t *in, size_t nblocks, uint8_t cb[16], uint8_t y[16]);
	/* GHASH with a precomputed key: ghash_init expands H into *gk (the
	 * layout is the kernel's), ghash_update is ghash with it. Keys made
	 * by one table's ghash_init are used with the same table's
	 * ghash_update. CT: only nblocks is observable. */
	void (*ghash_init)(struct vg_ghash_key *gk, const uint8_t h[16]);
	void (*ghash_update)(uint8_t y[16], const struct vg_ghash_key *gk,
	    const uint8_t *in, size_t nblocks);

	/* Families with several kernels keep them in their own sub-table. */
	struct vg_rsa_kernels rsa;
	struct vg_p256_kernels p256;
	struct vg_mldsa_kernels mldsa;
	struct vg_c25519_kernels c25519;

	const char *sha1_impl;
	const char *sha256_impl;
	const char *sha512_impl;
	const char *keccak_impl;
	const char *aes_impl;
	const char *ghash_impl;
	const char *aes_modes_impl; /* aes_ctr32 and aes_cbc_dec (aes_cbc_enc
				     * and aes_cbc_mac follow aes_impl) */
	const char *ghash_update_impl;
};

/* The process-wide table (filled on first call, thread-safe). */
const struct vg_kernels *vg_kernels(void);

/* Fills *k for the given feature set (a subset of what the CPU has). Used
 * for the global table and by tests and benchmarks that compare variants. */
void vg_kernels_fill(struct vg_kernels *k, unsigned features);

/* Portable twins. */
void vg_sha1_blocks_c(uint32_t st[5], const uint8_t *in, size_t nblocks);
void vg_sha256_blocks_c(uint32_t st[8], const uint8_t *in, size_t nblocks);
void vg_sha512_blocks_c(uint64_t st[8], const uint8_t *in, size_t nblocks);
void vg_keccakf1600_c(uint64_t st[25]);
int vg_aes_setkey_c(struct vg_aes_key *k, const uint8_t *key, size_t len);
void vg_aes_encrypt_c(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks);
void vg_aes_decrypt_c(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks);
void vg_ghash_c(uint8_t y[16], const uint8_t h[16], const uint8_t *in,
    size_t nblocks);
/* crypto/aes_modes_c.c: the modes on vg_aes_encrypt_c / vg_aes_decrypt_c
 * and GHASH on vg_ghash_c (the key holds H only). */
void vg_aes_ctr32_c(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16]);
void vg_aes_cbc_dec_c(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16]);
void vg_aes_cbc_enc_c(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16]);
void vg_aes_cbc_mac_c(const struct vg_aes_key *k, uint8_t x[16],
    const uint8_t *in, size_t nblocks);
void vg_ghash_init_c(struct vg_ghash_key *gk, const uint8_t h[16]);
void vg_ghash_update_c(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks);

#endif
