#!/bin/bash
# smallfiles.sh DIR [CLIENTS] [SECONDS]: a dbench-like parallel small-file writer:
# CLIENTS (default 4) processes, each in a directory of its own, for SECONDS (default
# 10): create a 4-64 KiB file, write it, fsync every fourth, rename, read back,
# unlink.  Prints the operations done and their rate.
USAGE="smallfiles.sh DIR [CLIENTS] [SECONDS]"
. "$(dirname "$0")/lib.sh"
need_dir "$@"
dir=$1 clients=${2:-4} seconds=${3:-10}
work=$(mktemp -d "$dir/smallfiles.XXXXXX")
touch "$work/$MARKER"
t0=$(now)
ops=$(python3 "$(dirname "$0")/fileops.py" smallfiles "$work" "$clients" "$seconds")
elapsed=$(since "$t0")
rm -rf "$work"
summary smallfiles "in=$dir clients=$clients ops=$ops elapsed_s=$elapsed ops_per_s=$(awk -v o="$ops" -v e="$elapsed" 'BEGIN { printf "%.1f", o / e }')"
