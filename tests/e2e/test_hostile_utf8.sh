#!/bin/bash
# A mount point whose name is not UTF-8 (bytes ff fe and a lone continuation byte) on a
# loop device: the session log, batch JSON, the replay's JSON and the JSON report stay
# valid UTF-8 JSON that a strict reader (Python) takes, with U+FFFD for each bad byte,
# and the remount event still names the mount point.  One such directory must not make a
# recording unreadable to jq or Python.
. "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
is_root || { skip "non-UTF-8 names" "needs root for a loop device and a mount"; exit 0; }

make_loop 64 >"$TMP/loop" || { fail "loop device"; exit 1; }
dev=$(cat "$TMP/loop")
mkfs_ext4 "/dev/$dev" >/dev/null 2>&1 || { fail "mkfs.ext4"; exit 1; }
mnt="$TMP/bad"$'\xff\xfe'"-name"$'\x80'
mkdir "$mnt" && mount -t ext4 "/dev/$dev" "$mnt" || { fail "mount on a non-UTF-8 name"; exit 1; }
at_exit "umount -l \"\$(cat '$TMP/mntpath')\""
printf '%s' "$mnt" >"$TMP/mntpath"

# json_ok NAME RC FILE... : exited 0 and every line of every file is strict UTF-8 JSON
json_ok() {
	local name=$1 rc=$2; shift 2
	[ "$rc" -eq 0 ] || { fail "$name" "exit $rc: $(cat "$@" | head -3)"; return; }
	local why
	if why=$(python3 "$here/check_output.py" json "$@" 2>&1); then ok "$name"
	else fail "$name" "$(head -3 <<<"$why")"; fi
}

"$IOSCOPE" --batch -i 0.25 -c 12 -f json --record "$TMP/s.log" "$dev" >"$TMP/batch.json" 2>"$TMP/batch.err" &
pid=$!
sleep 1
"$IOSCOPE" remount --yes "$mnt" +noatime </dev/null >"$TMP/remount.txt" 2>"$TMP/remount.err" \
	|| fail "remount of the non-UTF-8 mount point" "$(cat "$TMP/remount.err")"
wait $pid
json_ok "batch JSON is valid UTF-8" $? "$TMP/batch.json"
json_ok "the session log is valid UTF-8" 0 "$TMP/s.log"
"$IOSCOPE" --replay "$TMP/s.log" --batch -f json >"$TMP/replay.json" 2>"$TMP/replay.err"
json_ok "replay JSON is valid UTF-8" $? "$TMP/replay.json"
"$IOSCOPE" report "$TMP/s.log" -f json >"$TMP/report.json" 2>"$TMP/report.err"
json_ok "report JSON is valid UTF-8" $? "$TMP/report.json"

# The bad bytes became U+FFFD, one each; the rest of the name is kept.
want="${mnt%%bad*}bad"$'\uFFFD\uFFFD'"-name"$'\uFFFD'
python3 - "$TMP/s.log" "$want" <<'PY' && ok "the log's remount event names the mount point, U+FFFD per bad byte" \
	|| fail "the remount event names the mount point" "$(grep remount "$TMP/s.log" | head -2)"
import json, sys
want = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8")
recs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
sys.exit(not any(r.get("type") == "event" and r.get("object") == want for r in recs))
PY

# One escaping rule (docs/security.md): the text output shows '?' for a bad byte, live and
# in the replay, where the log holds U+FFFD for it (the journal lines name the mount point
# every interval): the two outputs are the same bytes.
"$IOSCOPE" --batch -i 0.25 -c 6 -f text --record "$TMP/t.log" "$dev" >"$TMP/live.txt" \
	2>"$TMP/live.err"
rc=$?
"$IOSCOPE" --replay "$TMP/t.log" --batch -f text >"$TMP/replay.txt" 2>"$TMP/replay.err"
rrc=$?
line=$(grep -a -- '-name' "$TMP/live.txt" | head -1)
[ $rc -eq 0 ] && [ $rrc -eq 0 ] && grep -qaF 'bad??-name?' <<<"$line" \
	&& cmp -s "$TMP/live.txt" "$TMP/replay.txt" && clean_stderr "$TMP/live.err" \
	&& clean_stderr "$TMP/replay.err" \
	&& ok "text: '?' for each bad byte, live and replayed alike" \
	|| fail "text: '?' for each bad byte, live and replayed alike" \
		"rc=$rc/$rrc live: $line; $(diff -a "$TMP/live.txt" "$TMP/replay.txt" | head -4)"
