/* text.h - text that people read on a terminal: the one escaping rule and bounded building.
 *
 * Names, mount points, host strings, notes and values come from the kernel, other users
 * (a mount point anyone may create) and session logs anyone may craft.  Printed raw, an
 * ESC or BEL retitles or reprograms the terminal and a newline forges an output line.
 * Every text output (batch text and CSV, reports in text and CSV, show, set, remount,
 * warnings and errors) passes its data through text_escape() or text_printf(); JSON
 * escapes for itself (jsonw.c, json-c), SVG/PNG clean their labels (report_plot.c).
 *
 * The rule, as the console draws: every byte a terminal could take as a command becomes
 * '?': C0 controls (0x00-0x1f: newline, CR, tab, ESC, BEL...), DEL (0x7f), the C1
 * controls U+0080-U+009F (in UTF-8, C2 80-C2 9F; one '?' each) and every byte that is not
 * part of valid UTF-8 (a lone 0x9b is CSI to an 8-bit terminal).  '?' rather than \xNN
 * keeps columns and buffer sizes as they were.  JSON output keeps valid UTF-8 as it is and
 * writes U+FFFD for a byte that is not (utf8.h); a session log is JSON, so its replay reads
 * U+FFFD where the live run had such a byte, and U+FFFD is therefore a '?' too: live and
 * replayed text print the same.
 */
#ifndef IOSCOPE_TEXT_H
#define IOSCOPE_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* s escaped into out (len > 0 bytes, always terminated, cut at a character boundary
 * when it does not fit; never longer than s).  Returns out. */
char *text_escape(const char *s, char *out, size_t len);
/* True when text_escape would change nothing. */
bool text_is_clean(const char *s);
/* Escape in place. */
void text_escape_inplace(char *s);

/* fprintf whose whole result is escaped, except the newlines that begin or end fmt
 * itself: data can never start a line.  Returns what fprintf returns. */
__attribute__((format(printf, 2, 3))) int text_printf(FILE *out, const char *fmt, ...);
int text_vprintf(FILE *out, const char *fmt, va_list ap);
/* fputs(text_escape(s)). */
int text_fputs(const char *s, FILE *out);

/* Whole seconds as people read a duration: "45s", "12m05s", "1h02m". */
void text_duration(long seconds, char *buf, size_t len);

/* Append to buf (len bytes) at used; returns the new length, which never passes len - 1
 * however much snprintf wanted to write (its return is a wish, not a length). */
__attribute__((format(printf, 4, 5))) size_t text_appendf(char *buf, size_t len, size_t used,
							   const char *fmt, ...);

/* The n items into buf (len bytes), sep between them and last before the last one
 * ("text, json or csv"): what a table's names make for --help and its errors. */
void text_join(char *buf, size_t len, const char *const *items, size_t n, const char *sep,
	       const char *last);

#endif
