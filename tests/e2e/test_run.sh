#!/bin/bash
# `ioscope run --batch`: the command's exit status is ioscope's (128+N for a signal), its
# start and exit are logged as events of kind run with what it cost, --output takes its
# output.  `ioscope mark` reaches a running batch of the same user, not another user's,
# and says so (exit 1) when nothing runs.
. "$(dirname "$0")/lib.sh"
needs "run" python3

RUNDIR="$XDG_RUNTIME_DIR/ioscope"

# sanitizer reports in FILE (the status is the command's, so 86 alone would not tell)

# A failing command: its status, and both marks in order in the log.
"$IOSCOPE" run --batch -i 0.2 --linger 0 --record "$TMP/fail.log" -- \
	sh -c 'head -c 300000 /dev/zero >"$1"; sleep 0.3; exit 3' sh "$TMP/written" \
	>"$TMP/fail.out" 2>"$TMP/fail.err"
rc=$?
[ $rc = 3 ] && clean_stderr "$TMP/fail.err" && ok "run --batch returns the command's status" \
	|| fail "run --batch returns the command's status" "rc=$rc $(cat "$TMP/fail.err")"
python3 - "$TMP/fail.log" "$(id -u)" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1], errors="surrogateescape")]
runs = [r for r in recs if r["type"] == "event" and r["kind"] == "run"]
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {what}"))
keys = [r["key"] for r in runs]
check("log has the start and the exit of the command, in order", keys == ["start", "exit"], runs)
if keys == ["start", "exit"]:
    start, end = runs
    fig = dict(kv.split("=", 1) for kv in end["result"].split())
    check("start names the command and its pid", start["new"].startswith("sh -c head")
          and start["result"].startswith("pid=") and start["by"] == "ioscope", start)
    check("exit has status, elapsed and CPU",
          fig.get("status") == "3" and float(fig.get("elapsed_s", 0)) >= 0.3
          and "user_s" in fig and "sys_s" in fig, fig)
    # An exited process's /proc/PID/io belongs to root (the kernel makes a process without
    # memory root's), so only root reads the bytes of the command it reaps.
    if sys.argv[2] == "0":
        check("exit has the bytes written", int(fig.get("wchar", 0)) >= 300000, fig)
    else:
        print("skip exit has the bytes written: needs root to read an exited command's /proc/PID/io")
    check("exit comes after start", end["mono"] > start["mono"], runs)
PY
grep -q -- '---- .* run exit 3 (' "$TMP/fail.out" && ok "batch text shows the exit" \
	|| fail "batch text shows the exit" "$(cat "$TMP/fail.out")"

# A command killed by a signal: 128+N, like a shell.
"$IOSCOPE" run --batch -i 0.2 --linger 0 -- sh -c 'kill -TERM $$' >/dev/null 2>"$TMP/sig.err"
rc=$?
[ $rc = 143 ] && clean_stderr "$TMP/sig.err" && ok "a command killed by SIGTERM gives 143" \
	|| fail "a command killed by SIGTERM gives 143" "rc=$rc $(cat "$TMP/sig.err")"

# A command that cannot be run: said, 127 like a shell.
"$IOSCOPE" run --batch -i 0.2 --linger 0 -- "$TMP/no-such-command" >/dev/null 2>"$TMP/none.err"
rc=$?
[ $rc = 127 ] && grep -q "no-such-command: No such file" "$TMP/none.err" \
	&& ok "a missing command is 127 and said" || fail "a missing command is 127 and said" \
	"rc=$rc $(cat "$TMP/none.err")"

# A command that cannot start leaves no recording: the same command line, retried, is
# not refused for a file that holds only the header and the baseline.
"$IOSCOPE" run --batch -i 0.2 --linger 0 --record "$TMP/none.log" -- "$TMP/no-such-command" \
	>/dev/null 2>"$TMP/none-rec.err"
rc=$?
[ $rc = 127 ] && [ ! -e "$TMP/none.log" ] && clean_stderr "$TMP/none-rec.err" \
	&& ok "a command that cannot start leaves no --record file" \
	|| fail "a command that cannot start leaves no --record file" \
	"rc=$rc $(ls -l "$TMP/none.log" 2>&1) $(cat "$TMP/none-rec.err")"
# --record-append keeps what the file held before
printf 'not a log\n' >"$TMP/keep.log"
"$IOSCOPE" run --batch -i 0.2 --linger 0 --record-append "$TMP/keep.log" -- \
	"$TMP/no-such-command" >/dev/null 2>"$TMP/keep.err"
[ "$(cat "$TMP/keep.log" 2>&1)" = "not a log" ] && ok "a failed run leaves an appended-to file as it was" \
	|| fail "a failed run leaves an appended-to file as it was" "$(cat "$TMP/keep.err")"

# DEVICE arguments before a `--`, as batch mode takes them: only that device is shown.
disk=$(system_disk)
"$IOSCOPE" run --batch -i 0.2 --linger 0 -f json "$disk" -- true >"$TMP/dev.json" 2>"$TMP/dev.err"
rc=$?
shown=$(python3 -c 'import json,sys
print(" ".join(sorted({d for l in open(sys.argv[1]) for d in json.loads(l)["devices"]})))' \
	"$TMP/dev.json" 2>&1)
[ $rc = 0 ] && [ "$shown" = "$disk" ] && clean_stderr "$TMP/dev.err" \
	&& ok "run takes DEVICE arguments before --" \
	|| fail "run takes DEVICE arguments before --" "rc=$rc shown '$shown' $(cat "$TMP/dev.err")"
"$IOSCOPE" run --batch -i 0.2 --linger 0 nosuchdisk -- true >/dev/null 2>"$TMP/dev2.err"
rc=$?
[ $rc = 2 ] && grep -q "unknown device 'nosuchdisk'" "$TMP/dev2.err" \
	&& ok "run: an unknown device is a usage error" \
	|| fail "run: an unknown device is a usage error" "rc=$rc $(cat "$TMP/dev2.err")"
"$IOSCOPE" run --batch -i 0.2 --linger 0 /nonexistent/ioscope-path -- true >/dev/null \
	2>"$TMP/dev3.err"
rc=$?
[ $rc = 2 ] && grep -q "/nonexistent/ioscope-path: No such file or directory" "$TMP/dev3.err" \
	&& ok "run: a path that does not exist says so" \
	|| fail "run: a path that does not exist says so" "rc=$rc $(cat "$TMP/dev3.err")"
# a `--` right after the options: everything after it is the command, a later `--` too
"$IOSCOPE" run --batch -i 0.2 --linger 0 -- sh -c 'exit $#' -- a b c >/dev/null 2>"$TMP/dev5.err"
rc=$?
[ $rc = 3 ] && clean_stderr "$TMP/dev5.err" && ok "run: a -- after the command's -- is the command's" \
	|| fail "run: a -- after the command's -- is the command's" "rc=$rc $(cat "$TMP/dev5.err")"
"$IOSCOPE" run --batch -i 0.2 --linger 0 "$disk" -- >/dev/null 2>"$TMP/dev4.err"
rc=$?
[ $rc = 2 ] && grep -q "give the COMMAND" "$TMP/dev4.err" && ok "run: devices without a COMMAND" \
	|| fail "run: devices without a COMMAND" "rc=$rc $(cat "$TMP/dev4.err")"

# --output: the command's stdout and stderr go to the file, not to ioscope's output.
"$IOSCOPE" run --batch -i 0.2 --linger 0 --output "$TMP/cmd.out" -- \
	sh -c 'echo to-stdout; echo to-stderr >&2' >"$TMP/o.out" 2>"$TMP/o.err"
rc=$?
[ $rc = 0 ] && grep -qx to-stdout "$TMP/cmd.out" && grep -qx to-stderr "$TMP/cmd.out" \
	&& ! grep -qx "to-std.*" "$TMP/o.out" "$TMP/o.err" && ok "--output takes stdout and stderr" \
	|| fail "--output takes stdout and stderr" "rc=$rc $(cat "$TMP/cmd.out" "$TMP/o.err")"
# an existing file is refused and kept, as --record does: never truncated
"$IOSCOPE" run --batch -i 0.2 --linger 0 --output "$TMP/cmd.out" -- true >/dev/null 2>"$TMP/o.err"
rc=$?
[ $rc = 1 ] && grep -q "exists" "$TMP/o.err" && grep -qx to-stdout "$TMP/cmd.out" \
	&& ! grep -qE 'Sanitizer|runtime error' "$TMP/o.err" && ok "--output refuses an existing file and keeps it" \
	|| fail "--output refuses an existing file and keeps it" "rc=$rc $(cat "$TMP/o.err")"

# --linger: the watch goes on after the exit.
start=$(date +%s.%N)
"$IOSCOPE" run --batch -i 0.2 --linger 1 -- true >/dev/null 2>"$TMP/l.err"
took=$(echo "$(date +%s.%N) - $start" | bc)
[ "$(echo "$took >= 1" | bc)" = 1 ] && ok "--linger 1 watches a second after the exit" \
	|| fail "--linger 1 watches a second after the exit" "took $took s"

# ioscope mark with nothing running: says so, exit 1.
"$IOSCOPE" mark nobody listens >"$TMP/m0.out" 2>"$TMP/m0.err"
rc=$?
[ $rc = 1 ] && grep -q "no running ioscope" "$TMP/m0.err" && ok "mark with none running exits 1" \
	|| fail "mark with none running exits 1" "rc=$rc $(cat "$TMP/m0.err")"

# ioscope mark reaches a running batch (run under `ioscope run`, as an experiment would).
# (the command ends when told: a loaded machine must not end it before the marks are sent)
"$IOSCOPE" run --batch -i 0.2 -f json --linger 0 --record "$TMP/mark.log" -- \
	sh -c "while [ ! -e '$TMP/mark.done' ]; do sleep 0.05; done" >"$TMP/mark.json" 2>"$TMP/mark.err" &
pid=$!
for ((i = 0; i < 50; i++)); do [ -S "$RUNDIR/$pid.sock" ] && break; sleep 0.1; done
"$IOSCOPE" mark halfway through >"$TMP/m1.out" 2>&1 && grep -qx "marked in 1 running ioscope (pid $pid)" "$TMP/m1.out" \
	&& ok "mark reaches a running batch" || fail "mark reaches a running batch" "$(cat "$TMP/m1.out")"

# Another user cannot mark it: its `ioscope mark` finds no directory of its own (and ours
# is refused), and a datagram it sends straight to the socket is dropped (credentials).
if is_root && id nobody >/dev/null 2>&1; then
	chmod o+x "$TMP" "$TMP/run" "$RUNDIR" && chmod o+w "$RUNDIR/$pid.sock"
	setpriv --reuid=65534 --regid=65534 --clear-groups env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
		"$IOSCOPE" mark from nobody >"$TMP/m2.out" 2>&1
	rc=$?
	[ $rc = 1 ] && ok "another user's mark: no instance of theirs (exit 1)" \
		|| fail "another user's mark: no instance of theirs (exit 1)" "rc=$rc $(cat "$TMP/m2.out")"
	setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c 'import socket,sys
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(sys.argv[2].encode(), sys.argv[1])' \
		"$RUNDIR/$pid.sock" \
		'{"type":"event","kind":"mark","object":"user","key":"mark","new":"sent by nobody","by":"ioscope"}' \
		>"$TMP/m3.out" 2>&1 && ok "another user can reach the socket (so the refusal is the listener's)" \
		|| fail "another user can reach the socket (so the refusal is the listener's)" "$(cat "$TMP/m3.out")"
	chmod o-x "$TMP" "$TMP/run" "$RUNDIR"
else
	skip "another user's mark" "needs root and a user nobody"
fi
nap 0.5   # two samples after the datagram: it was read, and not taken as a mark
touch "$TMP/mark.done"
wait $pid
rc=$?
[ $rc = 0 ] && clean_stderr "$TMP/mark.err" && ok "batch under run ends with the command" \
	|| fail "batch under run ends with the command" "rc=$rc $(cat "$TMP/mark.err")"
python3 - "$TMP/mark.log" "$TMP/mark.json" <<'PY'
import json, sys
log, out = sys.argv[1:]
marks = [r for r in map(json.loads, open(log, errors="surrogateescape")) if r["type"] == "event" and r["kind"] == "mark"]
shown = [e for l in open(out, errors="surrogateescape") for e in json.loads(l)["events"] if e["kind"] == "mark"]
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {what}"))
check("the mark is logged once, with its text", [m["new"] for m in marks] == ["halfway through"], marks)
check("the mark is in the batch output", [m["new"] for m in shown] == ["halfway through"], shown)
check("another user's datagram is not a mark", all("nobody" not in m["new"] for m in marks), marks)
PY

# ---- The command's processes go with it (issue 23): its group, its orphans, its daemons ----
at_exit "$KILL_MARKED"
# stop_run NAME PATTERN COUNT COMMAND: run COMMAND under run --batch, SIGTERM ioscope once
# COUNT sleeps run, then: status 143 (the command's, killed by the SIGTERM passed on),
# no sanitizer report, and none of them left.
stop_run() {
	local name=$1 pat=$2 count=$3 rc; shift 3
	"$IOSCOPE" run --batch -i 0.2 --linger 0 -- "$@" >/dev/null 2>"$TMP/stop.err" &
	local pid=$!
	wait_marked "$pat" "$count" || fail "$name: the command's processes start" "$(marked "$pat")"
	kill -TERM $pid
	wait $pid
	rc=$?
	local left
	left=$(marked "$pat")
	[ $rc = 143 ] && [ -z "$left" ] && clean_stderr "$TMP/stop.err" && ok "$name" \
		|| fail "$name" "rc=$rc left: ${left:-none} $(cat "$TMP/stop.err")"
}
stop_run "SIGTERM to run --batch stops the command's background job too" '[12]' 2 \
	sh -c "sleep ${MARK}1 & sleep ${MARK}2"
stop_run "SIGTERM to run --batch stops a setsid daemon and an orphan of the command" '[345]' 3 \
	sh -c "setsid sleep ${MARK}3 & (sleep ${MARK}4 &); sleep ${MARK}5"

# A command that exits leaving a daemon that ignores SIGTERM: SIGKILL a second later,
# said on stderr, and ioscope's status is still the command's.
start=$EPOCHREALTIME
"$IOSCOPE" run --batch -i 0.2 --linger 0 -- sh -c "setsid sh -c 'trap \"\" TERM; sleep ${MARK}6; :' &
	for i in \$(seq 300); do pgrep -f '^sleep ${MARK}6' >/dev/null && break; sleep 0.05; done" \
	>/dev/null 2>"$TMP/left.err"
rc=$?
took=$(echo "$EPOCHREALTIME - $start" | bc)
left=$(marked 6)
[ $rc = 0 ] && [ -z "$left" ] && [ "$(echo "$took >= 1" | bc)" = 1 ] && clean_stderr "$TMP/left.err" \
	&& grep -q "the command left 2 processes running: stopped" "$TMP/left.err" \
	&& ok "a daemon the command left, deaf to SIGTERM, is killed a second later and said" \
	|| fail "a daemon the command left, deaf to SIGTERM, is killed a second later and said" \
		"rc=$rc took=$took left: ${left:-none} $(cat "$TMP/left.err")"
