#!/bin/bash
# untar-rmtree.sh DIR: the thread's pair on one tree: untar.sh into a new directory in
# DIR, then rmtree.sh of that tree, with a mark before each (`ioscope mark untar`,
# `ioscope mark rmtree`), so that the recording of `ioscope run` or `ioscope matrix` has
# the two as phases of their own and a matrix reports both per cell.  The marks go to
# the ioscope in $IOSCOPE_BIN (a matrix sets it), else the one in PATH.
USAGE="untar-rmtree.sh DIR"
. "$(dirname "$0")/lib.sh"
need_dir "$@"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$1/untar-rmtree.XXXXXX")
mark untar
"$here/untar.sh" "$work"
mark rmtree
"$here/rmtree.sh" "$work"
rmdir "$work"
