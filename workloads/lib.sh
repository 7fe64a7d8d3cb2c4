# Shared by the workloads: timing, a summary line, the marker that lets rmtree.sh
# remove only trees a workload made.  Nothing here changes a setting of the system.
set -eu
MARKER=.ioscope-workload

now() { date +%s.%N; }
# since T0: seconds, three decimals
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
# summary NAME KEY=VALUE...: one line a script can grep
summary() { local name=$1; shift; echo "$name: $*"; }
need_dir() {
	[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: $USAGE" >&2; exit 2; }
}
# sync_fs DIR: what is dirty on DIR's filesystem written to its disk (syncfs(2): that
# filesystem only, not every disk of the machine as sync(1) would); seconds it took on
# stdout
sync_fs() { local t0; t0=$(now); sync -f "$1"; since "$t0"; }
# mark TEXT: a mark in every running ioscope of this user (the matrix or `ioscope run`
# recording this workload); without one, said on stderr and the workload goes on
mark() {
	"${IOSCOPE_BIN:-ioscope}" mark -- "$1" >/dev/null 2>&1 ||
		echo "mark: no running ioscope took the mark '$1'" >&2
}
# files and bytes under a tree
tree_size() { find "$1" -type f -printf '%s\n' | awk '{ n++; b += $1 } END { printf "files=%d bytes=%d", n, b }'; }
