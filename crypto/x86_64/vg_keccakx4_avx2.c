/*
 * vg_keccakx4_avx2: four Keccak-f[1600] permutations [FIPS 202 §3] at
 * once on AVX2 registers; the round is crypto/x86_64/keccakx4_round.h,
 * in place on the caller's array (16 registers hold a round's working
 * values, not two states).
 * Rotations are shift pairs, by 8 and 56 a byte shuffle. The portable
 * twin is vg_keccakx4_c.
 * CT: constant time (no data-dependent branch or index).
 */
#include "config.h"

#if defined(__x86_64__)

#include "crypto/mldsa_avx2.h"
#include "crypto/x86_64/keccakx4_round.h"

#define XOR(a, b) _mm256_xor_si256((a), (b))
#define XOR5(a, b, c, d, e) XOR(XOR(XOR((a), (b)), XOR((c), (d))), (e))
#define CHI1(a, b, c) XOR((a), _mm256_andnot_si256((b), (c)))
#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi64((x), (n)), \
	_mm256_srli_epi64((x), 64 - (n)))
#define ROL8(x) _mm256_shuffle_epi8((x), rot8)
#define ROL56(x) _mm256_shuffle_epi8((x), rot56)

/* see crypto/mldsa_kernels.h */
VG_AVX2 void
vg_keccakx4_avx2(uint64_t st[100])
{
	const __m256i rot8 = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8,
	    9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12,
	    13, 14);
	const __m256i rot56 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10,
	    11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13,
	    14, 15, 8);

	VG_KX4_PERMUTE_INPLACE(st);
}

#endif
