/*
 * Boot stub of the Bochs test image (tests/bochs/ifma_bochs.sh): a
 * multiboot (version 1) entry in 32-bit protected mode that builds
 * identity-mapped page tables for the first GiB (2 MiB pages), enables
 * PAE, SSE state (CR4.OSFXSR, CR4.OSXMMEXCPT) and long mode, loads a
 * 64-bit GDT and an IDT whose every exception lands in vg_bochs_trap(),
 * and calls vg_bochs_main() (tests/bochs/harness.c) on a 64 KiB stack.
 * XSAVE state (CR4.OSXSAVE, XCR0) is left to the harness, which checks
 * CPUID before it touches them. Nothing here is position independent: the
 * image is linked at 1 MiB (tests/bochs/link.ld).
 */
#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0x00000003 /* page-aligned modules, memory map */

	.section .multiboot, "a"
	.balign 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .bss
	.balign 4096
pml4:	.skip 4096
pdpt:	.skip 4096
pd:	.skip 4096
stack:	.skip 65536
stack_top:

	.section .data
	.balign 16
gdt:
	.quad 0
	.quad 0x00af9a000000ffff /* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff /* 0x10: data */
gdt_end:
gdt_ptr:
	.word gdt_end - gdt - 1
	.quad gdt
	.balign 16
idt:	.skip 32 * 16
idt_ptr:
	.word 32 * 16 - 1
	.quad idt

	.section .text
	.code32
	.globl vg_boot_start
vg_boot_start:
	cli
	movl $stack_top, %esp
	/* PML4[0] -> PDPT, PDPT[0] -> PD, PD[i] = i * 2 MiB (present,
	 * writable, large page) */
	movl $pdpt, %eax
	orl $3, %eax
	movl %eax, pml4
	movl $pd, %eax
	orl $3, %eax
	movl %eax, pdpt
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $0x83, %eax
	movl %eax, pd(, %ecx, 8)
	incl %ecx
	cmpl $512, %ecx
	jne 1b
	movl $pml4, %eax
	movl %eax, %cr3
	/* CR4: PAE | OSFXSR | OSXMMEXCPT */
	movl %cr4, %eax
	orl $((1 << 5) | (1 << 9) | (1 << 10)), %eax
	movl %eax, %cr4
	/* EFER.LME */
	movl $0xc0000080, %ecx
	rdmsr
	orl $(1 << 8), %eax
	wrmsr
	/* CR0: PG | PE | MP, EM and TS clear */
	movl %cr0, %eax
	andl $~((1 << 2) | (1 << 3)), %eax
	orl $((1 << 31) | (1 << 1) | 1), %eax
	movl %eax, %cr0
	lgdt gdt_ptr
	ljmp $0x08, $long_mode

	.code64
long_mode:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movw %ax, %fs
	movw %ax, %gs
	movq $stack_top, %rsp
	/* IDT: 32 interrupt gates, code selector 0x08, handler trap_N */
	leaq idt(%rip), %rdi
	leaq trap_table(%rip), %rsi
	xorl %ecx, %ecx
2:	movq (%rsi, %rcx, 8), %rax
	movw %ax, (%rdi)
	movw $0x08, 2(%rdi)
	movw $0x8e00, 4(%rdi)
	shrq $16, %rax
	movw %ax, 6(%rdi)
	shrq $16, %rax
	movl %eax, 8(%rdi)
	movl $0, 12(%rdi)
	addq $16, %rdi
	incl %ecx
	cmpl $32, %ecx
	jne 2b
	lidt idt_ptr(%rip)
	call vg_bochs_main
3:	cli
	hlt
	jmp 3b

/* Exception entries: those without a CPU error code push a zero one. */
.macro trap n
trap_\n:
	.if (\n == 8) || (\n >= 10 && \n <= 14) || (\n == 17) || (\n == 21) || (\n == 29) || (\n == 30)
	.else
	pushq $0
	.endif
	pushq $\n
	jmp trap_common
.endm
	.altmacro
.set i, 0
.rept 32
	trap %i
.set i, i + 1
.endr

trap_common:
	movq (%rsp), %rdi   /* vector */
	movq 8(%rsp), %rsi  /* error code */
	movq 16(%rsp), %rdx /* rip */
	andq $-16, %rsp
	call vg_bochs_trap
4:	cli
	hlt
	jmp 4b

	.section .rodata
	.balign 8
trap_table:
.macro trap_addr n
	.quad trap_\n
.endm
.set i, 0
.rept 32
	trap_addr %i
.set i, i + 1
.endr

	.section .note.GNU-stack, "", @progbits
