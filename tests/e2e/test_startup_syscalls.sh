#!/bin/bash
# What a one-sample batch (`--batch -f json -c 1`) asks of the kernel, counted with strace
# (issue 39; docs/performance.md, start-up).  It opened every knob of every disk at start,
# a loop device with nothing attached included, each open followed by fstat and two fcntl
# (the O_NONBLOCK of the regular-file check cleared): 839 openat, 1,268 fcntl and 642 close
# on a machine of 27 disks.  Now a file of the live /proc or /sys is one openat with
# O_CLOEXEC (regular_file_openat_kernel), and a disk with no medium opens its size alone.
#
# The calls are counted per device (the files below /sys/block/NAME and
# /sys/class/block/NAME, relative opens followed through their directory's descriptor), so
# the test does not depend on how many devices the machine has.  Each bound is what the
# code may open for that device, as the machine shows it, every open closed once (openat +
# close: 2 a file):
#   a whole disk with a medium: 5 directories (the disk's, queue, bdi, loop,
#     queue/iosched), 4 gauges (scheduler, rotational, inflight, size), its knobs (the
#     sampled rows of knob_table[]: 14, 18 on a loop device with a file; fine and coarse
#     bdi ratios never both), the tunables its elevator lists in queue/iosched, what its
#     description reads (device/model, device/serial, serial; a loop device's
#     backing_file, and with a file dio, offset, sizelimit; the udev database's two where
#     udevd runs), and 4 fcntl (glibc's fdopendir asks two of each listing of
#     queue/iosched, listed again after a switch): 61 to 68 calls here;
#   a loop device with no file: 0 (it is not in /proc/partitions, read once for all of
#     them; each one's size and loop/backing_file cost 4 calls before: 160 on a machine
#     with 40 unused loop devices);
#   any other device (a disk with no medium, a partition): 4, its size opened and closed
#     and loop/backing_file tried;
#   the rest, the run's own, 45: the 6 shared libraries and ld.so.cache, /proc's diskstats,
#     partitions, mountinfo, stat, vmstat, meminfo, pressure/io (opened in one call each, as the live
#     kernel's), the runtime directory, cgroup.controllers; and 12 a journaled filesystem
#     (ext4, xfs, btrfs on a device): ext4's statistics opened again each sample (jbd2 copies
#     them at open) and its thread found through journal_task, xfs's log files and the
#     mount point's geometry, btrfs's commit_stats.
# The journals' files were opened twice a run (closed when the batch chose its devices, the
# same set) and each open followed by F_SETFL: 20 to 28 calls a journal, 162 calls on CI's
# machine with 5 mounted; 87 on this one with 6 (2 ext4, 2 xfs, 1 btrfs and the root) now.
# Before the change an empty loop device cost ~65 calls and a disk ~100-150: both fail, and
# so does a disk whose every open is followed by an fcntl again (~30 more).  On a shared
# machine another user's losetup sends a uevent that makes ioscope describe every device
# again: the run with the fewest calls of three is judged.
. "$(dirname "$0")/lib.sh"
needs "start-up system calls" strace python3

# A disk with no medium, when the machine has none: a loop device of our own, attached and
# detached at once (the cleanup detaches only what still holds our file).
has_empty() {
	local s
	for s in /sys/block/*/size; do [ "$(cat "$s" 2>/dev/null)" = 0 ] && return 0; done
	return 1
}
if ! has_empty && is_root; then
	truncate -s 1M "$TMP/empty.img"
	at_exit "losetup -nO NAME -j '$TMP/empty.img' | xargs -r -n1 losetup -d"
	dev=$(losetup --find --show "$TMP/empty.img") && losetup -d "$dev"
fi

# Two ext4 filesystems of our own, the costliest journal to read, so that the bound of a
# journal is judged whatever else is mounted (the root's journal alone did not show the
# double opens).
if is_root; then
	for n in 1 2; do
		loop=$(make_loop 32) && make_fs "$loop" ext4 >/dev/null ||
			{ fail "an ext4 of our own" "make_loop/make_fs failed"; exit 0; }
	done
fi

# census FILE: for each name of /proc/diskstats "NAME SIZE TUNABLES LOOP" (SIZE in sectors,
# -1: no /sys/block/NAME, a partition; TUNABLES: files in queue/iosched; LOOP: 0 not a loop
# device, 1 one without a file, 2 with one), then "journals N": ext4, xfs and btrfs mounts
# of a device.
census() {
	python3 - >"$1" <<'PY'
import os
for line in open("/proc/diskstats"):
    name = line.split()[2]
    sys_dir = f"/sys/block/{name.replace('/', '!')}"
    try:
        size = int(open(f"{sys_dir}/size").read())
    except (OSError, ValueError):
        size = -1
    try:
        tunables = len(os.listdir(f"{sys_dir}/queue/iosched"))
    except OSError:
        tunables = 0
    loop = 0
    if name.startswith("loop") and size >= 0:
        loop = 2 if os.path.exists(f"{sys_dir}/loop/backing_file") else 1
    print(name, size, tunables, loop)
journals = 0
for line in open("/proc/self/mountinfo"):
    fstype, source = line.split(" - ", 1)[1].split()[:2]
    journals += fstype in ("ext4", "xfs", "btrfs") and source.startswith("/dev/")
print("journals", journals)
PY
}

run_traced() {
	strace -f -qq -e trace=openat,open,fcntl,close -o "$TMP/st.$1" \
		"$IOSCOPE_OPT" --batch -f json -c 1 -i 0.01 >"$TMP/out.$1" 2>"$TMP/err.$1"
}

census "$TMP/census.before"
for n in 1 2 3; do
	if ! run_traced "$n"; then
		fail "one-sample batch under strace" "exit $?: $(head -c 300 "$TMP/err.$n")"
		exit 0
	fi
	clean_stderr "$TMP/err.$n" ||
		{ fail "one-sample batch: clean stderr" "$(head -c 300 "$TMP/err.$n")"; exit 0; }
done
census "$TMP/census.after"

# judge TRACE...: the calls of each device and of the rest against their bounds, for the
# run with the fewest calls; prints the figures, then "FAIL what" lines.
python3 - "$TMP/census.before" "$TMP/census.after" "$TMP"/st.[123] >"$TMP/judged" <<'PY'
import os, re, sys
OTHER, OWN, JOURNAL = 4, 45, 12
UDEV = os.path.isdir("/run/udev/data")

def census(path):
    disks, journals = {}, 0
    for line in open(path):
        f = line.split()
        if f[0] == "journals":
            journals = int(f[1])
        else:
            disks[f[0]] = tuple(int(x) for x in f[1:])
    return disks, journals

def bound(name, before, after):
    """What the code may ask for this device (the header): the larger of before and after."""
    seen = [d[name] for d in (before, after) if name in d]
    # a loop device with no file in both censuses: /proc/partitions tells, nothing opened
    best = 0 if seen and all(size == 0 and loop == 1 for size, _, loop in seen) else OTHER
    for size, tunables, loop in seen:
        if size <= 0:
            continue
        knobs = 18 if loop == 2 else 14
        described = {0: 3 + 2 * UDEV, 1: 1, 2: 4}[loop]
        best = max(best, 2 * (5 + 4 + knobs + tunables + described) + 4)
    if not any(name in d for d in (before, after)):
        best = 2 * (5 + 4 + 18 + 10 + 5) + 4   # came and went between the censuses
    return best

def device_of(path):
    m = re.match(r"/sys/(?:block|class/block)/([^/]+)", path or "")
    return m.group(1).replace("!", "/") if m else None

CALL = re.compile(r"\d+\s+(openat|open|fcntl|close)\((.*)\)\s+=\s+(-?\d+)")
OPENAT = re.compile(r'(AT_FDCWD|\d+), "((?:[^"\\]|\\.)*)"')

def count(trace):
    fds, per, own = {}, {}, 0
    calls = {"openat": 0, "fcntl": 0, "close": 0}
    no_cloexec = []
    for line in open(trace):
        m = CALL.match(line)
        if not m:
            continue
        call, args, ret = m.group(1), m.group(2), int(m.group(3))
        if call in ("openat", "open"):
            calls["openat"] += 1
            if call == "openat":
                o = OPENAT.match(args)
                base = "" if not o or o.group(1) == "AT_FDCWD" else fds.get(int(o.group(1)), "?")
                path = o.group(2) if o else "?"
            else:
                base, path = "", args.split('"')[1]
            full = path if path.startswith("/") else base + "/" + path
            if ret >= 0:
                fds[ret] = full
                if "O_CLOEXEC" not in args:
                    no_cloexec.append(full)
        else:
            calls[call] += 1
            fd = int(args.split(",")[0])
            full = fds.get(fd)
            if call == "close":
                fds.pop(fd, None)
        dev = device_of(full)
        if dev:
            per[dev] = per.get(dev, 0) + 1
        else:
            own += 1
    return calls, per, own, no_cloexec

before, j1 = census(sys.argv[1])
after, j2 = census(sys.argv[2])
journals = max(j1, j2)
runs = [count(t) for t in sys.argv[3:]]
calls, per, own, no_cloexec = min(runs, key=lambda r: sum(r[0].values()))
total = sum(calls.values())
names = set(before) | set(after) | set(per)
bounds = {n: bound(n, before, after) for n in names}
medium = [n for n in names if bounds[n] > OTHER]
ceiling = OWN + JOURNAL * journals + sum(bounds.values())
on_devices = sum(per.values())
print(f"# {len(names)} devices ({len(medium)} whole disks with a medium), {journals} journaled "
      f"filesystems: {calls['openat']} openat, {calls['fcntl']} fcntl, {calls['close']} close "
      f"= {total} (ceiling {ceiling}); {on_devices / len(names):.1f} a device on average, "
      f"{own} the run's own")
print("# disks with a medium, calls/bound: " +
      ", ".join(f"{n} {per.get(n, 0)}/{bounds[n]}" for n in sorted(medium)))
worst = sorted(per.items(), key=lambda kv: kv[1] - bounds[kv[0]], reverse=True)[:3]
print("# nearest their bound: " + ", ".join(f"{n} {c}/{bounds[n]}" for n, c in worst))
over = [f"{n} {c} > {bounds[n]}" for n, c in per.items() if c > bounds[n]]
if over:
    print("FAIL devices " + "; ".join(over[:6]))
if own > OWN + JOURNAL * journals:
    print(f"FAIL own {own} > {OWN + JOURNAL * journals}")
if no_cloexec:
    print("FAIL cloexec " + "; ".join(no_cloexec[:3]))
PY
grep '^#' "$TMP/judged"
for what in devices own cloexec; do
	case $what in
	devices) name="one-sample batch: openat + fcntl + close of each device within its bound" ;;
	own) name="one-sample batch: the run's own openat + fcntl + close within 45 (+12 a journal)" ;;
	cloexec) name="one-sample batch: every file opened O_CLOEXEC" ;;
	esac
	line=$(grep "^FAIL $what " "$TMP/judged")
	[ -z "$line" ] && ok "$name" || fail "$name" "${line#FAIL $what }"
done
[ -s "$TMP/judged" ] || fail "one-sample batch: the trace judged" "no output"

# The knobs are still read where they are shown: every whole disk that had a medium before
# and after the runs has its settings in the output, one that had none has null (nothing of
# it was opened but its size).
bad=$(python3 - "$TMP/out.1" "$TMP/census.before" "$TMP/census.after" <<'PY'
import json, sys
doc = json.loads(open(sys.argv[1]).read().splitlines()[-1])
def sizes(path):
    return dict((l.split()[0], int(l.split()[1])) for l in open(path) if not l.startswith("journals"))
before, after = sizes(sys.argv[2]), sizes(sys.argv[3])
bad, judged = [], 0
for name, d in doc["devices"].items():
    a, b = before.get(name, -1), after.get(name, -1)
    if a < 0 or b < 0 or (a > 0) != (b > 0):
        continue   # a partition, or attached or detached meanwhile
    judged += 1
    settings = d.get("settings")
    if a > 0 and not (isinstance(settings, dict) and "nr_requests" in settings and d["scheduler"]):
        bad.append(f"{name}: size {a}, settings {str(settings)[:60]}")
    if a == 0 and settings is not None:
        bad.append(f"{name}: no medium, settings {str(settings)[:60]}")
print("; ".join(bad) if bad or judged else "no whole disk in the output")
PY
)
what="settings of the disks with a medium, none of the empty ones"
[ -z "$bad" ] && ok "$what" || fail "$what" "$bad"
