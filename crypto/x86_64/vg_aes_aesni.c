/*
 * AES with AES-NI: vg_aes_setkey_aesni, vg_aes_encrypt_aesni,
 * vg_aes_decrypt_aesni (contracts in crypto/cpu.h, twins in
 * crypto/aes_ct.c). Compiled with per-function target attributes; called
 * only when vg_kernels() found AES-NI.
 *
 * The schedule holds the encryption round keys and the decryption round
 * keys of the equivalent inverse cipher [FIPS 197 §5.3.5] (AESIMC applied
 * to the middle ones). Encryption and decryption work on eight independent
 * blocks per pass, which hides the latency of AESENC/AESDEC; fewer than
 * eight left over are done one at a time.
 *
 * CT: AESENC, AESDEC, AESKEYGENASSIST and AESIMC run in time independent of
 * their operands; branches and addresses depend only on nblocks and the key
 * length. Round keys are read from the schedule, not copied to the stack.
 */
#include "config.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>
#include <wmmintrin.h>

#include "crypto/aes.h"
#include "crypto/ct.h"
#include "crypto/x86_64/kernels.h"

#define VG_TARGET_AESNI __attribute__((target("aes,sse4.1")))
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, x) _mm_storeu_si128((__m128i *)(void *)(p), (x))

/* SubWord of a little-endian word: AESKEYGENASSIST returns SubWord(X1) in
 * its lowest dword, and every dword of the input is w. */
VG_TARGET_AESNI
static inline uint32_t
sub_word(uint32_t w)
{
	__m128i x = _mm_set1_epi32((int)w);

	return (uint32_t)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(x, 0));
}

VG_TARGET_AESNI
static inline __m128i
rk_load(const struct vg_aes_key *k, unsigned dir, unsigned i)
{
	return LD(k->sched.ni[dir][i]);
}

/* see crypto/cpu.h */
VG_TARGET_AESNI
int
vg_aes_setkey_aesni(struct vg_aes_key *k, const uint8_t *key, size_t len)
{
	uint32_t w[4 * (VG_AES_MAX_ROUNDS + 1)];
	uint32_t rcon = 1;
	unsigned nk, nr, i;

	if (len != 16 && len != 24 && len != 32)
		return -1;
	nk = (unsigned)(len / 4);
	nr = nk + 6;
	/* Key expansion [FIPS 197 §5.2] on little-endian words (the byte
	 * order of an XMM register loaded from memory). */
	memcpy(w, key, len);
	for (i = nk; i < 4 * (nr + 1); i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word(t);
			t = ((t >> 8) | (t << 24)) ^ rcon;
			rcon = (rcon << 1) ^ (0x11b & (0 - (rcon >> 7)));
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i <= nr; i++)
		memcpy(k->sched.ni[0][i], w + 4 * i, 16);
	/* Equivalent inverse cipher: the round keys in reverse order, with
	 * InvMixColumns applied to all but the first and last. */
	memcpy(k->sched.ni[1][0], k->sched.ni[0][nr], 16);
	for (i = 1; i < nr; i++)
		ST(k->sched.ni[1][i], _mm_aesimc_si128(rk_load(k, 0, nr - i)));
	memcpy(k->sched.ni[1][nr], k->sched.ni[0][0], 16);
	k->rounds = nr;
	vg_wipe(w, sizeof(w));
	return 0;
}

/* see crypto/cpu.h */
VG_TARGET_AESNI
void
vg_aes_encrypt_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks)
{
	unsigned nr = k->rounds, r;

	while (nblocks >= 8) {
		__m128i rk = rk_load(k, 0, 0);
		__m128i b0, b1, b2, b3, b4, b5, b6, b7;

		b0 = _mm_xor_si128(LD(in), rk);
		b1 = _mm_xor_si128(LD(in + 16), rk);
		b2 = _mm_xor_si128(LD(in + 32), rk);
		b3 = _mm_xor_si128(LD(in + 48), rk);
		b4 = _mm_xor_si128(LD(in + 64), rk);
		b5 = _mm_xor_si128(LD(in + 80), rk);
		b6 = _mm_xor_si128(LD(in + 96), rk);
		b7 = _mm_xor_si128(LD(in + 112), rk);
		for (r = 1; r < nr; r++) {
			rk = rk_load(k, 0, r);
			b0 = _mm_aesenc_si128(b0, rk);
			b1 = _mm_aesenc_si128(b1, rk);
			b2 = _mm_aesenc_si128(b2, rk);
			b3 = _mm_aesenc_si128(b3, rk);
			b4 = _mm_aesenc_si128(b4, rk);
			b5 = _mm_aesenc_si128(b5, rk);
			b6 = _mm_aesenc_si128(b6, rk);
			b7 = _mm_aesenc_si128(b7, rk);
		}
		rk = rk_load(k, 0, nr);
		ST(out, _mm_aesenclast_si128(b0, rk));
		ST(out + 16, _mm_aesenclast_si128(b1, rk));
		ST(out + 32, _mm_aesenclast_si128(b2, rk));
		ST(out + 48, _mm_aesenclast_si128(b3, rk));
		ST(out + 64, _mm_aesenclast_si128(b4, rk));
		ST(out + 80, _mm_aesenclast_si128(b5, rk));
		ST(out + 96, _mm_aesenclast_si128(b6, rk));
		ST(out + 112, _mm_aesenclast_si128(b7, rk));
		in += 128;
		out += 128;
		nblocks -= 8;
	}
	while (nblocks > 0) {
		__m128i b = LD(in);

		b = _mm_xor_si128(b, rk_load(k, 0, 0));
		for (r = 1; r < nr; r++)
			b = _mm_aesenc_si128(b, rk_load(k, 0, r));
		b = _mm_aesenclast_si128(b, rk_load(k, 0, nr));
		ST(out, b);
		in += 16;
		out += 16;
		nblocks--;
	}
}

/* see crypto/cpu.h */
VG_TARGET_AESNI
void
vg_aes_decrypt_aesni(const struct vg_aes_key *k, uint8_t *out,
    const uint8_t *in, size_t nblocks)
{
	unsigned nr = k->rounds, r;

	while (nblocks >= 8) {
		__m128i rk = rk_load(k, 1, 0);
		__m128i b0, b1, b2, b3, b4, b5, b6, b7;

		b0 = _mm_xor_si128(LD(in), rk);
		b1 = _mm_xor_si128(LD(in + 16), rk);
		b2 = _mm_xor_si128(LD(in + 32), rk);
		b3 = _mm_xor_si128(LD(in + 48), rk);
		b4 = _mm_xor_si128(LD(in + 64), rk);
		b5 = _mm_xor_si128(LD(in + 80), rk);
		b6 = _mm_xor_si128(LD(in + 96), rk);
		b7 = _mm_xor_si128(LD(in + 112), rk);
		for (r = 1; r < nr; r++) {
			rk = rk_load(k, 1, r);
			b0 = _mm_aesdec_si128(b0, rk);
			b1 = _mm_aesdec_si128(b1, rk);
			b2 = _mm_aesdec_si128(b2, rk);
			b3 = _mm_aesdec_si128(b3, rk);
			b4 = _mm_aesdec_si128(b4, rk);
			b5 = _mm_aesdec_si128(b5, rk);
			b6 = _mm_aesdec_si128(b6, rk);
			b7 = _mm_aesdec_si128(b7, rk);
		}
		rk = rk_load(k, 1, nr);
		ST(out, _mm_aesdeclast_si128(b0, rk));
		ST(out + 16, _mm_aesdeclast_si128(b1, rk));
		ST(out + 32, _mm_aesdeclast_si128(b2, rk));
		ST(out + 48, _mm_aesdeclast_si128(b3, rk));
		ST(out + 64, _mm_aesdeclast_si128(b4, rk));
		ST(out + 80, _mm_aesdeclast_si128(b5, rk));
		ST(out + 96, _mm_aesdeclast_si128(b6, rk));
		ST(out + 112, _mm_aesdeclast_si128(b7, rk));
		in += 128;
		out += 128;
		nblocks -= 8;
	}
	while (nblocks > 0) {
		__m128i b = LD(in);

		b = _mm_xor_si128(b, rk_load(k, 1, 0));
		for (r = 1; r < nr; r++)
			b = _mm_aesdec_si128(b, rk_load(k, 1, r));
		b = _mm_aesdeclast_si128(b, rk_load(k, 1, nr));
		ST(out, b);
		in += 16;
		out += 16;
		nblocks--;
	}
}

#endif /* __x86_64__ */
