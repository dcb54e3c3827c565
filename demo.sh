#!/bin/sh
# Builds vgtoken into _build/demo and shows it working through OpenSC's
# pkcs11-tool, vgtoken-util and OpenSSL. The demo token lives in a data directory of its
# own (default: the build directory's data/, so _build/demo/data), never
# in the user's token store. Every command is printed as it can be pasted.
# Installs missing Debian packages first.
set -eu

usage() {
	cat <<'EOF'
Usage: ./demo.sh [--data-dir DIR] [--build-dir DIR] [--no-build]

Builds vgtoken in _build/demo (or --build-dir DIR) and runs a demo through
pkcs11-tool: a token "vgtoken demo" (SO PIN demo-so-pin, user PIN
demo-pin), an EC P-256 key pair made on it, a signature checked by
OpenSSL with the public key vgtoken-util exports, a digest and random
bytes. Each command is printed so that it
can be pasted.

  --data-dir DIR   keep the demo token in DIR (default: BUILD-DIR/data;
                   or set VGTOKEN_DEMO_DIR)
  --build-dir DIR  the build directory (default: _build/demo)
  --no-build       use the build in BUILD-DIR as it is: no packages, no make
EOF
}

top=$(cd "$(dirname "$0")" && pwd)
build="$top/_build/demo"
data=${VGTOKEN_DEMO_DIR:-}
do_build=1
while [ $# -gt 0 ]; do
	case $1 in
	--data-dir) data=${2:?--data-dir needs a directory}; shift 2 ;;
	--build-dir) build=${2:?--build-dir needs a directory}; shift 2 ;;
	--no-build) do_build=0; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done

if [ "$do_build" -eq 1 ]; then
	sh "$top/tests/deps.sh"
	[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null)
	mkdir -p "$build"
	[ -f "$build/Makefile" ] || (cd "$build" && "$top/configure" --quiet >/dev/null)
	echo "building in $build ..."
	make -C "$build" -j"$(nproc)" >/dev/null
fi
build=$(cd "$build" && pwd)
module="$build/.libs/libvgtoken.so"
[ -f "$module" ] || { echo "demo.sh: no module at $module (build first)" >&2; exit 1; }
data=${data:-$build/data}
mkdir -p "$data"
data=$(cd "$data" && pwd)
conf="$data/vgtoken.conf"
printf '# The demo token'"'"'s configuration (written by demo.sh).\ndata_dir = %s\n' \
	"$data" >"$conf"

# q WORD: WORD as the shell reads it back (single-quoted when needed).
q() {
	case $1 in
	'' | *[!A-Za-z0-9_./:=,+@%-]*)
		printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
	*) printf '%s' "$1" ;;
	esac
}
# step COMMAND-LINE: prints it after "$ " and runs it.
step() {
	printf '$ %s\n' "$1"
	eval "$1"
	echo
}

M=$(q "$module")
L=$(q "vgtoken demo")
P11="pkcs11-tool --module $M"
UTIL=$(q "$build/vgtoken-util")
USER_LOGIN="--token-label $L --login --pin demo-pin"
f() { q "$data/$1"; }

echo "The demo token lives in $data, outside your own token store:"
echo "the commands below reach it through VGTOKEN_CONF."
echo
step "export VGTOKEN_CONF=$(q "$conf")"
step "printf 'hello from vgtoken\\n' > $(f msg)"
step "$P11 --show-info"
if ! pkcs11-tool --module "$module" -L 2>/dev/null | grep -q "token label *: vgtoken demo"; then
	# A new token goes on the free slot: the last one listed.
	slot=$(pkcs11-tool --module "$module" -L |
		sed -n 's/^Slot [0-9]* (\(0x[0-9a-f]*\)).*/\1/p' | tail -1)
	step "$P11 --slot $slot --init-token --label $L --so-pin demo-so-pin"
	step "$P11 --token-label $L --init-pin --login --login-type so --so-pin demo-so-pin --new-pin demo-pin"
fi
step "$P11 --list-slots"
step "$P11 --token-label $L --list-mechanisms"
step "$P11 $USER_LOGIN --keypairgen --key-type EC:prime256v1 --label $(q "demo key") --id d0"
step "$P11 $USER_LOGIN --sign -m ECDSA-SHA256 --id d0 -i $(f msg) -o $(f msg.sig) --signature-format openssl"
step "$UTIL --export-pubkey --token $L --id d0 -o $(f pub.pem)"
step "openssl dgst -sha256 -verify $(f pub.pem) -signature $(f msg.sig) $(f msg)"
step "$P11 $USER_LOGIN --delete-object --type privkey --id d0"
step "$P11 $USER_LOGIN --delete-object --type pubkey --id d0"
step "$P11 --hash -m SHA256 -i $(f msg) -o $(f msg.sha256)"
echo "digest:    $(od -An -tx1 -v "$data/msg.sha256" | tr -d ' \n')"
echo "sha256sum: $(sha256sum <"$data/msg" | cut -d' ' -f1)"
echo
step "$P11 --generate-random 16 -o $(f random.bin)"
echo "random: $(od -An -tx1 -v "$data/random.bin" | tr -d ' \n')"
echo

libdir=$(make -s --no-print-directory -C "$build" print-install-dirs 2>/dev/null |
	sed -n "s/^pkcs11libdir='\([^']*\)'.*/\1/p")
cat <<EOF
== Where things are
module:    $module
database:  $data/vgtoken.db (with its -wal and -shm files)
config:    $conf

== Install (the module to ${libdir:-\$(libdir)/pkcs11}/libvgtoken.so, registered with p11-kit, vgtoken-util, man pages)
  sudo make -C $(q "$build") install

== Or register this build with p11-kit for your user only
  mkdir -p ~/.config/pkcs11/modules
  echo $(q "module: $module") > ~/.config/pkcs11/modules/vgtoken.module

== Delete the demo token (all of it lives in that directory)
  rm -r $(q "$data")

If you pasted the export above: unset VGTOKEN_CONF to go back to your
own token store. Next: README.md, "A short tour", makes a token of your own.
EOF
