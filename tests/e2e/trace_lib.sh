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
