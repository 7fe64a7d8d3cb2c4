# Helpers of the tests of a journal stuck in a commit (test_why_journal*.sh).  Source after
# lib.sh.  The planted cause, deterministic: ext4 on a loop device whose backing file is on
# a second filesystem (ext4 on another loop device) that the test freezes.  The loop
# device's worker then blocks writing its backing file, so every request it was given stays
# in flight, and the next commit's writes never end: jbd2 of the inner filesystem sits in D
# in jbd2_journal_commit_transaction until the thaw.  One writer changes only metadata
# (chmod, then fsync: a commit each time, nothing else), so a commit is asked for at every
# moment and the one of the freeze is stuck from then on; a direct-I/O writer beside it
# gives the device a steady throughput to fall from.

. "$(dirname "${BASH_SOURCE[0]}")/freeze_lib.sh"

# journal_stuck_setup SECONDS [FS]: the two filesystems, the inner one FS (ext4; xfs: 300 MB,
# its least; freeze_lib.sh's nested_loops: sets mo, the mount point to freeze, inner and
# mi; the test ends when they cannot be made) and the writers for SECONDS.  Thawed at exit
# before the writers are killed (the cleanups run last first).
journal_stuck_setup() {
	JOURNAL_FS=${2:-ext4}
	case "$JOURNAL_FS" in
	xfs) nested_loops 300 xfs 512 ;;
	*) nested_loops 160 ;;
	esac
	bg timeout "$1" python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
mode = 0o600
while True:
    mode ^= 0o040
    os.fchmod(fd, mode)
    os.fsync(fd)' "$mi/f"
	bg timeout "$1" bash -c "while :; do dd if=/dev/zero of='$mi/d' bs=256k count=64 oflag=direct status=none; done"
	at_exit "fsfreeze -u '$mo'"
}

# journal_stuck_checks NAME RC MIN_LAST: the batch JSON $TMP/journal.json (exit status RC,
# frozen at $frozen) has commit_running_s for $mi growing to MIN_LAST s or more, under 1 s
# before the freeze and never more than the freeze's time (+1 s) after it, and one dip on
# $inner whose first reason is the root cause, the frozen filesystem of its backing file
# ($mo: its loop worker is seen waiting with --tasks), and the commit next (first without
# tasks); batch text $TMP/journal.txt (exit status $text_rc) says the commit.
journal_stuck_checks() {
	local name=$1 rc=$2 min_last=$3 out who=jbd2
	[ "$JOURNAL_FS" = xfs ] && who="xfs log"
	out=$(python3 - "$TMP/journal.json" "$inner" "$mi" "$frozen" "$min_last" "$who" "$mo" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev, mnt, frozen, min_last, who, outer = sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7]
running = [d["journals"].get(mnt, {}).get("commit_running_s") for d in lines]
before = [r for d, r in zip(lines, running) if d["time"] < frozen]
last = running[-1]
dips = [e for d in lines for e in d["events"] if e["kind"] == "dip" and e["object"] == dev]
# not longer than the freeze has lasted (give or take the wait it began in): a writer whose
# every fsync waited on the same channel read "10 s" 2 s after the freeze
since_freeze = all(r is None or r <= d["time"] - frozen + 1 for d, r in zip(lines, running) if d["time"] >= frozen)
good_fig = last is not None and last >= min_last and all(r is None or r < 1 for r in before) and since_freeze
reasons = dips[0]["reasons"] if dips else []
commit = r"journal commit running for [0-9.]+ s on %s \(%s\)" % (dev, who)
frozen_fs = r"%s's backing file is on a frozen filesystem \(ext4 on [a-z0-9]+, %s\): its loop worker waits, [0-9.]+ s" % (dev, re.escape(outer))
if any("tasks" in d for d in lines):
    good_dip = len(reasons) >= 2 and re.fullmatch(frozen_fs, reasons[0]) and re.fullmatch(commit, reasons[1])
else:
    good_dip = len(reasons) >= 1 and re.fullmatch(commit, reasons[0])
good_dip = good_dip and len(dips) == 1
print("ok" if good_fig and good_dip else "commit_running_s %r, dips %r" % (running, dips))
PY
)
	[ "$rc" = 0 ] && [ "$out" = ok ] \
		&& ok "$name: commit_running_s grows with the stuck commit; the dip names the frozen backing filesystem, then the commit" \
		|| fail "$name: commit_running_s grows with the stuck commit; the dip names the frozen backing filesystem, then the commit" "rc=$rc $out"
	grep -qE "^journal $mi $JOURNAL_FS $inner:.* commit running [0-9.]+ s" "$TMP/journal.txt" && [ "$text_rc" = 0 ] \
		&& ok "$name: batch text says how long the commit has been running" \
		|| fail "$name: batch text says how long the commit has been running" \
			"rc=$text_rc $(grep -E '^journal' "$TMP/journal.txt" | tail -3)"
}
