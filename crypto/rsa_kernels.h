/*
 * Kernel sub-table for RSA (Montgomery arithmetic): part of struct vg_kernels (crypto/cpu.h),
 * filled once by vg_rsa_kernels_fill() from the features in use.
 */
#ifndef VG_CRYPTO_RSA_KERNELS_H
#define VG_CRYPTO_RSA_KERNELS_H

struct vg_rsa_kernels {
	const char *impl; /* name of the variant chosen, e.g. "c" */
};

/* Fills *k for the given VG_CPU_* feature set. */
void vg_rsa_kernels_fill(struct vg_rsa_kernels *k, unsigned features);

#endif
