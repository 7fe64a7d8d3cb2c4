#!/bin/bash
# The console with --trace but without the rights (issue 11): it says what is needed
# (CAP_BPF, CAP_PERFMON) and everything else keeps running.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console --trace refused" "needs root to run a copy as nobody"; exit 0; }
command -v setpriv >/dev/null || { skip "console --trace refused" "no setpriv"; exit 0; }
chmod 755 "$TMP"
cp "$IOSCOPE" "$TMP/ioscope" && chmod 755 "$TMP/ioscope"
CONSOLE_CMD="setpriv --reuid=nobody --regid=nogroup --clear-groups $TMP/ioscope"
console_shell 120 36
console_run --trace -i 0.2
screen_check "not root: the console says tracing needs CAP_BPF and CAP_PERFMON" "CAP_BPF and CAP_PERFMON" 10
nap 0.6
console_up && screen | grep -q '^Device ' && ok "not root: the console runs on without tracing" ||
	{ fail "not root: the console runs on without tracing"; show_screen; }
console_send q
ended_check "console --trace as nobody"
exit 0
