#!/usr/bin/env python3
"""Writes the fixed session logs the report goldens are made from (docs/reports.md,
tests/e2e/test_report_golden.sh), the way the recorder writes them:

  report_log_gen.py phases FILE   a loop device (backed by a file on vda1, direct I/O
                                  off) with ext4 on it; a switch to bfq seen at a sample,
                                  a user mark inside an interval, a remount that makes a
                                  short phase, the switch back, a mount coming (listed,
                                  not a cut), a tunable ioscope set exactly at a sample
  report_log_gen.py other FILE    the same experiment again, 10% faster ("after a kernel
                                  upgrade") and without the user mark, for `ioscope compare`
  report_log_gen.py day FILE      a day at 10 s: 8640 samples, a switch every 6 hours
  report_log_gen.py probe FILE    20 s with the responsiveness probe (--probe-exec): idle,
                                  then a user mark "untar" at a sample and slower reads (a
                                  failed one, a read stalled at a sample), then a mark "sync"
                                  inside an interval and a phase whose probe records are empty
  report_log_gen.py dd-mark FILE  25 s of loop0 at 1 s, idle but for a mark "dd" 0.1 s after
                                  sample 10 and 64 MiB written within that interval (`ioscope
                                  mark dd; dd ... oflag=direct`): all of it between the phases
  report_log_gen.py dd-mark-half FILE  the same at 0.5 s: the mark 0.1 s after sample 21, the
                                  dd over that interval and the next two (times with tenths)
  report_log_gen.py steps FILE    marks "read" (64 MiB read) and "write" (128 MiB written),
                                  twice, 12 s each; steps-extra: the same with a second
                                  "write" phase after the first, for `ioscope compare`'s
                                  pairing by label and ordinal
  report_log_gen.py close-marks FILE  marks 0.3 s after samples 5 and 6: a phase without an
                                  interval of its own
  report_log_gen.py low-util FILE four phases cut by nr_requests changes seen at samples,
                                  each writing 64 MiB at 4.5 %util (never busy)
  report_log_gen.py straddle-a FILE, straddle-b FILE  128 MiB written after a mark "dd":
                                  over four intervals in A, straddling the samples over five
                                  in B
  report_log_gen.py pair-a FILE   a 20 s recording made for loop0 alone (selection), ext4 on
                                  it, mq-deadline: a command started (run start), a mark
                                  "rmtree" half way, its exit; for `ioscope compare` across
                                  devices and filesystems
  report_log_gen.py pair-b FILE   the same on loop1 with xfs and bfq, slower
  report_log_gen.py busy FILE     40 s of a busy session on loop0, 13 marks, some a second
                                  apart: ioscope switches to bfq (its result in the form
                                  logs had before the resets were recorded apart: "ok;
                                  reset: ...") and back (result "ok"), sets tunables, marks,
                                  a remount; each change of ioscope's echoed at the next
                                  sample, as the recorder logs it
  report_log_gen.py pipeline FILE 10 s of loop0: an observed switch logged without the
                                  resets its samples show, a tunable ioscope set and its
                                  echo logged at the next sample, a mark
                                  (tests/e2e/test_one_pipeline.sh)

The checked-in logs are this script's output; change both together."""
import json, sys

W0 = 1_796_040_000_000_000_000      # 2026-11-30 10:40:00 UTC
T0 = 7_000_000_000_000


def dumps(o):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False)


def items(read_ahead="128", nr="64" ):
    return {"max_sectors_kb": "1280", "nr_requests": nr, "read_ahead_kb": read_ahead,
            "write_cache": "write back"}


def loop0(sched, read_ahead="128", name="loop0", minor=0):
    line = "none mq-deadline kyber bfq".replace(sched, f"[{sched}]")
    it = items(read_ahead, "64" if sched == "bfq" else "256")
    if sched == "mq-deadline":
        it["iosched.fifo_batch"] = "16"
    elif sched == "bfq":
        it["iosched.slice_idle"] = "8"
    return {"name": name, "major": 7, "minor": minor, "partition": False, "parent": "",
            "dm_name": "", "model": "", "serial": "",
            "settings": {"present": True, "scheduler_line": line, "scheduler": sched,
                         "rotational": 1, "items": dict(sorted(it.items()))},
            "loop": {"backing_file": "/var/tmp/bench.img", "backing_major": 254,
                     "backing_minor": 1, "backing_disk": "vda1", "dio": False, "offset": 0,
                     "sizelimit": 0}}


VDA = [{"name": "vda", "major": 254, "minor": 0, "partition": False, "parent": "", "dm_name": "",
        "model": "", "serial": "", "settings": {"present": True,
        "scheduler_line": "[none] mq-deadline kyber bfq", "scheduler": "none", "rotational": 0,
        "items": items("128", "256")}},
       {"name": "vda1", "major": 254, "minor": 1, "partition": True, "parent": "vda",
        "dm_name": "", "model": "", "serial": "", "settings": {"present": False,
        "scheduler_line": "", "scheduler": "", "rotational": -1, "items": {}}}]


def mounts(nobarrier, extra):
    m = [{"major": 254, "minor": 1, "disk": "vda1", "source": "/dev/vda1", "mountpoint": "/",
          "fstype": "ext4", "mount_opts": "rw,relatime", "super_opts": "rw,errors=remount-ro"},
         {"major": 7, "minor": 0, "disk": "loop0", "source": "/dev/loop0",
          "mountpoint": "/mnt/bench", "fstype": "ext4", "mount_opts": "rw,relatime",
          "super_opts": "rw,nobarrier" if nobarrier else "rw"}]
    if extra:
        m.append({"major": 7, "minor": 0, "disk": "loop0", "source": "/dev/loop0",
                  "mountpoint": "/mnt/ro", "fstype": "ext4", "mount_opts": "ro,relatime",
                  "super_opts": "rw"})
    return m


class Log:
    def __init__(self, path, host, dev="loop0", selection=()):
        self.out = open(path, "w")
        self.host = host
        self.dev = dev
        self.selection = list(selection)
        self.c = [0] * 17          # loop0's counters
        self.vm = [100000] * 12 + [2, 0]
        self.state = None
        self.step = 1

    def header(self, devices, mnts):
        self.out.write(dumps({"type": "header", "format": "ioscope-session-log", "version": 1,
                              "ioscope": "0.1.0", "host": self.host, "kernel": "6.18.0",
                              "kernel_version": "#1 SMP", "arch": "x86_64", "cpu_model": "Test CPU",
                              "cpus": 2, "mem_total_kb": 8000000, "started": W0, "selection": self.selection,
                              "devices": devices, "mounts": mnts}) + "\n")
        self.state = (dumps(devices), dumps(mnts))

    def times(self, k):
        ns = round(k * self.step * 1_000_000_000)
        return T0 + ns, W0 + ns

    def sample(self, k, devices, mnts, mbps_w, mbps_r, await_ms, util_ms):
        if dumps(devices) != self.state[0]:
            self.out.write(dumps({"type": "devices", "devices": devices}) + "\n")
        if dumps(mnts) != self.state[1]:
            self.out.write(dumps({"type": "mounts", "mounts": mnts}) + "\n")
        self.state = (dumps(devices), dumps(mnts))
        if k:
            wios, rios = int(mbps_w * 8 * self.step), int(mbps_r * 8 * self.step)  # 128 KiB each
            util_ms = int(util_ms * self.step)
            c = self.c
            c[0] += rios; c[2] += rios * 256; c[3] += rios * await_ms // 2
            c[4] += wios; c[6] += wios * 256; c[7] += wios * await_ms
            c[9] += util_ms; c[10] += util_ms * 2
            c[15] += 10 if wios else 0; c[16] += 3 if wios else 0
            for j, d in enumerate((20, 3, 50, 800, 20, 0, 0, 0, 0, 0, 900, 2000)):
                self.vm[j] += d
        mono, wall = self.times(k)
        devs = [{"name": "vda", "nf": 20, "c": [500, 0, 8000, 100]},
                {"name": "vda1", "nf": 20, "c": [500, 0, 8000, 100]},
                {"name": self.dev, "nf": 20, "c": list(self.c), "inflight": [0, 2]}]
        self.out.write('{"type":"sample","seq":%d,"mono":%d,"wall":%d,"devices":%s,"vm":%s}\n'
                       % (k + 1, mono, wall, dumps(devs),
                          dumps({"stat": self.vm, "vmstat": [0, 0, 0, 0],
                                 "meminfo": [4000000, 1000, 200000, 5000, 0, 0, 3000, 100]})))

    def event(self, k, kind, obj, key, old, new, by="observed", result="", at=None, **extra):
        mono, wall = self.times(k)
        if at is not None:
            mono, wall = mono + at, wall + at
        ev = {"type": "event", "seq": k + 1, "mono": mono, "wall": wall, "kind": kind,
              "object": obj, "key": key, "old": old, "new": new, "result": result, "by": by}
        ev.update(extra)
        self.out.write(dumps(ev) + "\n")


def phases(path, host="bench", speed=1.0, n=70, user_mark=True):
    log = Log(path, host)
    sched, nobarrier, extra, ra = "mq-deadline", False, False, "128"
    log.header(VDA + [loop0(sched)], mounts(nobarrier, extra))
    for k in range(n):
        events = []
        if k == 20:
            events.append(("scheduler", "loop0", "scheduler", "mq-deadline", "bfq",
                           {"resets": {"iosched.fifo_batch": ["16", None],
                                       "iosched.slice_idle": [None, "8"],
                                       "nr_requests": ["256", "64"]}}))
            sched = "bfq"
        if k == 48:
            events.append(("mount_options", "/mnt/bench", "super_opts", "rw", "rw,nobarrier", {}))
            nobarrier = True
        if k == 52:
            events.append(("scheduler", "loop0", "scheduler", "bfq", "mq-deadline",
                           {"resets": {"iosched.fifo_batch": [None, "16"],
                                       "iosched.slice_idle": ["8", None],
                                       "nr_requests": ["64", "256"]}}))
            sched = "mq-deadline"
        if k == 58:
            events.append(("mount_added", "/mnt/ro", "mount", "", "/dev/loop0 ext4 ro,relatime", {}))
            extra = True
        if k == 63:   # the echo of ioscope's change at sample 62, dropped by the report
            events.append(("tunable", "loop0", "read_ahead_kb", "128", "4096", {}))
            ra = "4096"
        busy = k % 4 != 0
        if sched == "bfq":
            w, a, u = 80, 20 + k % 7, 700
        elif nobarrier:
            w, a, u = 250, 6 + k % 3, 850
        else:
            w, a, u = 200, 8 + k % 5, 900
        r = 50 if ra == "4096" else 0
        if not busy:
            w, r, u = 0, 0, 20
        log.sample(k, VDA + [loop0(sched, ra)], mounts(nobarrier, extra), w * speed, r * speed,
                   a, u)
        for kind, obj, key, old, new, more in events:
            log.event(k, kind, obj, key, old, new, **more)
        if k == 35 and user_mark:   # a user mark 0.4 s after sample 35: inside the next interval
            log.event(k, "mark", "user", "mark", "", "untar started", by="user", at=400_000_000)
        if k == 62:   # ioscope sets read_ahead_kb right at the sample
            log.event(k, "tunable", "loop0", "read_ahead_kb", "128", "4096", by="ioscope",
                      result="ok")


def probe(path):
    log = Log(path, "probe")
    log.header(VDA + [loop0("mq-deadline")], mounts(False, False))
    for k in range(21):
        busy = 6 <= k < 14
        log.sample(k, VDA + [loop0("mq-deadline")], mounts(False, False), 200 if busy else 0, 0,
                   8, 900 if busy else 20)
        rec = {"type": "probe", "seq": k + 1, "read_us": [], "exec_us": []}
        if k and k < 16:
            base = 2000 + 700 * (k % 5) if busy else 300 + 20 * (k % 4)
            rec["read_us"] = [base + 11 * j for j in range(4)]
            rec["exec_us"] = [20 * base + 3] if k % 2 else []
        if k == 9:
            rec["errors"], rec["stalled_us"] = 1, 1_500_000
        log.out.write(dumps(rec) + "\n")
        if k == 5:
            log.event(k, "mark", "user", "mark", "", "untar", by="user")
        if k == 15:   # inside the next interval: left out of every phase
            log.event(k, "mark", "user", "mark", "", "sync", by="user", at=400_000_000)


def pair(path, which):
    """A command on one device: loop0 (ext4, mq-deadline) or loop1 (xfs, bfq, slower)."""
    a = which == "a"
    dev, minor, sched = ("loop0", 0, "mq-deadline") if a else ("loop1", 1, "bfq")
    mnt = {"major": 7, "minor": minor, "disk": dev, "source": "/dev/" + dev,
           "mountpoint": "/mnt/a" if a else "/mnt/b", "fstype": "ext4" if a else "xfs",
           "mount_opts": "rw,relatime",
           "super_opts": "rw" if a else "rw,attr2,inode64,logbufs=8,logbsize=32k,noquota"}
    root = mounts(False, False)[:1]
    log = Log(path, "bench", dev, [dev])
    devices = VDA + [loop0(sched, name=dev, minor=minor)]
    log.header(devices, root + [mnt])
    for k in range(21):
        busy = 2 <= k < 18
        rmtree = k >= 12
        w = (30 if rmtree else 120) * (1.0 if a else 0.8) if busy else 0
        log.sample(k, devices, root + [mnt], w, 0, (4 if a else 6) + k % 3, 800 if busy else 10)
        if k == 1:
            log.event(k, "run", "run", "start", "", "workloads/untar-rmtree.sh .", by="ioscope",
                      result="pid=4242 output=/tmp/run.out", at=500_000_000)
        if k == 12:
            log.event(k, "mark", "user", "mark", "", "rmtree", by="ioscope")
        if k == 18:
            log.event(k, "run", "run", "exit", "", "0 (16.50 s)", by="ioscope",
                      result="status=0 elapsed_s=16.500", at=0)


def dd_mark(path, step=1):
    """`ioscope mark dd; dd ... count=64 oflag=direct` at 1 s: every byte of the dd is in the
    interval the mark falls in, left out of both phases.  At 0.5 s (step): the mark 0.1 s
    after sample 20, the dd over that interval and the next two (2, 32 and 30 MiB)."""
    log = Log(path, "bench")
    log.step = step
    log.header(VDA + [loop0("mq-deadline")], mounts(False, False))
    at = 10 if step == 1 else 20
    burst = {at + 1: 64} if step == 1 else {at + 1: 4, at + 2: 64, at + 3: 60}
    for k in range(25 if step == 1 else 50):
        w = burst.get(k, 0)
        log.sample(k, VDA + [loop0("mq-deadline")], mounts(False, False), w, 0,
                   3, 400 if w else 10)
        if k == at:
            log.event(k, "mark", "user", "mark", "", "dd", by="user", at=100_000_000)


def close_marks(path):
    """Marks "a" and "b" 0.3 s after samples 5 and 6: the phase "a" opens has no interval of
    its own (its one interval is left out at "b")."""
    log = Log(path, "bench")
    log.header(VDA + [loop0("mq-deadline")], mounts(False, False))
    for k in range(15):
        log.sample(k, VDA + [loop0("mq-deadline")], mounts(False, False), 8, 0, 3, 300)
        if k in (5, 6):
            log.event(k, "mark", "user", "mark", "", "ab"[k - 5], by="user", at=300_000_000)


def steps(path, extra):
    """Marks "read" (64 MiB read) and "write" (128 MiB written), twice, each on a sample,
    12 s apart; extra: a second "write" right after the first (a retry), one more phase."""
    log = Log(path, "bench-extra" if extra else "bench")
    log.header(VDA + [loop0("mq-deadline")], mounts(False, False))
    plan = ["read", "write"] + (["write"] if extra else []) + ["read", "write"]
    marks = {2 + 12 * i: text for i, text in enumerate(plan)}
    text = None
    for k in range(3 + 12 * len(plan)):
        if k in marks:
            text = marks[k]
        busy = text and 1 <= (k - 2) % 12 <= 8
        r, w = (8, 0) if text == "read" else (0, 16)
        log.sample(k, VDA + [loop0("mq-deadline")], mounts(False, False), w if busy else 0,
                   r if busy else 0, 3, 300 if busy else 10)
        if k in marks:
            log.event(k, "mark", "user", "mark", "", text, by="user")


def low_util(path):
    """Four phases cut by nr_requests changes seen at samples (64, 128, 256, 512), each
    writing 64 MiB at 8 MiB/s and 4.5 %util: below the busy threshold."""
    log = Log(path, "bench")
    def devices(nr):
        d = loop0("mq-deadline")
        d["settings"]["items"]["nr_requests"] = nr
        return VDA + [d]
    nrs = ["64", "128", "256", "512"]
    log.header(devices(nrs[0]), mounts(False, False))
    for k in range(48):
        p = k // 12
        busy = 2 <= k % 12 <= 9
        log.sample(k, devices(nrs[p]), mounts(False, False), 8 if busy else 0, 0, 3,
                   45 if busy else 0)
        if k and k % 12 == 0:
            log.event(k, "tunable", "loop0", "nr_requests", nrs[p - 1], nrs[p])


def straddle(path, which):
    """The same 128 MiB written after a mark "dd": in A over four intervals, in B straddling
    the samples (a quarter of a second later), over five."""
    log = Log(path, "bench" if which == "a" else "bench-later")
    log.header(VDA + [loop0("mq-deadline")], mounts(False, False))
    burst = [32, 32, 32, 32] if which == "a" else [16, 32, 32, 32, 16]
    for k in range(21):
        w = burst[k - 6] if 6 <= k < 6 + len(burst) else 0
        log.sample(k, VDA + [loop0("mq-deadline")], mounts(False, False), w, 0, 3,
                   w * 25 if w else 10)
        if k == 5:
            log.event(k, "mark", "user", "mark", "", "dd", by="user")


def day(path):
    log = Log(path, "day")
    log.step = 10
    sched = "mq-deadline"
    log.header(VDA + [loop0(sched)], mounts(False, False))
    for k in range(8640):
        switch = k and k % 2160 == 0
        if switch:
            sched = "bfq" if sched == "mq-deadline" else "mq-deadline"
        w = (80 if sched == "bfq" else 200) if k % 4 else 0
        log.sample(k, VDA + [loop0(sched)], mounts(False, False), w, 0, 8 + k % 5, 900 if w else 20)
        if switch:
            old = "bfq" if sched == "mq-deadline" else "mq-deadline"
            log.event(k, "scheduler", "loop0", "scheduler", old, sched, resets=resets_of(old, sched))


def resets_of(old, new):
    """A switch's resets between loop0's settings under scheduler old and under new."""
    a, b = loop0(old)["settings"]["items"], loop0(new)["settings"]["items"]
    return {k: [a.get(k), b.get(k)] for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)
            and (k == "nr_requests" or k.startswith("iosched."))}


def busy(path):
    log = Log(path, "busy")
    sched, ra, nobarrier = "mq-deadline", "128", False
    log.header(VDA + [loop0(sched, ra)], mounts(nobarrier, False))
    old_style = "ok; reset: iosched.fifo_batch 16 -> -, iosched.slice_idle - -> 8, nr_requests 256 -> 64"
    # sample: (kind, object, key, old, new, by, result); ioscope's changes echo at the next one
    plan = {4: [("mark", "user", "mark", "", "warm up", "user", "")],
            8: [("scheduler", "loop0", "scheduler", "mq-deadline", "bfq", "ioscope", old_style)],
            9: [("tunable", "loop0", "read_ahead_kb", "128", "1024", "ioscope", "ok")],
            10: [("mark", "user", "mark", "", "untar", "user", "")],
            11: [("mark", "user", "mark", "", "sync", "user", "")],
            16: [("mount_options", "/mnt/bench", "super_opts", "rw", "rw,nobarrier", "observed", "")],
            17: [("mark", "user", "mark", "", "rm -rf", "user", "")],
            22: [("scheduler", "loop0", "scheduler", "bfq", "mq-deadline", "ioscope", "ok")],
            23: [("tunable", "loop0", "read_ahead_kb", "1024", "128", "ioscope", "ok"),
                 ("mark", "user", "mark", "", "untar again", "user", "")],
            24: [("mark", "user", "mark", "", "sync again", "user", "")],
            30: [("mark", "user", "mark", "", "a mark whose text is long enough to be cut "
                  "on every narrow screen it is shown on, and in batch text", "user", "")],
            31: [("mark", "user", "mark", "", "done", "user", "")]}
    echo = []
    for k in range(41):
        for ev in echo:   # the setting as the sample shows it: ioscope's change seen
            if ev[0] == "scheduler":
                sched = ev[4]
            elif ev[0] == "tunable":
                ra = ev[4]
        here = plan.get(k, [])
        if any(ev[0] == "mount_options" for ev in here):
            nobarrier = True
        w = 80 if sched == "bfq" else 200
        log.sample(k, VDA + [loop0(sched, ra)], mounts(nobarrier, False), w if k % 5 else 0,
                   0, 8 + k % 3, 900 if k % 5 else 20)
        for kind, obj, key, old, new, by, result in echo:
            extra = {"resets": resets_of(old, new)} if kind == "scheduler" else {}
            log.event(k, kind, obj, key, old, new, **extra)
        echo = []
        for kind, obj, key, old, new, by, result in here:
            extra = {"resets": resets_of(old, new)} if kind == "scheduler" else {}
            log.event(k, kind, obj, key, old, new, by=by, result=result,
                      at=300_000_000 if kind == "mark" else None, **extra)
            if by == "ioscope":
                echo.append((kind, obj, key, old, new, by, result))


def pipeline(path):
    """Where the log and a replay of its samples could tell two stories: a switch logged
    without the resets its samples show, ioscope's change logged with its echo."""
    log = Log(path, "pipeline")
    sched, ra = "mq-deadline", "128"
    log.header(VDA + [loop0(sched, ra)], mounts(False, False))
    for k in range(10):
        if k == 3:
            sched = "bfq"
        if k == 6:
            ra = "4096"
        log.sample(k, VDA + [loop0(sched, ra)], mounts(False, False), 200 if k % 4 else 0, 0,
                   8, 900)
        if k == 3:   # as a writer before events carried resets logged a switch
            log.event(k, "scheduler", "loop0", "scheduler", "mq-deadline", "bfq")
        if k == 5:
            log.event(k, "tunable", "loop0", "read_ahead_kb", "128", "4096", by="ioscope",
                      result="ok", at=300_000_000)
        if k == 6:   # its echo, seen by the next sample
            log.event(k, "tunable", "loop0", "read_ahead_kb", "128", "4096")
        if k == 7:
            log.event(k, "mark", "user", "mark", "", "done", by="user", at=300_000_000)


if __name__ == "__main__":
    what, out = sys.argv[1], sys.argv[2]
    if what == "phases":
        phases(out)
    elif what == "other":
        phases(out, host="bench-6.19", speed=1.1, user_mark=False)
    elif what == "day":
        day(out)
    elif what == "probe":
        probe(out)
    elif what == "dd-mark":
        dd_mark(out)
    elif what == "dd-mark-half":
        dd_mark(out, 0.5)
    elif what == "close-marks":
        close_marks(out)
    elif what == "low-util":
        low_util(out)
    elif what in ("straddle-a", "straddle-b"):
        straddle(out, what[-1])
    elif what in ("steps", "steps-extra"):
        steps(out, what == "steps-extra")
    elif what in ("pair-a", "pair-b"):
        pair(out, what[-1])
    elif what == "busy":
        busy(out)
    elif what == "pipeline":
        pipeline(out)
    else:
        sys.exit("usage: report_log_gen.py phases|other|day|probe|dd-mark|dd-mark-half|steps|steps-extra|close-marks|low-util|straddle-a|straddle-b|pair-a|pair-b|busy|pipeline FILE")
