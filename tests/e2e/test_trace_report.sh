#!/bin/bash
# A recorded eBPF view (tests/fixtures/logs/v1-trace.log, `trace` records of issue 11)
# read back: batch JSON of the replay carries each device's "trace" with the keys
# docs/metrics.md names, and the text report's per-phase latency table matches its
# golden file (UPDATE_GOLDEN=1 rewrites it; review the diff).
. "$(dirname "$0")/lib.sh"
F="$IOSCOPE_TOP/tests/fixtures"
LOG="$F/logs/v1-trace.log"

"$IOSCOPE" --replay "$LOG" --batch -f json >"$TMP/r.json" 2>"$TMP/err"
rc=$?
keys=$(jq -c '[.devices.loop0.trace | keys[]] | sort' "$TMP/r.json" 2>/dev/null | sort -u)
want='["lat_us","q2c_us","r_p50_us","r_p99_us","seeks/s","seq_pct","size_kb","top","w_p50_us","w_p99_us"]'
[ $rc -eq 0 ] && [ ! -s "$TMP/err" ] && [ "$keys" = "$want" ] &&
	ok "replayed batch JSON: the trace object's keys" || fail "replayed batch JSON: the trace object's keys" "rc=$rc $keys $(cat "$TMP/err")"
dirs=$(jq -c '[.devices.loop0.trace.lat_us, .devices.loop0.trace.q2c_us | keys] | unique' "$TMP/r.json" | sort -u)
[ "$dirs" = '[["flush","read","write"]]' ] && ok "lat_us and q2c_us: read, write, flush apart" ||
	fail "lat_us and q2c_us: read, write, flush apart" "$dirs"
top=$(jq -c '.devices.loop0.trace.top[0] | keys' "$TMP/r.json" | sort -u | head -1)
[ "$top" = '["comm","ios","kB","pid"]' ] && ok "top: pid, comm, ios, kB" || fail "top: pid, comm, ios, kB" "$top"

# from the log's directory: the report names the log as given, and the golden file must
# not depend on where the tree is checked out
(cd "$(dirname "$LOG")" && TZ=UTC "$IOSCOPE" report "$(basename "$LOG")") >"$TMP/report.txt" 2>"$TMP/err"
rc=$?
golden="$F/golden/report-trace.txt"
[ -n "${UPDATE_GOLDEN:-}" ] && cp "$TMP/report.txt" "$golden"
if [ $rc -eq 0 ] && [ ! -s "$TMP/err" ] && diff -u "$golden" "$TMP/report.txt" >"$TMP/diff"; then
	ok "text report: per-phase p50/p99 and seeks/s match the golden file"
else
	fail "text report: per-phase p50/p99 and seeks/s match the golden file" "rc=$rc $(head -20 "$TMP/diff") $(cat "$TMP/err")"
fi
grep -q "^  traced .*read D2C µs" "$TMP/report.txt" && ok "text report: the traced table is there" ||
	fail "text report: the traced table is there"
exit 0
