#!/usr/bin/env python3
"""Read a console screen (tmux capture-pane) on stdin and check that every mark the marks
panel counts has its number on the label row of every strip that draws marks: "[3]",
"[3,4]" or a range "[3-7]" (neighbours too close for their numbers apart share one).
A label is whole: every "[" of a number list has its "]", its numbers ascend, and when
they do not all fit, an ellipsis stands for the rest ("[24,25,…,38]", "[…]"): then the
numbers shown are among those expected and the row need not hold them all.
Prints one problem a line; exit 1 when there is any.
Usage: mark_numbers_screen.py DEVICE [NUMBERS]   NUMBERS: "1,2,4,5" (default: the numbers
the marks panel lists, which need not run from 1 without a gap: a mark's number is its
event's in the log; when the panel shows only some of its rows, those and as many numbers
as its title counts)"""
import re
import sys

dev = sys.argv[1]
rows = sys.stdin.read().split("\n")
title = next((m for r in rows for m in [re.search(r"─ Marks \(([0-9]+)([^)]*)\)", r)] if m), None)
listed = {int(n) for r in rows for n in re.findall(r"(?:^|  ) \[([0-9]+)\] [0-9:]{8}  ", r)}
problems = []
# a number list on a label row: "[" digits, commas, ranges, at most one ellipsis, "]"
token_re = re.compile(r"\[((?:[0-9]+(?:-[0-9]+)?|…|\.\.\.)(?:(?:,|…|\.\.\.)(?:[0-9]+(?:-[0-9]+)?|…|\.\.\.)?)*)\]")
if not title:
    problems.append("no marks panel")
else:
    partial = "rows " in title.group(2)
    if len(sys.argv) > 2:
        want, partial = {int(n) for n in sys.argv[2].split(",")}, False
    else:
        want = listed
    strips = [r for r in rows if re.match(re.escape(dev) + r" (read|write) \S+  peak ", r)]
    if not strips:
        problems.append("no strip with a plot")
    for r in strips:
        seen, cut = set(), False
        for m in re.finditer(r"\[", r):
            t = token_re.match(r, m.start())
            # a mark's own label may follow its number ("[3] sched ..."): only lists checked
            if not t and re.match(r"\[[0-9]", r[m.start():]):
                problems.append("label row %r: a number list cut without its ]: %r"
                                % (r, r[m.start():m.start() + 40]))
            if not t:
                continue
            nums = []
            for part in re.split(r",|…|\.\.\.", t.group(1)):
                if not part:
                    continue
                a, _, b = part.partition("-")
                nums += list(range(int(a), int(b or a) + 1))
            if nums != sorted(set(nums)):
                problems.append("label row %r: numbers out of order in %s" % (r, t.group(0)))
            cut |= "…" in t.group(1) or "..." in t.group(1)
            seen.update(nums)
        if partial:
            # the panel lists some of its marks: those numbered, and as many as it counts
            if not cut and (want - seen or len(seen) != int(title.group(1))):
                problems.append("label row %r numbers %s, the marks panel %s of %s"
                                % (r, sorted(seen), sorted(want), title.group(1)))
            continue
        if seen - want:
            problems.append("label row %r numbers %s, not marks shown (%s)"
                            % (r, sorted(seen - want), sorted(want)))
        if not cut and seen != want:
            problems.append("label row %r numbers %s, expected %s (missing %s) and no ellipsis"
                            % (r, sorted(seen), sorted(want), sorted(want - seen)))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
