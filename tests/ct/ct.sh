#!/bin/sh
# Constant-time checks: every case of ct_check under valgrind memcheck with
# its secrets marked undefined must run clean, with the kernels this CPU
# (as valgrind presents it) offers and with the portable ones; the two
# deliberately leaky cases must be caught.
set -eu
: "${top_builddir:?run through make check}"
CHECK="$top_builddir/tests/ct/ct_check"

if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed (Debian package valgrind)"
	exit 77
fi
if ! grep -q '^#define HAVE_VALGRIND_MEMCHECK_H 1' "$top_builddir/config.h"; then
	echo "SKIP: built without valgrind/memcheck.h: secrets cannot be marked"
	exit 77
fi
# ASan and valgrind do not mix.
if ldd "$CHECK" 2>/dev/null | grep -q libasan; then
	echo "SKIP: a sanitizer build cannot run under valgrind"
	exit 77
fi

vg() {
	valgrind -q --error-exitcode=42 --track-origins=yes "$@"
}

failed=0
passed=0
for c in $("$CHECK" --list); do
	case $c in
	leaky-*)
		set +e
		vg "$CHECK" "$c" >/dev/null 2>&1
		rc=$?
		set -e
		if [ $rc -eq 42 ]; then
			echo "ok - $c is caught"
			passed=$((passed + 1))
		else
			echo "FAIL: $c was not caught (exit $rc): the harness is blind"
			failed=$((failed + 1))
		fi
		;;
	*)
		for mask in native none; do
			if [ $mask = none ]; then
				export VG_CPU_FEATURES=none
			else
				unset VG_CPU_FEATURES
			fi
			if vg "$CHECK" "$c" >"$top_builddir/tests/ct/$c-$mask.log" 2>&1; then
				echo "ok - $c ($mask kernels)"
				passed=$((passed + 1))
			else
				echo "FAIL: $c ($mask kernels):"
				cat "$top_builddir/tests/ct/$c-$mask.log"
				failed=$((failed + 1))
			fi
		done
		;;
	esac
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
