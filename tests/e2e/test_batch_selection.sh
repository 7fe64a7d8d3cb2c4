#!/bin/bash
# Defects 2 and 9: naming a device limits the events to it (and the filesystems on it),
# in batch text, the recording's header ("selection"), batch replay, the default report,
# and the replay console, which follows the recorded device rather than the busiest disk.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "selection" "needs root for loop devices"; exit 0; }

A=$(make_loop 64) || { fail "loop A"; exit 1; }
B=$(make_loop 64) || { fail "loop B"; exit 1; }
echo mq-deadline >"/sys/block/$A/queue/scheduler"
echo mq-deadline >"/sys/block/$B/queue/scheduler"
steady_writer "$B" 30          # B is the busiest disk of the machine
LOG=$TMP/a.log

"$IOSCOPE" --batch -f text -i 0.3 -c 8 --record "$LOG" "$A" >"$TMP/out.txt" 2>"$TMP/err" &
pid=$!
# the changes must come after the baseline sample: on a busy machine the first one takes a
# while (every disk's files are opened and read)
for _ in $(seq 100); do grep -q '"type":"sample"' "$LOG" 2>/dev/null && break; sleep 0.05; done
nap 0.3
echo kyber >"/sys/block/$B/queue/scheduler"
nap 0.4
ra=$(cat "/sys/block/$A/queue/read_ahead_kb")
echo $((ra == 512 ? 1024 : 512)) >"/sys/block/$A/queue/read_ahead_kb"
wait $pid && ok "batch run on $A" || fail "batch run on $A" "$(cat "$TMP/err")"
check "stderr clean" test ! -s "$TMP/err"
if grep -q -- "---- .* $B " "$TMP/out.txt"; then
	fail "other disk's event not printed" "$(grep -- '----' "$TMP/out.txt")"
else
	ok "other disk's event not printed"
fi
grep -qE -- "^---- [0-9:]{8} $A .*read_ahead_kb.* ----$" "$TMP/out.txt" && ok "named disk's event printed" \
	|| fail "named disk's event printed" "$(grep -- '----' "$TMP/out.txt")"

python3 - "$LOG" "$A" "$B" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
a, b = sys.argv[2], sys.argv[3]
sel = recs[0].get("selection")
print(("ok" if sel == [a] else "not ok") + f" header selection {sel}")
objs = {r["object"] for r in recs if r["type"] == "event"}
print(("ok" if b in objs else "not ok") + f" the log keeps every event {sorted(objs)}")
PY

# batch replay follows the recorded selection: rows and events of A only
"$IOSCOPE" --batch -f json --replay "$LOG" >"$TMP/replay.json" 2>"$TMP/rerr" \
	&& ok "batch replay" || fail "batch replay" "$(cat "$TMP/rerr")"
python3 - "$TMP/replay.json" "$A" "$B" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
a, b = sys.argv[2], sys.argv[3]
devs = {d for l in lines for d in l["devices"]}
evs = [e["object"] for l in lines for e in l["events"]]
print(("ok" if devs == {a} else "not ok") + f" replay rows follow the selection {sorted(devs)}")
print(("ok" if b not in evs and a in evs else "not ok") + f" replay events follow the selection {evs}")
PY

# the default report is about A, not cut into phases by B's switch
"$IOSCOPE" report "$LOG" >"$TMP/report.txt" 2>"$TMP/reperr" && ok "report" || fail "report" "$(cat "$TMP/reperr")"
# (the devices section lists every disk of the machine; no mark or phase is B's)
if grep -qE "$B.*(→|->)" "$TMP/report.txt"; then
	fail "report marks ignore $B" "$(grep -E "$B.*(→|->)" "$TMP/report.txt")"
else
	ok "report marks ignore $B"
fi
grep -qE "$A.*read_ahead_kb" "$TMP/report.txt" && ok "report marks $A's change" \
	|| fail "report marks $A's change" "$(cat "$TMP/report.txt")"

# the replay console shows the recorded device, not the busy one
if command -v tmux >/dev/null; then
	console_shell 120 40
	console_run --replay "$LOG"
	if wait_screen "$A" 10 && ! screen | grep -q "$B"; then
		ok "replay console follows the recorded selection"
	else
		fail "replay console follows the recorded selection"; show_screen
	fi
	console_send q
	wait_screen '^EXIT=0' 10 && ok "replay console exit 0" || { fail "replay console exit 0"; show_screen; }
	check "replay console stderr clean" stderr_clean
else
	skip "replay console follows the recorded selection" "tmux not installed"
fi
