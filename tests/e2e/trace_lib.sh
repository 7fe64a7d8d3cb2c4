# Shared by the tests of --trace (test_trace.sh, test_trace_fallback.sh); sourced after
# lib.sh.  TRACE_IOSCOPE is the binary traced with, $IOSCOPE unless a test says otherwise.
TRACE_CHECK="$(dirname "${BASH_SOURCE[0]}")/trace_check.py"

# trace DEV OUT INTERVALS [ioscope options]: a traced batch in the background, its pid in
# $TRACE_PID; wait for it with trace_wait NAME OUT.
trace() {
	local dev=$1 out=$2 n=$3; shift 3
	"${TRACE_IOSCOPE:-$IOSCOPE}" --batch --trace -i 1 -c "$n" -f json "$@" "$dev" >"$out" 2>"$out.err" &
	TRACE_PID=$!
	sleep 0.5   # its baseline sample is taken
}
# trace_ready OUT: until the batch $TRACE_PID has printed its first interval into OUT (its
# baseline was taken: what a workload started now does is in its intervals)
trace_ready() { wait_output "$1" "$TRACE_PID"; }
# trace_settle OUT: until the batch $TRACE_PID has printed into OUT the interval in
# progress, so that what completed until now is in it (false when it ended); then
# trace_stop ends it as Ctrl-C does, without a partial interval
trace_settle() { wait_until 10 "$TRACE_PID" more_lines "$1" "$(wc -l <"$1")"; }
more_lines() { [ "$(wc -l <"$1")" -gt "$2" ]; }
trace_stop() { kill -TERM "$TRACE_PID" 2>/dev/null; }
trace_wait() {
	wait "$TRACE_PID"; local rc=$?
	[ $rc -eq 0 ] && clean_stderr "$2.err" && [ -s "$2" ] && return 0
	fail "$1: ioscope --batch --trace" "rc=$rc $(head -5 "$2.err")"
	return 1
}
# trace_expect NAME JSON DEV CHECK [ARG]: ok NAME when trace_check.py's CHECK holds
trace_expect() {
	local name=$1 out; shift
	out=$("$TRACE_CHECK" "$@") && ok "$name" || fail "$name" "$(tr "\n" " " <<<"$out")"
}
loop_direct() { losetup --direct-io=on "/dev/$1" && [ "$(cat /sys/block/$1/loop/dio)" = 1 ]; }

# disk_number DEV: DEV's number as the BPF side numbers disks, major << 20 | minor
disk_number() {
	echo $(( $(cut -d: -f1 "/sys/block/$1/dev") << 20 | $(cut -d: -f2 "/sys/block/$1/dev") ))
}
# map_ids PID: "NAME ID" a line for each BPF map ioscope PID holds (its maps are the ones
# it holds descriptors to, their ids in the descriptors' fdinfo); map_id NAME PID: the id
# of its map NAME
map_ids() {
	local m
	for m in $(sed -n 's/^map_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null | sort -u); do
		bpftool -j map show id "$m" 2>/dev/null | jq -r '"\(.name) \(.id)"'
	done
}
map_id() { map_ids "$2" | awk -v n="$1" '$1 == n { print $2; exit }'; }
# trace_unseen DEV [ID]: how many completions of DEV the kernel did not run the tracer
# $TRACE_PID's programs for (its map `unseen`, id ID when known, docs/metrics.md
# "Tracing"): what its histograms miss by the kernel's doing.  Nothing, and false, once
# the tracer has ended.
trace_unseen() {
	local id=${2:-} n
	[ -n "$id" ] || id=$(map_id unseen "$TRACE_PID")
	[ -n "$id" ] || return 1
	n=$(bpftool -j map dump id "$id" 2>/dev/null | jq --argjson d "$(disk_number "$1")" \
		'[.[] | select(.formatted.key == $d) | .formatted.value] | add // 0' 2>/dev/null) &&
		[ -n "$n" ] && echo "$n"
}
