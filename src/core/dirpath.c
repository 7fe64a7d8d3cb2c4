/* dirpath.c - a directory opened one component at a time (include/dirpath.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirpath.h"

#define DIRPATH_MAX_LINKS 40   /* as the kernel's own walk (ELOOP) */

int dirpath_of_fd(int fd, char *buf, size_t len)
{
	char link[32];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, buf, len - 1);
	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Where a walk stands: the directory reached and what is left to resolve. */
struct walk {
	int dirfd;
	char todo[PATH_MAX];   /* the path, rewritten when a symlink is followed */
	const char *rest;      /* in todo: what is left */
	int links;
	const char *path;      /* as given, for messages */
	bool any_last;         /* the last component may be anything but a symlink */
	bool users_own;        /* the links of the user running ioscope are followed too */
};

/* The next component into comp (slashes skipped); false when none is left. */
static bool next_component(struct walk *w, char *comp, size_t len, bool *too_long)
{
	const char *p = w->rest + strspn(w->rest, "/");
	size_t n = strcspn(p, "/");
	w->rest = p + n;
	*too_long = n >= len;
	if (n == 0 || *too_long)
		return false;
	memcpy(comp, p, n);
	comp[n] = '\0';
	return true;
}

/* The symlink's target followed by what was left after it becomes what is left; an
 * absolute target starts again at /. */
static int follow_link(struct walk *w, int link)
{
	char target[PATH_MAX], joined[PATH_MAX];
	ssize_t n = readlinkat(link, "", target, sizeof target - 1);
	if (n <= 0)
		return n < 0 ? -1 : (errno = ENOENT, -1);
	target[n] = '\0';
	/* nothing left after the link: its target alone, no "/" that would make its last
	 * component a directory's */
	int len = snprintf(joined, sizeof joined, "%s%s%s", target, *w->rest ? "/" : "", w->rest);
	if (len < 0 || (size_t)len >= sizeof joined)
		return errno = ENAMETOOLONG, -1;
	if (target[0] == '/') {
		int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root < 0)
			return -1;
		close(w->dirfd);
		w->dirfd = root;
	}
	memcpy(w->todo, joined, (size_t)len + 1);
	w->rest = w->todo;
	return 0;
}

/* Whose links the walk follows: root's, and the user's own when asked (a user could
 * have written wherever their own link leads). */
static bool trusted_owner(const struct walk *w, uid_t uid)
{
	return uid == 0 || (w->users_own && uid == geteuid());
}

static int refuse_link(const struct walk *w, const char *comp, uid_t uid, struct error *err)
{
	char dir[PATH_MAX], link[PATH_MAX + NAME_MAX + 2];
	const char *whose = w->users_own && geteuid() != 0 ? "not root's or yours" : "not root";
	if (dirpath_of_fd(w->dirfd, dir, sizeof dir) < 0)
		snprintf(dir, sizeof dir, "?");
	snprintf(link, sizeof link, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", comp);
	if (strcmp(link, w->path) == 0)
		return error_set(err, "%s is a symlink owned by uid %u, %s: refused (its "
				 "owner could point it anywhere)", w->path, (unsigned)uid, whose);
	return error_set(err, "%s: passes through %s, a symlink owned by uid %u, %s: "
			 "refused (its owner could point it anywhere)", w->path, link,
			 (unsigned)uid, whose);
}

/* One component: into a directory, or through a symlink root owns.  0, or -1 with err. */
static int step(struct walk *w, const char *comp, struct error *err)
{
	int fd = openat(w->dirfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return error_errno(err, w->path, e);
	}
	if (S_ISDIR(st.st_mode)) {
		close(w->dirfd);
		w->dirfd = fd;
		return 0;
	}
	int rc = 0;
	if (!S_ISLNK(st.st_mode) && w->any_last && !*w->rest) {
		close(w->dirfd);   /* the last component, a device node or a file */
		w->dirfd = fd;
		return 0;
	}
	if (!S_ISLNK(st.st_mode))
		rc = error_errno(err, w->path, ENOTDIR);
	else if (!trusted_owner(w, st.st_uid))
		rc = refuse_link(w, comp, st.st_uid, err);
	else if (++w->links > DIRPATH_MAX_LINKS)
		rc = error_errno(err, w->path, ELOOP);
	else if (follow_link(w, fd) < 0)
		rc = error_errno(err, w->path, errno);
	close(fd);
	return rc;
}

/* Walks todo (a directory; any_last: anything) from its start; path names it in messages. */
static int walk_open(const char *path, const char *todo, bool any_last, bool users_own,
		     struct error *err)
{
	struct walk w = { .path = path, .any_last = any_last, .users_own = users_own };
	char comp[NAME_MAX + 1];
	if (!todo[0])
		return error_set(err, "(empty path): no such directory");
	if (strlen(todo) >= sizeof w.todo)
		return error_errno(err, path, ENAMETOOLONG);
	snprintf(w.todo, sizeof w.todo, "%s", todo);
	w.rest = w.todo;
	w.dirfd = open(todo[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w.dirfd < 0)
		return error_errno(err, todo[0] == '/' ? "/" : ".", errno);
	bool too_long;
	int rc = 0;
	while (rc == 0 && next_component(&w, comp, sizeof comp, &too_long))
		rc = step(&w, comp, err);
	if (rc == 0 && too_long)
		rc = error_errno(err, path, ENAMETOOLONG);
	if (rc < 0) {
		close(w.dirfd);
		return -1;
	}
	return w.dirfd;
}

int dirpath_open(const char *path, struct error *err)
{
	return walk_open(path, path, false, false, err);
}

int dirpath_open_node(const char *path, struct error *err)
{
	return walk_open(path, path, true, false, err);
}

int dirpath_open_parent(const char *path, char *name, size_t len, struct error *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	if (!path[0])
		return error_set(err, "(empty path): no file name");
	/* "d/", "d/.", "..": a directory, never a file's name in the directory walked */
	if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return error_errno(err, path, EISDIR);
	if (strlen(base) >= len || strlen(base) > NAME_MAX)
		return error_errno(err, path, ENAMETOOLONG);
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else if ((size_t)(slash - path) >= sizeof dir)
		return error_errno(err, path, ENAMETOOLONG);
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	int fd = walk_open(path, dir, false, true, err);
	if (fd >= 0)
		snprintf(name, len, "%s", base);
	return fd;
}
