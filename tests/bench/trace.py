#!/usr/bin/env python3
"""make bench, part 2: what --trace costs (docs/performance.md, "Tracing").

fio 4 KiB random reads, direct I/O, on a loop device, run alone, with `ioscope --batch`
watching it and with `ioscope --batch --trace` (from when its programs are attached): at
--rate_iops=10000 the IOPS and the completion latency fio reports (mean and median), then
unlimited (the loss at the most the device gives), and ioscope's own CPU per sample with
tracing on.

One run is not a measurement here: on this 2-vCPU VM the mean latency of identical runs moves
by 15 %, five times the 3 % to be shown.  So: many short rounds, each running the three arms
in a shuffled order (drift on the machine and the order of the runs hit all arms alike), the
difference taken within each round, and the median of those differences given with its
distribution-free 90 % confidence interval: "within 3 %" when both ends are (two one-sided
tests at 5 %, the usual test of equivalence).  fio is pinned to the last CPU and ioscope to the
first: where the scheduler puts ioscope's sample of about a millisecond, once a second,
decides whether fio's completions wait behind it, which alone moved the mean by several per
cent between identical runs; the BPF programs still run wherever the kernel runs the I/O.

Two backings (BENCH_TRACE_BACKING: "shm", "disk" or both, the default): a file in /dev/shm
(the worst case: a request takes ~16 us, so a fixed cost per request weighs most) and a file
on the root filesystem's disk read with direct I/O by the loop device (`losetup
--direct-io=on`), the realistic case.  A device that cannot reach 10000 IOPS is measured at
70 % of what it reaches, said in the output.

Last, issue 39's line, on the RAM-backed device: the programs' ns per request at depth 1
(fio), then rounds (BENCH_TRACE_QD1_ROUNDS, 12) of three arms in a shuffled order, each
BENCH_TRACE_QD1_REQUESTS (100000) reads at depth 1 timed one by one (tests/bench/qd1.c):
watched, watched again (the null arm, the resolution) and traced; the time tracing adds to a
request is the move of the requests' 10th percentile, traced - watched, median of the rounds.
BENCH_TRACE_ONLY=qd1 runs only that.  With BENCH_TRACE_BASELINE=/path/to/an/older/ioscope, that build's programs
and this one's attached at once to the same requests: their difference per program, which
the machine's load hits alike (the way to see tens of ns on a loaded machine); and that
build traced as a fourth arm of the QD1 rounds.

Needs root and a build with tracing; says so otherwise."""
import contextlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# another build to compare with (its ioscope-trace.so beside it)
ioscope = os.environ.get("BENCH_TRACE_IOSCOPE", os.path.join(top, "ioscope"))
SECONDS = int(os.environ.get("BENCH_TRACE_SECONDS", "2"))
ROUNDS = int(os.environ.get("BENCH_TRACE_ROUNDS", "30"))
BACKINGS = os.environ.get("BENCH_TRACE_BACKING", "shm,disk").split(",")
# BENCH_TRACE_ONLY=qd1: only issue 39's line (per_request) and the programs' cost at QD1
ONLY_QD1 = os.environ.get("BENCH_TRACE_ONLY") == "qd1"
QD1_ROUNDS = int(os.environ.get("BENCH_TRACE_QD1_ROUNDS", "12"))
QD1_REQUESTS = int(os.environ.get("BENCH_TRACE_QD1_REQUESTS", "100000"))
# tests/bench/qd1.c, built by tests/bench/run.sh
QD1 = os.path.join(top, os.environ.get("BUILD", "build"), "bench", "qd1")
QD1_TARGET_US = 0.5
# an older build (its ioscope-trace.so beside it) whose programs run beside this one's
BASELINE = os.environ.get("BENCH_TRACE_BASELINE")
# ioscope's samples beyond fio's run: it is stopped when fio ends, and on a loaded machine
# fio's start can take seconds, which must not end the traced arm untraced
LINGER = 60
IMAGE_MB = 512
TARGET_IOPS = 10000
LIMIT_PCT = 3.0
CPUS = sorted(os.sched_getaffinity(0))
FIO_CPU, IOSCOPE_CPU = CPUS[-1], CPUS[0]


def fio_argv(dev, rate, seconds, depth=4):
    """The workload: 4 KiB random reads, direct, libaio at depth 4, on fio's CPU."""
    return (["fio", "--name=bench", f"--filename=/dev/{dev}", "--rw=randread", "--bs=4k",
             "--direct=1", "--ioengine=libaio", f"--iodepth={depth}", "--time_based",
             f"--runtime={seconds}", f"--cpus_allowed={FIO_CPU}"]
            + ([f"--rate_iops={rate}"] if rate else []))


def fio(dev, rate, depth=4):
    """IOPS, mean and median completion latency (us) of one run."""
    argv = fio_argv(dev, rate, SECONDS, depth) + ["--output-format=json"]
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    read = json.loads(out)["jobs"][0]["read"]
    clat = read["clat_ns"]
    return read["iops"], clat["mean"] / 1000, clat["percentile"]["50.000000"] / 1000


def start_ioscope(argv, build=None):
    return subprocess.Popen([build or ioscope] + argv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: os.sched_setaffinity(0, {IOSCOPE_CPU}))


def cpu_of(argv):
    p = start_ioscope(argv)
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"bench: ioscope {' '.join(argv)} failed: {p.stderr.read().decode()}")
    return ru.ru_utime + ru.ru_stime


def traced(dev, rate, depth=4):
    """fio while ioscope --trace samples every second, from when its programs are attached
    (the ~100 ms of loading them is no part of the steady cost)."""
    p = start_tracing(dev, SECONDS + LINGER)
    try:
        return fio(dev, rate, depth)
    finally:
        p.terminate()
        _, status, _ = os.wait4(p.pid, 0)
        # stopped by our SIGTERM: 0, 143 or the signal itself, as it found time to say
        if not (os.WIFSIGNALED(status) or os.WEXITSTATUS(status) in (0, 143)):
            sys.exit(f"bench: ioscope --trace failed: {p.stderr.read().decode()}")


def sample_cpu(dev, rate):
    """ioscope's CPU per sample without and with --trace, and loading the programs, while
    fio runs at rate: (runs of 41 samples - runs of 1) / 40, medians of 3 alternating, so
    that start-up and loading fall out."""
    long, short = 41, 1
    load = subprocess.Popen(fio_argv(dev, rate, 600) + ["--output=/dev/null"])
    try:
        time.sleep(0.5)
        cpu = {}
        for _ in range(3):
            for trace in ([], ["--trace"]):
                for count in (long, short):
                    argv = ["--batch"] + trace + ["-i", "0.05", "-c", str(count), "-f", "json", dev]
                    cpu.setdefault((bool(trace), count), []).append(cpu_of(argv))
    finally:
        load.terminate()
        load.wait()
    med = {k: statistics.median(v) for k, v in cpu.items()}
    per = lambda t: (med[t, long] - med[t, short]) / (long - short) * 1e6
    return per(False), per(True), (med[True, short] - med[False, short]) * 1e3


def untraced(dev, rate, depth=4):
    """fio while ioscope --batch samples every second without --trace: what watching costs
    before any program is attached."""
    p = start_ioscope(["--batch", "-i", "1", "-c", str(SECONDS + LINGER), "-f", "json", dev])
    try:
        time.sleep(0.3)   # its first sample
        return fio(dev, rate, depth)
    finally:
        p.terminate()
        p.wait()


def median_ci(values):
    """The median and a distribution-free 90 % confidence interval for it: the order
    statistics k and n-k+1 with k the largest for which P(Binomial(n, 1/2) < k) <= 5 %.
    Each end is a one-sided 95 % bound, so an interval within +-3 % shows the difference
    within 3 % at the 5 % level (equivalence by two one-sided tests)."""
    v, n = sorted(values), len(values)
    below, k = 0.0, 0
    while True:
        below += math.comb(n, k) / 2 ** n
        if below > 0.05:
            break
        k += 1
    if k == 0:   # too few rounds
        return statistics.median(v), float("-inf"), float("inf")
    return statistics.median(v), v[k - 1], v[n - k]


def rounds(dev, rate, count):
    """count rounds of the three arms in a shuffled order: per arm a list of (IOPS, clat
    mean, clat median)."""
    arms = {"alone": lambda: fio(dev, rate), "watched": lambda: untraced(dev, rate),
            "traced": lambda: traced(dev, rate)}
    runs = {arm: [] for arm in arms}
    order = random.Random(rate)   # the same shuffles each bench run
    for _ in range(count):
        for arm in order.sample(list(arms), len(arms)):
            runs[arm].append(arms[arm]())
    return runs


def differences(runs, arm, base, k):
    """Per round, how much arm's figure k is above base's, in per cent."""
    return [pct(b[k], a[k]) for a, b in zip(runs[arm], runs[base])]


def verdict(low, high):
    if -LIMIT_PCT < low and high < LIMIT_PCT:
        return f"within {LIMIT_PCT:.0f} %"
    if low >= LIMIT_PCT or high <= -LIMIT_PCT:
        return f"beyond {LIMIT_PCT:.0f} %"
    return "not settled by these rounds"


FIGURES = (("IOPS", 0, "", "{:8.0f}"), ("clat mean", 1, " us", "{:6.2f}"),
           ("clat median", 2, " us", "{:6.2f}"))


def report(label, runs, judged):
    print(f"  {label}: {len(runs['alone'])} rounds")
    for name, k, unit, fmt in FIGURES:
        med = {arm: statistics.median(r[k] for r in runs[arm]) for arm in runs}
        print(f"    {name:<12} alone " + fmt.format(med["alone"]) + f"{unit}, watched "
              + fmt.format(med["watched"]) + f"{unit}, traced " + fmt.format(med["traced"])
              + unit)
        for arm, base, what in (("traced", "watched", "tracing on / off"),
                                ("traced", "alone", "ioscope --trace / fio alone")):
            m, low, high = median_ci(differences(runs, arm, base, k))
            line = f"      {what:<28} {m:+5.1f} % (90 % CI {low:+.1f} .. {high:+.1f})"
            if judged and arm == "traced" and base == "watched":
                line += f": {verdict(low, high)}"
            print(line)


# what --trace attaches; a request runs rq_issue and rq_complete, rq_insert only when it is
# inserted (a scheduler, a busy queue), rq_requeue only on a requeue.  The baseline build
# of BENCH_TRACE_BASELINE may have other programs (bio_queue before 2026-12-05).
PROGRAMS = ("bio_queue", "rq_insert", "rq_issue", "rq_requeue", "rq_complete")
ATTACHED = 4   # programs an ioscope --trace of either build holds


def ns_per_request(before, after, ids):
    """Per program of ids that ran, its ns per request completed (the run time over the
    completions counted by rq_complete: a program that runs for some requests only, such as
    rq_insert, is charged per request, not per run)."""
    runs = {}
    for i in ids:
        a, z = before.get(i), after.get(i)
        if a and z:
            runs[a["name"]] = (z.get("run_cnt", 0) - a.get("run_cnt", 0),
                               z.get("run_time_ns", 0) - a.get("run_time_ns", 0))
    done = runs.get("rq_complete", (0, 0))[0]
    if done <= 0:
        return {}
    return {n: t / done for n, (c, t) in runs.items() if c > 0}
STATS = "/proc/sys/kernel/bpf_stats_enabled"


def tracing_programs():
    out = subprocess.run(["bpftool", "-j", "prog", "show"], check=True, capture_output=True,
                         text=True).stdout
    return {p["id"]: p for p in json.loads(out) if p.get("name") in PROGRAMS}


def programs_of(pid):
    """The ids of the BPF programs process pid holds (its descriptors' fdinfo): not those of
    another ioscope --trace running meanwhile (a test, another engineer's bench)."""
    ids = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fdinfo"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/fdinfo/{fd}") as f:
                ids.update(int(l.split()[1]) for l in f if l.startswith("prog_id:"))
    except OSError:
        pass
    return ids


def start_tracing(dev, count, build=None):
    """ioscope --batch --trace on dev (or build's), returned once its programs are attached
    (their ids in .programs)."""
    p = start_ioscope(["--batch", "--trace", "-i", "1", "-c", str(count), "-f", "json", dev],
                      build)
    for _ in range(100):
        held = programs_of(p.pid)
        p.programs = [i for i in tracing_programs() if i in held]
        if len(p.programs) >= ATTACHED or p.poll() is not None:
            break
        time.sleep(0.05)
    if len(p.programs) < ATTACHED:
        p.kill()
        p.wait()
        sys.exit(f"bench: ioscope --trace attached no programs: {p.stderr.read().decode()}")
    time.sleep(0.2)   # its first sample
    return p


@contextlib.contextmanager
def bpf_stats(value):
    """kernel.bpf_stats_enabled set to value for the block, then back to what it was."""
    with open(STATS) as f:
        was = f.read().strip()
    try:
        with open(STATS, "w") as f:
            f.write(value)
        yield was
    finally:
        with open(STATS, "w") as f:
            f.write(was)


def program_cost(dev, rate, depth=4):
    """ns per request of each BPF program that ran (the kernel's bpf_stats, on for these
    runs only; its own clock reads are in the figure), medians of 3 runs."""
    runs = []
    with bpf_stats("1"):
        for _ in range(3):
            p = start_tracing(dev, SECONDS + LINGER)
            try:
                before = {i: q for i, q in tracing_programs().items() if i in p.programs}
                fio(dev, rate, depth)
                after = tracing_programs()
            finally:
                p.terminate()
                p.wait()
            ns = ns_per_request(before, after, p.programs)
            if ns:
                runs.append(ns)
    if not runs:
        return None
    return {name: statistics.median(r.get(name, 0) for r in runs)
            for name in PROGRAMS if any(name in r for r in runs)}


def pct(a, b):
    return (b - a) / a * 100 if a else float("nan")


def rate_for(dev):
    """10000, or 70 % of the IOPS the device reaches when that is less (medians of 3)."""
    most = statistics.median(fio(dev, 0)[0] for _ in range(3))
    if most >= TARGET_IOPS * 1.05:
        return TARGET_IOPS, ""
    rate = max(100, int(most * 0.7) // 100 * 100)
    return rate, f" (the device reaches {most:.0f} IOPS, not {TARGET_IOPS}: measured at {rate})"


def qd1(dev):
    """qd1's request times on fio's CPU: p1, p5, p10, p50 and mean, ns."""
    out = subprocess.run([QD1, f"/dev/{dev}", str(QD1_REQUESTS)], check=True,
                         capture_output=True, text=True,
                         preexec_fn=lambda: os.sched_setaffinity(0, {FIO_CPU})).stdout
    return [int(v) for v in out.split()]


def qd1_arm(dev, trace):
    """qd1 while ioscope --batch watches dev, with --trace (from when its programs are
    attached; trace: True, or the path of another build) or without (from its first
    sample)."""
    if trace:
        p = start_tracing(dev, 600, None if trace is True else trace)
    else:
        p = start_ioscope(["--batch", "-i", "1", "-c", "600", "-f", "json", dev])
        time.sleep(0.3)
    try:
        return qd1(dev)
    finally:
        p.terminate()
        p.wait()


def per_request(dev, count):
    """Issue 39's tracing line: count rounds, each running three arms in a shuffled order,
    QD1_REQUESTS reads at depth 1 each (qd1.c): watched by ioscope --batch, watched again
    (the null arm: what two identical arms differ by here), and traced by ioscope --batch
    --trace.  The programs run on every request's path, so what they cost moves every
    request's time; the low percentiles are the requests that waited for nothing else
    (the loop worker's wake-ups on this loaded VM spread the median by microseconds).  Per
    round, in ns: the 1st and 10th percentiles traced - watched, the same of the null arm,
    and the mean's change in per cent (the IOPS' change, with its sign turned)."""
    arms = {"watched": False, "again": False, "traced": True}
    if BASELINE:
        arms["baseline"] = BASELINE   # the other build traced, a fourth arm of each round
    order = random.Random(39)
    diff = {k: [] for k in ("p1", "p10", "null p1", "null p10", "mean %", "baseline p10")}
    for _ in range(count):
        got = {arm: qd1_arm(dev, arms[arm]) for arm in order.sample(list(arms), len(arms))}
        w, a, t = got["watched"], got["again"], got["traced"]
        diff["p1"].append(t[0] - w[0])
        diff["p10"].append(t[2] - w[2])
        diff["null p1"].append(a[0] - w[0])
        diff["null p10"].append(a[2] - w[2])
        diff["mean %"].append(pct(w[4], t[4]))
        if BASELINE:
            diff["baseline p10"].append(got["baseline"][2] - w[2])
    return diff


def paired_cost(dev, baseline, runs=16):
    """Per program, ns per run of this build's programs less the baseline's, both attached
    at once to the same requests (so the machine's load hits both alike), which one is
    attached first alternating (the first runs with the colder caches: 150 to 300 ns a
    request here); the median over pairs of runs, one in each order."""
    diff = []
    with bpf_stats("1"):
        for i in range(runs):
            order = (baseline, ioscope) if i % 2 == 0 else (ioscope, baseline)
            procs = {b: start_tracing(dev, SECONDS + LINGER, b) for b in order}
            try:
                before = tracing_programs()
                fio(dev, 0, 1)
                after = tracing_programs()
            finally:
                for p in procs.values():
                    p.terminate()
                    p.wait()
            ns = {b: ns_per_request(before, after, p.programs) for b, p in procs.items()}
            diff.append({n: ns[ioscope].get(n, 0) - ns[baseline].get(n, 0) for n in PROGRAMS}
                        if ns[ioscope] and ns[baseline] else None)
    # a run with the baseline first and the next with it second: their mean is the
    # difference with the first one's colder caches cancelled
    pairs = [{n: (a[n] + b[n]) / 2 for n in PROGRAMS}
             for a, b in zip(diff[::2], diff[1::2]) if a and b]
    if not pairs:
        return
    total = [sum(d.values()) for d in pairs]
    print(f"  QD1, this build's programs less {baseline}'s, on the same requests "
          f"({len(pairs)} pairs of runs, each order once): {statistics.median(total):+.0f} ns a "
          f"request (lowest-highest {min(total):+.0f} .. {max(total):+.0f}); "
          + ", ".join(f"{n} {statistics.median(d[n] for d in pairs):+.0f}" for n in PROGRAMS))


def report_per_request(dev):
    """The BPF programs' ns per run at depth 1 and the rounds of per_request(), with the
    line of issue 39's table."""
    if BASELINE:
        paired_cost(dev, BASELINE)
    cost = program_cost(dev, 0, 1)
    if cost:
        print("  QD1 unlimited, BPF ns per request: "
              + ", ".join(f"{n} {ns:.0f}" for n, ns in cost.items())
              + f": {sum(cost.values()):.0f} ns a request (bpf_stats' own clock reads in it)")
    with bpf_stats("0"):
        d = per_request(dev, QD1_ROUNDS)
    print(f"  QD1, {QD1_ROUNDS} rounds of {QD1_REQUESTS} reads a arm (watched, watched "
          f"again, traced; shuffled): traced - watched, 10th percentile {spread(d['p10'])}, "
          f"1st {spread(d['p1'])}; the null arm (watched again - watched) 10th "
          f"{spread(d['null p10'])}, 1st {spread(d['null p1'])}; the mean "
          f"{statistics.median(d['mean %']):+.1f} %")
    if BASELINE:
        print(f"  QD1, {BASELINE} traced in the same rounds: 10th percentile "
              f"{spread(d['baseline p10'])}")
    return d


def quartiles_us(ns):
    """The median and the quartiles of a list of ns, in us."""
    v = sorted(ns)
    return statistics.median(v) / 1000, v[len(v) // 4] / 1000, v[3 * len(v) // 4] / 1000


def spread(ns):
    m, low, high = quartiles_us(ns)
    return f"{m:+.2f} us (quartiles {low:+.2f} .. {high:+.2f})"


def print_table_line(d):
    """Issue 39's table's tracing line (bench.py prints the others as part (i))."""
    m, low, high = quartiles_us(d["p10"])
    print(f"\n(i) issue 39's table, tracing: time added to a request, median of the rounds "
          "(quartiles)")
    print(f"{'what':<44} {'us':>6} {'quartiles':>13} {'target':>7}")
    print(f"{'--trace, 4k random read QD1, RAM-backed loop':<44} {m:+6.2f} "
          f"{low:+.2f}..{high:+.2f} "
          f"{'<=' + format(QD1_TARGET_US, '.2f'):>7}{'' if m <= QD1_TARGET_US else '  MISSED'}")
    print(f"    the requests' 10th percentile; two untraced arms differ by "
          f"{spread(d['null p10'])}; the mean {statistics.median(d['mean %']):+.1f} %")


def measure(name, backing, parent, direct_io):
    with tempfile.TemporaryDirectory(prefix="ioscope-bench-trace.", dir=parent) as tmp:
        img = os.path.join(tmp, "img")
        with open(img, "wb") as f:
            f.truncate(IMAGE_MB << 20)
        argv = ["losetup", "--find", "--show"] + (["--direct-io=on"] if direct_io else []) + [img]
        loop = subprocess.run(argv, check=True, capture_output=True, text=True).stdout.strip()
        dev = os.path.basename(loop)
        try:
            # written, not sparse: a hole would be read as zeros without touching the disk
            subprocess.run(["fio", "--name=fill", f"--filename={loop}", "--rw=write", "--bs=1m",
                            "--direct=1", "--output=/dev/null"], check=True)
            if ONLY_QD1:
                print(backing)
                return report_per_request(dev)
            rate, note = rate_for(dev)
            print(f"{backing}{note}")
            cost = program_cost(dev, rate)
            if cost:
                print("  BPF ns per request: " + ", ".join(f"{n} {ns:.0f}" for n, ns in cost.items())
                      + f": {sum(cost.values()):.0f} ns a request (rate_iops={rate})")
            # bpf_stats off: its two clock reads per program run are no part of --trace
            with bpf_stats("0") as was:
                if was != "0":
                    print("  (kernel.bpf_stats_enabled was on: off for the runs below)")
                # the unlimited runs show a loss, not a bound: a third of the rounds
                for label, r, n in ((f"rate_iops={rate}", rate, ROUNDS),
                                    ("unlimited", 0, max(5, ROUNDS // 3))):
                    report(label, rounds(dev, r, n), judged=bool(r))
                plain, trace, load = sample_cpu(dev, rate)
                print(f"  ioscope's CPU per sample under fio at rate_iops={rate}: "
                      f"{plain:.0f} us, with --trace {trace:.0f} us; loading the programs "
                      f"{load:.0f} ms")
            if name == "shm":
                return report_per_request(dev)
        finally:
            subprocess.run(["losetup", "-d", loop], check=False)


BACKING = {
    "shm": ("loop over a file in /dev/shm", "/dev/shm", False),
    "disk": ("loop (direct I/O) over a file on the root filesystem's disk", "/var/tmp", True),
}


def main():
    print("\n(c) --trace: fio 4k randread direct on a loop device: alone, watched by ioscope, "
          f"traced by ioscope --trace; rounds of {SECONDS} s runs in a shuffled order, fio on "
          f"CPU {FIO_CPU}, ioscope on CPU {IOSCOPE_CPU}; per round the difference, its median "
          "and 90 % confidence interval")
    if os.geteuid() != 0:
        print("skipped: needs root")
        return
    v = subprocess.run([ioscope, "--version"], capture_output=True, text=True).stdout
    if "tracing (--trace): built in" not in v:
        print("skipped: this build has no tracing")
        return
    table_line = None
    for b in (["shm"] if ONLY_QD1 else BACKINGS):
        if b not in BACKING:
            sys.exit(f"bench: BENCH_TRACE_BACKING: {b!r} is not shm or disk")
        line = measure(b, *BACKING[b])
        table_line = line or table_line
    if table_line:
        print_table_line(table_line)


if __name__ == "__main__":
    main()
