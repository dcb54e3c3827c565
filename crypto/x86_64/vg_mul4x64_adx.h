/*
 * The 4x64-bit schoolbook product and square in MULX/ADCX/ADOX that the
 * P-256 and Curve25519 ADX kernels share, as inline-assembly text: MUL_ROW
 * for one row of a product, MUL_PROD and SQR_PROD for the whole 512-bit
 * result in r8 .. r15 (operands %[a], %[b]; rax, rbx, rdx clobbered). Each
 * kernel adds its own reduction after it.
 * CT: straight-line code, no data-dependent branch or memory index.
 */
#ifndef VG_CRYPTO_X86_64_VG_MUL4X64_ADX_H
#define VG_CRYPTO_X86_64_VG_MUL4X64_ADX_H

#define MUL_ROW(off, ti, ti1, ti2, ti3, ti4)                          \
	"movq " off "(%[b]), %%rdx\n\t"                               \
	"xorl %%eax, %%eax\n\t"                                       \
	"mulxq 0(%[a]), %%rax, %%rbx\n\t"                             \
	"adcxq %%rax, " ti "\n\t"                                     \
	"adoxq %%rbx, " ti1 "\n\t"                                    \
	"mulxq 8(%[a]), %%rax, %%rbx\n\t"                             \
	"adcxq %%rax, " ti1 "\n\t"                                    \
	"adoxq %%rbx, " ti2 "\n\t"                                    \
	"mulxq 16(%[a]), %%rax, %%rbx\n\t"                            \
	"adcxq %%rax, " ti2 "\n\t"                                    \
	"adoxq %%rbx, " ti3 "\n\t"                                    \
	"mulxq 24(%[a]), %%rax, " ti4 "\n\t"                          \
	"adcxq %%rax, " ti3 "\n\t"                                    \
	"movl $0, %%eax\n\t"                                          \
	"adoxq %%rax, " ti4 "\n\t"                                    \
	"adcxq %%rax, " ti4 "\n\t"

/* The 512-bit product a b into r8 .. r15 (least significant first). */
#define MUL_PROD \
	"movq 0(%[b]), %%rdx\n\t" \
	"mulxq 0(%[a]), %%r8, %%r9\n\t" \
	"mulxq 8(%[a]), %%rax, %%r10\n\t" \
	"addq %%rax, %%r9\n\t" \
	"mulxq 16(%[a]), %%rax, %%r11\n\t" \
	"adcq %%rax, %%r10\n\t" \
	"mulxq 24(%[a]), %%rax, %%r12\n\t" \
	"adcq %%rax, %%r11\n\t" \
	"adcq $0, %%r12\n\t" \
	MUL_ROW("8", "%%r9", "%%r10", "%%r11", "%%r12", "%%r13") \
	MUL_ROW("16", "%%r10", "%%r11", "%%r12", "%%r13", "%%r14") \
	MUL_ROW("24", "%%r11", "%%r12", "%%r13", "%%r14", "%%r15")

/* The 512-bit square of a into r8 .. r15. */
#define SQR_PROD \
	"movq 0(%[a]), %%rdx\n\t" \
	"mulxq 8(%[a]), %%r9, %%r10\n\t" \
	"mulxq 16(%[a]), %%rax, %%r11\n\t" \
	"addq %%rax, %%r10\n\t" \
	"mulxq 24(%[a]), %%rax, %%r12\n\t" \
	"adcq %%rax, %%r11\n\t" \
	"adcq $0, %%r12\n\t" \
	"movq 8(%[a]), %%rdx\n\t" \
	"xorl %%eax, %%eax\n\t" \
	"mulxq 16(%[a]), %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r11\n\t" \
	"adoxq %%rbx, %%r12\n\t" \
	"mulxq 24(%[a]), %%rax, %%r13\n\t" \
	"adcxq %%rax, %%r12\n\t" \
	"movl $0, %%eax\n\t" \
	"adoxq %%rax, %%r13\n\t" \
	"adcxq %%rax, %%r13\n\t" \
	"movq 16(%[a]), %%rdx\n\t" \
	"mulxq 24(%[a]), %%rax, %%r14\n\t" \
	"addq %%rax, %%r13\n\t" \
	"adcq $0, %%r14\n\t" \
	"xorl %%r15d, %%r15d\n\t" \
	"movq 0(%[a]), %%rdx\n\t" \
	"mulxq %%rdx, %%r8, %%rbx\n\t" \
	"adcxq %%r9, %%r9\n\t" \
	"adoxq %%rbx, %%r9\n\t" \
	"movq 8(%[a]), %%rdx\n\t" \
	"mulxq %%rdx, %%rax, %%rbx\n\t" \
	"adcxq %%r10, %%r10\n\t" \
	"adoxq %%rax, %%r10\n\t" \
	"adcxq %%r11, %%r11\n\t" \
	"adoxq %%rbx, %%r11\n\t" \
	"movq 16(%[a]), %%rdx\n\t" \
	"mulxq %%rdx, %%rax, %%rbx\n\t" \
	"adcxq %%r12, %%r12\n\t" \
	"adoxq %%rax, %%r12\n\t" \
	"adcxq %%r13, %%r13\n\t" \
	"adoxq %%rbx, %%r13\n\t" \
	"movq 24(%[a]), %%rdx\n\t" \
	"mulxq %%rdx, %%rax, %%rbx\n\t" \
	"adcxq %%r14, %%r14\n\t" \
	"adoxq %%rax, %%r14\n\t" \
	"adcxq %%r15, %%r15\n\t" \
	"adoxq %%rbx, %%r15\n\t"

#endif
