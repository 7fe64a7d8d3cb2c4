#!/bin/bash
# `ioscope run` in the console (tmux): the command's output goes to a file named on screen
# (never onto the screen), its start and exit are marks, the console stays after the exit
# until q (or --linger), and ioscope exits with the command's status.  The probe has a graph.
. "$(dirname "$0")/lib.sh"
needs "console run" python3
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console run" "needs tmux"; exit 0; }


# Default output file: a new $TMPDIR/ioscope-run-XXXXXX.out, named on screen.
CONSOLE_ENV="TMPDIR=$TMP" console_shell 120 36
console_run run -i 0.2 --record "$TMP/run.log" -- sh -c "'echo OUT-\$((6*7)); echo ERR-\$((7*8)) >&2; sleep 1; exit 4'"
if wait_screen "output .*ioscope-run-[A-Za-z0-9]{6}\.out" 8; then
	ok "the output file is named on screen"
else
	fail "the output file is named on screen" "$(show_screen)"
fi
wait_screen "EXIT 4 \\(" 10 && ok "the exit is shown" || fail "the exit is shown" "$(show_screen)"
nap 0.5
# (the command line is in the start mark: the output is what it computes)
screen | grep -q -e OUT-42 -e ERR-56 && fail "the command's output stays off the screen" "$(show_screen)" \
	|| ok "the command's output stays off the screen"
out=$(ls "$TMP"/ioscope-run-*.out 2>/dev/null | head -1)
[ -n "$out" ] && grep -qx OUT-42 "$out" && grep -qx ERR-56 "$out" \
	&& ok "stdout and stderr are in the file" || fail "stdout and stderr are in the file" "$(ls -la "$TMP")"
console_send q
wait_screen '^EXIT=[0-9]+' 10
screen | grep -q '^EXIT=4' && clean_stderr "$CONSOLE_STDERR" && ok "the console exits with the command's status" \
	|| fail "the console exits with the command's status" "$(show_screen; cat "$CONSOLE_STDERR")"
python3 - "$TMP/run.log" "$out" <<'PY'
import json, sys
log, out = sys.argv[1:]
runs = [r for r in map(json.loads, open(log, errors="surrogateescape")) if r["type"] == "event" and r["kind"] == "run"]
ok = [r["key"] for r in runs] == ["start", "exit"] and ("output=" + out) in runs[0]["result"]
print(("ok " if ok else "not ok ") + "the log has start (naming the output file) and exit" + ("" if ok else f": {runs}"))
PY

# --linger: the console ends by itself after it; --output names the file; the probe's graph.
console_send -l clear
console_send Enter
wait_gone '^EXIT=' 5
console_run run -i 0.2 --linger 1 --output "$TMP/chosen.out" --probe "$TMP" --probe-interval 0.1 -- sh -c "'echo chosen; sleep 0.5'"
wait_screen "output .*chosen\.out" 8 && ok "--output is named on screen" || fail "--output is named on screen" "$(show_screen)"
console_send Tab Tab Tab Tab Tab Tab Tab
wait_screen "probe" 5 && ok "the probe has a graph (Tab)" || fail "the probe has a graph (Tab)" "$(show_screen)"
wait_screen '^EXIT=[0-9]+' 10
screen | grep -q '^EXIT=0' && clean_stderr "$CONSOLE_STDERR" && grep -qx chosen "$TMP/chosen.out" \
	&& ok "--linger ends the console after the exit" || fail "--linger ends the console after the exit" "$(show_screen; cat "$CONSOLE_STDERR")"

# q while the command runs: its background job and a daemon it started (setsid) go with
# it (issue 23).
at_exit "$KILL_MARKED"
console_send -l clear
console_send Enter
wait_gone '^EXIT=' 5
console_run run -i 0.2 -- sh -c "'sleep ${MARK}1 & setsid sleep ${MARK}2 & sleep ${MARK}3'"
wait_marked '' 3
running=$(pgrep -fc "^sleep ${MARK}")
wait_screen "RUN " 8
console_send q
wait_screen '^EXIT=[0-9]+' 10
left=$(marked)
[ "$running" = 3 ] && screen | grep -q '^EXIT=' && [ -z "$left" ] && clean_stderr "$CONSOLE_STDERR" \
	&& ok "q stops the command's background job and its daemon too" \
	|| fail "q stops the command's background job and its daemon too" \
		"running=$running left: ${left:-none} $(show_screen; cat "$CONSOLE_STDERR")"

# A command that cannot start: 127, and its --record file is not left behind (a retry
# would be refused for it).
console_send -l clear
console_send Enter
wait_gone '^EXIT=' 5
console_run run -i 0.2 --record "$TMP/none.log" -- "$TMP/no-such-command"
wait_screen '^EXIT=[0-9]+' 10
screen | grep -q '^EXIT=127' && [ ! -e "$TMP/none.log" ] && clean_stderr "$CONSOLE_STDERR" \
	&& ok "a command that cannot start: 127, no --record file left" \
	|| fail "a command that cannot start: 127, no --record file left" \
		"$(show_screen; ls -l "$TMP/none.log" 2>&1; cat "$CONSOLE_STDERR")"
