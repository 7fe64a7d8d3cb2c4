#!/usr/bin/env python3
"""Reads a console screen (tmux capture-pane) showing the latency heat map and checks
what test_trace_key.sh asks: heat <STRIP>: the strip titled STRIP has shaded cells
('@' is the busiest cell of the window, always there when anything was counted) in two
columns or more besides the marks' own; mark <TEXT>: a mark labelled TEXT (or numbered: "[1]") is on a strip's label
row (beside its line, or after the title, "◂[1]", when the line is under it) and its line
crosses every plot row of that strip
(each cell of its column is drawn, never blank).
Prints what is wrong and exits 1."""
import re
import sys

GUTTER = 7   # src/ui/graphs.c: Y labels and the axis line
BARS = "┃│|"


def strips(lines):
    """(label row index, [plot row indexes]) of each strip of the graphs pane."""
    out = []
    i = 0
    while i < len(lines):
        if re.search(r"latency p50 ", lines[i]):
            rows = []
            j = i + 1
            while j < len(lines) and len(lines[j]) > GUTTER - 1 and lines[j][GUTTER - 1] in "│|":
                rows.append(j)
                j += 1
            out.append((i, rows))
            i = j
        else:
            i += 1
    return out


RAMP = ".:-=+*#%@"


def heat(lines, name):
    """'@' somewhere, and shaded cells in two columns or more that no mark's line takes
    (a mark's line redraws the cells of its column: they alone prove nothing)."""
    for label, rows in strips(lines):
        if name not in lines[label]:
            continue
        cols = {}
        for r in rows:
            for x, ch in enumerate(lines[r][GUTTER:], GUTTER):
                cols.setdefault(x, set()).add(ch)
        shaded = [x for x, chars in cols.items()
                  if chars & set(RAMP) and not chars & set(BARS) and not chars & set("[]0123456789")]
        if any("@" in lines[r][GUTTER:] for r in rows) and len(shaded) >= 2:
            return None
    return "no shaded cells ('@', two columns) in the %s strip" % name


def numbers(group):
    """The mark numbers a shared label gives: "1,6" -> {1, 6}, "3-5" -> {3, 4, 5}."""
    out = set()
    for part in group.split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit() and (not hi or hi.isdigit()):
            out.update(range(int(lo), int(hi or lo) + 1))
    return out


def find_label(row, text):
    """Where text is in row, and the text found: a number "[N]" is also found in a label
    it shares with its neighbours ("[1,6]", "[3-5]")."""
    at = row.find(text)
    want = re.fullmatch(r"\[(\d+)\]", text)
    if at >= 0 or not want:
        return at, text
    for m in re.finditer(r"\[([0-9,\-]+)\]", row):
        if int(want.group(1)) in numbers(m.group(1)):
            return m.start(), m.group(0)
    return -1, text


def mark(lines, text):
    for label, rows in strips(lines):
        # its label on the label row, or its number alone on a plot row
        at, row = -1, ""
        for r in [label] + rows:
            row = lines[r]
            at, found = find_label(row, text)
            if at >= 0:
                text = found
                break
        if at < 0 or not rows:
            continue
        # the line is beside the label: "┃[1] trace on" or "[1] trace on┃"
        # "┃[1] trace on" right of its line, "[1] trace on┃" left of it
        start = row.rfind("[", GUTTER, at + 1) if not text.startswith("[") else at
        end = at + len(text)
        bar = -1
        if start > 0 and row[start - 1] in BARS:
            bar = start - 1
        elif end < len(row) and row[end] in BARS:
            bar = end
        elif re.match(r"\[[0-9,\-]+\] [^\[┃│|]*[┃│|]", row[start:]):
            # a number's label left of its line: "[1] trace on┃"
            bar = start + re.match(r"\[[0-9,\-]+\] [^\[┃│|]*", row[start:]).end()
        elif start > 0 and row[start - 1] in "◂<":
            # under the strip's title: its number after the title, its line left of it
            lines_left = [x for x in range(GUTTER, start - 1)
                          if any(x < len(lines[r]) and lines[r][x] in BARS for r in rows)]
            bar = lines_left[-1] if lines_left else -1
        if bar < 0:
            return "no line beside the mark %r" % text
        blank = [r for r in rows if bar >= len(lines[r]) or lines[r][bar] == " "]
        if blank:
            return "the mark %r's line misses plot rows %s" % (text, blank)
        return None
    return "no strip labels the mark %r" % text


def main():
    lines = sys.stdin.read().split("\n")
    kind, arg = sys.argv[1], sys.argv[2]
    err = heat(lines, arg) if kind == "heat" else mark(lines, arg)
    if err:
        print(err)
        sys.exit(1)


main()
