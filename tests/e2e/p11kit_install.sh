#!/bin/sh
# make install DESTDIR=... lays out the files where they belong, and the
# installed p11-kit module file makes `p11-kit list-modules` show vgtoken
# and its token with no other step.
. "$top_srcdir/tests/e2e/lib.sh"
need p11-kit "Debian package p11-kit"
need pkg-config "Debian package pkg-config"

DEST="$WORK/root"
# Run make afresh, not as a child of the make that runs the tests.
unset MAKEFLAGS MFLAGS MAKELEVEL
make -s -C "$top_builddir" install DESTDIR="$DEST" >"$WORK/install.log" 2>&1 \
	|| fail "make install failed: $(tail -5 "$WORK/install.log")"

eval "$(make -s --no-print-directory -C "$top_builddir" print-install-dirs 2>/dev/null | grep "^[a-z0-9]*dir=")"
check "libvgtoken.so in \$(libdir)/pkcs11" test -f "$DEST$pkcs11libdir/libvgtoken.so"
check "no libtool archive or static library installed" \
	sh -c "test ! -e '$DEST$pkcs11libdir/libvgtoken.a' && test ! -e '$DEST$pkcs11libdir/libvgtoken.la'"
check "vgtoken/vgtoken.h in \$(includedir)" test -f "$DEST$includedir/vgtoken/vgtoken.h"
check "vgtoken.conf in \$(sysconfdir)" test -f "$DEST$sysconfdir/vgtoken.conf"
check "vgtoken-util in \$(bindir)" test -x "$DEST$bindir/vgtoken-util"
check "vgtoken-util(1) in \$(mandir)/man1" test -f "$DEST$mandir/man1/vgtoken-util.1"
check "vgtoken.conf(5) in \$(mandir)/man5" test -f "$DEST$mandir/man5/vgtoken.conf.5"
check "vgtoken(7) in \$(mandir)/man7" test -f "$DEST$mandir/man7/vgtoken.7"
configs=$(pkg-config --variable p11_module_configs p11-kit-1)
check "vgtoken.module in p11-kit's module directory ($configs)" \
	test -f "$DEST$configs/vgtoken.module"
check "vgtoken.module names the installed library" \
	grep -qx "module: $pkcs11libdir/libvgtoken.so" "$DEST$configs/vgtoken.module"
check "the installed header compiles on its own" \
	sh -c "echo '#include <vgtoken/vgtoken.h>' | ${CC:-cc} -fsyntax-only -Wall -Werror -I'$DEST$includedir' -xc -"

# p11-kit reads per-user module files from $XDG_CONFIG_HOME/pkcs11/modules.
# Use the installed file as it is, with the DESTDIR prefix added to its
# module path, since the files are staged and not in their final place.
export XDG_CONFIG_HOME="$WORK/config"
mkdir -p "$XDG_CONFIG_HOME/pkcs11/modules"
sed "s|^module: |module: $DEST|" "$DEST$configs/vgtoken.module" \
	>"$XDG_CONFIG_HOME/pkcs11/modules/vgtoken.module"

list() {
	p11-kit list-modules >"$WORK/list" 2>"$WORK/list.err" || true
	grep -q "^vgtoken:" "$WORK/list"
}
if ! list && [ "$(id -u)" -eq 0 ]; then
	# As root p11-kit may refuse per-user files: list as another user.
	need setpriv "Debian package util-linux"
	chmod -R a+rX "$WORK"
	chmod a+rx "$(dirname "$WORK")" 2>/dev/null || true
	list() {
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			env HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" \
			XDG_DATA_HOME="$WORK/nobody-data" \
			p11-kit list-modules >"$WORK/list" 2>"$WORK/list.err" || true
		grep -q "^vgtoken:" "$WORK/list"
	}
fi
check "p11-kit list-modules shows vgtoken" list
check "the module's library description is shown" grep -q "vgtoken PKCS#11 soft token" "$WORK/list"
check "its token is shown" grep -q "token:" "$WORK/list"
check "the token's manufacturer is shown" grep -q "manufacturer: vgtoken" "$WORK/list"
echo "$ok checks passed"
