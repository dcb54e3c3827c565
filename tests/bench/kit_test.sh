#!/bin/sh
# Test of the benchmark kit (kit.sh, kit_run.sh): a kit made from this
# build loads every library but glibc's from itself, its run script works
# with an empty environment (the benchmark's re-executed copies included),
# the scaling table has its columns, and a machine with too old a glibc
# is told so. Nothing here checks a speed.
set -eu

b=${top_builddir:-.}
s=${top_srcdir:-.}
softhsm=${SOFTHSM_MODULE:-/usr/lib/softhsm/libsofthsm2.so}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-kit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
kit=$tmp/kit
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# rows FILE MIN PATTERN: at least MIN lines of FILE match PATTERN.
rows() {
	n=$(grep -cE "$3" "$1" || true)
	[ "$n" -ge "$2" ] || fail "$1: $n rows match '$3', wanted $2"
}

BENCH="$b/tests/bench/vgtoken-bench" VG_MODULE=${VG_MODULE:-$b/.libs/libvgtoken.so} \
    SOFTHSM_MODULE=$softhsm sh "$s/tests/bench/kit.sh" "$kit"
cat "$kit/MANIFEST"
nmods=1
if [ -f "$softhsm" ]; then
	nmods=2
	[ -f "$kit/lib/libsofthsm2.so" ] || fail "SoftHSMv2 not in the kit"
else
	echo "SKIP: second module: softhsm2 not installed ($softhsm)"
fi

echo "=== every library but glibc's resolves into the kit"
for f in "$kit/bin/vgtoken-bench" "$kit"/lib/*.so*; do
	LD_LIBRARY_PATH=$kit/lib ldd "$f" >"$tmp/ldd" ||
		fail "ldd $f exited $?"
	if grep 'not found' "$tmp/ldd"; then
		fail "$f: a library not found"
	fi
	sed -n 's/^[[:space:]]*\([^ ]*\) => \(\/[^ ]*\) .*/\1 \2/p' \
	    "$tmp/ldd" | while read -r name path; do
		case "$name" in
		ld-linux*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|\
		librt.so.*|libresolv.so.*|libutil.so.*|libanl.so.*|libmvec.so.*)
			continue ;;
		esac
		[ "$path" = "$kit/lib/$name" ] ||
			echo "$f: $name from $path"
	done >"$tmp/outside"
	if [ -s "$tmp/outside" ]; then
		cat "$tmp/outside"
		fail "$f loads a library from outside the kit"
	fi
done
# The ones this build is known to need.
for lib in libvgtoken.so libcrypto.so.3 libsqlite3.so.0; do
	[ -f "$kit/lib/$lib" ] || fail "$lib not in the kit"
done
grep -qE '^glibc at least: 2\.[0-9]+$' "$kit/MANIFEST" ||
	fail "MANIFEST: no glibc version"

# run_kit RUN-ARGS...: the kit's run script with nothing of this environment
# but PATH and the sanitizers' options.
run_kit() {
	env -i PATH=/usr/bin:/bin TMPDIR="$tmp" KIT_OUT="$tmp/out" \
	    KIT_SECONDS=0.02 KIT_ROUNDS=2 \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
	    LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$s/tests/bench/softhsm.lsan.supp" \
	    "$kit/run" "$@"
}

echo "=== run info"
run_kit info >"$tmp/info.log" || fail "run info exited $?"
rows "$tmp/out/info.txt" 1 '^kernels: +sha1='

echo "=== run scale"
run_kit scale >"$tmp/scale.log" || fail "run scale exited $?"
cat "$tmp/out/scale.txt"
# Each case on 1 thread and on 2 or more, with a rate per module and,
# per module, the rate and CPU/op over the one-thread row's.
for c in 'C_Sign ECDSA P-256' 'C_DeriveKey ECDH1 P-256' \
	'C_Sign SHA256_HMAC' 'C_GenerateRandom' 'C_Sign RSA_PKCS 2048'; do
	rows "$tmp/out/scale.md" 1 \
	    "^\| $c[^|]* \| 1 \|( [^|]+ \| [^|]+ \|){$nmods}.*( 1\.00x \| 1\.00x \|){$nmods}$"
	if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
		rows "$tmp/out/scale.md" 1 \
		    "^\| $c[^|]* \| [2-9][0-9]* \|.*( [0-9.]+x \| [0-9.]+x \|){$nmods}$"
	fi
done
grep -q '"rate_over_one_thread"' "$tmp/out/scale.json" ||
	fail "scale.json: no rate_over_one_thread"
if [ -x "$b/tests/bench/jsoncheck" ]; then
	"$b/tests/bench/jsoncheck" "$tmp/out/scale.json" p11 ||
		fail "scale.json does not parse"
fi

echo "=== run bench: the re-executed copies load the kit's libraries"
run_kit bench crypto --kernels all --case 'RSA-2048 PKCS#1 verify' \
    --seconds 0.02 --rounds 1 --quiet >"$tmp/reexec.txt" ||
	fail "run bench crypto exited $?"
cat "$tmp/reexec.txt"
rows "$tmp/reexec.txt" 1 \
    '^RSA-2048 PKCS#1 verify .* [0-9.]+x +(this process|re-exec VG_CPU_FEATURES=[a-z0-9,]+) vs re-exec VG_CPU_FEATURES=none$'

echo "=== a machine with an older glibc is told so"
cp "$kit/MANIFEST" "$tmp/MANIFEST.orig"
sed 's/^glibc at least: .*/glibc at least: 99.0/' "$tmp/MANIFEST.orig" \
    >"$kit/MANIFEST"
if run_kit info >"$tmp/old.log" 2>&1; then
	fail "run info ran with a glibc older than MANIFEST's"
fi
grep -q 'the kit needs 99.0 or later' "$tmp/old.log" ||
	fail "no message for an old glibc: $(cat "$tmp/old.log")"
if [ "$nmods" = 2 ]; then
	sed 's/^glibc for softhsm2: .*/glibc for softhsm2: 99.0/' \
	    "$tmp/MANIFEST.orig" >"$kit/MANIFEST"
	run_kit bench info >/dev/null || fail "run bench info exited $?"
	run_kit scale >"$tmp/soft.log" || fail "run scale (no softhsm2) exited $?"
	grep -q 'SoftHSMv2 needs glibc 99.0' "$tmp/soft.log" ||
		fail "no message for SoftHSMv2's glibc"
	if grep -q softhsm2 "$tmp/out/scale.md"; then
		fail "SoftHSMv2 measured on a glibc older than it needs"
	fi
fi

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "the kit runs with its own libraries"
