#!/bin/bash
# Batch output on the live kernel: JSON keys exactly iostat -x / vmstat names, CSV shape,
# text within 80 columns, count honoured, works without root.
. "$(dirname "$0")/lib.sh"
needs "batch formats" python3

json=$("$IOSCOPE" --batch -i 0.1 -c 3 -f json 2>"$TMP/err"); rc=$?
[ $rc -eq 0 ] && ok "json run exits 0" || fail "json run exits 0" "rc=$rc $(cat "$TMP/err")"
python3 - "$json" <<'PY' && ok "json keys are iostat -x and vmstat names" || fail "json keys are iostat -x and vmstat names"
import json, sys
lines = sys.argv[1].strip().split("\n")
assert len(lines) == 3, len(lines)
dev_keys = "r/s rkB/s rrqm/s %rrqm r_await rareq-sz w/s wkB/s wrqm/s %wrqm w_await wareq-sz d/s dkB/s drqm/s %drqm d_await dareq-sz f/s f_await aqu-sz %util in_flight scheduler settings".split()
vm_keys = ("r b swpd free buff cache si so bi bo in cs us sy id wa st dirty writeback "
           "dirty_threshold dirty_background_threshold dirty_freerun dirtied written").split()
for l in lines:
    o = json.loads(l)
    assert set(o) == {"time", "interval", "devices", "vm", "psi_io", "journals", "cgroups", "events"}, o.keys()
    assert 0.05 < o["interval"] < 0.5, o["interval"]
    assert o["devices"], "no devices"
    for name, d in o["devices"].items():
        assert list(d) == dev_keys, (name, list(d))
        for k in dev_keys[:-3]:
            assert d[k] is None or d[k] >= 0, (k, d[k])
        assert d["settings"] is None or all(type(v) is str for v in d["settings"].values()), d
    assert list(o["vm"]) == vm_keys, list(o["vm"])
    assert o["psi_io"] is None or set(o["psi_io"]) == {"some_avg10", "full_avg10", "some_us", "full_us"}
PY

csv=$("$IOSCOPE" --batch -i 0.1 -c 2 -f csv)
python3 - "$csv" <<'PY' && ok "csv header and rows" || fail "csv header and rows"
import csv, io, sys
rows = list(csv.reader(io.StringIO(sys.argv[1])))
head = rows[0]
assert head[:4] == ["time", "interval", "device", "r/s"], head[:4]
assert all(len(r) == len(head) for r in rows), [len(r) for r in rows]
assert len(rows) >= 3
PY

"$IOSCOPE" --batch -i 0.1 -c 2 >"$TMP/text"
# Widths are checked on a recorded kernel with ordinary figures: on a busy machine, as
# with vmstat, a figure wider than its column pushes the line.
"$IOSCOPE" --batch --root "$IOSCOPE_TOP/tests/fixtures/vm-round" >"$TMP/text-fixture"
wide=$(cat "$TMP/text" "$TMP/text-fixture" | grep -E '^(Device|procs| r  b)' | awk 'length($0) > 80')
wide+=$(awk 'length($0) > 80' "$TMP/text-fixture")
[ -z "$wide" ] && ok "text fits 80 columns" || fail "text fits 80 columns" "$wide"
n=$(grep -c 'interval 0\.' "$TMP/text")
[ "$n" -eq 2 ] && ok "--count 2 gives 2 reports" || fail "--count 2 gives 2 reports" "got $n"
grep -q '^Device op' "$TMP/text" && grep -q ' r  b  swpd' "$TMP/text" && ok "text has iostat and vmstat headings" \
	|| fail "text has iostat and vmstat headings"

if is_root; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" --batch -i 0.05 -c 1 -f json 2>&1); rc=$?
	[ $rc -eq 0 ] && grep -q '"devices"' <<<"$out" && ok "works without root" || fail "works without root" "rc=$rc $out"
else
	skip "works without root" "not root, nothing to drop"
fi
