/* attribution.h - which device a blocked task waits for and which devices a process's
 * I/O goes to: one answer for the why pane, dips, --tasks and the exporter.
 *
 * Answered from what the tasks sub-sampler read (tasks.h: thread names, the device
 * numbers of the file a system call was given and of a process's open files) and the
 * snapshot's devices and mounts, so a replay answers as the live run did.  Kernel
 * threads that work for one device say which in their names (attribution_thread_names[]);
 * a user task by the file its system call's descriptor names.  A device leads to the
 * disks under it: a partition's disk, a loop device's backing file's disk, and so on
 * (docs/metrics.md, "Attribution").
 */
#ifndef IOSCOPE_ATTRIBUTION_H
#define IOSCOPE_ATTRIBUTION_H

#include <stdbool.h>
#include <stddef.h>

#include "selection.h"
#include "snapshot.h"
#include "tasks.h"

enum attribution_how {
	ATTR_NONE,              /* not attributed */
	ATTR_THREAD_NAME,       /* a kernel thread named after its device */
	ATTR_FILE,              /* a file, through its filesystem's device */
	ATTR_BLOCK_DEVICE,      /* a block device opened directly */
};

#define ATTRIBUTION_DEVICES_MAX 8
struct attribution {
	enum attribution_how how;
	size_t n;               /* 0: not attributed */
	/* the device named first (loop1, vda1), then the disks under it: a loop device's
	 * backing file's device, ...; a process's open files add theirs */
	char devices[ATTRIBUTION_DEVICES_MAX][DEV_NAME_MAX];
};

/* How kernel threads name the device they work for (the work of a kworker follows the
 * '+' of its name: kworker/u8:2+flush-7:0). */
enum thread_naming {
	NAMES_NUMBER,           /* MAJ:MIN of the device (a bdi): flush-7:0 */
	NAMES_DEVICE,           /* its kernel name: xfsaild/loop1, loop5 */
	NAMES_DEVICE_INODE,     /* its name and a journal inode: jbd2/loop0-8 */
	NAMES_DEVICE_AFTER_SLASH,  /* a work queue per filesystem: xfs-cil/loop1 */
};
struct thread_name_rule {
	const char *prefix;     /* what the thread's work starts with ("" any) */
	enum thread_naming how;
	const char *what;       /* for docs/metrics.md: "writeback" */
};
extern const struct thread_name_rule attribution_thread_names[];
extern const size_t attribution_thread_names_count;

/* A kernel thread by its name (kthread false: never, a process names itself). */
void attribution_of_thread(const struct snapshot *s, const char *comm, bool kthread,
			   struct attribution *out);
void attribution_of_blocked(const struct snapshot *s, const struct blocked_task *b,
			    struct attribution *out);
/* A listed process: a kernel thread by its name, else the devices of its open files. */
void attribution_of_io(const struct snapshot *s, const struct task_io *io,
		       struct attribution *out);
/* A device and the disks under it (name itself first; none when s does not have it). */
void attribution_of_device(const struct snapshot *s, const char *name, struct attribution *out);

/* Whether what a names is device or on it (one of its partitions). */
bool attribution_serves(const struct attribution *a, const struct snapshot *s,
			const char *device);
/* Whether what a names is covered by the selection (selection_covers_device). */
bool attribution_in(const struct attribution *a, const struct snapshot *s,
		    const struct selection *sel);
/* The device a task is named by ("fio on loop3"): of those a names, the first not under
 * another (a loop device's backing file's disk is under it: fio's files on vda and on
 * loop3, backed by a file on vda, make it loop3's); "" when none. */
const char *attribution_device(const struct attribution *a, const struct snapshot *s);

/* A sample's blocked tasks and listed processes, each the selection's, another device's
 * or nobody's: what the why pane and --tasks show first, and what they sum up in a line. */
enum attribution_side { SIDE_MINE, SIDE_ELSEWHERE, SIDE_UNATTRIBUTED, SIDE_COUNT };
struct tasks_split {
	size_t nblocked;
	bool *mine;                         /* per kept blocked task: the selection's */
	uint8_t *side;                      /* per kept blocked task: enum attribution_side */
	char (*device)[DEV_NAME_MAX];       /* per kept blocked task: the device named first */
	uint8_t io_side[TASKS_IO_TOP];
	char io_device[TASKS_IO_TOP][DEV_NAME_MAX];
	uint32_t blocked[SIDE_COUNT];       /* kept blocked tasks on each side */
	uint32_t processes[SIDE_COUNT];     /* listed processes on each side */
};
/* Split s->tasks by sel (none: every task is the selection's).  -1 on ENOMEM. */
int tasks_split_build(struct tasks_split *out, const struct snapshot *s,
		      const struct selection *sel);
void tasks_split_free(struct tasks_split *sp);
/* "elsewhere: 2 blocked (umount on loop3)", "not attributed: 1 blocked (sync)": the
 * blocked tasks of one side (ELSEWHERE or UNATTRIBUTED) in one line; "" when none. */
void tasks_split_blocked_text(const struct tasks_split *sp, const struct tasks_sample *t,
			      enum attribution_side side, char *buf, size_t len);
/* "elsewhere: 3 processes, 12 MB/s (dd on loop3, tar on vda)": the listed processes of
 * one side; "" when none. */
void tasks_split_io_text(const struct tasks_split *sp, const struct tasks_sample *t,
			 enum attribution_side side, char *buf, size_t len);

#endif
