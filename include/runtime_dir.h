/* runtime_dir.h - the per-user directory where running instances and the CLI meet
 * (docs/runtime.md): $XDG_RUNTIME_DIR/ioscope, else /run/ioscope/UID.
 *
 * The directory is created 0700, must be owned by the effective user and closed to
 * everyone else, and is never reached through a symlink: callers get a descriptor
 * and work below it with the *at() calls, or through runtime_dir_entry_path(),
 * which names an entry through that descriptor, not through the path again.
 */
#ifndef IOSCOPE_RUNTIME_DIR_H
#define IOSCOPE_RUNTIME_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* An O_DIRECTORY descriptor of the runtime directory, created when `create` (the
 * parent must exist); -1 with err naming the path and the cause. */
int runtime_dir_open(bool create, struct error *err);

/* "/proc/self/fd/DIRFD/NAME" into buf: a path for calls that take no directory
 * descriptor (bind, sendto) that cannot be redirected by renaming a parent.  -1
 * when it does not fit. */
int runtime_dir_entry_path(int dirfd, const char *name, char *buf, size_t len);

#endif
