#!/bin/bash
# A matrix watched from a console (issue 12): `ioscope matrix` run beside a console (the same
# runtime directory) shows where it is in the console's header, from the progress its step
# marks carry: cell and run out of the total while it runs, the estimate once a run is done,
# "done" at the end, "interrupted" after Ctrl-C.  The header at 80 columns takes a shorter
# form, and a replay of one run's log shows the progress of that run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console matrix" "needs root (loop device, mount, schedulers)"; exit 0; }
command -v tmux >/dev/null || { skip "console matrix" "tmux not installed"; exit 0; }
sanitizer_clean() { ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$1"; }

dev=$(make_loop 64) || { fail "loop device"; exit 1; }
mnt=$(make_fs "$dev" ext4) || { fail "ext4 on $dev"; exit 1; }
echo mq-deadline >"/sys/block/$dev/queue/scheduler"

console_shell 160 30   # room for the long form beside a long host or kernel name
console_run -i 0.5 "$dev"
screen_check "console up" "^ioscope .* every 0\.5s"

"$IOSCOPE" matrix --device "$dev" --mount "$mnt" --schedulers none,mq-deadline --repeat 1 \
	--out "$TMP/m" -- sleep 2 >/dev/null 2>"$TMP/matrix.stderr" &
matrix_pid=$!
at_exit "kill $matrix_pid"

# The header line, found by its content (never a fixed row).
screen_check "while the first cell runs: its progress in the header, no estimate yet" \
	"^ioscope .*MATRIX cell 1/2 run 1/1 [0-9]+s ETA \?" 10
screen_check "the second cell: the estimate, from the first run's time" \
	"^ioscope .*MATRIX cell 2/2 run 1/1 [0-9]+s ETA ~[0-9]+[sm]" 15
wait $matrix_pid
rc=$?
[ $rc -eq 0 ] && sanitizer_clean "$TMP/matrix.stderr" && ok "the matrix exits 0" \
	|| fail "the matrix exits 0" "rc=$rc $(tail -5 "$TMP/matrix.stderr")"
screen_check "after the last cell: done" "^ioscope .*MATRIX done cell 2/2 run 1/1 [0-9]+s" 5
if screen | grep -q '^ioscope .*ETA' ; then fail "done: no estimate left"; show_screen; else
	ok "done: no estimate left"; fi

# Ctrl-C in the middle of the first run: the header says where it was interrupted.
"$IOSCOPE" matrix --device "$dev" --mount "$mnt" --schedulers none,mq-deadline --repeat 1 \
	--out "$TMP/i" -- sleep 30 >/dev/null 2>"$TMP/interrupted.stderr" &
matrix_pid=$!
at_exit "kill $matrix_pid"
screen_check "a second matrix: its first cell" "^ioscope .*MATRIX cell 1/2 run 1/1 [0-9]+s ETA \?" 10
kill -INT $matrix_pid
wait $matrix_pid
rc=$?
[ $rc -eq 130 ] && sanitizer_clean "$TMP/interrupted.stderr" && ok "SIGINT: the matrix exits 130" \
	|| fail "SIGINT: the matrix exits 130" "rc=$rc $(tail -5 "$TMP/interrupted.stderr")"
screen_check "SIGINT: interrupted, in the first cell" "^ioscope .*MATRIX interrupted cell 1/2 run 1/1 [0-9]+s" 5

# 80 columns: the form that fits, and the header still one line.
console_resize 80 30
if wait_screen "^ioscope .*(MATRIX interrupted 1/2|M stopped)" 5 &&
	! screen | grep '^ioscope ' | grep -q 'MATRIX interrupted cell'; then
	ok "80 columns: a shorter form, not the long one cut"
else fail "80 columns: a shorter form, not the long one cut"; show_screen; fi
console_send q
ended_check "live console"

# A replay of the second cell's log: the progress at that point of the matrix (wide enough
# for the long form beside the replay's position).
console_resize 180 30
console_send -l clear
console_send Enter
wait_gone '^EXIT=' 5
console_run --replay "$TMP/m-c02-r1.log"
screen_check "replay of a run's log: the progress it had" "^ioscope .*MATRIX cell 2/2 run 1/1 [0-9]+s ETA ~" 10
console_send q
ended_check "replay"
