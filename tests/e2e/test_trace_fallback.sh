#!/bin/bash
# The tracer's fallback paths (issue 11), which a machine with fewer than 32 request
# queues and few requests in flight never takes: a disk counted in the hash maps instead
# of the arrays by queue number, and a request whose slot another request holds, timed in
# the LRU map.  build/narrow is the sanitized binary with a tracer built to take them for
# every request (Makefile: no queue in the arrays, two slots).  The figures must be what
# the normal paths give: every completion counted once, seeks and the sequential share.
. "$(dirname "$0")/lib.sh"
CHECK="$(dirname "$0")/trace_check.py"
NARROW="$(dirname "$IOSCOPE")/../narrow/ioscope"
is_root || { skip "trace fallback" "needs root (BPF, loop devices)"; exit 0; }
"$IOSCOPE" --version | grep -q "tracing (--trace): built in" ||
	{ skip "trace fallback" "this build has no tracing"; exit 0; }
[ -x "$NARROW" ] && [ -e "$(dirname "$NARROW")/ioscope-trace.so" ] ||
	{ fail "trace fallback" "no $NARROW (make check builds it)"; exit 1; }
command -v fio >/dev/null && command -v bpftool >/dev/null ||
	{ skip "trace fallback" "needs fio and bpftool"; exit 0; }

dev=$(make_loop 256) && losetup --direct-io=on "/dev/$dev" || { fail "loop device"; exit 1; }

# entries NAME PID: how many entries ioscope PID's BPF map NAME holds now (its maps are
# the ones it holds descriptors to, their ids in the descriptors' fdinfo)
entries() {
	local m
	for m in $(sed -n 's/^map_id:[[:space:]]*//p' /proc/"$2"/fdinfo/* 2>/dev/null); do
		[ "$(bpftool -j map show id "$m" 2>/dev/null | jq -r .name)" = "$1" ] || continue
		bpftool -j map dump id "$m" 2>/dev/null | jq 'length'
		return
	done
	echo 0
}

# expect NAME JSON CHECK: trace_check.py's CHECK of the batch output JSON on the device
expect() {
	local out
	out=$("$CHECK" "$2" "$dev" "$3") && ok "fallback: $1" || fail "fallback: $1" "$(tr "\n" " " <<<"$out")"
}
clean_stderr() { ! grep -qE 'Sanitizer|runtime error|leak' "$1"; }

# Queued at depth 32 with two slots: most requests in flight find theirs taken.
"$NARROW" --batch --trace -i 1 -c 4 -f json "$dev" >"$TMP/rand.json" 2>"$TMP/rand.err" &
pid=$!
sleep 0.5
fio --name=rand --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
	--iodepth=32 --time_based --runtime=3 --output=/dev/null >/dev/null 2>&1 &
fio_pid=$!
lru=0 hist=0 last=0
for _ in 1 2 3 4 5 6; do
	sleep 0.4
	n=$(entries inflight "$pid"); [ "$n" -gt "$lru" ] && lru=$n
	n=$(entries hist "$pid"); [ "$n" -gt "$hist" ] && hist=$n
	n=$(entries last_end "$pid"); [ "$n" -gt "$last" ] && last=$n
done
wait "$fio_pid"; fio_rc=$?
wait "$pid"; rc=$?
if [ $rc -eq 0 ] && [ $fio_rc -eq 0 ] && clean_stderr "$TMP/rand.err" && [ -s "$TMP/rand.json" ]; then
	[ "$lru" -gt 0 ] && [ "$hist" -gt 0 ] && [ "$last" -gt 0 ] &&
		ok "the fallback maps were used (in flight in the LRU map: up to $lru; disks by hash: $hist, $last)" ||
		fail "the fallback maps were used" "inflight $lru, hist $hist, last_end $last"
	expect "read histograms count what /proc/diskstats completed (2%)" "$TMP/rand.json" counts
	expect "fio randread: seq_pct near 0, seeks/s near r/s" "$TMP/rand.json" rand
else
	fail "fallback: ioscope --batch --trace during fio" "rc=$rc fio=$fio_rc $(head -5 "$TMP/rand.err")"
fi

# Sequential writes: the last position kept by disk in the hash map.
"$NARROW" --batch --trace -i 1 -c 3 -f json "$dev" >"$TMP/seq.json" 2>"$TMP/seq.err" &
pid=$!
sleep 0.5
timeout 4 bash -c "while :; do dd if=/dev/zero of=/dev/$dev bs=64k count=1024 oflag=direct status=none; done"
wait "$pid"; rc=$?
if [ $rc -eq 0 ] && clean_stderr "$TMP/seq.err" && [ -s "$TMP/seq.json" ]; then
	expect "sequential dd: seq_pct near 100, few seeks" "$TMP/seq.json" seq
	expect "write histograms count what /proc/diskstats completed (2%)" "$TMP/seq.json" counts
else
	fail "fallback: ioscope --batch --trace during dd" "rc=$rc $(head -5 "$TMP/seq.err")"
fi
exit 0
