/* keys.c - the one key table: dispatch, the help screen, the footer bar and the
 * man page's key list (console_bindings_mdoc; tests/unit/test_keys.c checks
 * man/ioscope.1 against it) all read it.
 *
 * Order matters only for the footer bar (left to right).  The help screen and
 * the man page group by section.
 *
 * Left free for the areas still to come: for changing settings (issue 4,
 * KEYF_CONTROL) S, T, o, w; the replay view (issue 5, KEYF_REPLAY) took P, [, ], {,
 * }, G, x, X and the record key R.  Check console_binding_for() before taking any other.
 */
#include <ncurses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"



/* A binding's action: a kind and its argument (action.h). */
#define ACT(k, a) { .kind = (k), .arg = (a) }

const struct console_binding console_bindings[] = {
	{ { '?', KC(KEY_F(1)), 'h' }, "?, F1, h", "this help: every key", "Help", "General", 0,
	  ACT(UA_HELP, 0) },
	{ { KC(KEY_F(2)), 'C' }, "F2, C", "choose the table's columns", "Columns", "Table", 0,
	  ACT(UA_COLUMNS, 0) },
	{ { '/' }, "/", "filter devices by name, dm name or model (empty: all)", "Filter", "Devices", 0,
	  ACT(UA_FILTER, 0) },
	{ { '\t' }, "Tab", "next graph metric: MB/s, IOPS, await, %util, f/s, in-flight, dirty/writeback "
	  "(with the dirty limits as lines), probe (median and slowest probe read, ms; with --probe), "
	  "journal (commit ms, xfs log forces/s), D-tasks (with --tasks or W), PSI, seeks/s "
	  "(with --trace), latency (heat map; with tracing)",
	  "Metric", "Graphs", 0, ACT(UA_METRIC, 1) },
	{ { ' ' }, "Space", "freeze the view; sampling and recording go on", "Freeze", "Graphs", 0,
	  ACT(UA_FREEZE, 0) },
	{ { 'm' }, "m", "add a mark (a note drawn on every graph and listed with the events)", "Mark",
	  "Graphs", 0, ACT(UA_MARK, 0) },
	{ { 'd' }, "d", "the detail pane in place of the graphs, and back", "Detail", "Table", 0,
	  ACT(UA_DETAIL, 0) },
	{ { 'q', KC(KEY_F(10)) }, "q, F10", "quit", "Quit", "General", 0, ACT(UA_QUIT, 0) },

	{ { KC(KEY_UP), 'k' }, "Up, k", "select the device above", NULL, "Devices", 0,
	  ACT(UA_MOVE, -1) },
	{ { KC(KEY_DOWN), 'j' }, "Down, j", "select the device below", NULL, "Devices", 0,
	  ACT(UA_MOVE, 1) },
	{ { KC(KEY_PPAGE) }, "PgUp", "select a page of devices up", NULL, "Devices", 0,
	  ACT(UA_PAGE, -1) },
	{ { KC(KEY_NPAGE) }, "PgDn", "select a page of devices down", NULL, "Devices", 0,
	  ACT(UA_PAGE, 1) },
	{ { KC(KEY_HOME) }, "Home", "select the first device", NULL, "Devices", 0,
	  ACT(UA_FIRST, 0) },
	{ { KC(KEY_END) }, "End", "select the last device", NULL, "Devices", 0, ACT(UA_LAST, 0) },
	{ { '\n', '\r', KC(KEY_ENTER) }, "Enter",
	  "pin the selected device on the graphs, or unpin it (several can be pinned)", NULL, "Devices", 0,
	  ACT(UA_PIN, 0) },
	{ { 'p' }, "p", "show or hide partitions under their disk", NULL, "Devices", 0,
	  ACT(UA_PARTITIONS, 0) },

	{ { '<', ',' }, "<", "sort by the column to the left (Device: the kernel's order)", NULL, "Table", 0,
	  ACT(UA_SORT_STEP, -1) },
	{ { '>', '.' }, ">", "sort by the column to the right", NULL, "Table", 0,
	  ACT(UA_SORT_STEP, 1) },
	{ { 'I' }, "I", "invert the sort order", NULL, "Table", 0, ACT(UA_SORT_INVERT, 0) },

	{ { KC(KEY_BTAB) }, "Shift-Tab", "previous graph metric", NULL, "Graphs", 0,
	  ACT(UA_METRIC, -1) },
	{ { KC(KEY_LEFT) }, "Left", "scroll the graphs back in time", NULL, "Graphs", 0,
	  ACT(UA_SCROLL, 1) },
	{ { KC(KEY_RIGHT) }, "Right", "scroll the graphs forward in time", NULL, "Graphs", 0,
	  ACT(UA_SCROLL, -1) },
	{ { 'l' }, "l", "graphs back to live", NULL, "Graphs", 0, ACT(UA_LIVE, 0) },
	{ { 'z' }, "z", "zoom the graphs out: more time across, several samples a column (their mean), "
	  "up to the whole history", "Zoom", "Graphs", 0, ACT(UA_ZOOM, 1) },
	{ { 'Z' }, "Z", "zoom the graphs in, down to one sample a column", NULL, "Graphs", 0,
	  ACT(UA_ZOOM, -1) },
	{ { 'g' }, "g", "graph characters: braille, blocks, ASCII", NULL, "Graphs", 0,
	  ACT(UA_GLYPHS, 0) },
	{ { 'e' }, "e", "show or hide the marks panel", NULL, "Graphs", 0, ACT(UA_MARKS, 0) },
	{ { '(' }, "(", "select the next older mark in the marks panel (it scrolls to it); the graphs go to "
	  "its time and highlight its line, the footer says its whole text", NULL, "Graphs", 0,
	  ACT(UA_MARK_STEP, 1) },
	{ { ')' }, ")", "select the next newer mark in the marks panel (l: none, graphs live)", NULL,
	  "Graphs", 0, ACT(UA_MARK_STEP, -1) },
	{ { 'b' }, "b", "block-layer tracing (eBPF) on or off, marked on the graphs: the latency heat "
	  "map (Tab to latency), trace records in a recording; needs root or CAP_BPF and CAP_PERFMON", NULL, "Graphs", 0,
	  ACT(UA_TRACE, 0) },
	{ { 'W' }, "W", "show or hide the why pane (blocked tasks, dirty limits, journals, processes by "
	  "I/O) in place of the graphs",
	  NULL, "Graphs", 0, { .kind = UA_TOGGLE_PANE, .name = "why" } },

	{ { '+', '=' }, "+", "longer interval between samples", NULL, "General", 0,
	  ACT(UA_INTERVAL, 1) },
	{ { '-' }, "-", "shorter interval between samples", NULL, "General", 0,
	  ACT(UA_INTERVAL, -1) },
	{ { 't' }, "t", "next colour theme", NULL, "General", 0, ACT(UA_THEME_NEXT, 0) },
	{ { KEYC_CTRL('l') }, "Ctrl-L", "redraw the screen", NULL, "General", 0,
	  ACT(UA_REFRESH, 0) },

	/* changing settings (src/ui/control_*.c): the selected device, a partition's disk */
	{ { 'S' }, "S", "scheduler picker: the queue's list, the current one marked", "Sched", "Settings",
	  KEYF_CONTROL, ACT(UA_SCHEDULER, 0) },
	{ { 'T' }, "T", "tunables editor: queue, iosched.*, bdi.* limits, loop.dio", NULL,
	  "Settings", KEYF_CONTROL, ACT(UA_TUNABLES, 0) },
	{ { 'w' }, "w", "write cache: write back or write through", NULL, "Settings", KEYF_CONTROL,
	  ACT(UA_WRITE_CACHE, 0) },
	{ { 'o' }, "o", "mount options of a filesystem on the device (Tab completes known options)", NULL,
	  "Settings", KEYF_CONTROL, ACT(UA_MOUNT_OPTIONS, 0) },

	/* the replay view (src/ui/replay_view.c); every jump pauses */
	{ { 'P' }, "P", "play or pause the replay", "Play", "Replay", KEYF_REPLAY,
	  ACT(UA_REPLAY_PLAY, 0) },
	{ { '[' }, "[", "step one sample back (pauses)", NULL, "Replay", KEYF_REPLAY,
	  ACT(UA_REPLAY_STEP, -1) },
	{ { ']' }, "]", "step one sample forward (pauses)", NULL, "Replay", KEYF_REPLAY,
	  ACT(UA_REPLAY_STEP, 1) },
	{ { '{' }, "{", "jump to the previous mark (pauses)", NULL, "Replay", KEYF_REPLAY,
	  ACT(UA_REPLAY_MARK, -1) },
	{ { '}' }, "}", "jump to the next mark (pauses)", NULL, "Replay", KEYF_REPLAY,
	  ACT(UA_REPLAY_MARK, 1) },
	{ { 'G' }, "G", "seek to a time: HH:MM[:SS], YYYY-MM-DD HH:MM[:SS], @UNIXSECONDS or +OFFSET from the "
	  "start (+90, +90s, +5m, +1h30m) (pauses)",
	  "Seek", "Replay", KEYF_REPLAY, ACT(UA_REPLAY_SEEK, 0) },
	{ { 'x' }, "x", "faster replay: x1, x10, x100", NULL, "Replay", KEYF_REPLAY,
	  ACT(UA_REPLAY_SPEED, 1) },
	{ { 'X' }, "X", "slower replay: x100, x10, x1", NULL, "Replay", KEYF_REPLAY,
	  ACT(UA_REPLAY_SPEED, -1) },
	/* src/ui/record_key.c */
	{ { 'R' }, "R", "start or stop recording (asks for a file); with --record: pause or resume it",
	  "Rec", "General", 0, ACT(UA_RECORD, 0) },
};
const size_t console_bindings_count = sizeof console_bindings / sizeof console_bindings[0];

/* Help and man page order. */
static const char *const sections[] = { "Devices", "Table", "Graphs", "Settings", "Replay", "General" };

const struct console_binding *console_binding_for(int key)
{
	for (size_t i = 0; i < console_bindings_count; i++)
		for (int k = 0; k < KEY_BINDING_KEYS && console_bindings[i].keys[k]; k++)
			if (console_bindings[i].keys[k] == key)
				return &console_bindings[i];
	return NULL;
}

bool console_binding_active(const struct console_binding *b, bool live)
{
	if (b->flags & KEYF_CONTROL)
		return live;
	if (b->flags & KEYF_REPLAY)
		return !live;
	return true;
}

struct ui_action console_key_action(int key, bool live, char *why, size_t len)
{
	struct ui_action none = { UA_NONE, 0, "" };
	why[0] = '\0';
	const struct console_binding *b = console_binding_for(key);
	if (!b)
		return none;
	if (!console_binding_active(b, live)) {
		snprintf(why, len, "%s: %s", b->names, live ? "only in a replay"
							    : "changes are disabled while replaying");
		return none;
	}
	return b->action;
}

/* mdoc escapes: a key name must not be read as punctuation or a request. */
static void mdoc_key(FILE *out, const char *name, size_t len)
{
	fputs("Ic \\&", out);
	for (size_t i = 0; i < len; i++) {
		if (name[i] == '\\')
			fputs("\\e", out);
		else
			fputc(name[i], out);
	}
}

static void mdoc_binding(FILE *out, const struct console_binding *b)
{
	fputs(".It ", out);
	const char *p = b->names;
	for (;;) {
		size_t n = strcspn(p, ",");
		mdoc_key(out, p, n);
		if (!p[n])
			break;
		fputs(" , ", out);
		p += n + 1;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
	fprintf(out, "%s%s.\n", b->help[0] == '.' || b->help[0] == '\'' ? "\\&" : "", b->help);
}

void console_bindings_mdoc(FILE *out)
{
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
		fprintf(out, ".Ss %s\n.Bl -tag -width Shift-Tab -compact\n", sections[s]);
		for (size_t i = 0; i < console_bindings_count; i++)
			if (strcmp(console_bindings[i].section, sections[s]) == 0)
				mdoc_binding(out, &console_bindings[i]);
		fputs(".El\n", out);
	}
}

const char *const *console_binding_sections(size_t *n)
{
	*n = sizeof sections / sizeof sections[0];
	return sections;
}
