/*
 * x86-64 only: calls an assembly kernel with known values in the
 * callee-saved registers (rbx, rbp, r12 .. r15) and fails the test unless
 * all six come back unchanged. The including test has <cmocka.h>.
 */
#ifndef VG_TESTS_KERNELS_CALL_CHECKED_H
#define VG_TESTS_KERNELS_CALL_CHECKED_H

#include <stdint.h>
#include <string.h>

/* fn(arg[0] .. arg[5]); saved and ret are filled after the call. */
struct call_frame {
	void *fn;
	uint64_t arg[6];
	uint64_t saved[6]; /* rbx, rbp, r12, r13, r14, r15 after the call */
	uint64_t ret;      /* rax */
};

void vg_test_call_checked(struct call_frame *f);
__asm__(".text\n"
	".globl vg_test_call_checked\n"
	".type vg_test_call_checked, @function\n"
	"vg_test_call_checked:\n\t"
	"pushq %rbx\n\tpushq %rbp\n\tpushq %r12\n\t"
	"pushq %r13\n\tpushq %r14\n\tpushq %r15\n\t"
	"pushq %rdi\n\t" /* frame; the stack is now 16-byte aligned */
	"movabsq $0x1111111111111111, %rbx\n\t"
	"movabsq $0x2222222222222222, %rbp\n\t"
	"movabsq $0x3333333333333333, %r12\n\t"
	"movabsq $0x4444444444444444, %r13\n\t"
	"movabsq $0x5555555555555555, %r14\n\t"
	"movabsq $0x6666666666666666, %r15\n\t"
	"movq %rdi, %rax\n\t"
	"movq 8(%rax), %rdi\n\t"
	"movq 16(%rax), %rsi\n\t"
	"movq 24(%rax), %rdx\n\t"
	"movq 32(%rax), %rcx\n\t"
	"movq 40(%rax), %r8\n\t"
	"movq 48(%rax), %r9\n\t"
	"callq *(%rax)\n\t"
	"popq %rdi\n\t"
	"movq %rbx, 56(%rdi)\n\t"
	"movq %rbp, 64(%rdi)\n\t"
	"movq %r12, 72(%rdi)\n\t"
	"movq %r13, 80(%rdi)\n\t"
	"movq %r14, 88(%rdi)\n\t"
	"movq %r15, 96(%rdi)\n\t"
	"movq %rax, 104(%rdi)\n\t"
	"popq %r15\n\tpopq %r14\n\tpopq %r13\n\t"
	"popq %r12\n\tpopq %rbp\n\tpopq %rbx\n\t"
	"ret\n"
	".size vg_test_call_checked, .-vg_test_call_checked\n");

/* Runs the call in f and asserts that the six registers survived. */
static inline void
call_checked_frame(struct call_frame *f)
{
	static const uint64_t want[6] = {
		0x1111111111111111ULL, 0x2222222222222222ULL,
		0x3333333333333333ULL, 0x4444444444444444ULL,
		0x5555555555555555ULL, 0x6666666666666666ULL,
	};

	memset(f->saved, 0, sizeof(f->saved));
	vg_test_call_checked(f);
	assert_memory_equal(f->saved, want, sizeof(want));
}

#endif
