/*
 * Kernel sub-table for ML-DSA (NTT, sampling, rounding, norm and hint checks, Keccak x4): part of struct vg_kernels (crypto/cpu.h),
 * filled once by vg_mldsa_kernels_fill() from the features in use.
 */
#ifndef VG_CRYPTO_MLDSA_KERNELS_H
#define VG_CRYPTO_MLDSA_KERNELS_H

struct vg_mldsa_kernels {
	const char *impl; /* name of the variant chosen, e.g. "c" */
};

/* Fills *k for the given VG_CPU_* feature set. */
void vg_mldsa_kernels_fill(struct vg_mldsa_kernels *k, unsigned features);

#endif
