#!/bin/sh
# The documents cannot rot: every ```sh block of README.md and doc/*.md is
# run, file by file, in a sandbox (a fresh HOME, no VGTOKEN_CONF, the
# built module and vgtoken-util standing in for ./demo.sh's build and for
# the installed ones), and every relative Markdown link must name a file
# in the tree. doc/testing.md describes the rules for authors.
. "$top_srcdir/tests/e2e/lib.sh"
need bash "Debian package bash"
need pkcs11-tool "Debian package opensc"

# Documents written on other branches and linked already: a missing one
# is reported, not failed, until they are merged. Empty this list then.
PENDING=""

docs="$top_srcdir/README.md"
for f in "$top_srcdir"/doc/*.md; do
	[ -f "$f" ] && docs="$docs $f"
done

# --- links ----------------------------------------------------------------
# [text](target) and [text]: target, without URLs; targets are relative to
# the document's directory, and an anchor (#part) must name a heading of
# the target (GitHub's rule: lower case, punctuation dropped, spaces to
# hyphens).
slugs() { # FILE: the anchors of its headings, outside fenced blocks
	awk '/^```/ { fence = !fence; next } !fence && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
		tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g'
}
links_ok() { # FILE
	dir=$(dirname "$1")
	bad=0
	grep -o '\](\([^)]*\))\|^\[[^]]*\]: *[^ ]*' "$1" |
		sed -e 's/^\](\(.*\))$/\1/' -e 's/^\[[^]]*\]: *//' \
		    -e 's/ .*//' >"$WORK/links"
	while read -r link; do
		t=${link%%#*}
		anchor=""
		case $link in *'#'*) anchor=${link#*#} ;; esac
		case $t in
		http:* | https:* | mailto:*) continue ;;
		esac
		target="$dir/$t"
		[ -n "$t" ] || target=$1
		if [ ! -e "$target" ]; then
			rel=$(realpath -m --relative-to="$top_srcdir" "$target")
			case " $(echo $PENDING) " in
			*" $rel "*)
				echo "# pending: $rel (linked from $(basename "$1"); written on another branch)"
				continue ;;
			esac
			echo "broken link in $1: $link"
			bad=1
			continue
		fi
		if [ -n "$anchor" ] && [ -f "$target" ] &&
		    ! slugs "$target" | grep -qxF "$anchor"; then
			echo "no heading for the anchor in $1: $link"
			bad=1
		fi
	done <"$WORK/links"
	return $bad
}
for f in $docs; do
	check "relative links of ${f#"$top_srcdir"/} resolve" links_ok "$f"
done

# --- shell blocks -----------------------------------------------------------
# The programs that load the module get the sanitizer runtime under the
# ASan build; others (bash, coreutils, groff) run without it.
lib_preload=${LD_PRELOAD:-}
unset LD_PRELOAD
loaders="pkcs11-tool p11-kit p11tool certtool gnutls-cli gnutls-serv
modutil certutil pk12util selfserv tstclnt vfychain openssl python3 ssh ssh-add
ssh-keygen ssh-agent java keytool"

as_user=""
if [ "$(id -u)" -eq 0 ]; then
	# p11-kit reads per-user module files only for other users than root.
	need setpriv "Debian package util-linux"
	as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	chmod a+rx "$WORK" "$(dirname "$WORK")" 2>/dev/null || true
fi

# One copy of the source tree and of the built module and tool, readable by
# everyone (the scripts may run as nobody, and a clone under /root is not
# readable by nobody); each document's sandbox links to it.
base="$WORK/base"
mkdir -p "$base/src" "$base/build/.libs"
(cd "$top_srcdir" && tar cf - --exclude=./_build --exclude=./.git \
	--exclude=./autom4te.cache .) | (cd "$base/src" && tar xf -)
cp "$top_builddir/.libs/libvgtoken.so" "$base/build/.libs/"
cp "$top_builddir/vgtoken-util" "$base/build/"
chmod -R a+rX "$base"
built_module="$base/build/.libs/libvgtoken.so"

run_blocks() { # FILE NAME
	sb="$WORK/sandbox-$2"
	clone="$sb/clone"
	mkdir -p "$clone/_build" "$sb/home" "$sb/bin"
	# The top of the source tree, with the build under test as _build/demo.
	for e in "$base/src"/* "$base/src"/.[!.]*; do
		[ -e "$e" ] || continue
		ln -s "$e" "$clone/${e##*/}"
	done
	ln -s "$base/build" "$clone/_build/demo"
	ln -s "$base/build/vgtoken-util" "$sb/bin/vgtoken-util"
	{
		echo 'set -e'
		echo 'cd "$VG_DOC_CLONE"'
		if [ -n "$lib_preload" ]; then
			for p in $loaders; do
				echo "$p() { LD_PRELOAD=\"\$VG_DOC_PRELOAD\" command $p \"\$@\"; }"
			done
		fi
		# The ```sh blocks, in order, the install path mapped to the build.
		awk '/^```sh[ \t]*$/ { on = 1; printf "# --- block at line %d\n", NR + 1; next }
		     /^```/ { on = 0 }
		     on' "$1" |
			sed "s|/usr/local/lib/pkcs11/libvgtoken.so|$built_module|g"
	} >"$sb/script.bash"
	if ! grep -q '^# --- block' "$sb/script.bash"; then
		return 0
	fi
	chmod -R a+rwX "$sb"
	(
		cd "$clone"
		$as_user env -i PATH="$sb/bin:/usr/local/bin:/usr/bin:/bin" \
			HOME="$sb/home" XDG_DATA_HOME="$sb/home/.local/share" \
			TMPDIR="$sb" LANG=C.UTF-8 \
			VG_DOC_CLONE="$clone" VG_DOC_PRELOAD="$lib_preload" \
			ASAN_OPTIONS="${ASAN_OPTIONS:-}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" \
			VG_CPU_FEATURES="${VG_CPU_FEATURES:-all}" \
			bash -e "$sb/script.bash"
	) >"$sb/out" 2>&1 </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "--- ${1#"$top_srcdir"/}: the script exited $rc; its last lines:"
		tail -25 "$sb/out"
		echo "--- the script (blocks are marked with their line):"
		grep -n '' "$sb/script.bash" | tail -40
		return 1
	fi
	echo "# $(grep -c '^# --- block' "$sb/script.bash") block(s) of ${1#"$top_srcdir"/} ran"
}
for f in $docs; do
	name=$(basename "$f" .md)
	check "the sh blocks of ${f#"$top_srcdir"/} run" run_blocks "$f" "$name"
done
echo "$ok checks passed"
