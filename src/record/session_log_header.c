/* session_log_header.c - line 1 of a session log: its header, or why the file is not a log.
 *
 * One rule for the three places that look at it: the replay (which keeps the header),
 * the decompressor (which stops a file that is not a log before it expands) and
 * --record-append (which refuses to add a session nothing could read back).
 */
#include <string.h>

#include "line_scanner.h"
#include "session_log.h"

json_object *session_log_parse_line(json_tokener *tok, const char *text, size_t len,
				    struct error *err)
{
	if (len > INT32_MAX) {
		error_set(err, "line too long");
		return NULL;
	}
	json_tokener_reset(tok);
	json_object *o = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	if (!o || e != json_tokener_success) {
		json_object_put(o);
		error_set(err, "not a JSON record (%s)", e == json_tokener_continue
								 ? "it ends early"
								 : json_tokener_error_desc(e));
		return NULL;
	}
	for (size_t i = json_tokener_get_parse_end(tok); i < len; i++)
		if (!strchr(" \t\r", text[i])) {
			json_object_put(o);
			error_set(err, "not a JSON record (garbage after it at byte %zu)", i);
			return NULL;
		}
	return o;
}

int session_log_read_header(struct line_scanner *s, json_tokener *tok, const char *name,
			    struct replay_machine *m, struct snapshot *state,
			    struct scanned_line *line, struct error *err)
{
	int errnum = 0;
	int rc = line_scanner_next(s, line, &errnum);
	if (rc < 0)
		return error_errno(err, name, errnum);
	if (rc == 0)
		return error_set(err, "%s: empty file, not an ioscope session log", name);
	if (line->too_long)
		return error_set(err, "%s: line 1: not an ioscope session log (no header)", name);
	struct error why;
	json_object *o = session_log_parse_line(tok, line->text, line->len, &why);
	if (!o) {
		if (!line->complete && line->len > 0 && line->text[0] == '{')
			return error_set(err, "%s: line 1: the header is incomplete (the recording "
					 "stopped while writing it)", name);
		return error_set(err, "%s: line 1 (offset 0): not an ioscope session log: %s",
				 name, why.msg);
	}
	rc = session_log_parse_header(o, m, state, &why);
	json_object_put(o);
	return rc < 0 ? error_set(err, "%s: line 1 (offset 0): %s", name, why.msg) : 0;
}

int session_log_check_header(int fd, const char *name, struct error *err)
{
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return error_set(err, "%s: out of memory", name);
	struct line_scanner s;
	struct scanned_line line;
	struct replay_machine m;
	struct snapshot state;
	line_scanner_init(&s, fd);
	snapshot_init(&state);
	int rc = session_log_read_header(&s, tok, name, &m, &state, &line, err);
	snapshot_free(&state);
	line_scanner_free(&s);
	json_tokener_free(tok);
	return rc;
}
