/*
 * xorshift64* [S. Vigna, "An experimental exploration of Marsaglia's
 * xorshift generators, scrambled", 2016]: the tests' reproducible
 * pseudo-random numbers, for inputs and seeds of test cases only (never
 * for keys the module keeps). The state must not be 0.
 */
#ifndef VG_TESTS_XORSHIFT_H
#define VG_TESTS_XORSHIFT_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t
vg_xorshift64s(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* n bytes, each the top byte of one output. */
static inline void
vg_xorshift_bytes(uint64_t *s, uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(vg_xorshift64s(s) >> 56);
}

/* -m0^-1 mod 2^64 for odd m0 (Newton's iteration, computed here apart
 * from the library's own), the Montgomery constant of the kernel tests. */
static inline uint64_t
vg_test_neg_inv64(uint64_t m0)
{
	uint64_t x = (3 * m0) ^ 2;
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - m0 * x;
	return 0 - x;
}

#endif
