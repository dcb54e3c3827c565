/*
 * AES modes with VAES on 256-bit registers (AVX2 machines without
 * AVX-512, e.g. AMD Zen 3): vg_aes_ctr32_vaes256 and vg_aes_cbc_dec_vaes256
 * (contracts in crypto/cpu.h, twins in crypto/aes_modes_c.c), on the key
 * schedule of vg_aes_setkey_aesni. Two blocks per register, eight
 * registers in flight; what is left after the last sixteen blocks goes
 * through the AES-NI kernels of vg_aes_modes_aesni.c.
 *
 * CTR: as in vg_aes_modes_vaes512.c, inc32 is a 32-bit add on the lowest
 * dword of each lane of the byte-reversed counter. CBC decryption: the
 * chaining values of a register are the high lane of the previous one and
 * its own low lane (VPERM2I128).
 *
 * CT: VAES, VPSHUFB, VPADDD and VPERM2I128 run in time independent of
 * their operands; branches and addresses depend only on nblocks and the
 * key length.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/x86_64/kernels.h"
#include "crypto/x86_64/vg_aes_x86.h"

#define VG_TARGET_VAES256 __attribute__((target("aes,sse4.1,avx,avx2,vaes")))
#define LD2(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define ST2(p, x) _mm256_storeu_si256((__m256i *)(void *)(p), (x))
#define RK2(k, dir, i) _mm256_broadcastsi128_si256(LD((k)->sched.ni[dir][i]))

/* see crypto/cpu.h */
VG_TARGET_VAES256
void
vg_aes_ctr32_vaes256(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16])
{
	const __m128i rev1 = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	    11, 12, 13, 14, 15);
	const __m256i rev = _mm256_broadcastsi128_si256(rev1);
	const __m256i two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
	unsigned nr = k->rounds, r;
	__m128i c0 = _mm_shuffle_epi8(LD(cb), rev1);
	__m256i c = _mm256_add_epi32(_mm256_broadcastsi128_si256(c0),
	    _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));

#define NEXT(b)                                                              \
	do {                                                                 \
		b = _mm256_xor_si256(_mm256_shuffle_epi8(c, rev), rk);       \
		c = _mm256_add_epi32(c, two);                                \
	} while (0)
#define OUT(b, i)                                                            \
	ST2(out + 32 * (i), _mm256_xor_si256(b, LD2(in + 32 * (i))))
	while (nblocks >= 16) {
		__m256i rk = RK2(k, 0, 0), b0, b1, b2, b3, b4, b5, b6, b7;

		NEXT(b0);
		NEXT(b1);
		NEXT(b2);
		NEXT(b3);
		NEXT(b4);
		NEXT(b5);
		NEXT(b6);
		NEXT(b7);
		for (r = 1; r < nr; r++) {
			rk = RK2(k, 0, r);
			ROUND8(_mm256_aesenc_epi128, rk);
		}
		rk = RK2(k, 0, nr);
		ROUND8(_mm256_aesenclast_epi128, rk);
		OUT(b0, 0);
		OUT(b1, 1);
		OUT(b2, 2);
		OUT(b3, 3);
		OUT(b4, 4);
		OUT(b5, 5);
		OUT(b6, 6);
		OUT(b7, 7);
		in += 256;
		out += 256;
		nblocks -= 16;
	}
#undef NEXT
#undef OUT
	ST(cb, _mm_shuffle_epi8(_mm256_castsi256_si128(c), rev1));
	if (nblocks > 0)
		vg_aes_ctr32_aesni(k, out, in, nblocks, cb);
}

/* see crypto/cpu.h */
VG_TARGET_VAES256
void
vg_aes_cbc_dec_vaes256(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16])
{
	__m256i prev = _mm256_broadcastsi128_si256(LD(iv));
	unsigned nr = k->rounds, r;

	if (nblocks < 16) {
		vg_aes_cbc_dec_aesni(k, out, in, nblocks, iv);
		return;
	}
#define CHAIN(a, b) _mm256_permute2x128_si256(a, b, 0x21)
	while (nblocks >= 16) {
		__m256i rk = RK2(k, 1, 0), b0, b1, b2, b3, b4, b5, b6, b7;
		__m256i c0 = LD2(in), c1 = LD2(in + 32), c2 = LD2(in + 64);
		__m256i c3 = LD2(in + 96), c4 = LD2(in + 128);
		__m256i c5 = LD2(in + 160), c6 = LD2(in + 192);
		__m256i c7 = LD2(in + 224);

		b0 = _mm256_xor_si256(c0, rk);
		b1 = _mm256_xor_si256(c1, rk);
		b2 = _mm256_xor_si256(c2, rk);
		b3 = _mm256_xor_si256(c3, rk);
		b4 = _mm256_xor_si256(c4, rk);
		b5 = _mm256_xor_si256(c5, rk);
		b6 = _mm256_xor_si256(c6, rk);
		b7 = _mm256_xor_si256(c7, rk);
		for (r = 1; r < nr; r++) {
			rk = RK2(k, 1, r);
			ROUND8(_mm256_aesdec_epi128, rk);
		}
		rk = RK2(k, 1, nr);
		ROUND8(_mm256_aesdeclast_epi128, rk);
		ST2(out, _mm256_xor_si256(b0, CHAIN(prev, c0)));
		ST2(out + 32, _mm256_xor_si256(b1, CHAIN(c0, c1)));
		ST2(out + 64, _mm256_xor_si256(b2, CHAIN(c1, c2)));
		ST2(out + 96, _mm256_xor_si256(b3, CHAIN(c2, c3)));
		ST2(out + 128, _mm256_xor_si256(b4, CHAIN(c3, c4)));
		ST2(out + 160, _mm256_xor_si256(b5, CHAIN(c4, c5)));
		ST2(out + 192, _mm256_xor_si256(b6, CHAIN(c5, c6)));
		ST2(out + 224, _mm256_xor_si256(b7, CHAIN(c6, c7)));
		prev = c7;
		in += 256;
		out += 256;
		nblocks -= 16;
	}
#undef CHAIN
	ST(iv, _mm256_extracti128_si256(prev, 1));
	if (nblocks > 0)
		vg_aes_cbc_dec_aesni(k, out, in, nblocks, iv);
}

#endif /* __x86_64__ */
