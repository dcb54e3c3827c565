/*
 * Stack residue checks for code that clears the stack below it once per
 * operation (VG_WIPE_STACK, crypto/ct.h) instead of wiping each callee's
 * temporaries: vg_residue_fill() fills VG_RESIDUE_WORDS words below the
 * caller's frame with a pattern; after the operation ran from the same
 * frame, vg_residue_find() looks there for any of n numbers (the first
 * len words of each, stride words apart) at any word offset, and names
 * the first one it finds. Both are noinline so that their arrays lie
 * where the operation's callees had their frames.
 */
#ifndef VG_TESTS_STACK_RESIDUE_H
#define VG_TESTS_STACK_RESIDUE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define VG_RESIDUE_WORDS 49152

static __attribute__((noinline, unused)) void
vg_residue_fill(void)
{
	uint64_t buf[VG_RESIDUE_WORDS];
	size_t i;

	for (i = 0; i < VG_RESIDUE_WORDS; i++)
		buf[i] = 0xa5a5a5a5a5a5a5a5ULL;
	__asm__ volatile("" : : "r"(buf) : "memory");
}

/* 1 if one of the n numbers is on the stack (and says which, and how far
 * below the caller's frame), else 0. */
static __attribute__((noinline, unused)) int
vg_residue_find(const uint64_t *nums, size_t n, size_t stride, size_t len)
{
	uint64_t buf[VG_RESIDUE_WORDS];
	size_t i, j;

	/* the array is the stack as the operation left it */
	__asm__ volatile("" : : "r"(buf) : "memory");
	for (i = 0; i + len <= VG_RESIDUE_WORDS; i++)
		for (j = 0; j < n; j++)
			if (memcmp(buf + i, nums + j * stride, 8 * len) == 0) {
				printf("# number %zu left %zu bytes below "
				    "the caller's frame\n", j,
				    (size_t)(VG_RESIDUE_WORDS - i) * 8);
				return 1;
			}
	return 0;
}

#endif
