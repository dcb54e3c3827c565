/*
 * vg_keccakx4_avx512vl: four Keccak-f[1600] permutations [FIPS 202 §3] at
 * once on 256-bit vectors, with the AVX-512VL instructions that suit
 * Keccak: vprolq rotates a lane in one instruction (AVX2 needs two
 * shifts and an OR), and vpternlogq computes the three-input XOR of theta
 * and chi's b0 ^ (~b1 & b2) in one. The round is
 * crypto/x86_64/keccakx4_round.h, shared with vg_keccakx4_avx2 (same
 * layout and contract); no 512-bit vector is used. Chosen by
 * crypto/mldsa_kernels.c when AVX512F and AVX512VL are in use; the
 * portable twin is vg_keccakx4_c.
 * CT: constant time (no data-dependent branch or index).
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/ct.h"
#include "crypto/mldsa_kernels.h"
#include "crypto/x86_64/keccakx4_round.h"

#define VG_AVX512VL __attribute__((target("avx2,avx512f,avx512vl")))

#define XOR(a, b) _mm256_xor_si256((a), (b))
#define XOR3(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x96)
#define XOR5(a, b, c, d, e) XOR3(XOR3((a), (b), (c)), (d), (e))
/* a ^ (~b & c) */
#define CHI1(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0xd2)
#define ROL(x, n) _mm256_rol_epi64((x), (n))
#define ROL8(x) ROL((x), 8)
#define ROL56(x) ROL((x), 56)

/* see crypto/mldsa_kernels.h */
VG_AVX512VL void
vg_keccakx4_avx512vl(uint64_t st[100])
{
	VG_KX4_PERMUTE_INPLACE(st);
}

#endif
