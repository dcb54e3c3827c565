#!/bin/sh
# Runs one libFuzzer target of tests/fuzz for a bounded time, as a test of
# make fuzz-check (configure --enable-fuzzing):
#
#   sh tests/fuzz/run.sh SRCDIR/tests/fuzz/NAME.fuzz
#
# from the top of the build directory. It fuzzes ./tests/fuzz/fuzz_NAME
# for FUZZ_SECONDS seconds (default 60) over a copy of the seed corpus
# (tests/fuzz/corpus/NAME) and the regression inputs (tests/fuzz/regress/
# NAME), in a temporary directory, with the options of NAME.fuzz (max_len,
# timeout, rss_limit_mb). It fails on any finding: a non-zero exit of
# libFuzzer or a crash, leak, timeout or out-of-memory file; the inputs
# found are kept in tests/fuzz/findings/NAME/ of the build directory, with
# the command that replays them. It prints the executions done
# ("stat::number_of_executed_units" of -print_final_stats=1).
set -u

spec=$1
name=$(basename "$spec" .fuzz)
src=$(dirname "$spec")
bin=./tests/fuzz/fuzz_$name
seconds=${FUZZ_SECONDS:-60}

if [ ! -x "$bin" ]; then
	echo "$bin is not built: configure --enable-fuzzing CC=clang" >&2
	exit 99
fi
# Defaults; NAME.fuzz may change them.
max_len=4096
timeout=30
rss_limit_mb=2048
. "$spec"

work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$name.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
mkdir "$work/corpus" "$work/seeds" "$work/found" "$work/tmp" || exit 99
cp "$src/corpus/$name"/* "$work/seeds/" || exit 99
if [ -d "$src/regress/$name" ]; then
	cp "$src/regress/$name"/* "$work/seeds/" 2>/dev/null
fi
nseeds=$(ls "$work/seeds" | wc -l)

# The seeds are read, new inputs go to $work/corpus; the module's token
# data goes under $work/tmp (the targets honour TMPDIR).
TMPDIR=$work/tmp \
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	"$bin" -max_total_time="$seconds" -timeout="$timeout" \
	-rss_limit_mb="$rss_limit_mb" -max_len="$max_len" \
	-print_final_stats=1 -error_exitcode=1 -timeout_exitcode=1 \
	-artifact_prefix="$work/found/" \
	"$work/corpus" "$work/seeds" >"$work/log" 2>&1
rc=$?

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
cov=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$work/log" | tail -1 |
	sed -n 's/.*\(cov: [0-9]*\).*\(corp: [^ ]*\).*/\1 \2/p')
found=$(ls "$work/found" | wc -l)
echo "$name: ${execs:-0} executions in ${seconds} s from $nseeds seeds" \
	"(${cov:-no coverage line}), rc $rc, $found finding(s)"

if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ] || [ -z "$execs" ]; then
	echo "FAIL: fuzz target $name found a problem; libFuzzer's output ends:"
	tail -60 "$work/log"
	keep=tests/fuzz/findings/$name
	mkdir -p "$keep"
	cp "$work/found"/* "$keep/" 2>/dev/null
	cp "$work/log" "$keep/libfuzzer.log"
	echo "inputs kept in $keep; replay one with: $bin FILE" \
		"(or tests/fuzz/replay_$name FILE in a normal build)"
	exit 1
fi
exit 0
