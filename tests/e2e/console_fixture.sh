# The fixture console of test_console_themes, _config and _colours: the trees they run on
# and how they leave a run.  Source after console_lib.sh.
ROOT="$IOSCOPE_TOP/tests/fixtures/root-live"      # three samples with two busy loop devices
ONE="$ROOT/1"                                     # one tree, re-read every interval

# q, the run's exit status and sanitizer output checked, the pane cleared for the next
quit() {
	console_send q
	ended_check "console run $STATUS_FILE_N"
	console_send -l clear; console_send Enter; wait_gone "^EXIT=" 5
}
# lines with a colour escape (not the 39/49 "default colour" ones tmux emits anyway)
colours() { tm capture-pane -p -e -t t | grep -cP '\e\[(?:[0-9]*;)*(?:3[0-8]|9[0-7]|4[0-8]|10[0-7])(?:;|m)'; }
