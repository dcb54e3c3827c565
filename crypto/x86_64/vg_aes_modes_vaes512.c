/*
 * AES modes with VAES on 512-bit registers: vg_aes_ctr32_vaes512 and
 * vg_aes_cbc_dec_vaes512 (contracts in crypto/cpu.h, twins in
 * crypto/aes_modes_c.c), on the key schedule of vg_aes_setkey_aesni. Four
 * blocks per register and four registers in flight; a last group of fewer
 * than sixteen blocks goes one register at a time, the last one with
 * masked loads and stores. Round keys are broadcast to all four lanes
 * from the schedule.
 *
 * CTR: the counter block is read as a big-endian integer, so that inc32 is
 * a 32-bit add on the lowest dword of each lane. CBC decryption: the
 * chaining values of a register are the ciphertext shifted by one block
 * (VALIGNQ), the block before the register coming from the previous one.
 *
 * CT: VAES, VPSHUFB, VPADDD and VALIGNQ run in time independent of their
 * operands; masks, branches and addresses depend only on nblocks and the
 * key length.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/x86_64/kernels.h"
#include "crypto/x86_64/vg_aes_x86.h"

#define VG_TARGET_VAES512 \
	__attribute__((target("aes,sse4.1,vaes,avx512f,avx512bw")))
#define RK4(k, dir, i) _mm512_broadcast_i32x4(LD((k)->sched.ni[dir][i]))

/* The lowest 16 * n bytes of a register (1 <= n <= 4). */
static inline __mmask64
lanes(unsigned n)
{
	return n >= 4 ? ~(__mmask64)0 : (((__mmask64)1 << (16 * n)) - 1);
}

VG_TARGET_VAES512
static inline __m512i
rev4(void)
{
	return _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8,
	    9, 10, 11, 12, 13, 14, 15));
}

/* One register through the cipher (dir 0) or the inverse cipher. */
VG_TARGET_VAES512
static inline __m512i
aes_x1(const struct vg_aes_key *k, unsigned dir, __m512i b)
{
	unsigned r, nr = k->rounds;

	b = _mm512_xor_si512(b, RK4(k, dir, 0));
	if (dir) {
		for (r = 1; r < nr; r++)
			b = _mm512_aesdec_epi128(b, RK4(k, 1, r));
		return _mm512_aesdeclast_epi128(b, RK4(k, 1, nr));
	}
	for (r = 1; r < nr; r++)
		b = _mm512_aesenc_epi128(b, RK4(k, 0, r));
	return _mm512_aesenclast_epi128(b, RK4(k, 0, nr));
}

/* Four registers through one of AESENC, AESDEC, ... with round key rk. */
#define ROUND4(op, rk)                                                       \
	do {                                                                 \
		b0 = op(b0, rk);                                             \
		b1 = op(b1, rk);                                             \
		b2 = op(b2, rk);                                             \
		b3 = op(b3, rk);                                             \
	} while (0)

/* see crypto/cpu.h */
VG_TARGET_VAES512
void
vg_aes_ctr32_vaes512(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16])
{
	const __m512i rev = rev4();
	const __m512i four = _mm512_broadcast_i32x4(_mm_set_epi32(0, 0, 0, 4));
	unsigned nr = k->rounds, r;
	__m128i c0 = _mm_shuffle_epi8(LD(cb), _mm512_castsi512_si128(rev));
	__m512i c = _mm512_add_epi32(_mm512_broadcast_i32x4(c0),
	    _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));

	/* the counter after the call (nblocks is public) */
	c0 = _mm_add_epi32(c0, _mm_cvtsi32_si128((int)(uint32_t)nblocks));
	while (nblocks >= 16) {
		__m512i rk = RK4(k, 0, 0), b0, b1, b2, b3;

		b0 = _mm512_xor_si512(_mm512_shuffle_epi8(c, rev), rk);
		c = _mm512_add_epi32(c, four);
		b1 = _mm512_xor_si512(_mm512_shuffle_epi8(c, rev), rk);
		c = _mm512_add_epi32(c, four);
		b2 = _mm512_xor_si512(_mm512_shuffle_epi8(c, rev), rk);
		c = _mm512_add_epi32(c, four);
		b3 = _mm512_xor_si512(_mm512_shuffle_epi8(c, rev), rk);
		c = _mm512_add_epi32(c, four);
		for (r = 1; r < nr; r++) {
			rk = RK4(k, 0, r);
			ROUND4(_mm512_aesenc_epi128, rk);
		}
		rk = RK4(k, 0, nr);
		ROUND4(_mm512_aesenclast_epi128, rk);
		_mm512_storeu_si512(out, _mm512_xor_si512(b0,
		    _mm512_loadu_si512(in)));
		_mm512_storeu_si512(out + 64, _mm512_xor_si512(b1,
		    _mm512_loadu_si512(in + 64)));
		_mm512_storeu_si512(out + 128, _mm512_xor_si512(b2,
		    _mm512_loadu_si512(in + 128)));
		_mm512_storeu_si512(out + 192, _mm512_xor_si512(b3,
		    _mm512_loadu_si512(in + 192)));
		in += 256;
		out += 256;
		nblocks -= 16;
	}
	while (nblocks > 0) {
		__mmask64 m = lanes((unsigned)(nblocks < 4 ? nblocks : 4));
		__m512i b = aes_x1(k, 0, _mm512_shuffle_epi8(c, rev));

		c = _mm512_add_epi32(c, four);
		_mm512_mask_storeu_epi8(out, m, _mm512_xor_si512(b,
		    _mm512_maskz_loadu_epi8(m, in)));
		in += 64;
		out += 64;
		nblocks -= nblocks < 4 ? nblocks : 4;
	}
	ST(cb, _mm_shuffle_epi8(c0, _mm512_castsi512_si128(rev)));
}

/* see crypto/cpu.h */
VG_TARGET_VAES512
void
vg_aes_cbc_dec_vaes512(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16])
{
	__m512i prev = _mm512_broadcast_i32x4(LD(iv));
	unsigned nr = k->rounds, r;

	while (nblocks >= 16) {
		__m512i rk = RK4(k, 1, 0), c0, c1, c2, c3, b0, b1, b2, b3;

		c0 = _mm512_loadu_si512(in);
		c1 = _mm512_loadu_si512(in + 64);
		c2 = _mm512_loadu_si512(in + 128);
		c3 = _mm512_loadu_si512(in + 192);
		b0 = _mm512_xor_si512(c0, rk);
		b1 = _mm512_xor_si512(c1, rk);
		b2 = _mm512_xor_si512(c2, rk);
		b3 = _mm512_xor_si512(c3, rk);
		for (r = 1; r < nr; r++) {
			rk = RK4(k, 1, r);
			ROUND4(_mm512_aesdec_epi128, rk);
		}
		rk = RK4(k, 1, nr);
		ROUND4(_mm512_aesdeclast_epi128, rk);
		/* chaining values: [block 3 before, blocks 0, 1, 2] */
		_mm512_storeu_si512(out, _mm512_xor_si512(b0,
		    _mm512_alignr_epi64(c0, prev, 6)));
		_mm512_storeu_si512(out + 64, _mm512_xor_si512(b1,
		    _mm512_alignr_epi64(c1, c0, 6)));
		_mm512_storeu_si512(out + 128, _mm512_xor_si512(b2,
		    _mm512_alignr_epi64(c2, c1, 6)));
		_mm512_storeu_si512(out + 192, _mm512_xor_si512(b3,
		    _mm512_alignr_epi64(c3, c2, 6)));
		prev = c3;
		in += 256;
		out += 256;
		nblocks -= 16;
	}
	while (nblocks > 0) {
		unsigned n = (unsigned)(nblocks < 4 ? nblocks : 4);
		__mmask64 m = lanes(n);
		__m512i c = _mm512_maskz_loadu_epi8(m, in), b;

		b = aes_x1(k, 1, c);
		_mm512_mask_storeu_epi8(out, m, _mm512_xor_si512(b,
		    _mm512_alignr_epi64(c, prev, 6)));
		if (n == 4) {
			prev = c;
		} else {
			/* the last ciphertext block to lane 3, from the
			 * register (in may be out); the index is public */
			uint8_t t[64];

			_mm512_storeu_si512(t, c);
			prev = _mm512_broadcast_i32x4(LD(t + 16 * (n - 1)));
		}
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	ST(iv, _mm512_extracti32x4_epi32(prev, 3));
}

#endif /* __x86_64__ */
