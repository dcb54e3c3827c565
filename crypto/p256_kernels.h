/*
 * Kernel sub-table for P-256 (field arithmetic and point selection): part of struct vg_kernels (crypto/cpu.h),
 * filled once by vg_p256_kernels_fill() from the features in use.
 */
#ifndef VG_CRYPTO_P256_KERNELS_H
#define VG_CRYPTO_P256_KERNELS_H

struct vg_p256_kernels {
	const char *impl; /* name of the variant chosen, e.g. "c" */
};

/* Fills *k for the given VG_CPU_* feature set. */
void vg_p256_kernels_fill(struct vg_p256_kernels *k, unsigned features);

#endif
