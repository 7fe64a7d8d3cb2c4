#!/bin/bash
# `ioscope matrix` keeps its safety checks for as long as it runs (docs/security.md, "Root
# acting on devices and paths: matrix"; issues 38 and 40):
# - what the start checks before --mkfs (who else uses the device's data: a loop device on
#   the same image, a mount of the device) is checked again right before every mkfs and
#   every mount: a loop device attached to the image and mounted during cell 1, or the
#   device mounted elsewhere, stops the matrix before cell 2's mkfs, with the reason; the
#   device is put back and that filesystem kept;
# - --device and --destroy-data-on through a symlink root does not own are refused, as
#   --mount is; a root-owned one is followed;
# - a second matrix on a device a running matrix holds is refused, naming that matrix, and
#   the first one finishes and puts the device back;
# - the cold cache writes back the matrix's own filesystem, not the machine's: beside another
#   user's filesystem whose write-back cannot end, it finishes (sync(2) waited for the thaw).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/freeze_lib.sh"
if ! is_root; then skip "matrix safety while it runs" "needs root (loop devices, mkfs, mount)"; exit 0; fi
nobody=$(id -u nobody 2>/dev/null) || { skip "matrix safety while it runs" "no user nobody"; exit 0; }

mkdir "$TMP/m" "$TMP/m2" "$TMP/side" "$TMP/links"
cd "$TMP" || exit 1
# waits NAME: a command's text that says it runs ($TMP/NAME.running), then waits until the
# test lets it go ($TMP/NAME.go; 60 s at most)
waits() {
	echo "touch '$TMP/$1.running'; i=0; while [ ! -e '$TMP/$1.go' ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done"
}
# matrix_bg OUT DEV ARGS... -- CMD: an --mkfs matrix of two cells (defaults, noatime), one
# run each, in the background ($BG_PID, killed at exit)
matrix_bg() {
	local out=$1 dev=$2
	shift 2
	bg "$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
		--mount-options 'defaults;noatime' --out "$TMP/$out" "$@" >/dev/null 2>"$TMP/$out.stderr"
}
mounted() { grep -q " $1 " /proc/self/mountinfo; }
# put_back DEV SCHED OUT: the device as the matrix found it: its scheduler, nothing mounted
# on $TMP/m, no claim of the matrix left
put_back() {
	[ "$(elevator_now "$1")" = "$2" ] && ! mounted "$TMP/m" && [ ! -e "$XDG_RUNTIME_DIR/ioscope/matrix-$1" ]
}
# kept MNT DEV: the file the test left on DEV's filesystem, read again from the device
kept() { umount "$1" && mount -o ro "$2" "$1" && [ "$(cat "$1/keep" 2>/dev/null)" = precious ]; }

# ---- 1. a loop device on the same image, mounted during cell 1 ----
dev=$(make_loop 64) || { fail "loop device"; exit 0; }
img=$(cat "/sys/block/$dev/loop/backing_file")
sched=$(elevator_now "$dev")
other=$(elevator_other "$dev")
# only cell 1 leaves the file to keep (cell 2 runs after the test let it go)
matrix_bg s1 "$dev" --schedulers "$other" -- sh -c "[ -e '$TMP/s1.go' ] || { echo precious >keep; sync -f .; $(waits s1); }"
pid=$BG_PID
side=""
if wait_until 60 "$pid" test -e "$TMP/s1.running"; then
	# read-only, without replaying the journal of the filesystem the matrix has mounted
	side=$(losetup --find --show --read-only "$img") && at_exit "losetup -d '$side'"
	[ -n "$side" ] && mount -o ro,noload "$side" "$TMP/side" && at_exit "umount '$TMP/side'"
fi
touch "$TMP/s1.go"
wait "$pid"
rc=$?
sname=$(basename "$side")
if ! mounted "$TMP/side"; then
	fail "a loop device on the same image mounted during cell 1" "could not mount $img through a second loop device ($side): $(tail -3 "$TMP/s1.stderr")"
else
	[ "$rc" -eq 1 ] && clean_stderr "$TMP/s1.stderr" \
		&& grep -qF "stopped before the mkfs of cell 2 repeat 1: --mkfs on $dev would destroy the data of $sname, which stands on the same file ($img): /dev/$sname is in use: $sname is mounted on $TMP/side" "$TMP/s1.stderr" \
		&& grep -q "stopped before the mkfs of cell 2" "$TMP/s1.txt" \
		&& ok "a loop device on the same image mounted during cell 1: the matrix stops before cell 2's mkfs" \
		|| fail "a loop device on the same image mounted during cell 1: the matrix stops before cell 2's mkfs" "rc=$rc $(tail -4 "$TMP/s1.stderr")"
	put_back "$dev" "$sched" && kept "$TMP/side" "$side" \
		&& ok "... the device is put back, the filesystem mounted through the image kept" \
		|| fail "... the device is put back, the filesystem mounted through the image kept" "scheduler $(elevator_now "$dev") (was $sched), $(grep -c " $TMP/m " /proc/self/mountinfo) mounts on $TMP/m, keep: $(cat "$TMP/side/keep" 2>&1)"
fi
umount "$TMP/side" 2>/dev/null

# ---- 2. the device itself mounted elsewhere during cell 1 ----
matrix_bg s2 "$dev" -- sh -c "[ -e '$TMP/s2.go' ] || { echo precious >keep; $(waits s2); }"
pid=$BG_PID
if wait_until 60 "$pid" test -e "$TMP/s2.running"; then
	mount "/dev/$dev" "$TMP/side" && at_exit "umount '$TMP/side'"
fi
touch "$TMP/s2.go"
wait "$pid"
rc=$?
if ! mounted "$TMP/side"; then
	fail "the device mounted elsewhere during cell 1" "could not mount /dev/$dev on $TMP/side: $(tail -3 "$TMP/s2.stderr")"
else
	[ "$rc" -eq 1 ] && clean_stderr "$TMP/s2.stderr" \
		&& grep -qF "stopped before the mkfs of cell 2 repeat 1: /dev/$dev is in use: $dev is mounted on $TMP/side" "$TMP/s2.stderr" \
		&& put_back "$dev" "$sched" && [ "$(cat "$TMP/side/keep" 2>/dev/null)" = precious ] \
		&& ok "the device mounted elsewhere during cell 1: stopped before cell 2's mkfs, put back, that mount kept" \
		|| fail "the device mounted elsewhere during cell 1: stopped before cell 2's mkfs, put back, that mount kept" "rc=$rc $(tail -4 "$TMP/s2.stderr")"
fi
umount "$TMP/side" 2>/dev/null

# ---- 2b. between the mkfs and the mount: the mkfs command itself attaches a loop device
# to the image and mounts the fresh filesystem through it ----
at_exit "umount '$TMP/side'; [ -s '$TMP/side3.dev' ] && losetup -d \$(cat '$TMP/side3.dev')"
cat >"$TMP/mkfs.sh" <<EOF
#!/bin/sh
mkfs.ext4 -q -F $EXT4_NOLAZY "\$1" && tune2fs -E mount_opts=no_prefetch_block_bitmaps "\$1" >/dev/null || exit 1
losetup --find --show --read-only '$img' >'$TMP/side3.dev' && mount -o ro "\$(cat '$TMP/side3.dev')" '$TMP/side'
EOF
chmod 755 "$TMP/mkfs.sh"
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$TMP/mkfs.sh" --repeat 1 --schedulers "$other" \
	--out "$TMP/s3" -- true >/dev/null 2>"$TMP/s3.stderr"
rc=$?
s3=$(basename "$(cat "$TMP/side3.dev" 2>/dev/null)")
if ! mounted "$TMP/side"; then
	fail "a loop device on the image mounted between the mkfs and the mount" "the mkfs command could not mount $img through a second loop device: $(tail -3 "$TMP/s3.stderr")"
else
	[ "$rc" -eq 1 ] && clean_stderr "$TMP/s3.stderr" \
		&& grep -qF "stopped before the mount of cell 1 repeat 1: --mkfs on $dev would destroy the data of $s3, which stands on the same file ($img): /dev/$s3 is in use: $s3 is mounted on $TMP/side" "$TMP/s3.stderr" \
		&& put_back "$dev" "$sched" \
		&& ok "a loop device on the image mounted between the mkfs and the mount: stopped before the mount, put back" \
		|| fail "a loop device on the image mounted between the mkfs and the mount: stopped before the mount, put back" "rc=$rc $(tail -4 "$TMP/s3.stderr")"
fi
umount "$TMP/side" 2>/dev/null

# ---- 3. --device and --destroy-data-on through a symlink another user owns ----
# run OUT ARGS...: a matrix of one run, in the foreground; its status in $rc
run() {
	local out=$1
	shift
	"$IOSCOPE" matrix --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 --out "$TMP/$out" "$@" \
		-- true >/dev/null 2>"$TMP/$out.stderr"
	rc=$?
}
# refused OUT TEXT: exit 2 saying TEXT, no result, nothing made on /dev/$3
refused() {
	[ "$rc" -eq 2 ] && clean_stderr "$TMP/$1.stderr" && grep -qF "$2" "$TMP/$1.stderr" \
		&& [ ! -e "$TMP/$1.txt" ] && ! blkid "/dev/$3" >/dev/null 2>&1
}
lower=$(make_loop 64) || { fail "loop device"; exit 0; }
upper=$(losetup --find --show "/dev/$lower") && at_exit "losetup -d '$upper'" || { fail "a loop device over /dev/$lower"; exit 0; }
upper=$(basename "$upper")
restore_queue "$upper"
ln -s "/dev/$lower" "$TMP/links/lower" && chown -h nobody "$TMP/links/lower"
ln -s /dev "$TMP/links/devdir" && chown -h nobody "$TMP/links/devdir"
run d1 --device "$TMP/links/lower"
refused d1 "$TMP/links/lower is a symlink owned by uid $nobody, not root: refused" "$lower" \
	&& ok "--device at a symlink another user owns: refused, nothing made" \
	|| fail "--device at a symlink another user owns: refused, nothing made" "rc=$rc $(cat "$TMP/d1.stderr")"
run d2 --device "$TMP/links/devdir/$lower"
refused d2 "$TMP/links/devdir/$lower: passes through $TMP/links/devdir, a symlink owned by uid $nobody, not root: refused" "$lower" \
	&& ok "--device through such a symlink: refused" \
	|| fail "--device through such a symlink: refused" "rc=$rc $(cat "$TMP/d2.stderr")"
run d3 --device "$upper" --destroy-data-on "$TMP/links/lower"
refused d3 "$TMP/links/lower is a symlink owned by uid $nobody, not root: refused" "$lower" \
	&& ok "--destroy-data-on at a symlink another user owns: refused, nothing made" \
	|| fail "--destroy-data-on at a symlink another user owns: refused, nothing made" "rc=$rc $(cat "$TMP/d3.stderr")"
# root's links are followed: the device at the bottom named through one, wiped and made anew
ln -s "/dev/$lower" "$TMP/links/rlower"
ln -s "/dev/$upper" "$TMP/links/rupper"
run d4 --device "$TMP/links/rupper" --destroy-data-on "$TMP/links/rlower"
[ "$rc" -eq 0 ] && clean_stderr "$TMP/d4.stderr" && grep -q '"complete": *true' "$TMP/d4.json" \
	&& grep -q "\"device\": *\"$upper\"" "$TMP/d4.json" && blkid "/dev/$lower" >/dev/null 2>&1 \
	&& ok "--device and --destroy-data-on through symlinks root owns: followed" \
	|| fail "--device and --destroy-data-on through symlinks root owns: followed" "rc=$rc $(tail -3 "$TMP/d4.stderr")"

# ---- 4. a second matrix on the device a matrix runs on ----
matrix_bg c1 "$dev" --schedulers "$other" -- sh -c "$(waits c1)"
pid=$BG_PID
if wait_until 60 "$pid" test -e "$TMP/c1.running"; then
	"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m2" --mkfs "$MKFS_EXT4" --repeat 1 \
		--out "$TMP/c2" -- true >/dev/null 2>"$TMP/c2.stderr"
	rc2=$?
fi
touch "$TMP/c1.go"
wait "$pid"
rc=$?
[ "${rc2:-}" = 1 ] && clean_stderr "$TMP/c2.stderr" && grep -qxF "ioscope matrix: a matrix (pid $pid) runs on $dev" "$TMP/c2.stderr" \
	&& ! grep -q "ended without putting it back" "$TMP/c2.stderr" && [ ! -e "$TMP/c2.txt" ] && ! mounted "$TMP/m2" \
	&& ok "a second matrix on a device a matrix runs on: refused, naming that matrix" \
	|| fail "a second matrix on a device a matrix runs on: refused, naming that matrix" "rc=${rc2:-none} $(cat "$TMP/c2.stderr")"
[ "$rc" -eq 0 ] && clean_stderr "$TMP/c1.stderr" && grep -q '"complete": *true' "$TMP/c1.json" \
	&& put_back "$dev" "$sched" \
	&& ok "... the first one finishes and puts the device back" \
	|| fail "... the first one finishes and puts the device back" "rc=$rc scheduler $(elevator_now "$dev") (was $sched) $(tail -3 "$TMP/c1.stderr")"

# ---- 5. the cold cache beside another user's stuck filesystem ----
# Dirty pages of a filesystem whose loop device's backing file is on a frozen one cannot be
# written back before the thaw, and sync(2) waits for them; the matrix syncs its own only.
nested_loops 64
dd if=/dev/zero of="$mi/dirty" bs=1M count=4 status=none
at_exit "fsfreeze -u '$mo'"
fsfreeze -f "$mo" || fail "freeze" "fsfreeze -f $mo"
matrix_bg f1 "$dev" -- true
pid=$BG_PID
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_until 120 "" gone "$pid" && held=no || held=yes
fsfreeze -u "$mo"
wait "$pid"
rc=$?
[ "$held" = no ] && [ "$rc" -eq 0 ] && clean_stderr "$TMP/f1.stderr" && grep -q '"complete": *true' "$TMP/f1.json" \
	&& put_back "$dev" "$sched" \
	&& ok "the cold cache beside another's filesystem stuck in write-back: the matrix syncs its own and finishes" \
	|| fail "the cold cache beside another's filesystem stuck in write-back: the matrix syncs its own and finishes" "held until the thaw: $held, rc=$rc $(tail -3 "$TMP/f1.stderr")"
