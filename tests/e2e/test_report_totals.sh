#!/bin/bash
# Everything adds up (docs/reports.md, "Totals"): for every session log in
# tests/fixtures/logs and each reported device, the text report's phases and the I/O
# between them (the intervals left out at marks) add up to its total, the JSON and CSV
# totals say the same, the sample rows of no phase hold what is between, and the total is
# what the device's counters in the log moved (sectors of 512 bytes).
. "$(dirname "$0")/lib.sh"
needs "report totals" python3
export TZ=UTC
for log in "$IOSCOPE_TOP"/tests/fixtures/logs/*.log; do
	name=$(basename "$log")
	for f in text json csv; do
		"$IOSCOPE" report "$log" -f $f >"$TMP/$name.$f" 2>"$TMP/$name.$f.err"
		rc=$?
		if [ $rc -ne 0 ] || ! clean_stderr "$TMP/$name.$f.err"; then
			fail "$name: report -f $f runs cleanly" "exit $rc: $(head -c 800 "$TMP/$name.$f.err")"
		fi
	done
	python3 - "$log" "$TMP/$name" <<'PY' || fail "$name: the checks ran to their end"
import csv, json, re, sys
log, out = sys.argv[1], sys.argv[2]
name = log.rsplit("/", 1)[-1]
def check(what, cond, why=""):
    print(("ok " if cond else "not ok ") + f"{name}: {what}" + ("" if cond else f": {why}"))
def near(a, b, tol):
    return abs(a - b) <= tol

# the counters in the log: per device, the sectors moved over the intervals it was in
# both samples of, its counters not going back (a reset gives no rate)
moved, prev = {}, {}
for line in open(log):
    o = json.loads(line)
    if o.get("type") != "sample":
        continue
    # a log may leave out trailing zero counters (the fixture logs' vda has four)
    cur = {d["name"]: (d["c"] + [0] * 7)[:7] for d in o["devices"]}
    for dev, c in cur.items():
        p = prev.get(dev)
        if p and c[2] >= p[2] and c[6] >= p[6]:
            r, w = moved.get(dev, (0, 0))
            moved[dev] = (r + (c[2] - p[2]) * 512 / 2**20, w + (c[6] - p[6]) * 512 / 2**20)
    prev = cur

js = [json.loads(l) for l in open(out + ".json")]
totals = {r["device"]: r for r in js if r["record"] == "totals"}
devices = next(r["devices"] for r in js if r["record"] == "machine")
check("json: a totals record per reported device", sorted(totals) == sorted(devices),
      f"{sorted(totals)} vs {sorted(devices)}")
for dev in devices:
    t = totals.get(dev)
    if not t:
        continue
    r, w = moved.get(dev, (0, 0))
    check(f"{dev}: the total is what its counters moved",
          near(t["read_MB"], r, 0.002) and near(t["written_MB"], w, 0.002),
          f"{t['read_MB']}/{t['written_MB']} vs {r:.3f}/{w:.3f}")
    rows = [s for s in js if s["record"] == "sample" and s["device"] == dev and s["interval"]]
    between = [sum((s[k] or 0) * s["interval"] for s in rows if s["phase"] is None) / 1024
               for k in ("rkB/s", "wkB/s")]
    tol = 0.001 * len(rows) + 0.002
    check(f"{dev}: between is what the intervals of no phase moved",
          near(t["between_phases_read_MB"], between[0], tol) and
          near(t["between_phases_written_MB"], between[1], tol),
          f"{t['between_phases_read_MB']}/{t['between_phases_written_MB']} vs {between}")

# the text: the phases' MB read and written plus between is the total
text = open(out + ".text").read()
summed = {}
for m in re.finditer(r"^Phase \d+ of \d+.*?(?=^Phase |^Totals)", text, re.M | re.S):
    for dev in devices:
        row = re.search(r"^  %s +([0-9.]+) +([0-9.]+) " % re.escape(dev), m.group(0), re.M)
        if row:
            r, w = summed.get(dev, (0, 0))
            summed[dev] = (r + float(row.group(1)), w + float(row.group(2)))
nphases = len(re.findall(r"^Phase \d+ of", text, re.M))
for dev in devices:
    row = re.search(r"^Totals.*?^  %s +([0-9. ]+)$" % re.escape(dev), text, re.M | re.S)
    if not row:
        check(f"{dev}: text: a totals row", False, "none")
        continue
    tr, pr, br, tw, pw, bw = map(float, row.group(1).split())
    sr, sw = summed.get(dev, (0, 0))
    tol = 0.05 * (nphases + 2)
    check(f"{dev}: text: phases + between = total",
          near(sr + br, tr, tol) and near(sw + bw, tw, tol) and near(pr, sr, tol) and near(pw, sw, tol),
          f"read {sr} + {br} vs {tr} (in phases {pr}), written {sw} + {bw} vs {tw} (in phases {pw})")
    t = totals.get(dev)
    check(f"{dev}: text and json totals agree", t and near(t["read_MB"], tr, 0.05) and
          near(t["written_MB"], tw, 0.05) and near(t["between_phases_written_MB"], bw, 0.05))

rows = list(csv.reader(open(out + ".csv")))
head = rows[0]
ct = {r[4]: dict(zip(head, r)) for r in rows[1:] if r[0] == "totals"}
check("csv: every row has the header's columns", all(len(r) == len(head) for r in rows))
check("csv: the totals as in json", sorted(ct) == sorted(totals) and all(
      float(ct[d][k]) == totals[d][k] for d in ct for k in
      ("read_MB", "written_MB", "between_phases_read_MB", "between_phases_written_MB")))
PY
done

# a dd right after a mark (tests/e2e/report_log_gen.py dd-mark): all its 64 MiB between the
# phases, and both phases say their I/O is at their edge
t="$TMP/report-dd-mark.log.text"
grep -q "^  loop0           0.0        0.0        0.0        64.0        0.0       64.0$" "$t" \
	&& ok "dd after a mark: its 64 MiB between the phases" \
	|| fail "dd after a mark: its 64 MiB between the phases" "$(sed -n '/^Totals/,/^$/p' "$t")"
[ "$(grep -c "moved 64.0 MiB in the interval left out at this phase's" "$t")" = 2 ] \
	&& ok "dd after a mark: both phases say their I/O is at their edge" \
	|| fail "dd after a mark: both phases say their I/O is at their edge"
