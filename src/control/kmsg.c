/* kmsg.c - what the kernel log gained during a call.
 *
 * Filesystems report some refusals only there: ext4's "Cannot change data mode on
 * remount", btrfs's "failed to parse compression option".  /dev/kmsg is opened and
 * positioned at its end before the call and read up to the new end after it; the
 * messages about our device (or about the filesystem type with no device named)
 * are kept.  Other filesystems' messages that land in the same instant are left out.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "control.h"

void control_kmsg_begin(struct control_kmsg *k)
{
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd >= 0 && lseek(k->fd, 0, SEEK_END) < 0) {
		close(k->fd);
		k->fd = -1;
	}
}

static bool word_at(const char *msg, const char *at, size_t len)
{
	bool left = at == msg || !isalnum((unsigned char)at[-1]);
	return left && !isalnum((unsigned char)at[len]);
}

static bool names_device(const char *msg, const char *device)
{
	size_t len = strlen(device);
	for (const char *p = strstr(msg, device); p && len; p = strstr(p + 1, device))
		if (word_at(msg, p, len))
			return true;
	return false;
}

/* "EXT4-fs: ...", "BTRFS error: ...", "XFS: ...": about this fs type, no device named. */
static bool names_fstype_only(const char *msg, const char *fstype)
{
	size_t len = strlen(fstype);
	if (!len || strncasecmp(msg, fstype, len) != 0)
		return false;
	size_t head = strcspn(msg, ":");
	return memchr(msg, '(', head) == NULL;
}

void control_kmsg_end(struct control_kmsg *k, const char *device, const char *fstype,
		      struct control_result *r, char *msg, size_t len)
{
	char rec[4096];
	int best = 8;
	if (msg && len)
		msg[0] = '\0';
	while (k->fd >= 0) {
		ssize_t n = read(k->fd, rec, sizeof rec - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* a record was overwritten: go on with the next */
		if (n <= 0)
			break;
		rec[n] = '\0';
		int prio;
		char *text = strchr(rec, ';');
		if (!text || sscanf(rec, "%d,", &prio) != 1)
			continue;
		text++;
		text[strcspn(text, "\n")] = '\0';
		if (!names_device(text, device) && !names_fstype_only(text, fstype))
			continue;
		control_result_line(r, "kernel: %s", text);
		if (msg && (prio & 7) < best) {
			best = prio & 7;
			snprintf(msg, len, "%s", text);
		}
	}
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}
