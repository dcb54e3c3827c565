/*
 * AES modes with AES-NI: vg_aes_ctr32_aesni, vg_aes_cbc_dec_aesni and the
 * serial vg_aes_cbc_enc_aesni and vg_aes_cbc_mac_aesni (contracts in
 * crypto/cpu.h, twins in crypto/aes_modes_c.c), on the key schedule of
 * vg_aes_setkey_aesni. The serial ones keep the chaining value in a
 * register across blocks. Eight independent blocks per pass hide
 * the latency of AESENC/AESDEC; the counter blocks are made in registers
 * (the block read as a big-endian integer, so that inc32 is a 32-bit add
 * on the lowest lane) and the XOR with the input is fused in.
 *
 * CT: AES-NI, PSHUFB and PADDD run in time independent of their operands;
 * branches and addresses depend only on nblocks and the key length.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/x86_64/kernels.h"
#include "crypto/x86_64/vg_aes_x86.h"

#define VG_TARGET_AESNI __attribute__((target("aes,sse4.1")))
#define RK(k, dir, i) LD((k)->sched.ni[dir][i])

VG_TARGET_AESNI
static inline __m128i
bswap128(__m128i x)
{
	const __m128i rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	    11, 12, 13, 14, 15);

	return _mm_shuffle_epi8(x, rev);
}

/* One block through the cipher (dir 0) or the inverse cipher (dir 1). */
VG_TARGET_AESNI
static inline __m128i
aes1(const struct vg_aes_key *k, unsigned dir, __m128i b)
{
	unsigned r, nr = k->rounds;

	b = _mm_xor_si128(b, RK(k, dir, 0));
	for (r = 1; r < nr; r++)
		b = dir ? _mm_aesdec_si128(b, RK(k, dir, r)) :
		    _mm_aesenc_si128(b, RK(k, dir, r));
	return dir ? _mm_aesdeclast_si128(b, RK(k, dir, nr)) :
	    _mm_aesenclast_si128(b, RK(k, dir, nr));
}

/* see crypto/cpu.h */
VG_TARGET_AESNI
void
vg_aes_ctr32_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16])
{
	const __m128i one = _mm_set_epi32(0, 0, 0, 1);
	__m128i c = bswap128(LD(cb));
	unsigned nr = k->rounds, r;

#define NEXT(b)                                                              \
	do {                                                                 \
		b = _mm_xor_si128(bswap128(c), rk);                          \
		c = _mm_add_epi32(c, one);                                   \
	} while (0)
	while (nblocks >= 8) {
		__m128i rk = RK(k, 0, 0), b0, b1, b2, b3, b4, b5, b6, b7;

		NEXT(b0);
		NEXT(b1);
		NEXT(b2);
		NEXT(b3);
		NEXT(b4);
		NEXT(b5);
		NEXT(b6);
		NEXT(b7);
		for (r = 1; r < nr; r++) {
			rk = RK(k, 0, r);
			ROUND8(_mm_aesenc_si128, rk);
		}
		rk = RK(k, 0, nr);
		ROUND8(_mm_aesenclast_si128, rk);
		ST(out, _mm_xor_si128(b0, LD(in)));
		ST(out + 16, _mm_xor_si128(b1, LD(in + 16)));
		ST(out + 32, _mm_xor_si128(b2, LD(in + 32)));
		ST(out + 48, _mm_xor_si128(b3, LD(in + 48)));
		ST(out + 64, _mm_xor_si128(b4, LD(in + 64)));
		ST(out + 80, _mm_xor_si128(b5, LD(in + 80)));
		ST(out + 96, _mm_xor_si128(b6, LD(in + 96)));
		ST(out + 112, _mm_xor_si128(b7, LD(in + 112)));
		in += 128;
		out += 128;
		nblocks -= 8;
	}
#undef NEXT
	while (nblocks > 0) {
		__m128i x = aes1(k, 0, bswap128(c));

		c = _mm_add_epi32(c, one);
		ST(out, _mm_xor_si128(x, LD(in)));
		in += 16;
		out += 16;
		nblocks--;
	}
	ST(cb, bswap128(c));
}

/* see crypto/cpu.h */
VG_TARGET_AESNI
void
vg_aes_cbc_dec_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16])
{
	__m128i prev = LD(iv);
	unsigned nr = k->rounds, r;

	while (nblocks >= 8) {
		__m128i rk = RK(k, 1, 0), b0, b1, b2, b3, b4, b5, b6, b7;
		__m128i c0 = LD(in), c1 = LD(in + 16), c2 = LD(in + 32);
		__m128i c3 = LD(in + 48), c4 = LD(in + 64), c5 = LD(in + 80);
		__m128i c6 = LD(in + 96), c7 = LD(in + 112);

		b0 = _mm_xor_si128(c0, rk);
		b1 = _mm_xor_si128(c1, rk);
		b2 = _mm_xor_si128(c2, rk);
		b3 = _mm_xor_si128(c3, rk);
		b4 = _mm_xor_si128(c4, rk);
		b5 = _mm_xor_si128(c5, rk);
		b6 = _mm_xor_si128(c6, rk);
		b7 = _mm_xor_si128(c7, rk);
		for (r = 1; r < nr; r++) {
			rk = RK(k, 1, r);
			ROUND8(_mm_aesdec_si128, rk);
		}
		rk = RK(k, 1, nr);
		ROUND8(_mm_aesdeclast_si128, rk);
		ST(out, _mm_xor_si128(b0, prev));
		ST(out + 16, _mm_xor_si128(b1, c0));
		ST(out + 32, _mm_xor_si128(b2, c1));
		ST(out + 48, _mm_xor_si128(b3, c2));
		ST(out + 64, _mm_xor_si128(b4, c3));
		ST(out + 80, _mm_xor_si128(b5, c4));
		ST(out + 96, _mm_xor_si128(b6, c5));
		ST(out + 112, _mm_xor_si128(b7, c6));
		prev = c7;
		in += 128;
		out += 128;
		nblocks -= 8;
	}
	while (nblocks > 0) {
		__m128i x = LD(in);

		ST(out, _mm_xor_si128(aes1(k, 1, x), prev));
		prev = x;
		in += 16;
		out += 16;
		nblocks--;
	}
	ST(iv, prev);
}

/* The encryption round keys in registers, for the serial modes (the
 * compiler keeps what fits and reloads the rest from the schedule). */
VG_TARGET_AESNI
static inline __m128i
enc1_serial(const struct vg_aes_key *k, __m128i b)
{
	return aes1(k, 0, b);
}

/* see crypto/cpu.h */
VG_TARGET_AESNI
void
vg_aes_cbc_enc_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t iv[16])
{
	__m128i x = LD(iv);

	while (nblocks > 0) {
		x = enc1_serial(k, _mm_xor_si128(x, LD(in)));
		ST(out, x);
		in += 16;
		out += 16;
		nblocks--;
	}
	ST(iv, x);
}

/* see crypto/cpu.h */
VG_TARGET_AESNI
void
vg_aes_cbc_mac_aesni(const struct vg_aes_key *k, uint8_t x[16],
    const uint8_t *in, size_t nblocks)
{
	__m128i v = LD(x);

	while (nblocks > 0) {
		v = enc1_serial(k, _mm_xor_si128(v, LD(in)));
		in += 16;
		nblocks--;
	}
	ST(x, v);
}

#endif /* __x86_64__ */
