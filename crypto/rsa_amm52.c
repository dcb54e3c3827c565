/*
 * Radix-2^52 arithmetic for the CRT halves of RSA-2048, 3072 and 4096: the
 * portable twins of the AVX-512 IFMA kernels
 * (crypto/x86_64/vg_rsa_amm52_ifma.c), for any limb count up to
 * VG_RSA52_MAX_LIMBS, and the conversions between 64-bit words and 52-bit
 * limbs.
 */
#include "config.h"

#include <assert.h>

#include "crypto/bn.h"
#include "crypto/ct.h"
#include "crypto/rsa_int.h"

#define NLMAX VG_RSA52_MAX_LIMBS
#define M52 0xfffffffffffffULL

typedef unsigned __int128 u128;

/* d = AMM(a, b) for one half: word-serial Montgomery in radix 2^52. */
static void
amm52(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *m,
    uint64_t k0, size_t nl)
{
	uint64_t t[NLMAX + 1];
	size_t i, j;

	for (j = 0; j <= nl; j++)
		t[j] = 0;
	for (i = 0; i < nl; i++) {
		uint64_t c = 0, y;
		u128 s;

		for (j = 0; j < nl; j++) {
			s = (u128)a[j] * b[i] + t[j] + c;
			t[j] = (uint64_t)s & M52;
			c = (uint64_t)(s >> 52);
		}
		t[nl] += c;
		y = (t[0] * k0) & M52;
		s = (u128)m[0] * y + t[0];
		c = (uint64_t)(s >> 52);
		for (j = 1; j < nl; j++) {
			s = (u128)m[j] * y + t[j] + c;
			t[j - 1] = (uint64_t)s & M52;
			c = (uint64_t)(s >> 52);
		}
		s = (u128)t[nl] + c;
		t[nl - 1] = (uint64_t)s & M52;
		t[nl] = (uint64_t)(s >> 52);
	}
	for (j = 0; j < nl; j++)
		d[j] = t[j];
	for (; j < VG_RSA52_PAD(nl); j++)
		d[j] = 0;
	vg_wipe(t, sizeof(t));
}

/* see crypto/rsa_kernels.h */
void
vg_rsa_amm52x2_c(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX],
    const uint64_t b[2][NLMAX], const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl)
{
	assert(nl >= 1 && nl <= NLMAX);
	amm52(d[0], a[0], b[0], m[0], k0[0], nl);
	amm52(d[1], a[1], b[1], m[1], k0[1], nl);
}

/* Bits [pos, pos + len) of e (len <= 5; positions are public). */
static uint64_t
window(const uint64_t *e, unsigned pos, unsigned len)
{
	uint64_t v = e[pos / 64] >> (pos % 64);

	if (pos % 64 + len > 64)
		v |= e[pos / 64 + 1] << (64 - pos % 64);
	return v & (((uint64_t)1 << len) - 1);
}

/* see crypto/rsa_kernels.h */
void
vg_rsa_modexp52x2_c(uint64_t d[2][NLMAX], const uint64_t base[2][NLMAX],
    const uint64_t one[2][NLMAX], const uint64_t *const e[2], unsigned ebits,
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl)
{
	/* entry i of half h at table[h] + i * np */
	uint64_t table[2][32 * NLMAX], acc[2][NLMAX], t[2][NLMAX];
	size_t np = VG_RSA52_PAD(nl);
	unsigned nwin, top, w, i, h;

	assert(ebits <= VG_RSA52_MAX_EBITS);
	assert(nl >= 1 && nl <= NLMAX);
	if (ebits == 0) {
		vg_bn_copy(d[0], one[0], np);
		vg_bn_copy(d[1], one[1], np);
		return;
	}
	for (h = 0; h < 2; h++) {
		vg_bn_copy(table[h], one[h], np);
		vg_bn_copy(table[h] + np, base[h], np);
		/* entry i: entry i / 2 squared for even i (as the IFMA
		 * kernel does; entries below 2m are not unique) */
		for (i = 2; i < 32; i++)
			if (i % 2)
				amm52(table[h] + i * np,
				    table[h] + (i - 1) * np, base[h], m[h],
				    k0[h], nl);
			else
				amm52(table[h] + i * np,
				    table[h] + i / 2 * np,
				    table[h] + i / 2 * np, m[h], k0[h], nl);
	}
	nwin = (ebits + 4) / 5;
	top = ebits - 5 * (nwin - 1);
	for (h = 0; h < 2; h++)
		vg_bn_table_select(acc[h], table[h], 32, np,
		    window(e[h], 5 * (nwin - 1), top));
	for (w = nwin - 1; w-- > 0;) {
		for (i = 0; i < 5; i++)
			vg_rsa_amm52x2_c(acc, (const uint64_t(*)[NLMAX])acc,
			    (const uint64_t(*)[NLMAX])acc, m, k0, nl);
		for (h = 0; h < 2; h++)
			vg_bn_table_select(t[h], table[h], 32, np,
			    window(e[h], 5 * w, 5));
		vg_rsa_amm52x2_c(acc, (const uint64_t(*)[NLMAX])acc,
		    (const uint64_t(*)[NLMAX])t, m, k0, nl);
	}
	vg_bn_copy(d[0], acc[0], np);
	vg_bn_copy(d[1], acc[1], np);
	vg_wipe(table, sizeof(table));
	vg_wipe(acc, sizeof(acc));
	vg_wipe(t, sizeof(t));
}

/* see crypto/rsa_int.h */
void
vg_rsa52_from64(uint64_t *d, size_t nl, const uint64_t *x, size_t n)
{
	size_t i;

	for (i = 0; i < nl; i++) {
		size_t bit = 52 * i, w = bit / 64, s = bit % 64;
		uint64_t v = 0;

		if (w < n)
			v = x[w] >> s;
		if (s > 12 && w + 1 < n)
			v |= x[w + 1] << (64 - s);
		d[i] = v & M52;
	}
	for (; i < VG_RSA52_PAD(nl); i++)
		d[i] = 0;
}

/* see crypto/rsa_int.h */
void
vg_rsa52_to64(uint64_t *x, size_t n, const uint64_t *a, size_t nl)
{
	size_t i;

	vg_bn_zero(x, n);
	for (i = 0; i < nl; i++) {
		size_t bit = 52 * i, w = bit / 64, s = bit % 64;

		if (w < n)
			x[w] |= a[i] << s;
		if (s > 12 && w + 1 < n)
			x[w + 1] |= a[i] >> (64 - s);
	}
}

/* see crypto/rsa_kernels.h */
void
vg_rsa_powpub52x2_c(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX],
    const uint64_t *e, unsigned ebits, const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl)
{
	uint64_t x[2][NLMAX], y[2][NLMAX];
	size_t np = VG_RSA52_PAD(nl);
	unsigned i = ebits - 1, h;

	assert(ebits >= 1 && nl >= 1 && nl <= NLMAX);
	for (h = 0; h < 2; h++) {
		vg_bn_copy(x[h], a[h], np);
		vg_bn_copy(y[h], a[h], np);
	}
	while (i-- > 0) {
		vg_rsa_amm52x2_c(y, (const uint64_t(*)[NLMAX])y,
		    (const uint64_t(*)[NLMAX])y, m, k0, nl);
		if ((e[i / 64] >> (i % 64)) & 1) /* e is public */
			vg_rsa_amm52x2_c(y, (const uint64_t(*)[NLMAX])y,
			    (const uint64_t(*)[NLMAX])x, m, k0, nl);
	}
	vg_bn_copy(d[0], y[0], np);
	vg_bn_copy(d[1], y[1], np);
	vg_wipe(x, sizeof(x));
	vg_wipe(y, sizeof(y));
}
