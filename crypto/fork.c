/*
 * The fork generation (crypto/drbg.h): how a process tells, without a
 * system call, whether it is still the process that recorded a value.
 *
 * On Linux one page is mapped with MADV_WIPEONFORK: the kernel gives a
 * child created by fork() (or by any clone that copies the address space)
 * that page zeroed, while every other byte is copied. The page holds a
 * marker, 1 in the process that set it; the first call in a child finds 0
 * and bumps a counter kept in ordinary memory. The counter is the
 * generation: a child's differs from its parent's at the time of the fork,
 * so a value recorded before the fork no longer matches after it.
 *
 * Exactly one bump per fork, also when threads of the child call at once:
 * the marker goes 0 -> 2 (compare-and-swap, one winner), the winner bumps
 * the counter and then stores 1; a caller that sees 2 waits for the 1, and
 * one that sees 1 reads the counter after it (release and acquire order).
 *
 * Where the page cannot be had (no MADV_WIPEONFORK, an old kernel, a
 * sandbox that refuses madvise), the generation is the process ID with the
 * top bit set, read by getpid() at each call, as all fork checks were
 * before: slower (a system call), never wrong. The two kinds of value
 * never meet in one process, since the choice is made once.
 *
 * Why not getpid() everywhere: the module checks the generation in every
 * PKCS#11 call and vg_rng in every request, four times per P-256
 * signature, and four system calls are about 2% of its C_Sign.
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "crypto/drbg.h"

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static uint8_t *fork_marker;  /* the wipe-on-fork page, or NULL */
static uint64_t fork_counter; /* bumped once in each child */

static void
fork_setup(void)
{
#if defined(__linux__) && defined(MADV_WIPEONFORK)
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (page <= 0)
		return;
	p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	if (madvise(p, (size_t)page, MADV_WIPEONFORK) != 0) {
		munmap(p, (size_t)page);
		return;
	}
	*(uint8_t *)p = 1;
	__atomic_store_n(&fork_marker, (uint8_t *)p, __ATOMIC_RELEASE);
#endif
}

/* see crypto/drbg.h */
uint64_t
vg_fork_generation(void)
{
	uint64_t gen;
	uint8_t *m, seen;

	pthread_once(&fork_once, fork_setup);
	m = __atomic_load_n(&fork_marker, __ATOMIC_ACQUIRE);
	if (m == NULL) {
		gen = (uint64_t)getpid() | ((uint64_t)1 << 63);
	} else {
		seen = __atomic_load_n(m, __ATOMIC_ACQUIRE);
		/* 0: the first call in a child (the page came zeroed) */
		if (seen == 0 && __atomic_compare_exchange_n(m, &seen, 2, 0,
		    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			__atomic_add_fetch(&fork_counter, 1, __ATOMIC_ACQ_REL);
			__atomic_store_n(m, 1, __ATOMIC_RELEASE);
		}
		while (__atomic_load_n(m, __ATOMIC_ACQUIRE) != 1)
			sched_yield();
		gen = __atomic_load_n(&fork_counter, __ATOMIC_ACQUIRE);
	}
	return gen;
}
