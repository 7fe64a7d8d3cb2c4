/* control_experiment.h - the privileged steps of an experiment (`ioscope matrix`):
 * a fresh filesystem, a mount with given options, unmounting it, dropping the page
 * cache.  Part of the control module (src/control/experiment.c, docs/control.md):
 * the only other place besides remount.c that calls a mount syscall.
 */
#ifndef IOSCOPE_CONTROL_EXPERIMENT_H
#define IOSCOPE_CONTROL_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "control.h"
#include "error.h"

/* A loop device (/sys/block/NAME/loop exists): its data is a file, safe to wipe. */
bool control_device_is_loop(const char *name);
/* 0 when no filesystem on the disk or its partitions is mounted, nothing holds it
 * (dm, md: holders/) and the kernel grants an exclusive open; else -1, err says why. */
int control_device_check_free(const char *name, struct error *err);
/* Runs `sh -c 'CMD "$1"' ioscope-mkfs /dev/NAME` (the device appended as one word),
 * output to /dev/null except its last lines into err on failure.  0 on exit 0. */
int control_mkfs(const char *cmd, const char *name, struct error *err);
/* The filesystem type on /dev/NAME, from its superblock (ext4, xfs, btrfs), else
 * blkid's answer.  -1 when neither knows. */
int control_fstype(const char *name, char *fstype, size_t len, struct error *err);
/* Mounts /dev/NAME of fstype at dir with options (a comma list as for remount; ""
 * or "defaults": none), given when the filesystem is created in the kernel
 * (fsopen, fsconfig per option, fsmount), so options that only take effect at
 * mount time do.  r gets one EVENT_MOUNT_ADDED event and the kernel's words; 0 when
 * mounted, 1 when refused (r->events[0].result "refused: MESSAGE"), -1 bad options
 * (err). */
int control_mount_new(const char *name, const char *fstype, const char *dir, const char *options,
		      struct control_result *r, struct error *err);
/* Unmounts the mount at dir (only a mount root; lazily when busy is not asked). */
int control_umount(const char *dir, struct error *err);
/* The same lazily (MNT_DETACH), for a mount that is busy: gone from the tree at once,
 * the filesystem (and its device) kept until the last process using it lets go. */
int control_umount_detach(const char *dir, struct error *err);
/* Writes back dirty pages and drops the page cache, dentries and inodes
 * (/proc/sys/vm/drop_caches = 3), so a run starts cold. */
int control_drop_caches(struct error *err);

#endif
