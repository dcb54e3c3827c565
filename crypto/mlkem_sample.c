/*
 * ML-KEM sampling [FIPS 203 §4.2.2]: the matrix A by SampleNTT (Alg. 7)
 * from SHAKE128 and the noise by SamplePolyCBD (Alg. 8) from SHAKE256, four
 * polynomials per 4-way Keccak-f[1600] call.
 */
#include "config.h"

#include <string.h>

#include "crypto/bytes.h"
#include "crypto/ct.h"
#include "crypto/hash.h"
#include "crypto/mlkem_int.h"

#define RATE128 168
#define RATE256 136

/* Blocks squeezed before the first rejection pass: SampleNTT needs 384
 * bytes without rejections (3 blocks of 168 give 336 candidates);
 * PRF_eta 64 eta bytes: one block of 136 for eta 2, two for eta 3. */
#define UNIFORM_BLOCKS 3
#define CBD_BLOCKS 2

/* A 4-way SHAKE state: lane i of instance j is s[4 i + j]. */
struct x4 {
	uint64_t s[100];
} __attribute__((aligned(32)));

/* Absorbs four inputs of inlen < rate bytes and pads them (SHAKE). */
static void
x4_absorb(struct x4 *x, unsigned rate, const uint8_t *const in[4],
    size_t inlen)
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

/* The first rate bytes of the four states to o[0 .. 3], lane by lane;
 * inlined with a constant rate, straight-line code. */
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

/* Squeezes nblocks whole blocks of each instance into out[j]. */
static void
x4_squeeze(const struct vg_mlkem_kernels *kk, struct x4 *x, unsigned rate,
    uint8_t *const out[4], unsigned nblocks)
{
	unsigned blk, j;

	for (blk = 0; blk < nblocks; blk++) {
		uint8_t *o[4];

		for (j = 0; j < 4; j++)
			o[j] = out[j] + blk * rate;
		kk->keccakx4(x->s);
		if (rate == RATE128)
			lanes_out(x->s, o, RATE128);
		else
			lanes_out(x->s, o, RATE256);
	}
}

/* see crypto/mlkem_int.h
 * The k^2 polynomials in batches of four; in a last batch of fewer, the
 * spare lanes repeat the batch's first input and their output is
 * dropped. The rejection counts are public (they depend on rho only). */
void
vg_mlkem_gen_matrix(const struct vg_mlkem_kernels *kk,
    struct vg_mlkem_poly *a, unsigned k, const uint8_t rho[32],
    int transposed)
{
	uint8_t buf[4][UNIFORM_BLOCKS * RATE128];
	uint8_t in[4][34];
	unsigned n = k * k, base, j;

	for (base = 0; base < n; base += 4) {
		uint8_t *const out[4] = { buf[0], buf[1], buf[2], buf[3] };
		const uint8_t *const inp[4] = { in[0], in[1], in[2], in[3] };
		unsigned cnt[4], idx[4], busy;
		struct x4 x;

		for (j = 0; j < 4; j++) {
			unsigned e = base + j < n ? base + j : base;
			unsigned r = e / k, c = e % k;

			/* A[r][c] = SampleNTT(rho || c || r) */
			idx[j] = e;
			memcpy(in[j], rho, 32);
			in[j][32] = (uint8_t)(transposed ? r : c);
			in[j][33] = (uint8_t)(transposed ? c : r);
		}
		x4_absorb(&x, RATE128, inp, 34);
		x4_squeeze(kk, &x, RATE128, out, UNIFORM_BLOCKS);
		for (j = 0; j < 4; j++)
			cnt[j] = kk->rej_uniform(a[idx[j]].c, VG_MLKEM_N, buf[j],
			    UNIFORM_BLOCKS * RATE128);
		for (;;) {
			busy = 0;
			for (j = 0; j < 4; j++)
				busy |= cnt[j] < VG_MLKEM_N;
			if (!busy)
				break;
			x4_squeeze(kk, &x, RATE128, out, 1);
			for (j = 0; j < 4; j++)
				cnt[j] += kk->rej_uniform(a[idx[j]].c + cnt[j],
				    VG_MLKEM_N - cnt[j], buf[j], RATE128);
		}
	}
}

/* see crypto/mlkem_int.h */
void
vg_mlkem_sample_cbd(const struct vg_mlkem_kernels *kk,
    struct vg_mlkem_poly *p, unsigned n, const uint8_t s[32],
    uint8_t nonce0, unsigned eta1, unsigned n1)
{
	uint8_t buf[4][CBD_BLOCKS * RATE256];
	uint8_t in[4][33];
	unsigned base, j;
	struct x4 x;

	for (base = 0; base < n; base += 4) {
		uint8_t *const out[4] = { buf[0], buf[1], buf[2], buf[3] };
		const uint8_t *const inp[4] = { in[0], in[1], in[2], in[3] };

		for (j = 0; j < 4; j++) {
			memcpy(in[j], s, 32);
			in[j][32] = (uint8_t)(nonce0 + base + j);
		}
		x4_absorb(&x, RATE256, inp, 33);
		/* eta 3 in this batch needs a second block */
		x4_squeeze(kk, &x, RATE256, out,
		    eta1 == 3 && base < n1 ? CBD_BLOCKS : 1);
		for (j = 0; j < 4 && base + j < n; j++)
			kk->cbd(p[base + j].c, buf[j],
			    base + j < n1 ? eta1 : 2);
	}
	vg_wipe(buf, sizeof(buf));
	vg_wipe(in, sizeof(in));
	vg_wipe(&x, sizeof(x));
}

/* see crypto/mlkem_int.h
 * Each lane absorbs its own number of blocks; a lane that has absorbed
 * its last block gives its output after that permutation, while the
 * others go on. Repeated lanes are skipped (decisions on the public
 * pointers and lengths only). */
void
vg_mlkem_x4_hash32(const struct vg_mlkem_kernels *kk, uint8_t *const out[4],
    const uint8_t *const in[4], const size_t len[4], const uint8_t ds[4])
{
	size_t nblk[4], maxblk = 0, blk, b;
	uint8_t last[RATE256];
	unsigned j, i, j2;
	struct x4 x;

	for (j = 0; j < 4; j++) {
		nblk[j] = len[j] / RATE256 + 1;
		if (nblk[j] > maxblk)
			maxblk = nblk[j];
		/* a lane that repeats an earlier one (same input, length,
		 * domain and output) absorbs nothing: its state stays
		 * unused and the earlier lane writes the output */
		for (j2 = 0; j2 < j; j2++)
			if (in[j2] == in[j] && len[j2] == len[j] &&
			    ds[j2] == ds[j] && out[j2] == out[j])
				nblk[j] = 0;
	}
	memset(x.s, 0, sizeof(x.s));
	for (blk = 0; blk < maxblk; blk++) {
		for (j = 0; j < 4; j++) {
			const uint8_t *p = in[j] + blk * RATE256;

			if (blk + 1 < nblk[j]) {
				for (i = 0; i < RATE256 / 8; i++)
					x.s[4 * i + j] ^=
					    vg_load_le64(p + 8 * i);
			} else if (blk + 1 == nblk[j]) {
				size_t rem = len[j] - blk * RATE256;

				memset(last, 0, sizeof(last));
				memcpy(last, p, rem);
				last[rem] ^= ds[j];
				last[RATE256 - 1] ^= 0x80;
				for (i = 0; i < RATE256 / 8; i++)
					x.s[4 * i + j] ^=
					    vg_load_le64(last + 8 * i);
			}
		}
		kk->keccakx4(x.s);
		for (j = 0; j < 4; j++)
			if (blk + 1 == nblk[j])
				for (b = 0; b < 4; b++)
					vg_store_le64(out[j] + 8 * b,
					    x.s[4 * b + j]);
	}
	vg_wipe(last, sizeof(last));
	vg_wipe(&x, sizeof(x));
}
