#!/bin/bash
# A real mount point with a hostile name (ESC ] 2 ; title BEL, CR, a newline and a
# fake event line, DEL) on a loop device: show, remount, set, batch text and CSV, the
# recording's text and CSV reports print it with '?' for every control byte; no output
# sets the terminal title or gains a forged "---- 09:00" line.  JSON keeps the bytes.
. "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
is_root || { skip "hostile names" "needs root for a loop device and a mount"; exit 0; }

make_loop 64 >"$TMP/loop" || { fail "loop device"; exit 1; }
dev=$(cat "$TMP/loop")
mkfs_ext4 "/dev/$dev" >/dev/null 2>&1 || { fail "mkfs.ext4"; exit 1; }
evil=$'m\e]2;PWNED\a\r\n---- 09:00:00 vda sched none->bfq (fake) ----\x7f'
mnt="$TMP/$evil"
mkdir "$mnt" && mount -t ext4 "/dev/$dev" "$mnt" || { fail "mount on a hostile name"; exit 1; }
at_exit "umount -l \"\$(cat '$TMP/mntpath')\""
printf '%s' "$mnt" >"$TMP/mntpath"
ok "mounted /dev/$dev on a hostile name"

# clean NAME RC FILE... : the command exited RC and its outputs are clean text
clean() {
	local name=$1 want=$2 got=$3; shift 3
	[ "$got" -eq "$want" ] || { fail "$name" "exit $got, want $want: $(cat "$@" | head -3)"; return; }
	local why
	if why=$(python3 "$here/check_output.py" text "$@" 2>&1); then ok "$name"
	else fail "$name" "$(head -3 <<<"$why")"; fi
}

"$IOSCOPE" --batch -i 0.25 -c 24 -f text --record "$TMP/s.log" "$dev" >"$TMP/batch.txt" 2>"$TMP/batch.err" &
pid=$!
sleep 1
"$IOSCOPE" remount --yes "$mnt" +noatime </dev/null >"$TMP/remount.txt" 2>"$TMP/remount.err"
clean "remount" 0 $? "$TMP/remount.txt" "$TMP/remount.err"
"$IOSCOPE" show "$mnt" >"$TMP/show.txt" 2>"$TMP/show.err"
clean "show MOUNTPOINT" 0 $? "$TMP/show.txt" "$TMP/show.err"
grep -qF 'm?]2;PWNED???---- 09:00:00 vda sched none->bfq (fake) ----?' "$TMP/show.txt" \
	&& ok "show: the mount point is named, escaped" || fail "show: mount point escaped" "$(cat "$TMP/show.txt")"
"$IOSCOPE" show "$dev" >"$TMP/showd.txt" 2>"$TMP/showd.err"
clean "show DEVICE" 0 $? "$TMP/showd.txt" "$TMP/showd.err"
grep -qF 'PWNED???' "$TMP/remount.txt" && ok "remount: the mount point is named, escaped" \
	|| fail "remount names the mount point" "$(cat "$TMP/remount.txt")"
"$IOSCOPE" remount --yes "$mnt" +nosuchoption </dev/null >"$TMP/remount2.txt" 2>"$TMP/remount2.err"
clean "remount refused" 1 $? "$TMP/remount2.txt" "$TMP/remount2.err"
"$IOSCOPE" set --yes "$mnt" read_ahead_kb=256 </dev/null >"$TMP/set.txt" 2>"$TMP/set.err"
clean "set on the mount point: refused, the name escaped" 2 $? "$TMP/set.txt" "$TMP/set.err"
"$IOSCOPE" set --yes "$dev" read_ahead_kb=256 </dev/null >"$TMP/set.txt" 2>"$TMP/set.err"
clean "set on its device" 0 $? "$TMP/set.txt" "$TMP/set.err"
wait $pid
clean "batch text with the remount event" 0 $? "$TMP/batch.txt" "$TMP/batch.err"
# (a line of 99 columns: the long mount point keeps its end, escaped)
grep -qE -- '^---- [0-9:]+ .*[?][?]---- 09:00:00 vda sched none->bfq [(]fake[)] ----[?] remount [+]noatime' \
	"$TMP/batch.txt" && ok "batch text: the remount event is there, escaped" \
	|| fail "batch text: the remount event" "$(grep -- '----' "$TMP/batch.txt")"
for fmt in text csv; do
	"$IOSCOPE" report "$TMP/s.log" -f "$fmt" >"$TMP/report.$fmt" 2>"$TMP/report.$fmt.err"
	clean "report -f $fmt" 0 $? "$TMP/report.$fmt" "$TMP/report.$fmt.err"
done
"$IOSCOPE" --replay "$TMP/s.log" --batch -f csv >"$TMP/replay.csv" 2>"$TMP/replay.csv.err"
clean "replay --batch -f csv" 0 $? "$TMP/replay.csv" "$TMP/replay.csv.err"
"$IOSCOPE" --replay "$TMP/s.log" --batch -f json >"$TMP/replay.json" 2>"$TMP/replay.json.err"
python3 - "$TMP/replay.json" "$mnt" <<'PY' && ok "batch JSON has the exact mount point" || fail "batch JSON has the exact mount point"
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
sys.exit(not any(e["object"] == sys.argv[2] for r in rec for e in r["events"]))
PY
