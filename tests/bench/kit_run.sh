#!/bin/sh
# The run script of a benchmark kit made by `make bench-kit` (kit.sh): the
# kit's vgtoken-bench with the kit's libraries, on throw-away tokens in
# $TMPDIR, nothing installed or built on this machine.
#
#   run [all]          info, then scale, then rsa
#   run scale          p11 --scale: C_Sign ECDSA, C_DeriveKey ECDH1,
#                      C_Sign SHA256_HMAC, C_GenerateRandom and C_Sign
#                      RSA_PKCS on 1, 2, 4, ... threads up to the CPUs
#                      online, vgtoken and SoftHSMv2 side by side
#   run rsa            crypto --kernels all, the RSA private operation of
#                      2048, 3072 and 4096 bits: every RSA kernel this CPU
#                      runs, against OpenSSL and the portable code
#   run bench ARGS...  vgtoken-bench ARGS (modules: lib/libvgtoken.so,
#                      lib/libsofthsm2.so)
#
# Each run writes its text, JSON and Markdown to $KIT_OUT (default
# ./kit-results). KIT_SECONDS (default 1) and KIT_ROUNDS (default 5) are
# each case's time per module or side and its alternating rounds.
set -eu

kit=$(cd "$(dirname "$0")" && pwd)
out=${KIT_OUT:-kit-results}
secs=${KIT_SECONDS:-1}
rounds=${KIT_ROUNDS:-5}
LD_LIBRARY_PATH=$kit/lib
export LD_LIBRARY_PATH

# The kit's programs need the glibc of MANIFEST or a later one; SoftHSMv2
# (C++) may need a later one than the rest.
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/^glibc //')
older() { # VERSION: 0 when this machine's glibc is older
	[ -n "$1" ] && [ -n "$have" ] &&
	    [ "$(printf '%s\n%s\n' "$1" "$have" | sort -V | head -n 1)" != "$1" ]
}
need=$(sed -n 's/^glibc at least: //p' "$kit/MANIFEST")
if older "$need"; then
	echo "run: this machine has glibc $have; the kit needs $need or later" >&2
	exit 1
fi

bench() {
	"$kit/bin/vgtoken-bench" "$@"
}

mods="--module $kit/lib/libvgtoken.so"
soft=$(sed -n 's/^glibc for softhsm2: //p' "$kit/MANIFEST")
if [ ! -f "$kit/lib/libsofthsm2.so" ]; then
	echo "run: the kit has no SoftHSMv2: measuring vgtoken alone"
elif older "$soft"; then
	echo "run: SoftHSMv2 needs glibc $soft, this machine has $have:" \
	    "measuring vgtoken alone"
else
	mods="$mods --module $kit/lib/libsofthsm2.so"
fi

# step NAME ARGS...: one benchmark run, its table on stdout and in $out.
step() {
	name=$1
	shift
	mkdir -p "$out"
	echo "=== $name: vgtoken-bench $*"
	rc=0
	bench "$@" --quiet --json "$out/$name.json" \
	    --markdown "$out/$name.md" >"$out/$name.txt" || rc=$?
	cat "$out/$name.txt"
	[ "$rc" -eq 0 ] || echo "=== $name: vgtoken-bench exited $rc"
	return "$rc"
}

info() {
	step info info
}

scale() {
	# shellcheck disable=SC2086
	step scale p11 $mods --scale --seconds "$secs" --rounds "$rounds" \
	    --case "C_Sign ECDSA" --case "C_DeriveKey ECDH1" \
	    --case "C_Sign SHA256_HMAC" --case "C_GenerateRandom" \
	    --case "C_Sign RSA_PKCS 2048"
}

rsa() {
	step rsa crypto --kernels all --case "RSA-2048 private" \
	    --case "RSA-3072 private" --case "RSA-4096 private" \
	    --seconds "$secs" --rounds "$rounds"
}

case "${1:-all}" in
all) info && scale && rsa ;;
info) info ;;
scale) scale ;;
rsa) rsa ;;
bench) shift; bench "$@" ;;
*)
	sed -n '2,/^set -eu/p' "$0" | sed '$d'
	exit 2
	;;
esac
