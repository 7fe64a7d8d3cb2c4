/* mountopts.c - remount option lists: what each token means and whether it took effect.
 *
 * Per-mount flags (nosuid, nodev, noexec, atime modes, ...) go to mount_setattr,
 * everything else to the filesystem through fsconfig; only what is named changes.
 * After the call, mountinfo is the only witness of what the kernel did, so each
 * option gets a verdict from the before and after option strings.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "control.h"

struct mount_flag {
	const char *name;
	unsigned set, clr;
};

/* Named the way mountinfo prints them.  "atime" and the atime modes replace each
 * other, so each clears the whole MOUNT_ATTR__ATIME field. */
static const struct mount_flag mount_flags[] = {
	{ "nosuid", MOUNT_ATTR_NOSUID, 0 },
	{ "suid", 0, MOUNT_ATTR_NOSUID },
	{ "nodev", MOUNT_ATTR_NODEV, 0 },
	{ "dev", 0, MOUNT_ATTR_NODEV },
	{ "noexec", MOUNT_ATTR_NOEXEC, 0 },
	{ "exec", 0, MOUNT_ATTR_NOEXEC },
	{ "nosymfollow", MOUNT_ATTR_NOSYMFOLLOW, 0 },
	{ "symfollow", 0, MOUNT_ATTR_NOSYMFOLLOW },
	{ "nodiratime", MOUNT_ATTR_NODIRATIME, 0 },
	{ "diratime", 0, MOUNT_ATTR_NODIRATIME },
	{ "noatime", MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME },
	{ "relatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME },
	{ "strictatime", MOUNT_ATTR_STRICTATIME, MOUNT_ATTR__ATIME },
	{ "atime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME },
};

/* "-X": the flag that undoes X. */
static const struct {
	const char *opt, *undo;
} undo_table[] = {
	{ "nosuid", "suid" },
	{ "suid", "nosuid" },
	{ "nodev", "dev" },
	{ "dev", "nodev" },
	{ "noexec", "exec" },
	{ "exec", "noexec" },
	{ "nosymfollow", "symfollow" },
	{ "symfollow", "nosymfollow" },
	{ "nodiratime", "diratime" },
	{ "diratime", "nodiratime" },
	{ "noatime", "relatime" },
	{ "strictatime", "relatime" },
	{ "ro", "rw" },
	{ "rw", "ro" },
	{ "sync", "async" },
	{ "async", "sync" },
	{ "lazytime", "nolazytime" },
	{ "nolazytime", "lazytime" },
	{ "mand", "nomand" },
	{ "nomand", "mand" },
};

/* Options mount(8) or fstab handle in user space, and the ones that would change
 * what is mounted rather than how. */
static const char *const refused_keys[] = {
	"source",  "remount", "bind",     "rbind",  "move",   "defaults", "loop",   "user",
	"users",   "nouser",  "owner",    "group",  "auto",   "noauto",   "nofail", "_netdev",
	"comment", "subvol",  "subvolid", "device", "fsname", NULL,
};

static const struct mount_flag *mount_flag_find(const char *name)
{
	for (size_t i = 0; i < sizeof mount_flags / sizeof mount_flags[0]; i++)
		if (strcmp(mount_flags[i].name, name) == 0)
			return &mount_flags[i];
	return NULL;
}

static const char *undo_of(const char *opt)
{
	for (size_t i = 0; i < sizeof undo_table / sizeof undo_table[0]; i++)
		if (strcmp(undo_table[i].opt, opt) == 0)
			return undo_table[i].undo;
	return NULL;
}

bool control_opts_find(const char *list, const char *key, char *value, size_t len)
{
	size_t klen = strlen(key);
	const char *p = list;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		if (n >= klen && strncmp(p, key, klen) == 0 && (n == klen || p[klen] == '=')) {
			if (value && len) {
				size_t vlen = n == klen ? 0 : n - klen - 1;
				if (vlen >= len)
					vlen = len - 1;
				memcpy(value, p + klen + (n != klen), vlen);
				value[vlen] = '\0';
			}
			return true;
		}
		p += n;
		p += *p == ',';
	}
	return false;
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

static bool value_char(char c)
{
	return c > ' ' && c < 127 && c != ',' && c != '"' && c != '\'' && c != '\\';
}

static int check_key(const char *tok, const char *key, struct error *err)
{
	if (!*key || !key_char(key[0]) || key[0] == '-' || key[0] == '.')
		return error_set(err, "'%s': not an option name", tok);
	for (const char *c = key; *c; c++)
		if (!key_char(*c))
			return error_set(
				err, "'%s': option names are letters, digits, '_', '-', '.'", tok);
	for (size_t i = 0; refused_keys[i]; i++)
		if (strcmp(key, refused_keys[i]) == 0)
			return error_set(err, "'%s': cannot be changed by a remount", tok);
	if (strncmp(key, "x-", 2) == 0)
		return error_set(err, "'%s': x-* options are for mount(8), not the kernel", tok);
	return 0;
}

static int classify(struct control_mount_opt *o, const char *tok, char sign, const char *super_opts,
		    struct error *err)
{
	if (sign == '-') {
		if (o->has_value)
			return error_set(err, "'%s': -OPTION takes no value", tok);
		if (strcmp(o->key, "relatime") == 0 || strcmp(o->key, "atime") == 0)
			return error_set(err,
					 "'%s': name the atime mode you want: noatime, relatime or "
					 "strictatime",
					 tok);
		const char *undo = undo_of(o->key);
		char current[256];
		if (!undo && control_opts_find(super_opts, o->key, current, sizeof current) &&
		    current[0])
			return error_set(err, "'%s': %s has a value (%s=%s); give %s=VALUE", tok,
					 o->key, o->key, current, o->key);
		char negated[sizeof o->key];
		if (undo)
			snprintf(negated, sizeof negated, "%s", undo);
		else if (strncmp(o->key, "no", 2) == 0)
			snprintf(negated, sizeof negated, "%s", o->key + 2);
		else
			snprintf(negated, sizeof negated, "no%.60s", o->key);
		snprintf(o->key, sizeof o->key, "%s", negated);
	}
	if (strcmp(o->key, "ro") == 0 || strcmp(o->key, "rw") == 0) {
		if (o->has_value)
			return error_set(err, "'%s': takes no value", tok);
		o->scope = CONTROL_OPT_BOTH;
		o->attr_set = o->key[1] == 'o' ? MOUNT_ATTR_RDONLY : 0;
		o->attr_clr = o->key[1] == 'o' ? 0 : MOUNT_ATTR_RDONLY;
		return 0;
	}
	const struct mount_flag *f = mount_flag_find(o->key);
	if (f) {
		if (o->has_value)
			return error_set(err, "'%s': takes no value", tok);
		o->scope = CONTROL_OPT_MOUNT;
		o->attr_set = f->set;
		o->attr_clr = f->clr;
		return 0;
	}
	o->scope = CONTROL_OPT_SUPER;
	return 0;
}

static int parse_token(struct control_mount_opt *o, const char *tok, const char *super_opts,
		       struct error *err)
{
	memset(o, 0, sizeof *o);
	if (strlen(tok) >= sizeof o->text)
		return error_set(err, "'%.40s...': option too long", tok);
	snprintf(o->text, sizeof o->text, "%s", tok);
	char sign = (tok[0] == '+' || tok[0] == '-') ? tok[0] : 0;
	const char *body = tok + (sign != 0);
	const char *eq = strchr(body, '=');
	size_t klen = eq ? (size_t)(eq - body) : strlen(body);
	if (klen >= sizeof o->key)
		return error_set(err, "'%s': option name too long", tok);
	memcpy(o->key, body, klen);
	o->key[klen] = '\0';
	if (check_key(tok, o->key, err) < 0)
		return -1;
	if (eq) {
		o->has_value = true;
		if (!eq[1])
			return error_set(err, "'%s': empty value", tok);
		if (strlen(eq + 1) >= sizeof o->value)
			return error_set(err, "'%s': value too long", tok);
		for (const char *c = eq + 1; *c; c++)
			if (!value_char(*c))
				return error_set(err,
						 "'%s': values cannot hold spaces, quotes or '\\'",
						 tok);
		snprintf(o->value, sizeof o->value, "%s", eq + 1);
	}
	return classify(o, tok, sign, super_opts, err);
}

static bool atime_family(const struct control_mount_opt *o)
{
	return o->scope == CONTROL_OPT_MOUNT && (o->attr_clr & MOUNT_ATTR__ATIME);
}

/* Two tokens about the same thing would leave the result to the order of calls. */
static int check_conflicts(const struct control_mount_opt *opts, size_t n, struct error *err)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++) {
			const struct control_mount_opt *a = &opts[j], *b = &opts[i];
			const char *undo = undo_of(a->key);
			bool same =
				strcmp(a->key, b->key) == 0 ||
				(undo && strcmp(undo, b->key) == 0) ||
				(atime_family(a) && atime_family(b)) ||
				(a->scope == CONTROL_OPT_MOUNT && b->scope == CONTROL_OPT_MOUNT &&
				 (a->attr_set | a->attr_clr) & (b->attr_set | b->attr_clr));
			if (!same && a->scope == CONTROL_OPT_SUPER &&
			    b->scope == CONTROL_OPT_SUPER) {
				const char *ak =
					strncmp(a->key, "no", 2) == 0 ? a->key + 2 : a->key;
				const char *bk =
					strncmp(b->key, "no", 2) == 0 ? b->key + 2 : b->key;
				same = strcmp(ak, bk) == 0;
			}
			if (same)
				return error_set(err,
						 "'%s' and '%s' contradict or repeat each other",
						 a->text, b->text);
		}
	return 0;
}

int control_mount_opts_parse(struct control_mount_opt *opts, size_t max, size_t *n,
			     const char *text, const char *super_opts, struct error *err)
{
	*n = 0;
	const char *p = text;
	char tok[sizeof opts[0].text + 1];
	while (*p) {
		size_t len = strcspn(p, ",");
		if (len == 0) {
			p++;
			continue;
		}
		if (len >= sizeof tok)
			return error_set(err, "'%.40s...': option too long", p);
		memcpy(tok, p, len);
		tok[len] = '\0';
		p += len;
		if (*n == max)
			return error_set(err, "too many options (at most %zu at once)", max);
		if (parse_token(&opts[*n], tok, super_opts ? super_opts : "", err) < 0)
			return -1;
		(*n)++;
	}
	if (*n == 0)
		return error_set(err, "no options given: e.g. noatime, +nodev, -noexec, commit=30");
	return check_conflicts(opts, *n, err);
}

/* ---- verdicts ---- */

static bool has(const char *list, const char *key)
{
	return control_opts_find(list, key, NULL, 0);
}

static enum control_verdict flag_verdict(bool now, bool before)
{
	if (!now)
		return CONTROL_NOT_APPLIED;
	return before ? CONTROL_ALREADY : CONTROL_APPLIED;
}

/* What mountinfo prints for the atime field: noatime, relatime, or nothing (strict). */
static const char *atime_word(unsigned attr)
{
	if ((attr & MOUNT_ATTR__ATIME) == MOUNT_ATTR_NOATIME)
		return "noatime";
	if ((attr & MOUNT_ATTR__ATIME) == MOUNT_ATTR_STRICTATIME)
		return "";
	return "relatime";
}

static bool atime_matches(const char *opts, unsigned attr)
{
	const char *w = atime_word(attr);
	if (*w)
		return has(opts, w);
	return !has(opts, "noatime") && !has(opts, "relatime");
}

static enum control_verdict mount_verdict(const struct control_mount_opt *o, const char *before,
					  const char *after)
{
	if (o->attr_clr & MOUNT_ATTR__ATIME)
		return flag_verdict(atime_matches(after, o->attr_set),
				    atime_matches(before, o->attr_set));
	const struct mount_flag *f = mount_flag_find(o->key);
	/* "suid" is shown as the absence of "nosuid" */
	bool negative = f && f->set == 0;
	const char *shown = negative ? undo_of(o->key) : o->key;
	bool now = has(after, shown) != negative, was = has(before, shown) != negative;
	return flag_verdict(now, was);
}

static bool first_is(const char *list, const char *word)
{
	size_t n = strlen(word);
	return strncmp(list, word, n) == 0 && (list[n] == ',' || list[n] == '\0');
}

/* xfs takes every option on remount but acts only on these; the rest are ignored
 * without a word (fs/xfs/xfs_super.c xfs_fs_reconfigure). */
static bool xfs_remountable(const char *key)
{
	static const char *const keys[] = { "inode32", "inode64", "ro", "rw", NULL };
	for (size_t i = 0; keys[i]; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

static enum control_verdict absent_verdict(const char *fstype, const char *key)
{
	if (strcmp(fstype, "xfs") == 0 && !xfs_remountable(key))
		return CONTROL_NOT_APPLIED;
	return CONTROL_HIDDEN;
}

static enum control_verdict value_verdict(const char *key, const char *value, const char *fstype,
					  const char *before, const char *after)
{
	char now[256], was[256];
	bool has_now = control_opts_find(after, key, now, sizeof now);
	bool has_was = control_opts_find(before, key, was, sizeof was);
	size_t vlen = strlen(value);
	/* btrfs shows compress=zstd as compress=zstd:3 */
	bool match = has_now && (strcmp(now, value) == 0 ||
				 (strncmp(now, value, vlen) == 0 && now[vlen] == ':'));
	if (match)
		return has_was && strcmp(was, now) == 0 ? CONTROL_ALREADY : CONTROL_APPLIED;
	if (has_now != has_was || (has_now && strcmp(now, was) != 0))
		return CONTROL_APPLIED; /* changed, shown otherwise (a default disappears) */
	if (!has_now)
		return absent_verdict(fstype, key);
	return CONTROL_NOT_APPLIED;
}

static enum control_verdict super_flag_verdict(const char *key, const char *fstype,
					       const char *before, const char *after)
{
	const char *undo = undo_of(key);
	char negation[80];
	if (undo)
		snprintf(negation, sizeof negation, "%s", undo);
	else if (strncmp(key, "no", 2) == 0)
		snprintf(negation, sizeof negation, "%s", key + 2);
	else
		snprintf(negation, sizeof negation, "no%s", key);
	if (has(after, key))
		return has(before, key) ? CONTROL_ALREADY : CONTROL_APPLIED;
	if (has(after, negation))
		return CONTROL_NOT_APPLIED;
	if (has(before, negation))
		return CONTROL_APPLIED; /* the negation is gone: the default, not shown */
	return absent_verdict(fstype, key);
}

enum control_verdict control_mount_opt_verdict(const struct control_mount_opt *o,
					       const char *fstype,
					       const struct control_mount *before,
					       const struct control_mount *after)
{
	switch (o->scope) {
	case CONTROL_OPT_MOUNT:
		return mount_verdict(o, before->mount_opts, after->mount_opts);
	case CONTROL_OPT_BOTH: {
		bool now =
			first_is(after->super_opts, o->key) && first_is(after->mount_opts, o->key);
		bool was = first_is(before->super_opts, o->key) &&
			   first_is(before->mount_opts, o->key);
		return flag_verdict(now, was);
	}
	case CONTROL_OPT_SUPER:
		break;
	}
	/* ext4 takes barrier=0 and shows nobarrier */
	if (strcmp(o->key, "barrier") == 0 && o->has_value &&
	    (strcmp(o->value, "0") == 0 || strcmp(o->value, "1") == 0))
		return super_flag_verdict(o->value[0] == '0' ? "nobarrier" : "barrier", fstype,
					  before->super_opts, after->super_opts);
	if (o->has_value)
		return value_verdict(o->key, o->value, fstype, before->super_opts,
				     after->super_opts);
	return super_flag_verdict(o->key, fstype, before->super_opts, after->super_opts);
}

const char *control_verdict_text(enum control_verdict v)
{
	switch (v) {
	case CONTROL_APPLIED:
		return "ok";
	case CONTROL_ALREADY:
		return "ok (already so)";
	case CONTROL_HIDDEN:
		return "ok (a default mountinfo does not show)";
	case CONTROL_NOT_APPLIED:
		return "accepted, not applied";
	}
	return "?";
}

/* ---- completion ---- */

static const char *const generic_names[] = {
	"ro",        "rw",   "noatime", "relatime", "strictatime", "nodiratime", "diratime",
	"nosuid",    "suid", "nodev",   "dev",      "noexec",      "exec",       "nosymfollow",
	"symfollow", "sync", "async",   "lazytime", "nolazytime",  "dirsync",    NULL,
};
static const char *const ext4_names[] = {
	"ro",
	"rw",
	"noatime",
	"relatime",
	"strictatime",
	"nodiratime",
	"nosuid",
	"nodev",
	"noexec",
	"lazytime",
	"nolazytime",
	"sync",
	"async",
	"commit=",
	"barrier",
	"nobarrier",
	"barrier=0",
	"barrier=1",
	"discard",
	"nodiscard",
	"errors=remount-ro",
	"errors=continue",
	"errors=panic",
	"data_err=abort",
	"data_err=ignore",
	"delalloc",
	"nodelalloc",
	"auto_da_alloc",
	"noauto_da_alloc",
	"max_batch_time=",
	"min_batch_time=",
	"journal_ioprio=",
	"init_itable",
	"noinit_itable",
	"block_validity",
	"noblock_validity",
	"dioread_nolock",
	"dioread_lock",
	"stripe=",
	"resuid=",
	"resgid=",
	"grpid",
	"nogrpid",
	"user_xattr",
	"acl",
	"noacl",
	"quota",
	"noquota",
	"usrquota",
	"grpquota",
	"prjquota",
	NULL,
};
static const char *const xfs_names[] = {
	"ro",     "rw",      "noatime", "relatime", "strictatime", "nodiratime",
	"nosuid", "nodev",   "noexec",  "lazytime", "nolazytime",  "sync",
	"async",  "inode32", "inode64", NULL,
};
static const char *const btrfs_names[] = {
	"ro",
	"rw",
	"noatime",
	"relatime",
	"strictatime",
	"nodiratime",
	"nosuid",
	"nodev",
	"noexec",
	"lazytime",
	"nolazytime",
	"sync",
	"async",
	"commit=",
	"compress=",
	"compress=zstd",
	"compress=lzo",
	"compress=zlib",
	"compress=no",
	"compress-force=",
	"autodefrag",
	"noautodefrag",
	"barrier",
	"nobarrier",
	"datacow",
	"nodatacow",
	"datasum",
	"nodatasum",
	"discard",
	"discard=async",
	"discard=sync",
	"nodiscard",
	"flushoncommit",
	"noflushoncommit",
	"space_cache=v2",
	"ssd",
	"nossd",
	"ssd_spread",
	"nossd_spread",
	"thread_pool=",
	"max_inline=",
	"fatal_errors=bug",
	"fatal_errors=panic",
	"skip_balance",
	NULL,
};

const char *const *control_mount_option_names(const char *fstype)
{
	if (!fstype)
		return generic_names;
	if (strcmp(fstype, "ext4") == 0 || strcmp(fstype, "ext3") == 0 ||
	    strcmp(fstype, "ext2") == 0)
		return ext4_names;
	if (strcmp(fstype, "xfs") == 0)
		return xfs_names;
	if (strcmp(fstype, "btrfs") == 0)
		return btrfs_names;
	return generic_names;
}

/* Complete the last token of text (after the last comma, past a leading + or -)
 * against names.  One match: the token becomes it.  Several: the token grows to
 * their longest common prefix and candidates lists them.  Returns the matches. */
size_t control_mount_opts_complete(char *text, size_t len, const char *const *names,
				   char *candidates, size_t clen)
{
	char *token = strrchr(text, ',');
	token = token ? token + 1 : text;
	token += *token == '+' || *token == '-';
	size_t tlen = strlen(token), matches = 0, common = 0;
	const char *first = NULL;
	if (clen)
		candidates[0] = '\0';
	for (size_t i = 0; names[i]; i++) {
		if (strncmp(names[i], token, tlen) != 0)
			continue;
		if (!first) {
			first = names[i];
			common = strlen(first);
		}
		while (common > tlen && strncmp(first, names[i], common) != 0)
			common--;
		size_t used = strlen(candidates);
		if (clen && used + 1 < clen)
			snprintf(candidates + used, clen - used, "%s%s", used ? " " : "", names[i]);
		matches++;
	}
	size_t room = len - (size_t)(token - text);
	if (first && common < room) {
		memcpy(token, first, common);
		token[common] = '\0';
	}
	return matches;
}
