#!/bin/bash
# --listen against one client that holds connections (docs/fleet.md, "Direct scrape"):
# from 127.0.0.2, another loopback address, 64 connections each trickle a header byte
# every second for 9 s.  The server holds at most 8 of them (the per-client limit),
# shuts each down at its 5 s deadline though bytes keep coming, and scrapes from
# 127.0.0.1 are answered within 3 s all along.  Loopback only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"

if ! python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0))' 2>/dev/null; then
	skip listen_clients "cannot bind 127.0.0.2 (no 127.0.0.0/8 on lo)"
	exit 0
fi
PORT=$(free_port)
"$IOSCOPE" --listen "127.0.0.1:$PORT" -i 0.2 >"$TMP/out" 2>"$TMP/err" &
IOS=$!
at_exit "kill $IOS"
if ! wait_http "http://127.0.0.1:$PORT/metrics"; then
	fail "--listen serves /metrics" "$(head -c 500 "$TMP/err")"
	exit 0
fi

python3 - "$PORT" <<'PY'
import http.client, socket, sys, threading, time
port = int(sys.argv[1])
ATTACK, PER_CLIENT, STEP, RUN = 64, 8, 5.0, 9.0

def check(name, good, detail=""):
    print(("ok " if good else "not ok ") + name + ("" if good else f": {detail}"))

start = time.monotonic()
conns = []        # [socket, opened, closed (None: open)]
for _ in range(ATTACK):
    s = socket.socket()
    s.settimeout(1)
    s.bind(("127.0.0.2", 0))
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    except OSError:
        s.close()
        continue
    s.setblocking(False)
    conns.append([s, time.monotonic(), None])

def closed_by_server(s):
    try:
        return s.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True

scrapes = []      # (seconds, status or error)
def scraper():
    while time.monotonic() - start < RUN - 1:
        t = time.monotonic()
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
            c.request("GET", "/metrics")
            r = c.getresponse()
            body = r.read()
            got = r.status if b"ioscope_build_info" in body else f"{r.status} without the exposition"
            c.close()
        except OSError as e:
            got = repr(e)
        scrapes.append((time.monotonic() - t, got))
        time.sleep(0.5)
thread = threading.Thread(target=scraper)
thread.start()

held_after_1s = None
while time.monotonic() - start < RUN:
    for c in conns:
        if c[2] is None and closed_by_server(c[0]):
            c[2] = time.monotonic()
        elif c[2] is None:
            try:
                c[0].send(b"a")
            except OSError:
                c[2] = time.monotonic()
    if held_after_1s is None and time.monotonic() - start >= 1:
        held_after_1s = sum(c[2] is None for c in conns)
    time.sleep(1 if held_after_1s is not None else 0.1)
thread.join()

bad = [s for s in scrapes if s[1] != 200 or s[0] > 3]
check("scrapes from another address are answered within 3 s", scrapes and not bad,
      f"{len(bad)} of {len(scrapes)} failed: {bad[:3]}")
check(f"one client holds at most {PER_CLIENT} connections", held_after_1s is not None and
      held_after_1s <= PER_CLIENT, f"{held_after_1s} of {len(conns)} held")
still = sum(c[2] is None for c in conns)
longest = max((c[2] - c[1] for c in conns if c[2] is not None), default=0)
check(f"a trickling request is cut at its {STEP:g} s deadline", still == 0 and longest <= STEP + 2,
      f"{still} still open after {RUN:g} s, longest held {longest:.1f} s")
for c in conns:
    c[0].close()
PY

kill -TERM "$IOS"
wait "$IOS"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/err" && ok "--listen ends cleanly after the attack" ||
	fail "--listen ends cleanly after the attack" "exit $rc: $(head -c 1000 "$TMP/err")"
