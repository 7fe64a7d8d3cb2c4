#!/bin/bash
# Filesystem option changes are seen in the next sample, however they are made: `ioscope
# remount` reconfigures the superblock with fsconfig(2), which does not raise the mount
# table's poll event, and a later `mount -o remount` must be read against that change
# (commit=30→40, not +commit=40).  ext4, and btrfs (commit=, nobarrier) when mkfs.btrfs works.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip batch_mount_reconfigure "needs root for loop devices and mounts"
	exit 0
fi

# watch FS DEV MNT CHANGES...: batch JSON on DEV while each change is made, one at a time,
# a few samples apart; each change is `ioscope:OPTS` (ioscope remount --yes) or `mount:OPTS`.
watch() {
	local fs=$1 dev=$2 mnt=$3 change out=$TMP/$1.json
	shift 3
	"$IOSCOPE" --batch -f json -i 0.1 --record "$TMP/$fs.log" "$dev" >"$out" 2>"$TMP/$fs.err" &
	local pid=$!
	at_exit "kill $pid"
	sleep 0.5
	for change in "$@"; do
		case $change in
		ioscope:*) "$IOSCOPE" remount --yes "$mnt" "${change#ioscope:}" >"$TMP/$fs.remount" 2>&1 </dev/null \
			|| fail "${fs}_remount_${change#ioscope:}" "$(cat "$TMP/$fs.remount")" ;;
		mount:*) mount -o "remount,${change#mount:}" "$mnt" \
			|| fail "${fs}_mount_${change#mount:}" "mount -o remount refused" ;;
		esac
		sleep 0.5
	done
	kill -INT "$pid"
	wait "$pid"
	local rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$TMP/$fs.err" ]; then ok "${fs}_batch_exit"
	else fail "${fs}_batch_exit" "exit $rc: $(head -c 2000 "$TMP/$fs.err")"; fi
}

# labels FS MNT: the labels of the mount_options events of MNT, one a line, in order
labels() {
	python3 - "$TMP/$1.json" "$2" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    for ev in json.loads(line)["events"]:
        if ev["kind"] == "mount_options" and ev["object"] == sys.argv[2]:
            print(ev["label"])
EOF
}

# logged NAME FS MNT OPT: the session log holds a mount_options event of MNT whose new
# options have OPT and whose old ones do not, and a mounts record with OPT
logged() {
	if python3 - "$TMP/$2.log" "$3" "$4" <<'EOF'
import json, sys
path, mnt, opt = sys.argv[1:]
recs = [json.loads(l) for l in open(path)]
ev = [r for r in recs if r["type"] == "event" and r["kind"] == "mount_options" and r["object"] == mnt
      and opt in r["new"].split(",") and opt not in r["old"].split(",")]
state = [m for r in recs if r["type"] == "mounts" for m in r["mounts"]
         if m["mountpoint"] == mnt and opt in m["super_opts"].split(",")]
sys.exit(0 if ev and state else 1)
EOF
	then ok "$1"; else fail "$1" "no $4 event and mounts record for $3 in the session log"; fi
}

# seen NAME FS MNT PATTERN: an event label of MNT matches the extended regex
seen() {
	if labels "$2" "$3" | grep -qE -- "$4"; then ok "$1"
	else fail "$1" "no mount event matching '$4' among: $(labels "$2" "$3" | tr '\n' '|')"; fi
}

DEV=$(make_loop 320) || { fail "loop device"; exit 1; }
MNT=$(make_fs "$DEV" ext4) || { fail "ext4 on $DEV"; exit 1; }
watch ext4 "$DEV" "$MNT" ioscope:commit=30 mount:commit=40
seen ext4_fsconfig_commit_seen ext4 "$MNT" '(\+commit=30|commit=[0-9]+→30)( |$)'
seen ext4_mount_commit_against_it ext4 "$MNT" '(^| )commit=30→40( |$)'
logged ext4_fsconfig_commit_logged ext4 "$MNT" commit=30
if labels ext4 "$MNT" | grep -qE -- '\+commit=40'; then
	fail ext4_no_stale_plus_commit "$(labels ext4 "$MNT" | tr '\n' '|')"
else ok ext4_no_stale_plus_commit; fi

if ! command -v mkfs.btrfs >/dev/null; then
	skip btrfs_mount_reconfigure "no mkfs.btrfs"
	exit 0
fi
BDEV=$(make_loop 320) || { fail "loop device for btrfs"; exit 1; }
if ! BMNT=$(make_fs "$BDEV" btrfs); then
	skip btrfs_mount_reconfigure "mkfs.btrfs or mount failed here"
	exit 0
fi
watch btrfs "$BDEV" "$BMNT" ioscope:commit=60 ioscope:nobarrier mount:commit=40
seen btrfs_fsconfig_commit_seen btrfs "$BMNT" '(\+commit=60|commit=[0-9]+→60)( |$)'
seen btrfs_fsconfig_nobarrier_seen btrfs "$BMNT" '^remount \+nobarrier$'
seen btrfs_mount_commit_against_it btrfs "$BMNT" '(^| )commit=60→40( |$)'
