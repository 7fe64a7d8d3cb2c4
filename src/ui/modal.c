/* modal.c - dialogs over the console (help, prompts, pickers, and whatever the
 * control and replay views add): a small stack; the top one gets every key.  A
 * dialog waiting on a descriptor (a control job) is woken by the main loop. */
#include <ncurses.h>
#include <poll.h>

#include "console_state.h"

int console_modal_open(struct console *c, const struct modal_ops *ops, void *state)
{
	if (c->nmodals == CONSOLE_MODALS_MAX) {
		if (ops->free)
			ops->free(state);
		return -1;
	}
	c->modals[c->nmodals++] = (struct console_modal){ ops, state };
	c->need_redraw = true;
	return 0;
}

static void close_at(struct console *c, size_t i)
{
	struct console_modal m = c->modals[i];
	for (size_t j = i + 1; j < c->nmodals; j++)
		c->modals[j - 1] = c->modals[j];
	c->nmodals--;
	if (m.ops->free)
		m.ops->free(m.state);
	c->need_redraw = true;
}

void console_modal_close(struct console *c)
{
	if (c->nmodals)
		close_at(c, c->nmodals - 1);
}

void console_modals_draw(const struct console *c)
{
	for (size_t i = 0; i < c->nmodals; i++)
		c->modals[i].ops->draw(c, c->modals[i].state);
}

void console_modals_collect(struct console *c)
{
	for (size_t i = 0; i < c->nmodals; i++) {
		struct console_modal m = c->modals[i];
		int fd = m.ops->fd ? m.ops->fd(m.state) : -1;
		struct pollfd pfd = { fd, POLLIN, 0 };
		if (fd >= 0 && poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN)) {
			m.ops->ready(c, m.state);
			c->need_redraw = true;
		}
	}
}

bool console_modal_key(struct console *c, int key)
{
	if (c->nmodals == 0)
		return false;
	/* the dialog's callbacks may open another one on top: close this one only */
	size_t at = c->nmodals - 1;
	struct console_modal m = c->modals[at];
	if (!m.ops->key(c, m.state, key) && at < c->nmodals && c->modals[at].state == m.state)
		close_at(c, at);
	c->need_redraw = true;
	return true;
}

void console_modals_free(struct console *c)
{
	while (c->nmodals)
		console_modal_close(c);
}

bool console_list_move(size_t *current, size_t n, int key)
{
	switch (key) {
	case KC(KEY_UP):
	case 'k':
		*current -= *current > 0;
		return true;
	case KC(KEY_DOWN):
	case 'j':
		*current += *current + 1 < n;
		return true;
	case KC(KEY_HOME):
		*current = 0;
		return true;
	case KC(KEY_END):
		*current = n ? n - 1 : 0;
		return true;
	default:
		return false;
	}
}

void console_list_scroll(size_t current, size_t *top, int rows)
{
	if (current < *top)
		*top = current;
	if (rows > 0 && current >= *top + (size_t)rows)
		*top = current - (size_t)rows + 1;
}
