/* control_ui.h - the console's face of the control module (src/ui/control_*.c): the
 * scheduler picker, the tunables editor, the write cache choice and the mount-options
 * editor.  Each opens one dialog that walks through choose -> (confirm the risks) ->
 * pending -> result; the change itself runs on the control module's worker thread,
 * and its events are marked on the graphs through console_add_event.
 */
#ifndef IOSCOPE_CONTROL_UI_H
#define IOSCOPE_CONTROL_UI_H

#include "console_state.h"
#include "control.h"
#include "line_edit.h"

/* Key actions (KEYF_CONTROL bindings in src/ui/keys.c); all act on the selected device
 * (a partition: its disk). */
void action_scheduler(struct console *c);
void action_tunables(struct console *c);
void action_write_cache(struct console *c);
void action_mount_options(struct console *c);

/* ---- shared by src/ui/control_actions.c and src/ui/control_dialog.c ---- */

enum control_dialog_kind { CD_SCHEDULER, CD_TUNABLE, CD_WRITE_CACHE, CD_MOUNT };
enum control_dialog_phase { CD_LIST, CD_EDIT, CD_CONFIRM, CD_PENDING, CD_RESULT };

#define CD_ITEMS_MAX 48

struct control_dialog {
	enum control_dialog_kind kind;
	enum control_dialog_phase phase;
	char title[128];
	char device[DEV_NAME_MAX];
	char root[256];
	/* CD_LIST: what is shown, what is chosen, and what goes with it (a tunable's
	 * current value, a mount's fstype) */
	char labels[CD_ITEMS_MAX][128];
	char values[CD_ITEMS_MAX][MOUNT_PATH_MAX];
	char extra[CD_ITEMS_MAX][SETTING_VAL_MAX];
	size_t nitems, current, top;
	/* CD_EDIT: a value for edit_key, or mount options for mountpoint */
	char edit_key[SETTING_KEY_MAX];
	char mountpoint[MOUNT_PATH_MAX];
	char fstype[32];
	char info[2][MOUNT_OPTS_MAX + 32];
	struct line_edit edit;
	char hint[CONTROL_LINE_MAX];
	bool hint_warning;
	/* from the plan on */
	struct control_plan *plan;
	struct control_job *job;
	struct control_pending pending;   /* announced to the session until the job ends */
	struct control_result *result;
	char error[CONTROL_LINE_MAX];
	double started;
};

struct control_dialog *control_dialog_new(enum control_dialog_kind kind, const char *root,
					  const char *device, const char *title);
void control_dialog_add_item(struct control_dialog *d, const char *label, const char *value,
			     const char *extra);
/* Start in the edit phase for a mount (the options editor) or a tunable's value. */
void control_dialog_edit_mount(struct control_dialog *d, const char *mountpoint, const char *fstype,
			       const char *mount_opts, const char *super_opts);
/* Opens the dialog (it owns d from here, also on failure). */
int control_dialog_open(struct console *c, struct control_dialog *d);

#endif
