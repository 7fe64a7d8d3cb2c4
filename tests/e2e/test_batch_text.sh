#!/bin/bash
# Batch text is read by people: golden files for the fixture trees (tests/fixtures/text/
# batch-*.txt; times replaced by TIME), and every figure ends under its heading however
# wide it is (the `wide` fixture: 123456 r/s, 250000 kB/s out, 1.5M context switches).
# UPDATE_GOLDEN=1 rewrites the golden files from the current output (review the diff).
. "$(dirname "$0")/lib.sh"
needs "batch text" python3
F="$IOSCOPE_TOP/tests/fixtures"

# the wall clock of a --root run is today's: the only thing that differs between runs
normalize() { sed -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}  interval/TIME  interval/; s/^---- [0-9:]{8} /---- TIME /'; }

for fx in layout14 layout20 wide vm-round hotplug why; do
	golden="$F/text/batch-$fx.txt"
	if ! "$IOSCOPE" --batch --root "$F/$fx" 2>"$TMP/$fx.err" | normalize >"$TMP/$fx.txt"; then
		fail "text $fx runs" "$(cat "$TMP/$fx.err")"
		continue
	fi
	[ -n "${UPDATE_GOLDEN:-}" ] && cp "$TMP/$fx.txt" "$golden"
	if diff -u "$golden" "$TMP/$fx.txt" >"$TMP/$fx.diff"; then
		ok "text $fx matches its golden file"
	else
		fail "text $fx matches its golden file" "$(head -40 "$TMP/$fx.diff")"
	fi
done

python3 - "$TMP/wide.txt" "$TMP/layout20.txt" "$TMP/layout14.txt" <<'PY'
import re, sys
def check(name, cond, detail=""):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {detail}"))
def ends(line):
    return [m.end() for m in re.finditer(r"\S+", line)]
for path in sys.argv[1:]:
    lines = open(path).read().split("\n")
    name = path.rsplit("/", 1)[1]
    head = next(l for l in lines if l.startswith("Device op"))
    want = ends(head)[2:]                       # after "Device" "op": /s kB/s ... %util
    vm_head = next(l for l in lines if l.startswith(" r  b"))
    bad = []
    for i, l in enumerate(lines):
        m = re.match(r"^(\S*)\s+([rwdf]) ", l)
        if m and (len(l) > 9 and l[9] in "rwdf"):
            got = ends(l)[1 if m.group(1) == "" else 2:]
            # the f row has two figures (f/s, f_await); the w row ends with the scheduler
            if m.group(2) == "f":
                ok_row = got == [want[0], want[4]]
            elif m.group(2) == "w":
                ok_row = got[:-1] == want[:7]
            elif m.group(2) == "d":
                ok_row = got == want[:6]
            else:
                ok_row = got == want
            if not ok_row:
                bad.append(l)
        if lines[i - 1:i] == [vm_head] and l and not l.startswith("("):
            if ends(l) != ends(vm_head):
                bad.append(l)
    check(f"{name}: every figure ends under its heading", not bad and any(lines), bad)
    check(f"{name}: within 80 columns", all(len(l) <= 80 for l in lines), [l for l in lines if len(l) > 80])
    def op_rows(op):   # the op letter sits in column 10
        return [l for l in lines if len(l) > 10 and l[9] == op and l[10] == " " and not l[8].strip()]
    devs = op_rows("r")
    for op in "dwf":
        n = len(op_rows(op))
        check(f"{name}: a {op} row for every device, as documented", n == len(devs) > 0, (n, len(devs)))
PY

# The probe line while a read is in progress (a crafted copy of report-probe.log): said,
# with how long so far, and no "0 reads" before it; a log's stalled_us alone says the same.
sed -E 's/^\{"type":"probe","seq":3,"read_us":\[[0-9,]*\]/{"type":"probe","seq":3,"read_us":[],"reading_us":812345/
	s/^\{"type":"probe","seq":4,"read_us":\[([0-9,]*)\]/{"type":"probe","seq":4,"read_us":[\1],"stalled_us":2500000/' \
	"$F/logs/report-probe.log" >"$TMP/reading.log"
"$IOSCOPE" --replay "$TMP/reading.log" --batch -c 3 >"$TMP/reading.txt" 2>"$TMP/reading.err"
rc=$?
got=$(grep '^probe: ' "$TMP/reading.txt" | sed -n '2,3p')
want='probe: a read in progress for 812 ms
probe: 4 reads p50 371 max 393 us; a read in progress for 2.5 s; 1 start p50 7203 max 7203 us'
[ $rc -eq 0 ] && [ ! -s "$TMP/reading.err" ] && [ "$got" = "$want" ] \
	&& ok "probe: a read in progress is said with how long, not as 0 reads" \
	|| fail "probe: a read in progress is said with how long, not as 0 reads" "rc=$rc: $got $(cat "$TMP/reading.err")"
"$IOSCOPE" --replay "$TMP/reading.log" --batch -c 2 -f json 2>/dev/null | sed -n 2p \
	| grep -q '"reading_us":812345' && ok "probe: reading_us in batch JSON" \
	|| fail "probe: reading_us in batch JSON"

# A busy session replayed (tests/fixtures/logs/report-busy.log): each event line says what
# changed and what came of it; a switch's resets are the lines under it, never in its line
# again (the log's first switch has them in its result too, as logs had before), and no
# event line is 100 columns or wider (a long mark is cut with an ellipsis).  The event
# lines are golden (tests/fixtures/text/batch-busy-events.txt).
golden="$F/text/batch-busy-events.txt"
if TZ=UTC "$IOSCOPE" --replay "$F/logs/report-busy.log" --batch >"$TMP/busy.full" 2>"$TMP/busy.err" \
	&& [ ! -s "$TMP/busy.err" ]; then
	grep -E '^(----|     reset) ' "$TMP/busy.full" >"$TMP/busy.txt"
	[ -n "${UPDATE_GOLDEN:-}" ] && cp "$TMP/busy.txt" "$golden"
	if diff -u "$golden" "$TMP/busy.txt" >"$TMP/busy.diff"; then
		ok "text busy replay: event lines match their golden file"
	else
		fail "text busy replay: event lines match their golden file" "$(head -40 "$TMP/busy.diff")"
	fi
	long=$(grep -- '^----' "$TMP/busy.full" | python3 -c 'import sys
print("".join(l for l in sys.stdin if len(l.rstrip("\n")) >= 100)[:1000], end="")')
	[ -z "$long" ] && ok "text busy replay: event lines under 100 columns" \
		|| fail "text busy replay: event lines under 100 columns" "$long"
else
	fail "text busy replay runs" "$(head -c 1500 "$TMP/busy.err")"
fi
