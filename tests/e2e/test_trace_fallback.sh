#!/bin/bash
# The tracer's fallback paths (issue 11), which a machine with fewer than 32 request
# queues and few requests in flight never takes: a disk counted in the hash maps instead
# of the arrays by queue number, and a request whose slot another request holds, timed in
# the LRU map.  build/narrow is the sanitized binary with a tracer built to take them for
# every request (Makefile: no queue in the arrays, two slots).  The figures must be what
# the normal paths give: every completion counted once, seeks and the sequential share.
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

# map_id NAME PID: the id of ioscope PID's BPF map NAME (its maps are the ones it holds
# descriptors to, their ids in the descriptors' fdinfo); map_entries ID: how many it holds
map_id() {
	local m
	for m in $(sed -n 's/^map_id:[[:space:]]*//p' /proc/"$2"/fdinfo/* 2>/dev/null); do
		[ "$(bpftool -j map show id "$m" 2>/dev/null | jq -r .name)" = "$1" ] && { echo "$m"; return; }
	done
}
map_entries() { local n; n=$(bpftool -j map dump id "$1" 2>/dev/null | jq length); echo "${n:-0}"; }
# map_of_disk ID: how many entries of map ID count our disk (keys: its number, or a struct
# holding it as .dev), as the BPF side numbers disks: major << 20 | minor
disk_number=$(( $(cut -d: -f1 "/sys/block/$dev/dev") << 20 | $(cut -d: -f2 "/sys/block/$dev/dev") ))
map_of_disk() {
	local n
	n=$(bpftool -j map dump id "$1" 2>/dev/null | jq --argjson d "$disk_number" \
		'[.[] | .formatted.key | if type == "object" then .dev else . end | select(. == $d)] | length')
	echo "${n:-0}"
}

# Sequential writes: the last position kept by disk in the hash map.  They also write the
# first 64 MiB that the random reads then read: a hole is read as zeros without the disk,
# at once, and nothing would stay in flight.
trace "$dev" "$TMP/seq.json" 3
timeout 4 bash -c "while :; do dd if=/dev/zero of=/dev/$dev bs=64k count=1024 oflag=direct status=none; done"
if trace_wait "fallback: sequential writes" "$TMP/seq.json"; then
	trace_expect "fallback: sequential dd: seq_pct near 100, few seeks" "$TMP/seq.json" "$dev" seq
	trace_expect "fallback: write histograms count what /proc/diskstats completed (2%)" \
		"$TMP/seq.json" "$dev" counts
fi

# The random reads: the disk's counts and last position in the hash maps.  The maps' ids
# first (the programs loaded: slow under load, as bpftool is).
# trace_maps: the ids of $TRACE_PID's maps inflight, hist and last_end
trace_maps() {
	for _ in $(seq 50); do
		read -r lru_id hist_id last_id < <(echo "$(map_id inflight "$TRACE_PID")" \
			"$(map_id hist "$TRACE_PID")" "$(map_id last_end "$TRACE_PID")")
		[ -n "${last_id:-}" ] && return 0
		sleep 0.2
	done
	return 1
}
trace "$dev" "$TMP/rand.json" 8
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
if trace_wait "fallback: random reads" "$TMP/rand.json"; then
	[ "$hist" -gt 0 ] && [ "$last" -gt 0 ] &&
		ok "fallback: the disk counted in the hash maps (entries: $hist, $last)" ||
		fail "fallback: the disk counted in the hash maps" "hist $hist, last_end $last"
	trace_expect "fallback: read histograms count what /proc/diskstats completed (2%)" \
		"$TMP/rand.json" "$dev" counts
	trace_expect "fallback: fio randread: seq_pct near 0, seeks/s near r/s" "$TMP/rand.json" "$dev" rand
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
trace "$held" "$TMP/held.json" 12
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
if trace_wait "fallback: writes held in flight" "$TMP/held.json"; then
	[ "$lru" -ge 2 ] && ok "fallback: requests in flight timed in the LRU map ($lru held there)" ||
		fail "fallback: requests in flight timed in the LRU map" "inflight map: $lru entries; writes in flight: $held_writes"
	trace_expect "fallback: held writes counted once each, as /proc/diskstats completed (2%)" \
		"$TMP/held.json" "$held" counts
fi
exit 0
