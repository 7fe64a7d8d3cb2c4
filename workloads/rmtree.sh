#!/bin/bash
# rmtree.sh [--sync] DIR: rm -rf of every tree a workload made in DIR (those with the
# marker file untar.sh and compilebench.sh leave), timed.  Nothing else is removed.
# With --sync, the rm -rf and then the sync of DIR's filesystem are timed together, as
# the thread timed `rm -rf; sync`: until the removal is on the disk (sync_s its share).
USAGE="rmtree.sh [--sync] DIR"
. "$(dirname "$0")/lib.sh"
sync=
[ "${1:-}" = --sync ] && { sync=1; shift; }
need_dir "$@"
trees=$(find "$1" -mindepth 2 -maxdepth 2 -name "$MARKER" -printf '%h\n')
[ -n "$trees" ] || { echo "rmtree: no tree made by a workload in $1" >&2; exit 1; }
size=$(for t in $trees; do tree_size "$t"; echo; done | awk -F'[= ]' '{ f += $2; b += $4 } END { printf "files=%d bytes=%d", f, b }')
t0=$(now)
for t in $trees; do rm -rf "$t"; done
synced=
[ -n "$sync" ] && synced=" sync_s=$(sync_fs "$1")"
summary rmtree "in=$1 trees=$(wc -w <<<"$trees") $size elapsed_s=$(since "$t0")$synced"
