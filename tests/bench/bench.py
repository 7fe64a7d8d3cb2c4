#!/usr/bin/env python3
"""make bench: CPU cost of sampling, as ratios measured side by side in one run.

(a) CPU microseconds per sample of `ioscope --batch --format json` at a 10 ms interval
    against the floor program (tests/bench/floor.c: re-reads the same files through kept-open
    descriptors on the same absolute deadlines, no parsing, no output) - for this machine's
    devices and for fixture trees of 100 and 1000 devices.
(b) At the real 1 s cadence: ioscope's CPU per sample beside `iostat -x 1` and `vmstat 1`
    running at the same time, and ioscope's peak RSS.
(t) Tasks (`--tasks`, the why pane's data): with 1000 extra sleeping processes, at 1 s side by
    side, ioscope --tasks against `atop 1` and `iotop-c -b -d 1`, ioscope without --tasks
    (what the sample costs with the pane off), and the floors of reading the processes
    (floor.c --tasks: the listing, a schedstat pread a task and the stat and io of the
    processes whose schedstat moved, and of each of their threads (a process's own I/O is
    its live threads' sum), ioscope's method;
    --tasks-open: stat and io opened and closed, the method before).  BENCH_ONLY=tasks runs
    only this part.
(c) The console with the why pane open beside btop: with 1000 extra sleeping processes, the
    optimised ./ioscope console (W pressed, checked open) and btop (update_ms=1000, a config of
    its own), each in a private tmux server at 1 s, for the same seconds; CPU ms/s of each
    from the schedstat of all their threads, median of BENCH_BTOP_ROUNDS rounds, and the ratio
    ioscope/btop against the target (at most 0.25, a line of (i)); with BENCH_BASELINE, that
    older binary's console runs beside too (before/after).  BENCH_ONLY=btop runs only this
    part.
(s) Start-up: the CPU of one-shot commands (`ioscope --version`, a one-sample batch,
    `ioscope show DEV`) against a one-shot `iostat -x -d -y 0` and `vmstat 1 1`, alternating,
    median of BENCH_STARTUP_RUNS runs (21), and the one-sample batch's ratio to iostat in
    each round.  BENCH_BASELINE=/path/to/an/older/ioscope adds its figures beside, measured in
    the same rounds (before/after).  BENCH_ONLY=startup stops after this part.
(j) Batch JSON at 1 s for 15 samples, start-up included, side by side with `iostat -x 1` and
    `vmstat 1`, BENCH_BATCH_ROUNDS rounds (3): CPU per sample of each and the ratio
    ioscope / (iostat + vmstat) of each round.  BENCH_ONLY=batch runs only this part.
(p) Prometheus export: CPU per sample at 10 ms with --format prometheus and --textfile beside
    --format json, and the CPU one scrape costs ioscope --listen beside node_exporter's own
    (all collectors, and diskstats + textfile only), scraped back to back on this machine.
    BENCH_ONLY=export runs only this part.
(w) With BENCH_BASELINE: CPU per sample at 10 ms of the older binary and this one,
    alternating, on this machine: what the why figures (dirty limits, journal files of the
    watched filesystems, cgroup io, the dip detector) cost with no pane shown.
(r) Reports: the CPU of `ioscope report` (text and csv) over a generated day-long log (86400
    samples of 16 disks, tests/e2e/session_log_gen.py) against `jq -c .seq` merely parsing the
    same file; target: the report in less CPU than jq.  Also opening the log (the index) and
    replaying its first interval, which the tests check reads the file once.  BENCH_ONLY=report runs only this part.
(i) Issue 39's table, printed last: each line a ratio to its peer measured side by side
    (one-shots alternating, the 1 s batch running beside iostat and vmstat, the console
    beside btop for the same seconds), the median of the rounds' ratios with their spread
    (lowest - highest), against its target: the one-sample batch against `iostat -x -d -y 0`
    (from (s)), batch JSON at 1 s over 15 samples with its start-up against `iostat -x 1` +
    `vmstat 1` (BENCH_BATCH_ROUNDS rounds, 3), the console with the why pane against btop
    (from (c)), and the text report of the day-long log against `jq -c .seq` (from (r)).
Runs alternate and repeat; the median is reported, since this machine is shared and noisy.
"""
import os, shutil, signal, statistics, subprocess, sys, tempfile, time

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ioscope = os.environ.get("BENCH_IOSCOPE") or os.path.join(top, "ioscope")   # another build's
floor = sys.argv[1]
gen = os.path.join(top, "tests", "fixtures", "gen-devices.sh")
REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))


# Issue 39's table: (what, ours, peer, [ratio of each round], target), printed by table().
TABLE = []


def table_line(what, ours, peer, ratios, target):
    TABLE.append((what, ours, peer, ratios, target))


def spread(ratios):
    return f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "-"


def disks_with_medium():
    """(whole disks whose size is above 0, devices in /proc/diskstats): a one-shot's and a
    sample's cost grows with the first (their knobs and queue files), iostat's does not."""
    medium = 0
    for name in os.listdir("/sys/block"):
        try:
            medium += int(open(f"/sys/block/{name}/size").read()) > 0
        except (OSError, ValueError):
            pass
    return medium, len(open("/proc/diskstats").read().splitlines())


def table():
    if not TABLE:
        return
    medium, devices = disks_with_medium()
    print("(i) issue 39's table: ratio to the peer, median of the rounds (lowest-highest); "
          f"{medium} disks with a medium of {devices} devices")
    print(f"{'what':<44} {'ratio':>6} {'spread':>11} {'target':>7}")
    for what, ours, peer, ratios, target in TABLE:
        r = statistics.median(ratios) if ratios else float("inf")
        print(f"{what:<44} {r:5.2f}x {spread(ratios):>11} {'<=' + format(target, '.2f'):>7}"
              f"{'' if r <= target else '  MISSED'}")
        print(f"    {ours} / {peer}")
    print()


def cpu_of(argv):
    """CPU seconds (user+sys) and peak RSS (KiB) of one run of argv."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read().decode()
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(argv)} failed: {err}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def per_sample_us(argv, samples):
    return cpu_of(argv)[0] / samples * 1e6


def compare_floor(label, root, samples):
    ours, base = [], []
    root_args = ["--root", root] if root else []
    for _ in range(REPEAT):
        base.append(per_sample_us([floor, root, "0.01", str(samples)], samples))
        ours.append(per_sample_us([ioscope, "--batch", "-f", "json", "-i", "0.01", "-c", str(samples)]
                                  + root_args, samples))
    o, b = statistics.median(ours), statistics.median(base)
    print(f"{label:<28} {o:10.1f} {b:10.1f} {o / b:8.2f}x")
    return o


def peak_rss_kib(pid):
    """VmHWM of a running process: ru_maxrss would also count the forking parent."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def side_by_side(seconds):
    procs = {
        "ioscope --batch -f json": [ioscope, "--batch", "-f", "json", "-i", "1", "-c", str(seconds)],
        "iostat -x 1": ["iostat", "-x", "1", str(seconds + 1)],
        "vmstat 1": ["vmstat", "1", str(seconds + 1)],
    }
    running = {k: subprocess.Popen(v, stdout=subprocess.DEVNULL) for k, v in procs.items()}
    rss = {k: 0 for k in procs}
    res = {}
    while len(res) < len(running):
        for k, p in running.items():
            if k in res:
                continue
            rss[k] = max(rss[k], peak_rss_kib(p.pid))
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                res[k] = (ru.ru_utime + ru.ru_stime, rss[k])
        time.sleep(0.2)
    return res


def batch_rounds(rounds, seconds=15):
    """Issue 39's line: batch JSON at 1 s for `seconds` samples, start-up included, beside
    iostat -x 1 and vmstat 1 for as long; the ratio of each round."""
    ratios, ours, refs = [], [], []
    for _ in range(rounds):
        res = side_by_side(seconds)
        o = res["ioscope --batch -f json"][0]
        r = res["iostat -x 1"][0] + res["vmstat 1"][0]
        ours.append(o / seconds * 1e3)
        refs.append(r / seconds * 1e3)
        if r:
            ratios.append(o / r)
    o, r = statistics.median(ours), statistics.median(refs)
    print(f"(j) batch JSON at 1 s, {seconds} samples with the start-up, side by side, "
          f"{rounds} rounds: ioscope {o:.2f} ms/sample, iostat -x 1 + vmstat 1 {r:.2f} "
          f"ms/sample, ratio {statistics.median(ratios) if ratios else float('inf'):.2f} "
          f"({spread(ratios)})")
    print()
    table_line(f"batch JSON at 1 s, {seconds} samples incl. start-up", f"{o:.2f} ms/sample",
               f"iostat -x 1 + vmstat 1 {r:.2f} ms/sample", ratios, 0.6)


def sleepers(n):
    """n extra sleeping processes in a process group of their own (killed after)."""
    p = subprocess.Popen(["bash", "-c", f"for i in $(seq {n}); do sleep 3600 & done; wait"],
                         start_new_session=True, stdout=subprocess.DEVNULL)
    for _ in range(100):   # until they are all there
        if len(subprocess.run(["pgrep", "-g", str(p.pid)], capture_output=True).stdout.split()) > n:
            break
        time.sleep(0.1)
    return p


def tasks_cost(seconds, extra=1000):
    group = sleepers(extra)
    try:
        procs = {
            "ioscope --batch --tasks": [ioscope, "--batch", "--tasks", "-f", "json", "-i", "1",
                                        "-c", str(seconds)],
            "ioscope --batch (no tasks)": [ioscope, "--batch", "-f", "json", "-i", "1", "-c",
                                           str(seconds)],
            "floor: schedstat kept open": [floor, "--tasks", "1", str(seconds)],
            "floor: stat+io open/close": [floor, "--tasks-open", "1", str(seconds)],
            "atop 1": ["atop", "1", str(seconds + 1)],
            "iotop-c -b -d 1": ["iotop-c", "-b", "-d", "1", "-n", str(seconds + 1)],
        }
        missing = [k for k, v in procs.items() if not shutil.which(v[0])]
        for k in missing:
            print(f"{k}: not installed (make bench installs BENCH_DEBS), skipped")
            del procs[k]
        running = {k: subprocess.Popen(v, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                   for k, v in procs.items()}
        res = {}
        for k, p in running.items():
            _, status, ru = os.wait4(p.pid, 0)
            res[k] = ru.ru_utime + ru.ru_stime
        nproc = len([d for d in os.listdir("/proc") if d.isdigit()])
    finally:
        os.killpg(group.pid, signal.SIGTERM)
        group.wait()
    print(f"(t) tasks: {seconds} s at 1 s, side by side, {nproc} processes ({extra} extra sleeping)")
    for k, cpu in res.items():
        # atop and iotop-c take one more sample (their first is since boot / a baseline)
        n = seconds + 1 if k in ("atop 1", "iotop-c -b -d 1") else seconds
        print(f"{k:<28} {cpu / n * 1e6:10.1f} us/sample")
    gate = res.get("floor: schedstat kept open")
    if gate and "ioscope --batch --tasks" in res:
        ratio = (res["ioscope --batch --tasks"] - res["ioscope --batch (no tasks)"]) / gate
        print(f"--tasks' own cost (with tasks - without) / the floor of its method (the listing, "
              f"a schedstat pread a task, stat and io of the tasks of processes that moved) = "
              f"{ratio:.2f} "
              f"(target <= 1.2"
              f"{'' if ratio <= 1.2 else ': MISSED'})")
        whole = res.get("floor: stat+io open/close")
        if whole:
            print(f"--tasks' own cost / the floor of reading every process's stat and io "
                  f"(the method before the gate) = {ratio * gate / whole:.2f}")
    print()


def cpu_ns_all_threads(pid):
    """CPU nanoseconds of every live thread of pid (schedstat: exact, unlike stat's ticks)."""
    total = 0
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for tid in tids:
        try:
            total += int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


class Tmux:
    """A private tmux server (its own socket) running one command on a 200x60 terminal."""

    def __init__(self, name, argv, env):
        self.sock = f"ioscope-bench-{name}-{os.getpid()}"
        subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "new-session", "-d",
                        "-x", "200", "-y", "60", "env"]
                       + [f"{k}={v}" for k, v in env.items()] + argv, check=True)
        self.pid = int(self.tmux("display", "-p", "#{pane_pid}").strip())

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock] + list(args), capture_output=True,
                              text=True).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p")

    def alive(self):
        return os.path.exists(f"/proc/{self.pid}/stat")

    def close(self):
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True)


def wait_screen(t, text, seconds=10):
    for _ in range(int(seconds * 10)):
        if text in t.screen():
            return True
        time.sleep(0.1)
    return False


def console_vs_btop(seconds, extra=1000):
    rounds = int(os.environ.get("BENCH_BTOP_ROUNDS", "3"))
    print(f"(c) console with the why pane beside btop: {rounds} rounds of {seconds} s at 1 s, "
          f"side by side, {extra} extra sleeping processes")
    if not shutil.which("btop") or not shutil.which("tmux"):
        print("btop or tmux not installed (make bench installs BENCH_DEBS): skipped")
        print()
        return
    group = sleepers(extra)
    servers = []
    try:
        with tempfile.TemporaryDirectory(prefix="ioscope-bench.") as tmp:
            btop_conf = os.path.join(tmp, "btop-xdg", "btop")
            os.makedirs(btop_conf)
            with open(os.path.join(btop_conf, "btop.conf"), "w") as f:
                f.write("update_ms = 1000\n")
            term = {"LANG": "C.UTF-8", "TERM": "tmux-256color"}
            consoles = {"ioscope console, W open": ioscope}
            if os.environ.get("BENCH_BASELINE"):
                consoles["the baseline's console, W open"] = os.environ["BENCH_BASELINE"]
            for label, binary in consoles.items():
                consoles[label] = Tmux(f"console{len(servers)}", [binary, "-i", "1"],
                                       dict(term, XDG_CONFIG_HOME=os.path.join(tmp, "ioscope-xdg"),
                                            HOME=tmp))
                servers.append(consoles[label])
            btop = Tmux("btop", ["btop"],
                        dict(term, XDG_CONFIG_HOME=os.path.join(tmp, "btop-xdg"), HOME=tmp))
            servers.append(btop)
            time.sleep(2)   # start-up and the first samples are not the steady state
            for t in consoles.values():
                t.tmux("send-keys", "W")
                if not wait_screen(t, "Why") or not t.alive():
                    sys.exit("bench: the console's why pane did not open:\n" + t.screen())
            if not btop.alive() or not wait_screen(btop, "proc"):
                sys.exit("bench: btop is not running:\n" + btop.screen())
            conf = open(os.path.join(btop_conf, "btop.conf")).read()
            if "update_ms = 1000" not in conf:
                sys.exit("bench: btop did not take update_ms = 1000 from its config")
            time.sleep(2)
            measured = dict(consoles, **{"btop (update_ms=1000)": btop})
            per_s = {k: [] for k in measured}
            for _ in range(rounds):
                t0 = time.monotonic()
                before = [cpu_ns_all_threads(t.pid) for t in measured.values()]
                time.sleep(seconds)
                after = [cpu_ns_all_threads(t.pid) for t in measured.values()]
                span = time.monotonic() - t0
                if None in before + after:
                    sys.exit("bench: the console or btop exited during the measure")
                for k, b, a in zip(per_s, before, after):
                    per_s[k].append((a - b) / 1e6 / span)
            if any("Why" not in t.screen() for t in consoles.values()):
                sys.exit("bench: the why pane closed during the measure")
            nproc = len([d for d in os.listdir("/proc") if d.isdigit()])
    finally:
        for t in servers:
            t.close()
        os.killpg(group.pid, signal.SIGTERM)
        group.wait()
    med = {k: statistics.median(v) for k, v in per_s.items()}
    print(f"{nproc} processes")
    for k, v in per_s.items():
        print(f"{k:<28} {med[k]:8.2f} ms/s  (rounds: {', '.join(f'{x:.2f}' for x in v)})")
    ours, btops = per_s["ioscope console, W open"], per_s["btop (update_ms=1000)"]
    ratios = [a / b for a, b in zip(ours, btops) if b]
    ratio = statistics.median(ratios) if ratios else float("inf")
    baseline = per_s.get("the baseline's console, W open")
    if baseline:
        old = statistics.median([a / b for a, b in zip(baseline, btops) if b] or [float("inf")])
        print(f"baseline / btop = {old:.2f}")
    print(f"ioscope / btop = {ratio:.2f} (median of the rounds' ratios {spread(ratios)}; "
          f"target <= 0.25{'' if ratio <= 0.25 else ': MISSED'})")
    print()
    table_line(f"console, why pane (W), {extra} sleepers, CPU/s",
               f"{med['ioscope console, W open']:.2f} ms/s",
               f"btop {med['btop (update_ms=1000)']:.2f} ms/s (median of {rounds})", ratios, 0.25)


def show_device():
    """A whole disk that exists and has a medium, for `ioscope show`: not a loop device
    (other users attach and detach those), else any with a medium, else any."""
    names = sorted(os.listdir("/sys/block"))
    def size(n):
        try:
            return int(open(f"/sys/block/{n}/size").read())
        except (OSError, ValueError):
            return 0
    for pick in (lambda n: not n.startswith("loop") and size(n) > 0, lambda n: size(n) > 0,
                 lambda n: True):
        for n in names:
            if pick(n) and os.path.exists(f"/sys/block/{n}/queue/scheduler"):
                return n
    return names[0] if names else None


def startup():
    runs = int(os.environ.get("BENCH_STARTUP_RUNS", "21"))
    dev = show_device()
    before = os.environ.get("BENCH_BASELINE")
    ours = [("ioscope --version", ["--version"]),
            # the command as a user types it: at the default 1 s its first interval
            # starts at the sample that opened the files (two reads of each, not three: at
            # -i 0.01 the start-up outlasts an interval and the files were read three times)
            ("ioscope --batch -c 1", ["--batch", "-f", "json", "-c", "1"])]
    if dev:
        ours.append((f"ioscope show {dev}", ["show", dev]))
    cases = [("iostat -x -d -y 0", ["iostat", "-x", "-d", "-y", "0"]), ("vmstat 1 1", ["vmstat", "1", "1"]),
             ("true (exec alone)", ["true"])]
    for label, args in ours:
        cases.append((label, [ioscope] + args))
        if before:
            cases.append((label + " (before)", [before] + args))
    times = {label: [] for label, _ in cases}
    for _ in range(runs):
        for label, argv in cases:
            times[label].append(cpu_of(argv)[0] * 1e3)
    med = {k: statistics.median(v) for k, v in times.items()}
    iostat, vmstat = med["iostat -x -d -y 0"], med["vmstat 1 1"]
    print(f"(s) start-up: CPU (user+sys) of one-shot commands, median of {runs} alternating runs")
    print(f"{'command':<34} {'CPU ms':>8} {'/ iostat':>9} {'/ vmstat':>9}")
    for label, _ in cases:
        print(f"{label:<34} {med[label]:8.2f} {med[label] / iostat:8.2f}x {med[label] / vmstat:8.2f}x")
    v, b, t = med["ioscope --version"], med["ioscope --batch -c 1"], med["true (exec alone)"]
    ratios = [x / y for x, y in zip(times["ioscope --batch -c 1"], times["iostat -x -d -y 0"]) if y]
    print(f"targets: --version {v:.2f} ms (< 3 ms{'' if v < 3 else ': MISSED'}; {v - t:.2f} ms above "
          f"exec alone, which is ~0.5 ms on a quiet machine); one-sample batch "
          f"{b / iostat:.2f}x iostat (<= 2x{'' if b / iostat <= 2 else ': MISSED'}; the rounds' "
          f"ratios {spread(ratios)})")
    print()
    table_line("one-sample batch (--batch -f json -c 1), CPU", f"{b:.2f} ms",
               f"iostat -x -d -y 0 {iostat:.2f} ms (median of {runs})", ratios, 2.0)


def free_port():
    import socket
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]


def proc_cpu(pid):
    """CPU seconds (user+sys) a running process used so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scrape_cost(argv, port, scrapes, accept=None):
    """CPU ms of the server per scrape of /metrics, scraped back to back; bytes of a scrape."""
    import urllib.request
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/metrics"
    req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    size = 0
    try:
        for _ in range(100):
            try:
                size = len(urllib.request.urlopen(req, timeout=5).read())
                break
            except OSError:
                time.sleep(0.1)
        if not size:   # never answered (node_exporter panics on a label that is not UTF-8)
            return None, 0
        time.sleep(1)
        before = proc_cpu(p.pid)
        for _ in range(scrapes):
            urllib.request.urlopen(req, timeout=5).read()
        return (proc_cpu(p.pid) - before) / scrapes * 1e3, size
    finally:
        p.terminate()
        p.wait()


def export():
    import shutil
    print("(p) Prometheus export: CPU per sample at a 10 ms interval (median of %d runs)" % REPEAT)
    samples = 300
    with tempfile.TemporaryDirectory(prefix="ioscope-bench.") as tmp:
        cases = [("--batch -f json", ["--batch", "-f", "json"]),
                 ("--batch -f prometheus", ["--batch", "-f", "prometheus"]),
                 ("--textfile (fsync each)", ["--textfile", os.path.join(tmp, "io.prom")]),
                 ("--textfile --no-iostat", ["--textfile", os.path.join(tmp, "io.prom"), "--no-iostat"])]
        times = {label: [] for label, _ in cases}
        for _ in range(REPEAT):
            for label, args in cases:
                times[label].append(per_sample_us([ioscope, "-i", "0.01", "-c", str(samples)] + args, samples))
        json_us = statistics.median(times["--batch -f json"])
        for label, _ in cases:
            m = statistics.median(times[label])
            print(f"{label:<28} {m:10.1f} us/sample {m / json_us:8.2f}x json")
    scrapes = int(os.environ.get("BENCH_SCRAPES", "200"))
    print(f"CPU of one scrape, {scrapes} back to back (the server's CPU only)")
    rows = []
    port = free_port()
    rows.append(("ioscope --listen (text)", scrape_cost([ioscope, "--listen", str(port), "-i", "1"], port, scrapes)))
    port = free_port()
    rows.append(("ioscope --listen (OpenMetrics)",
                 scrape_cost([ioscope, "--listen", str(port), "-i", "1"], port, scrapes,
                             "application/openmetrics-text;version=1.0.0")))
    ne = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
    if ne:
        port = free_port()
        rows.append(("node_exporter (defaults)",
                     scrape_cost([ne, f"--web.listen-address=127.0.0.1:{port}"], port, scrapes)))
        port = free_port()
        rows.append(("node_exporter (diskstats, textfile)",
                     scrape_cost([ne, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
                                  "--collector.diskstats", "--collector.textfile"], port, scrapes)))
    else:
        print("node_exporter not installed (make test-deps): no comparison")
    for label, (ms, size) in rows:
        if ms is None:
            print(f"{label:<36} did not answer /metrics (exited or stuck): no figure")
        else:
            print(f"{label:<36} {ms:8.3f} ms/scrape {size / 1024:8.1f} KiB")
def report_speed():
    gen_log = os.path.join(top, "tests", "e2e", "session_log_gen.py")
    with tempfile.TemporaryDirectory(prefix="ioscope-bench.") as tmp:
        log = os.path.join(tmp, "day.log")
        subprocess.run([sys.executable, gen_log, "86400", "16", log], check=True)
        cases = [("ioscope report (text)", [ioscope, "report", log]),
                 ("ioscope report -f csv", [ioscope, "report", "-f", "csv", log]),
                 ("--replay, first interval", [ioscope, "--replay", log, "--batch", "-f", "json", "-c", "1"]),
                 ("jq -c .seq (parse only)", ["jq", "-c", ".seq", log])]
        times = {label: [] for label, _ in cases}
        for _ in range(REPEAT):
            for label, argv in cases:
                times[label].append(cpu_of(argv)[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    jq = med["jq -c .seq (parse only)"]
    text = times["ioscope report (text)"]
    ratios = [x / y for x, y in zip(text, times["jq -c .seq (parse only)"]) if y]
    table_line("text report of a day log (86400 x 16), CPU",
               f"{med['ioscope report (text)']:.2f} s",
               f"jq -c .seq {jq:.2f} s (median of {REPEAT})", ratios, 0.5)
    print(f"(r) reports over a day-long log (86400 samples x 16 disks), CPU s, median of {REPEAT}")
    for label, _ in cases:
        print(f"{label:<28} {med[label]:8.2f} s {med[label] / jq:6.2f}x jq")
    worst = max(med["ioscope report (text)"], med["ioscope report -f csv"])
    print(f"target: report below jq ({worst:.2f} s vs {jq:.2f} s{'' if worst < jq else ': MISSED'})")
    print()


def main():
    only = os.environ.get("BENCH_ONLY")
    if only == "btop":
        console_vs_btop(int(os.environ.get("BENCH_SECONDS", "10")))
        table()
        return
    if only == "tasks":
        tasks_cost(int(os.environ.get("BENCH_SECONDS", "30")))
        return
    if only in (None, "startup"):
        startup()
    if only in (None, "batch"):
        batch_rounds(int(os.environ.get("BENCH_BATCH_ROUNDS", "3")))
    if only in (None, "report"):
        report_speed()
    if only in (None, "export"):
        export()
    if only is not None:
        table()
        return
    print("(a) CPU per sample at a 10 ms interval, against the floor (median of %d runs)" % REPEAT)
    print(f"{'devices':<28} {'ioscope us':>10} {'floor us':>10} {'ratio':>9}")
    n_live = len(open("/proc/diskstats").read().splitlines())
    live = compare_floor(f"this machine ({n_live})", "", 300)
    with tempfile.TemporaryDirectory(prefix="ioscope-bench.") as tmp:
        per_dev = {}
        for n in (100, 1000):
            root = os.path.join(tmp, f"root{n}")
            if not os.path.exists(gen):
                print(f"{n} fixture devices: generator {gen} missing, skipped")
                continue
            subprocess.run([gen, str(n), root], check=True, stdout=subprocess.DEVNULL)
            per_dev[n] = compare_floor(f"{n} fixture devices", root, 200 if n == 100 else 50)
        if 100 in per_dev and 1000 in per_dev:
            print(f"cost per device: {per_dev[100] / 100:.2f} us at 100, {per_dev[1000] / 1000:.2f} us at 1000"
                  f" (linear when these agree)")
    baseline = os.environ.get("BENCH_BASELINE")
    if baseline:
        old, new = [], []
        for _ in range(max(REPEAT, 5)):
            old.append(per_sample_us([baseline, "--batch", "-f", "json", "-i", "0.01", "-c", "300"], 300))
            new.append(per_sample_us([ioscope, "--batch", "-f", "json", "-i", "0.01", "-c", "300"], 300))
        o, n = statistics.median(old), statistics.median(new)
        print(f"(w) this machine, baseline {o:.1f} us/sample, this {n:.1f} us/sample: "
              f"+{n - o:.1f} us ({n / o:.2f}x)")
    print()
    secs = int(os.environ.get("BENCH_SECONDS", "30"))
    print(f"(b) at 1 s for {secs} s, side by side: CPU per sample and peak RSS")
    res = side_by_side(secs)
    for k, (cpu, rss) in res.items():
        print(f"{k:<28} {cpu / secs * 1e6:10.1f} us/sample  {rss / 1024:6.1f} MiB RSS")
    ours = res["ioscope --batch -f json"][0]
    refs = res["iostat -x 1"][0] + res["vmstat 1"][0]
    print(f"ioscope / (iostat + vmstat) = {ours / refs if refs else float('inf'):.2f}")
    print()
    tasks_cost(secs)
    console_vs_btop(10)
    console = os.path.join(top, "tests", "bench", "console.sh")
    if os.path.exists(console):
        print()
        subprocess.run(["bash", console], check=False)
    print()
    table()


main()
