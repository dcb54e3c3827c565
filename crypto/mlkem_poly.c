/*
 * ML-KEM polynomial encodings and helpers [FIPS 203 §4.2.1, §4.2.2]:
 * ByteEncode/ByteDecode, Compress/Decompress (without division),
 * SamplePolyCBD, and coefficient-wise arithmetic.
 */
#include "config.h"

#include "crypto/mlkem_int.h"

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_tobytes(uint8_t out[VG_MLKEM_POLY_BYTES],
    const struct vg_mlkem_poly *a)
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 2; i++) {
		uint16_t t0 = (uint16_t)a->c[2 * i];
		uint16_t t1 = (uint16_t)a->c[2 * i + 1];

		out[3 * i] = (uint8_t)t0;
		out[3 * i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
		out[3 * i + 2] = (uint8_t)(t1 >> 4);
	}
}

/* 1 (as all-ones) if x < q. */
static inline uint32_t
lt_q(uint32_t x)
{
	return 0u - ((x - VG_MLKEM_Q) >> 31);
}

/* see crypto/mlkem_int.h */
uint32_t
vg_mlkem_poly_frombytes(struct vg_mlkem_poly *a,
    const uint8_t in[VG_MLKEM_POLY_BYTES])
{
	uint32_t ok = 0xffffffffu;
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 2; i++) {
		uint32_t t0 = in[3 * i] | ((uint32_t)(in[3 * i + 1] & 0x0f) << 8);
		uint32_t t1 = (in[3 * i + 1] >> 4) | ((uint32_t)in[3 * i + 2] << 4);
		uint32_t m0 = lt_q(t0), m1 = lt_q(t1);

		ok &= m0 & m1;
		a->c[2 * i] = (int16_t)(t0 - (VG_MLKEM_Q & ~m0));
		a->c[2 * i + 1] = (int16_t)(t1 - (VG_MLKEM_Q & ~m1));
	}
	return ok;
}

/* floor(t / q) for t < 2^23 without division: t * ceil(2^48 / q) >> 48 is
 * exact since t (ceil(2^48 / q) q - 2^48) < 2^48. */
#define DIVQ_M ((((uint64_t)1 << 48) + VG_MLKEM_Q - 1) / VG_MLKEM_Q)

static inline uint32_t
compress(int16_t x, unsigned d)
{
	uint64_t t = ((uint64_t)(uint16_t)x << d) + VG_MLKEM_Q / 2;

	return (uint32_t)((t * DIVQ_M) >> 48) & ((1u << d) - 1);
}

/* see crypto/mlkem_int.h
 * A bit accumulator; its branches depend on the counters only. */
void
vg_mlkem_poly_compress(uint8_t *out, const struct vg_mlkem_poly *a,
    unsigned d)
{
	uint64_t acc = 0;
	unsigned bits = 0, i, o = 0;

	for (i = 0; i < VG_MLKEM_N; i++) {
		acc |= (uint64_t)compress(a->c[i], d) << bits;
		bits += d;
		while (bits >= 8) {
			out[o++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_decompress(struct vg_mlkem_poly *a, const uint8_t *in,
    unsigned d)
{
	uint64_t acc = 0;
	unsigned bits = 0, i, o = 0;

	for (i = 0; i < VG_MLKEM_N; i++) {
		uint32_t y;

		while (bits < d) {
			acc |= (uint64_t)in[o++] << bits;
			bits += 8;
		}
		y = (uint32_t)acc & ((1u << d) - 1);
		acc >>= d;
		bits -= d;
		a->c[i] = (int16_t)((y * VG_MLKEM_Q + (1u << (d - 1))) >> d);
	}
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_cbd(struct vg_mlkem_poly *a, const uint8_t *buf, unsigned eta)
{
	unsigned i, j;

	if (eta == 2) {
		for (i = 0; i < VG_MLKEM_N / 8; i++) {
			uint32_t t = (uint32_t)buf[4 * i] |
			    ((uint32_t)buf[4 * i + 1] << 8) |
			    ((uint32_t)buf[4 * i + 2] << 16) |
			    ((uint32_t)buf[4 * i + 3] << 24);
			uint32_t s = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);

			for (j = 0; j < 8; j++)
				a->c[8 * i + j] = (int16_t)(
				    (int16_t)((s >> (4 * j)) & 3) -
				    (int16_t)((s >> (4 * j + 2)) & 3));
		}
	} else {
		for (i = 0; i < VG_MLKEM_N / 4; i++) {
			uint32_t t = (uint32_t)buf[3 * i] |
			    ((uint32_t)buf[3 * i + 1] << 8) |
			    ((uint32_t)buf[3 * i + 2] << 16);
			uint32_t s = (t & 0x249249u) + ((t >> 1) & 0x249249u) +
			    ((t >> 2) & 0x249249u);

			for (j = 0; j < 4; j++)
				a->c[4 * i + j] = (int16_t)(
				    (int16_t)((s >> (6 * j)) & 7) -
				    (int16_t)((s >> (6 * j + 3)) & 7));
		}
	}
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_add(struct vg_mlkem_poly *a, const struct vg_mlkem_poly *b)
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N; i++)
		a->c[i] = (int16_t)(a->c[i] + b->c[i]);
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_sub(struct vg_mlkem_poly *a, const struct vg_mlkem_poly *b)
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N; i++)
		a->c[i] = (int16_t)(a->c[i] - b->c[i]);
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_freeze(struct vg_mlkem_poly *a)
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N; i++)
		a->c[i] = vg_mlkem_freeze(a->c[i]);
}

/* R^2 mod q */
#define MONT_R2 1353

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_tomont(struct vg_mlkem_poly *a)
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N; i++)
		a->c[i] = vg_mlkem_fqmul(a->c[i], MONT_R2);
}
