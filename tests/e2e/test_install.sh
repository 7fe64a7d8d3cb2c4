#!/bin/bash
# `make install` into a DESTDIR: the binary, the man page, the themes and every file of
# workloads/ (scripts executable, helpers beside them), and the README's example works
# from the installed path: `ioscope run PREFIX/share/ioscope/workloads/untar.sh DIR`, then
# rmtree.sh from there too.  No root needed: the workloads run in a temp directory.
. "$(dirname "$0")/lib.sh"
D="$TMP/dest"
P=/usr/local
make -s -C "$IOSCOPE_TOP" install DESTDIR="$D" PREFIX="$P" >"$TMP/install.out" 2>&1 \
	|| { fail "make install DESTDIR" "$(tail -20 "$TMP/install.out")"; exit 0; }
W="$D$P/share/ioscope/workloads"
[ -x "$D$P/bin/ioscope" ] && [ -f "$D$P/share/man/man1/ioscope.1" ] \
	&& [ -f "$D$P/share/ioscope/themes/default.theme" ] && ok "make install DESTDIR: binary, man page, themes" \
	|| fail "make install DESTDIR: binary, man page, themes" "$(cd "$D" && find . | head -30)"
missing=""
for f in "$IOSCOPE_TOP"/workloads/*; do
	n=$(basename "$f")
	cmp -s "$f" "$W/$n" || { missing="$missing $n"; continue; }
	[ -x "$f" ] && ! [ -x "$W/$n" ] && missing="$missing $n(not executable)"
done
[ -z "$missing" ] && ok "every file of workloads/ is installed in PREFIX/share/ioscope/workloads" \
	|| fail "every file of workloads/ is installed in PREFIX/share/ioscope/workloads" "missing:$missing"

# the man page and --help say where they are (--help: where this build installs them)
grep -q 'share/ioscope/workloads' "$D$P/share/man/man1/ioscope.1" \
	&& ok "the installed man page names the workloads' directory" \
	|| fail "the installed man page names the workloads' directory"
"$IOSCOPE" --help 2>&1 | grep -qF "WORKLOADS: $P/share/ioscope/workloads" \
	&& ok "--help names the installed workloads' directory" \
	|| fail "--help names the installed workloads' directory" "$("$IOSCOPE" --help 2>&1 | grep -i workloads)"

# the README example, from the installed path, with a tiny generated tree
export IOSCOPE_TREE_SCALE=0.002 XDG_CACHE_HOME="$TMP/cache"
unset IOSCOPE_TARBALL
mkdir "$TMP/scratch"
cd "$TMP" || exit 1   # not the source tree: nothing may come from workloads/ there
"$IOSCOPE" run --batch -i 0.5 --linger 0 --output "$TMP/untar.out" \
	-- "$W/untar.sh" "$TMP/scratch" >/dev/null 2>"$TMP/untar.err"
rc=$?
[ $rc = 0 ] && grep -qE '^untar: source=.* files=[1-9][0-9]* ' "$TMP/untar.out" \
	&& ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$TMP/untar.err" \
	&& ok "ioscope run of the installed untar.sh" \
	|| fail "ioscope run of the installed untar.sh" "rc=$rc $(cat "$TMP/untar.out" "$TMP/untar.err" | tail -5)"
out=$("$W/rmtree.sh" "$TMP/scratch" 2>&1); rc=$?
[ $rc = 0 ] && grep -qE '^rmtree: .* trees=1 ' <<<"$out" && [ -z "$(ls -A "$TMP/scratch")" ] \
	&& ok "the installed rmtree.sh" || fail "the installed rmtree.sh" "rc=$rc $out"
