#!/usr/bin/env python3
"""The kernel files src/sources alone opens (docs/design.md, "Layers and folders").

Usage: kernel_readers.py SRCDIR

/proc/meminfo, /proc/cpuinfo, a process's stat, io and fdinfo, and the walk over /proc's
processes have one reader each, in src/sources; core, control, record, ui and cli get what
they need from it (core through a table its caller hands it).  This looks for a new one
elsewhere: a C string literal, outside SRCDIR/sources (and the tracer's own folder), that

  - names /proc/meminfo or /proc/cpuinfo, or a descriptor's fdinfo,
  - ends in /stat or /io (a process's file, "/proc/%d/stat" or "%s/stat" under a /proc
    descriptor),
  - is "/proc" itself or a process's directory below it ("/proc/%d/..."): a walk.

/proc/self/... (a kept descriptor reached by its path, our own executable) and
/proc/sys/... (settings, not figures) are not those files.  Prints one line per use found
and a TAP-like line; exits 1 when there is any.
"""
import os
import re
import sys

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
NAMED = re.compile(r"/proc/(meminfo|cpuinfo)\b|fdinfo|/(stat|io)$")
PROC_DIR = re.compile(r"^/proc(/%|$)")
SKIP_FOLDERS = {"sources", "trace"}


def code_lines(text):
    """The lines of a C file with its comments blanked (strings kept)."""
    i, n, buf = 0, len(text), []
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            buf.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            buf.append(text[i:j + 1])
            i = j + 1
        else:
            buf.append(c)
            i += 1
    return "".join(buf).split("\n")


def readers(srcdir):
    found = []
    for folder in sorted(os.listdir(srcdir)):
        path = os.path.join(srcdir, folder)
        if folder in SKIP_FOLDERS or not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            with open(os.path.join(path, name), errors="replace") as f:
                lines = code_lines(f.read())
            for no, line in enumerate(lines, 1):
                for lit in LITERAL.findall(line):
                    if NAMED.search(lit) or PROC_DIR.search(lit):
                        found.append(f"{folder}/{name}:{no}: \"{lit}\"")
    return found


def main():
    found = readers(sys.argv[1])
    for f in found:
        print(f"# read outside src/sources: {f}")
    print(("not ok" if found else "ok") +
          " kernel readers: /proc/meminfo, cpuinfo, PID/stat, PID/io, fdinfo opened in "
          "src/sources only")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
