/* privilege.c - saying what is missing before trying, instead of failing half-way. */
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "control.h"
#include "knobs.h"

static bool has_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	if (syscall(SYS_capget, &hdr, data) < 0)
		return geteuid() == 0;
	return (data[CAP_SYS_ADMIN / 32].effective >> (CAP_SYS_ADMIN % 32)) & 1;
}

static const char *file_of(const struct control_assign *a, bool switching, char *rel, size_t len)
{
	/* the tunables of a scheduler being switched to do not exist yet */
	if (strncmp(a->key, "iosched.", 8) == 0 && switching)
		knob_file("scheduler", rel, len);
	else
		knob_file(a->key, rel, len);
	return rel;
}

static int check_item(const struct control_dev *d, const struct control_plan *p,
		      const struct control_assign *a, bool switching, struct error *err)
{
	char rel[SETTING_KEY_MAX + 16];
	const struct knob *k = knob_find(a->key);
	if (k && k->write == KNOB_WRITE_LOOP_DIO) {
		if (has_cap_sys_admin())
			return 0;
		return error_set(err,
				 "changing loop.dio of %s needs CAP_SYS_ADMIN (LOOP_SET_DIRECT_IO "
				 "on /dev/%s): run ioscope as root (watching works without it)",
				 p->device, p->device);
	}
	file_of(a, switching, rel, sizeof rel);
	if (control_dev_writable(d, rel))
		return 0;
	return error_set(err,
			 "changing %s of %s needs root: %s/%s is not writable for uid %u "
			 "(watching works without it)",
			 a->key, p->device, d->path, rel, (unsigned)geteuid());
}

static int check_device(const struct control_plan *p, struct error *err)
{
	struct control_dev d;
	if (control_dev_open(&d, p->root, p->device, err) < 0)
		return -1;
	bool switching = false;
	for (size_t i = 0; i < p->nitems; i++)
		if (strcmp(p->items[i].key, "scheduler") == 0 &&
		    strcmp(p->items[i].value, p->items[i].old) != 0)
			switching = true;
	int r = 0;
	for (size_t i = 0; i < p->nitems && r == 0; i++)
		r = check_item(&d, p, &p->items[i], switching, err);
	control_dev_close(&d);
	return r;
}

int control_check_privilege(const struct control_plan *p, struct error *err)
{
	if (p->target == CONTROL_DEVICE)
		return check_device(p, err);
	if (has_cap_sys_admin())
		return 0;
	return error_set(err,
			 "remounting %s needs CAP_SYS_ADMIN: run ioscope as root "
			 "(watching works without it)",
			 p->mount.mountpoint);
}
