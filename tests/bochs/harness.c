/*
 * The libc-free side of the Bochs test image (tests/bochs/ifma_bochs.sh):
 * checks on CPUID that the emulated CPU has AVX-512 F, VL and IFMA and
 * XSAVE with opmask and ZMM state, enables that state (CR4.OSXSAVE, XCR0
 * = x87 | SSE | AVX | opmask | ZMM_Hi256 | Hi16_ZMM), then runs the real
 * IFMA kernels of crypto/x86_64/vg_rsa_amm52_ifma.c (compiled freestanding
 * into the image) on the known answers of ifma_vectors.h (written by
 * tests/bochs/ifma_gen with the portable twins) for halves of 20, 30 and
 * 40 limbs, both variants (512-bit registers, and 256-bit only: the
 * groups ending "_256"), and compares every output word. Reports on COM1, lines
 * starting "ifma-bochs:": one per group and size ("amm52x2-30 84/84"), a
 * summary "ifma-bochs: N/N passed" and a last line "ifma-bochs: end";
 * then asks Bochs to stop (its shutdown port, 0x8900).
 */
#include <stddef.h>
#include <stdint.h>

#include "crypto/rsa_kernels.h"
#include "ifma_vectors.h"

#define NLMAX VG_RSA52_MAX_LIMBS

void vg_rsa_norm52_ifma(uint64_t *d, const uint64_t *lanes, size_t nl);
void vg_bochs_main(void);
void vg_bochs_trap(uint64_t vector, uint64_t error, uint64_t rip);

/* What the kernel and the compiler may call. */
void *memset(void *p, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void vg_wipe(void *p, size_t n);

void *
memset(void *p, int c, size_t n)
{
	volatile unsigned char *d = p;

	while (n--)
		*d++ = (unsigned char)c;
	return p;
}

void *
memcpy(void *d, const void *s, size_t n)
{
	volatile unsigned char *x = d;
	const unsigned char *y = s;

	while (n--)
		*x++ = *y++;
	return d;
}

void *
memmove(void *d, const void *s, size_t n)
{
	volatile unsigned char *x = d;
	const unsigned char *y = s;

	if (x < y) {
		while (n--)
			*x++ = *y++;
	} else {
		while (n--)
			x[n] = y[n];
	}
	return d;
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

void
vg_wipe(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ---------------------------------------------------------------- COM1 */
#define COM1 0x3f8

static inline void
outb(uint16_t port, uint8_t v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t
inb(uint16_t port)
{
	uint8_t v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static void
serial_init(void)
{
	outb(COM1 + 1, 0x00); /* no interrupts */
	outb(COM1 + 3, 0x80); /* divisor latch */
	outb(COM1 + 0, 0x01); /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8N1 */
	outb(COM1 + 2, 0xc7); /* FIFO on */
	outb(COM1 + 4, 0x03);
}

static void
putc_serial(char c)
{
	int spin = 100000;

	while ((inb(COM1 + 5) & 0x20) == 0 && spin-- > 0)
		;
	outb(COM1, (uint8_t)c);
}

static void
puts_serial(const char *s)
{
	while (*s != '\0') {
		if (*s == '\n')
			putc_serial('\r');
		putc_serial(*s++);
	}
}

static void
put_dec(uint64_t v)
{
	char buf[21];
	int i = 20;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	puts_serial(buf + i);
}

static void
put_hex(uint64_t v)
{
	char buf[19];
	int i;

	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < 16; i++)
		buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
	buf[18] = '\0';
	puts_serial(buf);
}

/* Asks Bochs to quit: "Shutdown" on port 0x8900, once COM1 has sent
 * everything (the line status's transmitter-empty bit). */
static void
bochs_shutdown(void)
{
	const char *s = "Shutdown";
	int spin = 1000000;

	while ((inb(COM1 + 5) & 0x40) == 0 && spin-- > 0)
		;
	while (*s != '\0')
		outb(0x8900, (uint8_t)*s++);
}

/* ---------------------------------------------------------------- CPU */
static void
cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ __volatile__("cpuid"
	    : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
	    : "a"(leaf), "c"(sub));
}

#define XCR0_WANT 0xe7ULL /* x87 SSE AVX opmask ZMM_Hi256 Hi16_ZMM */

/*
 * Checks the features the kernel needs and enables their state. Returns
 * 1 when the kernel may run, else 0 after a FAIL line.
 */
static int
enable_avx512(void)
{
	uint32_t r[4], max;
	uint64_t cr4, xcr0;
	uint32_t lo, hi;
	int ok = 0;

	cpuid(0, 0, r);
	max = r[0];
	cpuid(1, 0, r);
	if (max < 0xd || (r[2] & (1u << 26)) == 0) {
		puts_serial("ifma-bochs: FAIL no XSAVE (cpuid 1 ecx=");
		put_hex(r[2]);
		puts_serial(")\n");
		goto out;
	}
	cpuid(7, 0, r);
	puts_serial("ifma-bochs: cpuid 7 ebx=");
	put_hex(r[1]);
	puts_serial("\n");
	if ((r[1] & (1u << 16)) == 0 || (r[1] & (1u << 21)) == 0 ||
	    (r[1] & (1u << 31)) == 0) {
		puts_serial("ifma-bochs: FAIL no AVX-512 IFMA "
		    "(AVX512F bit 16, AVX512_IFMA bit 21, AVX512VL bit 31)\n");
		goto out;
	}
	cpuid(0xd, 0, r);
	if ((r[0] & XCR0_WANT) != XCR0_WANT) {
		puts_serial("ifma-bochs: FAIL XCR0 cannot hold AVX-512 state "
		    "(cpuid d eax=");
		put_hex(r[0]);
		puts_serial(")\n");
		goto out;
	}
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= 1ULL << 18; /* OSXSAVE */
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(cr4));
	__asm__ __volatile__("xsetbv"
	    : : "c"(0), "a"((uint32_t)XCR0_WANT), "d"(0));
	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	xcr0 = ((uint64_t)hi << 32) | lo;
	cpuid(1, 0, r);
	if ((xcr0 & XCR0_WANT) != XCR0_WANT || (r[2] & (1u << 27)) == 0) {
		puts_serial("ifma-bochs: FAIL XCR0 not enabled (xcr0=");
		put_hex(xcr0);
		puts_serial(")\n");
		goto out;
	}
	puts_serial("ifma-bochs: AVX-512 IFMA present, xcr0=");
	put_hex(xcr0);
	puts_serial("\n");
	ok = 1;
out:
	return ok;
}

/* ---------------------------------------------------------------- checks */
static uint64_t n_pass, n_total;

/* Compares n words; on a mismatch prints the first differing word. */
static int
same(const char *what, unsigned idx, const uint64_t *got,
    const uint64_t *want, size_t n)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < n && ok; i++) {
		if (got[i] != want[i]) {
			puts_serial("ifma-bochs: FAIL ");
			puts_serial(what);
			puts_serial(" case ");
			put_dec(idx);
			puts_serial(" word ");
			put_dec(i);
			puts_serial(": got ");
			put_hex(got[i]);
			puts_serial(" want ");
			put_hex(want[i]);
			puts_serial("\n");
			ok = 0;
		}
	}
	return ok;
}

/* Prints "ifma-bochs: WHAT-NL PASS/TOTAL" and adds to the summary. */
static void
group_done(const char *what, size_t nl, uint64_t pass, uint64_t total)
{
	puts_serial("ifma-bochs: ");
	puts_serial(what);
	puts_serial("-");
	put_dec(nl);
	puts_serial(" ");
	put_dec(pass);
	puts_serial("/");
	put_dec(total);
	puts_serial("\n");
	n_pass += pass;
	n_total += total;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PAIR(x) ((const uint64_t(*)[NLMAX])(x))

/* The limb counts of the cases: RSA-2048, 3072 and 4096 halves. */
static const size_t limb_counts[] = { 20, 30, 40 };

static void
run_norm(size_t nl)
{
	uint64_t got[NLMAX];
	unsigned i, pass = 0, total = 0;

	for (i = 0; i < COUNT(vg_norm_cases); i++) {
		const struct vg_norm_case *c = &vg_norm_cases[i];

		if (c->nl != nl)
			continue;
		total++;
		memset(got, 0xa5, sizeof(got));
		vg_rsa_norm52_ifma(got, c->lanes, nl);
		pass += same("norm52", i, got, c->want, VG_RSA52_PAD(nl));
	}
	group_done("norm52", nl, pass, total);
}

static void
run_amm(size_t nl, vg_rsa_amm52x2_fn *amm, const char *name)
{
	static uint64_t d[2][NLMAX];
	unsigned i, pass = 0, total = 0;
	int h;

	for (i = 0; i < COUNT(vg_amm_cases); i++) {
		const struct vg_amm_case *c = &vg_amm_cases[i];
		int ok = 1;

		if (c->nl != nl)
			continue;
		total++;
		memset(d, 0xa5, sizeof(d));
		amm(d, PAIR(c->a), PAIR(c->b), PAIR(c->m), c->k0, nl);
		for (h = 0; h < 2; h++)
			ok &= same(name, i, d[h], c->want[h],
			    VG_RSA52_PAD(nl));
		/* squaring in place: d aliases both inputs */
		memcpy(d, c->b, sizeof(d));
		amm(d, PAIR(d), PAIR(d), PAIR(c->m), c->k0, nl);
		for (h = 0; h < 2; h++)
			ok &= same(name, i, d[h], c->sqr[h],
			    VG_RSA52_PAD(nl));
		pass += ok;
	}
	group_done(name, nl, pass, total);
}

static void
run_modexp(size_t nl, vg_rsa_modexp52x2_fn *modexp, const char *name)
{
	static uint64_t d[2][NLMAX];
	unsigned i, pass = 0, total = 0;
	int h;

	for (i = 0; i < COUNT(vg_exp_cases); i++) {
		const struct vg_exp_case *c = &vg_exp_cases[i];
		const uint64_t *e[2] = { c->e[0], c->e[1] };
		int ok = 1;

		if (c->nl != nl)
			continue;
		total++;
		memset(d, 0xa5, sizeof(d));
		modexp(d, PAIR(c->base), PAIR(c->one), e, c->ebits,
		    PAIR(c->m), c->k0, nl);
		for (h = 0; h < 2; h++)
			ok &= same(name, i, d[h], c->want[h],
			    VG_RSA52_PAD(nl));
		pass += ok;
	}
	group_done(name, nl, pass, total);
}

void
vg_bochs_trap(uint64_t vector, uint64_t error, uint64_t rip)
{
	puts_serial("ifma-bochs: FAIL exception ");
	put_dec(vector);
	puts_serial(" error ");
	put_hex(error);
	puts_serial(" at rip ");
	put_hex(rip);
	puts_serial("\nifma-bochs: end\n");
	bochs_shutdown();
}

void
vg_bochs_main(void)
{
	serial_init();
	puts_serial("\nifma-bochs: start\n");
	if (enable_avx512()) {
		size_t i;

		for (i = 0; i < COUNT(limb_counts); i++) {
			run_norm(limb_counts[i]);
			run_amm(limb_counts[i], vg_rsa_amm52x2_ifma,
			    "amm52x2");
			run_modexp(limb_counts[i], vg_rsa_modexp52x2_ifma,
			    "modexp52x2");
			/* the 256-bit-only variant */
			run_amm(limb_counts[i], vg_rsa_amm52x2_ifma256,
			    "amm52x2_256");
			run_modexp(limb_counts[i], vg_rsa_modexp52x2_ifma256,
			    "modexp52x2_256");
		}
		puts_serial("ifma-bochs: ");
		put_dec(n_pass);
		puts_serial("/");
		put_dec(n_total);
		puts_serial(" passed\n");
	}
	puts_serial("ifma-bochs: end\n");
	bochs_shutdown();
}
