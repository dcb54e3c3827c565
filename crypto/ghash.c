/*
 * Portable constant-time GHASH [SP 800-38D §6.4]: vg_ghash_c, the twin of
 * vg_ghash_pclmul.
 *
 * Representation. GCM numbers the bits of a block from the most significant
 * bit of byte 0 (coefficient of x^0) to the least significant bit of byte 15
 * (x^127). Reading the block as a big-endian 128-bit integer therefore puts
 * the coefficient of x^i at bit 127 - i: the bit-reflected polynomial. The
 * carry-less product of two reflected 128-bit values is the reflected
 * 255-bit product, one position short of the 256-bit reflection, hence the
 * shift left by one before reducing modulo x^128 + x^7 + x^2 + x + 1.
 *
 * Carry-less multiplication without tables or branches: in a 32x32-bit
 * product, keep only every fourth bit of each operand (masks 0x1111...,
 * 0x2222..., ...). In the ordinary integer product of two such "sparse"
 * values each result bit position receives at most 8 partial products, so
 * the carries stay within the three bits above it and never reach the next
 * position of the same residue mod 4: that position's bit is the XOR of the
 * partial products. Sixteen multiplications (each residue of x against each
 * of y) combined and masked give the full carry-less product. 64x64 and
 * 128x128 are built with Karatsuba (3 half-size products each).
 *
 * CT: the time and addresses depend only on nblocks, provided the CPU
 * multiplies 64-bit integers in constant time (true of x86-64 and of the
 * common 64-bit ARM cores). H and Y live in scalar locals only; no secret
 * array is left on the stack.
 */
#include "config.h"

#include "crypto/cpu.h"

static inline uint64_t
load_be64(const uint8_t *p)
{
	return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) |
	    ((uint64_t)p[2] << 40) | ((uint64_t)p[3] << 32) |
	    ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) |
	    ((uint64_t)p[6] << 8) | (uint64_t)p[7];
}

static inline void
store_be64(uint8_t *p, uint64_t x)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(x >> (56 - 8 * i));
}

/* Carry-less product of two 32-bit values (63 significant bits). */
static inline uint64_t
clmul32(uint64_t x, uint64_t y)
{
	const uint64_t m0 = 0x11111111u, m1 = 0x22222222u;
	const uint64_t m2 = 0x44444444u, m3 = 0x88888888u;
	uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
	uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
	uint64_t z0, z1, z2, z3;

	/* zr gathers the partial products whose bit positions are r mod 4. */
	z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
	z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
	z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
	z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
	return (z0 & 0x1111111111111111u) | (z1 & 0x2222222222222222u) |
	    (z2 & 0x4444444444444444u) | (z3 & 0x8888888888888888u);
}

/* Carry-less product of two 64-bit values: *hi:*lo. */
static inline void
clmul64(uint64_t x, uint64_t y, uint64_t *hi, uint64_t *lo)
{
	uint64_t x0 = x & 0xffffffffu, x1 = x >> 32;
	uint64_t y0 = y & 0xffffffffu, y1 = y >> 32;
	uint64_t p0, p1, pm;

	p0 = clmul32(x0, y0);
	p1 = clmul32(x1, y1);
	pm = clmul32(x0 ^ x1, y0 ^ y1) ^ p0 ^ p1;
	*lo = p0 ^ (pm << 32);
	*hi = p1 ^ (pm >> 32);
}

/*
 * (*yh:*yl) = (*yh:*yl) * (hh:hl) in GF(2^128), all four words in the
 * reflected representation described above.
 */
static void
gf_mul(uint64_t *yh, uint64_t *yl, uint64_t hh, uint64_t hl)
{
	uint64_t a1, a0, b1, b0, c1, c0;
	uint64_t z3, z2, z1, z0;

	/* Karatsuba: z3:z2:z1:z0 = (yh:yl) * (hh:hl), 255 bits. */
	clmul64(*yh, hh, &a1, &a0);
	clmul64(*yl, hl, &b1, &b0);
	clmul64(*yh ^ *yl, hh ^ hl, &c1, &c0);
	c1 ^= a1 ^ b1;
	c0 ^= a0 ^ b0;
	z3 = a1;
	z2 = a0 ^ c1;
	z1 = b1 ^ c0;
	z0 = b0;

	/* Reflected 256-bit product: shift left by one. Now x^i is at bit
	 * 255 - i: z3 holds x^0..x^63, z2 x^64..x^127, z1 x^128..x^191 and
	 * z0 x^192..x^255, each with its lowest degree in the top bit. */
	z3 = (z3 << 1) | (z2 >> 63);
	z2 = (z2 << 1) | (z1 >> 63);
	z1 = (z1 << 1) | (z0 >> 63);
	z0 <<= 1;

	/* x^(128+j) = x^j (1 + x + x^2 + x^7). Fold z0 (degrees 192..255)
	 * into z2:z1, multiplying by x^s being a right shift by s in this
	 * representation, then fold z1 (degrees 128..191, now including what
	 * spilled from z0) into z3:z2. Nothing spills further: the largest
	 * degree reached is 63 + 7. */
	z1 ^= (z0 << 63) ^ (z0 << 62) ^ (z0 << 57);
	z2 ^= z0 ^ (z0 >> 1) ^ (z0 >> 2) ^ (z0 >> 7);
	z2 ^= (z1 << 63) ^ (z1 << 62) ^ (z1 << 57);
	z3 ^= z1 ^ (z1 >> 1) ^ (z1 >> 2) ^ (z1 >> 7);

	*yh = z3;
	*yl = z2;
}

/* see crypto/cpu.h */
void
vg_ghash_c(uint8_t y[16], const uint8_t h[16], const uint8_t *in,
    size_t nblocks)
{
	uint64_t yh, yl, hh, hl;

	yh = load_be64(y);
	yl = load_be64(y + 8);
	hh = load_be64(h);
	hl = load_be64(h + 8);
	while (nblocks-- > 0) {
		yh ^= load_be64(in);
		yl ^= load_be64(in + 8);
		gf_mul(&yh, &yl, hh, hl);
		in += 16;
	}
	store_be64(y, yh);
	store_be64(y + 8, yl);
}
