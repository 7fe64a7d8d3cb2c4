/* procfiles.c - the devices of the files a task works on (procfiles.h).
 *
 * Cost: only for tasks in D state (a system call's file: its syscall, one readlink, one
 * fdinfo; a path, one read of the task's memory and a readlink or two) and for the twenty
 * processes of the I/O list (their first 64 descriptors: a statx each, which says the
 * file's mount; a file not seen at the same descriptor the sample before has that mount
 * looked up, fd_memo.h);
 * our mount namespace's link once per sample when any of that is needed.  The mount
 * table is the sampler's (one read of mountinfo a sample); only a file of another
 * namespace's mount has that namespace's mountinfo read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fd_memo.h"
#include "grow.h"
#include "mountinfo.h"
#include "procfiles.h"
#include "regular_file.h"
#include "syscall_file.h"

#define FD_SCAN_MAX 64      /* descriptors of a listed process looked at */
#define AT_FDCWD_32 -100    /* as glibc passes it: a 32-bit int in a 64-bit register */
#define READ_WHOLE_MAX (64u << 20)   /* a /proc file read whole is cut there */

void procfiles_init(struct procfiles *f, int procfd, bool fixture)
{
	procfiles_close(f);
	f->procfd = procfd;
	f->fixture = fixture;
}

void procfiles_close(struct procfiles *f)
{
	free(f->buf);
	fd_memo_free(&f->memo);
	memset(f, 0, sizeof *f);
	f->procfd = -1;
}

void procfiles_new_sample(struct procfiles *f, const struct mount *mounts, size_t n)
{
	f->mounts = mounts;
	f->nmounts = n;
	f->ns_loaded = false;
	fd_memo_new_sample(&f->memo, mounts, n);
}

static int open_rel(const struct procfiles *f, const char *rel, int flags)
{
	return f->fixture ? regular_file_openat(f->procfd, rel, flags)
			  : openat(f->procfd, rel, flags | O_CLOEXEC);
}

/* A small file relative to prefix/proc into f->small: its length, or -1. */
static ssize_t read_small(struct procfiles *f, const char *rel)
{
	int fd = open_rel(f, rel, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, f->small, sizeof f->small - 1);
	close(fd);
	if (n >= 0)
		f->small[n] = '\0';
	return n;
}

/* A file relative to prefix/proc read whole into f->buf (grown as needed): its length,
 * or -1.  A mountinfo has a line per mount, hundreds of kB on a container host. */
static ssize_t read_whole(struct procfiles *f, const char *rel)
{
	int fd = open_rel(f, rel, O_RDONLY);
	if (fd < 0)
		return -1;
	size_t len = 0;
	for (;;) {
		if (f->cap - len < 4096 && (f->cap > READ_WHOLE_MAX / 2 ||
					    grow_array(&f->buf, &f->cap, f->cap + 1, 1, 65536, NULL) < 0))
			break;
		ssize_t n = read(fd, f->buf + len, f->cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return f->buf ? (ssize_t)len : -1;
}

/* The target of a /proc link (relative to prefix/proc) into out; false if none. */
static bool read_link(const struct procfiles *f, const char *rel, char *out, size_t len)
{
	ssize_t n = readlinkat(f->procfd, rel, out, len - 1);
	if (n <= 0 || (size_t)n >= len - 1)
		return false;
	out[n] = '\0';
	return true;
}

/* ---- mount tables ---- */

/* Our mount namespace, read once per sample when needed: a path is looked up in our
 * mount table only for a task of the same namespace. */
static const char *self_namespace(struct procfiles *f)
{
	if (!f->ns_loaded && !read_link(f, "self/ns/mnt", f->self_ns, sizeof f->self_ns))
		f->self_ns[0] = '\0';
	f->ns_loaded = true;
	return f->self_ns;
}

static const struct mount *mount_by_id(const struct procfiles *f, uint32_t id)
{
	for (size_t i = 0; i < f->nmounts; i++)
		if (f->mounts[i].id == id)
			return &f->mounts[i];
	return NULL;
}

/* A mount of another namespace (a container's process), from its own mountinfo.  Mount
 * ids are unique across namespaces, so ours never names another mount. */
static bool foreign_mount(struct procfiles *f, int32_t pid, uint32_t id, struct mount *out)
{
	char rel[48];
	snprintf(rel, sizeof rel, "%d/mountinfo", pid);
	ssize_t len = read_whole(f, rel);
	const char *s = f->buf, *end = s + (len > 0 ? len : 0);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;
		if (mountinfo_parse_line(s, (size_t)(le - s), out) == 0 && out->id == id)
			return true;
		s = le + 1;
	}
	return false;
}

/* Filesystems on a device: a real device number, or btrfs's anonymous one (the snapshot's
 * mount table says which disk that is). */
static bool on_device(const struct mount *m)
{
	return m->major != 0 || strcmp(m->fstype, "btrfs") == 0;
}

/* In-memory filesystems whose files can be stat()ed without waiting on anyone. */
static bool stat_is_safe(const struct mount *m)
{
	return strcmp(m->fstype, "devtmpfs") == 0 || strcmp(m->fstype, "tmpfs") == 0;
}

/* ---- by descriptor ---- */

/* The device of the file behind descriptor fd of dir ("PID/task/TID" or "PID"), on mount
 * id: none when no table has that mount (a pipe's, a memfd's: the kernel's own mounts). */
static void file_on_mount(struct procfiles *f, int32_t pid, const char *dir, long fd,
			  uint32_t id, struct task_file *out)
{
	char rel[96];
	memset(out, 0, sizeof *out);
	struct mount other;
	const struct mount *m = mount_by_id(f, id);
	if (!m && foreign_mount(f, pid, id, &other))
		m = &other;
	if (!m)
		return;
	struct stat st;
	snprintf(rel, sizeof rel, "%s/fd/%ld", dir, fd);
	if (stat_is_safe(m) && !f->fixture && fstatat(f->procfd, rel, &st, 0) == 0 &&
	    S_ISBLK(st.st_mode))
		*out = (struct task_file){ TASK_FILE_BLOCKDEV, major(st.st_rdev), minor(st.st_rdev) };
	else if (on_device(m))
		*out = (struct task_file){ TASK_FILE_ON_FS, m->major, m->minor };
}

/* The device of the file behind descriptor fd of dir, whose link names a path, from its
 * fdinfo's mount id: false when there is no fdinfo (the descriptor closed, the task gone). */
static bool file_of_link(struct procfiles *f, int32_t pid, const char *dir, long fd,
			 struct task_file *out)
{
	char rel[96];
	uint32_t id;
	memset(out, 0, sizeof *out);
	snprintf(rel, sizeof rel, "%s/fdinfo/%ld", dir, fd);
	ssize_t n = read_small(f, rel);
	if (n <= 0 || !procpid_parse_fdinfo_mnt(f->small, (size_t)n, &id))
		return false;
	file_on_mount(f, pid, dir, fd, id, out);
	return true;
}

/* The device of the file behind descriptor fd of dir ("PID/task/TID" or "PID"). */
static void file_of_fd(struct procfiles *f, int32_t pid, const char *dir, long fd,
		       struct task_file *out)
{
	char rel[96], link[8];
	memset(out, 0, sizeof *out);
	snprintf(rel, sizeof rel, "%s/fd/%ld", dir, fd);
	/* pipes, sockets and anonymous inodes ("pipe:[12]") are no file of a mount */
	if (readlinkat(f->procfd, rel, link, sizeof link) > 0 && link[0] == '/')
		file_of_link(f, pid, dir, fd, out);
}

/* ---- by path ---- */

void procfiles_normalize(char *path)
{
	char *out = path;
	const char *s = path;
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = s + strcspn(s, "/");
		size_t n = (size_t)(e - s);
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			while (out > path && *--out != '/')
				;
		} else if (n && !(n == 1 && s[0] == '.')) {
			*out++ = '/';
			memmove(out, s, n);
			out += n;
		}
		s = e;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

const struct mount *procfiles_mount_of_path(const struct mount *v, size_t n, const char *path)
{
	const struct mount *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < n; i++) {
		const char *mp = v[i].mountpoint;
		size_t k = strlen(mp);
		bool under = strcmp(mp, "/") == 0 ||
			     (strncmp(path, mp, k) == 0 && (path[k] == '/' || path[k] == '\0'));
		/* the later of two mounts on one point is the one on top */
		if (under && (!best || k >= best_len)) {
			best = &v[i];
			best_len = k;
		}
	}
	return best;
}

/* The string at addr in task tid's memory (a path a system call was given). */
static bool read_user_string(pid_t tid, uint64_t addr, char *out, size_t len)
{
	struct iovec local = { out, len - 1 }, remote = { (void *)(uintptr_t)addr, len - 1 };
	ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	if (n <= 0) {
		/* the page holding the end of the buffer may not exist: read less */
		remote.iov_len = local.iov_len = 4096 - (addr & 4095);
		n = local.iov_len < len ? process_vm_readv(tid, &local, 1, &remote, 1, 0) : -1;
	}
	if (n <= 0)
		return false;
	out[n] = '\0';
	return strlen(out) < (size_t)n;   /* a NUL in what was read: the whole string */
}

/* The absolute path a task's system call names, as seen from our root: a relative one
 * starts at its working directory or at the directory of dirfd, an absolute one at its
 * root directory. */
static bool absolute_path(struct procfiles *f, const char *task, const char *path, long dirfd,
			  char *out, size_t len)
{
	char rel[96], base[4096];
	if (path[0] == '/')
		snprintf(rel, sizeof rel, "%s/root", task);
	else if (dirfd == AT_FDCWD_32)
		snprintf(rel, sizeof rel, "%s/cwd", task);
	else
		snprintf(rel, sizeof rel, "%s/fd/%ld", task, dirfd);
	if (!read_link(f, rel, base, sizeof base) || base[0] != '/')
		return false;
	if ((size_t)snprintf(out, len, "%s/%s", base, path) >= len)
		return false;
	procfiles_normalize(out);
	return true;
}

static void file_of_path(struct procfiles *f, const char *task, uint64_t addr, long dirfd,
			 struct task_file *out)
{
	char rel[96], ns[64], path[4096], full[8192];
	int32_t tid = (int32_t)strtol(strrchr(task, '/') + 1, NULL, 10);
	snprintf(rel, sizeof rel, "%s/ns/mnt", task);
	if (f->fixture || !read_user_string(tid, addr, path, sizeof path) || !path[0])
		return;
	/* another mount namespace's paths are not ours to look up */
	if (!read_link(f, rel, ns, sizeof ns) || strcmp(ns, self_namespace(f)) != 0 ||
	    !absolute_path(f, task, path, dirfd, full, sizeof full))
		return;
	const struct mount *m = procfiles_mount_of_path(f->mounts, f->nmounts, full);
	if (m && on_device(m))
		*out = (struct task_file){ TASK_FILE_ON_FS, m->major, m->minor };
}

/* "running": the kernel could not catch the task off its CPU (a task read in D that woke
 * since, as a throttled writer does between two pauses) */
static bool running(const char *text, ssize_t n)
{
	return n >= 7 && memcmp(text, "running", 7) == 0;
}

bool procfiles_waited(struct procfiles *f, int32_t pid, int32_t tid, struct task_file *out)
{
	char rel[64];
	long nr;
	uint64_t args[PROCPID_SYSCALL_ARGS];
	struct syscall_file which;
	memset(out, 0, sizeof *out);
	snprintf(rel, sizeof rel, "%d/task/%d/syscall", pid, tid);
	ssize_t n = read_small(f, rel);
	if (running(f->small, n))   /* once more: it may be waiting again already */
		n = read_small(f, rel);
	if (running(f->small, n))
		return false;
	if (n <= 0 || !procpid_parse_syscall(f->small, (size_t)n, &nr, args) ||
	    !syscall_file_args(nr, &which))
		return true;
	snprintf(rel, sizeof rel, "%d/task/%d", pid, tid);
	if (which.fd >= 0 && args[which.fd] <= INT32_MAX)
		file_of_fd(f, pid, rel, (long)args[which.fd], out);
	else if (which.path >= 0)
		file_of_path(f, rel, args[which.path],
			     which.dirfd >= 0 ? (long)(int32_t)(uint32_t)args[which.dirfd] : AT_FDCWD_32,
			     out);
	return true;
}

/* ---- a process's open files ---- */

static bool same_device(const struct task_file *a, const struct task_file *b)
{
	return a->kind == b->kind && a->major == b->major && a->minor == b->minor;
}

static bool descriptor_number(const char *name, long *out)
{
	char *end;
	if (name[0] < '0' || name[0] > '9')
		return false;
	errno = 0;
	*out = strtol(name, &end, 10);
	return !*end && !errno && *out <= INT32_MAX;
}

/* What the memo knows descriptor rel ("PID/fd/N") by in a --root tree: its link's text
 * (the tree's links lead nowhere).  False for no path (a pipe, a socket). */
static bool link_key(const struct procfiles *f, const char *rel, struct fd_memo_key *key)
{
	char link[4096];
	ssize_t n = readlinkat(f->procfd, rel, link, sizeof link);
	if (n <= 0 || link[0] != '/')
		return false;
	key->ino = fd_memo_hash(link, (size_t)n, 0);
	return true;
}

/* What the memo knows descriptor rel ("PID/fd/N") by: its file's device and inode, and
 * the file's mount id (-1 when this kernel's statx does not say it).  The stat is of the
 * inode in memory (AT_STATX_DONT_SYNC: a network or FUSE filesystem is not asked), as cheap
 * as a readlink.  A block device opened directly is out at once; false for it and for what
 * is no file of a mount (a pipe, a socket, an anonymous inode: on no device, neither a
 * file nor a directory). */
static bool stat_key(const struct procfiles *f, const char *rel, struct fd_memo_key *key,
		     int64_t *mnt_id, struct task_file *out)
{
	struct statx sx;
	if (statx(f->procfd, rel, AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO | STATX_MNT_ID,
		  &sx) < 0)
		return false;
	if (S_ISBLK(sx.stx_mode)) {
		*out = (struct task_file){ TASK_FILE_BLOCKDEV, sx.stx_rdev_major,
					   sx.stx_rdev_minor };
		return false;
	}
	if (!sx.stx_dev_major && !S_ISREG(sx.stx_mode) && !S_ISDIR(sx.stx_mode))
		return false;
	key->dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	key->ino = sx.stx_ino;
	*mnt_id = sx.stx_mask & STATX_MNT_ID ? (int64_t)(uint32_t)sx.stx_mnt_id : -1;
	return true;
}

/* The device of the file behind descriptor fd of process pid, which started at starttime:
 * the memo's when the descriptor holds the file it held at the last sample. */
static void open_file(struct procfiles *f, int32_t pid, uint64_t starttime, long fd,
		      struct task_file *out)
{
	char rel[48], dir[16];
	int64_t id = -1;
	memset(out, 0, sizeof *out);
	snprintf(rel, sizeof rel, "%d/fd/%ld", pid, fd);
	struct fd_memo_key key = { pid, (int32_t)fd, starttime, 0, 0 };
	if (!(f->fixture ? link_key(f, rel, &key) : stat_key(f, rel, &key, &id, out)))
		return;
	snprintf(dir, sizeof dir, "%d", pid);
	bool known = fd_memo_find(&f->memo, &key, out);
	if (!known && id >= 0) {
		file_on_mount(f, pid, dir, fd, (uint32_t)id, out);
		known = true;
	}
	if (known || file_of_link(f, pid, dir, fd, out))
		fd_memo_keep(&f->memo, &key, out);
}

uint8_t procfiles_open(struct procfiles *f, int32_t pid, uint64_t starttime,
		       struct task_file *out, uint8_t max)
{
	char rel[48];
	snprintf(rel, sizeof rel, "%d/fd", pid);
	int fd = open_rel(f, rel, O_RDONLY | O_DIRECTORY);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	uint8_t n = 0;
	int looked = 0;
	struct dirent *e;
	long num;
	while (n < max && looked < FD_SCAN_MAX && (e = readdir(d))) {
		if (!descriptor_number(e->d_name, &num))
			continue;
		looked++;
		struct task_file file;
		open_file(f, pid, starttime, num, &file);
		bool seen = file.kind == TASK_FILE_NONE;
		for (uint8_t i = 0; !seen && i < n; i++)
			seen = same_device(&out[i], &file);
		if (!seen)
			out[n++] = file;
	}
	closedir(d);
	return n;
}
