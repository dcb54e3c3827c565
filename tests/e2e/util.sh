#!/bin/sh
# vgtoken-util: help, version, CPU report and configuration checks.
. "$top_srcdir/tests/e2e/lib.sh"
UTIL="$top_builddir/vgtoken-util"

check "--help" sh -c "'$UTIL' --help | grep -q -- --check-config"
check "--version" sh -c "'$UTIL' --version | grep -Eq '^vgtoken-util [0-9]+\.[0-9]+'"
check "unknown option fails" sh -c "! '$UTIL' --frobnicate 2>/dev/null"

"$UTIL" --cpu >"$WORK/cpu"
check "--cpu lists the kernels" grep -q "sha256" "$WORK/cpu"
VG_CPU_FEATURES=none "$UTIL" --cpu >"$WORK/cpu-none"
check "--cpu under VG_CPU_FEATURES=none uses portable kernels" \
	sh -c "! grep -E '^  ' '$WORK/cpu-none' | grep -Evq ' c\$'"
check "--cpu shows the mask" grep -q "VG_CPU_FEATURES: *none" "$WORK/cpu-none"
VG_CPU_FEATURES=avx2,bogus "$UTIL" --cpu >"$WORK/cpu-bogus"
check "--cpu reports unknown names" grep -q "1 unknown" "$WORK/cpu-bogus"

cat >"$WORK/good.conf" <<CONF
# a good file
pin_min_length = 6
data_dir = /srv/vgtoken
CONF
check "--check-config accepts a good file" "$UTIL" --check-config "$WORK/good.conf"
"$UTIL" --show-config "$WORK/good.conf" >"$WORK/shown"
check "--show-config shows values from the file" grep -qx "pin_min_length = 6" "$WORK/shown"
check "--show-config shows defaults" grep -qx "user_pin_retries = 10" "$WORK/shown"

printf 'pin_min_length = 6\ncolour = blue\npin_max_length = lots\n' >"$WORK/bad.conf"
if "$UTIL" --check-config "$WORK/bad.conf" 2>"$WORK/err"; then
	fail "--check-config accepted a bad file"
fi
check "unknown key reported with file and line" grep -q "bad.conf:2: unknown key 'colour'" "$WORK/err"
check "bad value reported with file and line" grep -q "bad.conf:3: bad value 'lots' for pin_max_length" "$WORK/err"
VGTOKEN_CONF="$WORK/bad.conf" "$UTIL" --check-config 2>/dev/null && fail "VGTOKEN_CONF not used"
check "VGTOKEN_CONF names the file" true
unset VGTOKEN_CONF
check "--show-config without a file gives the XDG data dir" sh -c \
	"VGTOKEN_CONF=/nonexistent/x.conf '$UTIL' --show-config 2>/dev/null | grep -qx 'data_dir = $XDG_DATA_HOME/vgtoken'"
echo "$ok checks passed"
