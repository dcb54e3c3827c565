/*
 * CPU probe and the kernel table. This file is the only place that runs
 * CPUID, and the table below is the only mutable global in crypto/.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/x86_64/kernels.h"

static const char *const feature_names[VG_CPU_FEATURE_COUNT] = {
	"avx", "avx2", "bmi2", "adx", "avx512f", "avx512vl", "avx512ifma",
	"aesni", "pclmul", "shani", "vaes", "vpclmul", "avx512bw",
};

/* see crypto/cpu.h */
const char *
vg_cpu_feature_name(unsigned i)
{
	return i < VG_CPU_FEATURE_COUNT ? feature_names[i] : NULL;
}

#if defined(__x86_64__)
static void
cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ __volatile__("cpuid"
	    : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
	    : "a"(leaf), "c"(sub));
}

static uint64_t
xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static unsigned
probe(void)
{
	uint32_t r[4], max, ecx1, ebx7 = 0, ecx7 = 0;
	uint64_t xcr0 = 0;
	unsigned f = 0;
	int ymm_ok, zmm_ok;

	cpuid(0, 0, r);
	max = r[0];
	if (max < 1)
		return 0;
	cpuid(1, 0, r);
	ecx1 = r[2];
	if (max >= 7) {
		cpuid(7, 0, r);
		ebx7 = r[1];
		ecx7 = r[2];
	}
	if (ecx1 & (1u << 27)) /* OSXSAVE */
		xcr0 = xgetbv0();
	ymm_ok = (xcr0 & 0x6) == 0x6;
	zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;

	if (ecx1 & (1u << 25))
		f |= VG_CPU_AESNI;
	if (ecx1 & (1u << 1))
		f |= VG_CPU_PCLMUL;
	if (ymm_ok && (ecx1 & (1u << 28)))
		f |= VG_CPU_AVX;
	/* avx2 here also means POPCNT (every AVX2 CPU has it; the AVX2
	 * kernels count accepted candidates with it) */
	if (ymm_ok && (ebx7 & (1u << 5)) && (ecx1 & (1u << 23)))
		f |= VG_CPU_AVX2;
	if ((ebx7 & (1u << 8)) && (ebx7 & (1u << 3))) /* BMI2 + BMI1 (andn) */
		f |= VG_CPU_BMI2;
	if (ebx7 & (1u << 19))
		f |= VG_CPU_ADX;
	if ((ebx7 & (1u << 29)) && (ecx1 & (1u << 19))) /* SHA + SSE4.1 */
		f |= VG_CPU_SHANI;
	/* VAES and VPCLMULQDQ: the VEX forms need the YMM state */
	if (ymm_ok && (ecx7 & (1u << 9)))
		f |= VG_CPU_VAES;
	if (ymm_ok && (ecx7 & (1u << 10)))
		f |= VG_CPU_VPCLMUL;
	if (zmm_ok && (ebx7 & (1u << 16))) {
		f |= VG_CPU_AVX512F;
		if (ebx7 & (1u << 30))
			f |= VG_CPU_AVX512BW;
		if (ebx7 & (1u << 31))
			f |= VG_CPU_AVX512VL;
		if (ebx7 & (1u << 21))
			f |= VG_CPU_AVX512IFMA;
	}
	return f;
}
#else
static unsigned
probe(void)
{
	return 0;
}
#endif

/* see crypto/cpu.h */
unsigned
vg_cpu_parse_mask(const char *spec, unsigned *unknown)
{
	unsigned mask = 0, bad = 0, i;
	const char *p = spec;

	if (spec == NULL) {
		mask = (1u << VG_CPU_FEATURE_COUNT) - 1;
		goto out;
	}
	while (*p != '\0') {
		size_t n;

		while (*p == ',' || *p == ' ')
			p++;
		n = strcspn(p, ", ");
		if (n == 0)
			break;
		if (n == 4 && strncmp(p, "none", 4) == 0) {
			/* contributes nothing */
		} else if (n == 3 && strncmp(p, "all", 3) == 0) {
			mask = (1u << VG_CPU_FEATURE_COUNT) - 1;
		} else {
			for (i = 0; i < VG_CPU_FEATURE_COUNT; i++)
				if (strlen(feature_names[i]) == n &&
				    strncmp(p, feature_names[i], n) == 0)
					break;
			if (i < VG_CPU_FEATURE_COUNT)
				mask |= 1u << i;
			else
				bad++;
		}
		p += n;
	}
out:
	if (unknown != NULL)
		*unknown = bad;
	return mask;
}

/* see crypto/cpu.h */
void
vg_kernels_fill(struct vg_kernels *k, unsigned f)
{
	memset(k, 0, sizeof(*k));
	k->features = f;
	k->sha1_blocks = vg_sha1_blocks_c;
	k->sha1_impl = "c";
	k->sha256_blocks = vg_sha256_blocks_c;
	k->sha256_impl = "c";
	k->sha512_blocks = vg_sha512_blocks_c;
	k->sha512_impl = "c";
	k->keccakf1600 = vg_keccakf1600_c;
	k->keccak_impl = "c";
	k->aes_setkey = vg_aes_setkey_c;
	k->aes_encrypt = vg_aes_encrypt_c;
	k->aes_decrypt = vg_aes_decrypt_c;
	k->aes_impl = "c";
	k->ghash = vg_ghash_c;
	k->ghash_impl = "c";
	k->aes_ctr32 = vg_aes_ctr32_c;
	k->aes_cbc_dec = vg_aes_cbc_dec_c;
	k->aes_modes_impl = "c";
	k->aes_cbc_enc = vg_aes_cbc_enc_c;
	k->aes_cbc_mac = vg_aes_cbc_mac_c;
	k->ghash_init = vg_ghash_init_c;
	k->ghash_update = vg_ghash_update_c;
	k->ghash_update_impl = "c";
	vg_rsa_kernels_fill(&k->rsa, f);
	vg_p256_kernels_fill(&k->p256, f);
	vg_mldsa_kernels_fill(&k->mldsa, f);
	vg_c25519_kernels_fill(&k->c25519, f);
	vg_mlkem_kernels_fill(&k->mlkem, f);
#ifdef VG_HAVE_X86_64_KERNELS
	if (f & VG_CPU_SHANI) {
		k->sha1_blocks = vg_sha1_blocks_shani;
		k->sha1_impl = "shani";
		k->sha256_blocks = vg_sha256_blocks_shani;
		k->sha256_impl = "shani";
	}
	if ((f & VG_CPU_AVX2) && (f & VG_CPU_BMI2)) {
		k->sha512_blocks = vg_sha512_blocks_avx2;
		k->sha512_impl = "avx2";
	}
	if (f & VG_CPU_AESNI) {
		k->aes_setkey = vg_aes_setkey_aesni;
		k->aes_encrypt = vg_aes_encrypt_aesni;
		k->aes_decrypt = vg_aes_decrypt_aesni;
		k->aes_impl = "aesni";
		k->aes_ctr32 = vg_aes_ctr32_aesni;
		k->aes_cbc_dec = vg_aes_cbc_dec_aesni;
		k->aes_modes_impl = "aesni";
		k->aes_cbc_enc = vg_aes_cbc_enc_aesni;
		k->aes_cbc_mac = vg_aes_cbc_mac_aesni;
	}
	if ((f & VG_CPU_AESNI) && (f & VG_CPU_VAES) && (f & VG_CPU_AVX2)) {
		k->aes_ctr32 = vg_aes_ctr32_vaes256;
		k->aes_cbc_dec = vg_aes_cbc_dec_vaes256;
		k->aes_modes_impl = "vaes256";
	}
	if ((f & VG_CPU_AESNI) && (f & VG_CPU_VAES) && (f & VG_CPU_AVX512F) &&
	    (f & VG_CPU_AVX512BW)) {
		k->aes_ctr32 = vg_aes_ctr32_vaes512;
		k->aes_cbc_dec = vg_aes_cbc_dec_vaes512;
		k->aes_modes_impl = "vaes512";
	}
	if (f & VG_CPU_BMI2) {
		k->keccakf1600 = vg_keccakf1600_bmi2;
		k->keccak_impl = "bmi2";
	}
	if (f & VG_CPU_PCLMUL) {
		k->ghash = vg_ghash_pclmul;
		k->ghash_impl = "pclmul";
		k->ghash_init = vg_ghash_init_pclmul;
		k->ghash_update = vg_ghash_update_pclmul;
		k->ghash_update_impl = "pclmul";
	}
	if ((f & VG_CPU_PCLMUL) && (f & VG_CPU_VPCLMUL) && (f & VG_CPU_AVX2)) {
		k->ghash_update = vg_ghash_update_vpclmul256;
		k->ghash_update_impl = "vpclmul256";
	}
	if ((f & VG_CPU_PCLMUL) && (f & VG_CPU_VPCLMUL) &&
	    (f & VG_CPU_AVX512F) && (f & VG_CPU_AVX512BW)) {
		k->ghash_update = vg_ghash_update_vpclmul512;
		k->ghash_update_impl = "vpclmul512";
	}
	/* the stitched GCM loop where both halves are the 128-bit ones */
	if (k->aes_ctr32 == vg_aes_ctr32_aesni &&
	    k->ghash_update == vg_ghash_update_pclmul)
		k->aes_gcm_enc = vg_aes_gcm_enc_aesni;
#endif
}

static struct {
	pthread_once_t once;
	unsigned detected;
	unsigned features;
	unsigned unknown;
	struct vg_kernels table;
} g_cpu = { PTHREAD_ONCE_INIT, 0, 0, 0, { 0 } };

static void
cpu_init_once(void)
{
	g_cpu.detected = probe();
	g_cpu.features = g_cpu.detected &
	    vg_cpu_parse_mask(getenv("VG_CPU_FEATURES"), &g_cpu.unknown);
	vg_kernels_fill(&g_cpu.table, g_cpu.features);
}

/* see crypto/cpu.h */
unsigned
vg_cpu_detected(void)
{
	pthread_once(&g_cpu.once, cpu_init_once);
	return g_cpu.detected;
}

/* see crypto/cpu.h */
unsigned
vg_cpu_features(void)
{
	pthread_once(&g_cpu.once, cpu_init_once);
	return g_cpu.features;
}

/* see crypto/cpu.h */
unsigned
vg_cpu_mask_unknown(void)
{
	pthread_once(&g_cpu.once, cpu_init_once);
	return g_cpu.unknown;
}

/* see crypto/cpu.h */
const struct vg_kernels *
vg_kernels(void)
{
	pthread_once(&g_cpu.once, cpu_init_once);
	return &g_cpu.table;
}
