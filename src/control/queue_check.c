/* queue_check.c - what a disk's setting may be set to, checked before anything is
 * written: the table of keys `ioscope set` knows (control_keys[]), and each one's check.
 *
 * The ranges are the kernel's own (block/blk-sysfs.c, mm/backing-dev.c,
 * drivers/block/loop.c, this kernel): values the kernel would silently clamp or ignore
 * are refused here with the range, so the operator never believes a value was set that
 * was not.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "sysfs.h"

static const char *const mq_deadline_names[] = {
	"async_depth", "fifo_batch",   "front_merges",   "prio_aging_expire",
	"read_expire", "write_expire", "writes_starved", NULL,
};
static const char *const kyber_names[] = { "read_lat_nsec", "write_lat_nsec", NULL };
static const char *const bfq_names[] = {
	"back_seek_max",
	"back_seek_penalty",
	"fifo_expire_async",
	"fifo_expire_sync",
	"low_latency",
	"max_budget",
	"slice_idle",
	"slice_idle_us",
	"strict_guarantees",
	"timeout_sync",
	NULL,
};

const char *const *control_iosched_names(const char *scheduler)
{
	if (strcmp(scheduler, "mq-deadline") == 0)
		return mq_deadline_names;
	if (strcmp(scheduler, "kyber") == 0)
		return kyber_names;
	if (strcmp(scheduler, "bfq") == 0)
		return bfq_names;
	return NULL;
}

static bool iosched_name_valid(const char *name)
{
	if (!*name || strlen(name) >= SETTING_KEY_MAX - 8)
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
			return false;
	return true;
}

int control_assignment_split(const char *arg, char *key, size_t klen, char *value, size_t vlen,
			     struct error *err)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return error_set(err, "'%s': expected KEY=VALUE", arg);
	size_t n = (size_t)(eq - arg);
	if (n >= klen)
		return error_set(err, "'%.40s...': key too long", arg);
	memcpy(key, arg, n);
	key[n] = '\0';
	const struct control_key *k = control_key_find(key);
	if (strncmp(key, "iosched.", 8) == 0) {
		if (!iosched_name_valid(key + 8))
			return error_set(err, "'%s': iosched tunable names are [a-z0-9_]", key);
	} else if (!k) {
		char keys[1024];
		control_keys_list(keys, sizeof keys);
		return error_set(err, "unknown key '%s'; keys: %s", key, keys);
	} else if (k->write == CONTROL_READ_ONLY) {
		return error_set(err, "%s is watched, not set by ioscope: %s", key, k->why);
	}
	if (!eq[1])
		return error_set(err, "%s: empty value", key);
	if (strlen(eq + 1) >= vlen)
		return error_set(err, "%s: value too long", key);
	snprintf(value, vlen, "%s", eq + 1);
	return 0;
}

/* A plain unsigned decimal: no sign, no spaces, no hex, no trailing junk. */
static int parse_unsigned(const char *s, uint64_t *out)
{
	if (!*s || strlen(s) > 20)
		return -1;
	for (const char *c = s; *c; c++)
		if (*c < '0' || *c > '9')
			return -1;
	errno = 0;
	unsigned long long v = strtoull(s, NULL, 10);
	if (errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

static int check_range(const char *key, const char *value, uint64_t lo, uint64_t hi,
		       const char *why, char *out, size_t outlen, struct error *err)
{
	uint64_t v;
	if (parse_unsigned(value, &v) < 0)
		return error_set(err,
				 "%s=%s: not a whole number; allowed: %" PRIu64 "..%" PRIu64 "%s",
				 key, value, lo, hi, why);
	if (v < lo || v > hi)
		return error_set(err, "%s=%s: out of range; allowed: %" PRIu64 "..%" PRIu64 "%s",
				 key, value, lo, hi, why);
	snprintf(out, outlen, "%" PRIu64, v);
	return 0;
}

/* The kernel multiplies by 1000 into a 64-bit count of nanoseconds (blk-sysfs.c
 * queue_wb_lat_store): larger values wrap. */
#define WBT_LAT_USEC_MAX (INT64_MAX / 1000)

static int check_wbt(const struct control_limits *lim, const char *key, const char *value,
		     char *out, size_t outlen, struct error *err)
{
	if (strcmp(value, "-1") == 0) {   /* back to the kernel's default for the queue */
		snprintf(out, outlen, "-1");
		return 0;
	}
	return check_range(key, value, 0, WBT_LAT_USEC_MAX, " (0 = off, -1 = the default)", out,
			   outlen, err);
}

/* A whole number in [lo, hi] with what it means, for the small enumerations (nomerges,
 * rq_affinity) and the flags: the kernel takes any number there and quietly maps the
 * rest (nomerges=3 is 1, rq_affinity=3 changes nothing, add_random=2 is 1). */
static int check_small(const char *key, const char *value, uint64_t hi, const char *why,
		       char *out, size_t outlen, struct error *err)
{
	return check_range(key, value, 0, hi, why, out, outlen, err);
}

static int check_nomerges(const struct control_limits *lim, const char *key, const char *value,
			  char *out, size_t outlen, struct error *err)
{
	return check_small(key, value, 2, " (0 = merge, 1 = simple merges only, 2 = none)", out,
			   outlen, err);
}

static int check_rq_affinity(const struct control_limits *lim, const char *key,
			     const char *value, char *out, size_t outlen, struct error *err)
{
	return check_small(key, value, 2,
			   " (0 = any CPU completes, 1 = the submitter's group, 2 = the submitter)",
			   out, outlen, err);
}

static int check_flag(const struct control_limits *lim, const char *key, const char *value,
		      char *out, size_t outlen, struct error *err)
{
	return check_small(key, value, 1, " (0 = off, 1 = on)", out, outlen, err);
}

static int check_ratio(const struct control_limits *lim, const char *key, const char *value,
		       char *out, size_t outlen, struct error *err)
{
	return check_range(key, value, 0, 100, " percent of the dirty limit", out, outlen, err);
}

static int check_ratio_fine(const struct control_limits *lim, const char *key,
			    const char *value, char *out, size_t outlen, struct error *err)
{
	return check_range(key, value, 0, CONTROL_BDI_RATIO_FINE_MAX,
			   " millionths of the dirty limit", out, outlen, err);
}

static int check_bytes(const struct control_limits *lim, const char *key, const char *value,
		       char *out, size_t outlen, struct error *err)
{
	return check_range(key, value, 0, UINT64_MAX,
			   " bytes (the kernel refuses more than the dirty limit)", out, outlen,
			   err);
}

static int check_loop_dio(const struct control_limits *lim, const char *key, const char *value,
			  char *out, size_t outlen, struct error *err)
{
	if (strcmp(value, "on") == 0 || strcmp(value, "1") == 0)
		snprintf(out, outlen, "1");
	else if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0)
		snprintf(out, outlen, "0");
	else
		return error_set(err, "%s=%s: allowed: 1 or on, 0 or off", key, value);
	return 0;
}

static int check_scheduler(const struct control_limits *lim, const char *value, char *out,
			   size_t outlen, struct error *err)
{
	char list[CONTROL_SCHED_MAX * CONTROL_SCHED_NAME] = "";
	for (size_t i = 0; i < lim->nschedulers; i++) {
		if (strcmp(lim->schedulers[i], value) == 0) {
			snprintf(out, outlen, "%s", value);
			return 0;
		}
		strcat(list, i ? ", " : "");
		strcat(list, lim->schedulers[i]);
	}
	return error_set(err, "scheduler=%s: not offered by this queue; choose one of: %s", value,
			 list[0] ? list : "(none listed)");
}

static int check_nr_requests(const struct control_limits *lim, const char *value, char *out,
			     size_t outlen, struct error *err)
{
	bool elevator = strcmp(lim->target_scheduler, "none") != 0;
	char why[96];
	uint64_t hi;
	if (elevator) {
		hi = CONTROL_NR_REQUESTS_SCHED_MAX;
		snprintf(why, sizeof why, " with scheduler %s", lim->target_scheduler);
	} else if (lim->queue_depth > 0) {
		hi = (uint64_t)lim->queue_depth;
		snprintf(why, sizeof why, " with scheduler none (the queue depth)");
	} else {
		hi = UINT_MAX;
		snprintf(why, sizeof why, " (queue depth unknown)");
	}
	return check_range("nr_requests", value, CONTROL_NR_REQUESTS_MIN, hi, why, out, outlen,
			   err);
}

static int check_max_sectors(const struct control_limits *lim, const char *value, char *out,
			     size_t outlen, struct error *err)
{
	if (strcmp(value, "0") == 0) { /* the kernel takes 0 as "back to the default" */
		snprintf(out, outlen, "0");
		return 0;
	}
	uint64_t hi = lim->max_hw_sectors_kb > 0 ? (uint64_t)lim->max_hw_sectors_kb : UINT_MAX;
	const char *why = lim->max_hw_sectors_kb > 0
				  ? " (page size .. max_hw_sectors_kb; 0 = default)"
				  : " (0 = default)";
	return check_range("max_sectors_kb", value, (uint64_t)lim->page_kb, hi, why, out, outlen,
			   err);
}

static int check_write_cache(const char *value, char *out, size_t outlen, struct error *err)
{
	static const struct {
		const char *spelling, *kernel;
	} spellings[] = {
		{ "write back", "write back" },       { "write-back", "write back" },
		{ "writeback", "write back" },        { "back", "write back" },
		{ "write through", "write through" }, { "write-through", "write through" },
		{ "writethrough", "write through" },  { "through", "write through" },
	};
	for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++)
		if (strcmp(value, spellings[i].spelling) == 0) {
			snprintf(out, outlen, "%s", spellings[i].kernel);
			return 0;
		}
	return error_set(err, "write_cache=%s: allowed: \"write back\" or \"write through\"",
			 value);
}

static bool name_in(const char *const *names, const char *name)
{
	for (size_t i = 0; names && names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

static int check_iosched(const struct control_limits *lim, const char *key, const char *value,
			 char *out, size_t outlen, struct error *err)
{
	/* mq-deadline parses int; bfq unsigned long; kyber u64. */
	uint64_t hi = strcmp(lim->target_scheduler, "mq-deadline") == 0 ? INT_MAX : UINT64_MAX;
	char why[64];
	snprintf(why, sizeof why, " for %s", lim->target_scheduler);
	return check_range(key, value, 0, hi, why, out, outlen, err);
}

static int check_scheduler_key(const struct control_limits *lim, const char *key,
			       const char *value, char *out, size_t outlen, struct error *err)
{
	return check_scheduler(lim, value, out, outlen, err);
}

static int check_nr_requests_key(const struct control_limits *lim, const char *key,
				 const char *value, char *out, size_t outlen, struct error *err)
{
	return check_nr_requests(lim, value, out, outlen, err);
}

static int check_read_ahead(const struct control_limits *lim, const char *key,
			    const char *value, char *out, size_t outlen, struct error *err)
{
	return check_range(key, value, 0, UINT_MAX, "", out, outlen, err);
}

static int check_max_sectors_key(const struct control_limits *lim, const char *key,
				 const char *value, char *out, size_t outlen, struct error *err)
{
	return check_max_sectors(lim, value, out, outlen, err);
}

static int check_write_cache_key(const struct control_limits *lim, const char *key,
				 const char *value, char *out, size_t outlen, struct error *err)
{
	return check_write_cache(value, out, outlen, err);
}

static int check_iosched_key(const struct control_limits *lim, const char *key,
			     const char *value, char *out, size_t outlen, struct error *err)
{
	if (strcmp(lim->target_scheduler, "none") == 0)
		return error_set(err, "%s: scheduler none has no iosched tunables", key);
	const char *const *names = control_iosched_names(lim->target_scheduler);
	if (names && !name_in(names, key + 8))
		return error_set(err, "%s: %s has no such tunable", key, lim->target_scheduler);
	return check_iosched(lim, key, value, out, outlen, err);
}

/* Every key `set` knows, in the order `--help`, the docs and the console's tunables
 * editor list them (the ones most set first); "iosched." stands for each iosched.NAME.
 * The read-only ones are watched (docs/sources.md) and refused here with the reason. */
const struct control_key control_keys[] = {
	{ "scheduler", "a name the queue lists in queue/scheduler", CONTROL_WRITE_SYSFS,
	  check_scheduler_key, NULL },
	{ "max_sectors_kb", "0 for the default, or page size..max_hw_sectors_kb",
	  CONTROL_WRITE_SYSFS, check_max_sectors_key, NULL },
	{ "nr_requests", "4..2048 with a scheduler, 4..the queue depth with none",
	  CONTROL_WRITE_SYSFS, check_nr_requests_key, NULL },
	{ "read_ahead_kb", "0..4294967295, rounded to pages", CONTROL_WRITE_SYSFS,
	  check_read_ahead, NULL },
	{ "write_cache", "\"write back\" or \"write through\"", CONTROL_WRITE_SYSFS,
	  check_write_cache_key, NULL },
	{ "wbt_lat_usec", "0 off, -1 the default, 1..9223372036854775 us",
	  CONTROL_WRITE_SYSFS, check_wbt, NULL },
	{ "nomerges", "0 merge, 1 simple merges only, 2 none", CONTROL_WRITE_SYSFS,
	  check_nomerges, NULL },
	{ "rq_affinity", "0 any CPU completes, 1 the submitter's group, 2 the submitter",
	  CONTROL_WRITE_SYSFS, check_rq_affinity, NULL },
	{ "add_random", "0, 1: feed the entropy pool", CONTROL_WRITE_SYSFS, check_flag, NULL },
	{ "iostats", "0, 1: count I/O statistics", CONTROL_WRITE_SYSFS, check_flag, NULL },
	{ "iosched.", "a whole number, for a file of queue/iosched/", CONTROL_WRITE_SYSFS,
	  check_iosched_key, NULL },
	{ "bdi.strict_limit", "0, 1: its own limit binds even when the system is under its limits",
	  CONTROL_WRITE_SYSFS, check_flag, NULL },
	{ "bdi.max_ratio", "0..100 % of the dirty limit, not below the minimum",
	  CONTROL_WRITE_SYSFS, check_ratio, NULL },
	{ "bdi.max_ratio_fine", "0..1000000 millionths of the dirty limit, not below the minimum",
	  CONTROL_WRITE_SYSFS, check_ratio_fine, NULL },
	{ "bdi.max_bytes", "bytes up to the dirty limit, kept as the ratio they are now",
	  CONTROL_WRITE_SYSFS, check_bytes, NULL },
	{ "bdi.min_ratio", "0..100, not above the maximum, all devices' together under 100",
	  CONTROL_WRITE_SYSFS, check_ratio, NULL },
	{ "bdi.min_ratio_fine",
	  "0..1000000, not above the maximum, all devices' together under 1000000",
	  CONTROL_WRITE_SYSFS, check_ratio_fine, NULL },
	{ "bdi.min_bytes", "bytes up to the dirty limit, kept as the ratio they are now",
	  CONTROL_WRITE_SYSFS, check_bytes, NULL },
	{ "loop.dio", "1 or on, 0 or off", CONTROL_WRITE_LOOP_DIO,
	  check_loop_dio, NULL },
	{ "io_poll", "-", CONTROL_READ_ONLY, NULL,
	  "the driver chooses polling (nvme poll_queues); the kernel ignores writes" },
	{ "io_poll_delay", "-", CONTROL_READ_ONLY, NULL,
	  "the kernel ignores writes to it" },
	{ "loop.backing_file", "-", CONTROL_READ_ONLY, NULL,
	  "losetup attaches another file" },
	{ "loop.ro", "-", CONTROL_READ_ONLY, NULL,
	  "chosen when the file is attached, losetup --read-only" },
	{ "loop.sectors", "-", CONTROL_READ_ONLY, NULL,
	  "the file's size, read again by losetup --set-capacity" },
	{ NULL, NULL, CONTROL_READ_ONLY, NULL, NULL },
};

bool control_key_rel(const char *key, char *rel, size_t len)
{
	if (strcmp(key, "scheduler") != 0)
		return sysfs_setting_rel(key, rel, len);
	snprintf(rel, len, "queue/scheduler");
	return true;
}

const struct control_key *control_key_find(const char *key)
{
	bool iosched = strncmp(key, "iosched.", 8) == 0;
	for (const struct control_key *k = control_keys; k->key; k++)
		if (iosched ? strcmp(k->key, "iosched.") == 0 : strcmp(k->key, key) == 0)
			return k;
	return NULL;
}

void control_keys_list(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (const struct control_key *k = control_keys; k->key && used + 1 < len; k++) {
		if (k->write == CONTROL_READ_ONLY)
			continue;
		int n = snprintf(buf + used, len - used, "%s%s%s", used ? ", " : "", k->key,
				 strcmp(k->key, "iosched.") == 0 ? "NAME" : "");
		used += n > 0 ? (size_t)n : 0;
	}
}

int control_value_check(const struct control_limits *lim, const char *key, const char *value,
			char *out, size_t outlen, struct error *err)
{
	const struct control_key *k = control_key_find(key);
	if (!k)
		return error_set(err, "unknown key '%s'", key);
	if (!k->check)
		return error_set(err, "%s is watched, not set by ioscope: %s", key, k->why);
	return k->check(lim, key, value, out, outlen, err);
}

size_t control_scheduler_names(const char *line, char names[][CONTROL_SCHED_NAME], size_t max,
			       int *current)
{
	size_t n = 0;
	*current = -1;
	const char *p = line;
	while (*p && n < max) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		bool bracket = *p == '[';
		p += bracket;
		size_t len = strcspn(p, bracket ? "]" : " ");
		if (len == 0 || len >= CONTROL_SCHED_NAME) {
			p += len + (p[len] != '\0');
			continue;
		}
		memcpy(names[n], p, len);
		names[n][len] = '\0';
		if (bracket)
			*current = (int)n;
		n++;
		p += len;
		if (bracket && *p == ']')
			p++;
	}
	return n;
}
