/*
 * Memory for keys: whole pages, locked in RAM where the system allows it
 * (a failed mlock is not an error: unprivileged processes have a small
 * limit) and excluded from core dumps.
 *
 * Under AddressSanitizer the pages are registered as LeakSanitizer root
 * regions: LeakSanitizer does not scan anonymous mappings, so the heap
 * blocks a key holds (an RSA key's mutex) would otherwise be reported as
 * leaked while the module is initialised and the key cached.
 */
#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define VG_SECMEM_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VG_SECMEM_LSAN 1
#endif
#endif
#ifdef VG_SECMEM_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#include "token/token.h"

static size_t
round_pages(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

/* see token/token.h */
void (*vg_secmem_release_hook)(const void *p, size_t len);

/* see token/token.h */
void *
vg_secmem_alloc(size_t n)
{
	size_t len = round_pages(n ? n : 1);
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_DONTDUMP
	(void)madvise(p, len, MADV_DONTDUMP);
#endif
#ifdef MADV_WIPEONFORK
	/* A forked child must not inherit logged-in keys. */
	(void)madvise(p, len, MADV_WIPEONFORK);
#endif
	(void)mlock(p, len);
#ifdef VG_SECMEM_LSAN
	__lsan_register_root_region(p, len);
#endif
	return p;
}

/* see token/token.h */
void
vg_secmem_free(void *p, size_t n)
{
	size_t len = round_pages(n ? n : 1);

	if (p == NULL)
		return;
	vg_wipe(p, len);
	if (vg_secmem_release_hook != NULL)
		vg_secmem_release_hook(p, len);
#ifdef VG_SECMEM_LSAN
	__lsan_unregister_root_region(p, len);
#endif
	(void)munlock(p, len);
	(void)munmap(p, len);
}
