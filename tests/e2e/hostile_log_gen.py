#!/usr/bin/env python3
"""Writes hostile session logs (docs/session-log.md, "Limits and refusals") into DIR:

  huge_numbers.log  PSI averages of 1e308, -1e308, 1e-300, counters at 2**64-1, samples
                    1 ns apart: every figure ioscope derives is as large as a log can make it
  escapes.log       a host, kernel, CPU, device, mount point, mark note and event values
                    holding ESC, BEL, CR, newlines, DEL and C1 bytes: fake lines and
                    terminal commands if printed raw
  long_line.log     one sample line of 2 MiB (over the 1 MiB line bound) between good ones
  churn.log         a day at 10 s (8640 samples) with N hot-plug events spread over it
                    (device_added/removed, marks): the event index's memory cost; only
                    written when N is given

hostile_log_gen.py DIR [N]"""
import json, os, sys

out_dir = sys.argv[1]
churn_n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
EVIL = "m\x1b]2;PWNED\x07\r\n---- 09:00:00 vda sched none->bfq (fake) ----\x7f\x9b31m"
EVIL_SHORT = "l\x1b]2;PW\x07\r\n---- 09:00 x ----\x7f"   # fits a device name (63 bytes)
T0, W0 = 1_000_000_000_000, 1_732_900_000_000_000_000


def dump(o):
    return json.dumps(o, separators=(",", ":"))


def device(name, sched="mq-deadline"):
    return {"name": name, "major": 7, "minor": 9, "partition": False, "parent": "", "dm_name": "",
            "model": "", "serial": "", "settings": {"present": True,
            "scheduler_line": "none [%s] bfq" % sched, "scheduler": sched, "rotational": 0,
            "items": {"nr_requests": "256", "write_cache": "write back"}}}


def header(devs, mounts, **machine):
    h = {"type": "header", "format": "ioscope-session-log", "version": 1, "ioscope": "0.1.0",
         "host": "h", "kernel": "6.1", "kernel_version": "#1", "arch": "x86_64",
         "cpu_model": "cpu", "cpus": 2, "mem_total_kb": 1000, "started": W0,
         "devices": devs, "mounts": mounts}
    h.update(machine)
    return dump(h)


def sample(seq, mono, wall, devs, psi=(0.5, 0.25, 0, 0), k=0):
    d = ",".join('{"name":%s,"nf":20,"c":[%s],"inflight":[0,0]}'
                 % (json.dumps(n), ",".join(str(c) for c in counters(k)))
                 for n, counters in devs)
    return ('{"type":"sample","seq":%d,"mono":%d,"wall":%d,"devices":[%s],"vm":{"stat":[%s],'
            '"vmstat":[1,2,0,0],"meminfo":[9,0,5,0,0,0,3,1],"psi":[%s,%s,%d,%d]}}'
            % (seq, mono, wall, d, ",".join(str(100 * seq + j) for j in range(14)),
               psi[0], psi[1], psi[2], psi[3]))


def event(seq, mono, wall, kind, obj, key, old, new, by="observed", **extra):
    return dump({"type": "event", "seq": seq, "mono": mono, "wall": wall, "kind": kind,
                 "object": obj, "key": key, "old": old, "new": new, "result": "", "by": by,
                 **extra})


def steady(k):
    return [1000 * k + j for j in range(17)]


def write(name, lines):
    with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def huge_numbers():
    top = 2**64 - 1
    psis = [(0.5, 0.25, 0, 0), ("1e308", "-1e308", top, top), ("1e-300", "1.7976931348623157e308", 0, 0),
            ("-0.0", "123456789012345678901234567890", top, 0), (0.5, 0.25, 1, 1)]
    counters = [lambda k: steady(k), lambda k: [top] * 17, lambda k: [0] * 17,
                lambda k: [top] * 17, lambda k: steady(k)]
    lines = [header([device("loop9")], [])]
    for i, (psi, c) in enumerate(zip(psis, counters)):
        lines.append(sample(i + 1, T0 + i, W0 + i, [("loop9", c)], psi=psi))
    write("huge_numbers.log", lines)


def escapes():
    name = EVIL_SHORT
    dev = device(name, sched="bfq" + EVIL_SHORT)
    dev["model"] = EVIL
    dev["settings"]["items"]["read_ahead_kb"] = EVIL
    mount = {"major": 7, "minor": 9, "disk": name, "source": "/dev/" + EVIL, "mountpoint": "/mnt/" + EVIL,
             "fstype": "ext4" + EVIL, "mount_opts": "rw," + EVIL, "super_opts": "rw"}
    lines = [header([dev], [mount], host="h" + EVIL, kernel="6.1" + EVIL,
                    kernel_version="#1" + EVIL, arch="x" + EVIL, cpu_model="cpu" + EVIL)]
    for i in range(4):
        lines.append(sample(i + 1, T0 + i * 10**9, W0 + i * 10**9, [(name, steady)], k=i))
        lines.append(event(i + 1, T0 + i * 10**9, W0 + i * 10**9, "mark", name, "note", "", EVIL, by="user"))
        # a switch's resets (their own line in batch text, "resets ..." in reports)
        resets = {"iosched.q\x1b]2;PW\x07": ["16" + EVIL_SHORT, None],
                  "nr_requests": ["64", "2\x1b[31m\r\n---- forged ----"]}
        lines.append(event(i + 1, T0 + i * 10**9, W0 + i * 10**9, "scheduler", name, "scheduler",
                           "bfq" + EVIL, "none" + EVIL, by="ioscope", resets=resets))
        # a kind of a later revision: its name is printed by --verbose
        lines.append(event(i + 1, T0 + i * 10**9, W0 + i * 10**9, "k\x1b]2;PW\x07", name, "x",
                           "", ""))
        lines.append(event(i + 1, T0 + i * 10**9, W0 + i * 10**9, "mount_options", "/mnt/" + EVIL,
                           "mount_opts", "rw", "ro" + EVIL, by="ioscope"))
    write("escapes.log", lines)


def long_line():
    lines = [header([device("loop9")], [])]
    for i in range(4):
        lines.append(sample(i + 1, T0 + i * 10**9, W0 + i * 10**9, [("loop9", steady)], k=i))
        if i == 1:   # a sample head, then 2 MiB of padding in a key the reader ignores
            pad = "x" * (2 << 20)
            lines.append('{"type":"sample","seq":99,"mono":%d,"wall":%d,"pad":"%s"}'
                         % (T0 + i * 10**9 + 5, W0 + i * 10**9 + 5, pad))
    write("long_line.log", lines)


def churn():
    lines = [header([device("loop9")], [])]
    nsamples = 8640
    per = -(-churn_n // nsamples)
    for i in range(nsamples):
        mono, wall = T0 + i * 10**10, W0 + i * 10**10
        lines.append(sample(i + 1, mono, wall, [("loop9", steady)], k=i))
        for j in range(min(per, churn_n - i * per)):
            kind = ("device_added", "device_removed", "mark")[j % 3]
            lines.append('{"type":"event","seq":%d,"mono":%d,"wall":%d,"kind":"%s","object":"loop%d"}'
                         % (i + 1, mono, wall, kind, j % 256))
    write("churn.log", lines)


huge_numbers()
escapes()
long_line()
if len(sys.argv) > 2:
    churn()
