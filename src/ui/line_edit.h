/* line_edit.h - the console's one line editor: the text of a prompt (marks, the filter,
 * a file name, a replay time) and of a control dialog's value or mount options. */
#ifndef IOSCOPE_LINE_EDIT_H
#define IOSCOPE_LINE_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define LINE_EDIT_MAX 1023   /* characters: a mount option string (MOUNT_OPTS_MAX - 1) */

struct line_edit {
	wchar_t text[LINE_EDIT_MAX + 1];
	size_t len, cursor;   /* in characters */
	size_t max;           /* characters that may be typed, at most LINE_EDIT_MAX */
	bool ascii;           /* printable ASCII only: what a sysfs value or mount option is */
};

enum line_edit_outcome {
	LINE_EDIT_EDITING,   /* the key edited the text or moved the cursor, or did nothing */
	LINE_EDIT_ACCEPT,    /* Enter */
	LINE_EDIT_CANCEL,    /* Esc, Ctrl-G */
};

/* The text set to initial (cut at max characters, empty if it is not valid in the
 * locale), the cursor at its end. */
void line_edit_set(struct line_edit *e, const char *initial, size_t max, bool ascii);
/* One key (as src/ui/keys.h spells it): Left/Right/Home/End/Ctrl-A/Ctrl-E move,
 * Backspace/Ctrl-H/Delete/Ctrl-D/Ctrl-U delete, a printable character is inserted. */
enum line_edit_outcome line_edit_key(struct line_edit *e, int key);
/* The text in the locale's encoding into out (empty when it does not fit); the cursor's
 * offset in bytes. */
size_t line_edit_text(const struct line_edit *e, char *out, size_t size);

#endif
