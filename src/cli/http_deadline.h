/* http_deadline.h - connections that must finish each step of an HTTP exchange in time
 * (--listen, docs/fleet.md).
 *
 * libmicrohttpd's timeout is an idle one: a client that sends a byte of a header every
 * few seconds held a connection for ever, and 32 of them every connection there was.
 * Here each connection has a deadline, set when it is accepted and set again when its
 * request has come whole and when its response has gone; a thread of its own shuts
 * down (shutdown(2)) every connection past it, and the server then closes it as any
 * connection its client ended.  The descriptor stays the server's: it is shut down only
 * while tracked, and the server stops the tracking before it closes it.  The thread
 * sleeps until the earliest deadline, or, with no connection, until one comes.
 */
#ifndef IOSCOPE_HTTP_DEADLINE_H
#define IOSCOPE_HTTP_DEADLINE_H

#include <stddef.h>

#include "error.h"

struct http_deadlines;
struct http_deadline_slot;

/* Up to max connections, each step within ms milliseconds.  Start it with every signal
 * blocked: its thread keeps the mask.  NULL with err. */
struct http_deadlines *http_deadlines_start(size_t max, unsigned ms, struct error *err);
void http_deadlines_stop(struct http_deadlines *d);
/* A new connection on fd, due ms from now; NULL when max are tracked already. */
struct http_deadline_slot *http_deadlines_add(struct http_deadlines *d, int fd);
/* The next step of the exchange begins: due ms from now (unless shut down already). */
void http_deadlines_renew(struct http_deadlines *d, struct http_deadline_slot *s);
/* The connection is closed: forget it.  s may be NULL. */
void http_deadlines_remove(struct http_deadlines *d, struct http_deadline_slot *s);

#endif
