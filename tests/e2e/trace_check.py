#!/usr/bin/env python3
"""Checks batch JSON of `ioscope --batch --trace -f json DEV` (tests/e2e/test_trace.sh).

usage: trace_check.py FILE DEV CHECK
CHECK: seq       sequential writes: seq_pct near 100, few seeks
       rand      random reads: seq_pct near 0, seeks/s close to r/s
       counts    each direction's histogram counts = diskstats completions within 2%, over
                 the run
       p99 MS    some interval's write p99 is at least MS ms, and another's below MS/10
Prints what it found; exit status 0 when the check holds."""
import json
import sys


def intervals(path, dev):
    out = []
    for line in open(path):
        o = json.loads(line)
        d = o["devices"][dev]
        out.append((o["interval"], d, d["trace"]))
    return out


def total(hist):
    return sum(hist.values())


def busy(rows, key, least):
    return [(i, d, t) for i, d, t in rows if d[key] * i >= least]


def check_seq(rows):
    rows = busy(rows, "w/s", 50)
    ok = bool(rows)
    for i, d, t in rows:
        print(f"w/s={d['w/s']} seq_pct={t['seq_pct']} seeks/s={t['seeks/s']}")
        ok = ok and t["seq_pct"] >= 95 and t["seeks/s"] <= 0.05 * d["w/s"]
    return ok


def check_rand(rows):
    rows = busy(rows, "r/s", 100)
    ok = bool(rows)
    for i, d, t in rows:
        print(f"r/s={d['r/s']} seq_pct={t['seq_pct']} seeks/s={t['seeks/s']}")
        ok = ok and t["seq_pct"] <= 5 and abs(t["seeks/s"] - d["r/s"]) <= 0.1 * d["r/s"]
    return ok


def check_counts(rows):
    # over the run, not per interval: a sample reads /proc/diskstats and then the maps, and
    # what completes between the two reads is in one interval of each (beside other
    # tests, 50 ms apart: 5 % of an interval at 9000 reads a second)
    ok, seen = True, 0
    for dir, key in (("read", "r/s"), ("write", "w/s")):
        done = sum(d[key] * i for i, d, t in rows)
        if done < 100:
            continue
        seen += 1
        for phase in ("lat_us", "q2c_us"):
            n = sum(total(t[phase][dir]) for i, d, t in rows)
            print(f"{dir} {phase} over {len(rows)} intervals: histogram {n}, diskstats {done:.1f}")
            ok = ok and abs(n - done) <= 0.02 * done + 1
    return ok and seen > 0


def check_p99(rows, ms):
    p99 = [t["w_p99_us"] for i, d, t in rows if t["w_p99_us"] is not None]
    print("w_p99_us per interval:", p99)
    return any(v >= ms * 1000 for v in p99) and any(v < ms * 100 for v in p99)


def main():
    path, dev, what = sys.argv[1:4]
    rows = intervals(path, dev)
    if what == "seq":
        good = check_seq(rows)
    elif what == "rand":
        good = check_rand(rows)
    elif what == "counts":
        good = check_counts(rows)
    else:
        good = check_p99(rows, float(sys.argv[4]))
    sys.exit(0 if good else 1)


main()
