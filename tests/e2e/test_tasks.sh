#!/bin/bash
# Blocked tasks and per-process I/O (--tasks, issue 10 signals 1 and 2) on the real kernel:
# a steady dd is at the top of the I/O list with its pid and the device it writes; writers
# on a frozen xfs are
# blocked, grouped under their wait channel, for a growing number of seconds, with their
# stacks, and gone after the thaw; unprivileged there is no stack and a note says why;
# with delay accounting off the note is said once and iodelay is null, never 0; a
# recording replays to the same JSON byte for byte.
. "$(dirname "$0")/lib.sh"
is_root || { skip "tasks" "needs root (loop devices, mount, fsfreeze)"; exit 0; }

# no_sanitizer NAME FILE: the run's stderr holds no sanitizer report
no_sanitizer() {
	grep -qE 'Sanitizer|runtime error' "$2" && fail "$1: sanitizer" "$(head -20 "$2")" || true
}

# --- a steady dd writer is at the top, with its pid ---
shm=$(mktemp -d /dev/shm/ioscope-test.XXXXXX)
at_exit "rm -rf '$shm'"
truncate -s 2G "$shm/img"
ddev=$(losetup --find --show "$shm/img") && at_exit "losetup -d '$ddev'"
restore_queue "$(basename "$ddev")"
# 4 KiB direct writes fed at about 40 MB/s through a pipe, so that dd runs until the test
# ends: flat out, 1 MiB ones filled the shm-backed device in 0.2 s, and 512 MiB of 4 KiB ones
# ended before the sanitized ioscope took its two samples on a machine at load 19 (the
# check then failed with dd not listed).  Sampled once dd has written.
bg bash -c "exec dd if=<(python3 -c 'import sys, time
chunk = bytes(1 << 18)
while True:
    sys.stdout.buffer.write(chunk)
    sys.stdout.flush()
    time.sleep(0.006)') of='$ddev' bs=4k iflag=fullblock oflag=direct status=none"
ddpid=$BG_PID
wait_until 10 "$ddpid" grep -q '^write_bytes: [1-9]' "/proc/$ddpid/io"
"$IOSCOPE" --batch --tasks -f json -i 0.4 -c 2 >"$TMP/dd.json" 2>"$TMP/dd.err"; rc=$?
no_sanitizer "dd run" "$TMP/dd.err"
out=$(python3 - "$TMP/dd.json" "$ddpid" "${ddev#/dev/}" 2>&1 <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
pid = int(sys.argv[2])
assert len(lines) == 2, "%d lines" % len(lines)
def size(p):
    return p["rkB/s"] + p["wkB/s"] + p["cancelled_wkB/s"]
for d in lines:
    io = d["tasks"]["io"]
    assert io, "empty io list"
    mine = [p for p in io if p["pid"] == pid]
    assert mine and mine[0]["comm"] == "dd", "dd %d not listed: %r" % (pid, io)
    top = mine[0]
    # first, unless another tester's process on this shared machine moved more bytes
    # (the rates are printed to 3 decimals: a sum of three rounded ones may be 0.002 off
    # the order the exact bytes gave, 19.886 before 19.887)
    ahead = io[:io.index(top)]
    assert all(size(p) >= size(top) - 0.002 for p in ahead), "not sorted by bytes: %r" % io
    assert all(p["comm"] != "dd" or p["pid"] != pid for p in ahead)
    assert all(size(a) >= size(b) - 0.002 for a, b in zip(io, io[1:])), io
    # it wrote in the interval: at load 19 a 4 KiB dd wrote 178 kB/s, so no rate is asked
    assert top["wkB/s"] > 0, "dd writes %r kB/s" % top["wkB/s"]
    assert top["user"] == "root"
    assert set(top) == {"pid", "comm", "user", "rkB/s", "wkB/s", "cancelled_wkB/s",
                        "syscr/s", "syscw/s", "iodelay_pct", "devices"}, sorted(top)
    # its I/O is attributed to the loop device it writes (its open block device)
    assert top["devices"][:1] == [sys.argv[3]], top["devices"]
    assert set(d["tasks"]) == {"delayacct", "blocked", "blocked_by_wchan", "io"}
print("ok")
PY
)
[ $rc -eq 0 ] && [ "$out" = ok ] && ok "a steady dd is at the top of the I/O list with its pid and device" \
	|| fail "a steady dd is at the top of the I/O list with its pid and device" "rc=$rc $out"

# --- the mount table is read once per sample, by the sampler: attributing the writer's
# open device (a devtmpfs file, found by its fdinfo's mnt_id) takes the mount from that
# table, so six samples open mountinfo no more often than two do (ptrace: no LeakSanitizer).
# A sample reads mountinfo anew whenever a listed process has an open file, as here.
# Counted: the reads of our table relative to /proc (the attribution's), not the sampler's
# own, nor a memory cgroup lookup's (when a writer is throttled), nor the table of a process
# of another mount namespace (another test's, on a shared machine).
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
	# dd processes that live for seconds each (a dd of 16 MB lives 50 ms: a process needs
	# two samples for a rate, and a loaded machine gave none of them two)
	bg timeout 30 bash -c "while :; do dd if=/dev/zero of=$ddev bs=4k count=131072 oflag=direct status=none; done"
	for c in 2 6; do
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -e trace=open,openat,readlinkat,statx \
			-o "$TMP/opens.$c" "$IOSCOPE" --batch --tasks -f json -i 0.3 -c $c \
			>"$TMP/opens.$c.json" 2>"$TMP/opens.$c.err"
		echo "$? $(grep -cE 'openat\([0-9]+, "self/mountinfo"' "$TMP/opens.$c")" >"$TMP/opens.$c.n"
		no_sanitizer "strace run" "$TMP/opens.$c.err"
	done
	listed=$(python3 -c '
import json, sys
print(any(any(sys.argv[2] in p["devices"] for p in json.loads(l)["tasks"]["io"])
          for l in list(open(sys.argv[1]))[1:]))' "$TMP/opens.6.json" "${ddev#/dev/}")
	read -r rc2 n2 <"$TMP/opens.2.n"; read -r rc6 n6 <"$TMP/opens.6.n"
	[ "$rc2" = 0 ] && [ "$rc6" = 0 ] && [ "$listed" = True ] && [ "$n6" = "$n2" ] \
		&& ok "tasks: mountinfo opened as often in 6 samples as in 2 ($n2), the writer attributed" \
		|| fail "tasks: mountinfo opened as often in 6 samples as in 2, the writer attributed" \
			"exit $rc2/$rc6, opens $n2/$n6, listed $listed: $(grep 'mountinfo"' "$TMP/opens.6" | head -8)"
	# a listed writer's descriptor costs one statx a sample, which knows the file (device and
	# inode, fd_memo.h) and its mount: no readlink, no fdinfo read
	memo=$(python3 - "$TMP/opens.6" "$TMP/opens.6.json" <<'PY2'
import collections, json, re, sys
trace = open(sys.argv[1]).read()
def count(call, pid, what):
    return len(re.findall(r'%s\(\d+, "%s/%s/\d+"' % (call, pid, what), trace))
listed = collections.Counter(str(p["pid"]) for l in open(sys.argv[2])
                             for p in json.loads(l)["tasks"]["io"] if p["comm"] == "dd")
seen = [(pid, n, count("statx", pid, "fd"), count("readlinkat", pid, "fd"),
         count("openat", pid, "fdinfo")) for pid, n in listed.items() if n >= 3]
print("ok" if seen and all(s >= n and r == 0 and f == 0 for pid, n, s, r, f in seen)
      else "no", seen)
PY2
)
	[ "${memo%% *}" = ok ] \
		&& ok "tasks: a listed writer's descriptor costs a statx a sample, no readlink, no fdinfo" \
		|| fail "tasks: a listed writer's descriptor costs a statx a sample, no readlink, no fdinfo" \
			"(pid, samples listed, statx, readlinks, fdinfo reads): ${memo#* }"
	kill "$BG_PID" 2>/dev/null
else
	skip "tasks: mountinfo read once per sample" "no strace, or ptrace not allowed"
fi

# --- delay accounting off: said once, how to turn it on, iodelay null (never 0) ---
if [ "$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)" = 0 ]; then
	n=$(grep -c 'delay accounting is off' "$TMP/dd.err")
	nulls=$(python3 -c '
import json, sys
print(all(d["tasks"]["delayacct"] is False and all(p["iodelay_pct"] is None for p in d["tasks"]["io"])
          for d in map(json.loads, open(sys.argv[1]))))' "$TMP/dd.json")
	[ "$n" = 1 ] && grep -q 'sysctl kernel.task_delayacct=1' "$TMP/dd.err" && [ "$nulls" = True ] \
		&& ok "delay accounting off: said once with how to turn it on, iodelay null" \
		|| fail "delay accounting off: said once with how to turn it on, iodelay null" \
			"said $n times, nulls $nulls: $(cat "$TMP/dd.err")"
	# a writer of its own, so that a process is listed (the first dd may have ended)
	bg dd if=/dev/zero of="$ddev" bs=4k count=131072 oflag=direct status=none
	sleep 0.2
	"$IOSCOPE" --batch --tasks -i 0.3 -c 1 >"$TMP/dd.txt" 2>"$TMP/ddt.err"
	kill "$BG_PID" 2>/dev/null
	# the dly% column (characters 72-77 of a row) of every process listed
	cells=$(python3 -c '
import sys
rows, on = [], False
for line in open(sys.argv[1]):
    if line.startswith("    PID USER"):
        on = True
        continue
    if on and line[:7].strip().isdigit():
        rows.append(line[71:77].strip())
    elif on:
        break
print(" ".join(rows))' "$TMP/dd.txt")
	[ -n "$cells" ] && [ -z "$(tr -d ' -' <<<"$cells")" ] \
		&& ok "delay accounting off: the text column shows -, not 0" \
		|| fail "delay accounting off: the text column shows -, not 0" "[$cells] $(cat "$TMP/dd.txt")"
else
	skip "delay accounting off" "kernel.task_delayacct is on here (fixtures cover it)"
fi

# --- writers on a frozen xfs ---
dev=$(make_loop 320) || { fail "loop device" "make_loop"; exit 0; }
mnt=$(make_fs "$dev" xfs) || { skip "frozen xfs" "mkfs.xfs/mount failed"; exit 0; }
pwrite_loop "$mnt/a"; w1=$BG_PID
pwrite_loop "$mnt/b"; w2=$BG_PID
# frozen only once both write (python starts slowly on a busy machine)
for _ in $(seq 100); do [ -s "$mnt/a" ] && [ -s "$mnt/b" ] && break; sleep 0.1; done
fsfreeze -f "$mnt" && at_exit "fsfreeze -u '$mnt'"
nap 0.3
"$IOSCOPE" --batch --tasks -f json -i 0.4 -c 3 --record "$TMP/frozen.log" \
	>"$TMP/frozen.json" 2>"$TMP/frozen.err"; rc=$?
no_sanitizer "frozen run" "$TMP/frozen.err"
out=$(python3 - "$TMP/frozen.json" "$w1" "$w2" "$dev" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
pids = {int(sys.argv[2]), int(sys.argv[3])}
assert len(lines) == 3, "%d lines" % len(lines)
last = {}
for d in lines:
    t = d["tasks"]
    mine = [b for b in t["blocked"] if b["pid"] in pids]
    assert {b["pid"] for b in mine} == pids, "blocked: %r" % t["blocked"]
    chans = {b["wchan"] for b in mine}
    assert len(chans) == 1 and None not in chans, "wait channels %r" % chans
    chan = chans.pop()
    assert t["blocked_by_wchan"].get(chan, 0) >= 2, t["blocked_by_wchan"]
    for b in mine:
        assert b.get("stack"), "no stack for %r" % b
        # what they wait on is a file of the frozen filesystem: its device
        assert b["devices"][:1] == [sys.argv[4]], "attributed to %r" % b["devices"]
        assert b["seconds"] > last.get(b["pid"], -1), "seconds did not grow: %r" % b
        last[b["pid"]] = b["seconds"]
print("ok", chan)
PY
)
[ $rc -eq 0 ] && [ "${out%% *}" = ok ] \
	&& ok "writers on a frozen xfs are blocked in ${out#ok }, with stacks, growing seconds, its device" \
	|| fail "writers on a frozen xfs are blocked, grouped, with growing seconds" "rc=$rc $out"
"$IOSCOPE" --batch --tasks -i 0.3 -c 1 >"$TMP/frozen.txt" 2>"$TMP/frozen-text.err"
# said in words where the table has the channel (with stacks: sb_start_write's callers)
words=""
[ "${out#ok }" = percpu_rwsem_wait ] && words=", filesystem frozen"
grep -qE "^  [0-9]+ tasks in ${out#ok }$words \(([^)]*, )?[0-9]+ python3" "$TMP/frozen.txt" \
	&& ok "batch text groups them: N tasks in ${out#ok }$words (.. python3 ..)" \
	|| fail "batch text groups them" "$(sed -n '/^blocked/,$p' "$TMP/frozen.txt")"

# unprivileged: no stack, a clear note, wchan where the kernel allows it
setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" --batch --tasks -f json -i 0.3 -c 1 \
	>"$TMP/nobody.json" 2>"$TMP/nobody.err"; rc=$?
no_sanitizer "unprivileged run" "$TMP/nobody.err"
out=$(python3 - "$TMP/nobody.json" "$w1" "$w2" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
pids = {int(sys.argv[2]), int(sys.argv[3])}
t = d["tasks"]
assert {b["pid"] for b in t["blocked"]} >= pids, t["blocked"]
assert not any("stack" in b for b in t["blocked"]), "a stack unprivileged"
print("ok")
PY
)
[ $rc -eq 0 ] && [ "$out" = ok ] && grep -q 'CAP_SYS_ADMIN' "$TMP/nobody.err" \
	&& ok "unprivileged: blocked tasks without stacks, a note says CAP_SYS_ADMIN" \
	|| fail "unprivileged: blocked tasks without stacks, a note says CAP_SYS_ADMIN" \
		"rc=$rc $out $(cat "$TMP/nobody.err")"

# thawed in the middle of a run: blocked in its first sample, gone from its last
"$IOSCOPE" --batch --tasks -f json -i 0.3 -c 5 >"$TMP/thawed.json" 2>"$TMP/thawed.err" &
run=$!
# thawed once the first interval (writers blocked) is out, however slow the start-up
for _ in $(seq 200); do [ -s "$TMP/thawed.json" ] && break; sleep 0.1; done
fsfreeze -u "$mnt"
wait $run; rc=$?
no_sanitizer "thaw run" "$TMP/thawed.err"
out=$(python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
pids = {int(sys.argv[2]), int(sys.argv[3])}
mine = lambda d: {b["pid"] for b in d["tasks"]["blocked"]} & pids
print("ok" if mine(lines[0]) == pids and not mine(lines[-1]) else [mine(d) for d in lines])' \
	"$TMP/thawed.json" "$w1" "$w2")
[ $rc -eq 0 ] && [ "$out" = ok ] && ok "after fsfreeze -u they leave the blocked list" \
	|| fail "after fsfreeze -u they leave the blocked list" "rc=$rc $out"

# --- replay reproduces the tasks figures exactly ---
"$IOSCOPE" --replay "$TMP/frozen.log" --batch --tasks -f json >"$TMP/replay.json" 2>"$TMP/replay.err"; rc=$?
no_sanitizer "replay" "$TMP/replay.err"
[ $rc -eq 0 ] && grep -c '"type":"tasks"' "$TMP/frozen.log" | grep -qx 4 \
	&& cmp -s "$TMP/frozen.json" "$TMP/replay.json" \
	&& ok "replay of the recording gives the same tasks JSON byte for byte" \
	|| fail "replay of the recording gives the same tasks JSON byte for byte" \
		"rc=$rc $(diff "$TMP/frozen.json" "$TMP/replay.json" | head -5)"
# without --tasks again: a replay shows what its log holds (issue 36), in text as in JSON
"$IOSCOPE" --replay "$TMP/frozen.log" --batch -f json >"$TMP/replay-plain.json" 2>"$TMP/replay-plain.err"; rc=$?
"$IOSCOPE" --replay "$TMP/frozen.log" --batch >"$TMP/replay-plain.txt" 2>>"$TMP/replay-plain.err"; rc2=$?
no_sanitizer "replay without --tasks" "$TMP/replay-plain.err"
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$TMP/frozen.json" "$TMP/replay-plain.json" &&
	grep -qE "^blocked( on [a-z0-9]+)?: [0-9]+ tasks? in D" "$TMP/replay-plain.txt" \
	&& ok "replay without --tasks gives the tasks the log holds, JSON and text" \
	|| fail "replay without --tasks gives the tasks the log holds, JSON and text" \
		"rc=$rc/$rc2 $(diff "$TMP/frozen.json" "$TMP/replay-plain.json" | head -3; grep -c '^blocked' "$TMP/replay-plain.txt")"
