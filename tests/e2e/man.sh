#!/bin/sh
# The manual pages: vgtoken-util(1), vgtoken.conf(5) and vgtoken(7) format
# without a warning from groff (-ww) or man -l, every option that
# vgtoken-util --help lists is in vgtoken-util(1), every setting that
# --show-config prints is in vgtoken.conf(5), and the installed paths are
# filled in.
. "$top_srcdir/tests/e2e/lib.sh"
# Nothing here loads the module (vgtoken-util links the sanitizer runtime
# itself when built with it); groff and man run as they are installed.
unset LD_PRELOAD
need groff "Debian package groff-base"
UTIL="$top_builddir/vgtoken-util"
MAN="$top_builddir/man"
PAGES="vgtoken-util.1 vgtoken.conf.5 vgtoken.7"

# quiet DESCRIPTION COMMAND...: the command succeeds and writes nothing on
# stderr; what it wrote is shown when it did.
quiet() {
	desc=$1
	shift
	"$@" >"$WORK/out" 2>"$WORK/warn" || fail "$desc: failed: $(cat "$WORK/warn")"
	[ ! -s "$WORK/warn" ] || fail "$desc: $(cat "$WORK/warn")"
	ok=$((ok + 1))
	echo "ok $ok - $desc"
}

# Lines of a page (comments aside) with an option-like word whose '-' is
# not '\-': a plain '-' shows as a hyphen (U+2010) on a UTF-8 terminal,
# which a reader cannot paste into a shell.
plain_dashes() {
	grep -v '^[.]\\"' "$1" | grep -nE '(^|[^\\a-zA-Z0-9])-[a-zA-Z-]'
}

for p in $PAGES; do
	check "$p is built" test -s "$MAN/$p"
	quiet "$p formats without groff warnings (-ww)" groff -man -ww -z -Tutf8 "$MAN/$p"
	if command -v man >/dev/null 2>&1; then
		quiet "man --warnings -l $p: no warnings" env MANWIDTH=80 MANPAGER=cat \
			man --warnings -l "$MAN/$p"
		check "man -l $p: the page has a NAME" grep -q "^NAME" "$WORK/out"
	fi
	check "$p: no @...@ left unfilled" sh -c "! grep -n '@[a-z_0-9A-Z]*@' '$MAN/$p'"
	if plain_dashes "$MAN/$p" >"$WORK/dashes"; then
		fail "$p: '-' where '\\-' belongs: $(cat "$WORK/dashes")"
	fi
	check "$p: every '-' of an option is written '\\-'" true
	# Plain text, wide and unhyphenated, to look words up in.
	groff -man -Tascii -P-cbou -rLL=250n "$MAN/$p" 2>/dev/null >"$WORK/$p.plain"
done

# has PAGE WORD: the word is in the page, not only as part of a longer
# option or name.
has() {
	grep -qE -- "(^|[^a-z_-])$2([^a-z_-]|\$)" "$WORK/$1.plain"
}

"$UTIL" --help >"$WORK/help"
grep -oE -- '(^|[][ (|,])--?[a-z][a-z0-9-]*' "$WORK/help" |
	sed 's/^[][ (|,]//' | sort -u >"$WORK/options"
check "--help lists options" test "$(wc -l <"$WORK/options")" -ge 30
while read -r opt; do
	check "vgtoken-util(1) has $opt" has vgtoken-util.1 "$opt"
done <"$WORK/options"

"$UTIL" --show-config /dev/null 2>/dev/null | sed -n 's/^\([a-z_0-9]*\) = .*/\1/p' >"$WORK/settings"
check "--show-config lists the settings" test "$(wc -l <"$WORK/settings")" -ge 9
while read -r key; do
	check "vgtoken.conf(5) has $key" has vgtoken.conf.5 "$key"
	check "... with its default or range" sh -c \
		"grep -A8 -E '^ *$key = ' '$WORK/vgtoken.conf.5.plain' | grep -qE 'Default|default\\)'"
done <"$WORK/settings"

for v in VGTOKEN_CONF VG_LOG VG_CPU_FEATURES XDG_DATA_HOME; do
	check "vgtoken-util(1) tells of $v" has vgtoken-util.1 "$v"
	check "vgtoken(7) tells of $v" has vgtoken.7 "$v"
done
for s in "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
	check "vgtoken-util(1) has $s" grep -q "^$s" "$WORK/vgtoken-util.1.plain"
done
# Run make afresh, not as a child of the make that runs the tests.
unset MAKEFLAGS MFLAGS MAKELEVEL
eval "$(make -s --no-print-directory -C "$top_builddir" print-install-dirs 2>/dev/null | grep "^[a-z0-9]*dir=")"
if [ -n "${pkcs11libdir:-}" ]; then
	check "vgtoken(7) names the installed module" grep -qF "$pkcs11libdir/libvgtoken.so" "$WORK/vgtoken.7.plain"
	check "vgtoken.conf(5) names the installed file" grep -qF "$sysconfdir/vgtoken.conf" "$WORK/vgtoken.conf.5.plain"
fi
check "vgtoken(7) tells how to recover a PIN" has vgtoken.7 "--init-pin"
check "vgtoken(7) points to the threat model" grep -q "Threat model" "$WORK/vgtoken.7.plain"
check "vgtoken(7) tells how to register with p11-kit" grep -q "vgtoken.module" "$WORK/vgtoken.7.plain"
echo "$ok checks passed"
