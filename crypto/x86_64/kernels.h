/*
 * x86-64 kernels. Each has the contract of its portable twin in
 * crypto/cpu.h and is only called when vg_kernels() selected it, that is
 * when the CPU has (and VG_CPU_FEATURES allows) the features named beside
 * it. Code is compiled with per-function target attributes; the library as
 * a whole is never built for an instruction set beyond the x86-64 baseline.
 */
#ifndef VG_CRYPTO_X86_64_KERNELS_H
#define VG_CRYPTO_X86_64_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#define VG_HAVE_X86_64_KERNELS 1

struct vg_aes_key;
struct vg_ghash_key;

/* SHA-NI (and SSE4.1, which every SHA-NI CPU has). */
void vg_sha1_blocks_shani(uint32_t st[5], const uint8_t *in, size_t nblocks);
void vg_sha256_blocks_shani(uint32_t st[8], const uint8_t *in,
    size_t nblocks);

/* AVX2 (the message schedule) and BMI1/BMI2 (the rounds: rorx, andn). */
void vg_sha512_blocks_avx2(uint64_t st[8], const uint8_t *in,
    size_t nblocks);

/* AES-NI. */
int vg_aes_setkey_aesni(struct vg_aes_key *k, const uint8_t *key,
    size_t len);
void vg_aes_encrypt_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks);
void vg_aes_decrypt_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks);

/* AES-NI (and SSE4.1): the modes, eight blocks in flight. */
void vg_aes_ctr32_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16]);
void vg_aes_cbc_dec_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16]);
void vg_aes_cbc_enc_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16]);
void vg_aes_cbc_mac_aesni(const struct vg_aes_key *k, uint8_t x[16],
    const uint8_t *in, size_t nblocks);

/* AES-NI and PCLMULQDQ: GCM encryption, stitched. */
void vg_aes_gcm_enc_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16], uint8_t y[16]);

/* VAES with AVX2 (and AES-NI, whose kernels take the tails). */
void vg_aes_ctr32_vaes256(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16]);
void vg_aes_cbc_dec_vaes256(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16]);

/* VAES with AVX512F and AVX512BW: the modes, four blocks per register. */
void vg_aes_ctr32_vaes512(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16]);
void vg_aes_cbc_dec_vaes512(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16]);

/* BMI1 and BMI2 (andn, rorx). */
void vg_keccakf1600_bmi2(uint64_t st[25]);

/* PCLMULQDQ. */
void vg_ghash_pclmul(uint8_t y[16], const uint8_t h[16], const uint8_t *in,
    size_t nblocks);
void vg_ghash_init_pclmul(struct vg_ghash_key *gk, const uint8_t h[16]);
void vg_ghash_update_pclmul(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks);

/* VPCLMULQDQ with AVX2 (and PCLMULQDQ; keys from vg_ghash_init_pclmul). */
void vg_ghash_update_vpclmul256(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks);

/* VPCLMULQDQ with AVX512F and AVX512BW (keys from vg_ghash_init_pclmul). */
void vg_ghash_update_vpclmul512(uint8_t y[16], const struct vg_ghash_key *gk,
    const uint8_t *in, size_t nblocks);

#endif
#endif
