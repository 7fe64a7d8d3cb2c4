#!/bin/bash
# run.sh: alone: a timing that other scripts beside it would blur (samples late by tens of
# milliseconds on a loaded machine)
# Batch samples on absolute deadlines (docs/sources.md, pacing): no drift over a run.
. "$(dirname "$0")/lib.sh"
needs "absolute deadlines" python3

# The interval does not drift: on absolute deadlines sample i is i intervals after the
# first (a sleep-after-work loop would add the sampling cost once per sample).  A loaded
# machine makes single samples late, not the ones after them: so the earliest of the last
# ten, against the earliest of the first five, must be on its deadline.  At 0.05 s it failed
# now and then at load 16-33 (how late was not printed); 0.1 s leaves a slow sample of the
# sanitized binary more room, and a failure prints each sample's offset from its deadline.
"$IOSCOPE" --batch -i 0.1 -c 25 -f json >"$TMP/drift"
if out=$(python3 - "$TMP/drift" 2>&1 <<'PY'
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
off = [x - i * 0.1 for i, x in enumerate(t)]
late = min(off[-10:]) - min(off[:5])
print("late %.3f s; offsets %s" % (late, " ".join("%.3f" % (o - off[0]) for o in off)))
assert len(t) == 25 and -0.02 < late < 0.02
PY
); then ok "absolute deadlines"; else fail "absolute deadlines" "$(tail -c 600 <<<"$out")"; fi
