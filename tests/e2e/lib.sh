# Shared helpers for the end-to-end scripts (sourced, not run).
set -eu

: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
MODULE=${VG_MODULE:-$top_builddir/.libs/libvgtoken.so}

skip() {
	echo "SKIP: $*"
	exit 77
}

fail() {
	echo "FAIL: $*"
	exit 1
}

need() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed ($2)"
}

# A private directory for the scenario, removed on exit.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vgtoken-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export XDG_DATA_HOME="$WORK/data"
export HOME="$WORK/home"
mkdir -p "$HOME"
unset VGTOKEN_CONF

ok=0
check() {
	# check DESCRIPTION COMMAND...: runs the command, fails the test if it
	# fails.
	desc=$1
	shift
	if "$@"; then
		ok=$((ok + 1))
		echo "ok $ok - $desc"
	else
		fail "$desc"
	fi
}
