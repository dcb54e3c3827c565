/*
 * Writes the known answers of the Bochs test image (tests/bochs/harness.c)
 * as a C header: inputs for the AVX-512 IFMA kernels of
 * crypto/x86_64/vg_rsa_amm52_ifma.c and the outputs the portable twins
 * (crypto/rsa_amm52.c) give for them on the build host. Inputs follow
 * tests/kernels/test_rsa_kernels.c: moduli of full, short and "top word 1"
 * size, edge operands (0, 1, m - 1, all limbs full, 2m - 1) and random
 * ones, normalising-pass lanes built to ripple, and exponents of every
 * window shape. The seed is fixed so the image is reproducible.
 *
 * Usage: ifma_gen OUT.h
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "crypto/rsa_kernels.h"

#define NL VG_RSA52_LIMBS
#define M52 0xfffffffffffffULL
#define N_NORM 300
#define N_AMM 240
#define N_EXP 14
#define EWORDS 18

static uint64_t rng_state = 0x5eed0f1f3a5bULL;

static uint64_t
rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint64_t
neg_inv64(uint64_t m0)
{
	uint64_t x = (3 * m0) ^ 2;
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - m0 * x;
	return 0 - x;
}

/* An odd modulus below 2^1024 in limbs; kind 0: 1024 bits, 1: a random
 * shorter top, 2: 961 bits (its top 64-bit word is 1). */
static void
modulus(uint64_t m[NL], uint64_t *k0, int kind)
{
	int i;

	for (i = 0; i < NL; i++)
		m[i] = rnd() & M52;
	if (kind == 0) {
		m[NL - 1] = (m[NL - 1] & ((1ULL << 36) - 1)) | (1ULL << 35);
	} else if (kind == 1) {
		m[NL - 1] &= (1ULL << (rnd() % 35 + 1)) - 1;
		m[NL - 1] |= 1;
	} else {
		m[NL - 1] = 0;
		m[NL - 2] = (m[NL - 2] & ((1ULL << 24) - 1)) | (1ULL << 24);
	}
	m[0] |= 1;
	*k0 = neg_inv64(m[0]);
}

/* Normalises t (limbs that may exceed 52 bits) in place. */
static void
carry(uint64_t t[NL])
{
	uint64_t c = 0;
	int i;

	for (i = 0; i < NL; i++) {
		uint64_t v = t[i] + c;

		t[i] = v & M52;
		c = v >> 52;
	}
}

/* An operand for m; kind 0: 0, 1: 1, 2: m - 1, 3: all limbs full (just
 * below R'), 4: 2m - 1, else random below m. */
static void
operand(uint64_t x[NL], const uint64_t m[NL], int kind)
{
	int i, top;

	memset(x, 0, NL * sizeof(uint64_t));
	switch (kind) {
	case 0:
		break;
	case 1:
		x[0] = 1;
		break;
	case 2:
		memcpy(x, m, NL * sizeof(uint64_t));
		x[0] -= 1;
		break;
	case 3:
		for (i = 0; i < NL; i++)
			x[i] = M52;
		break;
	case 4:
		for (i = 0; i < NL; i++)
			x[i] = 2 * m[i];
		carry(x);
		x[0] -= 1;
		break;
	default:
		for (top = NL - 1; m[top] == 0; top--)
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
put_pair(FILE *f, const uint64_t x[2][NL])
{
	fputs("{", f);
	put_words(f, x[0], NL);
	fputs(",", f);
	put_words(f, x[1], NL);
	fputs("}", f);
}

/* Lanes that make the normalising pass ripple, and their normal form. */
static void
gen_norm(FILE *f)
{
	uint64_t lanes[NL], want[NL];
	int r, i;

	fprintf(f, "static const struct vg_norm_case vg_norm_cases[%d] = {\n",
	    N_NORM);
	for (r = 0; r < N_NORM; r++) {
		for (i = 0; i < NL; i++) {
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
		lanes[NL - 1] &= M52 >> 2; /* the value stays below 2^1040 */
		if (r % 3 == 0) /* a long ripple */
			for (i = 1; i < NL - 1; i++)
				lanes[i] = M52 - (i == 1 ? 0x7ff : 0);
		memcpy(want, lanes, sizeof(want));
		carry(want);
		fputs("{", f);
		put_words(f, lanes, NL);
		fputs(",", f);
		put_words(f, want, NL);
		fputs("},\n", f);
	}
	fputs("};\n", f);
}

static void
gen_amm(FILE *f)
{
	uint64_t m[2][NL], k0[2], a[2][NL], b[2][NL], d[2][NL], s[2][NL];
	int r, h;

	fprintf(f, "static const struct vg_amm_case vg_amm_cases[%d] = {\n",
	    N_AMM);
	for (r = 0; r < N_AMM; r++) {
		for (h = 0; h < 2; h++) {
			modulus(m[h], &k0[h], (r + h) % 3);
			operand(a[h], m[h], (r + h) % 7);
			/* b below 2m: never all limbs full */
			operand(b[h], m[h], (r / 7 + 2 * h) % 7 == 3 ?
			    5 : (r / 7 + 2 * h) % 7);
		}
		vg_rsa_amm52x2_c(d, (const uint64_t(*)[NL])a,
		    (const uint64_t(*)[NL])b, (const uint64_t(*)[NL])m, k0);
		vg_rsa_amm52x2_c(s, (const uint64_t(*)[NL])b,
		    (const uint64_t(*)[NL])b, (const uint64_t(*)[NL])m, k0);
		fputs("{", f);
		put_pair(f, (const uint64_t(*)[NL])a);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NL])b);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NL])m);
		fputs(",", f);
		put_words(f, k0, 2);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NL])d);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NL])s);
		fputs("},\n", f);
	}
	fputs("};\n", f);
}

static void
gen_modexp(FILE *f)
{
	static const unsigned widths[] = { 1, 5, 7, 64, 1024, 1088, 1152 };
	uint64_t m[2][NL], k0[2], base[2][NL], one[2][NL], d[2][NL];
	uint64_t e[2][EWORDS];
	const uint64_t *ep[2] = { e[0], e[1] };
	int r, h, i;

	fprintf(f, "static const struct vg_exp_case vg_exp_cases[%d] = {\n",
	    N_EXP);
	for (r = 0; r < N_EXP; r++) {
		unsigned ebits = widths[r % 7];

		for (h = 0; h < 2; h++) {
			modulus(m[h], &k0[h], (r + h) % 3);
			operand(base[h], m[h], r == 7 ? 4 : 5 + h);
			/* any value below 2m works as "one" for the twins */
			operand(one[h], m[h], 5);
			for (i = 0; i < EWORDS; i++)
				e[h][i] = rnd();
		}
		if (r == 3)
			memset(e[0], 0, sizeof(e[0]));
		if (r == 11) /* all windows 31 */
			memset(e[1], 0xff, sizeof(e[1]));
		vg_rsa_modexp52x2_c(d, (const uint64_t(*)[NL])base,
		    (const uint64_t(*)[NL])one, ep, ebits,
		    (const uint64_t(*)[NL])m, k0);
		fputs("{", f);
		put_pair(f, (const uint64_t(*)[NL])base);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NL])one);
		fputs(",{", f);
		put_words(f, e[0], EWORDS);
		fputs(",", f);
		put_words(f, e[1], EWORDS);
		fprintf(f, "},%u,", ebits);
		put_pair(f, (const uint64_t(*)[NL])m);
		fputs(",", f);
		put_words(f, k0, 2);
		fputs(",", f);
		put_pair(f, (const uint64_t(*)[NL])d);
		fputs("},\n", f);
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
	fputs("struct vg_norm_case { uint64_t lanes[20], want[20]; };\n"
	    "struct vg_amm_case { uint64_t a[2][20], b[2][20], m[2][20], "
	    "k0[2], want[2][20], sqr[2][20]; };\n"
	    "struct vg_exp_case { uint64_t base[2][20], one[2][20], "
	    "e[2][VG_EXP_WORDS]; unsigned ebits; uint64_t m[2][20], k0[2], "
	    "want[2][20]; };\n", f);
	gen_norm(f);
	gen_amm(f);
	gen_modexp(f);
	if (fclose(f) == 0)
		rc = 0;
	else
		perror(argv[1]);
	return rc;
}
