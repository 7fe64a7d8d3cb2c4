#!/bin/bash
# Record live --batch sessions (json, text, csv at once) on our own loop device with a
# steady writer while the scheduler is switched from another shell; replaying each log
# with --batch prints exactly what the live run printed.  Then kill -9 a recorder
# mid-run: the file still replays, and what it replays is what the live run printed.
. "$(dirname "$0")/lib.sh"
is_root || { skip "record and replay" "needs root for a loop device"; exit 0; }

# not dev=$(make_loop): in a subshell its cleanup (losetup -d) would be lost
make_loop 128 >"$TMP/loop" || { fail "loop device"; exit 1; }
dev=$(cat "$TMP/loop")
sys=$(system_disk)   # a second device: vda here, whatever the machine has
[ -n "$sys" ] || { fail "a system disk"; exit 1; }
# the switch between two elevators this kernel offers (with tunables first), never by name
needs_elevators "record and replay" "$dev" 2
read -r E1 E2 < <(pick_elevators "$dev" 2)
echo "$E1" >"/sys/block/$dev/queue/scheduler"
busy_writer "$dev" 30

formats=(json text csv)
pids=()
for f in "${formats[@]}"; do
	"$IOSCOPE" --batch -i 0.25 -c 16 -f "$f" --record "$TMP/$f.log" "$dev" "$sys" \
		>"$TMP/live.$f" 2>"$TMP/err.$f" &
	pids+=($!)
done
for f in "${formats[@]}"; do wait_samples "$TMP/$f.log" 6; done
echo "$E2" >"/sys/block/$dev/queue/scheduler"     # "from another shell"
for f in "${formats[@]}"; do wait_samples "$TMP/$f.log" 10; done
echo 32 >"/sys/block/$dev/queue/nr_requests"
for i in 0 1 2; do
	f=${formats[$i]}
	wait "${pids[$i]}" && ok "live $f run" || fail "live $f run" "$(cat "$TMP/err.$f")"
done

grep -qF "\"key\":\"scheduler\",\"old\":\"$E1\",\"new\":\"$E2\"" "$TMP/live.json" \
	&& ok "live run saw the switch" || fail "live run saw the switch"
grep -q '"type":"event".*"kind":"scheduler"' "$TMP/json.log" \
	&& ok "the log holds the scheduler event" || fail "the log holds the scheduler event"

for f in json text csv; do
	"$IOSCOPE" --replay "$TMP/$f.log" --batch -f "$f" "$dev" "$sys" >"$TMP/replay.$f" 2>"$TMP/rerr.$f"
	rc=$?
	if [ $rc -eq 0 ] && cmp -s "$TMP/live.$f" "$TMP/replay.$f"; then
		ok "replay --format $f is identical to the live run"
	else
		fail "replay --format $f is identical to the live run" \
			"rc=$rc $(diff "$TMP/live.$f" "$TMP/replay.$f" | head -5) $(cat "$TMP/rerr.$f")"
	fi
done
[ "$(wc -l <"$TMP/live.json")" -eq 16 ] && ok "16 intervals live" || fail "16 intervals live"
# Replaying does not depend on the replay being told the devices: the default set
# (whole disks that did I/O) is the same as live when both see the same counters.
# The intervals are those measured live (a loaded machine's late sample gives a short one
# after it: 0.25 is not what to expect), not the nominal one.
"$IOSCOPE" --replay "$TMP/json.log" --batch -f json "$dev" | python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin]
live = [json.loads(l)["interval"] for l in open(sys.argv[1])]
got = [l["interval"] for l in lines]
print(("ok" if len(lines) == 16 and got == live else "not ok")
      + " replayed intervals are the measured ones" + ("" if got == live else ": %s | %s" % (got, live)))' "$TMP/live.json"

# kill -9 mid-run: every complete record replays, and the replay is the live output
# (the live run may have printed one interval more than reached the log).
"$IOSCOPE" --batch -i 0.1 -f json --record "$TMP/killed.log" "$dev" >"$TMP/killed.live" 2>/dev/null &
pid=$!
wait_samples "$TMP/killed.log" 20 $pid
kill -9 $pid
wait $pid 2>/dev/null
"$IOSCOPE" --replay "$TMP/killed.log" --batch -f json "$dev" >"$TMP/killed.replay" 2>"$TMP/killed.err"
rc=$?
n=$(wc -l <"$TMP/killed.replay")
[ $rc -eq 0 ] && [ "$n" -ge 5 ] && ok "killed recording replays ($n intervals)" \
	|| fail "killed recording replays" "rc=$rc n=$n $(cat "$TMP/killed.err")"
head -n "$n" "$TMP/killed.live" | cmp -s - "$TMP/killed.replay" \
	&& ok "killed recording replays what was shown live" \
	|| fail "killed recording replays what was shown live"

# A torn last line (a crash in the middle of a write) is ignored with a warning.
cp "$TMP/killed.log" "$TMP/torn.log"
grep "^{\"type\":\"sample\"" "$TMP/killed.log" | tail -n 1 | head -c 300 >>"$TMP/torn.log"
"$IOSCOPE" --replay "$TMP/torn.log" --batch -f json "$dev" >"$TMP/torn.out" 2>"$TMP/torn.err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$TMP/torn.out" "$TMP/killed.replay" && ok "torn last line: the rest replays" \
	|| fail "torn last line: the rest replays" "rc=$rc"
grep -qE "torn.log: line [0-9]+ \(offset [0-9]+\): the last record is incomplete" "$TMP/torn.err" \
	&& ok "torn last line: warning with line and offset" \
	|| fail "torn last line: warning with line and offset" "$(cat "$TMP/torn.err")"

# --record-sync works too (fdatasync each sample) and gives the same kind of file.
"$IOSCOPE" --batch -i 0.1 -c 5 -f json --record "$TMP/sync.log" --record-sync "$dev" >/dev/null \
	&& [ "$(grep -c '"type":"sample"' "$TMP/sync.log")" -eq 6 ] \
	&& ok "--record-sync records every sample" || fail "--record-sync records every sample"
