/* console.h - the ncurses console (src/ui, docs/console.md), as main starts it. */
#ifndef IOSCOPE_CONSOLE_H
#define IOSCOPE_CONSOLE_H

#include "options.h"
#include "recorder.h"
#include "source.h"

/* The console on src until the user quits (or --count / --duration end it); rec may be
 * NULL.  It owns neither src nor rec.  The exit status. */
int console_run(const struct options *o, struct source *src, struct recorder *rec);

#endif
