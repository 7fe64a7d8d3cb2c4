#!/usr/bin/env python3
"""Which folder of src/ calls which, from the objects' symbols (docs/design.md, "Layers").

Usage: symbol_layers.py OBJDIR ALLOWLIST [SRCDIR]

OBJDIR holds one folder of .o files per src/ folder (build/opt/src).  A function or table
defined in one folder and used (an undefined symbol) by an object of another is a call
between layers.  The layers, lowest first: core, sources, record and control, the console
ui, then cli (main, which starts every mode, and every command line).  A folder may use its own layer and those below it; a use of a higher
layer, or between the two folders of one layer, is a violation unless ALLOWLIST names it:
one "caller-object symbol  # reason" a line.  Prints TAP-like lines: one per check, the
violations found, and allow-list entries that no longer happen (so the list shrinks as the
code is fixed).  With SRCDIR (src/), an object whose source is gone (a file moved to another
folder leaves its old object in a build tree) is not looked at.
"""
import os
import subprocess
import sys

RANK = {"core": 0, "sources": 1, "record": 2, "control": 2, "ui": 3, "cli": 4}


def load(objdir, srcdir=None):
    """The folder defining each symbol, and (folder, object, used symbols) per object: one
    nm for all of them, as a loaded machine makes a process per object slow."""
    paths = sorted(os.path.join(objdir, folder, name)
                   for folder in os.listdir(objdir) if folder in RANK
                   for name in os.listdir(os.path.join(objdir, folder)) if name.endswith(".o")
                   and (srcdir is None or
                        os.path.exists(os.path.join(srcdir, folder, name[:-2] + ".c"))))
    out = subprocess.run(["nm", "-g", "-A"] + paths, capture_output=True, text=True,
                         check=True).stdout
    owner, used = {}, {p: set() for p in paths}
    for line in out.splitlines():
        path, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[0] == "U":
            used[path].add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDRBCVWGS":
            owner.setdefault(parts[2], os.path.basename(os.path.dirname(path)))
    uses = [(os.path.basename(os.path.dirname(p)), os.path.basename(p), used[p]) for p in paths]
    return owner, uses


def allowed(caller, callee):
    return caller == callee or RANK[callee] < RANK[caller]


def read_allowlist(path):
    entries = {}
    with open(path) as f:
        for line in f:
            body, _, reason = line.partition("#")
            if not body.strip():
                continue
            obj, sym = body.split()
            if not reason.strip():
                sys.exit(f"{path}: {obj} {sym}: an allowed violation needs a reason")
            entries[(obj, sym)] = reason.strip()
    return entries


def main():
    objdir, allowpath = sys.argv[1], sys.argv[2]
    owner, uses = load(objdir, sys.argv[3] if len(sys.argv) > 3 else None)
    allow = read_allowlist(allowpath)
    found, new = set(), []
    for folder, name, used in uses:
        for s in sorted(used):
            callee = owner.get(s)
            if callee is None or allowed(folder, callee):
                continue
            key = (f"{folder}/{name}", s)
            found.add(key)
            if key not in allow:
                new.append(f"{folder}/{name} uses {s} of {callee}")
    stale = [f"{o} {s}" for (o, s) in sorted(allow) if (o, s) not in found]
    for v in new:
        print(f"# upward: {v}")
    for o, s in sorted(found & set(allow)):
        print(f"# allowed: {o} {s}: {allow[(o, s)]}")
    print(("not ok" if new else "ok") + " symbol layers: no new upward use")
    for e in stale:
        print(f"# no longer happens, remove from the allow-list: {e}")
    print(("not ok" if stale else "ok") + " symbol layers: the allow-list is current")
    return 1 if new or stale else 0


if __name__ == "__main__":
    sys.exit(main())
