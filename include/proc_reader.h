/* proc_reader.h - what core asks of the process table, read for it by src/sources.
 *
 * Core opens no /proc file (docs/design.md, "Layers and folders"): the watched command's
 * processes (descendants.h) and its I/O at exit (child.h) come through a proc_reader its
 * caller hands it, src/sources' procpid_reader (procpid.h), as the run watch's writeback
 * threshold comes through a function its caller hands it.
 */
#ifndef IOSCOPE_PROC_READER_H
#define IOSCOPE_PROC_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One line of the process table. */
struct proc_row {
	pid_t pid, ppid, pgid;
	bool zombie;                 /* exited, not yet reaped: holds nothing any more */
};

/* What a process read and wrote (/proc/PID/io). */
struct proc_io {
	uint64_t rchar, wchar, read_bytes, write_bytes, cancelled_write_bytes;
};

struct proc_reader {
	/* Every process's row, malloc'ed (*count of them); NULL when /proc cannot be read
	 * or memory is short. */
	struct proc_row *(*table)(size_t *count);
	/* Process pid's row; false when it is gone. */
	bool (*row)(pid_t pid, struct proc_row *out);
	/* Process pid's I/O (a zombie's too, until it is reaped); false when it cannot be
	 * read (another user's process, no task I/O accounting). */
	bool (*io)(pid_t pid, struct proc_io *out);
};

#endif
