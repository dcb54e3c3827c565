/* Secret wiping the compiler cannot elide. */
#include "config.h"

#include <string.h>

#include "crypto/crypto.h"

/* see crypto/crypto.h */
void
vg_wipe(void *p, size_t n)
{
	if (p == NULL || n == 0)
		return;
#ifdef HAVE_EXPLICIT_BZERO
	explicit_bzero(p, n);
#else
	{
		volatile unsigned char *v = p;
		while (n--)
			*v++ = 0;
	}
#endif
	/* Keep the stores even if a later free() would make them dead. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}
