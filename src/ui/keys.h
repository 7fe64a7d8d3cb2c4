/* keys.h - the one key table (src/ui/keys.c): dispatch, the help screen, the footer
 * bar and the man page's key list all read it.  A key maps to an action value
 * (action.h) that the console loop applies. */
#ifndef IOSCOPE_KEYS_H
#define IOSCOPE_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "action.h"

/* A key as the console sees it: a character (Unicode code point), or a curses
 * function key (KEY_UP, KEY_F(1)...) tagged with KEYC_FN. */
#define KEYC_FN 0x40000000
#define KC(k) (KEYC_FN | (k))
#define KEYC_CTRL(c) ((c) & 0x1f)
#define KEYC_ESC 27

#define KEYF_CONTROL 0x01u   /* changes the kernel: refused while controls are disabled */
#define KEYF_REPLAY  0x02u   /* acts only on a replay */
#define KEY_BINDING_KEYS 4

struct console_binding {
	int keys[KEY_BINDING_KEYS];   /* 0-terminated */
	const char *names;            /* as help and the man page show them: "q, F10" */
	const char *help;             /* what it does, one line */
	const char *footer;           /* short label for the footer bar, or NULL */
	const char *section;          /* help screen grouping */
	unsigned flags;
	struct ui_action action;      /* what the console loop does (console_apply) */
};

extern const struct console_binding console_bindings[];
extern const size_t console_bindings_count;
const struct console_binding *console_binding_for(int key);
/* The sections of the help screen and man page, in order. */
const char *const *console_binding_sections(size_t *n);
/* The CONSOLE key list of ioscope(1), in mdoc (tests compare it to the man page). */
void console_bindings_mdoc(FILE *out);
/* Whether a binding acts now: live (controls enabled) or a replay. */
bool console_binding_active(const struct console_binding *b, bool live);
/* The action of key; UA_NONE when unbound, or refused (why says so, else ""). */
struct ui_action console_key_action(int key, bool live, char *why, size_t len);

#endif
