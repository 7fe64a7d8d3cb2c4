/* mountpoint.c - the directory an experiment mounts on, held by descriptors
 * (include/control_experiment.h).
 *
 * Once opened (dirpath_open: no symlink another user owns on the way), the path is never
 * looked up again: the mount goes onto the descriptor (control_mount_new), the command
 * runs in the mount's root, and the unmount reaches the mount through the directory it
 * covers: that directory's parent, opened by "..", and its name there, after checking
 * the mount found is the one made.  While mounted on, that name can be neither renamed
 * nor removed (EBUSY), so nobody can swap what umount2 reaches between check and call.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control_experiment.h"
#include "dirpath.h"

int control_mountpoint_open(struct control_mountpoint *mp, const char *path, struct error *err)
{
	mp->root = mp->mnt_id = -1;
	mp->dir = dirpath_open(path, err);
	if (mp->dir < 0)
		return -1;
	if (dirpath_of_fd(mp->dir, mp->path, sizeof mp->path) < 0)
		snprintf(mp->path, sizeof mp->path, "%s", path);
	return 0;
}

void control_mountpoint_close(struct control_mountpoint *mp)
{
	if (mp->root >= 0)
		close(mp->root);
	if (mp->dir >= 0)
		close(mp->dir);
	mp->root = mp->dir = -1;
}

int control_mountpoint_cwd(const struct control_mountpoint *mp)
{
	return mp->root >= 0 ? mp->root : mp->dir;
}

/* The directory mp->dir is in (O_PATH) and its name there, now; -1 with err. */
static int seat_of(const struct control_mountpoint *mp, char *name, size_t len, struct error *err)
{
	char where[PATH_MAX];
	const char *slash;
	if (dirpath_of_fd(mp->dir, where, sizeof where) < 0 || where[0] != '/' ||
	    !(slash = strrchr(where, '/')) || !slash[1] || strlen(slash + 1) >= len)
		return error_set(err, "%s: the directory mounted on has no path to reach it by",
				 mp->path);
	snprintf(name, len, "%s", slash + 1);
	int parent = openat(mp->dir, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (parent < 0)
		return error_errno(err, mp->path, errno);
	return parent;
}

static int umount_made(struct control_mountpoint *mp, int flags, struct error *err)
{
	if (mp->mnt_id < 0)
		return 0;
	if (mp->root >= 0)
		close(mp->root);   /* an open descriptor keeps the mount busy */
	mp->root = -1;
	char name[NAME_MAX + 1], at[64 + NAME_MAX];
	int parent = seat_of(mp, name, sizeof name, err);
	if (parent < 0)
		return -1;
	struct statx stx;
	int rc = 0;
	if (statx(parent, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) < 0)
		rc = error_errno(err, mp->path, errno);
	else if ((int)stx.stx_mnt_id != mp->mnt_id)
		rc = error_set(err, "%s: the mount on top is not the one made there: left alone",
			       mp->path);
	snprintf(at, sizeof at, "/proc/self/fd/%d/%s", parent, name);
	if (rc == 0 && umount2(at, flags | UMOUNT_NOFOLLOW) < 0)
		rc = error_errno(err, mp->path, errno);
	close(parent);
	if (rc == 0)
		mp->mnt_id = -1;
	return rc;
}

int control_umount(struct control_mountpoint *mp, struct error *err)
{
	return umount_made(mp, 0, err);
}

int control_umount_detach(struct control_mountpoint *mp, struct error *err)
{
	return umount_made(mp, MNT_DETACH, err);
}
