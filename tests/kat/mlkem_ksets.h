/*
 * The ML-KEM kernel sets the known-answer tests run under: the global
 * table first, then AVX2 without the AVX-512VL 4-way Keccak, then the
 * portable twins, each when it differs from the sets before.
 */
#ifndef VG_TESTS_KAT_MLKEM_KSETS_H
#define VG_TESTS_KAT_MLKEM_KSETS_H

#include <stdio.h>
#include <string.h>

#include "crypto/cpu.h"

#define MLKEM_MAX_KSETS 3

struct mlkem_kset {
	const char *name;
	struct vg_kernels k;
};

/* Fills ks with the sets this CPU offers, prints their names and
 * returns how many there are. */
static inline unsigned
mlkem_ksets_fill(struct mlkem_kset ks[MLKEM_MAX_KSETS])
{
	unsigned f = vg_cpu_features(), n = 1, i;

	vg_kernels_fill(&ks[0].k, f);
	ks[0].name = ks[0].k.mlkem.impl;
	if (strcmp(ks[0].k.mlkem.impl, "avx2+avx512vl") == 0) {
		vg_kernels_fill(&ks[n].k,
		    f & ~(unsigned)(VG_CPU_AVX512F | VG_CPU_AVX512VL));
		ks[n++].name = "avx2";
	}
	if (strcmp(ks[0].k.mlkem.impl, "c") != 0) {
		vg_kernels_fill(&ks[n].k, 0);
		ks[n++].name = "c";
	}
	printf("# kernel sets:");
	for (i = 0; i < n; i++)
		printf(" %s", ks[i].name);
	printf("\n");
	return n;
}

#endif
