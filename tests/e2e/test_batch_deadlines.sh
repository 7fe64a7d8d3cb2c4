#!/bin/bash
# run.sh: alone: a timing that other scripts beside it would blur (samples late by tens of
# milliseconds on a loaded machine)
# Batch samples on absolute deadlines (docs/sources.md, pacing): no drift over a run.
. "$(dirname "$0")/lib.sh"
needs "absolute deadlines" python3

# The interval does not drift: on absolute deadlines sample i is i intervals after the
# first (a sleep-after-work loop would add the sampling cost once per sample).  A loaded
# machine makes single samples late, not the ones after them: so the earliest of the last
# ten, against the earliest of the first five, must be on its deadline.
"$IOSCOPE" --batch -i 0.05 -c 40 -f json >"$TMP/drift"
python3 - "$TMP/drift" <<'PY' && ok "absolute deadlines" || fail "absolute deadlines"
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
off = [x - i * 0.05 for i, x in enumerate(t)]
late = min(off[-10:]) - min(off[:5])
print("late", late)
assert len(t) == 40 and -0.02 < late < 0.02, late
PY
