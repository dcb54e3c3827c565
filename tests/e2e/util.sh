#!/bin/sh
# vgtoken-util: help, version, CPU report and configuration checks.
. "$top_srcdir/tests/e2e/lib.sh"
UTIL="$top_builddir/vgtoken-util"

check "--help" sh -c "'$UTIL' --help | grep -q -- --check-config"
check "--version" sh -c "'$UTIL' --version | grep -Eq '^vgtoken-util [0-9]+\.[0-9]+'"
check "-v is --version" sh -c "test \"\$('$UTIL' -v)\" = \"\$('$UTIL' --version)\""
"$UTIL" --help >"$WORK/help"
for part in Environment: Files: "Exit status:" VGTOKEN_CONF VG_LOG VG_CPU_FEATURES \
	XDG_DATA_HOME vgtoken.db "2  usage error"; do
	check "--help tells of $part" grep -q "$part" "$WORK/help"
done
check "unknown option fails" sh -c "! '$UTIL' --frobnicate 2>/dev/null"

"$UTIL" --cpu >"$WORK/cpu"
check "--cpu lists the kernels" grep -q "sha256" "$WORK/cpu"
VG_CPU_FEATURES=none "$UTIL" --cpu >"$WORK/cpu-none"
check "--cpu under VG_CPU_FEATURES=none uses portable kernels" \
	sh -c "! grep -E '^  ' '$WORK/cpu-none' | grep -Evq ' c\$'"
check "--cpu shows the mask" grep -q "VG_CPU_FEATURES: *none" "$WORK/cpu-none"
VG_CPU_FEATURES=avx2,bogus "$UTIL" --cpu >"$WORK/cpu-bogus"
check "--cpu names the unknown word" grep -q "unknown name(s) ignored: 'bogus'\$" "$WORK/cpu-bogus"
check "... and lists the known ones" grep -q "known: none, all, avx," "$WORK/cpu-bogus"
if grep -q "^detected:.* avx2" "$WORK/cpu-bogus"; then
	check "... and still uses the known one" grep -q "^in use: *avx2\$" "$WORK/cpu-bogus"
fi
VG_CPU_FEATURES=avx2,bogus "$UTIL" --show-slots >/dev/null 2>"$WORK/err"
check "the library stays silent on stderr about the unknown word" test ! -s "$WORK/err"

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
check "... with the range allowed" grep -q "bad.conf:3: bad value 'lots' for pin_max_length (expected 1..255)" "$WORK/err"
check "an unknown key lists the known ones" grep -q "bad.conf:2: unknown key 'colour' (known keys: data_dir, log_level, .*, busy_timeout_ms)" "$WORK/err"
printf 'log_level = loud\nsqlite_synchronous = yes\ndata_dir = var/lib\n' >"$WORK/bad2.conf"
"$UTIL" --check-config "$WORK/bad2.conf" 2>"$WORK/err" && fail "--check-config accepted bad names"
check "a bad log_level lists the levels" grep -q "bad2.conf:1: bad value 'loud' for log_level (expected one of: none, error, warning, info, debug)" "$WORK/err"
check "a bad sqlite_synchronous lists the modes" grep -q "bad2.conf:2: .*(expected one of: off, normal, full, extra)" "$WORK/err"
check "a relative data_dir asks for an absolute path" grep -q "bad2.conf:3: .*(expected an absolute path" "$WORK/err"
VGTOKEN_CONF="$WORK/bad.conf" "$UTIL" --check-config 2>/dev/null && fail "VGTOKEN_CONF not used"
check "VGTOKEN_CONF names the file" true
unset VGTOKEN_CONF
check "--show-config without a file gives the XDG data dir" sh -c \
	"VGTOKEN_CONF=/nonexistent/x.conf '$UTIL' --show-config 2>/dev/null | grep -qx 'data_dir = $XDG_DATA_HOME/vgtoken'"
echo "$ok checks passed"
