#!/bin/bash
# untar-rmtree.sh [--no-sync] DIR: the thread's pair on one tree: untar.sh into a new
# directory in DIR, then rmtree.sh of that tree, with a mark before each (`ioscope mark
# untar`, `ioscope mark rmtree`), so that the recording of `ioscope run` or `ioscope
# matrix` has the two as phases of their own and a matrix reports both per cell.  The
# marks go to the ioscope in $IOSCOPE_BIN (a matrix sets it), else the one in PATH.
# Each half ends with the sync of DIR's filesystem, in its phase, as the thread timed
# `tar x; sync` and `rm -rf; sync`: without it the tree can be written and removed in
# the page cache and never reach the disk.  --no-sync leaves the syncs out: the cache's
# view (docs/experiments.md).
USAGE="untar-rmtree.sh [--no-sync] DIR"
. "$(dirname "$0")/lib.sh"
sync=--sync
[ "${1:-}" = --no-sync ] && { sync=; shift; }
need_dir "$@"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$1/untar-rmtree.XXXXXX")
mark untar
"$here/untar.sh" $sync "$work"
mark rmtree
"$here/rmtree.sh" $sync "$work"
rmdir "$work"
