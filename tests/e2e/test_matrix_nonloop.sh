#!/bin/bash
# run.sh: serial: it hot-adds and hot-removes a zram device
# `ioscope matrix --mkfs` on a device that is not a loop device (docs/experiments.md,
# "Safety"), live: refused unless named again with --destroy-data-on (and naming another
# device does not count), done when named, and a mounted or otherwise held device is
# refused even then, its data kept.  The device is one this test makes and removes itself:
# a zram device (hot_add / hot_remove; the module loaded only when it is not there, and
# unloaded only then and when no zram device is left), else device-mapper linear over a loop
# device of ours.  zram and dm-linear are bio-based (no I/O scheduler): such a matrix
# varies mount options only, and --schedulers is bad usage.
. "$(dirname "$0")/lib.sh"
if ! is_root; then skip "matrix on a non-loop device" "needs root (zram or dm, mkfs, mount)"; exit 0; fi
sanitizer_clean() { ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$1"; }

# make_zram SIZE_MB -> prints zramN, a device of our own (removed at exit); why in $TMP/why
make_zram() {
	local ctl=/sys/class/zram-control id
	if [ ! -d "$ctl" ]; then
		modprobe -n zram 2>/dev/null && modprobe zram num_devices=0 2>/dev/null \
			|| { echo "no zram: not built in, and no zram module to load" >"$TMP/why"; return 1; }
		# only a module we loaded, and only when no zram device (another's) is left
		at_exit "ls /sys/block | grep -q '^zram' || rmmod zram"
	fi
	id=$(cat "$ctl/hot_add" 2>/dev/null) || { echo "zram: hot_add refused" >"$TMP/why"; return 1; }
	at_exit "echo $id >$ctl/hot_remove"
	echo "${1}M" >"/sys/block/zram$id/disksize" \
		|| { echo "zram$id: disksize refused" >"$TMP/why"; return 1; }
	echo "zram$id"
}

# make_dm SIZE_MB -> prints dm-N, linear over a loop device of ours (removed at exit)
make_dm() {
	local lo name=ioscope-nonloop-$$
	lo=$(make_loop "$1") || return 1
	echo "0 $(($1 * 2048)) linear /dev/$lo 0" | dmsetup create "$name" 2>/dev/null \
		|| { echo "$(cat "$TMP/why" 2>/dev/null); no device-mapper (dmsetup create failed)" >"$TMP/why"; return 1; }
	at_exit "dmsetup remove '$name'"
	basename "$(readlink -f "/dev/mapper/$name")"
}

dev=$(make_zram 64) || dev=$(make_dm 64) \
	|| { skip "--mkfs on a device that is not a loop device" "$(cat "$TMP/why")"; exit 0; }
queue() { cat /sys/block/$dev/queue/{read_ahead_kb,write_cache,max_sectors_kb} | tr '\n' ' '; }
qbefore=$(queue)
mkdir "$TMP/m"
cd "$TMP" || exit 1

# not named again: refused before anything is written
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
	--out "$TMP/a" -- true >/dev/null 2>"$TMP/a.stderr"
rc=$?
[ $rc -eq 2 ] && grep -q "name it again with --destroy-data-on $dev" "$TMP/a.stderr" \
	&& ! blkid "/dev/$dev" >/dev/null 2>&1 && [ ! -e "$TMP/a.txt" ] \
	&& ok "--mkfs refused on $dev, which is not a loop device" \
	|| fail "--mkfs refused on $dev, which is not a loop device" "rc=$rc $(cat "$TMP/a.stderr")"
# naming another device does not count
other=$(make_loop 16)
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
	--destroy-data-on "/dev/$other" --out "$TMP/b" -- true >/dev/null 2>"$TMP/b.stderr"
rc=$?
[ $rc -eq 2 ] && grep -q "destroy-data-on" "$TMP/b.stderr" && ! blkid "/dev/$dev" >/dev/null 2>&1 \
	&& ok "--destroy-data-on naming another device does not allow it" \
	|| fail "--destroy-data-on naming another device does not allow it" "rc=$rc $(cat "$TMP/b.stderr")"
# a bio-based device has no scheduler to compare
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
	--destroy-data-on "/dev/$dev" --schedulers mq-deadline --out "$TMP/s" -- true >/dev/null 2>"$TMP/s.stderr"
rc=$?
[ $rc -eq 2 ] && grep -q "has no I/O scheduler" "$TMP/s.stderr" && ! blkid "/dev/$dev" >/dev/null 2>&1 \
	&& ok "--schedulers on a device without a scheduler is bad usage" \
	|| fail "--schedulers on a device without a scheduler is bad usage" "rc=$rc $(cat "$TMP/s.stderr")"

# named again: done, two option sets, the filesystem unmounted afterwards
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
	--mount-options 'defaults;noatime' --destroy-data-on "/dev/$dev" --out "$TMP/c" \
	-- sh -c 'seq 5000 >numbers' >/dev/null 2>"$TMP/c.stderr"
rc=$?
at_exit "umount '$TMP/m'"
python3 - "$TMP/c.json" <<'PY' >"$TMP/c.check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is True and len(d["cells"]) == 2, d
for c in d["cells"]:
    assert c["refused"] is None and c["scheduler"] == "none", c
    assert c["runs"][0]["exit"] == 0 and c["runs"][0]["elapsed_s"] > 0, c
    log = [json.loads(l) for l in open(c["runs"][0]["log"], errors="surrogateescape")]
    kinds = [r["kind"] + ":" + r["key"] for r in log if r.get("type") == "event" and r.get("by") == "ioscope"]
    assert "run:mkfs" in kinds and "mount_added:mount" in kinds and "run:umount" in kinds, kinds
    assert not [k for k in kinds if k.startswith("scheduler")], kinds
PY
[ $rc -eq 0 ] && sanitizer_clean "$TMP/c.stderr" && [ "$(blkid -o value -s TYPE "/dev/$dev")" = ext4 ] \
	&& [ -s "$TMP/c.txt" ] && ! grep -q " $TMP/m " /proc/self/mountinfo && ! [ -s "$TMP/c.check" ] \
	&& ok "--destroy-data-on $dev allows --mkfs: two cells, unmounted afterwards" \
	|| fail "--destroy-data-on $dev allows --mkfs: two cells, unmounted afterwards" \
		"rc=$rc $(tail -3 "$TMP/c.stderr") $(tail -3 "$TMP/c.check")"
[ "$qbefore" = "$(queue)" ] && ok "the device's queue settings as before" \
	|| fail "the device's queue settings as before" "$qbefore | $(queue)"

# mounted: refused even when named, the data kept
mkdir "$TMP/mounted"
mount "/dev/$dev" "$TMP/mounted" && at_exit "umount '$TMP/mounted'"
echo precious >"$TMP/mounted/keep"
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
	--destroy-data-on "/dev/$dev" --out "$TMP/d" -- true >/dev/null 2>"$TMP/d.stderr"
rc=$?
[ $rc -eq 1 ] && grep -q "is in use: .* is mounted on $TMP/mounted" "$TMP/d.stderr" \
	&& [ "$(cat "$TMP/mounted/keep")" = precious ] && [ ! -e "$TMP/d.txt" ] \
	&& ok "a mounted $dev is refused, named or not" \
	|| fail "a mounted $dev is refused, named or not" "rc=$rc $(cat "$TMP/d.stderr")"
umount "$TMP/mounted"

# held open exclusively by another process: refused, the data kept
hold_exclusively "$dev"
"$IOSCOPE" matrix --device "$dev" --mount "$TMP/m" --mkfs "$MKFS_EXT4" --repeat 1 \
	--destroy-data-on "/dev/$dev" --out "$TMP/e" -- true >/dev/null 2>"$TMP/e.stderr"
rc=$?
release_hold
mount "/dev/$dev" "$TMP/mounted" && at_exit "umount '$TMP/mounted'"
[ $rc -eq 1 ] && grep -q "is in use (the kernel refuses an exclusive open)" "$TMP/e.stderr" \
	&& [ "$(cat "$TMP/mounted/keep" 2>/dev/null)" = precious ] \
	&& ok "an exclusively held $dev is refused, its data kept" \
	|| fail "an exclusively held $dev is refused, its data kept" "rc=$rc $(cat "$TMP/e.stderr" "$TMP/holder.out")"
umount "$TMP/mounted"
