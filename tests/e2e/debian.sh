#!/bin/sh
# The Debian packages (debian/): dpkg-buildpackage builds them from a copy
# of the source tree, lintian finds no error in them, and, unpacked into a
# throw-away root, they put the module, its p11-kit module file, the tool,
# the header and the man pages where they belong. Then, with that root's
# module directory and p11-kit's module directory mounted over the system
# ones in a private mount namespace (unshare), p11-kit list-modules shows
# vgtoken, the packaged vgtoken-util makes a token and a key, and
# pkcs11-tool through the p11-kit proxy sees the token and signs, with
# OpenSSL verifying the signature. Without mount namespaces the module is
# registered for the user instead (a module file naming the unpacked
# library).
#
# Building the packages takes a few minutes; VG_TEST_DEBIAN=no skips it.
. "$top_srcdir/tests/e2e/lib.sh"
# What is checked does not depend on how this tree was built: once, in
# the plain build with every kernel, is enough.
[ -z "$asan_rt" ] || skip "sanitizer build (the packages do not depend on it; the plain build checks them)"
[ -z "${VG_CPU_FEATURES:-}" ] || skip "VG_CPU_FEATURES is set (the packages do not depend on it)"
[ "${VG_TEST_DEBIAN:-yes}" != no ] || skip "VG_TEST_DEBIAN=no"
[ -f "$top_srcdir/debian/control" ] ||
	skip "no debian/ in the source tree (release tarballs do not carry it)"
need git "Debian package git"
need dpkg-buildpackage "Debian package dpkg-dev"
need dpkg-checkbuilddeps "Debian package dpkg-dev"
need dh "Debian package debhelper"
need p11-kit "Debian package p11-kit"
need pkcs11-tool "Debian package opensc"
need openssl "Debian package openssl"
git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "the source tree is not a git work tree"
if ! (cd "$top_srcdir" && dpkg-checkbuilddeps) >"$WORK/deps" 2>&1; then
	skip "build dependencies missing: $(cat "$WORK/deps")"
fi
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null) ||
	skip "dpkg-architecture gives no multiarch triplet"
PROXY=/usr/lib/$MA/p11-kit-proxy.so
[ -e "$PROXY" ] || skip "no p11-kit proxy at $PROXY (Debian package p11-kit-modules)"
client pkcs11-tool opensc
client p11-kit p11-kit

# The source: the files of the work tree that git tracks or would track
# (not the ignored build output), as they are now.
version=$(cd "$top_srcdir" && dpkg-parsechangelog -SVersion)
SRC="$WORK/src/vgtoken-$version"
mkdir -p "$SRC"
git -C "$top_srcdir" ls-files --cached --others --exclude-standard |
	while IFS= read -r f; do
		[ -e "$top_srcdir/$f" ] || continue
		printf '%s\n' "$f"
	done >"$WORK/files"
(cd "$top_srcdir" && tar -cf - -T "$WORK/files") | tar -xf - -C "$SRC"

# Build as the package's builder would, free of this suite's environment.
unset MAKEFLAGS MFLAGS MAKELEVEL
start=$(date +%s)
(cd "$SRC" && plain env -u VG_VECTORS_DIR -u VG_MODULE -u VGTOKEN_CONF \
	-u top_srcdir -u top_builddir -u XDG_DATA_HOME \
	DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc -b) \
	>"$WORK/build.log" 2>&1 ||
	fail "dpkg-buildpackage failed: $(tail -20 "$WORK/build.log")"
echo "# dpkg-buildpackage took $(($(date +%s) - start)) s"
changes=$(ls "$WORK/src/"vgtoken_"$version"_*.changes)
for p in libvgtoken vgtoken-util libvgtoken-dev; do
	check "package $p built" sh -c "ls '$WORK/src/${p}_${version}_'*.deb >/dev/null"
done

if command -v lintian >/dev/null 2>&1; then
	plain lintian "$changes" >"$WORK/lintian" 2>&1 || true
	sed 's/^/# lintian: /' "$WORK/lintian"
	check "lintian reports no error" sh -c "! grep -q '^E: ' '$WORK/lintian'"
fi

ROOT="$WORK/root"
for d in "$WORK/src/"*.deb; do
	dpkg-deb -x "$d" "$ROOT"
done
LIBDIR=/usr/lib/$MA/pkcs11
MODDIR=/usr/share/p11-kit/modules
check "libvgtoken: the module in $LIBDIR" test -f "$ROOT$LIBDIR/libvgtoken.so"
check "libvgtoken: no libtool archive" test ! -e "$ROOT$LIBDIR/libvgtoken.la"
check "libvgtoken: vgtoken.module in $MODDIR" test -f "$ROOT$MODDIR/vgtoken.module"
check "vgtoken.module names the packaged module" \
	grep -qx "module: $LIBDIR/libvgtoken.so" "$ROOT$MODDIR/vgtoken.module"
check "libvgtoken: /etc/vgtoken.conf, a conffile" \
	sh -c "test -f '$ROOT/etc/vgtoken.conf' && dpkg-deb -I '$(ls "$WORK/src/"libvgtoken_*.deb)' conffiles | grep -qx /etc/vgtoken.conf"
check "vgtoken-util: /usr/bin/vgtoken-util" test -x "$ROOT/usr/bin/vgtoken-util"
check "libvgtoken-dev: <vgtoken/vgtoken.h>" test -f "$ROOT/usr/include/vgtoken/vgtoken.h"
for page in man1/vgtoken-util.1 man5/vgtoken.conf.5 man7/vgtoken.7; do
	check "man page $page, with the installed paths filled in" \
		sh -c "gzip -dc '$ROOT/usr/share/man/$page.gz' | grep -q '/usr/lib/$MA/pkcs11/libvgtoken.so\\|/etc/vgtoken.conf' && ! gzip -dc '$ROOT/usr/share/man/$page.gz' | grep -q '@[a-z_]*@'"
done
check "copyright file in each package" sh -c \
	"for p in libvgtoken vgtoken-util libvgtoken-dev; do test -f '$ROOT'/usr/share/doc/\$p/copyright || exit 1; done"

# The packaged configuration, with a fast PIN key derivation for the test.
export VGTOKEN_CONF="$WORK/vgtoken.conf"
cp "$ROOT/etc/vgtoken.conf" "$VGTOKEN_CONF"
check "the packaged vgtoken.conf passes --check-config" \
	plain "$ROOT/usr/bin/vgtoken-util" --check-config "$VGTOKEN_CONF"
printf 'pbkdf2_iterations = 1000\n' >>"$VGTOKEN_CONF"

# inroot COMMAND...: runs the command with the packaged files in place.
if [ -d "$LIBDIR" ] && [ -d "$MODDIR" ] &&
	unshare -r -m sh -c "mount --bind '$ROOT$LIBDIR' '$LIBDIR'" 2>"$WORK/unshare.err"; then
	echo "# the packaged module and module file mounted over $LIBDIR and $MODDIR"
	inroot() {
		unshare -r -m sh -c 'mount --bind "$1$2" "$2" && mount --bind "$1$3" "$3" &&
			shift 3 && exec "$@"' sh "$ROOT" "$LIBDIR" "$MODDIR" "$@"
	}
else
	echo "# no private mount namespace ($(cat "$WORK/unshare.err")): registering for the user"
	export XDG_CONFIG_HOME="$WORK/config"
	mkdir -p "$XDG_CONFIG_HOME/pkcs11/modules"
	sed "s|^module: |module: $ROOT|" "$ROOT$MODDIR/vgtoken.module" \
		>"$XDG_CONFIG_HOME/pkcs11/modules/vgtoken.module"
	# p11-kit reads per-user module files only for other users than root.
	as_user=""
	if [ "$(id -u)" -eq 0 ]; then
		need setpriv "Debian package util-linux"
		as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
		chmod -R a+rwX "$WORK"
		chmod a+rx "$(dirname "$WORK")" 2>/dev/null || true
	fi
	inroot() {
		$as_user "$@"
	}
fi

SO_PIN=so-Secret-5520
USER_PIN=user-Secret-7731
UTIL="$ROOT/usr/bin/vgtoken-util"
pt() {
	inroot pkcs11-tool --module "$PROXY" "$@"
}

inroot "$UTIL" --init-token --label debtest --so-pin "$SO_PIN" --pin "$USER_PIN" \
	>"$WORK/init.out" 2>&1 || fail "vgtoken-util --init-token: $(cat "$WORK/init.out")"
inroot p11-kit list-modules >"$WORK/list" 2>&1 || true
check "p11-kit list-modules shows vgtoken" grep -q "^vgtoken:" "$WORK/list"
check "p11-kit list-modules shows the token made by vgtoken-util" \
	grep -q "token: debtest" "$WORK/list"
pt -L >"$WORK/slots" 2>&1 || fail "pkcs11-tool -L via the proxy: $(cat "$WORK/slots")"
check "pkcs11-tool through the p11-kit proxy lists the token" \
	grep -q "token label *: debtest" "$WORK/slots"

inroot "$UTIL" --keygen ec --token debtest --pin "$USER_PIN" --id 01 --label util-ec \
	>"$WORK/keygen.out" 2>&1 || fail "vgtoken-util --keygen: $(cat "$WORK/keygen.out")"
pt --token-label debtest --login --pin "$USER_PIN" --keypairgen --key-type EC:prime256v1 \
	--id 02 --label proxy-ec >"$WORK/gen.out" 2>&1 ||
	fail "pkcs11-tool --keypairgen via the proxy: $(cat "$WORK/gen.out")"
pt --token-label debtest --login --pin "$USER_PIN" --list-objects >"$WORK/objects" 2>&1 || true
check "both keys are on the token" sh -c \
	"grep -q 'label: *util-ec' '$WORK/objects' && grep -q 'label: *proxy-ec' '$WORK/objects'"

printf 'signed through the p11-kit proxy\n' >"$WORK/message"
for id in 01 02; do
	pt --token-label debtest --login --pin "$USER_PIN" --sign --mechanism ECDSA-SHA256 \
		--id "$id" --signature-format openssl -i "$WORK/message" -o "$WORK/sig$id" \
		>"$WORK/sign.out" 2>&1 || fail "pkcs11-tool --sign via the proxy: $(cat "$WORK/sign.out")"
	inroot "$UTIL" --export-pubkey --token debtest --id "$id" -o "$WORK/pub$id.pem" \
		>"$WORK/export.out" 2>&1 || fail "vgtoken-util --export-pubkey: $(cat "$WORK/export.out")"
	check "key $id: the proxy's ECDSA signature verifies with OpenSSL" \
		plain openssl dgst -sha256 -verify "$WORK/pub$id.pem" -signature "$WORK/sig$id" "$WORK/message"
done
printf 'tampered\n' >>"$WORK/message"
check "a signature over other data does not verify" sh -c \
	"! openssl dgst -sha256 -verify '$WORK/pub01.pem' -signature '$WORK/sig01' '$WORK/message' >/dev/null 2>&1"
echo "$ok checks passed"
