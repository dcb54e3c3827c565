/*
 * ML-KEM polynomial encodings and helpers [FIPS 203 §4.2.1, §4.2.2]:
 * ByteEncode/ByteDecode, Compress/Decompress (without division),
 * SamplePolyCBD, and coefficient-wise arithmetic.
 */
#include "config.h"

#include "crypto/mlkem_int.h"

/* see crypto/mlkem_kernels.h */
void
vg_mlkem_tobytes_c(uint8_t out[VG_MLKEM_POLY_BYTES],
    const int16_t a[VG_MLKEM_N])
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 2; i++) {
		uint16_t t0 = (uint16_t)a[2 * i];
		uint16_t t1 = (uint16_t)a[2 * i + 1];

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

/* see crypto/mlkem_kernels.h
 * CT: no branch on the input. */
uint32_t
vg_mlkem_frombytes_c(int16_t a[VG_MLKEM_N],
    const uint8_t in[VG_MLKEM_POLY_BYTES])
{
	uint32_t ok = 0xffffffffu;
	unsigned i;

	for (i = 0; i < VG_MLKEM_N / 2; i++) {
		uint32_t t0 = in[3 * i] | ((uint32_t)(in[3 * i + 1] & 0x0f) << 8);
		uint32_t t1 = (in[3 * i + 1] >> 4) | ((uint32_t)in[3 * i + 2] << 4);
		uint32_t m0 = lt_q(t0), m1 = lt_q(t1);

		ok &= m0 & m1;
		a[2 * i] = (int16_t)(t0 - (VG_MLKEM_Q & ~m0));
		a[2 * i + 1] = (int16_t)(t1 - (VG_MLKEM_Q & ~m1));
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

/*
 * Packing of d-bit values, g of them (g d bits, a whole number of bytes,
 * at most 64) per 64-bit word; inlined with constant d and g so that the
 * loops unroll. d = 11 takes 8 values (88 bits) in two words.
 */
static inline __attribute__((always_inline)) void
pack(uint8_t *out, const uint16_t t[VG_MLKEM_N], unsigned d, unsigned g)
{
	unsigned i, j, b;

	for (i = 0; i < VG_MLKEM_N / g; i++) {
		uint64_t v = 0;

		for (j = 0; j < g; j++)
			v |= (uint64_t)t[g * i + j] << (d * j);
		for (b = 0; b < g * d / 8; b++)
			out[g * d / 8 * i + b] = (uint8_t)(v >> (8 * b));
	}
}

static inline __attribute__((always_inline)) void
unpack(uint16_t t[VG_MLKEM_N], const uint8_t *in, unsigned d, unsigned g)
{
	unsigned i, j, b;

	for (i = 0; i < VG_MLKEM_N / g; i++) {
		uint64_t v = 0;

		for (b = 0; b < g * d / 8; b++)
			v |= (uint64_t)in[g * d / 8 * i + b] << (8 * b);
		for (j = 0; j < g; j++)
			t[g * i + j] = (uint16_t)((v >> (d * j)) & ((1u << d) - 1));
	}
}

static void
pack11(uint8_t *out, const uint16_t t[VG_MLKEM_N])
{
	unsigned i, b;

	for (i = 0; i < VG_MLKEM_N / 8; i++) {
		const uint16_t *x = t + 8 * i;
		uint64_t v0 = (uint64_t)x[0] | ((uint64_t)x[1] << 11) |
		    ((uint64_t)x[2] << 22) | ((uint64_t)x[3] << 33) |
		    ((uint64_t)x[4] << 44) | ((uint64_t)x[5] << 55);
		uint32_t v1 = (uint32_t)(x[5] >> 9) | ((uint32_t)x[6] << 2) |
		    ((uint32_t)x[7] << 13);

		for (b = 0; b < 8; b++)
			out[11 * i + b] = (uint8_t)(v0 >> (8 * b));
		for (b = 0; b < 3; b++)
			out[11 * i + 8 + b] = (uint8_t)(v1 >> (8 * b));
	}
}

static void
unpack11(uint16_t t[VG_MLKEM_N], const uint8_t *in)
{
	unsigned i, b;

	for (i = 0; i < VG_MLKEM_N / 8; i++) {
		const uint8_t *p = in + 11 * i;
		uint64_t v0 = 0;
		uint32_t v1 = 0;

		for (b = 0; b < 8; b++)
			v0 |= (uint64_t)p[b] << (8 * b);
		for (b = 0; b < 3; b++)
			v1 |= (uint32_t)p[8 + b] << (8 * b);
		t[8 * i] = (uint16_t)(v0 & 0x7ff);
		t[8 * i + 1] = (uint16_t)((v0 >> 11) & 0x7ff);
		t[8 * i + 2] = (uint16_t)((v0 >> 22) & 0x7ff);
		t[8 * i + 3] = (uint16_t)((v0 >> 33) & 0x7ff);
		t[8 * i + 4] = (uint16_t)((v0 >> 44) & 0x7ff);
		t[8 * i + 5] = (uint16_t)(((v0 >> 55) | (v1 << 9)) & 0x7ff);
		t[8 * i + 6] = (uint16_t)((v1 >> 2) & 0x7ff);
		t[8 * i + 7] = (uint16_t)((v1 >> 13) & 0x7ff);
	}
}

/* see crypto/mlkem_kernels.h */
void
vg_mlkem_compress_c(uint16_t t[VG_MLKEM_N], const int16_t a[VG_MLKEM_N],
    unsigned d)
{
	unsigned i;

	for (i = 0; i < VG_MLKEM_N; i++)
		t[i] = (uint16_t)compress(a[i], d);
}

/* see crypto/mlkem_kernels.h
 * The branches are on the public d only. */
void
vg_mlkem_pack_c(uint8_t *out, const uint16_t t[VG_MLKEM_N], unsigned d)
{
	switch (d) {
	case 1:
		pack(out, t, 1, 64);
		break;
	case 4:
		pack(out, t, 4, 16);
		break;
	case 5:
		pack(out, t, 5, 8);
		break;
	case 10:
		pack(out, t, 10, 4);
		break;
	default:
		pack11(out, t);
		break;
	}
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_poly_compress(const struct vg_mlkem_kernels *kk, uint8_t *out,
    const struct vg_mlkem_poly *a, unsigned d)
{
	uint16_t t[VG_MLKEM_N];

	kk->compress(t, a->c, d);
	kk->pack(out, t, d);
	vg_wipe(t, sizeof(t));
}

/* see crypto/mlkem_kernels.h */
void
vg_mlkem_decompress_c(int16_t a[VG_MLKEM_N], const uint8_t *in, unsigned d)
{
	uint16_t t[VG_MLKEM_N];
	unsigned i;

	switch (d) {
	case 1:
		unpack(t, in, 1, 64);
		break;
	case 4:
		unpack(t, in, 4, 16);
		break;
	case 5:
		unpack(t, in, 5, 8);
		break;
	case 10:
		unpack(t, in, 10, 4);
		break;
	default:
		unpack11(t, in);
		break;
	}
	for (i = 0; i < VG_MLKEM_N; i++)
		a[i] = (int16_t)(((uint32_t)t[i] * VG_MLKEM_Q +
		    (1u << (d - 1))) >> d);
	vg_wipe(t, sizeof(t));
}

/* see crypto/mlkem_kernels.h
 * CT: constant time (the branch is on the public eta). */
void
vg_mlkem_cbd_c(int16_t c[VG_MLKEM_N], const uint8_t *buf, unsigned eta)
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
				c[8 * i + j] = (int16_t)(
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
				c[4 * i + j] = (int16_t)(
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
