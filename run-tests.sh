#!/bin/sh
# Runs every test of vgtoken: a -Werror build with the whole suite, the
# suite again with the portable kernels only (VG_CPU_FEATURES=none), an
# ASan+UBSan build with the whole suite, and a clang build that fuzzes
# each libFuzzer target for FUZZ_SECONDS (default 60; make fuzz-check).
# Installs missing Debian packages first. Ends with one line "N passed,
# N failed, N skipped".
set -eu
cd "$(dirname "$0")"
top=$(pwd)
sh tests/deps.sh --tests
./autogen.sh >/dev/null 2>&1
jobs=$(nproc)
status=0
logs=""

build() { # DIR CONFIGURE-ARGS
	dir="$top/_build/$1"
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ]; then
		(cd "$dir" && "$top/configure" --quiet $2 >/dev/null)
	fi
	make -C "$dir" -j"$jobs" >/dev/null
}

suite() { # NAME DIR [ENV...]: make $goal (default check), output kept in DIR/check-NAME.out
	name=$1
	dir="$top/_build/$2"
	shift 2
	out="$dir/check-$name.out"
	echo "=== $name"
	if ! env "$@" make -C "$dir" -j"$jobs" "${goal:-check}" >"$out" 2>&1; then
		status=1
		grep -E '^(FAIL|ERROR|XPASS)' "$out" || true
		for l in $(grep -lE '^(FAIL|ERROR)' $(find "$dir/tests" -name '*.log') 2>/dev/null); do
			echo "--- $l"
			tail -40 "$l"
		done
	fi
	grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' "$out" || true
	grep -h '^SKIP: ' $(find "$dir/tests" -name '*.log') 2>/dev/null | sort | uniq -c || true
	grep -h ' executions in ' $(find "$dir/tests" -name '*.log') 2>/dev/null || true
	logs="$logs $out"
}

build gcc "--enable-werror"
suite native gcc
suite portable gcc VG_CPU_FEATURES=none
build asan "--enable-werror --enable-sanitizers"
suite asan asan ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
build fuzz "--enable-werror --enable-fuzzing CC=clang-14"
goal=fuzz-check
suite fuzz fuzz

pass=0 fail=0 skip=0
for f in $logs; do
	p=$(sed -n 's/^# PASS: *//p' "$f"); pass=$((pass + ${p:-0}))
	x=$(sed -n 's/^# FAIL: *//p' "$f"); fail=$((fail + ${x:-0}))
	e=$(sed -n 's/^# ERROR: *//p' "$f"); fail=$((fail + ${e:-0}))
	s=$(sed -n 's/^# SKIP: *//p' "$f"); skip=$((skip + ${s:-0}))
done
[ "$fail" -eq 0 ] || status=1
echo "$pass passed, $fail failed, $skip skipped"
exit $status
