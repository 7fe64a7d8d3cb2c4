#!/bin/bash
# Prints one line of what this kernel and machine offer the tests, so that a run's skips and
# failures can be read against it: the elevators a loop device (else any disk) is offered, BTF,
# the filesystems the tests make, cgroup v1 or v2 and where the memory controller is, delay
# accounting, and who runs.  tests/run.sh prints it first.  Reads only; changes nothing.
set -u

# the elevators of the first disk with a queue, a loop device first: every loop device is
# offered the same, and a loop device is what the tests switch
elevators() {
	local f
	for f in /sys/block/loop*/queue/scheduler /sys/block/*/queue/scheduler; do
		[ -r "$f" ] || continue
		tr -d '[]' <"$f" | xargs
		return
	done
	echo "unknown (no /sys/block/*/queue/scheduler)"
}

# a filesystem is there when the kernel lists it or can load its module
fs_state() {
	local fs=$1
	if grep -qw "$fs" /proc/filesystems 2>/dev/null; then echo "$fs"
	elif modinfo -F filename "$fs" >/dev/null 2>&1; then echo "$fs(module)"
	else echo "no-$fs"; fi
}

cgroup_state() {
	if [ -r /sys/fs/cgroup/cgroup.controllers ]; then
		if grep -qw memory /sys/fs/cgroup/cgroup.controllers; then echo "cgroup v2, memory controller"
		else echo "cgroup v2, no memory controller"; fi
	elif grep -q ' /sys/fs/cgroup/memory cgroup ' /proc/mounts 2>/dev/null; then
		echo "cgroup v1, memory controller v1"
	else echo "cgroup v1, no memory controller"; fi
}

els=$(elevators)
case " $els " in *" bfq "*) bfq="" ;; *) bfq=" (no bfq)" ;; esac
btf=no; [ -r /sys/kernel/btf/vmlinux ] && btf=yes
psi=no; [ -r /proc/pressure/io ] && psi=yes
delay=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null || echo "?")
printf 'kernel %s: elevators %s%s; BTF %s; PSI %s; %s %s %s; %s; task_delayacct %s; uid %s\n' \
	"$(uname -r)" "$els" "$bfq" "$btf" "$psi" "$(fs_state ext4)" "$(fs_state xfs)" \
	"$(fs_state btrfs)" "$(cgroup_state)" "$delay" "$(id -u)"
