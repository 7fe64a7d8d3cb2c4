#!/bin/bash
# A setting changed by hand on a device the session shows (named on the command line) or
# follows (the console's selected row) is an event of the first sample read after the
# change, not of one up to 5 s later (the knob cadence of the other disks): a dip it causes
# can then name it as its cause.  nomerges, wbt_lat_usec and bdi/strict_limit are knobs,
# read only every 5 s on a disk nobody watches.  Each change is made just after a sample,
# three times per run: with the 5 s cadence, the event came one to ten samples late.
. "$(dirname "$0")/lib.sh"
is_root || { skip "watched knobs" "needs root (loop devices, sysfs writes)"; exit 0; }
needs "watched knobs" python3
dev=$(make_loop 64) || { fail "watched knobs: a loop device"; exit 1; }
q=/sys/block/$dev/queue
bdi=/sys/block/$dev/bdi

# samples FILE: how many samples FILE has (batch JSON lines, or a session log's samples)
samples() {
	case "$1" in
	*.json) grep -c '^{"time"' "$1" 2>/dev/null ;;
	*) grep -c '^{"type":"sample"' "$1" 2>/dev/null ;;
	esac
}
has_more() { [ "$(samples "$1")" -ge "$2" ]; }

# three_changes NAME FILE PID: the three changes, each right after a sample of FILE; their
# wall times (ns) in $TMP/NAME.changes as "ns key value"
three_changes() {
	local name=$1 file=$2 pid=$3 n key path value
	: >"$TMP/$name.changes"
	for change in "nomerges queue/nomerges 1" "wbt_lat_usec queue/wbt_lat_usec 3000" \
		      "bdi.strict_limit bdi/strict_limit 1"; do
		read -r key path value <<<"$change"
		n=$(samples "$file")
		wait_until 30 "$pid" has_more "$file" $((n + 1)) || return 1
		echo "$value" >"/sys/block/$dev/$path" || return 1
		echo "$(date +%s%N) $key $value" >>"$TMP/$name.changes"
	done
	n=$(samples "$file")
	wait_until 30 "$pid" has_more "$file" $((n + 3))
}

# in_time NAME FILE: each change is an event of the sample read first after it, or of the
# one before (a change made while that sample was read); prints which sample held it
in_time() {
	python3 - "$TMP/$1.changes" "$2" "$dev" <<'PY'
import json, sys
changes, path, dev = sys.argv[1:]
stamps, events = [], {}   # sample i: its wall time (ns); key -> sample index of its event
for line in open(path):
    r = json.loads(line)
    if "time" in r:                       # batch JSON
        stamps.append(int(r["time"] * 1e9))
        for e in r.get("events", []):
            if e.get("object") == dev:
                events.setdefault(e["key"], len(stamps) - 1)
    elif r.get("type") == "sample":
        stamps.append(r["wall"])
    elif r.get("type") == "event" and r.get("object") == dev:
        events.setdefault(r["key"], len(stamps) - 1)
bad = []
for line in open(changes):
    t, key, value = line.split()
    first = next((i for i, s in enumerate(stamps) if s > int(t)), None)
    got = events.get(key)
    if first is None or got is None or got > first:
        bad.append("%s=%s at %d: first sample after it %s, event in sample %s" % (key, value, int(t), first, got))
    else:
        print("%s: event in sample %d, the first after the change %d" % (key, got, first))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
}

restore() { echo 0 >"$q/nomerges"; echo 2000 >"$q/wbt_lat_usec"; echo 0 >"$bdi/strict_limit"; }

# Batch, the device named.
restore
"$IOSCOPE" --batch -i 0.5 -c 40 -f json "$dev" >"$TMP/batch.json" 2>"$TMP/batch.err" &
pid=$!
at_exit "kill $pid"
if wait_output "$TMP/batch.json" "$pid" && three_changes batch "$TMP/batch.json" "$pid"; then
	out=$(in_time batch "$TMP/batch.json") && ok "batch, device named: a hand-made change is an event of the next sample" \
		|| fail "batch, device named: a hand-made change is an event of the next sample" "$out"
else
	fail "batch, device named: samples and changes" "$(cat "$TMP/batch.err")"
fi
kill "$pid" 2>/dev/null; wait "$pid"
clean_stderr "$TMP/batch.err" && ok "batch: no sanitizer report" || fail "batch: no sanitizer report" "$(cat "$TMP/batch.err")"

# The console with no device named: the row selected (here through the filter) is followed.
needs "watched knobs, console" tmux
. "$(dirname "$0")/console_lib.sh"
restore
console_shell 160 40 || { fail "console: a shell in tmux"; exit 1; }
console_run -i 0.5 --record "$TMP/console.log"
wait_samples "$TMP/console.log" 1 || { fail "console: records" "$(show_screen)"; exit 1; }
console_send /
console_send -l "$dev"
console_send Enter
# the filter leaves one row, ours, and the selection goes to it
wait_screen "^$dev " 10 || fail "console: the filter shows the device" "$(show_screen)"
cpid=$(pgrep -f -n "^$IOSCOPE -i 0.5 --record $TMP/console.log")
if [ -n "$cpid" ] && three_changes console "$TMP/console.log" "$cpid"; then
	out=$(in_time console "$TMP/console.log") && ok "console, device followed: a hand-made change is an event of the next sample" \
		|| fail "console, device followed: a hand-made change is an event of the next sample" "$out"
else
	fail "console: samples and changes" "$(show_screen)"
fi
console_send q
wait_screen '^EXIT=[0-9]+' 10
screen | grep -q '^EXIT=0' && clean_stderr "$CONSOLE_STDERR" && ok "console: exits 0, no sanitizer report" \
	|| fail "console: exits 0, no sanitizer report" "$(show_screen; cat "$CONSOLE_STDERR")"
restore
