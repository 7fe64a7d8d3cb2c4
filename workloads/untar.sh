#!/bin/bash
# untar.sh [--sync] DIR: extract a kernel source tree into DIR (a new directory in it).
# The tarball: $IOSCOPE_TARBALL, else Debian's newest /usr/src/linux-source-*.tar.*
# (apt-get install linux-source), else a generated kernel-like tree (gentree.py; scale
# $IOSCOPE_TREE_SCALE, default 1), packed once into ~/.cache/ioscope and reused.
# Without --sync only the extraction is timed (watch the writeback with `ioscope run`);
# with it, the extraction and then the sync of DIR's filesystem, as the thread timed
# `tar x; sync`: until the tree is on the disk (elapsed_s, sync_s the sync's share).
USAGE="untar.sh [--sync] DIR"
. "$(dirname "$0")/lib.sh"
sync=
[ "${1:-}" = --sync ] && { sync=1; shift; }
need_dir "$@"
dir=$1 here=$(cd "$(dirname "$0")" && pwd)

tarball=${IOSCOPE_TARBALL:-$(ls -1 /usr/src/linux-source-*.tar.* 2>/dev/null | sort -V | tail -1)}
if [ -z "$tarball" ]; then
	scale=${IOSCOPE_TREE_SCALE:-1}
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/ioscope
	tarball=$cache/kernel-like-$scale.tar
	if [ ! -f "$tarball" ]; then
		mkdir -p "$cache"
		tmp=$(mktemp -d "$cache/gen.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		echo "untar: generating a kernel-like tree (scale $scale) into $tarball, once" >&2
		python3 "$here/gentree.py" "$tmp/kernel-like" "$scale" >&2
		tar -C "$tmp" -cf "$tarball.part" kernel-like && mv "$tarball.part" "$tarball"
		rm -rf "$tmp"
		trap - EXIT
	fi
fi
[ -r "$tarball" ] || { echo "untar: $tarball: not readable" >&2; exit 1; }

dest=$(mktemp -d "$dir/untar.XXXXXX")
touch "$dest/$MARKER"
t0=$(now)
tar -C "$dest" -xf "$tarball"
synced=
[ -n "$sync" ] && synced=" sync_s=$(sync_fs "$dest")"
summary untar "source=$tarball into=$dest $(tree_size "$dest") elapsed_s=$(since "$t0")$synced"
