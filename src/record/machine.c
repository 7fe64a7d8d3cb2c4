/* machine.c - the recording machine's identity for a session log's header.
 *
 * Read once when a recording starts, so it is not part of a snapshot (which is
 * what every sample carries).  It describes the machine ioscope runs on, even
 * when the samples come from a --root fixture tree.  /proc/cpuinfo and /proc/meminfo are
 * read by src/sources (system_info.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "machine.h"
#include "system_info.h"

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
	system_cpu_model(m->cpu_model, sizeof m->cpu_model);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	m->cpus = cpus > 0 ? cpus : 0;
	struct system_memory mem;
	m->mem_total_kb = system_memory_read(&mem) == 0 && mem.have_total ? mem.total_kb : 0;
}
