#!/bin/bash
# A 24-hour recording at 1 s with 16 devices (86400 samples, ~350 MB) opens in under a
# second and seeks instantly: replaying its first interval, reporting on its last
# minute and on a minute in the middle each take well under a second (page cache warm:
# the file was just written; a cold disk adds its read time).
. "$(dirname "$0")/lib.sh"
[ -x "$IOSCOPE_OPT" ] || { skip "index speed" "no optimised binary at $IOSCOPE_OPT (make all)"; exit 0; }
free_mb=$(df -Pm "$TMP" | awk 'NR == 2 { print $4 }')
[ "$free_mb" -gt 1500 ] || { skip "index speed" "needs 1.5 GB free in $TMP"; exit 0; }

python3 "$(dirname "$0")/session_log_gen.py" 86400 16 "$TMP/day.log" || { fail "generate a day"; exit 1; }
ok "generated $(($(stat -c %s "$TMP/day.log") / 1048576)) MB, 86400 samples x 16 devices"

# seconds CMD... : wall time of CMD, output discarded, fails on a non-zero exit
seconds() {
	python3 -c '
import subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
print(f"{time.monotonic() - t:.3f}" if rc == 0 else "failed")' "$@"
}
under() { python3 -c 'import sys; sys.exit(not (sys.argv[1] != "failed" and float(sys.argv[1]) < float(sys.argv[2])))' "$1" "$2"; }

t=$(seconds "$IOSCOPE_OPT" --replay "$TMP/day.log" --batch -f json -c 1 sdaa)
under "$t" 1.0 && ok "opens and replays the first interval in ${t}s" || fail "open in under a second" "$t"
t=$(seconds "$IOSCOPE_OPT" report "$TMP/day.log" --devices sdaa --from +23h59m -f csv)
under "$t" 1.0 && ok "seeks to the last minute in ${t}s" || fail "seek to the end" "$t"
t=$(seconds "$IOSCOPE_OPT" report "$TMP/day.log" --devices sdaa --from +12h --to +12h1m -f text)
under "$t" 1.0 && ok "seeks to the middle in ${t}s" || fail "seek to the middle" "$t"
# the seek lands where it should, and the hourly switches are there
"$IOSCOPE_OPT" report "$TMP/day.log" --devices sdaa --from +12h --to +12h1m1s -f csv >"$TMP/mid.csv"
n=$(grep -c '^sample,' "$TMP/mid.csv")
[ "$n" -eq 60 ] && ok "a minute in the middle is 60 intervals" || fail "a minute in the middle" "$n"
grep -q '^event,.*,scheduler,sdaa,scheduler,bfq,mq-deadline,' "$TMP/mid.csv" \
	&& ok "the switch at 12:00 is in it" || fail "the switch at 12:00 is in it"
