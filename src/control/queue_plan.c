/* queue_plan.c - `set DEVICE KEY=VALUE...`: every argument checked, nothing written yet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "knobs.h"

static long read_long(const struct control_dev *d, const char *rel)
{
	char buf[64];
	if (control_dev_read(d, rel, buf, sizeof buf, NULL) < 0)
		return -1;
	char *end;
	long v = strtol(buf, &end, 10);
	return end == buf ? -1 : v;
}

static int read_limits(const struct control_dev *d, const char *root, struct control_limits *lim,
		       struct error *err)
{
	char line[SCHED_LINE_MAX];
	memset(lim, 0, sizeof *lim);
	if (control_dev_read(d, "queue/scheduler", line, sizeof line, err) < 0)
		return -1;
	int cur;
	lim->nschedulers = control_scheduler_names(line, lim->schedulers, CONTROL_SCHED_MAX, &cur);
	snprintf(lim->scheduler, sizeof lim->scheduler, "%s",
		 cur >= 0 ? lim->schedulers[cur] : "none");
	snprintf(lim->target_scheduler, sizeof lim->target_scheduler, "%s", lim->scheduler);
	/* Every hardware queue of a tag set has the same depth. */
	lim->queue_depth = read_long(d, "mq/0/nr_tags");
	lim->max_hw_sectors_kb = read_long(d, "queue/max_hw_sectors_kb");
	long page = sysconf(_SC_PAGESIZE);
	lim->page_kb = page > 0 ? page / 1024 : 4;
	control_bdi_limits_read(d, root, lim);
	return 0;
}

/* The order the kernel needs, so that no write undoes an earlier one: the knob table's
 * write_order (src/core/knobs.c says why each goes where).  control_apply_device reads
 * every key back after the last write all the same. */
static int write_rank(const char *key)
{
	const struct knob *k = knob_find(key);
	return k ? k->write_order : 0;
}

static void sort_items(struct control_plan *p)
{
	for (size_t i = 1; i < p->nitems; i++)
		for (size_t j = i;
		     j > 0 && write_rank(p->items[j].key) < write_rank(p->items[j - 1].key); j--) {
			struct control_assign t = p->items[j];
			p->items[j] = p->items[j - 1];
			p->items[j - 1] = t;
		}
}

static int split_all(struct control_plan *p, char *const *args, size_t n,
		     char values[][SETTING_VAL_MAX], struct error *err)
{
	char keys[1024];
	control_keys_list(keys, sizeof keys);
	if (n == 0)
		return error_set(err, "nothing to set: give KEY=VALUE (%s)", keys);
	if (n > CONTROL_MAX_ITEMS)
		return error_set(err, "too many settings (at most %d at once)", CONTROL_MAX_ITEMS);
	for (size_t i = 0; i < n; i++) {
		struct control_assign *a = &p->items[i];
		if (control_assignment_split(args[i], a->key, sizeof a->key, values[i],
					     SETTING_VAL_MAX, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(p->items[j].key, a->key) == 0)
				return error_set(err, "%s given twice", a->key);
	}
	p->nitems = n;
	return 0;
}

static const char *find_value(const struct control_plan *p, char values[][SETTING_VAL_MAX],
			      const char *key)
{
	for (size_t i = 0; i < p->nitems; i++)
		if (strcmp(p->items[i].key, key) == 0)
			return values[i];
	return NULL;
}

/* The file of a key other than scheduler and iosched.* must be there: a kernel or a
 * device without it (wbt_lat_usec before 4.10, bdi/max_ratio_fine before 6.2, loop.dio
 * of a disk that is no loop device) cannot take it. */
static int check_present(const struct control_dev *d, const struct control_assign *a,
			 const char *rel, struct error *err)
{
	if (control_dev_exists(d, rel))
		return 0;
	const struct knob *k = knob_find(a->key);
	if (k && k->loop_only)
		return error_set(err, "%s: %s is not a loop device with a file attached", a->key,
				 d->name);
	return error_set(err,
			 "%s: %s has no %s (not on this kernel or device; see `ioscope show %s`)",
			 a->key, d->name, rel, d->name);
}

/* One limit given once: bdi.max_ratio, max_ratio_fine and max_bytes set the same one. */
static int check_same_setting(const struct control_plan *p, size_t i, struct error *err)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(p->items[j].watch, p->items[i].watch) == 0)
			return error_set(err, "%s and %s set the same limit: give one of them",
					 p->items[j].key, p->items[i].key);
	return 0;
}

static int check_one(struct control_plan *p, size_t i, const struct control_dev *d,
		     const struct control_limits *lim, bool switching, struct error *err)
{
	struct control_assign *a = &p->items[i];
	char rel[SETTING_KEY_MAX + 16];
	knob_file(a->key, rel, sizeof rel);
	control_bdi_watch(lim, a->key, a->watch, sizeof a->watch);
	if (check_same_setting(p, i, err) < 0)
		return -1;
	bool iosched = strncmp(a->key, "iosched.", 8) == 0;
	if (iosched && switching && !knob_iosched_names(lim->target_scheduler))
		return error_set(err,
				 "%s: tunables of %s are not known before switching to it; "
				 "set the scheduler first, then %s in a second command",
				 a->key, lim->target_scheduler, a->key);
	if (iosched && !switching && !control_dev_exists(d, rel))
		return error_set(err, "%s: %s has no such tunable (see `ioscope show %s`)",
				 a->key, lim->scheduler, d->name);
	if (!iosched && check_present(d, a, rel, err) < 0)
		return -1;
	a->old[0] = '\0';
	if (!(iosched && switching) && control_dev_read(d, rel, a->old, sizeof a->old, err) < 0)
		return -1;
	if (strcmp(a->key, "scheduler") == 0)
		snprintf(a->old, sizeof a->old, "%s", lim->scheduler);
	return 0;
}

static int check_all(struct control_plan *p, const struct control_dev *d,
		     struct control_limits *lim, char values[][SETTING_VAL_MAX], struct error *err)
{
	/* The scheduler first: the other values are checked against the one they will meet. */
	const char *sched = find_value(p, values, "scheduler");
	char canon[SETTING_VAL_MAX];
	if (sched) {
		if (control_value_check(lim, "scheduler", sched, canon, sizeof canon, err) < 0)
			return -1;
		snprintf(lim->target_scheduler, sizeof lim->target_scheduler, "%s", canon);
	}
	bool switching = strcmp(lim->target_scheduler, lim->scheduler) != 0;
	for (size_t i = 0; i < p->nitems; i++) {
		struct control_assign *a = &p->items[i];
		if (control_value_check(lim, a->key, values[i], a->value, sizeof a->value,
					err) < 0 ||
		    check_one(p, i, d, lim, switching, err) < 0)
			return -1;
	}
	return 0;
}

int control_plan_device(struct control_plan *p, const char *root, const char *device,
			char *const *assignments, size_t n, struct error *err)
{
	memset(p, 0, sizeof *p);
	p->target = CONTROL_DEVICE;
	snprintf(p->root, sizeof p->root, "%s", root ? root : "");
	if (control_device_resolve(p->root, device, p->device, sizeof p->device, err) < 0)
		return -1;
	char(*values)[SETTING_VAL_MAX] = calloc(CONTROL_MAX_ITEMS, SETTING_VAL_MAX);
	if (!values)
		return error_set(err, "out of memory");
	struct control_dev d;
	struct control_limits lim;
	int r = -1;
	if (split_all(p, assignments, n, values, err) < 0)
		goto out;
	if (control_dev_open(&d, p->root, p->device, err) < 0)
		goto out;
	if (read_limits(&d, p->root, &lim, err) == 0 && check_all(p, &d, &lim, values, err) == 0 &&
	    control_bdi_check(p, &lim, err) == 0)
		r = 0;
	control_dev_close(&d);
	if (r == 0) {
		sort_items(p);
		control_bdi_order(p, &lim);
		control_risks_device(p);
	}
out:
	free(values);
	return r;
}
