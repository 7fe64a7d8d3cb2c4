#!/bin/bash
# A journal stuck in a commit (issue 24, item 6): "commits 0.0/s" is not the answer, the
# time the commit has been running is.  The planted cause, deterministic: ext4 on a loop
# device whose backing file is on a second filesystem (ext4 on another loop device) that
# we freeze.  The loop device's worker then blocks writing its backing file, so every
# request it was given stays in flight, and the next commit's writes never end: jbd2 of
# the inner filesystem sits in D in jbd2_journal_commit_transaction until the thaw.  One
# writer changes only metadata (chmod, then fsync: a commit each time, nothing else), so a
# commit is asked for at every moment and the one of the freeze is stuck from then on; a
# direct-I/O writer beside it gives the device a steady throughput to fall from.
# Samples 2 s apart: the direct writer stops at the freeze, the commit the fsyncs keep
# asking for within milliseconds of it, so when the dip is made (its second low sample)
# the commit has been stuck for a whole interval even on a loaded machine.
# Checked: the batch JSON's commit_running_s grows with the freeze, the dip on the inner
# device names the commit first, the text output says it, the replay gives it again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/freeze_lib.sh"
is_root || { skip why_journal "needs root (loop devices, mounts, fsfreeze)"; exit 0; }
needs why_journal fsfreeze mkfs.ext4 python3

nested_loops 160

bg timeout 30 python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
mode = 0o600
while True:
    mode ^= 0o040
    os.fchmod(fd, mode)
    os.fsync(fd)' "$mi/f"
bg timeout 30 bash -c "while :; do dd if=/dev/zero of='$mi/d' bs=256k count=64 oflag=direct status=none; done"
freeze_and_sample journal 2 7 8 2

out=$(python3 - "$TMP/journal.json" "$inner" "$mi" "$frozen" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev, mnt, frozen = sys.argv[2], sys.argv[3], float(sys.argv[4])
running = [d["journals"].get(mnt, {}).get("commit_running_s") for d in lines]
before = [r for d, r in zip(lines, running) if d["time"] < frozen]
last = running[-1]
dips = [e for d in lines for e in d["events"] if e["kind"] == "dip" and e["object"] == dev]
good_fig = last is not None and last >= 3 and all(r is None or r < 1 for r in before)
first = dips[0]["reasons"][0] if dips else ""
good_dip = len(dips) == 1 and re.fullmatch(r"journal commit running for [0-9.]+ s on %s \(jbd2\)" % dev, first)
print("ok" if good_fig and good_dip else "commit_running_s %r, dips %r" % (running, dips))
PY
)
[ "$rc" = 0 ] && [ "$out" = ok ] \
	&& ok "journal: commit_running_s grows with the stuck commit; the dip names it first" \
	|| fail "journal: commit_running_s grows with the stuck commit; the dip names it first" "rc=$rc $out"

grep -qE "^journal $mi ext4 $inner:.* commit running [0-9.]+ s" "$TMP/journal.txt" && [ "$text_rc" = 0 ] \
	&& ok "journal: batch text says how long the commit has been running" \
	|| fail "journal: batch text says how long the commit has been running" \
		"rc=$text_rc $(grep -E '^journal' "$TMP/journal.txt" | tail -3)"

replay_gives_json journal && grep -q "journal commit running" "$TMP/journal.replay.cmp" \
	&& ok "journal: the replay gives the commit's time and the dip's reasons byte for byte" \
	|| fail "journal: the replay gives the commit's time and the dip's reasons byte for byte" \
		"$(diff "$TMP/journal.cmp" "$TMP/journal.replay.cmp" | head -c 1500; head -5 "$TMP/journal.replay.err")"
