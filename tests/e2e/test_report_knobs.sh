#!/bin/bash
# Issue 25: a loop device's direct I/O turned on during a recording cuts the report's phases
# and gives the comparison table a row of its own (direct I/O off and on were one "setting
# state" before); `compare` of a session with direct I/O off against one with it on says so.
# An idle device recorded beside it has phases without an await to compare: still reported.
. "$(dirname "$0")/lib.sh"
export TZ=UTC

if ! is_root; then
	skip "direct I/O in a report" "needs root (loop devices)"
	exit 0
fi
L=$(make_loop 64) || { fail "a loop device" "losetup failed"; exit 0; }
IDLE=$(make_loop 16) || { fail "a loop device" "losetup failed"; exit 0; }
busy_writer "$L" 60

# record a session of about 8 s, direct I/O turned on after 4 s
record() {   # record LOG SECONDS-BEFORE-DIO-ON (-1: never)
	# an idle device beside it: its phases have no await to compare
	"$IOSCOPE" --batch -i 0.25 -c 32 -f json --record "$1" "$L" "$IDLE" >/dev/null 2>"$1.err" &
	local pid=$!
	if [ "$2" -ge 0 ]; then
		sleep "$2"
		losetup --direct-io=on "/dev/$L"
	fi
	wait $pid
	local rc=$?
	[ $rc -eq 0 ] && clean_stderr "$1.err" || fail "recorded $1" "exit $rc: $(cat "$1.err")"
}
record "$TMP/a.log" 4
record "$TMP/b.log" -1              # still on
losetup --direct-io=off "/dev/$L"

"$IOSCOPE" report "$TMP/a.log" --min-phase 1s >"$TMP/a.txt" 2>"$TMP/a.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$TMP/a.err" ] && grep -q "^Comparison of $IDLE" "$TMP/a.txt" \
	&& ok "report runs cleanly, an idle device's phases compared too" \
	|| fail "report runs cleanly, an idle device's phases compared too" "exit $rc: $(cat "$TMP/a.err")"
# (the phase line gives the event's number since the marks are numbered: "[N] ")
grep -qE "after [0-9:]{8}(\.[0-9])? (\[[0-9]+\] )?$L loop.dio 0→1" "$TMP/a.txt" \
	&& ok "the direct I/O change opens a phase" || fail "the direct I/O change opens a phase" "$(head -80 "$TMP/a.txt")"
sed -n "/^Comparison of $L/,/^\$/p" "$TMP/a.txt" >"$TMP/a.cmp"
grep -qE "sched [a-z-]+, loop.dio 0 " "$TMP/a.cmp" && grep -qE "sched [a-z-]+, loop.dio 1 " "$TMP/a.cmp" \
	&& ok "the comparison table has a row for direct I/O off and one for on" \
	|| fail "the comparison table has a row for direct I/O off and one for on" "$(cat "$TMP/a.cmp")"

"$IOSCOPE" compare "$TMP/a.log" "$TMP/b.log" --min-phase 1s --phase 1 >"$TMP/cmp.txt" 2>"$TMP/cmp.err"
rc=$?
"$IOSCOPE" compare "$TMP/a.log" "$TMP/a.log" --min-phase 1s >"$TMP/same.txt" 2>&1
# against itself, no phase differs in any setting
[ $rc -eq 0 ] && [ ! -s "$TMP/cmp.err" ] && grep -q "^  settings $L: loop.dio 0→1" "$TMP/cmp.txt" \
	&& ! grep -q "settings" "$TMP/same.txt" \
	&& ok "compare says the phases differ in direct I/O (and nothing against itself)" \
	|| fail "compare says the phases differ in direct I/O (and nothing against itself)" \
		"exit $rc: $(cat "$TMP/cmp.txt" "$TMP/cmp.err" "$TMP/same.txt")"
