/*
 * The AES and GHASH kernels against their portable twins, on edge and
 * random inputs (lengths up to 4.8 KiB, every key size, misaligned
 * buffers, in place), when the CPU has the instructions (otherwise the
 * tests say why and skip):
 *  - vg_aes_*_aesni against vg_aes_*_c, vg_ghash_pclmul against vg_ghash_c;
 *  - the mode kernels against crypto/aes_modes_c.c: CTR with inc32 and CBC
 *    decryption (AES-NI, VAES-256, VAES-512), CBC encryption and CBC-MAC
 *    (AES-NI), stitched GCM encryption (AES-NI with PCLMULQDQ);
 *  - keyed GHASH (PCLMULQDQ, VPCLMULQDQ-256 and -512) against
 *    vg_ghash_update_c.
 * Also: the portable kernels on their own known answers, and the kernels
 * in vg_kernels() against vg_cpu_features() (the suite is also run with
 * VG_CPU_FEATURES=none). VG_TEST_SEED (decimal) changes the random inputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/aes.h"
#include "crypto/cpu.h"
#include "crypto/x86_64/kernels.h"

#define MAX_BLOCKS 70

static uint64_t rng_state;

static int
setup_rng(void **state)
{
	const char *s = getenv("VG_TEST_SEED");

	(void)state;
	rng_state = s != NULL ? strtoull(s, NULL, 10) : 20240611u;
	return 0;
}

static void
unhex(uint8_t *out, const char *hex)
{
	size_t i, n = strlen(hex) / 2;

	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

#ifdef VG_HAVE_X86_64_KERNELS
static uint64_t
rng64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void
rng_bytes(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rng64();
}

/* Key kind i: all zero, all ones, then random. */
static void
make_key(uint8_t *key, size_t len, unsigned i)
{
	if (i == 0)
		memset(key, 0x00, len);
	else if (i == 1)
		memset(key, 0xff, len);
	else
		rng_bytes(key, len);
}

/* Data kind i: all zero, all ones, then random. */
static void
make_data(uint8_t *p, size_t len, unsigned i)
{
	if (i == 0)
		memset(p, 0x00, len);
	else if (i == 1)
		memset(p, 0xff, len);
	else
		rng_bytes(p, len);
}

/* Block counts: 1..17 and a few beyond the 8-block and 4-block strides. */
static const size_t nblocks_list[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 32,
	33, 64, MAX_BLOCKS
};
#define N_NBLOCKS (sizeof(nblocks_list) / sizeof(nblocks_list[0]))
#endif

/* ------------------------------------------------------------ the table */

static void
test_table_names(void **state)
{
	const struct vg_kernels *kt = vg_kernels();
	unsigned f = vg_cpu_features(), det = vg_cpu_detected();
	const char *env = getenv("VG_CPU_FEATURES");
	struct vg_kernels t;

	(void)state;
	print_message("detected 0x%x, in use 0x%x (VG_CPU_FEATURES=%s): "
	    "aes %s, ghash %s\n", det, f, env != NULL ? env : "(unset)",
	    kt->aes_impl, kt->ghash_impl);
	assert_int_equal(f & ~det, 0);
	if (env != NULL && strcmp(env, "none") == 0)
		assert_int_equal(f, 0);
#ifdef VG_HAVE_X86_64_KERNELS
	assert_string_equal(kt->aes_impl, (f & VG_CPU_AESNI) ? "aesni" : "c");
	assert_string_equal(kt->ghash_impl,
	    (f & VG_CPU_PCLMUL) ? "pclmul" : "c");
	assert_true(kt->aes_encrypt == ((f & VG_CPU_AESNI) ?
	    vg_aes_encrypt_aesni : vg_aes_encrypt_c));
	assert_true(kt->aes_decrypt == ((f & VG_CPU_AESNI) ?
	    vg_aes_decrypt_aesni : vg_aes_decrypt_c));
	assert_true(kt->aes_setkey == ((f & VG_CPU_AESNI) ?
	    vg_aes_setkey_aesni : vg_aes_setkey_c));
	assert_true(kt->ghash == ((f & VG_CPU_PCLMUL) ? vg_ghash_pclmul :
	    vg_ghash_c));
	{
		const unsigned v512 = VG_CPU_AVX512F | VG_CPU_AVX512BW;
		const unsigned ma = VG_CPU_AESNI | VG_CPU_VAES;
		const unsigned mp = VG_CPU_PCLMUL | VG_CPU_VPCLMUL;
		int vaes = (f & (ma | v512)) == (ma | v512);
		int vpcl = (f & (mp | v512)) == (mp | v512);
		int vaes2 = (f & (ma | VG_CPU_AVX2)) == (ma | VG_CPU_AVX2);
		int vpcl2 = (f & (mp | VG_CPU_AVX2)) == (mp | VG_CPU_AVX2);

		print_message("modes %s, keyed ghash %s\n",
		    kt->aes_modes_impl, kt->ghash_update_impl);
		assert_string_equal(kt->aes_modes_impl, vaes ? "vaes512" :
		    vaes2 ? "vaes256" : (f & VG_CPU_AESNI) ? "aesni" : "c");
		assert_true(kt->aes_ctr32 == (vaes ? vg_aes_ctr32_vaes512 :
		    vaes2 ? vg_aes_ctr32_vaes256 :
		    (f & VG_CPU_AESNI) ? vg_aes_ctr32_aesni :
		    vg_aes_ctr32_c));
		assert_true(kt->aes_cbc_dec == (vaes ?
		    vg_aes_cbc_dec_vaes512 : vaes2 ? vg_aes_cbc_dec_vaes256 :
		    (f & VG_CPU_AESNI) ? vg_aes_cbc_dec_aesni :
		    vg_aes_cbc_dec_c));
		assert_string_equal(kt->ghash_update_impl, vpcl ?
		    "vpclmul512" : vpcl2 ? "vpclmul256" :
		    (f & VG_CPU_PCLMUL) ? "pclmul" : "c");
		assert_true(kt->ghash_update == (vpcl ?
		    vg_ghash_update_vpclmul512 : vpcl2 ?
		    vg_ghash_update_vpclmul256 : (f & VG_CPU_PCLMUL) ?
		    vg_ghash_update_pclmul : vg_ghash_update_c));
		assert_true(kt->aes_cbc_enc == ((f & VG_CPU_AESNI) ?
		    vg_aes_cbc_enc_aesni : vg_aes_cbc_enc_c));
		assert_true(kt->aes_cbc_mac == ((f & VG_CPU_AESNI) ?
		    vg_aes_cbc_mac_aesni : vg_aes_cbc_mac_c));
		assert_true(kt->aes_gcm_enc == ((!vaes && !vaes2 &&
		    (f & VG_CPU_AESNI) && !vpcl && !vpcl2 &&
		    (f & VG_CPU_PCLMUL)) ? vg_aes_gcm_enc_aesni : NULL));
		assert_true(kt->ghash_init == ((f & VG_CPU_PCLMUL) ?
		    vg_ghash_init_pclmul : vg_ghash_init_c));
	}
#else
	assert_string_equal(kt->aes_impl, "c");
	assert_string_equal(kt->ghash_impl, "c");
#endif
	/* The portable table whatever the CPU. */
	vg_kernels_fill(&t, 0);
	assert_string_equal(t.aes_impl, "c");
	assert_string_equal(t.ghash_impl, "c");
	assert_true(t.aes_setkey == vg_aes_setkey_c);
	assert_true(t.aes_encrypt == vg_aes_encrypt_c);
	assert_true(t.aes_decrypt == vg_aes_decrypt_c);
	assert_true(t.ghash == vg_ghash_c);
	assert_true(t.aes_ctr32 == vg_aes_ctr32_c);
	assert_true(t.aes_cbc_dec == vg_aes_cbc_dec_c);
	assert_true(t.aes_cbc_enc == vg_aes_cbc_enc_c);
	assert_true(t.aes_cbc_mac == vg_aes_cbc_mac_c);
	assert_true(t.aes_gcm_enc == NULL);
	assert_true(t.ghash_init == vg_ghash_init_c);
	assert_true(t.ghash_update == vg_ghash_update_c);
}

/* ------------------------------------------------- portable known answers */

/* FIPS 197 Appendix C through the portable kernel, whatever the table
 * picked, so vg_aes_*_c is checked on every machine. */
static void
test_aes_c_kat(void **state)
{
	static const char *const ct[3] = {
		"69c4e0d86a7b0430d8cdb78070b4c55a",
		"dda97ca4864cdfe06eaf70a0ec0d7191",
		"8ea2b7ca516745bfeafc49904b496089",
	};
	struct vg_aes_key k;
	uint8_t key[32], pt[16], exp[16], out[16];
	unsigned i, s;

	(void)state;
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < 16; i++)
		pt[i] = (uint8_t)(i * 0x11);
	for (s = 0; s < 3; s++) {
		assert_int_equal(vg_aes_setkey_c(&k, key, 16 + 8 * s), 0);
		unhex(exp, ct[s]);
		vg_aes_encrypt_c(&k, out, pt, 1);
		assert_memory_equal(out, exp, 16);
		vg_aes_decrypt_c(&k, out, exp, 1);
		assert_memory_equal(out, pt, 16);
	}
	assert_int_equal(vg_aes_setkey_c(&k, key, 0), -1);
	assert_int_equal(vg_aes_setkey_c(&k, key, 20), -1);
	assert_int_equal(vg_aes_setkey_c(&k, key, 33), -1);
}

/* GHASH of GCM test case 2 [McGrew-Viega]: H = E_0(0), one ciphertext
 * block and the lengths block. */
static void
test_ghash_c_kat(void **state)
{
	uint8_t h[16], x[32], y[16], exp[16];
	unsigned i;

	(void)state;
	unhex(h, "66e94bd4ef8a2c3b884cfa59ca342b2e");
	unhex(x, "0388dace60b6a392f328c2b971b2fe78"
	    "00000000000000000000000000000080");
	unhex(exp, "f38cbb1ad69223dcc3457ae5b6b0f885");
	memset(y, 0, 16);
	vg_ghash_c(y, h, x, 2);
	assert_memory_equal(y, exp, 16);
	/* Block by block is the same. */
	memset(y, 0, 16);
	vg_ghash_c(y, h, x, 1);
	vg_ghash_c(y, h, x + 16, 1);
	assert_memory_equal(y, exp, 16);
	/* Zero blocks leave y alone. */
	vg_ghash_c(y, h, x, 0);
	assert_memory_equal(y, exp, 16);
	/* H = 1 (the x^0 bit, MSB of byte 0): GHASH is the XOR. */
	memset(h, 0, 16);
	h[0] = 0x80;
	memset(y, 0, 16);
	vg_ghash_c(y, h, x, 2);
	for (i = 0; i < 16; i++)
		assert_int_equal(y[i], x[i] ^ x[16 + i]);
}

/* ------------------------------------------------------- AES-NI vs C */

#ifdef VG_HAVE_X86_64_KERNELS
static void
aes_compare(const uint8_t *key, size_t klen, const uint8_t *in, size_t nb)
{
	struct vg_aes_key kc, kn;
	static uint8_t a[16 * MAX_BLOCKS], b[16 * MAX_BLOCKS];
	static uint8_t c[16 * MAX_BLOCKS];

	assert_int_equal(vg_aes_setkey_c(&kc, key, klen), 0);
	assert_int_equal(vg_aes_setkey_aesni(&kn, key, klen), 0);
	assert_int_equal(kc.rounds, kn.rounds);
	vg_aes_encrypt_c(&kc, a, in, nb);
	vg_aes_encrypt_aesni(&kn, b, in, nb);
	assert_memory_equal(a, b, 16 * nb);
	vg_aes_decrypt_c(&kc, a, in, nb);
	vg_aes_decrypt_aesni(&kn, b, in, nb);
	assert_memory_equal(a, b, 16 * nb);
	/* Round trips, and in == out. */
	vg_aes_encrypt_aesni(&kn, b, in, nb);
	vg_aes_decrypt_aesni(&kn, c, b, nb);
	assert_memory_equal(c, in, 16 * nb);
	memcpy(c, in, 16 * nb);
	vg_aes_encrypt_aesni(&kn, c, c, nb);
	vg_aes_encrypt_c(&kc, a, in, nb);
	assert_memory_equal(c, a, 16 * nb);
	vg_aes_decrypt_c(&kc, a, a, nb);
	assert_memory_equal(a, in, 16 * nb);
	vg_aes_decrypt_aesni(&kn, c, c, nb);
	assert_memory_equal(c, in, 16 * nb);
	vg_aes_encrypt_c(&kc, c, c, nb);
	vg_aes_decrypt_c(&kc, c, c, nb);
	assert_memory_equal(c, in, 16 * nb);
}
#endif

static void
test_aes_aesni_vs_c(void **state)
{
	(void)state;
#ifdef VG_HAVE_X86_64_KERNELS
	if (!(vg_cpu_detected() & VG_CPU_AESNI)) {
		print_message("the CPU has no AES-NI: vg_aes_*_aesni not "
		    "tested\n");
		skip();
	}
	{
		static uint8_t in[16 * MAX_BLOCKS];
		uint8_t key[32];
		size_t s, i, d, j, count = 0;
		struct vg_aes_key kn;

		for (s = 16; s <= 32; s += 8) {
			for (i = 0; i < 6; i++) {
				make_key(key, s, (unsigned)i);
				for (d = 0; d < 4; d++) {
					for (j = 0; j < N_NBLOCKS; j++) {
						size_t nb = nblocks_list[j];

						make_data(in, 16 * nb,
						    (unsigned)d);
						aes_compare(key, s, in, nb);
						count++;
					}
				}
			}
		}
		assert_int_equal(vg_aes_setkey_aesni(&kn, key, 0), -1);
		assert_int_equal(vg_aes_setkey_aesni(&kn, key, 17), -1);
		assert_int_equal(vg_aes_setkey_aesni(&kn, key, 64), -1);
		print_message("aes: %zu comparisons\n", count);
	}
#else
	print_message("not an x86-64 build: no AES-NI kernel\n");
	skip();
#endif
}

/* ----------------------------------------------------- PCLMUL vs C */

static void
test_ghash_pclmul_vs_c(void **state)
{
	(void)state;
#ifdef VG_HAVE_X86_64_KERNELS
	if (!(vg_cpu_detected() & VG_CPU_PCLMUL)) {
		print_message("the CPU has no PCLMULQDQ: vg_ghash_pclmul not "
		    "tested\n");
		skip();
	}
	{
		static uint8_t in[16 * MAX_BLOCKS];
		uint8_t h[16], y0[16], ya[16], yb[16];
		size_t hk, d, j, count = 0;

		for (hk = 0; hk < 8; hk++) {
			/* H: zero, all ones, 1, x^127, then random. */
			make_key(h, 16, hk < 2 ? (unsigned)hk : 2);
			if (hk == 2 || hk == 3) {
				memset(h, 0, 16);
				h[hk == 2 ? 0 : 15] = hk == 2 ? 0x80 : 0x01;
			}
			for (d = 0; d < 4; d++) {
				make_data(y0, 16, (unsigned)d);
				for (j = 0; j < N_NBLOCKS; j++) {
					size_t nb = nblocks_list[j];

					make_data(in, 16 * nb, (unsigned)d);
					memcpy(ya, y0, 16);
					memcpy(yb, y0, 16);
					vg_ghash_c(ya, h, in, nb);
					vg_ghash_pclmul(yb, h, in, nb);
					assert_memory_equal(ya, yb, 16);
					count++;
				}
				/* Zero blocks: y unchanged. */
				memcpy(yb, y0, 16);
				vg_ghash_pclmul(yb, h, in, 0);
				assert_memory_equal(yb, y0, 16);
			}
		}
		/* Split calls (4-block aggregation boundaries) agree with one
		 * call. */
		rng_bytes(h, 16);
		rng_bytes(in, sizeof(in));
		memset(ya, 0, 16);
		vg_ghash_c(ya, h, in, 23);
		memset(yb, 0, 16);
		vg_ghash_pclmul(yb, h, in, 5);
		vg_ghash_pclmul(yb, h, in + 80, 3);
		vg_ghash_pclmul(yb, h, in + 128, 15);
		assert_memory_equal(ya, yb, 16);
		print_message("ghash: %zu comparisons\n", count);
	}
#else
	print_message("not an x86-64 build: no PCLMULQDQ kernel\n");
	skip();
#endif
}

/* ------------------------------------------- mode kernels vs their twins */

#ifdef VG_HAVE_X86_64_KERNELS
#define MODE_MAX_BLOCKS 300 /* 4.8 KiB */

typedef void (*mode_fn)(const struct vg_aes_key *, uint8_t *,
    const uint8_t *, size_t, uint8_t *);

typedef void (*mac_fn)(const struct vg_aes_key *, uint8_t *,
    const uint8_t *, size_t);

/* cbc_enc and cbc_mac: NULL where the variant has none (serial modes
 * gain nothing from wider registers). */
struct mode_variant {
	const char *name;
	unsigned need;
	mode_fn ctr32, cbc_dec, cbc_enc;
	mac_fn cbc_mac;
};

static const struct mode_variant mode_variants[] = {
	{ "aesni", VG_CPU_AESNI, vg_aes_ctr32_aesni, vg_aes_cbc_dec_aesni,
	    vg_aes_cbc_enc_aesni, vg_aes_cbc_mac_aesni },
	{ "vaes256", VG_CPU_AESNI | VG_CPU_VAES | VG_CPU_AVX2,
	    vg_aes_ctr32_vaes256, vg_aes_cbc_dec_vaes256, NULL, NULL },
	{ "vaes512", VG_CPU_AESNI | VG_CPU_VAES | VG_CPU_AVX512F |
	    VG_CPU_AVX512BW, vg_aes_ctr32_vaes512, vg_aes_cbc_dec_vaes512,
	    NULL, NULL },
};

/* Block counts: 0, the strides' edges, then random up to the maximum. */
static size_t
mode_nblocks(unsigned i)
{
	static const size_t fixed[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15,
		16, 17, 19, 20, 31, 32, 33, 47, 63, 64, 65 };

	if (i < sizeof(fixed) / sizeof(fixed[0]))
		return fixed[i];
	return (size_t)(rng64() % (MODE_MAX_BLOCKS + 1));
}

/* One variant's CTR and CBC against the twins, on a key, nb blocks at
 * the given misalignments, out of place and in place. */
static void
mode_compare(const struct mode_variant *v, const struct vg_aes_key *kc,
    const struct vg_aes_key *kn, size_t nb, size_t ia, size_t oa)
{
	static uint8_t in[16 * MODE_MAX_BLOCKS + 64];
	static uint8_t a[16 * MODE_MAX_BLOCKS + 64];
	static uint8_t b[16 * MODE_MAX_BLOCKS + 64];
	uint8_t cb0[16], cba[16], cbb[16], iva[16], ivb[16];
	size_t n = 16 * nb;

	rng_bytes(in + ia, n);
	rng_bytes(cb0, 16);
	/* every fourth run starts the counter just before its wrap */
	if (rng64() % 4 == 0)
		memset(cb0 + 12, 0xff, 3 + (rng64() % 2));
	memcpy(cba, cb0, 16);
	memcpy(cbb, cb0, 16);
	vg_aes_ctr32_c(kc, a + oa, in + ia, nb, cba);
	v->ctr32(kn, b + oa, in + ia, nb, cbb);
	assert_memory_equal(a + oa, b + oa, n);
	assert_memory_equal(cba, cbb, 16);
	/* in place */
	memcpy(cbb, cb0, 16);
	memcpy(b + ia, in + ia, n);
	v->ctr32(kn, b + ia, b + ia, nb, cbb);
	assert_memory_equal(a + oa, b + ia, n);
	assert_memory_equal(cba, cbb, 16);

	rng_bytes(iva, 16);
	memcpy(ivb, iva, 16);
	vg_aes_cbc_dec_c(kc, a + oa, in + ia, nb, iva);
	v->cbc_dec(kn, b + oa, in + ia, nb, ivb);
	assert_memory_equal(a + oa, b + oa, n);
	assert_memory_equal(iva, ivb, 16);
	memcpy(b + ia, in + ia, n);
	memcpy(ivb, cb0, 16);
	memcpy(iva, cb0, 16);
	vg_aes_cbc_dec_c(kc, a + oa, in + ia, nb, iva);
	v->cbc_dec(kn, b + ia, b + ia, nb, ivb);
	assert_memory_equal(a + oa, b + ia, n);
	assert_memory_equal(iva, ivb, 16);
	if (v->cbc_enc == NULL)
		return;

	/* CBC encryption, out of place and in place, and CBC-MAC */
	rng_bytes(iva, 16);
	memcpy(ivb, iva, 16);
	memcpy(cb0, iva, 16);
	vg_aes_cbc_enc_c(kc, a + oa, in + ia, nb, iva);
	v->cbc_enc(kn, b + oa, in + ia, nb, ivb);
	assert_memory_equal(a + oa, b + oa, n);
	assert_memory_equal(iva, ivb, 16);
	memcpy(b + ia, in + ia, n);
	memcpy(ivb, cb0, 16);
	v->cbc_enc(kn, b + ia, b + ia, nb, ivb);
	assert_memory_equal(a + oa, b + ia, n);
	assert_memory_equal(iva, ivb, 16);
	memcpy(cba, cb0, 16);
	memcpy(cbb, cb0, 16);
	vg_aes_cbc_mac_c(kc, cba, in + ia, nb);
	v->cbc_mac(kn, cbb, in + ia, nb);
	assert_memory_equal(cba, cbb, 16);
	assert_memory_equal(cba, iva, 16);
}
#endif

static void
test_modes_vs_c(void **state)
{
	(void)state;
#ifdef VG_HAVE_X86_64_KERNELS
	{
		size_t v, s, i, count = 0;
		unsigned ki;
		uint8_t key[32];
		struct vg_aes_key kc, kn;

		for (v = 0; v < sizeof(mode_variants) /
		    sizeof(mode_variants[0]); v++) {
			const struct mode_variant *mv = &mode_variants[v];

			if ((vg_cpu_detected() & mv->need) != mv->need) {
				print_message("the CPU lacks the features of "
				    "the %s mode kernels: not tested\n",
				    mv->name);
				continue;
			}
			count = 0;
			for (s = 16; s <= 32; s += 8) {
				for (ki = 0; ki < 3; ki++) {
					make_key(key, s, ki);
					assert_int_equal(vg_aes_setkey_c(&kc,
					    key, s), 0);
					assert_int_equal(vg_aes_setkey_aesni(
					    &kn, key, s), 0);
					for (i = 0; i < 40; i++) {
						mode_compare(mv, &kc, &kn,
						    mode_nblocks((unsigned)i),
						    rng64() % 16, rng64() % 16);
						count++;
					}
				}
			}
			print_message("%s modes: %zu comparisons\n",
			    mv->name, count);
		}
	}
#else
	print_message("not an x86-64 build: no mode kernels\n");
	skip();
#endif
}

/* ------------------------------------------ keyed GHASH vs the portable */

static void
test_ghash_keyed_vs_c(void **state)
{
	(void)state;
#ifdef VG_HAVE_X86_64_KERNELS
	if (!(vg_cpu_detected() & VG_CPU_PCLMUL)) {
		print_message("the CPU has no PCLMULQDQ: keyed GHASH not "
		    "tested\n");
		skip();
	}
	{
		static uint8_t in[16 * MODE_MAX_BLOCKS + 16];
		const unsigned need512 = VG_CPU_PCLMUL | VG_CPU_VPCLMUL |
		    VG_CPU_AVX512F | VG_CPU_AVX512BW;
		const unsigned need256 = VG_CPU_PCLMUL | VG_CPU_VPCLMUL |
		    VG_CPU_AVX2;
		int have512 = (vg_cpu_detected() & need512) == need512;
		int have256 = (vg_cpu_detected() & need256) == need256;
		uint8_t yw[16];
		struct vg_ghash_key gk, gc;
		uint8_t h[16], y0[16], ya[16], yb[16], yz[16];
		size_t i, nb, off, count = 0;

		if (!have512)
			print_message("the CPU lacks VPCLMULQDQ or AVX-512: "
			    "vg_ghash_update_vpclmul512 not tested\n");
		if (!have256)
			print_message("the CPU lacks VPCLMULQDQ or AVX2: "
			    "vg_ghash_update_vpclmul256 not tested\n");
		for (i = 0; i < 400; i++) {
			make_key(h, 16, i < 2 ? (unsigned)i : 2);
			vg_ghash_init_pclmul(&gk, h);
			vg_ghash_init_c(&gc, h);
			assert_memory_equal(gk.h, h, 16);
			rng_bytes(y0, 16);
			nb = i < 40 ? i : (size_t)(rng64() % (MODE_MAX_BLOCKS +
			    1));
			off = rng64() % 16;
			rng_bytes(in + off, 16 * nb);
			memcpy(ya, y0, 16);
			memcpy(yb, y0, 16);
			memcpy(yz, y0, 16);
			memcpy(yw, y0, 16);
			vg_ghash_update_c(ya, &gc, in + off, nb);
			vg_ghash_update_pclmul(yb, &gk, in + off, nb);
			assert_memory_equal(ya, yb, 16);
			if (have512) {
				vg_ghash_update_vpclmul512(yz, &gk, in + off,
				    nb);
				assert_memory_equal(ya, yz, 16);
			}
			if (have256) {
				vg_ghash_update_vpclmul256(yw, &gk, in + off,
				    nb);
				assert_memory_equal(ya, yw, 16);
			}
			/* split at a random point: the same */
			if (nb > 1) {
				size_t cut = (size_t)(rng64() % nb);

				memcpy(yb, y0, 16);
				vg_ghash_update_pclmul(yb, &gk, in + off, cut);
				vg_ghash_update_pclmul(yb, &gk,
				    in + off + 16 * cut, nb - cut);
				assert_memory_equal(ya, yb, 16);
				if (have512) {
					memcpy(yz, y0, 16);
					vg_ghash_update_vpclmul512(yz, &gk,
					    in + off, cut);
					vg_ghash_update_vpclmul512(yz, &gk,
					    in + off + 16 * cut, nb - cut);
					assert_memory_equal(ya, yz, 16);
				}
				if (have256) {
					memcpy(yw, y0, 16);
					vg_ghash_update_vpclmul256(yw, &gk,
					    in + off, cut);
					vg_ghash_update_vpclmul256(yw, &gk,
					    in + off + 16 * cut, nb - cut);
					assert_memory_equal(ya, yw, 16);
				}
			}
			count++;
		}
		print_message("keyed ghash: %zu comparisons\n", count);
	}
#else
	print_message("not an x86-64 build: no keyed GHASH kernels\n");
	skip();
#endif
}

/* ------------------------------------- stitched GCM vs the two kernels */

static void
test_gcm_enc_vs_c(void **state)
{
	(void)state;
#ifdef VG_HAVE_X86_64_KERNELS
	if ((vg_cpu_detected() & (VG_CPU_AESNI | VG_CPU_PCLMUL)) !=
	    (VG_CPU_AESNI | VG_CPU_PCLMUL)) {
		print_message("the CPU lacks AES-NI or PCLMULQDQ: "
		    "vg_aes_gcm_enc_aesni not tested\n");
		skip();
	}
	{
		static uint8_t in[16 * MODE_MAX_BLOCKS + 16];
		static uint8_t a[16 * MODE_MAX_BLOCKS + 16];
		static uint8_t b[16 * MODE_MAX_BLOCKS + 16];
		struct vg_aes_key kc, kn;
		uint8_t key[32], h[16] = { 0 }, cb0[16], cba[16], cbb[16];
		uint8_t ya[16], yb[16], y0[16];
		size_t s, i, nb, ia, oa, count = 0;

		for (s = 16; s <= 32; s += 8) {
			make_key(key, s, 2);
			assert_int_equal(vg_aes_setkey_c(&kc, key, s), 0);
			assert_int_equal(vg_aes_setkey_aesni(&kn, key, s), 0);
			memset(h, 0, 16);
			vg_aes_encrypt_c(&kc, h, h, 1);
			vg_ghash_init_c(&kc.gh, h);
			vg_ghash_init_pclmul(&kn.gh, h);
			for (i = 0; i < 60; i++) {
				nb = mode_nblocks((unsigned)i);
				ia = rng64() % 16;
				oa = rng64() % 16;
				rng_bytes(in + ia, 16 * nb);
				rng_bytes(cb0, 16);
				if (i % 4 == 0)
					memset(cb0 + 12, 0xff, 4);
				rng_bytes(y0, 16);
				memcpy(cba, cb0, 16);
				memcpy(ya, y0, 16);
				vg_aes_ctr32_c(&kc, a + oa, in + ia, nb, cba);
				vg_ghash_update_c(ya, &kc.gh, a + oa, nb);
				memcpy(cbb, cb0, 16);
				memcpy(yb, y0, 16);
				vg_aes_gcm_enc_aesni(&kn, b + oa, in + ia, nb,
				    cbb, yb);
				assert_memory_equal(a + oa, b + oa, 16 * nb);
				assert_memory_equal(cba, cbb, 16);
				assert_memory_equal(ya, yb, 16);
				/* in place */
				memcpy(b + ia, in + ia, 16 * nb);
				memcpy(cbb, cb0, 16);
				memcpy(yb, y0, 16);
				vg_aes_gcm_enc_aesni(&kn, b + ia, b + ia, nb,
				    cbb, yb);
				assert_memory_equal(a + oa, b + ia, 16 * nb);
				assert_memory_equal(ya, yb, 16);
				count++;
			}
		}
		print_message("stitched gcm: %zu comparisons\n", count);
	}
#else
	print_message("not an x86-64 build: no stitched GCM kernel\n");
	skip();
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_names),
		cmocka_unit_test(test_aes_c_kat),
		cmocka_unit_test(test_ghash_c_kat),
		cmocka_unit_test(test_aes_aesni_vs_c),
		cmocka_unit_test(test_ghash_pclmul_vs_c),
		cmocka_unit_test(test_modes_vs_c),
		cmocka_unit_test(test_ghash_keyed_vs_c),
		cmocka_unit_test(test_gcm_enc_vs_c),
	};

	return cmocka_run_group_tests(tests, setup_rng, NULL);
}
