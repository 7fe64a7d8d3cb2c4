#!/bin/bash
# One reader per kernel file (docs/design.md, "Layers and folders"): /proc/meminfo,
# /proc/cpuinfo, a process's stat, io and fdinfo, and the walk over /proc's processes are
# opened in src/sources only (kernel_readers.py says how they are found).  The check also
# runs on a copy of the tree with a reader planted in core, to show it can fail, and with
# a /proc/self/fd path, which is no kernel file's reader, to show that passes.
. "$(dirname "$0")/lib.sh"
needs "kernel readers" python3
check_py="$IOSCOPE_TOP/tests/e2e/kernel_readers.py"

out=$(python3 "$check_py" "$IOSCOPE_TOP/src")
echo "$out"

# a new reader of a process's stat in core, and one of /proc/meminfo in cli
mkdir -p "$TMP/src/core" "$TMP/src/cli" "$TMP/src/sources"
printf 'int peek(int pid) { char p[64]; return snprintf(p, sizeof p, "/proc/%%d/stat", pid); }\n' \
	>"$TMP/src/core/peek.c"
printf 'static const char m[] = "/proc/meminfo";\n' >"$TMP/src/cli/mem.c"
printf 'static const char m[] = "/proc/meminfo";\n' >"$TMP/src/sources/mem.c"
got=$(python3 "$check_py" "$TMP/src")
if grep -q '^not ok kernel readers' <<<"$got" &&
   grep -q '^# read outside src/sources: core/peek.c:1: "/proc/%d/stat"' <<<"$got" &&
   grep -q '^# read outside src/sources: cli/mem.c:1: "/proc/meminfo"' <<<"$got" &&
   ! grep -q 'sources/mem.c' <<<"$got"; then
	ok "kernel readers: a new reader outside src/sources fails the check"
else
	fail "kernel readers: a new reader outside src/sources fails the check" "$(tr '\n' ' ' <<<"$got")"
fi

# a kept descriptor reached by its path, a comment naming the file: no reader
rm "$TMP/src/core/peek.c" "$TMP/src/cli/mem.c"
printf '/* reads "/proc/meminfo" */\nint at(int fd, char *p) { return sprintf(p, "/proc/self/fd/%%d", fd); }\n' \
	>"$TMP/src/core/at.c"
got=$(python3 "$check_py" "$TMP/src")
if grep -q '^ok kernel readers' <<<"$got"; then
	ok "kernel readers: /proc/self/fd paths and comments are not readers"
else
	fail "kernel readers: /proc/self/fd paths and comments are not readers" "$(tr '\n' ' ' <<<"$got")"
fi
