#!/bin/bash
# run.sh: serial: it expects the zram number it hot-removed back from hot_add
# A disk deleted and created again under the same name within one interval (issue 9,
# item 13), on the real kernel: a zram device of our own is hot-removed and hot-added
# between two samples and reads more than before.  The interval gets no invented
# figures for it, and an event says why (counters_reset, or device_removed/_added when
# a sample fell in between); the text batch's scheduler column is never empty.
. "$(dirname "$0")/lib.sh"
ZC=/sys/class/zram-control
if ! is_root || [ ! -w $ZC/hot_add ]; then
	skip "zram re-created within an interval" "needs root and zram-control"
	exit 0
fi

new_zram() {
	local id
	id=$(cat $ZC/hot_add) || return 1
	at_exit "echo $id >$ZC/hot_remove"
	echo 64M >/sys/block/zram$id/disksize || return 1
	echo "$id"
}
reads() { dd if=/dev/zram$1 of=/dev/null bs=4k count="$2" iflag=direct status=none; }

id=$(new_zram) || { skip "zram re-created within an interval" "hot_add failed"; exit 0; }
z=zram$id
reads "$id" 8

for fmt in json text; do
	"$IOSCOPE" --batch -f $fmt -i 1 -c 3 "$z" >"$TMP/out.$fmt" 2>"$TMP/err.$fmt" &
	pid=$!
	# Right after the first report: early in the second interval.
	for _ in $(seq 100); do [ -s "$TMP/out.$fmt" ] && break; sleep 0.1; done
	echo "$id" >$ZC/hot_remove || { fail "hot_remove $z"; wait $pid; exit 0; }
	again=$(cat $ZC/hot_add)
	if [ "$again" != "$id" ]; then
		at_exit "echo $again >$ZC/hot_remove"
		wait $pid
		skip "zram re-created within an interval" "hot_add gave zram$again, not $z"
		exit 0
	fi
	echo 64M >/sys/block/$z/disksize
	reads "$id" 24                           # more than before: no counter goes back
	wait $pid; rc=$?
	[ $rc -eq 0 ] && ! grep -q 'Sanitizer' "$TMP/err.$fmt" && ok "$fmt: runs through the re-creation" \
		|| fail "$fmt: runs through the re-creation" "rc $rc $(cat "$TMP/err.$fmt")"
	[ $fmt = json ] && reads "$id" 8
done

python3 - "$TMP/out.json" "$z" <<'PY'
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
z = sys.argv[2]
def check(name, cond, detail=""):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {detail}"))
why = [i for i, x in enumerate(o)
       if any(e["object"] == z and e["kind"] in ("counters_reset", "device_added") for e in x["events"])]
check("re-created: an event for the interval", len(why) >= 1, [x["events"] for x in o])
reads = [x["devices"].get(z, {}).get("r/s") for x in o]
check("re-created: no figures for that interval", all(reads[i] is None for i in why), reads)
# The new disk read 24 blocks, the old one 8: a figure is 0, or all 24 reads when they fell
# in the interval after the one with the re-creation - never the 16 of new minus old.
ios = [None if r is None else round(r * x["interval"]) for r, x in zip(reads, o)]
check("no invented rate anywhere", all(n in (None, 0, 24) for n in ios), list(zip(reads, ios)))
PY
# zram is bio-based: no scheduler file, shown as "-", never an empty column.
grep -E "^$z +\(no figures" "$TMP/out.text" | grep -qE ' sched [a-z-]+$' \
	&& ok "text: the row without figures shows the scheduler column" \
	|| fail "text: the row without figures shows the scheduler column" "$(cat "$TMP/out.text")"
! grep -qE '^ +w .* [0-9]+ ?$' "$TMP/out.text" && ok "text: the scheduler column is never empty" \
	|| fail "text: the scheduler column is never empty" "$(grep -E '^ +w ' "$TMP/out.text")"
