#!/bin/bash
# Every mark gets its number on the graphs' label row (issue 28): a busy session's replay
# (tests/fixtures/logs/report-busy.log: 13 marks, some a second apart) seeked to its end,
# on a narrow and a wide terminal: each strip's label row holds every number the marks
# panel counts, marks too close for their numbers apart sharing one ("[3-5]").  The
# console then quits cleanly, without a sanitizer report.
# Crowded (issue 41): a mark, another device's change and a hidden one every half second
# (crowded_log_gen.py) share one label per place whose numbers ascend whatever strip or
# column they came from ("[1,2,4,5]", never "[2,5,1,4]"), never cut without an ellipsis
# ("[1,2,…,35]", never "[36,38"): whole on a wide terminal, shortened on a narrow one.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console mark numbers" "tmux not installed"; exit 0; }
needs "console mark numbers" python3
CHECK="$(dirname "$0")/mark_numbers_screen.py"
LOG="$IOSCOPE_TOP/tests/fixtures/logs/report-busy.log"

# numbers_check NAME COLSxLINES [NUMBERS]: once the screen has that size and the replay is
# at its end, poll until every label row numbers every mark (NUMBERS, else all the marks
# panel counts; at most 5 s), else its complaint.
numbers_check() {
	local name=$1 size=$2 i out=""
	for ((i = 0; i < 25; i++)); do
		[ "$(pane_size)" = "$size" ] && screen | grep -q "REPLAY 41/41 " &&
			out=$(screen | "$CHECK" loop0 ${3:-}) && break
		sleep 0.2
	done
	if [ "$i" -lt 25 ]; then ok "$name"; else fail "$name" "${out:-no replay at its end}"; show_screen; fi
}

for size in 100x40 200x50; do
	console_shell "${size%x*}" "${size#*x}"
	console_run --replay "$LOG" loop0
	screen_check "$size: replay started" "REPLAY [0-9]+/41 " 5
	console_send G
	wait_screen "seek to" 3
	console_send -l "+40"
	console_send Enter
	numbers_check "$size: every mark numbered on every label row" "$size"
	console_send q
	ended_check "$size: quit"
	tm kill-server
done

CROWDED="$TMP/crowded.log"
shown=$(python3 "$(dirname "$0")/crowded_log_gen.py" "$LOG" "$CROWDED") || { fail "crowded log"; exit 1; }
console_shell 200 50
console_run --replay "$CROWDED" loop0 vda
screen_check "crowded: replay started" "REPLAY [0-9]+/41 " 5
console_send G
wait_screen "seek to" 3
console_send -l "+40"
console_send Enter
numbers_check "crowded, 200 columns: one label, every number, ascending" 200x50 "$shown"
if screen | grep -q "^loop0 write .*…"; then fail "crowded, 200 columns: no ellipsis where all fits"; show_screen; else
	ok "crowded, 200 columns: no ellipsis where all fits"; fi
console_resize 80 30
numbers_check "crowded, 80 columns: ascending, shortened with an ellipsis" 80x30 "$shown"
if screen | grep -qE "^loop0 write .*\[1,2,4,[0-9,]*…,35\]┃"; then ok "crowded, 80 columns: the first and the last number kept"; else
	fail "crowded, 80 columns: the first and the last number kept"; show_screen; fi
console_send q
ended_check "crowded: quit"
