/*
 * ML-DSA encodings [FIPS 204 §7.1, §7.2]: public and private keys,
 * signatures and w1, with the checks the standard requires when decoding
 * (s1/s2 coefficients in [-eta, eta], canonical hints). The portable twin
 * of the w1 packing kernel lives here.
 */
#include "config.h"

#include <string.h>

#include "crypto/bytes.h"
#include "crypto/ct.h"
#include "crypto/mldsa_int.h"

/* Little-endian stores of the low 8 and 5 bytes of v. */
static inline void
put8(uint8_t *o, uint64_t v)
{
	o[0] = (uint8_t)v;
	o[1] = (uint8_t)(v >> 8);
	o[2] = (uint8_t)(v >> 16);
	o[3] = (uint8_t)(v >> 24);
	o[4] = (uint8_t)(v >> 32);
	o[5] = (uint8_t)(v >> 40);
	o[6] = (uint8_t)(v >> 48);
	o[7] = (uint8_t)(v >> 56);
}

static inline void
put5(uint8_t *o, uint64_t v)
{
	o[0] = (uint8_t)v;
	o[1] = (uint8_t)(v >> 8);
	o[2] = (uint8_t)(v >> 16);
	o[3] = (uint8_t)(v >> 24);
	o[4] = (uint8_t)(v >> 32);
}

/* see crypto/mldsa_kernels.h */
void
vg_mldsa_w1_pack_c(uint8_t *out, const int32_t a[VG_MLDSA_N], int32_t gamma2)
{
	unsigned i;

	if (gamma2 == (VG_MLDSA_Q - 1) / 88) {
		for (i = 0; i < VG_MLDSA_N / 4; i++) {
			const int32_t *c = a + 4 * i;

			out[3 * i + 0] = (uint8_t)(c[0] | (c[1] << 6));
			out[3 * i + 1] = (uint8_t)((c[1] >> 2) | (c[2] << 4));
			out[3 * i + 2] = (uint8_t)((c[2] >> 4) | (c[3] << 2));
		}
	} else {
		for (i = 0; i < VG_MLDSA_N / 2; i++)
			out[i] = (uint8_t)(a[2 * i] | (a[2 * i + 1] << 4));
	}
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_pack_t1(uint8_t *out, const struct vg_mldsa_poly *t1)
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N / 4; i++) {
		const int32_t *c = t1->c + 4 * i;
		uint8_t *o = out + 5 * i;

		o[0] = (uint8_t)c[0];
		o[1] = (uint8_t)((c[0] >> 8) | (c[1] << 2));
		o[2] = (uint8_t)((c[1] >> 6) | (c[2] << 4));
		o[3] = (uint8_t)((c[2] >> 4) | (c[3] << 6));
		o[4] = (uint8_t)(c[3] >> 2);
	}
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_unpack_t1(struct vg_mldsa_poly *t1, const uint8_t *buf)
{
	unsigned i;

	for (i = 0; i < VG_MLDSA_N / 4; i++) {
		const uint8_t *b = buf + 5 * i;
		int32_t *c = t1->c + 4 * i;

		c[0] = (int32_t)((b[0] | ((uint32_t)b[1] << 8)) & 0x3ff);
		c[1] = (int32_t)(((b[1] >> 2) | ((uint32_t)b[2] << 6)) & 0x3ff);
		c[2] = (int32_t)(((b[2] >> 4) | ((uint32_t)b[3] << 4)) & 0x3ff);
		c[3] = (int32_t)(((b[3] >> 6) | ((uint32_t)b[4] << 2)) & 0x3ff);
	}
}

/* BitPack(s, eta, eta) [FIPS 204 Alg. 17]: eta - s in 3 or 4 bits. The
 * 4-bit form is one byte per pair in a loop the compiler vectorises (the
 * restrict qualifiers tell it out and s do not overlap).
 * CT: constant time. */
static void
pack_eta(uint8_t *restrict out, const struct vg_mldsa_poly *restrict s,
    unsigned eta)
{
	const int32_t *restrict c = s->c;
	unsigned i, j;

	if (eta == 2) {
		for (i = 0; i < VG_MLDSA_N / 8; i++) {
			uint32_t v = 0;

			_Pragma("GCC unroll 8")
			for (j = 0; j < 8; j++)
				v |= (uint32_t)(2 - c[8 * i + j]) << (3 * j);
			out[3 * i + 0] = (uint8_t)v;
			out[3 * i + 1] = (uint8_t)(v >> 8);
			out[3 * i + 2] = (uint8_t)(v >> 16);
		}
	} else {
		for (i = 0; i < VG_MLDSA_N / 2; i++)
			out[i] = (uint8_t)((4 - c[2 * i]) |
			    ((4 - c[2 * i + 1]) << 4));
	}
}

/* BitUnpack(b, eta, eta) [FIPS 204 Alg. 19]; returns all-ones when every
 * field is at most 2 eta (skDecode's range check). Eight bytes at a time:
 * a field above 2 eta sets bit 3 (eta 2, 3-bit fields f: f + 3 >= 8) or
 * bit 4 (eta 4, nibbles: f + 7 >= 16) of its lane. CT: no branch on the
 * data. */
static uint32_t
unpack_eta(struct vg_mldsa_poly *s, const uint8_t *buf, unsigned eta)
{
	uint64_t bad = 0;
	unsigned i, j;

	if (eta == 2) {
		for (i = 0; i < VG_MLDSA_N / 8; i++) {
			uint32_t v = (uint32_t)buf[3 * i] |
			    ((uint32_t)buf[3 * i + 1] << 8) |
			    ((uint32_t)buf[3 * i + 2] << 16);

			_Pragma("GCC unroll 8")
			for (j = 0; j < 8; j++) {
				uint32_t f = (v >> (3 * j)) & 7;

				bad |= (f + 3) & 8;
				s->c[8 * i + j] = 2 - (int32_t)f;
			}
		}
	} else {
		const uint64_t m = 0x0f0f0f0f0f0f0f0fULL;

		for (i = 0; i < VG_MLDSA_N / 16; i++) {
			uint64_t w = vg_load_le64(buf + 8 * i);
			uint64_t lo = w & m, hi = (w >> 4) & m;

			/* nibble + 7 carries into bit 4 of its byte iff > 8 */
			bad |= ((lo + 0x0707070707070707ULL) |
			    (hi + 0x0707070707070707ULL)) & 0x1010101010101010ULL;
			_Pragma("GCC unroll 8")
			for (j = 0; j < 8; j++) {
				s->c[16 * i + 2 * j] = 4 -
				    (int32_t)((lo >> (8 * j)) & 15);
				s->c[16 * i + 2 * j + 1] = 4 -
				    (int32_t)((hi >> (8 * j)) & 15);
			}
		}
	}
	return (uint32_t)vg_ct_zero_mask64(bad);
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_pack_t0(uint8_t *out, const struct vg_mldsa_poly *t0)
{
	unsigned i, j;

	for (i = 0; i < VG_MLDSA_N / 8; i++) {
		const int32_t *c = t0->c + 8 * i;
		uint64_t v0 = 0, v1 = 0, lo;
		uint8_t *o = out + 13 * i;

		/* 2^12 - t0 in 13 bits: four fields of 52 bits in each half */
		_Pragma("GCC unroll 8")
		for (j = 0; j < 4; j++) {
			v0 |= (uint64_t)((uint32_t)((1 << 12) - c[j]) & 0x1fff)
			    << (13 * j);
			v1 |= (uint64_t)((uint32_t)((1 << 12) - c[4 + j]) &
			    0x1fff) << (13 * j);
		}
		lo = v0 | (v1 << 52);
		put8(o, lo);
		put5(o + 8, v1 >> 12);
	}
}

/* Inverse of vg_mldsa_pack_t0; every 13-bit field is valid. Per 13-byte
 * group: bits 0..51 from bytes 0..7, bits 52..103 from bytes 5..12. */
static void
unpack_t0(struct vg_mldsa_poly *t0, const uint8_t *buf)
{
	unsigned i, j;

	for (i = 0; i < VG_MLDSA_N / 8; i++) {
		const uint8_t *b = buf + 13 * i;
		uint64_t v0 = vg_load_le64(b), v1 = vg_load_le64(b + 5) >> 12;

		_Pragma("GCC unroll 8")
		for (j = 0; j < 4; j++) {
			t0->c[8 * i + j] = (1 << 12) -
			    (int32_t)((v0 >> (13 * j)) & 0x1fff);
			t0->c[8 * i + 4 + j] = (1 << 12) -
			    (int32_t)((v1 >> (13 * j)) & 0x1fff);
		}
	}
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_pack_sk_head(const struct vg_mldsa_params *pp, uint8_t *sk,
    const uint8_t rho[32], const uint8_t key[32], const uint8_t tr[64],
    const struct vg_mldsa_poly *s)
{
	unsigned i;

	memcpy(sk, rho, 32);
	memcpy(sk + 32, key, 32);
	memcpy(sk + 64, tr, 64);
	sk += 128;
	for (i = 0; i < (unsigned)pp->l + pp->k; i++, sk += pp->eta_bytes)
		pack_eta(sk, &s[i], pp->eta);
}

/* see crypto/mldsa_int.h */
uint32_t
vg_mldsa_unpack_sk_vectors(const struct vg_mldsa_params *pp,
    struct vg_mldsa_poly *s, struct vg_mldsa_poly *t0, const uint8_t *sk)
{
	uint32_t ok = 0xffffffffu;
	unsigned i;

	sk += 128;
	for (i = 0; i < (unsigned)pp->l + pp->k; i++, sk += pp->eta_bytes)
		ok &= unpack_eta(&s[i], sk, pp->eta);
	for (i = 0; i < pp->k; i++, sk += VG_MLDSA_T0_BYTES)
		unpack_t0(&t0[i], sk);
	return ok;
}

/* BitPack(z, gamma1 - 1, gamma1) [FIPS 204 Alg. 17]: gamma1 - z in
 * 18 bits (4 coefficients per 9 bytes) or 20 bits (2 per 5 bytes). */
static void
pack_z(uint8_t *out, const struct vg_mldsa_poly *z, unsigned bits)
{
	uint32_t g = (uint32_t)1 << bits;
	unsigned i;

	if (bits == 17) {
		for (i = 0; i < VG_MLDSA_N / 4; i++, out += 9) {
			const int32_t *c = z->c + 4 * i;
			uint64_t v3 = g - (uint32_t)c[3];

			put8(out, (uint64_t)(g - (uint32_t)c[0]) |
			    ((uint64_t)(g - (uint32_t)c[1]) << 18) |
			    ((uint64_t)(g - (uint32_t)c[2]) << 36) | (v3 << 54));
			out[8] = (uint8_t)(v3 >> 10);
		}
	} else {
		for (i = 0; i < VG_MLDSA_N / 2; i++, out += 5)
			put5(out, (uint64_t)(g - (uint32_t)z->c[2 * i]) |
			    ((uint64_t)(g - (uint32_t)z->c[2 * i + 1]) << 20));
	}
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_pack_sig_zh(const struct vg_mldsa_params *pp, uint8_t *sig,
    const struct vg_mldsa_poly *z, const struct vg_mldsa_poly *h)
{
	uint8_t *y, buf[VG_MLDSA_N + 1];
	unsigned i, j, idx = 0;

	sig += pp->ctilde_len;
	for (i = 0; i < pp->l; i++, sig += pp->z_bytes)
		pack_z(sig, &z[i], pp->gamma1_bits);
	/* HintBitPack [FIPS 204 Alg. 20]: every index is written, the
	 * position moves on past the ones; h has at most omega ones.
	 * Variable time: called on the final, public signature. */
	y = sig;
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < pp->k; i++) {
		for (j = 0; j < VG_MLDSA_N; j += 8) {
			const int32_t *c = h[i].c + j;
			unsigned t;

			/* the signature is public here: skip empty blocks */
			if ((c[0] | c[1] | c[2] | c[3] | c[4] | c[5] | c[6] |
			    c[7]) == 0)
				continue;
			for (t = 0; t < 8; t++) {
				buf[idx] = (uint8_t)(j + t);
				idx += (unsigned)c[t] & 1;
				idx -= idx > pp->omega; /* never, h is valid */
			}
		}
		memcpy(y, buf, idx);
		y[pp->omega + i] = (uint8_t)idx;
	}
	memset(y + idx, 0, pp->omega - idx);
}

/* see crypto/mldsa_int.h */
int
vg_mldsa_unpack_hints(const struct vg_mldsa_params *pp,
    struct vg_mldsa_poly *h, const uint8_t *y)
{
	unsigned i, idx = 0;

	memset(h, 0, (size_t)pp->k * sizeof(*h));
	for (i = 0; i < pp->k; i++) {
		unsigned end = y[pp->omega + i], first = idx;

		if (end < idx || end > pp->omega)
			return -1;
		for (; idx < end; idx++) {
			if (idx > first && y[idx - 1] >= y[idx])
				return -1;
			h[i].c[y[idx]] = 1;
		}
	}
	for (; idx < pp->omega; idx++)
		if (y[idx] != 0)
			return -1;
	return 0;
}
