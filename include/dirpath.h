/* dirpath.h - a directory that root acts on (mounts onto, runs a command in, writes an
 * output file in), opened one component at a time so that no symlink another user owns
 * is followed on the way.
 *
 * realpath() and every path-taking syscall follow a symlink wherever it is: a link planted
 * at /tmp/bench -> /etc makes "mount on /tmp/bench" cover /etc.  dirpath_open opens each
 * component with O_PATH|O_NOFOLLOW below the previous one's descriptor; a symlink is
 * followed only when root owns it (only root could have put it there: /var/run -> /run),
 * its target read from the link's own descriptor, so the link checked is the link read.
 * The caller keeps the descriptor and does not use the path again.
 */
#ifndef IOSCOPE_DIRPATH_H
#define IOSCOPE_DIRPATH_H

#include <stddef.h>

#include "error.h"

/* An O_PATH|O_DIRECTORY descriptor of the directory at path (relative: to the working
 * directory), or -1 with err: a component missing or not a directory, a symlink not
 * owned by root ("PATH is a symlink owned by uid N, not root: refused ...", or "PATH:
 * passes through LINK, a symlink owned by ..."), more than 40 symlinks. */
int dirpath_open(const char *path, struct error *err);
/* The same walk, but what the path ends at may be anything (a device node, a file): an
 * O_PATH descriptor of it, fstat'able, found through root's symlinks only ("--device
 * /dev/disk/by-id/..." yes, a user's link to the device they pick no). */
int dirpath_open_node(const char *path, struct error *err);
/* The directory an output file at path goes to, walked the same way but through the
 * links of the user running ioscope too (their own: they could write wherever those lead
 * themselves), and the file's name in it into name (len bytes): "x" is "." and "x", "/x"
 * is "/" and "x".  The writer keeps the descriptor and makes every write relative to it
 * (openat, renameat, unlinkat), so a directory swapped for a symlink after the start is
 * never written through.  -1 with err as dirpath_open (the message names path), or EISDIR
 * for a path ending in "/", "." or "..". */
int dirpath_open_parent(const char *path, char *name, size_t len, struct error *err);
/* The path the kernel gives the descriptor now (/proc/self/fd/FD); -1 when it has none. */
int dirpath_of_fd(int fd, char *buf, size_t len);

#endif
