#!/bin/bash
# The console in a real terminal (tmux) on a real loop device with a steady writer:
# the device row with non-zero writes and a non-empty graph, an external scheduler
# switch as a labelled mark, resizes (down to "too small" and back), a clean exit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console on a loop device" "needs root for a loop device"; exit 0; }
command -v tmux >/dev/null || { skip "console on a loop device" "tmux not installed"; exit 0; }

dev=$(make_loop 256) || { fail "loop device"; exit 1; }
# two elevators the kernel offers (mq-deadline and kyber, bfq where it is built), never by name
needs_elevators "console on a loop device" "$dev" 2
read -r E1 E2 < <(pick_elevators "$dev" 2)
echo "$E1" >"/sys/block/$dev/queue/scheduler"
busy_writer "$dev" 120

console_shell 100 40
console_run "$dev"
screen_check "header" "^ioscope .* every 1s"
# the frame fills the 100x40 pane: the key bar is on its 40th line
screen | sed -n 40p | grep -q "Quit" && ok "100x40: key bar on line 40" \
	|| { fail "100x40: key bar on line 40"; show_screen; }
screen_check "table header" "^Device +r/s +rMB/s +r_await +w/s +wMB/s +w_await +aqu-sz +%util +infl +sched"

# The loop device's row: w/s and wMB/s above zero once a whole interval has passed.
row_writes() {
	screen | awk -v d="$dev" '$1 == d && $5 + 0 > 0 && $6 + 0 > 0 { found = 1 } END { exit !found }'
}
for i in $(seq 50); do row_writes && break; sleep 0.2; done
if row_writes; then ok "device row shows writes"; else fail "device row shows writes"; show_screen; fi
screen | grep -E "^$dev " | grep -qE " $E1 *$" && ok "scheduler column" || fail "scheduler column"

# The graph: braille dots under the write strip's label.
graph_has_dots() {
	screen | sed -n '/ write /,$p' | LC_ALL=C.UTF-8 grep -qP '[\x{2801}-\x{28FF}]'
}
for i in $(seq 30); do graph_has_dots && break; sleep 0.2; done
if graph_has_dots; then ok "graph is not empty"; else fail "graph is not empty"; show_screen; fi
screen_check "graph strip label names the device" "^$dev write [0-9.]+[kMG]?  peak"
screen_check "Y axis has units" "^ +[0-9.]+[kMG]│"

# A scheduler switch from outside: a mark on the graphs and in the marks panel.
echo "$E2" >"/sys/block/$dev/queue/scheduler"
screen_check "graph mark label" "sched $E1→$E2"
screen_check "marks panel names device, old and new" "^ \[[0-9]+\] [0-9:]{8}  $dev  scheduler  $E1 → $E2( |$)"
screen_check "scheduler column follows" "^$dev .* $E2 *$"

# Resizes re-lay out: wide gets the detail pane beside the table.
console_resize 160 45
line=$(scheduler_line "$dev" "$E2")
screen_check "wide: detail pane with the kernel's scheduler line" "scheduler $line( |$)"
screen_check "wide: table header still there" "^Device +r/s"
screen | sed -n 1p | grep -q "^ioscope " && ok "wide: header on the first line" || fail "wide: header on the first line"
screen | tail -1 | grep -q "Quit" && ok "wide: key bar on the last line" || fail "wide: key bar on the last line"
console_resize 80 24
screen_check "80x24: table header" "^Device +r/s"
wait_gone "scheduler $line" 3
# tmux keeps cells beyond a shrunk width in its grid: look at the 80 columns shown
shown() { screen | cut -c1-80; }
shown | sed -n 1p | grep -q "^ioscope .* every 1s" && ok "80x24: header first" || fail "80x24: header first"
shown | sed -n 2p | grep -q "psi [0-9.-]*/[0-9.-]*" && ok "80x24: compact vmstat strip fits" \
	|| { fail "80x24: compact vmstat strip fits"; show_screen; }
shown | sed -n 3p | grep -q "^Device .* sched$" && ok "80x24: table header third, all columns" \
	|| { fail "80x24: table header third, all columns"; show_screen; }
shown | grep -q "^─ MB/s " && ok "80x24: graphs" || fail "80x24: graphs"
shown | grep -q "^─ Marks " && ok "80x24: marks panel" || fail "80x24: marks panel"
shown | tail -1 | grep -q "Quit" && ok "80x24: key bar on the last line" || fail "80x24: key bar on the last line"
console_resize 70 20
screen_check "too small" "terminal too small: 70x20, ioscope needs 80x24"
if screen | grep -q "^Device" || [ -z "$(console_pid)" ]; then fail "too small: no table behind the message"; else
	ok "too small: no table behind the message"; fi
console_resize 100 30
screen_check "back from too small" "^Device +r/s"

# q leaves a clean shell: the console is gone, the terminal in canonical mode with echo.
console_send q
screen_check "q exits 0" "^EXIT=0$" 5
screen | grep -q "^Device" && fail "alternate screen left" || ok "alternate screen left"
if shell_is_clean; then ok "terminal restored after q"; else fail "terminal restored after q"; show_screen; fi
stderr_clean && ok "no sanitizer reports" || { fail "no sanitizer reports"; sed 's/^/# /' "$CONSOLE_STDERR" | head -40; }

# -c N ends the console by itself after N intervals, like top -n N
console_send -l clear; console_send Enter
wait_gone '^EXIT=' 5
console_run -c 3 -i 0.2 "$dev"
screen_check "-c 3: ends by itself, exit 0" "^EXIT=0$" 10
stderr_clean && ok "-c: no sanitizer reports" || { fail "-c: no sanitizer reports"; sed 's/^/# /' "$CONSOLE_STDERR" | head -40; }
