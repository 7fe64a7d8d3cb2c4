#!/bin/bash
# --listen under a flood from many addresses (docs/security.md, "--listen: clients that
# hold connections"): 80 loopback addresses, 127.0.0.2 to 127.0.0.81, each keep 8
# connections open (the per-client limit) that send part of a request header and reconnect
# at once when the server closes them: 640 against the 128 connections the server takes.
# Scrapes from 127.0.0.1 are answered within 2 s all the same, at least 9 of 10: when
# the server is full the oldest idle connection makes room for a new one.  The flood is
# checked to have been one (the flooders kept more than 128 connections established, and
# were cut and came back while the scrapes ran).
# Loopback only; the flooders are this script's own processes, killed at exit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"

if ! python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.81", 0))' 2>/dev/null; then
	skip listen_flood "cannot bind 127.0.0.81 (no 127.0.0.0/8 on lo)"
	exit 0
fi
PORT=$(free_port)
"$IOSCOPE" --listen "127.0.0.1:$PORT" -i 0.5 >"$TMP/out" 2>"$TMP/err" &
IOS=$!
at_exit "kill $IOS"
if ! wait_http "http://127.0.0.1:$PORT/metrics"; then
	fail "--listen serves /metrics" "$(head -c 500 "$TMP/err")"
	exit 0
fi

# flood.py PORT FIRST LAST STATS: addresses 127.0.0.FIRST to 127.0.0.LAST, 8 connections
# each, reconnecting at once; STATS gets "CONNECTED CUT" (connections made, connections
# the server ended) so far, every 0.2 s.
cat >"$TMP/flood.py" <<'PY'
import os, selectors, socket, sys, time
port, first, last, stats = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
PER_ADDRESS = 8
sel = selectors.DefaultSelector()
connected = cut = 0

def open_one(addr):
    s = socket.socket()
    s.setblocking(False)
    s.setsockopt(socket.IPPROTO_IP, getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24), 1)
    s.bind((addr, 0))
    s.connect_ex(("127.0.0.1", port))
    sel.register(s, selectors.EVENT_WRITE, addr)

def reopen(s, addr):
    sel.unregister(s)
    s.close()
    open_one(addr)

for n in range(first, last + 1):
    for _ in range(PER_ADDRESS):
        open_one(f"127.0.0.{n}")
written = time.monotonic()
while True:
    for key, events in sel.select(0.2):
        s, addr = key.fileobj, key.data
        if events & selectors.EVENT_WRITE:
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                reopen(s, addr)
                continue
            try:
                s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            except OSError:
                reopen(s, addr)
                continue
            connected += 1
            sel.modify(s, selectors.EVENT_READ, addr)
            continue
        try:
            data = s.recv(4096)
        except OSError:
            data = b""
        if not data:
            cut += 1
            reopen(s, addr)
    if time.monotonic() - written >= 0.2:
        with open(stats + ".new", "w") as f:
            f.write(f"{connected} {cut}\n")
        os.replace(stats + ".new", stats)
        written = time.monotonic()
PY
FLOODERS=4
for ((i = 0; i < FLOODERS; i++)); do
	python3 "$TMP/flood.py" "$PORT" $((2 + i * 20)) $((21 + i * 20)) "$TMP/flood.$i" \
		2>"$TMP/flood.$i.err" &
	at_exit "kill $!"
done
# flood_counts: the flooders' connections made and cut so far, summed
flood_counts() { cat "$TMP"/flood.? 2>/dev/null | awk '{c += $1; k += $2} END {print c + 0, k + 0}'; }
flooding() { local c k; read -r c k < <(flood_counts); [ "$c" -ge 128 ] && [ "$k" -ge 128 ]; }
if ! wait_until 20 "" flooding; then
	fail "the flood starts" "made and cut: $(flood_counts); $(head -c 300 "$TMP"/flood.0.err)"
	exit 0
fi
read -r C0 K0 < <(flood_counts)

python3 - "$PORT" >"$TMP/scrapes" <<'PY'
import http.client, sys, time
port = int(sys.argv[1])
for _ in range(10):
    t = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        c.request("GET", "/metrics")
        r = c.getresponse()
        body = r.read()
        got = str(r.status) if b"ioscope_build_info" in body else f"{r.status}-without-exposition"
        c.close()
    except OSError as e:
        got = type(e).__name__
    took = time.monotonic() - t
    print(f"{took:.2f} {got}")
    time.sleep(max(0, 0.5 - took))
PY
read -r C1 K1 < <(flood_counts)
good=$(awk '$1 <= 2 && $2 == "200"' "$TMP/scrapes" | wc -l)
if [ "$good" -ge 9 ]; then
	ok "9 of 10 scrapes answered within 2 s under a flood from 80 addresses"
else
	fail "9 of 10 scrapes answered within 2 s under a flood from 80 addresses" \
		"$good answered: $(tr '\n' ' ' <"$TMP/scrapes")"
fi
# The scrapes met a flood: the flooders kept more connections established (accepted or
# queued, not yet cut) than the server's 128, and were cut and came back while the
# scrapes ran.
cuts=$((K1 - K0)) held=$((C1 - K1))
[ "$held" -gt 128 ] && [ "$cuts" -ge 128 ] &&
	ok "the flood went on during the scrapes ($held held, $cuts cut and reopened)" ||
	fail "the flood went on during the scrapes" "$held held, $cuts cut and reopened"

kill -TERM "$IOS"
wait "$IOS"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/err" && ok "--listen ends cleanly after the flood" ||
	fail "--listen ends cleanly after the flood" "exit $rc: $(head -c 1000 "$TMP/err")"
