/* compare_keys.h - what a phase is, for `ioscope compare` to pair it with the other
 * session's (docs/reports.md, "compare"): the labels of the marks that open it, less
 * what differs between two runs of the same thing (a run's elapsed time, a matrix
 * step's figures and parameters, the device under test and its mount point).
 */
#ifndef IOSCOPE_COMPARE_KEYS_H
#define IOSCOPE_COMPARE_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "events.h"
#include "snapshot.h"

#define COMPARE_KEY_MAX (MOUNT_OPTS_MAX + 256)   /* one mark's key */

/* A device under test of one session, each written as one token in the keys: loop3
 * and loop5, /mnt/a and /mnt/b become "<device>" and "<mount>" on both sides. */
struct compare_subject {
	char device[DEV_NAME_MAX];
	char mount[MOUNT_PATH_MAX];   /* its filesystem's mount point; "": none */
	char device_token[16], mount_token[16];
};

/* text with each subject's mount point (a whole path component: /mnt/a in /mnt/a/x,
 * not in /mnt/ab; never "/") and then its kernel name (a whole word, or followed by a
 * partition's number: loop3 in /dev/loop3 and loop3p1, not in loop30) as its tokens. */
void compare_tokens(const char *text, const struct compare_subject *subj, size_t nsubj,
		    char *buf, size_t len);

/* One mark's key: its label (report_mark_label) through compare_tokens, except a run's
 * exit ("exit 0", not "exit 0 (3.09 s)") and a matrix step (its step alone: "synced",
 * "cell", "mkfs"; the text after it is the cell's parameters or a figure). */
void compare_mark_key(const struct event *ev, const struct compare_subject *subj, size_t nsubj,
		      char *buf, size_t len);

/* A mark that is a moment (a user mark, a run's start or exit, a matrix step), not a
 * setting change: a phase opened by several such marks within one interval holds what
 * followed the last of them (the others had no interval of their own), and only that
 * one is part of its key. */
bool compare_mark_is_moment(const struct event *ev);

#endif
