/*
 * The Curve25519 kernel sub-table (crypto/c25519_kernels.h), the portable
 * twins of the 4x64-bit field multiplication and squaring, and the entry
 * points of the Edwards multiplications that dispatch through the table.
 */
#include "config.h"

#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"

typedef unsigned __int128 u128;

/* see crypto/c25519_kernels.h: the fold of the 512-bit product t. */
static void
fold(uint64_t r[4], const uint64_t t[8])
{
	uint64_t w[4], c;
	u128 acc = 0;
	int i;

	for (i = 0; i < 4; i++) {
		acc += (u128)t[i] + (u128)38 * t[i + 4];
		w[i] = (uint64_t)acc;
		acc >>= 64;
	}
	acc = (u128)w[0] + 38 * (uint64_t)acc;
	for (i = 0; i < 4; i++) {
		if (i > 0)
			acc += w[i];
		w[i] = (uint64_t)acc;
		acc >>= 64;
	}
	c = (uint64_t)acc; /* 0 or 1; when 1, w[0] < 38 * 2^7 */
	w[0] += 38 * c;
	for (i = 0; i < 4; i++)
		r[i] = w[i];
	vg_wipe(w, sizeof(w));
}

/* see crypto/c25519_kernels.h */
void
vg_fe25519_mul64_c(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	uint64_t t[8] = { 0 };
	int i, j;

	for (i = 0; i < 4; i++) {
		u128 acc = 0;

		for (j = 0; j < 4; j++) {
			acc += (u128)a[j] * b[i] + t[i + j];
			t[i + j] = (uint64_t)acc;
			acc >>= 64;
		}
		t[i + 4] = (uint64_t)acc;
	}
	fold(r, t);
	vg_wipe(t, sizeof(t));
}

/* see crypto/c25519_kernels.h */
void
vg_fe25519_sqr64_c(uint64_t r[4], const uint64_t a[4])
{
	vg_fe25519_mul64_c(r, a, a);
}

/* see crypto/c25519_kernels.h */
void
vg_c25519_kernels_fill(struct vg_c25519_kernels *k, unsigned features)
{
	k->mul64 = vg_fe25519_mul64_c;
	k->sqr64 = vg_fe25519_sqr64_c;
	k->x25519 = vg_x25519_ladder_c;
	k->ed25519_base = vg_ge25519_scalarmult_base_c;
	k->ed25519_base_bytes = vg_ge25519_scalarmult_base_bytes_c;
	k->ed25519_double = vg_ge25519_double_scalarmult_vartime_c;
	k->impl = "c";
	k->ed25519_impl = "c";
#ifdef VG_HAVE_C25519_X86_64_KERNELS
	if ((features & (VG_CPU_BMI2 | VG_CPU_ADX)) ==
	    (VG_CPU_BMI2 | VG_CPU_ADX)) {
		k->mul64 = vg_fe25519_mul64_adx;
		k->sqr64 = vg_fe25519_sqr64_adx;
		k->x25519 = vg_x25519_ladder_adx;
		k->ed25519_base = vg_ge25519_scalarmult_base_adx;
		k->ed25519_base_bytes = vg_ge25519_scalarmult_base_bytes_adx;
		k->ed25519_double = vg_ge25519_double_scalarmult_vartime_adx;
		k->impl = "adx";
		k->ed25519_impl = "adx";
		if (features & VG_CPU_AVX2) {
			k->ed25519_base = vg_ge25519_scalarmult_base_adx_avx2;
			k->ed25519_base_bytes =
			    vg_ge25519_scalarmult_base_bytes_adx_avx2;
			k->ed25519_impl = "adx+avx2";
		}
	}
#else
	(void)features;
#endif
}

/* see crypto/c25519_int.h */
void
vg_ge25519_scalarmult_base(struct vg_ge25519 *r, const uint8_t a[32])
{
	vg_kernels()->c25519.ed25519_base(r, a);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_scalarmult_base_bytes(uint8_t s[32], const uint8_t a[32],
    unsigned flags)
{
	vg_kernels()->c25519.ed25519_base_bytes(s, a, flags);
}

/* see crypto/c25519_int.h */
void
vg_ge25519_double_scalarmult_vartime(struct vg_ge25519 *r,
    const uint8_t a[32], const struct vg_ge25519 *A, const uint8_t b[32])
{
	vg_kernels()->c25519.ed25519_double(r, a, A, b);
}
