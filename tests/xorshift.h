/*
 * xorshift64* [S. Vigna, "An experimental exploration of Marsaglia's
 * xorshift generators, scrambled", 2016]: the tests' reproducible
 * pseudo-random numbers, for inputs and seeds of test cases only (never
 * for keys the module keeps). The state must not be 0.
 */
#ifndef VG_TESTS_XORSHIFT_H
#define VG_TESTS_XORSHIFT_H

#include <stdint.h>

static inline uint64_t
vg_xorshift64s(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

#endif
