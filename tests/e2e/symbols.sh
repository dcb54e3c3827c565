#!/bin/sh
# The library exports the PKCS#11 entry points and nothing else.
. "$top_srcdir/tests/e2e/lib.sh"
need nm "binutils"

nm -D --defined-only "$MODULE" | awk '{ print $3 }' | sed 's/@.*//' \
	| sort -u >"$WORK/syms"
grep -v '^C_' "$WORK/syms" >"$WORK/other" || true
check "only C_ symbols are exported" test ! -s "$WORK/other"
for f in C_GetFunctionList C_GetInterfaceList C_GetInterface C_Initialize \
	C_Finalize C_Sign C_VerifySignatureFinal C_AsyncJoin; do
	check "$f is exported" grep -qx "$f" "$WORK/syms"
done
# 68 functions of 2.40, 24 added by 3.0, 12 added by 3.2.
n=$(wc -l <"$WORK/syms")
check "104 entry points exported (found $n)" test "$n" -eq 104
check "no executable stack" sh -c \
	"readelf -lW '$MODULE' | grep GNU_STACK | grep -qv 'RWE'"
