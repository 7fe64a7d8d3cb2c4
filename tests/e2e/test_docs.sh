#!/bin/bash
# The documentation a user meets first agrees with the binary: every option --help
# lists is in the man page, the man page renders without warnings, `make deps`
# prints the exact apt-get line when it cannot install, and `make install` honours
# PREFIX and DESTDIR.
. "$(dirname "$0")/lib.sh"
cd "$IOSCOPE_TOP" || exit 1

missing=""
for opt in $("$IOSCOPE" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	grep -qE -- "(Fl Fl ${opt#--}|\\\\-\\\\-${opt#--})" man/ioscope.1 || missing="$missing $opt"
done
[ -z "$missing" ] && ok "every --help option is in the man page" || fail "every --help option is in the man page" "$missing"
missing=""
for opt in $("$IOSCOPE" matrix --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	grep -qE -- "(Fl Fl ${opt#--}|\\\\-\\\\-${opt#--})" man/ioscope.1 || missing="$missing $opt"
done
[ -z "$missing" ] && ok "every matrix --help option is in the man page" || fail "every matrix --help option is in the man page" "$missing"
for cmd in set remount show report matrix; do
	grep -q "^.Cm $cmd" man/ioscope.1 && grep -q "ioscope $cmd" <("$IOSCOPE" --help) \
		&& ok "subcommand $cmd documented" || fail "subcommand $cmd documented"
done
# Every row of the knob table (src/core/knobs.c), every key `set` takes and every setting
# `show` lists (a tree with every knob file, tests/fixtures/knobs) is in docs/control.md and
# the man page (issue 25).  The rows are read from the table's source: that every key set
# and show print is among them shows the reading found the table.
# Without groff (an optional test package) the source is searched (less strict).
if command -v groff >/dev/null; then
	man_text=$(LC_ALL=C.UTF-8 groff -mandoc -Tutf8 man/ioscope.1 2>/dev/null | col -b)
else
	man_text=$(sed 's/\\&//g' man/ioscope.1)
fi
rows=$(sed -n 's/.*{ \.key = "\([^"]*\)".*/\1/p' src/core/knobs.c | sed 's/^iosched\.$/iosched.NAME/')
keys=$("$IOSCOPE" set --help | awk '/^    [a-z]/ { print $1 }')
for d in vdb sdc loop7; do
	keys+=" $("$IOSCOPE" show --root tests/fixtures/knobs/2 "$d" | awk '/^  [a-z]/ { print $1 }')"
done
unlisted=""
for key in $(tr ' ' '\n' <<<"$keys" | sed 's/^iosched\.[a-z].*/iosched.NAME/' | sort -u); do
	[ "$key" = rotational ] && continue   # a property, not a setting
	grep -qxF "$key" <<<"$rows" || unlisted="$unlisted $key"
done
[ -n "$rows" ] && [ -z "$unlisted" ] && ok "every key set and show print is a row of the knob table" \
	|| fail "every key set and show print is a row of the knob table" "not rows:$unlisted"
missing=""
for key in $( (tr ' ' '\n' <<<"$keys" | grep -v '^iosched\.[a-z]'; echo "$rows") | sort -u); do
	[ "$key" = rotational ] && continue
	grep -q "\`$key\`" docs/control.md && grep -qiF "$key" <<<"$man_text" || missing="$missing $key"
done
grep -qxF wbt_lat_usec <<<"$rows" && grep -qxF loop.sectors <<<"$rows" && grep -qw bdi.max_bytes <<<"$keys" \
	&& [ -z "$missing" ] && ok "every setting key is in docs/control.md and the man page" \
	|| fail "every setting key is in docs/control.md and the man page" "missing:$missing"
# Every output format is a row of its table (issue 38): batch's --format (src/cli/
# batch_formats.c) and report's (src/record/report_formats.c) are listed by --help and in
# the man page's -f items, every one of them.
# That --help lists the rows found shows the reading found the table.
man_item() {   # the Nth ".It Fl f , Fl Fl format" item of the man page, to the next .It
	awk -v n="$1" '/^\.It Fl f , Fl Fl format/ { if (++k == n) { on = 1; next } }
		on && /^\.It / { exit } on { print }' man/ioscope.1
}
formats_documented() {   # WHAT TABLE-FILE HELP-LINE MAN-ITEM-NUMBER
	local rows missing="" f
	rows=$(sed -n 's/.*{ \.name = "\([^"]*\)".*/\1/p' "$2")
	for f in $rows; do
		grep -qw -- "$f" <<<"$3" || missing="$missing $f(--help)"
		man_item "$4" | grep -qx "\.Cm $f\( .*\)\?" || missing="$missing $f(man)"
	done
	[ -n "$rows" ] && [ -z "$missing" ] && ok "every $1 format is in --help and the man page" \
		|| fail "every $1 format is in --help and the man page" "rows: $(echo $rows); missing:$missing"
}
formats_documented batch src/cli/batch_formats.c "$("$IOSCOPE" --help | grep -- '--format FMT')" 1
formats_documented report src/record/report_formats.c "$("$IOSCOPE" report --help | head -1)" 2
if command -v groff >/dev/null; then
	warn=$(LC_ALL=C.UTF-8 groff -ww -mandoc -Tutf8 -z man/ioscope.1 2>&1)
	[ -z "$warn" ] && ok "man page renders without warnings" || fail "man page renders without warnings" "$warn"
else
	skip "man page renders without warnings" "groff not installed (make test-deps as root installs it)"
fi
head -5 README.md | grep -q 'make check' && head -5 README.md | grep -q 'make run' \
	&& ok "README opens with the two commands" || fail "README opens with the two commands"
grep -qx 'make check' .ci/run && ok ".ci/run runs the README's test command" || fail ".ci/run runs the README's test command"

# tests/deps.sh as an ordinary user (nobody, when root): a missing package needed to build
# fails with the apt-get line; one that only some tests use is listed and does not fail.
as_user() { if is_root; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
out=$(as_user sh tests/deps.sh ioscope-no-such-package 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q 'apt-get install ioscope-no-such-package' <<<"$out" \
	&& ok "deps prints the apt-get line without root" || fail "deps prints the apt-get line without root" "$out"
out=$(as_user sh tests/deps.sh dpkg -- ioscope-no-such-package 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q 'apt-get install ioscope-no-such-package' <<<"$out" \
	&& grep -q 'tests that need them skip' <<<"$out" \
	&& ok "deps without root: a missing test package is listed, not fatal" \
	|| fail "deps without root: a missing test package is listed, not fatal" "exit $rc: $out"

if make -s install DESTDIR="$TMP/dest" PREFIX=/opt/io BUILD="${BUILD:-build}" >"$TMP/install.log" 2>&1; then
	[ -x "$TMP/dest/opt/io/bin/ioscope" ] && [ -f "$TMP/dest/opt/io/share/man/man1/ioscope.1" ] \
		&& ls "$TMP"/dest/opt/io/share/ioscope/themes/*.theme >/dev/null 2>&1 \
		&& [ -f "$TMP/dest/opt/io/share/ioscope/grafana/ioscope.json" ] \
		&& grep -q '^ExecStart=/opt/io/bin/ioscope ' "$TMP"/dest/opt/io/lib/systemd/system/ioscope-textfile.service \
		&& ok "make install honours PREFIX and DESTDIR" || fail "make install honours PREFIX and DESTDIR" "$(find "$TMP/dest")"
else
	fail "make install honours PREFIX and DESTDIR" "$(cat "$TMP/install.log")"
fi
