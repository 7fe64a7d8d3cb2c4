#!/bin/bash
# Reports on a recording where a disk came and went (issue 9, item 14): the busiest
# disk, sdac, appears at sample 5 and is gone from sample 15 on.  Every device of the
# recording seen in the range is reported, gone by its end or not, and -d accepts it.
. "$(dirname "$0")/lib.sh"
needs "report on gone devices" python3
GEN="$(dirname "$0")/session_log_gen.py"
python3 "$GEN" 20 3 "$TMP/storm.log" 15 5 || { fail "generate the log"; exit 0; }
python3 "$GEN" 20 3 "$TMP/gone.log" 10 || { fail "generate the log"; exit 0; }

run() { OUT=$("$IOSCOPE" report "$@" 2>"$TMP/err"); RC=$?; ERR=$(cat "$TMP/err"); }

run "$TMP/storm.log"
[ $RC = 0 ] && grep -q "devices: sdaa, sdab, sdac$" <<<"$OUT" && ok "text: a disk that came and went is reported" \
	|| fail "text: a disk that came and went is reported" "rc $RC $ERR $(grep devices: <<<"$OUT")"
run "$TMP/gone.log"
[ $RC = 0 ] && grep -q "devices: sdaa, sdab, sdac$" <<<"$OUT" && ok "text: a disk gone by the end is reported" \
	|| fail "text: a disk gone by the end is reported" "rc $RC $ERR $(grep devices: <<<"$OUT")"
run "$TMP/storm.log" -d sdac -f json
[ $RC = 0 ] && ok "-d accepts a device absent from the first and last samples" \
	|| fail "-d accepts a device absent from the first and last samples" "rc $RC $ERR"
python3 - "$OUT" <<'PY'
import json, sys
rows = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
s = [r for r in rows if r["record"] == "sample"]
ok = s and all(r["device"] == "sdac" for r in s) and any(r["r/s"] for r in s)
print(("ok" if ok else "not ok") + " json: sdac's intervals while it was there" + ("" if ok else f": {s[:3]}"))
ev = {(r["kind"], r["object"]) for r in rows if r["record"] == "event"}
ok = ("device_added", "sdac") in ev and ("device_removed", "sdac") in ev
print(("ok" if ok else "not ok") + " json: its arrival and departure as events" + ("" if ok else f": {ev}"))
PY
run "$TMP/storm.log" -d sdac -f csv
[ $RC = 0 ] && grep -q '^sample,.*,sdac,' <<<"$OUT" && ok "csv: -d sdac" || fail "csv: -d sdac" "rc $RC $ERR"
run "$TMP/storm.log" -d sdzz
[ $RC = 2 ] && grep -q "unknown device 'sdzz'; devices: sdaa sdab sdac" <<<"$ERR" \
	&& ok "an unknown device lists every device of the range" || fail "an unknown device lists every device of the range" "rc $RC $ERR"
# A range that ends before the disk arrived: it is not in it.
run "$TMP/storm.log" --to +3
[ $RC = 0 ] && grep -q "devices: sdaa, sdab$" <<<"$OUT" && ok "a range before it arrived leaves it out" \
	|| fail "a range before it arrived leaves it out" "rc $RC $ERR $(grep devices: <<<"$OUT")"
