#!/bin/bash
# `ioscope report` on a recorded session with two marks (a scheduler switch and a
# remount, made from another shell while a writer runs): the text report has the
# machine section, one phase per mark and the marks inline; SVG is well-formed XML
# with the mark labels; PNG has the documented size; CSV and JSON have a row per
# interval per device and the events as their own rows.
# run.sh: early (among the longest: started first)
. "$(dirname "$0")/lib.sh"
is_root || { skip "report" "needs root for a loop device and a mount"; exit 0; }

# not dev=$(make_loop): in a subshell the cleanup (losetup -d, umount) would be lost
make_loop 128 >"$TMP/loop" || { fail "loop device"; exit 1; }
dev=$(cat "$TMP/loop")
# the switch between two elevators this kernel offers (with tunables first), never by name
needs_elevators "report" "$dev" 2
read -r E1 E2 < <(pick_elevators "$dev" 2)
echo "$E1" >"/sys/block/$dev/queue/scheduler"
make_fs "$dev" ext4 >"$TMP/mnt" || { fail "ext4 on $dev"; exit 1; }
mnt=$(cat "$TMP/mnt")
region_writer "$mnt/f" 20 64 128 100

"$IOSCOPE" --batch -i 0.25 -c 20 -f json --record "$TMP/s.log" "$dev" >"$TMP/live.json" 2>"$TMP/err" &
pid=$!
wait_samples "$TMP/s.log" 6 $pid
echo "$E2" >"/sys/block/$dev/queue/scheduler"
wait_samples "$TMP/s.log" 13 $pid
mount -o remount,noatime "$mnt"
wait $pid && ok "recorded" || { fail "recorded" "$(cat "$TMP/err")"; exit 1; }

# ---- text ----
"$IOSCOPE" report "$TMP/s.log" --devices "$dev" >"$TMP/report.txt" 2>"$TMP/err"
check "text report runs" test $? -eq 0
for key in host kernel cpu memory recorded; do
	grep -qE "^  $key +[^ ]" "$TMP/report.txt" || { fail "machine section: $key"; continue; }
	ok "machine section: $key"
done
grep -qE "^  $dev +scheduler $E1, rotational (yes|no), write (back|through) cache, model" \
	"$TMP/report.txt" && ok "device line: scheduler, rotational, write cache, model" \
	|| fail "device line" "$(grep "^  $dev" "$TMP/report.txt")"
# the loop device's backing chain, read from sysfs when recording, kept in the log
img=$(cat "/sys/block/$dev/loop/backing_file")
tr -s ' \n' ' ' <"$TMP/report.txt" \
	| grep -qE " backed by $img on [a-z0-9-]+( \([a-z0-9]+ [^)]*\))?, direct I/O (on|off) Mounts" \
	&& ok "loop device: backing file, its disk, direct I/O" \
	|| fail "loop device: backing file, its disk, direct I/O" "$(grep -A3 "^  $dev" "$TMP/report.txt")"
grep -qF "  $mnt on $dev, ext4: rw," "$TMP/report.txt" && ok "mount line with options" \
	|| fail "mount line with options" "$(sed -n '/^Mounts/,/^$/p' "$TMP/report.txt")"
phases=$(grep -c '^Phase [0-9]* of 3: ' "$TMP/report.txt")
[ "$phases" -eq 3 ] && ok "one phase per mark (3 phases for 2 marks)" \
	|| fail "one phase per mark" "$(grep '^Phase' "$TMP/report.txt")"
# each event with its number, the log's (issue 41 item 5)
grep -qE "^  after [0-9:]{8}\.[0-9] \[[0-9]+\] sched $dev $E1→$E2$" "$TMP/report.txt" \
	&& ok "phase 2 opens with the switch" || fail "phase 2 opens with the switch"
# (a long line wraps at 80 columns, continued 4 columns in: joined again)
sed -e ':a;N;$!ba;s/\n    \([^ ]\)/ \1/g' "$TMP/report.txt" \
	| grep -qE "^  after [0-9:]{8}\.[0-9] \[[0-9]+\] remount $mnt \+noatime -relatime$" \
	&& ok "phase 3 opens with the remount" || fail "phase 3 opens with the remount" \
	"$(grep after "$TMP/report.txt")"
# per phase: MB moved and read/write MB/s (mean, busy, peak); IOPS, await p50/p95/max,
# %util, busy time, f/s
grep -qE "^  $dev( +[0-9.]+){2}( +[0-9.-]+){6}$" "$TMP/report.txt" \
	&& ok "phase throughput row" || fail "phase throughput row" "$(grep "^  $dev " "$TMP/report.txt")"
grep -qE "^  $dev( +[0-9.-]+){7} +[0-9.hms]+ +[0-9.-]+$" "$TMP/report.txt" \
	&& ok "phase latency row" || fail "phase latency row" "$(grep "^  $dev " "$TMP/report.txt")"
grep -qE "^---- [0-9:]{8}\.[0-9] \[[0-9]+\] sched $dev $E1→$E2 ----$" "$TMP/report.txt" \
	&& ok "inline mark: scheduler" || fail "inline mark: scheduler"
# a long mark line wraps at 80 columns, continued 5 columns in: joined again to look at it
sed -e ':a;N;$!ba;s/\n     \([^ ]\)/ \1/g' "$TMP/report.txt" \
	| grep -qE "^---- [0-9:]{8}\.[0-9] \[[0-9]+\] remount $mnt \+noatime -relatime ----$" \
	&& ok "inline mark: remount" || fail "inline mark: remount"
# the inline mark sits between the table rows where it happened
if python3 - "$TMP/report.txt" "$dev" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
mark = next(i for i, l in enumerate(lines) if re.match(r"---- .* sched " + sys.argv[2], l))
row = re.compile(r"\d\d:\d\d:\d\d\.\d +\d")   # tenths: the log is at 0.25 s
# other inline marks may sit beside it (on a loaded machine, a dip in the same interval):
# the nearest line that is not a mark, each way, is a table row
# (a long mark wraps at 80 columns, continued 5 columns in)
def nearest(i, step):
    while 0 <= i < len(lines) and re.match(r"---- |     \S", lines[i]):
        i += step
    return lines[i] if 0 <= i < len(lines) else ""
sys.exit(not (row.match(nearest(mark - 1, -1)) and row.match(nearest(mark + 1, 1))))
PY
then ok "inline mark between rows"
else fail "inline mark between rows" "$(grep -B3 -A3 -- "^---- .* sched $dev" "$TMP/report.txt")"; fi
width=$(python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$TMP/report.txt")
[ "$width" -le 80 ] && ok "text fits 80 columns (widest $width)" || fail "text fits 80 columns" "widest $width"

# ---- svg ----
"$IOSCOPE" report "$TMP/s.log" --devices "$dev" --format svg -o "$TMP/r.svg"
check "svg report runs" test $? -eq 0
python3 - "$TMP/r.svg" "$dev" "$mnt" "$E1" "$E2" <<'PY'
import sys, xml.etree.ElementTree as ET
path, dev, mnt, e1, e2 = sys.argv[1:]
try:
    root = ET.parse(path).getroot()
    print("ok svg is well-formed XML")
except ET.ParseError as e:
    print(f"not ok svg is well-formed XML: {e}"); sys.exit()
ns = "{http://www.w3.org/2000/svg}"
texts = [t.text or "" for t in root.iter(ns + "text")]
title = root.find(ns + "title")
def check(name, cond): print(("ok " if cond else "not ok ") + name)
check("svg mark label: scheduler", any(f"sched {dev} {e1}→{e2}" in t for t in texts))
check("svg mark label: remount", any(f"remount {mnt} +noatime" in t for t in texts))
check("svg title names host, device and span", title is not None and dev in title.text and " to " in title.text)
check("svg axes with units", "MiB/s" in " ".join(texts) and "time (local)" in texts)
check("svg has drawing", len(list(root.iter(ns + "path"))) > 10)
# the text layer is never painted, whatever a converter passes on from a group: each of its
# <text> says no fill and no stroke itself, the group is transparent, and none is hidden
# from a search (display="none", visibility="hidden")
layer = [g for g in root.iter(ns + "g") if g.get("id") == "text-layer"]
def unpainted(e): return e.get("fill") == "none" and e.get("fill-opacity") == "0" and e.get("stroke") == "none"
check("svg text layer not painted (each text: no fill, no stroke; the group opacity 0)",
      len(layer) == 1 and layer[0].get("opacity") == "0" and unpainted(layer[0])
      and len(list(layer[0])) > 3 and all(unpainted(t) for t in layer[0])
      and not any(e.get("display") == "none" or e.get("visibility") == "hidden" for e in layer[0].iter()))
PY
# converted, it looks as it does without the layer (rsvg-convert, when installed)
if command -v rsvg-convert >/dev/null 2>&1; then
	sed 's|<g id="text-layer".*</g>||; /<g id="text-layer"/,/^<\/g>$/d' "$TMP/r.svg" >"$TMP/r-nolayer.svg"
	rsvg-convert "$TMP/r.svg" -o "$TMP/r-conv.png" && rsvg-convert "$TMP/r-nolayer.svg" -o "$TMP/r-nolayer.png" \
		&& ! grep -q 'id="text-layer"' "$TMP/r-nolayer.svg" && cmp -s "$TMP/r-conv.png" "$TMP/r-nolayer.png" \
		&& ok "svg converted by rsvg-convert: the text layer adds nothing to the picture" \
		|| fail "svg converted by rsvg-convert: the text layer adds nothing to the picture"
else
	skip "svg converted" "rsvg-convert not installed"
fi

# ---- png ----
png_size() { python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(33)
assert d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR"
w, h = struct.unpack(">II", d[16:24]); print(f"{w}x{h}")' "$1"; }
# 1200 wide, 320 high for one device and 580 for two, plus a legend of the marks below the
# panels when a label is not shown in full (24 px and a line of 14 each mark): the two
# planned marks are a second apart, and the first's text would run through the second's
# line, so it is a number and the legend says it; a loaded machine's throughput dips add
# marks to it.  Taller by such a legend, never shorter.
dips=$(grep -c '"kind":"dip","object":"'"$dev"'"' "$TMP/s.log")
png_height_ok() {   # SIZE HEIGHT
	local h=${1#*x}
	[ "${1%x*}" = 1200 ] && { [ "$h" = "$2" ] || { [ "$h" -ge $(($2 + 24 + 14 * 2)) ] && [ $((($h - $2 - 24) % 14)) = 0 ]; }; }
}
"$IOSCOPE" report "$TMP/s.log" --devices "$dev" --format png -o "$TMP/r.png"
size=$(png_size "$TMP/r.png")
png_height_ok "$size" 320 && ok "png 1200x320 for one device (and a legend of $dips dips)" \
	|| fail "png size" "$size, $dips dips"
"$IOSCOPE" report "$TMP/s.log" --devices "$dev,$(system_disk)" --format png -o "$TMP/r2.png"
size=$(png_size "$TMP/r2.png")
png_height_ok "$size" 580 && ok "png 1200x580 for two devices (and a legend of $dips dips)" \
	|| fail "png size, two devices" "$size, $dips dips"
"$IOSCOPE" report "$TMP/s.log" --devices "$dev" --format png --size 800x500 -o "$TMP/r3.png"
[ "$(png_size "$TMP/r3.png")" = "800x500" ] && ok "png --size" || fail "png --size"

# ---- csv and json ----
"$IOSCOPE" report "$TMP/s.log" --devices "$dev" --format csv >"$TMP/r.csv"
check "csv report runs" test $? -eq 0
python3 - "$TMP/r.csv" "$dev" "$E2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
dev, e2 = sys.argv[2:]
samples = [r for r in rows if r["record"] == "sample"]
# the settings' events (a loaded machine can add a throughput dip: not what is tested here)
events = [r for r in rows if r["record"] == "event" and r["kind"] != "dip"]
def check(name, cond): print(("ok " if cond else "not ok ") + name)
check(f"csv one row per interval ({len(samples)})", len(samples) == 20 and all(r["device"] == dev for r in samples))
check("csv has iostat columns", all(k in rows[0] for k in ("w/s", "wkB/s", "w_await", "aqu-sz", "%util", "f/s")))
check("csv events as rows", [e["kind"] for e in events] == ["scheduler", "mount_options"]
      and events[0]["new"] == e2 and events[0]["object"] == dev)
check("csv writes seen", sum(float(r["w/s"] or 0) for r in samples) > 0)
PY
"$IOSCOPE" report "$TMP/s.log" --devices "$dev" --format json >"$TMP/r.json"
python3 - "$TMP/r.json" "$dev" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
def check(name, cond): print(("ok " if cond else "not ok ") + name)
check("json machine record first", recs[0]["record"] == "machine" and recs[0]["host"])
check("json one object per interval per device", len([r for r in recs if r["record"] == "sample"]) == 20)
check("json vm objects", len([r for r in recs if r["record"] == "vm"]) == 20)
ev = [r for r in recs if r["record"] == "event" and r.get("kind") != "dip"]
check("json events as objects", len(ev) == 2 and ev[0]["label"].startswith("sched "))
PY

# ---- time range, bad usage ----
"$IOSCOPE" report "$TMP/s.log" --devices "$dev" --format csv --from +1 --to +3 >"$TMP/part.csv"
n=$(grep -c '^sample,' "$TMP/part.csv")
[ "$n" -ge 6 ] && [ "$n" -le 9 ] && ok "--from/--to narrow the report ($n intervals)" \
	|| fail "--from/--to narrow the report" "$n intervals"
"$IOSCOPE" report "$TMP/s.log" --devices nosuchdev >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "$dev" "$TMP/err" && ok "unknown device: exit 2, lists devices" \
	|| fail "unknown device" "$(cat "$TMP/err")"
"$IOSCOPE" report "$TMP/s.log" --from yesterday >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "invalid time 'yesterday'" "$TMP/err" && ok "bad time: exit 2" || fail "bad time"
"$IOSCOPE" report "$TMP/nope.log" >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "nope.log: No such file" "$TMP/err" && ok "missing log: exit 1" || fail "missing log"
