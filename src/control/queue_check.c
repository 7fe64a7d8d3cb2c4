/* queue_check.c - what a disk's setting may be set to, checked before anything is
 * written: the keys `ioscope set` knows are the rows of the knob table (knobs.h, whose
 * ranges are the kernel's own), and each kind of value has its check here.  A value the
 * kernel would silently clamp or ignore is refused with the range, so the operator
 * never believes a value was set that was not.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "knobs.h"

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
	const struct knob *k = knob_find(key);
	if (k && k->value == KNOB_IOSCHED) {
		if (!iosched_name_valid(key + 8))
			return error_set(err, "'%s': iosched tunable names are [a-z0-9_]", key);
	} else if (!k) {
		char keys[1024];
		control_keys_list(keys, sizeof keys);
		return error_set(err, "unknown key '%s'; keys: %s", key, keys);
	} else if (k->write == KNOB_READ_ONLY) {
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

static int check_on_off(const char *key, const char *value, char *out, size_t outlen,
			struct error *err)
{
	if (strcmp(value, "on") == 0 || strcmp(value, "1") == 0)
		snprintf(out, outlen, "1");
	else if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0)
		snprintf(out, outlen, "0");
	else
		return error_set(err, "%s=%s: allowed: 1 or on, 0 or off", key, value);
	return 0;
}

static int check_scheduler(const struct control_limits *lim, const char *key, const char *value,
			   char *out, size_t outlen, struct error *err)
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
	return error_set(err, "%s=%s: not offered by this queue; choose one of: %s", key, value,
			 list[0] ? list : "(none listed)");
}

static int check_nr_requests(const struct knob *k, const struct control_limits *lim,
			     const char *key, const char *value, char *out, size_t outlen,
			     struct error *err)
{
	bool elevator = strcmp(lim->target_scheduler, "none") != 0;
	char why[96];
	uint64_t hi;
	if (elevator) {
		hi = k->max;
		snprintf(why, sizeof why, " with scheduler %s", lim->target_scheduler);
	} else if (lim->queue_depth > 0) {
		hi = (uint64_t)lim->queue_depth;
		snprintf(why, sizeof why, " with scheduler none (the queue depth)");
	} else {
		hi = UINT_MAX;
		snprintf(why, sizeof why, " (queue depth unknown)");
	}
	return check_range(key, value, k->min, hi, why, out, outlen, err);
}

static int check_max_sectors(const struct control_limits *lim, const char *key,
			     const char *value, char *out, size_t outlen, struct error *err)
{
	uint64_t hi = lim->max_hw_sectors_kb > 0 ? (uint64_t)lim->max_hw_sectors_kb : UINT_MAX;
	const char *why = lim->max_hw_sectors_kb > 0
				  ? " (page size .. max_hw_sectors_kb; 0 = default)"
				  : " (0 = default)";
	return check_range(key, value, (uint64_t)lim->page_kb, hi, why, out, outlen, err);
}

static int check_write_cache(const char *key, const char *value, char *out, size_t outlen,
			     struct error *err)
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
	return error_set(err, "%s=%s: allowed: \"write back\" or \"write through\"", key,
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
	if (strcmp(lim->target_scheduler, "none") == 0)
		return error_set(err, "%s: scheduler none has no iosched tunables", key);
	const char *const *names = knob_iosched_names(lim->target_scheduler);
	if (names && !name_in(names, key + 8))
		return error_set(err, "%s: %s has no such tunable", key, lim->target_scheduler);
	/* mq-deadline parses int; bfq unsigned long; kyber u64. */
	uint64_t hi = strcmp(lim->target_scheduler, "mq-deadline") == 0 ? INT_MAX : UINT64_MAX;
	char why[64];
	snprintf(why, sizeof why, " for %s", lim->target_scheduler);
	return check_range(key, value, 0, hi, why, out, outlen, err);
}

void control_keys_list(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < knob_count && used + 1 < len; i++) {
		const struct knob *k = &knob_table[i];
		if (k->write == KNOB_READ_ONLY)
			continue;
		int n = snprintf(buf + used, len - used, "%s%s%s", used ? ", " : "", k->key,
				 k->value == KNOB_IOSCHED ? "NAME" : "");
		used += n > 0 ? (size_t)n : 0;
	}
}

int control_value_check(const struct control_limits *lim, const char *key, const char *value,
			char *out, size_t outlen, struct error *err)
{
	const struct knob *k = knob_find(key);
	if (!k)
		return error_set(err, "unknown key '%s'", key);
	if (k->write == KNOB_READ_ONLY)
		return error_set(err, "%s is watched, not set by ioscope: %s", key, k->why);
	if (k->default_value && strcmp(value, k->default_value) == 0) {
		snprintf(out, outlen, "%s", value);   /* back to the kernel's default */
		return 0;
	}
	switch (k->value) {
	case KNOB_NUMBER:
		return check_range(key, value, k->min, k->max, k->meaning ? k->meaning : "", out,
				   outlen, err);
	case KNOB_ELEVATOR:
		return check_scheduler(lim, key, value, out, outlen, err);
	case KNOB_REQUESTS:
		return check_nr_requests(k, lim, key, value, out, outlen, err);
	case KNOB_SECTORS_KB:
		return check_max_sectors(lim, key, value, out, outlen, err);
	case KNOB_CACHE_MODE:
		return check_write_cache(key, value, out, outlen, err);
	case KNOB_ON_OFF:
		return check_on_off(key, value, out, outlen, err);
	case KNOB_IOSCHED:
		return check_iosched(lim, key, value, out, outlen, err);
	case KNOB_NOT_SET:
		break;
	}
	return error_set(err, "%s: no check for its kind of value", key);
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
