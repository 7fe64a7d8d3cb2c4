#!/bin/bash
# A real Prometheus (Debian's, 1 s scrape interval, its own OpenMetrics Accept header)
# scrapes `ioscope --listen`; after a scheduler switch on a loop device of our own, its
# HTTP API sees the change counter move and the new scheduler active (docs/fleet.md).
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
if ! grep -qw bfq "$Q/scheduler" || ! grep -qw mq-deadline "$Q/scheduler"; then
	skip prometheus_scrape "bfq or mq-deadline not offered: $(cat "$Q/scheduler")"
	exit 0
fi
echo mq-deadline >"$Q/scheduler"

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
"$IOSCOPE" --listen "$IP" -i 0.5 "$DEV" >"$TMP/out" 2>"$TMP/err" &
IOS=$!
at_exit "kill $IOS"

# One poller for every question (a python start costs more than a query here).
python3 - "$PP" "$DEV" <<'PY'
import json, sys, time, urllib.parse, urllib.request
port, dev = sys.argv[1], sys.argv[2]
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
good, v = wait(f'ioscope_disk_scheduler_info{{device="{dev}",scheduler="mq-deadline"}}', lambda v: v == 1, 25)
if not check("Prometheus scrapes ioscope --listen", good, v):
    sys.exit(0)
with open(f"/sys/block/{dev}/queue/scheduler", "w") as f:
    f.write("bfq")
good, v = wait(f'sum(changes(ioscope_setting_changes_total{{device="{dev}",kind="scheduler"}}[1m]))',
               lambda v: v > 0, 10)
check("changes() of the scheduler counter > 0 after a switch", good, v)
good, v = wait(f'ioscope_disk_scheduler_info{{device="{dev}",scheduler="bfq"}}', lambda v: v == 1, 5)
check("scheduler_info bfq is 1", good, v)
# Prometheus asked for OpenMetrics and got it: only there is ioscope_build an info family.
meta = api("metadata", metric="ioscope_build")
check("scraped as OpenMetrics", bool(meta) and meta["ioscope_build"][0]["type"] == "info", meta)
check("the target is up", value('up{job="ioscope"}') == 1, value('up{job="ioscope"}'))
PY

kill -TERM "$IOS"
wait "$IOS"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/err" && ok "ioscope --listen exit" || fail "ioscope --listen exit" "exit $rc: $(head -c 1000 "$TMP/err")"
