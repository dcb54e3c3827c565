/*
 * vgtoken-util: a spinner on stderr while a long call runs (RSA-4096 key
 * generation, PBKDF2 at a high iteration count in C_InitToken, C_InitPIN,
 * C_SetPIN and C_Login), so that someone at a terminal sees the tool is
 * working and not hung. The library cannot report progress from inside a
 * PKCS#11 call, so a thread of the tool draws it while the call runs.
 *
 * Only when stderr is a terminal: redirected output and scripts get
 * nothing. The spinner appears after a short delay, so quick calls print
 * nothing at all, and it erases its line when the call returns.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

/* Delay before the spinner shows, and time between its frames. */
#define DELAY_NS 250000000L
#define FRAME_NS 120000000L

/* The spinner of this process (the tool runs one call at a time). */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	int running;                   /* the thread exists */
	int stop;                      /* asked to stop */
	char what[64];
} spin = { .lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER };

static void
add_ns(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/* Writes all of s to stderr, unbuffered (stdio's stderr buffer belongs
 * to the main thread). A failed write only loses a frame. */
static void
put(const char *s)
{
	size_t n = strlen(s);
	ssize_t r;

	while (n > 0) {
		r = write(STDERR_FILENO, s, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		s += r;
		n -= (size_t)r;
	}
}

static void *
spin_main(void *arg)
{
	static const char frames[] = "|/-\\";
	struct timespec until;
	char line[96];
	size_t width = 0;
	unsigned frame = 0;

	(void)arg;
	pthread_mutex_lock(&spin.lock);
	clock_gettime(CLOCK_REALTIME, &until);
	add_ns(&until, DELAY_NS);
	while (!spin.stop) {
		if (pthread_cond_timedwait(&spin.cond, &spin.lock, &until) !=
		    ETIMEDOUT)
			continue;
		snprintf(line, sizeof(line), "\r%s... %c", spin.what,
		    frames[frame++ % 4]);
		width = strlen(line);
		put(line);
		add_ns(&until, FRAME_NS);
	}
	if (width > 0) {
		/* Blank the line and go back to its start. */
		memset(line + 1, ' ', width - 1);
		line[width] = '\r';
		line[width + 1] = '\0';
		put(line);
	}
	pthread_mutex_unlock(&spin.lock);
	return NULL;
}

/* see util/util.h */
void
vg_util_progress_start(const char *what)
{
	if (spin.running || !isatty(STDERR_FILENO))
		goto out;
	fflush(stderr);
	snprintf(spin.what, sizeof(spin.what), "%s", what);
	spin.stop = 0;
	/* Without the thread there is no spinner, and nothing else
	 * changes. */
	spin.running = pthread_create(&spin.thread, NULL, spin_main, NULL) ==
	    0;
out:
	return;
}

/* see util/util.h */
void
vg_util_progress_stop(void)
{
	if (!spin.running)
		goto out;
	pthread_mutex_lock(&spin.lock);
	spin.stop = 1;
	pthread_cond_signal(&spin.cond);
	pthread_mutex_unlock(&spin.lock);
	pthread_join(spin.thread, NULL);
	spin.running = 0;
out:
	return;
}
