#!/bin/bash
# ioscope matrix (issue 12, docs/experiments.md) on loop devices: a 2 schedulers x 2 mount
# options matrix of a small untar with --mkfs, cold, repeat 1 (four cells, every mark in
# order in every run's log, each fresh mount a mount and no remount of the previous
# cell's); a refused option (ext4 data=journal on remount) is a cell, not an abort; the
# device's scheduler, tunables and options are as before afterwards, also after SIGINT in
# the middle (remount mode, the run "interrupted by signal 2"; --mkfs mode: its mount
# undone); --mkfs on a mounted device is refused.
. "$(dirname "$0")/lib.sh"
if ! is_root; then skip "matrix" "needs root (loop devices, mkfs, mount)"; exit 0; fi

# A small tree to untar: a few hundred files of kernel-like sizes.
mkdir -p "$TMP/tree/d1" "$TMP/tree/d2"
for i in $(seq 150); do head -c $((i * 37)) /dev/urandom >"$TMP/tree/d$((i % 2 + 1))/f$i.c"; done
tar cf "$TMP/small.tar" -C "$TMP" tree

queue_state() { local q=/sys/block/$1/queue; echo "$(cat $q/scheduler) nr=$(cat $q/nr_requests) $(cat $q/iosched/* 2>/dev/null | tr '\n' ' ')"; }
mount_state() { awk -v m="$1" '$5 == m { print $6, $(NF) }' /proc/self/mountinfo; }
sanitizer_clean() { ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$1"; }

# ---- 1: 2 x 2 with --mkfs ----
dev=$(make_loop 96)
# Three elevators the device offers, by what the kernel has (bfq only on some): a device
# starts with S, the matrices switch it to A and B, so one that switched to the wrong one or
# did not put S back is seen.  S and A have tunables; B is none on a kernel without bfq.
needs_elevators "matrix" "$dev" 3
read -r S A B < <(pick_elevators "$dev" 3)
echo "$S" >/sys/block/$dev/queue/scheduler
before=$(queue_state "$dev")
mkdir "$TMP/m1"
cd "$TMP" || exit 1
# a batch watching meanwhile (same runtime directory) gets every step as a mark
"$IOSCOPE" --batch -f json -i 0.5 --record "$TMP/watch.log" "$dev" >/dev/null 2>"$TMP/watch.stderr" &
watch_pid=$!
at_exit "kill $watch_pid"
for _ in $(seq 50); do [ -s "$TMP/watch.log" ] && break; sleep 0.1; done
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m1" --mkfs "$MKFS_EXT4" \
	--schedulers "$A,$B" --mount-options 'defaults;noatime' --cache cold --repeat 1 \
	--out "$TMP/r1" -- tar xf "$TMP/small.tar" >"$TMP/r1.stdout" 2>"$TMP/r1.stderr"
rc=$?
at_exit "umount '$TMP/m1'"
[ $rc -eq 0 ] && sanitizer_clean "$TMP/r1.stderr" && ok "matrix 2x2 --mkfs exits 0" \
	|| fail "matrix 2x2 --mkfs exits 0" "rc=$rc $(tail -5 "$TMP/r1.stderr")"
python3 - "$TMP/r1.json" "$A" "$B" <<'PY' && ok "four cells with elapsed > 0, each run's log named" || fail "four cells with elapsed > 0, each run's log named"
import json, os, sys
d = json.load(open(sys.argv[1]))
cells = d["cells"]
assert len(cells) == 4, len(cells)
a, b = sys.argv[2:4]
assert [(c["scheduler"], c["options"]) for c in cells] == [(a, "defaults"), (a, "noatime"), (b, "defaults"), (b, "noatime")]
for c in cells:
    assert c["refused"] is None and c["cache"] == "cold", c
    assert len(c["runs"]) == 1 and c["runs"][0]["elapsed_s"] > 0 and c["runs"][0]["exit"] == 0, c
    assert os.path.isfile(c["runs"][0]["log"]), c
assert d["complete"] is True and d["device"]
PY
python3 - "$TMP/r1.json" "$TMP/m1" >"$TMP/marks.out" 2>&1 <<'PY' && ok "every run's log has every mark in order" || fail "every run's log has every mark in order" "$(tail -c 600 "$TMP/marks.out")"
import json, sys
every = ["run:cell", "run:mkfs", "mount_added:mount", "scheduler:scheduler", "run:drop_caches", "run:quiet",
         "run:start", "run:exit", "run:sync", "run:synced", "run:umount", "mount_removed:mount"]
before = None
for c in json.load(open(sys.argv[1]))["cells"]:
    log = c["runs"][0]["log"]
    marks = [r["kind"] + ":" + r["key"] for r in map(json.loads, open(log)) if r.get("type") == "event" and r.get("by") == "ioscope"]
    # a switch to the elevator in use is no event (issue 41): the cell after one of the
    # same elevator has none
    want = [m for m in every if m != "scheduler:scheduler" or c["scheduler"] != before]
    before = c["scheduler"]
    assert marks == want, (log, marks)
    samples = [r for r in map(json.loads, open(log)) if r.get("type") == "sample"]
    assert len(samples) >= 2, log
    m = [r for r in map(json.loads, open(log)) if r.get("type") == "event" and r["kind"] == "mount_added" and r["by"] == "ioscope"][0]
    assert m["result"].startswith("ok; mount options ") and (c["options"] == "defaults" or c["options"] in m["result"]), m
    # the sampler's copy of our mount and unmount is dropped as an echo, and a fresh
    # mount is a mount, not a remount diff against the previous cell's (another test's
    # mounts, made meanwhile on this machine, are rightly observed)
    observed = [r for r in map(json.loads, open(log)) if r.get("type") == "event" and r["kind"] in ("mount_added", "mount_options", "mount_removed") and r["by"] == "observed" and r["object"] == sys.argv[2]]
    assert not observed, observed
PY
kill -INT $watch_pid; wait $watch_pid
python3 - "$TMP/watch.log" "$dev" "$A" "$B" <<'PY' && ok "a batch running meanwhile marks every step and switch as ioscope's" || fail "a batch running meanwhile marks every step and switch as ioscope's"
import json, sys
ev = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "event"]
cells = [e for e in ev if e["kind"] == "run" and e["object"] == "matrix" and e["key"] == "cell"]
starts = [e for e in ev if e["kind"] == "run" and e["key"] == "start"]
switches = [e for e in ev if e["kind"] == "scheduler" and e["object"] == sys.argv[2]]
assert len(cells) == 4 and len(starts) == 4, (len(cells), len(starts))
# each switch the matrix made is there as ioscope's (a sample that lands between the
# switch and its announcement may add an observed copy: the announcement race of set too)
assert {e["new"] for e in switches if e["by"] == "ioscope"} >= set(sys.argv[3:5]), switches
PY
after=$(queue_state "$dev")
[ "$before" = "$after" ] && ! grep -q " $TMP/m1 " /proc/self/mountinfo \
	&& ok "scheduler and tunables as before, nothing left mounted" \
	|| fail "scheduler and tunables as before, nothing left mounted" "$before | $after"
lines=$(wc -l <"$TMP/r1.csv")
[ "$lines" -eq 5 ] && head -1 "$TMP/r1.csv" | grep -q '^cell,fs,scheduler,options,cache,refused,run,elapsed_s' \
	&& ok "csv: a header and one row per run" || fail "csv: a header and one row per run" "$lines lines"
file_ok=$(python3 -c "import sys; print(open(sys.argv[1],'rb').read(8) == b'\x89PNG\r\n\x1a\n')" "$TMP/r1.png" 2>/dev/null)
[ "$file_ok" = True ] && ok "png written" || fail "png written"
wide=$(LC_ALL=C.UTF-8 awk 'length($0) > 80' "$TMP/r1.txt")
[ -z "$wide" ] && grep -q "^ 4 ext4  *$B  *noatime  *cold *1 " "$TMP/r1.txt" \
	&& ok "text result fits 80 columns with one row per cell" || fail "text result fits 80 columns with one row per cell" "$(cat "$TMP/r1.txt")"
grep -q 'matrix: cell 1/4 repeat 1/1' "$TMP/r1.stderr" && ok "progress as plain lines when stderr is not a terminal" \
	|| fail "progress as plain lines when stderr is not a terminal" "$(head -3 "$TMP/r1.stderr")"

# ---- 2: remount mode, a refused option is a cell ----
dev2=$(make_loop 64)
mnt2=$(make_fs "$dev2" ext4) || { fail "ext4 for remount"; exit 0; }
mount -o remount,nosuid,nodev "$mnt2"
echo "$A" >/sys/block/$dev2/queue/scheduler
qbefore=$(queue_state "$dev2") mbefore=$(mount_state "$mnt2")
"$IOSCOPE" matrix --device "$dev2" --mount "$mnt2" --schedulers "$B" \
	--mount-options 'data=journal;noatime' --repeat 1 --out "$TMP/r2" \
	-- sh -c 'seq 2000 >numbers; sync numbers' >/dev/null 2>"$TMP/r2.stderr"
rc=$?
python3 - "$TMP/r2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cells"]
assert len(c) == 2
assert c[0]["refused"] and "data" in c[0]["refused"] and c[0]["runs"] == [], c[0]
assert c[1]["refused"] is None and c[1]["runs"][0]["exit"] == 0, c[1]
assert d["complete"] is True
marks = [r["key"] for r in map(json.loads, open(sys.argv[1].replace(".json", "-c01-r1.log"))) if r.get("type") == "event" and r["by"] == "ioscope"]
assert marks[0] == "cell" and "refused" in marks and "start" not in marks, marks
PY
[ $? -eq 0 ] && [ $rc -eq 0 ] && sanitizer_clean "$TMP/r2.stderr" && grep -q 'refused: ' "$TMP/r2.txt" \
	&& ok "a refused option (data=journal on remount) is a marked cell, not an abort" \
	|| fail "a refused option (data=journal on remount) is a marked cell, not an abort" "rc=$rc $(cat "$TMP/r2.stderr")"
[ "$qbefore" = "$(queue_state "$dev2")" ] && [ "$mbefore" = "$(mount_state "$mnt2")" ] \
	&& ok "remount mode: scheduler and options as before" \
	|| fail "remount mode: scheduler and options as before" "$mbefore | $(mount_state "$mnt2")"

# ---- 3: SIGINT in the middle ----
"$IOSCOPE" matrix --device "$dev2" --mount "$mnt2" --schedulers "$B,$S" --mount-options noatime \
	--repeat 1 --out "$TMP/r3" -- sleep 30 >/dev/null 2>"$TMP/r3.stderr" &
pid=$!
for _ in $(seq 100); do [ -e "$TMP/r3-c01-r1.out" ] && break; sleep 0.1; done
nap 0.3
during="$(queue_state "$dev2") $(mount_state "$mnt2")"
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] && sanitizer_clean "$TMP/r3.stderr" && [ -f "$TMP/r3.txt" ] && grep -q PARTIAL "$TMP/r3.txt" \
	&& ok "SIGINT: exit 130 with the partial results written" \
	|| fail "SIGINT: exit 130 with the partial results written" "rc=$rc $(tail -3 "$TMP/r3.stderr")"
grep -q '^    1 of 1 runs interrupted by signal 2 (left out)$' "$TMP/r3.txt" && ! grep -q 'runs failed' "$TMP/r3.txt" \
	&& python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["cells"][0]["runs"][0]; sys.exit(r["interrupted"] != 2)' "$TMP/r3.json" \
	&& ok "SIGINT: the run stopped is interrupted by signal 2, not failed" \
	|| fail "SIGINT: the run stopped is interrupted by signal 2, not failed" "$(cat "$TMP/r3.txt")"
[[ "$during" == *"[$B]"*noatime* ]] && [ "$qbefore" = "$(queue_state "$dev2")" ] && [ "$mbefore" = "$(mount_state "$mnt2")" ] \
	&& ok "SIGINT: scheduler, tunables and options put back" \
	|| fail "SIGINT: scheduler, tunables and options put back" "during: $during after: $(queue_state "$dev2") $(mount_state "$mnt2")"

# ---- progress on a terminal: one line updated in place ----
if command -v script >/dev/null; then
	script -qec "'$IOSCOPE' matrix --device $dev2 --mount '$mnt2' --repeat 1 --out '$TMP/r6' -- sleep 1.5" \
		"$TMP/r6.typescript" >/dev/null 2>&1
	rc=$?
	grep -q $'\rmatrix: cell 1/1 repeat 1/1 .*elapsed 0:0[0-9]  left ~[^\r]*\e\[K\rmatrix: ' "$TMP/r6.typescript" \
		&& [ $rc -eq 0 ] && sanitizer_clean "$TMP/r6.typescript" \
		&& ok "progress on a terminal: one line updated in place" \
		|| fail "progress on a terminal: one line updated in place" "rc=$rc $(cat -v "$TMP/r6.typescript" | tail -3)"
else
	skip "progress on a terminal" "no script(1)"
fi

# ---- 4: refusals before anything is touched ----
"$IOSCOPE" matrix --device "$dev2" --mount "$mnt2" --mkfs "$MKFS_EXT4" --repeat 1 --out "$TMP/r4" -- true 2>"$TMP/r4.stderr"
rc=$?
[ $rc -eq 1 ] && grep -q 'in use' "$TMP/r4.stderr" && [ "$mbefore" = "$(mount_state "$mnt2")" ] && [ ! -e "$TMP/r4.txt" ] \
	&& ok "--mkfs on a mounted device is refused" || fail "--mkfs on a mounted device is refused" "rc=$rc $(cat "$TMP/r4.stderr")"
"$IOSCOPE" matrix --device "$dev2" --mount "$mnt2" --schedulers no-such-sched -- true 2>"$TMP/r5.stderr"
rc=$?
[ $rc -eq 2 ] && grep -q 'does not offer' "$TMP/r5.stderr" && ok "an unknown scheduler is bad usage" \
	|| fail "an unknown scheduler is bad usage" "rc=$rc $(cat "$TMP/r5.stderr")"

# ---- 5: --mkfs on a device that is not a loop device: tests/e2e/test_matrix_nonloop.sh ----

# ---- 6: SIGINT in the middle of an --mkfs matrix: its mount undone, the queue put back ----
qbefore6=$(queue_state "$dev")
mkdir "$TMP/m6"
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m6" --mkfs "$MKFS_EXT4" --schedulers "$B,$A" \
	--repeat 1 --out "$TMP/r7" -- sleep 30 >/dev/null 2>"$TMP/r7.stderr" &
pid=$!
for _ in $(seq 100); do [ -e "$TMP/r7-c01-r1.out" ] && break; sleep 0.1; done
nap 0.3
during=$(queue_state "$dev")
mounted=$(grep -c " $TMP/m6 " /proc/self/mountinfo)
kill -INT $pid
wait $pid; rc=$?
at_exit "umount '$TMP/m6'"
[ $rc -eq 130 ] && sanitizer_clean "$TMP/r7.stderr" && grep -q PARTIAL "$TMP/r7.txt" \
	&& [[ "$during" == *"[$B]"* ]] && [ "$mounted" = 1 ] && ! grep -q " $TMP/m6 " /proc/self/mountinfo \
	&& [ "$qbefore6" = "$(queue_state "$dev")" ] \
	&& ok "SIGINT mid --mkfs matrix: exit 130, its filesystem unmounted, scheduler and tunables put back" \
	|| fail "SIGINT mid --mkfs matrix: exit 130, its filesystem unmounted, scheduler and tunables put back" \
		"rc=$rc mounted during: $mounted during: $during after: $(queue_state "$dev") $(grep " $TMP/m6 " /proc/self/mountinfo) $(tail -3 "$TMP/r7.stderr")"

# ---- 7: SIGTERM while the command has a background job and a daemon (issue 23) ----
# Cleanups run last first: each mount's is followed by KILL_MARKED (lib.sh), so that our
# sleeps are gone before the unmount.
qbefore7=$(queue_state "$dev")
mkdir "$TMP/m7"
at_exit "umount -l '$TMP/m7'"
at_exit "$KILL_MARKED"
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m7" --mkfs "$MKFS_EXT4" --schedulers "$B" \
	--repeat 1 --out "$TMP/r8" -- sh -c "sleep ${MARK}1 & setsid sleep ${MARK}2 & sleep ${MARK}3" \
	>/dev/null 2>"$TMP/r8.stderr" &
pid=$!
wait_marked '[123]' 3
kill -TERM $pid
wait $pid; rc=$?
left=$(marked '[123]')
[ $rc -eq 143 ] && sanitizer_clean "$TMP/r8.stderr" && [ -z "$left" ] \
	&& ! grep -q " $TMP/m7 " /proc/self/mountinfo && [ "$qbefore7" = "$(queue_state "$dev")" ] \
	&& ok "SIGTERM mid matrix: the command's background job and daemon stopped, the filesystem unmounted" \
	|| fail "SIGTERM mid matrix: the command's background job and daemon stopped, the filesystem unmounted" \
		"rc=$rc left: ${left:-none} $(grep " $TMP/m7 " /proc/self/mountinfo) $(tail -3 "$TMP/r8.stderr")"
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m7" --mkfs "$MKFS_EXT4" --repeat 1 \
	--out "$TMP/r9" -- true >/dev/null 2>"$TMP/r9.stderr"
rc=$?
[ $rc -eq 0 ] && sanitizer_clean "$TMP/r9.stderr" && ok "the next matrix on that device works" \
	|| fail "the next matrix on that device works" "rc=$rc $(tail -3 "$TMP/r9.stderr")"

# ---- 8: a process outside the command keeps the filesystem busy: detached, said ----
mkdir "$TMP/m8"
at_exit "umount -l '$TMP/m8'"
at_exit "$KILL_MARKED"
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m8" --mkfs "$MKFS_EXT4" --repeat 1 \
	--out "$TMP/r10" -- sh -c 'touch ready; for i in $(seq 1200); do [ -e held ] && break; sleep 0.05; done' \
	>/dev/null 2>"$TMP/r10.stderr" &
pid=$!
for _ in $(seq 600); do [ -e "$TMP/m8/ready" ] && break; sleep 0.1; done
# the holder is this script's, not the command's: ioscope must not touch it
(cd "$TMP/m8" && touch held && exec sleep "${MARK}4") &
holder=$!
at_exit "kill -KILL $holder"
wait $pid; rc=$?
holding=$(marked 4)
[ $rc -eq 0 ] && sanitizer_clean "$TMP/r10.stderr" && [ -n "$holding" ] \
	&& grep -q "m8: Device or resource busy: detached instead (MNT_DETACH); /dev/$dev stays in use" "$TMP/r10.stderr" \
	&& ! grep -q " $TMP/m8 " /proc/self/mountinfo \
	&& ok "a filesystem busy with another's process: detached (MNT_DETACH), said, that process left alone" \
	|| fail "a filesystem busy with another's process: detached (MNT_DETACH), said, that process left alone" \
		"rc=$rc holder: ${holding:-gone} $(cat "$TMP/r10.stderr")"
kill -KILL $holder
wait $holder 2>/dev/null
# the device is free once the last user of the detached filesystem is gone
for _ in $(seq 50); do python3 -c 'import os,sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))' "/dev/$dev" 2>/dev/null && break; sleep 0.1; done

# ---- 9: kill -9 mid matrix: the next one says how to put the device back ----
# killed NAME MARKN MATRIX-ARGS...: a matrix of `sleep ${MARK}MARKN` killed with SIGKILL while
# that runs (its pid in $killed_pid); its command must not outlive it (parent-death signal).
killed() {
	local name=$1 n=$2 ran left; shift 2
	"$IOSCOPE" matrix "$@" --repeat 1 -- sleep "${MARK}$n" >/dev/null 2>"$TMP/killed.stderr" &
	killed_pid=$!
	wait_marked "$n" 1; ran=$(marked "$n")
	kill -KILL $killed_pid
	wait $killed_pid 2>/dev/null
	for _ in $(seq 30); do [ -z "$(marked "$n")" ] && break; sleep 0.1; done
	left=$(marked "$n")
	[ -n "$ran" ] && [ -z "$left" ] && ok "$name: the command does not outlive a kill -9 of the matrix" \
		|| fail "$name: the command does not outlive a kill -9 of the matrix" \
			"ran: ${ran:-never} left: ${left:-none} $(cat "$TMP/killed.stderr")"
}
# put_back NAME STDERR: runs the lines the refusal in STDERR says (indented by two), ok when
# there are some and they all succeed.
put_back() {
	sed -n 's/^  //p' "$2" | sed "s|^ioscope |'$IOSCOPE' |" >"$TMP/putback.sh"
	if [ -s "$TMP/putback.sh" ] && sh -e "$TMP/putback.sh" >"$TMP/putback.out" 2>&1; then
		ok "$1: what it says runs"
	else
		fail "$1: what it says runs" "$(cat "$TMP/putback.sh" "$TMP/putback.out")"
	fi
}
# again OUT MATRIX-ARGS...: the next matrix on the device (`true`, once); its status in $rc,
# "sanitizer" added when it reported.
again() {
	local out=$1; shift
	"$IOSCOPE" matrix "$@" --repeat 1 --out "$out" -- true >/dev/null 2>"$out.stderr"
	rc=$?
	sanitizer_clean "$out.stderr" || rc="$rc sanitizer"
}
echo "$S" >/sys/block/$dev/queue/scheduler
qbefore9=$(queue_state "$dev")
mkdir "$TMP/m9"
at_exit "umount -l '$TMP/m9'"
at_exit "$KILL_MARKED"
killed "--mkfs" 5 --device "$dev" --mount "$TMP/m9" --mkfs "$MKFS_EXT4" --schedulers "$B" \
	--out "$TMP/r11"
again "$TMP/r12" --device "$dev" --mount "$TMP/m9" --mkfs "$MKFS_EXT4"
[ "$rc" = 1 ] \
	&& grep -q "an earlier matrix on $dev (pid $killed_pid) ended without putting it back" "$TMP/r12.stderr" \
	&& grep -qx "  umount '$TMP/m9'" "$TMP/r12.stderr" \
	&& grep -q "^  ioscope set $dev scheduler=$S nr_requests=" "$TMP/r12.stderr" \
	&& ok "after a kill -9 the next matrix refuses the device and says how to put it back" \
	|| fail "after a kill -9 the next matrix refuses the device and says how to put it back" \
		"rc=$rc $(cat "$TMP/r12.stderr")"
put_back "--mkfs" "$TMP/r12.stderr"
again "$TMP/r13" --device "$dev" --mount "$TMP/m9" --mkfs "$MKFS_EXT4"
[ "$rc" = 0 ] && [ "$qbefore9" = "$(queue_state "$dev")" ] \
	&& ok "done as it says, the device is taken again and put back as found" \
	|| fail "done as it says, the device is taken again and put back as found" \
		"rc=$rc $(tail -3 "$TMP/r13.stderr")"

# ---- 10: the same in remount mode: the mount options and the queue put back as said ----
qbefore10=$(queue_state "$dev2") mbefore10=$(mount_state "$mnt2")
killed "remount mode" 6 --device "$dev2" --mount "$mnt2" --schedulers "$B" --mount-options noatime \
	--out "$TMP/r14"
during10=$(mount_state "$mnt2")
again "$TMP/r15" --device "$dev2" --mount "$mnt2"
[ "$rc" = 1 ] && [[ "$during10" == *noatime* ]] \
	&& grep -q "^  ioscope remount '$mnt2' " "$TMP/r15.stderr" \
	&& grep -q "^  ioscope set $dev2 scheduler=$A nr_requests=" "$TMP/r15.stderr" \
	&& ok "remount mode: after a kill -9 the next matrix says how to put options and queue back" \
	|| fail "remount mode: after a kill -9 the next matrix says how to put options and queue back" \
		"rc=$rc during: $during10 $(cat "$TMP/r15.stderr")"
put_back "remount mode" "$TMP/r15.stderr"
again "$TMP/r16" --device "$dev2" --mount "$mnt2"
[ "$rc" = 0 ] && [ "$qbefore10" = "$(queue_state "$dev2")" ] \
	&& [ "$mbefore10" = "$(mount_state "$mnt2")" ] \
	&& ok "remount mode: done as it says, the device is taken again" \
	|| fail "remount mode: done as it says, the device is taken again" \
		"rc=$rc $(queue_state "$dev2") $(mount_state "$mnt2") $(tail -3 "$TMP/r16.stderr")"
