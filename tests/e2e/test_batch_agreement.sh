#!/bin/bash
# Agreement with the reference tools on the real kernel: a direct-I/O writer on a loop
# device, ioscope --batch beside `iostat -x -y -d 1` and `vmstat 1` over the same seconds;
# what they count over the run must agree: writes, kB, flushes and bo in total, w_await
# weighted by the writes, aqu-sz and %util in the mean.  The writer runs for a few seconds
# in the middle of the tools' ten: each tool's windows then hold all of its I/O, wherever
# their boundaries fall (a steady writer over all ten seconds made the means depend on a
# start-up delay of ioscope's or iostat's, which a loaded machine stretches).
. "$(dirname "$0")/lib.sh"
is_root || { skip "agreement with iostat and vmstat" "needs root for a loop device"; exit 0; }
command -v iostat >/dev/null || { fail "iostat installed"; exit 1; }

N=10
dev=$(make_loop 256) || { fail "loop device"; exit 1; }
# KiB written to the other devices: vmstat's bo is system-wide, and where ioscope's and
# vmstat's one-second windows fall apart, what other tests beside this one wrote meanwhile
# is in one total and not the other (their GB/s writers made 17 % of difference)
others_kib() { awk -v d="$dev" '$3 != d { s += $10 } END { printf "%.0f", s / 2 }' /proc/diskstats; }
others0=$(others_kib)
"$IOSCOPE" --batch -i 1 -c $N -f json "$dev" >"$TMP/ioscope.json" 2>"$TMP/ioscope.err" &
p1=$!
# iostat and vmstat at a real-time priority: each arms its next second when woken, so a
# loaded machine lengthens their intervals by however late they are woken, and rates
# summed over longer intervals count fewer writes (in one full make check iostat's summed
# 10 % under ioscope's, whose deadlines are absolute)
rt=()
chrt -f 1 true 2>/dev/null && rt=(chrt -f 1)
"${rt[@]}" iostat -x -y -d -o JSON 1 $N "$dev" >"$TMP/iostat.json" &
p2=$!
"${rt[@]}" vmstat 1 $((N + 1)) >"$TMP/vmstat.txt" &
p3=$!
# the writer once each tool has its first interval: a loaded machine started the sanitized
# ioscope after the writer had begun, and its sums missed a third of the writes
has_lines() { [ "$(grep -c "$2" "$1" 2>/dev/null)" -ge "$3" ]; }
wait_until 20 "$p1" has_lines "$TMP/ioscope.json" . 1 &&
	wait_until 20 "$p2" has_lines "$TMP/iostat.json" '"disk"' 1 &&
	wait_until 20 "$p3" has_lines "$TMP/vmstat.txt" . 4 ||
	fail "the three tools start" "$(cat "$TMP/ioscope.err")"
# 64 KiB direct writes, with a flush (conv=fsync) at the end of each 1 MiB burst.
timeout 4 bash -c "while :; do dd if=/dev/zero of=/dev/$dev bs=64k count=16 oflag=direct conv=fsync status=none; done"
wait $p1; rc=$?
wait $p2 $p3
others=$(( $(others_kib) - others0 ))
[ $rc -eq 0 ] && clean_stderr "$TMP/ioscope.err" && ok "ioscope ran beside iostat and vmstat" ||
	fail "ioscope ran beside iostat and vmstat" "rc=$rc $(cat "$TMP/ioscope.err")"

python3 - "$TMP" "$dev" "$others" <<'PY'
import json, sys
tmp, dev, others = sys.argv[1], sys.argv[2], int(sys.argv[3])
json_rows = [json.loads(l) for l in open(f"{tmp}/ioscope.json")]
ours = json_rows
ref = json.load(open(f"{tmp}/iostat.json"))["sysstat"]["hosts"][0]["statistics"]
ref = [next(d for d in s["disk"] if d["disk_device"] == dev) for s in ref]
vm = [l.split() for l in open(f"{tmp}/vmstat.txt") if l.strip()[:1].isdigit()][1:]
mean = lambda xs: sum(xs) / len(xs)
def check(name, a, b, rel, floor):
    good = abs(a - b) <= max(rel * max(abs(a), abs(b)), floor)
    print(("ok " if good else "not ok ") + f"{name} agrees: ioscope {a:.2f} reference {b:.2f}")
print(f"# samples: ioscope {len(ours)} iostat {len(ref)} vmstat {len(vm)}")
ours = [o["devices"][dev] for o in ours]
pick = lambda d, key: d[key.replace("%", "")] if key.replace("%", "") in d else d[key]
total = lambda rows, key: sum(pick(d, key) for d in rows)
def weighted(rows, key, by):
    n = total(rows, by)
    return sum(pick(d, key) * pick(d, by) for d in rows) / n if n else 0
for key, rel, floor in [("w/s", 0.05, 1), ("wkB/s", 0.05, 64), ("f/s", 0.10, 0.5)]:
    check(key + " over the run", total(ours, key), total(ref, key), rel, floor)
check("w_await weighted by writes", weighted(ours, "w_await", "w/s"), weighted(ref, "w_await", "w/s"),
      0.10, 0.05)
for key, rel, floor in [("aqu-sz", 0.10, 0.02), ("%util", 0.05, 2)]:
    check(key + " in the mean", mean([pick(d, key) for d in ours]), mean([pick(d, key) for d in ref]),
          rel, floor)
print(f"# KiB written to other devices meanwhile: {others}")
check("bo over the run", sum(o["vm"]["bo"] for o in json_rows), sum(float(v[9]) for v in vm), 0.10,
      max(200 * len(vm), others / 2))
check("wkB/s is non-zero", 1 if total(ours, "wkB/s") > 100 else 0, 1, 0, 0)
PY
