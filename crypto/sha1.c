/*
 * SHA-1 [FIPS 180-4 §6.1]: the portable compression function and the
 * initial hash value. Padding and the streaming interface, shared with
 * SHA-2, are in crypto/hash.c. SHA-1 is kept for PKCS#11 mechanisms,
 * HMAC-SHA-1 and PBKDF2 interoperability, not for collision resistance.
 */
#include "config.h"

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/hash.h"

/* see crypto/hash.h */
const uint32_t vg_sha1_iv[5] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
};

#define ROL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

/* Schedule word t (a constant 0..79) [FIPS 180-4 §6.1.2 step 1], kept as
 * a ring of 16 words. */
#define W(t)                                                              \
	((t) < 16 ? (w[(t) & 15] = load_be32(in + 4 * (t)))               \
		  : (w[(t) & 15] = ROL32(w[((t) - 3) & 15] ^               \
			 w[((t) - 8) & 15] ^ w[((t) - 14) & 15] ^          \
			 w[(t) & 15], 1)))

/* f_t of [FIPS 180-4 §4.1.1] plus K_t. */
#define F0(b, c, d) (((((c) ^ (d)) & (b)) ^ (d)) + 0x5a827999)
#define F1(b, c, d) (((b) ^ (c) ^ (d)) + 0x6ed9eba1)
#define F2(b, c, d) (((((b) | (c)) & (d)) | ((b) & (c))) + 0x8f1bbcdc)
#define F3(b, c, d) (((b) ^ (c) ^ (d)) + 0xca62c1d6)

/* One round with the working variables renamed instead of moved. */
#define RND(a, b, c, d, e, fn, t)                                         \
	do {                                                              \
		e += ROL32(a, 5) + fn(b, c, d) + W(t);                    \
		b = ROL32(b, 30);                                         \
	} while (0)

/* Rounds t..t+4, after which the names are back in place. */
#define RND5(fn, t)                                                       \
	do {                                                              \
		RND(a, b, c, d, e, fn, (t));                              \
		RND(e, a, b, c, d, fn, (t) + 1);                          \
		RND(d, e, a, b, c, fn, (t) + 2);                          \
		RND(c, d, e, a, b, fn, (t) + 3);                          \
		RND(b, c, d, e, a, fn, (t) + 4);                          \
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
vg_sha1_blocks_c(uint32_t st[5], const uint8_t *in, size_t nblocks)
{
	uint32_t w[16];
	size_t n;

	for (n = 0; n < nblocks; n++, in += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint32_t e = st[4];

		RND5(F0, 0);
		RND5(F0, 5);
		RND5(F0, 10);
		RND5(F0, 15);
		RND5(F1, 20);
		RND5(F1, 25);
		RND5(F1, 30);
		RND5(F1, 35);
		RND5(F2, 40);
		RND5(F2, 45);
		RND5(F2, 50);
		RND5(F2, 55);
		RND5(F3, 60);
		RND5(F3, 65);
		RND5(F3, 70);
		RND5(F3, 75);
		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
	}
	if (nblocks != 0)
		vg_wipe(w, sizeof(w));
}
