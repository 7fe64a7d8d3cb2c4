#!/bin/bash
# `ioscope set` with several keys (issue 9, item 12): no write may undo an earlier one.
# On a loop device, a write_cache write makes the kernel recompute read_ahead_kb (back
# to 2 x max_sectors_kb), so `read_ahead_kb=512 write_cache="write through"` must end with both in
# effect, and every key is read back after the last write.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip control_order "needs root for loop devices"
	exit 0
fi
make_loop 64 >"$TMP/loop" || { fail control_order_setup "no loop device"; exit 0; }
L=$(cat "$TMP/loop")
Q=/sys/block/$L/queue
run() { OUT=$("$IOSCOPE" "$@" 2>&1 </dev/null); RC=$?; }

# This kernel puts read_ahead_kb back to 2 x max_sectors_kb on any queue limits update
# (a write_cache or max_sectors_kb write): make that differ from what we set.
msk=$(( $(cat "$Q/max_hw_sectors_kb") < 1280 ? $(cat "$Q/max_hw_sectors_kb") : 1280 ))
echo "$msk" >"$Q/max_sectors_kb"
[ $((2 * msk)) != 512 ] && [ $((2 * msk)) != 384 ] || { skip control_order "max_sectors_kb $msk"; exit 0; }
echo "write back" >"$Q/write_cache"
echo 128 >"$Q/read_ahead_kb"

run set --yes --events "$L" read_ahead_kb=512 write_cache="write through"
[ "$RC" = 0 ] && ok "set read_ahead_kb and write_cache: exit 0" || fail "set read_ahead_kb and write_cache: exit 0" "exit $RC: $OUT"
[ "$(cat "$Q/read_ahead_kb")" = 512 ] && ok "read_ahead_kb still 512 after the write_cache write" \
	|| fail "read_ahead_kb still 512 after the write_cache write" "kernel shows $(cat "$Q/read_ahead_kb"); $OUT"
[ "$(cat "$Q/write_cache")" = "write through" ] && ok "write_cache in effect" \
	|| fail "write_cache in effect" "kernel shows $(cat "$Q/write_cache")"
grep -q "read_ahead_kb: .* -> 512: ok" <<<"$OUT" && ! grep -q "not applied" <<<"$OUT" \
	&& ok "output: both ok, nothing reported not applied" || fail "output: both ok, nothing reported not applied" "$OUT"
python3 - "$OUT" <<'PY'
import json, sys
evs = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")]
ra = [e for e in evs if e.get("key") == "read_ahead_kb"]
ok = len(ra) == 1 and ra[0]["new"] == "512" and ra[0]["result"].startswith("ok")
print(("ok" if ok else "not ok") + " event: read_ahead_kb new 512, ok" + ("" if ok else f": {evs}"))
PY

# The other order on the command line: the same end state.
echo "write back" >"$Q/write_cache"
echo 128 >"$Q/read_ahead_kb"
run set --yes "$L" write_cache="write through" read_ahead_kb=384
[ "$RC" = 0 ] && [ "$(cat "$Q/read_ahead_kb")" = 384 ] && ok "either order on the command line" \
	|| fail "either order on the command line" "exit $RC, read_ahead_kb $(cat "$Q/read_ahead_kb"): $OUT"
echo "write back" >"$Q/write_cache"
