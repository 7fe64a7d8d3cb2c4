/* input.c - keys and mouse from the terminal, as the key table spells them. */
#include <ncurses.h>
#include <string.h>

#include "console_state.h"

int console_read_key(struct console_mouse *mouse)
{
	wint_t wch;
	int r = wget_wch(stdscr, &wch);
	if (r == ERR)
		return -1;
	if (r == OK)
		return (int)wch;
	if (wch == KEY_MOUSE) {
		MEVENT ev;
		memset(mouse, 0, sizeof *mouse);
		if (getmouse(&ev) != OK)
			return KC(KEY_RESIZE);   /* nothing usable: a key nobody binds */
		mouse->y = ev.y;
		mouse->x = ev.x;
		mouse->click = ev.bstate & BUTTON1_PRESSED;   /* a press: a click would come twice */
		mouse->wheel_up = ev.bstate & BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
		mouse->wheel_down = ev.bstate & BUTTON5_PRESSED;
#endif
	}
	return KC((int)wch);
}
