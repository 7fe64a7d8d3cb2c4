/* action.h - what the user asked for, as a value.  Keys (the key table, keys.h) and
 * panes (a click, pane.h) return one; only the console loop applies it
 * (console_apply, src/ui/actions.c), so neither reaches into the console's state. */
#ifndef IOSCOPE_ACTION_H
#define IOSCOPE_ACTION_H

#include "snapshot.h"

enum ui_action_kind {
	UA_NONE,
	UA_QUIT,
	UA_HELP,
	UA_MOVE,            /* arg: rows down (negative: up) */
	UA_PAGE,            /* arg: pages down (negative: up) */
	UA_FIRST,
	UA_LAST,
	UA_SELECT,          /* name: the device (a click on its row) */
	UA_PIN,
	UA_METRIC,          /* arg: +1 next graph metric, -1 previous */
	UA_INTERVAL,        /* arg: +1 longer, -1 shorter */
	UA_FREEZE,
	UA_MARK,
	UA_FILTER,
	UA_PARTITIONS,
	UA_SORT_STEP,       /* arg: +1 the column to the right, -1 to the left */
	UA_SORT_BY,         /* arg: index in the table's columns, -1 kernel order; again: invert */
	UA_SORT_INVERT,
	UA_COLUMNS,
	UA_THEME_NEXT,
	UA_DETAIL,
	UA_MARKS,
	UA_SCROLL,          /* arg: +1 back in time, -1 forward */
	UA_LIVE,
	UA_GLYPHS,
	UA_REFRESH,
	UA_SCHEDULER,       /* the control dialogs (src/ui/control_actions.c) */
	UA_TUNABLES,
	UA_WRITE_CACHE,
	UA_MOUNT_OPTIONS,
	UA_REPLAY_PLAY,     /* the replay view (src/ui/replay_view.c) */
	UA_REPLAY_STEP,     /* arg: +1 forward, -1 back */
	UA_REPLAY_MARK,     /* arg: +1 next mark, -1 previous */
	UA_REPLAY_SEEK,
	UA_REPLAY_SPEED,    /* arg: +1 faster, -1 slower */
	UA_RECORD,
	UA_TOGGLE_PANE,     /* name: the pane (pane_def.name) to show or hide */
	UA_MARK_STEP,       /* arg: +1 the older mark in the marks panel, -1 the newer */
	UA_MARK_SELECT,     /* arg: the mark's number (history_mark_number; a click) */
	UA_TRACE,           /* the eBPF view on or off (src/ui/trace_key.c) */
	UA_ZOOM,            /* arg: +1 more time across the graphs, -1 less */
	UA_COUNT
};

struct ui_action {
	enum ui_action_kind kind;
	int arg;
	char name[DEV_NAME_MAX];
};

#endif
