#!/bin/bash
# The console's why pane (W) at 80x24 on real loop devices.  A steady dd: the pane takes the
# graphs' place, lists the selected device's processes by I/O (its dd; what else this shared
# machine writes is another device's, summed up in a line), says what is missing (delay
# accounting), and W hides it again (the graphs come back); q exits cleanly.
# A file-creation loop with fsync on a loop ext4: the pane shows that device's jbd2 line
# moving, and the dirty line with the kernel's limits (the threshold as /proc/vmstat says).
# The loop device's own writeback limit (strict_limit, max_bytes on its bdi, put back
# afterwards): a buffered writer is throttled and the pane says so.  The replay of that
# session shows the recorded jbd2 figures, as the batch replay does.  Unprivileged, with
# root's writers blocked on a frozen xfs: they are said not attributed (what they wait on is
# root's to read), no stacks, notes say what it needs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "why pane" "needs root for a loop device"; exit 0; }
command -v tmux >/dev/null || { skip "why pane" "tmux not installed"; exit 0; }

shm=$(mktemp -d /dev/shm/ioscope-test.XXXXXX)
at_exit "rm -rf '$shm'"
truncate -s 1G "$shm/img"
ddev=$(losetup --find --show "$shm/img") && at_exit "losetup -d '$ddev'"
dev=$(basename "$ddev")
restore_queue "$dev"
# steady for the whole check, however slow the console is to start on a busy machine (one
# 1 GiB dd to shm memory is over in a second): "Why DEV" lists the processes writing DEV
busy_writer "$dev" 120

console_shell 80 24
console_run "$dev"
screen_check "console up" "^ioscope "
console_send W
screen_check "80x24: the pane lists the device's processes by I/O" "^ +[0-9]+ [a-z0-9]+ +dd +[0-9.]+[kMG]? +[0-9.]+[kMG]? +"
screen_check "why pane title" "Why $dev: blocked, dirty, journals, processes by I/O"
screen_check "blocked line: the selected device's" "blocked on $dev: [0-9]+ tasks? in D state"
if [ "$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)" = 0 ]; then
	screen_check "delay accounting note, with how to turn it on" "delay accounting is off.*task_delayacct=1"
fi
screen | sed -n 24p | grep -q "Quit" && ok "80x24: key bar still on line 24" \
	|| { fail "80x24: key bar still on line 24"; show_screen; }
console_send W
if wait_gone "Why $dev: blocked" 5; then ok "W hides the pane again"
else fail "W hides the pane again"; show_screen; fi
console_send q
if wait_screen "EXIT=[0-9]+" 10 && screen | grep -q "EXIT=0"; then ok "q exits 0"
else fail "q exits 0"; show_screen; fi
grep -qE 'Sanitizer|runtime error' "$CONSOLE_STDERR" && fail "no sanitizer report" "$(head "$CONSOLE_STDERR")" \
	|| ok "no sanitizer report"

# ---- a loop ext4 with a file-creation loop (fsync each): its journal line, the dirty line ----
e=$(make_loop 200) && me=$(make_fs "$e" ext4) || { fail "ext4 loop" "cannot make it"; exit 0; }
fsync_churn "$me" 60
console_send -l clear
console_send Enter
console_run --record "$TMP/e.log" "$e"
screen_check "ext4: console up" "^ioscope "
console_send W
# "ext4 loopN /tmp/…/mnt-loopN: commits 21/s, commit 4.0 ms" (figures flow onto the next line)
jbd2="^ ext4 $e .*: commits ([0-9.]+)/s"
screen_check "ext4: the selected device's jbd2 line" "$jbd2"
# moving: commits and a commit time, in two frames a few seconds apart
moving=0
for _ in 1 2; do
	if wait_screen "$jbd2, commit [0-9.]+ ms" 6 &&
	   screen | grep -E "$jbd2" | grep -qE 'commits ([1-9][0-9.]*|0\.[0-9]*[1-9][0-9]*)/s'; then
		moving=$((moving + 1))
	fi
	sleep 2
done
[ $moving = 2 ] && ok "ext4: the jbd2 line moves with the fsync loop (commits/s > 0, commit ms)" \
	|| { fail "ext4: the jbd2 line moves with the fsync loop" "$moving of 2 frames"; show_screen; }
screen | grep -qE "blocks/commit [0-9.]+" && ok "ext4: blocks/commit shown" \
	|| { fail "ext4: blocks/commit shown"; show_screen; }
# the dirty line: sizes against the limits, then the rates; the threshold is /proc/vmstat's
screen_check "dirty line: dirty, writeback, background, freerun, threshold" \
	"^ dirty [0-9.]+[kMG]?  writeback [0-9.]+[kMG]?  background [0-9.]+[kMG]?  freerun [0-9.]+[kMG]?"
screen_check "dirty line: dirtied and written rates" "^ dirtied [0-9.]+[kMG]?/s  written [0-9.]+[kMG]?/s"
out=$(screen | python3 -c '
import re, sys, os
text = sys.stdin.read()
m = re.search(r"threshold ([0-9.]+)([kMG]?)\b", text)
if not m:
    print("no threshold on screen"); sys.exit()
mb = float(m.group(1)) * {"k": 1 / 1024, "": 1, "M": 1, "G": 1024}[m.group(2)]
pages = dict(l.split() for l in open("/proc/vmstat"))["nr_dirty_threshold"]
want = int(pages) * os.sysconf("SC_PAGE_SIZE") / 2**20
print("ok" if abs(mb - want) <= max(0.06 * want, 0.1) else f"shown {mb} MB, /proc/vmstat {want} MB")')
[ "$out" = ok ] && ok "dirty line: the threshold is nr_dirty_threshold" \
	|| { fail "dirty line: the threshold is nr_dirty_threshold" "$out"; show_screen; }

# ---- the loop device's own writeback limit: a buffered writer is throttled ----
bdi=/sys/class/bdi/$(cat "/sys/block/$e/dev")
if [ -w "$bdi/max_bytes" ] && [ -w "$bdi/strict_limit" ]; then
	at_exit "echo $(cat "$bdi/strict_limit") >'$bdi/strict_limit'; echo $(cat "$bdi/max_bytes") >'$bdi/max_bytes'"
	echo 1 >"$bdi/strict_limit" && echo 1048576 >"$bdi/max_bytes"
	bg timeout 30 bash -c "while :; do dd if=/dev/zero of='$me/big' bs=1M count=100 status=none; done"
	screen_check "strict_limit: the pane says the writer is throttled in balance_dirty_pages" \
		"^ writers throttled: [0-9]+ tasks? in balance_dirty_pages" 15
else
	skip "strict_limit in the pane" "no $bdi/max_bytes or strict_limit on this kernel"
fi
console_send q
if wait_screen "^EXIT=[0-9]+" 10 && screen | grep -qx "EXIT=0"; then ok "ext4: q exits 0"
else fail "ext4: q exits 0"; show_screen; fi
stderr_clean && ok "ext4: no sanitizer report" || fail "ext4: no sanitizer report" "$(head "$CONSOLE_STDERR")"

# ---- the replay of that recording: the pane shows the recorded figures, as batch does ----
# the last interval's jbd2 figures: batch text's "journal MNT ext4 DEV: FIGURES" against the
# pane's "ext4 DEV MNT: FIGURES" (its continuation lines joined back with ", ")
want=$("$IOSCOPE" --replay "$TMP/e.log" --batch 2>/dev/null | grep " ext4 $e: " | tail -1 | sed 's/^.* ext4 [^ ]*: //')
console_send -l clear
console_send Enter
console_run --replay "$TMP/e.log"
screen_check "replay: console up" "^ioscope .*REPLAY"
console_send x   # x100: to its end in a moment
console_send x
screen_check "replay: end of data" "end of data" 20
console_send W
screen_check "replay: the pane shows the journal" "^ ext4 $e "
got=$(screen | awk -v dev="$e" '$1 == "ext4" && $2 == dev { on = 1; sub(/^.*: /, ""); line = $0; next }
	on && /^   [^ ]/ { sub(/^ +/, ""); line = line ", " $0; next } on { print line; exit }')
[ -n "$want" ] && [ "$got" = "$want" ] && ok "replay: the pane's jbd2 figures are the recorded ones ($got)" \
	|| { fail "replay: the pane's jbd2 figures are the recorded ones" "pane '$got', batch '$want'"; show_screen; }
console_send q
if wait_screen "^EXIT=[0-9]+" 10 && screen | grep -qx "EXIT=0"; then ok "replay: q exits 0"
else fail "replay: q exits 0"; show_screen; fi

# ---- unprivileged, writers blocked on a frozen xfs: not attributed, no stacks, notes ----
x=$(make_loop 320) && mx=$(make_fs "$x" xfs) || { fail "xfs loop" "cannot make it"; exit 0; }
pwrite_loop "$mx/a"
pwrite_loop "$mx/b"
for _ in $(seq 100); do [ -s "$mx/a" ] && [ -s "$mx/b" ] && break; sleep 0.1; done
fsfreeze -f "$mx" && at_exit "fsfreeze -u '$mx'"
console_send -l clear
console_send Enter
CONSOLE_CMD="setpriv --reuid=65534 --regid=65534 --clear-groups $IOSCOPE" console_run "$x"
screen_check "unprivileged: console up" "^ioscope "
console_send W
# root's writers: what they wait on cannot be read, so they are said not attributed
screen_check "unprivileged: the frozen writers are said, not attributed" \
	"^   not attributed: [0-9]+ blocked \(([^)]*, )?[0-9]+ python3"
screen_check "unprivileged: a note says stacks need CAP_SYS_ADMIN" \
	"^ no kernel stacks: /proc/PID/stack needs CAP_SYS_ADMIN"
screen_check "unprivileged: a note says attribution needs root" \
	"^ not attributed: what another user's task waits on is read as root only"
fsfreeze -u "$mx"
gone_check "after fsfreeze -u the group leaves the pane" "blocked \(([^)]*, )?[0-9]+ python3" 8
console_send q
if wait_screen "^EXIT=[0-9]+" 10 && screen | grep -qx "EXIT=0"; then ok "unprivileged: q exits 0"
else fail "unprivileged: q exits 0"; show_screen; fi
stderr_clean && ok "unprivileged: no sanitizer report" || fail "unprivileged: no sanitizer report" "$(head "$CONSOLE_STDERR")"
