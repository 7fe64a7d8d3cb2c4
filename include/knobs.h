/* knobs.h - the block-layer settings of a disk ioscope knows, one row a knob, as tmux's
 * options-table.c: the key, the file below /sys/block/NAME, how often the sampler reads
 * it, whether and how `ioscope set` writes it, what it accepts, its help, what the
 * kernel's EINVAL means for it, the value that asks for the default, and what a
 * scheduler switch does to it.  The sampler (src/sources/sysfs.c), `ioscope set` and
 * `show` (src/control), the console's tunables editor (src/ui), --help and the
 * events' resets (src/core/events.c) all read this one table (src/core/knobs.c):
 * adding a knob is one row there (docs/design.md).
 */
#ifndef IOSCOPE_KNOBS_H
#define IOSCOPE_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How often the sampler reads a knob's file (docs/sources.md, "Per disk, from sysfs"). */
enum knob_cadence {
	KNOB_CADENCE_SAMPLE,   /* every sample */
	KNOB_CADENCE_KNOB,     /* every sample of a fixture tree; live, on the knob cadence */
	KNOB_CADENCE_SHOWN,    /* never sampled, only shown by `ioscope show`: a figure derived
				  from another setting and the moving dirty limit, no setting */
};

/* How `ioscope set` changes it (docs/control.md). */
enum knob_write {
	KNOB_WRITE_FILE,       /* one write(2) to its file */
	KNOB_WRITE_LOOP_DIO,   /* LOOP_SET_DIRECT_IO on /dev/NAME */
	KNOB_READ_ONLY,        /* watched and shown, never written: `why` says why */
};

/* What a value may be; `ioscope set` checks it before anything is written
 * (src/control/queue_check.c).  The value `default_value`, when the row has one, is
 * accepted as it is, whatever the kind. */
enum knob_value {
	KNOB_NUMBER,           /* a whole number in [min, max]; `meaning` follows the range */
	KNOB_ELEVATOR,         /* a name the queue lists in queue/scheduler; read with the
				  queue's gauges, it decides which iosched files there are */
	KNOB_REQUESTS,         /* [min, max] with an elevator, [min, the queue depth] with none */
	KNOB_SECTORS_KB,       /* page size .. max_hw_sectors_kb */
	KNOB_CACHE_MODE,       /* "write back" or "write through", in any common spelling */
	KNOB_ON_OFF,           /* 1 or on, 0 or off */
	KNOB_IOSCHED,          /* the elevator's tunables: one row for every file of
				  queue/iosched/, a whole number the elevator parses */
	KNOB_NOT_SET,          /* read-only */
};

/* What a scheduler switch does to a knob: the kernel sets some anew, and the switch's
 * event carries their changes as its resets (docs/session-log.md). */
enum knob_switch {
	KNOB_SWITCH_KEEPS,     /* left as it was */
	KNOB_SWITCH_RESETS,    /* set anew by every switch */
	KNOB_SWITCH_ELEVATOR,  /* set anew by a switch to or from `elevator` (that
				  elevator's choice); a change in any switch's sample is
				  that switch's reset */
};

struct knob {
	const char *key;           /* settings item and `set` key: "wbt_lat_usec",
				      "bdi.max_ratio"; "iosched." stands for every iosched.NAME */
	const char *file;          /* below /sys/block/NAME: "queue/wbt_lat_usec", "size";
				      the iosched. row: the directory, "queue/iosched/" */
	enum knob_cadence cadence;
	const char *finer;         /* not read where this file exists: one kernel value */
	bool loop_only;            /* only for a loop device with a file (loop/ exists) */
	enum knob_write write;
	enum knob_value value;
	uint64_t min, max;         /* KNOB_NUMBER, KNOB_REQUESTS: the range */
	const char *meaning;       /* KNOB_NUMBER: after the range when a value is refused,
				      " (0 = off, 1 = on)" */
	const char *help;          /* what is accepted, for --help, show and the docs; "-"
				      when read-only */
	bool help_in_show;         /* `ioscope show` notes the help next to the value */
	const char *why;           /* KNOB_READ_ONLY: why ioscope does not set it */
	const char *einval;        /* what the kernel's EINVAL means here, "; allowed: ...",
				      or NULL: a write's refusal names it */
	const char *default_value; /* the value that asks the kernel for its default and
				      reads back as a number ("-1"), or NULL */
	bool read_back_near;       /* reads back near what was written, never exactly */
	enum knob_switch on_switch;
	const char *elevator;      /* KNOB_SWITCH_ELEVATOR: whose switches reset it */
	int write_order;           /* `set` writes the keys of one command by this, lowest
				      first (src/core/knobs.c says why) */
};

/* 100 % of the dirty limit in the bdi's fine ratios (mm/backing-dev.c BDI_RATIO_SCALE) */
#define KNOB_BDI_RATIO_FINE_MAX 1000000

extern const struct knob knob_table[];
extern const size_t knob_count;

/* The row of key (any iosched.NAME: the iosched. row), or NULL. */
const struct knob *knob_find(const char *key);
/* The file below /sys/block/NAME key is read from and written to ("queue/scheduler",
 * "bdi/max_ratio", "loop/dio", queue/iosched/NAME for iosched.NAME); false for a key
 * that has no row, or a path longer than len. */
bool knob_file(const char *key, char *rel, size_t len);

/* The tunables (the files of queue/iosched/) of the elevators Linux ships: to check an
 * iosched.NAME before the switch to its elevator has made the file, and to tell a
 * listing of queue/iosched/ that still holds the previous elevator's files.  An
 * elevator missing here is not checked this way; its tunables stay what the kernel
 * lists. */
struct knob_elevator {
	const char *name;
	const char *const tunables[11];   /* NULL-terminated */
};
extern const struct knob_elevator knob_elevators[];
extern const size_t knob_nelevators;
/* The tunables of elevator, NULL-terminated, or NULL for one not known here. */
const char *const *knob_iosched_names(const char *elevator);

#endif
