#!/bin/bash
# tests/bench/console.sh - CPU of the interactive console beside batch mode.
#
# For each interval (1 s and 0.1 s) the console runs in a private tmux server on a
# 200x60 terminal with every device shown, and `ioscope --batch -f text` runs beside
# it for the same time; both read the same kernel.  Printed: CPU milliseconds per
# second and per sample of each, the console's extra cost per sample (drawing,
# history), and the console's peak RSS.  tests/bench/run.sh calls this; it can also
# be run alone: tests/bench/console.sh [SECONDS_AT_1S [SECONDS_AT_0.1S]].
set -u
cd "$(dirname "$0")/../.."
IOSCOPE=${IOSCOPE_OPT:-$PWD/ioscope}
[ -x "$IOSCOPE" ] || { echo "console bench: build ./ioscope first (make all)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "console bench: tmux not installed" >&2; exit 1; }
SOCK="ioscope-bench-$$"
TMPD=$(mktemp -d /tmp/ioscope-bench.XXXXXX)
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT

# CPU time of a pid in nanoseconds (schedstat: exact, unlike the 10 ms ticks of stat)
cpu_ns() { awk '{ print $1 }' "/proc/$1/schedstat" 2>/dev/null || echo 0; }

# measure PID SECONDS INTERVAL -> "ms_per_s ms_per_sample" over the next SECONDS
measure() {
	local t0 t1
	t0=$(cpu_ns "$1")
	sleep "$2"
	t1=$(cpu_ns "$1")
	awk -v d=$((t1 - t0)) -v s="$2" -v i="$3" 'BEGIN { ms = d / 1e6; printf "%.2f %.3f\n", ms / s, ms / (s / i) }'
}

console_cpu() {   # INTERVAL SECONDS -> "ms_per_s ms_per_sample rss_kib"
	local interval=$1 secs=$2 pid m rss
	tmux -L "$SOCK" kill-server 2>/dev/null
	mkdir -p "$TMPD/xdg"
	tmux -L "$SOCK" -f /dev/null new-session -d -x 200 -y 60 \
		env LANG=C.UTF-8 TERM=tmux-256color XDG_CONFIG_HOME="$TMPD/xdg" "$IOSCOPE" -i "$interval"
	sleep 2   # start-up and the first samples are not the steady state
	pid=$(tmux -L "$SOCK" display -p '#{pane_pid}')
	m=$(measure "$pid" "$secs" "$interval")
	rss=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
	tmux -L "$SOCK" send-keys q
	echo "$m $rss"
}

batch_cpu() {   # INTERVAL SECONDS -> "ms_per_s ms_per_sample"
	local interval=$1 secs=$2 pid
	"$IOSCOPE" --batch -f text -i "$interval" >/dev/null &
	pid=$!
	sleep 2
	measure "$pid" "$secs" "$interval"
	kill "$pid"
	wait "$pid" 2>/dev/null
}

printf '%-10s %14s %14s %14s %14s %16s %10s\n' interval "console ms/s" "batch ms/s" \
	"console ms/smp" "batch ms/smp" "drawing ms/smp" "RSS KiB"
for spec in "1 ${1:-20}" "0.1 ${2:-10}"; do
	set -- $spec
	batch_cpu "$1" "$2" >"$TMPD/batch" &
	c=$(console_cpu "$1" "$2")
	wait
	b=$(cat "$TMPD/batch")
	read -r cs cp rss <<<"$c"
	read -r bs bp <<<"$b"
	extra=$(awk -v a="$cp" -v b="$bp" 'BEGIN { printf "%.3f", a - b }')
	printf '%-10s %14s %14s %14s %14s %16s %10s\n' "$1 s" "$cs" "$bs" "$cp" "$bp" "$extra" "$rss"
done
