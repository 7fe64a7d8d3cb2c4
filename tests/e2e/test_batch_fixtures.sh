#!/bin/bash
# The shipped binary on recorded kernels: --root fixture trees (tests/fixtures/README.md)
# for each diskstats layout, counter wrap, reset, hot-add/vanish, zero interval and a tree
# without sys/ or PSI. Numbered trees are consumed without sleeping and end the run.
. "$(dirname "$0")/lib.sh"
needs "batch on fixture trees" python3
F="$IOSCOPE_TOP/tests/fixtures"

for fx in layout14 layout18 layout20 wrap32 reset hotplug zero-interval tiny-interval vm-round; do
	"$IOSCOPE" --batch -f json --root "$F/$fx" >"$TMP/$fx.json" 2>"$TMP/$fx.err" \
		|| fail "$fx runs" "$(cat "$TMP/$fx.err")"
done
"$IOSCOPE" --batch -f json --root "$F/layout14" sda sda1 >"$TMP/layout14-part.json" 2>&1
"$IOSCOPE" --batch -f json -i 0.01 -c 2 --root "$F/no-sys-no-psi" >"$TMP/nosys.json" 2>"$TMP/nosys.err" \
	|| fail "no-sys-no-psi runs" "$(cat "$TMP/nosys.err")"

python3 - "$TMP" <<'PY'
import json, sys
tmp = sys.argv[1]
def load(name):
    return [json.loads(l) for l in open(f"{tmp}/{name}.json") if l.strip()]
def check(name, cond, detail=""):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {detail}"))
def near(a, b):
    return a is not None and abs(a - b) < 1e-6

o = load("layout14")
d = o[0]["devices"]["sda"]
check("layout14: one report per tree pair, then the run ends", len(o) == 1, len(o))
check("layout14: r/s w/s await", near(d["r/s"], 100) and near(d["w/s"], 200) and near(d["r_await"], 0.5), d)
check("layout14: discard and flush missing, not 0", d["d/s"] is None and d["f/s"] is None and d["%util"] is not None, d)
p = load("layout14-part")
check("layout14: partition on request", "sda1" in p[0]["devices"] and near(p[0]["devices"]["sda1"]["r/s"], 100), p)

o = load("layout18")
d = o[0]["devices"]["nvme0n1"]
check("layout18: interval from proc/uptime", near(o[0]["interval"], 2.0), o[0]["interval"])
check("layout18: discard figures", near(d["d/s"], 20) and near(d["dkB/s"], 10240) and near(d["%drqm"], 20), d)
check("layout18: flush missing", d["f/s"] is None and d["f_await"] is None, d)

o = load("layout20")
d = o[0]["devices"]["vdb"]
check("layout20: flush figures", near(d["f/s"], 10) and near(d["f_await"], 3), d)
check("layout20: aqu-sz and %util", near(d["aqu-sz"], 0.6) and near(d["%util"], 50), d)

o = load("wrap32")
d = o[0]["devices"]["sdb"]
check("wrap32: wrapped delta, not negative or absurd", near(d["r/s"], 1000) and d["r_await"] >= 0, d)

o = load("reset")
check("reset: no figures for the interval the counters went back",
      o[0]["devices"]["sdc"]["r/s"] is None and near(o[0]["devices"]["sda"]["r/s"], 100), o[0]["devices"])
check("reset: figures again on the next interval", near(o[1]["devices"]["sdc"]["r/s"], 100), o[1]["devices"])

o = load("hotplug")
kinds = [[(e["kind"], e["object"]) for e in x["events"]] for x in o]
check("hotplug: device_added event", ("device_added", "sdb") in kinds[0], kinds)
check("hotplug: no figures on the interval it appeared", o[0]["devices"].get("sdb", {}).get("r/s") is None, o[0]["devices"])
check("hotplug: figures once it has two samples", near(o[1]["devices"]["sdb"]["r/s"], 100), o[1]["devices"])
check("hotplug: device_removed event", ("device_removed", "sdb") in kinds[2] and "sdb" not in o[2]["devices"], kinds)

o = load("zero-interval")
check("zero interval: null (not a real interval), no rates", o[0]["interval"] is None and o[0]["devices"]["vda"]["r/s"] is None, o[0])
check("zero interval: rates resume", near(o[1]["devices"]["vda"]["r/s"], 100), o[1])

o = load("tiny-interval")
d = o[0]["devices"]["vda"]
check("tiny interval (2 ms): %util never above 100 from one 4 ms tick",
      near(o[0]["interval"], 0.002) and near(d["%util"], 100) and near(d["r/s"], 500) and near(d["aqu-sz"], 2), d)

o = load("nosys")
check("no sys/, no PSI: still samples", len(o) == 2 and o[0]["psi_io"] is None, o)
check("no sys/: scheduler missing", all(d["scheduler"] is None for d in o[0]["devices"].values()), o[0]["devices"])

o = load("vm-round")
check("vm figures from fixture files", o[0]["vm"]["cs"] is not None and o[0]["psi_io"] is not None, o[0])
PY

"$IOSCOPE" --batch --root "$F/hotplug" >"$TMP/hotplug.txt" 2>&1
grep -qE '^---- [0-9:]{8} sdb added ----$' "$TMP/hotplug.txt" && ok "text: device added line" \
	|| fail "text: device added line" "$(cat "$TMP/hotplug.txt")"

# Golden: text batch of layout20, whose tree 2 switched vdb to bfq and set read_ahead_kb: one
# `----` line for the switch with its resets indented under it (docs/design.md), then the
# read_ahead_kb change, which the switch does not cause, as its own line.
# Only the event lines: the table has goldens of its own.
"$IOSCOPE" --batch --root "$F/layout20" 2>"$TMP/layout20.err" | grep -E '^(----|     reset) ' \
	| sed -E 's/^---- [0-9:]{8} /---- HH:MM:SS /' >"$TMP/layout20.txt"
if diff -u "$F/golden/layout20-events.txt" "$TMP/layout20.txt" >"$TMP/layout20.diff" && [ ! -s "$TMP/layout20.err" ]; then
	ok "text: layout20 golden (one line per switch, resets under it)"
else
	fail "text: layout20 golden (one line per switch, resets under it)" "$(cat "$TMP/layout20.diff" "$TMP/layout20.err")"
fi
"$IOSCOPE" --batch -f json --root "$F/layout20" >"$TMP/layout20.json" 2>&1
python3 - "$TMP/layout20.json" <<'PY'
import json, sys
ev = json.loads(open(sys.argv[1]).readline())["events"]
want = {"iosched.back_seek_max": [None, "16384"], "iosched.fifo_batch": ["16", None],
        "iosched.front_merges": ["1", None], "iosched.low_latency": [None, "1"],
        "iosched.read_expire": ["500", None], "iosched.slice_idle": [None, "8"],
        "iosched.write_expire": ["5000", None], "iosched.writes_starved": ["2", None]}
kinds = [(e["kind"], e["key"]) for e in ev]
good = kinds == [("scheduler", "scheduler"), ("tunable", "read_ahead_kb")] and ev[0].get("resets") == want
print(("ok" if good else "not ok") + " json: one scheduler event with its resets" + ("" if good else ": %s" % ev))
PY
