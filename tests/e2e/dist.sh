#!/bin/sh
# The release tarball (make dist) holds every file of the tree that a
# build or a test needs, and builds on its own. Every file git tracks must
# be in it, except the ones listed in dist_excluded below, each with its
# reason. make distcheck does the full round (build, whole suite, install,
# uninstall) in about a quarter of an hour; this test is the quick guard
# that runs with the suite.
. "$top_srcdir/tests/e2e/lib.sh"
# What is checked does not depend on how this tree was built: once, in
# the plain build with every kernel, is enough.
[ -z "$asan_rt" ] || skip "sanitizer build (the tarball does not depend on it; the plain build checks it)"
[ -z "${VG_CPU_FEATURES:-}" ] || skip "VG_CPU_FEATURES is set (the tarball does not depend on it)"
need git "Debian package git"
need tar "Debian package tar"
git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "the source tree is not a git work tree (a release tarball is checked by make distcheck)"

# Tracked files that stay out of the tarball, as shell patterns.
#   .gitignore .gitattributes  version-control settings
#   .ci/*                      the CI entry point: it runs from a clone
#   m4/.keep                   keeps the empty m4/ in git; the tarball has
#                              libtool's macros there instead
#   debian/*                   the Debian packaging builds from the tree
#                              (format 3.0 native), not from the tarball
dist_excluded() {
	case $1 in
	.gitignore | */.gitignore | .gitattributes | .ci/* | m4/.keep | debian/*)
		return 0 ;;
	esac
	return 1
}

unset MAKEFLAGS MFLAGS MAKELEVEL
name="vgtoken-disttest-$$"
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK" "$top_builddir/$name" "$top_builddir/$name.tar.gz"' EXIT
make -s -C "$top_builddir" dist-gzip distdir="$name" >"$WORK/dist.log" 2>&1 ||
	fail "make dist failed: $(tail -5 "$WORK/dist.log")"
mv "$top_builddir/$name.tar.gz" "$WORK/"
check "make dist wrote a tarball" test -s "$WORK/$name.tar.gz"

tar -tzf "$WORK/$name.tar.gz" | sed -n "s|^$name/||p" | sort >"$WORK/tar.list"
# Tracked files as the work tree has them (a file deleted but not yet
# committed does not count).
git -C "$top_srcdir" ls-files | while IFS= read -r f; do
	[ -e "$top_srcdir/$f" ] || continue
	dist_excluded "$f" && continue
	printf '%s\n' "$f"
done | sort >"$WORK/git.list"
comm -23 "$WORK/git.list" "$WORK/tar.list" >"$WORK/missing"
if [ -s "$WORK/missing" ]; then
	echo "tracked files missing from the tarball (add them to EXTRA_DIST or a _SOURCES list):"
	sed 's/^/  /' "$WORK/missing"
fi
check "the tarball holds every tracked file ($(wc -l <"$WORK/git.list") of them)" \
	test ! -s "$WORK/missing"
check "the tarball carries no build output" \
	sh -c "! grep -E '(\\.o|\\.lo|\\.la|\\.so|/config\\.status|/config\\.log)\$' '$WORK/tar.list'"
check "the tarball carries configure and the autotools helpers" \
	sh -c "grep -qx configure '$WORK/tar.list' && grep -qx build-aux/ltmain.sh '$WORK/tar.list'"

# Build it as a user of the tarball would, from a read-only source tree
# and in a separate build directory. Without optimisation: this checks
# that every source is there, not the code the compiler makes of it.
tar -xzf "$WORK/$name.tar.gz" -C "$WORK"
chmod -R a-w "$WORK/$name"
mkdir "$WORK/build"
(cd "$WORK/build" && "$WORK/$name/configure" --quiet CFLAGS="-O0 -g0") \
	>"$WORK/configure.log" 2>&1 ||
	fail "configure failed: $(tail -5 "$WORK/configure.log")"
make -C "$WORK/build" -j2 >"$WORK/build.log" 2>&1 ||
	fail "the tarball does not build: $(grep -m5 -E 'error|No rule' "$WORK/build.log")"
check "the tarball builds the module" test -f "$WORK/build/.libs/libvgtoken.so"
check "the tarball builds vgtoken-util" test -x "$WORK/build/vgtoken-util"
check "the built vgtoken-util runs" plain "$WORK/build/vgtoken-util" --version
echo "$ok checks passed"
