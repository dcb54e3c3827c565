/* Kernel choice for P-256 (field arithmetic and point selection). */
#include "config.h"

#include "crypto/cpu.h"

/* see crypto/p256_kernels.h */
void
vg_p256_kernels_fill(struct vg_p256_kernels *k, unsigned features)
{
	k->mul = vg_p256_mul_c;
	k->sqr = vg_p256_sqr_c;
	k->sqr_n = vg_p256_sqr_n_c;
	k->ord_mul = vg_p256_ord_mul_c;
	k->point_double = vg_p256_point_double_c;
	k->point_add_cached = vg_p256_point_add_cached_c;
	k->point_add_affine = vg_p256_point_add_affine_c;
	k->impl = "c";
	k->select_w5 = vg_p256_select_w5_c;
	k->select_w7 = vg_p256_select_w7_c;
	k->select_impl = "c";
#ifdef VG_HAVE_P256_X86_64_KERNELS
	if ((features & (VG_CPU_BMI2 | VG_CPU_ADX)) ==
	    (VG_CPU_BMI2 | VG_CPU_ADX)) {
		k->mul = vg_p256_mul_adx;
		k->sqr = vg_p256_sqr_adx;
		k->sqr_n = vg_p256_sqr_n_adx;
		k->ord_mul = vg_p256_ord_mul_adx;
		k->point_double = vg_p256_point_double_adx;
		k->point_add_cached = vg_p256_point_add_cached_adx;
		k->point_add_affine = vg_p256_point_add_affine_adx;
		k->impl = "adx";
	}
	if (features & VG_CPU_AVX2) {
		k->select_w5 = vg_p256_select_w5_avx2;
		k->select_w7 = vg_p256_select_w7_avx2;
		k->select_impl = "avx2";
		if (features & VG_CPU_AVX512F) {
			k->select_w7 = vg_p256_select_w7_avx512;
			k->select_impl = "avx512";
		}
	}
#else
	(void)features;
#endif
}
