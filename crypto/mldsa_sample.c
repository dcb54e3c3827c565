/*
 * ML-DSA sampling [FIPS 204 §7.3]: ExpandA, ExpandS and ExpandMask on a
 * 4-way SHAKE (four polynomials per Keccak-f[1600] x4 call), SampleInBall,
 * and the portable twins of the sampling kernels and of the 4-way
 * permutation.
 */
#include "config.h"

#include <string.h>

#include "crypto/bytes.h"
#include "crypto/ct.h"
#include "crypto/hash.h"
#include "crypto/mldsa_int.h"

#define RATE128 168
#define RATE256 136

/* Blocks squeezed before the first rejection pass: RejNTTPoly needs 768
 * bytes without rejections (5 blocks of 168), RejBoundedPoly 128 or 228
 * on average (2 blocks of 136), ExpandMask 576 or 640 (5 blocks). */
#define UNIFORM_BLOCKS 5
#define ETA_BLOCKS 2
#define MASK_BLOCKS 5

/*
 * see crypto/mldsa_kernels.h
 * The twin of the AVX2 4-way permutation: the four states one after the
 * other through vg_keccakf1600. CT: constant time.
 */
void
vg_keccakx4_c(uint64_t st[100])
{
	uint64_t s[25];
	unsigned i, j;

	for (j = 0; j < 4; j++) {
		for (i = 0; i < 25; i++)
			s[i] = st[4 * i + j];
		vg_keccakf1600(s);
		for (i = 0; i < 25; i++)
			st[4 * i + j] = s[i];
	}
	vg_wipe(s, sizeof(s));
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_x4_absorb(struct vg_mldsa_x4 *x, unsigned rate,
    const uint8_t *const in[4], size_t inlen)
{
	unsigned j;
	size_t b;

	memset(x->s, 0, sizeof(x->s));
	for (j = 0; j < 4; j++) {
		for (b = 0; b + 8 <= inlen; b += 8)
			x->s[4 * (b / 8) + j] = vg_load_le64(in[j] + b);
		for (; b < inlen; b++)
			x->s[4 * (b / 8) + j] ^= (uint64_t)in[j][b] << (8 * (b % 8));
		x->s[4 * (inlen / 8) + j] ^= (uint64_t)0x1f << (8 * (inlen % 8));
		x->s[4 * ((rate - 1) / 8) + j] ^= (uint64_t)0x80 << 56;
	}
}

/* The first rate bytes of the four states to o[0 .. 3], lane by lane:
 * the four copies of a lane are adjacent in s. Inlined with a constant
 * rate, the copy is straight-line code. */
static inline __attribute__((always_inline)) void
lanes_out(const uint64_t *s, uint8_t *const o[4], unsigned rate)
{
	unsigned i;

#pragma GCC unroll 21
	for (i = 0; i < rate / 8; i++) {
		vg_store_le64(o[0] + 8 * i, s[4 * i]);
		vg_store_le64(o[1] + 8 * i, s[4 * i + 1]);
		vg_store_le64(o[2] + 8 * i, s[4 * i + 2]);
		vg_store_le64(o[3] + 8 * i, s[4 * i + 3]);
	}
}

/* see crypto/mldsa_int.h
 * An output not wanted goes to a scratch block, so the copy has no
 * branch. */
void
vg_mldsa_x4_squeeze(const struct vg_mldsa_kernels *k, struct vg_mldsa_x4 *x,
    unsigned rate, uint8_t *const out[4], unsigned nblocks)
{
	uint8_t scratch[RATE128];
	unsigned blk, j;

	for (blk = 0; blk < nblocks; blk++) {
		uint8_t *o[4];

		for (j = 0; j < 4; j++)
			o[j] = out[j] != NULL ? out[j] + blk * rate : scratch;
		k->keccakx4(x->s);
		if (rate == RATE128)
			lanes_out(x->s, o, RATE128);
		else
			lanes_out(x->s, o, RATE256);
	}
}

/*
 * see crypto/mldsa_kernels.h
 * Variable time in the acceptance of each candidate; used on public data
 * (the matrix A) only.
 */
unsigned
vg_mldsa_rej_uniform_c(int32_t *a, unsigned len, const uint8_t *buf,
    size_t buflen)
{
	unsigned ctr = 0;
	size_t pos = 0;

	while (ctr < len && pos + 3 <= buflen) {
		uint32_t t = (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) |
		    ((uint32_t)(buf[pos + 2] & 0x7f) << 16);

		pos += 3;
		if (t < VG_MLDSA_Q)
			a[ctr++] = (int32_t)t;
	}
	return ctr;
}

/* eta - (t mod 5) for t < 15, or eta - t, without division. */
static inline int32_t
eta_coeff(uint32_t t, unsigned eta)
{
	if (eta == 2)
		t -= ((205 * t) >> 10) * 5;
	return (int32_t)eta - (int32_t)t;
}

/*
 * see crypto/mldsa_kernels.h
 * CT: the branch depends on whether a candidate is accepted (declassified:
 * a rejected candidate is discarded and independent of the others); the
 * coefficient values are computed without branches.
 */
unsigned
vg_mldsa_rej_eta_c(int32_t *a, unsigned len, const uint8_t *buf,
    size_t buflen, unsigned eta)
{
	uint32_t lim = eta == 2 ? 15 : 9;
	unsigned ctr = 0;
	size_t pos = 0;

	while (ctr < len && pos < buflen) {
		uint32_t t[2], ok[2];
		unsigned h;

		t[0] = buf[pos] & 0x0f;
		t[1] = buf[pos] >> 4;
		pos++;
		for (h = 0; h < 2; h++) {
			ok[h] = (t[h] - lim) >> 31;
			VG_MLDSA_DECLASSIFY(&ok[h], sizeof(ok[h]));
			if (ok[h] && ctr < len)
				a[ctr++] = eta_coeff(t[h], eta);
		}
	}
	return ctr;
}

/*
 * see crypto/mldsa_kernels.h
 * 18 bits (4 coefficients per 9 bytes) or 20 bits (2 per 5 bytes).
 * CT: constant time.
 */
void
vg_mldsa_expand_mask_c(int32_t a[VG_MLDSA_N], const uint8_t *buf,
    unsigned bits)
{
	unsigned i;

	if (bits == 17) {
		const uint32_t m = (1u << 18) - 1;

		for (i = 0; i < VG_MLDSA_N / 4; i++, buf += 9) {
			uint32_t v[4];
			unsigned j;

			v[0] = (uint32_t)buf[0] | ((uint32_t)buf[1] << 8) |
			    ((uint32_t)buf[2] << 16);
			v[1] = ((uint32_t)buf[2] >> 2) | ((uint32_t)buf[3] << 6) |
			    ((uint32_t)buf[4] << 14);
			v[2] = ((uint32_t)buf[4] >> 4) | ((uint32_t)buf[5] << 4) |
			    ((uint32_t)buf[6] << 12);
			v[3] = ((uint32_t)buf[6] >> 6) | ((uint32_t)buf[7] << 2) |
			    ((uint32_t)buf[8] << 10);
			for (j = 0; j < 4; j++)
				a[4 * i + j] = (1 << 17) - (int32_t)(v[j] & m);
		}
	} else {
		const uint32_t m = (1u << 20) - 1;

		for (i = 0; i < VG_MLDSA_N / 2; i++, buf += 5) {
			uint32_t v0, v1;

			v0 = (uint32_t)buf[0] | ((uint32_t)buf[1] << 8) |
			    ((uint32_t)buf[2] << 16);
			v1 = ((uint32_t)buf[2] >> 4) | ((uint32_t)buf[3] << 4) |
			    ((uint32_t)buf[4] << 12);
			a[2 * i] = (1 << 19) - (int32_t)(v0 & m);
			a[2 * i + 1] = (1 << 19) - (int32_t)(v1 & m);
		}
	}
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_expand_a(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_poly *a,
    const uint8_t rho[32])
{
	uint8_t buf[4][UNIFORM_BLOCKS * RATE128], seed[4][34];
	const uint8_t *in[4] = { seed[0], seed[1], seed[2], seed[3] };
	unsigned n = (unsigned)pp->k * pp->l, first, j;
	struct vg_mldsa_x4 x;

	for (first = 0; first < n; first += 4) {
		unsigned ctr[4] = { 0, 0, 0, 0 }, todo, pass = 0;
		uint8_t *out[4];

		for (j = 0; j < 4; j++) {
			unsigned idx = first + j < n ? first + j : first;

			memcpy(seed[j], rho, 32);
			seed[j][32] = (uint8_t)(idx % pp->l);
			seed[j][33] = (uint8_t)(idx / pp->l);
			out[j] = first + j < n ? buf[j] : NULL;
		}
		vg_mldsa_x4_absorb(&x, RATE128, in, 34);
		vg_mldsa_x4_squeeze(k, &x, RATE128, out, UNIFORM_BLOCKS);
		do {
			todo = 0;
			for (j = 0; j < 4 && first + j < n; j++) {
				size_t len = pass == 0 ? sizeof(buf[j]) : RATE128;

				ctr[j] += k->rej_uniform(a[first + j].c + ctr[j],
				    VG_MLDSA_N - ctr[j], buf[j], len);
				todo |= ctr[j] < VG_MLDSA_N;
			}
			if (todo)
				vg_mldsa_x4_squeeze(k, &x, RATE128, out, 1);
			pass++;
		} while (todo);
	}
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_expand_s(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_poly *s,
    const uint8_t rhop[VG_MLDSA_CRH_LEN])
{
	uint8_t buf[4][ETA_BLOCKS * RATE256], seed[4][66];
	const uint8_t *in[4] = { seed[0], seed[1], seed[2], seed[3] };
	unsigned n = (unsigned)pp->k + pp->l, first, j;
	struct vg_mldsa_x4 x;

	for (first = 0; first < n; first += 4) {
		unsigned ctr[4] = { 0, 0, 0, 0 }, todo, pass = 0;
		uint8_t *out[4];

		for (j = 0; j < 4; j++) {
			unsigned idx = first + j < n ? first + j : first;

			memcpy(seed[j], rhop, 64);
			seed[j][64] = (uint8_t)idx;
			seed[j][65] = 0;
			out[j] = first + j < n ? buf[j] : NULL;
		}
		vg_mldsa_x4_absorb(&x, RATE256, in, 66);
		vg_mldsa_x4_squeeze(k, &x, RATE256, out, ETA_BLOCKS);
		do {
			todo = 0;
			for (j = 0; j < 4 && first + j < n; j++) {
				size_t len = pass == 0 ? sizeof(buf[j]) : RATE256;

				ctr[j] += k->rej_eta(s[first + j].c + ctr[j],
				    VG_MLDSA_N - ctr[j], buf[j], len, pp->eta);
				todo |= ctr[j] < VG_MLDSA_N;
			}
			VG_MLDSA_DECLASSIFY(&todo, sizeof(todo));
			if (todo)
				vg_mldsa_x4_squeeze(k, &x, RATE256, out, 1);
			pass++;
		} while (todo);
	}
	vg_wipe(buf, sizeof(buf));
	vg_wipe(seed, sizeof(seed));
	vg_wipe(&x, sizeof(x));
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_expand_mask(const struct vg_mldsa_kernels *k,
    const struct vg_mldsa_params *pp, struct vg_mldsa_poly *y,
    const uint8_t rhopp[VG_MLDSA_CRH_LEN], unsigned kappa)
{
	uint8_t buf[4][MASK_BLOCKS * RATE256], seed[4][66];
	const uint8_t *in[4] = { seed[0], seed[1], seed[2], seed[3] };
	unsigned n = pp->l, first, j;
	struct vg_mldsa_x4 x;

	for (first = 0; first < n; first += 4) {
		uint8_t *out[4];

		if (n - first == 1) {
			struct vg_shake sh;

			memcpy(seed[0], rhopp, 64);
			seed[0][64] = (uint8_t)(kappa + first);
			seed[0][65] = (uint8_t)((kappa + first) >> 8);
			vg_shake256_init(&sh);
			vg_shake_absorb(&sh, seed[0], 66);
			vg_shake_squeeze(&sh, buf[0], pp->z_bytes);
			vg_shake_wipe(&sh);
			k->expand_mask(y[first].c, buf[0], pp->gamma1_bits);
			break;
		}
		for (j = 0; j < 4; j++) {
			unsigned idx = kappa + (first + j < n ? first + j : first);

			memcpy(seed[j], rhopp, 64);
			seed[j][64] = (uint8_t)idx;
			seed[j][65] = (uint8_t)(idx >> 8);
			out[j] = first + j < n ? buf[j] : NULL;
		}
		vg_mldsa_x4_absorb(&x, RATE256, in, 66);
		vg_mldsa_x4_squeeze(k, &x, RATE256, out, MASK_BLOCKS);
		for (j = 0; j < 4 && first + j < n; j++)
			k->expand_mask(y[first + j].c, buf[j], pp->gamma1_bits);
	}
	vg_wipe(buf, sizeof(buf));
	vg_wipe(seed, sizeof(seed));
	vg_wipe(&x, sizeof(x));
}

/* see crypto/mldsa_int.h */
void
vg_mldsa_sample_in_ball(const struct vg_mldsa_params *pp,
    struct vg_mldsa_poly *c, const uint8_t *ctilde)
{
	uint8_t buf[RATE256];
	struct vg_shake sh;
	uint64_t signs = 0;
	unsigned i, pos;

	vg_shake256_init(&sh);
	vg_shake_absorb(&sh, ctilde, pp->ctilde_len);
	vg_shake_squeeze(&sh, buf, sizeof(buf));
	for (i = 0; i < 8; i++)
		signs |= (uint64_t)buf[i] << (8 * i);
	pos = 8;
	memset(c, 0, sizeof(*c));
	for (i = VG_MLDSA_N - pp->tau; i < VG_MLDSA_N; i++) {
		unsigned j;

		do {
			if (pos == sizeof(buf)) {
				vg_shake_squeeze(&sh, buf, sizeof(buf));
				pos = 0;
			}
			j = buf[pos++];
		} while (j > i);
		c->c[i] = c->c[j];
		c->c[j] = 1 - 2 * (int32_t)(signs & 1);
		signs >>= 1;
	}
}
