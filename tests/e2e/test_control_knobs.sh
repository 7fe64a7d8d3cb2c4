#!/bin/bash
# Issue 25, the writeback and queue knobs, on loop devices of our own: each knob changed from
# a shell (queue files, the bdi's limits, losetup --direct-io, losetup -c after the file grew,
# blockdev --setro) is one event with old and new in a running batch; `ioscope set` while it
# runs is one event by ioscope and no observed echo; `set` of each writable knob reads back;
# a value refused (by ioscope or by the kernel) leaves every knob as it was; loop.dio asks
# first; an unprivileged `set` says what it needs.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "knobs on loop devices" "needs root (loop devices, sysfs writes)"
	exit 0
fi
L=$(make_loop 64) || { fail "a loop device" "losetup failed"; exit 0; }
B=/sys/block/$L
IMG=$(losetup -nO BACK-FILE "/dev/$L" | sed 's/ *$//')
at_exit "blockdev --setrw /dev/$L"
[ -e "$B/queue/wbt_lat_usec" ] && [ -e "$B/bdi/max_ratio_fine" ] && [ -e "$B/bdi/strict_limit" ] \
	|| { skip "knobs on loop devices" "this kernel lacks wbt_lat_usec or the fine bdi ratios"; exit 0; }

# every knob's file, to see that a refusal leaves them all as they were
KNOBS="queue/wbt_lat_usec queue/nomerges queue/rq_affinity queue/add_random queue/iostats
	queue/read_ahead_kb bdi/strict_limit bdi/max_ratio_fine bdi/min_ratio_fine loop/dio ro size"
knob_values() { local k; for k in $KNOBS; do printf '%s=%s\n' "$k" "$(cat "$B/$k")"; done; }
other() { [ "$1" = "$2" ] && echo "$3" || echo "$2"; }   # other CUR A B: A, or B when CUR is A

# --- from a shell, while batch watches: one event each, old and new ---
"$IOSCOPE" --batch -f json -i 0.2 "$L" >"$TMP/batch.json" 2>"$TMP/batch.err" &
BATCH=$!
at_exit "kill $BATCH"
sleep 1.5
declare -A want
change() {   # change FILE NEW KEY: write NEW from the shell, expect KEY old->new
	local old
	old=$(cat "$B/$1")
	echo "$2" >"$B/$1" || fail "shell write $1=$2"
	want[$3]="$old $(cat "$B/$1")"
}
change queue/wbt_lat_usec "$(other "$(cat $B/queue/wbt_lat_usec)" 5000 6000)" wbt_lat_usec
change queue/nomerges 2 nomerges
change queue/rq_affinity "$(other "$(cat $B/queue/rq_affinity)" 2 1)" rq_affinity
change queue/add_random "$(other "$(cat $B/queue/add_random)" 1 0)" add_random
change bdi/strict_limit "$(other "$(cat $B/bdi/strict_limit)" 1 0)" bdi.strict_limit
old=$(cat $B/bdi/max_ratio_fine)
echo 60 >"$B/bdi/max_ratio"          # the coarse file: the event is the fine ratio's
want[bdi.max_ratio_fine]="$old $(cat $B/bdi/max_ratio_fine)"
want[loop.dio]="0 1"
losetup --direct-io=on "/dev/$L"
old=$(cat $B/size)
truncate -s 96M "$IMG" && losetup -c "/dev/$L"
want[loop.sectors]="$old $(cat $B/size)"
blockdev --setro "/dev/$L"
want[loop.ro]="0 1"
sleep 6.5                            # the knobs are read every 5 s
"$IOSCOPE" set "$L" nomerges=1 >"$TMP/set-running.out" 2>&1 \
	|| fail "set while batch runs" "$(cat "$TMP/set-running.out")"
sleep 6.5
kill -INT $BATCH
wait $BATCH
rc=$?
[ $rc -eq 0 ] && clean_stderr "$TMP/batch.err" && ok "batch ran cleanly" \
	|| fail "batch ran cleanly" "exit $rc: $(head -c 2000 "$TMP/batch.err")"
for k in "${!want[@]}"; do echo "$k ${want[$k]}"; done >"$TMP/want"

python3 - "$TMP/batch.json" "$TMP/want" "$L" "$IMG" <<'PY'
import json, sys
path, want_path, dev, img = sys.argv[1:]
lines = [json.loads(l) for l in open(path) if l.strip()]
evs = [e for o in lines for e in o["events"] if e["object"] == dev]
def check(name, cond, detail=""):
    print(("ok " if cond else "not ok ") + name + ("" if cond else ": %s" % detail))
for line in open(want_path):
    key, old, new = line.split()
    mine = [e for e in evs if e["key"] == key and e["by"] == "observed"]
    check("shell %s %s->%s: one event" % (key, old, new),
          len(mine) == 1 and mine[0]["old"] == old and mine[0]["new"] == new,
          [(e["key"], e["old"], e["new"], e["by"]) for e in evs if e["key"] == key])
nm = [(e["old"], e["new"], e["by"]) for e in evs if e["key"] == "nomerges"]
check("set while batch runs: one event by ioscope, no observed echo",
      nm == [("0", "2", "observed"), ("2", "1", "ioscope")], nm)
last = lines[-1]["devices"][dev]["settings"]
check("batch json settings: the knobs and the backing file",
      last.get("loop.backing_file") == img and last.get("nomerges") == "1"
      and last.get("loop.dio") == "1" and "bdi.max_ratio" not in last
      and "bdi.max_bytes" not in last, last)
PY
losetup --direct-io=off "/dev/$L"
blockdev --setrw "/dev/$L"

# --- set: every writable knob, read back ---
before=$(knob_values)
"$IOSCOPE" set "$L" wbt_lat_usec=7000 nomerges=0 rq_affinity=0 add_random=1 iostats=1 \
	bdi.strict_limit=0 bdi.max_ratio=70 bdi.min_ratio=1 read_ahead_kb=256 \
	>"$TMP/set.out" 2>"$TMP/set.err"
rc=$?
got="$(cat $B/queue/wbt_lat_usec) $(cat $B/queue/nomerges) $(cat $B/queue/rq_affinity)"
got+=" $(cat $B/queue/add_random) $(cat $B/queue/iostats) $(cat $B/bdi/strict_limit)"
got+=" $(cat $B/bdi/max_ratio) $(cat $B/bdi/min_ratio) $(cat $B/queue/read_ahead_kb)"
[ $rc -eq 0 ] && [ "$got" = "7000 0 0 1 1 0 70 1 256" ] && clean_stderr "$TMP/set.err" \
	&& ok "set: every writable knob read back" \
	|| fail "set: every writable knob read back" "exit $rc, got $got: $(cat "$TMP/set.out" "$TMP/set.err")"
grep -q "bdi.max_ratio: .* -> 70: ok (bdi.max_ratio_fine .* -> 700000)" "$TMP/set.out" \
	&& ok "set: a coarse ratio says the fine one it sets" || fail "set: a coarse ratio says the fine one it sets" "$(cat "$TMP/set.out")"
"$IOSCOPE" set "$L" wbt_lat_usec=-1 >"$TMP/wbt.out" 2>&1
grep -qE "wbt_lat_usec: 7000 -> [1-9][0-9]*: ok \(-1: back to the default" "$TMP/wbt.out" \
	&& ok "set: wbt_lat_usec=-1 reads back the default" || fail "set: wbt_lat_usec=-1 reads back the default" "$(cat "$TMP/wbt.out")"
"$IOSCOPE" set --events "$L" bdi.max_bytes=$((64 << 20)) >"$TMP/bytes.out" 2>&1
rc=$?
python3 - "$TMP/bytes.out" "$(cat $B/bdi/max_ratio_fine)" <<'PY' && [ $rc -eq 0 ] \
	&& ok "set: bdi.max_bytes is the event of the fine ratio it sets" \
	|| fail "set: bdi.max_bytes is the event of the fine ratio it sets" "exit $rc: $(cat "$TMP/bytes.out")"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert len(ev) == 1 and ev[0]["key"] == "bdi.max_ratio_fine" and ev[0]["new"] == sys.argv[2], ev
assert ev[0]["by"] == "ioscope" and ev[0]["result"].startswith("ok"), ev
PY

# --- loop.dio: asks, --yes answers ---
"$IOSCOPE" set "$L" loop.dio=1 </dev/null >"$TMP/dio-ask.out" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(cat $B/loop/dio)" = 0 ] && grep -q "loop.dio=1 changes how $L" "$TMP/dio-ask.out" \
	&& grep -q "add --yes" "$TMP/dio-ask.out" && ok "loop.dio without a terminal or --yes: nothing changed" \
	|| fail "loop.dio without a terminal or --yes: nothing changed" "exit $rc: $(cat "$TMP/dio-ask.out")"
"$IOSCOPE" set --yes "$L" loop.dio=on >"$TMP/dio.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(cat $B/loop/dio)" = 1 ] && grep -q "loop.dio: 0 -> 1: ok" "$TMP/dio.out" \
	&& ok "loop.dio=on --yes: LOOP_SET_DIRECT_IO, read back" || fail "loop.dio=on --yes: LOOP_SET_DIRECT_IO, read back" "exit $rc: $(cat "$TMP/dio.out")"
"$IOSCOPE" set --yes "$L" loop.dio=0 >/dev/null 2>&1

# --- refusals leave everything as it was ---
before=$(knob_values)
"$IOSCOPE" set "$L" nomerges=2 bdi.min_ratio=80 >"$TMP/ours.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(knob_values)" = "$before" ] && grep -q "above the maximum" "$TMP/ours.out" \
	&& ok "refused by ioscope (minimum above maximum): nothing changed" \
	|| fail "refused by ioscope (minimum above maximum): nothing changed" "exit $rc: $(cat "$TMP/ours.out")"
"$IOSCOPE" set "$L" bdi.max_bytes=99999999999999999 >"$TMP/kernel.out" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(knob_values)" = "$before" ] && grep -q "refused: bdi.max_bytes=.*: Invalid argument" "$TMP/kernel.out" \
	&& ok "refused by the kernel (past the dirty limit): its words, nothing changed" \
	|| fail "refused by the kernel (past the dirty limit): its words, nothing changed" "exit $rc: $(cat "$TMP/kernel.out")"
"$IOSCOPE" set "$L" io_poll=1 >"$TMP/ro.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "io_poll is watched, not set" "$TMP/ro.out" && ok "a watched-only knob is refused with the reason" \
	|| fail "a watched-only knob is refused with the reason" "exit $rc: $(cat "$TMP/ro.out")"
# a loop device whose offset is no multiple of its block size cannot do direct I/O
truncate -s 16M "$TMP/odd.img"
L2=$(losetup -f --show -o 100 "$TMP/odd.img" 2>/dev/null) && L2=${L2#/dev/}
if [ -n "$L2" ]; then
	at_exit "losetup -d /dev/$L2"
	restore_queue "$L2"
	"$IOSCOPE" set --yes "$L2" loop.dio=1 >"$TMP/odd.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && [ "$(cat /sys/block/$L2/loop/dio)" = 0 ] \
		&& grep -q "refused: loop.dio=1: $L2: Invalid argument; the backing file" "$TMP/odd.out" \
		&& ok "loop.dio the kernel refuses: its words, still off" \
		|| fail "loop.dio the kernel refuses: its words, still off" "exit $rc: $(cat "$TMP/odd.out")"
else
	fail "a loop device at offset 100" "losetup -o 100 failed"
fi

# --- a /dev node that is not the device (planted, replaced) is refused, never acted on ---
# (in a mount namespace of its own, with a tmpfs over /dev: the machine's /dev is untouched)
min=$(cut -d: -f2 "$B/dev")
for planted in "mknod /dev/$L b 7 $((min + 1))" "mknod /dev/x b 7 $min; ln -s x /dev/$L"; do
	out=$(unshare --mount --propagation private sh -c "mount -t tmpfs none /dev && $planted &&
		'$IOSCOPE' set --yes '$L' loop.dio=1" 2>&1); rc=$?
	[ $rc -eq 1 ] && [ "$(cat $B/loop/dio)" = 0 ] \
		&& grep -qE "refused: loop.dio=1: /dev/$L(: Too many levels| is not the block device)" <<<"$out" \
		&& ok "loop.dio through a planted node (${planted%%;*}): refused" \
		|| fail "loop.dio through a planted node (${planted%%;*}): refused" "exit $rc: $out"
done

# --- unprivileged ---
before=$(knob_values)
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" set "$L" nomerges=2 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "changing nomerges of $L needs root" <<<"$out" && [ "$(knob_values)" = "$before" ] \
	&& ok "unprivileged set of a queue knob: says root is needed" || fail "unprivileged set of a queue knob: says root is needed" "exit $rc: $out"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" set "$L" bdi.strict_limit=1 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "bdi/strict_limit is not writable" <<<"$out" \
	&& ok "unprivileged set of a bdi limit: says root is needed" || fail "unprivileged set of a bdi limit: says root is needed" "exit $rc: $out"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" set --yes "$L" loop.dio=1 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "loop.dio of $L needs CAP_SYS_ADMIN" <<<"$out" && [ "$(knob_values)" = "$before" ] \
	&& ok "unprivileged loop.dio: says CAP_SYS_ADMIN is needed" || fail "unprivileged loop.dio: says CAP_SYS_ADMIN is needed" "exit $rc: $out"
