#!/bin/bash
# One console session under valgrind (the optimised binary, on the live kernel):
# keys that open and close dialogs, a mark, scrolling, freezing, themes; then q.
# No invalid access, no definite leak, exit 0.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v valgrind >/dev/null || { skip "console under valgrind" "valgrind not installed"; exit 0; }
command -v tmux >/dev/null || { skip "console under valgrind" "tmux not installed"; exit 0; }
[ -x "$IOSCOPE_OPT" ] || { skip "console under valgrind" "no $IOSCOPE_OPT (make all)"; exit 0; }

args="-i 0.5"
if is_root; then
	dev=$(make_loop 128) && busy_writer "$dev" 120
else
	args="$args --root $IOSCOPE_TOP/tests/fixtures/root-live/1"
fi
console_shell 120 40
CONSOLE_CMD="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
--log-file=$TMP/vg.log $IOSCOPE_OPT" console_run $args
screen_check "up under valgrind" "^Device +r/s" 60
sleep 2
for key in Tab Tab '?' Escape F2 Down Space Escape Left l Space Space d d t e e p p BTab; do
	console_send "$key"
	sleep 0.3
done
console_send m; nap 0.3; console_send -l "valgrind mark"; console_send Enter
screen_check "mark under valgrind" "mark  valgrind mark" 10
sleep 2
console_send q
screen_check "exit status 0 under valgrind" "^EXIT=0$" 30
if grep -qE "Invalid|uninitialised|definitely lost" "$TMP/vg.log"; then
	fail "valgrind: clean" "$(head -60 "$TMP/vg.log")"
else
	ok "valgrind: no invalid access, no definite leak"
fi
if shell_is_clean; then ok "terminal restored"; else fail "terminal restored"; show_screen; fi
