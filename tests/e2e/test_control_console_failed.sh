#!/bin/bash
# A console change that is not made drops its pending hold at once (expect.h): the
# console announces a change as pending before its job writes, and holds what samples
# observe of that object until the job's events come.  Here the job makes none: the
# remount editor plans `nobarrier` for MNT, and while it asks (a risky change) another
# filesystem is mounted over MNT, so the job refuses ("a different filesystem is mounted
# there now") without an event.  A change made from a shell a moment later (mount -o
# remount,noatime, no ioscope involved) must be logged as observed within the next
# samples.  The old code held it for EXPECT_WAIT_SECONDS (10 s): the console quit 2 s later
# had not logged it at all.  A batch instance running beside hears the pending change and
# then its withdrawal (announce_withdrawn): it logs the shell's change as observed at once
# too (without the withdrawal it held it those 10 s).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"

if ! is_root; then
	skip control_console_failed "needs root for loop devices and mounts"
	exit 0
fi
if ! command -v tmux >/dev/null; then
	skip control_console_failed "tmux not installed"
	exit 0
fi

A=$(make_loop 64) && B=$(make_loop 64) || { fail control_console_failed_setup "no loop devices"; exit 0; }
MNT=$TMP/mnt
mkdir -p "$MNT"
{ mkfs_ext4 "/dev/$A" && mkfs_ext4 "/dev/$B"; } >/dev/null 2>&1 \
	&& mount "/dev/$A" "$MNT" || { fail control_console_failed_setup "no ext4 on $A"; exit 0; }
at_exit "umount -l '$MNT'"
LOG=$TMP/session.log

keys() { console_send "$@"; nap 0.3; }

"$IOSCOPE" --batch -i 0.2 -f json --record "$TMP/other.log" "$A" "$B" >"$TMP/other.json" \
	2>"$TMP/other.err" &
other=$!
at_exit "kill $other"
wait_socket "$other" || fail "batch beside listens" "$(cat "$TMP/other.err")"

console_shell 128 50
console_run --record "$LOG" -i 0.2 "$A" "$B"
if ! wait_screen "ext4  $MNT" 15; then
	fail console_started "no console with $MNT in the detail pane:"; show_screen; exit 0
fi
ok console_started

keys o
screen_check mount_editor_opens "Remount $MNT \(ext4\)"
keys C-u "nobarrier" Enter
screen_check risky_change_asks "write barriers off"
# the plan was made for A's filesystem; B's is on top of it when the job runs (mounted
# over it, not in its place: a mount freed and made again may get the same id)
mount "/dev/$B" "$MNT" && at_exit "umount -l '$MNT'" \
	&& ok mount_over || fail mount_over "cannot mount $B at $MNT"
nap 0.6
keys y
screen_check job_refused "a different filesystem is mounted there now"
mount -o remount,noatime "$MNT" && ok shell_remount || fail shell_remount "mount -o remount,noatime"
sleep 2
keys Escape
keys q
ended_check control_console_failed
kill -TERM "$other"
wait "$other" && clean_stderr "$TMP/other.err" && ok "batch beside ran" \
	|| fail "batch beside ran" "$(cat "$TMP/other.err")"

# observed: MNT's mount_options events by "observed" whose new options have noatime
observed_in() {
	python3 - "$1" "$MNT" <<'EOF'
import json, sys
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if (r.get("type") == "event" and r.get("kind") == "mount_options" and
            r.get("object") == sys.argv[2] and r.get("by") == "observed" and
            "noatime" in (r.get("new") or "").split(",")):
        n += 1
print(n)
EOF
}
observed=$(observed_in "$LOG")
[ "$observed" = 1 ] && ok "shell's change logged as observed at once after the refused job" \
	|| fail "shell's change logged as observed at once after the refused job" \
		"$observed such events: $(grep '"mount_options"' "$LOG" | head -5)"
# the batch beside heard the console's pending change (it held MNT) and its withdrawal
observed=$(observed_in "$TMP/other.log")
[ "$observed" = 1 ] && ok "the instance beside: withdrawn, the shell's change observed at once" \
	|| fail "the instance beside: withdrawn, the shell's change observed at once" \
		"$observed such events: $(grep '"mount_options"' "$TMP/other.log" | head -5)"
