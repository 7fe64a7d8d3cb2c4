#!/bin/bash
# Batch events in time order, one event per change (issue 28): a scheduler switch a
# command makes just before it exits prints after the exit, and a setting the kernel
# resets with one ioscope writes (read_ahead_kb with max_sectors_kb) is that write's
# event's reset, not an observed event of its own.
. "$(dirname "$0")/lib.sh"
is_root || { skip "event order" "needs root for a loop device"; exit 0; }

dev=$(make_loop 32) || { fail "loop device"; exit 1; }
q=/sys/block/$dev/queue
echo mq-deadline >"$q/scheduler"

# One interval (1.5 s) holds both: the command switches the scheduler and exits 0.4 s in;
# the switch is seen by the sample at 1.5 s, the exit was taken when it happened.
"$IOSCOPE" run --batch -i 1.5 -f json --linger 1 -- \
	sh -c "sleep 0.2; echo kyber >$q/scheduler; sleep 0.2" >"$TMP/run.json" 2>"$TMP/run.err" \
	&& clean_stderr "$TMP/run.err" && ok "run" || fail "run" "$(cat "$TMP/run.err")"
python3 - "$TMP/run.json" "$dev" <<'PY'
import json, sys
out, dev = sys.argv[1:]
lines = [json.loads(l) for l in open(out)]
evs = [e for l in lines for e in l["events"] if e["object"] in (dev, "run")]
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {what}"))
keys = [(e["object"], e["key"]) for e in evs]
check("switch and exit both printed", (dev, "scheduler") in keys and ("run", "exit") in keys, keys)
times = [e["time"] for l in lines for e in l["events"]]
check("events in time order", times == sorted(times),
      [(e["key"], e["time"]) for l in lines for e in l["events"]])
PY

# The kernel resets read_ahead_kb to its default when max_sectors_kb is written (6.11 on):
# set it away from that first, so the write has a side effect to show.
echo 64 >"$q/read_ahead_kb"
"$IOSCOPE" --batch -i 0.3 -f json "$dev" >"$TMP/set.json" 2>"$TMP/batch.err" &
pid=$!
wait_socket "$pid" || fail "batch listens" "$(cat "$TMP/batch.err")"
"$IOSCOPE" set "$dev" max_sectors_kb=8 >"$TMP/set.out" 2>&1 \
	&& clean_stderr "$TMP/set.out" && ok "set max_sectors_kb" || fail "set max_sectors_kb" "$(cat "$TMP/set.out")"
sleep 1
kill -TERM "$pid"
wait "$pid" && clean_stderr "$TMP/batch.err" && ok "batch run" || fail "batch run" "$(cat "$TMP/batch.err")"
if [ "$(cat "$q/read_ahead_kb")" = 64 ]; then
	skip "side effect logged once" "this kernel keeps read_ahead_kb when max_sectors_kb is written"
	exit 0
fi
python3 - "$TMP/set.json" "$dev" <<'PY'
import json, sys
out, dev = sys.argv[1:]
evs = [e for l in open(out) for e in json.loads(l)["events"] if e["object"] == dev]
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {what}"))
ra = [e for e in evs if e["key"] == "read_ahead_kb"]
check("no read_ahead_kb event of its own", not ra, ra)
ms = [e for e in evs if e["key"] == "max_sectors_kb"]
check("max_sectors_kb once, by ioscope, read_ahead_kb its reset",
      len(ms) == 1 and ms[0]["by"] == "ioscope" and ms[0].get("resets", {}).get("read_ahead_kb", [None])[0] == "64",
      ms)
PY
