#!/bin/bash
# rmtree.sh DIR: rm -rf of every tree a workload made in DIR (those with the marker
# file untar.sh and compilebench.sh leave), timed.  Nothing else is removed.
USAGE="rmtree.sh DIR"
. "$(dirname "$0")/lib.sh"
need_dir "$@"
trees=$(find "$1" -mindepth 2 -maxdepth 2 -name "$MARKER" -printf '%h\n')
[ -n "$trees" ] || { echo "rmtree: no tree made by a workload in $1" >&2; exit 1; }
size=$(for t in $trees; do tree_size "$t"; echo; done | awk -F'[= ]' '{ f += $2; b += $4 } END { printf "files=%d bytes=%d", f, b }')
t0=$(now)
for t in $trees; do rm -rf "$t"; done
summary rmtree "in=$1 trees=$(wc -w <<<"$trees") $size elapsed_s=$(since "$t0")"
