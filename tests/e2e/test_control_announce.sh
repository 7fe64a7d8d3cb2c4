#!/bin/bash
# `ioscope set` / `ioscope remount` run from a shell tell the running batch (and console)
# through the runtime directory (docs/runtime.md): the change is logged once, by ioscope,
# with its result, even when samples see it before its result is announced.  And the runtime directory is never followed through a symlink.
. "$(dirname "$0")/lib.sh"
is_root || { skip "announcements" "needs root for a loop device"; exit 0; }
needs "announcements" strace

RUNDIR="$XDG_RUNTIME_DIR/ioscope"

# A socket file nobody listens on (what a kill -9 leaves behind).
dead_socket() { python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1])' "$1"; }

# send_datagram PATH TEXT: what `ioscope mark` will send
send_datagram() {
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(sys.argv[2].encode(), sys.argv[1])' "$1" "$2"
}

dev=$(make_loop 64) || { fail "loop device"; exit 1; }
echo mq-deadline >"/sys/block/$dev/queue/scheduler"
mnt=$(make_fs "$dev" ext4) || { fail "ext4 on $dev"; exit 1; }

mkdir -m 700 "$RUNDIR"
dead_socket "$RUNDIR/999999999.sock"     # a pid that cannot exist
dead_socket "$RUNDIR/$$.sock"            # a live pid (ours) that does not listen

"$IOSCOPE" --batch -i 0.5 -f json "$dev" >"$TMP/out.json" 2>"$TMP/err" &
pid=$!
if wait_socket "$pid"; then ok "batch listens in the runtime directory"; else
	fail "batch listens in the runtime directory" "$(ls -la "$RUNDIR"; cat "$TMP/err")"; fi
[ ! -e "$RUNDIR/999999999.sock" ] && ok "stale socket of a dead pid removed" \
	|| fail "stale socket of a dead pid removed"
[ "$(stat -c %a "$RUNDIR")" = 700 ] && ok "runtime directory 0700" || fail "runtime directory 0700"

# The switch is held 1.5 s between taking effect and `set` going on (strace delays the
# return of its write to the scheduler file): samples read meanwhile see the new scheduler
# before any announcement of the result can come, as one did by chance when the write
# landed just before a sample.  LeakSanitizer cannot run under ptrace.
held=(strace -f -o /dev/null -P "/sys/block/$dev/queue/scheduler" -e trace=write
	-e inject=write:delay_exit=1500000)
if ! strace -f -o /dev/null true 2>/dev/null; then
	skip "switch seen by samples before its result" "strace cannot trace here (no ptrace)"
	held=()
fi
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "${held[@]}" \
	"$IOSCOPE" set "$dev" scheduler=kyber >"$TMP/set.out" 2>&1 && clean_stderr "$TMP/set.out" \
	&& ok "set" || fail "set" "$(cat "$TMP/set.out")"
[ ! -e "$RUNDIR/$$.sock" ] && ok "set removes a socket nobody listens on" \
	|| fail "set removes a socket nobody listens on"
sleep 1.1
"$IOSCOPE" remount "$mnt" noatime >"$TMP/remount.out" 2>&1 \
	&& ok "remount" || fail "remount" "$(cat "$TMP/remount.out")"
send_datagram "$RUNDIR/$pid.sock" 'junk {'
send_datagram "$RUNDIR/$pid.sock" '{"type":"event","kind":"scheduler","object":"'"$dev"'","key":"scheduler","old":"a","new":"b","by":"observed"}'
send_datagram "$RUNDIR/$pid.sock" '{"type":"event","kind":"mark","object":"user","key":"mark","new":"from a shell","by":"ioscope"}'
sleep 1.1   # the next sample carries them
kill -TERM $pid   # ends the run cleanly: exit status 0
wait $pid && ok "batch run" || fail "batch run" "$(cat "$TMP/err")"
[ ! -e "$RUNDIR/$pid.sock" ] && ok "socket removed at exit" || fail "socket removed at exit"

python3 - "$TMP/out.json" "$dev" "$mnt" <<'PY'
import json, sys
out, dev, mnt = sys.argv[1:]
evs = [e for l in open(out) for e in json.loads(l)["events"]]
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {what}"))
sched = [e for e in evs if e["object"] == dev and e["key"] == "scheduler"]
check("scheduler switch logged once, by ioscope, with its result",
      len(sched) == 1 and sched[0]["by"] == "ioscope" and sched[0]["new"] == "kyber"
      and sched[0].get("result", "").startswith("ok"), sched)
mo = [e for e in evs if e["object"] == mnt and e["key"] == "mount_opts"]
check("remount logged once, by ioscope", len(mo) == 1 and mo[0]["by"] == "ioscope"
      and "noatime" in mo[0]["new"], mo)
marks = [e for e in evs if e["kind"] == "mark"]
check("a mark datagram is an event", len(marks) == 1 and marks[0]["new"] == "from a shell", marks)
fake = [e for e in evs if e.get("new") == "b"]
# sent before the mark, so read before it: only meaningful when the mark arrived
check("an announcement claiming 'observed' is dropped", marks and not fake, fake)
PY

# A change announced while a sample is being read: strace holds the batch 3 s at the entry
# of its read of the mount table, `remount` runs meanwhile, and the sample reads the new
# options after the announcement came.  Logged once, by ioscope: the announcement is taken
# between reading the sample and deriving its events, not only before the read.
if [ ${#held[@]} -gt 0 ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$IOSCOPE" --batch -i 0.3 -f json "$dev" \
		>"$TMP/mid.json" 2>"$TMP/mid.err" &
	mid=$!
	at_exit "kill $mid"
	remount_relatime() {
		"$IOSCOPE" remount "$mnt" relatime >"$TMP/mid-remount.out" 2>&1 \
			|| fail "remount during a sample's read" "$(cat "$TMP/mid-remount.out")"
	}
	wait_socket "$mid" && wait_output "$TMP/mid.json" "$mid" &&
		while_mount_read_held "remount" "$mid" 3 remount_relatime
	n=$(wc -l <"$TMP/mid.json")
	wait_until 10 "$mid" eval '[ "$(wc -l <"$TMP/mid.json")" -ge $((n + 2)) ]'
	kill -TERM "$mid"
	wait "$mid" && clean_stderr "$TMP/mid.err" && ok "batch run held by strace" \
		|| fail "batch run held by strace" "$(cat "$TMP/mid.err")"
	python3 - "$TMP/mid.json" "$mnt" <<'PY'
import json, sys
out, mnt = sys.argv[1:]
mo = [e for l in open(out) for e in json.loads(l)["events"]
      if e["object"] == mnt and e["key"] == "mount_opts"]
ok = len(mo) == 1 and mo[0]["by"] == "ioscope" and "relatime" in mo[0]["new"]
print(("ok " if ok else "not ok ") + "remount announced mid-read logged once, by ioscope"
      + ("" if ok else f": {mo}"))
PY
fi

# A `set` whose first write is refused (strace fails the nr_requests write with EBUSY) does
# not attempt the second: it withdraws read_ahead_kb's announcement after its events, and
# a batch beside logs a shell's read_ahead_kb write a moment later as observed with its
# sample, not held for EXPECT_WAIT_SECONDS (10 s) as the `set`'s.
if [ ${#held[@]} -gt 0 ]; then
	"$IOSCOPE" --batch -i 0.2 -f json "$dev" >"$TMP/refused.json" 2>"$TMP/refused.err" &
	refused=$!
	at_exit "kill $refused"
	wait_socket "$refused" && wait_output "$TMP/refused.json" "$refused"
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -o /dev/null \
		-P "/sys/block/$dev/queue/nr_requests" -e trace=write -e inject=write:error=EBUSY \
		"$IOSCOPE" set "$dev" nr_requests=32 read_ahead_kb=256 >"$TMP/refused.out" 2>&1
	[ $? = 1 ] && grep -q "read_ahead_kb=256: not attempted" "$TMP/refused.out" \
		&& ok "set: refused, the rest not attempted" \
		|| fail "set: refused, the rest not attempted" "$(cat "$TMP/refused.out")"
	ra=$(cat "/sys/block/$dev/queue/read_ahead_kb")
	echo 64 >"/sys/block/$dev/queue/read_ahead_kb"
	written=$(date +%s.%N)
	# held, it would come 10 s after the announcement
	wait_until 5 "$refused" grep -q "read_ahead_kb [0-9]*→64" "$TMP/refused.json"
	echo "$ra" >"/sys/block/$dev/queue/read_ahead_kb"
	kill -TERM "$refused"
	wait "$refused" && clean_stderr "$TMP/refused.err" && ok "batch beside the refused set" \
		|| fail "batch beside the refused set" "$(cat "$TMP/refused.err")"
	python3 - "$TMP/refused.json" "$dev" "$written" <<'PY'
import json, sys
out, dev, written = sys.argv[1], sys.argv[2], float(sys.argv[3])
evs = [e for l in open(out) for e in json.loads(l)["events"] if e["object"] == dev]
ra = [e for e in evs if e["key"] == "read_ahead_kb" and e["new"] == "64"]
nr = [e for e in evs if e["key"] == "nr_requests"]
ok = (len(ra) == 1 and ra[0]["by"] == "observed" and ra[0]["time"] - written < 5 and
      len(nr) == 1 and nr[0]["by"] == "ioscope" and nr[0].get("result", "").startswith("refused"))
print(("ok " if ok else "not ok ") + "a shell's change after the refused set: observed with its sample"
      + ("" if ok else ": written %.2f: %s" % (written, evs)))
PY
fi

# The runtime directory is refused, never followed, when it is a symlink or open to others;
# the instance runs on (an unreachable instance is no error).
mkdir -m 700 "$TMP/run2" "$TMP/elsewhere"
ln -s "$TMP/elsewhere" "$TMP/run2/ioscope"
XDG_RUNTIME_DIR="$TMP/run2" "$IOSCOPE" --batch -i 0.1 -c 2 "$dev" >/dev/null 2>"$TMP/err2" \
	&& ok "batch runs when the runtime directory is a symlink" \
	|| fail "batch runs when the runtime directory is a symlink" "$(cat "$TMP/err2")"
[ -z "$(ls -A "$TMP/elsewhere")" ] && ok "symlinked runtime directory not followed" \
	|| fail "symlinked runtime directory not followed" "$(ls -la "$TMP/elsewhere")"
mkdir -m 700 "$TMP/run3" && mkdir -m 755 "$TMP/run3/ioscope"
XDG_RUNTIME_DIR="$TMP/run3" "$IOSCOPE" --batch -i 0.1 -c 2 "$dev" >/dev/null 2>"$TMP/err3" \
	&& [ -z "$(ls -A "$TMP/run3/ioscope")" ] && ok "runtime directory open to others not used" \
	|| fail "runtime directory open to others not used" "$(ls -la "$TMP/run3/ioscope"; cat "$TMP/err3")"
XDG_RUNTIME_DIR="$TMP/run2" "$IOSCOPE" set "$dev" scheduler=mq-deadline >/dev/null 2>"$TMP/err4" \
	&& ok "set without a usable runtime directory" \
	|| fail "set without a usable runtime directory" "$(cat "$TMP/err4")"
