#!/bin/bash
# `ioscope remount` on ext4, xfs and btrfs on loop devices, mounted nosuid,nodev, under
# a steady writer: every scheduler of each loop device in turn (read back, events);
# options change one at a time and every other option survives;
# refusals show the kernel's own message; ignored options are reported as not
# applied; risky changes need --yes; without privilege nothing is tried.
# run.sh: early (among the longest: started first)
. "$(dirname "$0")/lib.sh"


if ! is_root; then
	skip control_remount "needs root for loop devices and mounts"
	exit 0
fi

run() { OUT=$("$IOSCOPE" "$@" 2>&1 </dev/null); RC=$?; }
expect_rc() {
	if [ "$RC" = "$2" ]; then ok "$1"; else fail "$1" "exit $RC, want $2: $OUT"; fi
}
has() { grep -qF -- "$2" <<<"$OUT" && ok "$1" || fail "$1" "no '$2' in: $OUT"; }
mountinfo() { awk -v m="$1" '$5 == m' /proc/self/mountinfo | tail -1; }
mount_opts() { mountinfo "$1" | awk '{print $6}'; }
super_opts() { mountinfo "$1" | awk '{for (i = 7; $i != "-"; i++); print $(i + 3)}'; }
has_opt() { tr ',' '\n' <<<"$1" | grep -qx -- "$2"; }
# survivors NAME MNT: nosuid and nodev are still there
survivors() {
	local o; o=$(mount_opts "$2")
	if has_opt "$o" nosuid && has_opt "$o" nodev; then ok "$1"; else fail "$1" "mount options now $o"; fi
}

# fs TYPE: a loop device with TYPE mounted nosuid,nodev in the parent shell (cleanups
# registered here, not in a subshell), a writer on a file in it; sets DEV and MNT.
fs() {
	local type=$1
	make_loop 320 >"$TMP/loop-$type" || return 1
	DEV=$(cat "$TMP/loop-$type")
	MNT=$TMP/mnt-$type
	mkdir -p "$MNT"
	case $type in
	ext4) mkfs_ext4 "/dev/$DEV" ;;
	xfs) mkfs.xfs -q -f "/dev/$DEV" ;;
	btrfs) mkfs.btrfs -q -f "/dev/$DEV" ;;
	esac >/dev/null 2>&1 || return 1
	mount -t "$type" -o nosuid,nodev "/dev/$DEV" "$MNT" || return 1
	at_exit "umount -l '$MNT'"
	region_writer "$MNT/load" 180 64 64 100
}

# cycle TYPE DEV: every scheduler the queue lists, under the writer, read back, one event
# (none for the one in use already: no change, issue 41 item 3)
cycle() {
	local s was
	for s in $(tr -d '[]' <"/sys/block/$2/queue/scheduler"); do
		was=$(elevator_now "$2")
		run set --events "$2" scheduler="$s"
		expect_rc "$1_set_scheduler_$s" 0
		if grep -q "\[$s\]" "/sys/block/$2/queue/scheduler"; then ok "$1_readback_$s"
		else fail "$1_readback_$s" "$(cat /sys/block/$2/queue/scheduler)"; fi
		if [ "$was" = "$s" ]; then
			grep -qF '"type":"event"' <<<"$OUT" && fail "$1_no_event_$s" "$OUT" || ok "$1_no_event_$s"
		else
			has "$1_event_$s" "\"kind\":\"scheduler\",\"object\":\"$2\",\"key\":\"scheduler\""
		fi
	done
}

# ---------------- ext4 ----------------
if fs ext4; then
	E=$MNT
	cycle ext4 "$DEV"
	# a symlink another user owns, planted on the way to the mount: root's remount does not
	# follow it onto the filesystem behind it (docs/security.md)
	if id nobody >/dev/null 2>&1; then
		ln -s "$E" "$TMP/ulink" && chown -h nobody "$TMP/ulink"
		before="$(mount_opts "$E")"
		run remount "$TMP/ulink" noatime
		expect_rc remount_through_user_symlink_refused 2
		has remount_through_user_symlink_says_why "$TMP/ulink is a symlink owned by uid $(id -u nobody), not root: refused"
		check remount_through_user_symlink_changed_nothing test "$(mount_opts "$E")" = "$before"
		run remount "$TMP/ulink/." noatime
		expect_rc remount_past_user_symlink_refused 2
	fi
	run remount --events "$E" commit=30,noatime
	expect_rc ext4_commit_noatime 0
	check ext4_commit_applied has_opt "$(super_opts "$E")" commit=30
	check ext4_noatime_applied has_opt "$(mount_opts "$E")" noatime
	survivors ext4_survive_commit "$E"
	# one remount, one event (issue 41): the mount flags' change, the fs options' in its resets
	has ext4_event_mount '"kind":"mount_options","object":"'"$E"'","key":"mount_opts"'
	has ext4_event_super_in_resets '"resets":{"super_opts":["","commit=30"]}'
	[ "$(grep -c '"kind":"mount_options"' <<<"$OUT")" = 1 ] && ok ext4_one_event \
		|| fail ext4_one_event "$OUT"
	has ext4_before_after "rw,nosuid,nodev,relatime -> rw,nosuid,nodev,noatime"

	run remount "$E" barrier=0
	expect_rc ext4_barrier0_needs_yes 1
	has ext4_barrier0_reason "write barriers off"
	has ext4_barrier0_says_yes "--yes"
	check ext4_barrier0_unconfirmed_unchanged test "$(has_opt "$(super_opts "$E")" nobarrier && echo on)" = ""
	run remount -y "$E" barrier=0
	expect_rc ext4_barrier0 0
	check ext4_nobarrier_shown has_opt "$(super_opts "$E")" nobarrier
	survivors ext4_survive_barrier "$E"

	run remount "$E" barrier=1,commit=5,relatime
	expect_rc ext4_back 0
	so=$(super_opts "$E")
	check ext4_back_barrier test "$(has_opt "$so" nobarrier && echo x)" = ""
	check ext4_back_commit test "$(has_opt "$so" commit=30 && echo x)" = ""
	check ext4_back_relatime has_opt "$(mount_opts "$E")" relatime
	survivors ext4_survive_back "$E"

	run remount "$E" commit=60
	before=$(super_opts "$E")
	run remount "$E" data=journal
	expect_rc ext4_data_mode_refused 1
	has ext4_data_mode_kernel_message "Cannot change data mode on remount"
	check ext4_data_mode_nothing_changed test "$(super_opts "$E")" = "$before"

	# a refused fsconfig set aborts before RECONFIGURE: commit=90 must not slip through
	run remount "$E" commit=90,nosuchoption
	expect_rc ext4_unknown_refused 1
	has ext4_unknown_kernel_message "Unknown parameter 'nosuchoption'"
	check ext4_partial_not_applied test "$(super_opts "$E")" = "$before"
	survivors ext4_survive_refusals "$E"

	run remount "$E" noatime,relatime
	expect_rc ext4_contradiction_usage 2
	run remount "$E" -commit
	expect_rc ext4_minus_valued_usage 2
	run remount "$E" bind
	expect_rc ext4_bind_refused 2
	run remount "$TMP" noatime
	expect_rc not_a_mount_point 2
	run remount "$E"
	expect_rc no_options_usage 2

	# ro while a file is held open for writing: confirmation with the reason
	exec 9>>"$E/held"
	run remount "$E" ro
	exec 9>&-
	expect_rc ext4_ro_busy_needs_yes 1
	has ext4_ro_busy_reason "busy"
	check ext4_ro_busy_unchanged has_opt "$(mount_opts "$E")" rw

	run show "$E"
	expect_rc show_mountpoint 0
	has show_mount_options "$(mount_opts "$E")"
	has show_device_settings "scheduler"
else
	fail ext4_setup "could not make an ext4 filesystem on a loop device"
fi

# ---------------- btrfs ----------------
if fs btrfs; then
	B=$MNT
	cycle btrfs "$DEV"
	run remount --events "$B" commit=60,compress=zstd
	expect_rc btrfs_commit_compress 0
	so=$(super_opts "$B")
	check btrfs_commit_applied has_opt "$so" commit=60
	check btrfs_compress_applied grep -q "compress=zstd" <<<"$so"
	survivors btrfs_survive_compress "$B"
	run remount "$B" compress=no,commit=30
	expect_rc btrfs_back 0
	check btrfs_compress_off test "$(grep -c compress= <<<"$(super_opts "$B")")" = 0
	run remount "$B" compress=bogus
	expect_rc btrfs_bad_compress_refused 1
	has btrfs_bad_compress_message "compression"
	survivors btrfs_survive_all "$B"
else
	fail btrfs_setup "could not make a btrfs filesystem on a loop device"
fi

# ---------------- xfs ----------------
if fs xfs; then
	X=$MNT
	cycle xfs "$DEV"
	before=$(super_opts "$X")
	run remount --events "$X" logbsize=256k
	expect_rc xfs_logbsize_not_applied_exit 1
	has xfs_logbsize_reported "logbsize=256k: accepted, not applied"
	has xfs_logbsize_event '"result":"accepted, not applied: logbsize=256k"'
	check xfs_logbsize_unchanged test "$(super_opts "$X")" = "$before"
	run remount -y "$X" nobarrier
	expect_rc xfs_nobarrier_refused 1
	has xfs_nobarrier_kernel_message "Unknown parameter 'nobarrier'"
	check xfs_nobarrier_unchanged test "$(super_opts "$X")" = "$before"
	run remount "$X" inode32,noexec
	expect_rc xfs_inode32 0
	check xfs_inode32_applied has_opt "$(super_opts "$X")" inode32
	check xfs_noexec_applied has_opt "$(mount_opts "$X")" noexec
	run remount "$X" inode64,-noexec,strictatime
	expect_rc xfs_back 0
	check xfs_exec_back test "$(has_opt "$(mount_opts "$X")" noexec && echo x)" = ""
	check xfs_strictatime test "$(has_opt "$(mount_opts "$X")" relatime && echo x)" = ""
	survivors xfs_survive_all "$X"

	# ---------------- without privilege ----------------
	chmod 755 "$TMP"
	before_m=$(mount_opts "$X") before_s=$(super_opts "$X")
	OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" remount "$X" noatime 2>&1 </dev/null); RC=$?
	expect_rc unprivileged_remount_refused 1
	has unprivileged_remount_says_cap "CAP_SYS_ADMIN"
	OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" remount -y "$X" nobarrier 2>&1 </dev/null); RC=$?
	expect_rc unprivileged_risky_refused 1
	OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" remount "$X" noatime,relatime 2>&1 </dev/null); RC=$?
	expect_rc unprivileged_bad_usage 2
	OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" show "$X" 2>&1 </dev/null); RC=$?
	expect_rc unprivileged_show 0
	check unprivileged_changed_nothing test "$(mount_opts "$X") $(super_opts "$X")" = "$before_m $before_s"
else
	fail xfs_setup "could not make an xfs filesystem on a loop device"
fi
