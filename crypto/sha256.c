/*
 * SHA-224 and SHA-256 [FIPS 180-4 §6.2, §6.3]: the portable compression
 * function and the initial hash values. Padding and the streaming
 * interface, shared with SHA-1 and SHA-512, are in crypto/hash.c.
 */
#include "config.h"

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/hash.h"

/* see crypto/hash.h */
const uint32_t vg_sha224_iv[8] = {
	0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
	0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
};

/* see crypto/hash.h */
const uint32_t vg_sha256_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static const uint32_t K256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z) (((x) & ((y) ^ (z))) ^ (z))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x) (ROR32(x, 2) ^ ROR32(x, 13) ^ ROR32(x, 22))
#define BSIG1(x) (ROR32(x, 6) ^ ROR32(x, 11) ^ ROR32(x, 25))
#define SSIG0(x) (ROR32(x, 7) ^ ROR32(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROR32(x, 17) ^ ROR32(x, 19) ^ ((x) >> 10))

/* Word k (0..15) of the current group of 16 rounds: loaded from the block
 * in the first group, then the schedule [FIPS 180-4 §6.2.2 step 1] kept as
 * a ring of 16 words. */
#define W(k)                                                              \
	(i == 0 ? (w[k] = load_be32(in + 4 * (k)))                        \
		: (w[k] += SSIG1(w[((k) + 14) & 15]) + w[((k) + 9) & 15] + \
		      SSIG0(w[((k) + 1) & 15])))

/* One round with the working variables renamed instead of moved. */
#define RND(a, b, c, d, e, f, g, h, k)                                    \
	do {                                                              \
		uint32_t t1_ = h + BSIG1(e) + CH(e, f, g) + K256[i + (k)] + \
		    W(k);                                                 \
		d += t1_;                                                 \
		h = t1_ + BSIG0(a) + MAJ(a, b, c);                        \
	} while (0)

static inline uint32_t
load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/*
 * see crypto/cpu.h
 * The message schedule is a copy of the input (key material under HMAC):
 * it is wiped on return.
 */
void
vg_sha256_blocks_c(uint32_t st[8], const uint8_t *in, size_t nblocks)
{
	uint32_t w[16];
	size_t n;

	for (n = 0; n < nblocks; n++, in += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
		unsigned i;

		for (i = 0; i < 64; i += 16) {
			RND(a, b, c, d, e, f, g, h, 0);
			RND(h, a, b, c, d, e, f, g, 1);
			RND(g, h, a, b, c, d, e, f, 2);
			RND(f, g, h, a, b, c, d, e, 3);
			RND(e, f, g, h, a, b, c, d, 4);
			RND(d, e, f, g, h, a, b, c, 5);
			RND(c, d, e, f, g, h, a, b, 6);
			RND(b, c, d, e, f, g, h, a, 7);
			RND(a, b, c, d, e, f, g, h, 8);
			RND(h, a, b, c, d, e, f, g, 9);
			RND(g, h, a, b, c, d, e, f, 10);
			RND(f, g, h, a, b, c, d, e, 11);
			RND(e, f, g, h, a, b, c, d, 12);
			RND(d, e, f, g, h, a, b, c, 13);
			RND(c, d, e, f, g, h, a, b, 14);
			RND(b, c, d, e, f, g, h, a, 15);
		}
		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
		st[5] += f;
		st[6] += g;
		st[7] += h;
	}
	if (nblocks != 0)
		vg_wipe(w, sizeof(w));
}
