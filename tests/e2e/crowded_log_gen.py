#!/usr/bin/env python3
"""A replay where marks crowd (issue 41): the samples of a fixture log (report-busy.log)
without its events, and from second 20 an event every half second, in turn a tunable
of vda, a user mark and a tunable of sdz, a disk the log does not have.  Replayed for
"loop0 vda", the loop0 strips show vda's changes (another device's, labelled after the
strip's own) and the marks, not sdz's: the numbers shown skip every third one, so they
make no range and crowd the label row, and a column holds numbers of both kinds.
Usage: crowded_log_gen.py FIXTURE OUT; prints the numbers shown ("1,2,4,5,...")."""
import json
import sys

src, out = sys.argv[1], sys.argv[2]
# the samples and the header: the settings records would make changes of their own
lines = [l for l in open(src) if l.startswith(('{"type":"header"', '{"type":"sample"'))]
samples = [json.loads(l) for l in lines if l.startswith('{"type":"sample"')]
mono0, wall0 = samples[0]["mono"], samples[0]["wall"]
events, shown = [], []
for i in range(36):
    at = 20_000_000_000 + i * 500_000_000
    kind = i % 3
    ev = {"type": "event", "seq": 0, "mono": mono0 + at, "wall": wall0 + at}
    if kind == 1:
        ev.update(kind="mark", object="user", key="mark", old="", new="step %d" % i,
                  result="", by="user")
    else:
        ev.update(kind="tunable", object="vda" if kind == 0 else "sdz", key="read_ahead_kb",
                  old=str(128 + i), new=str(129 + i), result="ok", by="ioscope")
    # the sample it follows: the newest at or before it
    ev["seq"] = max(s["seq"] for s in samples if s["mono"] <= ev["mono"])
    events.append(ev)
    if kind != 2:
        shown.append(i + 1)
with open(out, "w") as f:
    pending = list(events)
    for l in lines:
        f.write(l)
        if l.startswith('{"type":"sample"'):
            seq = json.loads(l)["seq"]
            while pending and pending[0]["seq"] == seq:
                f.write(json.dumps(pending.pop(0), separators=(",", ":")) + "\n")
print(",".join(map(str, shown)))
