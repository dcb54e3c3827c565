/* Kernel choice for RSA (Montgomery arithmetic). */
#include "config.h"

#include "crypto/cpu.h"

/* see crypto/rsa_kernels.h */
void
vg_rsa_kernels_fill(struct vg_rsa_kernels *k, unsigned features)
{
	(void)features;
	k->impl = "c";
}
