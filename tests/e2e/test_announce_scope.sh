#!/bin/bash
# Another user's experiment on its own disk is none of a session's events (issue 36): a
# matrix's steps and the command it runs say their device ("scope"), and `ioscope mark
# --device DEV` is DEV's; a session that shows other devices leaves them out (its events,
# dips, report and replay), one that shows every device has them, with their scope.  A
# bare `ioscope mark` still reaches everyone.
. "$(dirname "$0")/lib.sh"
is_root || { skip "announce scope" "needs root (loop devices, mkfs, mount)"; exit 0; }
needs "announce scope" python3 mkfs.ext4
ours=$(make_loop 64) && theirs=$(make_loop 96) || { fail "announce scope: loop devices"; exit 1; }
mkdir -p "$TMP/m"

# One batch watching our device (recorded), one watching every device.
"$IOSCOPE" --batch -i 0.3 -f json --record "$TMP/ours.log" "$ours" >"$TMP/ours.json" 2>"$TMP/ours.err" &
p1=$!
"$IOSCOPE" --batch -i 0.3 -f json >"$TMP/all.json" 2>"$TMP/all.err" &
p2=$!
at_exit "kill $p1 $p2"
wait_output "$TMP/ours.json" "$p1" && wait_output "$TMP/all.json" "$p2" &&
	wait_socket "$p1" && wait_socket "$p2" || { fail "announce scope: the batches start"; exit 1; }

"$IOSCOPE" mark --device "$theirs" "their note" >"$TMP/m1.out" 2>"$TMP/m1.err" &&
"$IOSCOPE" mark --device "/dev/$ours" "our note" >"$TMP/m2.out" 2>"$TMP/m2.err" &&
"$IOSCOPE" mark "everyone's note" >"$TMP/m3.out" 2>"$TMP/m3.err" &&
	clean_stderr "$TMP/m1.err" && clean_stderr "$TMP/m2.err" && clean_stderr "$TMP/m3.err" \
	&& ok "ioscope mark --device reaches the running instances" \
	|| fail "ioscope mark --device reaches the running instances" "$(cat "$TMP"/m?.out "$TMP"/m?.err)"
"$IOSCOPE" mark --device "no-such-disk0" x >/dev/null 2>"$TMP/m4.err"
[ $? -eq 2 ] && grep -q "no-such-disk0" "$TMP/m4.err" && clean_stderr "$TMP/m4.err" \
	&& ok "ioscope mark --device: an unknown device is refused (exit 2)" \
	|| fail "ioscope mark --device: an unknown device is refused (exit 2)" "$(cat "$TMP/m4.err")"

# The other user's matrix, on its own device, announcing its steps to every instance.
"$IOSCOPE" matrix --device "$theirs" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
	--cache hot --out "$TMP/mx" -- sh -c 'dd if=/dev/zero of=f bs=1M count=8 conv=fsync status=none' \
	>"$TMP/mx.out" 2>"$TMP/mx.err"
mx=$?
[ "$mx" -eq 0 ] && clean_stderr "$TMP/mx.err" && ok "the other device's matrix ran" \
	|| fail "the other device's matrix ran" "rc=$mx $(tail -5 "$TMP/mx.err")"
# a sample after the matrix's last announcement, in both
n1=$(grep -c . "$TMP/ours.json") n2=$(grep -c . "$TMP/all.json")
has_lines() { [ "$(grep -c . "$1")" -ge "$2" ]; }
wait_until 10 "$p1" has_lines "$TMP/ours.json" $((n1 + 2)) && wait_until 10 "$p2" has_lines "$TMP/all.json" $((n2 + 2))
kill "$p1" "$p2" 2>/dev/null
wait "$p1" "$p2"
clean_stderr "$TMP/ours.err" && clean_stderr "$TMP/all.err" && ok "batches: no sanitizer report" \
	|| fail "batches: no sanitizer report" "$(cat "$TMP/ours.err" "$TMP/all.err")"

# events FILE: "kind object key new scope" of every event, one a line
events() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    for e in json.loads(line).get("events", []):
        print(e["kind"], e["object"], e["key"], repr(e["new"]), e.get("scope", "-"))' "$1"
}
events "$TMP/ours.json" >"$TMP/ours.ev"
events "$TMP/all.json" >"$TMP/all.ev"
grep -q "'our note' $ours\$" "$TMP/ours.ev" && grep -q "\"everyone's note\" -\$" "$TMP/ours.ev" \
	&& ok "watching one device: its marks and everyone's" \
	|| fail "watching one device: its marks and everyone's" "$(cat "$TMP/ours.ev")"
! grep -q "their note\|^run \|$theirs" "$TMP/ours.ev" \
	&& ok "watching one device: nothing of the other device's mark and matrix" \
	|| fail "watching one device: nothing of the other device's mark and matrix" "$(cat "$TMP/ours.ev")"
grep -q "'their note' $theirs\$" "$TMP/all.ev" && grep -q "^run matrix mkfs .* $theirs\$" "$TMP/all.ev" &&
	grep -q "^run run start .* $theirs\$" "$TMP/all.ev" && grep -q "^run run exit .* $theirs\$" "$TMP/all.ev" \
	&& ok "watching every device: the matrix's steps and command, each with its device" \
	|| fail "watching every device: the matrix's steps and command, each with its device" "$(cat "$TMP/all.ev")"

# The recording keeps every event; its replay and report leave the other device's out.
grep -q '"scope":"'"$theirs"'"' "$TMP/ours.log" && ok "the recording keeps the scoped events" \
	|| fail "the recording keeps the scoped events" "$(grep '"type":"event"' "$TMP/ours.log" | head)"
"$IOSCOPE" --replay "$TMP/ours.log" --batch -f json >"$TMP/replay.json" 2>"$TMP/replay.err"
events "$TMP/replay.json" >"$TMP/replay.ev"
cmp -s "$TMP/ours.ev" "$TMP/replay.ev" && clean_stderr "$TMP/replay.err" \
	&& ok "replay: the same events as live" \
	|| fail "replay: the same events as live" "$(diff "$TMP/ours.ev" "$TMP/replay.ev"; cat "$TMP/replay.err")"
"$IOSCOPE" report "$TMP/ours.log" >"$TMP/report.txt" 2>"$TMP/report.err"
grep -q "our note" "$TMP/report.txt" && ! grep -q "their note\|matrix" "$TMP/report.txt" &&
	clean_stderr "$TMP/report.err" \
	&& ok "report: our mark, none of the other device's events" \
	|| fail "report: our mark, none of the other device's events" "$(cat "$TMP/report.txt" "$TMP/report.err")"
