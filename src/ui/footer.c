/* footer.c - the bottom line: a status message for a few seconds, else the key
 * bar (htop's F-key line) built from the key table's footer labels. */
#include <string.h>

#include "keys.h"
#include "pane.h"

static void key_bar(const struct frame *f, const struct rect *r)
{
	int x = r->x, end = r->x + r->w;
	for (size_t i = 0; i < console_bindings_count && x < end; i++) {
		const struct console_binding *b = &console_bindings[i];
		if (!b->footer)
			continue;
		if (!console_binding_active(b, f->live))
			continue;
		char key[16];
		size_t n = strcspn(b->names, ",");
		if (n >= sizeof key)
			n = sizeof key - 1;
		memcpy(key, b->names, n);
		key[n] = '\0';
		/* a key and its label whole, or not at all ("RRe" says nothing) */
		if (x + ui_text_width(key) + ui_text_width(b->footer) > end)
			break;
		x += ui_put(r->y, x, end - x, ui_attr(&f->style, TR_KEY), key);
		x += ui_put(r->y, x, end - x, ui_attr(&f->style, TR_KEY_LABEL), b->footer);
		x += ui_put(r->y, x, end - x, ui_attr(&f->style, TR_NORMAL), " ");
	}
}

static void footer_draw(const struct frame *f, const struct rect *r)
{
	ui_fill(r->y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	const char *msg = f->status;
	if (msg) {
		enum theme_role role = f->status_warning ? TR_WARNING : TR_STATUS;
		ui_fill(r->y, r->x, r->w, ui_attr(&f->style, role));
		ui_put(r->y, r->x + 1, r->w - 2, ui_attr(&f->style, role), msg);
		return;
	}
	key_bar(f, r);   /* the loop forgets an expired message: drawing changes nothing */
}

const struct pane_def pane_footer = {
	.name = "footer",
	.slot = SLOT_FOOTER,
	.draw = footer_draw,
};
