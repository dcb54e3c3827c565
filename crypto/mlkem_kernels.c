/*
 * Kernel choice for ML-KEM: the AVX2 set when VG_CPU_AVX2 is in use, the
 * portable twins otherwise; the 4-way Keccak is ML-DSA's choice. The
 * choice depends only on the features.
 */
#include "config.h"

#include "crypto/cpu.h"
#include "crypto/mldsa_kernels.h"
#include "crypto/mlkem_kernels.h"

/* see crypto/mlkem_kernels.h */
void
vg_mlkem_kernels_fill(struct vg_mlkem_kernels *k, unsigned features)
{
	struct vg_mldsa_kernels d;

	vg_mldsa_kernels_fill(&d, features);
	k->impl = "c";
	k->ntt = vg_mlkem_ntt_c;
	k->invntt = vg_mlkem_invntt_c;
	k->basemul_acc = vg_mlkem_basemul_acc_c;
	k->rej_uniform = vg_mlkem_rej_uniform_c;
	k->cbd = vg_mlkem_cbd_c;
	k->compress = vg_mlkem_compress_c;
	k->pack = vg_mlkem_pack_c;
	k->tobytes = vg_mlkem_tobytes_c;
	k->frombytes = vg_mlkem_frombytes_c;
	k->decompress = vg_mlkem_decompress_c;
	k->keccakx4 = d.keccakx4;
#if defined(__x86_64__)
	if (features & VG_CPU_AVX2) {
		k->impl = "avx2";
		k->ntt = vg_mlkem_ntt_avx2;
		k->invntt = vg_mlkem_invntt_avx2;
		k->basemul_acc = vg_mlkem_basemul_acc_avx2;
		k->rej_uniform = vg_mlkem_rej_uniform_avx2;
		k->cbd = vg_mlkem_cbd_avx2;
		k->compress = vg_mlkem_compress_avx2;
		k->pack = vg_mlkem_pack_avx2;
		k->tobytes = vg_mlkem_tobytes_avx2;
		k->frombytes = vg_mlkem_frombytes_avx2;
		k->decompress = vg_mlkem_decompress_avx2;
	}
	if (k->keccakx4 == vg_keccakx4_avx512vl)
		k->impl = "avx2+avx512vl";
#endif
}
