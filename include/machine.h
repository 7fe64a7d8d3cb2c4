/* machine.h - what a session log's header says about the recording machine. */
#ifndef IOSCOPE_MACHINE_H
#define IOSCOPE_MACHINE_H

#include "replay.h"

/* Host, kernel, architecture, CPU model and count, memory of the running system
 * (uname, /proc/cpuinfo, /proc/meminfo); what cannot be read stays empty/0. */
void machine_describe(struct replay_machine *m);

#endif
