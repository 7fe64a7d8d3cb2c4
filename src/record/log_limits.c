/* log_limits.c - how far a compressed session log may expand (src/record/log_limits.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_limits.h"

static const char units[] = "KMGT";

int log_size_parse(const char *text, uint64_t *bytes)
{
	if (!isdigit((unsigned char)text[0]))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || v == 0)
		return -1;
	unsigned shift = 0;
	const char *unit = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
	if (unit) {
		shift = 10 * (unsigned)(unit - units + 1);
		end++;
		if (strcmp(end, "iB") == 0)
			end += 2;
	}
	if (*end || v > UINT64_MAX >> shift)
		return -1;
	*bytes = (uint64_t)v << shift;
	return 0;
}

void log_size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	if (bytes < 1024) {
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
		return;
	}
	double v = (double)bytes / 1024;
	size_t u = 0;
	while (v >= 1024 && u + 1 < sizeof names / sizeof names[0]) {
		v /= 1024;
		u++;
	}
	/* a whole number when it is one: the limits people set are */
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, names[u]);
	else
		snprintf(buf, len, "%.1f %s", v, names[u]);
}

static int ratio_parse(const char *text, uint64_t *ratio)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (!isdigit((unsigned char)text[0]) || errno || *end || v == 0)
		return -1;
	*ratio = v;
	return 0;
}

int log_limits_from_env(struct log_limits *lim, struct error *err)
{
	lim->max_bytes = LOG_LIMIT_BYTES_DEFAULT;
	lim->max_ratio = LOG_LIMIT_RATIO_DEFAULT;
	const char *bytes = secure_getenv(LOG_LIMIT_BYTES_ENV);
	const char *ratio = secure_getenv(LOG_LIMIT_RATIO_ENV);
	if (bytes && log_size_parse(bytes, &lim->max_bytes) < 0)
		return error_set(err, "%s=%s: give a size in bytes, or with K, M, G or T "
				 "(e.g. 64G)", LOG_LIMIT_BYTES_ENV, bytes);
	if (ratio && ratio_parse(ratio, &lim->max_ratio) < 0)
		return error_set(err, "%s=%s: give a whole number from 1 (e.g. 5000)",
				 LOG_LIMIT_RATIO_ENV, ratio);
	return 0;
}

uint64_t log_limits_cap(const struct log_limits *lim, uint64_t compressed_size)
{
	uint64_t by_ratio = lim->max_ratio && compressed_size > UINT64_MAX / lim->max_ratio
				    ? UINT64_MAX
				    : compressed_size * lim->max_ratio;
	return by_ratio < lim->max_bytes ? by_ratio : lim->max_bytes;
}
