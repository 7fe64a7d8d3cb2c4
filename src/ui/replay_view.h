/* replay_view.h - the console's replay view (play/pause, step, marks, seek, speed,
 * the position indicator) and its record key (start/stop or pause/resume a
 * recording).  Their state lives in struct console; the pure helpers below are
 * what the unit tests check.  Code: src/ui/replay_view*.c, src/ui/record_key.c. */
#ifndef IOSCOPE_REPLAY_VIEW_H
#define IOSCOPE_REPLAY_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct console;
struct recorder;

/* Zeroed (as console_init leaves it) means playing at the recorded pace. */
struct replay_view_state {
	bool paused;
	unsigned speed;            /* 1, 10 or 100; 0 is 1 */
};

struct record_key_state {
	struct recorder *own;      /* started with the key: ours to close */
	char path[4096];           /* the file `own` writes */
};

/* ---- pure helpers (src/ui/replay_view_logic.c) ---- */
/* x1 -> x10 -> x100 -> x1 (dir > 0), the other way round for dir < 0. */
unsigned replay_speed_step(unsigned speed, int dir);
/* Seconds between samples played: the recorded interval over the speed, at least 1 ms. */
double replay_timer_period(double interval, unsigned speed);
/* The first sample to re-read so the graphs show `window` samples ending at target. */
size_t replay_window_start(size_t target, size_t window);
/* "1:05", "12:00", "1:02:03" (seconds rounded down). */
void replay_format_clock(double seconds, char *buf, size_t len);
/* The header's indicator: "REPLAY 13/120 0:12/2:00 x10 PAUSED".  shown is 1-based;
 * state_word NULL leaves the state out (the end of the data says so itself). */
void replay_format_position(char *buf, size_t len, size_t shown, size_t count, double offset,
			    double total, unsigned speed, const char *state_word);
/* The file the record key offers: "ioscope-20261129-200445.log" (local time). */
void record_default_name(const struct timespec *wall, char *buf, size_t len);

/* ---- the console's side (src/ui/replay_view.c, src/ui/record_key.c) ---- */
bool replay_view_paused(const struct console *c);
/* The period of the console's own sample clock for an interval. */
double replay_view_timer_period(const struct console *c, double interval);
void replay_view_position(const struct console *c, char *buf, size_t len);
/* Show sample target (0-based): the history is rebuilt from the samples before it
 * so the graphs look as they did live at that moment.  -1 on a fatal error. */
int replay_view_seek(struct console *c, size_t target);
/* Left past the oldest sample the history holds: the log is read again further back
 * (a seek, paused), the graphs' right edge `step` samples earlier, at least `plot`
 * (the graphs' width) so the first sample ends at the left edge.  false: not a replay. */
bool replay_view_scroll_back(struct console *c, uint64_t step, uint64_t plot);

/* The samples of the log up to the one shown, 0 when the source is not a replay. */
size_t replay_view_samples(const struct console *c);
/* The history read again up to the sample shown, for graphs that show more of it now
 * (a zoom out); nothing when the source is not a replay. */
void replay_view_refill(struct console *c);

void action_replay_play(struct console *c);
void action_replay_step_back(struct console *c);
void action_replay_step_forward(struct console *c);
void action_replay_prev_mark(struct console *c);
void action_replay_next_mark(struct console *c);
void action_replay_seek(struct console *c);
void action_replay_speed_up(struct console *c);
void action_replay_speed_down(struct console *c);

void action_record(struct console *c);
/* What the header shows: the file, and whether it is paused. */
const char *record_key_path(const struct console *c);
bool record_key_paused(const struct console *c);
/* The recording, a sink of the session: the key's own, else --record's; NULL: none. */
struct sink *record_key_sink(const struct console *c);
/* It is added and not paused. */
bool record_key_writing(const struct console *c);
/* At exit: close the recording the key started. */
void record_key_close(struct console *c);

#endif
