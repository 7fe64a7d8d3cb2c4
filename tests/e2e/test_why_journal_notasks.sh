#!/bin/bash
# A journal stuck in a commit, without task data (issue 24: no --tasks, the why pane
# closed): jbd2's own thread, watched by its /proc/PID/stat alone, says how long the
# commit has been running.  The planted cause: why_journal_lib.sh.
# Checked, without --tasks: the batch JSON's commit_running_s grows with the freeze (none
# before), the dip on the inner device names the commit first, batch text says it, and the
# replay gives it again.  The old code read the commit's time from the blocked tasks only:
# without --tasks, commit_running_s stayed null and no dip named the journal.
# run.sh: waits (on the kernel, most of its time: beside the other jobs)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why_journal_lib.sh"
is_root || { skip why_journal_notasks "needs root (loop devices, mounts, fsfreeze)"; exit 0; }
needs why_journal_notasks fsfreeze mkfs.ext4 python3

# spoiled: a dip of the inner device whose first low sample came before the freeze (made
# within an interval of it: a loaded host slowed the direct writer, "dip 23→8.9 MB/s: 3
# requests in flight", the commit not stuck yet), which the freeze's drop then continues as
# one dip: rightly not the commit's, so the run is made again once
spoiled() {
	python3 - "$TMP/journal.json" "$inner" "$frozen" <<'PY'
import json, sys
dev, frozen = sys.argv[2], float(sys.argv[3])
early = [l["time"] for l in map(json.loads, open(sys.argv[1]))
         for e in l["events"] if e["kind"] == "dip" and e["object"] == dev and l["time"] < frozen + 1.0]
sys.exit(0 if early else 1)
PY
}

attempt() {
	journal_stuck_setup 40
	"$IOSCOPE" --batch -f json -i 1 -c 60 --record "$TMP/journal.log" "$inner" \
		>"$TMP/journal.json" 2>"$TMP/journal.err" &
	run=$!
	# lines N [SECONDS]: until the batch JSON has N lines
	lines() {
		local i
		for ((i = 0; i < ${2:-5} * 20; i++)); do
			[ "$( { wc -l <"$TMP/journal.json"; } 2>/dev/null || echo 0)" -ge "$1" ] && return 0
			sleep 0.05
		done
		return 1
	}
	# frozen a fifth into an interval: the sample after it is low, the next one sees the
	# commit stuck for a whole interval when it makes the dip (its second low sample).  The
	# freeze syncs the outer filesystem first, seconds on a loaded machine: the run goes on
	# until three samples after it.
	lines 4
	sleep 0.2
	frozen=$(date +%s.%N)
	fsfreeze -f "$mo" || fail "freeze" "fsfreeze -f $mo"
	after=$(($(wc -l <"$TMP/journal.json") + 3))
	sleep 1
	"$IOSCOPE" --batch -i 0.5 -c 3 "$inner" >"$TMP/journal.txt" 2>"$TMP/journal-text.err"
	text_rc=$?
	lines "$after" 10
	kill -TERM $run   # ends the run cleanly: exit status 0
	wait $run; rc=$?
	fsfreeze -u "$mo"
	no_sanitizer "journal" "$TMP/journal.err"
	no_sanitizer "journal text" "$TMP/journal-text.err"
}

for try in 1 2; do
	attempt
	spoiled || break
	echo "# run $try spoiled: a dip before the freeze; made again"
	[ "$try" = 2 ] || rm -f "$TMP/journal.json" "$TMP/journal.log" "$TMP/journal.txt"
done
journal_stuck_checks "journal without tasks" "$rc" 1.5

REPLAY_TASKS= replay_gives_json journal && grep -q "journal commit running" "$TMP/journal.replay.cmp" \
	&& ok "journal without tasks: the replay gives the commit's time and the dip's reasons byte for byte" \
	|| fail "journal without tasks: the replay gives the commit's time and the dip's reasons byte for byte" \
		"$(json_lines_diff "$TMP/journal.cmp" "$TMP/journal.replay.cmp"; head -5 "$TMP/journal.replay.err")"
