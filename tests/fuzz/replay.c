/*
 * Replays a fuzz target's corpus without libFuzzer: a main() for the
 * target's LLVMFuzzerTestOneInput, built with any compiler in every build.
 * Each file named on the command line (a directory: each file in it) is
 * one input. Without arguments it replays the seed corpus
 * $top_srcdir/tests/fuzz/corpus/NAME and the regression inputs
 * $top_srcdir/tests/fuzz/regress/NAME (inputs that once found a bug), NAME
 * being the target's name (VG_FZ_NAME). A finding aborts the program
 * (tests/fuzz/fuzz.h); a missing or empty seed corpus fails it.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

#ifndef VG_FZ_NAME
#error "VG_FZ_NAME must name the target"
#endif

static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;
	int rc = -1;

	if (f == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc(len ? (size_t)len : 1)) != NULL &&
	    fread(buf, 1, (size_t)len, f) == (size_t)len) {
		/* An exact-size copy, so ASan sees reads past the end. */
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		rc = 0;
	} else {
		fprintf(stderr, "%s: cannot read\n", path);
	}
	free(buf);
	fclose(f);
	return rc;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir in name order; the count in *n. */
static int
run_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[PATH_MAX];
	size_t cnt = 0, cap = 0, i;
	int rc = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (cnt == cap) {
			char **nn = realloc(names, (cap + 64) * sizeof(*nn));

			if (nn == NULL) {
				rc = -1;
				break;
			}
			names = nn;
			cap += 64;
		}
		if ((names[cnt] = strdup(e->d_name)) == NULL) {
			rc = -1;
			break;
		}
		cnt++;
	}
	closedir(d);
	qsort(names, cnt, sizeof(*names), cmp_names);
	for (i = 0; i < cnt; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (rc == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(path) != 0)
				rc = -1;
			else
				(*n)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

static int
run_path(const char *path, size_t *n)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return run_dir(path, n);
	if (run_file(path) != 0)
		return -1;
	(*n)++;
	return 0;
}

int
main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char seeds[PATH_MAX], regress[PATH_MAX];
	size_t n = 0, nseeds = 0;
	int i, rc = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			if (run_path(argv[i], &n) != 0)
				rc = 1;
		printf("%s: %zu inputs replayed\n", VG_FZ_NAME, n);
		return rc;
	}
	if (top == NULL)
		top = ".";
	snprintf(seeds, sizeof(seeds), "%s/tests/fuzz/corpus/%s", top,
	    VG_FZ_NAME);
	snprintf(regress, sizeof(regress), "%s/tests/fuzz/regress/%s", top,
	    VG_FZ_NAME);
	if (run_dir(seeds, &nseeds) != 0 || nseeds == 0) {
		fprintf(stderr, "%s: no seed corpus in %s\n", VG_FZ_NAME,
		    seeds);
		return 1;
	}
	n = nseeds;
	/* The regression corpus may be absent: no bug found yet. */
	if (run_dir(regress, &n) != 0 && errno != ENOENT)
		rc = 1;
	printf("%s: %zu seed and %zu regression inputs replayed\n",
	    VG_FZ_NAME, nseeds, n - nseeds);
	return rc;
}
