#!/bin/bash
# One per-sample pipeline (docs/design.md): events_diff() and rates_compute() are each
# called from exactly one place in src/ (src/core/session.c), so the console, batch,
# replay and reports cannot drift apart again.  Definitions and comments do not count.
. "$(dirname "$0")/lib.sh"
for fn in events_diff rates_compute; do
	# a call: the name, "(", not at the start of a line (definitions start there in our
	# style), outside comments
	calls=$(grep -rnE "[^_a-z]$fn\(" "$IOSCOPE_TOP/src" --include='*.c' \
		| grep -vE ":[0-9]+:(int|static|const|void) " \
		| grep -vE ":[0-9]+:[[:space:]]*(/?\*|//)" )
	where=$(cut -d: -f1 <<<"$calls" | sort -u | sed "s|$IOSCOPE_TOP/||")
	n=$(grep -c . <<<"$calls")
	if [ "$n" = 1 ] && [ "$where" = src/core/session.c ]; then
		ok "$fn called from one place (src/core/session.c)"
	else
		fail "$fn called from one place" "$n call(s): $(tr '\n' ' ' <<<"$calls")"
	fi
done

# The rule that an observed change echoing one of ioscope's own is marked once lives in
# src/core alone (the session applies it), and reports take no event from the log
# themselves: they replay it through a session (src/record/report_walk.c).
calls=$(grep -rnE "[^_a-z](event_echoes|events_drop_echoes|echo_filter_[a-z]+)\(" \
	"$IOSCOPE_TOP/src" --include='*.c' \
	| grep -vE ":[0-9]+:(int|static|const|void|bool) " \
	| grep -vE ":[0-9]+:[[:space:]]*(/?\*|//)" | grep -v "^$IOSCOPE_TOP/src/core/")
[ -z "$calls" ] && ok "the echo rule is applied in src/core only" \
	|| fail "the echo rule is applied in src/core only" "$(sed "s|$IOSCOPE_TOP/||" <<<"$calls")"
calls=$(grep -nE "[^_a-z]replay_event_(get|after)\(" "$IOSCOPE_TOP"/src/record/report*.c)
[ -z "$calls" ] && ok "reports read no event of the log but through a session" \
	|| fail "reports read no event of the log but through a session" "$(sed "s|$IOSCOPE_TOP/||" <<<"$calls")"

# The same log, the same events: a report's (-f json) and a replay's (--replay --batch -f
# json), which is the session the console replays a log with.  pipeline.log has a switch
# logged without the resets its samples show and a change of ioscope's logged with its
# echo; report-busy.log ioscope's switches and tunables echoed at the next sample.
python3 "$IOSCOPE_TOP/tests/e2e/report_log_gen.py" pipeline "$TMP/pipeline.log" \
	|| fail "pipeline log generated"
for log in "$TMP/pipeline.log" "$IOSCOPE_TOP/tests/fixtures/logs/report-busy.log" \
	"$IOSCOPE_TOP/tests/fixtures/logs/report-phases.log"; do
	name=$(basename "$log")
	"$IOSCOPE" report -f json --devices loop0 "$log" >"$TMP/report.json" 2>"$TMP/report.err"
	r1=$?
	"$IOSCOPE" --replay "$log" --batch -f json loop0 >"$TMP/replay.json" 2>"$TMP/replay.err"
	r2=$?
	if [ $r1 -ne 0 ] || [ $r2 -ne 0 ] || [ -s "$TMP/report.err" ] || [ -s "$TMP/replay.err" ]; then
		fail "$name: report and replay run cleanly" \
			"exit $r1/$r2: $(cat "$TMP/report.err" "$TMP/replay.err" | head -c 1500)"
		continue
	fi
	if out=$(python3 - "$TMP/report.json" "$TMP/replay.json" <<'PY'
import json, sys
def key(e):
    return (e["time"], e["kind"], e["object"], e["key"], e["old"], e["new"], e["by"],
            e.get("result", ""), json.dumps(e.get("resets", {}), sort_keys=True))
report = [key(o) for o in map(json.loads, open(sys.argv[1])) if o.get("record") == "event"]
replay = [key(e) for o in map(json.loads, open(sys.argv[2])) for e in o.get("events", [])]
kinds = {k[1] for k in replay}
if report != replay or not {"scheduler", "tunable", "mark"} <= kinds:
    print("report:", *report, "replay:", *replay, sep="\n  ")
    sys.exit(1)
PY
	); then
		ok "$name: the report's events are the replay's"
	else
		fail "$name: the report's events are the replay's" "$out"
	fi
done
