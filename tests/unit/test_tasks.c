/* Blocked tasks and per-process I/O: the /proc parsers, the sub-sampler on a fixture
 * tree (two samples: differences, blocked time carried over), the grouping by wait
 * channel, and the session log's tasks record read back exactly. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include <sys/syscall.h>

#include "mountinfo.h"
#include "fd_memo.h"
#include "procfiles.h"
#include "proctasks.h"
#include "procpid.h"
#include "session_log.h"
#include "snapshot.h"
#include "sources_helpers.h"
#include "syscall_file.h"
#include "tasks.h"
#include "why.h"

/* A stat line with the given fields; the rest zero, field 42 = blkio. */
static void stat_line(char *buf, size_t len, int pid, const char *comm, char state,
		      unsigned flags, unsigned threads, unsigned long long blkio)
{
	int n = snprintf(buf, len, "%d (%s) %c 1 1 1 0 -1 %u", pid, comm, state, flags);
	for (int field = 10; field <= 52; field++) {
		unsigned long long v = field == 20 ? threads : field == 22 ? 1000 + (unsigned)pid
				     : field == 42 ? blkio : field == 19 ? 0 : 1;
		n += snprintf(buf + n, len - (size_t)n, field == 18 ? " -%llu" : " %llu", v);
	}
	snprintf(buf + n, len - (size_t)n, "\n");
}

static void test_parse_stat(void **state)
{
	(void)state;
	char line[1024];
	struct procpid_stat st;
	stat_line(line, sizeof line, 42, "a) b (c", 'D', PROCPID_PF_KTHREAD, 3, 77);
	assert_int_equal(procpid_parse_stat(line, strlen(line), &st), 0);
	assert_int_equal(st.pid, 42);
	assert_string_equal(st.comm, "a) b (c");
	assert_int_equal(st.state, 'D');
	assert_true(st.flags & PROCPID_PF_KTHREAD);
	assert_int_equal(st.num_threads, 3);
	assert_int_equal(st.starttime, 1042);
	assert_true(st.has_blkio);
	assert_int_equal(st.blkio_ticks, 77);

	/* a kernel before field 42 (2.6.18): no blkio, still a stat line */
	const char *old = "7 (cat) S 1 1 1 0 -1 0 1 1 1 1 1 1 1 1 20 0 1 0 500 1 1\n";
	assert_int_equal(procpid_parse_stat(old, strlen(old), &st), 0);
	assert_false(st.has_blkio);
	assert_int_equal(st.starttime, 500);

	/* the parent and the group, as the process table (descendants.h) reads them */
	const char *zombie = "9 (sh) Z 4 6 6 0 -1 0 1 1 1 1 1 1 1 1 20 0 1 0 500 1 1\n";
	assert_int_equal(procpid_parse_stat(zombie, strlen(zombie), &st), 0);
	assert_int_equal(st.ppid, 4);
	assert_int_equal(st.pgrp, 6);
	assert_int_equal(st.state, 'Z');

	const char *bad[] = { "", "7 cat S 1", "7 (cat) S 1 1 x", "0 (x) S 1 1 1 0 -1 0 1",
			      "7 (cat)S 1 1 1 0 -1 0 1 1 1 1 1 1 1 1 20 0 1 0 500" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(procpid_parse_stat(bad[i], strlen(bad[i]), &st), -1);
}

static void test_parse_io_wchan_stack(void **state)
{
	(void)state;
	const char *io = "rchar: 10\nwchar: 20\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\n"
			 "write_bytes: 8192\ncancelled_write_bytes: 512\n";
	struct procpid_io v;
	assert_int_equal(procpid_parse_io(io, strlen(io), &v), 0);
	assert_int_equal(v.syscr, 3);
	assert_int_equal(v.syscw, 4);
	assert_int_equal(v.read_bytes, 4096);
	assert_int_equal(v.write_bytes, 8192);
	assert_int_equal(v.cancelled_write_bytes, 512);
	assert_true(v.has_chars);
	assert_int_equal(v.rchar, 10);
	assert_int_equal(v.wchar, 20);
	assert_int_equal(procpid_parse_io("rchar: 1\n", 9, &v), -1);
	const char *no_chars = "syscr: 3\nsyscw: 4\nread_bytes: 1\nwrite_bytes: 2\n"
			       "cancelled_write_bytes: 0\n";
	assert_int_equal(procpid_parse_io(no_chars, strlen(no_chars), &v), 0);
	assert_false(v.has_chars);

	char w[TASK_WCHAN_MAX];
	procpid_parse_wchan("0", 1, w, sizeof w);
	assert_string_equal(w, "");
	procpid_parse_wchan("jbd2_log_wait_commit", 20, w, sizeof w);
	assert_string_equal(w, "jbd2_log_wait_commit");
	procpid_parse_wchan("\x1b[2J", 4, w, sizeof w);   /* not a symbol: nothing */
	assert_string_equal(w, "");

	assert_int_equal(procpid_parse_schedstat_runs("2624302 5971 27\n", 16), 27);
	assert_int_equal(procpid_parse_schedstat_runs("0 0 0\n", 6), 0);      /* sched_info off */
	assert_int_equal(procpid_parse_schedstat_runs("12 34\n", 6), 0);
	assert_int_equal(procpid_parse_schedstat_runs("12 x 3\n", 7), 0);

	const char *stack = "[<0>] __schedule+0x2a1/0x8d0\n[<0>] schedule+0x3a/0xa0\n"
			    "[<0>] jbd2_log_wait_commit+0xb5/0x130\n[<0>] ext4_sync_file+0x1e/0x30\n"
			    "[<0>] vfs_fsync_range+0x3f/0x80\n[<0>] do_fsync+0x3d/0x70\n"
			    "[<0>] __x64_sys_fsync+0x10/0x20\n";
	char frames[TASK_STACK_FRAMES][TASK_FRAME_MAX];
	assert_int_equal(procpid_parse_stack(stack, strlen(stack), frames, TASK_STACK_FRAMES), 4);
	assert_string_equal(frames[0], "jbd2_log_wait_commit");
	assert_string_equal(frames[1], "ext4_sync_file");
	assert_string_equal(frames[3], "do_fsync");
}

static void test_parse_syscall_fdinfo(void **state)
{
	(void)state;
	long nr;
	uint64_t a[PROCPID_SYSCALL_ARGS];
	const char *w = "1 0x3 0x7f2f9311f000 0x40000 0x7f2f931d94f0 0xffffffff 0x0 0x7ffd 0x7f2f\n";
	assert_true(procpid_parse_syscall(w, strlen(w), &nr, a));
	assert_int_equal(nr, 1);
	assert_int_equal(a[0], 3);
	assert_int_equal(a[1], 0x7f2f9311f000ull);
	assert_int_equal(a[4], 0xffffffffull);
	assert_false(procpid_parse_syscall("running\n", 8, &nr, a));
	assert_false(procpid_parse_syscall("-1 0x7ffd 0x7f2f\n", 17, &nr, a));
	assert_false(procpid_parse_syscall("1 0x3 0x4\n", 10, &nr, a));     /* cut short */

	uint32_t id;
	const char *fi = "pos:\t524288\nflags:\t0140001\nmnt_id:\t47\nino:\t131\n";
	assert_true(procpid_parse_fdinfo_mnt(fi, strlen(fi), &id));
	assert_int_equal(id, 47);
	assert_false(procpid_parse_fdinfo_mnt("pos:\t0\n", 7, &id));
	unsigned flags;
	assert_true(procpid_parse_fdinfo_flags(fi, strlen(fi), &flags));
	assert_int_equal(flags, 0140001);
	assert_false(procpid_parse_fdinfo_flags("pos:\t0\n", 7, &flags));
	assert_false(procpid_parse_fdinfo_flags("flags:\tx\n", 9, &flags));

	/* which argument names the file: write's descriptor, openat's path and directory */
	struct syscall_file f;
	assert_true(syscall_file_args(SYS_write, &f));
	assert_int_equal(f.fd, 0);
	assert_true(syscall_file_args(SYS_openat, &f));
	assert_int_equal(f.fd, -1);
	assert_int_equal(f.dirfd, 0);
	assert_int_equal(f.path, 1);
	assert_true(syscall_file_args(SYS_umount2, &f));
	assert_int_equal(f.path, 0);
	assert_false(syscall_file_args(SYS_sync, &f));
}

/* A path is looked up lexically in the mount table: the longest mount point that is a
 * leading directory of it, the later of two on one point. */
static void test_path_to_mount(void **state)
{
	(void)state;
	char p[64];
	snprintf(p, sizeof p, "/a//b/./c/../d/");
	procfiles_normalize(p);
	assert_string_equal(p, "/a/b/d");
	snprintf(p, sizeof p, "/../..");
	procfiles_normalize(p);
	assert_string_equal(p, "/");
	struct mount v[4] = { { .id = 1, .mountpoint = "/" }, { .id = 2, .mountpoint = "/mnt/x" },
				      { .id = 3, .mountpoint = "/mnt/xy" }, { .id = 4, .mountpoint = "/mnt/x" } };
	assert_int_equal(procfiles_mount_of_path(v, 4, "/mnt/x/f")->id, 4);
	assert_int_equal(procfiles_mount_of_path(v, 4, "/mnt/x")->id, 4);
	assert_int_equal(procfiles_mount_of_path(v, 4, "/mnt/xyz")->id, 1);
	assert_int_equal(procfiles_mount_of_path(v, 4, "/mnt/xy/z")->id, 3);
	assert_null(procfiles_mount_of_path(v + 1, 1, "/etc"));
}

/* --- the sub-sampler on a fixture tree --- */

static char tree[64];

static void put(const char *rel, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", tree, rel);
	write_file(path, text);
}

static void put_stat(const char *rel, int pid, const char *comm, char state, unsigned flags,
		     unsigned threads, unsigned long long blkio)
{
	char line[1024];
	stat_line(line, sizeof line, pid, comm, state, flags, threads, blkio);
	put(rel, line);
}

/* A thread's own io (/proc/PID/task/TID/io). */
static void put_thread_io(int pid, int tid, unsigned long long rd, unsigned long long wr,
			  unsigned long long sc)
{
	char rel[64], text[512];
	snprintf(rel, sizeof rel, "proc/%d/task/%d/io", pid, tid);
	snprintf(text, sizeof text, "rchar: 0\nwchar: 0\nsyscr: %llu\nsyscw: %llu\n"
		 "read_bytes: %llu\nwrite_bytes: %llu\ncancelled_write_bytes: 0\n", sc, sc, rd, wr);
	put(rel, text);
}

static void put_io(int pid, unsigned long long rd, unsigned long long wr, unsigned long long sc)
{
	put_thread_io(pid, pid, rd, wr, sc);
}

/* A symbolic link rel -> target in the tree (a /proc/PID/fd/N). */
static void put_link(const char *rel, const char *target)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", tree, rel);
	unlink(path);           /* a link there already: not written through */
	put(rel, "");
	unlink(path);
	assert_int_equal(symlink(target, path), 0);
}

/* pid 10 dd (sleeping, writing), pid 20 jbd2/loop0-8 (kernel thread, D), pid 30 tar with
 * a second thread 31 in D, pid 40 a kworker in D on the same channel as jbd2. */
static void build_tree(unsigned long long dd_written, unsigned long long dd_blkio)
{
	put("proc/sys/kernel/task_delayacct", "1\n");
	put("etc/passwd", "root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/a:/bin/sh\n");
	put_stat("proc/10/stat", 10, "dd", 'S', 0, 1, dd_blkio);
	put_io(10, 0, dd_written, dd_written / 4096);
	put_stat("proc/20/stat", 20, "jbd2/loop0-8", 'D', PROCPID_PF_KTHREAD, 1, 0);
	put_io(20, 0, 0, 0);
	put("proc/20/task/20/wchan", "kjournald2");
	put("proc/20/task/20/stack", "[<0>] __schedule+0x1/0x2\n[<0>] kjournald2+0x1/0x2\n");
	put_stat("proc/30/stat", 30, "tar", 'S', 0, 2, 0);
	put_stat("proc/30/task/30/stat", 30, "tar", 'S', 0, 2, 0);
	put_stat("proc/30/task/31/stat", 31, "tar", 'D', 0, 2, 0);
	put("proc/30/task/31/wchan", "jbd2_log_wait_commit");
	put_io(30, 1 << 20, 0, 1);
	put_stat("proc/40/stat", 40, "kworker/u8:2+flush-7:0", 'D', PROCPID_PF_KTHREAD, 1, 0);
	put("proc/40/task/40/wchan", "jbd2_log_wait_commit");
	put_io(40, 0, 0, 0);
}

static int tree_setup(void **state)
{
	(void)state;
	snprintf(tree, sizeof tree, "/tmp/ioscope-tasks.XXXXXX");
	return mkdtemp(tree) ? 0 : -1;
}

static int tree_teardown(void **state)
{
	(void)state;
	rm_tree(tree);
	return 0;
}

static const struct blocked_task *find_blocked(const struct tasks_sample *t, int tid)
{
	for (size_t i = 0; i < t->nkept; i++)
		if (t->blocked[i].tid == tid)
			return &t->blocked[i];
	return NULL;
}

static void test_sampler_fixture(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	build_tree(1 << 20, 10);
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	assert_int_equal(proctasks_sample(&p, 1000000000ull, NULL, 0, &t, &err), 0);
	assert_true(t->delayacct);
	assert_int_equal(t->interval_ns, 0);
	assert_int_equal(t->nio, 0);              /* a baseline: no differences yet */
	assert_int_equal(t->nprocs, 4);
	assert_int_equal(t->nthreads, 5);
	assert_int_equal(t->nblocked, 3);         /* jbd2, tar's second thread, the kworker */
	assert_null(find_blocked(t, 30));
	const struct blocked_task *b = find_blocked(t, 31);
	assert_non_null(b);
	assert_int_equal(b->pid, 30);
	assert_string_equal(b->wchan, "jbd2_log_wait_commit");
	assert_int_equal(find_blocked(t, 20)->nframes, 1);
	assert_string_equal(find_blocked(t, 20)->stack[0], "kjournald2");

	/* two seconds later dd wrote 2 MiB more, waited 50 ticks; the kworker woke up */
	build_tree(3 << 20, 60);
	put_stat("proc/40/stat", 40, "kworker/u8:2+flush-7:0", 'I', PROCPID_PF_KTHREAD, 1, 0);
	assert_int_equal(proctasks_sample(&p, 3000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->interval_ns, 2000000000ull);
	assert_int_equal(t->nblocked, 2);
	assert_null(find_blocked(t, 40));
	assert_true(fabs(blocked_task_seconds(find_blocked(t, 31), 3000000000ull) - 2.0) < 1e-9);
	assert_int_equal(t->nio, 1);              /* only dd moved bytes */
	assert_int_equal(t->io[0].pid, 10);
	char user[32];                            /* the fixture's files are ours */
	snprintf(user, sizeof user, "%u", (unsigned)geteuid());
	assert_string_equal(t->io[0].user, geteuid() == 0 ? "root" : geteuid() == 1000 ? "alice"
							    : user);
	struct task_io_rates r;
	task_io_rates(t, &t->io[0], &r);
	assert_true(fabs(r.wkB_s - 1024.0) < 1e-9);    /* 2 MiB in 2 s */
	assert_true(fabs(r.syscw_s - 256.0) < 1e-9);
	long hz = sysconf(_SC_CLK_TCK);
	assert_true(fabs(r.iodelay_pct - 50.0 / (double)hz / 2.0 * 100.0) < 1e-9);

	/* delay accounting off: iodelay is unknown, not zero */
	put("proc/sys/kernel/task_delayacct", "0\n");
	assert_int_equal(proctasks_sample(&p, 4000000000ull, NULL, 0, &t, &err), 0);
	assert_false(t->delayacct);
	put_io(10, 0, 5 << 20, 1);
	assert_int_equal(proctasks_sample(&p, 5000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nio, 1);
	task_io_rates(t, &t->io[0], &r);
	assert_true(isnan(r.iodelay_pct));
	assert_true(fabs(blocked_task_seconds(find_blocked(t, 31), 5000000000ull) - 4.0) < 1e-9);

	/* in D again at the next sample, but on another wait: blocked since now, not for the
	 * 5 s of waits that are not this one (issue 36: "up to 4.0 s" 0.1 s after a freeze) */
	put("proc/30/task/31/wchan", "folio_wait_writeback");
	assert_int_equal(proctasks_sample(&p, 6000000000ull, NULL, 0, &t, &err), 0);
	assert_true(blocked_task_seconds(find_blocked(t, 31), 6000000000ull) < 1e-9);
	assert_int_equal(proctasks_sample(&p, 7000000000ull, NULL, 0, &t, &err), 0);
	assert_true(fabs(blocked_task_seconds(find_blocked(t, 31), 7000000000ull) - 1.0) < 1e-9);
	tasks_sample_free(t);
	proctasks_close(&p);
}

/* A writer whose every fsync waits on the same channel (an xfs log's waiter) is in D on
 * it at every sample, but woke between them: its schedstat's run count moved.  It has
 * waited since its last wait began, not since it was first seen: "commit running for
 * 10 s" 2 s after a log stopped, before.  A count that does not move is one wait; without
 * the count ("0 0 0", or no file) the channel alone says it. */
static void test_sampler_woken_between(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	build_tree(0, 0);
	put("proc/30/task/31/wchan", "xlog_wait_on_iclog");
	put("proc/30/task/31/schedstat", "5000 10 7\n");
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	assert_int_equal(proctasks_sample(&p, 1000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(proctasks_sample(&p, 3000000000ull, NULL, 0, &t, &err), 0);
	assert_true(fabs(blocked_task_seconds(find_blocked(t, 31), 3000000000ull) - 2.0) < 1e-9);
	put("proc/30/task/31/schedstat", "5100 10 9\n");     /* ran twice, in D again */
	assert_int_equal(proctasks_sample(&p, 5000000000ull, NULL, 0, &t, &err), 0);
	assert_true(blocked_task_seconds(find_blocked(t, 31), 5000000000ull) < 1e-9);
	assert_int_equal(proctasks_sample(&p, 6000000000ull, NULL, 0, &t, &err), 0);
	assert_true(fabs(blocked_task_seconds(find_blocked(t, 31), 6000000000ull) - 1.0) < 1e-9);
	put("proc/30/task/31/schedstat", "0 0 0\n");         /* not known: the channel says */
	assert_int_equal(proctasks_sample(&p, 7000000000ull, NULL, 0, &t, &err), 0);
	assert_true(fabs(blocked_task_seconds(find_blocked(t, 31), 7000000000ull) - 2.0) < 1e-9);
	tasks_sample_free(t);
	proctasks_close(&p);
}

/* A shell that waited for its dd: /proc/PID/io adds the child's 200 MB to the shell's
 * own bytes when it reaps it (issue 24).  The sampler sums the threads' own io, which
 * never have the child's: the shell did nothing, and its two threads' bytes add up. */
static void test_sampler_reaped_child(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	put("proc/sys/kernel/task_delayacct", "1\n");
	put_stat("proc/50/stat", 50, "bash", 'S', 0, 1, 0);
	put("proc/50/io", "rchar: 0\nwchar: 0\nsyscr: 1\nsyscw: 1\nread_bytes: 0\n"
	    "write_bytes: 4096\ncancelled_write_bytes: 0\n");
	put_thread_io(50, 50, 0, 4096, 1);
	put_stat("proc/60/stat", 60, "fio", 'S', 0, 2, 0);
	put_stat("proc/60/task/61/stat", 61, "fio", 'S', 0, 2, 0);
	put_thread_io(60, 60, 0, 0, 0);
	put_thread_io(60, 61, 0, 0, 0);
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	assert_int_equal(proctasks_sample(&p, 1000000000ull, NULL, 0, &t, &err), 0);
	/* the child is reaped: the process total jumps by 200 MiB, the thread's does not */
	put("proc/50/io", "rchar: 0\nwchar: 0\nsyscr: 1\nsyscw: 1\nread_bytes: 0\n"
	    "write_bytes: 209719296\ncancelled_write_bytes: 0\n");
	put_thread_io(60, 60, 0, 1 << 20, 1);
	put_thread_io(60, 61, 0, 2 << 20, 1);
	assert_int_equal(proctasks_sample(&p, 2000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nio, 1);              /* the shell moved nothing */
	assert_int_equal(t->io[0].pid, 60);
	assert_int_equal(t->io[0].write_bytes, 3 << 20);   /* both threads */
	tasks_sample_free(t);
	proctasks_close(&p);
}

static void rm_tree_rel(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", tree, rel);
	rm_tree(path);
}

/* The gate (docs/design.md, "The process list's gate"): a single-threaded process asleep
 * whose schedstat did not move was not scheduled in, so its stat and io are not read
 * again.  The fixture moves a sleeper's io without its schedstat, which the kernel cannot
 * do: the sampler does not see it until the schedstat moves.  A running process, and one
 * whose schedstat is the kernel's zeros (no schedule statistics), are read every time; a
 * multi-threaded one when any of its threads' schedstat moved. */
static void test_sampler_gate(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	put("proc/sys/kernel/task_delayacct", "1\n");
	put_stat("proc/70/stat", 70, "sleeper", 'S', 0, 1, 0);
	put("proc/70/schedstat", "1000 50 3\n");
	put_io(70, 0, 0, 0);
	put_stat("proc/80/stat", 80, "runner", 'R', 0, 1, 0);
	put("proc/80/schedstat", "2000 50 3\n");
	put_io(80, 0, 0, 0);
	put_stat("proc/90/stat", 90, "nostats", 'S', 0, 1, 0);
	put("proc/90/schedstat", "0 0 0\n");
	put_io(90, 0, 0, 0);
	put_stat("proc/100/stat", 100, "fio", 'S', 0, 2, 0);
	put("proc/100/schedstat", "3000 50 3\n");
	put_stat("proc/100/task/100/stat", 100, "fio", 'S', 0, 2, 0);
	put_stat("proc/100/task/101/stat", 101, "fio", 'S', 0, 2, 0);
	put("proc/100/task/101/schedstat", "4000 50 3\n");
	put_thread_io(100, 100, 0, 0, 0);
	put_thread_io(100, 101, 0, 0, 0);
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	assert_int_equal(proctasks_sample(&p, 1000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nprocs, 4);
	assert_int_equal(t->nthreads, 5);
	assert_int_equal(p.ngates, 5);

	/* a thread's io moves, not its schedstat: not read; then its schedstat moves */
	put_thread_io(100, 101, 0, 4 << 20, 1);
	assert_int_equal(proctasks_sample(&p, 1500000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nio, 0);
	assert_int_equal(t->nthreads, 5);
	put("proc/100/task/101/schedstat", "4500 50 4\n");
	assert_int_equal(proctasks_sample(&p, 1800000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nio, 1);
	assert_int_equal(t->io[0].pid, 100);
	assert_int_equal(t->io[0].write_bytes, 4 << 20);
	assert_int_equal(proctasks_sample(&p, 1900000000ull, NULL, 0, &t, &err), 0);
	rm_tree_rel("proc/100");
	assert_int_equal(proctasks_sample(&p, 1950000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nprocs, 3);
	assert_int_equal(p.ngates, 3);           /* the process's and its thread's closed */

	put_io(70, 0, 1 << 20, 1);
	put_io(80, 0, 2 << 20, 1);
	put_io(90, 0, 3 << 20, 1);
	assert_int_equal(proctasks_sample(&p, 2000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nprocs, 3);
	assert_int_equal(t->nthreads, 3);
	assert_int_equal(t->interval_ns, 50000000ull);
	assert_int_equal(t->nio, 2);              /* the sleeper's schedstat did not move */
	assert_int_equal(t->io[0].pid, 90);
	assert_int_equal(t->io[1].pid, 80);

	put("proc/70/schedstat", "1500 50 4\n");   /* it ran: read, its bytes since its last read */
	put_stat("proc/70/stat", 70, "sleeper", 'D', 0, 1, 0);
	put("proc/70/task/70/wchan", "folio_wait_bit");
	assert_int_equal(proctasks_sample(&p, 3000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nio, 1);
	assert_int_equal(t->io[0].pid, 70);
	assert_int_equal(t->io[0].write_bytes, 1 << 20);
	assert_int_equal(t->nblocked, 1);

	/* in D at its last read: read again though its schedstat did not move (its wait can
	 * end before it runs) */
	put_stat("proc/70/stat", 70, "sleeper", 'S', 0, 1, 0);
	assert_int_equal(proctasks_sample(&p, 4000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nblocked, 0);

	/* gone: its descriptor is closed */
	rm_tree_rel("proc/80");
	assert_int_equal(proctasks_sample(&p, 5000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nprocs, 2);
	assert_int_equal(p.ngates, 2);
	tasks_sample_free(t);
	proctasks_close(&p);
}

/* The why pane's relaxed pace (source.h, SOURCE_TASKS_RELAXED): while the last read found
 * no task blocked, every other sample is a copy of that read (the same figures, over the
 * same interval), and the read after spans both samples; a blocked task makes every
 * sample a read. */
static void test_sampler_relaxed(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	put("proc/sys/kernel/task_delayacct", "1\n");
	put_stat("proc/70/stat", 70, "writer", 'R', 0, 1, 0);
	put("proc/70/schedstat", "1000 50 3\n");
	put_io(70, 0, 0, 0);
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	p.relaxed = true;
	assert_int_equal(proctasks_sample(&p, 1000000000ull, NULL, 0, &t, &err), 0);
	put_io(70, 0, 1 << 20, 1);   /* the baseline is no read to copy: the next is read */
	assert_int_equal(proctasks_sample(&p, 2000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nio, 1);
	assert_int_equal(t->io[0].write_bytes, 1 << 20);

	put_io(70, 0, 3 << 20, 2);   /* a copy of the read before: 1 MiB in its 1 s */
	assert_int_equal(proctasks_sample(&p, 3000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nio, 1);
	assert_int_equal(t->io[0].write_bytes, 1 << 20);
	assert_int_equal(t->interval_ns, 1000000000ull);

	/* read: the 2 MiB since the last read, over both samples */
	put_stat("proc/70/stat", 70, "writer", 'D', 0, 1, 0);
	put("proc/70/task/70/wchan", "folio_wait_bit");
	assert_int_equal(proctasks_sample(&p, 4000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->io[0].write_bytes, 2 << 20);
	assert_int_equal(t->interval_ns, 2000000000ull);
	assert_int_equal(t->nblocked, 1);

	/* blocked at the last read: read every sample */
	put_stat("proc/70/stat", 70, "writer", 'R', 0, 1, 0);
	assert_int_equal(proctasks_sample(&p, 5000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nblocked, 0);
	assert_int_equal(t->interval_ns, 1000000000ull);
	assert_int_equal(proctasks_sample(&p, 6000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->interval_ns, 1000000000ull);   /* the copy of the read at 5 s */

	/* not relaxed (--tasks): every sample read */
	p.relaxed = false;
	assert_int_equal(proctasks_sample(&p, 7000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->interval_ns, 2000000000ull);
	assert_int_equal(proctasks_sample(&p, 8000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->interval_ns, 1000000000ull);
	tasks_sample_free(t);
	proctasks_close(&p);
}

/* A blocked writer's system call names its file by descriptor; the file's mount (fdinfo's
 * mnt_id) is found in the mount table the sampler read (given to each sample: the tree's
 * proc/self/mountinfo is not read again, so what it says here is never used), whose
 * device number is what the sample keeps.  A listed process has the devices of its open
 * files, each once; pipes are none; a file of a mount our table has not (another
 * namespace's) is found in that process's own mountinfo. */
static void test_sampler_files(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	put("proc/sys/kernel/task_delayacct", "1\n");
	const char *mountinfo = "26 1 254:1 / / rw - ext4 /dev/vda1 rw\n"
				"47 26 7:4 / /mnt/x\\040y rw,relatime shared:1 - xfs /dev/loop4 rw\n";
	struct snapshot mtab;
	snapshot_init(&mtab);
	assert_int_equal(mountinfo_parse(mountinfo, strlen(mountinfo), &mtab, &err), 2);
	put("proc/self/mountinfo", "26 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
	    "47 26 8:16 / /mnt/x\\040y rw - xfs /dev/sdb rw\n");
	put("proc/80/mountinfo", "99 98 9:2 / /srv rw - ext4 /dev/md2 rw\n");
	put_stat("proc/70/stat", 70, "dd", 'D', 0, 1, 0);
	put_io(70, 0, 0, 0);
	put("proc/70/task/70/wchan", "percpu_rwsem_wait");
	put("proc/70/task/70/syscall", "1 0x3 0x7f2f9311f000 0x40000 0x0 0xffffffff 0x0 "
	    "0x7ffde3545388 0x7f2f932b8350\n");
	put_link("proc/70/task/70/fd/3", "/mnt/x y/f");
	put("proc/70/task/70/fdinfo/3", "pos:\t0\nflags:\t0100001\nmnt_id:\t47\nino:\t131\n");
	put_stat("proc/80/stat", 80, "tar", 'S', 0, 1, 0);
	put_io(80, 0, 0, 0);
	put_link("proc/80/fd/0", "pipe:[1234]");
	put_link("proc/80/fd/4", "/mnt/x y/a");
	put("proc/80/fdinfo/4", "pos:\t0\nflags:\t01\nmnt_id:\t47\n");
	put_link("proc/80/fd/5", "/mnt/x y/b");
	put("proc/80/fdinfo/5", "pos:\t0\nflags:\t01\nmnt_id:\t47\n");
	put_link("proc/80/fd/6", "/etc/passwd");
	put("proc/80/fdinfo/6", "pos:\t0\nflags:\t0\nmnt_id:\t26\n");
	put_link("proc/80/fd/7", "/srv/db");
	put("proc/80/fdinfo/7", "pos:\t0\nflags:\t0\nmnt_id:\t99\n");
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	assert_int_equal(proctasks_sample(&p, 1000000000ull, mtab.mounts, mtab.nmounts, &t, &err), 0);
	const struct blocked_task *b = find_blocked(t, 70);
	assert_non_null(b);
	assert_int_equal(b->waits.kind, TASK_FILE_ON_FS);
	assert_int_equal(b->waits.major, 7);
	assert_int_equal(b->waits.minor, 4);
	put_io(80, 0, 8192, 2);
	assert_int_equal(proctasks_sample(&p, 2000000000ull, mtab.mounts, mtab.nmounts, &t, &err), 0);
	assert_int_equal(t->nio, 1);
	assert_int_equal(t->io[0].nfiles, 3);
	bool loop4 = false, vda1 = false, md2 = false;
	for (size_t i = 0; i < t->io[0].nfiles; i++) {
		const struct task_file *f = &t->io[0].files[i];
		assert_int_equal(f->kind, TASK_FILE_ON_FS);
		loop4 |= f->major == 7 && f->minor == 4;
		vda1 |= f->major == 254 && f->minor == 1;
		md2 |= f->major == 9 && f->minor == 2;
	}
	assert_true(loop4 && vda1 && md2);
	/* not in a system call that names a file (a page fault): nothing */
	put("proc/70/task/70/syscall", "-1 0x7ffde3545388 0x7f2f932b8350\n");
	assert_int_equal(proctasks_sample(&p, 3000000000ull, mtab.mounts, mtab.nmounts, &t, &err), 0);
	assert_int_equal(find_blocked(t, 70)->waits.kind, TASK_FILE_NONE);
	tasks_sample_free(t);
	proctasks_close(&p);
	snapshot_free(&mtab);
}

/* The open files of a listed process, sample after sample: a descriptor whose link reads
 * as before is not looked up again (its fdinfo is not read: changed here behind the
 * sampler's back, the answer stays), one whose link changed is, and a new mount table
 * makes every one be looked up anew. */
static const struct task_file *io_file(const struct tasks_sample *t)
{
	assert_int_equal(t->nio, 1);
	assert_int_equal(t->io[0].nfiles, 1);
	return &t->io[0].files[0];
}

/* A second later, with pid 80 8 KiB further (a process is listed when it did I/O). */
static void next_sample(struct proctasks *p, const struct snapshot *mtab, struct tasks_sample **t)
{
	struct error err;
	uint64_t n = p->last_mono_ns / 1000000000ull;
	put_io(80, 0, n * 8192, n * 2);
	assert_int_equal(proctasks_sample(p, (n + 1) * 1000000000ull, mtab->mounts, mtab->nmounts,
					  t, &err), 0);
}

static void test_sampler_files_memo(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	const char *mountinfo = "26 1 254:1 / / rw - ext4 /dev/vda1 rw\n"
				"47 26 7:4 / /mnt/x rw - xfs /dev/loop4 rw\n";
	struct snapshot mtab, mtab2;
	snapshot_init(&mtab);
	snapshot_init(&mtab2);
	assert_int_equal(mountinfo_parse(mountinfo, strlen(mountinfo), &mtab, &err), 2);
	put("proc/sys/kernel/task_delayacct", "1\n");
	put_stat("proc/80/stat", 80, "tar", 'R', 0, 1, 0);
	put_io(80, 0, 0, 0);
	put_link("proc/80/fd/4", "/mnt/x/a");
	put("proc/80/fdinfo/4", "pos:\t0\nflags:\t01\nmnt_id:\t47\n");
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	assert_int_equal(proctasks_sample(&p, 1000000000ull, mtab.mounts, mtab.nmounts, &t, &err), 0);
	next_sample(&p, &mtab, &t);
	assert_int_equal(io_file(t)->minor, 4);
	put("proc/80/fdinfo/4", "pos:\t0\nflags:\t01\nmnt_id:\t26\n");
	next_sample(&p, &mtab, &t);
	assert_int_equal(io_file(t)->major, 7);    /* the same link: fdinfo not read */
	assert_int_equal(io_file(t)->minor, 4);
	put_link("proc/80/fd/4", "/b");
	next_sample(&p, &mtab, &t);
	assert_int_equal(io_file(t)->major, 254);  /* another link: looked up */
	put_link("proc/80/fd/4", "/mnt/x/a");
	put("proc/80/fdinfo/4", "pos:\t0\nflags:\t01\nmnt_id:\t47\n");
	next_sample(&p, &mtab, &t);
	assert_int_equal(io_file(t)->major, 7);
	put("proc/80/fdinfo/4", "pos:\t0\nflags:\t01\nmnt_id:\t26\n");
	const char *moved = "26 1 254:1 / / rw - ext4 /dev/vda1 rw\n"
			    "47 26 7:4 / /mnt/y rw - xfs /dev/loop4 rw\n";
	assert_int_equal(mountinfo_parse(moved, strlen(moved), &mtab2, &err), 2);
	next_sample(&p, &mtab2, &t);
	assert_int_equal(io_file(t)->major, 254);  /* a mount moved: looked up anew */
	tasks_sample_free(t);
	proctasks_close(&p);
	snapshot_free(&mtab);
	snapshot_free(&mtab2);
}

/* A task read in D that runs again before its wait is read (its wchan "0", its syscall
 * "running", as a throttled writer between two pauses on a loaded machine) says nothing of
 * what it waits on: it is not blocked, rather than blocked and not attributed.  One whose
 * syscall still reads (it waits again) is kept, and so is one whose wchan reads. */
static void test_sampler_woken(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	put("proc/sys/kernel/task_delayacct", "1\n");
	put_stat("proc/90/stat", 90, "dd", 'D', 0, 1, 0);
	put_io(90, 0, 0, 0);
	put("proc/90/task/90/wchan", "0");
	put("proc/90/task/90/syscall", "running\n");
	put_stat("proc/91/stat", 91, "dd", 'D', 0, 1, 0);
	put_io(91, 0, 0, 0);
	put("proc/91/task/91/wchan", "0");
	put("proc/91/task/91/syscall", "1 0x3 0x7f2f9311f000 0x40000 0x0 0x0 0x0 0x0 0x0\n");
	put_stat("proc/92/stat", 92, "dd", 'D', 0, 1, 0);
	put_io(92, 0, 0, 0);
	put("proc/92/task/92/wchan", "balance_dirty_pages");
	put("proc/92/task/92/syscall", "running\n");
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	assert_int_equal(proctasks_sample(&p, 1000000000ull, NULL, 0, &t, &err), 0);
	assert_int_equal(t->nblocked, 2);
	assert_int_equal(t->nkept, 2);
	assert_null(find_blocked(t, 90));
	assert_non_null(find_blocked(t, 91));
	assert_string_equal(find_blocked(t, 92)->wchan, "balance_dirty_pages");
	tasks_sample_free(t);
	proctasks_close(&p);
}

/* A memory cgroup's counters are rates, which need the reading of the sample before: a
 * cgroup that held a blocked task in the last 10 s is read in every sample (after the
 * blocked tasks' own, named by none; the why rates show only those blocked tasks name),
 * so a writer blocked in one sample and not in the next still has its failcnt/s when it is
 * blocked again.  After 10 s with none blocked in it, it is no longer read. */
static void memcg_sample(struct proctasks *p, uint64_t s, char state, unsigned failcnt,
			 struct tasks_sample **t, struct why_rates *y)
{
	struct error err;
	char text[32];
	struct tasks_sample *prev = *t;
	*t = NULL;
	put_stat("proc/70/stat", 70, "dd", state, 0, 1, 0);
	snprintf(text, sizeof text, "%u\n", failcnt);
	put("sys/fs/cgroup/memory/w/memory.failcnt", text);
	assert_int_equal(proctasks_sample(p, s * 1000000000ull, NULL, 0, t, &err), 0);
	memset(y, 0, sizeof *y);
	why_rates_add_tasks(y, prev, *t, s * 1000000000ull, NULL);
	tasks_sample_free(prev);
}

static void test_sampler_memcg_watched(void **state)
{
	(void)state;
	struct proctasks p;
	struct error err;
	struct tasks_sample *t = NULL;
	struct why_rates y;
	put("proc/sys/kernel/task_delayacct", "1\n");
	put("proc/self/mountinfo", "26 1 254:1 / / rw - ext4 /dev/vda1 rw\n"
	    "30 26 0:30 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
	put("proc/70/cgroup", "4:memory:/w\n1:name=systemd:/\n");
	put_io(70, 0, 0, 0);
	put("proc/70/task/70/wchan", "folio_wait_bit");
	put("sys/fs/cgroup/memory/w/memory.limit_in_bytes", "33554432\n");
	put("sys/fs/cgroup/memory/w/memory.usage_in_bytes", "33000000\n");
	put("sys/fs/cgroup/memory/w/memory.stat", "total_dirty 0\ntotal_writeback 4096\n");
	assert_int_equal(proctasks_open(&p, tree, &err), 0);
	memcg_sample(&p, 1, 'D', 100, &t, &y);
	assert_int_equal(t->nmemcgs, 1);
	assert_int_equal(y.nmemcgs, 1);
	assert_false(y.memcgs[0].rated & (1u << MEMCG_FAILCNT));   /* nothing before */
	memcg_sample(&p, 2, 'S', 300, &t, &y);
	assert_int_equal(t->nblocked, 0);
	assert_int_equal(t->nmemcgs, 1);                            /* read, watched */
	assert_int_equal(t->memcgs[0].v[MEMCG_FAILCNT], 300);
	assert_int_equal(y.nmemcgs, 0);                             /* named by no task */
	memcg_sample(&p, 3, 'D', 700, &t, &y);
	assert_int_equal(y.nmemcgs, 1);
	assert_true(y.memcgs[0].rated & (1u << MEMCG_FAILCNT));
	assert_true(fabs(y.memcgs[0].per_s[MEMCG_FAILCNT] - 400) < 1e-9);
	memcg_sample(&p, 13, 'S', 900, &t, &y);                     /* 10 s since: still */
	assert_int_equal(t->nmemcgs, 1);
	memcg_sample(&p, 14, 'S', 900, &t, &y);                     /* past 10 s: no more */
	assert_int_equal(t->nmemcgs, 0);
	tasks_sample_free(t);
	proctasks_close(&p);
}

/* The memo on its own: a process's start time and the file (device and inode: another
 * file under the same link text is another key) are part of the key, and only what a
 * sample looked up is there for the next. */
static void test_fd_memo(void **state)
{
	(void)state;
	struct fd_memo m = { 0 };
	struct mount table[1] = { { .id = 1, .major = 8, .minor = 1, .mountpoint = "/" } };
	struct fd_memo_key a = { 80, 4, 1080, 0x701, 12 };
	struct task_file f = { TASK_FILE_ON_FS, 7, 1 }, got;
	fd_memo_new_sample(&m, table, 1);
	assert_false(fd_memo_find(&m, &a, &got));
	fd_memo_keep(&m, &a, &f);
	fd_memo_new_sample(&m, table, 1);
	assert_true(fd_memo_find(&m, &a, &got));
	assert_int_equal(got.minor, 1);
	struct fd_memo_key other = a;
	other.starttime = 2000;                    /* the pid taken again */
	assert_false(fd_memo_find(&m, &other, &got));
	other = a;
	other.dev = 0x702;                         /* the same inode number on another disk */
	assert_false(fd_memo_find(&m, &other, &got));
	other = a;
	other.ino = 13;                            /* another file of the same disk */
	assert_false(fd_memo_find(&m, &other, &got));
	fd_memo_new_sample(&m, table, 1);          /* not looked up last sample: gone */
	assert_false(fd_memo_find(&m, &a, &got));
	fd_memo_free(&m);
}

/* --- grouping --- */

static void add(struct tasks_sample *t, int tid, const char *comm, bool kthread,
		const char *wchan, uint64_t since)
{
	struct blocked_task *b = tasks_sample_add_blocked(t);
	assert_non_null(b);
	b->pid = b->tid = tid;
	snprintf(b->comm, sizeof b->comm, "%s", comm);
	snprintf(b->wchan, sizeof b->wchan, "%s", wchan);
	b->kthread = kthread;
	b->since_ns = since;
	t->nblocked++;
}

static void test_groups(void **state)
{
	(void)state;
	struct tasks_sample *t = tasks_sample_new();
	add(t, 5, "dd", false, "percpu_rwsem_wait", 0);
	add(t, 6, "dd", false, "percpu_rwsem_wait", 0);
	for (int i = 0; i < 11; i++)
		add(t, 100 + i, i % 2 ? "kworker/u8:1+flush-7:0" : "kworker/0:2", true,
		    "jbd2_log_wait_commit", 2000000000ull);
	add(t, 99, "tar", false, "jbd2_log_wait_commit", 500000000ull);
	add(t, 7, "cat", false, "", 0);
	struct tasks_group g[8];
	size_t n = tasks_blocked_groups(t, 3000000000ull, g, 8);
	assert_int_equal(n, 3);
	char text[256];
	tasks_group_text(&g[0], text, sizeof text);
	assert_string_equal(text, "12 tasks in jbd2_log_wait_commit, waiting for a journal commit "
			    "(tar, 11 kworker)");
	assert_true(fabs(g[0].max_seconds - 2.5) < 1e-9);
	tasks_group_text(&g[1], text, sizeof text);
	assert_string_equal(text, "2 tasks in percpu_rwsem_wait (2 dd)");
	tasks_group_text(&g[2], text, sizeof text);
	assert_string_equal(text, "1 task in ? (cat)");
	/* fewer slots than groups: the biggest, and the count of all */
	assert_int_equal(tasks_blocked_groups(t, 0, g, 1), 3);
	assert_int_equal(g[0].count, 12);

	assert_int_equal(task_role("jbd2/loop0-8", true), TASK_ROLE_JOURNAL);
	assert_int_equal(task_role("xfsaild/loop1", true), TASK_ROLE_JOURNAL);
	assert_int_equal(task_role("kworker/u8:1+flush-7:0", true), TASK_ROLE_WRITEBACK);
	assert_int_equal(task_role("jbd2/loop0-8", false), TASK_ROLE_PROCESS);   /* a fake */
	tasks_sample_free(t);
}

/* --- wait channels in words --- */

static const char *words_of(const char *wchan, const char *frame)
{
	static struct blocked_task b;
	memset(&b, 0, sizeof b);
	snprintf(b.wchan, sizeof b.wchan, "%s", wchan);
	if (frame) {
		snprintf(b.stack[0], sizeof b.stack[0], "%s", wchan);
		snprintf(b.stack[1], sizeof b.stack[1], "%s", frame);
		b.nframes = 2;
	}
	return blocked_task_words(&b);
}

/* One line per row of the table (docs/metrics.md, "Wait channels in words"); a channel
 * not in it is said as it is. */
static void test_wchan_words(void **state)
{
	(void)state;
	assert_string_equal(words_of("add_transaction_credits", NULL), "journal full, waiting for log space");
	assert_string_equal(words_of("__jbd2_log_wait_for_space", NULL), "journal full, waiting for log space");
	assert_string_equal(words_of("jbd2_log_wait_commit", NULL), "waiting for a journal commit");
	assert_string_equal(words_of("xlog_grant_head_wait", NULL), "xfs log full");
	assert_string_equal(words_of("xlog_wait_on_iclog", NULL), "waiting for an xfs log write");
	assert_string_equal(words_of("balance_dirty_pages", NULL), "throttled, dirty above the limit");
	assert_string_equal(words_of("blk_mq_get_tag", NULL), "queue full, all nr_requests in use");
	assert_string_equal(words_of("rq_qos_wait", NULL), "held back by writeback throttling (wbt)");
	assert_string_equal(words_of("folio_wait_bit", NULL), "waiting for a page under writeback");
	assert_string_equal(words_of("folio_wait_writeback", NULL), "waiting for a page under writeback");
	assert_string_equal(words_of("percpu_rwsem_wait", "vfs_write"), "filesystem frozen");
	assert_string_equal(words_of("percpu_rwsem_wait", "mnt_want_write"), "filesystem frozen");
	assert_string_equal(words_of("reclaim_throttle", NULL), "memory reclaim throttling");
	assert_int_equal(tasks_wchan_words_count, 12);
	/* percpu_rwsem_wait is more than sb_start_write: without its frames, no words */
	assert_null(words_of("percpu_rwsem_wait", NULL));
	assert_null(words_of("percpu_rwsem_wait", "cgroup_threadgroup_change_begin"));
	assert_null(words_of("do_sys_poll", NULL));
	assert_null(words_of("", NULL));

	/* a group says them when they are every task's */
	struct tasks_sample *t = tasks_sample_new();
	add(t, 5, "dd", false, "percpu_rwsem_wait", 0);
	snprintf(t->blocked[0].stack[0], TASK_FRAME_MAX, "vfs_write");
	t->blocked[0].nframes = 1;
	add(t, 6, "tar", false, "jbd2_log_wait_commit", 0);
	struct tasks_group g[4];
	char text[256];
	assert_int_equal(tasks_blocked_groups(t, 0, g, 4), 2);
	tasks_group_text(&g[0], text, sizeof text);
	assert_string_equal(text, "1 task in jbd2_log_wait_commit, waiting for a journal commit (tar)");
	tasks_group_text(&g[1], text, sizeof text);
	assert_string_equal(text, "1 task in percpu_rwsem_wait, filesystem frozen (dd)");
	add(t, 7, "cat", false, "percpu_rwsem_wait", 0);          /* no stack: not known */
	assert_int_equal(tasks_blocked_groups(t, 0, g, 4), 2);
	tasks_group_text(&g[0], text, sizeof text);
	assert_string_equal(text, "2 tasks in percpu_rwsem_wait (cat, dd)");
	tasks_sample_free(t);
}

/* The table in docs/metrics.md is the code's, row for row. */
static void test_wchan_words_documented(void **state)
{
	(void)state;
	const char *top = getenv("IOSCOPE_TOP");
	char path[4096];
	snprintf(path, sizeof path, "%s/docs/metrics.md", top ? top : ".");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char doc[1 << 20];
	doc[fread(doc, 1, sizeof doc - 1, f)] = '\0';
	fclose(f);
	for (size_t i = 0; i < tasks_wchan_words_count; i++) {
		char row[256];
		snprintf(row, sizeof row, "| `%s` | %s |", tasks_wchan_words[i].wchan,
			 tasks_wchan_words[i].words);
		if (!strstr(doc, row))
			fail_msg("docs/metrics.md has no row %s", row);
	}
}

/* --- the session log record --- */

static void test_log_round_trip(void **state)
{
	(void)state;
	struct snapshot s;
	snapshot_init(&s);
	s.seq = 9;
	s.tasks = tasks_sample_new();
	struct tasks_sample *t = s.tasks;
	t->interval_ns = 999999999;
	t->clk_tck = 100;
	t->stack_readable = true;
	t->nprocs = 1000;
	t->nthreads = 1200;
	add(t, 31, "t\"a\\r\n", false, "jbd2_log_wait_commit", 123456789012345ull);
	t->blocked[0].nframes = 2;
	snprintf(t->blocked[0].stack[0], TASK_FRAME_MAX, "jbd2_log_wait_commit");
	snprintf(t->blocked[0].stack[1], TASK_FRAME_MAX, "ext4_sync_file");
	t->blocked_more = 4;
	t->nblocked += 4;
	t->nio = 2;
	t->io[0] = (struct task_io){ .pid = 10, .uid = 1000, .comm = "dd", .user = "alice",
				     .read_bytes = 1, .write_bytes = UINT64_MAX, .syscw = 3,
				     .blkio_ticks = 5 };
	t->io[1] = (struct task_io){ .pid = 20, .comm = "jbd2/loop0-8", .user = "root",
				     .kthread = true, .cancelled_write_bytes = 7 };
	t->blocked[0].waits = (struct task_file){ TASK_FILE_ON_FS, 0, 45 };   /* btrfs: 0:45 */
	t->io[0].nfiles = 2;
	t->io[0].files[0] = (struct task_file){ TASK_FILE_BLOCKDEV, 7, 0 };
	t->io[0].files[1] = (struct task_file){ TASK_FILE_ON_FS, 259, 4294967295u };
	struct jsonw w;
	jsonw_init(&w);
	assert_int_equal(session_log_format_tasks(&s, &w), 0);
	assert_true(strncmp(w.buf, "{\"type\":\"tasks\",\"seq\":9,", 24) == 0);
	json_object *o = json_tokener_parse(w.buf);
	assert_non_null(o);
	assert_int_equal(session_record_type(o), RECORD_TASKS);
	struct tasks_sample *back = NULL;
	struct error err;
	assert_int_equal(session_log_parse_tasks(o, &back, &err), 0);
	assert_int_equal(back->nkept, 1);
	assert_memory_equal(&back->blocked[0], &t->blocked[0], sizeof t->blocked[0]);
	assert_memory_equal(back->io, t->io, sizeof t->io);
	assert_int_equal(back->interval_ns, t->interval_ns);
	assert_int_equal(back->nblocked, 5);
	assert_int_equal(back->blocked_more, 4);
	assert_true(back->stack_readable);
	assert_false(back->delayacct);

	/* a crafted record: more io entries than kept is refused, not half-read */
	json_object *io = json_object_object_get(o, "io");
	for (int i = 0; i < TASKS_IO_TOP; i++)
		json_object_array_add(io, json_object_get(json_object_array_get_idx(io, 0)));
	assert_int_equal(session_log_parse_tasks(o, &back, &err), -1);
	assert_non_null(strstr(err.msg, "io"));
	json_object_put(o);
	/* a file device that is not "fs|dev MAJ:MIN" is refused */
	assert_non_null(strstr(w.buf, "\"waits\":\"fs 0:45\""));
	assert_non_null(strstr(w.buf, "\"files\":[\"dev 7:0\",\"fs 259:4294967295\"]"));
	char *bad = strdup(w.buf);
	memcpy(strstr(bad, "fs 0:45"), "xx 0:45", 7);
	o = json_tokener_parse(bad);
	assert_int_equal(session_log_parse_tasks(o, &back, &err), -1);
	assert_non_null(strstr(err.msg, "MAJ:MIN"));
	json_object_put(o);
	free(bad);
	tasks_sample_free(back);
	jsonw_free(&w);

	/* a copy of the snapshot owns its own tasks */
	struct snapshot c;
	snapshot_init(&c);
	assert_int_equal(snapshot_copy(&c, &s), 0);
	assert_ptr_not_equal(c.tasks, s.tasks);
	assert_ptr_not_equal(c.tasks->blocked, s.tasks->blocked);
	assert_string_equal(c.tasks->blocked[0].comm, "t\"a\\r\n");
	snapshot_free(&c);
	snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_parse_io_wchan_stack),
		cmocka_unit_test(test_parse_syscall_fdinfo),
		cmocka_unit_test(test_path_to_mount),
		cmocka_unit_test_setup_teardown(test_sampler_fixture, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_woken_between, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_reaped_child, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_files, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_gate, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_relaxed, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_files_memo, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_woken, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sampler_memcg_watched, tree_setup, tree_teardown),
		cmocka_unit_test(test_fd_memo),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_wchan_words),
		cmocka_unit_test(test_wchan_words_documented),
		cmocka_unit_test(test_log_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
