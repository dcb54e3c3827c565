# Shared helpers for the end-to-end scripts (sourced, not run).
set -eu

: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
MODULE=${VG_MODULE:-$top_builddir/.libs/libvgtoken.so}

# A module built with ASan can only be loaded by a program that has the
# ASan runtime first: preload it (and UBSan's) into the clients. Their own
# leaks are not ours to report.
asan_rt=$(ldd "$MODULE" 2>/dev/null | awk '/libasan|libubsan/ { printf "%s ", $3 }')
if [ -n "$asan_rt" ]; then
	export LD_PRELOAD="$asan_rt"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	# The runtime then starts at the client's first malloc. In programs
	# linked with p11-kit that is one in newlocale(), called by
	# libp11-kit's constructor with glibc's locale lock held; the
	# runtime's start-up (dlerror, hence gettext) takes that lock too and
	# corrupts it, and the program hangs in exit when p11-kit frees its
	# locale. Preloading libp11-kit after the runtime starts the runtime
	# first.
	p11kit_so=$(ldconfig -p 2>/dev/null |
		awk '/libp11-kit\.so\.0 .*x86-64/ { print $NF; exit }')
	if [ -n "$p11kit_so" ]; then
		LD_PRELOAD="$LD_PRELOAD $p11kit_so"
	fi
fi

# plain COMMAND...: runs a program that never loads the module without
# the sanitizer runtime preloaded. Some abort under it for faults of their
# own: coreutils' dd asks aligned_alloc for a size that is not a multiple
# of the alignment, groff's troff frees with the wrong operator.
plain() {
	env -u LD_PRELOAD "$@"
}

# flip_byte FILE OFFSET: flips the low bit of the byte at OFFSET in place,
# so that the byte changes whatever it was.
flip_byte() {
	fb=$(plain dd if="$1" bs=1 skip="$2" count=1 2>/dev/null | od -An -tu1 |
		tr -d ' ')
	printf "$(printf '\\%03o' $((fb ^ 1)))" |
		plain dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

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

# client NAME PACKAGE: says which client program a test drives, and the
# version of the Debian package it comes from.
client() {
	v=$(dpkg-query -W -f '${Version}' "$2" 2>/dev/null) || v=""
	echo "client: $1 ($2 ${v:-version unknown})"
}

# nss_db DIR: a new NSS database in DIR (no password) with the module
# added to it, as Firefox's "Load" device dialog does it; its name for
# certutil -d is sql:DIR.
nss_db() {
	mkdir -p "$1"
	certutil -N -d "sql:$1" --empty-password &&
		modutil -add vgtoken -libfile "$MODULE" -dbdir "sql:$1" -force \
			>"$1.modutil" 2>&1 || { cat "$1.modutil"; return 1; }
}
