/* Input decoding and allocation helpers of the fuzz targets: see fuzz.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

/* see fuzz.h */
uint8_t
vg_fz_u8(struct vg_fz_in *in)
{
	uint8_t v = 0;

	if (in->len > 0) {
		v = in->p[0];
		in->p++;
		in->len--;
	}
	return v;
}

/* see fuzz.h */
uint16_t
vg_fz_u16(struct vg_fz_in *in)
{
	uint16_t v = vg_fz_u8(in);

	return (uint16_t)(v << 8 | vg_fz_u8(in));
}

/* see fuzz.h */
uint32_t
vg_fz_u32(struct vg_fz_in *in)
{
	uint32_t v = vg_fz_u16(in);

	return v << 16 | vg_fz_u16(in);
}

/* see fuzz.h */
uint64_t
vg_fz_u64(struct vg_fz_in *in)
{
	uint64_t v = vg_fz_u32(in);

	return v << 32 | vg_fz_u32(in);
}

/* see fuzz.h */
size_t
vg_fz_len(struct vg_fz_in *in, size_t max)
{
	size_t v = vg_fz_u8(in);

	if (v == 0xff)
		v = vg_fz_u16(in);
	return max == (size_t)-1 ? v : v % (max + 1);
}

/* see fuzz.h */
unsigned long
vg_fz_ulong(struct vg_fz_in *in)
{
	unsigned long v;

	switch (vg_fz_u8(in) & 7) {
	case 0:
	case 1:
	case 2:
		v = vg_fz_u8(in);
		break;
	case 3:
		v = vg_fz_u32(in);
		break;
	case 4:
		v = (unsigned long)vg_fz_u64(in);
		break;
	case 5:
		v = ~0UL;
		break;
	case 6:
		v = 0x80000000UL;
		break;
	default:
		v = 0xffffffffUL;
		break;
	}
	return v;
}

/* see fuzz.h */
void *
vg_fz_alloc(struct vg_fz_pool *pool, size_t len)
{
	void *p;

	if (pool->n == pool->cap) {
		size_t cap = pool->cap ? 2 * pool->cap : 64;
		void **np = realloc(pool->p, cap * sizeof(*np));

		if (np == NULL)
			return NULL;
		pool->p = np;
		pool->cap = cap;
	}
	p = malloc(len ? len : 1);
	if (p != NULL)
		pool->p[pool->n++] = p;
	return p;
}

/* see fuzz.h */
void *
vg_fz_take(struct vg_fz_pool *pool, struct vg_fz_in *in, size_t len,
    size_t *got)
{
	void *p;

	if (len > in->len)
		len = in->len;
	p = vg_fz_dup(pool, in->p, len);
	in->p += len;
	in->len -= len;
	*got = len;
	return p;
}

/* see fuzz.h */
void *
vg_fz_dup(struct vg_fz_pool *pool, const void *src, size_t len)
{
	void *p = vg_fz_alloc(pool, len);

	if (p != NULL && len != 0)
		memcpy(p, src, len);
	return p;
}

/* see fuzz.h */
void
vg_fz_pool_free(struct vg_fz_pool *pool)
{
	size_t i;

	for (i = 0; i < pool->n; i++)
		free(pool->p[i]);
	free(pool->p);
	pool->p = NULL;
	pool->n = pool->cap = 0;
}

/* see fuzz.h */
void
vg_fz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
