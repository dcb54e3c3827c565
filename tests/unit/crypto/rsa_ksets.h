/*
 * The RSA kernel sets the RSA unit tests run under: those this CPU has
 * (portable first: the portable kernels, MULX/ADX, AVX-512 IFMA with
 * MULX/ADX, IFMA on 256-bit registers only ("ifma256", a mask without
 * avx512f) with the portable 64-bit kernels), then the IFMA pair's
 * portable twins ("c52"), so that the pair's path (the halves, the
 * blinding per prime and the fault check) runs on any CPU and under
 * VG_CPU_FEATURES=none.
 */
#ifndef VG_TESTS_UNIT_CRYPTO_RSA_KSETS_H
#define VG_TESTS_UNIT_CRYPTO_RSA_KSETS_H

#include <stddef.h>

#include "crypto/cpu.h"
#include "crypto/rsa_kernels.h"

#define RSA_MAX_KSETS 5

/* Fills k with the sets and returns how many there are. */
static inline size_t
rsa_ksets_fill(struct vg_rsa_kernels k[RSA_MAX_KSETS])
{
	static const unsigned sets[] = {
		0,
		VG_CPU_BMI2 | VG_CPU_ADX,
		VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX512F | VG_CPU_AVX512VL |
		    VG_CPU_AVX512IFMA,
		/* ifma256 with the portable 64-bit kernels */
		VG_CPU_AVX512VL | VG_CPU_AVX512IFMA,
	};
	size_t i, n = 0;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if ((sets[i] & vg_cpu_features()) == sets[i])
			vg_rsa_kernels_fill(&k[n++], sets[i]);
	vg_rsa_kernels_fill(&k[n], 0);
	k[n].impl = "c52";
	k[n].amm52x2 = vg_rsa_amm52x2_c;
	k[n].modexp52x2 = vg_rsa_modexp52x2_c;
	k[n].powpub52x2 = vg_rsa_powpub52x2_c;
	k[n].amm52_words = VG_RSA52_WORDS_BIT(16) | VG_RSA52_WORDS_BIT(24) |
	    VG_RSA52_WORDS_BIT(32);
	return n + 1;
}

#endif
