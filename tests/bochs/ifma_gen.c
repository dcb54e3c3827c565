/*
 * Writes the known answers of the Bochs test image (tests/bochs/harness.c)
 * as a C header: inputs for the AVX-512 IFMA kernels of
 * crypto/x86_64/vg_rsa_amm52_ifma.c and the outputs the portable twins
 * (crypto/rsa_amm52.c) give for them on the build host, for halves of 20,
 * 30 and 40 limbs (RSA-2048, 3072, 4096). Inputs follow
 * tests/kernels/test_rsa_amm52.c: moduli of full, short, "top word 1" and
 * "top limb 1" size, edge operands (0, 1, m - 1, all limbs full, 2m - 1)
 * and random ones, normalising-pass lanes built to ripple, and exponents
 * of every window shape up to VG_RSA52_MAX_EBITS bits. The seed is fixed so the image is reproducible.
 *
 * Usage: ifma_gen OUT.h
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "crypto/rsa_kernels.h"
#include "tests/xorshift.h"

#define NLMAX VG_RSA52_MAX_LIMBS
#define M52 0xfffffffffffffULL
#define EWORDS (VG_RSA52_MAX_EBITS / 64)

/* Cases per limb count (20, 30, 40: RSA-2048, 3072, 4096 halves). */
static const struct {
	size_t nl;
	int norm, amm, exp;
} sizes[] = {
	{ 20, 300, 240, 14 },
	{ 30, 120, 84, 7 },
	{ 40, 120, 84, 7 },
};
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))

static uint64_t rng_state = 0x5eed0f1f3a5bULL;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static uint64_t
neg_inv64(uint64_t m0)
{
	return vg_test_neg_inv64(m0);
}

/* An odd modulus of a half of nl limbs (w = 0.8 nl 64-bit words) in
 * limbs; kind 0: 64w bits, 1: a random shorter top, 2: 64(w - 1) + 1 bits
 * (its top 64-bit word is 1), 3: the top limb is 1. */
static void
modulus(uint64_t m[NLMAX], uint64_t *k0, size_t nl, int kind)
{
	size_t w = nl * 4 / 5, i;
	unsigned top = (unsigned)(64 * w - 1), low = (unsigned)(64 * (w - 1));

	memset(m, 0, NLMAX * sizeof(uint64_t));
	for (i = 0; i < nl; i++)
		m[i] = rnd() & M52;
	/* bit top lies in limb nl - 1 for every size */
	if (kind == 0) {
		m[nl - 1] &= (1ULL << (top % 52 + 1)) - 1;
		m[nl - 1] |= 1ULL << (top % 52);
	} else if (kind == 1) {
		m[nl - 1] &= (1ULL << (rnd() % (top % 52) + 1)) - 1;
		m[nl - 1] |= 1;
	} else if (kind == 2) {
		for (i = low / 52 + 1; i < nl; i++)
			m[i] = 0;
		m[low / 52] &= (1ULL << (low % 52)) - 1;
		m[low / 52] |= 1ULL << (low % 52);
	} else {
		m[nl - 1] = 1;
	}
	m[0] |= 1;
	*k0 = neg_inv64(m[0]);
}

/* Normalises t (nl limbs that may exceed 52 bits) in place. */
static void
carry(uint64_t *t, size_t nl)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < nl; i++) {
		uint64_t v = t[i] + c;

		t[i] = v & M52;
		c = v >> 52;
	}
}

/* An operand for m; kind 0: 0, 1: 1, 2: m - 1, 3: all limbs full (just
 * below R'), 4: 2m - 1, else random below m. */
static void
operand(uint64_t x[NLMAX], const uint64_t m[NLMAX], size_t nl, int kind)
{
	size_t i, top;

	memset(x, 0, NLMAX * sizeof(uint64_t));
	switch (kind) {
	case 0:
		break;
	case 1:
		x[0] = 1;
		break;
	case 2:
		memcpy(x, m, nl * sizeof(uint64_t));
		x[0] -= 1;
		break;
	case 3:
		for (i = 0; i < nl; i++)
			x[i] = M52;
		break;
	case 4:
		for (i = 0; i < nl; i++)
			x[i] = 2 * m[i];
		carry(x, nl);
		x[0] -= 1;
		break;
	default:
		for (top = nl - 1; m[top] == 0; top--)
			;
		for (i = 0; i < top; i++)
			x[i] = rnd() & M52;
		x[top] = rnd() % m[top];
		break;
	}
}

static void
put_words(FILE *f, const uint64_t *x, size_t n)
{
	size_t i;

	fputs("{", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s0x%llxULL", i ? "," : "", (unsigned long long)x[i]);
	fputs("}", f);
}

static void
put_pair(FILE *f, const uint64_t x[2][NLMAX])
{
	fputs("{", f);
	put_words(f, x[0], NLMAX);
	fputs(",", f);
	put_words(f, x[1], NLMAX);
	fputs("}", f);
}

/* Lanes that make the normalising pass ripple, and their normal form:
 * VG_RSA52_PAD(nl) lanes, a value below 2^(52 VG_RSA52_PAD(nl)). */
static void
gen_norm(FILE *f, size_t nl, int n)
{
	uint64_t lanes[NLMAX], want[NLMAX];
	size_t np = VG_RSA52_PAD(nl), i;
	int r;

	for (r = 0; r < n; r++) {
		memset(lanes, 0, sizeof(lanes));
		for (i = 0; i < np; i++) {
			uint64_t kind = rnd() % 4;

			if (kind == 0)
				lanes[i] = M52;
			else if (kind == 1)
				lanes[i] = M52 - (rnd() & 0xfff);
			else if (kind == 2)
				lanes[i] = rnd() >> 1; /* a big carry */
			else
				lanes[i] = rnd() & M52;
		}
		lanes[np - 1] &= M52 >> 2;
		if (r % 3 == 0) /* a long ripple */
			for (i = 1; i < np - 1; i++)
				lanes[i] = M52 - (i == 1 ? 0x7ff : 0);
		memcpy(want, lanes, sizeof(want));
		carry(want, np);
		fprintf(f, "{%zu,", nl);
		put_words(f, lanes, NLMAX);
		fputs(",", f);
		put_words(f, want, NLMAX);
		fputs("},\n", f);
	}
}

static void
gen_amm(FILE *f, size_t nl, int n)
{
	uint64_t m[2][NLMAX], k0[2], a[2][NLMAX], b[2][NLMAX];
	uint64_t d[2][NLMAX], s[2][NLMAX];
	int r, h;

	for (r = 0; r < n; r++) {
		for (h = 0; h < 2; h++) {
			int kb = (r / 7 + 2 * h) % 7;

			modulus(m[h], &k0[h], nl, (r + h) % 4);
			operand(a[h], m[h], nl, (r + h) % 7);
			/* b below 2m: never all limbs full */
			operand(b[h], m[h], nl, kb == 3 ? 5 : kb);
		}
		vg_rsa_amm52x2_c(d, (const uint64_t(*)[NLMAX])a,
		    (const uint64_t(*)[NLMAX])b, (const uint64_t(*)[NLMAX])m,
		    k0, nl);
		vg_rsa_amm52x2_c(s, (const uint64_t(*)[NLMAX])b,
		    (const uint64_t(*)[NLMAX])b, (const uint64_t(*)[NLMAX])m,
		    k0, nl);
		fprintf(f, "{%zu,", nl);
		put_pair(f, (const uint64_t(*)[NLMAX])a);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NLMAX])b);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NLMAX])m);
		fputs(",", f);
		put_words(f, k0, 2);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NLMAX])d);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NLMAX])s);
		fputs("},\n", f);
	}
}

static void
gen_modexp(FILE *f, size_t nl, int n)
{
	unsigned pbits = (unsigned)(64 * (nl * 4 / 5));
	const unsigned widths[] = {
		1, 5, 7, 64, pbits, pbits + 64, VG_RSA52_MAX_EBITS,
	};
	uint64_t m[2][NLMAX], k0[2], base[2][NLMAX], one[2][NLMAX];
	uint64_t d[2][NLMAX], e[2][EWORDS];
	const uint64_t *ep[2] = { e[0], e[1] };
	int r, h, i;

	for (r = 0; r < n; r++) {
		unsigned ebits = widths[r % 7];

		for (h = 0; h < 2; h++) {
			modulus(m[h], &k0[h], nl, (r + h) % 4);
			operand(base[h], m[h], nl, r % 7 == 2 ? 4 : 5 + h);
			/* any value below 2m works as "one" for the twins */
			operand(one[h], m[h], nl, 5);
			for (i = 0; i < EWORDS; i++)
				e[h][i] = rnd();
		}
		if (r % 7 == 3)
			memset(e[0], 0, sizeof(e[0]));
		if (r % 7 == 4) /* all windows 31 */
			memset(e[1], 0xff, sizeof(e[1]));
		vg_rsa_modexp52x2_c(d, (const uint64_t(*)[NLMAX])base,
		    (const uint64_t(*)[NLMAX])one, ep, ebits,
		    (const uint64_t(*)[NLMAX])m, k0, nl);
		fprintf(f, "{%zu,", nl);
		put_pair(f, (const uint64_t(*)[NLMAX])base);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NLMAX])one);
		fputs(",{", f);
		put_words(f, e[0], EWORDS);
		fputs(",", f);
		put_words(f, e[1], EWORDS);
		fprintf(f, "},%u,", ebits);
		put_pair(f, (const uint64_t(*)[NLMAX])m);
		fputs(",", f);
		put_words(f, k0, 2);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NLMAX])d);
		fputs("},\n", f);
	}
}

/* One table of every size's cases of a kind. */
static void
gen_table(FILE *f, const char *type, const char *name, int kind)
{
	size_t i;
	int n = 0;

	for (i = 0; i < N_SIZES; i++)
		n += kind == 0 ? sizes[i].norm :
		    kind == 1 ? sizes[i].amm : sizes[i].exp;
	fprintf(f, "static const struct %s %s[%d] = {\n", type, name, n);
	for (i = 0; i < N_SIZES; i++) {
		if (kind == 0)
			gen_norm(f, sizes[i].nl, sizes[i].norm);
		else if (kind == 1)
			gen_amm(f, sizes[i].nl, sizes[i].amm);
		else
			gen_modexp(f, sizes[i].nl, sizes[i].exp);
	}
	fputs("};\n", f);
}

int
main(int argc, char **argv)
{
	FILE *f;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: ifma_gen OUT.h\n");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (f == NULL) {
		perror(argv[1]);
		return 1;
	}
	fputs("/* Generated by tests/bochs/ifma_gen: known answers of the "
	    "portable twins. */\n", f);
	fprintf(f, "#define VG_EXP_WORDS %d\n", EWORDS);
	fprintf(f, "#define VG_NLMAX %d\n", NLMAX);
	fputs("struct vg_norm_case { size_t nl; uint64_t lanes[VG_NLMAX], "
	    "want[VG_NLMAX]; };\n"
	    "struct vg_amm_case { size_t nl; uint64_t a[2][VG_NLMAX], "
	    "b[2][VG_NLMAX], m[2][VG_NLMAX], k0[2], want[2][VG_NLMAX], "
	    "sqr[2][VG_NLMAX]; };\n"
	    "struct vg_exp_case { size_t nl; uint64_t base[2][VG_NLMAX], "
	    "one[2][VG_NLMAX], e[2][VG_EXP_WORDS]; unsigned ebits; "
	    "uint64_t m[2][VG_NLMAX], k0[2], want[2][VG_NLMAX]; };\n", f);
	gen_table(f, "vg_norm_case", "vg_norm_cases", 0);
	gen_table(f, "vg_amm_case", "vg_amm_cases", 1);
	gen_table(f, "vg_exp_case", "vg_exp_cases", 2);
	if (fclose(f) == 0)
		rc = 0;
	else
		perror(argv[1]);
	return rc;
}
