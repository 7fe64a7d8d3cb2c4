#!/bin/bash
# A burst of `ioscope mark` announcements (issue 23 item 9: 348k in 15 s took a batch
# from 4 MB to 343 MB and kept it): at most ANNOUNCE_TAKE_MAX (256) are taken per
# interval, the rest are counted and said on standard error, and memory stays bounded.
. "$(dirname "$0")/lib.sh"

RUNDIR="$XDG_RUNTIME_DIR/ioscope"
BURST=50000
TAKE_MAX=256
HWM_MAX_KB=$((96 * 1024))    # the sanitized binary: ~25 MB; before the cap, far above

mkdir -m 700 "$RUNDIR"

# What `ioscope mark` sends, caught by a listener of our own (a live pid's socket).
python3 - "$RUNDIR" "$IOSCOPE" >"$TMP/mark.msg" 2>"$TMP/mark.err" <<'PY'
import os, socket, subprocess, sys
rundir, ioscope = sys.argv[1:]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
path = os.path.join(rundir, "%d.sock" % os.getpid())
s.bind(path)
s.settimeout(10)
subprocess.run([ioscope, "mark", "burst"], check=True, stdout=subprocess.DEVNULL)
sys.stdout.write(s.recv(65536).decode())
os.unlink(path)
PY
grep -q '"kind":"mark"' "$TMP/mark.msg" && clean_stderr "$TMP/mark.err" \
	&& ok "ioscope mark sends a mark record" \
	|| { fail "ioscope mark sends a mark record" "$(cat "$TMP/mark.msg" "$TMP/mark.err")"; exit 0; }

disk=$(system_disk)
"$IOSCOPE" --batch -i 1 -f json ${disk:+"$disk"} >"$TMP/out.json" 2>"$TMP/err" &
pid=$!
at_exit "kill $pid"
if wait_socket "$pid"; then ok "batch listens"; else
	fail "batch listens" "$(cat "$TMP/err")"; exit 0; fi

# The burst: blocking sends, so every datagram reaches the batch (taken or counted).
t0=$EPOCHREALTIME
timeout 120 python3 - "$RUNDIR/$pid.sock" "$TMP/mark.msg" "$BURST" <<'PY'
import socket, sys
path, msgfile, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
msg = open(msgfile, "rb").read()
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(msg, path)
PY
rc=$?
[ "$rc" -eq 0 ] && ok "$BURST announcements sent ($(( (${EPOCHREALTIME/./} - ${t0/./}) / 1000 )) ms)" \
	|| fail "$BURST announcements sent" "python exited $rc"
sleep 2.5   # the intervals that saw the burst end, and say what they dropped
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
[ -n "$hwm" ] && [ "$hwm" -lt "$HWM_MAX_KB" ] \
	&& ok "peak memory bounded (VmHWM ${hwm} kB, VmRSS ${rss} kB)" \
	|| fail "peak memory bounded" "VmHWM ${hwm:-?} kB >= $HWM_MAX_KB kB"
kill -TERM "$pid"
wait "$pid" && ok "batch run" || fail "batch run" "$(tail -5 "$TMP/err")"
clean_stderr "$TMP/err" && ok "no sanitizer report" || fail "no sanitizer report" "$(grep -m5 -E 'Sanitizer|runtime error' "$TMP/err")"

dropped=$(sed -n 's/^ioscope: \([0-9]*\) announcements\{0,1\} dropped: at most '"$TAKE_MAX"' are taken in one interval$/\1/p' "$TMP/err" \
	| awk '{ n += $1 } END { print n + 0 }')
[ "$dropped" -gt 0 ] && ok "the dropped announcements are said ($dropped)" \
	|| fail "the dropped announcements are said" "$(head -5 "$TMP/err")"
python3 - "$TMP/out.json" "$TAKE_MAX" "$BURST" "$dropped" <<'PY'
import json, sys
out, take_max, burst, dropped = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
per = [sum(1 for e in json.loads(l)["events"] if e["kind"] == "mark" and e["new"] == "burst")
       for l in open(out)]
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {what}"))
check("at most %d marks taken per interval" % take_max, per and max(per) <= take_max, per)
check("every announcement is either a mark or counted as dropped",
      sum(per) + dropped == burst, "%d marks + %d dropped != %d" % (sum(per), dropped, burst))
PY
