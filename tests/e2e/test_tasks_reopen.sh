#!/bin/bash
# A descriptor reopened onto another disk (issue 36, item 5): a writer holds a file of
# disk A open by its path; a second disk B is mounted over the file's directory; once a
# sample has seen the new mount table, the writer closes and reopens the same path, now
# B's file, at the same descriptor number.  The link text of /proc/PID/fd/N reads as
# before, and the --tasks memo that knew a file by that text named A for every sample
# after.  Known by device and inode, the first sample that walks the descriptors after
# the reopen names B and not A.  Twice: the mount in our namespace (our mount table
# changes a sample before the reopen), and in a namespace of the writer's own (ours never
# changes: an ordinary user's bind mount in `unshare -rm` does that).
. "$(dirname "$0")/lib.sh"
is_root || { skip "tasks_reopen" "needs root (loop devices, mounts)"; exit 0; }
needs tasks_reopen mkfs.ext4 python3 unshare nsenter

# lines FILE: how many samples the batch run printed
lines() { wc -l <"$1"; }
has_lines() { [ "$(lines "$1")" -ge "$2" ]; }
# writer_devices FILE LINE PID: the devices of PID in sample LINE ("-" when not listed)
writer_devices() {
	python3 -c 'import json, sys
d = json.loads(open(sys.argv[1]).readlines()[int(sys.argv[2]) - 1])
print(",".join(next((p["devices"] for p in d["tasks"]["io"] if p["pid"] == int(sys.argv[3])),
                    ["-"])))' "$@" 2>/dev/null
}
# listed_on FILE PID DEV: some sample lists PID writing on DEV
listed_on() {
	python3 -c 'import json, sys
print(any(sys.argv[3] in p["devices"] for l in open(sys.argv[1])
          for p in json.loads(l)["tasks"]["io"] if p["pid"] == int(sys.argv[2])))' "$@" \
		2>/dev/null | grep -qx True
}
# first_listed_from FILE FROM PID: the first sample from line FROM that lists PID
first_listed_from() {
	local n
	for ((n = $2; n <= $(lines "$1"); n++)); do
		[ "$(writer_devices "$1" "$n" "$3")" != - ] && { echo "$n"; return 0; }
	done
	return 1
}

# reopen_case ID NAME UNSHARE: the scenario; UNSHARE the command the writer runs under
# ("": in our mount namespace, where B is then mounted too)
reopen_case() {
	local id=$1 name=$2 ns=$3 a b mnt out=$TMP/$1.json err=$TMP/$1.err
	a=$(make_loop 64) && b=$(make_loop 64) && mnt=$(make_fs "$a" ext4) &&
		mkfs_ext4 "/dev/$b" >/dev/null 2>&1 && mkdir "$mnt/d" ||
		{ fail "$name: two disks" "make_loop/make_fs"; return; }
	# 64 KiB rewrites of the file's first MiB, flushed each pass: a write rate every
	# interval, steady and small; the reopen when the trigger is there, told in the marker
	bg $ns python3 -c 'import os, sys, time
path, trigger, marker = sys.argv[1:4]
buf = b"x" * 65536
fd = first = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
while True:
    for i in range(16):
        os.pwrite(fd, buf, i * len(buf))
        time.sleep(0.005)
    os.fsync(fd)
    if fd == first and os.path.exists(trigger):
        os.close(fd)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        first = -1
        with open(marker + ".tmp", "w") as m:
            m.write("%d" % fd)
        os.rename(marker + ".tmp", marker)' "$mnt/d/f" "$TMP/$id.go" "$TMP/$id.fd" \
		</dev/null >/dev/null 2>&1
	local w=$BG_PID
	at_exit "umount -l '$mnt/d'"
	"$IOSCOPE" --batch --tasks -f json -i 0.3 >"$out" 2>"$err" &
	local ios=$!
	at_exit "kill $ios"
	wait_until 30 "$ios" listed_on "$out" "$w" "$a" ||
		{ fail "$name: the writer listed on $a" "$(tail -c 600 "$out")"; return; }
	if [ -n "$ns" ]; then
		nsenter -t "$w" -m mount "/dev/$b" "$mnt/d"
	else
		mount "/dev/$b" "$mnt/d"
	fi || { fail "$name: mount $b over $mnt/d"; return; }
	# a whole sample after the mount: the old memo learnt the old file's text anew
	local n=$(($(lines "$out") + 2))
	wait_until 30 "$ios" has_lines "$out" "$n" ||
		{ fail "$name: samples after the mount"; return; }
	touch "$TMP/$id.go"
	wait_until 30 "$w" test -s "$TMP/$id.fd" || { fail "$name: the writer reopened"; return; }
	# sample n2 + 2 is the first whose walk of the descriptors began after the reopen
	local n2=$(($(lines "$out") + 2)) first devs
	wait_until 30 "$ios" first_listed_from "$out" "$n2" "$w" >/dev/null ||
		{ fail "$name: the writer listed after the reopen"; return; }
	first=$(first_listed_from "$out" "$n2" "$w")
	devs=$(writer_devices "$out" "$first" "$w")
	kill -TERM "$ios"
	wait "$ios"; local rc=$?
	[ "$rc" = 0 ] && clean_stderr "$err" &&
		[[ ",$devs," = *",$b,"* && ",$devs," != *",$a,"* ]] &&
		ok "$name: the first sample after the reopen names $b for the writer, not $a" ||
		fail "$name: the first sample after the reopen names $b for the writer, not $a" \
			"sample $first: [$devs], fd $(cat "$TMP/$id.fd"), exit $rc $(head -c 400 "$err")"
}

reopen_case ours "mount in our namespace" ""
reopen_case theirs "mount in the writer's namespace" "unshare -m --propagation private"
