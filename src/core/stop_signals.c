/* stop_signals.c - SIGINT, SIGTERM and SIGHUP through a signalfd (see stop_signals.h). */
#include <signal.h>
#include <sys/signalfd.h>

#include "stop_signals.h"

int stop_signals_open(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}
