#!/bin/bash
# Issue 41 item 5: a mark keeps its number live, in the log, in a replay and in a report,
# whatever a view shows.  The number is the session's count of its events as its log has
# them (struct event's number, "n" in the log): a console watching one loop device counts
# every other device's changes too (beside the other tests' devices its numbers are large
# and jump) and keeps counting while nothing is recorded; the recording started later
# carries the numbers, so the replay of it (console and batch) and its report say the same
# numbers (they said others: they counted the log's events, or the report's marks).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "mark numbers" "needs root for loop devices"; exit 0; }
command -v tmux >/dev/null || { skip "mark numbers" "tmux not installed"; exit 0; }
needs "mark numbers" python3

dev=$(make_loop 64) || { fail "mark numbers: loop device"; exit 1; }
other=$(make_loop 64) || { fail "mark numbers: second loop device"; exit 1; }
needs_elevators "mark numbers" "$dev" 2
needs_elevators "mark numbers" "$other" 2
LOG=$TMP/marks.log
# switch NAME: NAME's scheduler to another one it offers (read every sample, watched or not)
switch() { elevator_other "$1" >"/sys/block/$1/queue/scheduler"; }
# marks FILE: the marks panel's rows of a screen, "NUMBER TIME OBJECT WHAT" a line
marks() {
	python3 - "$1" <<'PY'
import re, sys
for row in open(sys.argv[1]):
    m = re.search(r"(?:^|  | │) \[([0-9]+)\] ([0-9:]{8})  (\S+)  (\S+)", row)
    if m:
        print(*m.groups())
PY
}
# in a console "Marks (N" or "Marks (N of M": N marks listed
marks_listed() { screen | grep -qE "─ Marks \($1[ )]"; }

console_shell 200 50
console_run -i 0.2 "$dev"
wait_screen "^$dev " 15 || { fail "mark numbers: console started" "$(show_screen)"; exit 1; }
# before anything is recorded: another device's change, counted, not shown
switch "$other"
wait_screen "─ Marks \\(0 of [1-9]" 10 || fail "mark numbers: an event counted before the recording" "$(show_screen)"
console_send R
wait_screen "^record to: " 5 || fail "mark numbers: R prompt" "$(show_screen)"
console_send C-u
console_send -l "$LOG"
console_send Enter
screen_check "live: recording" "● REC "
switch "$dev"
wait_until 10 "" marks_listed 1
switch "$other"
"$IOSCOPE" mark "a mark" >"$TMP/mark.out" 2>&1 || fail "mark numbers: ioscope mark" "$(cat "$TMP/mark.out")"
wait_until 10 "" marks_listed 2
switch "$dev"
wait_until 10 "" marks_listed 3 && ok "live: every change seen" || fail "live: every change seen" "$(show_screen)"
screen >"$TMP/live.screen"
marks "$TMP/live.screen" | sort -n >"$TMP/live.marks"
console_send q
ended_check "live"

# the live numbers ascend, and jump over the other devices' events
python3 - "$TMP/live.marks" "$dev" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
nums = [int(r[0]) for r in rows]
# (the other device's switches fall where a loaded machine's timing puts them: somewhere
# between our first change and our last, not always between the first and the mark)
ok = len(nums) == 3 and nums[0] > 1 and nums[1] > nums[0] and nums[2] > nums[1] and \
     nums[2] - nums[0] > 2 and \
     [r[2] for r in rows] == [sys.argv[2], "mark", sys.argv[2]]
print(("ok" if ok else "not ok") + " live: the session's numbers, other devices' events counted: %s" % rows)
PY

# the log numbers its events the same ("n")
python3 - "$LOG" "$TMP/live.marks" "$other" <<'PY'
import json, sys
logged, others = {}, []
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("type") == "event":
        logged[o.get("n")] = o["object"] if o["kind"] != "mark" else "mark"
        if o["object"] == sys.argv[3]:
            others.append(o.get("n"))
live = {int(r.split()[0]): r.split()[2] for r in open(sys.argv[2])}
# (the recording starts with the sample on screen: its events too, numbered as they were)
ok = all(logged.get(n) == obj for n, obj in live.items()) and \
     any(min(live) < o < max(live) for o in others)
print(("ok" if ok else "not ok") + " log: the same numbers ('n'), the other device's too: %s %s" % (live, others))
PY

# the console's replay of the log, played to its end
console_run --replay "$LOG"
wait_screen "REPLAY " 15 || fail "mark numbers: replay started" "$(show_screen)"
console_send x
screen_check "replay: played to the end" "END OF DATA" 30
screen >"$TMP/replay.screen"
marks "$TMP/replay.screen" | sort -n >"$TMP/replay.marks"
console_send q
ended_check "replay"
if cmp -s "$TMP/live.marks" "$TMP/replay.marks"; then ok "replay: the same numbers as live"; else
	fail "replay: the same numbers as live" "live: $(tr '\n' ';' <"$TMP/live.marks") replay: $(tr '\n' ';' <"$TMP/replay.marks")"; fi

# batch replay and the report
"$IOSCOPE" --replay "$LOG" --batch -f json "$dev" >"$TMP/replay.json" 2>"$TMP/replay.err" \
	|| fail "mark numbers: batch replay" "$(cat "$TMP/replay.err")"
"$IOSCOPE" report "$LOG" >"$TMP/report.txt" 2>"$TMP/report.err" || fail "mark numbers: report" "$(cat "$TMP/report.err")"
"$IOSCOPE" report "$LOG" -f json >"$TMP/report.json" 2>>"$TMP/report.err"
python3 - "$TMP/live.marks" "$TMP/replay.json" "$TMP/report.txt" "$TMP/report.json" <<'PY'
import json, re, sys
live = sorted(int(r.split()[0]) for r in open(sys.argv[1]))
batch = sorted(e.get("n", 0) for l in open(sys.argv[2]) for e in json.loads(l)["events"])
text = sorted({int(n) for n in re.findall(r"^  (?:after|during)? ?[0-9:.]{8,} \[([0-9]+)\] ",
                                         open(sys.argv[3]).read(), re.M)})
js = sorted(r.get("n", 0) for r in map(json.loads, open(sys.argv[4])) if r["record"] == "event")
for name, got in (("batch replay JSON", batch), ("report text", text), ("report JSON", js)):
    print(("ok " if got == live else "not ok ") + f"{name}: the same numbers as live" +
          ("" if got == live else f": {got}, live {live}"))
PY
