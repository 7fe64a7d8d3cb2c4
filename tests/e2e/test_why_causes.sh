#!/bin/bash
# A why you can trust (issue 24): known causes planted on loop devices of our own, on a
# machine whose other disks are busy too (a steady writer on another loop device, a writer
# stuck on a frozen xfs of a third), each checked against what ioscope says:
#  (a) `ioscope set DEV nr_requests=4 max_sectors_kb=4` under a steady writer: the dip's
#      first reason is that change, with the figures before and after;
#  (b) the watched device's writer ends while another device's writer is stuck: no dip,
#      nothing names the stuck writer but the "elsewhere" line of --tasks;
#  (c) the watched device's own filesystem frozen: the dip names its frozen writers and
#      not the other device's;
#  (d) a shell that ran dd: its rates stay near zero after dd ended (/proc/PID/io adds a
#      reaped child's bytes to its parent).
# The recordings replay to the same JSON byte for byte: a dip's reasons are logged.
# run.sh: early (among the longest: started first)
. "$(dirname "$0")/lib.sh"
is_root || { skip why_causes "needs root (loop devices, mounts, fsfreeze)"; exit 0; }

# no_sanitizer NAME FILE: the run's stderr holds no sanitizer report
no_sanitizer() {
	! grep -qE 'Sanitizer|runtime error' "$2" || fail "$1: sanitizer" "$(head -20 "$2")"
}

# replays NAME: the recording of NAME replays to NAME's JSON, byte for byte.  A change
# announced by `ioscope set` is shown by batch with the sample after it and by a replay
# with the sample before it (src/record/replay.c, event_sample): only those are left out.
# What a sample saw of such a change while its write was being made is held and dropped as
# its echo, live and in the replay alike (the announcement is recorded).
replays() {
	"$IOSCOPE" --replay "$TMP/$1.log" --batch --tasks -f json >"$TMP/$1.replay.json" 2>"$TMP/$1.replay.err"
	no_sanitizer "$1 replay" "$TMP/$1.replay.err"
	local strip='import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    d["events"] = [e for e in d["events"] if e["by"] != "ioscope"]
    print(json.dumps(d, ensure_ascii=False, sort_keys=True))'
	python3 -c "$strip" "$TMP/$1.json" >"$TMP/$1.cmp"
	python3 -c "$strip" "$TMP/$1.replay.json" >"$TMP/$1.replay.cmp"
	if cmp -s "$TMP/$1.cmp" "$TMP/$1.replay.cmp" && grep -q '"kind": "dip"' "$TMP/$1.replay.cmp" ||
	   { [ "$2" = no-dip ] && cmp -s "$TMP/$1.cmp" "$TMP/$1.replay.cmp"; }; then
		ok "$1: the replay gives every reason again, byte for byte"
	else fail "$1: the replay gives every reason again, byte for byte" \
		"$(json_lines_diff "$TMP/$1.cmp" "$TMP/$1.replay.cmp")"; fi
}

# --- other disks are busy: a steady writer nobody watches, a writer stuck on a frozen xfs ---
busy=$(make_loop 256) || { fail "busy loop device" "make_loop"; exit 0; }
busy_writer "$busy" 300
b=$(make_loop 320) && mb=$(make_fs "$b" xfs) || { fail "xfs loop to freeze" "cannot make it"; exit 0; }
pwrite_loop "$mb/stuck"
stuck=$BG_PID
for _ in $(seq 100); do [ -s "$mb/stuck" ] && break; sleep 0.1; done
# thawed before the writer is killed and waited for (the cleanups run last first)
fsfreeze -f "$mb" && at_exit "fsfreeze -u '$mb'"

# --- (a) a setting change under a steady writer ---
# 1 MiB direct writes: cut into 4 KiB requests with 4 tags, several times slower
# The change takes effect before its write returns, as under load when the kernel drains a
# frozen queue: strace holds the return of the max_sectors_kb write (the one that slows
# the writer) for 1.5 s, so the dip begins, and is seen, before the changes' events come.
a=$(make_loop 320) || { fail "loop device" "make_loop"; exit 0; }
set_held() {
	local msk
	msk=$(readlink -f "/sys/block/$a/queue/max_sectors_kb")
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" strace -f -o "$TMP/set.strace" -P "$msk" \
		-e trace=write -e inject=write:delay_exit=1500000:when=1 \
		"$IOSCOPE" set "$a" nr_requests=4 max_sectors_kb=4 >"$TMP/set.out" 2>&1 ||
		fail "change: ioscope set" "$(cat "$TMP/set.out")"
	grep -q '= 1 (DELAYED)$' "$TMP/set.strace" ||
		fail "change: the max_sectors_kb write held" "$(cat "$TMP/set.strace")"
}
change_run() {
	bg timeout 20 bash -c "while :; do dd if=/dev/zero of=/dev/$a bs=1M count=256 oflag=direct status=none; done"
	local writer=$BG_PID
	"$IOSCOPE" --batch --tasks -f json -i 0.5 -c 26 --record "$TMP/change.log" "$a" \
		>"$TMP/change.json" 2>"$TMP/change.err" &
	local run=$!
	sleep 7
	echo "$EPOCHREALTIME" >"$TMP/set.time"
	set_held
	wait $run
	local rc=$?
	kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
	return $rc
}
# change_check: "ok", "bad REASONS", "none" (no dip seen), or "early": the dip began before
# the changes were announced (a sample already below half, as when the host took the
# writer's CPU), so they are rightly not its cause but its second reason, as made in the
# dip, or the writer fell below half before the set began; the planted cause was spoiled
change_check() {
	python3 - "$TMP/change.json" "$a" "$(cat "$TMP/set.time")" "$TMP/change.log" <<'PY'
import json, re, statistics, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
events = [e for d in lines for e in d["events"]]
sets = [e for e in events if e["kind"] == "tunable" and e["key"] in ("nr_requests", "max_sectors_kb")]
dips = [e for e in events if e["kind"] == "dip" and e["object"] == sys.argv[2]
        and sets and e["time"] >= float(sys.argv[3])]   # seen after the set began
if not dips:
    print("none")
    sys.exit()
records = [json.loads(l) for l in open(sys.argv[4])]
announced = min([r["wall"] / 1e9 for r in records if r["type"] == "announced"] or [0])   # 0: none
kBs = lambda d: sum(d["devices"][sys.argv[2]][k] for k in ("rkB/s", "wkB/s", "dkB/s"))
before = [kBs(d) for d in lines if d["time"] <= float(sys.argv[3])][-20:]
first = dips[0]["reasons"][0]
print("# the dip's first reason: " + first, file=sys.stderr)
cause = re.match(r"^[0-9.]+ s after (.*): [0-9.]+→[0-9.]+ MB/s", first)
# both announced before the dip began: named as made ("nr_requests 128→4") or, when the
# dip is seen before their events come, as being made ("nr_requests →4 (being made)")
named = lambda key, text: re.search(key + r" ([0-9]+→4|→4 \(being made\))(,|$)", text)
both = lambda text: named("nr_requests", text) and named("max_sectors_kb", text)
if cause and both(cause.group(1)):
    print("ok")
    sys.exit()
# the host's own drop before the set began (in a quiet full run: 800 MB/s to 320 in the
# 1.5 s before it, the set announced 2.8 s later): the dip seen first is that one, rightly
# without the changes, and the planted cause was spoiled
if any(float(sys.argv[3]) - 2 <= d["time"] <= float(sys.argv[3])
       and kBs(d) < statistics.median(before) / 2 for d in lines):
    print("early")
    sys.exit()
# what a failure is read from: the samples around the set, seconds from its start
for d in lines:
    if d["time"] > float(sys.argv[3]) - 2:
        print("# %+.2f s %.0f MB/s %s" % (d["time"] - float(sys.argv[3]), kBs(d) / 1024,
              [(e["kind"], e["key"], round(e["time"] - float(sys.argv[3]), 2)) for e in d["events"]]),
              file=sys.stderr)
print("# announced at %+.2f s" % (announced - float(sys.argv[3])) if announced else "# nothing announced",
      file=sys.stderr)
into = [r for r in dips[0]["reasons"][1:2] if re.match(r"^[0-9.]+ s into the dip, ", r)]
# a dip reported before either change was made cannot name them (in a quiet full run the set
# announced 1.7 s after it began, the writer down to 155 MB/s from 1100 at +0.1 s, the dip
# said at +0.6, the changes made at +2.4 and +4.1)
made = min(e["time"] for e in sets)
if any(float(sys.argv[3]) < d["time"] <= announced and kBs(d) < statistics.median(before) / 2
         for d in lines) and (dips[0]["time"] < made or (into and both(into[0]))):
    print("early")   # the changes said second, as made in the dip, or not made yet
else:
    print("bad %r" % dips[0]["reasons"])
PY
}
restore() { echo 128 >"/sys/block/$a/queue/nr_requests" 2>/dev/null; cat "/sys/block/$busy/queue/max_sectors_kb" >"/sys/block/$a/queue/max_sectors_kb"; }
# a machine too busy to see the drop, or one that slowed the writer just before the change:
# up to three runs
for try in 1 2 3; do
	[ "$try" = 1 ] || { restore; rm -f "$TMP/change.log"; sleep 1; }   # --record never writes over a log
	change_run; rc=$?; out=$(change_check)
	no_sanitizer "change (run $try)" "$TMP/change.err"
	[ "$rc" = 0 ] || break   # a run that failed is no spoiled one
	case $out in none|early) echo "# change: run $try: $out" ;; *) break ;; esac
done
[ "$rc" = 0 ] && [ "$out" = ok ] && ok "change: the dip's first reason is the change, with before and after" \
	|| fail "change: the dip's first reason is the change, with before and after" "rc=$rc $out"
# one drop is one dip: no second one on the device until its throughput is back above half
again=$(python3 - "$TMP/change.json" "$a" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev = sys.argv[2]
kBs = lambda d: sum(d["devices"][dev][k] for k in ("rkB/s", "wkB/s", "dkB/s"))
base = None
for d in lines:
    if base is not None and kBs(d) >= base / 2:
        base = None   # recovered
    for e in d["events"]:
        if e["kind"] == "dip" and e["object"] == dev:
            if base is not None:
                print("%s again, at %.1f MB/s" % (e["label"], kBs(d) / 1024))
            base = float(e["old"]) * 1024
PY
)
[ -z "$again" ] && ok "change: one drop is one dip, while it lasts" || fail "change: one drop is one dip, while it lasts" "$again"
replays change dip

# --- (b) the watched device's writer ends; another device's writer is stuck ---
e=$(make_loop 320) || { fail "loop device" "make_loop"; exit 0; }
bg timeout 6 bash -c "while :; do dd if=/dev/zero of=/dev/$e bs=1M count=64 oflag=direct status=none; done"
ender=$BG_PID
"$IOSCOPE" --batch --tasks -f json -i 0.5 -c 22 --record "$TMP/ends.log" "$e" >"$TMP/ends.json" 2>"$TMP/ends.err" &
run=$!
wait $ender
ended=$(date +%s.%N)
wait $run; rc=$?
no_sanitizer "ends" "$TMP/ends.err"
out=$(python3 - "$TMP/ends.json" "$e" "$ended" "$b" "$stuck" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev, ended, other = sys.argv[2], float(sys.argv[3]), sys.argv[4]
dips = [e for d in lines for e in d["events"] if e["kind"] == "dip"]
late = [e for e in dips if e["time"] > ended]
named = [r for e in dips for r in e["reasons"] if "python3" in r or other in r]
stuck = [b for d in lines for b in d["tasks"]["blocked"] if b["pid"] == int(sys.argv[5])]
print("ok" if not late and not named and stuck and all(b["devices"][:1] == [other] for b in stuck)
      else "late dips %r, reasons naming the other device %r, stuck %r" % (late, named, stuck[:2]))
PY
)
[ "$rc" = 0 ] && [ "$out" = ok ] && ok "ends: a workload that ends is no dip; the stuck writer is another device's" \
	|| fail "ends: a workload that ends is no dip; the stuck writer is another device's" "rc=$rc $out"
replays ends no-dip
"$IOSCOPE" --batch --tasks -i 0.3 -c 1 "$e" >"$TMP/ends.txt" 2>"$TMP/ends-text.err"
# The line names four groups at most: on a machine where other disks are busy too (the
# other tests beside this one), the stuck writer may be past them, behind "...".
grep -qE "^blocked on $e: 0 tasks in D state" "$TMP/ends.txt" &&
	grep -qE "^  elsewhere: [0-9]+ blocked \((.*python3 on $b|([^,]+, ){4}\.\.\.\))" "$TMP/ends.txt" \
	&& ok "ends: --tasks $e says its own blocked tasks, then the stuck writer elsewhere" \
	|| fail "ends: --tasks $e says its own blocked tasks, then the stuck writer elsewhere" \
		"$(sed -n '/^blocked/,/^dirty/p' "$TMP/ends.txt")"

# --- (c) the watched device's own filesystem frozen ---
f=$(make_loop 320) && mf=$(make_fs "$f" xfs) || { fail "xfs loop for the freeze" "cannot make it"; exit 0; }
for w in a b; do
	bg timeout 14 bash -c "while :; do dd if=/dev/zero of='$mf/$w' bs=256k count=40 oflag=direct status=none; done"
done
at_exit "fsfreeze -u '$mf'"
"$IOSCOPE" --batch --tasks -f json -i 0.5 -c 14 --record "$TMP/frozen.log" "$f" >"$TMP/frozen.json" 2>"$TMP/frozen.err" &
run=$!
sleep 4; frozen=$(date +%s.%N); fsfreeze -f "$mf"; sleep 2.5; fsfreeze -u "$mf"; thawed=$(date +%s.%N)
wait $run; rc=$?
no_sanitizer "frozen" "$TMP/frozen.err"
out=$(python3 - "$TMP/frozen.json" "$f" "$frozen" "$thawed" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev, frozen, thawed = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
dips = [e for d in lines for e in d["events"] if e["kind"] == "dip" and e["object"] == dev]
during = [e for e in dips if frozen < e["time"] <= thawed + 0.6]
mine = [b for d in lines for b in d["tasks"]["blocked"] if b["comm"] == "dd" and b["devices"][:1] == [dev]]
good = len(during) == 1 and any("dd" in r and "task" in r for r in during[0]["reasons"]) and \
       not any("python3" in r for e in dips for r in e["reasons"]) and mine
print("ok" if good else "dips %r, dd attributed to %s: %d" % (dips, dev, len(mine)))
PY
)
[ "$rc" = 0 ] && [ "$out" = ok ] && ok "frozen: the dip names the frozen writers, not the other device's" \
	|| fail "frozen: the dip names the frozen writers, not the other device's" "rc=$rc $out"
replays frozen dip

# --- (d) a shell that ran dd: the child's bytes are not the shell's ---
r=$(make_loop 320) && mr=$(make_fs "$r" ext4) || { fail "ext4 loop" "cannot make it"; exit 0; }
"$IOSCOPE" --batch --tasks -f json -i 0.5 -c 14 "$r" >"$TMP/reaped.json" 2>"$TMP/reaped.err" &
run=$!
sleep 1.5
bash -c "dd if=/dev/zero of='$mr/f' bs=64k count=3200 oflag=direct status=none; sleep 5; true" &
sh=$!
at_exit "kill $sh"
wait $run; rc=$?
wait $sh
no_sanitizer "reaped" "$TMP/reaped.err"
out=$(python3 - "$TMP/reaped.json" "$r" "$sh" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev, sh = sys.argv[2], int(sys.argv[3])
written = sum(d["devices"][dev]["wkB/s"] * d["interval"] for d in lines)
shell = [p["wkB/s"] + p["rkB/s"] for d in lines for p in d["tasks"]["io"] if p["pid"] == sh]
print("ok" if written > 100000 and all(v < 1024 for v in shell)
      else "written %.0f kB on %s; the shell's kB/s %r" % (written, dev, shell))
PY
)
[ "$rc" = 0 ] && [ "$out" = ok ] && ok "reaped: the shell's rates stay near zero after its dd ended" \
	|| fail "reaped: the shell's rates stay near zero after its dd ended" "rc=$rc $out"
