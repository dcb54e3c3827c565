#!/bin/sh
# Smoke test of vgtoken-bench: each mode runs with tiny counts, and its
# table and JSON output parse. It checks nothing about speed. SoftHSMv2 is
# the second module where it is installed; without it the p11 and store
# modes run on vgtoken alone (a SKIP line says so). The callgrind mode runs
# where valgrind is installed and the program is not built with ASan.
set -eu

b=${top_builddir:-.}
bench="$b/tests/bench/vgtoken-bench"
check="$b/tests/bench/jsoncheck"
module=${VG_MODULE:-$b/.libs/libvgtoken.so}
softhsm=${SOFTHSM_MODULE:-/usr/lib/softhsm/libsofthsm2.so}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-smoke.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# json FILE MODE: parse the JSON output (with json-c, when built).
json() {
	if [ -x "$check" ]; then
		"$check" "$1" "$2" || fail "$2: JSON output does not parse"
	else
		echo "note: json-c not available, $2 JSON not parsed"
	fi
}

# rows FILE MIN PATTERN: at least MIN lines of the table match PATTERN.
rows() {
	n=$(grep -cE "$3" "$1" || true)
	[ "$n" -ge "$2" ] || fail "$1: $n rows match '$3', wanted $2"
}

mods="--module $module"
nmods=1
if [ -f "$softhsm" ]; then
	mods="$mods --module $softhsm"
	nmods=2
	# SoftHSMv2 2.6 leaks OpenSSL objects in each Ed25519 signature; in
	# the ASan build LeakSanitizer would fail the run on its leak, not
	# ours. Its frames are found with the slow unwinder.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=${top_srcdir:-.}/tests/bench/softhsm.lsan.supp"
	export ASAN_OPTIONS LSAN_OPTIONS
else
	echo "SKIP: second module: softhsm2 not installed ($softhsm)"
fi

echo "=== info"
"$bench" info --json "$tmp/info.json" --markdown "$tmp/info.md" \
	>"$tmp/info.txt" || fail "info exited $?"
rows "$tmp/info.txt" 1 '^kernels: +sha1='
json "$tmp/info.json" info

echo "=== crypto --kernels all"
"$bench" crypto --kernels all --seconds 0.02 --rounds 2 \
	--pbkdf2-iterations 100 --quiet --json "$tmp/crypto.json" \
	--markdown "$tmp/crypto.md" >"$tmp/crypto.txt" ||
	fail "crypto exited $?"
cat "$tmp/crypto.txt"
# Each primitive: two CPU figures and a ratio.
rows "$tmp/crypto.txt" 7 \
	'^(SHA|SHA3|SHAKE|AES|PBKDF2|P-256|ECDSA|ECDH)[^ ]* .* [0-9.]+ [nmu]?s \[.* [0-9.]+ [nmu]?s \[.* [0-9.]+x$'
rows "$tmp/crypto.md" 7 '^\| .* \| [0-9.]+x \|$'
json "$tmp/crypto.json" crypto

echo "=== p11 ($nmods module(s))"
# shellcheck disable=SC2086
"$bench" p11 $mods --seconds 0.02 --rounds 2 --quiet \
	--json "$tmp/p11.json" --markdown "$tmp/p11.md" >"$tmp/p11.txt" ||
	fail "p11 exited $?"
cat "$tmp/p11.txt"
# The calls every module has: a rate per module on 1 and 2 threads.
for c in 'C_Digest SHA-256 1 KiB' 'C_GenerateRandom 32 B' \
	'C_OpenSession\+C_CloseSession' 'C_FindObjects by label'; do
	rows "$tmp/p11.txt" 2 "^$c.*( [0-9.]+( [kM])?/s \| [0-9.]+ [nmu]?s .*){$nmods}"
done
# Every other case: a rate, or the reason it did not run.
rows "$tmp/p11.txt" 50 '^C_|key generation'
if grep -E '^(C_|[A-Z].* key generation)' "$tmp/p11.txt" |
	grep -vE '/s \||unsupported \(CKR_' >/dev/null; then
	fail "p11: a row with neither a rate nor 'unsupported (CKR_...)'"
fi
json "$tmp/p11.json" p11

echo "=== store --counts 10,20"
# shellcheck disable=SC2086
"$bench" store $mods --counts 10,20 --seconds 0.01 --quiet \
	--json "$tmp/store.json" --markdown "$tmp/store.md" \
	>"$tmp/store.txt" || fail "store exited $?"
cat "$tmp/store.txt"
rows "$tmp/store.txt" $((2 * nmods)) \
	'^[^ ]+ +(10|20)  [0-9.]+ [nmu]?s \[[0-9.]+x\] .* [0-9.]+ MiB$'
rows "$tmp/store.txt" "$nmods" 'not evaluated \(needs counts 10 and 10000'
json "$tmp/store.json" store

echo "=== callgrind"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: callgrind: valgrind not installed"
elif ldd "$bench" 2>/dev/null | grep -q libasan; then
	echo "SKIP: callgrind: the benchmark is built with ASan"
else
	"$bench" callgrind --case 'SHA-256 64 B' --iters 2 --quiet \
		--json "$tmp/cg.json" --save "$tmp/cg.tsv" >"$tmp/cg.txt" ||
		fail "callgrind exited $?"
	cat "$tmp/cg.txt"
	rows "$tmp/cg.txt" 1 '^SHA-256 64 B +[^ ]+ +[0-9]+ +[0-9]+ +[0-9]+'
	json "$tmp/cg.json" callgrind
	# A second run reports the change against the first.
	"$bench" callgrind --case 'SHA-256 64 B' --iters 2 --quiet \
		--previous "$tmp/cg.tsv" >"$tmp/cg2.txt" ||
		fail "callgrind (second run) exited $?"
	rows "$tmp/cg2.txt" 1 '[0-9]+ -> [0-9]+ \([-+][0-9.]+%\)$'
fi

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all modes ran and their output parsed"
