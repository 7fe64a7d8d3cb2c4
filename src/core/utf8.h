/* utf8.h - what is valid UTF-8, and JSON text that always is.
 *
 * Names reach ioscope's JSON from the kernel and from other users: a mount point, a
 * command name, a device model may hold any bytes.  JSON text must be UTF-8 (RFC 8259), and
 * jq, Python and Prometheus reject or mangle a line that is not, so one hostile directory
 * name would make a whole session log or batch stream unreadable to them.  Both writers
 * (jsonw and json-c's serializer, which copies bytes as they are) therefore replace every
 * byte that is not part of valid UTF-8 with U+FFFD, as Go's encoding/json does.
 */
#ifndef IOSCOPE_UTF8_H
#define IOSCOPE_UTF8_H

#include <stddef.h>

/* Length (1-4) of the valid UTF-8 sequence at p, which is NUL-terminated; 0 when p starts a
 * stray continuation byte, a truncated, overlong or surrogate sequence, or one above
 * U+10FFFF.  Control characters are valid here: what a terminal must not see is text.h's
 * concern. */
size_t utf8_sequence_length(const unsigned char *p);

/* Offset of the first byte of s[0..len) that is not part of valid UTF-8, or len. */
size_t utf8_valid_prefix(const char *s, size_t len);

/* The replacement of one invalid byte inside a JSON string: U+FFFD itself, not its escape,
 * because a replay writes the character it read back as it is, and live and replayed JSON
 * must stay byte for byte the same. */
#define UTF8_JSON_REPLACEMENT "\xef\xbf\xbd"

/* JSON text s[0..len) with every invalid byte replaced by UTF8_JSON_REPLACEMENT (outside
 * strings JSON has only ASCII, so every such byte is inside one).  Returns s itself when it
 * is valid, else a malloc'd copy (*out_len set) the caller frees; NULL on ENOMEM. */
const char *utf8_json_repair(const char *s, size_t len, size_t *out_len);

#endif
