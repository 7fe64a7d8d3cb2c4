/* runtime_dir.c - find, create and check the runtime directory.
 *
 * Trust rules: the environment is read with secure_getenv (a set-id ioscope ignores
 * it); every component we create or enter is opened O_NOFOLLOW and checked with
 * fstat on the descriptor we keep, so a symlink or a directory someone else owns
 * is refused instead of followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime_dir.h"

#define RUN_PARENT "/run/ioscope"

/* A directory we may keep private sockets in: ours, nobody else may enter or write. */
static int check_private(int fd, const char *path, struct error *err)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return error_errno(err, path, errno);
	if (!S_ISDIR(st.st_mode))
		return error_set(err, "%s: not a directory", path);
	if (st.st_uid != geteuid())
		return error_set(err, "%s: owned by uid %u, not by us (uid %u)", path,
				 (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & 077)
		return error_set(err, "%s: mode %03o, must be 0700", path, (unsigned)(st.st_mode & 0777));
	return 0;
}

/* A directory others may read but only root may change: /run/ioscope. */
static int check_root_owned(int fd, const char *path, struct error *err)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return error_errno(err, path, errno);
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return error_set(err, "%s: not a root-owned directory closed to writes by others", path);
	return 0;
}

/* Open (after creating, when asked) the directory `name` under dirfd, never a symlink. */
static int open_below(int dirfd, const char *name, mode_t mode, bool create, const char *path,
		      struct error *err)
{
	if (create && mkdirat(dirfd, name, mode) < 0 && errno != EEXIST)
		return error_errno(err, path, errno);
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error_errno(err, path, errno == ELOOP ? ENOTDIR : errno);
	return fd;
}

static int open_xdg(const char *base, bool create, struct error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/ioscope", base);
	int basefd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (basefd < 0)
		return error_errno(err, base, errno);
	int fd = open_below(basefd, "ioscope", 0700, create, path, err);
	close(basefd);
	if (fd >= 0 && check_private(fd, path, err) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int open_run(bool create, struct error *err)
{
	char uid[16], path[64];
	snprintf(uid, sizeof uid, "%u", (unsigned)geteuid());
	snprintf(path, sizeof path, RUN_PARENT "/%s", uid);
	int runfd = open("/run", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (runfd < 0)
		return error_errno(err, "/run", errno);
	int parent = open_below(runfd, "ioscope", 0755, create && geteuid() == 0, RUN_PARENT, err);
	close(runfd);
	if (parent < 0)
		return -1;
	if (check_root_owned(parent, RUN_PARENT, err) < 0) {
		close(parent);
		return -1;
	}
	int fd = open_below(parent, uid, 0700, create, path, err);
	close(parent);
	if (fd >= 0 && check_private(fd, path, err) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int runtime_dir_open(bool create, struct error *err)
{
	const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
	if (xdg && xdg[0] == '/')
		return open_xdg(xdg, create, err);
	return open_run(create, err);
}

int runtime_dir_entry_path(int dirfd, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "/proc/self/fd/%d/%s", dirfd, name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
