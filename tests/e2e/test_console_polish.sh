#!/bin/bash
# The console's smaller edges (issue 41, item 8), on a replay of two disks
# (session_log_gen.py), so they hold on any machine: the help box takes a wide
# terminal's width, its long lines go on under their text, End and Home scroll it (they
# closed it); a column taken off and ticked again in F2 is back at its place (it went to
# the end); the sorted column's header says which way (▼ largest first, ▲ after I); the
# "terminal too small" message is whole at 40 columns, on two lines; the seek prompt
# lists every time form G takes, and @EPOCH seeks.  The marks panel says a mount's
# options as the detail pane does ("mount flags", "fs options", not mount_opts and
# super_opts), shortens a long mount point in the middle so that the change stays in
# view, and says tracing on as "trace  off → on", not "trace  trace  off → on".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console polish" "tmux not installed"; exit 0; }
needs "console polish" python3
LOG="$TMP/two.log"
python3 "$(dirname "$0")/session_log_gen.py" 300 2 "$LOG" || { fail "log"; exit 1; }
# sample 101's time, whole seconds since the epoch (the generator's: 100 s after the first)
epoch=$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "sample" and r["seq"] == 101: print(r["wall"] // 10**9 + 1)' "$LOG")

console_shell 160 50
console_run --replay "$LOG"
screen_check "replay started" "REPLAY [0-9]+/300 " 5
console_send P   # paused: the table stays as it is

# help: as wide as the terminal allows, a long line wrapped under its text, End/Home scroll
console_send '?'
screen_check "help open" "Help - Esc, q or \? closes" 3
box=$(screen | grep -m1 "Help - Esc" | python3 -c 'import sys; l = sys.stdin.read().rstrip("\n"); print(l.rindex("┐") - l.index("┌") + 1)')
check "help: the box takes the terminal's width (${box:-?} of 160 columns)" test "${box:-0}" -ge 150
# the row under Tab's: the rest of its text, under the text (2 + 14 + 1 columns in)
if screen | grep -A1 -E "│   Tab +next graph metric" | tail -1 | grep -qE "│ {18}[^ ]"; then
	ok "help: Tab's long line goes on under its text, indented"; else
	fail "help: Tab's long line goes on under its text, indented"; show_screen; fi
if screen | grep -E "│   Tab +next graph metric" | grep -q "…"; then fail "help: Tab's line not cut"; show_screen; else ok "help: Tab's line not cut"; fi
console_send End
screen_check "help: End scrolls to the last line" "\(see ioscope\(1\), CONSOLE and THEMES\)" 3
screen_check "help: End leaves it open" "Help - Esc, q or \? closes" 1
console_send Home
screen_check "help: Home back to the first" "│ Devices +│" 3
console_send Escape
gone_check "help: Esc closes it" "Help - Esc"

# F2: r/s off, then on again: back before rMB/s, not at the end
console_send F2
screen_check "F2: chooser" "Columns - Space ticks" 3
console_send Space Enter
screen_check "F2: r/s off" "^Device +rMB/s " 3
console_send F2
wait_screen "Columns - Space ticks" 3
console_send Space Enter
screen_check "F2: r/s ticked again is back at its place" "^Device +r/s +rMB/s r_await .* sched( |$)" 3

# the sorted column says which way
console_send '>' '>'
screen_check "sort: rMB/s, largest first" "^Device +r/s +▼rMB/s " 3
console_send I
screen_check "I: smallest first" "^Device +r/s +▲rMB/s " 3
console_send '<' '<'
screen_check "Device: the kernel's order, no arrow" "^Device +r/s +rMB/s " 3

# too small: whole at 40 columns, then back
console_resize 40 12
screen_check "too small at 40 columns: its size" "^ *terminal too small: 40x12 *$" 5
screen_check "too small at 40 columns: what it needs, whole" "^ *ioscope needs 80x24 *$" 3
console_resize 160 50
screen_check "back from too small" "^Device +r/s" 5

# the seek prompt names every form, and @EPOCH is one
console_send G
screen_check "seek prompt: every form" \
	"^seek to \(HH:MM\[:SS\], YYYY-MM-DD HH:MM\[:SS\], @EPOCH, \+5m\):" 3
console_send -l "@$epoch"
console_send Enter
screen_check "@EPOCH seeks" "seeked: sample 10[12]/300" 3
console_send q
ended_check "polish"

# a remount on a long mount point, then an fs option (the mount table logged again), and
# tracing on (an event)
MNT="/srv/a-mount-point-with-a-rather-long-name/and-a-subdirectory-that-makes-it-longer"
python3 - "$LOG" "$TMP/marks.log" "$MNT" <<'PY' || { fail "marks log"; exit 1; }
import json, sys
src, out, mnt = sys.argv[1:4]
lines = open(src).read().splitlines()
def mount(opts, sopts):
    return dict(major=8, minor=0, disk="sdaa", source="/dev/sdaa", mountpoint=mnt, fstype="ext4",
                mount_opts=opts, super_opts=sopts)
# the mount table as the recorder logs it: in the header, then again when it changed
after = {5: [mount("rw,noatime", "rw")], 6: [mount("rw,noatime", "rw,nobarrier")]}
trace = dict(type="event", kind="trace", object="trace", key="trace", old="off", new="on",
             result="", by="ioscope")
with open(out, "w") as f:
    for l in lines:
        r = json.loads(l)
        if r["type"] == "header":
            r["mounts"] = [mount("rw,relatime", "rw")]
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
        if r["type"] == "sample" and r["seq"] in after:
            f.write(json.dumps(dict(type="mounts", mounts=after[r["seq"]]), separators=(",", ":")) + "\n")
        if r["type"] == "sample" and r["seq"] == 7:
            e = dict(trace, seq=7, mono=r["mono"] + 500_000_000, wall=r["wall"] + 500_000_000)
            f.write(json.dumps(e, separators=(",", ":")) + "\n")
PY
console_resize 200 50   # the side column's marks panel: 70 columns inside
console_run --replay "$TMP/marks.log"
screen_check "marks replay started" "REPLAY [0-9]+/300 " 5
console_send x x   # x100: past the changes at once
screen_check "a long mount point's change stays in view, said as mount flags" \
	"\[[0-9]+\] [0-9:]{8}  /srv/a-m[^ ]*…[^ ]*  mount flags  rw,relatime → rw,noatime( |$)" 10
screen_check "the superblock's options said as fs options" \
	"\[[0-9]+\] [0-9:]{8}  /srv/a-m[^ ]*…[^ ]*  fs options  rw → rw,nobarrier( |$)" 3
screen_check "tracing on: trace  off → on" "\[[0-9]+\] [0-9:]{8}  trace  off → on( |$)" 3
console_send q
ended_check "marks"
