#!/bin/bash
# The console's record key (issue 38: the recording is an ordinary sink with a pause flag):
# with --record, R pauses the recording (the header says so, the log gets no sample) and
# R resumes it; without, R asks for a file and records to it until R stops it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "record key" "tmux not installed"; exit 0; }
samples() { local n; n=$(grep -c '^{"type":"sample"' "$1" 2>/dev/null); echo "${n:-0}"; }

console_shell 160 40
console_run -i 0.2 --record "$TMP/a.log"
screen_check "--record: header" "● REC $TMP/a.log" 10
wait_samples "$TMP/a.log" 3
console_send R
screen_check "R pauses --record's recording" "recording to $TMP/a.log paused \(R resumes\)" 5
screen_check "paused: the header says so" "REC paused $TMP/a.log" 3
n=$(samples "$TMP/a.log")
sleep 1   # five intervals: none of them recorded
check "paused: the log gets no sample" test "$(samples "$TMP/a.log")" -eq "$n"
console_send R
screen_check "R resumes it" "recording to $TMP/a.log resumed" 5
screen_check "resumed: ● REC again" "● REC $TMP/a.log" 3
check "resumed: the log gets samples again" wait_samples "$TMP/a.log" $((n + 2))
console_send q
screen_check "--record: exits 0" "^EXIT=0" 5
check "--record: no sanitizer report" stderr_clean

console_send -l "clear"; console_send Enter
console_run -i 0.2
screen_check "console up" "^Device +r/s" 10
console_send R
wait_screen "^record to: " 3
console_send C-u
console_send -l "$TMP/b.log"; console_send Enter
screen_check "R records to the file given" "recording to $TMP/b.log \(R stops\)" 5
check "R: the log gets samples" wait_samples "$TMP/b.log" 3
console_send R
screen_check "R stops it" "recording to $TMP/b.log stopped" 5
n=$(samples "$TMP/b.log")
sleep 1
check "stopped: the log gets no sample" test "$(samples "$TMP/b.log")" -eq "$n"
screen | grep -q "REC" && { fail "stopped: no REC in the header"; show_screen; } \
	|| ok "stopped: no REC in the header"
console_send q
screen_check "R: exits 0" "^EXIT=0" 5
check "R: no sanitizer report" stderr_clean
