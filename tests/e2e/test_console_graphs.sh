#!/bin/bash
# The console's graph metrics beyond iostat's: a write-only workload gives the empty read
# series one line and the write graph its room; Tab reaches dirty (with its limit lines),
# journal, D tasks, PSI and seeks/s, which draw or say what they need.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console graphs" "needs root for loop devices and a mount"; exit 0; }
command -v tmux >/dev/null || { skip "console graphs" "tmux not installed"; exit 0; }

raw=$(make_loop 64) || { fail "loop device"; exit 1; }
udevadm settle 2>/dev/null   # udev's probe reads of a new device are over
busy_writer "$raw" 120

# the label row of a strip ("loop3 read 0  (nothing in view)"): its screen line, 0-based
row_of() { screen | grep -nE -- "$1" | head -1 | cut -d: -f1; }

console_shell 120 40
console_run "$raw"
screen_check "write-only: the write strip" "^$raw write [0-9.]+[kMG]?  peak"
screen_check "write-only: read keeps one line" "^$raw read 0  \(nothing in view\)"
r=$(row_of "^$raw read 0 ")
w=$(row_of "^$raw write [0-9.]+")
axis=$(row_of " now$")
if [ -n "$r" ] && [ -n "$w" ] && [ -n "$axis" ] && [ "$w" -eq $((r + 1)) ] && [ $((axis - w)) -ge 6 ]; then
	ok "write-only: the write graph has the read's rows ($((axis - w - 1)) plot rows)"
else
	fail "write-only: the write graph has the read's rows" "read at ${r:-?}, write at ${w:-?}, axis at ${axis:-?}"
	show_screen
fi

# Tab from MB/s: IOPS await %util f/s in-flight dirty probe journal D-tasks PSI seeks/s
for i in 1 2 3 4 5 6; do console_send Tab; done
screen_check "Tab: dirty with its limit lines in the title" \
	"^─ dirty / writeback \(system\)  lines ─bg ┄freerun ═limit" 3
screen_check "dirty: the limits' values on the strip" \
	"^dirty [0-9.]+[kMG]?  peak [0-9.]+[kMG]?  ─bg [0-9.]+[kMG]  ┄freerun [0-9.]+[kMG]  ═limit [0-9.]+[kMG]" 3
# three columns of the line: three samples or more after the console started (3.5 s after
# the strip appeared, every run: 3 s was not enough, but for how slowly the polls went)
screen_check "dirty: the limit drawn as a line" "│.*═══" 10
console_send Tab
screen_check "Tab: probe says it needs --probe" "probe: needs --probe" 3
console_send Tab
screen_check "Tab: journal of a device without a filesystem says so" \
	"^─ journal .*|$raw journal: no journal figures" 3
screen_check "journal: no journal figures on the raw device" "$raw journal: no journal figures" 3
console_send Tab
screen_check "Tab: D tasks without --tasks says what it needs" "D-tasks: needs --tasks or W" 3
console_send Tab
if [ -r /proc/pressure/io ]; then
	screen_check "Tab: PSI io some and full" "^─ io some / io full \(PSI avg10, %\)" 3
	screen_check "PSI: io some" "^io some [0-9.]+%  (peak|\(nothing in view\))" 3
	screen_check "PSI: io full (one line when 0 all along)" "^io full [0-9.]+%  (peak|\(nothing in view\))" 3
else
	screen_check "Tab: PSI says the kernel has none" "PSI: needs a kernel with PSI" 3
fi
console_send Tab
screen_check "Tab: seeks/s without --trace says what it needs" "$raw seeks/s: needs --trace" 3
console_send q
ended_check "raw device"

# ext4 with an fsync'ing writer, --tasks: the journal's commit time and the D tasks draw
fsdev=$(make_loop 128) || { fail "second loop device"; exit 1; }
mnt=$(make_fs "$fsdev" ext4) || { fail "ext4 on $fsdev"; exit 1; }
bg timeout 120 bash -c "while :; do dd if=/dev/zero of='$mnt/f' bs=64k count=16 conv=fsync,notrunc status=none; done"
console_run --tasks "$fsdev"
screen_check "ext4: its graphs" "^$fsdev write [0-9.]+[kMG]?  peak"
for i in 1 2 3 4 5 6 7 8; do console_send Tab; done
screen_check "journal: ext4 commit time drawn" "^$fsdev commit [0-9.]+m?s  peak" 8
# ext4 has no log forces: a gap ("-"), never 0.  (Whether the strip collapses depends on the
# commit time: jbd2 counts it in whole ms, and a fast loop device commits in 0 ms, leaving
# both strips empty, which then share the room.)
screen_check "journal: no xfs log forces on ext4 (a gap, not 0)" "^$fsdev log forces/s - " 3
console_send Tab
screen_check "D tasks with --tasks: drawn" "^D tasks [0-9]+  peak" 3
gone_check "D tasks with --tasks: no 'needs'" "needs --tasks" 3
console_send q
ended_check "ext4 device"
