#!/bin/sh
# tests/pkcs11test/run.sh - google's pkcs11test against vgtoken.
#
# Usage: tests/pkcs11test/run.sh [-k] SOURCE-DIR [MODULE]
#
# SOURCE-DIR is a checkout of https://github.com/google/pkcs11test (nothing
# is downloaded; none of its code is in this project). It is copied twice
# into a scratch directory and built: once as published, and once adapted
# so that its 1024-bit RSA keys are 2048-bit and its DES/3DES keys AES-128
# where a test's purpose survives the change (see adapt() below). Both run
# against MODULE (default: the module of the build in _build/gcc) on a
# fresh token in a scratch data directory. The failures of each form are
# compared with tests/pkcs11test/expected-*.txt, which name every expected
# failure and why; a failure not listed, or a listed test that now passes,
# makes the script fail, so the lists stay true. -k keeps the scratch
# directory.
set -eu
keep=0
if [ "${1:-}" = -k ]; then keep=1; shift; fi
if [ $# -lt 1 ] || [ ! -f "$1/pkcs11test.cc" ]; then
	echo "usage: $0 [-k] PKCS11TEST-SOURCE-DIR [MODULE]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
src=$(cd "$1" && pwd)
module=${2:-$top/_build/gcc/.libs/libvgtoken.so}
util=$(dirname "$(dirname "$module")")/vgtoken-util
[ -x "$util" ] || util=$top/_build/gcc/vgtoken-util
[ -f "$module" ] || { echo "no module at $module (build first)" >&2; exit 2; }
module=$(cd "$(dirname "$module")" && pwd)/$(basename "$module")

work=$(mktemp -d "${TMPDIR:-/tmp}/pkcs11test.XXXXXX")
[ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT

# The adapted form. Each substitution keeps the test's purpose: key sizes
# and algorithms change, the calls and the checks do not.
adapt() { # DIR
	(cd "$1" && perl -0pi -e '
		# RSA keys of 2048 bits instead of 1024.
		s/CK_ULONG modulus_bits = 1024;/CK_ULONG modulus_bits = 2048;/g;
		s/(\{CKM_[A-Z0-9_]*RSA_PKCS, )1024\}/${1}2048}/g;
		# Secret keys: AES-128 where DES or 3DES keys were made.
		s/CK_MECHANISM_TYPE keygen_mechanism = CKM_DES3_KEY_GEN,\s*int keylen = -1/CK_MECHANISM_TYPE keygen_mechanism = CKM_AES_KEY_GEN, int keylen = 16/;
		s/CKM_DES_KEY_GEN, -1\)/CKM_AES_KEY_GEN, 32)/g;
		s/SecretKey key\(session_, attrs, CKM_DES_KEY_GEN\)/SecretKey key(session_, attrs, CKM_AES_KEY_GEN, 16)/g;
		s/CK_MECHANISM mechanism = \{CKM_DES_KEY_GEN, NULL_PTR, 0\}/CK_MECHANISM mechanism = {CKM_AES_KEY_GEN, NULL_PTR, 0}/g;
		s/CK_KEY_TYPE key_type = CKK_DES3?;/CK_KEY_TYPE key_type = CKK_AES;/g;
		# The wrapped key is AES too; the wrapping mechanism is chosen by -w.
		s/const char\* g_wrap_mechanism = "3DES-ECB";/const char* g_wrap_mechanism = "AES-ECB";/;
		# The DES and 3DES cipher cases test those ciphers only: dropped.
		s/::testing::Values\("DES-ECB",\s*"DES-CBC",\s*"3DES-ECB",\s*"3DES-CBC",\s*/::testing::Values(/g;
		' pkcs11test.h globals.cc key.cc keypair.cc digest.cc object.cc \
		  cipher.cc dual.cc tookan.cc session.cc)
	# FindObjectSubset tells two keys of one type from a third of another:
	# two generic secrets and one AES key.
	(cd "$1" && perl -0pi -e '
		s/SecretKey des_key(\d)\(session_, attrs, CKM_AES_KEY_GEN, 32\)/SecretKey des_key$1(session_, attrs, CKM_GENERIC_SECRET_KEY_GEN, 32)/g;
		s/CK_KEY_TYPE des_type = CKK_DES;/CK_KEY_TYPE des_type = CKK_GENERIC_SECRET;/;
		' object.cc)
	# SecretKeyTestVectors runs every cipher's known answers: the DES and
	# 3DES ones go, the AES ones stay.
	(cd "$1" && perl -0pi -e '
		s/\{ "3?DES-ECB", \{.*?\}, \}\},\n\s*//gs;
		' cipher.cc)
	# CreateSecretKeyAttributes imports an empty DES key; an AES key
	# needs 16 bytes.
	(cd "$1" && perl -0pi -e '
		s/(TEST_F\(ReadOnlySessionTest, CreateSecretKeyAttributes\) \{\n\s*string key = hex_decode\(")(")/${1}000102030405060708090a0b0c0d0e0f${2}/;
		' cipher.cc)
}

build() { # NAME
	cp -R "$src" "$work/$1"
	[ "$1" = published ] || adapt "$work/$1"
	make -C "$work/$1" -j"$(nproc)" pkcs11test >"$work/$1.build.log" 2>&1 || {
		tail -30 "$work/$1.build.log"; exit 1; }
}

run() { # NAME: run one form on a fresh token, write NAME.failed
	data="$work/$1.data"
	mkdir -p "$data"
	XDG_DATA_HOME=$data VGTOKEN_CONF=$top/tests/test.conf \
		"$util" --init-token --label pkcs11test --so-pin so-pin-1 \
		--pin user-pin >/dev/null
	slot=$(XDG_DATA_HOME=$data VGTOKEN_CONF=$top/tests/test.conf \
		"$util" --show-slots | sed -n "s/^slot \([0-9]*\): token 'pkcs11test'.*/\1/p")
	set +e
	(cd "$work/$1" && XDG_DATA_HOME=$data VGTOKEN_CONF=$top/tests/test.conf \
		./pkcs11test -m "$(basename "$module")" -l "$(dirname "$module")" \
		-s "$slot" -u user-pin -o so-pin-1 ${2:-} >"$work/$1.log" 2>&1)
	set -e
	sed -n 's/^\[  FAILED  \] \([^ ,]*\).*([0-9]* ms)$/\1/p' "$work/$1.log" |
		sort -u >"$work/$1.failed"
	total=$(sed -n 's/^\[==========\] \([0-9]*\) tests from .* ran\..*/\1/p' "$work/$1.log")
	echo "$1: $total tests, $(wc -l <"$work/$1.failed") failed"
}

status=0
compare() { # NAME
	sed -n 's/^\([^ #][^ ]*\).*/\1/p' "$here/expected-$1.txt" | sort -u >"$work/$1.expected"
	unexpected=$(comm -23 "$work/$1.failed" "$work/$1.expected")
	fixed=$(comm -13 "$work/$1.failed" "$work/$1.expected")
	if [ -n "$unexpected" ]; then
		echo "$1: failures not in expected-$1.txt:"
		echo "$unexpected" | sed 's/^/  /'
		status=1
	fi
	if [ -n "$fixed" ]; then
		echo "$1: listed in expected-$1.txt but passing now:"
		echo "$fixed" | sed 's/^/  /'
		status=1
	fi
}

for form in published adapted; do
	build $form
	if [ $form = adapted ]; then run $form "-w AES-ECB"; else run $form; fi
	compare $form
done
[ "$keep" = 0 ] || echo "scratch directory: $work"
exit $status
