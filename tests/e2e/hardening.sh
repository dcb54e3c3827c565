#!/bin/sh
# The built module carries the hardening configure asked for: glibc's
# checked functions (_FORTIFY_SOURCE), stack canaries
# (-fstack-protector-strong), full RELRO with immediate binding, and no
# executable stack. The sanitizer build goes without fortification
# (configure leaves it out there), so only the rest is checked in it.
. "$top_srcdir/tests/e2e/lib.sh"
need nm "binutils"
need readelf "binutils"

nm -D --undefined-only "$MODULE" | awk '{ print $2 }' | sed 's/@.*//' \
	| sort -u >"$WORK/undef"
if [ -n "$asan_rt" ]; then
	echo "# sanitizer build: _FORTIFY_SOURCE is off, not checked"
else
	grep -x '__[a-z_]*_chk' "$WORK/undef" | grep -vx __stack_chk_fail \
		>"$WORK/chk" || true
	check "fortified functions are used: $(tr '\n' ' ' <"$WORK/chk")" \
		test -s "$WORK/chk"
	check "memcpy goes through __memcpy_chk" grep -qx __memcpy_chk "$WORK/undef"
fi
check "stack canaries: __stack_chk_fail is referenced" \
	grep -qx __stack_chk_fail "$WORK/undef"
readelf -lW "$MODULE" >"$WORK/segments"
readelf -dW "$MODULE" >"$WORK/dynamic"
check "a GNU_RELRO segment" grep -q GNU_RELRO "$WORK/segments"
check "immediate binding (BIND_NOW)" sh -c \
	"grep -Eq '\\(BIND_NOW\\)|\\(FLAGS_1\\).*NOW' '$WORK/dynamic'"
check "no executable stack" sh -c \
	"grep GNU_STACK '$WORK/segments' | grep -qv RWE"
# vgtoken-util is linked with the same flags.
UTIL="$top_builddir/vgtoken-util"
if [ -x "$top_builddir/.libs/vgtoken-util" ]; then
	UTIL="$top_builddir/.libs/vgtoken-util"
fi
check "vgtoken-util: full RELRO too" sh -c \
	"readelf -dW '$UTIL' | grep -Eq '\\(BIND_NOW\\)|\\(FLAGS_1\\).*NOW'"
echo "$ok checks passed"
