/* prom_http.c - --listen: /metrics over HTTP with libmicrohttpd (src/cli/prom_sink.h).
 *
 * libmicrohttpd (and the TLS libraries it brings) is opened with dynlib only here, so
 * no other mode loads it (docs/design.md).  It runs its own polling thread; the
 * sampling thread hands over each exposition as a copy under a mutex held only for
 * the copy, and each request gets a copy of its own, so a client that reads slowly or
 * not at all holds nothing the sampler needs.  GET and HEAD of /metrics only: nothing
 * over HTTP changes anything.
 *
 * No client keeps the others out: a client address has at most HTTP_PER_CLIENT_MAX of
 * the HTTP_CONNECTIONS_MAX connections, each step of an exchange (the request coming
 * whole, the response going) has HTTP_STEP_SECONDS in all, however slowly the bytes
 * trickle, and a connection beyond HTTP_CONNECTIONS_MAX shuts down the one idle the
 * longest (src/cli/http_deadline.h): libmicrohttpd's own timeout is an idle one, and its
 * connection limit stops accepting, so clients from many addresses that reconnect at
 * once would be the first accepted every time.  libmicrohttpd's limit leaves room
 * (HTTP_CLOSING_MAX) for connections shut down and not yet closed, so it is not the one
 * that stops a new connection.
 */
#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dynlib.h"
#include "http_deadline.h"
#include "prom_sink.h"

#define MHD_SONAME "libmicrohttpd.so.12"
#define HTTP_CONNECTIONS_MAX 128
#define HTTP_CLOSING_MAX 32
#define HTTP_PER_CLIENT_MAX 8
#define HTTP_STEP_SECONDS 5

struct mhd_lib {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_get_connection_info) *get_connection_info;
};

#define SYM(name) { "MHD_" #name, offsetof(struct mhd_lib, name) }
static const struct dynlib_symbol mhd_symbols[] = {
	SYM(start_daemon), SYM(stop_daemon), SYM(create_response_from_buffer),
	SYM(add_response_header), SYM(queue_response), SYM(destroy_response),
	SYM(lookup_connection_value), SYM(get_connection_info),
};

struct published {
	char *buf;
	size_t len, cap;
};

struct prom_http {
	struct mhd_lib mhd;
	struct MHD_Daemon *daemon;
	struct http_deadlines *deadlines;
	pthread_mutex_t lock;
	bool have;                       /* an exposition was published */
	struct published text, om;
};

static int publish_one(struct published *p, const struct prom_buf *b)
{
	if (b->len > p->cap) {
		char *n = realloc(p->buf, b->len);
		if (!n)
			return -1;
		p->buf = n;
		p->cap = b->len;
	}
	memcpy(p->buf, b->buf, b->len);
	p->len = b->len;
	return 0;
}

int prom_http_publish(struct prom_http *h, const struct prom_buf *text, const struct prom_buf *om)
{
	pthread_mutex_lock(&h->lock);
	int r = publish_one(&h->text, text) < 0 || publish_one(&h->om, om) < 0 ? -1 : 0;
	h->have = h->have || r == 0;
	pthread_mutex_unlock(&h->lock);
	return r;
}

/* A copy of what the format asks for, NULL when nothing was published (or ENOMEM). */
static char *take_copy(struct prom_http *h, enum prom_format f, size_t *len)
{
	pthread_mutex_lock(&h->lock);
	const struct published *p = f == PROM_OPENMETRICS ? &h->om : &h->text;
	char *copy = h->have ? malloc(p->len ? p->len : 1) : NULL;
	if (copy) {
		memcpy(copy, p->buf, p->len);
		*len = p->len;
	}
	pthread_mutex_unlock(&h->lock);
	return copy;
}

static enum MHD_Result reply(struct prom_http *h, struct MHD_Connection *conn, unsigned status,
			     const char *type, char *body, size_t len, bool owned)
{
	struct MHD_Response *r = h->mhd.create_response_from_buffer(
		len, body, owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!r) {
		if (owned)
			free(body);
		return MHD_NO;
	}
	h->mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		h->mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result q = h->mhd.queue_response(conn, status, r);
	h->mhd.destroy_response(r);
	return q;
}

static enum MHD_Result plain(struct prom_http *h, struct MHD_Connection *conn, unsigned status,
			     const char *msg)
{
	return reply(h, conn, status, "text/plain; charset=utf-8", (char *)msg, strlen(msg), false);
}

/* The connection's deadline moves on: its request came whole (busy), or its response
 * went (idle). */
static void next_step(struct prom_http *h, struct MHD_Connection *conn, bool idle)
{
	const union MHD_ConnectionInfo *info =
		h->mhd.get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	if (info)
		http_deadlines_step(h->deadlines, info->socket_context, idle);
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct prom_http *h = cls;
	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		http_deadlines_remove(h->deadlines, *socket_context);
		*socket_context = NULL;
		return;
	}
	const union MHD_ConnectionInfo *info =
		h->mhd.get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	*socket_context = info ? http_deadlines_add(h->deadlines, info->connect_fd) : NULL;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **state,
			 enum MHD_RequestTerminationCode code)
{
	next_step(cls, conn, true);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	struct prom_http *h = cls;
	next_step(h, conn, false);
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return plain(h, conn, MHD_HTTP_METHOD_NOT_ALLOWED, "ioscope serves GET /metrics only\n");
	if (strcmp(url, "/metrics") != 0)
		return plain(h, conn, MHD_HTTP_NOT_FOUND, "ioscope serves /metrics only\n");
	const char *accept = h->mhd.lookup_connection_value(conn, MHD_HEADER_KIND,
							    MHD_HTTP_HEADER_ACCEPT);
	enum prom_format f = prom_negotiate(accept);
	size_t len = 0;
	char *body = take_copy(h, f, &len);
	if (!body)
		return plain(h, conn, MHD_HTTP_SERVICE_UNAVAILABLE, "no sample yet\n");
	return reply(h, conn, MHD_HTTP_OK,
		     f == PROM_OPENMETRICS ? PROM_CONTENT_TYPE_OPENMETRICS : PROM_CONTENT_TYPE_TEXT,
		     body, len, true);
}

/* The server's threads are made with every signal blocked: SIGINT and SIGTERM reach the
 * sampling thread's signalfd, which ends the run cleanly. */
static int start_threads(struct prom_http *h, int fd, const char *listen, struct error *err)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	h->deadlines = http_deadlines_start(HTTP_CONNECTIONS_MAX,
					    HTTP_CONNECTIONS_MAX + HTTP_CLOSING_MAX,
					    HTTP_STEP_SECONDS * 1000, err);
	if (h->deadlines)
		h->daemon = h->mhd.start_daemon(
			MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, NULL, NULL, on_request, h,
			MHD_OPTION_LISTEN_SOCKET, fd,
			MHD_OPTION_CONNECTION_LIMIT,
			(unsigned)(HTTP_CONNECTIONS_MAX + HTTP_CLOSING_MAX),
			MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)HTTP_PER_CLIENT_MAX,
			MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_STEP_SECONDS,
			MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
			MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
			MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->deadlines)
		return -1;
	if (!h->daemon)
		return error_set(err, "--listen %s: the HTTP server did not start", listen);
	return 0;
}

struct prom_http *prom_http_start(const char *listen, struct error *err)
{
	struct prom_http *h = calloc(1, sizeof *h);
	if (!h) {
		error_set(err, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	if (dynlib_load(MHD_SONAME, mhd_symbols, sizeof mhd_symbols / sizeof mhd_symbols[0],
			&h->mhd, err) < 0) {
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg);
		error_set(err, "--listen needs libmicrohttpd (Debian: libmicrohttpd12): %s", why);
		prom_http_stop(h);
		return NULL;
	}
	int fd = prom_listen_socket(listen, err);
	if (fd < 0) {
		prom_http_stop(h);
		return NULL;
	}
	if (start_threads(h, fd, listen, err) < 0) {
		close(fd);
		prom_http_stop(h);
		return NULL;
	}
	return h;
}

void prom_http_stop(struct prom_http *h)
{
	if (!h)
		return;
	if (h->daemon)
		h->mhd.stop_daemon(h->daemon);
	http_deadlines_stop(h->deadlines);
	pthread_mutex_destroy(&h->lock);
	free(h->text.buf);
	free(h->om.buf);
	free(h);
}
