#!/bin/bash
# run.sh: serial: it hot-adds and hot-removes a zram device
# An external `echo ELEVATOR > .../queue/scheduler` during --batch shows up as an event.
. "$(dirname "$0")/lib.sh"
is_root || { skip "scheduler change becomes an event" "needs root for a loop device"; exit 0; }

dev=$(make_loop 64) || { fail "loop device"; exit 1; }
# two elevators with tunables (three offered: at most one is none), whatever this kernel
# has: their iosched files come and go with the switch; then a switch to none
needs_elevators "scheduler change becomes an event" "$dev" 3
read -r E1 E2 < <(pick_elevators "$dev" 2)
echo "$E1" >"/sys/block/$dev/queue/scheduler"
"$IOSCOPE" --batch -i 0.2 -c 10 -f json "$dev" >"$TMP/out.json" 2>"$TMP/err" &
pid=$!
wait_output "$TMP/out.json" $pid
echo "$E2" >"/sys/block/$dev/queue/scheduler"
# the read-ahead change a sample after the switch's
wait_until 10 $pid grep -q '"key":"scheduler"' "$TMP/out.json"
echo 256 >"/sys/block/$dev/queue/read_ahead_kb"
wait $pid && ok "batch run" || fail "batch run" "$(cat "$TMP/err")"
python3 - "$TMP/out.json" "$dev" "$E1" "$E2" <<'PY'
import json, sys
dev, e1, e2 = sys.argv[2:]
evs = [e for l in open(sys.argv[1]) for e in json.loads(l)["events"]]
sched = [e for e in evs if e["object"] == dev and e["key"] == "scheduler"]
ok = len(sched) == 1 and sched[0]["old"] == e1 and sched[0]["new"] == e2 \
     and sched[0]["label"] == f"sched {e1}→{e2}" and sched[0]["by"] == "observed"
print(("ok" if ok else "not ok") + f" scheduler event {sched}")
ra = [e for e in evs if e["object"] == dev and e["key"] == "read_ahead_kb"]
print(("ok" if len(ra) == 1 and ra[0]["new"] == "256" else "not ok") + f" read_ahead_kb event {ra}")
# the iosched files that came and went with the switch are not separate events
print(("ok" if not [e for e in evs if e["key"].startswith("iosched.")] else "not ok") + " iosched noise folded")
# the scheduler column follows the switch
last = json.loads(open(sys.argv[1]).read().strip().split("\n")[-1])
print(("ok" if last["devices"][dev]["scheduler"] == e2 else "not ok") + " scheduler column follows")
PY

# Text format prints the event as a line between the tables.
"$IOSCOPE" --batch -i 0.2 -c 5 "$dev" >"$TMP/out.txt" 2>&1 &
pid=$!
wait_output "$TMP/out.txt" $pid
echo none >"/sys/block/$dev/queue/scheduler"
wait $pid
grep -qE "^---- [0-9:]{8} $dev sched $E2→none ----$" "$TMP/out.txt" && ok "text event line" \
	|| fail "text event line" "$(grep -- '----' "$TMP/out.txt")"
# A device vanishing mid-run (a zram device we hot-add, then hot-remove: loop devices stay
# in /proc/diskstats when detached) is a device_removed event, and no crash.
if [ -w /sys/class/zram-control/hot_add ]; then
	id=$(cat /sys/class/zram-control/hot_add)
	at_exit "echo $id >/sys/class/zram-control/hot_remove"
	"$IOSCOPE" --batch -i 0.2 -c 5 -f json >"$TMP/rm.json" 2>"$TMP/rm.err" &
	pid=$!
	wait_output "$TMP/rm.json" $pid
	echo "$id" >/sys/class/zram-control/hot_remove
	wait $pid && ok "device vanishing mid-run" || fail "device vanishing mid-run" "$(cat "$TMP/rm.err")"
	python3 - "$TMP/rm.json" "zram$id" <<'PY'
import json, sys
evs = [e for l in open(sys.argv[1]) for e in json.loads(l)["events"]]
rm = [e for e in evs if e["object"] == sys.argv[2] and e["kind"] == "device_removed"]
print(("ok" if len(rm) == 1 else "not ok") + f" device_removed event {rm}")
PY
else
	skip "device vanishing mid-run" "no zram-control on this kernel"
fi
