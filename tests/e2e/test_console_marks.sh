#!/bin/bash
# The graphs' marks are identifiable (issue 13): after two scheduler switches on a loop
# device, every mark line drawn has a number beside it, the strips' titles and peaks
# stay readable, and the marks panel (the legend) lists the same numbers.  Left stops at the
# oldest sample.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console marks" "needs root for a loop device"; exit 0; }
command -v tmux >/dev/null || { skip "console marks" "tmux not installed"; exit 0; }
CHECK="$(dirname "$0")/marks_screen.py"

dev=$(make_loop 64) || { fail "loop device"; exit 1; }
# an elevator with tunables, another, then none: what the kernel offers, never bfq by name
needs_elevators "console marks" "$dev" 2
read -r E1 E2 < <(pick_elevators "$dev" 2)
echo "$E1" >"/sys/block/$dev/queue/scheduler"
busy_writer "$dev" 60

console_shell 100 40
console_run "$dev"
screen_check "header" "^ioscope .* every 1s"
screen_check "graph strip" "^$dev write "
echo "$E2" >"/sys/block/$dev/queue/scheduler"
screen_check "first switch listed" "^ \[[0-9]+\] [0-9:]{8}  $dev  scheduler  $E1 → $E2( |$)"
sleep 3
echo none >"/sys/block/$dev/queue/scheduler"
# (numbers count every event the console saw: another device's switch may take one)
screen_check "second switch listed" "^ \[[0-9]+\] [0-9:]{8}  $dev  scheduler  $E2 → none( |$)" 15

# marks_check NAME COLSxLINES [LINES]: once the screen has that size and its marks panel lists both
# switches (a redraw, a resize, a loaded machine take their time), poll until the screen
# check (at least LINES mark lines drawn, 2 by default) holds (at most 5 s), then say so or give its last complaint.
listed() {
	[ "$(pane_size)" = "$1" ] && [ "$(screen | cut -c1-"${1%x*}" |
		grep -cE "^ \[[0-9]+\] [0-9:]{8}  $dev  scheduler  ")" -ge 2 ]
}
marks_check() {
	local name=$1 size=$2 lines=${3:-2} i out=""
	for ((i = 0; i < 50; i++)); do listed "$size" && break; sleep 0.1; done
	for ((i = 0; i < 25; i++)); do
		out=$(screen | cut -c1-"${size%x*}" | "$CHECK" "$dev" "$lines") && break
		sleep 0.2
	done
	if listed "$size" && [ -z "$out" ]; then ok "$name"; else
		fail "$name" "${out:-the marks panel does not list both switches}"; show_screen; fi
}
marks_check "every mark line has a number the panel lists" 100x40

# Narrow: the labels no longer fit beside each other, the numbers still do.  (The write-only
# workload's read strip is one line, so the lines counted are the write strip's: where the
# curve fills a cell the line takes its glyph, not "│", and two may not both show.)
# The console redraws at its own pace after the resize (later still under load).
console_resize 80 30
marks_check "80 columns: every mark line numbered" 80x30 1

# Left with every sample held already on the graphs: it stays where the oldest sample is
# (no empty graph labelled with a time before the history).
console_send Left
screen_check "Left at the oldest sample says so" "the graphs show the oldest sample held"
if ! screen | grep -q "SCROLLED" && console_up; then ok "Left past the oldest sample does not scroll"; else
	fail "Left past the oldest sample does not scroll"; show_screen; fi

console_send q
ended_check "quit"
