#!/bin/bash
# The Prometheus exposition (docs/fleet.md): promtool accepts --format prometheus,
# --textfile and --listen; node_exporter's textfile collector reads the file without
# error; the file is replaced whole; --listen negotiates its two formats with exact
# Content-Types and a stuck client does not stop sampling; bad paths and ports are
# said before sampling, exit 1, nothing written; every family is in docs/fleet.md.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"

if ! is_root; then
	skip prometheus_export "needs root for loop devices"
	exit 0
fi
for tool in promtool prometheus-node-exporter curl; do
	command -v "$tool" >/dev/null || { skip prometheus_export "$tool not installed (make test-deps)"; exit 0; }
done
DEV=$(make_loop 16) || { fail "loop device"; exit 1; }

# ---- --format prometheus ----
"$IOSCOPE" --batch -f prometheus -i 0.1 -c 1 "$DEV" >"$TMP/batch.prom" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/err" && ok "batch prometheus runs" || fail "batch prometheus runs" "exit $rc: $(head -c 500 "$TMP/err")"
out=$(promtool check metrics <"$TMP/batch.prom" 2>&1) && ok "promtool: --format prometheus" ||
	fail "promtool: --format prometheus" "$out"
grep -q "^ioscope_setting_changes_total{device=\"$DEV\",kind=\"scheduler\",by=\"observed\"} 0$" "$TMP/batch.prom" &&
	ok "change counters exist from the first exposition" || fail "change counters exist from the first exposition"
grep -q "^ioscope_disk_utilization_ratio{device=\"$DEV\"} " "$TMP/batch.prom" && ok "iostat gauges" || fail "iostat gauges"
"$IOSCOPE" --batch -f prometheus --no-iostat -i 0.1 -c 1 "$DEV" >"$TMP/noiostat.prom" 2>"$TMP/err"
! grep -q "^ioscope_disk_utilization_ratio" "$TMP/noiostat.prom" && grep -q "^ioscope_disk_scheduler_info" "$TMP/noiostat.prom" &&
	ok "--no-iostat leaves out the iostat gauges" || fail "--no-iostat leaves out the iostat gauges"
"$IOSCOPE" --batch -f prometheus -i 0.1 -c 3 "$DEV" >"$TMP/three.prom" 2>"$TMP/err"
[ "$(grep -c '^# TYPE ioscope_build_info ' "$TMP/three.prom")" = 3 ] && ok "one exposition per interval" ||
	fail "one exposition per interval" "$(grep -c '^# TYPE ioscope_build_info ' "$TMP/three.prom")"

# A hostile mount point (quote, backslash, newline, a byte that is no UTF-8) keeps the
# exposition valid: Prometheus would drop the whole scrape otherwise.
DEV2=$(make_loop 16) || { fail "second loop device"; exit 1; }
HOSTILE="$TMP/mnt \"q\" \\x"$'\n'$'\xff'
mkdir "$HOSTILE"
if mkfs_ext4 "/dev/$DEV2" >/dev/null 2>&1 && mount "/dev/$DEV2" "$HOSTILE"; then
	at_exit 'umount -l "$HOSTILE"'   # the name has a newline: expanded when run
	"$IOSCOPE" --batch -f prometheus -i 0.1 -c 1 "$DEV2" >"$TMP/hostile.prom" 2>"$TMP/err"
	out=$(promtool check metrics <"$TMP/hostile.prom" 2>&1) &&
		grep -q '^ioscope_mount_info{mountpoint=".*/mnt \\"q\\" \\\\x??",device="'"$DEV2"'"' "$TMP/hostile.prom" &&
		ok "a hostile mount point is escaped" ||
		fail "a hostile mount point is escaped" "$out $(grep mount_info "$TMP/hostile.prom" | head -2)"
else
	skip "a hostile mount point is escaped" "cannot make a filesystem"
fi

# ---- the why figures and the latency histograms: --tasks, --probe, --trace ----
# An ext4 on a loop device of our own, written to while sampled: promtool accepts the
# exposition, and each new family has its series.
DEV3=$(make_loop 64) || { fail "third loop device"; exit 1; }
if MNT3=$(make_fs "$DEV3" ext4); then
	TRACE=--trace
	"$IOSCOPE" --version | grep -q "tracing (--trace): built in" || TRACE=
	dd if=/dev/zero of="$MNT3/w" bs=64k count=400 oflag=direct,sync status=none &
	DD=$!
	at_exit "kill $DD"
	"$IOSCOPE" --batch -f prometheus -i 0.5 -c 1 --tasks --probe "$MNT3" --probe-interval 0.1 $TRACE "$DEV3" \
		>"$TMP/full.prom" 2>"$TMP/err"
	rc=$?
	wait "$DD"
	grep -v "delay accounting is off" "$TMP/err" >"$TMP/err2"
	[ "$rc" = 0 ] && quiet "$TMP/err2" && ok "batch prometheus with --tasks --probe${TRACE:+ --trace}" ||
		fail "batch prometheus with --tasks --probe${TRACE:+ --trace}" "exit $rc: $(head -c 500 "$TMP/err")"
	out=$(promtool check metrics <"$TMP/full.prom" 2>&1) && ok "promtool: --tasks --probe${TRACE:+ --trace}" ||
		fail "promtool: --tasks --probe${TRACE:+ --trace}" "$out"
	python3 - "$TMP/full.prom" "$DEV3" "$MNT3" "$TRACE" <<'PY'
import re, sys
text, dev, mnt, trace = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3], sys.argv[4]
series = {}
for line in text.splitlines():
    if line and not line.startswith("#"):
        name, value = line.rsplit(" ", 1)
        series[name] = float(value)
def check(name, good, detail=""):
    print(("ok " if good else "not ok ") + name + ("" if good else f": {detail}"))
def get(name):
    return series.get(name)
check("dirty threshold gauge > 0", (get("ioscope_dirty_threshold_bytes") or 0) > 0, get("ioscope_dirty_threshold_bytes"))
check("dirty counters", get("ioscope_dirtied_bytes_total") is not None and get("ioscope_dirty_written_bytes_total") is not None)
jl = f'{{mountpoint="{mnt}",device="{dev}",fstype="ext4"}}'
check("ext4 journal commits counter", get("ioscope_journal_commits_total" + jl) is not None,
      [k for k in series if "journal" in k])
check("blocked tasks: other is there with --tasks", get('ioscope_tasks_blocked{wchan="other"}') is not None)
check("dip counter from the first exposition", get(f'ioscope_dips_total{{device="{dev}"}}') == 0)
# every histogram: buckets cumulative, +Inf = _count
hists = {}
for name, v in series.items():
    m = re.match(r'(\w+)_bucket\{(.*?),?le="([^"]+)"\}$', name)
    if m:
        hists.setdefault((m.group(1), m.group(2)), []).append((float(m.group(3)), v))
bad = []
for (fam, labels), buckets in hists.items():
    les = [le for le, _ in buckets]
    counts = [c for _, c in buckets]
    count = series.get(f"{fam}_count{{{labels}}}" if labels else f"{fam}_count")
    if les != sorted(les) or les[-1] != float("inf") or counts != sorted(counts) or counts[-1] != count:
        bad.append((fam, labels))
check("histograms: cumulative buckets, +Inf equals _count", hists and not bad, bad[:3])
check("probe read histogram has the reads", (get("ioscope_probe_read_latency_seconds_count") or 0) > 0,
      get("ioscope_probe_read_latency_seconds_count"))
if trace:
    c = get(f'ioscope_disk_d2c_latency_seconds_count{{device="{dev}",direction="write"}}')
    check("trace D2C histogram counts the writes", (c or 0) > 0, c)
    check("trace Q2C histogram per direction",
          all(f'ioscope_disk_q2c_latency_seconds_count{{device="{dev}",direction="{d}"}}' in series
              for d in ("read", "write", "flush")))
else:
    print("skip trace histograms: this build has no tracing")
PY
	"$IOSCOPE" --batch -f prometheus -i 0.2 -c 1 "$DEV3" >"$TMP/notasks.prom" 2>"$TMP/err"
	! grep -q '^ioscope_tasks_blocked{' "$TMP/notasks.prom" && ! grep -q '^ioscope_probe_read_latency_seconds_count' "$TMP/notasks.prom" &&
		ok "no blocked tasks without --tasks, no probe without --probe" ||
		fail "no blocked tasks without --tasks, no probe without --probe"
else
	skip "batch prometheus with --tasks --probe --trace" "cannot make a filesystem"
	: >"$TMP/full.prom"
fi

# Every family is documented, with its iostat key.
missing=""
for name in $(sed -n 's/^# HELP \([a-z0-9_]*\) .*/\1/p' "$TMP/batch.prom" "$TMP/full.prom" | sort -u); do
	grep -q "\`$name\`" "$IOSCOPE_TOP/docs/fleet.md" || missing="$missing $name"
done
[ -z "$missing" ] && ok "every family is in docs/fleet.md" || fail "every family is in docs/fleet.md" "$missing"

# The Grafana dashboard asks only for families there are (a histogram's by its series),
# and has the panels of dirty memory against its limits and of the block latency.
unknown=""
for name in $(grep -oE 'ioscope_[a-z0-9_]+' "$IOSCOPE_TOP/contrib/grafana/ioscope.json" | sort -u); do
	family=$(sed -E 's/_(bucket|sum|count)$//' <<<"$name")
	case "$family" in *_[dq]2c_*) [ -n "${TRACE-}" ] || continue ;; esac   # a build without tracing
	grep -q "^# HELP $family " "$TMP/batch.prom" "$TMP/full.prom" || unknown="$unknown $name"
done
for name in ioscope_dirty_threshold_bytes ioscope_dirty_freerun_bytes ioscope_disk_d2c_latency_seconds_bucket; do
	grep -q "\"expr\": \"[^\"]*$name" "$IOSCOPE_TOP/contrib/grafana/ioscope.json" || unknown="$unknown (no panel of $name)"
done
python3 -m json.tool "$IOSCOPE_TOP/contrib/grafana/ioscope.json" >/dev/null && [ -z "$unknown" ] &&
	ok "the Grafana dashboard queries existing families" || fail "the Grafana dashboard queries existing families" "$unknown"

# ---- --textfile, read by node_exporter ----
mkdir "$TMP/textfile"
"$IOSCOPE" --textfile "$TMP/textfile/ioscope.prom" -i 0.1 -c 2 "$DEV" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/err" && [ ! -s "$TMP/out" ] && ok "--textfile writes nothing else" ||
	fail "--textfile writes nothing else" "exit $rc: $(head -c 500 "$TMP/err" "$TMP/out")"
out=$(promtool check metrics <"$TMP/textfile/ioscope.prom" 2>&1) && ok "promtool: --textfile" || fail "promtool: --textfile" "$out"
[ "$(ls "$TMP/textfile")" = ioscope.prom ] && ok "no temporary file left" || fail "no temporary file left" "$(ls "$TMP/textfile")"
NP=$(textfile_exporter "$TMP/textfile" "$TMP/ne.log")
if wait_http "http://127.0.0.1:$NP/metrics"; then
	curl -s "http://127.0.0.1:$NP/metrics" >"$TMP/ne.out"
	grep -q '^node_textfile_scrape_error 0$' "$TMP/ne.out" && ok "node_exporter reads the textfile: scrape error 0" ||
		fail "node_exporter reads the textfile: scrape error 0" "$(grep -E 'textfile|error' "$TMP/ne.out" "$TMP/ne.log" | head -5)"
	grep -q "^ioscope_disk_scheduler_info{device=\"$DEV\"" "$TMP/ne.out" && ok "node_exporter passes ioscope's series on" ||
		fail "node_exporter passes ioscope's series on"
else
	fail "node_exporter started" "$(tail -5 "$TMP/ne.log")"
fi

# ---- atomic replace: a reader never sees a part of the file ----
python3 - "$TMP/textfile/ioscope.prom" "$TMP/done" >"$TMP/reader.out" 2>&1 <<'PY' &
import os, sys
path, done = sys.argv[1], sys.argv[2]
reads = bad = 0
example = ""
while not os.path.exists(done):
    with open(path, "rb") as f:
        text = f.read()
    reads += 1
    lines = text.decode("utf-8", "replace").split("\n")
    if not (text.startswith(b"# HELP ioscope_build_info ") and text.endswith(b"\n")
            # the last family: its series, or only its header in the baseline exposition
            # (written before the first interval, when no device has figures yet)
            and (lines[-2].startswith("ioscope_disk_in_flight_requests{")
                 or lines[-2] == "# TYPE ioscope_disk_in_flight_requests gauge")):
        bad += 1
        example = repr(text[-80:])
ok = reads >= 20 and bad == 0
print(("ok" if ok else "not ok") + " a reader sees whole files only" +
      ("" if ok else f": {bad} of {reads} reads partial, e.g. {example}"))
PY
READER=$!
at_exit "kill $READER"
nap 0.5   # the reader is reading
"$IOSCOPE" --textfile "$TMP/textfile/ioscope.prom" -i 0.01 -c 200 "$DEV" 2>"$TMP/err"
rc=$?
touch "$TMP/done"
wait "$READER"
cat "$TMP/reader.out"
[ "$rc" = 0 ] && quiet "$TMP/err" && ok "textfile writer exit" || fail "textfile writer exit" "exit $rc: $(head -c 500 "$TMP/err")"

# The same, by the system calls: written to a new PATH.tmp.XXXXXX (O_EXCL, a name not
# used before), fsynced, renamed onto PATH; PATH itself is never opened for writing.  Each
# name is relative to PATH's directory, opened once (docs/security.md): the path itself
# is never looked up again.
if command -v strace >/dev/null; then
	strace -f -qq -e trace=openat,fsync,rename,renameat,renameat2 -o "$TMP/trace" \
		"$IOSCOPE_OPT" --textfile "$TMP/textfile/ioscope.prom" -i 0.05 -c 2 "$DEV" 2>"$TMP/err"
	python3 - "$TMP/trace" "$TMP/textfile/ioscope.prom" <<'PY'
import os, re, sys
trace, path = open(sys.argv[1]).read(), sys.argv[2]
base = os.path.basename(path)
writes_path = re.search(r'openat\([^"]*"(%s|%s)", O_(WRONLY|RDWR)' % (re.escape(path), re.escape(base)), trace)
by_path = re.search(r'"%s\.tmp' % re.escape(path), trace)
tmp = re.escape(base) + r'\.tmp\.\w{6}'
seq = re.findall(r'openat\((\d+), "(%s)", O_RDWR\|O_CREAT\|O_EXCL[^)]*\) = (\d+)\n.*?fsync\(\3\)\s*= 0\n.*?renameat2?\(\1, "\2", \1, "%s"' % (tmp, re.escape(base)), trace, re.S)
names = [name for d, name, fd in seq]
ok = not writes_path and not by_path and len(seq) >= 2 and len(set(names)) == len(names)
print(("ok" if ok else "not ok") + " textfile: temporary file, fsync, rename" +
      ("" if ok else ": " + " | ".join(l for l in trace.splitlines() if "ioscope.prom" in l or "fsync" in l)[:800]))
PY
else
	skip "textfile: temporary file, fsync, rename" "strace not installed"
fi

# ---- --listen ----
LP=$(free_port)
"$IOSCOPE" --listen "$LP" -i 0.2 "$DEV" >"$TMP/listen.out" 2>"$TMP/listen.err" &
LISTENER=$!
at_exit "kill $LISTENER"
if wait_http "http://127.0.0.1:$LP/metrics"; then
	ct=$(curl -s -H 'Accept:' -o "$TMP/plain.prom" -w '%{content_type}' "http://127.0.0.1:$LP/metrics")
	[ "$ct" = "text/plain; version=0.0.4; charset=utf-8" ] && ok "--listen: text Content-Type" || fail "--listen: text Content-Type" "$ct"
	out=$(promtool check metrics <"$TMP/plain.prom" 2>&1) && ok "promtool: --listen" || fail "promtool: --listen" "$out"
	ct=$(curl -s -o "$TMP/om.prom" -w '%{content_type}' "http://127.0.0.1:$LP/metrics" \
		-H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1')
	[ "$ct" = "application/openmetrics-text; version=1.0.0; charset=utf-8" ] && [ "$(tail -1 "$TMP/om.prom")" = "# EOF" ] &&
		grep -q '^# TYPE ioscope_setting_changes counter$' "$TMP/om.prom" && ok "--listen: OpenMetrics when asked" ||
		fail "--listen: OpenMetrics when asked" "$ct $(tail -1 "$TMP/om.prom")"
	code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$LP/metrics")
	code2=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LP/set")
	[ "$code" = 405 ] && [ "$code2" = 404 ] && ok "--listen: GET /metrics only" || fail "--listen: GET /metrics only" "$code $code2"
	# A client that sends half a request and never reads: sampling goes on.
	python3 -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
time.sleep(30)' "$LP" &
	STUCK=$!
	at_exit "kill $STUCK"
	sleep 0.3
	t1=$(curl -s -m 5 "http://127.0.0.1:$LP/metrics" | sed -n 's/^ioscope_sample_timestamp_seconds //p')
	sleep 1
	t2=$(curl -s -m 5 "http://127.0.0.1:$LP/metrics" | sed -n 's/^ioscope_sample_timestamp_seconds //p')
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[2]) > float(sys.argv[1]) else 1)' "${t1:-0}" "${t2:-0}" &&
		ok "a stuck client does not stop sampling" || fail "a stuck client does not stop sampling" "$t1 -> $t2"
	kill "$STUCK" 2>/dev/null
	# The port is taken now: a second one says so before sampling.
	"$IOSCOPE" --listen "$LP" -i 0.1 -c 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" = 1 ] && grep -q "Address already in use" "$TMP/err" && [ ! -s "$TMP/out" ] &&
		ok "--listen on a busy port: exit 1, said" || fail "--listen on a busy port: exit 1, said" "exit $rc: $(cat "$TMP/err")"
else
	fail "--listen serves /metrics" "$(head -c 500 "$TMP/listen.err")"
fi
kill -TERM "$LISTENER"
wait "$LISTENER"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/listen.err" && [ ! -s "$TMP/listen.out" ] && ok "--listen ends cleanly on SIGTERM" ||
	fail "--listen ends cleanly on SIGTERM" "exit $rc: $(head -c 1000 "$TMP/listen.err")"

# ---- bad input: said before sampling, exit 1 (2 for bad usage), nothing written ----
bad() {   # NAME EXPECTED-STATUS PATTERN ARGS...
	local name=$1 want=$2 pattern=$3 rc
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" = "$want" ] && grep -q -- "$pattern" "$TMP/err" && [ ! -s "$TMP/out" ] && ok "$name" ||
		fail "$name" "exit $rc: $(cat "$TMP/err" "$TMP/out" | head -c 500)"
}
bad "--textfile in a missing directory" 1 "No such file or directory" \
	"$IOSCOPE" --textfile "$TMP/missing/io.prom" -c 1 "$DEV"
[ ! -e "$TMP/missing" ] && ok "nothing made for a missing directory" || fail "nothing made for a missing directory"
mkdir -m 755 "$TMP/ro"
echo "old" >"$TMP/ro/io.prom"
chmod 755 "$TMP"
bad "--textfile over an unwritable file" 1 "Permission denied" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" --textfile "$TMP/ro/io.prom" -c 1 "$DEV"
[ "$(cat "$TMP/ro/io.prom")" = old ] && [ "$(ls "$TMP/ro")" = io.prom ] && ok "the unwritable file is left as it was" ||
	fail "the unwritable file is left as it was" "$(ls "$TMP/ro")"
rm -f "$TMP/ro/io.prom"
bad "--textfile in an unwritable directory" 1 "Permission denied" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" --textfile "$TMP/ro/io.prom" -c 1 "$DEV"
ln -s "$TMP/batch.prom" "$TMP/link.prom"
bad "--textfile through a symlink is refused" 1 "symbolic link" "$IOSCOPE" --textfile "$TMP/link.prom" -c 1 "$DEV"
bad "--textfile naming a directory" 1 "Is a directory" "$IOSCOPE" --textfile "$TMP/ro" -c 1 "$DEV"
# A full disk: the run ends with the cause, the old file stays, no temporary file is left.
mkdir "$TMP/small"
if mount -t tmpfs -o size=64k tmpfs "$TMP/small" 2>/dev/null; then
	at_exit "umount -l '$TMP/small'"
	echo "old" >"$TMP/small/io.prom"
	dd if=/dev/zero of="$TMP/small/fill" bs=4k count=15 status=none 2>/dev/null
	bad "--textfile on a full disk" 1 "No space left on device" \
		"$IOSCOPE" --textfile "$TMP/small/io.prom" -i 0.1 -c 2 "$DEV"
	[ "$(cat "$TMP/small/io.prom")" = old ] && [ "$(ls "$TMP/small" | tr '\n' ' ')" = "fill io.prom " ] &&
		ok "a full disk leaves the old file and nothing else" ||
		fail "a full disk leaves the old file and nothing else" "$(ls "$TMP/small")"
else
	skip "--textfile on a full disk" "cannot mount a tmpfs"
fi
bad "--listen with a bad port is bad usage" 2 "port" "$IOSCOPE" --listen 70000 -c 1
bad "--listen with an unbracketed IPv6 address is bad usage" 2 "brackets" "$IOSCOPE" --listen ::1:9000 -c 1
bad "--textfile with --format is bad usage" 2 "leave out --format" "$IOSCOPE" --textfile "$TMP/x.prom" -f json -c 1
bad "--format prometheus without --batch is bad usage" 2 "add --batch" "$IOSCOPE" -f prometheus -c 1
