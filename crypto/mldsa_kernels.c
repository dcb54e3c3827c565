/* Kernel choice for ML-DSA (NTT, sampling, rounding, norm and hint checks, Keccak x4). */
#include "config.h"

#include "crypto/cpu.h"

/* see crypto/mldsa_kernels.h */
void
vg_mldsa_kernels_fill(struct vg_mldsa_kernels *k, unsigned features)
{
	(void)features;
	k->impl = "c";
}
