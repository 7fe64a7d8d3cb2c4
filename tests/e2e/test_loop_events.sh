#!/bin/bash
# Issue 41 item 1: a loop device's file is one event that says so.  `losetup -d` is an
# event ("detached from FILE"), an attach one event naming the file and its flags
# ("attached FILE (dio 0, ro 0, 32 MiB)", not four loop.* tunable events), another file
# attached later no "loop.backing_file A → B", and a removal "removed", not "-dev loopN".
# In batch JSON and text, replayed from the recording the same, and in the console: the
# marks panel says it, the detail pane keeps no loop line of a file detached.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "loop events" "needs root for a loop device"; exit 0; }
needs "loop events" python3 losetup

# A loop device of our own, numbered where `losetup --find` (the lowest free one) does not
# look: detached, no other test takes it before we attach again.  LOOP_CTL_ADD fails on a
# number that exists, so the one we get is ours; we remove it at the end.
loopctl() {
	python3 -c 'import fcntl, os, sys
fd = os.open("/dev/loop-control", os.O_RDWR)
fcntl.ioctl(fd, int(sys.argv[1], 16), int(sys.argv[2]))' "$@"
}
N=
for n in $(seq 200 299); do
	[ -e "/sys/block/loop$n" ] && continue
	loopctl 4C80 "$n" 2>/dev/null && { N=$n; break; }
done
[ -n "$N" ] || { skip "loop events" "no free loop device number in 200-299"; exit 0; }
dev=loop$N
# ours(): the file attached now is one of ours (never detach another's)
ours() { case "$(cat "/sys/block/$dev/loop/backing_file" 2>/dev/null)" in "$TMP"/*) return 0 ;; esac; return 1; }
at_exit "ours && losetup -d /dev/$dev; loopctl 4C81 $N"
wait_until 5 "" test -b "/dev/$dev" || { fail "loop events: /dev/$dev"; exit 1; }
A=$TMP/a.img B=$TMP/b.img
truncate -s 64M "$A" && truncate -s 32M "$B"
attach() { losetup --direct-io=off "/dev/$dev" "$1"; }
detach() { ours && losetup -d "/dev/$dev"; }
attach "$A" || { fail "loop events: attach $A"; exit 1; }

# events FILE: the loop device's events of a batch JSON run, one "kind label" a line
events() {
	python3 - "$1" "$dev" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    for e in json.loads(l)["events"]:
        if e["object"] == sys.argv[2]:
            print(e["kind"], e["label"])
PY
}
# has_event FILE TEXT KEY: an event of the device with key KEY, and a label beginning with
# TEXT (greps: under load, a python for each look took seconds)
has_event() { grep -qF -- "\"object\":\"$dev\",\"key\":\"$3\",\"old\"" "$1" && grep -qF -- "\"label\":\"$2" "$1"; }

"$IOSCOPE" --batch -i 0.2 -f json --record "$TMP/loop.log" "$dev" >"$TMP/loop.json" 2>"$TMP/loop.err" &
pid=$!
at_exit "kill $pid"
wait_output "$TMP/loop.json" $pid
detach
wait_until 10 $pid has_event "$TMP/loop.json" "detached from $A" backing_file
attach "$B" || fail "loop events: attach $B"
wait_until 10 $pid has_event "$TMP/loop.json" "attached $B" backing_file
detach
wait_until 10 $pid has_event "$TMP/loop.json" "detached from $B" backing_file
loopctl 4C81 "$N" || fail "loop events: remove $dev"
wait_until 10 $pid has_event "$TMP/loop.json" "removed" device
wait_samples "$TMP/loop.log" "$(($(wc -l <"$TMP/loop.json") + 1))" $pid   # one more
kill -TERM $pid
wait $pid && clean_stderr "$TMP/loop.err" && ok "batch beside the attach, detach and removal" \
	|| fail "batch beside the attach, detach and removal" "$(cat "$TMP/loop.err")"
events "$TMP/loop.json" >"$TMP/loop.events"
want="loop_backing detached from $A
loop_backing attached $B (dio 0, ro 0, 32 MiB)
loop_backing detached from $B
device_removed removed"
[ "$(cat "$TMP/loop.events")" = "$want" ] && ok "batch: one event each, that says what happened" \
	|| fail "batch: one event each, that says what happened" "$(cat "$TMP/loop.events")"
# the settings of a sample while detached: the queue's, no loop.* kept from the file before
python3 - "$TMP/loop.json" "$dev" <<'PY'
import json, sys
dev, seen, stale = sys.argv[2], 0, []
for l in open(sys.argv[1]):
    o = json.loads(l)
    d = o["devices"].get(dev)
    if d is None or not d.get("settings"):
        continue
    detached = any(e["object"] == dev and e["label"].startswith("detached") for e in o["events"])
    seen += detached
    if detached and any(k.startswith("loop.") for k in d["settings"]):
        stale.append(d["settings"])
print(("ok" if seen and not stale else "not ok") +
      f" batch: no loop.* settings once detached ({seen} samples) {stale[:1]}")
PY
# replayed, the recording gives the same events (and every other figure)
cp "$TMP/loop.json" "$TMP/replay.json"
REPLAY_TASKS= replay_gives_json loop && ok "replay: the same events" \
	|| fail "replay: the same events" "$(json_lines_diff "$TMP/loop.cmp" "$TMP/loop.replay.cmp")"
# batch text: one line each
"$IOSCOPE" --replay "$TMP/loop.log" --batch >"$TMP/loop.txt" 2>&1
grep -E "^---- [0-9:]{8} " "$TMP/loop.txt" | sed -E 's/^---- [0-9:]{8} //' >"$TMP/loop.lines"
want="$dev detached from $A ----
$dev attached $B (dio 0, ro 0, 32 MiB) ----
$dev detached from $B ----
$dev removed ----"
[ "$(cat "$TMP/loop.lines")" = "$want" ] && ok "batch text: one line each" \
	|| fail "batch text: one line each" "$(cat "$TMP/loop.lines")"

# The console: the marks panel says it, the detail pane follows.
command -v tmux >/dev/null || { skip "loop events: console" "tmux not installed"; exit 0; }
loopctl 4C80 "$N" || { fail "loop events: $dev again"; exit 1; }
wait_until 5 "" test -b "/dev/$dev" && attach "$A" || { fail "loop events: attach $A again"; exit 1; }
re_escape() { sed 's/[][\.*^$/+?(){}|]/\\&/g' <<<"$1"; }
console_shell 200 50
console_run -i 0.2 "$dev"
screen_check "console: the backing file" "backing +$(re_escape "$A")( |$)"
screen_check "console: the loop device's settings" "loop +ro 0 +sectors 131072"
detach
screen_check "console: the detach marked" "\\] [0-9:]{8}  $dev  detached from $(re_escape "$A")"
gone_check "console: no loop settings once detached" "loop +ro 0 +sectors"
gone_check "console: no backing file once detached" "backing +/"
attach "$B"
# (the panel may cut the flags with an ellipsis: batch checks them)
screen_check "console: the attach marked, with its flags" \
	"\\] [0-9:]{8}  $dev  attached $(re_escape "$B")( \\(dio 0, ro 0, 32 MiB\\)|[ (a-z0-9,]*…)"
screen_check "console: the new file's settings" "loop +ro 0 +sectors 65536"
if screen | grep -qE "loop\\.(backing_file|dio|ro|sectors)"; then
	fail "console: no loop.* marks of their own" "$(show_screen)"
else
	ok "console: no loop.* marks of their own"
fi
console_send q
ended_check "console"
