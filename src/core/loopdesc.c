/* loopdesc.c - a loop device's backing chain in words, for reports and the console's
 * detail pane (the chain itself is read by src/sources/loopdev.c). */
#include <inttypes.h>
#include <stdio.h>

#include "loopdev.h"

static const struct mount *mount_of(const struct snapshot *s, unsigned major, unsigned minor)
{
	for (size_t i = 0; s && i < s->nmounts; i++)
		if (s->mounts[i].major == major && s->mounts[i].minor == minor)
			return &s->mounts[i];
	return NULL;
}

void loop_backing_describe(const struct device *d, const struct snapshot *s, char *buf,
			   size_t len)
{
	const struct loop_backing *l = &d->loop;
	buf[0] = '\0';
	if (!l->present)
		return;
	const struct mount *m = l->major || l->minor ? mount_of(s, l->major, l->minor) : NULL;
	const char *disk = l->disk[0] ? l->disk : m && m->disk[0] ? m->disk : "?";
	int n = snprintf(buf, len, "%s on %s", l->file, disk);
	if (m && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " (%s %s)", m->fstype, m->mountpoint);
	if (n >= 0 && (size_t)n < len && l->offset)
		n += snprintf(buf + n, len - (size_t)n, ", offset %" PRIu64, l->offset);
	if (n >= 0 && (size_t)n < len && l->sizelimit)
		n += snprintf(buf + n, len - (size_t)n, ", size limit %" PRIu64, l->sizelimit);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", direct I/O %s",
			 l->dio < 0 ? "?" : l->dio ? "on" : "off");
}
