/* source.c - what every source shares: waiting for the next sample. */
#include <errno.h>
#include <poll.h>

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
