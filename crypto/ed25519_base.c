/*
 * Fixed-base scalar multiplication [a] B for key generation and signing,
 * the portable twin of the ADX kernels (crypto/c25519_kernels.h): 64
 * signed radix-16 digits in [-8, 8], one table row per pair of digits,
 * every entry of the row read under a mask (constant time). Also the
 * radix-32 recoding and the 64-bit selection of the ADX comb.
 *
 * The table (30 KiB of read-only data, crypto/ed25519_table.c) is computed
 * at build time by crypto/ed25519_gentable.c with the same portable field
 * and point code, so the library carries no hand-copied constants.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/ct.h"

/*
 * t = [b] (row of the table), b in [-8, 8]; all 8 entries are read. An
 * entry is 15 words (three field elements); each is OR-ed in under the
 * mask of its index, in one pass over the words, and the identity
 * (1, 1, 0) under the mask of b = 0.
 */
#define NIELS_WORDS (sizeof(struct vg_ge25519_niels) / sizeof(uint64_t))
_Static_assert(sizeof(struct vg_ge25519_niels) == 15 * sizeof(uint64_t) &&
    offsetof(struct vg_ge25519_niels, YmX) == 5 * sizeof(uint64_t),
    "niels entries are three packed field elements");

struct select_scratch {
	uint64_t acc[NIELS_WORDS];
	vg_fe25519 mt;
};

/* s is scratch, wiped once by the caller rather than on every call. */
static void
select_niels(struct vg_ge25519_niels *t, struct select_scratch *s, int row,
    int8_t b)
{
	uint64_t neg = vg_ct_barrier64((uint64_t)(uint8_t)b >> 7);
	uint64_t babs = (uint64_t)(int64_t)b;
	uint64_t *acc = s->acc, m, m0;
	size_t j, w;

	babs = (babs ^ (0 - neg)) + neg; /* |b| */
	for (w = 0; w < NIELS_WORDS; w++)
		acc[w] = 0;
	for (j = 0; j < VG_ED25519_TABLE_COLS; j++) {
		const uint64_t *e =
		    (const uint64_t *)&vg_ed25519_base_table[row][j];

		m = vg_ct_eq_mask64(babs, (uint64_t)j + 1);
		for (w = 0; w < NIELS_WORDS; w++)
			acc[w] |= m & e[w];
	}
	m0 = vg_ct_zero_mask64(babs);
	acc[0] |= m0 & 1; /* YpX = 1 */
	acc[5] |= m0 & 1; /* YmX = 1 */
	memcpy(t, acc, sizeof(s->acc));
	/* -t = (Y - X, Y + X, -2dT) */
	vg_fe25519_cswap(t->YpX, t->YmX, neg);
	vg_fe25519_neg(s->mt, t->T2d);
	vg_fe25519_cmov(t->T2d, s->mt, neg);
}

/* see crypto/c25519_kernels.h */
void
vg_ed25519_select64_c(uint64_t t[12], const uint64_t row[16][12],
    uint64_t babs, uint64_t neg)
{
	uint64_t acc[12], m, x;
	size_t j, w;

	for (w = 0; w < 12; w++)
		acc[w] = 0;
	for (j = 0; j < 16; j++) {
		m = vg_ct_eq_mask64(babs, (uint64_t)j + 1);
		for (w = 0; w < 12; w++)
			acc[w] |= m & row[j][w];
	}
	m = vg_ct_zero_mask64(babs);
	acc[0] |= m & 1; /* YpX = 1 */
	acc[4] |= m & 1; /* YmX = 1 */
	m = 0 - neg;
	for (w = 0; w < 4; w++) {
		x = m & (acc[w] ^ acc[w + 4]);
		acc[w] ^= x;
		acc[w + 4] ^= x;
	}
	memcpy(t, acc, sizeof(acc));
	vg_wipe(acc, sizeof(acc));
	vg_wipe(&x, sizeof(x));
}

/* see crypto/c25519_int.h
 * The carry of digit i into digit i + 1 is 1 exactly when the digit
 * plus the incoming carry reaches 8, which is the carry of adding 8 to
 * every nibble: so with a' = a + 0x88...8 (one 256-bit addition), e[i] =
 * nibble i of a' minus 8, and the top digit, with nothing above it to
 * carry into, takes the carry out of a' back as 16. */
void
vg_sc25519_recode16(int8_t e[64], const uint8_t a[32])
{
	struct {
		uint64_t w;
		unsigned __int128 acc;
	} t;
	const uint8_t *p;
	int i, j;

	t.acc = 0;
	for (i = 0; i < 4; i++) {
		p = a + 8 * i;
		t.acc += (unsigned __int128)vg_load_le64(p) +
		    0x8888888888888888ULL;
		t.w = (uint64_t)t.acc;
		t.acc >>= 64;
		for (j = 0; j < 16; j++)
			e[16 * i + j] =
			    (int8_t)((int)((t.w >> (4 * j)) & 15) - 8);
	}
	e[63] = (int8_t)(e[63] + 16 * (int)t.acc);
	vg_wipe(&t, sizeof(t));
}

/* see crypto/c25519_int.h
 * As vg_sc25519_recode16 with 5-bit fields: a' = a + 16 sum 32^i over
 * the 51 fields below bit 255 (limbs below), e[i] = field i of a' minus
 * 16, and e[51] = bit 255 of a', the carry out of field 50 (a' < 2^256
 * for a < 2^255).
 * That carry is 0 for a < 2^253, so that the 51 digits e[0 .. 50] alone
 * sum to a (VG_GE25519_BASE_SHORT): the constant added is 16 (32^51 - 1)
 * / 31 = 16 (2^255 - 1) / 31 < (16/31) 2^255, so a' < (1/4 + 16/31)
 * 2^255 = (95/124) 2^255 < 2^255. Exactly, e[51] = 0 if and only if a <
 * (15 2^255 + 16) / 31, about 0.48 2^255: every clamped key generation
 * scalar (at least 2^254) has e[51] = 1. */
void
vg_sc25519_recode32(int8_t e[VG_ED25519_DIGITS32], const uint8_t a[32])
{
	static const uint64_t c[4] = { 0x0842108421084210ULL,
		0x1084210842108421ULL, 0x2108421084210842ULL,
		0x4210842108421084ULL };
	struct {
		uint64_t w[5];
		unsigned __int128 acc;
	} t;
	const uint8_t *p;
	int i, b;

	t.acc = 0;
	for (i = 0; i < 4; i++) {
		p = a + 8 * i;
		t.acc += (unsigned __int128)vg_load_le64(p) + c[i];
		t.w[i] = (uint64_t)t.acc;
		t.acc >>= 64;
	}
	t.w[4] = (uint64_t)t.acc;
	for (i = 0; i < VG_ED25519_DIGITS32 - 1; i++) {
		b = 5 * i;
		t.acc = ((unsigned __int128)t.w[b / 64 + 1] << 64 | t.w[b / 64]) >>
		    (b % 64);
		e[i] = (int8_t)((int)((uint64_t)t.acc & 31) - 16);
	}
	e[VG_ED25519_DIGITS32 - 1] = (int8_t)(t.w[3] >> 63);
	vg_wipe(&t, sizeof(t));
}

/* see crypto/c25519_kernels.h */
void
vg_ge25519_scalarmult_base_c(struct vg_ge25519 *r, const uint8_t a[32])
{
	int8_t e[64];
	struct vg_ge25519_niels t;
	struct vg_ge25519_p1p1 s;
	struct select_scratch sc;
	int i;

	vg_sc25519_recode16(e, a);
	vg_ge25519_identity(r);
	for (i = 1; i < 64; i += 2) {
		select_niels(&t, &sc, i / 2, e[i]);
		vg_ge25519_madd(&s, r, &t);
		vg_ge25519_p1p1_to_p3(r, &s);
	}
	for (i = 0; i < 4; i++) {
		vg_ge25519_dbl(&s, r);
		if (i < 3)
			vg_ge25519_p1p1_to_p2(r, &s);
		else
			vg_ge25519_p1p1_to_p3(r, &s);
	}
	for (i = 0; i < 64; i += 2) {
		select_niels(&t, &sc, i / 2, e[i]);
		vg_ge25519_madd(&s, r, &t);
		vg_ge25519_p1p1_to_p3(r, &s);
	}
	vg_wipe(e, sizeof(e));
	vg_wipe(&t, sizeof(t));
	vg_wipe(&s, sizeof(s));
	vg_wipe(&sc, sizeof(sc));
}

/* see crypto/c25519_kernels.h
 * VG_GE25519_BASE_SHORT is ignored: below 2^253 the top digit of the
 * radix-16 recoding is bit 252 plus the carry into it (0, 1 or 2), not
 * 0, so no row can be left out. */
void
vg_ge25519_scalarmult_base_bytes_c(uint8_t s[32], const uint8_t a[32],
    unsigned flags)
{
	struct {
		struct vg_ge25519 p;
		vg_fe25519 n, d;
	} w;

	vg_ge25519_scalarmult_base_c(&w.p, a);
	if (flags & VG_GE25519_BASE_U) {
		vg_fe25519_add(w.n, w.p.Z, w.p.Y);
		vg_fe25519_sub(w.d, w.p.Z, w.p.Y);
		vg_fe25519_invert(w.d, w.d);
		vg_fe25519_mul(w.n, w.n, w.d);
		vg_fe25519_tobytes(s, w.n);
	} else {
		vg_ge25519_tobytes(s, &w.p);
	}
	vg_wipe(&w, sizeof(w));
}
