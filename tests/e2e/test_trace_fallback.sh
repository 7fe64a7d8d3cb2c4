#!/bin/bash
# The tracer's fallback paths (issue 11), which a machine with fewer than 32 request
# queues and few requests in flight never takes: a disk counted in the hash maps instead
# of the arrays by queue number, and a request whose slot another request holds, timed in
# the LRU map.  build/narrow is the sanitized binary with a tracer built to take them for
# every request (Makefile: no queue in the arrays, two slots).  The figures must be what
# the normal paths give: every completion counted once (those the kernel did not run the
# programs for found and counted apart, docs/metrics.md "Tracing"), seeks and the
# sequential share.
# run.sh: waits, late (on the kernel, most of its time: beside the other jobs, started in its
# place by name: beside the early scripts its BPF load and fio timings failed)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
TRACE_IOSCOPE="$(dirname "$IOSCOPE")/../narrow/ioscope"
is_root || { skip "trace fallback" "needs root (BPF, loop devices)"; exit 0; }
"$IOSCOPE" --version | grep -q "tracing (--trace): built in" ||
	{ skip "trace fallback" "this build has no tracing"; exit 0; }
[ -x "$TRACE_IOSCOPE" ] && [ -e "$(dirname "$TRACE_IOSCOPE")/ioscope-trace.so" ] ||
	{ fail "trace fallback" "no $TRACE_IOSCOPE (make check builds it)"; exit 1; }
command -v fio >/dev/null && command -v bpftool >/dev/null ||
	{ skip "trace fallback" "needs fio and bpftool"; exit 0; }

dev=$(make_loop 256) && loop_direct "$dev" || { fail "loop device with direct I/O"; exit 1; }

# map_entries ID: how many entries BPF map ID holds (map_id in trace_lib.sh finds it)
map_entries() { local n; n=$(bpftool -j map dump id "$1" 2>/dev/null | jq length); echo "${n:-0}"; }
# map_of_disk ID: how many entries of map ID count our disk (keys: its number, or a struct
# holding it as .dev)
dev_number=$(disk_number "$dev")
map_of_disk() {
	local n
	n=$(bpftool -j map dump id "$1" 2>/dev/null | jq --argjson d "$dev_number" \
		'[.[] | .formatted.key | if type == "object" then .dev else . end | select(. == $d)] | length')
	echo "${n:-0}"
}

# trace_maps: the ids of $TRACE_PID's maps inflight, hist, last_end and unseen (the
# programs loaded: slow under load, as bpftool is)
trace_maps() {
	local ids
	for _ in $(seq 50); do
		ids=$(map_ids "$TRACE_PID")
		lru_id=$(awk '$1 == "inflight" { print $2 }' <<<"$ids")
		hist_id=$(awk '$1 == "hist" { print $2 }' <<<"$ids")
		last_id=$(awk '$1 == "last_end" { print $2 }' <<<"$ids")
		unseen_id=$(awk '$1 == "unseen" { print $2 }' <<<"$ids")
		[ -n "$lru_id" ] && [ -n "$hist_id" ] && [ -n "$last_id" ] && [ -n "$unseen_id" ] &&
			return 0
		sleep 0.2
	done
	return 1
}
# expect_counts NAME JSON DEV UNSEEN: the histograms count what /proc/diskstats completed
# but for the completions the kernel did not run the tracer's programs for (UNSEEN, read
# with trace_unseen once the workload is done and in a printed interval, before the
# tracer is stopped: each batch below runs until then, 60 intervals at most)
expect_counts() {
	if [ -z "$4" ]; then
		fail "$1" "the tracer's completions unseen not read (map id ${unseen_id:-none})"
		return
	fi
	trace_expect "$1" "$2" "$3" counts "$4"
}

# Sequential writes: the last position kept by disk in the hash map.  They also write the
# first 64 MiB that the random reads then read: a hole is read as zeros without the disk,
# at once, and nothing would stay in flight.  Those 64 MiB once, however long they take
# beside other tests' writes.
trace "$dev" "$TMP/seq.json" 60
trace_ready "$TMP/seq.json"
timeout 60 dd if=/dev/zero of="/dev/$dev" bs=64k count=1024 oflag=direct status=none &
dd_pid=$!
trace_maps
wait "$dd_pid" || fail "fallback: dd of 64 MiB" "exit $?"
unseen=$(trace_settle "$TMP/seq.json" && trace_unseen "$dev" "${unseen_id:-}")
trace_stop
if trace_wait "fallback: sequential writes" "$TMP/seq.json"; then
	trace_expect "fallback: sequential dd: seq_pct near 100, few seeks" "$TMP/seq.json" "$dev" seq
	expect_counts "fallback: write histograms count what /proc/diskstats completed (2%)" \
		"$TMP/seq.json" "$dev" "$unseen"
fi

# The random reads: the disk's counts and last position in the hash maps.  The maps' ids
# first.
trace "$dev" "$TMP/rand.json" 60
trace_ready "$TMP/rand.json"
trace_maps
fio --name=rand --filename="/dev/$dev" --rw=randread --size=64m --bs=4k --direct=1 --ioengine=libaio \
	--iodepth=32 --iodepth_batch_submit=32 --iodepth_batch_complete_min=32 --time_based --runtime=3 \
	--output=/dev/null >/dev/null 2>&1 &
fio_pid=$!
hist=0 last=0
while [ -n "${last_id:-}" ] && kill -0 "$fio_pid" 2>/dev/null; do
	[ "$hist" -gt 0 ] || hist=$(map_of_disk "$hist_id")
	[ "$last" -gt 0 ] || last=$(map_of_disk "$last_id")
	[ "$hist" -gt 0 ] && [ "$last" -gt 0 ] && break
	sleep 0.1
done
wait "$fio_pid" || fail "fallback: fio at depth 32" "exit $?"
unseen=$(trace_settle "$TMP/rand.json" && trace_unseen "$dev" "${unseen_id:-}")
trace_stop
if trace_wait "fallback: random reads" "$TMP/rand.json"; then
	[ "$hist" -gt 0 ] && [ "$last" -gt 0 ] &&
		ok "fallback: the disk counted in the hash maps (entries: $hist, $last)" ||
		fail "fallback: the disk counted in the hash maps" "hist $hist, last_end $last"
	expect_counts "fallback: read histograms count what /proc/diskstats completed (2%)" \
		"$TMP/rand.json" "$dev" "$unseen"
	trace_expect "fallback: fio randread: seq_pct near 0, seeks/s near r/s" "$TMP/rand.json" "$dev" \
		rand 32
fi

# Requests held in flight, so that the LRU map is seen holding them: a loop device whose
# file is on a frozen filesystem keeps its writes until the thaw (the loop worker waits in
# D).  A loop device on a fast disk drains in microseconds, between two looks at the map.
# Two slots: of four or more held, two or more are in the LRU map; once thawed, each is
# counted once, its time taken from there.
under=$(make_loop 64) && fsdir=$(make_fs "$under" ext4) && truncate -s 64M "$fsdir/held.img" &&
	held=$(losetup --find --show "$fsdir/held.img") ||
	{ fail "fallback: a loop device on a filesystem of a loop device"; exit 1; }
at_exit "losetup -d '$held'"
held=$(basename "$held")
restore_queue "$held"
echo 0 >"/sys/block/$held/queue/wbt_lat_usec" 2>/dev/null   # its writes not throttled
trace "$held" "$TMP/held.json" 60
trace_ready "$TMP/held.json"
trace_maps
fsfreeze -f "$fsdir" && at_exit "fsfreeze -u '$fsdir'"
timeout 30 fio --name=held --filename="/dev/$held" --rw=randwrite --size=16m --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=32 --number_ios=1000 --output=/dev/null >/dev/null 2>&1 &
fio_pid=$!
# until the disk holds its writes (fio starts late on a loaded machine), then the map
held_writes=0
for _ in $(seq 80); do
	read -r _ held_writes <"/sys/block/$held/inflight"
	[ "$held_writes" -ge 4 ] && break
	sleep 0.1
done
lru=0
for _ in $(seq 20); do
	[ -n "${lru_id:-}" ] || break
	lru=$(map_entries "$lru_id")
	[ "$lru" -ge 2 ] && break
	sleep 0.1
done
fsfreeze -u "$fsdir"
wait "$fio_pid" || fail "fallback: fio writes held by a freeze" "exit $?"
unseen=$(trace_settle "$TMP/held.json" && trace_unseen "$held" "${unseen_id:-}")
trace_stop
if trace_wait "fallback: writes held in flight" "$TMP/held.json"; then
	[ "$lru" -ge 2 ] && ok "fallback: requests in flight timed in the LRU map ($lru held there)" ||
		fail "fallback: requests in flight timed in the LRU map" "inflight map: $lru entries; writes in flight: $held_writes"
	expect_counts "fallback: held writes counted once each, as /proc/diskstats completed (2%)" \
		"$TMP/held.json" "$held" "$unseen"
fi
exit 0
