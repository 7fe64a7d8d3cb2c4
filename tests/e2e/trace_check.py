#!/usr/bin/env python3
"""Checks batch JSON of `ioscope --batch --trace -f json DEV` (tests/e2e/test_trace.sh).

usage: trace_check.py FILE DEV CHECK
CHECK: seq       sequential writes: seq_pct near 100, few seeks
       rand [DEPTH]
                 random reads: seq_pct near 0, seeks/s close to r/s, in the intervals of
                 20 * DEPTH reads or more (the seeks are counted at issue, the reads at
                 completion: up to DEPTH requests, the in-flight at an interval's edge,
                 apart)
       counts [UNSEEN]
                 each direction's histogram counts = diskstats completions within 2%, over
                 the run; with UNSEEN (trace_lib.sh's trace_unseen: the completions the
                 kernel did not run the tracer's programs for), the histograms plus UNSEEN
                 = diskstats (2%), and no direction above diskstats
       p99 MS    some interval's write p99 is at least MS ms, and another's below MS/10
       top COMM [DEPTH]  the requests COMM queued (its ios in the top lists) = what
                 diskstats completed, within 2%, over the run: for a workload of direct
                 requests started and ended within the run; and in each interval within
                 10% and DEPTH on either edge (the requests in flight: counted at issue)
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


def check_rand(rows, depth=1):
    rows = busy(rows, "r/s", max(100, 20 * depth))
    ok = bool(rows)
    for i, d, t in rows:
        print(f"r/s={d['r/s']} seq_pct={t['seq_pct']} seeks/s={t['seeks/s']}")
        ok = ok and t["seq_pct"] <= 5 and abs(t["seeks/s"] - d["r/s"]) <= 0.1 * d["r/s"]
    return ok


def near(n, done):
    return abs(n - done) <= 0.02 * done + 1


def check_counts(rows, unseen=None):
    # over the run, not per interval: a sample reads /proc/diskstats and then the maps, and
    # what completes between the two reads is in one interval of each (beside other
    # tests, 50 ms apart: 5 % of an interval at 9000 reads a second).
    # A kernel may not run the programs for some completions (docs/metrics.md, "Tracing":
    # the test VM's, those in an interrupt while its PID 1 runs; 8.5 % of the reads of a
    # run beside other tests): the tracer counts them by disk, not by direction, so with
    # UNSEEN a direction may fall short by no more than that, and all of them add up.
    ok, seen, all_done = True, 0, 0.0
    all_n = {"lat_us": 0, "q2c_us": 0}
    for dir, key in (("read", "r/s"), ("write", "w/s")):
        done = sum(d[key] * i for i, d, t in rows)
        all_done += done
        counts = {phase: sum(total(t[phase][dir]) for i, d, t in rows) for phase in all_n}
        for phase, n in counts.items():
            all_n[phase] += n
        if done < 100:
            continue
        seen += 1
        for phase, n in counts.items():
            print(f"{dir} {phase} over {len(rows)} intervals: histogram {n}, diskstats {done:.1f}")
            slack = 0.02 * done + 1
            ok = ok and n <= done + slack and n + (unseen or 0) >= done - slack
    if unseen is not None:
        for phase, n in all_n.items():
            print(f"reads and writes {phase}: histograms {n} + {unseen} completions unseen, "
                  f"diskstats {all_done:.1f}")
            ok = ok and near(n + unseen, all_done)
    return ok and seen > 0


def check_p99(rows, ms):
    p99 = [t["w_p99_us"] for i, d, t in rows if t["w_p99_us"] is not None]
    print("w_p99_us per interval:", p99)
    return any(v >= ms * 1000 for v in p99) and any(v < ms * 100 for v in p99)


def check_top(rows, comm, depth):
    ios = sum(e["ios"] for i, d, t in rows for e in t["top"] if e["comm"] == comm)
    done = sum((d["r/s"] + d["w/s"]) * i for i, d, t in rows)
    print(f"{comm}'s requests in the top lists {ios}, diskstats completed {done:.1f}")
    # and in each busy interval within 10 % (diskstats and the maps are read up to 50 ms
    # apart beside other tests): what a CPU holds is in the interval it was queued in
    apart = []
    for i, d, t in rows:
        n, m = sum(e["ios"] for e in t["top"] if e["comm"] == comm), (d["r/s"] + d["w/s"]) * i
        if m >= 500 and abs(n - m) > 0.1 * m + 2 * depth:
            apart.append((n, round(m)))
    print(f"intervals of 500 or more whose count is over 10 % apart: {apart}")
    return done >= 100 and abs(ios - done) <= 0.02 * done + 1 and not apart


def main():
    path, dev, what = sys.argv[1:4]
    rows = intervals(path, dev)
    if what == "seq":
        good = check_seq(rows)
    elif what == "rand":
        good = check_rand(rows, int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    elif what == "counts":
        good = check_counts(rows, int(sys.argv[4]) if len(sys.argv) > 4 else None)
    elif what == "top":
        good = check_top(rows, sys.argv[4], int(sys.argv[5]) if len(sys.argv) > 5 else 0)
    else:
        good = check_p99(rows, float(sys.argv[4]))
    sys.exit(0 if good else 1)


main()
