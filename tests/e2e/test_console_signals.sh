#!/bin/bash
# The console gives the terminal back on every way out (q is in test_console_live):
# SIGTERM, SIGHUP, SIGINT (^C), SIGQUIT; ^Z suspends and fg resumes; a key is
# answered at once even with a 5 s interval; a vanished terminal ends it.  Runs on a fixture tree, so no
# root is needed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console signals" "tmux not installed"; exit 0; }
ROOT="$IOSCOPE_TOP/tests/fixtures/root-live/1"

console_shell 100 30

# kill -SIG from outside: terminal restored, exit status 0, no sanitizer report
for sig in TERM HUP QUIT; do
	console_run --root "$ROOT"
	wait_screen "^Device +r/s" 10 || { fail "$sig: console up"; show_screen; continue; }
	pid=$(console_pid)
	kill -"$sig" "$pid"
	screen_check "SIG$sig: exits 0" "^EXIT=0$" 5
	if shell_is_clean; then ok "SIG$sig: terminal restored"; else fail "SIG$sig: terminal restored"; show_screen; fi
	stderr_clean && ok "SIG$sig: no sanitizer report" || { fail "SIG$sig: no sanitizer report"; head -30 "$CONSOLE_STDERR"; }
	console_send -l clear; console_send Enter
done

# ^C from the keyboard is SIGINT from the terminal driver
console_run --root "$ROOT"
wait_screen "^Device +r/s" 10
console_send C-c
ended_check "^C"
if shell_is_clean; then ok "^C: terminal restored"; else fail "^C: terminal restored"; show_screen; fi
console_send -l clear; console_send Enter

# ^Z stops it with the terminal given back; fg brings the console back, q quits
console_run_job --root "$ROOT"
wait_screen "^Device +r/s" 10
console_send C-z
screen_check "^Z: job stopped" "Stopped" 5
if shell_is_clean; then ok "^Z: terminal restored while stopped"; else fail "^Z: terminal restored while stopped"; show_screen; fi
console_send -l fg; console_send Enter
screen_check "fg: console back" "^Device +r/s" 5
screen_check "fg: header back" "^ioscope fixture" 5
console_send q
wait_gone "^Device +r/s" 5
console_status
ended_check "after fg, q"
console_send -l clear; console_send Enter

# Keys are answered at once, not at the next sample: a 5 s interval, help within 1 s
console_run --root "$ROOT" -i 5
wait_screen "^Device +r/s" 10
nap 0.3
start=$(date +%s%N)
console_send '?'
if wait_screen "Help - Esc, q or \? closes" 5; then
	ms=$((($(date +%s%N) - start) / 1000000))
	if [ "$ms" -lt 1000 ]; then ok "help shown in ${ms} ms with a 5 s interval"; else fail "help shown in ${ms} ms with a 5 s interval"; fi
else
	fail "help shown"; show_screen
fi
# a line wider than the box goes on under its text, indented, not cut off
for _ in 1 2 3 4 5 6 7 8 9 10; do console_send Space; done
screen_check "help: the mouse's lines in view" "click +a device row selects it" 3
if screen | grep -A1 -E "click +a device row selects it" | tail -1 | grep -qE "(│|\|) {18}[a-z]" &&
	! screen | grep -E "click +a device row selects it" | grep -qE "(…|~) *(│|\|)"; then
	ok "help: a line wider than the box goes on under its text"; else
	fail "help: a line wider than the box goes on under its text"; show_screen; fi
console_send Escape
gone_check "Esc closes help" "Help - Esc"
console_send q
ended_check "q"
console_send -l clear; console_send Enter

# The terminal goes away under it (the pane is killed): it must exit, not spin.
console_run --root "$ROOT"
wait_screen "^Device +r/s" 10
pid=$(console_pid)
tm kill-pane -t t
gone=false
for i in $(seq 30); do kill -0 "$pid" 2>/dev/null || { gone=true; break; }; sleep 0.1; done
if $gone; then ok "terminal gone: exits"; else fail "terminal gone: exits" "$(ps -o stat,time,cmd -p "$pid")"; kill -9 "$pid"; fi
stderr_clean && ok "terminal gone: no sanitizer report" || { fail "terminal gone: no sanitizer report"; head -30 "$CONSOLE_STDERR"; }
