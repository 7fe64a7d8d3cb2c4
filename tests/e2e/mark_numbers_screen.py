#!/usr/bin/env python3
"""Read a console screen (tmux capture-pane) on stdin and check that every mark the marks
panel counts has its number on the label row of every strip that draws marks: "[3]",
"[3,4]" or a range "[3-7]" (neighbours too close for their numbers apart share one).
Prints one problem a line; exit 1 when there is any.  Usage: mark_numbers_screen.py DEVICE"""
import re
import sys

dev = sys.argv[1]
rows = sys.stdin.read().split("\n")
title = next((m for r in rows for m in [re.search(r"─ Marks \(([0-9]+)", r)] if m), None)
problems = []
if not title:
    problems.append("no marks panel")
else:
    want = set(range(1, int(title.group(1)) + 1))
    strips = [r for r in rows if re.match(re.escape(dev) + r" (read|write) \S+  peak ", r)]
    if not strips:
        problems.append("no strip with a plot")
    for r in strips:
        seen = set()
        for tok in re.findall(r"\[([0-9,\-]+)\]", r):
            for part in tok.split(","):
                a, _, b = part.partition("-")
                seen.update(range(int(a), int(b or a) + 1))
        if seen != want:
            problems.append("label row %r numbers %s, the marks panel 1-%d (missing %s)"
                            % (r, sorted(seen), len(want), sorted(want - seen)))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
