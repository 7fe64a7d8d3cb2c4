#!/bin/bash
# A 24-hour recording at 1 s with 16 devices (86400 samples, ~350 MB) is read once, to
# index it, and then only where asked: replaying its first interval, reporting on its last
# minute and on a minute in the middle each read the file once plus a few lines, never
# the samples before the range.  (How long that takes is measured by `make bench`, part r,
# not here: this machine is shared and a timed test would fail under load.)
. "$(dirname "$0")/lib.sh"
needs "index" python3 strace
[ -x "$IOSCOPE_OPT" ] || { skip "index" "no optimised binary at $IOSCOPE_OPT (make all)"; exit 0; }
free_mb=$(df -Pm "$TMP" | awk 'NR == 2 { print $4 }')
[ "$free_mb" -gt 1500 ] || { skip "index" "needs 1.5 GB free in $TMP"; exit 0; }

python3 "$(dirname "$0")/session_log_gen.py" 86400 16 "$TMP/day.log" || { fail "generate a day"; exit 1; }
ok "generated $(($(stat -c %s "$TMP/day.log") / 1048576)) MB, 86400 samples x 16 devices"

size=$(stat -c %s "$TMP/day.log")
# bytes CMD... : what CMD read (read/pread of every descriptor), or "failed"
bytes() {
	strace -f -qq -e trace=read,pread64 -o "$TMP/strace" "$@" >/dev/null 2>"$TMP/err" || { echo failed; return; }
	awk '$NF ~ /^[0-9]+$/ { n += $NF } END { print n + 0 }' "$TMP/strace"
}
# once through the file for the index, and at most 1 MB more
once() { [ "$1" != failed ] && [ "$1" -ge "$size" ] && [ "$1" -le $((size + 1048576)) ]; }

b=$(bytes "$IOSCOPE_OPT" --replay "$TMP/day.log" --batch -f json -c 1 sdaa)
once "$b" && ok "the first interval: the file read once ($b bytes)" || fail "the first interval reads the file once" "$b of $size"
b=$(bytes "$IOSCOPE_OPT" report "$TMP/day.log" --devices sdaa --from +23h59m -f csv)
once "$b" && ok "the last minute: the file read once ($b bytes)" || fail "the last minute reads the file once" "$b of $size"
b=$(bytes "$IOSCOPE_OPT" report "$TMP/day.log" --devices sdaa --from +12h --to +12h1m -f text)
once "$b" && ok "a minute in the middle: the file read once ($b bytes)" || fail "a minute in the middle reads the file once" "$b of $size"
# the seek lands where it should, and the hourly switches are there
"$IOSCOPE_OPT" report "$TMP/day.log" --devices sdaa --from +12h --to +12h1m1s -f csv >"$TMP/mid.csv"
n=$(grep -c '^sample,' "$TMP/mid.csv")
[ "$n" -eq 60 ] && ok "a minute in the middle is 60 intervals" || fail "a minute in the middle" "$n"
grep -q '^event,.*,scheduler,sdaa,scheduler,bfq,mq-deadline,' "$TMP/mid.csv" \
	&& ok "the switch at 12:00 is in it" || fail "the switch at 12:00 is in it"
