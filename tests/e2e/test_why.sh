#!/bin/bash
# The why figures (docs/metrics.md, "Why"): exact figures from the fixture tree why/ (dirty
# limits, jbd2 by Δ(count×avg)/Δcount, xfs log, btrfs commits, cgroup v2 io.stat and
# io.pressure), the live "absent" path of cgroup io on this machine, and on loop devices of
# our own: a file-creation loop with fsync moves the jbd2 figures on ext4 and the log figures
# on xfs, and a replay of the recording gives the same figures byte for byte.
# run.sh: early (among the longest: started first)
. "$(dirname "$0")/lib.sh"
needs "why" python3
F="$IOSCOPE_TOP/tests/fixtures"

# ---- the fixture tree ----
if "$IOSCOPE" --batch -f json --root "$F/why" >"$TMP/fx.json" 2>"$TMP/fx.err" && [ ! -s "$TMP/fx.err" ]; then
	ok "fixture why: exit 0, nothing on stderr"
else fail "fixture why: exit 0, nothing on stderr" "$(cat "$TMP/fx.err")"; fi
python3 - "$TMP/fx.json" "$(getconf PAGESIZE)" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
kb = int(sys.argv[2]) // 1024
def check(name, got, want):
    good = got == want
    print(("ok " if good else "not ok ") + "fixture why: " + name + ("" if good else f": {got!r}, want {want!r}"))
vm = d["vm"]
check("dirty limits read, not computed", [vm["dirty_threshold"], vm["dirty_background_threshold"], vm["dirty_freerun"]],
      [50000.0 * kb, 25000.0 * kb, 37500.0 * kb])
check("dirtied and written kB/s", [vm["dirtied"], vm["written"]], [2560.0 * kb, 2500.0 * kb])
j = d["journals"]
check("journal keys", sorted(j), ["/mnt/b", "/mnt/e", "/mnt/x"])
check("ext4: commits/s, Δ(count×avg)/Δcount", j["/mnt/e"],
      {"fs": "ext4", "device": "vdb1", "commits/s": 5.0, "commit_ms": 80.0, "blocks/commit": 42.0, "wait_ms": 13.0,
       "commit_running_s": None})
check("xfs: log figures, no fill without the log size", j["/mnt/x"],
      {"fs": "xfs", "device": "vdc", "log_writes/s": 200.0, "log_forces/s": 100.0, "log_force_sleeps/s": 10.0,
       "logspace_sleeps/s": 10.0, "push_ail/s": 30.0, "log_used_pct": None,
       "commit_running_s": None})
check("btrfs: commits/s and commit_ms", j["/mnt/b"], {"fs": "btrfs", "device": "vdd", "commits/s": 2.0, "commit_ms": 100.0})
c = d["cgroups"]
check("cgroup io controller found", c["io"], "ok")
check("cgroups that did I/O, empty io.stat left out", sorted(c["groups"]), ["/app", "/app/web"])
check("io.stat per device", c["groups"]["/app"]["devices"], {"252:0": {"rkB/s": 1024.0, "wkB/s": 2048.0, "r/s": 100.0, "w/s": 200.0}})
check("io.pressure", [c["groups"]["/app"]["pressure_some_avg10"], c["groups"]["/app"]["pressure_full_avg10"]], [1.5, 0.75])
check("no pressure file: null", c["groups"]["/app/web"]["pressure_some_avg10"], None)
PY

# ---- cgroup io on this machine: found or said absent ----
cg=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
want=no-cgroup2
if [ -n "$cg" ]; then
	want=no-io-controller
	grep -qw io "$cg/cgroup.controllers" 2>/dev/null && want=ok
fi
io=$("$IOSCOPE" --batch -f json -c 1 -i 0.2 2>"$TMP/live.err" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["cgroups"]["io"])')
if [ "$io" = "$want" ] && [ ! -s "$TMP/live.err" ]; then ok "live cgroup io: $want"
else fail "live cgroup io: $want" "got '$io' $(cat "$TMP/live.err")"; fi

if ! is_root; then
	skip why_loop "needs root for loop devices and mounts"
	exit 0
fi

# churn MNT SECONDS: create and fsync small files, a journal commit each
churn() {
	fsync_churn "$1" "$2"
}

# watch NAME DEV MNT: 6 samples of 0.4 s while the churn runs, recorded, then replayed
watch() {
	local name=$1 dev=$2 mnt=$3
	churn "$mnt" 8
	"$IOSCOPE" --batch -f json -i 0.4 -c 6 --record "$TMP/$name.log" "$dev" >"$TMP/$name.json" 2>"$TMP/$name.err"
	local rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$TMP/$name.err" ]; then ok "$name: batch exit 0"
	else fail "$name: batch exit 0" "exit $rc: $(head -c 1500 "$TMP/$name.err")"; fi
	"$IOSCOPE" --replay "$TMP/$name.log" --batch -f json >"$TMP/$name.replay.json" 2>"$TMP/$name.replay.err"
	if cmp -s "$TMP/$name.json" "$TMP/$name.replay.json" && [ ! -s "$TMP/$name.replay.err" ]; then
		ok "$name: the replay gives the same why figures"
	else fail "$name: the replay gives the same why figures" "$(head -c 1000 "$TMP/$name.replay.err") $(diff "$TMP/$name.json" "$TMP/$name.replay.json" | head -c 1500)"; fi
}

# moved NAME MNT KEY...: every KEY is given (and a rate > 0) in 3 intervals or more of
# the 6 for the journal at MNT: the files are read again each sample, not once
moved() {
	python3 - "$TMP/$1.json" "$2" "${@:3}" <<'PY'
import json, sys
rows = [json.loads(l)["journals"].get(sys.argv[2]) for l in open(sys.argv[1])]
for key in sys.argv[3:]:
    vals = [r.get(key) for r in rows if r]
    good = sum(v is not None and (v > 0 or not key.endswith("/s")) for v in vals) >= 3
    print(("ok " if good else "not ok ") + f"journal {sys.argv[2].rsplit('/', 1)[-1]}: {key} moves" + ("" if good else f": {vals}"))
PY
}

e=$(make_loop 200) && me=$(make_fs "$e" ext4) || { fail "ext4 loop" "cannot make it"; exit 0; }
watch ext4 "$e" "$me"
moved ext4 "$me" "commits/s" "commit_ms" "blocks/commit"

x=$(make_loop 320) && mx=$(make_fs "$x" xfs) || { fail "xfs loop" "cannot make it"; exit 0; }
watch xfs "$x" "$mx"
moved xfs "$mx" "log_writes/s" "log_forces/s" "log_used_pct"

# ---- a dip: direct-I/O writers on an xfs that is frozen (fsfreeze -f) for 2.5 s ----
# The writers block in D on the freeze with nothing in flight: the blocked tasks are the
# work the device still has, and the dip names them.  The replay shows the logged dip.
f=$(make_loop 320) && mf=$(make_fs "$f" xfs) || { fail "xfs loop for the freeze" "cannot make it"; exit 0; }
at_exit "fsfreeze -u '$mf'"
for w in a b; do
	bg timeout 14 bash -c "while :; do dd if=/dev/zero of='$mf/$w' bs=256k count=40 oflag=direct status=none; done"
done
"$IOSCOPE" --batch --tasks -f json -i 0.5 -c 14 --record "$TMP/freeze.log" "$f" >"$TMP/freeze.json" 2>"$TMP/freeze.err" &
pid=$!
at_exit "kill $pid"
sleep 4; fsfreeze -f "$mf"; sleep 2.5; fsfreeze -u "$mf"
wait "$pid"
rc=$?
[ "$rc" = 0 ] && ok "freeze: batch exit 0" || fail "freeze: batch exit 0" "exit $rc: $(head -c 1500 "$TMP/freeze.err")"
python3 - "$TMP/freeze.json" "$f" <<'PY'
import json, sys
dips = [e for l in open(sys.argv[1]) for e in json.loads(l)["events"] if e["kind"] == "dip"]
def check(name, cond, detail):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {detail}"))
check("freeze: one dip event on the frozen device", len(dips) == 1 and dips[0]["object"] == sys.argv[2], dips)
r = dips[0]["reasons"] if dips else []
check("freeze: the dip names the blocked writers", any("dd" in x and "task" in x for x in r), r)
check("freeze: label dip OLD→NEW MB/s: reasons", bool(dips) and dips[0]["label"].startswith("dip ") and " MB/s: " in dips[0]["label"], dips)
PY
"$IOSCOPE" --replay "$TMP/freeze.log" --batch --tasks -f json >"$TMP/freeze.replay.json" 2>"$TMP/freeze.replay.err"
if cmp -s "$TMP/freeze.json" "$TMP/freeze.replay.json"; then ok "freeze: the replay shows the logged dip, the same figures"
else fail "freeze: the replay shows the logged dip, the same figures" "$(diff "$TMP/freeze.json" "$TMP/freeze.replay.json" | head -c 1500)"; fi
n=$(grep -c '"kind":"dip"' "$TMP/freeze.log")
[ "$n" = 1 ] && ok "freeze: the dip is logged once" || fail "freeze: the dip is logged once" "$n in the log"

# ---- the why panels of the plot: dirty with its limit lines, blocked tasks, journals ----
# titles and legends are in the SVG's text layer; a panel the log has no figure for is left out
svg_texts() { grep -o '<text[^>]*>[^<]*</text>' "$1" | sed 's/<[^>]*>//g'; }
if "$IOSCOPE" report "$TMP/freeze.log" -f svg --metrics dirty,blocked,journal -o "$TMP/why.svg" 2>"$TMP/why.svg.err"; then
	svg_texts "$TMP/why.svg" >"$TMP/why.txt"
	for want in "system: dirty and writeback memory, MiB" background freerun \
		threshold "system: blocked tasks (D state)" "D tasks" throttled "$f: xfs log forces per second"; do
		grep -qxF "$want" "$TMP/why.txt" && ok "plot: '$want'" || fail "plot: '$want'" "$(head -c 800 "$TMP/why.txt")"
	done
	"$IOSCOPE" report "$TMP/ext4.log" -f svg --metrics blocked,journal -o "$TMP/e.svg" 2>"$TMP/e.svg.err"
	svg_texts "$TMP/e.svg" >"$TMP/e.txt"
	grep -qxF "$e: journal commit time, ms" "$TMP/e.txt" && ! grep -q "blocked tasks" "$TMP/e.txt" \
		&& ok "plot: the ext4 journal's commit time; no blocked panel in a log without tasks" \
		|| fail "plot: the ext4 journal's commit time; no blocked panel in a log without tasks" "$(head -c 800 "$TMP/e.txt") $(cat "$TMP/e.svg.err")"
elif grep -q cairo "$TMP/why.svg.err"; then skip "why plot" "no cairo here"
else fail "why plot runs" "$(cat "$TMP/why.svg.err")"; fi

# ---- writers throttled by the device's own limit: strict_limit and max_bytes on the
# loop device's bdi (put back afterwards; the global vm.dirty_* are never touched) ----
t=$(make_loop 200) && mt=$(make_fs "$t" ext4) || { fail "ext4 loop for throttling" "cannot make it"; exit 0; }
bdi=/sys/class/bdi/$(cat "/sys/block/$t/dev")
if [ ! -w "$bdi/max_bytes" ] || [ ! -w "$bdi/strict_limit" ]; then
	skip why_throttled "no $bdi/max_bytes or strict_limit on this kernel"
	exit 0
fi
at_exit "echo $(cat "$bdi/strict_limit") >'$bdi/strict_limit'; echo $(cat "$bdi/max_bytes") >'$bdi/max_bytes'"
echo 1 >"$bdi/strict_limit" && echo 1048576 >"$bdi/max_bytes"
bg timeout 12 bash -c "while :; do dd if=/dev/zero of='$mt/big' bs=1M count=100 status=none; done"
sleep 1
"$IOSCOPE" --batch --tasks -i 0.5 -c 10 "$t" >"$TMP/throttle.txt" 2>"$TMP/throttle.err"
if grep -q '^writers throttled: .* balance_dirty_pages' "$TMP/throttle.txt"; then ok "strict_limit: the writer shows as throttled"
else fail "strict_limit: the writer shows as throttled" "$(grep -E '^(dirty|writers|blocked|  *[0-9]+ task)' "$TMP/throttle.txt" | head -20)"; fi
