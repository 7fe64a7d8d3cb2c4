#!/bin/bash
# Diskstats edge cases (issue 15) on the tests/fixtures/edge chain of seven trees: field
# counts that are not 14, 18 or 20, flush fields appearing, counters that go back, uptime
# that goes back, a cciss disk whose name has a '/', and a disk re-created under its name.
# Every figure is compared with a value computed by hand from docs/metrics.md.
. "$(dirname "$0")/lib.sh"
needs "batch edge cases" python3
F="$IOSCOPE_TOP/tests/fixtures/edge"
DEVS="sda sdb sdc cciss/c0d0 cciss/c0d0p1 vdf"

for fmt in json text csv; do
	# shellcheck disable=SC2086
	"$IOSCOPE" --batch -f $fmt --root "$F" $DEVS >"$TMP/edge.$fmt" 2>"$TMP/edge.$fmt.err" \
		|| fail "edge $fmt runs" "$(cat "$TMP/edge.$fmt.err")"
done
"$IOSCOPE" --batch -f json --root "$F" -c 1 >"$TMP/default.json" 2>"$TMP/default.err" \
	|| fail "default selection runs" "$(cat "$TMP/default.err")"
# Odd lines are said once: a malformed one always, a longer one with --verbose only.
"$IOSCOPE" --batch -f json --root "$F" -v >/dev/null 2>"$TMP/verbose.err" || fail "edge -v runs"
[ "$(grep -c 'fewer than 14 statistics fields skipped' "$TMP/edge.json.err")" = 1 ] \
	&& ok "a malformed diskstats line is said once" \
	|| fail "a malformed diskstats line is said once" "$(cat "$TMP/edge.json.err")"
grep -q 'more fields than a known layout' "$TMP/edge.json.err" \
	&& fail "extra diskstats fields are said only with --verbose" "$(cat "$TMP/edge.json.err")" \
	|| ok "extra diskstats fields are said only with --verbose"
[ "$(grep -c 'more fields than a known layout' "$TMP/verbose.err")" = 1 ] \
	&& ok "--verbose: extra diskstats fields said once" \
	|| fail "--verbose: extra diskstats fields said once" "$(cat "$TMP/verbose.err")"
"$IOSCOPE" --batch -f json --root "$F" -c 1 /dev/cciss/c0d0 >"$TMP/devpath.json" 2>"$TMP/devpath.err" \
	|| fail "/dev/cciss/c0d0 accepted" "$(cat "$TMP/devpath.err")"

python3 - "$TMP" <<'PY' || fail "edge: the checks ran to the end"
import csv, json, sys
tmp = sys.argv[1]
o = [json.loads(l) for l in open(f"{tmp}/edge.json") if l.strip()]
def check(name, cond, detail=""):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {detail}"))
def same(d, want):
    bad = {k: (d.get(k), v) for k, v in want.items()
           if not (v is None and d.get(k) is None or
                   v is not None and d.get(k) is not None and abs(d[k] - v) < 5e-4)}
    return not bad, bad
def events(i):
    return [(e["kind"], e["object"], e["new"]) for e in o[i]["events"]]

check("edge: six intervals from seven trees", len(o) == 6, len(o))

# 1. Field counts. sdb: 17 fields (3 + 11 + 3 extra) read as 14 over 2 s:
#    r/s = 100/2, rkB/s = 2000/2/2, r_await = 200/100, rareq-sz = 1000/100, %util = 400/2/10,
#    aqu-sz = 400/2/1000; d/s missing (the 14-field layout has no discard).
ok1, bad = same(o[0]["devices"]["sdb"], {"r/s": 50, "rkB/s": 500, "r_await": 2, "rareq-sz": 10,
    "w/s": 0, "%util": 20, "aqu-sz": 0.2, "d/s": None, "f/s": None})
check("field count 17: read with the 14-field layout", ok1, bad)
# sdc: 19 fields read as 18: w/s = 600/2, wkB/s = 4800/2/2, w_await 1, wareq-sz 4;
#    d/s = 20/2, dkB/s = 20480/2/2, drqm/s = 5/2, %drqm = 100*5/25, d_await = 40/20,
#    dareq-sz = 10240/20; f/s missing.
ok1, bad = same(o[0]["devices"]["sdc"], {"w/s": 300, "wkB/s": 1200, "w_await": 1, "wareq-sz": 4,
    "d/s": 10, "dkB/s": 5120, "drqm/s": 2.5, "%drqm": 20, "d_await": 2, "dareq-sz": 512,
    "f/s": None, "%util": 30, "aqu-sz": 0.3})
check("field count 19: read with the 18-field layout", ok1, bad)
check("fewer than 14 fields: the line is skipped", all("sdd" not in x["devices"] for x in o), o[0]["devices"].keys())
# sda, a plain 14-field disk over 2 s: %rrqm = 100*4/204, %wrqm = 100*8/408.
ok1, bad = same(o[0]["devices"]["sda"], {"r/s": 100, "rkB/s": 4000, "rrqm/s": 2,
    "%rrqm": 400 / 204, "r_await": 0.5, "rareq-sz": 40, "w/s": 200, "wkB/s": 8000,
    "wrqm/s": 4, "%wrqm": 800 / 408, "w_await": 1, "wareq-sz": 40, "aqu-sz": 1.5, "%util": 50})
check("14-field disk beside them: every figure", ok1, bad)

# 2. Uptime 103 -> 50 between trees 3 and 4.
check("clock back: interval null", o[2]["interval"] is None, o[2]["interval"])
check("clock back: every figure null",
      all(d["r/s"] is None and d["%util"] is None for d in o[2]["devices"].values())
      and o[2]["vm"]["us"] is None, o[2])
check("clock back: clock_back event for the system",
      [(e["kind"], e["object"], e["old"], e["new"]) for e in o[2]["events"]]
      == [("clock_back", "system", "103.000", "50.000")], o[2]["events"])
ok1, bad = same(o[3]["devices"]["sda"], {"r/s": 100, "rkB/s": 4000, "rrqm/s": 2, "r_await": 0.5,
    "%util": 10, "aqu-sz": 0.1})
check("clock back: the sample is the new baseline (uptime 50 -> 51)", o[3]["interval"] == 1 and ok1, bad)
check("no interval is printed negative",
      all(x["interval"] is None or x["interval"] > 0 for x in o), [x["interval"] for x in o])

# 3. cciss/c0d0 ('/' in /proc/diskstats, '!' in sysfs) over 2 s: r/s 300/2, rkB/s 2400/2/2,
#    r_await 300/300, f/s 40/2, f_await 80/40, %util 300/2/10; settings from sys/block/cciss!c0d0.
c = o[0]["devices"].get("cciss/c0d0", {})
ok1, bad = same(c, {"r/s": 150, "rkB/s": 600, "r_await": 1, "rareq-sz": 4, "f/s": 20,
    "f_await": 2, "%util": 15, "aqu-sz": 0.15})
check("cciss/c0d0: figures", ok1, bad)
check("cciss/c0d0: scheduler from sys/block/cciss!c0d0", c.get("scheduler") == "mq-deadline", c)
p = o[0]["devices"].get("cciss/c0d0p1", {})
check("cciss/c0d0p1: its partition, accepted and figured", abs((p.get("r/s") or 0) - 150) < 1e-6, p)
d = json.loads(open(f"{tmp}/default.json").readline())["devices"]
check("cciss/c0d0p1 is a partition (left out of the default selection)",
      "cciss/c0d0" in d and "cciss/c0d0p1" not in d, list(d))
d = json.loads(open(f"{tmp}/devpath.json").readline())["devices"]
check("/dev/cciss/c0d0 names the disk", list(d) == ["cciss/c0d0"], list(d))

# 4. sda's counters 100 lower in tree 3.
check("counters back: sda has no figures", all(v is None for k, v in o[1]["devices"]["sda"].items()
      if k not in ("in_flight", "scheduler")), o[1]["devices"]["sda"])
check("counters back: counters_reset event says why",
      ("counters_reset", "sda", "counters went back") in events(1), events(1))
check("counters back: no counters_reset elsewhere",
      sum(e[0] == "counters_reset" for i in range(len(o)) for e in events(i)) == 2, [events(i) for i in range(len(o))])

# 5. vdf: 18 fields in tree 1, 20 in tree 2 (flush appears): r/s = 100/2, d/s 0, f/s missing;
#    tree 2 -> 3 over 1 s: f/s = 10, f_await = 30/10.
ok1, bad = same(o[0]["devices"]["vdf"], {"r/s": 50, "rkB/s": 200, "r_await": 1, "d/s": 0,
    "f/s": None, "f_await": None, "%util": 5})
check("flush fields appear: f/s null for that interval, the rest figured", ok1, bad)
ok1, bad = same(o[1]["devices"]["vdf"], {"r/s": 100, "f/s": 10, "f_await": 3, "%util": 10})
check("flush fields: figured from the next interval", ok1, bad)

# Re-creation (issue 9, item 13): sdb listed last in tree 6 with counters above the old ones.
check("re-created: sdb has no figures", o[4]["devices"]["sdb"]["r/s"] is None, o[4]["devices"]["sdb"])
check("re-created: counters_reset event", ("counters_reset", "sdb", "re-created") in events(4), events(4))
check("re-created: scheduler still shown", o[4]["devices"]["sdb"]["scheduler"] == "none", o[4]["devices"]["sdb"])
ok1, bad = same(o[5]["devices"]["sdb"], {"r/s": 30, "rkB/s": 120, "r_await": 2, "%util": 9})
check("re-created: figures again on the next interval", ok1, bad)
check("re-created: sda beside it keeps its figures", abs(o[4]["devices"]["sda"]["r/s"] - 100) < 1e-6, o[4])

# The same in CSV and text.
rows = list(csv.reader(open(f"{tmp}/edge.csv")))
head = rows[0]
iv = [r[head.index("interval")] for r in rows[1:] if r[head.index("device")] == "sda"]
check("csv: the clock-back interval is an empty cell, none negative",
      "" in iv and all(x == "" or float(x) > 0 for x in iv), iv)
check("csv: events as rows", any(r[head.index("device")] == "system" and "clock back" in r[-1] for r in rows[1:]), rows[:3])
PY

t="$TMP/edge.text"
grep -q 'interval - ' "$t" && ! grep -q 'interval -[0-9]' "$t" && ok "text: no negative interval" \
	|| fail "text: no negative interval" "$(grep interval "$t")"
grep -qE '^---- [0-9:]{8} system clock back 103\.000→50\.000 s ----$' "$t" && ok "text: clock back line" \
	|| fail "text: clock back line" "$(cat "$t")"
grep -qE '^---- [0-9:]{8} sda reset sda \(counters went back\) ----$' "$t" && ok "text: counters reset line" \
	|| fail "text: counters reset line" "$(grep -- ---- "$t")"
grep -qE '^sdb +\(no figures this interval: re-created\)  sched none$' "$t" && ok "text: re-created row keeps its scheduler" \
	|| fail "text: re-created row keeps its scheduler" "$(grep sdb "$t")"
