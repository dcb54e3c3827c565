/*
 * SHA-384, SHA-512, SHA-512/224 and SHA-512/256 [FIPS 180-4 §6.4 - §6.7]:
 * the portable compression function and the initial hash values. Padding and the streaming
 * interface, shared with SHA-1 and SHA-256, are in crypto/hash.c.
 */
#include "config.h"

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/hash.h"

/* see crypto/hash.h */
const uint64_t vg_sha384_iv[8] = {
	0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL,
	0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
	0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL,
	0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
};

/* see crypto/hash.h */
const uint64_t vg_sha512_iv[8] = {
	0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL,
	0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
	0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
	0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

/* see crypto/hash.h
 * The values listed in [FIPS 180-4 §5.3.6.1]; tests/unit/crypto/test_hash.c
 * derives them again with the generation function of §5.3.6 (SHA-512 of
 * "SHA-512/224" from the SHA-512 initial values XOR a5a5...a5). */
const uint64_t vg_sha512_224_iv[8] = {
	0x8c3d37c819544da2ULL, 0x73e1996689dcd4d6ULL,
	0x1dfab7ae32ff9c82ULL, 0x679dd514582f9fcfULL,
	0x0f6d2b697bd44da8ULL, 0x77e36f7304c48942ULL,
	0x3f9d85a86a1d36c8ULL, 0x1112e6ad91d692a1ULL,
};

/* see crypto/hash.h; [FIPS 180-4 §5.3.6.2], derived in the same test */
const uint64_t vg_sha512_256_iv[8] = {
	0x22312194fc2bf72cULL, 0x9f555fa3c84c64c2ULL,
	0x2393b86b6f53b151ULL, 0x963877195940eabdULL,
	0x96283ee2a88effe3ULL, 0xbe5e1e2553863992ULL,
	0x2b0199fc2c85b8aaULL, 0x0eb72ddc81c52ca2ULL,
};

/* see crypto/hash.h; aligned for the AVX2 kernel's vector loads */
const uint64_t vg_sha512_k[80] __attribute__((aligned(32))) = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL,
	0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
	0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL,
	0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
	0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
	0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL,
	0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL,
	0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
	0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL,
	0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL,
	0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
	0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
	0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL,
	0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
	0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL,
	0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL,
	0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
	0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL,
	0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
	0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
	0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define CH(x, y, z) (((x) & ((y) ^ (z))) ^ (z))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x) (ROR64(x, 28) ^ ROR64(x, 34) ^ ROR64(x, 39))
#define BSIG1(x) (ROR64(x, 14) ^ ROR64(x, 18) ^ ROR64(x, 41))
#define SSIG0(x) (ROR64(x, 1) ^ ROR64(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ROR64(x, 19) ^ ROR64(x, 61) ^ ((x) >> 6))

/* Word k (0..15) of the current group of 16 rounds: loaded from the block
 * in the first group, then the schedule [FIPS 180-4 §6.4.2 step 1] kept as
 * a ring of 16 words. */
#define W(k)                                                              \
	(i == 0 ? (w[k] = load_be64(in + 8 * (k)))                        \
		: (w[k] += SSIG1(w[((k) + 14) & 15]) + w[((k) + 9) & 15] + \
		      SSIG0(w[((k) + 1) & 15])))

/* One round with the working variables renamed instead of moved. */
#define RND(a, b, c, d, e, f, g, h, k)                                    \
	do {                                                              \
		uint64_t t1_ = h + BSIG1(e) + CH(e, f, g) + vg_sha512_k[i + (k)] + \
		    W(k);                                                 \
		d += t1_;                                                 \
		h = t1_ + BSIG0(a) + MAJ(a, b, c);                        \
	} while (0)

static inline uint64_t
load_be64(const uint8_t *p)
{
	return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) |
	    ((uint64_t)p[2] << 40) | ((uint64_t)p[3] << 32) |
	    ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) |
	    ((uint64_t)p[6] << 8) | (uint64_t)p[7];
}

/*
 * see crypto/cpu.h
 * The message schedule is a copy of the input (key material under HMAC):
 * it is wiped on return.
 */
void
vg_sha512_blocks_c(uint64_t st[8], const uint8_t *in, size_t nblocks)
{
	uint64_t w[16];
	size_t n;

	for (n = 0; n < nblocks; n++, in += 128) {
		uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
		unsigned i;

		for (i = 0; i < 80; i += 16) {
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
