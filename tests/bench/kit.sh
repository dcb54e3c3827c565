#!/bin/sh
# Makes a benchmark kit: one directory with vgtoken-bench, libvgtoken.so,
# SoftHSMv2 where it is installed, and every shared library they load
# except glibc's, so that the benchmarks run on another x86-64 Linux
# machine (glibc 2.34 or later) with nothing built or installed there:
#
#   kit.sh DIR        (make bench-kit: DIR is bench-kit in the build tree)
#   DIR/run [all|scale|rsa|bench ARGS...]   see tests/bench/kit_run.sh
#
# Environment (set by bench.am): BENCH, VG_MODULE, SOFTHSM_MODULE as for
# run.sh.
set -eu

: "${BENCH:?}" "${VG_MODULE:?}"
SOFTHSM_MODULE=${SOFTHSM_MODULE:-/usr/lib/softhsm/libsofthsm2.so}
kit=${1:?usage: kit.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$kit"
mkdir -p "$kit/bin" "$kit/lib"
cp -L "$BENCH" "$kit/bin/vgtoken-bench"
cp -L "$VG_MODULE" "$kit/lib/libvgtoken.so"
if [ -f "$SOFTHSM_MODULE" ]; then
	cp -L "$SOFTHSM_MODULE" "$kit/lib/libsofthsm2.so"
else
	echo "kit: softhsm2 is not installed ($SOFTHSM_MODULE): the kit" \
	    "measures vgtoken alone (Debian: apt-get install softhsm2)"
fi

# glibc's own libraries come from the machine the kit runs on; a copy of
# them would not match its loader.
is_glibc() {
	case "$1" in
	ld-linux*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|\
	libresolv.so.*|libutil.so.*|libanl.so.*|libmvec.so.*)
		return 0 ;;
	esac
	return 1
}

# libs FILE...: "name path" of each library the files load (ldd lists
# their dependencies' own too).
libs() {
	for f in "$@"; do
		ldd "$f" |
		    sed -n 's/^[[:space:]]*\([^ ]*\) => \(\/[^ ]*\) .*/\1 \2/p'
	done | sort -u
}

# glibc_need FILE...: the latest GLIBC_ symbol version the files use.
glibc_need() {
	objdump -T "$@" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' |
	    sed 's/GLIBC_//' | sort -V -u | tail -n 1
}

core="$kit/bin/vgtoken-bench $kit/lib/libvgtoken.so"
soft=
[ -f "$kit/lib/libsofthsm2.so" ] && soft=$kit/lib/libsofthsm2.so
# shellcheck disable=SC2086
libs $core $soft | while read -r name path; do
	is_glibc "$name" || [ -f "$kit/lib/$name" ] ||
		cp -L "$path" "$kit/lib/$name"
done

cp "$here/kit_run.sh" "$kit/run"
chmod +x "$kit/run"
# shellcheck disable=SC2086
{
	echo "made $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m)"
	echo "glibc at least: $(glibc_need $core $(libs $core |
	    while read -r name path; do
		is_glibc "$name" || echo "$kit/lib/$name"; done))"
	[ -z "$soft" ] || echo "glibc for softhsm2: $(glibc_need $soft \
	    $(libs $soft | while read -r name path; do
		is_glibc "$name" || echo "$kit/lib/$name"; done))"
	(cd "$kit" && ls bin lib)
} >"$kit/MANIFEST"
echo "kit: $kit ($(du -sh "$kit" | cut -f1)); run it as $kit/run"
