#!/bin/bash
# A journal stuck in a commit, without task data (issue 24: no --tasks, the why pane
# closed): jbd2's own thread, watched by its /proc/PID/stat alone, says how long the
# commit has been running.  The planted cause as in test_why_journal.sh: ext4 on a loop
# device whose backing file is on a second ext4 that we freeze, a metadata writer that
# asks for a commit all the time and a direct-I/O writer for a throughput to fall from.
# Checked, without --tasks: the batch JSON's commit_running_s grows with the freeze (none
# before), the dip on the inner device names the commit first, batch text says it, and the
# replay gives it again.  The old code read the commit's time from the blocked tasks only:
# without --tasks, commit_running_s stayed null and no dip named the journal.
. "$(dirname "$0")/lib.sh"
is_root || { skip why_journal_notasks "needs root (loop devices, mounts, fsfreeze)"; exit 0; }
needs why_journal_notasks fsfreeze mkfs.ext4 python3

no_sanitizer() { clean_stderr "$2" || fail "$1: sanitizer" "$(head -20 "$2")"; }

outer=$(make_loop 256) && mo=$(make_fs "$outer" ext4) || { fail "outer loop" "cannot make it"; exit 0; }
inner=$(make_loop_in "$mo" 160) || { fail "inner loop" "cannot make it"; exit 0; }
mi=$(make_fs "$inner" ext4) || { fail "inner ext4" "cannot make it"; exit 0; }

bg timeout 40 python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
mode = 0o600
while True:
    mode ^= 0o040
    os.fchmod(fd, mode)
    os.fsync(fd)' "$mi/f"
bg timeout 40 bash -c "while :; do dd if=/dev/zero of='$mi/d' bs=256k count=64 oflag=direct status=none; done"
at_exit "fsfreeze -u '$mo'"
"$IOSCOPE" --batch -f json -i 1 -c 60 --record "$TMP/journal.log" "$inner" \
	>"$TMP/journal.json" 2>"$TMP/journal.err" &
run=$!
# lines N [SECONDS]: until the batch JSON has N lines
lines() {
	local i
	for ((i = 0; i < ${2:-5} * 20; i++)); do
		[ "$(wc -l <"$TMP/journal.json")" -ge "$1" ] && return 0
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

out=$(python3 - "$TMP/journal.json" "$inner" "$mi" "$frozen" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev, mnt, frozen = sys.argv[2], sys.argv[3], float(sys.argv[4])
running = [d["journals"].get(mnt, {}).get("commit_running_s") for d in lines]
before = [r for d, r in zip(lines, running) if d["time"] < frozen]
last = running[-1]
dips = [e for d in lines for e in d["events"] if e["kind"] == "dip" and e["object"] == dev]
good_fig = last is not None and last >= 1.5 and all(r is None or r < 1 for r in before)
first = dips[0]["reasons"][0] if dips else ""
good_dip = len(dips) == 1 and re.fullmatch(r"journal commit running for [0-9.]+ s on %s \(jbd2\)" % dev, first)
print("ok" if good_fig and good_dip else "commit_running_s %r, dips %r" % (running, dips))
PY
)
[ "$rc" = 0 ] && [ "$out" = ok ] \
	&& ok "journal without tasks: commit_running_s grows with the stuck commit; the dip names it first" \
	|| fail "journal without tasks: commit_running_s grows with the stuck commit; the dip names it first" "rc=$rc $out"

grep -qE "^journal $mi ext4 $inner:.* commit running [0-9.]+ s" "$TMP/journal.txt" && [ "$text_rc" = 0 ] \
	&& ok "journal without tasks: batch text says how long the commit has been running" \
	|| fail "journal without tasks: batch text says how long the commit has been running" \
		"rc=$text_rc $(grep -E '^journal' "$TMP/journal.txt" | tail -3)"

# as replay_gives_json, without --tasks (which adds an empty memory_cgroups)
canon='import json, sys
for l in open(sys.argv[1]):
    print(json.dumps(json.loads(l), ensure_ascii=False, sort_keys=True))'
"$IOSCOPE" --replay "$TMP/journal.log" --batch -f json >"$TMP/journal.replay.json" \
	2>"$TMP/journal.replay.err" && clean_stderr "$TMP/journal.replay.err" \
	&& python3 -c "$canon" "$TMP/journal.json" >"$TMP/journal.cmp" \
	&& python3 -c "$canon" "$TMP/journal.replay.json" >"$TMP/journal.replay.cmp" \
	&& cmp -s "$TMP/journal.cmp" "$TMP/journal.replay.cmp" \
	&& grep -q "journal commit running" "$TMP/journal.replay.cmp" \
	&& ok "journal without tasks: the replay gives the commit's time and the dip's reasons byte for byte" \
	|| fail "journal without tasks: the replay gives the commit's time and the dip's reasons byte for byte" \
		"$(diff "$TMP/journal.cmp" "$TMP/journal.replay.cmp" | head -c 1500; head -5 "$TMP/journal.replay.err")"
