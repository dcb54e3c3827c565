/*
 * The exponentiation's table read with AVX2: the contract of
 * vg_bn_table_select (crypto/bn.h) for n a multiple of 4. Every entry is
 * read in full; the mask comes from a vector compare of the running entry
 * number with idx, so no branch or address depends on idx. Sixteen words
 * (four YMM accumulators) per pass over the table, then four at a time.
 */
#include "config.h"

#include "crypto/rsa_kernels.h"

#if defined(VG_HAVE_RSA_X86_64_KERNELS)
#include <immintrin.h>

/* see crypto/rsa_kernels.h */
__attribute__((target("avx2"))) void
vg_bn_table_select_avx2(uint64_t *d, const uint64_t *table, size_t count,
    size_t n, uint64_t idx)
{
	const __m256i want = _mm256_set1_epi64x((long long)idx);
	const __m256i one = _mm256_set1_epi64x(1);
	size_t i, j = 0;

	for (; j + 16 <= n; j += 16) {
		__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
		__m256i cur = a0;

		for (i = 0; i < count; i++) {
			const __m256i *t = (const __m256i *)(const void *)
			    (table + i * n + j);
			__m256i m = _mm256_cmpeq_epi64(cur, want);

			a0 = _mm256_or_si256(a0,
			    _mm256_and_si256(_mm256_loadu_si256(t), m));
			a1 = _mm256_or_si256(a1,
			    _mm256_and_si256(_mm256_loadu_si256(t + 1), m));
			a2 = _mm256_or_si256(a2,
			    _mm256_and_si256(_mm256_loadu_si256(t + 2), m));
			a3 = _mm256_or_si256(a3,
			    _mm256_and_si256(_mm256_loadu_si256(t + 3), m));
			cur = _mm256_add_epi64(cur, one);
		}
		_mm256_storeu_si256((__m256i *)(void *)(d + j), a0);
		_mm256_storeu_si256((__m256i *)(void *)(d + j + 4), a1);
		_mm256_storeu_si256((__m256i *)(void *)(d + j + 8), a2);
		_mm256_storeu_si256((__m256i *)(void *)(d + j + 12), a3);
	}
	for (; j + 4 <= n; j += 4) {
		__m256i a0 = _mm256_setzero_si256(), cur = a0;

		for (i = 0; i < count; i++) {
			const __m256i *t = (const __m256i *)(const void *)
			    (table + i * n + j);
			__m256i m = _mm256_cmpeq_epi64(cur, want);

			a0 = _mm256_or_si256(a0,
			    _mm256_and_si256(_mm256_loadu_si256(t), m));
			cur = _mm256_add_epi64(cur, one);
		}
		_mm256_storeu_si256((__m256i *)(void *)(d + j), a0);
	}
}
#endif
