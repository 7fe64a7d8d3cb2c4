#!/bin/bash
# An xfs log whose write does not complete (issue 24, item 6, for xfs): no kworker is in D
# (the CIL push work hands its checkpoint to the log and ends), the fsync callers wait in
# xlog_wait_on_iclog on a file of the filesystem.  The planted cause: why_journal_lib.sh,
# with xfs inside.  Checked: the batch JSON's commit_running_s (the longest of those
# waiters, the log not written) grows with the freeze, the dip on the inner device names
# the log first, batch text says it, and the replay gives it again; another task's log force
# in the middle (a metadata change and a syncfs) changes none of it.  Before, the log's
# figures said the log stalled (log_writes/s 0), not for how long, and the dip named the
# blocked tasks first.
# run.sh: waits (on the kernel, most of its time: beside the other jobs)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why_journal_lib.sh"
is_root || { skip why_journal_xfs "needs root (loop devices, mounts, fsfreeze)"; exit 0; }
needs why_journal_xfs fsfreeze mkfs.xfs mkfs.ext4 python3

journal_stuck_setup 30 xfs
# while the log is stuck another task changes metadata and syncs the filesystem: its log
# force writes the log and sleeps, both counted; the fsync waiter's commit still runs (with
# the rule before, a frozen sample read "missing": a matrix's sync(2) running beside this
# test, the likely cause of its failure in CI).  A new name in a directory of its own: one
# in the root directory held that directory's lock while it waited for a block (what
# test_why_xfs_dirlock plants on purpose); the sync through the writer's file, whose open
# takes no directory's lock
mkdir "$mi/other"
FREEZE_ALSO="touch '$mi/other/file'; sync -f '$mi/d'"
freeze_and_sample journal 2 7 8 2

journal_stuck_checks "xfs log" "$rc" 3

replay_gives_json journal && grep -q "journal commit running" "$TMP/journal.replay.cmp" \
	&& ok "xfs log: the replay gives the log's time and the dip's reasons byte for byte" \
	|| fail "xfs log: the replay gives the log's time and the dip's reasons byte for byte" \
		"$(json_lines_diff "$TMP/journal.cmp" "$TMP/journal.replay.cmp"; head -5 "$TMP/journal.replay.err")"
