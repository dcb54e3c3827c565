#!/bin/sh
# Builds vgtoken and shows it working through OpenSC's pkcs11-tool, on the
# embedded default configuration (no config file, data under
# $XDG_DATA_HOME/vgtoken). Installs missing Debian packages first.
set -eu
cd "$(dirname "$0")"
sh tests/deps.sh
[ -x configure ] || ./autogen.sh >/dev/null
mkdir -p _build/demo
cd _build/demo
[ -f Makefile ] || ../../configure --quiet >/dev/null
make -j"$(nproc)" >/dev/null
make demo
