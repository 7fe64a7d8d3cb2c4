/* trace_source.c - opening the tracer shared object on demand (include/trace_source.h). */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dynlib.h"
#include "trace_source.h"
#include "trusted_file.h"

#define TRACER_SO "ioscope-trace.so"
/* The running kernel's types, which the BPF programs are relocated against (CO-RE). */
#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

struct tracer_lib {
	tracer_open_fn *open;
	tracer_flip_fn *flip;
	tracer_collect_fn *collect;
	tracer_close_fn *close;
};

static const struct dynlib_symbol tracer_symbols[] = {
	{ TRACER_OPEN, offsetof(struct tracer_lib, open) },
	{ TRACER_FLIP, offsetof(struct tracer_lib, flip) },
	{ TRACER_COLLECT, offsetof(struct tracer_lib, collect) },
	{ TRACER_CLOSE, offsetof(struct tracer_lib, close) },
};

struct trace_source {
	struct tracer_lib lib;
	struct tracer *tracer;
};

bool trace_compiled_in(void)
{
#ifdef IOSCOPE_TRACE
	return true;
#else
	return false;
#endif
}

static bool has_cap(const struct __user_cap_data_struct data[2], int cap)
{
	return data[cap / 32].effective & (1u << (cap % 32));
}

bool trace_privileged(void)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	if (syscall(SYS_capget, &head, data) < 0)
		return geteuid() == 0;
	/* CAP_BPF (39) and CAP_PERFMON (38) came with 5.8; before, CAP_SYS_ADMIN did both */
	return has_cap(data, CAP_SYS_ADMIN) || (has_cap(data, 39) && has_cap(data, 38));
}

/* The tracer runs with our privileges, so it is opened once, checked on that descriptor
 * (ours or root's, writable by nobody else: trusted_file.h) and loaded through it: a name
 * changed after the check loads nothing else.  Next to /proc/self/exe (the build tree)
 * when that one passes, else the installed one, which must pass too.  The descriptor,
 * its path in path, or -1 with err. */
static int open_tracer(char *path, size_t len, struct error *err)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = NULL;
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
	}
	struct error beside = { "" };
	int fd = -1;
	if (slash) {
		*slash = '\0';
		if (snprintf(path, len, "%s/%s", exe, TRACER_SO) < (int)len)
			fd = trusted_file_open(path, &beside);
		if (fd < 0 && errno == ENOENT)
			beside.msg[0] = '\0';
	}
	if (fd >= 0)
		return fd;
	snprintf(path, len, "%s/%s", IOSCOPE_LIBDIR, TRACER_SO);
	struct error installed;
	fd = trusted_file_open(path, &installed);
	if (fd < 0 && beside.msg[0])   /* why the one beside ioscope was not taken, too */
		error_set(err, "%s; %s", beside.msg, installed.msg);
	else if (fd < 0)
		*err = installed;
	return fd;
}

struct trace_source *trace_source_open(struct error *err)
{
	if (!trace_compiled_in()) {
		error_set(err, "tracing: this ioscope was built without it "
			       "(libbpf-dev, bpftool and clang are needed at build time)");
		return NULL;
	}
	if (!trace_privileged()) {
		error_set(err, "%s", TRACE_NEEDS);
		return NULL;
	}
	if (access(KERNEL_BTF, R_OK) < 0) {
		error_set(err, "tracing: the kernel describes no types (%s: %s): it needs "
			       "CONFIG_DEBUG_INFO_BTF", KERNEL_BTF, strerror(errno));
		return NULL;
	}
	struct trace_source *t = calloc(1, sizeof *t);
	if (!t) {
		error_errno(err, "tracing", ENOMEM);
		return NULL;
	}
	char path[PATH_MAX + 32];
	int fd = open_tracer(path, sizeof path, err);
	int rc = fd < 0 ? -1 : dynlib_load_fd(fd, path, tracer_symbols,
					      sizeof tracer_symbols / sizeof tracer_symbols[0],
					      &t->lib, err);
	if (fd >= 0)
		close(fd);
	if (rc < 0) {
		free(t);
		return NULL;
	}
	t->tracer = t->lib.open(err->msg, sizeof err->msg);
	if (!t->tracer) {
		free(t);
		return NULL;
	}
	return t;
}

void trace_source_flip(struct trace_source *t)
{
	if (t)
		t->lib.flip(t->tracer);
}

struct trace_sample *trace_source_collect(struct trace_source *t, struct error *err)
{
	struct trace_sample *s = calloc(1, sizeof *s);
	if (!s) {
		error_errno(err, "tracing", ENOMEM);
		return NULL;
	}
	if (t->lib.collect(t->tracer, s, err->msg, sizeof err->msg) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

void trace_source_close(struct trace_source *t)
{
	if (!t)
		return;
	t->lib.close(t->tracer);
	free(t);
}
