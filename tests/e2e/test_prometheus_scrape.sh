#!/bin/bash
# A real Prometheus (Debian's, 1 s scrape interval, its own OpenMetrics Accept header)
# scrapes `ioscope --listen`; after a scheduler switch on a loop device of our own
# (between two elevators this kernel offers, never by name), its HTTP API sees the
# change counter move and the new scheduler active (docs/fleet.md).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"

if ! is_root; then
	skip prometheus_scrape "needs root for loop devices"
	exit 0
fi
for tool in prometheus curl; do
	command -v "$tool" >/dev/null || { skip prometheus_scrape "$tool not installed (make test-deps)"; exit 0; }
done
DEV=$(make_loop 16) || { fail "loop device"; exit 1; }
Q=/sys/block/$DEV/queue
needs_elevators prometheus_scrape "$DEV" 2
read -r E1 E2 < <(pick_elevators "$DEV" 2)
echo "$E1" >"$Q/scheduler"

IP=$(free_port)
PP=$(free_port)
cat >"$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: ioscope
    static_configs:
      - targets: ['127.0.0.1:$IP']
YML
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
	--web.listen-address="127.0.0.1:$PP" --log.level=warn >"$TMP/prom.log" 2>&1 &
PROM=$!
at_exit "kill $PROM; wait $PROM"
# With the tracer (when built in) and the probe: their histograms go through Prometheus'
# OpenMetrics parser too.
TRACE=--trace
"$IOSCOPE" --version | grep -q "tracing (--trace): built in" || TRACE=
"$IOSCOPE" --listen "$IP" -i 0.5 --probe "/dev/$DEV" --probe-interval 0.1 $TRACE "$DEV" >"$TMP/out" 2>"$TMP/err" &
IOS=$!
at_exit "kill $IOS"
# Writes the tracer sees, until the test ends.
(while :; do dd if=/dev/zero of="/dev/$DEV" bs=64k count=16 oflag=direct status=none; sleep 0.2; done) &
WRITER=$!
at_exit "kill $WRITER"

# One poller for every question (a python start costs more than a query here).
python3 - "$PP" "$DEV" "$TRACE" "$E1" "$E2" <<'PY'
import json, sys, time, urllib.parse, urllib.request
port, dev, trace, e1, e2 = sys.argv[1:]
def api(path, **params):
    url = f"http://127.0.0.1:{port}/api/v1/{path}?" + urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return json.load(r)["data"]
    except Exception as e:
        return None
def value(q):
    d = api("query", query=q)
    return float(d["result"][0]["value"][1]) if d and d["result"] else None
def wait(q, cond, seconds):
    end = time.time() + seconds
    v = None
    while time.time() < end:
        v = value(q)
        if v is not None and cond(v):
            return True, v
        time.sleep(0.25)
    return False, v
def check(name, good, detail):
    print(("ok " if good else "not ok ") + name + ("" if good else f": {detail}"))
    return good
good, v = wait(f'ioscope_disk_scheduler_info{{device="{dev}",scheduler="{e1}"}}', lambda v: v == 1, 25)
if not check("Prometheus scrapes ioscope --listen", good, v):
    sys.exit(0)
with open(f"/sys/block/{dev}/queue/scheduler", "w") as f:
    f.write(e2)
good, v = wait(f'sum(changes(ioscope_setting_changes_total{{device="{dev}",kind="scheduler"}}[1m]))',
               lambda v: v > 0, 10)
check("changes() of the scheduler counter > 0 after a switch", good, v)
good, v = wait(f'ioscope_disk_scheduler_info{{device="{dev}",scheduler="{e2}"}}', lambda v: v == 1, 5)
check(f"scheduler_info {e2} is 1", good, v)
# Prometheus asked for OpenMetrics and got it: only there is ioscope_build an info family.
meta = api("metadata", metric="ioscope_build")
check("scraped as OpenMetrics", bool(meta) and meta["ioscope_build"][0]["type"] == "info", meta)
check("the target is up", value('up{job="ioscope"}') == 1, value('up{job="ioscope"}'))
good, v = wait('ioscope_dirty_threshold_bytes', lambda v: v > 0, 5)
check("the dirty threshold gauge > 0", good, v)
good, v = wait('histogram_quantile(0.5, ioscope_probe_read_latency_seconds_bucket)', lambda v: v > 0, 5)
check("histogram_quantile over the probe's buckets > 0", good, v)
if trace:
    q = f'histogram_quantile(0.99, sum by (le) (ioscope_disk_d2c_latency_seconds_bucket{{device="{dev}",direction="write"}}))'
    good, v = wait(q, lambda v: v > 0, 10)
    check("histogram_quantile over the trace's D2C buckets > 0", good, v)
    meta = api("metadata", metric="ioscope_disk_d2c_latency_seconds")
    check("the trace histogram is typed histogram", bool(meta) and meta["ioscope_disk_d2c_latency_seconds"][0]["type"] == "histogram", meta)
else:
    print("skip trace histograms in Prometheus: this build has no tracing")
PY

kill "$WRITER"
kill -TERM "$IOS"
wait "$IOS"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/err" && ok "ioscope --listen exit" || fail "ioscope --listen exit" "exit $rc: $(head -c 1000 "$TMP/err")"
