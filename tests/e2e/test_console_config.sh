#!/bin/bash
# NO_COLOR, the config file and a non-UTF-8 locale, on a fixture tree (no root needed).
# Themes: test_console_themes.sh; colour depth: test_console_colours.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console config" "tmux not installed"; exit 0; }
. "$(dirname "$0")/console_fixture.sh"
mkdir -p "$TMP/xdg/ioscope"

# NO_COLOR: no colour at all, attributes only
CONSOLE_ENV="NO_COLOR=1" console_shell 120 36
console_run --root "$ONE"
wait_screen "^Device +r/s" 10
nap 0.3
check "NO_COLOR: no colour escapes" test "$(colours)" -eq 0
tm capture-pane -p -e -t t | grep -q $'\e\\[7m' && ok "NO_COLOR: selection in reverse video" \
	|| fail "NO_COLOR: selection in reverse video"
quit
tm kill-server

# The config file: columns, graph metric, an unknown key reported with file and line.
printf 'columns = w/s, wkB/s, %%util, scheduler\ngraph = IOPS\nbogus = 1\n' >"$TMP/xdg/ioscope/config"
console_shell 120 36
console_run --root "$ROOT" -i 0.3
# the warning first: it stays 10 s, which the checks before it could use up on a busy machine
screen_check "config: unknown key named with file and line" "ioscope/config:3: unknown key 'bogus' ignored"
screen_check "config: columns" "^Device +w/s +wkB/s +%util +sched *$"
screen_check "config: graph metric" "^─ IOPS "
quit
printf 'interval = fast\ntheme = light\n' >"$TMP/xdg/ioscope/config"
console_run --root "$ONE"
screen_check "config: a bad value named with file and line" "ioscope/config:1: interval: 'fast'"
screen_check "config: the other lines still apply (-i from the file absent: 1s)" "every 1s"
quit
rm "$TMP/xdg/ioscope/config"
tm kill-server

# Not UTF-8: ASCII graphs and arrows.
CONSOLE_LANG=C console_shell 120 36
console_run --root "$ROOT" -i 0.3
screen_check "C locale: ASCII graph" "^ +[0-9.]+[kMG]?\|.*#" 5
if screen | LC_ALL=C.UTF-8 grep -qP '[\x{2801}-\x{28FF}]'; then fail "C locale: no braille"; else ok "C locale: no braille"; fi
quit
tm kill-server

