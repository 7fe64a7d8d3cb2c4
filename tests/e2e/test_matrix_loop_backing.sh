#!/bin/bash
# `ioscope matrix --mkfs` on a loop device wipes what the loop device stands on
# (docs/experiments.md, "Safety"; issue 23): a block device behind it is treated as that
# device (named with --destroy-data-on, the bottom of a stacked chain; unmounted and
# unheld, and so is every other loop device on it), and a loop device whose image file
# another loop device with a mounted filesystem shares is refused, that filesystem kept.
# The "block device" under a loop device is a loop device over a file of the test's own.
. "$(dirname "$0")/lib.sh"
if ! is_root; then skip "matrix --mkfs over what a loop device stands on" "needs root (loop devices, mkfs, mount)"; exit 0; fi
sanitizer_clean() { ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$1"; }

# make_loop_on PATH -> a loop device over PATH (a file or a block device), detached at exit
make_loop_on() {
	local dev
	dev=$(losetup --find --show "$1") || return 1
	at_exit "losetup -d '$dev'"
	restore_queue "$(basename "$dev")"
	basename "$dev"
}
# matrix OUT ARGS...: an --mkfs matrix of one run on $TMP/m; its status in $rc
matrix() {
	local out=$1; shift
	"$IOSCOPE" matrix --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 --out "$TMP/$out" \
		"$@" -- sh -c 'seq 1000 >numbers' >/dev/null 2>"$TMP/$out.stderr"
	rc=$?
	at_exit "umount '$TMP/m'"
}
refused() { [ "$rc" -eq "$1" ] && sanitizer_clean "$TMP/$2.stderr" && [ ! -e "$TMP/$2.txt" ]; }
# kept MNT DEV: the file the test left on DEV's filesystem, read again from the device
kept() { umount "$1" && mount "/dev/$2" "$1" && [ "$(cat "$1/keep" 2>/dev/null)" = precious ]; }

mkdir "$TMP/m" "$TMP/low" "$TMP/side" "$TMP/shared"
cd "$TMP" || exit 1

# ---- a loop device over a block device (here: a loop device over a file) ----
lower=$(make_loop 64) || { fail "loop devices"; exit 0; }
upper=$(make_loop_on "/dev/$lower") && top=$(make_loop_on "/dev/$upper") || { fail "stacked loop devices"; exit 0; }

matrix a1 --device "$upper"
refused 2 a1 && grep -q "would destroy the data on $lower, which it stands on ($upper -> $lower): name that with --destroy-data-on $lower" "$TMP/a1.stderr" \
	&& ! blkid "/dev/$lower" >/dev/null 2>&1 \
	&& ok "--mkfs on a loop device over a block device is refused unless that device is named" \
	|| fail "--mkfs on a loop device over a block device is refused unless that device is named" "rc=$rc $(cat "$TMP/a1.stderr")"
# the refusal names the option given: --fs, not --mkfs (issue 40 nit)
"$IOSCOPE" matrix --mount "$TMP/m" --fs "ext4=$MKFS_EXT4" --repeat 1 --out "$TMP/a1fs" \
	--device "$upper" -- true >/dev/null 2>"$TMP/a1fs.stderr"
rc=$?
refused 2 a1fs && grep -q -- "^ioscope matrix: --fs on $upper would destroy the data on $lower, which it stands on" "$TMP/a1fs.stderr" \
	&& ! grep -q -- "--mkfs" "$TMP/a1fs.stderr" && ! blkid "/dev/$lower" >/dev/null 2>&1 \
	&& ok "with --fs the refusal says --fs" \
	|| fail "with --fs the refusal says --fs" "rc=$rc $(cat "$TMP/a1fs.stderr")"
matrix a2 --device "$upper" --destroy-data-on "/dev/$upper"
refused 2 a2 && grep -q -- "--destroy-data-on $lower" "$TMP/a2.stderr" && ! blkid "/dev/$lower" >/dev/null 2>&1 \
	&& ok "naming the loop device itself does not count" \
	|| fail "naming the loop device itself does not count" "rc=$rc $(cat "$TMP/a2.stderr")"
matrix a3 --device "$top" --destroy-data-on "$upper"
refused 2 a3 && grep -q "($top -> $upper -> $lower): name that with --destroy-data-on $lower" "$TMP/a3.stderr" \
	&& ! blkid "/dev/$lower" >/dev/null 2>&1 \
	&& ok "a stacked chain is followed down: the device at its bottom is the one to name" \
	|| fail "a stacked chain is followed down: the device at its bottom is the one to name" "rc=$rc $(cat "$TMP/a3.stderr")"

# named, but mounted: refused, its data kept
mkfs_ext4 "/dev/$lower" && mount "/dev/$lower" "$TMP/low" && at_exit "umount '$TMP/low'"
echo precious >"$TMP/low/keep"
sync -f "$TMP/low"      # this filesystem's: sync(2) would wait for other tests' frozen ones
matrix a4 --device "$upper" --destroy-data-on "/dev/$lower"
refused 1 a4 && grep -q "$upper stands on $lower: /dev/$lower is in use: $lower is mounted on $TMP/low" "$TMP/a4.stderr" \
	&& kept "$TMP/low" "$lower" \
	&& ok "named, but the device it stands on is mounted: refused, its data kept" \
	|| fail "named, but the device it stands on is mounted: refused, its data kept" "rc=$rc $(cat "$TMP/a4.stderr")"
umount "$TMP/low"

# named, but held open exclusively by another process: refused
hold_exclusively "$lower"
matrix a5 --device "$upper" --destroy-data-on "$lower"
release_hold
refused 1 a5 && grep -q "$upper stands on $lower: /dev/$lower is in use (the kernel refuses an exclusive open)" "$TMP/a5.stderr" \
	&& mount "/dev/$lower" "$TMP/low" && [ "$(cat "$TMP/low/keep")" = precious ] && umount "$TMP/low" \
	&& ok "named, but the device it stands on is held: refused" \
	|| fail "named, but the device it stands on is held: refused" "rc=$rc $(cat "$TMP/a5.stderr" "$TMP/holder.out")"

# named, but another loop device on the same device has it mounted: refused, its data kept
side=$(make_loop_on "/dev/$lower") || { fail "a second loop device on $lower"; exit 0; }
mount "/dev/$side" "$TMP/side" && at_exit "umount '$TMP/side'"
matrix a6 --device "$upper" --destroy-data-on "$lower"
refused 1 a6 && grep -q "would destroy the data of $side, which stands on $lower: /dev/$side is in use: $side is mounted on $TMP/side" "$TMP/a6.stderr" \
	&& kept "$TMP/side" "$side" \
	&& ok "another loop device on the same device, mounted: refused, its data kept" \
	|| fail "another loop device on the same device, mounted: refused, its data kept" "rc=$rc $(cat "$TMP/a6.stderr")"
umount "$TMP/side"

# named, unmounted and unheld: done, the device under it wiped and made anew
uuid=$(blkid -o value -s UUID "/dev/$lower")
matrix a7 --device "$upper" --destroy-data-on "/dev/$lower"
new=$(blkid -o value -s UUID "/dev/$lower")
[ "$rc" -eq 0 ] && sanitizer_clean "$TMP/a7.stderr" && grep -q '"complete": *true' "$TMP/a7.json" \
	&& [ -n "$new" ] && [ "$new" != "$uuid" ] && ! grep -q " $TMP/m " /proc/self/mountinfo \
	&& ok "named, unmounted and unheld: done" \
	|| fail "named, unmounted and unheld: done" "rc=$rc uuid $uuid -> $new $(tail -3 "$TMP/a7.stderr")"

# ---- two loop devices on one image file ----
one=$(make_loop 64) || { fail "loop device"; exit 0; }
img=$(cat "/sys/block/$one/loop/backing_file")
two=$(make_loop_on "$img") || { fail "a second loop device on $img"; exit 0; }
mkfs_ext4 "/dev/$two" && mount "/dev/$two" "$TMP/shared" && at_exit "umount '$TMP/shared'"
echo precious >"$TMP/shared/keep"
sync -f "$TMP/shared"
matrix b1 --device "$one"
refused 1 b1 && grep -q "would destroy the data of $two, which stands on the same file ($img): /dev/$two is in use: $two is mounted on $TMP/shared" "$TMP/b1.stderr" \
	&& kept "$TMP/shared" "$two" \
	&& ok "a loop device whose file a mounted loop device shares: refused, that filesystem kept" \
	|| fail "a loop device whose file a mounted loop device shares: refused, that filesystem kept" "rc=$rc $(cat "$TMP/b1.stderr")"
umount "$TMP/shared"
matrix b2 --device "$one"
[ "$rc" -eq 0 ] && sanitizer_clean "$TMP/b2.stderr" && grep -q '"complete": *true' "$TMP/b2.json" \
	&& ok "the same file shared with a loop device nobody uses: done" \
	|| fail "the same file shared with a loop device nobody uses: done" "rc=$rc $(tail -3 "$TMP/b2.stderr")"
