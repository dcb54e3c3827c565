#!/bin/sh
# The AVX-512 IFMA kernels of crypto/x86_64/vg_rsa_amm52_ifma.c, compiled
# freestanding into a bare-metal multiboot image (tests/bochs/bochs.am),
# run for real under Bochs with the CPU model tigerlake: the image checks
# CPUID for AVX-512 F/VL/IFMA, enables XCR0's AVX-512 state and compares
# every output word of the normalising pass, the AMM pair (also squaring
# in place) and the dual exponentiation with the portable twins' answers,
# for the halves of RSA-2048, 3072 and 4096 (20, 30 and 40 limbs).
# A second boot with corei7_skylake_x (AVX-512 without IFMA) must report
# the missing feature, so the detection itself is tested. Runs in the
# native suite; the portable (VG_CPU_FEATURES=none) and ASan suites would
# run the same image again and skip it.
. "$top_srcdir/tests/e2e/lib.sh"

[ "${VG_CPU_FEATURES:-}" = none ] && skip "VG_CPU_FEATURES=none does" \
	"not change the Bochs image; the native suite runs it"
[ -n "$asan_rt" ] && skip "ASan build: the Bochs image is freestanding" \
	"and the same as the native build's, which runs it"
IMAGE=$top_builddir/tests/bochs/ifma.elf
[ -f "$IMAGE" ] || skip "no Bochs image (not an x86-64 build)"
need bochs "Debian package bochs"
need grub-mkrescue "Debian package grub-common"
need xorriso "Debian package xorriso"
need mformat "Debian package mtools"
[ -d /usr/lib/grub/i386-pc ] || skip "GRUB's BIOS modules are not" \
	"installed (Debian package grub-pc-bin)"
BXSHARE=${BXSHARE:-/usr/share/bochs}
BIOS=$BXSHARE/BIOS-bochs-latest
[ -f "$BIOS" ] || skip "no Bochs BIOS $BIOS (Debian package bochsbios)"
VGABIOS=/usr/share/vgabios/vgabios.bin
[ -f "$VGABIOS" ] || VGABIOS=$BXSHARE/VGABIOS-lgpl-latest
[ -f "$VGABIOS" ] || skip "no VGA BIOS (Debian package vgabios)"

# Headless Bochs shows its screen by RFB, a server on every address: run
# it in a network namespace of its own, where nothing can reach it.
if unshare -n true 2>/dev/null; then
	NETNS="unshare -n"
elif unshare -rn true 2>/dev/null; then
	NETNS="unshare -rn"
else
	skip "no network namespace (unshare -n) to hide Bochs's RFB server"
fi

mkdir -p "$WORK/iso/boot/grub"
cp "$IMAGE" "$WORK/iso/boot/ifma.elf"
cat >"$WORK/iso/boot/grub/grub.cfg" <<'CFG'
set timeout=0
set default=0
menuentry "vgtoken ifma" {
	multiboot /boot/ifma.elf
	boot
}
CFG
grub-mkrescue -o "$WORK/ifma.iso" "$WORK/iso" >"$WORK/grub.log" 2>&1 || {
	cat "$WORK/grub.log"
	fail "grub-mkrescue"
}
# The debugger (compiled into Debian's bochs) runs "c" then "quit"; the
# image itself ends the run through Bochs's shutdown port.
printf 'c\nquit\n' >"$WORK/cmds"

# boot MODEL: boots the ISO with the CPU model, serial output in
# $WORK/MODEL.serial. Bochs always exits 1; only a timeout is an error.
boot() {
	cat >"$WORK/$1.rc" <<RC
megs: 64
cpu: model=$1, reset_on_triple_fault=0, ips=50000000
romimage: file=$BIOS
vgaromimage: file=$VGABIOS
ata0-master: type=cdrom, path=$WORK/ifma.iso, status=inserted
boot: cdrom
display_library: rfb, options="timeout=0"
speaker: enabled=0
sound: driver=dummy
com1: enabled=1, mode=file, dev=$WORK/$1.serial
log: $WORK/$1.log
panic: action=fatal
error: action=report
info: action=ignore
debug: action=ignore
clock: sync=none, time0=1
RC
	start=$(date +%s)
	rc=0
	(cd "$WORK" && $NETNS timeout 120 bochs -q -f "$WORK/$1.rc" \
		-rc "$WORK/cmds" </dev/null >"$WORK/$1.out" 2>&1) || rc=$?
	echo "# bochs $1: $(($(date +%s) - start)) s"
	sed -n 's/\r$//; /^ifma-bochs:/p' "$WORK/$1.serial" 2>/dev/null \
		>"$WORK/$1.txt" || true
	sed 's/^/# /' "$WORK/$1.txt"
	if [ "$rc" -eq 124 ]; then
		tail -20 "$WORK/$1.out"
		fail "bochs $1 did not finish in 120 s"
	fi
	if ! grep -q '^ifma-bochs: end' "$WORK/$1.txt"; then
		tail -20 "$WORK/$1.out"
		tail -20 "$WORK/$1.log" 2>/dev/null
		fail "bochs $1: the image did not reach its last line"
	fi
}

# absent PATTERN FILE: no line of FILE matches.
absent() {
	! grep -q "$1" "$2"
}

boot tigerlake
t=$WORK/tigerlake.txt
check "tigerlake: IFMA found and XCR0 = 0xe7" \
	grep -q '^ifma-bochs: AVX-512 IFMA present, xcr0=0x00000000000000e7$' "$t"
check "tigerlake: no exception, no mismatch" \
	absent FAIL "$t"
for nl in 20 30 40; do
	for g in norm52 amm52x2 modexp52x2 amm52x2_256 modexp52x2_256; do
		check "tigerlake: every $g case of $nl limbs matches" \
			grep -Eq "^ifma-bochs: $g-$nl ([1-9][0-9]*)/\\1\$" "$t"
	done
done
check "tigerlake: summary N/N passed" \
	grep -Eq '^ifma-bochs: ([1-9][0-9]*)/\1 passed$' "$t"

boot corei7_skylake_x
check "skylake_x (no IFMA): the image reports the missing feature" \
	grep -q '^ifma-bochs: FAIL no AVX-512 IFMA' "$WORK/corei7_skylake_x.txt"
check "skylake_x: no kernel ran" \
	absent passed "$WORK/corei7_skylake_x.txt"
echo "PASS: $(sed -n 's/^ifma-bochs: \(.*passed\)$/\1/p' "$t") under Bochs"
