# Shared by the vgtoken-util backup tests (util_backup*.sh), sourced after
# lib.sh: the tool's path, a configuration with few PBKDF2 iterations,
# and helpers that run the tool, pkcs11-tool and the Python scripts that
# read backup bodies. The caller sets PIN.
UTIL="$top_builddir/vgtoken-util"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"

u() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
		"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null
}
# fails COMMAND...: the tool exits with status 1.
fails() {
	set +e
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
		"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null
	st=$?
	set -e
	test $st -eq 1
}
hex() {
	od -An -tx1 "$1" | tr -d ' \n'
}
p11() {
	t=$1
	shift
	pkcs11-tool --module "$MODULE" --token-label "$t" --login --pin $PIN "$@" \
		>"$WORK/p11.out" 2>&1
}
count() {
	u --list-objects --token "$1" --pin $PIN
	tail -n 1 "$WORK/u.out" | cut -d' ' -f1
}
# py_body SCRIPT ARG...: runs a Python script that imports backup_body.py
# (the body's reader and writer, next to this file), leaving no byte
# code in the source tree.
py_body() {
	PYTHONPATH="$top_srcdir/tests/e2e" PYTHONDONTWRITEBYTECODE=1 \
		/usr/bin/python3 "$@"
}
