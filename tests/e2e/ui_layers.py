#!/usr/bin/env python3
"""The layers of src/ui (docs/design.md, "The console's panes"), checked from the source.

Prints "ok NAME" / "not ok NAME: why" lines.  Checks:
  panes-found     the pane table (panes.c) names panes, each defined in a file of its own;
  pane-includes   no pane file reaches the console's state (a header defining struct
                  console) through its includes;
  pane-calls      no pane file uses a function or table of another pane or of the console
                  layer (the files that know struct console);
  no-cycle        the graph of src/ui modules has no cycle.  A module is a header with the
                  files implementing it; the console layer (every file that knows struct
                  console: the loop, its actions and dialogs) counts as one.  X -> Y when a
                  file of X includes a header of Y or uses what a file of Y defines.
  console-layer-documented
                  the files counted as the console layer are exactly the ones
                  docs/console.md lists under "The console loop is one module" (given
                  as a third argument), so the doc and the check say the same thing.
Usage: ui_layers.py SRC_UI_DIR INCLUDE_DIR [CONSOLE_MD]
"""
import os
import re
import sys

ui, inc = sys.argv[1], sys.argv[2]


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def code_only(text):
    """Comments and string/char literals out: only code names things."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", text)


files = sorted(f for f in os.listdir(ui) if f.endswith((".c", ".h")))
raw = {f: read(os.path.join(ui, f)) for f in files}
code = {f: code_only(t) for f, t in raw.items()}


def resolve(name):
    for d, tag in ((ui, ""), (inc, "include/")):
        if os.path.exists(os.path.join(d, name)):
            return tag + name
    return None


def includes(f):
    out = []
    for name in re.findall(r'^#include "([^"]+)"', raw[f], re.M):
        r = resolve(name)
        if r:
            out.append(r)
    return out


def text_of(node):
    if node.startswith("include/"):
        return read(os.path.join(inc, node[len("include/"):]))
    return raw[node]


def closure(f):
    seen, todo = set(), [f]
    while todo:
        n = todo.pop()
        src = text_of(n)
        for name in re.findall(r'^#include "([^"]+)"', src, re.M):
            r = resolve(name)
            if r and r not in seen:
                seen.add(r)
                todo.append(r)
    return seen


def defines_console(node):
    return re.search(r"^struct console \{", text_of(node), re.M) is not None


# what each .c file defines for others: non-static functions and tables at the left margin
defs = {}
for f in files:
    if not f.endswith(".c"):
        continue
    for m in re.finditer(r"^(?!static\b)(?!typedef\b)[A-Za-z_][^;(){}=]*?\b([a-z_][a-z0-9_]*)\s*\(",
                         code[f], re.M):
        defs.setdefault(m.group(1), f)
    for m in re.finditer(r"^(?!static\b)(?!extern\b)(?:const\s+)?[A-Za-z_][\w ]*?[\s*]"
                         r"(?:const\s+)?([a-z_][a-z0-9_]*)\s*(?:\[[^\]]*\])?\s*=", code[f], re.M):
        defs.setdefault(m.group(1), f)


def uses(f):
    body = code[f]
    return {df for name, df in defs.items()
            if df != f and re.search(r"(?<![\w.>])" + name + r"\b", body)}


results = []


def report(name, problems):
    results.append((name, problems))


# ---- the panes ----
table = code.get("panes.c", "")
named = re.findall(r"&(pane_[a-z0-9_]+)", table)
pane_files = {}
for p in named:
    where = [f for f in files if f.endswith(".c") and
             re.search(r"^const struct pane_def " + p + r"\b", code[f], re.M)]
    if len(where) == 1:
        pane_files[p] = where[0]
problems = []
if not named:
    problems.append("no pane table (console_panes[] in src/ui/panes.c)")
for p in named:
    if p not in pane_files:
        problems.append(p + " is not defined in exactly one file")
per_file = {}
for p, f in pane_files.items():
    per_file.setdefault(f, []).append(p)
report("panes-found", problems)
# a file drawing into a rect is a pane, in the table or not
for f in files:
    if f.endswith(".c") and re.search(r"^(static )?void \w+_draw\([^)]*struct rect", code[f], re.M):
        per_file.setdefault(f, [])

console_layer = {f for f in files if re.search(r"\bstruct console\b", code[f])} - set(per_file)
problems = []
for f in sorted(per_file):
    bad = sorted(n for n in closure(f) if defines_console(n))
    if bad:
        problems.append(f + " includes " + ", ".join(bad))
    if re.search(r"\bstruct console\b", code[f]):
        problems.append(f + " names struct console")
report("pane-includes", problems)

problems = []
for f in sorted(per_file):
    bad = sorted(u for u in uses(f) if u in console_layer or (u in per_file and u != f))
    if bad:
        problems.append(f + " uses " + ", ".join(bad))
report("pane-calls", problems)

# ---- the module graph ----
declared_in = {}
for f in files:
    if f.endswith(".h"):
        for name, df in defs.items():
            if re.search(r"\b" + name + r"\b", code[f]) and df.endswith(".c"):
                declared_in.setdefault(df, f)


# a file implementing what a console-layer header declares is of that layer too
console_layer |= {f for f, h in declared_in.items() if h in console_layer and f not in per_file}


def module(node):
    if node.startswith("include/"):
        return node
    if node in console_layer:
        return "console layer"
    if node.endswith(".c"):
        return node if node in per_file else declared_in.get(node, node)
    return node


edges = {}
for f in files:
    targets = set(includes(f)) | uses(f)
    for t in targets:
        a, b = module(f), module(t)
        if a != b:
            edges.setdefault(a, set()).add(b)


def find_cycle():
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


cycle = find_cycle()
report("no-cycle", [" -> ".join(cycle)] if cycle else [])


def documented_console_layer(path):
    """The files named in the doc's section "The console loop is one module": every
    `src/ui/NAME` in backquotes up to the next heading."""
    text = read(path)
    m = re.search(r"^#+ The console loop is one module\n(.*?)(?=^#)", text, re.M | re.S)
    if not m:
        return None
    return set(re.findall(r"`src/ui/([a-z0-9_]+\.[ch])`", m.group(1)))


if len(sys.argv) > 3:
    doc = documented_console_layer(sys.argv[3])
    layer = console_layer | {f for f in files if f.endswith(".h") and defines_console(f)}
    problems = []
    if doc is None:
        problems.append("no section \"The console loop is one module\" in " + sys.argv[3])
    else:
        lines = sum(raw[f].count("\n") for f in layer)
        if layer - doc:
            problems.append("not in the doc: " + ", ".join(sorted(layer - doc)))
        if doc - layer:
            problems.append("in the doc, not of the layer: " + ", ".join(sorted(doc - layer)))
        print("# console layer: %d files, %d lines" % (len(layer), lines))
    report("console-layer-documented", problems)

for name, problems in results:
    if problems:
        print("not ok ui layers: %s: %s" % (name, "; ".join(problems)))
    else:
        print("ok ui layers: %s" % name)
