#!/bin/bash
# compilebench.sh DIR [ROUNDS]: a compilebench-like cycle, ROUNDS times (default 3):
# create a tree (a kernel-like tree at scale $IOSCOPE_TREE_SCALE, default 0.05),
# "patch" it (rewrite a tenth of its files a little longer), "compile" it (an object
# file beside each source, half its size), read it all back, delete it.  Each phase
# timed, like compilebench's create/patch/compile/read/delete.
USAGE="compilebench.sh DIR [ROUNDS]"
. "$(dirname "$0")/lib.sh"
need_dir "$@"
dir=$1 rounds=${2:-3} here=$(cd "$(dirname "$0")" && pwd)
scale=${IOSCOPE_TREE_SCALE:-0.05}
for ((r = 1; r <= rounds; r++)); do
	tree=$(mktemp -d "$dir/compilebench.XXXXXX")
	touch "$tree/$MARKER"
	t0=$(now); python3 "$here/gentree.py" "$tree/src" "$scale" >/dev/null; create=$(since "$t0")
	t0=$(now); python3 "$here/fileops.py" patch "$tree/src"; patch=$(since "$t0")
	t0=$(now); python3 "$here/fileops.py" compile "$tree/src"; compile=$(since "$t0")
	t0=$(now); python3 "$here/fileops.py" read "$tree"; read_s=$(since "$t0")
	size=$(tree_size "$tree")
	t0=$(now); rm -rf "$tree"; delete=$(since "$t0")
	summary compilebench "round=$r $size create_s=$create patch_s=$patch compile_s=$compile read_s=$read_s delete_s=$delete"
done
