#!/bin/bash
# The colour depth of the terminal and bad command lines, on a fixture tree (no root
# needed).  Themes: test_console_themes.sh; NO_COLOR and the config file:
# test_console_config.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console colours" "tmux not installed"; exit 0; }
. "$(dirname "$0")/console_fixture.sh"
# Colour depth follows the terminal: the light theme's #202020 text is exact on a
# direct-colour terminal, the nearest of 256 (234) on tmux-256color, an ANSI colour on
# an 8-colour one.
mkdir -p "$TMP/terminfo"
cat >"$TMP/direct.src" <<'TI'
ioscope-direct|tmux with direct colour (tests),
	use=tmux-256color, colors#0x1000000, pairs#0x10000, RGB,
	setaf=\E[%?%p1%{8}%<%t3%p1%d%e38:2::%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m,
	setab=\E[%?%p1%{8}%<%t4%p1%d%e48:2::%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m,
TI
escapes() { tm capture-pane -p -e -t t | grep -o $'\e\\[[0-9;:]*m'; }
if tic -x -o "$TMP/terminfo" "$TMP/direct.src" 2>/dev/null; then
	CONSOLE_TERM=ioscope-direct CONSOLE_ENV="TERMINFO=$TMP/terminfo" console_shell 120 36
	console_run --root "$ONE" --theme light
	wait_screen "^Device +r/s" 10; nap 0.3
	escapes | grep -q '38;2;32;32;32' && ok "truecolor: exact #202020" || fail "truecolor: exact #202020" "$(escapes | sort -u | head)"
	quit
	tm kill-server
else
	skip "truecolor" "tic cannot build a direct-colour terminfo entry"
fi
console_shell 120 36
console_run --root "$ONE" --theme light
wait_screen "^Device +r/s" 10; nap 0.3
escapes | grep -q '38;5;234' && ok "256 colours: #202020 as 234" || fail "256 colours: #202020 as 234" "$(escapes | sort -u | head)"
escapes | grep -q '38;2;' && fail "256 colours: no direct colour" || ok "256 colours: no direct colour"
quit
tm kill-server
CONSOLE_TERM=xterm console_shell 120 36
console_run --root "$ONE" --theme light
wait_screen "^Device +r/s" 10; nap 0.3
escapes | grep -qE '38;[25];' && fail "8 colours: ANSI colours only" "$(escapes | sort -u | head)" || ok "8 colours: ANSI colours only"
escapes | grep -qE '^.\[3[0-7]m' && ok "8 colours: some colour" || fail "8 colours: some colour"
quit
tm kill-server

# Mistakes on the command line: plain messages, exit 2, nothing left on the terminal.
console_shell 120 36
console_run --root "$ONE" nosuchdisk
screen_check "unknown device: exit 2" "^EXIT=2$" 5
grep -q "unknown device 'nosuchdisk'; devices: .*loop4" "$CONSOLE_STDERR" && ok "unknown device: lists the devices" \
	|| fail "unknown device: lists the devices" "$(cat "$CONSOLE_STDERR")"
console_send -l clear; console_send Enter
console_run --root "$ONE" /nonexistent/ioscope-path
screen_check "a path that does not exist: exit 2" "^EXIT=2$" 5
grep -q "/nonexistent/ioscope-path: No such file or directory" "$CONSOLE_STDERR" \
	&& ok "a path that does not exist: says so" \
	|| fail "a path that does not exist: says so" "$(cat "$CONSOLE_STDERR")"
"$IOSCOPE" --root "$ONE" </dev/null >"$TMP/out" 2>"$TMP/err"; rc=$?
check "no terminal: exit 2" test "$rc" -eq 2
grep -q "needs a terminal" "$TMP/err" && ok "no terminal: says so" || fail "no terminal: says so" "$(cat "$TMP/err")"
