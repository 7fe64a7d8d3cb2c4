/* devsel.h - turning what the user typed (loop0, /dev/loop0, /mnt/scratch, .) into a device. */
#ifndef IOSCOPE_DEVSEL_H
#define IOSCOPE_DEVSEL_H

#include <stddef.h>

#include "error.h"
#include "snapshot.h"

/* Resolve arg against the devices and mounts of snap: a kernel name, /dev/NAME (or a
 * symlink to it), or any path on a mounted filesystem (its disk).  Writes the kernel
 * name to name.  -1 with a message listing the devices there are when nothing matches. */
int devsel_resolve(const struct snapshot *snap, const char *arg, char *name, size_t len, struct error *err);

/* The mount that holds path (longest mount point prefix of its real path), or NULL. */
const struct mount *devsel_mount_of(const struct snapshot *snap, const char *path);

#endif
