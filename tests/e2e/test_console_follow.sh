#!/bin/bash
# The view stays where the operator put it (issue 41): without DEVICE arguments the graphs
# follow the busiest disk and say so in their title ("following the busiest disk") until
# the operator picks one, by a filter, a click on a row or the arrows; from then on the
# graphs stay on that device while another is busier, and the title no longer says it.
# A replay (session_log_gen.py: sdab is busier than sdaa every sample) played at x100
# makes the busiest disk the same every run, on any machine.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console follow" "tmux not installed"; exit 0; }
needs "console follow" python3
LOG="$TMP/two.log"
python3 "$(dirname "$0")/session_log_gen.py" 3000 2 "$LOG" || { fail "log"; exit 1; }

# the sample the replay shows ("REPLAY 123/3000")
at() { screen | grep -oE "REPLAY [0-9]+/" | grep -oE "[0-9]+"; }
# stays NAME: the graphs stay on sdaa, the title without "following", while the replay
# plays 20 samples or more past the choice (at x100: at most a few seconds)
stays() {
	local name=$1 from i now
	from=$(at)
	for ((i = 0; i < 100; i++)); do
		if ! screen | grep -q "^sdaa write " || screen | grep -q "following the busiest"; then
			fail "$name" "the graphs left sdaa, or follow again:"; show_screen; return
		fi
		now=$(at)
		[ -n "$from" ] && [ -n "$now" ] && [ "$now" -ge $((from + 20)) ] && { ok "$name"; return; }
		sleep 0.1
	done
	fail "$name" "the replay did not play on (at ${from:-?}, now ${now:-?})"; show_screen
}
start() {
	console_run --replay "$LOG"
	screen_check "$1: the graphs follow the busiest disk, and say so" \
		"^─ MB/s  following the busiest disk ─" 10
	screen_check "$1: on sdab, the busier" "^sdab write " 5
	console_send x x   # x100: the busiest is chosen again every sample
}

console_shell 120 40

start "filter"
console_send /
console_send -l "sdaa"
console_send Enter
screen_check "filter: the graphs on the device it leaves" "^sdaa write " 5
gone_check "filter: the title no longer says it follows" "following the busiest"
# the filter emptied again: every disk in the table, the choice stays
console_send /
console_send BSpace BSpace BSpace BSpace Enter
screen_check "filter emptied: both disks listed" "^sdab " 5
stays "filter emptied: the graphs stay on the device the filter found"
console_send q
ended_check "filter"

start "click"
# paused while the row is found and clicked: at x100 a redraw between the two once moved
# the row under the click (a loaded run)
console_send P
screen_check "click: paused" "REPLAY [0-9/:]+ .*PAUSED" 5
y=$(screen | grep -n "^sdaa " | head -1 | cut -d: -f1)
console_click 2 $((y - 1))
screen_check "click: the graphs on the row clicked" "^sdaa write " 5
console_send P
stays "click: the graphs stay there"
console_send q
ended_check "click"

start "arrows"
console_send Up
screen_check "Up: the graphs on the row above" "^sdaa write " 5
stays "Up: the graphs stay there"
console_send q
ended_check "arrows"
