#!/bin/bash
# The console's recording on a disk that fills up (issue 9, item 9): the header says
# REC FAILED with the cause instead of "● REC", goes back to "● REC" once there is room
# again, and a scheduler switch seen while the disk was full is in the log with its own
# time (the report places it in the gap, not at the moment the disk had room again).
# Also the record key and planted symlinks (item 10): R does not follow a link to a
# file (it used to stat() the name, which a link fooled) nor a dangling one.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "recording on a full disk" "tmux not installed"; exit 0; }
is_root || { skip "recording on a full disk" "needs root to mount a small tmpfs"; exit 0; }
mkdir "$TMP/full"
mount -t tmpfs -o size=1m tmpfs "$TMP/full" || { skip "recording on a full disk" "no tmpfs"; exit 0; }
at_exit "umount -l '$TMP/full'"
LOG="$TMP/full/s.log"
make_loop 16 >"$TMP/loop" || { fail "loop device"; exit 1; }
dev=$(cat "$TMP/loop")
# two elevators the kernel offers (mq-deadline and kyber, bfq where it is built), never by name
needs_elevators "recording on a full disk" "$dev" 2
read -r E1 E2 < <(pick_elevators "$dev" 2)
echo "$E1" >"/sys/block/$dev/queue/scheduler"

console_shell 160 40
console_run -i 0.2 --record "$LOG"
screen_check "recording: header" "● REC $LOG" 10
sleep 1
dd if=/dev/zero of="$TMP/full/filler" bs=4k status=none 2>/dev/null
screen_check "disk full: REC FAILED with the cause in the header" \
	"REC FAILED: $LOG: No space left on device" 5
screen | grep -q "● REC" && { fail "disk full: no ● REC any more"; show_screen; } \
	|| ok "disk full: no ● REC any more"
nap 0.5
echo "$E2" >"/sys/block/$dev/queue/scheduler"
switch_time=$(date +%s)
sleep 2.5
rm -f "$TMP/full/filler"
screen_check "room again: ● REC is back" "● REC $LOG" 5
check "room again: REC FAILED gone" wait_gone "REC FAILED" 3
sleep 1
console_send q
screen_check "exits 0" "^EXIT=0" 5
check "no sanitizer report" stderr_clean

# --record -: the log streams to a pipe, the console draws on /dev/tty
console_send -l "clear"; console_send Enter
console_send -l "$IOSCOPE -i 0.2 --record - 2>$TMP/stream.err | cat >$TMP/stream.log; echo EXIT=\${PIPESTATUS[0]}"
console_send Enter
screen_check "--record -: console on the terminal" "● REC -" 10
sleep 1
console_send q
screen_check "--record -: exits 0" "^EXIT=0" 5
n=$(grep -c '^{"type":"sample"' "$TMP/stream.log")
[ "$(head -c 16 "$TMP/stream.log")" = '{"type":"header"' ] && [ "$n" -ge 3 ] \
	&& ! grep -qE 'Sanitizer|runtime error' "$TMP/stream.err" \
	&& ok "--record -: the pipe got the log ($n samples)" \
	|| fail "--record -: the pipe got the log" "$n samples, $(head -3 "$TMP/stream.err")"

# R through planted symlinks: refused, the target untouched, nothing created
printf 'root only\n' >"$TMP/target"
ln -s "$TMP/target" "$TMP/planted.log"
ln -s "$TMP/not-there" "$TMP/dangling.log"
console_send -l "clear"; console_send Enter
console_run -i 0.25
screen_check "R test: console up" "^Device +r/s" 10
for link in planted dangling; do
	console_send R
	wait_screen "^record to: " 3
	console_send C-u
	console_send -l "$TMP/$link.log"; console_send Enter
	screen_check "R: $link symlink refused" "$link.log is a symbolic link" 3
done
check "R: the link's target untouched" test "$(cat "$TMP/target")" = "root only"
check "R: nothing created through the dangling link" test ! -e "$TMP/not-there"
screen | grep -q "● REC" && fail "R: no recording started" || ok "R: no recording started"
console_send q
screen_check "R test: exits 0" "^EXIT=0" 5
check "R test: no sanitizer report" stderr_clean

# the switch is in the log with the time it was seen
python3 - "$LOG" "$switch_time" "$dev" "$E1" "$E2" <<'PY'
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"type":"event"')]
sw = [e for e in evs if e["kind"] == "scheduler" and e["object"] == sys.argv[3]
      and e["old"] == sys.argv[4] and e["new"] == sys.argv[5]]
ok = len(sw) == 1 and abs(sw[0]["wall"] / 1e9 - int(sys.argv[2])) < 1.5
print(("ok" if ok else "not ok") + " the switch seen while the disk was full is in the log, with its own time")
PY
"$IOSCOPE" report "$LOG" -d "$dev" -f text >"$TMP/report.txt" 2>"$TMP/report.err"
check "the log reports" test -s "$TMP/report.txt"
# rows are interval ends (HH:MM:SS): the row before the inline switch ends before the
# switch, the one after it spans the gap (the disk was full for 3 s)
python3 - "$TMP/report.txt" "$dev" "$E1" "$E2" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
# times carry tenths when the interval is under a second, then the event's number; the
# names are [a-z-]
pat = r"^---- (\d\d:\d\d:\d\d(?:\.\d)?) \[\d+\] sched %s %s→%s ----$" % tuple(sys.argv[2:5])
i = next((k for k, l in enumerate(lines) if re.match(pat, l)), None)
if i is None:
    print("not ok report: the switch inline"); sys.exit()
at = re.match(pat, lines[i]).group(1)
rows = [l.split()[0] for l in lines[:i] if re.match(r"^\d\d:\d\d:\d\d(\.\d)? ", l)]
print(("ok" if rows and rows[-1] <= at else "not ok") +
      " report: the switch stays at its time (row before %s, switch %s)" % (rows[-1] if rows else None, at))
PY
