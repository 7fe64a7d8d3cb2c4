#!/bin/bash
# Issue 25 on a recorded-by-hand tree (tests/fixtures/knobs): every knob change between the
# two trees is one event with old and new, the byte limits that move with the dirty limit and
# the coarse ratio beside the fine one are none; an old kernel's missing files are absent, not
# zero, in batch JSON, `show` and the Prometheus export; each exposition's settings.
. "$(dirname "$0")/lib.sh"
F="$IOSCOPE_TOP/tests/fixtures/knobs"

"$IOSCOPE" --batch -f json --root "$F" >"$TMP/knobs.json" 2>"$TMP/knobs.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$TMP/knobs.err" ] && ok "knobs: batch json runs cleanly" \
	|| fail "knobs: batch json runs cleanly" "exit $rc: $(cat "$TMP/knobs.err")"
python3 - "$TMP/knobs.json" <<'PY'
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def check(name, cond, detail=""):
    print(("ok " if cond else "not ok ") + name + ("" if cond else ": %s" % detail))
got = sorted((e["object"], e["key"], e["old"], e["new"], e["kind"], e["by"]) for e in o[0]["events"])
want = sorted([
    ("vdb", "wbt_lat_usec", "2000", "0"), ("vdb", "nomerges", "0", "2"),
    ("vdb", "bdi.max_ratio_fine", "1000000", "500000"), ("vdb", "bdi.strict_limit", "0", "1"),
    ("sdc", "bdi.max_ratio", "100", "50"), ("sdc", "rq_affinity", "1", "2"),
    ("loop7", "loop.dio", "0", "1"), ("loop7", "loop.sectors", "131072", "262144"),
    ("loop7", "loop.ro", "0", "1")])
check("knobs: one event per change, old and new",
      len(o) == 1 and got == sorted(w + ("tunable", "observed") for w in want), got)
s = o[0]["devices"]
check("knobs: the fine ratio is watched, not the coarse one or the bytes",
      "bdi.max_ratio_fine" in s["vdb"]["settings"] and "bdi.max_ratio" not in s["vdb"]["settings"]
      and "bdi.max_bytes" not in s["vdb"]["settings"], s["vdb"]["settings"])
old = s["sdc"]["settings"]
check("knobs: an old kernel's missing files are absent, not zero",
      old.get("bdi.max_ratio") == "50" and not {"wbt_lat_usec", "io_poll_delay", "bdi.max_ratio_fine",
                                               "bdi.strict_limit"} & set(old), old)
check("knobs: a loop device's own settings",
      s["loop7"]["settings"].get("loop.backing_file") == "/var/tmp/bench.img"
      and "loop.ro" not in s["vdb"]["settings"], s["loop7"]["settings"])
PY

"$IOSCOPE" --batch --root "$F" >"$TMP/knobs.txt" 2>&1
grep -qE '^---- [0-9:]{8} loop7 loop.dio 0→1 ----$' "$TMP/knobs.txt" \
	&& grep -qE '^---- [0-9:]{8} vdb wbt_lat_usec 2000→0 ----$' "$TMP/knobs.txt" \
	&& ok "knobs: text event lines" || fail "knobs: text event lines" "$(grep -- ---- "$TMP/knobs.txt")"

"$IOSCOPE" show --root "$F/1" sdc >"$TMP/sdc.show" 2>&1
"$IOSCOPE" show --root "$F/1" vdb >"$TMP/vdb.show" 2>&1
if grep -q '^  bdi.max_ratio  *100' "$TMP/sdc.show" && ! grep -qE 'wbt_lat_usec|_fine|strict' "$TMP/sdc.show" \
	&& grep -q '^  wbt_lat_usec  *2000   (0 off, -1 the default' "$TMP/vdb.show" \
	&& grep -q '^  bdi.max_bytes  *4939546624' "$TMP/vdb.show" \
	&& grep -q '^  io_poll  *0   (read-only here:' "$TMP/vdb.show"; then
	ok "knobs: show lists what the kernel has, with ranges, absent what it lacks"
else
	fail "knobs: show lists what the kernel has, with ranges, absent what it lacks" "$(cat "$TMP/sdc.show" "$TMP/vdb.show")"
fi

"$IOSCOPE" --batch -f prometheus --root "$F" >"$TMP/knobs.prom" 2>&1
grep -q '^ioscope_disk_queue_setting{device="vdb",name="wbt_lat_usec"} 0$' "$TMP/knobs.prom" \
	&& grep -q '^ioscope_disk_queue_setting{device="loop7",name="loop.dio"} 1$' "$TMP/knobs.prom" \
	&& grep -q '^ioscope_disk_setting_info{device="loop7",name="loop.backing_file",value="/var/tmp/bench.img"} 1$' "$TMP/knobs.prom" \
	&& ! grep -q 'device="sdc",name="wbt_lat_usec"' "$TMP/knobs.prom" \
	&& ok "knobs: Prometheus settings and setting_info" || fail "knobs: Prometheus settings and setting_info" "$(grep setting "$TMP/knobs.prom")"
