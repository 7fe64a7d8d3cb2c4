#!/bin/bash
# `ioscope matrix --mount` is opened once, component by component, and used through its
# descriptor (docs/experiments.md, "Safety"; docs/security.md; issue 23): a symlink not
# owned by root at the mount point or on the way to it is refused and nothing is mounted
# on its target; a root-owned one is followed; a directory on the way swapped for a
# symlink between two runs (as the directory's owner could) moves nothing: the mount
# goes onto the directory opened, the command runs there, and it is unmounted there.
. "$(dirname "$0")/lib.sh"
if ! is_root; then skip "matrix --mount through a symlink" "needs root (loop devices, mkfs, mount)"; exit 0; fi
sanitizer_clean() { ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$1"; }
nobody=$(id -u nobody 2>/dev/null) || { skip "matrix --mount through a symlink" "no user nobody"; exit 0; }

dev=$(make_loop 64) || { fail "loop device"; exit 0; }
mkdir -p "$TMP/target/sub"
at_exit "umount '$TMP/u/d.moved/m'; umount '$TMP/elsewhere/m'; umount '$TMP/target'"
echo mine >"$TMP/target/keep"
cd "$TMP" || exit 1
# run OUT ARGS...: a matrix of one run whose command notes where it ran; status in $rc
run() {
	local out=$1; shift
	"$IOSCOPE" matrix --device "$dev" --repeat 1 --out "$TMP/$out" "$@" \
		-- sh -c "stat -f -c %T . >>'$TMP/$out.fs'; pwd -P >>'$TMP/$out.pwd'; echo \"\$IOSCOPE_MOUNT\" >'$TMP/$out.env'; touch made-here" \
		>/dev/null 2>"$TMP/$out.stderr"
	rc=$?
}
untouched() {
	[ "$(cat "$TMP/target/keep")" = mine ] && [ ! -e "$TMP/target/made-here" ] \
		&& ! grep -q " $TMP/target[ /]" /proc/self/mountinfo
}
# refused_link OUT TEXT: exit 2 saying TEXT, no run, no filesystem made, target untouched
refused_link() {
	[ "$rc" -eq 2 ] && sanitizer_clean "$TMP/$1.stderr" && grep -qF "$2" "$TMP/$1.stderr" \
		&& [ ! -e "$TMP/$1.pwd" ] && [ ! -e "$TMP/$1.txt" ] && ! blkid "/dev/$dev" >/dev/null 2>&1 && untouched
}

ln -s "$TMP/target" "$TMP/ulink" && chown -h nobody "$TMP/ulink"
run c1 --mount "$TMP/ulink" --mkfs "$MKFS_EXT4"
refused_link c1 "$TMP/ulink is a symlink owned by uid $nobody, not root: refused" && ok "--mount at a symlink another user owns: refused, nothing mounted on its target" \
	|| fail "--mount at a symlink another user owns: refused, nothing mounted on its target" "rc=$rc $(cat "$TMP/c1.stderr")"
run c2 --mount "$TMP/ulink/sub" --mkfs "$MKFS_EXT4"
refused_link c2 "$TMP/ulink/sub: passes through $TMP/ulink, a symlink owned by uid $nobody, not root: refused" && ok "--mount through such a symlink: refused" \
	|| fail "--mount through such a symlink: refused" "rc=$rc $(cat "$TMP/c2.stderr")"
ln -s "$TMP/ulink" "$TMP/rlink-to-ulink"
run c3 --mount "$TMP/rlink-to-ulink" --mkfs "$MKFS_EXT4"
refused_link c3 "$TMP/rlink-to-ulink: passes through $TMP/ulink, a symlink owned by uid $nobody, not root: refused" && ok "a root-owned symlink leading to such a symlink: refused" \
	|| fail "a root-owned symlink leading to such a symlink: refused" "rc=$rc $(cat "$TMP/c3.stderr")"

# remount mode too: the filesystem behind a user's symlink is not remounted
dev2=$(make_loop 64) && mnt2=$(make_fs "$dev2" ext4) || { fail "ext4 for remount"; exit 0; }
ln -s "$mnt2" "$TMP/ulink2" && chown -h nobody "$TMP/ulink2"
opts=$(awk -v m="$mnt2" '$5 == m { print $6 }' /proc/self/mountinfo)
"$IOSCOPE" matrix --device "$dev2" --mount "$TMP/ulink2" --mount-options noatime --repeat 1 \
	--out "$TMP/c4" -- true >/dev/null 2>"$TMP/c4.stderr"
rc=$?
[ "$rc" -eq 2 ] && grep -qF "$TMP/ulink2 is a symlink owned by uid $nobody, not root: refused" "$TMP/c4.stderr" \
	&& [ ! -e "$TMP/c4.txt" ] && [ "$opts" = "$(awk -v m="$mnt2" '$5 == m { print $6 }' /proc/self/mountinfo)" ] \
	&& ok "remount mode: a --mount at a symlink another user owns is refused" \
	|| fail "remount mode: a --mount at a symlink another user owns is refused" "rc=$rc $(cat "$TMP/c4.stderr")"

# a symlink root owns is followed: the fresh filesystem on its target, the command in it
ln -s "$TMP/target" "$TMP/rlink"
run c5 --mount "$TMP/rlink" --mkfs "$MKFS_EXT4"
[ "$rc" -eq 0 ] && sanitizer_clean "$TMP/c5.stderr" && [ "$(cat "$TMP/c5.fs")" = ext2/ext3 ] \
	&& [ "$(cat "$TMP/c5.pwd")" = "$TMP/target" ] && [ "$(cat "$TMP/c5.env")" = "$TMP/target" ] \
	&& grep -q "\"mount\": *\"$TMP/target\"" "$TMP/c5.json" && untouched \
	&& ok "a root-owned symlink is followed: mounted on its target, the command run there, unmounted" \
	|| fail "a root-owned symlink is followed: mounted on its target, the command run there, unmounted" \
		"rc=$rc $(cat "$TMP/c5.fs" "$TMP/c5.pwd" "$TMP/c5.env" "$TMP/c5.stderr" 2>&1 | tail -5)"

# a directory on the way swapped for a symlink between two runs: the mkfs command (run
# before each mount) does it the second time, as the directory's owner could
mkdir -p "$TMP/u/d/m" "$TMP/elsewhere/m"
chown -R nobody "$TMP/u"
echo mine >"$TMP/elsewhere/m/keep"
cat >"$TMP/mkfs.sh" <<EOF
#!/bin/sh
if [ -e '$TMP/mkfs.once' ] && [ ! -L '$TMP/u/d' ]; then
	mv '$TMP/u/d' '$TMP/u/d.moved' && ln -s '$TMP/elsewhere' '$TMP/u/d' && chown -h nobody '$TMP/u/d'
fi
touch '$TMP/mkfs.once'
mkfs.ext4 -q -F $EXT4_NOLAZY "\$1" && exec tune2fs -E mount_opts=no_prefetch_block_bitmaps "\$1" >/dev/null
EOF
chmod 755 "$TMP/mkfs.sh"
run c6 --mount "$TMP/u/d/m" --mkfs "$TMP/mkfs.sh" --mount-options 'defaults;noatime'
[ "$rc" -eq 0 ] && sanitizer_clean "$TMP/c6.stderr" && [ -L "$TMP/u/d" ] \
	&& [ "$(LC_ALL=C sort -u "$TMP/c6.pwd" | tr '\n' ' ')" = "$TMP/u/d.moved/m $TMP/u/d/m " ] \
	&& [ "$(sort -u "$TMP/c6.fs")" = ext2/ext3 ] && [ "$(cat "$TMP/elsewhere/m/keep")" = mine ] \
	&& [ ! -e "$TMP/elsewhere/m/made-here" ] && ! grep -q " $TMP/u/d.moved/m " /proc/self/mountinfo \
	&& ! grep -q " $TMP/elsewhere/m " /proc/self/mountinfo \
	&& ok "a directory on the way swapped for a symlink between runs: mounted, run and unmounted where it was opened" \
	|| fail "a directory on the way swapped for a symlink between runs: mounted, run and unmounted where it was opened" \
		"rc=$rc $(cat "$TMP/c6.pwd" "$TMP/c6.fs" 2>&1) $(tail -3 "$TMP/c6.stderr")"
