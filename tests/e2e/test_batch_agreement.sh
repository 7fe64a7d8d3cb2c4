#!/bin/bash
# Agreement with the reference tools on the real kernel: a steady direct-I/O writer on a
# loop device, ioscope --batch beside `iostat -x -y -d 1` and `vmstat 1` over the same
# seconds; the means of w/s, wkB/s, w_await, aqu-sz, %util, f/s and bo must agree.
. "$(dirname "$0")/lib.sh"
is_root || { skip "agreement with iostat and vmstat" "needs root for a loop device"; exit 0; }
command -v iostat >/dev/null || { fail "iostat installed"; exit 1; }

N=10
dev=$(make_loop 256) || { fail "loop device"; exit 1; }
# 64 KiB direct writes, with a flush (conv=fsync) at the end of each 1 MiB burst.
bg timeout 60 bash -c "while :; do dd if=/dev/zero of=/dev/$dev bs=64k count=16 oflag=direct conv=fsync status=none; done"
sleep 1
"$IOSCOPE" --batch -i 1 -c $N -f json "$dev" >"$TMP/ioscope.json" 2>"$TMP/ioscope.err" &
p1=$!
iostat -x -y -d -o JSON 1 $N "$dev" >"$TMP/iostat.json" &
p2=$!
vmstat 1 $((N + 1)) >"$TMP/vmstat.txt" &
p3=$!
wait $p1; rc=$?
wait $p2 $p3
[ $rc -eq 0 ] && ok "ioscope ran beside iostat and vmstat" || fail "ioscope ran beside iostat and vmstat" "$(cat "$TMP/ioscope.err")"

python3 - "$TMP" "$dev" <<'PY'
import json, sys
tmp, dev = sys.argv[1], sys.argv[2]
ours = [json.loads(l) for l in open(f"{tmp}/ioscope.json")]
ref = json.load(open(f"{tmp}/iostat.json"))["sysstat"]["hosts"][0]["statistics"]
ref = [next(d for d in s["disk"] if d["disk_device"] == dev) for s in ref]
vm = [l.split() for l in open(f"{tmp}/vmstat.txt") if l.strip()[:1].isdigit()][1:]
mean = lambda xs: sum(xs) / len(xs)
def check(name, a, b, rel, floor):
    good = abs(a - b) <= max(rel * max(abs(a), abs(b)), floor)
    print(("ok " if good else "not ok ") + f"{name} agrees: ioscope {a:.2f} reference {b:.2f}")
print(f"# samples: ioscope {len(ours)} iostat {len(ref)} vmstat {len(vm)}")
for key, rel, floor in [("w/s", 0.05, 1), ("wkB/s", 0.05, 64), ("w_await", 0.10, 0.05),
                        ("aqu-sz", 0.10, 0.02), ("%util", 0.05, 2), ("f/s", 0.10, 0.5)]:
    a = mean([o["devices"][dev][key] for o in ours])
    b = mean([d[key.replace("%", "")] if key.replace("%", "") in d else d[key] for d in ref])
    check(key, a, b, rel, floor)
check("bo", mean([o["vm"]["bo"] for o in ours]), mean([float(v[9]) for v in vm]), 0.10, 200)
check("wkB/s is non-zero", 1 if mean([o["devices"][dev]["wkB/s"] for o in ours]) > 100 else 0, 1, 0, 0)
PY
