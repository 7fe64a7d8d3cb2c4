#!/usr/bin/env python3
"""check_output.py MODE FILE... - what ioscope printed is what it may print.

  json   every line is one JSON value (strict: no NaN/Infinity, no stray bytes)
  text   no byte a terminal would act on: C0 controls but newline, DEL, C1 controls
         (U+0080-U+009F), invalid UTF-8; and no line a hostile name forged (a line
         starting with "---- 09:00", the fake event the hostile logs carry)

Prints one line per problem and exits 1 when there is any."""
import json, re, sys

mode, files = sys.argv[1], sys.argv[2:]
bad = 0


def problem(path, n, what):
    global bad
    bad += 1
    print(f"{path}:{n}: {what}")


def refuse_constant(name):
    raise ValueError(f"not JSON: {name}")


CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]")
for path in files:
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        problem(path, data[:e.start].count(b"\n") + 1, f"invalid UTF-8 at byte {e.start}")
        continue
    for n, line in enumerate(text.split("\n"), 1):
        if mode == "json":
            if line == "":
                continue
            try:
                json.loads(line, parse_constant=refuse_constant)
            except ValueError as e:
                problem(path, n, f"does not parse: {e}: {line[:120]!r}")
        else:
            m = CONTROL.search(line)
            if m:
                problem(path, n, f"control character {m.group()!r}: {line[:120]!r}")
            if line.startswith("---- 09:00"):
                problem(path, n, f"forged line: {line[:120]!r}")
sys.exit(1 if bad else 0)
