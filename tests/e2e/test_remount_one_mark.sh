#!/bin/bash
# One remount, one mark (issue 41): `remount,ro` changes both columns of mountinfo (the
# mount's flags and the filesystem's options); it was two events, two marks. On a loop ext4
# watched by the console (tmux) and a batch beside: by hand (mount -o remount,ro), from the
# console's options editor (o, rw) and from a shell (ioscope remount ro), each is one
# mark in the marks panel saying the change once ("remount +ro -rw"), one event in batch
# JSON and in the session log, and one in the replay and the report of that log.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"

if ! is_root; then
	skip remount_one_mark "needs root for loop devices and mounts"
	exit 0
fi
if ! command -v tmux >/dev/null; then
	skip remount_one_mark "tmux not installed"
	exit 0
fi

L=$(make_loop 64) || { fail remount_one_mark_setup "no loop device"; exit 0; }
MNT=$(make_fs "$L" ext4) || { fail remount_one_mark_setup "no ext4 on $L"; exit 0; }
LOG=$TMP/console.log

# panel_rows: the marks panel's rows of MNT (its mount point may be shortened in the
# middle: its end), one a line, from the mark's number on
panel_rows() {
	screen | grep -oE "\[[0-9]+\] [0-9:]{8}  [^ ]*${L}  .*"
}
# rows_are N PATTERN: N rows of MNT, the last matching PATTERN
rows_are() {
	[ "$(panel_rows | wc -l)" = "$1" ] && panel_rows | head -1 | grep -qE -- "$2"
}
# settle: a few samples (0.2 s each) after a change, for a second mark to come if one would
settle() { sleep 1.2; }

console_shell 160 50
console_run --record "$LOG" -i 0.2 "$L"
if ! wait_screen "ext4  $MNT" 15; then
	fail console_started "no console with $MNT in the detail pane:"; show_screen; exit 0
fi
ok console_started
"$IOSCOPE" --batch -i 0.2 -f json "$L" >"$TMP/beside.json" 2>"$TMP/beside.err" &
beside=$!
at_exit "kill $beside"
wait_output "$TMP/beside.json" "$beside" || fail batch_started "$(cat "$TMP/beside.err")"
wait_socket "$beside"

# by hand
mount -o remount,ro "$MNT" || fail mount_remount_ro "mount -o remount,ro refused"
wait_until 5 "" rows_are 1 'remount \+ro -rw' && settle
if rows_are 1 'remount \+ro -rw'; then ok by_hand_one_mark
else fail by_hand_one_mark "$(panel_rows | tr '\n' '|')"; show_screen; fi

# from the console's options editor
console_send o; nap 0.3
console_send C-u "rw" Enter
if wait_screen 'y/N|\[y\]|confirm' 2 2>/dev/null; then console_send y; fi
wait_screen 'rw: ok' 5 || { fail editor_remount_rw "no 'rw: ok'"; show_screen; }
console_send Escape
wait_until 5 "" rows_are 2 'remount \+rw -ro' && settle
if rows_are 2 'remount \+rw -ro  \(by'; then ok editor_one_mark
else fail editor_one_mark "$(panel_rows | tr '\n' '|')"; show_screen; fi

# from a shell, announced to both instances
"$IOSCOPE" remount --yes "$MNT" ro >"$TMP/remount.out" 2>&1 </dev/null \
	|| fail shell_remount_ro "$(cat "$TMP/remount.out")"
wait_until 5 "" rows_are 3 'remount \+ro -rw' && settle
if rows_are 3 'remount \+ro -rw  \(by'; then ok shell_one_mark
else fail shell_one_mark "$(panel_rows | tr '\n' '|')"; show_screen; fi

console_send q
ended_check remount_one_mark
kill -INT "$beside"
wait "$beside" && clean_stderr "$TMP/beside.err" && ok batch_beside_ran \
	|| fail batch_beside_ran "$(cat "$TMP/beside.err")"

# labels_of KIND FILE: MNT's mount_options events in batch JSON or a session log, "BY|LABEL"
# (a log has no label: its keys) one a line
events_of() {
	python3 - "$1" "$MNT" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    evs = r.get("events", [r] if r.get("type") == "event" else [])
    for e in evs:
        if e.get("kind") == "mount_options" and e.get("object") == sys.argv[2]:
            print(e.get("by"), e.get("label", e.get("key")))
EOF
}
n=$(events_of "$TMP/beside.json" | wc -l)
[ "$n" = 3 ] && ok batch_three_events || fail batch_three_events "$(events_of "$TMP/beside.json" | tr '\n' '|')"
[ "$(events_of "$TMP/beside.json" | grep -c 'remount +r[ow] -r[ow]')" = 3 ] && ok batch_labels_once \
	|| fail batch_labels_once "$(events_of "$TMP/beside.json" | tr '\n' '|')"
n=$(events_of "$LOG" | wc -l)
[ "$n" = 3 ] && ok log_three_events || fail log_three_events "$(events_of "$LOG" | tr '\n' '|')"
"$IOSCOPE" --replay "$LOG" --batch "$L" >"$TMP/replay.txt" 2>"$TMP/replay.err"
n=$(grep -cF -- "$MNT remount" "$TMP/replay.txt")
[ "$n" = 3 ] && clean_stderr "$TMP/replay.err" && ok replay_three_events \
	|| fail replay_three_events "$(grep -F -- "$MNT" "$TMP/replay.txt" | tr '\n' '|')"
"$IOSCOPE" report "$LOG" --devices "$L" >"$TMP/report.txt" 2>"$TMP/report.err"
n=$(grep -E '^---- ' "$TMP/report.txt" | grep -cF -- "remount $MNT")
[ "$n" = 3 ] && clean_stderr "$TMP/report.err" && ok report_three_events \
	|| fail report_three_events "$(grep -F -- "$MNT" "$TMP/report.txt" | tr '\n' '|')"
