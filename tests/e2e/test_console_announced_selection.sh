#!/bin/bash
# Issue 24 item 4: a console watching one disk shows, in its graphs and marks panel,
# the changes of that disk whoever made them, and not those another `ioscope set`
# makes to other disks and announces (observed ones were left out already; announced
# ones were drawn).  Two loop devices: the console watches A; B's switch is announced
# first, A's after it, then a mark that says everything before it has arrived.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "announced changes follow the selection" "needs root for loop devices"; exit 0; }
command -v tmux >/dev/null || { skip "announced changes follow the selection" "tmux not installed"; exit 0; }

A=$(make_loop 16) || { fail "loop A"; exit 1; }
B=$(make_loop 16) || { fail "loop B"; exit 1; }
echo mq-deadline >"/sys/block/$A/queue/scheduler"
echo mq-deadline >"/sys/block/$B/queue/scheduler"

# set DEV: `ioscope set DEV scheduler=kyber` from a shell (announced to the console)
set_kyber() {
	local out
	out=$("$IOSCOPE" set "$1" scheduler=kyber 2>&1) && clean_stderr <(echo "$out") \
		&& ok "set $1" || fail "set $1" "$out"
}

console_shell 120 40
console_run -i 0.2 "$A"
screen_check "console up on $A" "^ioscope "
wait_socket "$(console_pid)" || fail "console listens" "$(ls -la "$XDG_RUNTIME_DIR/ioscope")"
set_kyber "$B"
set_kyber "$A"
out=$("$IOSCOPE" mark "all sent" 2>&1) || fail "ioscope mark" "$out"
screen_check "the mark after both changes is listed" "^ \[[0-9]+\] [0-9:]{8}  mark  all sent"
screen_check "$A's announced switch is listed" "$A.*kyber"
if screen | grep -q "$B"; then
	fail "$B's announced switch is neither listed nor drawn"; show_screen
else
	console_up && ok "$B's announced switch is neither listed nor drawn" \
		|| { fail "$B's announced switch is neither listed nor drawn: console gone"; show_screen; }
fi
console_send q
wait_screen '^EXIT=0' 10 && ok "console exit 0" || { fail "console exit 0"; show_screen; }
clean_stderr "$CONSOLE_STDERR" && ok "console stderr clean" || fail "console stderr clean" "$(cat "$CONSOLE_STDERR")"
