#!/bin/bash
# Defect 6: a change pending while the terminal is below 80x24 is not lost.  The
# dialog is not drawn then; the control job must still be collected by the main loop
# (its descriptor is in the poll set), so the change is marked once, as ioscope's,
# and the next samples' diff does not log its echo as an outside ("observed") change.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip control_small_terminal "needs root for loop devices"; exit 0; }
command -v tmux >/dev/null || { skip control_small_terminal "tmux not installed"; exit 0; }

make_loop 64 >"$TMP/loop" || { fail control_small_setup "no loop device"; exit 0; }
L=$(cat "$TMP/loop")
Q=/sys/block/$L/queue
echo mq-deadline >"$Q/scheduler"
LOG=$TMP/session.log

S=ioscope-small-$$
at_exit "tmux kill-session -t $S"
tmux new-session -d -s "$S" -x 120 -y 40 \
	"$IOSCOPE -i 0.3 --record $LOG $L 2>$TMP/stderr; echo EXIT=\$? >$TMP/exit; sleep 30"
screen() { tmux capture-pane -p -t "$S"; }   # console_lib.sh's wait_for reads it
keys() { tmux send-keys -t "$S" "$@"; nap 0.3; }

wait_for "$L" 15 || { fail small_console_started "$(screen | head -5)"; exit 0; }
keys S
wait_for "Scheduler of $L" || { fail small_picker_opens "$(screen)"; exit 0; }
names=($(tr -d '[]' <"$Q/scheduler"))
for i in "${!names[@]}"; do [ "${names[$i]}" = mq-deadline ] && ci=$i; [ "${names[$i]}" = none ] && ti=$i; done
# the terminal shrinks with the picker open; Enter starts the change there
tmux resize-window -t "$S" -x 70 -y 20
wait_for "terminal too small" 5 || fail small_terminal_shown "$(screen)"
for ((i = ci; i > ti; i--)); do keys Up; done
for ((i = ci; i < ti; i++)); do keys Down; done
keys Enter
# several samples pass while the dialog cannot be drawn
for ((i = 0; i < 50; i++)); do grep -q '\[none\]' "$Q/scheduler" && break; sleep 0.1; done
check small_change_applied grep -q '\[none\]' "$Q/scheduler"
sleep 2
tmux resize-window -t "$S" -x 120 -y 40
check small_result_shown wait_for "scheduler: mq-deadline -> none: ok"
keys Escape
keys q
for ((i = 0; i < 100; i++)); do [ -s "$TMP/exit" ] && break; sleep 0.1; done
check small_console_exit_0 grep -qx 'EXIT=0' "$TMP/exit"
if grep -qE 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$TMP/stderr"; then
	fail small_console_sanitizer_clean "$(head -20 "$TMP/stderr")"
else
	ok small_console_sanitizer_clean
fi
python3 - "$LOG" "$L" <<'PY'
import json, sys
log, dev = sys.argv[1], sys.argv[2]
evs = [r for r in map(json.loads, open(log)) if r.get("type") == "event"
       and r.get("object") == dev and r.get("key") == "scheduler"]
by = [e.get("by") for e in evs]
ok = by == ["ioscope"]
print(("ok" if ok else "not ok") + f" small_change_logged_once_as_ioscope: {by}")
PY
