#!/bin/bash
# The console's keys on a real loop device carrying an ext4 filesystem and a steady
# writer: a path argument selects the device under the mount, user marks, metric
# cycling, freeze, scrolling back, filter, columns, sort, detail zoom, interval,
# pinning, glyphs.
# run.sh: early (among the longest: started first)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console keys" "needs root for a loop device and a mount"; exit 0; }
command -v tmux >/dev/null || { skip "console keys" "tmux not installed"; exit 0; }

dev=$(make_loop 256) || { fail "loop device"; exit 1; }
sys=$(system_disk)   # a second disk to filter and pin: vda here, whatever the machine has
[ -n "$sys" ] || { fail "a system disk"; exit 1; }
mnt=$(make_fs "$dev" ext4) || { fail "ext4 on $dev"; exit 1; }
region_writer "$mnt/f" 120 64 256 100

console_shell 140 45
# A path: the disk under that mount is selected, the table limited to it, its
# filesystem shown in the detail pane (wide terminal: beside the table).
console_send -l "cd '$mnt/'"; console_send Enter
console_run .
screen_check "path argument: the device's row" "^$dev +[0-9]"
rows=$(screen | awk '/^Device/ { t = 1; next } /^─/ { t = 0 } t && $1 != "" { n++ } END { print n + 0 }')
check "path argument: only that device in the table" test "$rows" -eq 1
screen_check "path argument: its mount in the detail pane" "mounts +ext4 +/tmp/.*mnt-$dev"
screen_check "detail: the kernel's scheduler line" "scheduler +$(scheduler_line "$dev" "$(elevator_now "$dev")")( |$)"
screen_check "detail: rotational and write cache" "rotational (yes|no) +write cache write (back|through)"
screen_check "graphs follow it" "^$dev write [0-9.]+[kMG]?  peak"
screen_check "writes show in the row" "^$dev +[0-9.]+ +[0-9.]+ +[0-9.]+ +[1-9][0-9.]*[kM]? "

# m: a mark with a note, on the graphs and in the marks panel
console_send m
screen_check "m: prompt" "^mark:" 3
console_send -l "started rm -rf"
console_send Enter
screen_check "m: in the marks panel" "mark  started rm -rf" 3
screen_check "m: labelled on the graph" "started rm -rf┃|┃started rm -rf" 3

# Tab / Shift-Tab cycle the graph metric
console_send Tab
screen_check "Tab: IOPS" "^─ IOPS " 3
screen_check "Tab: r/s and w/s strips" "^$dev w/s [0-9.]+[kM]?  peak" 3
console_send Tab
screen_check "Tab: await" "^─ await " 3
for i in 1 2 3 4; do console_send Tab; done
screen_check "Tab: dirty/writeback" "^─ dirty / writeback \(system\)" 3
console_send BTab
screen_check "Shift-Tab: back to in-flight" "^─ in-flight " 3
console_send BTab; console_send BTab; console_send BTab; console_send BTab; console_send BTab
screen_check "Shift-Tab: back to MB/s" "^─ MB/s " 3

# the time of the sample shown, from the header wherever it is
header_time() { screen | grep -m1 '^ioscope ' | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}'; }
# Space freezes the view, the samples keep coming
console_send Space
screen_check "Space: FROZEN" "FROZEN" 3
t1=$(header_time)
sleep 2.2
t2=$(header_time)
if [ -n "$t1" ] && [ "$t1" = "$t2" ]; then ok "frozen: the time shown stands still"; else
	fail "frozen: the time shown stands still" "'$t1' then '$t2'"; show_screen; fi
console_send Space
gone_check "Space again: live" "FROZEN"
sleep 1.2
t3=$(header_time)
if [ -n "$t3" ] && [ "$t3" != "$t2" ]; then ok "live again: the time moves on"; else
	fail "live again: the time moves on" "'$t2' then '$t3'"; fi

# Left scrolls the graphs back, but not past the oldest sample held: with the few seconds
# held here every sample is on screen already, so it says so and stays live (scrolling a
# longer history, and l back to live: test_console_marks.sh)
sleep 3
console_send Left
screen_check "Left: the graphs show the oldest sample held" "the graphs show the oldest sample held" 3
gone_check "Left: no empty graph before the history (not SCROLLED)" "SCROLLED"

# / filters: nothing, then all devices (the DEVICE limit goes too)
console_send /
screen_check "/: prompt" "^filter:" 3
console_send -l zzzz; console_send Enter
screen_check "/: nothing matches" "no device matches the filter" 3
console_send /; console_send C-u; console_send Enter
screen_check "/ emptied: all devices" "^$sys +[0-9]" 3

# > sorts by the next column, I inverts
console_send '>'
screen_check ">: sorted by r/s" "sorted by r/s" 3
console_send '>'; console_send '>'; console_send '>'; console_send '>'
screen_check ">: sorted by wMB/s" "sorted by wMB/s" 3
# the wMB/s column (6th) of the disk rows, top to bottom: other tests' loop devices may
# write harder than ours, so the order itself is what is checked
wmb_column() { screen | awk '/^Device / { t = 1; next } /^─/ { t = 0 } t && $1 !~ /^└/ && $6 ~ /^[0-9.]+$/ { print $6 }'; }
sorted_as() { local col; col=$(wmb_column); [ "$(wc -l <<<"$col")" -ge 2 ] && sort -g "$@" -c <<<"$col"; }
if sorted_as -r; then ok "sorted by wMB/s: descending"; else fail "sorted by wMB/s: descending" "$(wmb_column | tr '\n' ' ')"; fi
wmb_column | head -1 | grep -qv '^0\.00$' && ok "sorted by wMB/s: a writer on top" || fail "sorted by wMB/s: a writer on top"
console_send I
nap 0.5
if sorted_as && wmb_column | tail -1 | grep -qv '^0\.00$' && console_up; then ok "I: ascending, the writers at the bottom"; else
	fail "I: ascending, the writers at the bottom" "$(wmb_column | tr '\n' ' ')"; show_screen; fi
console_send I

# F2: the column chooser
console_send F2
screen_check "F2: chooser" "Columns - Space ticks" 3
console_send Down; console_send Space; console_send Enter
screen_check "F2: rkB/s added at its place, after r/s" "^Device +r/s +rkB/s +rMB/s " 3

# Enter pins devices: both on the graphs
console_send /; console_send C-u; console_send -l "$sys"; console_send Enter
screen_check "filter $sys" "^$sys +[0-9]" 3
console_send Enter
screen_check "Enter: pinned" "$sys pinned on the graphs" 3
console_send /; console_send C-u; console_send -l "$dev"; console_send Enter
screen_check "filter $dev" "^$dev +[0-9]" 3
console_send Enter
screen_check "Enter: second pinned" "$dev pinned on the graphs" 3
nap 0.5
strips=$(screen | grep -cE "^($sys|$dev) (read|write) ")
check "pinned devices get a strip each per series ($strips)" test "$strips" -eq 4
console_send /; console_send C-u; console_send Enter

# + / - change the interval
console_send +
screen_check "+: interval 2 s" "every 2s" 3
console_send -
screen_check "-: interval 1 s" "every 1s" 3

# d: detail in place of the graphs; e: marks panel hidden
console_send d
gone_check "d: detail replaces the graphs" "^─ MB/s "
console_send d
screen_check "d again: graphs back" "^─ MB/s " 3
console_send e
gone_check "e: marks panel hidden" "Marks \("
console_send e

# g: block characters, then ASCII
console_send g
nap 0.5
screen | LC_ALL=C.UTF-8 grep -qP '[\x{2581}-\x{2588}]' && ok "g: block characters" || fail "g: block characters"
console_send g
nap 0.5
if screen | LC_ALL=C.UTF-8 grep -qP '[\x{2801}-\x{28FF}\x{2581}-\x{2588}]' || ! console_up; then
	fail "g: ASCII"; show_screen; else ok "g: ASCII"; fi

console_send q
screen_check "q exits 0" "^EXIT=0$" 5
stderr_clean && ok "no sanitizer reports" || { fail "no sanitizer reports"; head -40 "$CONSOLE_STDERR"; }
console_send -l "cd /"; console_send Enter

# Partitions: a loop device with a DOS label and two partitions, ext4 on the first.
# A path on it selects the partition, shown folded under its disk; p hides them.
pdev=$(make_loop 64) || { fail "second loop device"; exit 1; }
python3 -c 'import struct, sys
e = lambda s, n: bytes([0, 0, 0, 0, 0x83, 0, 0, 0]) + struct.pack("<II", s, n)
mbr = bytearray(512); mbr[446:478] = e(2048, 40960) + e(43008, 40960); mbr[510:512] = b"\x55\xaa"
sys.stdout.buffer.write(mbr)' | dd of="/dev/$pdev" bs=512 count=1 conv=notrunc status=none
partx -a "/dev/$pdev" 2>/dev/null
if [ -b "/dev/${pdev}p1" ] && pmnt=$(make_fs "${pdev}p1" ext4); then
	console_run "$pmnt"
	screen_check "partition path: disk row" "^$pdev +[0-9]" 10
	screen_check "partition path: partitions folded under it" "^└${pdev}p1 +[0-9]"
	if screen | grep -q "^└${pdev}p2 " || ! console_up; then fail "partition path: only the partition asked for"; else
		ok "partition path: only the partition asked for"; fi
	screen_check "partition path: the partition's detail shows its disk" "${pdev}p1 \\([0-9]+:[0-9]+\\) partition of $pdev"
	screen_check "partition path: the disk's queue" \
		"scheduler +$(scheduler_line "$pdev" "$(elevator_now "$pdev")")( |$)"
	console_send /; console_send C-u; console_send -l "$pdev"; console_send Enter
	screen_check "filter: both partitions" "^└${pdev}p2 +[0-9]" 3
	console_send p
	gone_check "p: partitions hidden" "^└${pdev}p1"
	screen_check "p: the disk selected instead" "─ $pdev \\([0-9]+:[0-9]+\\) ─" 3
	console_send q
	screen_check "partition run: q exits 0" "^EXIT=0$" 5
	stderr_clean && ok "partition run: no sanitizer reports" || { fail "partition run: no sanitizer reports"; head -40 "$CONSOLE_STDERR"; }
else
	skip "partitions" "could not create partitions on a loop device"
fi
