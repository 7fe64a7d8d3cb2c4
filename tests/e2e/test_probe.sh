#!/bin/bash
# run.sh: alone: it compares probe latencies, idle and loaded
# The responsiveness probe (--probe): one timed 4 KiB read per probe interval that
# reaches the device.  On a loop device its latencies rise under a concurrent dsync
# writer (medians compared, with a generous margin: this shared machine is noisy, and
# it is the device that is timed, not ioscope).  Every sample is in batch JSON and in
# the session log, and the replay gives them back exactly.  A directory gets a working
# set that is removed afterwards.
. "$(dirname "$0")/lib.sh"
is_root || { skip "probe" "needs root for a loop device"; exit 0; }


dev=$(make_loop 128) || { fail "loop device"; exit 1; }

# probe_run NAME COMMAND...: the probe on /dev/$dev while COMMAND runs; prints the median
probe_run() {
	local name=$1; shift
	"$IOSCOPE" run --batch -f json -i 0.5 --linger 0 --probe "/dev/$dev" --probe-interval 0.1 \
		--record "$TMP/$name.log" -- "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" || return 1
	clean_stderr "$TMP/$name.err" || return 1
	python3 -c '
import json, statistics, sys
v = [x for l in open(sys.argv[1], errors="surrogateescape") for x in json.loads(l)["probe"]["read_us"]]
print(int(statistics.median(v)) if len(v) >= 10 else -1)' "$TMP/$name.json"
}

# two dsync writers for three seconds
cat >"$TMP/writer.sh" <<EOF
w() { while :; do dd if=/dev/zero of=/dev/$dev bs=4M count=4 seek=16 oflag=dsync status=none; done; }
w & w & sleep 3; kill %1 %2; wait; exit 0
EOF
risen=""
for attempt in 1 2; do
	idle=$(probe_run idle sleep 3) || { fail "probe run (idle)" "$(cat "$TMP/idle.err")"; exit 0; }
	load=$(probe_run load bash "$TMP/writer.sh") \
		|| { fail "probe run (loaded)" "$(cat "$TMP/load.err")"; exit 0; }
	if [ "$idle" -gt 0 ] && [ "$load" -gt 0 ] && [ $((load * 4)) -gt $((idle * 5)) ]; then
		risen=yes
		break
	fi
done
[ -n "$risen" ] && ok "probe latency rises under a dsync writer (median $idle -> $load us)" \
	|| fail "probe latency rises under a dsync writer" "median idle $idle us, loaded $load us"

# Every sample is in the log, and the replay gives them back exactly.  (Not the whole
# line: a run's marks, made between two samples, replay with the sample before them.)
"$IOSCOPE" --replay "$TMP/load.log" --batch -f json >"$TMP/replay.json" 2>"$TMP/replay.err"
probes() { python3 -c 'import json,sys
for l in open(sys.argv[1], errors="surrogateescape"): print(json.dumps(json.loads(l)["probe"]))' "$1"; }
[ "$(probes "$TMP/load.json")" = "$(probes "$TMP/replay.json")" ] && [ -n "$(probes "$TMP/load.json")" ] \
	&& clean_stderr "$TMP/replay.err" && ok "replay reproduces the probe samples exactly" \
	|| fail "replay reproduces the probe samples exactly" "$(diff <(probes "$TMP/load.json") <(probes "$TMP/replay.json") | head -5)"
python3 - "$TMP/load.log" "$TMP/load.json" <<'PY'
import json, sys
log, out = sys.argv[1:]
recs = [json.loads(l) for l in open(log, errors="surrogateescape")]
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {what}"))
samples = [r["seq"] for r in recs if r["type"] == "sample"]
probes = [r for r in recs if r["type"] == "probe"]
check("one probe record per sample, after it", [p["seq"] for p in probes] == samples, probes[:3])
logged = [x for p in probes for x in p["read_us"]]
shown = [x for l in open(out, errors="surrogateescape") for x in json.loads(l)["probe"]["read_us"]]
# the first sample (the baseline) is logged, not printed
check("the log keeps every sample batch printed", shown and logged[-len(shown):] == shown,
      (len(logged), len(shown)))
PY

# Text shows the probe line; a directory gets a working set, removed afterwards.
mnt=$(make_fs "$dev" ext4) || { fail "ext4 on $dev"; exit 1; }
"$IOSCOPE" --batch -i 0.5 -c 2 --probe "$mnt" --probe-interval 0.1 --probe-exec \
	>"$TMP/dir.txt" 2>"$TMP/dir.err"
rc=$?
[ $rc = 0 ] && clean_stderr "$TMP/dir.err" && grep -qE '^probe: [0-9]+ reads p50 [0-9]+ max [0-9]+ us; [0-9]+ starts? p50' "$TMP/dir.txt" \
	&& ok "probe on a directory, with cold starts, in batch text" \
	|| fail "probe on a directory, with cold starts, in batch text" "rc=$rc $(cat "$TMP/dir.err"; grep probe "$TMP/dir.txt")"
[ -z "$(ls -A "$mnt" | grep -v lost+found)" ] && ok "the probe's working set is removed" \
	|| fail "the probe's working set is removed" "$(ls -la "$mnt")"
"$IOSCOPE" --batch -c 1 --probe "$TMP/no-such-path" >/dev/null 2>"$TMP/bad.err"
rc=$?
[ $rc = 1 ] && grep -q "no-such-path: No such file" "$TMP/bad.err" && ok "a probe path that is not there is refused" \
	|| fail "a probe path that is not there is refused" "rc=$rc $(cat "$TMP/bad.err")"

# The report gives p50 / p99 / max of the probe per phase (the run's marks cut phases).
"$IOSCOPE" report "$TMP/load.log" >"$TMP/report.txt" 2>"$TMP/report.err"
rc=$?
n=$(grep -cE '^  probe +read +n [0-9]+ +p50 +[0-9.]+ +p99 +[0-9.]+ +max +[0-9.]+ ms$' "$TMP/report.txt")
# every phase with figures (two rows of them for our device) has its probe line; a phase
# begins at its mark, so the instants before the start and after the exit have none
phases=$(( $(grep -cE "^  $dev +[0-9]" "$TMP/report.txt") / 2 ))
[ $rc = 0 ] && [ "$n" -ge 1 ] && [ "$n" = "$phases" ] && clean_stderr "$TMP/report.err" \
	&& ok "report: probe p50/p99/max in each phase" \
	|| fail "report: probe p50/p99/max in each phase" "rc=$rc n=$n of $phases $(cat "$TMP/report.err")"
