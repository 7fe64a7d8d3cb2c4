/* announce.c - the datagram sockets of the runtime directory (docs/runtime.md).
 *
 * An instance's socket is "PID.sock".  Datagrams keep one message one event, need
 * no connection to tear down, and a sender never blocks on a slow instance (the
 * send is non-blocking; a full queue loses that announcement, and the change is
 * then logged as observed, as before).  SO_PASSCRED lets the listener refuse
 * messages from other users, should the directory's 0700 ever be bypassed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "json_text.h"
#include "announce.h"
#include "runtime_dir.h"

#define SOCKET_SUFFIX ".sock"

struct announce_listener {
	int dirfd;
	int sock;
	const struct announce_codec *codec;
	char name[32];
	size_t taken, dropped;   /* in this interval: events handed out, announcements past the cap */
	char buf[ANNOUNCE_MSG_MAX];
};

/* "PID.sock" -> pid; 0 for any other name. */
static pid_t socket_pid(const char *name)
{
	char *end;
	long pid = strtol(name, &end, 10);
	if (name[0] < '1' || name[0] > '9' || pid <= 0 || strcmp(end, SOCKET_SUFFIX) != 0)
		return 0;
	return (pid_t)pid;
}

static int socket_address(int dirfd, const char *name, struct sockaddr_un *addr)
{
	memset(addr, 0, sizeof *addr);
	addr->sun_family = AF_UNIX;
	return runtime_dir_entry_path(dirfd, name, addr->sun_path, sizeof addr->sun_path);
}

static bool is_socket(int dirfd, const char *name)
{
	struct stat st;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISSOCK(st.st_mode);
}

/* Sockets left by instances that died without cleaning up (kill -9, a crash). */
static void remove_stale(int dirfd)
{
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		pid_t pid = socket_pid(e->d_name);
		if (pid && kill(pid, 0) < 0 && errno == ESRCH && is_socket(dirfd, e->d_name))
			unlinkat(dirfd, e->d_name, 0);
	}
	closedir(dir);
}

static int bind_own(struct announce_listener *l, struct error *err)
{
	struct sockaddr_un addr;
	snprintf(l->name, sizeof l->name, "%ld" SOCKET_SUFFIX, (long)getpid());
	if (socket_address(l->dirfd, l->name, &addr) < 0)
		return error_set(err, "runtime directory: socket path too long");
	l->sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (l->sock < 0)
		return error_errno(err, "socket", errno);
	int on = 1;
	if (setsockopt(l->sock, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) < 0)
		return error_errno(err, "SO_PASSCRED", errno);
	if (is_socket(l->dirfd, l->name))
		unlinkat(l->dirfd, l->name, 0);   /* an earlier process with our pid */
	if (bind(l->sock, (struct sockaddr *)&addr, sizeof addr) < 0)
		return error_errno(err, l->name, errno);
	return 0;
}

struct announce_listener *announce_listen(const struct announce_codec *codec, struct error *err)
{
	struct announce_listener *l = calloc(1, sizeof *l);
	if (!l) {
		error_set(err, "out of memory");
		return NULL;
	}
	l->codec = codec;
	l->sock = -1;
	l->dirfd = runtime_dir_open(true, err);
	if (l->dirfd < 0 || bind_own(l, err) < 0) {
		l->name[0] = '\0';   /* not ours to remove */
		announce_close(l);
		return NULL;
	}
	remove_stale(l->dirfd);
	return l;
}

int announce_fd(const struct announce_listener *l)
{
	return l ? l->sock : -1;
}

void announce_close(struct announce_listener *l)
{
	if (!l)
		return;
	if (l->sock >= 0)
		close(l->sock);
	if (l->dirfd >= 0) {
		if (l->name[0])
			unlinkat(l->dirfd, l->name, 0);
		close(l->dirfd);
	}
	free(l);
}

/* ---- receiving ---- */

static bool sender_allowed(struct msghdr *msg)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_CREDENTIALS)
			continue;
		struct ucred cred;
		memcpy(&cred, CMSG_DATA(c), sizeof cred);
		return cred.uid == geteuid() || cred.uid == 0;
	}
	return false;
}

/* One message -> one event (*ev, to event_free either way); false when it is not an
 * event record we accept. */
static bool parse_message(const struct announce_codec *codec, const char *text, size_t len,
			  struct event *ev, enum announce_phase *phase)
{
	event_init(ev);
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return false;
	json_object *o = json_tokener_parse_ex(tok, text, (int)len);
	bool whole = json_tokener_get_error(tok) == json_tokener_success &&
		     json_tokener_get_parse_end(tok) == len;
	json_tokener_free(tok);
	bool ok = o && whole && codec->decode(o, ev, phase) && strcmp(ev->by, "ioscope") == 0;
	json_object_put(o);
	if (ok && ev->mono.tv_sec == 0 && ev->mono.tv_nsec == 0) {
		clock_gettime(CLOCK_MONOTONIC, &ev->mono);   /* unstamped: it happens now */
		clock_gettime(CLOCK_REALTIME, &ev->wall);
	}
	return ok;
}

/* 1: a message in l->buf (*len); 0: none waiting. */
static int receive(struct announce_listener *l, size_t *len)
{
	for (;;) {
		union {
			struct cmsghdr align;
			char buf[CMSG_SPACE(sizeof(struct ucred))];
		} control;
		struct iovec iov = { l->buf, sizeof l->buf };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = control.buf, .msg_controllen = sizeof control.buf };
		ssize_t n = recvmsg(l->sock, &msg, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 0;
		if ((msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || !sender_allowed(&msg))
			continue;
		*len = (size_t)n;
		return 1;
	}
}

static struct event_list *list_of(const struct announce_lists *to, enum announce_phase phase)
{
	return phase == ANNOUNCE_PENDING ? to->pending
	       : phase == ANNOUNCE_WITHDRAWN ? to->withdrawn : to->made;
}

int announce_take_events(struct announce_listener *l, const struct announce_lists *to)
{
	int added = 0;
	size_t len;
	while (l && receive(l, &len)) {
		if (l->taken == ANNOUNCE_TAKE_MAX) {
			l->dropped++;   /* read all the same: a full queue would keep poll() awake */
			continue;
		}
		struct event ev;
		enum announce_phase phase = ANNOUNCE_MADE;
		struct event_list *list = NULL;
		if (!parse_message(l->codec, l->buf, len, &ev, &phase) ||
		    !(list = list_of(to, phase))) {
			event_free(&ev);
			continue;
		}
		struct event *slot = event_list_add(list);
		if (!slot) {
			event_free(&ev);
			return -1;
		}
		*slot = ev;   /* moved */
		l->taken++;
		added++;
	}
	return added;
}

bool announce_interval_end(struct announce_listener *l, char *note, size_t len)
{
	if (!l)
		return false;
	size_t dropped = l->dropped;
	l->taken = l->dropped = 0;
	if (dropped)
		snprintf(note, len, "%zu announcement%s dropped: at most %d are taken in one "
			 "interval", dropped, dropped == 1 ? "" : "s", ANNOUNCE_TAKE_MAX);
	return dropped > 0;
}

/* ---- sending ---- */

/* 1: delivered; 0: not (a stale socket is removed on the way). */
static int send_to(int dirfd, int sock, const char *name, const char *const *msgs, size_t n)
{
	struct sockaddr_un addr;
	if (socket_address(dirfd, name, &addr) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (sendto(sock, msgs[i], strlen(msgs[i]), MSG_DONTWAIT, (struct sockaddr *)&addr,
			   sizeof addr) >= 0)
			continue;
		if (errno == ECONNREFUSED && is_socket(dirfd, name))
			unlinkat(dirfd, name, 0);   /* nobody listens there any more */
		return 0;
	}
	return 1;
}

/* reached: the pids of the instances reached, up to max (NULL: not wanted). */
static int send_all(int dirfd, const char *const *msgs, size_t n, pid_t *reached_pids,
		    size_t max)
{
	int sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	int reached = 0;
	struct dirent *e;
	while (sock >= 0 && dir && (e = readdir(dir))) {
		pid_t pid = socket_pid(e->d_name);
		if (!pid || pid == getpid() || !is_socket(dirfd, e->d_name) ||
		    !send_to(dirfd, sock, e->d_name, msgs, n))
			continue;
		if (reached_pids && (size_t)reached < max)
			reached_pids[reached] = pid;
		reached++;
	}
	if (dir)
		closedir(dir);
	else if (fd >= 0)
		close(fd);
	if (sock >= 0)
		close(sock);
	return reached;
}

static int announce(const struct announce_codec *codec, const struct event *events, size_t n,
		    enum announce_phase phase, pid_t *pids, size_t max)
{
	struct error err;
	if (n == 0)
		return 0;
	int dirfd = runtime_dir_open(false, &err);
	if (dirfd < 0)
		return 0;
	json_object **objs = calloc(n, sizeof *objs);
	struct json_text *texts = calloc(n, sizeof *texts);
	const char **msgs = calloc(n, sizeof *msgs);
	size_t built = 0;
	for (; objs && texts && msgs && built < n; built++) {
		objs[built] = codec->encode(&events[built], phase);
		texts[built] = json_text_of(objs[built], JSON_TEXT_LINE);
		msgs[built] = texts[built].text;
		if (!msgs[built])
			break;
	}
	int reached = built == n ? send_all(dirfd, msgs, n, pids, max) : 0;
	for (size_t i = 0; objs && texts && i < n; i++) {
		json_text_free(&texts[i]);
		json_object_put(objs[i]);
	}
	free(objs);
	free(texts);
	free(msgs);
	close(dirfd);
	return reached;
}

int announce_events(const struct announce_codec *codec, const struct event *events, size_t n)
{
	return announce(codec, events, n, ANNOUNCE_MADE, NULL, 0);
}

int announce_events_to(const struct announce_codec *codec, const struct event *events, size_t n,
		       pid_t *pids, size_t max)
{
	return announce(codec, events, n, ANNOUNCE_MADE, pids, max);
}

int announce_pending(const struct announce_codec *codec, const struct event *events, size_t n)
{
	return announce(codec, events, n, ANNOUNCE_PENDING, NULL, 0);
}

int announce_withdrawn(const struct announce_codec *codec, const struct event *events, size_t n)
{
	return announce(codec, events, n, ANNOUNCE_WITHDRAWN, NULL, 0);
}
