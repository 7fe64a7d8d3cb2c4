/* matrix_claim.c - a matrix's claim on its device: a file in the runtime directory
 * (docs/runtime.md), `matrix-NAME`, written once the device's state is saved and removed
 * once it is put back.  A matrix killed with SIGKILL leaves it behind, and the next
 * matrix on the device reads it: while the device is not as that matrix found it, the
 * next one refuses it (it would save the cell's settings as the ones to put back) and
 * says how to put it back.  A claim whose matrix still runs refuses a second matrix.
 *
 * The file is the user's own (a private directory, reached through its descriptor);
 * it is read bounded, and a line it does not know is ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix_ctx.h"
#include "procpid.h"
#include "runtime_dir.h"
#include "text.h"

#define CLAIM_FILE_MAX 16384

struct matrix_claim {
	int dirfd;                        /* the runtime directory; -1: no claims */
	char file[DEV_NAME_MAX + 16];     /* matrix-NAME */
	bool taken;                       /* ours is written */
	bool earlier;                     /* a dead matrix's claim was found */
	long pid;                         /* its matrix */
	char mount[PATH_MAX];
	bool mkfs;                        /* it mounted a filesystem of its own there */
	struct matrix_device_state state; /* the device as it found it */
};

/* The start time of /proc/PID/stat (src/sources reads it, procpid_read_stat): a pid
 * reused by another process has another.  0 when the process is gone. */
static unsigned long long start_time(long pid)
{
	struct procpid_stat st;
	return pid > 0 && pid <= INT32_MAX && procpid_read_stat((pid_t)pid, &st) == 0 ? st.starttime
										       : 0;
}

/* One "key=value" line of a claim into c.  The started time into *started. */
static void parse_line(struct matrix_claim *c, char *line, unsigned long long *started)
{
	char *eq = strchr(line, '=');
	if (!eq)
		return;
	*eq = '\0';
	const char *k = line, *v = eq + 1;
	struct matrix_device_state *s = &c->state;
	if (strcmp(k, "pid") == 0)
		c->pid = strtol(v, NULL, 10);
	else if (strcmp(k, "start") == 0)
		*started = strtoull(v, NULL, 10);
	else if (strcmp(k, "mount") == 0)
		snprintf(c->mount, sizeof c->mount, "%s", v);
	else if (strcmp(k, "mkfs") == 0)
		c->mkfs = strcmp(v, "1") == 0;
	else if (strcmp(k, "scheduler") == 0)
		snprintf(s->sched, sizeof s->sched, "%s", v);
	else if (strcmp(k, "nr_requests") == 0)
		snprintf(s->nr_requests, sizeof s->nr_requests, "%s", v);
	else if (strcmp(k, "no_scheduler") == 0)
		s->no_scheduler = strcmp(v, "1") == 0;
	else if (strcmp(k, "mount_opts") == 0)
		snprintf(s->mount.mount_opts, sizeof s->mount.mount_opts, "%s", v);
	else if (strcmp(k, "super_opts") == 0)
		snprintf(s->mount.super_opts, sizeof s->mount.super_opts, "%s", v);
	else if (strncmp(k, "iosched.", 8) == 0 && s->niosched < MATRIX_IOSCHED_MAX) {
		snprintf(s->iosched_keys[s->niosched], SETTING_KEY_MAX, "%s", k);
		snprintf(s->iosched_values[s->niosched++], sizeof s->iosched_values[0], "%s", v);
	}
}

/* The claim left in the directory, if any: 1 read, 0 none. */
static int read_claim(struct matrix_claim *c, unsigned long long *started)
{
	int fd = openat(c->dirfd, c->file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	char *buf = malloc(CLAIM_FILE_MAX);
	ssize_t n = buf ? read(fd, buf, CLAIM_FILE_MAX - 1) : -1;
	close(fd);
	if (n <= 0) {
		free(buf);
		return 0;
	}
	buf[n] = '\0';
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		parse_line(c, line, started);
	free(buf);
	return c->pid > 0;
}

int matrix_claim_open(struct matrix_ctx *m, struct error *err)
{
	struct error ignored;
	struct matrix_claim *c = calloc(1, sizeof *c);
	if (!c)
		return error_set(err, "out of memory");
	m->claim = c;
	snprintf(c->file, sizeof c->file, "matrix-%s", m->name);
	c->dirfd = runtime_dir_open(true, &ignored);   /* without it, no claims: as announcements */
	unsigned long long started = 0;
	if (c->dirfd < 0 || !read_claim(c, &started))
		return 0;
	if (started && start_time(c->pid) == started)
		return error_set(err, "a matrix (pid %ld) runs on %s", c->pid, m->name);
	c->earlier = true;
	return 0;
}

static void quote(const char *s, char *out, size_t len)
{
	size_t used = text_appendf(out, len, 0, "'");
	for (; *s; s++)
		used = *s == '\'' ? text_appendf(out, len, used, "'\\''")
				  : text_appendf(out, len, used, "%c", *s);
	text_appendf(out, len, used, "'");
}

static bool same_queue(const struct matrix_device_state *a, const struct matrix_device_state *b)
{
	if (a->no_scheduler || b->no_scheduler)
		return a->no_scheduler == b->no_scheduler;
	if (strcmp(a->sched, b->sched) != 0 || strcmp(a->nr_requests, b->nr_requests) != 0 ||
	    a->niosched != b->niosched)
		return false;
	for (size_t i = 0; i < a->niosched; i++)
		if (strcmp(a->iosched_keys[i], b->iosched_keys[i]) != 0 ||
		    strcmp(a->iosched_values[i], b->iosched_values[i]) != 0)
			return false;
	return true;
}

/* The device as the earlier matrix found it: its queue, and in remount mode the options
 * of the same mount point. */
static bool as_found(const struct matrix_ctx *m, const struct matrix_claim *c)
{
	if (!same_queue(&m->before, &c->state))
		return false;
	if (c->mkfs || !m->before.mounted || strcmp(m->mount.path, c->mount) != 0)
		return true;
	return strcmp(m->before.mount.mount_opts, c->state.mount.mount_opts) == 0 &&
	       strcmp(m->before.mount.super_opts, c->state.mount.super_opts) == 0;
}

static void write_claim(struct matrix_ctx *m, struct matrix_claim *c)
{
	char tmp[sizeof c->file + 8], text[CLAIM_FILE_MAX];
	const struct matrix_device_state *s = &m->before;
	if (strchr(m->mount.path, '\n'))
		return;   /* a line of its own would be taken for another key: no claim */
	size_t used = text_appendf(text, sizeof text, 0,
				   "pid=%ld\nstart=%llu\nmount=%s\nmkfs=%d\nno_scheduler=%d\n"
				   "scheduler=%s\nnr_requests=%s\n", (long)getpid(),
				   start_time((long)getpid()), m->mount.path, m->o->mkfs ? 1 : 0,
				   s->no_scheduler, s->sched, s->nr_requests);
	for (size_t i = 0; i < s->niosched; i++)
		used = text_appendf(text, sizeof text, used, "%s=%s\n", s->iosched_keys[i],
				    s->iosched_values[i]);
	if (s->mounted)
		used = text_appendf(text, sizeof text, used, "mount_opts=%s\nsuper_opts=%s\n",
				    s->mount.mount_opts, s->mount.super_opts);
	/* written whole under another name, then renamed: never read half-written.  Created
	 * anew (O_EXCL): whatever a killed run left there, or anyone put there, is not written
	 * through; a FIFO would block, a link would lead elsewhere. */
	snprintf(tmp, sizeof tmp, ".%s.new", c->file);
	unlinkat(c->dirfd, tmp, 0);
	int fd = openat(c->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	bool whole = write(fd, text, used) == (ssize_t)used;
	close(fd);
	if (whole && renameat(c->dirfd, tmp, c->dirfd, c->file) == 0)
		c->taken = true;
	else
		unlinkat(c->dirfd, tmp, 0);
}

int matrix_claim_take(struct matrix_ctx *m, struct error *err)
{
	struct matrix_claim *c = m->claim;
	if (!c || c->dirfd < 0)
		return 0;
	if (c->earlier && !as_found(m, c))
		return error_set(err, "%s is not as an earlier matrix (pid %ld) found it: that "
				 "matrix was killed before it put the device back", m->name, c->pid);
	write_claim(m, c);
	return 0;
}

static bool has_token(const char *list, const char *tok, size_t len)
{
	while (*list) {
		size_t n = strcspn(list, ",");
		if (n == len && strncmp(list, tok, len) == 0)
			return true;
		list += n + (list[n] == ',');
	}
	return false;
}

/* The per-mount options, then the filesystem's not among them ("rw" is in both). */
static void both_options(const struct control_mount *mnt, char *out, size_t len)
{
	size_t used = text_appendf(out, len, 0, "%s", mnt->mount_opts);
	for (const char *p = mnt->super_opts; *p;) {
		size_t n = strcspn(p, ",");
		if (n && !has_token(mnt->mount_opts, p, n))
			used = text_appendf(out, len, used, ",%.*s", (int)n, p);
		p += n + (p[n] == ',');
	}
}

void matrix_claim_advise(const struct matrix_ctx *m)
{
	const struct matrix_claim *c = m->claim;
	if (!c || !c->earlier)
		return;
	char q[4 * PATH_MAX + 8], set[2048];   /* a quote is 4 characters quoted */
	quote(c->mount, q, sizeof q);
	text_printf(stderr, "ioscope matrix: an earlier matrix on %s (pid %ld) ended without "
		    "putting it back; as it found it:\n", m->name, c->pid);
	if (c->mkfs)
		text_printf(stderr, "  umount %s\n", q);
	else if (c->state.mount.mount_opts[0]) {
		char opts[2 * MOUNT_OPTS_MAX], qopts[4 * MOUNT_OPTS_MAX + 8];
		both_options(&c->state.mount, opts, sizeof opts);
		quote(opts, qopts, sizeof qopts);
		text_printf(stderr, "  ioscope remount %s %s\n", q, qopts);
	}
	if (!c->state.no_scheduler) {
		size_t used = text_appendf(set, sizeof set, 0, "scheduler=%s nr_requests=%s",
					   c->state.sched, c->state.nr_requests);
		for (size_t i = 0; i < c->state.niosched; i++)
			used = text_appendf(set, sizeof set, used, " %s=%s",
					    c->state.iosched_keys[i], c->state.iosched_values[i]);
		text_printf(stderr, "  ioscope set %s %s\n", m->name, set);
	}
	char dir[PATH_MAX] = "", link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", c->dirfd);
	ssize_t n = readlink(link, dir, sizeof dir - 1);
	dir[n > 0 ? n : 0] = '\0';
	text_printf(stderr, "ioscope matrix: (or remove %s/%s to take %s as it is now)\n", dir,
		    c->file, m->name);
}

void matrix_claim_release(struct matrix_ctx *m)
{
	struct matrix_claim *c = m->claim;
	if (!c)
		return;
	if (c->taken)
		unlinkat(c->dirfd, c->file, 0);
	c->taken = false;
}

void matrix_claim_free(struct matrix_ctx *m)
{
	if (!m->claim)
		return;
	if (m->claim->dirfd >= 0)
		close(m->claim->dirfd);
	free(m->claim);
	m->claim = NULL;
}
