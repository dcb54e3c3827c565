/*
 * Fuzz targets of vgtoken (tests/fuzz/).
 *
 * Each target is one file defining LLVMFuzzerTestOneInput (and
 * LLVMFuzzerInitialize when it needs set-up). It links two ways: with
 * libFuzzer (configure --enable-fuzzing, clang; tests/fuzz/fuzz.am), and
 * with tests/fuzz/replay.c, a plain main() that feeds it every file of the
 * seed corpus and of the regression corpus, so that each input that once
 * found a bug runs in the normal test suites (native, portable, ASan) too.
 * A target reports a finding by crashing: a sanitizer report, or
 * vg_fz_fail() (a message on stderr and abort()) when an oracle of the
 * target sees a wrong result.
 *
 * The helpers below decode the fuzz input: integers, lengths and byte
 * strings read from the front; reading past the end gives zeros and empty
 * strings, so every input is valid. Byte strings handed to the module are
 * copied into allocations of exactly their length (struct vg_fz_pool), so
 * that ASan catches any read past a length the caller gave.
 */
#ifndef VG_TESTS_FUZZ_H
#define VG_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input not yet read. */
struct vg_fz_in {
	const uint8_t *p;
	size_t len;
};

uint8_t vg_fz_u8(struct vg_fz_in *in);
uint16_t vg_fz_u16(struct vg_fz_in *in);
uint32_t vg_fz_u32(struct vg_fz_in *in);
uint64_t vg_fz_u64(struct vg_fz_in *in);

/* A length in [0, max]: one byte, or when that byte is 0xff two more
 * (big-endian), reduced modulo max + 1. */
size_t vg_fz_len(struct vg_fz_in *in, size_t max);

/* An integer that is mostly small or at an edge: one selector byte, then
 * a byte, a 32-bit or a 64-bit value, or one of 0, ~0, 2^31, 2^32 - 1. */
unsigned long vg_fz_ulong(struct vg_fz_in *in);

/* Allocations freed together at the end of an input. */
struct vg_fz_pool {
	void **p;
	size_t n, cap;
};

/* len bytes (at least one is allocated, so the pointer is never NULL);
 * NULL only when out of memory. */
void *vg_fz_alloc(struct vg_fz_pool *pool, size_t len);

/* The next len bytes of the input (fewer when the input ends; *got tells
 * how many) copied into an allocation of exactly that size. */
void *vg_fz_take(struct vg_fz_pool *pool, struct vg_fz_in *in, size_t len,
    size_t *got);

/* A copy of len bytes at p in an allocation of exactly that size. */
void *vg_fz_dup(struct vg_fz_pool *pool, const void *p, size_t len);

void vg_fz_pool_free(struct vg_fz_pool *pool);

/* Prints "fuzz: <message>" and aborts: a finding. */
void vg_fz_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#endif
