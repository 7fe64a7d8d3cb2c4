/* syscall_file.c - the system calls whose arguments name the file they read, write, sync
 * or wait for (syscall_file.h).
 *
 * One table, by name: <sys/syscall.h> gives this architecture's numbers, so the same
 * table serves x86_64, arm64 and the others (a call an architecture lacks, like open(2)
 * on arm64, is left out).  Where a call names two files, the one it creates or writes is
 * named: it is the side that waits for a frozen filesystem or a full journal.
 */
#include <stddef.h>
#include <sys/syscall.h>

#include "syscall_file.h"

#define FD(nr, arg) { nr, { arg, -1, -1 } }
#define PATH(nr, arg) { nr, { -1, -1, arg } }
#define AT(nr, dirfd, path) { nr, { -1, dirfd, path } }

static const struct {
	long nr;
	struct syscall_file args;
} file_calls[] = {
	FD(SYS_read, 0), FD(SYS_write, 0), FD(SYS_readv, 0), FD(SYS_writev, 0),
	FD(SYS_pread64, 0), FD(SYS_pwrite64, 0), FD(SYS_preadv, 0), FD(SYS_pwritev, 0),
#ifdef SYS_preadv2
	FD(SYS_preadv2, 0), FD(SYS_pwritev2, 0),
#endif
	FD(SYS_fsync, 0), FD(SYS_fdatasync, 0), FD(SYS_sync_file_range, 0), FD(SYS_syncfs, 0),
	FD(SYS_fallocate, 0), FD(SYS_ftruncate, 0), FD(SYS_ioctl, 0), FD(SYS_getdents64, 0),
	FD(SYS_lseek, 0), FD(SYS_flock, 0), FD(SYS_fcntl, 0), FD(SYS_close, 0), FD(SYS_fstat, 0),
	FD(SYS_fsetxattr, 0), FD(SYS_fgetxattr, 0), FD(SYS_fchmod, 0), FD(SYS_fchown, 0),
	FD(SYS_fadvise64, 0), FD(SYS_readahead, 0), FD(SYS_sendfile, 0), FD(SYS_splice, 2),
	FD(SYS_copy_file_range, 2), FD(SYS_mmap, 4),
	AT(SYS_openat, 0, 1), AT(SYS_mkdirat, 0, 1), AT(SYS_unlinkat, 0, 1), AT(SYS_renameat, 2, 3),
	AT(SYS_renameat2, 2, 3), AT(SYS_linkat, 2, 3), AT(SYS_symlinkat, 1, 2), AT(SYS_mknodat, 0, 1),
	AT(SYS_fchmodat, 0, 1), AT(SYS_fchownat, 0, 1), AT(SYS_utimensat, 0, 1),
	AT(SYS_newfstatat, 0, 1), AT(SYS_statx, 0, 1), AT(SYS_faccessat, 0, 1),
	AT(SYS_readlinkat, 0, 1),
#ifdef SYS_openat2
	AT(SYS_openat2, 0, 1),
#endif
	PATH(SYS_truncate, 0), PATH(SYS_umount2, 0), PATH(SYS_mount, 1), PATH(SYS_chdir, 0),
	PATH(SYS_statfs, 0), PATH(SYS_setxattr, 0), PATH(SYS_lsetxattr, 0),
	PATH(SYS_getxattr, 0), PATH(SYS_lgetxattr, 0), PATH(SYS_removexattr, 0),
#ifdef SYS_open
	PATH(SYS_open, 0), PATH(SYS_creat, 0), PATH(SYS_mkdir, 0), PATH(SYS_rmdir, 0),
	PATH(SYS_unlink, 0), PATH(SYS_rename, 1), PATH(SYS_link, 1), PATH(SYS_symlink, 1),
	PATH(SYS_mknod, 0), PATH(SYS_chmod, 0), PATH(SYS_chown, 0), PATH(SYS_lchown, 0),
	PATH(SYS_stat, 0), PATH(SYS_lstat, 0), PATH(SYS_access, 0), PATH(SYS_readlink, 0),
#endif
};

bool syscall_file_args(long nr, struct syscall_file *out)
{
	for (size_t i = 0; i < sizeof file_calls / sizeof file_calls[0]; i++)
		if (file_calls[i].nr == nr) {
			*out = file_calls[i].args;
			return true;
		}
	return false;
}
