/* Kernel choice for P-256 (field arithmetic and point selection). */
#include "config.h"

#include "crypto/cpu.h"

/* see crypto/p256_kernels.h */
void
vg_p256_kernels_fill(struct vg_p256_kernels *k, unsigned features)
{
	(void)features;
	k->impl = "c";
}
