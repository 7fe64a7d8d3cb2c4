#!/bin/bash
# `ioscope compare` pairs phases by what they are (issue 37, docs/reports.md "compare"):
# the same untar and rm -rf (workloads/untar-rmtree.sh) recorded with `ioscope run` on ext4
# on one loop device and on xfs on another pairs every phase, though the command names
# another mount point and each run took its own time (`start ... <mount>`, `exit 0`, not
# `exit 0 (1.52 s)`).  The rule's details (tokens, figures, matrix steps, --pair-phases,
# the reasons of the unpaired) are checked on fixed logs: test_report_golden.sh and unit
# test_compare_keys.
# run.sh: waits (on the kernel, most of its time: beside the other jobs)
. "$(dirname "$0")/lib.sh"
is_root || { skip "compare pairing" "needs root for loop devices and mounts"; exit 0; }
needs "compare pairing" mkfs.xfs
grep -qw xfs /proc/filesystems || modprobe xfs 2>/dev/null
grep -qw xfs /proc/filesystems || { skip "compare pairing" "no xfs in this kernel"; exit 0; }
export IOSCOPE_TREE_SCALE=0.03 XDG_CACHE_HOME="$TMP/cache"
unset IOSCOPE_TARBALL

make_loop 320 >"$TMP/a" && make_loop 320 >"$TMP/b" || { fail "loop devices"; exit 1; }
devA=$(cat "$TMP/a") devB=$(cat "$TMP/b")   # mkfs.xfs wants 300 MB
make_fs "$devA" ext4 >"$TMP/ma" \
	&& make_fs "$devB" xfs >"$TMP/mb" || { fail "ext4 on $devA, xfs on $devB"; exit 1; }
mntA=$(cat "$TMP/ma") mntB=$(cat "$TMP/mb")

# Samples 20 times a second: each step of the workload (its setup before the first mark,
# the untar and its sync, the rm -rf and its sync) takes longer than that, so each mark
# falls in an interval of its own and each step is a phase of its own on both sides.
record() {
	"$IOSCOPE" run --batch -i 0.05 --linger 0 --record "$TMP/$1.log" --output "$TMP/$1.out" \
		"$2" -- env IOSCOPE_BIN="$IOSCOPE" "$IOSCOPE_TOP/workloads/untar-rmtree.sh" "$3" \
		>/dev/null 2>"$TMP/$1.err"
}
record a "$devA" "$mntA"; rcA=$?
record b "$devB" "$mntB"; rcB=$?
[ $rcA = 0 ] && [ $rcB = 0 ] && clean_stderr "$TMP/a.err" && clean_stderr "$TMP/b.err" \
	&& ok "untar-rmtree.sh recorded on ext4 ($devA) and on xfs ($devB)" \
	|| { fail "untar-rmtree.sh recorded on ext4 ($devA) and on xfs ($devB)" \
		"rc=$rcA,$rcB $(cat "$TMP/a.err" "$TMP/b.err" "$TMP/a.out" "$TMP/b.out")"; exit 1; }

"$IOSCOPE" compare "$TMP/a.log" "$TMP/b.log" >"$TMP/cmp.txt" 2>"$TMP/cmp.err"
rc=$?
[ $rc = 0 ] && clean_stderr "$TMP/cmp.err" && ok "compare exits 0" \
	|| fail "compare exits 0" "rc=$rc $(cat "$TMP/cmp.err")"

# Whether each log has its marks in intervals of their own (the events' seq: the sample
# each came with): a machine so loaded that a sample came late can put two in one, and
# then that log's phases are cut otherwise (which compare says, not a failure of it).
apart() {
	python3 - "$1" <<'PY'
import json, sys
seqs = [r["seq"] for r in map(json.loads, open(sys.argv[1]))
        if r["type"] == "event" and r["kind"] in ("run", "mark")]
sys.exit(0 if len(seqs) == 4 and len(set(seqs)) == 4 else 1)
PY
}
if apart "$TMP/a.log" && apart "$TMP/b.log"; then
	# first, start, mark: untar, mark: rmtree, exit: five phases each, all paired
	grep -qE '^  paired     5 by the labels of the marks that open them' "$TMP/cmp.txt" \
		&& grep -qE '^ +its ordinal, as step#2\); unpaired: 0 of A, 0 of B$' "$TMP/cmp.txt" \
		&& ! grep -q 'unpaired,' "$TMP/cmp.txt" \
		&& ok "every phase paired" || fail "every phase paired" "$(cat "$TMP/cmp.txt")"
	# each with the same of the other: the untar and the rm -rf ("half the story" when they
	# were left out), the command's start though it names another mount point, its exit
	# though it took another time
	python3 - "$TMP/cmp.txt" "$mntA" "$mntB" >"$TMP/pairs.check" <<'PY'
import re, sys
text, mnt_a, mnt_b = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
blocks = re.split(r"\n(?=Phase )", text)
def block(n):
    return next((b for b in blocks if b.startswith(f"Phase {n} of A and phase {n} of B (paired by their marks)")), "")
def after(b, side):
    m = re.search(rf"^  {side} .*?, after (.*?)(?=^  \S)", b, re.S | re.M)
    return " ".join(m.group(1).split()) if m else None
def paired_as(b):
    m = re.search(r"^  paired as (.*?)(?=^  \S)", b + "\n  .", re.S | re.M)
    return " ".join(m.group(1).split()) if m else None
def check(name, cond, what):
    print(("ok " if cond else "not ok ") + name + ("" if cond else ": " + what))
start, untar, rmtree, exit_ = block(2), block(3), block(4), block(5)
check("the command's start paired, its mount point written <mount>",
      start and after(start, "A").endswith("untar-rmtree.sh " + mnt_a)
      and after(start, "B").endswith("untar-rmtree.sh " + mnt_b)
      and re.fullmatch(r"start env IOSCOPE_BIN=\S+ \S+/untar-rmtree.sh <mount>", paired_as(start) or ""),
      start)
check("the untar paired", after(untar, "A") == "mark: untar" == after(untar, "B"), untar)
check("the rm -rf paired", after(rmtree, "A") == "mark: rmtree" == after(rmtree, "B"), rmtree)
ea, eb = after(exit_, "A") or "", after(exit_, "B") or ""
check("the exit paired, without its elapsed time",
      re.fullmatch(r"exit 0 \([0-9.]+ s\)", ea) and re.fullmatch(r"exit 0 \([0-9.]+ s\)", eb)
      and (ea == eb or paired_as(exit_) == "exit 0"), exit_)
PY
	grep -E '^(ok|not ok) ' "$TMP/pairs.check"
	[ -s "$TMP/pairs.check" ] || fail "phases checked" "$(cat "$TMP/cmp.txt")"
else
	skip "every phase paired" "a sample came late: two marks fell within one interval"
fi
