/* pane_table.h - the console's panes in drawing order (src/ui/panes.c).  Only the
 * console loop walks it; panes do not see each other. */
#ifndef IOSCOPE_PANE_TABLE_H
#define IOSCOPE_PANE_TABLE_H

#include <stddef.h>

#include "pane.h"

extern const struct pane_def *const console_panes[];
extern const size_t console_panes_count;

#endif
