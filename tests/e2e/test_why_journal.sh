#!/bin/bash
# A journal stuck in a commit (issue 24, item 6): "commits 0.0/s" is not the answer, the
# time the commit has been running is.  The planted cause: why_journal_lib.sh.
# Samples 2 s apart: the direct writer stops at the freeze, the commit the fsyncs keep
# asking for within milliseconds of it, so when the dip is made (its second low sample)
# the commit has been stuck for a whole interval even on a loaded machine.
# Checked: the batch JSON's commit_running_s grows with the freeze, the dip on the inner
# device names the commit first, the text output says it, the replay gives it again.
# run.sh: waits (on the kernel, most of its time: beside the other jobs)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why_journal_lib.sh"
is_root || { skip why_journal "needs root (loop devices, mounts, fsfreeze)"; exit 0; }
needs why_journal fsfreeze mkfs.ext4 python3

journal_stuck_setup 30
freeze_and_sample journal 2 7 8 2

journal_stuck_checks journal "$rc" 3

replay_gives_json journal && grep -q "journal commit running" "$TMP/journal.replay.cmp" \
	&& ok "journal: the replay gives the commit's time and the dip's reasons byte for byte" \
	|| fail "journal: the replay gives the commit's time and the dip's reasons byte for byte" \
		"$(json_lines_diff "$TMP/journal.cmp" "$TMP/journal.replay.cmp"; head -5 "$TMP/journal.replay.err")"
