#!/bin/bash
# A recorded eBPF view (tests/fixtures/logs/v1-trace.log, `trace` records of issue 11)
# read back: batch JSON of the replay carries each device's "trace" with the keys
# docs/metrics.md names, and the text report's per-phase latency table matches its
# golden file (UPDATE_GOLDEN=1 rewrites it; review the diff), and the plot draws its latency
# heat map (--metrics latency).
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

# golden_check NAME RC OUT GOLDEN: OUT (and an empty $TMP/err) against GOLDEN, which
# UPDATE_GOLDEN=1 rewrites
golden_check() {
	local name=$1 rc=$2 out=$3 golden=$4
	[ -n "${UPDATE_GOLDEN:-}" ] && cp "$out" "$golden"
	if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ] && diff -u "$golden" "$out" >"$TMP/diff"; then
		ok "$name"
	else
		fail "$name" "rc=$rc $(head -20 "$TMP/diff") $(cat "$TMP/err")"
	fi
}

# Batch text of the replay: a trace line under the device table, the JSON's figures.
TZ=UTC "$IOSCOPE" --replay "$LOG" --batch -f text >"$TMP/r.txt" 2>"$TMP/err"
golden_check "batch text: the trace line of each interval matches the golden file" $? \
	"$TMP/r.txt" "$F/golden/batch-trace.txt"

# from the log's directory: the report names the log as given, and the golden file must
# not depend on where the tree is checked out
(cd "$(dirname "$LOG")" && TZ=UTC "$IOSCOPE" report "$(basename "$LOG")") >"$TMP/report.txt" 2>"$TMP/err"
golden_check "text report: per-phase p50/p99 and seeks/s match the golden file" $? \
	"$TMP/report.txt" "$F/golden/report-trace.txt"
grep -q "^  traced .*read D2C µs" "$TMP/report.txt" && ok "text report: the traced table is there" ||
	fail "text report: the traced table is there"

# The plot's latency heat map (--metrics latency): its panel, rows labelled from the fastest
# bucket that counted (64 µs here); a log without trace records says so.  The SVG's text
# layer carries every label; the cells' layout is tests/unit/test_report_heat.c.
svg_texts() { sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"; }
if "$IOSCOPE" report "$LOG" -f svg --metrics mbps,latency -o "$TMP/h.svg" 2>"$TMP/h.err"; then
	svg_texts "$TMP/h.svg" >"$TMP/h.txt"
	grep -qx "loop0: latency heat map, issue to completion, reads and writes (shade: requests, log scale)" "$TMP/h.txt" &&
		grep -qx "64 µs" "$TMP/h.txt" && ! grep -q "32 µs" "$TMP/h.txt" && ! grep -q "no trace records" "$TMP/h.txt" &&
		ok "plot: --metrics latency draws the heat map panel, rows from the fastest bucket" ||
		fail "plot: --metrics latency draws the heat map panel, rows from the fastest bucket" "$(tr '\n' '|' <"$TMP/h.txt")"
	# a journal panel left out (no journal on loop0): the heat map after it keeps its own cells
	"$IOSCOPE" report "$LOG" -f svg --metrics journal,latency -o "$TMP/j.svg" 2>>"$TMP/h.err" &&
		svg_texts "$TMP/j.svg" >"$TMP/j.txt" && ! grep -q "journal commit" "$TMP/j.txt" &&
		grep -qx "64 µs" "$TMP/j.txt" && ! grep -q "32 µs" "$TMP/j.txt" &&
		! grep -q "no trace records" "$TMP/j.txt" &&
		ok "plot: a dropped empty panel does not take the heat map of the one after it" ||
		fail "plot: a dropped empty panel does not take the heat map of the one after it" "$(tr '\n' '|' <"$TMP/j.txt")"
	"$IOSCOPE" report "$F/logs/report-phases.log" -f png --metrics latency -o "$TMP/n.png" 2>"$TMP/n.err" &&
		[ "$(head -c 4 "$TMP/n.png" | tail -c 3)" = PNG ] && ok "plot: --metrics latency of a log without trace records: a PNG" ||
		fail "plot: --metrics latency of a log without trace records: a PNG" "$(cat "$TMP/n.err")"
	"$IOSCOPE" report "$F/logs/report-phases.log" -f svg --metrics latency -o "$TMP/n.svg" 2>>"$TMP/n.err" &&
		svg_texts "$TMP/n.svg" | grep -q "^no trace records" && ok "plot: a log without trace records says so" ||
		fail "plot: a log without trace records says so" "$(cat "$TMP/n.err")"
else
	grep -q "cairo" "$TMP/h.err" && skip "plot --metrics latency" "no cairo here" ||
		fail "plot --metrics latency runs" "$(cat "$TMP/h.err")"
fi
exit 0
