#!/usr/bin/env python3
"""Read a console screen (tmux capture-pane) on stdin and check the graphs' marks:
every mark line drawn on a strip has its number beside it ("[3]" right or left of the
line, on the strip's label row, or a shared "[3-5]" over it there), the strip's title and peak are intact,
and the marks panel lists every number shown.  Prints one problem a line; exit 1 when
there is any.  Usage: marks_screen.py DEVICE MIN_LINES"""
import re
import sys

GUTTER = 7
dev, min_lines = sys.argv[1], int(sys.argv[2])
rows = sys.stdin.read().split("\n")
label_re = re.compile(r"^" + re.escape(dev) + r" (read|write) ")
# "[3]", "[3-5,8]", and shortened with an ellipsis where they do not fit: "[3,…,9]"
token_re = re.compile(r"\[([0-9,\-]*(?:…|\.\.\.)?[0-9,\-]*)\]")
problems, lines_seen, numbers = [], 0, set()

starts = [i for i, r in enumerate(rows) if label_re.match(r)]
for k, y in enumerate(starts):
    end = starts[k + 1] if k + 1 < len(starts) else y + 1
    while end < len(rows) and re.match(r"^ *[0-9.]*[kMG]?(B|/s|ms|%)?│", rows[end]) and \
            not label_re.match(rows[end]):
        end += 1
    # a strip with nothing in view keeps its label row only, without a peak
    if not re.match(r"^" + re.escape(dev) + r" (read|write) \S+  (peak \S+( |$)|\(nothing in view\))",
                    rows[y]):
        problems.append("title or peak overwritten: %r" % rows[y])
    strip = rows[y:end]
    plot = strip[1:]
    # a line shows as "│" where the plot is empty, takes the curve's glyph where it is
    # not, and has "┃" on the label row when its label is there
    cols = sorted({x for r in plot for x, ch in enumerate(r) if x >= GUTTER and ch == "│"} |
                  {x for x, ch in enumerate(rows[y]) if x >= GUTTER and ch == "┃"})
    tokens = [(m.start(), m.end(), m.group(1)) for r in strip for m in token_re.finditer(r)]
    for x in cols:
        lines_seen += 1
        near = [t for t in tokens if t[0] in (x + 1, x + 2) or t[1] == x]
        # a label left of its line on the label row: "[2] sched kyber→none┃"
        head = rows[y]
        if x < len(head) and head[x] == "┃":
            before = [m for m in token_re.finditer(head[:x])]
            if before and "┃" not in head[before[-1].end():x]:
                near.append((before[-1].start(), before[-1].end(), before[-1].group(1)))
        # neighbours too close share one number on the label row: "┃[3-5]" spans them
        near += [(m.start(), m.end(), m.group(1)) for m in token_re.finditer(rows[y])
                 if m.start() - 1 <= x < m.end()]
        if not near:
            problems.append("mark line at column %d of %r has no number" % (x, rows[y]))
        for t in near:
            for part in re.split(r",|…|\.\.\.", t[2]):
                if not part:
                    continue
                a, _, b = part.partition("-")
                numbers.update(str(n) for n in range(int(a), int(b or a) + 1))

panel = set(re.findall(r"^ \[([0-9]+)\] [0-9:]{8}  ", "\n".join(rows), re.M))
if lines_seen < min_lines:
    problems.append("%d mark lines drawn, expected at least %d" % (lines_seen, min_lines))
for n in sorted(numbers - panel):
    problems.append("number [%s] on the graphs is not in the marks panel %s" % (n, sorted(panel)))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
