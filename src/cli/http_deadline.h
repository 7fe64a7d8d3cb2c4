/* http_deadline.h - the HTTP connections of --listen: each must finish each step of an
 * exchange in time, and a new one makes room for itself (docs/fleet.md, "Direct scrape").
 *
 * libmicrohttpd's timeout is an idle one: a client that sends a byte of a header every
 * few seconds held a connection for ever, and 32 of them every connection there was.
 * Here each connection has a deadline, set when it is accepted and set again when its
 * request has come whole and when its response has gone; a thread of its own shuts
 * down (shutdown(2)) every connection past it, and the server then closes it as any
 * connection its client ended.
 *
 * Deadlines alone still let clients from many addresses (a local user has all of
 * 127.0.0.0/8) take every connection again the moment their last ones were cut, ahead
 * of any scrape.  So at most open_max connections are open: a new one beyond them shuts
 * down, at once, the connection that has been idle the longest (waiting for a request,
 * its first or the next on a kept-alive connection), or, when none is idle, the one whose
 * step began the earliest.  A scrape's request comes with its connection and is answered
 * at once; it would take open_max connections accepted after it to push it out.
 *
 * The descriptor stays the server's: it is shut down only while tracked, and the server
 * stops the tracking before it closes it.  The thread sleeps until the earliest
 * deadline, or, with no connection, until one comes.
 */
#ifndef IOSCOPE_HTTP_DEADLINE_H
#define IOSCOPE_HTTP_DEADLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

struct http_deadlines;
struct http_deadline_slot;

/* At most open_max connections open (not shut down), tracked_max tracked (open, or shut
 * down and not yet closed by the server: give the server that limit), each step within
 * ms milliseconds.  Start it with every signal blocked: its thread keeps the mask.  NULL
 * with err. */
struct http_deadlines *http_deadlines_start(size_t open_max, size_t tracked_max, unsigned ms,
					    struct error *err);
void http_deadlines_stop(struct http_deadlines *d);
/* A new connection on fd, idle (no request yet), due ms from now; beyond open_max, the
 * connection idle the longest (else the one whose step began first) is shut down.  NULL
 * when tracked_max are tracked already: then fd itself is shut down. */
struct http_deadline_slot *http_deadlines_add(struct http_deadlines *d, int fd);
/* The next step of the exchange begins, due ms from now (unless shut down already):
 * busy, the request came whole; idle, its response has gone.  s may be NULL. */
void http_deadlines_step(struct http_deadlines *d, struct http_deadline_slot *s, bool idle);
/* The connection is closed: forget it.  s may be NULL. */
void http_deadlines_remove(struct http_deadlines *d, struct http_deadline_slot *s);

#endif
