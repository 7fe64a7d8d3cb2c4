/* compare_keys.c - what a phase is, for pairing (compare_keys.h).  The same untar on
 * ext4 on loop3 and on xfs on loop5 is started as `untar.sh /mnt/a` and `untar.sh
 * /mnt/b` and exits after 3.09 s and 4.23 s: the labels differ in exactly what the
 * comparison is about, so they are written without it. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compare_keys.h"
#include "report.h"

static bool path_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-' || c == '/';
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* How long the mount point at text[i] is (0: none there): a whole path, followed by
 * its end or a path of its own below it. */
static size_t mount_at(const char *text, size_t i, const char *mount)
{
	size_t n = strlen(mount);
	if (n < 2 || strncmp(text + i, mount, n) != 0 || (i > 0 && path_char(text[i - 1])))
		return 0;
	char next = text[i + n];
	return next == '/' || !path_char(next) ? n : 0;
}

/* How long the device name at text[i] is (0: none there): a whole word, or followed by
 * a partition's number (sdb1, loop3p1, nvme0n1p2). */
static size_t device_at(const char *text, size_t i, const char *dev)
{
	size_t n = strlen(dev);
	if (!n || strncmp(text + i, dev, n) != 0 || (i > 0 && name_char(text[i - 1])))
		return 0;
	const char *p = text + i + n;
	if (isdigit((unsigned char)dev[n - 1]) && *p == 'p' && isdigit((unsigned char)p[1]))
		p++;
	else if (isdigit((unsigned char)dev[n - 1]))
		return name_char(*p) ? 0 : n;
	while (isdigit((unsigned char)*p))
		p++;
	return name_char(*p) ? 0 : n;
}

void compare_tokens(const char *text, const struct compare_subject *subj, size_t nsubj,
		    char *buf, size_t len)
{
	size_t used = 0;
	if (!len)
		return;
	for (size_t i = 0; text[i] && used + 1 < len;) {
		size_t best = 0;
		const char *token = NULL;
		for (size_t k = 0; k < nsubj; k++) {
			size_t n = mount_at(text, i, subj[k].mount);
			if (n > best)
				best = n, token = subj[k].mount_token;
		}
		for (size_t k = 0; !best && k < nsubj; k++)
			if ((best = device_at(text, i, subj[k].device)))
				token = subj[k].device_token;
		if (!best) {
			buf[used++] = text[i++];
			continue;
		}
		int n = snprintf(buf + used, len - used, "%s", token);
		used = n < 0 || (size_t)n >= len - used ? len - 1 : used + (size_t)n;
		i += best;
	}
	buf[used] = '\0';
}

static bool is_run(const struct event *ev, const char *object)
{
	return ev->kind == EVENT_RUN && strcmp(ev->object, object) == 0;
}

void compare_mark_key(const struct event *ev, const struct compare_subject *subj, size_t nsubj,
		      char *buf, size_t len)
{
	char label[COMPARE_KEY_MAX];
	if (is_run(ev, "matrix")) {
		snprintf(buf, len, "%s", ev->key);
		return;
	}
	if (is_run(ev, "run") && strcmp(ev->key, "exit") == 0) {
		/* "0 (3.09 s)", "signal 9 (1.00 s)": the status, not the time it took */
		const char *paren = strstr(ev->new_value, " (");
		int keep = paren ? (int)(paren - ev->new_value) : (int)strlen(ev->new_value);
		snprintf(buf, len, "exit %.*s", keep, ev->new_value);
		return;
	}
	report_mark_label(ev, label, sizeof label);
	compare_tokens(label, subj, nsubj, buf, len);
}

bool compare_mark_is_moment(const struct event *ev)
{
	return ev->kind == EVENT_USER_MARK || ev->kind == EVENT_RUN;
}
