/* partitions.h - which disks have a medium, from one read of /proc/partitions.
 *
 * The kernel lists a disk there only when its capacity is not 0 (nor hidden, nor a
 * removable disk that cannot be partitioned: block/genhd.c, show_partition).  A loop
 * device is neither hidden nor removable, so one it leaves out has no file attached:
 * one read tells it for every loop device, where each one's `size` cost an open and a
 * read every sample (40 unused loop devices made 280 of a one-shot's 650 system
 * calls: docs/performance.md).  Other disks are not judged by it: a removable disk
 * with a medium may be left out.  The live kernel's only; a fixture tree's loop
 * devices are read as before.
 */
#ifndef IOSCOPE_PARTITIONS_H
#define IOSCOPE_PARTITIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "procfile.h"
#include "snapshot.h"

struct partition_list {
	struct procfile file;
	char (*names)[DEV_NAME_MAX];   /* the names listed by the last read */
	size_t n, cap;
	bool fresh;                    /* names are this sample's (partition_list_stale) */
};

void partition_list_init(struct partition_list *p);
/* The live /proc/partitions; -1 with err when it cannot be opened (then never fresh). */
int partition_list_open(struct partition_list *p, struct error *err);
/* Read the file again and parse it; -1 with err (not fresh then). */
int partition_list_read(struct partition_list *p, struct error *err);
/* The names of text[0..len), /proc/partitions' format; -1 with err on ENOMEM. */
int partition_list_parse(struct partition_list *p, const char *text, size_t len,
			 struct error *err);
/* A new sample: what was read before tells nothing until read again. */
static inline void partition_list_stale(struct partition_list *p) { p->fresh = false; }
/* True when name is a whole loop device (loopN) that a fresh list leaves out: it has no
 * file.  False when the list is not fresh, or it cannot tell. */
bool partition_list_loop_empty(const struct partition_list *p, const char *name);
void partition_list_close(struct partition_list *p);

#endif
