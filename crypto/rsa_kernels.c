/* Kernel choice for RSA (Montgomery arithmetic): IFMA > ADX > portable. */
#include "config.h"

#include "crypto/cpu.h"

/*
 * The half sizes where the IFMA pair runs the private operation: those
 * where it beat the ADX kernels on an AVX-512 IFMA CPU (an Intel Xeon;
 * vgtoken-bench crypto, VG_CPU_FEATURES=bmi2,adx,avx2 for ADX): RSA-2048
 * 0.33 ms vs 0.77 ms, RSA-3072 0.98 ms vs 2.3 ms, RSA-4096 2.0 ms vs
 * 5.2 ms per private operation.
 */
#define VG_RSA52_IFMA_WORDS                                               \
	(VG_RSA52_WORDS_BIT(16) | VG_RSA52_WORDS_BIT(24) |                \
	    VG_RSA52_WORDS_BIT(32))

/* see crypto/rsa_kernels.h */
void
vg_rsa_kernels_fill(struct vg_rsa_kernels *k, unsigned features)
{
	k->impl = "c";
	k->montmul = vg_bn_montmul_c;
	k->montsqr = vg_bn_montsqr_c;
	k->montmul_amm = vg_bn_montmul_amm_c;
	k->montsqr_amm = vg_bn_montsqr_amm_c;
	k->amm52x2 = NULL;
	k->modexp52x2 = NULL;
	k->powpub52x2 = NULL;
	k->amm52_words = 0;
#ifdef VG_HAVE_RSA_X86_64_KERNELS
	if ((features & (VG_CPU_BMI2 | VG_CPU_ADX)) ==
	    (VG_CPU_BMI2 | VG_CPU_ADX)) {
		k->impl = "adx";
		k->montmul = vg_bn_montmul_adx;
		k->montsqr = vg_bn_montsqr_adx;
		k->montmul_amm = vg_bn_montmul_amm_adx;
		k->montsqr_amm = vg_bn_montsqr_amm_adx;
	}
	if ((features & (VG_CPU_AVX512IFMA | VG_CPU_AVX512VL)) ==
	    (VG_CPU_AVX512IFMA | VG_CPU_AVX512VL)) {
		/* 512-bit registers unless the mask leaves out avx512f */
		int wide = (features & VG_CPU_AVX512F) != 0;

		k->impl = wide ? "ifma" : "ifma256";
		k->amm52x2 = wide ? vg_rsa_amm52x2_ifma : vg_rsa_amm52x2_ifma256;
		k->modexp52x2 = wide ? vg_rsa_modexp52x2_ifma :
		    vg_rsa_modexp52x2_ifma256;
		k->powpub52x2 = wide ? vg_rsa_powpub52x2_ifma :
		    vg_rsa_powpub52x2_ifma256;
		k->amm52_words = VG_RSA52_IFMA_WORDS;
	}
#else
	(void)features;
#endif
}
