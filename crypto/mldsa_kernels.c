/*
 * Kernel choice for ML-DSA: the AVX2 set when VG_CPU_AVX2 is in use, the
 * portable twins otherwise. The choice depends only on the features.
 */
#include "config.h"

#include "crypto/cpu.h"
#include "crypto/mldsa_kernels.h"

/* see crypto/mldsa_kernels.h */
void
vg_mldsa_kernels_fill(struct vg_mldsa_kernels *k, unsigned features)
{
	k->impl = "c";
	k->ntt = vg_mldsa_ntt_c;
	k->invntt = vg_mldsa_invntt_c;
	k->pointwise = vg_mldsa_pointwise_c;
	k->pointwise_acc = vg_mldsa_pointwise_acc_c;
	k->rej_uniform = vg_mldsa_rej_uniform_c;
	k->rej_eta = vg_mldsa_rej_eta_c;
	k->expand_mask = vg_mldsa_expand_mask_c;
	k->power2round = vg_mldsa_power2round_c;
	k->decompose = vg_mldsa_decompose_c;
	k->use_hint = vg_mldsa_use_hint_c;
	k->chknorm = vg_mldsa_chknorm_c;
	k->make_hint = vg_mldsa_make_hint_c;
	k->w1_pack = vg_mldsa_w1_pack_c;
	k->reduce_sum = vg_mldsa_reduce_sum_c;
	k->hint_input = vg_mldsa_hint_input_c;
	k->keccakx4 = vg_keccakx4_c;
#if defined(__x86_64__)
	if (features & VG_CPU_AVX2) {
		k->impl = "avx2";
		k->ntt = vg_mldsa_ntt_avx2;
		k->invntt = vg_mldsa_invntt_avx2;
		k->pointwise = vg_mldsa_pointwise_avx2;
		k->pointwise_acc = vg_mldsa_pointwise_acc_avx2;
		k->rej_uniform = vg_mldsa_rej_uniform_avx2;
		k->rej_eta = vg_mldsa_rej_eta_avx2;
		k->expand_mask = vg_mldsa_expand_mask_avx2;
		k->power2round = vg_mldsa_power2round_avx2;
		k->decompose = vg_mldsa_decompose_avx2;
		k->use_hint = vg_mldsa_use_hint_avx2;
		k->chknorm = vg_mldsa_chknorm_avx2;
		k->make_hint = vg_mldsa_make_hint_avx2;
		k->w1_pack = vg_mldsa_w1_pack_avx2;
		k->reduce_sum = vg_mldsa_reduce_sum_avx2;
		k->hint_input = vg_mldsa_hint_input_avx2;
		k->keccakx4 = vg_keccakx4_avx2;
	}
	/* The 4-way Keccak only: rotations and three-input logic in one
	 * instruction each (256-bit vectors, no 512-bit state). */
	if ((features & (VG_CPU_AVX2 | VG_CPU_AVX512F | VG_CPU_AVX512VL)) ==
	    (VG_CPU_AVX2 | VG_CPU_AVX512F | VG_CPU_AVX512VL)) {
		k->impl = "avx2+avx512vl";
		k->keccakx4 = vg_keccakx4_avx512vl;
	}
#else
	(void)features;
#endif
}
