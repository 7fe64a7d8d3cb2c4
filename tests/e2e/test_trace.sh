#!/bin/bash
# The eBPF block-layer view (--trace, issue 11) against the real kernel on loop devices
# with direct I/O: seeks and the sequential share, histogram counts against
# /proc/diskstats, a slowed device moving p99, replay reproducing the histograms,
# and the refusal without the rights.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
is_root || { skip "trace" "needs root (BPF, loop devices)"; exit 0; }
"$IOSCOPE" --version | grep -q "tracing (--trace): built in" ||
	{ skip "trace" "this build has no tracing (libbpf-dev, bpftool, clang)"; exit 0; }

dev=$(make_loop 256) && loop_direct "$dev" || { fail "loop device with direct I/O"; exit 1; }

# expect_counts NAME JSON DEV UNSEEN: the histograms count what /proc/diskstats completed
# but for the completions the kernel did not run the programs for (UNSEEN: trace_unseen
# once the workload is done and in a printed interval, before the tracer is stopped).  The
# workloads run within the tracer's intervals, after its first: I/O across the run's first
# or last edge is in one count and not the other (diskstats and the maps are read up to a
# tenth of a second apart under load: 3-16 % of a 3 s run short, 6 runs in 10 at load 5).
expect_counts() {
	if [ -z "$4" ]; then
		fail "$1" "the tracer's completions unseen not read"
		return
	fi
	trace_expect "$1" "$2" "$3" counts "$4"
}

# Sequential: dd's requests each start where the last ended.
trace "$dev" "$TMP/seq.json" 60 --record "$TMP/seq.log"
trace_ready "$TMP/seq.json"
timeout 3 bash -c "while :; do dd if=/dev/zero of=/dev/$dev bs=64k count=1024 oflag=direct status=none; done"
unseen=$(trace_settle "$TMP/seq.json" && trace_unseen "$dev")
trace_stop
if trace_wait "sequential" "$TMP/seq.json"; then
	trace_expect "sequential dd: seq_pct near 100, few seeks" "$TMP/seq.json" "$dev" seq
	expect_counts "write histograms count what /proc/diskstats completed (2%)" "$TMP/seq.json" \
		"$dev" "$unseen"
	grep -q '"comm":"dd"' "$TMP/seq.json" && ok "top: dd queued the writes" ||
		fail "top: dd queued the writes" "$(head -c 300 "$TMP/seq.json")"
	# Replay: the same histograms, seeks, top, exactly.
	"$IOSCOPE" --replay "$TMP/seq.log" --batch -f json "$dev" >"$TMP/replay.json" 2>"$TMP/replay.err"
	rc=$?
	if [ $rc -eq 0 ] && clean_stderr "$TMP/replay.err" && [ ! -s "$TMP/replay.err" ] &&
		diff <(jq -c ".devices.\"$dev\".trace" "$TMP/seq.json") \
		     <(jq -c ".devices.\"$dev\".trace" "$TMP/replay.json") >"$TMP/diff" &&
		! grep -qx null <(jq -c ".devices.\"$dev\".trace" "$TMP/replay.json"); then
		ok "replay reproduces the trace exactly"
	else
		fail "replay reproduces the trace exactly" "rc=$rc $(head -3 "$TMP/replay.err") $(head -4 "$TMP/diff")"
	fi
	# Batch text of the same replay: each interval's trace line says the JSON's figures.
	"$IOSCOPE" --replay "$TMP/seq.log" --batch -f text "$dev" >"$TMP/replay.txt" 2>"$TMP/replay.err"
	rc=$?
	got=$(python3 - "$TMP/replay.json" "$TMP/replay.txt" "$dev" <<'PY'
import json, re, sys
keys = ["r_p50_us", "r_p99_us", "w_p50_us", "w_p99_us", "seeks/s", "seq_pct"]
want = [json.loads(l)["devices"][sys.argv[3]]["trace"] for l in open(sys.argv[1])]
pat = re.compile(r"^trace %s: r p50 (\S+) p99 (\S+) us, w p50 (\S+) p99 (\S+) us, "
                 r"(\S+) seeks/s, (\S+?)%%? seq$" % re.escape(sys.argv[3]))
got = [m.groups() for m in map(pat.match, open(sys.argv[2])) if m]
def same(text, v):   # the text rounds what JSON gives to 3 decimals
    return text == "-" if v is None else text != "-" and abs(float(text) - v) <= 0.5011
bad = [(g, w) for g, w in zip(got, want) if not all(same(t, w[k]) for t, k in zip(g, keys))]
print("ok" if len(got) == len(want) > 0 and not bad else f"{len(got)} lines for {len(want)}: {bad[:2]}")
PY
)
	[ $rc -eq 0 ] && clean_stderr "$TMP/replay.err" && [ "$got" = ok ] &&
		ok "batch text: a trace line per interval with the JSON's figures" ||
		fail "batch text: a trace line per interval with the JSON's figures" "rc=$rc $got"
	# every bucket written holds a count: the smallest is at least 1
	least=$(grep '"type":"trace"' "$TMP/seq.log" | jq -s '[.[].devices[] | (.lat_us, .q2c_us, .size_kb)
		| .[] | to_entries[] | .value] | min')
	[ -n "$least" ] && [ "$least" != null ] && [ "$least" -ge 1 ] &&
		ok "the log's trace records hold only non-empty buckets" ||
		fail "the log's trace records hold only non-empty buckets" "$(grep -m1 '"type":"trace"' "$TMP/seq.log" | head -c 300)"
fi

# Random reads: nearly every request is a seek.
if command -v fio >/dev/null; then
	trace "$dev" "$TMP/rand.json" 60
	trace_ready "$TMP/rand.json"
	fio --name=rand --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--time_based --runtime=3 --rate_iops=1500 --output=/dev/null >/dev/null 2>&1
	unseen=$(trace_settle "$TMP/rand.json" && trace_unseen "$dev")
	trace_stop
	if trace_wait "random" "$TMP/rand.json"; then
		trace_expect "fio randread: seq_pct near 0, seeks/s near r/s" "$TMP/rand.json" "$dev" rand
		expect_counts "read histograms count what /proc/diskstats completed (2%)" "$TMP/rand.json" \
			"$dev" "$unseen"
		# fio's requests counted on its CPU until the sample adds them (top_recent): all there
		trace_expect "top: fio queued the reads, each counted (2%)" "$TMP/rand.json" "$dev" top fio
	fi
	# Through a scheduler, more requests than the loop device's 128 tags: those that wait
	# in the scheduler are issued when a tag comes free, by a kernel worker (kblockd), not
	# by fio (a quarter of them here, with the programs of the insert left out); each is
	# still counted for fio, the task that queued it (block_rq_insert).
	if elev=$(elevator_other "$dev" none); then
		echo "$elev" >"/sys/block/$dev/queue/scheduler"
		trace "$dev" "$TMP/sched.json" 60
		trace_ready "$TMP/sched.json"
		fio --name=rand --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
			--iodepth=256 --iodepth_batch_submit=32 --number_ios=20000 --output=/dev/null \
			>/dev/null 2>&1
		trace_settle "$TMP/sched.json"
		trace_stop
		echo none >"/sys/block/$dev/queue/scheduler"
		trace_wait "under $elev" "$TMP/sched.json" &&
			trace_expect "top under $elev: fio's reads counted for fio, not for the worker that issued them (2%)" \
				"$TMP/sched.json" "$dev" top fio 256
	else
		skip "top under a scheduler" "$dev offers $(elevators "$dev" | tr '\n' ' ')- no scheduler"
	fi
else
	skip "fio randread" "fio not installed"
fi

# A slow device: a loop device over a file on a filesystem that is frozen for a while;
# the writes wait for the thaw, and p99 shows it.  Few writes, so that the ones held
# over the freeze are more than 1% of an interval's.
lower=$(make_loop 300) && mnt=$(make_fs "$lower" ext4) && truncate -s 128M "$mnt/img" &&
	upper=$(losetup --find --show --direct-io=on "$mnt/img") || { fail "slow device set-up"; exit 1; }
at_exit "losetup -d '$upper'"
at_exit "fsfreeze -u '$mnt'"
upper=$(basename "$upper")
restore_queue "$upper"
trace "$upper" "$TMP/slow.json" 5
# the writer and the freeze once the batch has its first interval: a loaded machine's BPF
# load started the batch after the freeze, and no interval held the writes it held back
trace_ready "$TMP/slow.json"
timeout 5 bash -c "while :; do dd if=/dev/zero of=/dev/$upper bs=4k count=1 oflag=direct status=none; sleep 0.02; done" &
writer=$!
sleep 1.5
fsfreeze -f "$mnt" && sleep 1.2 && fsfreeze -u "$mnt"
wait "$writer"
if trace_wait "slow device" "$TMP/slow.json"; then
	trace_expect "a frozen backing filesystem moves write p99" "$TMP/slow.json" "$upper" p99 500
fi

# Without the rights: a clear refusal, batch exits 1 before sampling anything.
if command -v setpriv >/dev/null; then
	chmod 755 "$TMP"
	cp "$IOSCOPE" "$TMP/ioscope" && chmod 755 "$TMP/ioscope"
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	as_nobody "$TMP/ioscope" --batch --trace -c 1 -i 0.01 -f json --record "$TMP/nobody.log" \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "CAP_BPF" "$TMP/err" && grep -q "CAP_PERFMON" "$TMP/err" &&
		[ ! -s "$TMP/out" ] && [ ! -e "$TMP/nobody.log" ] &&
		ok "not root: --batch --trace refused (exit 1), naming CAP_BPF and CAP_PERFMON" ||
		fail "not root: --batch --trace refused" "rc=$rc $(cat "$TMP/err")"
	as_nobody "$TMP/ioscope" --batch -c 1 -i 0.01 -f json >/dev/null 2>"$TMP/err" &&
		ok "not root: batch without --trace runs" || fail "not root: batch without --trace runs" "$(cat "$TMP/err")"
else
	skip "not root" "no setpriv"
fi
exit 0
