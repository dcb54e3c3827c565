/*
 * GCM encryption with AES-NI and PCLMULQDQ, stitched: vg_aes_gcm_enc_aesni
 * (contract in crypto/cpu.h; its twin is vg_aes_ctr32_c followed by
 * vg_ghash_update_c). Eight counter blocks go through the AES rounds while
 * the eight ciphertext blocks written by the previous pass are multiplied
 * by H^8..H^1 (from the key's hash key), one multiplication between two
 * rounds, so that the AES and PCLMULQDQ units work side by side; one
 * reduction per pass. Fewer than sixteen blocks, and what is left after the
 * last pass, go to the separate kernels.
 *
 * Used on machines with AES-NI and PCLMULQDQ but without VAES: the wide
 * VAES and VPCLMULQDQ kernels are faster in two passes.
 *
 * CT: as vg_aes_modes_aesni.c and vg_ghash_pclmul.c; branches and
 * addresses depend only on nblocks and the key length.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/x86_64/kernels.h"
#include "crypto/x86_64/vg_aes_x86.h"
#include "crypto/x86_64/vg_ghash_x86.h"

#define VG_TARGET_GCM __attribute__((target("aes,pclmul,sse4.1")))
#define RK(k, i) LD((k)->sched.ni[0][i])

/* Round r of the eight blocks, and block j of the previous pass into the
 * hash accumulators. */
#define STEP(r, j)                                                           \
	do {                                                                 \
		__m128i d_ = bswap128(LD(prev + 16 * (j)));                  \
		__m128i h_ = LD(k->gh.pw[8 + (j)]);                          \
                                                                             \
		if ((j) == 0)                                                \
			d_ = _mm_xor_si128(d_, yv);                          \
		rk = RK(k, r);                                               \
		ROUND8(_mm_aesenc_si128, rk);                                \
		lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(d_, h_, 0x00));  \
		hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(d_, h_, 0x11));  \
		mid = _mm_xor_si128(mid, _mm_xor_si128(                      \
		    _mm_clmulepi64_si128(d_, h_, 0x01),                      \
		    _mm_clmulepi64_si128(d_, h_, 0x10)));                    \
	} while (0)

/* see crypto/cpu.h */
VG_TARGET_GCM
void
vg_aes_gcm_enc_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks, uint8_t cb[16], uint8_t y[16])
{
	const __m128i one = _mm_set_epi32(0, 0, 0, 1);
	unsigned nr = k->rounds, r;
	const uint8_t *prev;
	__m128i c, yv;

	if (nblocks < 16) {
		vg_aes_ctr32_aesni(k, out, in, nblocks, cb);
		vg_ghash_update_pclmul(y, &k->gh, out, nblocks);
		return;
	}
	vg_aes_ctr32_aesni(k, out, in, 8, cb);
	prev = out;
	in += 128;
	out += 128;
	nblocks -= 8;
	c = bswap128(LD(cb));
	yv = bswap128(LD(y));
	while (nblocks >= 8) {
		__m128i rk = RK(k, 0), b0, b1, b2, b3, b4, b5, b6, b7;
		__m128i lo = _mm_setzero_si128(), hi = lo, mid = lo;

#define NEXT(b)                                                              \
	do {                                                                 \
		b = _mm_xor_si128(bswap128(c), rk);                          \
		c = _mm_add_epi32(c, one);                                   \
	} while (0)
		NEXT(b0);
		NEXT(b1);
		NEXT(b2);
		NEXT(b3);
		NEXT(b4);
		NEXT(b5);
		NEXT(b6);
		NEXT(b7);
#undef NEXT
		/* every key size has at least nine middle rounds */
		STEP(1, 0);
		STEP(2, 1);
		STEP(3, 2);
		STEP(4, 3);
		STEP(5, 4);
		STEP(6, 5);
		STEP(7, 6);
		STEP(8, 7);
		for (r = 9; r < nr; r++) {
			rk = RK(k, r);
			ROUND8(_mm_aesenc_si128, rk);
		}
		rk = RK(k, nr);
		ROUND8(_mm_aesenclast_si128, rk);
		lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
		hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
		yv = reduce(hi, lo);
		ST(out, _mm_xor_si128(b0, LD(in)));
		ST(out + 16, _mm_xor_si128(b1, LD(in + 16)));
		ST(out + 32, _mm_xor_si128(b2, LD(in + 32)));
		ST(out + 48, _mm_xor_si128(b3, LD(in + 48)));
		ST(out + 64, _mm_xor_si128(b4, LD(in + 64)));
		ST(out + 80, _mm_xor_si128(b5, LD(in + 80)));
		ST(out + 96, _mm_xor_si128(b6, LD(in + 96)));
		ST(out + 112, _mm_xor_si128(b7, LD(in + 112)));
		prev = out;
		in += 128;
		out += 128;
		nblocks -= 8;
	}
	ST(cb, bswap128(c));
	ST(y, bswap128(yv));
	vg_ghash_update_pclmul(y, &k->gh, prev, 8);
	if (nblocks > 0) {
		vg_aes_ctr32_aesni(k, out, in, nblocks, cb);
		vg_ghash_update_pclmul(y, &k->gh, out, nblocks);
	}
}

#endif /* __x86_64__ */
