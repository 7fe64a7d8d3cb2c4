/* control_experiment.h - the privileged steps of an experiment (`ioscope matrix`):
 * a fresh filesystem, a mount with given options, unmounting it, dropping the page
 * cache.  Part of the control module (src/control/experiment.c, docs/control.md):
 * the only other place besides remount.c that calls a mount syscall.
 */
#ifndef IOSCOPE_CONTROL_EXPERIMENT_H
#define IOSCOPE_CONTROL_EXPERIMENT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "control.h"
#include "error.h"

/* A loop device with something attached (/sys/block/NAME/loop exists). */
bool control_device_is_loop(const char *name);
/* 0 when no filesystem on the device (a disk or a partition) or its partitions is
 * mounted, nothing holds it (dm, md: holders/) and the kernel grants an exclusive open;
 * else -1, err says why ("/dev/NAME is in use: ..."). */
int control_device_check_free(const char *name, struct error *err);
/* Whether --mkfs may wipe the disk NAME (src/control/mkfs_check.c, docs/experiments.md):
 * what it stands on is followed down (a loop device to the block device behind it, a
 * partition of a loop device to that loop device); unless NAME is a loop device over a
 * file, destroy_data_on (NULL: not given) must name the device at the bottom of that
 * chain; every device of the chain must be free (control_device_check_free), and so must
 * every other loop device that stands on one of them or on the same file.  0, or -1 with
 * err ("... in use ..." when something uses the data, else a usage error); option is the
 * one the user gave ("--mkfs", "--fs"), named in the messages. */
int control_mkfs_check(const char *option, const char *name, const char *destroy_data_on,
		       struct error *err);
/* Runs `sh -c 'CMD "$1"' ioscope-mkfs /dev/NAME` (the device appended as one word),
 * output to /dev/null except its last lines into err on failure.  0 on exit 0. */
int control_mkfs(const char *cmd, const char *name, struct error *err);
/* The filesystem type on /dev/NAME, from its superblock (ext4, xfs, btrfs), else
 * blkid's answer.  -1 when neither knows. */
int control_fstype(const char *name, char *fstype, size_t len, struct error *err);

/* The directory an experiment mounts on and runs its command in (src/control/mountpoint.c),
 * opened once without following a symlink another user owns (include/dirpath.h), then
 * used through descriptors only: the mount goes onto the directory opened, the command
 * runs in that mount's root, the unmount finds it through the directory it sits in. */
struct control_mountpoint {
	int dir;                /* the directory as opened (O_PATH); -1: closed */
	char path[PATH_MAX];    /* its path then, for messages, events, $IOSCOPE_MOUNT */
	int root;               /* the root of the mount made on it (O_PATH); -1: none */
	int mnt_id;             /* that mount's id; -1: none */
};
/* 0, or -1 with err (a symlink not owned by root on the way is refused). */
int control_mountpoint_open(struct control_mountpoint *mp, const char *path, struct error *err);
void control_mountpoint_close(struct control_mountpoint *mp);
/* The directory to run a command in: the root of the mount made, else the directory. */
int control_mountpoint_cwd(const struct control_mountpoint *mp);
/* Mounts /dev/NAME of fstype onto mp's directory with options (a comma list as for
 * remount; "" or "defaults": none), given when the filesystem is created in the kernel
 * (fsopen, fsconfig per option, fsmount), so options that only take effect at mount
 * time do; move_mount onto the descriptor.  r gets one EVENT_MOUNT_ADDED event and the
 * kernel's words; 0 when mounted (mp->root, mp->mnt_id set), 1 when refused
 * (r->events[0].result "refused: MESSAGE"), -1 bad options or mount point (err). */
int control_mount_new(const char *name, const char *fstype, struct control_mountpoint *mp,
		      const char *options, struct control_result *r, struct error *err);
/* Unmounts the mount control_mount_new made on mp, when it is still the one there; its
 * root descriptor is closed first (an open one keeps it busy). */
int control_umount(struct control_mountpoint *mp, struct error *err);
/* The same lazily (MNT_DETACH), for a mount that is busy: gone from the tree at once,
 * the filesystem (and its device) kept until the last process using it lets go. */
int control_umount_detach(struct control_mountpoint *mp, struct error *err);
/* Writes back the dirty pages of mp's filesystem (syncfs) and drops the page cache,
 * dentries and inodes (/proc/sys/vm/drop_caches = 3), so a run starts cold.  Only mp's:
 * sync(2) would wait for every filesystem of the machine (a frozen one held the matrix
 * until its thaw) and start another user's write-back in the middle of what they
 * measure.  The pages of the others that are dirty stay: drop_caches drops clean ones. */
int control_drop_caches(const struct control_mountpoint *mp, struct error *err);

#endif
