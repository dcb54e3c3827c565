/*
 * Portable constant-time AES [FIPS 197]: vg_aes_setkey_c, vg_aes_encrypt_c
 * and vg_aes_decrypt_c, the twins of the AES-NI kernels.
 *
 * The cipher is bitsliced over four blocks at a time. The 64 bytes of four
 * blocks are held in eight 64-bit words q[0..7]: q[b] collects bit b of
 * every byte, and the byte in row r, column c of block k (byte 4c + r of
 * that block) sits at bit 16r + 4c + k of each word. So a word is four
 * 16-bit lanes, one per state row, each lane being four columns of four
 * blocks. In this layout
 *
 *   SubBytes    is a Boolean circuit applied to the eight words (the
 *               Boyar-Peralta circuit for the S-box, 32 AND and 83 XOR/XNOR
 *               gates), so all 64 bytes are substituted at once;
 *   ShiftRows   rotates each 16-bit lane by a multiple of 4 bits;
 *   MixColumns  needs "the same column, next row", which is a rotation of
 *               the whole word by 16 bits, and a multiplication by x in
 *               GF(2^8), which is a renaming of the eight words plus three
 *               XORs;
 *   AddRoundKey XORs each word with the bitsliced round key (the round key
 *               replicated into the four block positions).
 *
 * Nothing here indexes memory or branches on key or data: the only branches
 * and addresses depend on the number of blocks and the key length (CT: only
 * nblocks and len are observable; checked under valgrind with the key and
 * data marked undefined). The state and schedule copies the public
 * functions keep in local arrays are wiped on return; values the compiler
 * spills to the stack in the middle of a round are not.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/bytes.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"

static inline uint64_t
rotr64(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

/* The low four bytes of x moved to the even byte positions (0, 2, 4, 6),
 * zeros in between. */
static inline uint64_t
spread_bytes(uint64_t x)
{
	x &= 0xffffffffu;
	x = (x | (x << 16)) & 0x0000ffff0000ffffu;
	x = (x | (x << 8)) & 0x00ff00ff00ff00ffu;
	return x;
}

/* Inverse of spread_bytes: the even byte positions packed into 32 bits. */
static inline uint64_t
gather_bytes(uint64_t x)
{
	x &= 0x00ff00ff00ff00ffu;
	x = (x | (x >> 8)) & 0x0000ffff0000ffffu;
	x = (x | (x >> 16)) & 0xffffffffu;
	return x;
}

/* Exchanges the bits of b selected by m with the bits of a selected by
 * m << s. */
#define SWAPMOVE(a, b, m, s)                                          \
	do {                                                          \
		uint64_t t_ = (((a) >> (s)) ^ (b)) & (m);             \
		(b) ^= t_;                                            \
		(a) ^= t_ << (s);                                     \
	} while (0)

/*
 * Transposes, in each of the eight byte lanes, the 8x8 bit matrix whose row
 * w is that byte of q[w]: afterwards bit b of byte j of q[w] is what bit w of
 * byte j of q[b] was. An involution (2x2, then 4x4, then 8x8 block swaps).
 */
static void
transpose8(uint64_t q[8])
{
	SWAPMOVE(q[0], q[1], 0x5555555555555555u, 1);
	SWAPMOVE(q[2], q[3], 0x5555555555555555u, 1);
	SWAPMOVE(q[4], q[5], 0x5555555555555555u, 1);
	SWAPMOVE(q[6], q[7], 0x5555555555555555u, 1);
	SWAPMOVE(q[0], q[2], 0x3333333333333333u, 2);
	SWAPMOVE(q[1], q[3], 0x3333333333333333u, 2);
	SWAPMOVE(q[4], q[6], 0x3333333333333333u, 2);
	SWAPMOVE(q[5], q[7], 0x3333333333333333u, 2);
	SWAPMOVE(q[0], q[4], 0x0f0f0f0f0f0f0f0fu, 4);
	SWAPMOVE(q[1], q[5], 0x0f0f0f0f0f0f0f0fu, 4);
	SWAPMOVE(q[2], q[6], 0x0f0f0f0f0f0f0f0fu, 4);
	SWAPMOVE(q[3], q[7], 0x0f0f0f0f0f0f0f0fu, 4);
}

/*
 * Loads n (1..4) blocks into the bitsliced layout; missing blocks are zero.
 * Before the transpose, q[k + 4p] (block k, column parity p) holds in byte
 * lane 2r + h the byte of row r, column 2h + p. The transpose then sends
 * bit b of lane j of q[w] to bit 8j + w of q[b], that is to bit
 * 16r + 4(2h + p) + k: the layout described at the top of this file.
 */
static void
load_blocks(uint64_t q[8], const uint8_t *in, size_t n)
{
	size_t k;

	for (k = 0; k < 4; k++) {
		uint64_t lo = 0, hi = 0;

		if (k < n) {
			lo = vg_load_le64(in + 16 * k);
			hi = vg_load_le64(in + 16 * k + 8);
		}
		/* Even columns: bytes 0..3 (column 0) and 8..11 (column 2). */
		q[k] = spread_bytes(lo) | (spread_bytes(hi) << 8);
		/* Odd columns: bytes 4..7 (column 1) and 12..15 (column 3). */
		q[k + 4] = spread_bytes(lo >> 32) |
		    (spread_bytes(hi >> 32) << 8);
	}
	transpose8(q);
}

/* Inverse of load_blocks for the first n blocks; clobbers q. */
static void
store_blocks(uint8_t *out, uint64_t q[8], size_t n)
{
	size_t k;

	transpose8(q);
	for (k = 0; k < n; k++) {
		uint64_t e = q[k], o = q[k + 4];

		vg_store_le64(out + 16 * k,
		    gather_bytes(e) | (gather_bytes(o) << 32));
		vg_store_le64(out + 16 * k + 8,
		    gather_bytes(e >> 8) | (gather_bytes(o >> 8) << 32));
	}
}

/*
 * The AES S-box on each bit position of q[0..7] (q[7] holds the most
 * significant bit of each byte): the Boyar-Peralta circuit (inversion in
 * GF(2^8) through a tower of subfields, with the affine map merged into the
 * linear layers around it), 32 AND and 83 XOR/XNOR gates.
 */
static void
sbox(uint64_t q[8])
{
	uint64_t u0, u1, u2, u3, u4, u5, u6, u7;
	uint64_t t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14;
	uint64_t t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26;
	uint64_t t27;
	uint64_t m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14;
	uint64_t m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26;
	uint64_t m27, m28, m29, m30, m31, m32, m33, m34, m35, m36, m37, m38;
	uint64_t m39, m40, m41, m42, m43, m44, m45, m46, m47, m48, m49, m50;
	uint64_t m51, m52, m53, m54, m55, m56, m57, m58, m59, m60, m61, m62;
	uint64_t m63;
	uint64_t l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13;
	uint64_t l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25;
	uint64_t l26, l27, l28, l29;

	u0 = q[7];
	u1 = q[6];
	u2 = q[5];
	u3 = q[4];
	u4 = q[3];
	u5 = q[2];
	u6 = q[1];
	u7 = q[0];

	/* Top linear layer. */
	t1 = u0 ^ u3;
	t2 = u0 ^ u5;
	t3 = u0 ^ u6;
	t4 = u3 ^ u5;
	t5 = u4 ^ u6;
	t6 = t1 ^ t5;
	t7 = u1 ^ u2;
	t8 = u7 ^ t6;
	t9 = u7 ^ t7;
	t10 = t6 ^ t7;
	t11 = u1 ^ u5;
	t12 = u2 ^ u5;
	t13 = t3 ^ t4;
	t14 = t6 ^ t11;
	t15 = t5 ^ t11;
	t16 = t5 ^ t12;
	t17 = t9 ^ t16;
	t18 = u3 ^ u7;
	t19 = t7 ^ t18;
	t20 = t1 ^ t19;
	t21 = u6 ^ u7;
	t22 = t7 ^ t21;
	t23 = t2 ^ t22;
	t24 = t2 ^ t10;
	t25 = t20 ^ t17;
	t26 = t3 ^ t16;
	t27 = t1 ^ t12;

	/* Non-linear middle: inversion in GF(2^8). */
	m1 = t13 & t6;
	m2 = t23 & t8;
	m3 = t14 ^ m1;
	m4 = t19 & u7;
	m5 = m4 ^ m1;
	m6 = t3 & t16;
	m7 = t22 & t9;
	m8 = t26 ^ m6;
	m9 = t20 & t17;
	m10 = m9 ^ m6;
	m11 = t1 & t15;
	m12 = t4 & t27;
	m13 = m12 ^ m11;
	m14 = t2 & t10;
	m15 = m14 ^ m11;
	m16 = m3 ^ m2;
	m17 = m5 ^ t24;
	m18 = m8 ^ m7;
	m19 = m10 ^ m15;
	m20 = m16 ^ m13;
	m21 = m17 ^ m15;
	m22 = m18 ^ m13;
	m23 = m19 ^ t25;
	m24 = m22 ^ m23;
	m25 = m22 & m20;
	m26 = m21 ^ m25;
	m27 = m20 ^ m21;
	m28 = m23 ^ m25;
	m29 = m28 & m27;
	m30 = m26 & m24;
	m31 = m20 & m23;
	m32 = m27 & m31;
	m33 = m27 ^ m25;
	m34 = m21 & m22;
	m35 = m24 & m34;
	m36 = m24 ^ m25;
	m37 = m21 ^ m29;
	m38 = m32 ^ m33;
	m39 = m23 ^ m30;
	m40 = m35 ^ m36;
	m41 = m38 ^ m40;
	m42 = m37 ^ m39;
	m43 = m37 ^ m38;
	m44 = m39 ^ m40;
	m45 = m42 ^ m41;
	m46 = m44 & t6;
	m47 = m40 & t8;
	m48 = m39 & u7;
	m49 = m43 & t16;
	m50 = m38 & t9;
	m51 = m37 & t17;
	m52 = m42 & t15;
	m53 = m45 & t27;
	m54 = m41 & t10;
	m55 = m44 & t13;
	m56 = m40 & t23;
	m57 = m39 & t19;
	m58 = m43 & t3;
	m59 = m38 & t22;
	m60 = m37 & t20;
	m61 = m42 & t1;
	m62 = m45 & t4;
	m63 = m41 & t2;

	/* Bottom linear layer, with the affine constant 0x63 as XNORs. */
	l0 = m61 ^ m62;
	l1 = m50 ^ m56;
	l2 = m46 ^ m48;
	l3 = m47 ^ m55;
	l4 = m54 ^ m58;
	l5 = m49 ^ m61;
	l6 = m62 ^ l5;
	l7 = m46 ^ l3;
	l8 = m51 ^ m59;
	l9 = m52 ^ m53;
	l10 = m53 ^ l4;
	l11 = m60 ^ l2;
	l12 = m48 ^ m51;
	l13 = m50 ^ l0;
	l14 = m52 ^ m61;
	l15 = m55 ^ l1;
	l16 = m56 ^ l0;
	l17 = m57 ^ l1;
	l18 = m58 ^ l8;
	l19 = m63 ^ l4;
	l20 = l0 ^ l1;
	l21 = l1 ^ l7;
	l22 = l3 ^ l12;
	l23 = l18 ^ l2;
	l24 = l15 ^ l9;
	l25 = l6 ^ l10;
	l26 = l7 ^ l9;
	l27 = l8 ^ l10;
	l28 = l11 ^ l14;
	l29 = l11 ^ l17;

	q[7] = l6 ^ l24;
	q[6] = ~(l16 ^ l26);
	q[5] = ~(l19 ^ l28);
	q[4] = l6 ^ l21;
	q[3] = l20 ^ l22;
	q[2] = l25 ^ l29;
	q[1] = ~(l13 ^ l27);
	q[0] = ~(l6 ^ l23);
}

/*
 * The affine map of the inverse S-box without the inversion:
 * y -> A^-1(y) ^ 0x05, i.e. bit i of the result is
 * y[i+2] ^ y[i+5] ^ y[i+7] (indices mod 8) ^ bit i of 0x05 [FIPS 197 §5.3.2].
 * With S(x) = A(x^-1) ^ 0x63 this map sends S(x) to x^-1, so the inverse
 * S-box is inv_affine o sbox o inv_affine.
 */
static inline void
inv_affine(uint64_t q[8])
{
	uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
	uint64_t q4 = q[4], q5 = q[5], q6 = q[6], q7 = q[7];

	q[0] = ~(q2 ^ q5 ^ q7);
	q[1] = q3 ^ q6 ^ q0;
	q[2] = ~(q4 ^ q7 ^ q1);
	q[3] = q5 ^ q0 ^ q2;
	q[4] = q6 ^ q1 ^ q3;
	q[5] = q7 ^ q2 ^ q4;
	q[6] = q0 ^ q3 ^ q5;
	q[7] = q1 ^ q4 ^ q6;
}

static void
inv_sbox(uint64_t q[8])
{
	inv_affine(q);
	sbox(q);
	inv_affine(q);
}

/* Row r of the state rotates left by r columns: the 16-bit lane of row r
 * rotates right by 4r bits. */
static inline void
shift_rows(uint64_t q[8])
{
	unsigned i;

	for (i = 0; i < 8; i++) {
		uint64_t x = q[i];

		q[i] = (x & 0x000000000000ffffu) |
		    ((x >> 4) & 0x000000000fff0000u) |
		    ((x << 12) & 0x00000000f0000000u) |
		    ((x >> 8) & 0x000000ff00000000u) |
		    ((x << 8) & 0x0000ff0000000000u) |
		    ((x >> 12) & 0x000f000000000000u) |
		    ((x << 4) & 0xfff0000000000000u);
	}
}

static inline void
inv_shift_rows(uint64_t q[8])
{
	unsigned i;

	for (i = 0; i < 8; i++) {
		uint64_t x = q[i];

		q[i] = (x & 0x000000000000ffffu) |
		    ((x << 4) & 0x00000000fff00000u) |
		    ((x >> 12) & 0x00000000000f0000u) |
		    ((x >> 8) & 0x000000ff00000000u) |
		    ((x << 8) & 0x0000ff0000000000u) |
		    ((x >> 4) & 0x0fff000000000000u) |
		    ((x << 12) & 0xf000000000000000u);
	}
}

/* r = x * t in GF(2^8) (modulus x^8 + x^4 + x^3 + x + 1), bitsliced. */
static inline void
xtime(uint64_t r[8], const uint64_t t[8])
{
	r[0] = t[7];
	r[1] = t[0] ^ t[7];
	r[2] = t[1];
	r[3] = t[2] ^ t[7];
	r[4] = t[3] ^ t[7];
	r[5] = t[4];
	r[6] = t[5];
	r[7] = t[6];
}

/*
 * Column (a0, a1, a2, a3) becomes b_r = 2 a_r ^ 3 a_{r+1} ^ a_{r+2} ^
 * a_{r+3} = 2 (a_r ^ a_{r+1}) ^ a_{r+1} ^ (a_{r+2} ^ a_{r+3}). Rotating a
 * word right by 16 bits puts row r+1 where row r was; by 32, row r+2.
 */
static inline void
mix_columns(uint64_t q[8])
{
	uint64_t a1[8], t[8], d[8];
	unsigned i;

	for (i = 0; i < 8; i++) {
		a1[i] = rotr64(q[i], 16);
		t[i] = q[i] ^ a1[i];
	}
	xtime(d, t);
	for (i = 0; i < 8; i++)
		q[i] = d[i] ^ a1[i] ^ rotr64(t[i], 32);
}

/*
 * InvMixColumns = MixColumns after a_r ^= 4 (a_r ^ a_{r+2}): the matrix
 * (14 11 13 9) is (2 3 1 1) times (5 0 4 0), circulant.
 */
static void
inv_mix_columns(uint64_t q[8])
{
	uint64_t w[8], w2[8], w4[8];
	unsigned i;

	for (i = 0; i < 8; i++)
		w[i] = q[i] ^ rotr64(q[i], 32);
	xtime(w2, w);
	xtime(w4, w2);
	for (i = 0; i < 8; i++)
		q[i] ^= w4[i];
	mix_columns(q);
}

static inline void
add_round_key(uint64_t q[8], const uint64_t *rk)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		q[i] ^= rk[i];
}

/* SubWord [FIPS 197 §5.2] of a little-endian word (byte 0 in bits 0..7),
 * through the bitsliced S-box: byte j of w goes to bit j of each slice. */
static uint32_t
sub_word(uint32_t w)
{
	uint64_t q[8];
	uint32_t r = 0;
	unsigned b, j;

	for (b = 0; b < 8; b++) {
		q[b] = 0;
		for (j = 0; j < 4; j++)
			q[b] |= (uint64_t)((w >> (8 * j + b)) & 1) << j;
	}
	sbox(q);
	for (b = 0; b < 8; b++)
		for (j = 0; j < 4; j++)
			r |= (uint32_t)((q[b] >> j) & 1) << (8 * j + b);
	vg_wipe(q, sizeof(q));
	return r;
}

/* see crypto/cpu.h */
int
vg_aes_setkey_c(struct vg_aes_key *k, const uint8_t *key, size_t len)
{
	uint32_t w[4 * (VG_AES_MAX_ROUNDS + 1)];
	uint8_t rk[64];
	uint32_t rcon = 1;
	unsigned nk, nr, i, j;

	if (len != 16 && len != 24 && len != 32)
		return -1;
	nk = (unsigned)(len / 4);
	nr = nk + 6;
	/* Key expansion [FIPS 197 §5.2] on little-endian words, so that
	 * RotWord is a right rotation by 8 and Rcon lands in byte 0. */
	for (i = 0; i < nk; i++)
		w[i] = (uint32_t)key[4 * i] | ((uint32_t)key[4 * i + 1] << 8) |
		    ((uint32_t)key[4 * i + 2] << 16) |
		    ((uint32_t)key[4 * i + 3] << 24);
	for (i = nk; i < 4 * (nr + 1); i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;
			rcon = (rcon << 1) ^ (0x11b & (0 - (rcon >> 7)));
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	/* Each round key, replicated into the four block positions. */
	for (i = 0; i <= nr; i++) {
		for (j = 0; j < 16; j++)
			rk[j] = (uint8_t)(w[4 * i + j / 4] >> (8 * (j % 4)));
		memcpy(rk + 16, rk, 16);
		memcpy(rk + 32, rk, 32);
		load_blocks(k->sched.ct + 8 * i, rk, 4);
	}
	k->rounds = nr;
	vg_wipe(w, sizeof(w));
	vg_wipe(rk, sizeof(rk));
	return 0;
}

static void
encrypt_slices(const struct vg_aes_key *k, uint64_t q[8])
{
	const uint64_t *rk = k->sched.ct;
	unsigned r;

	add_round_key(q, rk);
	for (r = 1; r < k->rounds; r++) {
		sbox(q);
		shift_rows(q);
		mix_columns(q);
		add_round_key(q, rk + 8 * r);
	}
	sbox(q);
	shift_rows(q);
	add_round_key(q, rk + 8 * k->rounds);
}

static void
decrypt_slices(const struct vg_aes_key *k, uint64_t q[8])
{
	const uint64_t *rk = k->sched.ct;
	unsigned r;

	add_round_key(q, rk + 8 * k->rounds);
	for (r = k->rounds - 1; r > 0; r--) {
		inv_shift_rows(q);
		inv_sbox(q);
		add_round_key(q, rk + 8 * r);
		inv_mix_columns(q);
	}
	inv_shift_rows(q);
	inv_sbox(q);
	add_round_key(q, rk);
}

/* see crypto/cpu.h */
void
vg_aes_encrypt_c(const struct vg_aes_key *k, uint8_t *out, const uint8_t *in,
    size_t nblocks)
{
	uint64_t q[8];

	while (nblocks > 0) {
		size_t n = nblocks < 4 ? nblocks : 4;

		load_blocks(q, in, n);
		encrypt_slices(k, q);
		store_blocks(out, q, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	vg_wipe(q, sizeof(q));
}

/* see crypto/cpu.h */
void
vg_aes_decrypt_c(const struct vg_aes_key *k, uint8_t *out, const uint8_t *in,
    size_t nblocks)
{
	uint64_t q[8];

	while (nblocks > 0) {
		size_t n = nblocks < 4 ? nblocks : 4;

		load_blocks(q, in, n);
		decrypt_slices(k, q);
		store_blocks(out, q, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	vg_wipe(q, sizeof(q));
}
