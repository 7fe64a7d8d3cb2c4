#!/bin/bash
# Themes, the mouse, recording and replaying from the console, on a fixture tree (no root
# needed).  NO_COLOR, the config file, locales: test_console_config.sh; colour depth and
# bad command lines: test_console_colours.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console themes" "tmux not installed"; exit 0; }
. "$(dirname "$0")/console_fixture.sh"

console_shell 120 36

# A fixture sequence is not paced by the source: the console paces it, then keeps the
# last sample on screen.
console_run --root "$ROOT" -i 0.3
screen_check "fixture sequence: table" "^Device +r/s"
screen_check "fixture sequence: busiest disk followed" "^vda write [0-9.]+[kMG]  peak"
screen_check "fixture sequence: end of data kept on screen" "END OF DATA" 5
screen | grep -q "^loop4 .* mq-deadline" && ok "fixture sequence: rows" || fail "fixture sequence: rows"
default_colours=$(colours)
check "default theme: colours on screen" test "$default_colours" -gt 0
quit

# Every shipped theme starts clean (no message in the footer).
for theme in default light high-contrast monochrome; do
	console_run --root "$ONE" --theme "$theme"
	wait_screen "^Device +r/s" 10
	sleep 0.5
	if screen | tail -1 | grep -q "Quit"; then ok "theme $theme: no complaint"; else fail "theme $theme: no complaint"; show_screen; fi
	quit
done

# The mouse: a click on a row selects it (the graphs follow), on a header sorts by it.
console_run --root "$ONE"
wait_screen "^loop4 .* 0\.00 +1 mq-deadline" 10   # a whole interval: figures to sort by
y=$(screen | grep -n "^loop5 " | cut -d: -f1)
console_click 2 $((y - 1))
screen_check "click on a row: the graphs follow it" "^loop5 read "
x=$(screen | grep "^Device" | awk '{ print index($0, "infl") - 1 }')
hy=$(screen | grep -n "^Device" | cut -d: -f1)
console_click "$x" $((hy - 1))
# until the redraw after the click (a fixed 0.5 s, and 3 s for the row above, failed under
# load: loop0 still first)
first_row() { [ "$(table_row 1 | awk '{ print $1 }')" = "$1" ]; }
wait_until 10 "" first_row loop4
first=$(table_row 1 | awk '{ print $1 }')
check "click on the infl header: sorted by it (loop4 has one in flight)" test "$first" = loop4
quit

# Recording: the header says so; a user mark goes into the log.  Replaying it: the
# header says where, the recorded mark comes back as a mark, the data ends cleanly.
console_run --root "$ONE" -i 0.3 --record "$TMP/rec.log"
screen_check "recording: header" "● REC $TMP/rec.log"
wait_screen "^loop4 .* mq-deadline" 5
console_send m; console_send -l "hello from the console"; console_send Enter
screen_check "recording: the mark on screen" "mark  hello from the console" 3
sleep 1
quit
grep -q '"hello from the console"' "$TMP/rec.log" && ok "recording: the mark is in the log" \
	|| fail "recording: the mark is in the log"
n=$(grep -c '"type":"sample"' "$TMP/rec.log")
console_run --replay "$TMP/rec.log" -i 0.1
screen_check "replay: header shows the position" "REPLAY [0-9]+/$n" 5
screen_check "replay: the recorded mark" "mark  hello from the console" 10
screen_check "replay: the end kept on screen" "END OF DATA" 10
quit

# t cycles the themes, in name order
console_run --root "$ONE"
wait_screen "^Device +r/s" 10
console_send t
screen_check "t: next theme" "theme high-contrast" 3
console_send t
screen_check "t: and the next" "theme light" 3
quit

# A broken theme: the footer names file and line; the default theme is used.
mkdir -p "$TMP/xdg/ioscope/themes"
printf '# mine\nselected = black on #12zz45\n' >"$TMP/xdg/ioscope/themes/broken.theme"
console_run --root "$ONE" --theme broken
screen_check "broken theme: file and line" "broken.theme:2: selected: bad colour '#12zz45'" 5
screen_check "broken theme: console still up" "^Device +r/s"
quit
printf 'mark = green\nfrobnicate = red\n' >"$TMP/xdg/ioscope/themes/odd.theme"
console_run --root "$ONE" --theme odd
screen_check "unknown theme key: warned with file and line" "odd.theme:2: unknown key 'frobnicate' ignored" 5
quit
console_run --root "$ONE" --theme nosuch
screen_check "missing theme: named, default used" "theme 'nosuch' not found" 5
quit

