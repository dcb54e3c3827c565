#!/bin/sh
# ./demo.sh as a newcomer meets it: its token stays in the demo's data
# directory, out of the user's token store; every "$ " line it prints
# runs again when pasted into a shell elsewhere (absolute paths, quoted
# labels) and replays the demo on a fresh database; and the install,
# per-user registration and delete commands it prints are right.
. "$top_srcdir/tests/e2e/lib.sh"
need pkcs11-tool "Debian package opensc"
need openssl "Debian package openssl"
need bash "Debian package bash"
client pkcs11-tool opensc

DEMO="$WORK/demo data"     # a space, so that quoting is needed
# Run make afresh, not as a child of the make that runs the tests.
unset MAKEFLAGS MFLAGS MAKELEVEL
check "demo.sh runs" sh -c "sh '$top_srcdir/demo.sh' --no-build \
	--build-dir '$top_builddir' --data-dir '$DEMO' >'$WORK/out' 2>&1"
sed 's/^/# /' "$WORK/out" | head -20
check "the signature verifies" grep -q '^Verified OK' "$WORK/out"
check "the digest matches sha256sum" sh -c "
	d=\$(sed -n 's/^digest: *//p' '$WORK/out')
	s=\$(sed -n 's/^sha256sum: *//p' '$WORK/out')
	[ -n \"\$d\" ] && [ \"\$d\" = \"\$s\" ]"
check "the demo token is in the demo directory" test -s "$DEMO/vgtoken.db"
check "nothing went to the user's token store" test ! -e "$XDG_DATA_HOME/vgtoken"
check "the database path is printed" grep -qF "database:  $DEMO/vgtoken.db" "$WORK/out"
check "the module path printed is absolute" \
	grep -qF "pkcs11-tool --module $top_builddir/.libs/libvgtoken.so" "$WORK/out"
check "labels are quoted" grep -qF -- "--token-label 'vgtoken demo'" "$WORK/out"
check "install is explained" grep -q "^  sudo make -C .* install$" "$WORK/out"

# Paste the transcript into bash elsewhere, on a fresh database.
sed -n 's/^\$ //p' "$WORK/out" >"$WORK/transcript.bash"
check "the transcript has the commands" test "$(wc -l <"$WORK/transcript.bash")" -ge 12
rm -f "$DEMO"/vgtoken.db*
mkdir -p "$WORK/elsewhere"
check "the pasted transcript runs again" sh -c "cd '$WORK/elsewhere' && \
	bash -e '$WORK/transcript.bash' >'$WORK/replay' 2>&1"
check "the replay made the token again" grep -q "vgtoken demo" "$WORK/replay"
check "the replay verified the signature" grep -q '^Verified OK' "$WORK/replay"

# The per-user registration it prints, run as printed.
reg=$(sed -n '/for your user only/,/^$/p' "$WORK/out" | sed -n 's/^  //p')
check "the registration commands are printed" test -n "$reg"
check "the registration runs" bash -e -c "$reg"
check "the module file names the built module" \
	grep -qxF "module: $top_builddir/.libs/libvgtoken.so" "$HOME/.config/pkcs11/modules/vgtoken.module"

# The delete command it prints removes the demo token.
del=$(sed -n '/Delete the demo token/{n;s/^  //p;}' "$WORK/out")
check "the delete command is printed" test -n "$del"
check "the delete command runs" bash -e -c "$del"
check "the demo token is gone" test ! -e "$DEMO"
echo "$ok checks passed"
