/* journal_thread.c - the thread that commits an ext4 journal, watched by its stat file
 * (journal_thread.h).
 *
 * Cost: one pread of /proc/PID/stat per journal and sample.  Finding it, once (a journal's
 * thread lives as long as its mount): ext4 says the pid in /sys/fs/ext4/DEV/journal_task
 * (fs/ext4/sysfs.c), checked against the thread's stat; where that file is not, the stat
 * of each child of kthreadd (/proc/2/task/2/children: every kernel thread, a hundred or
 * so), or of every process when that file is missing (no CONFIG_PROC_CHILDREN), each an
 * open, a read and a close.  A descriptor of /proc/PID/stat stays with its task: once the
 * thread is gone, reads fail (ESRCH) and never see a task that reuses the pid.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal_thread.h"
#include "kname.h"
#include "procpid.h"
#include "regular_file.h"

#define JOURNAL_THREAD_RECHECK 16   /* samples between looks while it is not found */
#define KTHREADS_TEXT_MAX (1u << 20)

void journal_thread_init(struct journal_thread *t)
{
	memset(t, 0, sizeof *t);
	procfile_init(&t->stat);
}

void journal_thread_close(struct journal_thread *t)
{
	procfile_close(&t->stat);
	journal_thread_init(t);
}

/* The stat of pid is the committer's: a kernel thread named jbd2/DEVICE-8. */
static bool is_committer(const struct procpid_stat *s, const char *device)
{
	return (s->flags & PROCPID_PF_KTHREAD) &&
	       journal_committer_is(s->comm, JOURNAL_EXT4, device);
}

/* A small file of the tree whole: the live kernel's in one openat, a tree's checked. */
static ssize_t read_small(const char *prefix, const char *path, char *buf, size_t len)
{
	return prefix ? regular_file_read_at(AT_FDCWD, path, buf, len)
		      : regular_file_read_kernel_at(AT_FDCWD, path, buf, len);
}

/* Keep /proc/PID/stat open when it is the committer's: opened and read to tell (most pids
 * looked at are not it, and are closed again). */
static bool try_pid(struct journal_thread *t, const char *prefix, const char *pid,
		    const char *device)
{
	char path[4096];
	struct error ignored;
	struct procpid_stat s;
	if (path_format(path, sizeof path, "%s/proc/%s/stat", prefix ? prefix : "", pid) < 0 ||
	    procfile_open_under(prefix, &t->stat, path, 0, &ignored) < 0)
		return false;
	if (procfile_read(&t->stat, &ignored) == 0 &&
	    procpid_parse_stat(t->stat.buf, t->stat.len, &s) == 0 && is_committer(&s, device))
		return true;
	procfile_close(&t->stat);
	return false;
}

/* ext4's own word for its journal's thread (fs/ext4/sysfs.c, journal_task): its pid, or
 * "<none>" (no journal). */
static bool find_by_ext4(struct journal_thread *t, const char *prefix, const char *device)
{
	char path[4096], sysname[DEV_NAME_MAX], text[32];
	kname_to_sysfs(device, sysname, sizeof sysname);
	if (path_format(path, sizeof path, "%s/sys/fs/ext4/%s/journal_task", prefix ? prefix : "",
			sysname) < 0 ||
	    read_small(prefix, path, text, sizeof text) <= 0)
		return false;
	char *end;
	long pid = strtol(text, &end, 10);
	if (end == text || pid <= 0 || (*end && *end != '\n'))
		return false;
	char pidtext[24];
	snprintf(pidtext, sizeof pidtext, "%ld", pid);
	return try_pid(t, prefix, pidtext, device);
}

/* Among kthreadd's children ("3 4 5 ... "). */
static bool find_in_kthreads(struct journal_thread *t, const char *prefix, const char *device,
			     bool *listed)
{
	char path[4096];
	*listed = false;
	if (path_format(path, sizeof path, "%s/proc/2/task/2/children", prefix ? prefix : "") < 0)
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *text = fd >= 0 ? malloc(KTHREADS_TEXT_MAX) : NULL;
	ssize_t n = text ? read(fd, text, KTHREADS_TEXT_MAX - 1) : -1;
	if (fd >= 0)
		close(fd);
	bool found = false;
	if (n > 0) {
		*listed = true;
		text[n] = '\0';
		for (char *save, *pid = strtok_r(text, " \n", &save); pid && !found;
		     pid = strtok_r(NULL, " \n", &save))
			found = try_pid(t, prefix, pid, device);
	}
	free(text);
	return found;
}

static bool find_in_proc(struct journal_thread *t, const char *prefix, const char *device)
{
	char path[4096];
	if (path_format(path, sizeof path, "%s/proc", prefix ? prefix : "") < 0)
		return false;
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]))
			found = try_pid(t, prefix, e->d_name, device);
	closedir(d);
	return found;
}

static bool find(struct journal_thread *t, const char *prefix, const char *device)
{
	if (t->wait) {
		t->wait--;
		return false;
	}
	bool listed;
	if (find_by_ext4(t, prefix, device) || find_in_kthreads(t, prefix, device, &listed) ||
	    (!listed && find_in_proc(t, prefix, device)))
		return true;
	t->wait = JOURNAL_THREAD_RECHECK;
	return false;
}

/* Its state now, 0 when it cannot be read (gone) */
static char state_of(struct journal_thread *t, const char *device)
{
	struct error ignored;
	struct procpid_stat s;
	if (procfile_read(&t->stat, &ignored) < 0 ||
	    procpid_parse_stat(t->stat.buf, t->stat.len, &s) < 0 || !is_committer(&s, device))
		return 0;
	return s.state;
}

bool journal_thread_blocked_ms(struct journal_thread *t, const char *prefix, const char *device,
			       bool went_on, uint64_t mono_ns, uint64_t *ms)
{
	char state = procfile_is_open(&t->stat) ? state_of(t, device) : 0;
	if (!state && procfile_is_open(&t->stat)) {   /* gone: another mount's may be there */
		procfile_close(&t->stat);
		t->wait = 0;
	}
	if (!state && find(t, prefix, device))
		state = state_of(t, device);
	if (state != 'D' || !mono_ns) {
		t->d_since_ns = 0;
		return false;
	}
	if (went_on || !t->d_since_ns || t->d_since_ns > mono_ns)
		t->d_since_ns = mono_ns;
	*ms = (mono_ns - t->d_since_ns) / 1000000u;
	return true;
}
