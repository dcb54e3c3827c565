/*
 * Keccak-f[1600] [FIPS 202 §3] with BMI2: the portable body of
 * crypto/keccak_f1600.h compiled for andn (chi's ~b & c in one
 * instruction) and rorx (rotations that leave their source intact). Same
 * contract as vg_keccakf1600_c (crypto/cpu.h); selected by crypto/cpu.c
 * when the CPU has BMI2.
 * CT: straight-line rounds, no data-dependent branch or index.
 */
#include "config.h"

#include "crypto/x86_64/kernels.h"

#if defined(__x86_64__)
#include "crypto/keccak_f1600.h"

/* see crypto/x86_64/kernels.h */
__attribute__((target("bmi,bmi2"))) void
vg_keccakf1600_bmi2(uint64_t st[25])
{
	vg_keccak_f1600_body(st);
}

#endif
