#!/bin/bash
# The detail pane on a real loop device carrying ext4: the mount's two option lines are
# labelled (mount flags, the filesystem's options), the queue's knobs, the bdi's limits and
# the loop device's own settings are in groups of their own, and the loop device's backing is
# shown: the file, the disk and filesystem holding it, direct I/O, followed live when
# losetup --direct-io changes it (no uevent says so).  A partition shows its disk's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "console detail" "needs root for a loop device and a mount"; exit 0; }
command -v tmux >/dev/null || { skip "console detail" "tmux not installed"; exit 0; }

dev=$(make_loop 64) || { fail "loop device"; exit 1; }
mnt=$(make_fs "$dev" ext4) || { fail "ext4 on $dev"; exit 1; }
img=$(cat "/sys/block/$dev/loop/backing_file")
# the disk holding the file, as the kernel names it (vda, sda1, nvme0n1p2...); none for
# an anonymous device (btrfs, tmpfs): then only "on" is checked
holder=$(basename "$(readlink "/sys/dev/block/$(stat -c '%Hd:%Ld' "$img")" 2>/dev/null)" 2>/dev/null)
[ -n "$holder" ] || holder='[^ ]+'
fstype=$(findmnt -no FSTYPE --target "$img")
re_escape() { sed 's/[][\.*^$/+?(){}|]/\\&/g' <<<"$1"; }

console_shell 140 45
console_run "$dev"
screen_check "detail: the loop device's backing file" "backing +$(re_escape "$img")( |$)"
screen_check "detail: the disk and filesystem holding it" "^.* +on $holder \\($fstype [^)]*\\), direct I/O off"
screen_check "detail: mount flags labelled" "^.* {12}mount flags +rw,"
screen_check "detail: filesystem options labelled" "^.* {12}fs options +r[ow]"
# issue 25: the queue's knobs, the bdi's limits and the loop device's own settings, each
# group labelled (on kernels that have the files)
if [ -e "/sys/block/$dev/queue/wbt_lat_usec" ] && [ -e "/sys/block/$dev/bdi/max_ratio_fine" ]; then
	screen_check "detail: the queue's knobs" "wbt_lat_usec $(cat /sys/block/$dev/queue/wbt_lat_usec)( |$)"
	screen_check "detail: the bdi's limits labelled" "bdi +max_ratio_fine $(cat /sys/block/$dev/bdi/max_ratio_fine)"
	screen_check "detail: the loop device's own labelled" "loop +ro 0 +sectors $(cat /sys/block/$dev/size)"
else
	skip "detail: the knobs" "this kernel lacks wbt_lat_usec or the fine bdi ratios"
fi
if losetup --direct-io=on "/dev/$dev" 2>/dev/null; then
	screen_check "detail: direct I/O followed live" "on $holder .*, direct I/O on" 5
else
	skip "detail: direct I/O followed live" "losetup --direct-io=on refused here"
fi
console_send q
ended_check "detail run"

# A partition of a loop device: its disk's backing (a partition has no loop/ of its own).
pdev=$(make_loop 64) || { fail "second loop device"; exit 1; }
pimg=$(cat "/sys/block/$pdev/loop/backing_file")
python3 -c 'import struct, sys
e = lambda s, n: bytes([0, 0, 0, 0, 0x83, 0, 0, 0]) + struct.pack("<II", s, n)
mbr = bytearray(512); mbr[446:462] = e(2048, 40960); mbr[510:512] = b"\x55\xaa"
sys.stdout.buffer.write(mbr)' | dd of="/dev/$pdev" bs=512 count=1 conv=notrunc status=none
partx -a "/dev/$pdev" 2>/dev/null
if [ -b "/dev/${pdev}p1" ] && pmnt=$(make_fs "${pdev}p1" ext4); then
	console_run "$pmnt"
	screen_check "partition: its detail" "${pdev}p1 \\([0-9]+:[0-9]+\\) partition of $pdev"
	screen_check "partition: its disk's backing file" "backing +$(re_escape "$pimg")( |$)"
	console_send q
	ended_check "partition run"
else
	skip "partition: its disk's backing" "could not create a partition on a loop device"
fi
