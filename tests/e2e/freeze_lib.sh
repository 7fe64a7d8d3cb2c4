# Helpers of the tests that plant a cause by freezing the filesystem a loop device's
# backing file is on (test_why_journal.sh, test_why_memcg.sh).  Source after lib.sh.

# no_sanitizer NAME FILE: the run's stderr holds no sanitizer report
no_sanitizer() { clean_stderr "$2" || fail "$1: sanitizer" "$(head -20 "$2")"; }

# nested_loops INNER_MB [FS [OUTER_MB]]: FS (ext4) on a loop device ($inner, mounted on
# $mi) whose backing file is on ext4 on another loop device (OUTER_MB, 256 MB; mounted on
# $mo, the one to freeze); the test ends when either cannot be made.
nested_loops() {
	local outer fs=${2:-ext4}
	outer=$(make_loop "${3:-256}") && mo=$(make_fs "$outer" ext4) || { fail "outer loop" "cannot make it"; exit 0; }
	inner=$(make_loop_in "$mo" "$1") || { fail "inner loop" "cannot make it"; exit 0; }
	mi=$(make_fs "$inner" "$fs") || { fail "inner $fs" "cannot make it"; exit 0; }
}

# freeze_and_sample NAME INTERVAL COUNT BEFORE AFTER: $inner recorded with --tasks in batch
# JSON (COUNT samples INTERVAL s apart) into $TMP/NAME.json, NAME.log and NAME.err; $mo
# frozen BEFORE s after it starts ($frozen: when), then AFTER s later three 0.5 s batch
# text samples of $inner into $TMP/NAME.txt ($text_rc: their exit status), and beside them
# $FREEZE_ALSO in the background when it is set (a command of another task); the recording
# waited for ($rc) and $mo thawed.  A sanitizer report of either run fails the test.
# Called after the writers are started: the cleanups run last first, so a test ended
# while $mo is frozen thaws it before it kills them (a writer in D would not die).
freeze_and_sample() {
	local name=$1 run
	"$IOSCOPE" --batch --tasks -f json -i "$2" -c "$3" --record "$TMP/$name.log" "$inner" \
		>"$TMP/$name.json" 2>"$TMP/$name.err" &
	run=$!
	at_exit "fsfreeze -u '$mo'"
	sleep "$4"
	frozen=$(date +%s.%N)
	fsfreeze -f "$mo" || fail "freeze" "fsfreeze -f $mo"
	sleep "$5"
	[ -n "${FREEZE_ALSO:-}" ] && bg bash -c "$FREEZE_ALSO"
	"$IOSCOPE" --batch --tasks -i 0.5 -c 3 "$inner" >"$TMP/$name.txt" 2>"$TMP/$name-text.err"
	text_rc=$?
	wait $run; rc=$?
	fsfreeze -u "$mo"
	no_sanitizer "$name" "$TMP/$name.err"
	no_sanitizer "$name text" "$TMP/$name-text.err"
}
