#!/bin/bash
# The probe run as root in a directory others may write (issue 23; docs/security.md, "What
# ioscope runs or loads"):
# - --probe-exec starts its copy of the program through the descriptor it opened, so a
#   program renamed over the copy's name never runs;
# - a directory another user can write (shared and not sticky, or owned by another user)
#   gets no copy: /bin/true is timed instead, and ioscope says why;
# - the working set is opened again through its descriptor, so a FIFO renamed over its
#   name does not hang ioscope and a symlink is not followed.  race_swap.c makes the
#   rename land where it hurts: between the file's creation and its reopening.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "hostile probe" "needs root (a loop device, another user's directory)"; exit 0; }

dev=$(make_loop 128) || { fail "loop device"; exit 1; }
mnt=$(make_fs "$dev" ext4) || { fail "ext4 on $dev"; exit 1; }
cc -shared -fPIC -o "$TMP/race_swap.so" "$(dirname "$0")/race_swap.c" -ldl ||
	{ fail "race_swap.so builds"; exit 1; }

fds_of() { find "/proc/$1/fd" -mindepth 1 -printf '%l\n' 2>/dev/null; }
wait_output() { local i; for i in $(seq 100); do [ -s "$1" ] && return; sleep 0.1; done; return 1; }
json_sum() { jq -s "[.[].probe.$2 // 0 | if type == \"array\" then length else . end] | add" "$1"; }

# probe_exec NAME DIR [PLANT]: cold starts timed in DIR for 3 s; once ioscope samples, its
# descriptors go to $TMP/NAME.fds and PLANT (a program) is renamed over the copy's name.
probe_exec() {
	local name=$1 dir=$2 plant=${3:-} pid
	"$IOSCOPE" --batch -f json -i 0.5 -c 6 --probe "$dir" --probe-interval 0.1 --probe-exec \
		>"$TMP/$name.json" 2>"$TMP/$name.err" &
	pid=$!
	wait_output "$TMP/$name.json"
	fds_of "$pid" >"$TMP/$name.fds"
	[ -n "$plant" ] && mv -f "$plant" "$dir/.ioscope-probe-$pid.exec"
	wait "$pid"
	PROBE_RC=$?
	PROBE_PID=$pid
}

# A program put in the place of the copy, as the directory's owner could: never run.
mkdir -m 755 "$mnt/own"
printf '#!/bin/sh\ntouch "%s"\n' "$TMP/planted-ran" >"$mnt/planted"
chmod 755 "$mnt/planted"
probe_exec own "$mnt/own" "$mnt/planted"
starts=$(json_sum "$TMP/own.json" exec_us) errors=$(json_sum "$TMP/own.json" errors)
[ "$PROBE_RC" = 0 ] && clean_stderr "$TMP/own.err" && [ ! -e "$TMP/planted-ran" ] &&
	[ "$starts" -ge 10 ] && [ "$errors" = 0 ] &&
	ok "a program renamed over the probe's copy is never run" ||
	fail "a program renamed over the probe's copy is never run" "rc=$PROBE_RC starts=$starts \
errors=$errors ran=$(ls "$TMP/planted-ran" 2>/dev/null) $(head -3 "$TMP/own.err")"
grep -qxF "$mnt/own/.ioscope-probe-$PROBE_PID.exec (deleted)" "$TMP/own.fds" &&
	[ ! -s "$TMP/own.err" ] &&
	ok "in a directory only root can write, the copy on the probed disk is started" ||
	fail "in a directory only root can write, the copy on the probed disk is started" \
		"$(tr '\n' ' ' <"$TMP/own.fds") $(head -3 "$TMP/own.err")"

# A directory another user can write: no copy there; /bin/true is timed, and said so.
true_path=$(readlink -f /bin/true)
refused() {
	local name=$1 why=$2 starts said
	probe_exec "$name" "$mnt/$name"
	starts=$(json_sum "$TMP/$name.json" exec_us)
	said="ioscope: probe: --probe-exec: $mnt/$name: $why: no program is run from there;"
	said="$said /bin/true is timed instead"
	[ "$PROBE_RC" = 0 ] && clean_stderr "$TMP/$name.err" && [ "$starts" -ge 10 ] &&
		grep -qF "$said" "$TMP/$name.err" &&
		grep -qxF "$true_path" "$TMP/$name.fds" && ! grep -q '\.exec' "$TMP/$name.fds" &&
		ok "--probe-exec in a directory $3: /bin/true, and why" ||
		fail "--probe-exec in a directory $3: /bin/true, and why" \
			"rc=$PROBE_RC starts=$starts $(head -3 "$TMP/$name.err") \
$(tr '\n' ' ' <"$TMP/$name.fds")"
}
mkdir -m 777 "$mnt/shared" && chmod 777 "$mnt/shared"
refused shared "writable by its group or others (mode 0777) and not sticky" "anyone can write"
mkdir -m 775 "$mnt/group" && chmod 775 "$mnt/group" && chgrp nogroup "$mnt/group"
refused group "writable by its group or others (mode 0775) and not sticky" "its group can write"
mkdir -m 755 "$mnt/nobody" && chown nobody "$mnt/nobody"
refused nobody "owned by uid $(id -u nobody), not by root or ioscope's user (uid 0)" \
	"another user owns"
# The console says it in its footer.
console_shell 200 40
console_run -i 0.5 --probe "$mnt/shared" --probe-interval 0.1 --probe-exec
screen_check "console: the footer says why /bin/true is timed" \
	"probe: --probe-exec: $mnt/shared: writable by its group or others"
console_send q
ended_check "console with --probe-exec in a shared directory"
# sticky, as /tmp: nobody may rename over what root made there
mkdir -m 1777 "$mnt/sticky" && chmod 1777 "$mnt/sticky"
probe_exec sticky "$mnt/sticky"
[ "$PROBE_RC" = 0 ] && [ ! -s "$TMP/sticky.err" ] &&
	grep -qxF "$mnt/sticky/.ioscope-probe-$PROBE_PID.exec (deleted)" "$TMP/sticky.fds" &&
	ok "a sticky shared directory gets the copy" ||
	fail "a sticky shared directory gets the copy" \
		"rc=$PROBE_RC $(head -3 "$TMP/sticky.err") $(tr '\n' ' ' <"$TMP/sticky.fds")"

# swapped_run NAME DIR OBJECT SECONDS: the probe on DIR, OBJECT renamed over its working
# set right before the fsync that ends writing it; killed after SECONDS (a hang).  Its
# descriptors, once it samples, in $TMP/NAME.fds.
swapped_run() {
	local name=$1 dir=$2 obj=$3 pid
	LD_PRELOAD="$TMP/race_swap.so" RACE_MATCH="$dir/.ioscope-probe-" RACE_FROM="$obj" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		timeout -s KILL "$4" "$IOSCOPE" --batch -f json -i 0.5 -c 6 --probe "$dir" \
		--probe-interval 0.1 >"$TMP/$name.json" 2>"$TMP/$name.err" &
	pid=$!
	wait_output "$TMP/$name.json"
	fds_of "$(pgrep -P "$pid" -x ioscope)" >"$TMP/$name.fds"
	wait "$pid"
	PROBE_RC=$?
}
# swapped DIR OBJECT: race_swap said it made the rename
swapped() {
	grep -q "^race_swap: $2 renamed over $1/.ioscope-probe-[0-9]*\$" "$TMP/$(basename "$1").err"
}

# A FIFO in the working set's place: ioscope does not wait on it.
mkdir -m 755 "$mnt/fifo" && mkfifo "$mnt/fifo-swap"
swapped_run fifo "$mnt/fifo" "$mnt/fifo-swap" 20
reads=$(json_sum "$TMP/fifo.json" read_us)
swapped "$mnt/fifo" "$mnt/fifo-swap" && [ "$PROBE_RC" = 0 ] && clean_stderr "$TMP/fifo.err" &&
	[ "$reads" -ge 5 ] && [ -z "$(ls -A "$mnt/fifo")" ] &&
	ok "a FIFO renamed over the working set neither hangs ioscope nor stays" ||
	fail "a FIFO renamed over the working set neither hangs ioscope nor stays" \
		"rc=$PROBE_RC (137: hung, killed) reads=$reads $(head -3 "$TMP/fifo.err") \
$(ls -A "$mnt/fifo")"

# A symlink in its place: not followed (ioscope reads its own file, unlinked).
mkdir -m 755 "$mnt/link" && head -c 1M /dev/urandom >"$mnt/target" &&
	ln -s "$mnt/target" "$mnt/link-swap"
swapped_run link "$mnt/link" "$mnt/link-swap" 20
errors=$(json_sum "$TMP/link.json" errors)
swapped "$mnt/link" "$mnt/link-swap" && [ "$PROBE_RC" = 0 ] && clean_stderr "$TMP/link.err" &&
	[ "$errors" = 0 ] && ! grep -q target "$TMP/link.fds" &&
	grep -qE "^$mnt/link/\.ioscope-probe-[0-9]+ \(deleted\)\$" "$TMP/link.fds" &&
	[ -z "$(ls -A "$mnt/link")" ] &&
	ok "a symlink renamed over the working set is not followed" ||
	fail "a symlink renamed over the working set is not followed" \
		"rc=$PROBE_RC errors=$errors $(head -3 "$TMP/link.err") \
$(tr '\n' ' ' <"$TMP/link.fds")"
