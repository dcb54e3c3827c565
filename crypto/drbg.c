/*
 * HMAC_DRBG with HMAC-SHA-256 [SP 800-90A Rev.1 §10.1.2], the kernel
 * entropy source and the fork-safe generator vg_rng.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_GETRANDOM
#include <sys/random.h>
#endif

#include "crypto/ct.h"
#include "crypto/drbg.h"
#include "crypto/hash.h"

#define OUTLEN 32 /* HMAC-SHA-256 */

/* Personalisation string of vg_rng_init [SP 800-90A §8.7.1]. */
static const char rng_pers[] = "vgtoken vg_rng HMAC_DRBG-SHA-256 v1";

/* A length in bytes the DRBG accepts as one input. */
static int
input_ok(const void *p, size_t len)
{
	if (p == NULL && len != 0)
		return 0;
	return (uint64_t)len <= VG_DRBG_MAX_INPUT;
}

/*
 * HMAC_DRBG_Update [§10.1.2.2] with provided_data = a || b || c (any of them
 * empty). d->kst must be keyed with the current K when keyed is set; it is
 * keyed with the new K on return.
 * CT: only the three lengths are observable.
 */
static void
drbg_update(struct vg_drbg *d, int keyed, const void *a, size_t alen,
    const void *b, size_t blen, const void *c, size_t clen)
{
	struct vg_hmac m;
	uint8_t sep;
	int round;

	for (round = 0; round < 2; round++) {
		/* K = HMAC(K, V || sep || provided_data) */
		sep = (uint8_t)round;
		if (round == 0 && keyed)
			m = d->kst;
		else
			vg_hmac_init(&m, VG_HASH_SHA256, d->K, OUTLEN);
		vg_hmac_update(&m, d->V, OUTLEN);
		vg_hmac_update(&m, &sep, 1);
		if (alen != 0)
			vg_hmac_update(&m, a, alen);
		if (blen != 0)
			vg_hmac_update(&m, b, blen);
		if (clen != 0)
			vg_hmac_update(&m, c, clen);
		vg_hmac_final(&m, d->K);
		/* V = HMAC(K, V) */
		vg_hmac_init(&d->kst, VG_HASH_SHA256, d->K, OUTLEN);
		m = d->kst;
		vg_hmac_update(&m, d->V, OUTLEN);
		vg_hmac_final(&m, d->V);
		if ((alen | blen | clen) == 0)
			break;
	}
}

/* see crypto/drbg.h */
enum vg_err
vg_drbg_instantiate(struct vg_drbg *d, const void *entropy, size_t elen,
    const void *nonce, size_t nlen, const void *pers, size_t plen)
{
	enum vg_err rc = VG_OK;

	if (d == NULL)
		return VG_ERR_ARG;
	if ((entropy == NULL && elen != 0) || (nonce == NULL && nlen != 0) ||
	    (pers == NULL && plen != 0))
		rc = VG_ERR_ARG;
	else if (!input_ok(entropy, elen) || !input_ok(nonce, nlen) ||
	    !input_ok(pers, plen) || elen < VG_DRBG_ENTROPY_LEN ||
	    (uint64_t)elen + nlen < VG_DRBG_SEED_LEN)
		rc = VG_ERR_LENGTH;
	if (rc != VG_OK) {
		vg_drbg_wipe(d);
		return rc;
	}
	memset(d->K, 0x00, sizeof d->K);
	memset(d->V, 0x01, sizeof d->V);
	drbg_update(d, 0, entropy, elen, nonce, nlen, pers, plen);
	d->reseed_counter = 1;
	return VG_OK;
}

/* see crypto/drbg.h */
enum vg_err
vg_drbg_reseed(struct vg_drbg *d, const void *entropy, size_t elen,
    const void *addl, size_t alen)
{
	if (d == NULL || d->reseed_counter == 0 ||
	    (entropy == NULL && elen != 0) || (addl == NULL && alen != 0))
		return VG_ERR_ARG;
	if (elen < VG_DRBG_ENTROPY_LEN || !input_ok(entropy, elen) ||
	    !input_ok(addl, alen))
		return VG_ERR_LENGTH;
	drbg_update(d, 1, entropy, elen, addl, alen, NULL, 0);
	d->reseed_counter = 1;
	return VG_OK;
}

/* see crypto/drbg.h */
enum vg_err
vg_drbg_generate(struct vg_drbg *d, uint8_t *out, size_t len,
    const void *addl, size_t alen)
{
	struct vg_hmac m;
	size_t n;

	if (d == NULL || d->reseed_counter == 0 || (out == NULL && len != 0) ||
	    (addl == NULL && alen != 0))
		return VG_ERR_ARG;
	if (len > VG_DRBG_MAX_REQUEST || !input_ok(addl, alen))
		return VG_ERR_LENGTH;
	if (d->reseed_counter > VG_DRBG_RESEED_INTERVAL)
		return VG_ERR_RANDOM;
	if (alen != 0)
		drbg_update(d, 1, addl, alen, NULL, 0, NULL, 0);
	while (len > 0) {
		m = d->kst;
		vg_hmac_update(&m, d->V, OUTLEN);
		vg_hmac_final(&m, d->V);
		n = len < OUTLEN ? len : OUTLEN;
		memcpy(out, d->V, n);
		out += n;
		len -= n;
	}
	drbg_update(d, 1, addl, alen, NULL, 0, NULL, 0);
	d->reseed_counter++;
	return VG_OK;
}

/* see crypto/drbg.h */
void
vg_drbg_wipe(struct vg_drbg *d)
{
	if (d != NULL)
		vg_wipe(d, sizeof *d);
}

/* /dev/urandom, for systems without getrandom(2) (old libc or kernel). */
static enum vg_err
entropy_urandom(uint8_t *p, size_t len)
{
	enum vg_err rc = VG_OK;
	ssize_t n;
	int fd;

	do
		fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return VG_ERR_RANDOM;
	while (len > 0) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = VG_ERR_RANDOM;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	close(fd);
	return rc;
}

/* see crypto/drbg.h */
enum vg_err
vg_entropy(void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t left = len;
	enum vg_err rc = VG_OK;
	int saved = errno;

	if (p == NULL && len != 0)
		return VG_ERR_ARG;
#ifdef HAVE_GETRANDOM
	while (left > 0) {
		/* At most 256 bytes a call: such reads of an initialised
		 * pool are neither short nor interrupted, but loop anyway. */
		ssize_t n = getrandom(p, left < 256 ? left : 256, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOSYS) /* kernel older than 3.17 */
			break;
		if (n <= 0) {
			rc = VG_ERR_RANDOM;
			break;
		}
		p += n;
		left -= (size_t)n;
	}
#endif
	if (rc == VG_OK && left > 0)
		rc = entropy_urandom(p, left);
	if (rc != VG_OK)
		vg_wipe(buf, len);
	errno = saved;
	return rc;
}

/* Reseeds r->d from the kernel with addl as additional input, and records
 * the fork generation the fresh state belongs to. */
static enum vg_err
rng_reseed(struct vg_rng *r, const void *addl, size_t alen)
{
	uint8_t seed[VG_DRBG_ENTROPY_LEN];
	enum vg_err rc;

	rc = vg_entropy(seed, sizeof seed);
	if (rc == VG_OK)
		rc = vg_drbg_reseed(&r->d, seed, sizeof seed, addl, alen);
	if (rc == VG_OK)
		r->fork_gen = vg_fork_generation();
	vg_wipe(seed, sizeof seed);
	return rc;
}

/* see crypto/drbg.h */
enum vg_err
vg_rng_init(struct vg_rng *r)
{
	uint8_t seed[VG_DRBG_SEED_LEN];
	enum vg_err rc;

	if (r == NULL)
		return VG_ERR_ARG;
	vg_wipe(r, sizeof *r);
	rc = vg_entropy(seed, sizeof seed);
	if (rc == VG_OK)
		rc = vg_drbg_instantiate(&r->d, seed, VG_DRBG_ENTROPY_LEN,
		    seed + VG_DRBG_ENTROPY_LEN, VG_DRBG_NONCE_LEN, rng_pers,
		    sizeof rng_pers - 1);
	if (rc == VG_OK) {
		r->fork_gen = vg_fork_generation();
		r->ready = 1;
	} else {
		vg_rng_wipe(r);
		rc = VG_ERR_RANDOM;
	}
	vg_wipe(seed, sizeof seed);
	return rc;
}

/* see crypto/drbg.h */
enum vg_err
vg_rng_generate(struct vg_rng *r, void *out, size_t len)
{
	uint8_t *p = out;
	size_t left = len, n;
	enum vg_err rc = VG_OK;

	if (r == NULL || !r->ready || (out == NULL && len != 0))
		return VG_ERR_ARG;
	if (vg_fork_generation() != r->fork_gen) {
		pid_t pid = getpid();

		/* Forked: the child's state is a copy of the parent's; its
		 * pid goes into the reseed. */
		rc = rng_reseed(r, &pid, sizeof pid);
		if (rc != VG_OK)
			goto out;
	}
	while (left > 0) {
		n = left < VG_DRBG_MAX_REQUEST ? left : VG_DRBG_MAX_REQUEST;
		rc = vg_drbg_generate(&r->d, p, n, NULL, 0);
		if (rc == VG_ERR_RANDOM) {
			rc = rng_reseed(r, NULL, 0);
			if (rc == VG_OK)
				rc = vg_drbg_generate(&r->d, p, n, NULL, 0);
		}
		if (rc != VG_OK)
			goto out;
		p += n;
		left -= n;
	}
out:
	if (rc != VG_OK) {
		vg_wipe(out, len);
		rc = VG_ERR_RANDOM;
	}
	return rc;
}

/* see crypto/drbg.h */
enum vg_err
vg_rng_mix(struct vg_rng *r, const void *in, size_t len)
{
	if (r == NULL || !r->ready || (in == NULL && len != 0))
		return VG_ERR_ARG;
	if ((uint64_t)len > VG_DRBG_MAX_INPUT)
		return VG_ERR_LENGTH;
	return rng_reseed(r, in, len);
}

/* see crypto/drbg.h */
void
vg_rng_wipe(struct vg_rng *r)
{
	if (r != NULL)
		vg_wipe(r, sizeof *r);
}
