#!/usr/bin/env python3
"""Writes a synthetic session log (docs/session-log.md) the way the recorder does:
N samples, one a second, of NDEV busy disks, a scheduler switch on the first disk
every hour (a devices record and an event).  Used to time the replay index on a
day-long recording: session_log_gen.py 86400 16 FILE.  A fifth argument GONE makes the
last disk, the busiest, leave after sample GONE (a devices record without it and a
device_removed event), as a hot-plugged disk does; a sixth, ARRIVE, makes it appear only
at sample ARRIVE (a device_added event)."""
import sys, json
n, ndev, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
gone = int(sys.argv[4]) if len(sys.argv) > 4 else None
arrive = int(sys.argv[5]) if len(sys.argv) > 5 else 0
names = [f"sd{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(ndev)]
def dev(name, sched):
    return {"name": name, "major": 8, "minor": 16 * names.index(name), "partition": False, "parent": "",
            "dm_name": "", "model": "QEMU HARDDISK", "serial": "", "settings": {"present": True,
            "scheduler_line": "none [mq-deadline] kyber bfq".replace("[mq-deadline]", "mq-deadline").replace(sched, f"[{sched}]"),
            "scheduler": sched, "rotational": 1, "items": {"nr_requests": "256", "read_ahead_kb": "128", "write_cache": "write back"}}}
def devices_record(present, sched):
    """The switch is the first disk's: the others stay on mq-deadline."""
    return json.dumps({"type": "devices", "devices": [dev(d, sched if d == names[0] else "mq-deadline")
                                                      for d in present]}, separators=(",", ":")) + "\n"
t0, w0 = 5_000_000_000_000, 1_732_900_000_000_000_000
out = open(path, "w")
hdr = {"type": "header", "format": "ioscope-session-log", "version": 1, "ioscope": "0.1.0", "host": "big", "kernel": "6.1.0",
       "kernel_version": "#1", "arch": "x86_64", "cpu_model": "Fake CPU", "cpus": 16, "mem_total_kb": 65000000,
       "started": w0, "devices": [dev(d, "mq-deadline") for d in (names[:-1] if arrive else names)], "mounts": []}
out.write(json.dumps(hdr, separators=(",", ":")) + "\n")
sched = "mq-deadline"
base = [1_000_000_000 + 7919 * i for i in range(17)]
for k in range(n):
    mono, wall = t0 + k * 1_000_000_000 + (k * 7) % 1000, w0 + k * 1_000_000_000 + (k * 13) % 1000
    if k and k % 3600 == 0:
        old, sched = sched, ("bfq" if sched == "mq-deadline" else "mq-deadline")
        out.write(devices_record(names, sched))
    if gone is not None and k == gone:
        names_now = names[:-1]
        out.write(devices_record(names_now, sched))
    if arrive and k == arrive:
        out.write(devices_record(names, sched))
    present = names[:-1] if (gone is not None and k >= gone) or k < arrive else names
    devs = ",".join('{"name":"%s","nf":20,"c":[%s],"inflight":[0,%d]}' % (d, ",".join(str(b + k * (i + j + 1) * 97) for j, b in enumerate(base)), k % 4)
                    for i, d in enumerate(names) if d in present)
    out.write('{"type":"sample","seq":%d,"mono":%d,"wall":%d,"devices":[%s],"vm":{"stat":[%s],"vmstat":[%d,%d,0,0],"meminfo":[%s],"psi":[0.12,0.05,%d,%d]}}\n'
              % (k + 1, mono, wall, devs, ",".join(str(100000 + k * (j + 3)) for j in range(14)), 10 * k, 99 * k,
                 ",".join(str(50000000 - k % 1000 + j) for j in range(8)), 1000 * k, 500 * k))
    if arrive and k == arrive:
        out.write(json.dumps({"type": "event", "seq": k + 1, "mono": mono, "wall": wall, "kind": "device_added",
                              "object": names[-1], "key": "device", "old": "", "new": "added", "result": "",
                              "by": "observed"}, separators=(",", ":")) + "\n")
    if gone is not None and k == gone:
        out.write(json.dumps({"type": "event", "seq": k + 1, "mono": mono, "wall": wall, "kind": "device_removed",
                              "object": names[-1], "key": "device", "old": "present", "new": "removed", "result": "",
                              "by": "observed"}, separators=(",", ":")) + "\n")
    if k and k % 3600 == 0:
        out.write(json.dumps({"type": "event", "seq": k + 1, "mono": mono, "wall": wall, "kind": "scheduler", "object": names[0],
                              "key": "scheduler", "old": old, "new": sched, "result": "", "by": "observed"}, separators=(",", ":")) + "\n")
