/* term.c - taking the terminal and giving it back: curses setup, locale, the
 * signals that must restore the terminal (INT TERM HUP QUIT), suspend (TSTP/CONT)
 * and resize (WINCH).  Signals arrive through a signalfd the loop polls, so no
 * handler and no global state is needed. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <ncurses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "console_state.h"

static void handled_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGWINCH);
	sigaddset(set, SIGTSTP);
	sigaddset(set, SIGCONT);
}

int term_signals_open(struct console *c, struct error *err)
{
	sigset_t set;
	handled_signals(&set);
	if (sigprocmask(SIG_BLOCK, &set, &c->saved_mask) < 0)
		return error_errno(err, "sigprocmask", errno);
	c->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (c->sigfd < 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &c->saved_mask, NULL);
		return error_errno(err, "signalfd", e);
	}
	return 0;
}

void term_signals_close(struct console *c)
{
	if (c->sigfd < 0)
		return;
	close(c->sigfd);
	c->sigfd = -1;
	sigprocmask(SIG_SETMASK, &c->saved_mask, NULL);
}

/* The log of --record - goes to standard output, the console then to /dev/tty. */
int term_check(const struct options *o, struct error *err)
{
	bool log_on_stdout = o->record_path && strcmp(o->record_path, "-") == 0;
	if (!isatty(STDIN_FILENO) || (!isatty(STDOUT_FILENO) && !log_on_stdout))
		return error_set(err, "the console needs a terminal; use --batch for output to a pipe or file");
	return 0;
}

int term_start(struct console *c, struct error *err)
{
	if (term_check(c->opts, err) < 0)
		return -1;
	c->term_out = stdout;
	if (!isatty(STDOUT_FILENO) && !(c->term_out = fopen("/dev/tty", "we")))
		return error_errno(err, "/dev/tty", errno);
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");   /* figures and config values keep their decimal point */
	c->style.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	SCREEN *s = newterm(NULL, c->term_out, stdin);
	if (!s && c->term_out != stdout)
		fclose(c->term_out);
	if (!s)
		return error_set(err, "cannot use the terminal '%s'", getenv("TERM") ? getenv("TERM") : "(unset)");
	/* TERM=dumb and the like cannot place the cursor: every frame would be one
	 * garbled line.  Refuse, as htop does. */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (const char *)-1) {
		endwin();
		delscreen(s);
		return error_set(err, "the terminal '%s' cannot move the cursor, which the console "
				 "needs; set TERM to your terminal's type, or use --batch",
				 getenv("TERM") ? getenv("TERM") : "(unset)");
	}
	c->screen = s;
	c->term_started = true;
	set_escdelay(25);          /* Esc alone must not wait a second */
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	if (c->cfg.mouse) {
		/* the release too, though only presses act (input.c): ncurses reads again for
		 * an event its mask leaves out, blocking despite nodelay(), and the console
		 * stood still after every click until the next key */
		mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
			  | BUTTON5_PRESSED
#endif
			  , NULL);
		mouseinterval(0);
	}
	c->depth = theme_terminal_depth();
	return 0;
}

void term_stop(struct console *c)
{
	if (!c->term_started)
		return;
	curs_set(1);
	endwin();
	delscreen((SCREEN *)c->screen);
	c->screen = NULL;
	if (c->term_out && c->term_out != stdout)
		fclose(c->term_out);
	c->term_out = NULL;
	c->term_started = false;
}

void term_suspend(struct console *c)
{
	if (!c->term_started)
		return;
	endwin();
	/* SIGTSTP is blocked (we read it from the signalfd): stop for real instead */
	kill(getpid(), SIGSTOP);
	/* here after SIGCONT */
	term_resize(c);
	clearok(curscr, TRUE);
	c->need_redraw = true;
}

void term_resize(struct console *c)
{
	struct winsize ws;
	FILE *out = c->term_out ? c->term_out : stdout;
	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
	c->need_redraw = true;
}
