#!/bin/bash
# The marks panel scrolls and leads the graphs back to a mark (issue 13): with more
# marks than the panel has rows, `(` walks the selection down the list and the panel
# scrolls to keep it in view; selecting a mark the graphs no longer show moves them to
# its time (the title says "at -Ns"); a click on a row selects its mark; `l` goes back
# to live.  A mark's text longer than the panel ends with "…" ("..." without UTF-8).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console marks panel" "needs root for a loop device"; exit 0; }
command -v tmux >/dev/null || { skip "console marks panel" "tmux not installed"; exit 0; }

dev=$(make_loop 16) || { fail "loop device"; exit 1; }
LONG="long note: the quick brown fox jumps over the lazy dog while the scheduler goes from mq-deadline to bfq"

# mark TEXT: a user mark from a shell, as `ioscope mark` gives it to the running console
mark() {
	local out
	out=$("$IOSCOPE" mark "$1" 2>&1) || fail "ioscope mark $1" "$out"
}

# Numbers count every event the console saw, on every device, shown or not (a switch on
# another test's device takes one, another user's matrix hundreds: its mounts and switches):
# the tests find a mark by its text, never by its number or its number's width.
# panel_row TEXT: the marks panel's line of the user mark TEXT, if it is on screen
panel_row() { screen | grep -E "^ \[[0-9]+\] [0-9:]{8}  mark  $1"; }
# number_of TEXT: its number
number_of() { panel_row "$1" | sed -E 's/^ \[([0-9]+)\].*/\1/'; }
# on_graphs N: mark [N]'s number somewhere else than its panel row (beside its line),
# nor in the footer's "mark [N] at ..."
on_graphs() { screen | grep -vE '^ \[[0-9]+\] [0-9:]{8}  |mark \[[0-9]+\] at ' | grep -qF "[$1]"; }

# wait_for NAME SECONDS CMD...: ok when CMD succeeds within SECONDS (polled)
wait_for() {
	local name=$1 secs=$2 i; shift 2
	for ((i = 0; i < secs * 10; i++)); do
		"$@" && { ok "$name"; return 0; }
		sleep 0.1
	done
	fail "$name"; show_screen; return 1
}
not() { ! "$@"; }

console_shell 80 24
console_run -i 0.05 "$dev"
screen_check "console up" "^ioscope "
mark "first"
screen_check "the first mark is listed" "^ \[[0-9]+\] [0-9:]{8}  mark  first"
first=$(number_of first)
# the plot is 72 cells of 2 samples: 7.2 s at 0.05 s; wait until [1] has left it
wait_for "the first mark leaves the graphs" 40 not on_graphs "$first"
for n in 2 3 4 5; do mark "note $n"; done
mark "$LONG"
screen_check "six marks, the panel shows the newest" "^ \[[0-9]+\] [0-9:]{8}  mark  long note"
# cut_short ROW: the mark's text in ROW is the start of $LONG, then "…" at the panel's edge
# (the row is as wide as the panel's title rule, less the margin).  Where the cut falls
# depends on the width of the number ("[6]" alone, "[267]" beside another user's matrix:
# numbers count every device's events), so " dog …" is as right as " dog w…".
chars() { printf %s "$1" | LC_ALL=C.UTF-8 wc -m; }
cut_short() {
	local text=${1#* mark  } rule
	rule=$(screen | grep -m1 '^─ Marks (')
	[[ $1 == *… ]] && [ -n "$rule" ] && [ "$(chars "$1")" -eq $(($(chars "$rule") - 1)) ] || return 1
	text=${text%…}
	[ -n "$text" ] && [ "${LONG#"$text"}" != "$LONG" ]
}
if cut_short "$(panel_row "long note")"; then ok "a long mark text ends with …"; else
	fail "a long mark text ends with …" "$(panel_row 'long note')"; fi
if ! panel_row first >/dev/null && screen | grep -qE "Marks \(6[^)]*, rows 1-3\)"; then
	ok "more marks than rows: the oldest is out of the panel"; else
	fail "more marks than rows: the oldest is out of the panel"; show_screen; fi
screen | grep -q "Tab metric" || { fail "the graphs are live before a mark is selected"; show_screen; }

for n in 1 2 3 4 5 6; do console_send -l '('; sleep 0.1; done
screen_check "( scrolls the panel down to the oldest mark" "^ \[$first\] [0-9:]{8}  mark  first"
screen_check "the panel's title says which rows it shows" "Marks \(6[^)]*, rows 4-6\)"
screen_check "the footer names the selected mark" "mark \[$first\] at [0-9:]{8}: first"
screen_check "selecting a mark off the graphs scrolls them back to it" "at -[0-9][0-9ms]*  ./. scroll"
wait_for "the selected mark's line is on the graphs again" 5 on_graphs "$first"
if screen | grep -q "SCROLLED"; then ok "the header says the graphs show the past"; else
	fail "the header says the graphs show the past"; show_screen; fi

console_send -l ')'
screen_check ") selects the next newer mark" "mark \[[0-9]+\] at [0-9:]{8}: note 2"

console_send l
screen_check "l: the graphs go live" "Tab metric"
screen_check "l: the panel back at the newest mark" "^ \[[0-9]+\] [0-9:]{8}  mark  long note"

# console_wheel_down X Y: the wheel turned down at cell (X, Y), as an xterm (X10) report
console_wheel_down() {
	local x y
	x=$(printf "\\$(printf '%03o' $(($1 + 33)))")
	y=$(printf "\\$(printf '%03o' $(($2 + 33)))")
	tm send-keys -t t -l $'\e[Ma'"$x$y"
}
# the wheel over the panel walks its selection; a click on a row selects that mark
y=$(screen | grep -nE '^ \[[0-9]+\] [0-9:]{8}  mark  note 4' | cut -d: -f1)
if [ -n "$y" ]; then
	console_wheel_down 4 $((y - 1))
	screen_check "the wheel over the panel selects the newest mark" "mark \[[0-9]+\] at [0-9:]{8}: long note"
	console_wheel_down 4 $((y - 1))
	screen_check "the wheel again: the next older one" "mark \[[0-9]+\] at [0-9:]{8}: note 5"
	console_click 4 $((y - 1))
	screen_check "a click on a panel row selects its mark" "mark \[[0-9]+\] at [0-9:]{8}: note 4"
else
	fail "the panel lists note 4"; show_screen
fi

console_send q
ended_check "quit"

# Without UTF-8 the cut text ends with "...".
console_send -l clear; console_send Enter
wait_gone "^EXIT=" 5
CONSOLE_CMD="env LANG=C LC_ALL=C $IOSCOPE" console_run -i 0.5 "$dev"
screen_check "console up (C locale)" "^ioscope "
mark "$LONG"
screen_check "C locale: a long mark text ends with ..." "^ \[[0-9]+\] [0-9:]{8}  mark  long note.*\.\.\.$"
console_send q
ended_check "quit (C locale)"
