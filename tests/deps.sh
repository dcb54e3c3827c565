#!/bin/sh
# Installs the Debian 12 packages vgtoken needs to build (and, with
# --tests, to run its tests). Sourced or run by demo.sh and run-tests.sh.
set -eu

BUILD_PKGS="autoconf automake libtool pkg-config gcc make binutils \
libsqlite3-dev libp11-kit-dev"
RUN_PKGS="opensc p11-kit openssl"
TEST_PKGS="libcmocka-dev libssl-dev openssl coreutils util-linux libjson-c-dev \
libsimde-dev valgrind"
# The IFMA kernel under Bochs (tests/bochs/).
TEST_PKGS="$TEST_PKGS bochs bochsbios vgabios grub-pc-bin grub-common xorriso \
mtools"
# Clients driven by the end-to-end tests (tests/e2e/).
TEST_PKGS="$TEST_PKGS p11-kit-modules libengine-pkcs11-openssl libnss3-tools \
iproute2 python3 firefox-esr gnutls-bin python3-pykcs11"
# The profile database nss_trust.sh looks into.
TEST_PKGS="$TEST_PKGS sqlite3"
# OpenSSH (tests/e2e/ssh.sh) and Java's SunPKCS11 (tests/e2e/java.sh).
TEST_PKGS="$TEST_PKGS openssh-client openssh-server openjdk-17-jdk-headless"
# The release tarball and the Debian packages (tests/e2e/dist.sh,
# tests/e2e/debian.sh; their build runs the tests of debian/rules).
TEST_PKGS="$TEST_PKGS git build-essential dpkg-dev debhelper lintian"
# libFuzzer (tests/fuzz/, the fuzz build of run-tests.sh).
TEST_PKGS="$TEST_PKGS clang-14 libclang-rt-14-dev"

BENCH_PKGS="softhsm2"
# A backup file read by a second implementation (tests/e2e/util_backup.sh).
TEST_PKGS="$TEST_PKGS python3-cryptography"

want="$BUILD_PKGS $RUN_PKGS"
[ "${1:-}" = "--tests" ] && want="$want $TEST_PKGS"
# make bench compares with SoftHSMv2: sh tests/deps.sh --bench
[ "${1:-}" = "--bench" ] && want="$want $TEST_PKGS $BENCH_PKGS"

missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
		|| missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
