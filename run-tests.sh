#!/bin/sh
# Runs every test of vgtoken: a -Werror build with the whole suite, the
# suite again with the portable kernels only (VG_CPU_FEATURES=none), an
# ASan+UBSan build with the whole suite, and a clang build that fuzzes
# each libFuzzer target for FUZZ_SECONDS (default 60; make fuzz-check).
# Installs missing Debian packages first (their output is shown only if
# that fails). Prints each test as it finishes, with the seconds since its
# suite started; a failed test's log is shown at the end of its suite.
# Ends with one line "N passed, N failed, N skipped"; the exit status is 0
# only when nothing failed.
set -eu
cd "$(dirname "$0")"
top=$(pwd)
mkdir -p "$top/_build"
if ! sh tests/deps.sh --tests >"$top/_build/deps.log" 2>&1; then
	cat "$top/_build/deps.log"
	echo "run-tests.sh: installing the Debian packages failed (tests/deps.sh --tests)"
	exit 1
fi
grep '^installing:' "$top/_build/deps.log" || true
./autogen.sh >/dev/null 2>&1
jobs=$(nproc)
status=0
logs=""
t0=$(date +%s)

elapsed() { # seconds since $1
	echo $(($(date +%s) - $1))
}

build() { # DIR CONFIGURE-ARGS
	dir="$top/_build/$1"
	echo "=== build _build/$1 (at $(elapsed "$t0")s)"
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ]; then
		(cd "$dir" && "$top/configure" --quiet $2 >/dev/null)
	fi
	make -C "$dir" -j"$jobs" >/dev/null
}

# progress START: passes automake's result lines through, each prefixed
# with the seconds since START; the rest of make's output is dropped.
progress() {
	while IFS= read -r line; do
		case $line in
		PASS:* | FAIL:* | SKIP:* | XFAIL:* | XPASS:* | ERROR:*)
			printf '[%5ss] %s\n' "$(elapsed "$1")" "$line" ;;
		esac
	done
}

suite() { # NAME DIR [ENV...]: make $goal (default check), output kept in DIR/check-NAME.out
	name=$1
	dir="$top/_build/$2"
	shift 2
	out="$dir/check-$name.out"
	echo "=== $name (at $(elapsed "$t0")s)"
	start=$(date +%s)
	rm -f "$out" "$out.rc"
	{
		rc=0
		env "$@" make -C "$dir" -j"$jobs" "${goal:-check}" >"$out" 2>&1 || rc=$?
		echo "$rc" >"$out.rc"
	} &
	# Follow the output as make writes it, until make has finished.
	tail -n +1 -F --pid=$! "$out" 2>/dev/null | progress "$start"
	wait || true
	if [ "$(cat "$out.rc" 2>/dev/null || echo 1)" -ne 0 ]; then
		status=1
		for l in $(grep -lE '^(FAIL|ERROR)' $(find "$dir/tests" -name '*.log') 2>/dev/null); do
			echo "--- $l"
			tail -40 "$l"
		done
		# A failure before any test ran (a build error) has no log.
		grep -qE '^# TOTAL:' "$out" || tail -30 "$out"
	fi
	grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' "$out" || true
	grep -h '^SKIP: ' $(find "$dir/tests" -name '*.log') 2>/dev/null | sort | uniq -c || true
	grep -h ' executions in ' $(find "$dir/tests" -name '*.log') 2>/dev/null || true
	echo "=== $name done in $(elapsed "$start")s"
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
build tsan "--enable-werror --enable-tsan"
goal=tsan-check; suite tsan tsan

pass=0 fail=0 skip=0
for f in $logs; do
	p=$(sed -n 's/^# PASS: *//p' "$f"); pass=$((pass + ${p:-0}))
	x=$(sed -n 's/^# FAIL: *//p' "$f"); fail=$((fail + ${x:-0}))
	e=$(sed -n 's/^# ERROR: *//p' "$f"); fail=$((fail + ${e:-0}))
	s=$(sed -n 's/^# SKIP: *//p' "$f"); skip=$((skip + ${s:-0}))
done
[ "$fail" -eq 0 ] || status=1
echo "=== all suites done in $(elapsed "$t0")s"
echo "$pass passed, $fail failed, $skip skipped"
exit $status
