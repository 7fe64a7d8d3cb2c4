/* output_json.c - one JSON object per interval (JSON Lines), built with json-c. */
#include <json-c/json.h>
#include <stdio.h>

#include "output.h"

/* Three decimals: finer than iostat's two, and no float noise in the output. */
static json_object *number(double v)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%.3f", v);
	return json_object_new_double_s(v, buf);
}

static json_object *device_object(const struct device_rates *r)
{
	json_object *o = json_object_new_object();
	for (size_t i = 0; i < device_metrics_count; i++) {
		const struct metric_def *m = &device_metrics[i];
		bool missing = !r->valid || (m->group == 'd' && !r->have_discard) ||
			       (m->group == 'f' && !r->have_flush);
		json_object_object_add(o, m->name, missing ? NULL : number(device_metric_value(r, m)));
	}
	json_object_object_add(o, "in_flight", json_object_new_uint64(r->in_flight));
	json_object_object_add(o, "scheduler", r->scheduler[0] ? json_object_new_string(r->scheduler) : NULL);
	return o;
}

static json_object *vm_object(const struct vm_rates *v)
{
	json_object *o = json_object_new_object();
	for (size_t i = 0; i < vm_metrics_count; i++) {
		double val = *(const double *)((const char *)v + vm_metrics[i].offset);
		json_object_object_add(o, vm_metrics[i].name, v->valid ? number(val) : NULL);
	}
	json_object_object_add(o, "dirty", number(v->dirty));
	json_object_object_add(o, "writeback", number(v->writeback));
	return o;
}

static json_object *psi_object(const struct vm_rates *v)
{
	if (!v->have_psi)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "some_avg10", number(v->psi_some_avg10));
	json_object_object_add(o, "full_avg10", number(v->psi_full_avg10));
	json_object_object_add(o, "some_us", v->valid ? number(v->psi_some_us) : NULL);
	json_object_object_add(o, "full_us", v->valid ? number(v->psi_full_us) : NULL);
	return o;
}

static json_object *time_value(const struct timespec *t)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%lld.%06ld", (long long)t->tv_sec, t->tv_nsec / 1000);
	return json_object_new_double_s(timespec_seconds(t), buf);
}

static json_object *event_object(const struct event *ev)
{
	char label[MOUNT_OPTS_MAX + 64];
	event_label(ev, label, sizeof label);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "time", time_value(&ev->wall));
	json_object_object_add(o, "kind", json_object_new_string(event_kind_name(ev->kind)));
	json_object_object_add(o, "object", json_object_new_string(ev->object));
	json_object_object_add(o, "key", json_object_new_string(ev->key));
	json_object_object_add(o, "old", json_object_new_string(ev->old_value));
	json_object_object_add(o, "new", json_object_new_string(ev->new_value));
	json_object_object_add(o, "label", json_object_new_string(label));
	json_object_object_add(o, "by", json_object_new_string(ev->by));
	if (ev->result[0])
		json_object_object_add(o, "result", json_object_new_string(ev->result));
	return o;
}

int output_json(FILE *out, const struct interval_view *v)
{
	json_object *root = json_object_new_object();
	if (!root)
		return -1;
	json_object_object_add(root, "time", time_value(&v->rates->wall));
	json_object_object_add(root, "interval", number(v->rates->interval));
	json_object *devs = json_object_new_object();
	for (size_t i = 0; i < v->rates->ndevices; i++)
		if (v->shown[i])
			json_object_object_add(devs, v->rates->devices[i].name, device_object(&v->rates->devices[i]));
	json_object_object_add(root, "devices", devs);
	json_object_object_add(root, "vm", vm_object(&v->rates->vm));
	json_object_object_add(root, "psi_io", psi_object(&v->rates->vm));
	json_object *events = json_object_new_array();
	for (size_t i = 0; v->events && i < v->events->count; i++)
		json_object_array_add(events, event_object(&v->events->items[i]));
	json_object_object_add(root, "events", events);
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), out);
	fputc('\n', out);
	json_object_put(root);
	return 0;
}
