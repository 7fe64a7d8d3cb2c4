/* log_spool.c - where a compressed session log is decompressed to (src/record/log_spool.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "log_limits.h"
#include "log_spool.h"
#include "system_info.h"

#define RESERVE_MAX (1ull << 30)   /* room left to others: 5 % of a file system, at most this */

int log_spool_open(struct log_spool *s, const char *name, const char *codec, struct error *err)
{
	const char *env = secure_getenv("TMPDIR");
	const char *dir = env && env[0] ? env : "/tmp";
	s->in_memory = false;
	s->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	int e = errno;
	snprintf(s->where, sizeof s->where, "%s", dir);
	if (s->fd >= 0)
		return 0;
	if (e == ENOSPC || e == EDQUOT)   /* a full place is no reason to fill the memory */
		return error_set(err, "%s: %s: no room for the decompressed log in %s: %s: set "
				 "TMPDIR to a directory with room", name, codec, dir, strerror(e));
	snprintf(s->where, sizeof s->where, "memory (no temporary file in %s: %s)", dir,
		 strerror(e));
	s->in_memory = true;
	s->fd = memfd_create("ioscope-log", MFD_CLOEXEC);
	if (s->fd < 0)
		return error_set(err, "%s: a temporary file for the decompressed log: %s", name,
				 strerror(errno));
	return 0;
}

/* The memory available and the whole of it; -1 when /proc/meminfo cannot tell. */
static int memory_room(uint64_t *avail, uint64_t *total)
{
	struct system_memory m;
	if (system_memory_read(&m) < 0 || !m.have_available || !m.have_total || m.total_kb == 0)
		return -1;
	*avail = m.available_kb << 10;
	*total = m.total_kb << 10;
	return 0;
}

/* The free space where the log is and the part of it left to everyone else; -1 when that
 * cannot be told: the limits (log_limits.h) still bound the log. */
static int room_of(const struct log_spool *s, uint64_t *avail, uint64_t *reserve)
{
	uint64_t total;
	struct statvfs st;
	if (s->in_memory) {
		if (memory_room(avail, &total) < 0)
			return -1;
		*reserve = total / 4;   /* the memfd is not swapped out without swap */
		return 0;
	}
	if (fstatvfs(s->fd, &st) < 0 || st.f_blocks == 0)
		return -1;
	uint64_t unit = st.f_frsize ? st.f_frsize : st.f_bsize;
	*avail = (uint64_t)st.f_bavail * unit;
	total = (uint64_t)st.f_blocks * unit;
	*reserve = total / 20 < RESERVE_MAX ? total / 20 : RESERVE_MAX;
	return 0;
}

int log_spool_check_room(const struct log_spool *s, const char *codec, uint64_t written,
			 size_t len, struct error *err)
{
	uint64_t avail, reserve;
	if (room_of(s, &avail, &reserve) < 0 || avail >= reserve + len)
		return 0;
	char done[32], free_text[32], kept[32];
	log_size_format(written, done, sizeof done);
	log_size_format(avail, free_text, sizeof free_text);
	log_size_format(reserve, kept, sizeof kept);
	return error_set(err, "%s: no room for the decompressed log in %s after %s of it (%s free; "
			 "%s is kept free for others): set TMPDIR to a directory with room, or "
			 "decompress the log there yourself", codec, s->where, done, free_text,
			 kept);
}
