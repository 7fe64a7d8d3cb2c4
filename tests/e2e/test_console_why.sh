#!/bin/bash
# The console's why pane (W) at 80x24 on a real loop device with a steady dd: the pane takes
# the graphs' place, lists the processes by I/O (which of them leads depends on what else
# this shared machine writes: test_tasks.sh checks dd's place in the list), says what is missing
# (delay accounting), and W hides it again (the graphs come back); q exits cleanly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "why pane" "needs root for a loop device"; exit 0; }
command -v tmux >/dev/null || { skip "why pane" "tmux not installed"; exit 0; }

shm=$(mktemp -d /dev/shm/ioscope-test.XXXXXX)
at_exit "rm -rf '$shm'"
truncate -s 1G "$shm/img"
ddev=$(losetup --find --show "$shm/img") && at_exit "losetup -d '$ddev'"
dev=$(basename "$ddev")
bg dd if=/dev/zero of="$ddev" bs=1M count=1024 oflag=direct status=none
ddpid=$BG_PID

console_shell 80 24
console_run "$dev"
screen_check "console up" "^ioscope "
console_send W
screen_check "80x24: the pane lists processes by I/O" "^ +[0-9]+ [a-z0-9]+ +[^ ].* +[0-9.]+[kMG]? +[0-9.]+[kMG]? +"
screen_check "why pane title" "Why: blocked tasks, processes by I/O"
screen_check "blocked line" "blocked: [0-9]+ tasks? in D state"
if [ "$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)" = 0 ]; then
	screen_check "delay accounting note" "delay accounting is off"
fi
screen | sed -n 24p | grep -q "Quit" && ok "80x24: key bar still on line 24" \
	|| { fail "80x24: key bar still on line 24"; show_screen; }
console_send W
if wait_gone "Why: blocked tasks" 5; then ok "W hides the pane again"
else fail "W hides the pane again"; show_screen; fi
console_send q
if wait_screen "EXIT=[0-9]+" 10 && screen | grep -q "EXIT=0"; then ok "q exits 0"
else fail "q exits 0"; show_screen; fi
grep -qE 'Sanitizer|runtime error' "$CONSOLE_STDERR" && fail "no sanitizer report" "$(head "$CONSOLE_STDERR")" \
	|| ok "no sanitizer report"
