/* source.c - what every source shares: waiting for the next sample. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>

#include "source.h"

int source_wait(struct source *src, struct error *err)
{
	int fd = src->ops->wait_fd(src);
	if (fd < 0)
		return 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	/* The source's read() consumes the expiration; poll only waits for it. */
	if (poll(&pfd, 1, -1) < 0)
		return error_errno(err, "poll", errno);
	return 0;
}

bool source_diskstats_notice(const struct source *src, bool verbose, uint64_t said[2],
			     char *msg, size_t len)
{
	if (src->diskstats_malformed_lines && !said[1]) {
		said[1] = 1;
		snprintf(msg, len, "/proc/diskstats: a line with fewer than 14 statistics fields "
			 "skipped (malformed)");
		return true;
	}
	if (verbose && src->diskstats_extra_lines && !said[0]) {
		said[0] = 1;
		snprintf(msg, len, "/proc/diskstats: a line with more fields than a known layout "
			 "(14, 18, 20) read with the largest it contains, the rest ignored");
		return true;
	}
	return false;
}

int source_trace(struct source *src, bool on, struct error *err)
{
	if (!src->ops->trace)
		return on ? error_set(err, "tracing: only a live source can trace") : 0;
	return src->ops->trace(src, on, err);
}
