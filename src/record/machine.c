/* machine.c - the recording machine's identity for a session log's header.
 *
 * Read once when a recording starts, so it is not part of a snapshot (which is
 * what every sample carries).  It describes the machine ioscope runs on, even
 * when the samples come from a --root fixture tree.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "machine.h"

/* "model name\t: Intel(R) Xeon(R) ..." -> the value, for the first of keys found. */
static void cpu_model(char *out, size_t len)
{
	static const char *const keys[] = { "model name", "Hardware", "cpu model", "cpu", "Processor" };
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];
	out[0] = '\0';
	if (!f)
		return;
	size_t best = sizeof keys / sizeof keys[0];
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		for (size_t k = 0; k < best; k++) {
			if (strncmp(line, keys[k], strlen(keys[k])) != 0 ||
			    strspn(line + strlen(keys[k]), " \t") != (size_t)(colon - line) - strlen(keys[k]))
				continue;
			snprintf(out, len, "%s", colon + 1 + strspn(colon + 1, " \t"));
			out[strcspn(out, "\n")] = '\0';
			best = k;
			break;
		}
	}
	fclose(f);
}

static unsigned long long mem_total_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

void machine_describe(struct replay_machine *m)
{
	struct utsname u;
	memset(m, 0, sizeof *m);
	m->version = SESSION_LOG_VERSION;
	snprintf(m->ioscope, sizeof m->ioscope, "%s", IOSCOPE_VERSION);
	if (uname(&u) == 0) {
		snprintf(m->host, sizeof m->host, "%s", u.nodename);
		snprintf(m->kernel, sizeof m->kernel, "%s", u.release);
		snprintf(m->kernel_version, sizeof m->kernel_version, "%s", u.version);
		snprintf(m->arch, sizeof m->arch, "%s", u.machine);
	}
	cpu_model(m->cpu_model, sizeof m->cpu_model);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	m->cpus = cpus > 0 ? cpus : 0;
	m->mem_total_kb = mem_total_kb();
}
