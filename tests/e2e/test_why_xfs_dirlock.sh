#!/bin/bash
# ioscope beside an xfs whose root directory a task holds while it waits for I/O that does
# not complete: it starts, samples and exits.  Opening an xfs directory takes its inode's
# lock (the log's size is asked of the filesystem through its mount point), and a file
# being made in it holds that lock while the block it needs is read; on a device over a
# frozen filesystem that read waits behind a write that cannot end.  Before, every ioscope
# watching that device (a suite's run: every ioscope of the machine) slept in D at its first
# sample until the thaw.  The planted state: xfs on a loop device whose backing file is on
# a frozen ext4 (freeze_lib.sh), a direct write that holds the loop worker, then `touch` of
# a new name in the xfs's root, whose blocks the remount left uncached.
# run.sh: waits (on the kernel, most of its time: beside the other jobs)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/freeze_lib.sh"
is_root || { skip why_xfs_dirlock "needs root (loop devices, mounts, fsfreeze)"; exit 0; }
needs why_xfs_dirlock fsfreeze mkfs.xfs mkfs.ext4 python3

nested_loops 300 xfs 512
# a root directory of blocks, and none of them cached after the remount
python3 -c 'import os, sys
for i in range(3000):
    open(os.path.join(sys.argv[1], "file-%04d" % i), "w").close()
with open(os.path.join(sys.argv[1], "written"), "wb") as f:
    f.write(bytes(65536))' "$mi"
umount "$mi" && mount "/dev/$inner" "$mi" || { fail "why_xfs_dirlock: remount $inner"; exit 0; }

fsfreeze -f "$mo" || { fail "why_xfs_dirlock: freeze" "fsfreeze -f $mo"; exit 0; }
at_exit "fsfreeze -u '$mo'"
# a direct write into a file of it: the loop worker waits in it, and every request after
# it waits for the worker
bg dd if=/dev/zero of="$mi/written" bs=4k count=1 conv=notrunc oflag=direct status=none
at_exit "fsfreeze -u '$mo'"   # before the writer in D is killed and waited for
worker_waits() {
	local c
	for c in /proc/[0-9]*/comm; do
		[[ $(<"$c") == *"+$inner" ]] && grep -q percpu_rwsem_wait "${c%comm}wchan" && return 0
	done 2>/dev/null
	return 1
}
wait_until 20 "" worker_waits || { fail "why_xfs_dirlock: the loop worker of $inner never waited on the freeze"; exit 0; }
bg touch "$mi/a-new-name"
toucher=$BG_PID
at_exit "fsfreeze -u '$mo'"
# the toucher waits in the filesystem with the directory's lock held: reading the extents
# of the directory (the lock taken exclusive for it) or making the file
holds() { [ "$(cut -d' ' -f3 "/proc/$toucher/stat" 2>/dev/null)" = D ] && grep -qE "xfs_iread_extents|xfs_create|xfs_dir_createname" "/proc/$toucher/stack"; }
if ! wait_until 20 "$toucher" holds; then
	skip why_xfs_dirlock "the touch did not wait holding the directory here ($(tr '\n' ' ' <"/proc/$toucher/stack" 2>/dev/null | cut -c1-200))"
	exit 0
fi

"$IOSCOPE" --batch -f json -i 0.3 -c 3 "$inner" >"$TMP/dirlock.json" 2>"$TMP/dirlock.err" &
run=$!
at_exit "kill $run"
three() { [ "$(grep -c . "$TMP/dirlock.json")" -ge 3 ]; }
wait_until 30 "$run" three && sampled=yes || sampled=no
fsfreeze -u "$mo"
wait "$run"
rc=$?
[ "$sampled" = yes ] && [ "$rc" = 0 ] && clean_stderr "$TMP/dirlock.err" \
	&& ok "beside an xfs whose root directory a stuck task holds: ioscope samples it and exits" \
	|| fail "beside an xfs whose root directory a stuck task holds: ioscope samples it and exits" \
		"sampled while frozen: $sampled, rc=$rc $(head -3 "$TMP/dirlock.err")"
