# Shared helpers for the end-to-end tests.  Source it first thing:
#   . "$(dirname "$0")/lib.sh"
# Results are lines "ok NAME", "not ok NAME", "skip NAME: why" that tests/run.sh counts.
# Everything a test creates (temp dir, loop devices, mounts, background jobs) is
# registered here and undone by the EXIT trap, even when the test fails.
set -u
IOSCOPE=${IOSCOPE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/san/ioscope}
IOSCOPE_OPT=${IOSCOPE_OPT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/ioscope}
IOSCOPE_TOP=${IOSCOPE_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
TMP=$(mktemp -d /tmp/ioscope-test.XXXXXX)
# Cleanups go to a file, not a shell array: helpers like make_loop run inside $(...),
# a subshell whose variables die with it, and a loop device registered there would leak.
_CLEANUPS="$TMP/.cleanups"
: >"$_CLEANUPS"
# A runtime directory of our own (docs/runtime.md): the instances a test starts and the
# `ioscope set` it runs meet there, not with other tests' instances on the machine.
mkdir -m 700 "$TMP/run"
export XDG_RUNTIME_DIR="$TMP/run"

at_exit() { printf '%s\n' "$*" >>"$_CLEANUPS"; }

# nap SECONDS: a pause between two polls of a condition, without a process: a read that
# times out on a FIFO of our own that nobody writes (opened read-write, so the open never
# blocks; opened for each nap, so no process this test starts inherits it).  Each `sleep`
# started costs ~9 ms of CPU on this VM (fork and exec: 3 ms user, 6 ms system), and the
# polls of all scripts together started thousands of them on a machine that `make check`
# keeps busy on both CPUs.  A signal does not cut it short (the read goes on after a trap,
# as it does after SIGCHLD); without the FIFO (gone with $TMP at exit) it is `sleep`.
_NAP="$TMP/.nap"
mkfifo "$_NAP"
nap() {
	local _nap_line
	read -r -t "$1" _nap_line 2>/dev/null <>"$_NAP" || [ -p "$_NAP" ] || sleep "$1"
	return 0
}

# wait_until SECONDS PID TEST...: until the command TEST holds (true), polled every 0.1 s;
# false after SECONDS, or at once when process PID ("": none) has ended without it.
# SECONDS is SECONDS*10 polls and at least 1.15*SECONDS of wall time: what the polls took
# when each also started a `sleep` (on a quiet machine; a loaded one took longer), so no
# wait gives up sooner than it did then.
wait_until() {
	local i tries=$(($1 * 10)) pid=$2 end=$((${EPOCHREALTIME/./} + $1 * 1150000))
	shift 2
	for ((i = 0; i < tries || ${EPOCHREALTIME/./} < end; i++)); do
		"$@" && return 0
		[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && return 1
		nap 0.1
	done
	return 1
}
# wait_socket PID: until instance PID listens in the runtime directory (its socket is there)
wait_socket() { wait_until 10 "$1" test -S "$XDG_RUNTIME_DIR/ioscope/$1.sock"; }
# wait_output FILE PID: until the batch run PID printed its first interval into FILE (30 s
# at most): a change made before a run's first sample is no change, it is what that
# sample starts from
wait_output() { wait_until 30 "$2" test -s "$1"; }
# wait_samples LOG N [PID]: until the session log LOG holds N samples (30 s at most; not
# when PID, the recorder, has ended): a loaded machine may start ioscope late, so a test
# acts after the samples it needs before, not after a fixed sleep
has_samples() { local n; n=$(grep -c '^{"type":"sample"' "$1" 2>/dev/null); [ "${n:-0}" -ge "$2" ]; }
wait_samples() { wait_until 30 "${3:-}" has_samples "$1" "$2"; }
_run_cleanups() {
	local cmd
	# a second TERM (run.sh's timeout, a killed run's scripts signalled again) must not end
	# the cleanups half way: a frozen filesystem was left frozen, its writer in D and seven
	# loop devices attached
	trap '' INT TERM
	while IFS= read -r cmd; do eval "$cmd" >/dev/null 2>&1; done < <(tac "$_CLEANUPS" 2>/dev/null)
	rm -rf "$TMP"
}
trap _run_cleanups EXIT
trap 'exit 130' INT TERM

ok()   { echo "ok $*"; }
fail() { echo "not ok $1${2:+: $2}"; }
skip() { echo "skip $1: $2"; }
# check NAME CMD... : ok when CMD succeeds
check() { local n=$1; shift; if "$@"; then ok "$n"; else fail "$n" "command failed: $*"; fi; }
# clean_stderr FILE: no sanitizer report (ASan, LSan, UBSan) in what a process wrote there
clean_stderr() { ! grep -qE 'Sanitizer|runtime error' "$1"; }

# replay_gives_json NAME: $TMP/NAME.log replayed in batch JSON with --tasks gives
# $TMP/NAME.json again (key order aside) and a clean stderr; both canonical in
# $TMP/NAME.cmp and $TMP/NAME.replay.cmp.  REPLAY_TASKS= : a run without --tasks.
replay_gives_json() {
	local canon='import json, sys
for l in open(sys.argv[1]):
    print(json.dumps(json.loads(l), ensure_ascii=False, sort_keys=True))'
	"$IOSCOPE" --replay "$TMP/$1.log" --batch ${REPLAY_TASKS---tasks} -f json >"$TMP/$1.replay.json" \
		2>"$TMP/$1.replay.err" && clean_stderr "$TMP/$1.replay.err" &&
	python3 -c "$canon" "$TMP/$1.json" >"$TMP/$1.cmp" &&
	python3 -c "$canon" "$TMP/$1.replay.json" >"$TMP/$1.replay.cmp" &&
	cmp -s "$TMP/$1.cmp" "$TMP/$1.replay.cmp"
}

# json_lines_diff A B: where two files of JSON lines first differ, as paths and values
# ("line 15: devices.loop7.%util: 58.0 | 57.9"): a failure message a reader can use,
# where a diff shows two lines of kilobytes cut in the middle.
json_lines_diff() {
	python3 - "$1" "$2" <<'PY'
import json, sys
def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            walk(a.get(k, "<none>"), b.get(k, "<none>"), path + [str(k)], out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, path + [str(i)], out)
    elif a != b:
        out.append("%s: %s | %s" % (".".join(path), json.dumps(a)[:300], json.dumps(b)[:300]))
la, lb = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read().splitlines()
if len(la) != len(lb):
    print("%d lines | %d lines" % (len(la), len(lb)))
for n, (x, y) in enumerate(zip(la, lb), 1):
    if x != y:
        out = []
        walk(json.loads(x), json.loads(y), [], out)
        print("line %d: %s" % (n, "; ".join(out[:8])))
        break
PY
}

is_root() { [ "$(id -u)" = 0 ]; }
# needs NAME CMD...: skip the whole test, naming the command, when one it runs is not
# installed (`make check` installs the test packages only when run as root).
needs() {
	local name=$1 cmd
	shift
	for cmd; do
		command -v "$cmd" >/dev/null 2>&1 && continue
		skip "$name" "$cmd not installed (make test-deps as root installs it)"
		exit 0
	done
}

# system_disk: a whole disk of this machine that no test made (the one under /, else the
# first real disk in /proc/diskstats): vda here, nvme0n1 or sda elsewhere.  Only watched.
system_disk() {
	local d
	d=$(lsblk -ndo PKNAME "$(findmnt -no SOURCE / 2>/dev/null)" 2>/dev/null | head -1)
	[ -z "$d" ] && d=$(lsblk -ndo NAME "$(findmnt -no SOURCE / 2>/dev/null)" 2>/dev/null | head -1)
	[ -n "$d" ] && [ -e "/sys/block/$d" ] && { echo "$d"; return; }
	awk '$3 !~ /^(loop|ram|zram|dm-|md|sr)/ { if (system("test -e /sys/block/" $3) == 0) { print $3; exit } }' /proc/diskstats
}

# Loop devices are reused after detach with the queue settings their last user left, and
# their bdi (its dirty limits) lives as long as the device: put back what this one had, for
# the next test that gets it.  The minimum before the maximum (lowered first, raised last
# would need both orders; tests only raise the maximum back and lower the minimum).
restore_queue() {
	local b=/sys/block/$1 k cmd=""
	# The bdi's limits start at the kernel's defaults, whatever a test killed before its
	# cleanup left: a max_ratio of 0.02 % (1 MB of max_bytes, kept) throttled every writer
	# of every later test that got the device.
	[ -w "$b/bdi/strict_limit" ] && echo 0 >"$b/bdi/strict_limit"
	[ -w "$b/bdi/min_ratio" ] && echo 0 >"$b/bdi/min_ratio"
	[ -w "$b/bdi/max_ratio" ] && echo 100 >"$b/bdi/max_ratio"
	# and no elevator, a loop device's default (BLK_MQ_F_NO_SCHED_BY_DEFAULT), whatever
	# scheduler a killed test left: the console's detail pane lost rows to its tunables
	# (test_console_mount_reconfigure's mount options)
	[ -w "$b/queue/scheduler" ] && echo none >"$b/queue/scheduler"
	# and the request size and queue depth a loop device starts with (read_ahead_kb follows
	# max_sectors_kb): a max_sectors_kb of 4 left behind cut a later test's 256 KiB writes
	# into 64 requests, which took every tag of a frozen device, so its fsync never reached
	# the xfs log it was to wait for (test_why_journal_xfs)
	[ -w "$b/queue/max_sectors_kb" ] && cat "$b/queue/max_hw_sectors_kb" >"$b/queue/max_sectors_kb"
	[ -w "$b/queue/nr_requests" ] && [ -r /sys/module/loop/parameters/hw_queue_depth ] &&
		cat /sys/module/loop/parameters/hw_queue_depth >"$b/queue/nr_requests"
	# and what a new loop device starts with for the rest a test reads or sets (a shell's
	# `wbt_lat_usec 0` or `nomerges 2` outlives the test that made it).  -1 gives wbt the
	# kernel's default for the queue as it is now; a loop device is made non-rotational and
	# made rotational after, so its default is the non-rotational one (2000 µs, not 75000).
	[ -w "$b/queue/nomerges" ] && echo 0 >"$b/queue/nomerges"
	[ -w "$b/queue/write_cache" ] && echo "write back" >"$b/queue/write_cache"
	[ -w "$b/queue/rq_affinity" ] && echo 1 >"$b/queue/rq_affinity"
	[ -w "$b/queue/add_random" ] && echo 0 >"$b/queue/add_random"
	[ -w "$b/queue/iostats" ] && echo 1 >"$b/queue/iostats"
	if [ -w "$b/queue/wbt_lat_usec" ] && [ -w "$b/queue/rotational" ]; then
		local rot
		rot=$(cat "$b/queue/rotational")
		echo 0 >"$b/queue/rotational" && echo -1 >"$b/queue/wbt_lat_usec"
		echo "$rot" >"$b/queue/rotational"
	fi
	for k in queue/scheduler queue/write_cache queue/max_sectors_kb queue/nr_requests \
		 queue/wbt_lat_usec queue/nomerges queue/rq_affinity queue/add_random queue/iostats \
		 queue/read_ahead_kb bdi/strict_limit bdi/min_ratio_fine bdi/max_ratio_fine; do
		local v
		[ -e "$b/$k" ] || continue
		v=$(cat "$b/$k")
		[ "$k" = queue/scheduler ] && v=$(sed -n 's/.*\[\(.*\)\].*/\1/p' <<<"$v")
		cmd="$cmd echo '$v' >$b/$k;"
	done
	at_exit "$cmd"
}

# Elevators come from what the kernel offers the device, never by name: a kernel built
# without bfq (or with it as a module not loaded) offers "none mq-deadline kyber".
# elevators NAME: what /sys/block/NAME/queue/scheduler offers, one a line, the kernel's order
elevators() { tr -d '[]' <"/sys/block/$1/queue/scheduler" | tr -s ' ' '\n' | sed '/^$/d'; }
# elevator_now NAME: the one in use
elevator_now() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }
# has_elevator NAME ELEVATOR: the kernel offers ELEVATOR for NAME
has_elevator() { elevators "$1" | grep -qx "$2"; }
# pick_elevators NAME N: N different elevators NAME offers on one line, those with tunables
# (all but none) first, in the kernel's order; nothing and 1 when it offers fewer.  A test
# that switches A then B reads them with `read -r A B < <(pick_elevators "$dev" 2)`.
pick_elevators() {
	local list
	list=$( { elevators "$1" | grep -vx none; elevators "$1" | grep -x none; } | head -n "$2")
	[ "$(grep -c . <<<"$list")" -eq "$2" ] || return 1
	echo $list
}
# elevator_other NAME [BUT...]: an elevator with tunables NAME offers that is neither the one
# in use nor one of BUT; none when no other is left; 1 when nothing is.
elevator_other() {
	local name=$1 now e
	now=$(elevator_now "$name")
	shift
	for e in $( { elevators "$name" | grep -vx none; echo none; }); do
		[ "$e" = "$now" ] && continue
		case " $* " in *" $e "*) continue ;; esac
		has_elevator "$name" "$e" && { echo "$e"; return 0; }
	done
	return 1
}
# scheduler_line NAME ELEVATOR: NAME's scheduler line as the kernel prints it with ELEVATOR
# in use, as a regex ("none mq-deadline \[kyber\]": the names are [a-z-], only the brackets
# need escaping), for what shows that line (the console's detail pane)
scheduler_line() {
	local e out=""
	for e in $(elevators "$1"); do
		[ "$e" = "$2" ] && e="\\[$e\\]"
		out="$out $e"
	done
	echo "${out# }"
}
# needs_elevators NAME DEV N: skip the whole test, saying what DEV offers, when it offers
# fewer than N elevators.
needs_elevators() {
	pick_elevators "$2" "$3" >/dev/null && return 0
	skip "$1" "$2 offers $(elevators "$2" | tr '\n' ' ')- fewer than $3 elevators"
	exit 0
}

# make_loop SIZE_MB -> prints the kernel name (loopN) of a new loop device on a temp file.
make_loop() {
	local size=${1:-64} img dev
	img=$(mktemp "$TMP/disk.XXXXXX")
	truncate -s "${size}M" "$img" || return 1
	dev=$(losetup --find --show --direct-io=off "$img") || return 1
	at_exit "losetup -d '$dev'"
	restore_queue "${dev##*/}"
	echo "${dev##*/}"
}

# make_loop_in DIR SIZE_MB -> the kernel name of a new loop device on a file in DIR, through
# the page cache (no direct I/O): with DIR's filesystem frozen, its writes block in the
# loop device's worker and stay in flight, a device that hangs on demand.
make_loop_in() {
	local img dev
	img=$(mktemp "$1/disk.XXXXXX") && truncate -s "${2}M" "$img" || return 1
	dev=$(losetup --find --show --direct-io=off "$img") || return 1
	at_exit "losetup -d '$dev'"
	restore_queue "${dev##*/}"
	echo "${dev##*/}"
}

# An ext4 that leaves the kernel's ext4lazyinit thread nothing to do: mkfs writes its inode
# tables and journal (-E lazy_...=0), and no mount reads its block bitmaps ahead (the
# superblock's default mount option no_prefetch_block_bitmaps, which the mount table does
# not show).  Else that thread lives for up to 5 s after each mount of any ext4 (the
# prefetch's random delay; longer with tables to zero), and while it lives every `ioscope
# matrix` on an ext4 of the machine waits 6 s, not 1, for a quiet device before each run
# (docs/experiments.md): one script's plain mkfs.ext4 made the matrices beside it wait.
# The lazy init itself is test_matrix_quiet.sh's subject, the one that makes one.
# mkfs_ext4 DEV [MKFS-OPTS...] makes one (an -E of its own replaces the lazy_...=0: mke2fs
# takes the last -E, so give them in it); MKFS_EXT4 is the same as a matrix's --mkfs command
# (run as `CMD /dev/NAME` by sh).
EXT4_NOLAZY="-E lazy_itable_init=0,lazy_journal_init=0"
MKFS_EXT4="mkfs.ext4 -q -F $EXT4_NOLAZY \"\$1\" && tune2fs -E mount_opts=no_prefetch_block_bitmaps"
mkfs_ext4() {
	local dev=$1; shift
	mkfs.ext4 -q -F $EXT4_NOLAZY "$@" "$dev" && tune2fs -E mount_opts=no_prefetch_block_bitmaps "$dev" >/dev/null
}

# make_fs LOOPNAME TYPE [MKFS-OPTS...] -> prints the mount point (under $TMP); an ext4 as
# mkfs_ext4 makes it
make_fs() {
	local name=$1 type=$2; shift 2
	local mnt="$TMP/mnt-$name"
	mkdir -p "$mnt"
	case "$type" in
	ext4) mkfs_ext4 "/dev/$name" "$@" >/dev/null 2>&1 ;;
	xfs) mkfs.xfs -q -f "$@" "/dev/$name" >/dev/null 2>&1 ;;
	btrfs) mkfs.btrfs -q -f "$@" "/dev/$name" >/dev/null 2>&1 ;;
	esac || return 1
	mount -t "$type" "/dev/$name" "$mnt" || return 1
	at_exit "umount -l '$mnt'"
	echo "$mnt"
}

# hold_exclusively NAME: another process holds /dev/NAME open with O_EXCL (as a mount
# does) until release_hold; what it said in $TMP/holder.out.
hold_exclusively() {
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(60)' "/dev/$1" >"$TMP/holder.out" 2>&1 &
	HOLDER_PID=$!
	at_exit "kill $HOLDER_PID"
	for _ in $(seq 50); do grep -q held "$TMP/holder.out" && break; nap 0.1; done
}
release_hold() { kill "$HOLDER_PID" 2>/dev/null; wait "$HOLDER_PID" 2>/dev/null; }

# A sample held in the middle of its read: hold_mount_read PID [SECONDS] attaches strace to
# ioscope PID (in $HOLD_PID, killed at exit) to hold it SECONDS (3) at the entry of its next
# read of its mount table, once; mount_read_held PID is true while it is held (stopped by the tracer on
# two looks 0.1 s apart: its other stops take microseconds), wait_mount_read_held PID waits
# for that (10 s), and hold_done waits for the hold to end and the tracer to go, then says
# whether the read held was the table's first (offset 0: a change made during the hold is
# in what the sample reads; attached in the middle of a sample, it could be another).
# /proc/PID/syscall would say so at once, but reading it waits for the hold to end.  An
# ioscope under strace needs detect_leaks=0, or the tracer gone before it exits.  1: strace
# cannot trace here.
hold_mount_read() {
	strace -f -o /dev/null true 2>/dev/null || return 1
	strace -f -p "$1" -o "$TMP/hold_mount_read.log" -P "/proc/$1/mountinfo" -e trace=pread64 \
		-e inject=pread64:delay_enter=$((${2:-3} * 1000000)):when=1 2>"$TMP/hold_mount_read.err" &
	HOLD_PID=$!
	at_exit "kill $HOLD_PID"
}
_traced_stop() { [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = t ]; }
_not_held() { ! mount_read_held "$1"; }
mount_read_held() { _traced_stop "$1" && nap 0.1 && _traced_stop "$1"; }
wait_mount_read_held() { wait_until 10 "$1" mount_read_held "$1"; }
hold_done() {
	wait_until 10 "$1" _not_held "$1"
	kill "$HOLD_PID" 2>/dev/null
	wait "$HOLD_PID" 2>/dev/null
	grep -qE '^[0-9]+ +pread64\([0-9]+, .*, [0-9]+, 0\) = [0-9]+ \(DELAYED\)' "$TMP/hold_mount_read.log"
}

# while_mount_read_held NAME PID SECONDS CMD...: CMD (which says its own failures) run while
# ioscope PID is held at the entry of its read of the mount table (hold_mount_read); checked
# to have ended within the hold, the read held to be the table's first; the tracer gone
# afterwards.  1: strace cannot trace here.
while_mount_read_held() {
	local name=$1 pid=$2 secs=$3
	shift 3
	hold_mount_read "$pid" "$secs" || return 1
	if wait_mount_read_held "$pid"; then
		"$@"
		mount_read_held "$pid" && ok "$name: done while the read is held" \
			|| fail "$name: done while the read is held" "the hold ended first"
		hold_done "$pid" && ok "$name: the read held was the mount table's first" \
			|| fail "$name: the read held was the mount table's first" "$(cat "$TMP/hold_mount_read.log")"
	else
		fail "$name: held in its read of the mount table" "$(cat "$TMP/hold_mount_read.err")"
	fi
	kill "$HOLD_PID" 2>/dev/null
	wait "$HOLD_PID" 2>/dev/null
	return 0
}

# Sleeps only this test runs, `sleep ${MARK}N` (9 and our pid): pgrep -f finds them and
# nothing else.  marked [PATTERN]: their pids (N matching PATTERN); wait_marked PATTERN
# COUNT: until COUNT of them run (15 s at most); KILL_MARKED: a cleanup that kills them.
MARK="9$$"
KILL_MARKED="kill -KILL \$(pgrep -f '^sleep ${MARK}') 2>/dev/null; sleep 0.2"
marked() { pgrep -f "^sleep ${MARK}${1:-}" | tr '\n' ' '; }
wait_marked() {
	local i
	for ((i = 0; i < 150; i++)); do
		[ "$(pgrep -fc "^sleep ${MARK}$1")" -ge "$2" ] && return 0
		nap 0.1
	done
	return 1
}

# bg CMD... : start a background job that is killed at exit; its pid is in $BG_PID.
bg() { "$@" & BG_PID=$!; at_exit "kill $BG_PID; wait $BG_PID"; }

# region_writer FILE SECONDS [BS_KB [BLOCKS [MB_S]]]: one process writing BLOCKS blocks of
# BS_KB (64, 64) over the start of FILE (a file or a /dev node) again and again, with
# O_DIRECT (where the filesystem refuses it: buffered, fsync after each pass), until
# SECONDS are up; at most MB_S MB/s when given.  What `while :; do dd ... conv=notrunc;
# done` did without a fork and an exec every few milliseconds (in test_control_remount,
# bash and dd were 61 % of the machine's samples).  A test that only needs a busy disk
# says MB_S: flat out, a writer and its loop worker take a CPU for as long as they run.
region_writer() {
	bg timeout "$2" python3 -c 'import mmap, os, sys, time
path, bs, blocks = sys.argv[1], int(sys.argv[2]) * 1024, int(sys.argv[3])
rate = float(sys.argv[4]) * 1e6
buf = mmap.mmap(-1, bs)   # page-aligned, as O_DIRECT wants
try:
    fd, direct = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o600), True
    os.pwrite(fd, buf, 0)
except OSError:
    fd, direct = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), False
start, written = time.monotonic(), 0
while True:
    for i in range(blocks):
        os.pwrite(fd, buf, i * bs)
        written += bs
        ahead = rate and written / rate - (time.monotonic() - start)
        if ahead > 0:
            time.sleep(ahead)
    if not direct:
        os.fsync(fd)' "$1" "${3:-64}" "${4:-64}" "${5:-0}"
}

# fsync_churn DIR SECONDS [PER_S]: small files made again and again in DIR, each written and
# fsync'd (a journal commit each: f0..f499, the loop number in each), PER_S (100) a second,
# until SECONDS are up.  What `i=0; while :; do echo $i >DIR/f$((i % 500)); sync
# DIR/f$((i % 500)); done` did (128 a second on a quiet machine here) without a fork and an
# exec a file: that loop took 1.4 CPUs for as long as it ran, this one a few per cent.
fsync_churn() {
	bg timeout "$2" python3 -c 'import os, sys, time
d, per_s, i = sys.argv[1], float(sys.argv[2]), 0
start = time.monotonic()
while True:
    i += 1
    fd = os.open("%s/f%d" % (d, i % 500), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, b"%d\n" % i)
    os.fsync(fd)
    os.close(fd)
    ahead = i / per_s - (time.monotonic() - start)
    if ahead > 0:
        time.sleep(ahead)' "$1" "${3:-100}"
}

# steady_writer NAME [SECONDS [MB_S]]: a steady direct-I/O writer on /dev/NAME (flat out
# unless MB_S) that stops by itself after SECONDS (60).
steady_writer() { region_writer "/dev/$1" "${2:-60}" 64 256 "${3:-0}"; }

# A writer on /dev/NAME at about 100 MB/s that stops by itself after SECONDS: a dd always
# running (for a test that looks for it among the processes), fed 1 MiB each 10 ms through
# a pipe.  steady_writer's flat-out loop (GB/s on a loop device) takes a CPU with its loop
# worker for as long as it runs; this one a few per cent.
busy_writer() {
	local name=$1 seconds=${2:-60}
	bg timeout "$seconds" bash -c "python3 -c '
import sys, time
chunk = bytes(1 << 20)
while True:
    sys.stdout.buffer.write(chunk)
    sys.stdout.flush()
    time.sleep(0.01)' | while :; do
		dd of=/dev/$name bs=64k count=256 iflag=fullblock oflag=direct status=none || break
	done"
}

# A writer that rewrites 4 KiB of FILE every 10 ms (pwrite on one descriptor: frozen, it
# blocks in the write itself), in the background like bg; its pid is in $BG_PID.
pwrite_loop() {
	bg python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
while True:
    os.pwrite(fd, b"x" * 4096, 0)
    time.sleep(0.01)' "$1"
}
