#!/bin/bash
# Every older session log stays readable (docs/session-log.md, "How new data goes in"):
# tests/fixtures/logs/v1-*.log were recorded by ioscope before scheduler events carried
# their resets (from the fixture trees layout20, hotplug, root-live) and must replay and
# report cleanly.  v1-layout20-future.log is the same log with what a later revision may add
# after a sample (record types "sketch" and "hist", an event of kind "spike": names no version uses): skipped silently,
# said with --verbose, and the rest reads exactly as without them.
. "$(dirname "$0")/lib.sh"
needs "old logs" python3
L=$IOSCOPE_TOP/tests/fixtures/logs

# run NAME CMD...: stdout to $TMP/NAME.out, stderr to $TMP/NAME.err; ok when exit 0
run() {
	local name=$1; shift
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	local rc=$?
	if [ "$rc" = 0 ]; then ok "$name: exit 0"; else fail "$name: exit 0" "exit $rc: $(head -c 1500 "$TMP/$name.err")"; fi
}
quiet() {
	if [ ! -s "$TMP/$1.err" ]; then ok "$1: nothing on stderr"
	else fail "$1: nothing on stderr" "$(head -c 1500 "$TMP/$1.err")"; fi
}
has() {
	if grep -qF -- "$3" "$TMP/$1.$2"; then ok "$1: $2 says '$3'"
	else fail "$1: $2 says '$3'" "$(head -c 1500 "$TMP/$1.$2")"; fi
}

for log in layout20 hotplug root-live switch-reset; do
	run "replay-$log" "$IOSCOPE" --replay "$L/v1-$log.log" --batch -f json
	quiet "replay-$log"
	run "report-$log" "$IOSCOPE" report "$L/v1-$log.log"
	quiet "report-$log"
done
python3 - "$TMP" <<'EOF'
import json, sys
t = sys.argv[1]
def events(name):
    return [[(e["kind"], e["object"], e["key"]) for e in json.loads(l)["events"]] for l in open(f"{t}/{name}.out")]
def check(name, cond, detail):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {detail}"))
e = events("replay-layout20")
check("v1 layout20: one interval, the switch and read_ahead_kb", e == [[("scheduler", "vdb", "scheduler"), ("tunable", "vdb", "read_ahead_kb")]], e)
sw = json.loads(open(f"{t}/replay-layout20.out").readline())["events"][0]
check("v1 layout20: the switch carries its resets on replay", sw.get("resets", {}).get("iosched.fifo_batch") == ["16", None], sw)
e = events("replay-hotplug")
check("v1 hotplug: device added, then removed", [k for k, _, _ in sum(e, [])] == ["device_added", "device_removed"], e)
check("v1 root-live: two intervals", len(e := events("replay-root-live")) == 2, e)
EOF
has report-layout20 out "sched vdb mq-deadline→bfq"
# A v1 switch lists its nr_requests reset as a tunable event after it: read as one mark,
# whose resets are all its samples show (iosched.* too), as a replay of the log has them.
has report-switch-reset out "  after "
if tr -s ' \n' ' ' <"$TMP/report-switch-reset.out" \
	| grep -qE 'mq-deadline→bfq resets iosched\.back_seek_max -→16384, [^A-Z]*nr_requests 256→64 ' \
	&& ! grep -q "vdb nr_requests" "$TMP/report-switch-reset.out"; then
	ok "v1 switch-reset: the reset is the switch's detail, not a mark of its own"
else fail "v1 switch-reset: the reset is the switch's detail, not a mark of its own" "$(grep -A4 '^Phase 1' "$TMP/report-switch-reset.out")"; fi

run replay-future "$IOSCOPE" --replay "$L/v1-layout20-future.log" --batch -f json
quiet replay-future
if cmp -s "$TMP/replay-future.out" "$TMP/replay-layout20.out"; then ok "future: reads as the log without the new records"
else fail "future: reads as the log without the new records" "$(diff "$TMP/replay-layout20.out" "$TMP/replay-future.out" | head -c 1500)"; fi
run replay-future-v "$IOSCOPE" --replay "$L/v1-layout20-future.log" --batch -f json --verbose
has replay-future-v err "skipped 2 records of types this version does not know (sketch, hist)"
has replay-future-v err "skipped 1 events of kinds this version does not know (spike)"
run report-future "$IOSCOPE" report "$L/v1-layout20-future.log"
quiet report-future
if cmp -s "$TMP/report-future.out" <(sed "s|v1-layout20.log|v1-layout20-future.log|" "$TMP/report-layout20.out"); then
	ok "future: the report is the same"
else fail "future: the report is the same" "$(diff "$TMP/report-layout20.out" "$TMP/report-future.out" | head -c 1500)"; fi
run report-future-v "$IOSCOPE" report -v "$L/v1-layout20-future.log"
has report-future-v err "(sketch, hist)"
run replay-layout20-v "$IOSCOPE" --replay "$L/v1-layout20.log" --batch -f json -v
has replay-layout20-v err "every record and event kind was known"
