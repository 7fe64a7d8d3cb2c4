/* prom_listen.c - the address and socket of --listen (src/cli/prom_sink.h).  The socket
 * is bound here, not by libmicrohttpd, so that a busy port is said with its cause.
 *
 * Its backlog is the largest the kernel takes (net.core.somaxconn): when the queue of
 * connections not yet accepted is full the kernel drops a new one's SYN and its client
 * tries again only a second later, then 3 s, so a flood of clients that reconnect at once
 * would keep a scrape out however fast the server makes room (src/cli/http_deadline.h).
 * A queue that takes them all lets a scrape wait its turn, a few milliseconds. */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "prom_sink.h"

#define LISTEN_DEFAULT_ADDR "127.0.0.1"

/* Splits "[ADDR:]PORT" / "[V6ADDR]:PORT" into host and port. */
static int split(const char *arg, char *host, size_t hlen, char *port, size_t plen,
		 struct error *err)
{
	const char *colon = strrchr(arg, ':');
	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');
		if (!close || close[1] != ':')
			return error_set(err, "invalid --listen '%s': give [ADDR]:PORT for IPv6", arg);
		snprintf(host, hlen, "%.*s", (int)(close - arg - 1), arg + 1);
		colon = close + 1;
	} else if (!colon) {
		snprintf(host, hlen, "%s", LISTEN_DEFAULT_ADDR);
		snprintf(port, plen, "%s", arg);
		return 0;
	} else if (strchr(arg, ':') != colon) {
		return error_set(err, "invalid --listen '%s': write an IPv6 address in brackets, "
				 "[ADDR]:PORT", arg);
	} else {
		snprintf(host, hlen, "%.*s", (int)(colon - arg), arg);
	}
	snprintf(port, plen, "%s", colon + 1);
	return 0;
}

static int parse_port(const char *arg, const char *port, struct error *err)
{
	char *end;
	long v = strtol(port, &end, 10);
	if (!*port || *end || v < 1 || v > 65535)
		return error_set(err, "invalid --listen '%s': the port is a number from 1 to 65535", arg);
	return 0;
}

int prom_listen_address(const char *arg, struct sockaddr_storage *sa, socklen_t *len,
			struct error *err)
{
	char host[256], port[16];
	if (strlen(arg) >= sizeof host)
		return error_set(err, "invalid --listen: the address is too long");
	if (split(arg, host, sizeof host, port, sizeof port, err) < 0 || parse_port(arg, port, err) < 0)
		return -1;
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai;
	int r = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai);
	if (r)
		return error_set(err, "invalid --listen '%s': %s: %s", arg, host, gai_strerror(r));
	memcpy(sa, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

int prom_listen_socket(const char *arg, struct error *err)
{
	struct sockaddr_storage sa;
	socklen_t len;
	if (prom_listen_address(arg, &sa, &len, err) < 0)
		return -1;
	int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return error_set(err, "--listen %s: %s", arg, strerror(errno));
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, SOMAXCONN) < 0) {
		int e = errno;
		close(fd);
		return error_set(err, "--listen %s: %s", arg, strerror(e));
	}
	return fd;
}
