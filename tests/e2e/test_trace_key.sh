#!/bin/bash
# The console's b key (issue 11): tracing turned on while the console runs, on a real loop
# device with direct I/O under a steady writer.  Before: libbpf is not loaded and the heat
# map (graph metric "latency") says how to turn tracing on.  b: the tracer is loaded, the
# write strip's cells are shaded, a "trace on" mark is drawn across the heat map and
# recorded as an event followed by trace records; the recording replays into the same heat
# map.  b again: "trace off".  As nobody: b says what is needed and sampling goes on.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
SCREEN="$(dirname "$0")/heat_screen.py"
is_root || { skip "trace key" "needs root (BPF, loop devices)"; exit 0; }
command -v tmux >/dev/null || { skip "trace key" "tmux not installed"; exit 0; }
"$IOSCOPE" --version | grep -q "tracing (--trace): built in" ||
	{ skip "trace key" "this build has no tracing (libbpf-dev, bpftool, clang)"; exit 0; }

shm=$(mktemp -d /dev/shm/ioscope-test.XXXXXX)
at_exit "rm -rf '$shm'"
truncate -s 256M "$shm/img"
ddev=$(losetup --find --show --direct-io=on "$shm/img") && at_exit "losetup -d '$ddev'" ||
	{ fail "loop device"; exit 1; }
dev=$(basename "$ddev")
restore_queue "$dev"
region_writer "$ddev" 300 16 2048 100

mkdir -p "$TMP/xdg/ioscope"
echo "graph = latency" >"$TMP/xdg/ioscope/config"
# heat_check NAME KIND ARG: the screen as heat_screen.py sees it, retried for 8 s.
heat_check() {
	local out i
	for ((i = 0; i < 40; i++)); do
		out=$(screen | "$SCREEN" "$2" "$3") && { ok "$1"; return 0; }
		sleep 0.2
	done
	fail "$1" "$out"; show_screen
}
libs_of() { grep -oE '[^/ ]*(bpf|ioscope-trace)[^/ ]*\.so[^ ]*' "/proc/$1/maps" | sort -u | tr '\n' ' '; }

console_shell 120 40
console_run -i 0.5 --record "$TMP/k.log" "$dev"
screen_check "console up" "^ioscope "
screen_check "before b: the heat map says how to turn tracing on" "b turns tracing on"
pid=$(console_pid)
[ -n "$pid" ] && [ -z "$(libs_of "$pid")" ] && ok "before b: no libbpf, no tracer loaded" ||
	fail "before b: no libbpf, no tracer loaded" "pid=$pid $(libs_of "$pid")"
console_send b
screen_check "b: the footer says tracing is on" "tracing on: latency heat map"
[ -n "$pid" ] && libs_of "$pid" | grep -q "ioscope-trace.so" && libs_of "$pid" | grep -q libbpf &&
	ok "b: the tracer and libbpf are loaded now" || fail "b: the tracer and libbpf are loaded now" "$(libs_of "$pid")"
heat_check "b: the write strip's heat map shades cells while the writer writes" heat "write latency"
heat_check "b: the trace on mark is drawn across the heat map" mark "trace on"
screen_check "the marks panel lists it" "trace +off → on"
sleep 3   # a few columns of heat for the replay, besides the marks' own
console_send b
screen_check "b again: tracing off" "tracing off"
# two marks a second or two apart: the strip may show their numbers only ([1,2]), so the
# trace off mark is looked for by the number the marks panel gives it
screen_check "b again: the marks panel lists the trace off mark" "trace +on → off"
off=$(screen | sed -nE 's/.*\[([0-9]+)\] +[0-9:]+ +trace +on → off.*/\1/p' | head -1)
heat_check "b again: a trace off mark, [${off:-?}] in the marks panel, across the heat map" mark "[${off:-none}]"
console_send q
ended_check "console with the b key"

kinds=$(jq -r 'select(.type == "event" and .kind == "trace") | .new' "$TMP/k.log" | tr '\n' ' ')
[ "$kinds" = "on off " ] && ok "the recording holds the trace on and off events" ||
	fail "the recording holds the trace on and off events" "$kinds"
on=$(grep -n '"kind":"trace"' "$TMP/k.log" | head -1 | cut -d: -f1)
first=$(grep -n '"type":"trace"' "$TMP/k.log" | head -1 | cut -d: -f1)
[ -n "$on" ] && [ -n "$first" ] && [ "$first" -gt "$on" ] &&
	ok "trace records start after the trace on event" ||
	fail "trace records start after the trace on event" "event line $on, first trace line $first"

# The recording replayed: the same heat map, with its marks.
console_run --replay "$TMP/k.log" "$dev"
screen_check "replay up" "^ioscope "
console_send G
console_send -l "+1000"
console_send Enter
heat_check "replay: the heat map shades cells" heat "write latency"
# (by its number in the marks panel: a device another test attached meanwhile is a mark too)
screen_check "replay: the marks panel lists the trace on mark" "trace +off → on"
on=$(screen | sed -nE 's/.*\[([0-9]+)\] +[0-9:]+ +trace +off → on.*/\1/p' | head -1)
heat_check "replay: the trace on mark, [${on:-?}] in the marks panel, across it" mark "[${on:-none}]"
console_send q
ended_check "replay of the traced recording"

# As nobody: b refuses with what is needed; the console keeps sampling.
if command -v setpriv >/dev/null; then
	chmod 755 "$TMP" "$TMP/xdg" "$TMP/xdg/ioscope"
	cp "$IOSCOPE" "$TMP/ioscope" && chmod 755 "$TMP/ioscope"
	CONSOLE_CMD="setpriv --reuid=nobody --regid=nogroup --clear-groups $TMP/ioscope"
	console_run -i 0.2
	screen_check "nobody: console up" "^ioscope "
	console_send b
	screen_check "nobody: b says tracing needs CAP_BPF and CAP_PERFMON" "CAP_BPF and CAP_PERFMON"
	t1=$(screen | head -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}')
	sleep 1.5
	t2=$(screen | head -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}')
	console_up && [ -n "$t1" ] && [ "$t1" != "$t2" ] && ok "nobody: the console keeps sampling" ||
		{ fail "nobody: the console keeps sampling" "$t1 $t2"; show_screen; }
	console_send q
	ended_check "console as nobody"
else
	skip "nobody: b refused" "no setpriv"
fi
exit 0
